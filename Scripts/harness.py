"""Shared by Benchmarks/bench.py and deploy/test/ops_check.py (Python 3 stdlib only): processes started and
stopped by pid, loopback ports, waiting, HTTP probes, /proc readings, the nginx temp-path lines, and the one
results format: a `check | result` table (PASS, FAIL or SKIP with a detail) whose last line is
`N passed, N failed` (what .ci/run's run_stage reads; SKIP is neither)."""
import http.client
import os
import random
import signal
import ssl
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Processes:
    """Every process a script starts, so that one `stop_all` in a `finally` stops them, by pid."""

    def __init__(self):
        self.live = []

    def start(self, args, log=None, env=None, **kwargs):
        out = open(log, "ab") if log else subprocess.DEVNULL
        extra_env = {**os.environ, **env} if env else None
        proc = subprocess.Popen([str(a) for a in args], stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, env=extra_env, **kwargs)
        if log:
            out.close()
        self.live.append(proc)
        return proc

    def stop(self, proc, grace=10):
        """TERM, wait up to `grace` seconds, then KILL; None is a no-op."""
        if proc is None:
            return
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc in self.live:
            self.live.remove(proc)

    def stop_all(self):
        for proc in reversed(list(self.live)):
            self.stop(proc)


def raise_on_signals():
    """TERM and INT unwind through `finally` blocks, so cleanup runs whichever way a script ends."""
    def handler(number, _frame):
        raise SystemExit(128 + number)
    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


def wait_for(seconds, predicate, interval=0.2):
    deadline = time.monotonic() + seconds
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)


def apt_install(*packages):
    """Debian packages, installed quietly with apt's retries; a failure shows as the package still missing."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "-o", "Acquire::Retries=3", "update", "-qq"], env=env, check=False)
    subprocess.run(["apt-get", "-o", "Acquire::Retries=3", "install", "-y", "-qq", *packages], env=env, check=False,
                   stdout=subprocess.DEVNULL)


def listening_ports():
    """TCP ports in LISTEN state on any address (state 0A)."""
    return local_ports(state="0A")


def port_free(port):
    return port not in listening_ports()


def free_port(low=20000, high=None):
    """A port no local socket holds (any state), below the kernel's ephemeral range when it starts above `low`: a
    connection some process opens between this choice and the bind then never takes the port (the fleet's etcd
    peers and Petty's etcd clients open many while their neighbours start)."""
    high = high or max(low + 1000, ephemeral_range_start() - 1)
    taken = local_ports()
    for port in random.sample(range(low, high + 1), 100):
        if port not in taken:
            return port
    raise RuntimeError("no free port found")


def ephemeral_range_start():
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def local_ports(state=None):
    """Local TCP ports in /proc/net/tcp and tcp6: of every socket, or only of those in `state` (hex, as the table
    writes it)."""
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    fields = line.split()
                    if state is None or fields[3] == state:
                        ports.add(int(fields[1].rsplit(":", 1)[1], 16))
        except OSError:
            pass
    return ports


class Response:
    def __init__(self, status=0, headers=None, body=b""):
        self.status, self.body = status, body
        self.headers = {k.lower(): v for k, v in (headers or [])}

    def header(self, name):
        return self.headers.get(name.lower(), "")


def http_get(url, headers=None, timeout=5, connection=None):
    """GET without following redirects; certificates are not verified (self-signed on loopback). Status 0 on
    a connection error. Pass `connection` (from `connect`) to reuse one keep-alive connection."""
    scheme, _, rest = url.partition("://")
    hostport, slash, path = rest.partition("/")
    own = connection is None
    try:
        conn = connection or connect(scheme, hostport, timeout)
        conn.request("GET", slash + path, headers=headers or {})
        reply = conn.getresponse()
        return Response(reply.status, reply.getheaders(), reply.read())
    except (OSError, http.client.HTTPException):
        if not own:
            connection.close()  # reopened by the next request
        return Response()
    finally:
        if own and "conn" in locals():
            conn.close()


def connect(scheme, hostport, timeout=5):
    if scheme == "https":
        return http.client.HTTPSConnection(hostport, timeout=timeout, context=ssl._create_unverified_context())
    return http.client.HTTPConnection(hostport, timeout=timeout)


def proc_status_kb(pid, field="VmRSS", missing=0):
    """A /proc/<pid>/status figure in kB (VmRSS, VmHWM, ...); `missing` when the process or the field is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return missing


def children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


def tree_rss_kb(pid):
    """A process and its children (nginx: master and workers)."""
    return sum(proc_status_kb(p) for p in [pid, *children(pid)])


def nginx_temp_paths(directory):
    """The http-block lines that keep nginx's temp files in a directory the script owns."""
    return "\n".join(f"    {kind}_temp_path {directory}/{kind};" for kind in
                     ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))


class Results:
    """Rows of (check, PASS/FAIL/SKIP, detail); `print_table` ends with `N passed, N failed`."""

    def __init__(self):
        self.rows = []

    def add(self, name, verdict, detail=""):
        self.rows.append((name, verdict, detail))

    def passed(self, name, detail=""):
        self.add(name, "PASS", detail)

    def failed(self, name, detail=""):
        self.add(name, "FAIL", detail)

    def skipped(self, name, detail=""):
        self.add(name, "SKIP", detail)

    def check(self, name, ok, detail=""):
        """PASS or FAIL; the detail is shown with a FAIL only."""
        self.add(name, "PASS" if ok else "FAIL", "" if ok else detail)
        return ok

    def count(self, verdict):
        return sum(1 for row in self.rows if row[1] == verdict)

    def summary(self):
        return f"{self.count('PASS')} passed, {len(self.rows) - self.count('PASS') - self.count('SKIP')} failed"

    def print_table(self, width=62):
        print(f"{'check':<{width}} | result")
        print(f"{'-' * width}-+-------")
        for name, verdict, detail in self.rows:
            print(f"{name:<{width}} | {verdict}{f' ({detail})' if detail else ''}")
        print(self.summary())
