#!/usr/bin/env python3
"""Hostile clients against a live server, with a well-behaved client measured meanwhile.

Each scenario starts a "good client" process (keep-alive GET /v1/stations/1 every 10 ms, 5 s timeout per
request) and a sampler (VmRSS and open descriptors of the server every 200 ms), runs one attack for a
bounded time, then prints what the server did to the attack connections and how the good client fared.

    python3 Robustness/hostile_clients.py --quick     # CI: < 90 s
    python3 Robustness/hostile_clients.py             # full: longer holds, waits for the idle/write timeouts
    python3 Robustness/hostile_clients.py --only slowloris,limits

Loopback only. Every loop is bounded in count and time; every socket and process is closed at the end.
Exit status 1 if any expectation fails; the last line is `N passed, N failed`.
"""

import argparse
import collections
import multiprocessing
import os
import resource
import selectors
import socket
import struct
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import HOST, Checks, Server, exchange, parse_responses, percentile, proc_cpu_seconds, require_binary  # noqa: E402

GOOD_PATH = "/v1/stations/1"
LIST_PATH = "/v1/stations?state=NSW&limit=50"
MIB = 1024 * 1024

# Server defaults (Sources/HTTP/Server/ServerConfiguration.swift); the sweep runs once a second.
HEADER_TIMEOUT = 10
BODY_TIMEOUT = 20   # PETTY_BODY_IDLE_TIMEOUT_SECONDS: the longest pause between a body's reads
BODY_DEADLINE = 30  # PETTY_BODY_TIMEOUT_SECONDS / --body-timeout: a body's total deadline
WRITE_TIMEOUT = 30
IDLE_TIMEOUT = 60


# --- the good client ----------------------------------------------------------------------------

def good_client(port, stop, results, pace):
    """Keep-alive GETs until `stop`; reconnects after any failure. Runs in its own process (no GIL sharing)."""
    request = f"GET {GOOD_PATH} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()
    latencies, ok, failed = [], 0, 0
    errors = collections.Counter()
    sock = None
    while not stop.is_set():
        started = time.perf_counter()
        try:
            if sock is None:
                sock = socket.create_connection((HOST, port), timeout=5)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.sendall(request)
            data = b""
            while True:
                responses, _ = parse_responses(data)
                if responses:
                    break
                remaining = started + 5 - time.perf_counter()
                if remaining <= 0:
                    raise TimeoutError("no answer in 5 s")
                sock.settimeout(remaining)
                chunk = sock.recv(65536)
                if not chunk:
                    raise ConnectionError("closed by server")
                data += chunk
            elapsed = time.perf_counter() - started
            if responses[0].status == 200:
                ok += 1
                latencies.append(elapsed)
            else:
                failed += 1
                errors[str(responses[0].status)] += 1
            if (responses[0].header("Connection") or "").lower() == "close":
                sock.close()
                sock = None
        except (OSError, TimeoutError, ConnectionError) as error:
            failed += 1
            errors[type(error).__name__] += 1
            if sock is not None:
                sock.close()
                sock = None
            time.sleep(0.05)
        time.sleep(pace)
    if sock is not None:
        sock.close()
    results.put({"ok": ok, "failed": failed, "latencies": latencies, "errors": dict(errors)})


class Measurement:
    """Good client + sampler around one attack."""

    def __init__(self, server, pace=0.01):
        self.server = server
        self.pace = pace

    def __enter__(self):
        self.rss_before = self.server.rss_kib()
        self.fds_before = self.server.fd_count()
        self.rss_peak, self.fds_peak = self.rss_before, self.fds_before
        self.sampling = True
        self.sampler = threading.Thread(target=self._sample, daemon=True)
        self.sampler.start()
        context = multiprocessing.get_context("fork")
        self.stop = context.Event()
        self.results = context.Queue()
        self.client = context.Process(target=good_client, args=(self.server.port, self.stop, self.results, self.pace),
                                      daemon=True)
        self.client.start()
        time.sleep(0.3)
        return self

    def _sample(self):
        while self.sampling:
            self.rss_peak = max(self.rss_peak, self.server.rss_kib())
            self.fds_peak = max(self.fds_peak, self.server.fd_count())
            time.sleep(0.2)

    def finish(self, settle=1.0):
        """Stops the good client; call after the attack's sockets are closed. Returns a stats dict."""
        time.sleep(settle)
        self.stop.set()
        try:
            good = self.results.get(timeout=15)
        except Exception:
            good = {"ok": 0, "failed": 1, "latencies": [], "errors": {"good client lost": 1}}
        self.client.join(timeout=5)
        if self.client.is_alive():
            self.client.kill()
        self.sampling = False
        self.sampler.join(timeout=2)
        total = good["ok"] + good["failed"]
        return {
            "good_total": total,
            "good_ok": good["ok"],
            "success": good["ok"] / total if total else 0.0,
            "p50_ms": percentile(good["latencies"], 50) * 1000,
            "p99_ms": percentile(good["latencies"], 99) * 1000,
            "max_ms": max(good["latencies"], default=float("nan")) * 1000,
            "good_errors": good["errors"],
            "rss_before": self.rss_before / 1024,
            "rss_peak": self.rss_peak / 1024,
            "rss_after": self.server.rss_kib() / 1024,
            "hwm": self.server.hwm_kib() / 1024,
            "fds_before": self.fds_before,
            "fds_peak": self.fds_peak,
            "fds_after": self.server.fd_count(),
            "alive": self.server.healthy(),
        }

    def __exit__(self, *exc):
        self.stop.set()
        self.sampling = False
        if self.client.is_alive():
            self.client.join(timeout=5)
            if self.client.is_alive():
                self.client.kill()
        return False


# --- attack connections -------------------------------------------------------------------------

class AttackConn:
    """A non-blocking client socket that records how the server ended it: `<status>+FIN`, `FIN`, `RST`, `open`."""

    def __init__(self, port, rcvbuf=None, source=None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        if source:
            self.sock.bind((source, 0))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.settimeout(5)
        self.sock.connect((HOST, port))
        self.sock.setblocking(False)
        self.opened_at = time.time()
        self.first_byte_at = None
        self.last_sent_at = None
        self.data = b""
        self.statuses = []
        self.outcome = None
        self.ended_at = None
        self.pending = b""

    @property
    def open(self):
        return self.outcome is None

    def send(self, payload):
        """Sends what the socket takes now; keeps the rest for `pump`. False once the connection is gone."""
        self.pending += payload
        return self.pump()

    def pump(self):
        if not self.open:
            return False
        while self.pending:
            try:
                n = self.sock.send(self.pending)
            except BlockingIOError:
                return True
            except (BrokenPipeError, ConnectionResetError):
                self.read()
                if self.open:
                    self.end("RST")
                return False
            if self.first_byte_at is None:
                self.first_byte_at = time.time()
            self.last_sent_at = time.time()
            self.pending = self.pending[n:]
        return True

    def read(self):
        while self.open:
            try:
                chunk = self.sock.recv(65536)
            except BlockingIOError:
                return
            except ConnectionResetError:
                self.end("RST")
                return
            if not chunk:
                self.end("FIN")
                return
            self.data += chunk
            responses, self.data = parse_responses(self.data)
            self.statuses += [r.status for r in responses]

    def end(self, how):
        self.ended_at = time.time()
        first = self.statuses[0] if self.statuses else None
        self.outcome = f"{first}+{how}" if first else how

    def close(self, reset=False):
        if reset:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


class ConnSet:
    """Many AttackConns under one epoll selector."""

    def __init__(self):
        self.conns = []
        self.selector = selectors.DefaultSelector()

    def add(self, conn):
        self.conns.append(conn)
        self.selector.register(conn.sock, selectors.EVENT_READ, conn)

    def poll(self, timeout):
        for key, _ in self.selector.select(timeout):
            conn = key.data
            conn.read()
            if not conn.open:
                self.selector.unregister(conn.sock)

    def pump(self):
        for conn in self.conns:
            if conn.pending:
                conn.pump()

    def open_conns(self):
        return [c for c in self.conns if c.open]

    def outcomes(self):
        counter = collections.Counter(c.outcome or "open" for c in self.conns)
        return dict(counter)

    def close_all(self, reset=False):
        for conn in self.conns:
            try:
                self.selector.unregister(conn.sock)
            except (KeyError, ValueError):
                pass
            conn.close(reset=reset)
        self.selector.close()


def raise_nofile(wanted):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(hard, max(soft, wanted))
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return target


def open_conns(port, count, conns, **kwargs):
    failures = collections.Counter()
    for _ in range(count):
        try:
            conns.add(AttackConn(port, **kwargs))
        except OSError as error:
            failures[type(error).__name__] += 1
    return failures


# --- scenarios ----------------------------------------------------------------------------------

class Suite:
    def __init__(self, args):
        self.args = args
        self.quick = args.quick
        self.checks = Checks()
        self.rows = []
        self.server = None

    def fresh_server(self):
        if self.server is None or not self.server.alive():
            if self.server is not None:
                self.server.cleanup()
            self.server = Server()
        return self.server

    def report(self, name, attack, closed, stats, notes=""):
        row = dict(name=name, attack=attack, closed=closed, **stats)
        self.rows.append(row)
        print(f"  attack conns {attack}; ended by server: {closed}", flush=True)
        print(f"  good client: {stats['good_ok']}/{stats['good_total']} ok ({stats['success']:.2%}), "
              f"p50 {stats['p50_ms']:.1f} ms, p99 {stats['p99_ms']:.1f} ms, max {stats['max_ms']:.1f} ms"
              + (f", errors {stats['good_errors']}" if stats['good_errors'] else ""), flush=True)
        print(f"  server RSS MiB before/peak/after {stats['rss_before']:.0f}/{stats['rss_peak']:.0f}/"
              f"{stats['rss_after']:.0f} (VmHWM {stats['hwm']:.0f}); fds {stats['fds_before']}/{stats['fds_peak']}/"
              f"{stats['fds_after']}; alive: {stats['alive']}" + (f"; {notes}" if notes else ""), flush=True)

    def common_checks(self, name, stats, min_success=0.99, max_p99_ms=250.0, max_rss_growth=200):
        c = self.checks
        c.check(f"{name}: server alive and healthy afterwards", stats["alive"])
        c.check(f"{name}: good client success >= {min_success:.0%}", stats["success"] >= min_success and stats["good_total"] > 0,
                f"{stats['good_ok']}/{stats['good_total']}")
        c.check(f"{name}: good client p99 <= {max_p99_ms:.0f} ms", stats["p99_ms"] <= max_p99_ms, f"{stats['p99_ms']:.1f} ms")
        growth = stats["rss_peak"] - stats["rss_before"]
        c.check(f"{name}: RSS growth <= {max_rss_growth} MiB", growth <= max_rss_growth, f"+{growth:.0f} MiB")

    def scenario(self, name):
        print(f"\n== {name}", flush=True)
        return self.fresh_server()

    # slowloris: header bytes dripped, one per second per connection; alongside, connections that never send a byte
    def slowloris(self):
        count, silent_count = 300, 100
        server = self.scenario("slowloris")
        conns, silent = ConnSet(), ConnSet()
        with Measurement(server) as m:
            failures = open_conns(server.port, count, conns) + open_conns(server.port, silent_count, silent)
            for conn in conns.conns:
                conn.send(b"GET /v1/stations/1 HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            deadline = time.time() + HEADER_TIMEOUT + 6
            next_drip = time.time() + 1
            while time.time() < deadline and (conns.open_conns() or silent.open_conns()):
                conns.poll(max(0, min(next_drip, deadline, time.time() + 0.1) - time.time()))
                silent.poll(0)
                if time.time() >= next_drip:
                    for conn in conns.open_conns():
                        if not conn.statuses:
                            conn.send(b"a")
                    next_drip += 1
            outcome = conns.outcomes()
            times = [c.ended_at - c.first_byte_at for c in conns.conns if c.ended_at and c.first_byte_at]
            silent_outcome = silent.outcomes()
            silent_times = [c.ended_at - c.opened_at for c in silent.conns if c.ended_at]
            conns.close_all()
            silent.close_all()
            stats = m.finish()
        closed = sum(n for k, n in outcome.items() if k != "open")
        self.report("slowloris", count, outcome, stats,
                    f"closed after {min(times, default=0):.1f}-{max(times, default=0):.1f} s" if times else "")
        self.checks.check("slowloris: every dripping connection got 408 and was closed",
                          outcome.get("408+FIN", 0) == count, str(outcome))
        self.checks.check(f"slowloris: closed near the {HEADER_TIMEOUT} s header timeout (9.5-14 s)",
                          bool(times) and min(times) >= 9.5 and max(times) <= 14, f"{min(times, default=0):.1f}-{max(times, default=0):.1f} s")
        self.checks.check("slowloris: every silent connection was closed without a response",
                          silent_outcome.get("FIN", 0) == silent_count, str(silent_outcome))
        self.checks.check(f"slowloris: silent ones closed near the {HEADER_TIMEOUT} s header timeout after connecting (9.5-14 s)",
                          bool(silent_times) and min(silent_times) >= 9.5 and max(silent_times) <= 14,
                          f"{min(silent_times, default=0):.1f}-{max(silent_times, default=0):.1f} s")
        self.checks.check("slowloris: all attack connections opened", not failures, str(dict(failures)))
        self.common_checks("slowloris", stats)
        self.rows[-1]["closed_summary"] = f"{closed}/{count} {self._fmt(outcome)}"

    # slow body: Content-Length 1000, a few body bytes dripped, then silence
    def slow_body(self):
        count = 100
        drip_seconds = 3 if self.quick else 10
        server = self.scenario("slow-body")
        conns = ConnSet()
        with Measurement(server) as m:
            failures = open_conns(server.port, count, conns)
            for conn in conns.conns:
                conn.send(b"POST /v1/stations HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n")
            stop_drip = time.time() + drip_seconds
            deadline = stop_drip + BODY_TIMEOUT + 5
            next_drip = time.time() + 1
            while time.time() < deadline and conns.open_conns():
                conns.poll(max(0, min(next_drip, deadline) - time.time()))
                if time.time() >= next_drip and time.time() < stop_drip:
                    for conn in conns.open_conns():
                        conn.send(b"b")
                    next_drip += 1
            outcome = conns.outcomes()
            times = [c.ended_at - c.last_sent_at for c in conns.conns if c.ended_at and c.last_sent_at]
            conns.close_all()
            stats = m.finish()
        self.report("slow-body", count, outcome, stats,
                    f"closed {min(times, default=0):.1f}-{max(times, default=0):.1f} s after the last body byte")
        self.checks.check("slow-body: every stalled body got 408 and was closed", outcome.get("408+FIN", 0) == count, str(outcome))
        self.checks.check(f"slow-body: closed near the {BODY_TIMEOUT} s body timeout (19.5-24 s after the last byte)",
                          bool(times) and min(times) >= 19.5 and max(times) <= 24, f"{min(times, default=0):.1f}-{max(times, default=0):.1f} s")
        self.checks.check("slow-body: all attack connections opened", not failures, str(dict(failures)))
        self.common_checks("slow-body", stats)
        self.rows[-1]["closed_summary"] = f"{count - outcome.get('open', 0)}/{count} {self._fmt(outcome)}"

    # slow body that keeps making progress: held to the body's total deadline (full mode only)
    def trickle_body(self):
        count = 20
        seconds = BODY_DEADLINE + 5
        server = self.scenario("trickle-body")
        conns = ConnSet()
        with Measurement(server) as m:
            open_conns(server.port, count, conns)
            for conn in conns.conns:
                conn.send(b"POST /v1/stations HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n")
            deadline = time.time() + seconds
            next_drip = time.time() + 1
            while time.time() < deadline:
                conns.poll(max(0, min(next_drip, deadline) - time.time()))
                if time.time() >= next_drip:
                    for conn in conns.open_conns():
                        conn.send(b"b")
                    next_drip += 1
            outcome = conns.outcomes()
            conns.close_all()
            stats = m.finish()
        self.report("trickle-body", count, outcome, stats,
                    f"a body byte every second for up to {seconds} s: 408 at the {BODY_DEADLINE} s body deadline")
        self.checks.check(f"trickle-body: every trickled body got 408 at the {BODY_DEADLINE} s deadline",
                          outcome.get("408+FIN", 0) == count, str(outcome))
        self.common_checks("trickle-body", stats)
        self.rows[-1]["closed_summary"] = f"{count - outcome.get('open', 0)}/{count} {self._fmt(outcome)}"

    # thousands of idle keep-alive connections
    def idle(self):
        count = 5000
        hold = 5 if self.quick else IDLE_TIMEOUT + 5
        raise_nofile(count + 200)
        server = self.scenario(f"idle x{count}")
        conns = ConnSet()
        with Measurement(server) as m:
            started = time.time()
            failures = open_conns(server.port, count, conns)
            for conn in conns.conns:
                conn.send(f"GET {GOOD_PATH} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
            deadline = time.time() + 20
            while time.time() < deadline and sum(1 for c in conns.conns if c.statuses) < len(conns.conns):
                conns.poll(0.2)
            answered = sum(1 for c in conns.conns if c.statuses == [200])
            opened_in = time.time() - started
            held_fds = server.fd_count()
            last_activity = time.time()
            deadline = last_activity + hold
            while time.time() < deadline and conns.open_conns():
                conns.poll(0.5)
            outcome = conns.outcomes()
            idle_times = [c.ended_at - last_activity for c in conns.conns if c.ended_at]
            conns.close_all()
            stats = m.finish(settle=2)
        self.report(f"idle-{count}", count, outcome, stats,
                    f"{answered} answered then held idle {hold} s (opened+answered in {opened_in:.1f} s, server held {held_fds} fds)")
        self.checks.check(f"idle: all {count} connections opened and answered", answered == count and not failures,
                          f"{answered} answered, connect failures {dict(failures)}")
        if self.quick:
            self.checks.check("idle: server keeps them open (idle timeout not reached)", outcome.get("open", 0) == count, str(outcome))
        else:
            self.checks.check(f"idle: server closed all of them at the {IDLE_TIMEOUT} s idle timeout (59-64 s)",
                              outcome.get("200+FIN", 0) == count and min(idle_times) >= 59 and max(idle_times) <= 64,
                              f"{outcome}, {min(idle_times, default=0):.1f}-{max(idle_times, default=0):.1f} s")
        self.checks.check("idle: descriptors released after the clients left", stats["fds_after"] <= stats["fds_before"] + 2,
                          f"{stats['fds_before']} -> {stats['fds_after']}")
        self.common_checks("idle", stats)
        self.rows[-1]["closed_summary"] = f"{count - outcome.get('open', 0)}/{count} {self._fmt(outcome)}"

    # pipeline hundreds of requests for a 30 KB list and never read
    def pipeline(self):
        count, per_conn = 50, 1000
        hold = 8 if self.quick else WRITE_TIMEOUT + 8
        server = self.scenario(f"pipeline x{count}, never read")
        conns = ConnSet()
        request = f"GET {LIST_PATH} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()
        with Measurement(server) as m:
            failures = open_conns(server.port, count, conns, rcvbuf=4096)
            for conn in conns.conns:
                conn.send(request * per_conn)
            started = time.time()
            deadline = started + hold
            while time.time() < deadline:
                conns.pump()
                time.sleep(0.2)
            unsent = sum(len(c.pending) for c in conns.conns)
            held_fds = server.fd_count()
            rss_held = server.rss_kib() / 1024
            # One reader shows backpressure resumes correctly: all answers arrive, in order, once it reads.
            reader = conns.conns[0]
            reader.sock.setblocking(True)
            reader.sock.settimeout(10)
            data, answers, how = b"", 0, "open"
            read_deadline = time.time() + 30
            while answers < per_conn and time.time() < read_deadline:
                try:
                    chunk = reader.sock.recv(1 << 20)
                except (socket.timeout, ConnectionResetError) as error:
                    how = type(error).__name__
                    break
                if not chunk:
                    how = "FIN"
                    break
                data += chunk
                responses, data = parse_responses(data)
                answers += sum(1 for r in responses if r.status == 200)
            conns.close_all(reset=True)
            stats = m.finish(settle=2)
        if self.quick:
            note = (f"held {hold} s: server kept {held_fds} fds, RSS {rss_held:.0f} MiB; write timeout ({WRITE_TIMEOUT} s) "
                    f"not awaited in quick mode")
        else:
            note = f"after {hold} s the server held {held_fds} fds (write timeout {WRITE_TIMEOUT} s)"
        self.report(f"pipeline-{count}x{per_conn}", count, {"reader answers": answers, "reader end": how}, stats, note)
        per_conn_mib = (stats["rss_peak"] - stats["rss_before"]) / count
        self.checks.check("pipeline: every request was sent (the server's socket buffers took them)", unsent == 0, f"{unsent} B unsent")
        self.checks.check("pipeline: memory bounded by the 1 MiB pending-output cap (<= 3 MiB per connection)",
                          per_conn_mib <= 3, f"{per_conn_mib:.2f} MiB/conn")
        if self.quick:
            self.checks.check("pipeline: a reader that finally reads gets all 1000 answers", answers == per_conn,
                              f"{answers}, {how}")
        else:
            self.checks.check(f"pipeline: the server dropped them after the {WRITE_TIMEOUT} s write timeout",
                              held_fds <= stats["fds_before"] + 2 and answers < per_conn, f"held fds {held_fds}, reader got {answers} then {how}")
        self.common_checks("pipeline", stats)
        self.rows[-1]["closed_summary"] = ("none (write timeout not awaited)" if self.quick
                                          else f"{'all' if held_fds <= stats['fds_before'] + 2 else 'NOT all'} by write timeout")

    # as many connect/close as possible
    def flood(self):
        seconds = 5 if self.quick else 15
        server = self.scenario(f"connection flood {seconds} s")
        request = f"GET {GOOD_PATH} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode()
        made, errors = 0, collections.Counter()
        with Measurement(server) as m:
            deadline = time.time() + seconds
            source = 2
            while time.time() < deadline:
                sock = socket.socket()
                try:
                    # Rotate source addresses (all of 127/8 is loopback) so client ports never run out.
                    sock.bind((f"127.0.{source // 250}.{source % 250 + 2}", 0))
                    source = source + 1 if source < 60000 else 2
                    sock.settimeout(2)
                    sock.connect((HOST, server.port))
                    if made % 2:
                        sock.sendall(request)  # and leave without reading
                    made += 1
                except OSError as error:
                    errors[type(error).__name__] += 1
                finally:
                    sock.close()
            cpu_before = server.cpu_seconds()
            time.sleep(2)
            cpu_after = server.cpu_seconds()
            stats = m.finish(settle=0)
        self.report(f"flood-{seconds}s", made, {"client errors": dict(errors)}, stats,
                    f"{made / seconds:.0f} connects/s; server CPU {cpu_after - cpu_before:.2f} s in the 2 s after")
        self.checks.check("flood: descriptors back to baseline afterwards", stats["fds_after"] <= stats["fds_before"] + 2,
                          f"{stats['fds_before']} -> {stats['fds_after']}")
        self.checks.check("flood: connects mostly succeeded", errors.total() <= made * 0.01, str(dict(errors)))
        self.common_checks("flood", stats, min_success=0.98, max_p99_ms=500)
        self.rows[-1]["closed_summary"] = f"{made} opened/closed"

    # half a request, then RST (SO_LINGER 0)
    def resets(self):
        count = 500 if self.quick else 2000
        server = self.scenario(f"half-open resets x{count}")
        kinds = [
            b"GET /v1/stations/1 HTTP/1.1\r\nHo",
            b"POST /v1/stations HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000\r\n\r\nhalf",
            f"GET {LIST_PATH} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode(),  # RST while the answer is on its way
        ]
        errors = collections.Counter()
        with Measurement(server) as m:
            for i in range(count):
                try:
                    conn = AttackConn(server.port)
                    conn.send(kinds[i % 3])
                    if i % 3 == 2:
                        time.sleep(0.001)
                    conn.close(reset=True)
                except OSError as error:
                    errors[type(error).__name__] += 1
            time.sleep(1)
            fds_soon = server.fd_count()
            stats = m.finish(settle=0.5)
        self.report(f"resets-{count}", count, {"client errors": dict(errors)}, stats, f"server fds 1 s later: {fds_soon}")
        self.checks.check("resets: server released every reset connection within a second",
                          fds_soon <= stats["fds_before"] + 2, f"{stats['fds_before']} -> {fds_soon}")
        self.common_checks("resets", stats)
        self.rows[-1]["closed_summary"] = f"{count} reset by client"

    # requests at every size limit and one byte over
    def limits(self):
        server = self.scenario("size limits")
        port = server.port
        cases = []

        line_fixed = len("GET / HTTP/1.1")
        for length, status in ((8192, 404), (8193, 414)):
            line = "GET /" + "a" * (length - line_fixed) + " HTTP/1.1"
            cases.append((f"request line {length} B", line + "\r\nHost: localhost\r\nConnection: close\r\n\r\n", status))

        def fields_of(total):  # field lines totalling `total` bytes with their CRLFs, Host first
            host = "Host: localhost\r\nConnection: close\r\n"
            return host + "X: " + "v" * (total - len(host) - 5) + "\r\n"
        for total, status in ((32 * 1024, 200), (32 * 1024 + 1, 431)):
            cases.append((f"header section {total} B", "GET /health HTTP/1.1\r\n" + fields_of(total) + "\r\n", status))

        def many_fields(n):
            return "".join(f"X-{i}: v\r\n" for i in range(n - 2))
        # A client's 100 plus the 3 the shipped nginx adds (X-Real-IP, X-Forwarded-For, X-Forwarded-Proto).
        for n, status in ((103, 200), (104, 431)):
            cases.append((f"{n} header fields", f"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{many_fields(n)}\r\n", status))

        for size, status in ((MIB, 405), (MIB + 1, 413)):
            head = f"POST /v1/stations HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: {size}\r\n\r\n"
            cases.append((f"Content-Length body {size} B", head.encode() + b"x" * size, status))

        for size, status in ((MIB, 405), (MIB + 1, 413)):
            head = "POST /v1/stations HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
            body = (b"10000\r\n" + b"c" * 0x10000 + b"\r\n") * 16 + (b"1\r\nc\r\n" if size > MIB else b"") + b"0\r\n\r\n"
            cases.append((f"chunked body {size} B", head.encode() + body, status))

        with Measurement(server) as m:
            results = []
            for name, payload, expected in cases:
                payload = payload.encode() if isinstance(payload, str) else payload
                responses, how = exchange(port, payload, timeout=10)
                status = responses[0].status if responses else None
                connection = (responses[0].header("Connection") or "") if responses else ""
                results.append((name, expected, status, connection, how, len(responses)))
            stats = m.finish(settle=0.5)
        for name, expected, status, connection, how, n in results:
            ok = status == expected and n == 1 and how == "FIN"
            if expected >= 400 and expected != 404 and expected != 405:
                ok = ok and connection.lower() == "close"
            self.checks.check(f"limits: {name} -> {expected}" + (" + Connection: close + closed" if expected in (413, 414, 431) else ""),
                              ok, f"got {status}, Connection: {connection or '-'}, {how}, {n} response(s)")
        self.report("size-limits", len(cases), {f"{r[0]}": r[2] for r in results}, stats)
        self.common_checks("limits", stats)
        self.rows[-1]["closed_summary"] = f"{sum(1 for r in results if r[2] == r[1])}/{len(cases)} as expected"

    # chunk framing: 1-byte chunks with 1,000 leading zeros (what ChunkFramingBudgetTests pins)
    def chunk_framing(self):
        server = self.scenario("chunk-framing (padded chunk sizes)")
        with Measurement(server) as m:
            cpu_before = server.cpu_seconds()
            conn = AttackConn(server.port)
            conn.sock.setblocking(True)
            conn.sock.settimeout(5)
            conn.sock.sendall(b"POST /v1/stations HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n")
            batch = (b"0" * 1000 + b"1\r\nx\r\n") * 100  # 100 KB of framing for 100 body bytes
            sent, how, answered_at = 0, "open", None
            deadline = time.time() + 10
            while time.time() < deadline and sent < 64 * MIB and answered_at is None:
                try:
                    conn.sock.sendall(batch)
                    sent += len(batch)
                except (BrokenPipeError, ConnectionResetError):
                    how = "RST"
                    break
                except socket.timeout:
                    how = "send stalled"
                    break
                conn.sock.setblocking(False)
                time.sleep(0.01)
                conn.read()
                conn.sock.setblocking(True)
                if conn.statuses or not conn.open:
                    answered_at = sent
            conn.sock.setblocking(False)
            time.sleep(0.5)
            conn.read()
            cpu_used = server.cpu_seconds() - cpu_before
            outcome = conn.outcome or how
            conn.close()
            stats = m.finish()
        self.report("chunk-framing", 1, {"outcome": outcome, "sent before the answer (KiB)": (answered_at or sent) // 1024}, stats,
                    f"server CPU {cpu_used:.2f} s")
        self.checks.check("chunk-framing: padded chunk sizes refused (413) before 1 MiB of framing",
                          conn.statuses[:1] == [413] and answered_at is not None and answered_at < MIB,
                          f"{outcome}, answered after {answered_at} B")
        self.checks.check("chunk-framing: server CPU stays low (< 1 s)", cpu_used < 1.0, f"{cpu_used:.2f} s")
        self.common_checks("chunk-framing", stats)
        self.rows[-1]["closed_summary"] = f"{outcome} after {(answered_at or sent) // 1024} KiB sent"

    # the process's descriptor limit: shed, don't spin, recover
    def fd_limit(self):
        limit, attackers = 256, 300
        print(f"\n== fd limit ({attackers} idle connections against RLIMIT_NOFILE {limit})", flush=True)
        server = Server(nofile=limit)
        conns = ConnSet()
        waves = []
        try:
            with Measurement(server) as m:
                failures = open_conns(server.port, attackers, conns)
                time.sleep(2)
                held = server.fd_count()
                cpu0, t0 = server.cpu_seconds(), time.time()
                time.sleep(1)
                cpu_fraction = (server.cpu_seconds() - cpu0) / (time.time() - t0)
                probes = collections.Counter()
                probe_times = []

                def probe(count=10):
                    for _ in range(count):
                        started = time.time()
                        try:
                            responses, how = exchange(server.port, b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", timeout=3)
                            kind = f"{responses[0].status}" if responses else f"closed ({how})" if how != "open" else "hung"
                        except OSError as error:
                            kind = type(error).__name__
                        probes[kind] += 1
                        probe_times.append(time.time() - started)

                probe()
                conns.poll(0)
                shed = sum(1 for c in conns.conns if not c.open)
                # Two more waves against the exhausted server: 100 attackers leave, 150 arrive, so every loop sheds at
                # once again. That is when one loop's accept can take the descriptor another freed to shed with (the
                # CI failure of stop 38); the first wave alone showed it in about 4 runs of 10.
                for _ in range(2):
                    leaving = [c for c in conns.conns if c.open][:100]
                    for c in leaving:
                        conns.selector.unregister(c.sock)
                        conns.conns.remove(c)
                        c.close()
                    wave = ConnSet()
                    open_conns(server.port, 150, wave)
                    waves.append(wave)
                    time.sleep(1)
                    probe()
                conns.close_all()
                for wave in waves:
                    wave.close_all()
                released = time.time()
                recovered_after = None
                while time.time() - released < 10:
                    status, _, _ = exchange_status(server.port)
                    if status == 200:
                        recovered_after = time.time() - released
                        break
                    time.sleep(0.1)
                stats = m.finish(settle=0.5)
            self.report(f"fd-limit-{limit}", attackers, {"attack conns shed": shed, "new-connection probes": dict(probes)}, stats,
                        f"server held {held} fds; CPU while exhausted {cpu_fraction:.1%}; probe times "
                        f"{min(probe_times):.2f}-{max(probe_times):.2f} s; recovered {recovered_after if recovered_after is None else round(recovered_after, 2)} s after release")
            c = self.checks
            c.check("fd-limit: server reached its descriptor limit", held >= limit - 5, f"{held} fds")
            c.check("fd-limit: no CPU spin while exhausted (< 20% of a core)", cpu_fraction < 0.2, f"{cpu_fraction:.1%}")
            c.check("fd-limit: new connections are closed, not left hanging (each < 3 s)",
                    probes.get("hung", 0) == 0 and probes.get("timeout", 0) == 0, str(dict(probes)))
            c.check("fd-limit: new connections served again within 2 s of the attackers leaving",
                    recovered_after is not None and recovered_after <= 2, str(recovered_after))
            c.check("fd-limit: established keep-alive client kept being served", stats["success"] >= 0.99,
                    f"{stats['good_ok']}/{stats['good_total']}")
            c.check("fd-limit: server alive and healthy afterwards", stats["alive"])
            self.rows[-1]["closed_summary"] = f"{shed} attack + probes {self._fmt(probes)}"
        finally:
            for c in [conns, *waves]:
                c.close_all() if c.selector.get_map() is not None else None
            server.cleanup()

    @staticmethod
    def _fmt(counter):
        return ", ".join(f"{k}:{v}" for k, v in sorted(counter.items(), key=lambda kv: str(kv[0])))

    def table(self):
        print("\n== summary: scenario | attack conns | ended by server | good reqs | success | p99 ms | RSS MiB before/peak/after | alive", flush=True)
        for r in self.rows:
            print(f"  {r['name']:<18} | {r['attack']:>6} | {r.get('closed_summary', ''):<48} | {r['good_total']:>5} | "
                  f"{r['success']:>7.2%} | {r['p99_ms']:>6.1f} | {r['rss_before']:.0f}/{r['rss_peak']:.0f}/{r['rss_after']:.0f} | {r['alive']}", flush=True)


def exchange_status(port):
    try:
        responses, _ = exchange(port, b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", timeout=1)
    except OSError:
        return None, None, None
    return (responses[0].status if responses else None), None, None


SCENARIOS = ["limits", "chunk_framing", "resets", "flood", "idle", "pipeline", "slowloris", "slow_body", "trickle_body", "fd_limit"]
FULL_ONLY = {"trickle_body"}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="CI mode: shorter holds, < 90 s")
    parser.add_argument("--only", help="comma-separated scenario names: " + ", ".join(SCENARIOS))
    args = parser.parse_args()
    require_binary()
    suite = Suite(args)
    chosen = args.only.replace("-", "_").split(",") if args.only else [s for s in SCENARIOS if not (args.quick and s in FULL_ONLY)]
    started = time.time()
    try:
        for name in chosen:
            try:
                getattr(suite, name)()
            except Exception as error:  # a crashed scenario is a failure, not a crashed suite
                import traceback
                traceback.print_exc()
                suite.checks.check(f"{name}: scenario ran to completion", False, f"{type(error).__name__}: {error}")
        if suite.server is not None:
            log = suite.server.log_text()
            crash = any(word in log for word in ("Fatal error", "fatal error", "Segmentation", "SIGSEGV", "Illegal instruction"))
            suite.checks.check("server log shows no crash", not crash)
    finally:
        if suite.server is not None:
            code = suite.server.stop()
            suite.checks.check("server exits cleanly on SIGTERM", code == 0, f"exit {code}")
            suite.server.cleanup()
    suite.table()
    print(f"elapsed {time.time() - started:.0f} s", flush=True)
    return suite.checks.finish()


if __name__ == "__main__":
    sys.exit(main())
