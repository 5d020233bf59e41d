"""Follower attacks: the real binary follows (`PETTY_FOLLOW_URL`, `PETTY_FOLLOW_SECONDS=1`) a hostile fake leader.
Whatever the leader sends, the follower keeps serving the last good dataset it copied, says why in
/health (`follow.status` "failing", `last_error`), keeps its memory bounded, and still has the good data after a
restart.

    python3 Robustness/follower.py [--quick] [--only empty_dataset,empty_body,older,sample_restart,truncated,cut,garbage,endless,trickle]

The datasets come from real leaders (the same binary): one polls a fake WA feed (upstream.py's) so its dataset
holds live WA data; it is recorded before that poll (sample only), after it, and after a restart and a second
poll (a newer version: the GOOD dataset the followers copy first). A leader with no sample data gives an empty
dataset. The fake leader then replays those bytes and headers, or worse.

`trickle` (one byte a second) can only fail at the follower's whole-transfer deadline (60 s), so it runs on a
second follower from the start, alongside the other scenarios, and is checked last."""

import http.server
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
import urllib.request

from common import HOST, Checks, PeakMemory, Server, free_port, require_binary, simple_get, stop_upstream
from upstream import FIXTURE, Fake, provider, wait_for

DATASET_PATH = "/internal/v1/dataset"
MIB = 1 << 20
RSS_BOUND_KIB = 300 * 1024
STREAM_SECONDS = 30    # the endless body gives up after this long, or STREAM_BYTES
STREAM_BYTES = 1 << 30  # (enough to prove a 64 MiB cap; a follower without one must not take the machine down)
TRICKLE_SECONDS = 90   # the trickle gives up after this (the follower's deadline is 60 s)
TRICKLE_DEADLINE = 60


def fetch_dataset(port):
    # The sealed form (checksum line at the end), as a follower asks for it: an unsealed body is refused.
    request = urllib.request.Request(f"http://{HOST}:{port}{DATASET_PATH}", headers={"Accept": "application/vnd.petty.dataset+sealed"})
    with urllib.request.urlopen(request, timeout=30) as response:
        headers = [(k, v) for k, v in response.headers.items() if k.lower() in ("content-type", "etag", "last-modified", "cache-control")]
        return {"body": response.read(), "headers": headers, "etag": response.headers.get("ETag")}


class FakeLeader(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, datasets):
        self.datasets = datasets
        self.mode = "good"
        self.requests = 0
        self.sent = 0
        self.stream_ended = None
        self.closing = threading.Event()
        super().__init__((HOST, free_port()), LeaderHandler)

    @property
    def url(self):
        return f"http://{HOST}:{self.server_address[1]}"

    def handle_error(self, request, client_address):
        pass

    def set(self, mode):
        self.mode = mode
        self.sent = 0
        self.stream_ended = None


class LeaderHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=(), length=None):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        server = self.server
        server.requests += 1
        mode = server.mode
        good = server.datasets["good"]
        if not self.path.startswith(DATASET_PATH):
            self.send(404)
        elif mode == "good":
            if self.headers.get("If-None-Match") == good["etag"]:
                self.send(304, headers=[h for h in good["headers"] if h[0].lower() != "content-type"])
            else:
                self.send(200, good["body"], good["headers"])
        elif mode in ("empty_dataset", "older", "sample_restart"):
            dataset = server.datasets[mode]
            self.send(200, dataset["body"], dataset["headers"])
        elif mode == "empty_body":
            self.send(200, b"", [("Content-Type", "application/vnd.petty.dataset"), ("ETag", '"attack-empty-body"')])
        elif mode == "truncated":  # framed correctly, but only the first half of the payload
            self.send(200, good["body"][:len(good["body"]) // 2], [("Content-Type", "application/vnd.petty.dataset"), ("ETag", '"attack-truncated"')])
        elif mode == "cut":  # promises the whole payload, sends half, hangs up
            self.send(200, good["body"][:len(good["body"]) // 2], [("Content-Type", "application/vnd.petty.dataset"), ("ETag", '"attack-cut"')],
                      length=len(good["body"]))
            self.close_connection = True
        elif mode == "garbage":  # the right magic, then noise
            rng = random.Random(11)
            body = good["body"][:8] + bytes(rng.getrandbits(8) for _ in range(256 * 1024))
            self.send(200, body, [("Content-Type", "application/vnd.petty.dataset"), ("ETag", '"attack-garbage"')])
        elif mode == "endless":
            self.stream_endless(good["body"])
        elif mode == "trickle":
            self.stream_trickle(good["body"])
        else:
            self.send(503, b"down")

    def stream_endless(self, good):
        self.send_response(200)
        self.send_header("Content-Type", "application/vnd.petty.dataset")
        self.send_header("ETag", '"attack-endless"')
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        chunk = (good[:65536] * 2)[:65536]
        framed = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
        started = time.time()
        sent = 0  # its own count: the scenario may end (and reset the leader's) while this still streams
        try:
            while time.time() - started < STREAM_SECONDS and sent < STREAM_BYTES and not self.server.closing.is_set():
                self.wfile.write(framed)
                sent += len(chunk)
                self.server.sent += len(chunk)
        except OSError:
            pass
        self.server.stream_ended = time.time() - started

    def stream_trickle(self, good):
        self.send_response(200)
        self.send_header("Content-Type", "application/vnd.petty.dataset")
        self.send_header("ETag", '"attack-trickle"')
        self.send_header("Content-Length", str(len(good)))
        self.end_headers()
        started = time.time()
        try:
            for byte in good:
                if time.time() - started > TRICKLE_SECONDS or self.server.closing.is_set():
                    break
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                self.server.sent += 1
                time.sleep(1)
        except OSError:
            pass
        self.server.stream_ended = time.time() - started


def follow(health):
    return (health or {}).get("follow") or {}


def record_leaders(checks, work):
    """Runs real leaders; returns {name: dataset} and the GOOD dataset's facts."""
    with open(FIXTURE, "rb") as f:
        wa = Fake(f.read().decode("utf-8"), None)
    threading.Thread(target=wa.serve_forever, daemon=True).start()
    env = {"PETTY_PROVIDERS": "wa", "PETTY_WA_BASE_URL": wa.url, "PETTY_WA_POLL_SECONDS": "600",
           "PETTY_PROVIDER_TIMEOUT_SECONDS": "30"}
    data = os.path.join(work, "leader-data")
    datasets = {}
    try:
        wa.gate.clear()
        leader = Server(log_level="warning", environ=env, data_dir=data)
        try:
            datasets["sample_restart"] = fetch_dataset(leader.port)  # what a leader restarted on samples serves
            wa.gate.set()
            live = wait_for(lambda: (lambda p: p and p.get("source") == "live")(provider(leader.health(), "wa")), 45, every=0.2)
            if not checks.check("leader: the fake WA feed gave the leader live data", bool(live)):
                return None, None
            datasets["older"] = fetch_dataset(leader.port)
            older_version = leader.health()["snapshot"]["version"]
        finally:
            leader.stop()
            leader.cleanup()
        # Restarted on its directory, it polls again: a newer version, the GOOD one.
        leader = Server(log_level="warning", environ=env, data_dir=data)
        try:
            newer = wait_for(lambda: (lambda h: h if h and h["snapshot"]["version"] > older_version
                                      and (provider(h, "wa") or {}).get("status") == "ok" else None)(leader.health()), 45, every=0.2)
            if not checks.check("leader: a second poll after a restart published a newer version", bool(newer)):
                return None, None
            datasets["good"] = fetch_dataset(leader.port)
            _, _, body = simple_get(leader.port, "/v1/stations?state=WA&limit=1")
            wa_id = json.loads(body)["data"][0]["id"]
            facts = {"version": newer["snapshot"]["version"], "stations": newer["stations"], "wa_id": wa_id,
                     "older_version": older_version, "bodies": {}}
            for path in ("/v1/stations/1", f"/v1/stations/{wa_id}"):
                facts["bodies"][path] = simple_get(leader.port, path)[2]
        finally:
            leader.cleanup()
        empty = Server(log_level="warning", environ={"PETTY_PROVIDERS": "none", "PETTY_SAMPLE_DATA": "off"}, ready=(200, 503))
        try:
            datasets["empty_dataset"] = fetch_dataset(empty.port)
        finally:
            empty.cleanup()
    finally:
        stop_upstream(wa)
        shutil.rmtree(data, ignore_errors=True)
    print(f"  datasets: " + ", ".join(f"{name} {len(d['body']):,} B {d['etag']}" for name, d in datasets.items()), flush=True)
    print(f"  GOOD: v{facts['version']}, {facts['stations']} stations, live WA station {facts['wa_id']}", flush=True)
    return datasets, facts


def start_follower(leader, data):
    return Server(log_level="info", data_dir=data,
                  environ={"PETTY_FOLLOW_URL": leader.url, "PETTY_FOLLOW_SECONDS": "1", "PETTY_PROVIDERS": "none"})


def holds_good(server, facts):
    """(ok, detail): the follower serves exactly the GOOD dataset."""
    health = server.health() or {}
    bodies = {path: simple_get(server.port, path)[2] for path in facts["bodies"]}
    same = all(bodies[path] == body for path, body in facts["bodies"].items())
    ok = health.get("snapshot", {}).get("version") == facts["version"] and health.get("stations") == facts["stations"] and same
    return ok, f"v{health.get('snapshot', {}).get('version')}, {health.get('stations')} stations, bodies {'same' if same else 'DIFFER'}"


ATTACKS = {
    # name: (what the error must mention (any of), whether memory is the point, seconds to wait for failing)
    "empty_dataset": (("empty", "no stations"), False, 20),
    "empty_body": ((), False, 20),
    "older": (("older", "behind"), False, 20),
    "sample_restart": (("older", "behind", "sample"), False, 20),
    "truncated": ((), False, 20),
    "cut": ((), False, 30),
    "garbage": ((), False, 20),
    "endless": (("cap", "exceeds", "large"), True, 45),
}


def attack(checks, name, follower, leader, facts):
    words, memory, timeout = ATTACKS[name]
    print(f"== {name}", flush=True)
    base_rss, base_hwm = follower.rss_kib(), follower.hwm_kib()
    sampler = PeakMemory(follower.pid)
    served = [0, 0]

    def probe():
        served[1] += 1
        served[0] += holds_good(follower, facts)[0]

    requests_before = leader.requests
    leader.set(name)
    started = time.time()
    health = wait_for(lambda: (lambda h: h if follow(h).get("status") == "failing" else None)(follower.health()), timeout,
                      every=0.2, during=probe) or follower.health() or {}
    elapsed = time.time() - started
    probe()
    peak_rss, hwm = sampler.stop()
    error = str(follow(health).get("last_error") or "")
    print(f"  after {elapsed:.1f} s: follow {json.dumps(follow(health))}; leader requests {leader.requests - requests_before}"
          + (f", streamed {leader.sent // MIB} MiB" + (f" in {leader.stream_ended:.1f} s" if leader.stream_ended is not None else ", still streaming")
             if name == "endless" else ""), flush=True)
    checks.check(f"{name}: follow.status failing with a reason", follow(health).get("status") == "failing" and bool(error), error)
    if words:
        checks.check(f"{name}: the reason mentions {' / '.join(words)}", any(w in error.lower() for w in words), error)
    checks.check(f"{name}: /health status degraded", health.get("status") == "degraded", health.get("status", ""))
    ok, detail = holds_good(follower, facts)
    checks.check(f"{name}: the GOOD dataset is still served (same version, count, station bodies)", ok, detail)
    checks.check(f"{name}: served unchanged throughout ({served[0]}/{served[1]})", served[0] == served[1])
    if memory:
        print(f"  RSS before {base_rss // 1024} MiB, peak {peak_rss // 1024} MiB; VmHWM before {base_hwm // 1024} MiB, after {hwm // 1024} MiB", flush=True)
        growth = max(peak_rss - base_rss, hwm - base_hwm)
        checks.check(f"{name}: memory growth {growth // 1024} MiB <= {RSS_BOUND_KIB // 1024} MiB", growth <= RSS_BOUND_KIB)
    # Back to the GOOD dataset: the follower recovers, so the next scenario's failure is its own.
    leader.set("good")
    recovered = wait_for(lambda: follow(follower.health()).get("status") == "ok" and holds_good(follower, facts)[0],
                         70 if name == "endless" else 20, every=0.2)
    checks.check(f"{name}: recovers (ok) once the leader serves the GOOD dataset again", bool(recovered))


def main():
    require_binary()
    only = set(sys.argv[sys.argv.index("--only") + 1].split(",")) if "--only" in sys.argv else None
    checks = Checks()
    work = tempfile.mkdtemp(prefix="petty-follower-")
    leaders, followers = [], []
    try:
        print("== leaders", flush=True)
        datasets, facts = record_leaders(checks, work)
        if not datasets:
            return checks.finish()
        main_leader, trickle_leader = FakeLeader(datasets), FakeLeader(datasets)
        leaders = [main_leader, trickle_leader]
        for leader in leaders:
            threading.Thread(target=leader.serve_forever, daemon=True).start()
        wanted = [name for name in ATTACKS if only is None or name in only]
        trickle = only is None or "trickle" in only
        print("== copy the GOOD dataset", flush=True)
        follower = start_follower(main_leader, os.path.join(work, "follower-data"))
        followers.append(follower)
        second = None
        if trickle:
            second = start_follower(trickle_leader, os.path.join(work, "trickle-data"))
            followers.append(second)
        for name, server in (("follower", follower), ("trickle follower", second)):
            if server is None:
                continue
            copied = wait_for(lambda: holds_good(server, facts)[0] and follow(server.health()).get("status") == "ok", 30, every=0.2)
            if not checks.check(f"{name}: copied the GOOD dataset (follow ok)", bool(copied), holds_good(server, facts)[1]):
                return checks.finish()
        trickle_started = None
        if second:
            trickle_leader.set("trickle")
            trickle_started = time.time()
        for name in wanted:
            attack(checks, name, follower, main_leader, facts)
        if second:
            print("== trickle (second follower)", flush=True)
            # Failing is expected once the 60 s whole-transfer deadline passes; meanwhile the data must not change.
            served = [0, 0]

            def probe():
                served[1] += 1
                served[0] += holds_good(second, facts)[0]

            probe()
            health = wait_for(lambda: (lambda h: h if follow(h).get("status") == "failing" else None)(second.health()),
                              max(1, trickle_started + TRICKLE_DEADLINE + 8 - time.time()), every=0.5, during=probe) or second.health() or {}
            error = str(follow(health).get("last_error") or "")
            print(f"  after {time.time() - trickle_started:.1f} s of one byte a second ({trickle_leader.sent} B sent): "
                  f"follow {json.dumps(follow(health))}", flush=True)
            checks.check("trickle: follow.status failing once the whole-transfer deadline passed", follow(health).get("status") == "failing", error)
            checks.check("trickle: the reason mentions the deadline", "deadline" in error.lower(), error)
            ok, detail = holds_good(second, facts)
            checks.check("trickle: the GOOD dataset is still served", ok, detail)
            checks.check(f"trickle: served unchanged throughout ({served[0]}/{served[1]})", served[0] == served[1])
        # Restart: the good copy was persisted, and nothing refused replaced it on disk.
        print("== restart", flush=True)
        main_leader.set("garbage")
        data = follower.data_dir
        follower.kill()
        follower.cleanup()
        followers.remove(follower)
        follower = start_follower(main_leader, data)
        followers.append(follower)
        ok, detail = holds_good(follower, facts)
        checks.check("restart (kill -9, leader now sends garbage): the GOOD dataset is served from disk", ok, detail)
        failing = wait_for(lambda: follow(follower.health()).get("status") == "failing", 15, every=0.2)
        checks.check("restart: follow.status failing against the garbage leader", bool(failing))
        checks.check("restart: still the GOOD dataset after its refusals", holds_good(follower, facts)[0])
    finally:
        for server in followers:
            server.cleanup()
        for leader in leaders:
            stop_upstream(leader)
        shutil.rmtree(work, ignore_errors=True)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
