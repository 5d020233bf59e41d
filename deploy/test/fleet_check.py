"""The fleet on a real etcd (issue 24): 3 etcd members and 3 Petty instances on loopback behind the shipped nginx
config, a fake FuelWatch and a fake NSW FuelCheck whose logs say which instance polled (each instance has its own
base-URL prefix; deploy/test/fleet_fakes.py), and a reader through nginx every 100 ms throughout. Prints a
`check | result` table ending `N passed, N failed`.

The members run under Debian's libfaketime (installed when missing; deploy/test/fleet_clock.py, with the timerfd
fix deploy/test/fleet_timerfd.c preloaded before it) with a constant offset that puts Perth at 16:00 in them when
the run starts, and the fakes date their feeds by that shifted clock: scenario 6 needs FuelWatch's tomorrow window
(14:30-06:00 Perth), in which alone the WA poller asks for `Day=tomorrow`, and so it runs whatever the real time is
(never skipped: a member clock outside the window fails it). etcd, nginx and the checker keep the real clock.

    fleet_check.py             the seven scenarios of the issue's "How it is checked"
    fleet_check.py --load=3,5  the fleet benchmark row: etcd requests (RPCs started: unary calls and streams
                               opened), stream messages and bytes per second at idle, per fleet size, by gRPC method
    fleet_check.py --round2    issue 46's scenarios: etcd-writer attacks, the wrong PETTY_FLEET_SECRET (stuck and
                               degraded), a pointer naming a member's own URL, members at -1 h and +1 h, a typo'd
                               fleet name, etcd wiped and rebuilt (with a samples-only member; with a stale member
                               that kept its data)
    fleet_check.py --round2=rebuild   only the last three (R5-R7)
    fleet_check.py --failover  the Benchmarks `failover` row: kill -9 the leader 5 times, median seconds to the
                               first provider call by the new leader and to every member serving the new version

FLEET_LEASE (default 5 s: etcd's own leader election takes about a second, and one etcd member down
must not cost the fleet its leader) is PETTY_LEASE_SECONDS; FLEET_WINDOW (default 120 s, the issue's "two minutes") is the length
of scenario 1; FLEET_LOAD_SECONDS (default 60) the load row's measuring window. FLEET_KEEP=1 keeps the temp dir; FLEET_BINARY runs that `Run` instead of a release build. Python 3 stdlib only; processes are stopped by pid."""
import base64
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "Scripts"))
from harness import ROOT, Processes, Results, apt_install, free_port, http_get, nginx_temp_paths, raise_on_signals, wait_for  # noqa: E402
from fleet_clock import MemberClock, build_timerfd_shim, ensure_libfaketime, in_tomorrow_window  # noqa: E402
from fleet_fakes import NSW, FuelWatch, poll_runs  # noqa: E402

LEASE = int(os.environ.get("FLEET_LEASE", "5"))
WINDOW = float(os.environ.get("FLEET_WINDOW", "120"))
ROOT_PASSWORD = "fleet-check-secret"
FLEET = "fleetcheck"


def note(message):
    print(f"  [{time.strftime('%H:%M:%S')}] {message}", flush=True)


def b64(text):
    return base64.b64encode(text.encode()).decode()


# --- etcd ---------------------------------------------------------------------------------------------------

def ensure_etcd():
    if not shutil.which("etcd"):
        note("installing Debian's etcd-server")
        apt_install("etcd-server")
    if not shutil.which("etcd"):
        return None
    out = subprocess.run(["etcd", "--version"], capture_output=True, text=True).stdout
    match = re.search(r"etcd Version: (\S+)", out)
    return match.group(1) if match else "unknown"


class Etcd:
    """Three members on loopback; `kill(i)` and `start(i)` by pid, the data directory kept."""

    def __init__(self, procs, work):
        self.procs, self.work = procs, work
        self.client = [free_port() for _ in range(3)]
        self.peer = [free_port() for _ in range(3)]
        self.live = [None, None, None]
        self.token = None
        self.cluster_token = "fleet-check"

    def endpoints(self):
        return ",".join(f"http://127.0.0.1:{p}" for p in self.client)

    def start(self, i):
        cluster = ",".join(f"e{j}=http://127.0.0.1:{self.peer[j]}" for j in range(3))
        self.live[i] = self.procs.start([
            "etcd", "--name", f"e{i}", "--data-dir", self.work / f"etcd{i}",
            "--listen-client-urls", f"http://127.0.0.1:{self.client[i]}",
            "--advertise-client-urls", f"http://127.0.0.1:{self.client[i]}",
            "--listen-peer-urls", f"http://127.0.0.1:{self.peer[i]}",
            "--initial-advertise-peer-urls", f"http://127.0.0.1:{self.peer[i]}",
            "--initial-cluster", cluster, "--initial-cluster-token", self.cluster_token, "--initial-cluster-state", "new",
        ], log=self.work / f"etcd{i}.log")

    def last_words(self):
        """Why a member did not come up: each one's exit status and the last line of its log."""
        return "; ".join(process_words(f"e{i}", self.live[i], self.work / f"etcd{i}.log", lines=1, width=200)
                         for i in range(3))

    def kill(self, i):
        proc = self.live[i]
        if proc:
            proc.kill()
            proc.wait()
            self.procs.live.remove(proc)
            self.live[i] = None

    def call(self, path, body, member=None, token=None, timeout=3):
        port = self.client[member] if member is not None else next(
            self.client[i] for i in range(3) if self.live[i] is not None)
        request = urllib.request.Request(f"http://127.0.0.1:{port}/v3/{path}", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        if token or self.token:
            request.add_header("Authorization", token or self.token)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as reply:
                return json.loads(reply.read().splitlines()[0])
        except urllib.error.HTTPError as error:
            return json.loads(error.read() or b"{}")
        except OSError:
            return None

    def ready(self, member):
        answer = self.call("kv/range", {"key": b64("/")}, member=member)
        return answer is not None and ("header" in answer or "invalid auth token" in str(answer))

    def enable_auth(self):
        """root user with the root role, then auth on (what `etcdctl auth enable` does)."""
        for path, body in (("auth/user/add", {"name": "root", "password": ROOT_PASSWORD}),
                           ("auth/role/add", {"name": "root"}),
                           ("auth/user/grant", {"user": "root", "role": "root"}),
                           ("auth/enable", {})):
            answer = self.call(path, body)
            if answer is None or "error" in answer and "already" not in str(answer):
                return f"{path}: {answer}"
        answer = self.call("auth/authenticate", {"name": "root", "password": ROOT_PASSWORD})
        self.token = (answer or {}).get("token")
        return None if self.token else f"authenticate: {answer}"

    def put(self, key, value):
        """Writes `key` as any holder of the fleet's keys could (root, authenticated on the member it writes to)."""
        for i in range(3):
            if self.live[i] is None:
                continue
            token = (self.call("auth/authenticate", {"name": "root", "password": ROOT_PASSWORD}, member=i) or {}).get("token")
            answer = self.call("kv/put", {"key": b64(key), "value": b64(value)}, member=i, token=token) or {}
            if "header" in answer:
                return True
        return False

    def get(self, key):
        """(value, create_revision) of `key`, or (None, 0). Simple tokens belong to one member (and die with it):
        authenticate and read on the same member."""
        for i in range(3):
            if self.live[i] is None:
                continue
            token = (self.call("auth/authenticate", {"name": "root", "password": ROOT_PASSWORD}, member=i) or {}).get("token")
            answer = self.call("kv/range", {"key": b64(key)}, member=i, token=token) or {}
            if "header" not in answer:
                continue
            kvs = answer.get("kvs") or []
            if not kvs:
                return None, 0
            return base64.b64decode(kvs[0].get("value", "")).decode(), int(kvs[0].get("create_revision", "0"))
        return None, 0


def start_etcd(procs, work):
    """(Etcd, all three answer). The first cluster that is not answering within 60 s is stopped, with a note of each
    member's last words, and one more is started on fresh ports and data directories: this is the check's own
    scaffolding, and what it tests begins once etcd answers."""
    for attempt in (1, 2):
        directory = work / f"etcd-try{attempt}"
        directory.mkdir()
        etcd = Etcd(procs, directory)
        for i in range(3):
            etcd.start(i)
        if wait_for(60, lambda: all(etcd.ready(i) for i in range(3)), 0.3):
            return etcd, True
        if attempt == 1:
            note(f"etcd not answering within 60 s, starting it again on fresh ports: {etcd.last_words()}")
            for i in range(3):
                etcd.kill(i)
    return etcd, False


def process_words(name, proc, log, lines, width, extra=""):
    """One member's last words: its exit status (None while it runs), `extra`, and the last `lines` of its log."""
    text = log.read_text(errors="replace").strip().splitlines() if log.exists() else []
    status = proc.poll() if proc else "stopped"
    tail = " | ".join(line[-width:] for line in text[-lines:]) if text else "no log"
    return f"{name} exit={status}{' ' + extra if extra else ''}: {tail}"


# --- Petty instances and nginx ------------------------------------------------------------------------------

class Fleet:
    def __init__(self, procs, work, etcd, fake, nsw, binary, clock):
        self.procs, self.work, self.etcd, self.fake, self.nsw, self.binary = procs, work, etcd, fake, nsw, binary
        self.clock = clock
        self.ports = [free_port() for _ in range(3)]
        self.live = [None, None, None]
        self.nginx_port = free_port()
        self.nginx = None
        self.secret = None

    def start(self, i, password=ROOT_PASSWORD, port=None, name=None, secret=None, shift=0, fleet=FLEET):
        """`secret` overrides the fleet's PETTY_FLEET_SECRET (`self.secret`); `shift` moves this member's clock by
        that many seconds beyond the fleet's libfaketime offset."""
        port = port or self.ports[i]
        name = name or f"m{i}"
        extra = {}
        if secret or self.secret:
            extra["PETTY_FLEET_SECRET"] = secret or self.secret
        clock_env = self.clock.env()
        if shift and "FAKETIME" in clock_env:
            clock_env["FAKETIME"] = f"{self.clock.offset + shift:+d}"
        env = {"PETTY_PROVIDERS": "wa,nsw", "PETTY_WA_BASE_URL": f"{self.fake.url}/{name}", "PETTY_WA_POLL_SECONDS": "60",
               "PETTY_NSW_BASE_URL": f"{self.nsw.url}/{name}", "PETTY_NSW_API_KEY": "fleet-key",
               "PETTY_NSW_API_SECRET": "fleet-secret", "PETTY_NSW_POLL_SECONDS": "60",
               "PETTY_PROVIDER_TIMEOUT_SECONDS": "5", "PETTY_ETCD_ENDPOINTS": self.etcd.endpoints(),
               "PETTY_ETCD_USERNAME": "root", "PETTY_ETCD_PASSWORD": password, "PETTY_FLEET": fleet,
               "PETTY_ADVERTISE_URL": f"http://127.0.0.1:{port}", "PETTY_LEASE_SECONDS": str(LEASE),
               # The environment, not `serve` flags: under libfaketime the Swift runtime sees an empty argv.
               "PETTY_PORT": str(port), "PETTY_DATA_DIR": str(self.work / f"data-{name}"),
               "PETTY_PUBLIC_DIR": str(ROOT / "Public"), "PETTY_LOG_LEVEL": "info", **clock_env, **extra}
        proc = self.procs.start([self.binary, "serve"], log=self.work / f"{name}.log", env=env)
        if port == self.ports[i] and name == f"m{i}":
            self.live[i] = proc
        return proc

    def kill(self, i, sig=signal.SIGKILL):
        proc = self.live[i]
        proc.send_signal(sig)
        proc.wait()
        self.procs.live.remove(proc)
        self.live[i] = None

    def last_words(self):
        """Why an instance does not serve: each one's exit status, whether /health answers, the end of its log."""
        return "; ".join(
            process_words(f"m{i}", self.live[i], self.work / f"m{i}.log", lines=3, width=160,
                          extra=f"/health={http_get(f'http://127.0.0.1:{self.ports[i]}/health', timeout=2).status or 'no answer'}")
            for i in range(3))

    def health(self, i, port=None):
        reply = http_get(f"http://127.0.0.1:{port or self.ports[i]}/health", timeout=5)
        try:
            return json.loads(reply.body) if reply.status in (200, 503) else None
        except ValueError:
            return None

    def wall_clock(self, i):
        """The member's own wall clock (epoch seconds), read from its `Date` header; None if it does not answer."""
        reply = http_get(f"http://127.0.0.1:{self.ports[i]}/health", timeout=5)
        return MemberClock.from_date_header(reply.header("Date")) if reply.status else None

    def coordination(self, i):
        return (self.health(i) or {}).get("coordination") or {}

    def leaders(self):
        return [i for i in range(3) if self.live[i] and self.coordination(i).get("role") == "leader"]

    def version(self, i):
        return ((self.health(i) or {}).get("snapshot") or {}).get("version", -1)

    def start_nginx(self, members=(0, 1, 2), workers=1, rate_limited=True):
        """The shipped config with `members` as upstreams; `rate_limited=False` drops the per-IP limit (a
        benchmark is one client at thousands of requests a second)."""
        conf = self.work / "nginx"
        (conf / "tmp").mkdir(parents=True, exist_ok=True)
        locations = (ROOT / "deploy/nginx/petty-locations.conf").read_text().replace("/srv/petty/Public", str(ROOT / "Public"))
        if not rate_limited:
            locations = re.sub(r"\n\s*limit_req[ _][^\n]*", "", locations)
        (conf / "petty-locations.conf").write_text(locations)
        site = (ROOT / "deploy/nginx/petty.conf").read_text()
        servers = "".join(f"    server 127.0.0.1:{self.ports[i]} max_fails=3 fail_timeout=10s;\n" for i in members)
        site = re.sub(r"    server 127\.0\.0\.1:8080 [^\n]*\n", servers, site)
        # Only the HTTPS server block is kept, served as plain HTTP on loopback; the reader alone must not hit
        # the per-IP rate limit, which is for many clients.
        site = site[:site.index("# --- HTTP: ACME")] + "server {\n    listen 127.0.0.1:%d;\n    server_tokens off;\n" \
            "    include %s;\n}\n" % (self.nginx_port, conf / "petty-locations.conf")
        site = site.replace("zone=petty_api:10m rate=50r/s", "zone=petty_api:10m rate=200r/s")
        (conf / "site.conf").write_text(site)
        user = "user root;\n" if os.getuid() == 0 else ""
        (conf / "nginx.conf").write_text(f"""{user}worker_processes {workers};
daemon off;
pid {conf}/nginx.pid;
error_log {conf}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    access_log {conf}/access.log;
{nginx_temp_paths(conf / "tmp")}
    include {conf}/site.conf;
}}
""")
        test = subprocess.run(["nginx", "-t", "-c", conf / "nginx.conf"], capture_output=True, text=True)
        if test.returncode != 0:
            return test.stderr.strip()[-300:]
        self.nginx = self.procs.start(["nginx", "-c", conf / "nginx.conf"], log=self.work / "nginx.log")
        return None


class Reader(threading.Thread):
    """GET /v1/stations through nginx every 100 ms; every answer is kept with its time."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.url = f"http://127.0.0.1:{port}/v1/stations?state=WA&limit=3"
        self.answers = []
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            started = time.monotonic()
            reply = http_get(self.url, timeout=10)
            self.answers.append((started, reply.status, time.monotonic() - started))
            time.sleep(0.1)

    def failures(self, since, until=None):
        return [a for a in self.answers if a[0] >= since and (until is None or a[0] < until) and a[1] != 200]

    def count(self, since, until=None):
        return len([a for a in self.answers if a[0] >= since and (until is None or a[0] < until)])


# --- the run ------------------------------------------------------------------------------------------------

def one_leader(fleet, seconds):
    found = []
    ok = wait_for(seconds, lambda: len(found.__setitem__(slice(None), fleet.leaders()) or found) == 1, 0.2)
    return found[0] if ok else None


def first_call_after(fake, since, exclude=None):
    calls = [c for c in fake.calls_by(since) if c[1] != exclude]
    return calls[0] if calls else None


def tomorrow_everywhere(fleet):
    for i in range(3):
        if not fleet.live[i]:
            continue
        reply = http_get(f"http://127.0.0.1:{fleet.ports[i]}/v1/tomorrow?state=WA&fuel=U91", timeout=2)
        try:
            body = json.loads(reply.body)
        except ValueError:
            return False
        if not (body.get("data") or {}).get("available"):
            return False
    return True


def calls_of(fakes, since=0.0, until=None):
    return [c for fake in fakes for c in fake.calls_by(since, until)]


def one_poller_at_a_time(results, fakes, handovers, since):
    """Two members polling at once interleave their calls (WA's and NSW's together): more runs of one instance than
    the handovers the run caused (kill -9, SIGSTOP, etcd lost), or one instance's call within a second of
    another's (a real handover waits out the old lease)."""
    runs = poll_runs(calls_of(fakes, since))
    quick = [(a[0], b[0], b[1] - a[2]) for a, b in zip(runs, runs[1:]) if b[1] - a[2] < 1.0]
    shown = ", ".join(f"{r[0]}x{r[3]}" for r in runs)
    results.check(f"never two instances polling in the same window (WA and NSW: {len(runs)} runs, at most "
                  f"{handovers + 1} for {handovers} handovers)", len(runs) <= handovers + 1 and not quick,
                  f"runs: {shown}; handed over within 1 s: {quick}")
    return shown


def scenarios(results, fleet, etcd, fake, nsw, reader, timings):
    started = time.monotonic()
    handovers = 0
    # 7 runs beside 1: a member with the wrong etcd password, never polling.
    wrong_port = free_port()
    wrong = fleet.start(0, password="not-the-password", port=wrong_port, name="wrong")
    leader = one_leader(fleet, 60)
    if leader is None:
        results.failed("a leader is elected at start", f"leaders: {fleet.leaders()}")
        return
    note(f"m{leader} leads at epoch {fleet.coordination(leader).get('epoch')}")
    wait_for(30, lambda: len({fleet.version(i) for i in range(3)}) == 1 and fleet.version(0) > 0, 0.5)

    # 1. Exactly one instance polls over the window.
    window_start = time.monotonic()
    time.sleep(WINDOW)
    pollers = {c[1] for c in fake.calls_by(started)}
    nsw_pollers = {c[1] for c in nsw.calls_by(started)}
    leader = one_leader(fleet, LEASE + 10)
    changes = [fleet.coordination(i).get("leader_changes") for i in range(3)]
    results.check(f"1. exactly one instance polls over {time.monotonic() - started:.0f} s (the whole run so far)",
                  leader is not None and pollers == {f"m{leader}"}, f"polled: {sorted(pollers)}, leader changes seen {changes}")
    results.check("1. ... and it is the one instance polling NSW", leader is not None and nsw_pollers == {f"m{leader}"},
                  f"NSW polled by: {sorted(nsw_pollers)}")
    timings["1"] = (f"{len(fake.calls_by(started))} WA and {len(nsw.calls_by(started))} NSW calls in "
                    f"{time.monotonic() - started:.0f} s, all by m{leader}"
                    if pollers | nsw_pollers == {f"m{leader}"} else f"WA {sorted(pollers)}, NSW {sorted(nsw_pollers)}")
    if leader is None:
        return

    # 7. The member with wrong credentials: never polled, and says why.
    wait_for(60, lambda: fleet.health(None, port=wrong_port) is not None, 0.5)
    wrong_health = (fleet.health(None, port=wrong_port) or {}).get("coordination") or {}
    results.check("7. wrong etcd credentials: never polls, /health says why",
                  "wrong" not in pollers | nsw_pollers and "authentication failed" in wrong_health.get("etcd", ""),
                  f"polled={sorted(pollers)} etcd={wrong_health.get('etcd')}")
    timings["7"] = f"0 calls in {time.monotonic() - started:.0f} s; etcd: {wrong_health.get('etcd', '')[:60]}"
    fleet.procs.stop(wrong)

    # 2 and 6. kill -9 the leader while tomorrow's WA prices are published.
    found = one_leader(fleet, 10)
    leader = found if found is not None else leader
    fake.tomorrow_published = True
    killed = time.monotonic()
    fleet.kill(leader)
    handovers += 1
    call = None
    wait_for(LEASE + 20, lambda: first_call_after(fake, killed, exclude=f"m{leader}") is not None, 0.1)
    call = first_call_after(fake, killed, exclude=f"m{leader}")
    took = call[0] - killed if call else None
    wait_for(LEASE + 20, lambda: first_call_after(nsw, killed, exclude=f"m{leader}") is not None, 0.1)
    nsw_call = first_call_after(nsw, killed, exclude=f"m{leader}")
    nsw_took = nsw_call[0] - killed if nsw_call else None
    read_window = killed + max(took or 20, LEASE) + 10
    time.sleep(max(0.0, read_window - time.monotonic()))
    failed_reads = reader.failures(killed, read_window)
    results.check(f"2. kill -9 the leader: another polls within lease + 5 s ({LEASE + 5} s)",
                  took is not None and took <= LEASE + 5, f"first call after {took}")
    new_pollers = {c[1] for c in calls_of((fake, nsw), killed, read_window)}
    results.check(f"2. ... NSW polling moves to the new leader within lease + 5 s, no other instance polls after the kill",
                  nsw_took is not None and nsw_took <= LEASE + 5 and call is not None and new_pollers == {call[1]},
                  f"first NSW call after {nsw_took}; polled after the kill: {sorted(new_pollers)}")
    results.check("2. no read through nginx fails during the failover", not failed_reads,
                  f"{len(failed_reads)} failed of {reader.count(killed, read_window)}")
    timings["2"] = (f"first call by the new leader {took:.1f} s after kill -9; {reader.count(killed, read_window)} reads "
                    f"in the {read_window - killed:.0f} s after, {len(failed_reads)} failed; first NSW call "
                    f"{nsw_took if nsw_took is None else round(nsw_took, 1)} s") if took else "no call"
    ok = wait_for(LEASE + 15, lambda: tomorrow_everywhere(fleet), 0.25)
    reached = time.monotonic() - killed
    clocks = [fleet.wall_clock(i) for i in range(3) if fleet.live[i]]
    outside = [fleet.clock.perth(c) if c else "no answer" for c in clocks if not c or not in_tomorrow_window(c)]
    results.check(f"6. tomorrow's WA prices published in a failover reach every instance within lease + 15 s",
                  ok and not outside, f"not everywhere after {reached:.1f} s" if not outside else
                  f"member clocks outside 14:30-06:00 Perth: {outside}")
    timings["6"] = (f"on every live instance {reached:.1f} s after kill -9 (members at Perth "
                    f"{fleet.clock.perth()})") if ok else "not reached"
    new_leader = one_leader(fleet, LEASE + 10)
    fleet.start(leader)
    wait_for(30, lambda: fleet.health(leader) is not None, 0.3)
    leader = new_leader if new_leader is not None else one_leader(fleet, 20)
    if leader is None:
        results.failed("a leader after the failover")
        return

    # 3. SIGSTOP the leader for 3 leases, then SIGCONT.
    old_epoch = fleet.coordination(leader).get("epoch")
    frozen = fleet.live[leader]
    frozen.send_signal(signal.SIGSTOP)
    handovers += 1
    stopped = time.monotonic()
    time.sleep(3 * LEASE)
    frozen.send_signal(signal.SIGCONT)
    resumed = time.monotonic()
    time.sleep(max(5, LEASE + 2))
    late = [c for c in calls_of((fake, nsw), resumed) if c[1] == f"m{leader}"]
    coordination = fleet.coordination(leader)
    pointer, _ = etcd.get(f"/{FLEET}/dataset")
    pointer_epoch = json.loads(pointer).get("epoch") if pointer else None
    results.check("3. SIGSTOP 3 leases + SIGCONT: no provider call after resuming", not late,
                  f"{len(late)} calls, first {late[0][0] - resumed:.2f} s after SIGCONT" if late else "")
    results.check("3. its epoch no longer publishes; /health shows it as follower",
                  coordination.get("role") == "follower" and pointer_epoch is not None and pointer_epoch != old_epoch,
                  f"role={coordination.get('role')} pointer epoch={pointer_epoch} old={old_epoch}")
    frozen_failures = reader.failures(stopped, resumed + 5)
    results.check("3. reads through nginx stay 200 while it is frozen", not frozen_failures,
                  f"{len(frozen_failures)} failed")
    slowest = max((a[2] for a in reader.answers if stopped <= a[0] < resumed), default=0)
    timings["3"] = (f"0 calls after SIGCONT; follower at epoch {coordination.get('epoch')} (was {old_epoch}); "
                    f"slowest read while frozen {slowest:.1f} s") if not late else f"{len(late)} late calls"
    leader = one_leader(fleet, LEASE + 10)
    if leader is None:
        results.failed("a leader after SIGCONT")
        return

    # 4. etcd members: one down changes nothing; two down stops polling; restored, one leader again.
    epoch = fleet.coordination(leader).get("epoch")
    etcd.kill(0)  # the endpoint every member tries first
    time.sleep(2 * LEASE + 2)
    epochs = {fleet.coordination(i).get("epoch") for i in range(3)} - {None}
    results.check("4. one etcd member killed: no leader change", fleet.leaders() == [leader] and epochs == {epoch},
                  f"leaders={fleet.leaders()} epochs={epochs}")
    etcd.kill(1)
    handovers += 1
    lost = time.monotonic()
    wait_for(LEASE + 3, lambda: not fleet.leaders(), 0.2)
    time.sleep(LEASE + 3)
    after = calls_of((fake, nsw), lost + LEASE)
    reads_ok = not reader.failures(lost)
    etcd_says = fleet.coordination(leader).get("etcd", "")
    results.check("4. two etcd members killed: polling stops within one lease, reads stay 200",
                  not after and reads_ok and not fleet.leaders(),
                  f"calls after a lease: {len(after)}, failed reads: {len(reader.failures(lost))}, leaders {fleet.leaders()}")
    etcd.start(0)
    etcd.start(1)
    restored = time.monotonic()
    new = one_leader(fleet, LEASE + 10 + 5)
    took = time.monotonic() - restored
    results.check("4. etcd restored: one leader within lease + 10 s", new is not None and took <= LEASE + 10,
                  f"leader {new} after {took:.1f} s")
    timings["4"] = (f"1 down: epoch {epoch} kept; 2 down: polling stopped, /health etcd: {etcd_says[:40]}; "
                    f"restored: leader after {took:.1f} s")
    leader = new if new is not None else one_leader(fleet, 20)
    if leader is None:
        return

    # 5. A member with an empty data directory never leads before it holds the published version.
    fresh = next(i for i in range(3) if i != leader)
    fleet.kill(fresh, signal.SIGTERM)
    shutil.rmtree(fleet.work / f"data-m{fresh}", ignore_errors=True)
    published = json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}").get("version", 0)
    fleet.start(fresh)
    wait_for(60, lambda: fleet.health(fresh) is not None, 0.2)
    answering = time.monotonic()
    fleet.kill(leader)  # the fresh member must not step in before it has caught up
    handovers += 1
    bad_lead, served = [], None
    deadline = answering + 15
    while time.monotonic() < deadline:
        health = fleet.health(fresh) or {}
        role = (health.get("coordination") or {}).get("role")
        version = (health.get("snapshot") or {}).get("version", -1)
        if role == "leader" and version < published:
            bad_lead.append(version)
        if served is None and version >= published:
            served = time.monotonic() - answering
        time.sleep(0.1)
    results.check("5. an empty member never leads before it holds the published version", published > 0 and not bad_lead,
                  f"led holding {bad_lead[:3]} < v{published}" if bad_lead else "no published version read from etcd")
    results.check("5. ... and serves it within 15 s", served is not None, "not within 15 s")
    timings["5"] = f"serves v{published}+ {served:.1f} s after it answered; never led behind" if served is not None else "not served"
    wait_for(LEASE + 15, lambda: len(fleet.leaders()) == 1, 0.2)
    timings["runs"] = one_poller_at_a_time(results, (fake, nsw), handovers, started)
    fleet.start(leader)


class Evil(threading.Thread):
    """A host of the etcd writer's choosing: counts every request and keeps any Authorization header sent."""

    def __init__(self):
        super().__init__(daemon=True)
        import http.server
        evil = self
        self.requests, self.authorizations = [], []

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                evil.requests.append(self.path)
                if self.headers.get("Authorization"):
                    evil.authorizations.append(self.headers["Authorization"])
                body = b"PTYREPL1 not a dataset"
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.port = self.server.server_address[1]

    def run(self):
        self.server.serve_forever()


def dataset_requests(fleet, name):
    log = fleet.work / f"{name}.log"
    return log.read_text(errors="replace").count(" GET /internal/v1/dataset ") if log.exists() else 0


def metric(fleet, i, name):
    reply = http_get(f"http://127.0.0.1:{fleet.ports[i]}/metrics", timeout=5)
    match = re.search(rf"^{name} (\S+)$", reply.body.decode(errors="replace") if reply.body else "", re.M)
    return float(match.group(1)) if match else None


def settled(fleet, seconds):
    """Every live member serving the published version: (ok, versions, pointer version)."""
    def check():
        pointer = json.loads(etcd_of(fleet).get(f"/{FLEET}/dataset")[0] or "{}")
        versions = {fleet.version(i) for i in range(3) if fleet.live[i]}
        return versions == {pointer.get("version")}
    ok = wait_for(seconds, check, 0.5)
    pointer = json.loads(etcd_of(fleet).get(f"/{FLEET}/dataset")[0] or "{}")
    return ok, [fleet.version(i) for i in range(3)], pointer.get("version")


def etcd_of(fleet):
    return fleet.etcd


def round_two(results, fleet, etcd, fake, nsw, reader, timings):
    """Issue 46's scenarios on the real etcd: the etcd-writer attacks, a member with the wrong secret (stuck, and
    says so), a pointer naming a member's own URL, members at -1 h and +1 h."""
    leader = one_leader(fleet, 60)
    if leader is None:
        results.failed("a leader is elected at start", f"leaders: {fleet.leaders()}")
        return
    ok, versions, published = settled(fleet, 60)
    results.check("R0. signed fleet: every member serves the published (signed) version", ok,
                  f"versions {versions}, pointer v{published}")
    signing = {fleet.coordination(i).get("signing") for i in range(3)}
    results.check("R0. /health coordination.signing is hmac-sha256 on every member", signing == {"hmac-sha256"}, f"{signing}")
    timings["R0"] = f"v{published} everywhere; signing {signing}"

    # R1. The etcd writer's pointer: current epoch, version + 1, its own host and checksum; then with userinfo.
    evil = Evil()
    evil.start()
    follower = next(i for i in range(3) if i != leader)
    before = [fleet.version(i) for i in range(3)]
    rewritten = []
    for label, url in (("its own host", f"http://127.0.0.1:{evil.port}/internal/v1/dataset"),
                       ("a URL with userinfo", f"http://petty:s3cret-in-url@127.0.0.1:{evil.port}/internal/v1/dataset"),
                       ("a follower's URL (not the leader's)", f"http://127.0.0.1:{fleet.ports[follower]}/internal/v1/dataset")):
        genuine = json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}")
        forged = dict(genuine, version=genuine.get("version", 0) + 1, url=url, checksum="fnv1a64:1")
        forged.pop("signature", None)
        written = time.monotonic()
        etcd.put(f"/{FLEET}/dataset", json.dumps(forged))
        back = wait_for(LEASE, lambda: json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}").get("url") != url, 0.1)
        rewritten.append((label, round(time.monotonic() - written, 2) if back else None))
        time.sleep(2)
    after = [fleet.version(i) for i in range(3)]
    logs = "".join((fleet.work / f"m{i}.log").read_text(errors="replace") for i in range(3))
    results.check("R1. etcd-writer pointers (own host, userinfo, a follower's URL): no request reaches the writer's host",
                  not evil.requests, f"{len(evil.requests)} requests: {evil.requests[:3]}")
    results.check("R1. ... nothing foreign served: every member's version unchanged or moved only with the leader",
                  all(a >= b for a, b in zip(after, before)) and settled(fleet, LEASE + 5)[0], f"before {before}, after {after}")
    results.check("R1. ... no credentials sent or logged", not evil.authorizations and "s3cret-in-url" not in logs,
                  f"Authorization headers {evil.authorizations[:2]}; in logs: {'s3cret-in-url' in logs}")
    results.check(f"R1. ... the leader rewrites each forged pointer within a lease ({LEASE} s)",
                  all(r[1] is not None for r in rewritten), f"{rewritten}")
    timings["R1"] = f"0 requests to the writer's host; rewritten after {[r[1] for r in rewritten]} s"
    evil.server.shutdown()

    # R2. A pointer naming a follower's own URL, at the leader's epoch (what a deposed leader reads of itself).
    own_before = dataset_requests(fleet, f"m{follower}")
    genuine = json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}")
    own = dict(genuine, version=genuine.get("version", 0) + 1, url=f"http://127.0.0.1:{fleet.ports[follower]}/internal/v1/dataset")
    for _ in range(10):
        etcd.put(f"/{FLEET}/dataset", json.dumps(own))
        time.sleep(0.3)
    time.sleep(2)
    self_copies = dataset_requests(fleet, f"m{follower}") - own_before
    results.check("R2. a pointer naming a member's own URL, written 10 times: at most one self-copy attempt",
                  self_copies <= 1, f"{self_copies} requests to m{follower}'s /internal/v1/dataset")
    timings["R2"] = f"{self_copies} dataset requests reached m{follower} in 5 s"

    # R3. A member with the wrong secret: never applies the fleet's data, and is degraded within a lease + a bit.
    odd_port = free_port()
    odd = fleet.start(0, port=odd_port, name="oddsecret", secret="not-this-fleets-secret-at-all")
    wait_for(60, lambda: fleet.health(None, port=odd_port) is not None, 0.3)
    began = time.monotonic()
    degraded = wait_for(LEASE + 15, lambda: ((fleet.health(None, port=odd_port) or {}).get("coordination") or {}).get("degraded"), 0.5)
    took = time.monotonic() - began
    health = fleet.health(None, port=odd_port) or {}
    reason = (health.get("coordination") or {}).get("degraded", "")
    published = json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}").get("version")
    stuck = float((re.search(r"^petty_fleet_follower_stuck (\S+)$", http_get(f"http://127.0.0.1:{odd_port}/metrics", timeout=5).body.decode(errors="replace"), re.M) or [None, "nan"])[1])
    results.check("R3. a member with the wrong PETTY_FLEET_SECRET never serves the fleet's dataset",
                  ((health.get("snapshot") or {}).get("version")) != published, f"serves v{(health.get('snapshot') or {}).get('version')}, published v{published}")
    results.check(f"R3. ... /health degraded with the reason within lease + 15 s, petty_fleet_follower_stuck 1",
                  bool(degraded) and health.get("status") == "degraded" and "signature" in reason and stuck == 1,
                  f"after {took:.1f} s: status {health.get('status')}, reason {reason[:120]!r}, stuck {stuck}")
    timings["R3"] = f"degraded {took:.1f} s after it answered: {reason[:90]}"
    fleet.procs.stop(odd)

    # R4. Members at -1 h and +1 h (libfaketime): one dataset fleet-wide, and the skew measured.
    leader = one_leader(fleet, LEASE + 10)
    shifted = [i for i in range(3) if i != leader]
    for i, shift in zip(shifted, (-3600, 3600)):
        fleet.kill(i, signal.SIGTERM)
        fleet.live[i] = fleet.start(i, shift=shift)
    wait_for(60, lambda: all(fleet.health(i) for i in shifted), 0.3)
    restarted = time.monotonic()
    start_version = json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}").get("version", 0)
    moved = wait_for(180, lambda: json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}").get("version", 0) > start_version, 0.2)
    ok, took, published = one_dataset_within_a_lease(fleet, etcd)
    versions = [fleet.version(i) for i in range(3)]
    skews = [fleet.coordination(i).get("clock_skew_seconds") for i in shifted]
    results.check(f"R4. members at -1 h and +1 h: one dataset fleet-wide within a lease of a new publication",
                  moved and ok, f"new publication: {moved}; versions {versions}, pointer v{published}")
    results.check("R4. ... each measures the leader's clock skew (about +3600 and -3600 s) in /health",
                  all(s is not None for s in skews) and abs(skews[0] - 3600) < 5 and abs(skews[1] + 3600) < 5, f"skews {skews}")
    gauge = metric(fleet, shifted[0], "petty_fleet_clock_skew_seconds")
    results.check("R4. ... and in /metrics (petty_fleet_clock_skew_seconds)", gauge is not None and abs(gauge - 3600) < 5, f"{gauge}")
    timings["R4"] = (f"v{published} on every member {took:.1f} s after its publication ({time.monotonic() - restarted:.0f} s after the restart at -1 h/+1 h); "
                     f"skews {skews}")
    for i in shifted:
        fleet.kill(i, signal.SIGTERM)
        fleet.live[i] = fleet.start(i)


def one_dataset_within_a_lease(fleet, etcd):
    """Whether every member serves the published version within a lease of its publication (the leader may publish
    again while followers copy, which restarts the lease): (ok, seconds taken, the version)."""
    published_at, seen = time.monotonic(), None
    while time.monotonic() - published_at <= LEASE:
        current = json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}").get("version")
        if current != seen:
            seen, published_at = current, time.monotonic() if seen is not None else published_at
        if {fleet.version(i) for i in range(3)} == {current}:
            return True, time.monotonic() - published_at, seen
        time.sleep(0.2)
    return False, time.monotonic() - published_at, seen


def round_two_five_minutes(results, fleet, etcd, timings):
    """R4b: clocks 5 minutes apart, inside any tolerance a clock comparison would allow. The followers are restarted at
    -5 min and +5 min, then the leader is killed so that one of them leads: whatever it stamps, every member takes
    each dataset it publishes, and each follower measures the new leader's skew."""
    leader = one_leader(fleet, LEASE + 10)
    others = [i for i in range(3) if i != leader]
    shifts = {leader: 0, others[0]: -300, others[1]: 300}
    for i in others:
        fleet.kill(i, signal.SIGTERM)
        fleet.live[i] = fleet.start(i, shift=shifts[i])
    wait_for(60, lambda: all(fleet.health(i) for i in others), 0.3)
    settled(fleet, LEASE + 10)
    before = [fleet.version(i) for i in range(3)]
    fleet.kill(leader)
    killed = time.monotonic()
    new_leader = None
    if wait_for(LEASE * 4, lambda: fleet.leaders() != [], 0.2):
        new_leader = fleet.leaders()[0]
    fleet.live[leader] = fleet.start(leader)
    wait_for(60, lambda: fleet.health(leader) is not None, 0.3)
    start_version = json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}").get("version", 0)
    moved = wait_for(180, lambda: json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}").get("version", 0) > start_version, 0.2)
    ok, took, published = one_dataset_within_a_lease(fleet, etcd)
    after = [fleet.version(i) for i in range(3)]
    results.check("R4b. members at -5 min and +5 min, one of them leading: one dataset fleet-wide within a lease of a new publication",
                  new_leader in others and moved and ok,
                  f"leader m{new_leader} at {shifts.get(new_leader, 0):+d} s; new publication: {moved}; versions {after}, pointer v{published}")
    results.check("R4b. ... no member's version went backwards", all(a >= b for a, b in zip(after, before)),
                  f"before {before}, after {after}")
    followers = [i for i in range(3) if i != new_leader]
    # A member measures the skew at a pointer that changes while it watches: the restarted one may have found the
    # new leader's first publication at its start, so it measures at the next poll's.
    wait_for(90, lambda: all(fleet.coordination(i).get("clock_skew_seconds") is not None for i in followers), 0.5)
    skews = {i: fleet.coordination(i).get("clock_skew_seconds") for i in followers}
    expected = {i: shifts.get(new_leader, 0) - shifts[i] for i in followers}
    results.check("R4b. ... each follower measures the leader's skew (leader's shift minus its own) in /health",
                  new_leader is not None and all(skews[i] is not None and abs(skews[i] - expected[i]) < 5 for i in followers),
                  f"skews {skews}, expected {expected}")
    timings["R4b"] = (f"m{new_leader} at {shifts.get(new_leader, 0):+d} s led {time.monotonic() - killed:.0f} s before the check; "
                      f"v{published} on every member {took:.1f} s after its publication; skews {skews} (expected {expected})")
    for i in others:
        fleet.kill(i, signal.SIGTERM)
        fleet.live[i] = fleet.start(i)
    wait_for(60, lambda: all(fleet.health(i) for i in range(3)), 0.3)


def round_two_rebuild(results, fleet, etcd, timings):
    """R5 and R6: a typo'd fleet name is warned; etcd wiped and rebuilt as a new cluster while a member holding only
    samples comes back: it never leads, no member's version goes backwards, every member follows the new cluster."""
    typo_port = free_port()
    typo = fleet.start(0, port=typo_port, name="typo", fleet=FLEET.capitalize())
    wait_for(60, lambda: fleet.health(None, port=typo_port) is not None, 0.3)
    began = time.monotonic()
    warned = wait_for(30, lambda: ((fleet.health(None, port=typo_port) or {}).get("coordination") or {}).get("warnings"), 0.5)
    warnings = ((fleet.health(None, port=typo_port) or {}).get("coordination") or {}).get("warnings") or []
    results.check(f"R5. PETTY_FLEET={FLEET.capitalize()} beside the fleet {FLEET}: warned in /health within 30 s",
                  bool(warned) and any(f"'{FLEET}'" in w for w in warnings), f"{warnings}")
    timings["R5"] = f"warned {time.monotonic() - began:.1f} s after it answered: {warnings[:1]}"
    fleet.procs.stop(typo)

    leader = one_leader(fleet, LEASE + 10)
    ok, _, _ = settled(fleet, 30)
    stale = next(i for i in range(3) if i != leader)
    ids_before = int(etcd.get(f"/{FLEET}/ids")[0] or 0)
    fleet.kill(stale, signal.SIGTERM)
    shutil.rmtree(fleet.work / f"data-m{stale}", ignore_errors=True)
    live = [i for i in range(3) if i != stale]
    before = {i: fleet.version(i) for i in live}
    for i in range(3):
        etcd.kill(i)
        shutil.rmtree(etcd.work / f"etcd{i}", ignore_errors=True)
    etcd.cluster_token = "fleet-check-rebuilt"
    etcd.token = None  # the old cluster's token: the new one stalls on it
    for i in range(3):
        etcd.start(i)
    up = wait_for(60, lambda: all(etcd.ready(i) for i in range(3)), 0.3)
    problem = etcd.enable_auth() if up else "etcd did not answer"
    rebuilt = time.monotonic()
    fleet.live[stale] = fleet.start(stale)
    backwards, stale_led = [], []
    deadline = rebuilt + 4 * LEASE + 20
    followed = None
    while time.monotonic() < deadline:
        for i in live:
            version = fleet.version(i)
            if 0 <= version < before[i]:
                backwards.append((i, before[i], version))
        if fleet.coordination(stale).get("role") == "leader":
            stale_led.append(time.monotonic() - rebuilt)
        pointer = json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}")
        if followed is None and pointer and {fleet.version(i) for i in range(3)} == {pointer.get("version")}:
            followed = time.monotonic() - rebuilt
        time.sleep(0.5)
    pointer = json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}")
    ids_after = int(etcd.get(f"/{FLEET}/ids")[0] or 0)
    generations = [fleet.coordination(i).get("epoch") for i in range(3)]
    results.check("R6. etcd wiped and rebuilt as a new cluster (auth re-enabled)", up and problem is None, problem or "")
    results.check("R6. ... the member back with only samples never leads", not stale_led, f"led at {stale_led[:3]} s")
    results.check("R6. ... no member's version goes backwards", not backwards, f"{backwards[:3]}")
    results.check(f"R6. ... every member serves the new cluster's pointer within 4 leases + 20 s",
                  followed is not None, f"pointer {pointer.get('version')}@{pointer.get('epoch')}, versions "
                  f"{[fleet.version(i) for i in range(3)]}, before {before}")
    results.check("R6. ... the id mark survives the rebuild (ids never reused)", ids_after >= ids_before,
                  f"/ids before {ids_before}, after {ids_after}")
    timings["R6"] = (f"followed after {followed if followed is None else round(followed, 1)} s; pointer "
                     f"v{pointer.get('version')} epoch {pointer.get('epoch')}; epochs {generations}; ids {ids_before} -> {ids_after}")


def station_ids(fleet, i, name):
    """The ids member `i` serves for stations named `name` (found by its search)."""
    reply = http_get(f"http://127.0.0.1:{fleet.ports[i]}/v1/stations?q={urllib.parse.quote(name)}&limit=50", timeout=5)
    try:
        body = json.loads(reply.body) if reply.status == 200 else {}
    except ValueError:
        return []
    found = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("name") == name and isinstance(node.get("id"), int):
                found.append(node["id"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(body)
    return sorted(set(found))


def rebuild_etcd(etcd, token):
    """etcd wiped (every member's data directory) and started again as a new cluster, auth re-enabled: None or why not."""
    for i in range(3):
        etcd.kill(i)
        shutil.rmtree(etcd.work / f"etcd{i}", ignore_errors=True)
    etcd.cluster_token = token
    etcd.token = None  # the old cluster's token: the new one stalls on it
    for i in range(3):
        etcd.start(i)
    if not wait_for(60, lambda: all(etcd.ready(i) for i in range(3)), 0.3):
        return "etcd did not answer"
    return etcd.enable_auth()


def round_two_stale_rebuild(results, fleet, etcd, fake, timings):
    """R7: etcd wiped and rebuilt while a member that kept its (older) data directory was down. While it was down a
    station new to the feed got an id and the fleet published past its version; after the rebuild another new station
    appears. It never leads while behind, no version goes backwards, no id is reused (the first new station keeps its
    id everywhere, the second gets a higher one), the generation in the pointer moves up (the new cluster's epochs
    restart small), and every member serves each new publication within a lease of it."""
    leader = one_leader(fleet, LEASE + 10)
    if leader is None:
        results.failed("R7. a leader before the stale member stops", f"leaders: {fleet.leaders()}")
        return
    settled(fleet, 30)
    stale = next(i for i in range(3) if i != leader)
    fleet.kill(stale, signal.SIGTERM)
    live = [i for i in range(3) if i != stale]
    fake.new_stations = ["Fleet New 1"]
    wait_for(180, lambda: all(station_ids(fleet, i, "Fleet New 1") for i in live), 1)
    first_ids = {i: station_ids(fleet, i, "Fleet New 1") for i in live}
    settled_live = wait_for(LEASE + 10, lambda: len({fleet.version(i) for i in live}) == 1, 0.3)
    before_pointer = json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}")
    ids_before = int(etcd.get(f"/{FLEET}/ids")[0] or 0)
    before = {i: fleet.version(i) for i in live}
    note(f"R7: m{stale} down; 'Fleet New 1' is {first_ids}; pointer v{before_pointer.get('version')} epoch "
         f"{before_pointer.get('epoch')} generation {before_pointer.get('generation', 0)}; /ids {ids_before}")

    problem = rebuild_etcd(etcd, "fleet-check-rebuilt-again")
    rebuilt = time.monotonic()
    fleet.live[stale] = fleet.start(stale)
    fake.new_stations = ["Fleet New 1", "Fleet New 2"]
    # Each publication seen: (generation, epoch, version) -> when; served once every member serves it or a newer
    # version (a publication superseded within a second, by the new leader's first poll, counts when its successor is).
    backwards, stale_led, published, lags = [], [], {}, {}
    served = False
    deadline = rebuilt + 4 * LEASE + 120
    while time.monotonic() < deadline:
        versions = {i: fleet.version(i) for i in range(3)}
        backwards += [(i, before[i], versions[i]) for i in live if 0 <= versions[i] < before[i]]
        if fleet.coordination(stale).get("role") == "leader" and 0 <= versions[stale] < max(before.values()):
            stale_led.append(round(time.monotonic() - rebuilt, 1))
        pointer = json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}")
        if pointer:
            published.setdefault((pointer.get("generation", 0), pointer.get("epoch"), pointer.get("version")), time.monotonic())
        low = min(versions.values())
        for key, at in published.items():
            if key not in lags and low >= key[2]:
                lags[key] = round(time.monotonic() - at, 1)
        served = bool(published) and len(lags) == len(published)
        if served and all(station_ids(fleet, i, "Fleet New 2") for i in range(3)):
            break
        time.sleep(0.5)
    after_pointer = json.loads(etcd.get(f"/{FLEET}/dataset")[0] or "{}")
    ids_after = int(etcd.get(f"/{FLEET}/ids")[0] or 0)
    first_after = {i: station_ids(fleet, i, "Fleet New 1") for i in range(3)}
    second = {i: station_ids(fleet, i, "Fleet New 2") for i in range(3)}
    old_id = max((ids[0] for ids in first_ids.values() if ids), default=None)
    results.check("R7. etcd wiped and rebuilt again while a member with older data was down (auth re-enabled)",
                  problem is None and settled_live and old_id is not None,
                  problem or f"live members settled {settled_live}, 'Fleet New 1' {first_ids}")
    results.check("R7. ... the stale member never leads while behind", not stale_led, f"led at {stale_led[:3]} s")
    results.check("R7. ... no member's version goes backwards", not backwards, f"{backwards[:3]}")
    results.check("R7. ... the pointer's generation moves up (epochs restarted small)",
                  after_pointer.get("generation", 0) > before_pointer.get("generation", 0),
                  f"before g{before_pointer.get('generation', 0)} e{before_pointer.get('epoch')}, "
                  f"after g{after_pointer.get('generation', 0)} e{after_pointer.get('epoch')}")
    reused = [i for i in range(3) if first_after[i] != [old_id]] + \
        [i for i in range(3) if not second[i] or min(second[i]) <= max(old_id or 0, ids_before)]
    results.check("R7. ... ids never reused: 'Fleet New 1' keeps its id on every member, 'Fleet New 2' gets a higher one",
                  not reused and ids_after >= ids_before,
                  f"'Fleet New 1' {first_after}, 'Fleet New 2' {second}, /ids {ids_before} -> {ids_after}")
    lags = [lags.get(key) for key in sorted(published, key=published.get)]
    results.check(f"R7. ... every member serves each new publication (or a newer one) within a lease ({LEASE} s)",
                  bool(lags) and all(lag is not None and lag <= LEASE for lag in lags), f"lags {lags}")
    timings["R7"] = (f"pointer g{before_pointer.get('generation', 0)}/e{before_pointer.get('epoch')}/v{before_pointer.get('version')} -> "
                     f"g{after_pointer.get('generation', 0)}/e{after_pointer.get('epoch')}/v{after_pointer.get('version')}; "
                     f"'Fleet New 1' id {old_id}, 'Fleet New 2' {second.get(0)}; /ids {ids_before} -> {ids_after}; "
                     f"served within {lags} s of each publication")
    fake.new_stations = []


def etcd_load(etcd):
    """What etcd has handled so far, summed over its members, from its gRPC counters (the JSON gateway's calls go
    through them too): {"requests": RPCs started (a unary call, or a stream opened), "messages": messages received
    on streams (a watch's create, each keep-alive of a streamed session), "bytes": client bytes in and out,
    ("requests", method) and ("messages", method): the same by gRPC method}."""
    load = {"requests": 0.0, "messages": 0.0, "bytes": 0.0}
    for port in etcd.client:
        reply = http_get(f"http://127.0.0.1:{port}/metrics", timeout=5)
        text = reply.body.decode(errors="replace") if reply.body else ""
        for line in text.splitlines():
            value = line.rsplit(" ", 1)[-1]
            method = line.split('grpc_method="', 1)[1].split('"', 1)[0] if 'grpc_method="' in line else "?"
            if line.startswith("grpc_server_started_total{"):
                load["requests"] += float(value)
                load["requests", method] = load.get(("requests", method), 0.0) + float(value)
            elif line.startswith("grpc_server_msg_received_total{") and 'grpc_type="unary"' not in line:
                load["messages"] += float(value)
                load["messages", method] = load.get(("messages", method), 0.0) + float(value)
            elif line.startswith(("etcd_network_client_grpc_received_bytes_total", "etcd_network_client_grpc_sent_bytes_total")):
                load["bytes"] += float(value)
    return load


def load_rows(results, fleet, etcd, sizes, seconds=None):
    """The fleet benchmark row: etcd requests, stream messages and bytes per second at idle (no dataset change), per
    fleet size, measured over FLEET_LOAD_SECONDS (default 60 s: several safety-net reads of every member)."""
    seconds = seconds or int(os.environ.get("FLEET_LOAD_SECONDS", "60"))
    rows = []
    for size in sizes:
        ports = [free_port() for _ in range(size - 3)]
        procs = [fleet.start(0, port=port, name=f"load{size}-{k}") for k, port in enumerate(ports)]
        up = wait_for(300, lambda: all(fleet.health(None, port=port) for port in ports), 1)
        if not up:
            note(f"{size} members: not all answered within 300 s")
        time.sleep(max(20, 3 * LEASE))
        before = etcd_load(etcd)
        time.sleep(seconds)
        after = etcd_load(etcd)
        rate = {key: (after.get(key, 0.0) - before.get(key, 0.0)) / seconds for key in after}
        rows.append((size, rate["requests"], rate["bytes"]))
        split = ", ".join(f"{key[1]} {value:.2f}" for key, value in sorted(rate.items(), key=lambda kv: str(kv[0]))
                          if isinstance(key, tuple) and key[0] == "requests" and value > 0)
        streamed = ", ".join(f"{key[1]} {value:.2f}" for key, value in sorted(rate.items(), key=lambda kv: str(kv[0]))
                             if isinstance(key, tuple) and key[0] == "messages" and value > 0)
        note(f"{size} members at idle (lease {LEASE} s, {seconds} s): {rate['requests']:.2f} etcd requests/s "
             f"({rate['requests'] / size:.3f} per member, {rate['requests'] * LEASE / size:.2f} per member per lease), "
             f"{rate['bytes'] / 1024:.1f} KiB/s; requests by method: {split or 'none'}; "
             f"stream messages/s: {rate['messages']:.2f} ({streamed or 'none'})")
        for proc in procs:
            fleet.procs.stop(proc)
    results.check(f"etcd load measured at idle for {', '.join(map(str, sizes))} members", len(rows) == len(sizes), f"{rows}")
    return rows


def failover_runs(fleet, fake, runs=5):
    rows = []
    for n in range(runs):
        leader = one_leader(fleet, 60)
        if leader is None:
            break
        wait_for(30, lambda: len({fleet.version(i) for i in range(3)}) == 1, 0.3)
        before = max(fleet.version(i) for i in range(3))
        killed = time.monotonic()
        fleet.kill(leader)
        wait_for(LEASE + 30, lambda: first_call_after(fake, killed, exclude=f"m{leader}") is not None, 0.05)
        call = first_call_after(fake, killed, exclude=f"m{leader}")
        others = [i for i in range(3) if fleet.live[i]]
        wait_for(60, lambda: all(fleet.version(i) > before for i in others), 0.1)
        served = time.monotonic() - killed
        if call:
            rows.append((call[0] - killed, served))
            note(f"run {n + 1}: first provider call {call[0] - killed:.2f} s, every member on the new version {served:.2f} s")
        fleet.start(leader)
        wait_for(60, lambda: fleet.health(leader) is not None, 0.3)
    return rows


def main():
    raise_on_signals()
    failover = "--failover" in sys.argv
    rebuild_only = "--round2=rebuild" in sys.argv
    second = "--round2" in sys.argv or rebuild_only
    load = next(([int(n) for n in a.split("=", 1)[1].split(",")] for a in sys.argv if a.startswith("--load=")), None)
    results = Results()
    work = Path(tempfile.mkdtemp(prefix="petty-fleet."))
    procs = Processes()
    fake = nsw = None
    timings = {}
    try:
        version = ensure_etcd()
        if not version:
            results.failed("etcd-server installed", "apt-get install etcd-server failed")
            return results
        results.check(f"etcd {version} installed (Debian etcd-server)", version.startswith("3."), version)
        library = ensure_libfaketime()
        if not library:
            results.failed("libfaketime installed (Debian faketime)", "apt-get install faketime failed")
            return results
        shim, problem = build_timerfd_shim(work)
        if not shim:
            results.failed("deploy/test/fleet_timerfd.c compiled (libfaketime's timerfd fix)", problem)
            return results
        clock = MemberClock(library, shim)
        note(f"members' clock: {clock.offset:+d} s (libfaketime), Perth {clock.perth()} in them")
        binary = release_binary(results)
        if not binary:
            return results
        etcd, up = start_etcd(procs, work)
        results.check("3 etcd members answer on the v3 JSON gateway (/v3/kv/range)", up, etcd.last_words())
        if not up:
            return results
        problem = etcd.enable_auth()
        results.check("etcd auth enabled (root user and role)", problem is None, problem or "")
        fake, nsw = FuelWatch(clock.now), NSW(clock.now)
        for server in (fake, nsw):
            threading.Thread(target=server.serve_forever, daemon=True).start()
        fleet = Fleet(procs, work, etcd, fake, nsw, binary, clock)
        if second:
            fleet.secret = "fleet-check-signing-secret"
        for i in range(3):
            fleet.start(i)
        problem = fleet.start_nginx()
        results.check("the shipped nginx config (3 upstreams) passes nginx -t", problem is None, problem or "")
        serving = wait_for(120, lambda: all(fleet.health(i) for i in range(3)), 0.5)
        results.check("3 Petty instances serve", serving, "" if serving else fleet.last_words())
        if not serving or problem:
            return results
        skew = [None if c is None else round(c - clock.now(), 1) for c in (fleet.wall_clock(i) for i in range(3))]
        results.check(f"members' wall clock shifted {clock.offset:+d} s by libfaketime (Perth {clock.perth()}, "
                      f"tomorrow window)", all(s is not None and abs(s) <= 2 for s in skew) and in_tomorrow_window(clock.now()),
                      f"member clock minus expected: {skew} s")
        reader = Reader(fleet.nginx_port)
        reader.start()
        try:
            if failover:
                rows = failover_runs(fleet, fake)
                ok = len(rows) == 5
                if rows:
                    poll = statistics.median(r[0] for r in rows)
                    serve = statistics.median(r[1] for r in rows)
                    note(f"failover (lease {LEASE} s), median of {len(rows)}: first provider call {poll:.2f} s, "
                         f"every member serving the new version {serve:.2f} s")
                results.check("failover: 5 kill -9 runs measured", ok, f"{len(rows)} runs")
            elif load:
                one_leader(fleet, 60)
                load_rows(results, fleet, etcd, sorted(load))
            elif second:
                if not rebuild_only:
                    round_two(results, fleet, etcd, fake, nsw, reader, timings)
                    round_two_five_minutes(results, fleet, etcd, timings)
                round_two_rebuild(results, fleet, etcd, timings)
                round_two_stale_rebuild(results, fleet, etcd, fake, timings)
            else:
                scenarios(results, fleet, etcd, fake, nsw, reader, timings)
        finally:
            reader.stopping.set()
        total = reader.count(0)
        failed = len(reader.failures(0))
        note(f"reads through nginx: {total}, failed {failed}")
        for key in sorted(timings):
            note(f"scenario {key}: {timings[key]}")
    finally:
        tear_down((fake, nsw), procs, work)
    return results


def release_binary(results):
    """FLEET_BINARY, or the release build of `Run` (built now); None after recording a failed build."""
    binary = os.environ.get("FLEET_BINARY")
    if binary:
        return binary
    build = subprocess.run(["swift", "build", "-c", "release", "--product", "Run"], cwd=ROOT, capture_output=True, text=True)
    if build.returncode != 0:
        results.failed("release build", build.stderr[-300:])
        return None
    return ROOT / ".build/release/Run"


def tear_down(servers, procs, work, then=()):
    """Stops the fake servers and every process, then runs `then` (say, stopping a database that outlives them);
    the work directory is kept with FLEET_KEEP set."""
    for server in servers:
        if server:
            server.shutdown()
    procs.stop_all()
    for step in then:
        step()
    if os.environ.get("FLEET_KEEP"):
        note(f"kept {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


def run_as_script(main, what):
    """Runs `main`, prints its table and how long it took, and exits 0 only when nothing failed."""
    started = time.monotonic()
    outcome = main()
    print(f"{what} took {time.monotonic() - started:.0f} s")
    outcome.print_table()
    sys.exit(0 if outcome.summary().endswith(" 0 failed") else 1)


if __name__ == "__main__":
    run_as_script(main, "fleet check")
