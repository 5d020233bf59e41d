"""Shared pieces of the robustness suite: start/stop the server and nginx, read raw HTTP responses,
sample the server process, and count checks. Python 3 standard library only; loopback only."""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, ".build", "release", "Run")

sys.path.insert(0, os.path.join(ROOT, "Scripts"))
import harness  # noqa: E402
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
HOST = "127.0.0.1"

# A TERM (e.g. from `timeout` in run.sh) runs the `finally` blocks that stop the server and nginx.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


def die_with_parent():
    """In a child before exec: get SIGTERM if this script dies, even by SIGKILL (prctl PR_SET_PDEATHSIG)."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)
    except OSError:
        pass


# --- results -------------------------------------------------------------------------------------

class Checks:
    """Counts expectations; prints one PASS/FAIL line each and the `N passed, N failed` last line."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.failures = []

    def skip(self, name, reason):
        """An expectation that cannot be tested here (e.g. no permission to mount): counted as passed, listed."""
        self.passed += 1
        self.skipped += 1
        print(f"  SKIP  {name}  [{reason}]", flush=True)

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            self.failures.append(name)
        print(f"  {'PASS' if ok else 'FAIL'}  {name}" + (f"  [{detail}]" if detail else ""), flush=True)
        return ok

    def finish(self):
        if self.failures:
            print("failed checks:", flush=True)
            for name in self.failures:
                print(f"  - {name}", flush=True)
        if self.skipped:
            print(f"({self.skipped} of the passed were skipped)", flush=True)
        print(f"{self.passed} passed, {self.failed} failed", flush=True)
        return 0 if self.failed == 0 else 1


def stop_process(proc, sig, grace=10):
    """Asks a child to stop with `sig`, then kills it if it has not exited within `grace` seconds."""
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def stop_upstream(server):
    """Stops a fake upstream (an http.server) without waiting for a request it holds: sets its `closing` and `gate`
    events where it has them, then stops serving and closes its socket."""
    for event in ("closing", "gate"):
        if hasattr(server, event):
            getattr(server, event).set()
    server.shutdown()
    server.server_close()


def read_text(path):
    """A file's text (undecodable bytes replaced), or "" when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


# --- the server process -------------------------------------------------------------------------

class Server:
    """The release binary on a free loopback port, in production mode, with a temp data dir.
    stdout/stderr go to a file (the logger writes synchronously: a pipe nobody drains would block it)."""

    def __init__(self, log_level="warning", public_dir=None, nofile=None, threads=None, env="production",
                 environ=None, data_dir=None, ready_timeout=60, ready=(200,)):
        """`environ`: extra environment variables (PETTY_PROVIDERS is none unless given here: never the real
        providers); `data_dir`: use this data directory
        instead of one inside the temp dir (it is not removed by cleanup); `ready`: /health statuses that count
        as started (an instance holding no data answers 503)."""
        self.tmp = tempfile.mkdtemp(prefix="petty-robust-")
        self.port = free_port()
        self.log_path = os.path.join(self.tmp, "server.log")
        self.data_dir = data_dir or os.path.join(self.tmp, "data")
        args = [BINARY, "serve", "--port", str(self.port), "--hostname", HOST,
                "--data-dir", self.data_dir, "--env", env, "--log-level", log_level]
        if public_dir:
            args += ["--public-dir", public_dir]
        if threads:
            args += ["--threads", str(threads)]
        self.nofile = nofile

        def limits():
            die_with_parent()
            if nofile:
                # Soft and hard: the server raises its soft limit to the hard one at start.
                import resource
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     cwd=ROOT, preexec_fn=limits, env={**os.environ, "PETTY_PROVIDERS": "none", **(environ or {})})
        self.pid = self.proc.pid
        deadline = time.time() + ready_timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                text = self.log_text()[-2000:]
                self.cleanup()
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{text}")
            status, _, _ = simple_get(self.port, "/health", timeout=1)
            if status in ready:
                return
            time.sleep(0.2)
        self.cleanup()
        raise RuntimeError(f"server did not answer /health within {ready_timeout} s")

    def alive(self):
        return self.proc.poll() is None

    def healthy(self):
        return self.alive() and simple_get(self.port, "/health", timeout=3)[0] == 200

    def rss_kib(self):
        return proc_status_kib(self.pid, "VmRSS")

    def hwm_kib(self):
        return proc_status_kib(self.pid, "VmHWM")

    def cpu_seconds(self):
        return proc_cpu_seconds(self.pid)

    def fd_count(self):
        try:
            return len(os.listdir(f"/proc/{self.pid}/fd"))
        except OSError:
            return -1

    def log_text(self):
        return read_text(self.log_path)

    def stop(self):
        stop_process(self.proc, signal.SIGTERM)
        self.log.close()
        return self.proc.returncode

    def kill(self):
        """SIGKILL: no shutdown, no final save."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.log.close()

    def health(self):
        """The parsed /health body, or None."""
        status, _, body = simple_get(self.port, "/health", timeout=5)
        if status is None:
            return None
        try:
            return json.loads(body)
        except ValueError:
            return None

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)


def proc_status_kib(pid, field):
    """-1 when the process or the field is gone."""
    return harness.proc_status_kb(pid, field, missing=-1)


def proc_cpu_seconds(pid):
    """utime + stime of the process (all threads), in seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return -1.0


# --- nginx in front -----------------------------------------------------------------------------

NGINX_CONF = """
worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log {error_level};
events {{ worker_connections 1024; }}
http {{
    access_log {tmp}/access.log;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    upstream petty {{
        server 127.0.0.1:{upstream};
        keepalive 8;
    }}
    # The production zones (deploy/nginx/petty.conf) are far lower; the tests send bursts from one address.
    limit_req_zone $binary_remote_addr zone=petty_api:10m rate=10000r/s;
    limit_req_zone $binary_remote_addr zone=petty_route:10m rate=10000r/s;
    limit_req_zone $binary_remote_addr zone=petty_write:10m rate=10000r/s;
    server {{
        listen 127.0.0.1:{port};
        server_tokens off;
        {extra}
        include {tmp}/petty-locations.conf;
    }}
}}
"""


class Nginx:
    """nginx proxying to `upstream_port` with the project's own deploy/nginx/petty-locations.conf
    (its `root` pointed at `public_dir`), on a free loopback port."""

    def __init__(self, upstream_port, public_dir=None, extra=""):
        self.tmp = tempfile.mkdtemp(prefix="petty-nginx-")
        self.port = free_port()
        with open(os.path.join(ROOT, "deploy", "nginx", "petty-locations.conf")) as f:
            locations = f.read()
        root = public_dir or os.path.join(ROOT, "Public")
        locations = "\n".join(f"root {root};" if line.startswith("root ") else line for line in locations.splitlines())
        with open(os.path.join(self.tmp, "petty-locations.conf"), "w") as f:
            f.write(locations + "\n")
        conf = os.path.join(self.tmp, "nginx.conf")
        with open(conf, "w") as f:
            f.write(NGINX_CONF.format(tmp=self.tmp, port=self.port, upstream=upstream_port, error_level="info", extra=extra))
        self.log = open(os.path.join(self.tmp, "stdout.log"), "wb")
        self.proc = subprocess.Popen([NGINX, "-c", conf, "-p", self.tmp, "-e", os.path.join(self.tmp, "error.log")],
                                     stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     preexec_fn=die_with_parent)
        deadline = time.time() + 15
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("nginx exited: " + self.error_log()[-2000:])
            if simple_get(self.port, "/health", timeout=1)[0] == 200:
                return
            time.sleep(0.2)
        self.cleanup()
        raise RuntimeError("nginx did not come up")

    def error_log(self):
        return read_text(os.path.join(self.tmp, "error.log"))

    def access_log(self):
        return read_text(os.path.join(self.tmp, "access.log"))

    def cleanup(self):
        stop_process(self.proc, signal.SIGQUIT)  # nginx's graceful stop
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


# --- raw HTTP -----------------------------------------------------------------------------------

class Response:
    def __init__(self, status, reason, headers, body):
        self.status = status
        self.reason = reason
        self.headers = headers  # list of (name, value) in order
        self.body = body

    def header(self, name):
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None

    def __repr__(self):
        return f"<{self.status} {len(self.body)}B>"


def parse_responses(data, head_requests=0):
    """Splits bytes into complete responses (Content-Length or chunked framing). Returns (responses, rest)."""
    responses = []
    while True:
        end = data.find(b"\r\n\r\n")
        if end < 0:
            return responses, data
        head = data[:end].decode("latin-1").split("\r\n")
        try:
            _, code, *reason = head[0].split(" ", 2)
            status = int(code)
        except ValueError:
            return responses, data
        headers = []
        for line in head[1:]:
            name, _, value = line.partition(":")
            headers.append((name.strip(), value.strip()))
        lookup = {k.lower(): v for k, v in headers}
        pos = end + 4
        if 100 <= status < 200:
            data = data[pos:]
            continue
        if status in (204, 304) or (head_requests > 0):
            body = b""
            head_requests = max(0, head_requests - 1)
        elif "chunked" in lookup.get("transfer-encoding", "").lower():
            body = b""
            while True:
                line_end = data.find(b"\r\n", pos)
                if line_end < 0:
                    return responses, data
                size = int(data[pos:line_end].split(b";")[0], 16)
                if size == 0:
                    trailer_end = data.find(b"\r\n\r\n", line_end)
                    if data[line_end:line_end + 4] == b"\r\n\r\n":
                        pos = line_end + 4
                        break
                    if trailer_end < 0:
                        return responses, data
                    pos = trailer_end + 4
                    break
                if len(data) < line_end + 2 + size + 2:
                    return responses, data
                body += data[line_end + 2:line_end + 2 + size]
                pos = line_end + 2 + size + 2
        elif "content-length" in lookup:
            length = int(lookup["content-length"])
            if len(data) < pos + length:
                return responses, data
            body = data[pos:pos + length]
            pos += length
        else:
            # No framing: the body runs to EOF; only complete once the caller saw EOF.
            return responses, data
        responses.append(Response(status, reason[0] if reason else "", headers, body))
        data = data[pos:]


def exchange(port, payload, timeout=5.0, quiet_after=None, half_close=False, head_requests=0):
    """Sends `payload` on one fresh connection and reads until the peer closes or `timeout` passes (or, with
    `quiet_after`, until that long passes with no new bytes). Returns (responses, how) where how is
    'FIN' (peer closed cleanly), 'RST', or 'open' (still open when we stopped)."""
    sock = socket.create_connection((HOST, port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    data = b""
    how = "open"
    try:
        try:
            sock.sendall(payload)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer and close before everything is sent; read what it said
        deadline = time.time() + timeout
        while time.time() < deadline:
            wait = deadline - time.time()
            if quiet_after is not None:
                wait = min(wait, quiet_after)
            sock.settimeout(max(0.01, wait))
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                if quiet_after is not None:
                    break
                continue
            except ConnectionResetError:
                how = "RST"
                break
            if not chunk:
                how = "FIN"
                break
            data += chunk
    finally:
        sock.close()
    responses, _ = parse_responses(data, head_requests=head_requests)
    return responses, how


def simple_get(port, path, timeout=3.0):
    """One GET with Connection: close. Returns (status or None, headers, body)."""
    try:
        responses, _ = exchange(port, f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode(),
                                timeout=timeout)
    except OSError:
        return None, [], b""
    if not responses:
        return None, [], b""
    return responses[0].status, responses[0].headers, responses[0].body


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(p / 100.0 * len(ordered) + 0.5)) - 1))
    return ordered[index]


def require_binary():
    if not os.access(BINARY, os.X_OK):
        print(f"missing {BINARY}: run `swift build -c release --product Run` first", file=sys.stderr)
        sys.exit(2)


def start_fast_script(doc):
    """The start of a script whose cases are all fast: `--quick` is accepted for symmetry with run.sh and changes
    nothing; the release binary must exist. Returns the script's `Checks`."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="same cases (they are fast); kept for symmetry with run.sh")
    parser.parse_args()
    require_binary()
    return Checks()


class PeakMemory:
    """Samples a process's VmRSS every `every` seconds in a thread; `stop()` returns (peak RSS KiB, VmHWM KiB)."""

    def __init__(self, pid, every=0.05):
        import threading
        self.pid = pid
        self.every = every
        self.peak = max(0, proc_status_kib(pid, "VmRSS"))
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stopping.wait(self.every):
            self.peak = max(self.peak, proc_status_kib(self.pid, "VmRSS"))

    def stop(self):
        self.stopping.set()
        self.thread.join(timeout=2)
        self.peak = max(self.peak, proc_status_kib(self.pid, "VmRSS"))
        return self.peak, proc_status_kib(self.pid, "VmHWM")
