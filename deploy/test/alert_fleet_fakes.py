"""What the fleet-with-alerts check runs beside the members (Python 3 stdlib, loopback only):

    GorushRelay       a fake gorush: `POST /api/push` in gorush's request format, answered in its sync-mode
                      format (`{"counts": N, "logs": [...], "success": "ok"}`). Every notification it receives is
                      logged with its collapse id when it arrives, as gorush hands it to APNs/FCM before answering;
                      `down` answers 503 and logs nothing, `latency` holds the answer that many seconds.
    PricedFuelWatch   the fleet check's fake FuelWatch with fixed prices for named stations (`prices`), so a
                      test decides when a station crosses an alert's threshold.
    Postgres          a throwaway PostgreSQL cluster (initdb as the postgres user, trust on loopback and a socket
                      directory of its own): stopped fast, killed -9 and started again on the same port.
"""
import http.server
import json
import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

from harness import apt_install, free_port, wait_for
from fleet_fakes import FuelWatch


class GorushRelay(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, authorization=None):
        self.lock = threading.Lock()
        # (monotonic time, collapse id, token, platform, data) per notification received.
        self.deliveries = []
        # (monotonic time, status) per request, refused ones included.
        self.requests = []
        self.problems = []
        self.down = False
        self.latency = 0.0
        self.authorization = authorization
        super().__init__(("127.0.0.1", free_port()), GorushHandler)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def delivered(self, collapse_id):
        with self.lock:
            return [d for d in self.deliveries if d[1] == collapse_id]

    def all_deliveries(self):
        with self.lock:
            return list(self.deliveries)


class GorushHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass  # the sender was killed while the answer was held

    def do_POST(self):
        relay = self.server
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if relay.down:
            with relay.lock:
                relay.requests.append((time.monotonic(), 503))
            return self.answer(503, {"error": "relay down"})
        if self.path != "/api/push":
            return self.answer(404, {"error": "not found"})
        if relay.authorization and self.headers.get("Authorization") != relay.authorization:
            with relay.lock:
                relay.problems.append("a request without the configured Authorization header")
            return self.answer(401, {"error": "unauthorized"})
        try:
            notifications = json.loads(body)["notifications"]
        except (ValueError, KeyError, TypeError):
            with relay.lock:
                relay.problems.append(f"an unreadable body: {body[:200]!r}")
            return self.answer(400, {"error": "bad body"})
        now = time.monotonic()
        with relay.lock:
            relay.requests.append((now, 200))
            for item in notifications:
                platform = item.get("platform")
                collapse = item.get("collapse_id") if platform == 1 else item.get("collapse_key")
                if not collapse or not item.get("tokens") or not isinstance(item.get("data"), dict):
                    relay.problems.append(f"a notification without collapse id, tokens or data: {item}")
                for token in item.get("tokens") or []:
                    relay.deliveries.append((now, collapse, token, platform, item.get("data")))
        if relay.latency:
            time.sleep(relay.latency)
        self.answer(200, {"counts": sum(len(i.get("tokens") or []) for i in notifications), "logs": [], "success": "ok"})


class PricedFuelWatch(FuelWatch):
    """`prices` maps a station's trading name to its U91 price (c/L) in today's feed (`Product=1`). Each other
    product is 3.0 c/L dearer per product number: one value at every pump of a station is a placeholder, which
    Petty flags implausible and no alert counts."""

    def __init__(self, clock=time.time):
        self.prices = {}
        super().__init__(clock)

    def body(self, path):
        tomorrow = "Day=tomorrow" in path
        body = self.feed(tomorrow).decode()
        product = re.search(r"[?&]Product=(\d+)", path)
        step = int(product.group(1)) - 1 if product else 0
        fixed = {name: price + 3.0 * step for name, price in dict(self.prices).items()}
        if not tomorrow and fixed:
            def item(match):
                text = match.group(0)
                name = re.search(r"<trading-name>([^<]*)</trading-name>", text)
                price = fixed.get(name.group(1)) if name else None
                return text if price is None else re.sub(r"<price>[^<]*</price>", f"<price>{price:.1f}</price>", text)

            body = re.sub(r"<item>.*?</item>", item, body, flags=re.S)
        return 200, "text/xml; charset=utf-8", body.encode()


def pg_bin():
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: [int(x) for x in re.findall(r"\d+", p.parent.parent.name)] or [0])
    return found[-1].parent if found else None


class Postgres:
    """One cluster in `work`/pg on a free loopback port; role and database `petty`, trusted."""

    def __init__(self, work):
        self.work = Path(work) / "pg"
        self.data = self.work / "data"
        self.sock = self.work / "sock"
        self.log = self.work / "server.log"
        self.port = free_port()
        self.bin = None

    def as_postgres(self, args, **kwargs):
        args = [str(a) for a in args]
        if os.getuid() == 0:
            args = ["runuser", "-u", "postgres", "--"] + args
        return subprocess.run(args, capture_output=True, text=True, **kwargs)

    def setup(self):
        """None, or why the cluster could not be made."""
        self.bin = pg_bin()
        if self.bin is None:
            apt_install("postgresql")
            self.bin = pg_bin()
        if self.bin is None:
            return "postgresql is not installed and could not be"
        self.sock.mkdir(parents=True)
        os.chmod(self.work, 0o755)
        if os.getuid() == 0:
            subprocess.run(["chown", "-R", "postgres:postgres", str(self.work)], check=True)
        made = self.as_postgres([self.bin / "initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8"])
        if made.returncode != 0:
            return f"initdb: {made.stdout[-300:]} {made.stderr[-300:]}"
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"listen_addresses = '127.0.0.1'\nport = {self.port}\nunix_socket_directories = '{self.sock}'\nfsync = off\n")
        problem = self.start()
        if problem:
            return problem
        for sql in ("CREATE ROLE petty LOGIN", "CREATE DATABASE petty OWNER petty"):
            created = self.psql("postgres", sql)
            if created.returncode != 0:
                return f"{sql}: {created.stderr[-300:]}"
        return None

    @property
    def url(self):
        return f"postgres://petty@127.0.0.1:{self.port}/petty"

    def start(self):
        # After a kill -9 the postmaster's children leave on their own; until they have, a start may fail.
        for _ in range(10):
            started = self.as_postgres([self.bin / "pg_ctl", "-D", self.data, "-l", self.log, "-w", "-t", "30", "start"])
            if started.returncode == 0:
                return None
            time.sleep(1)
        return f"pg_ctl start: {started.stdout[-200:]} {started.stderr[-200:]} | {self.tail()}"

    def stop_fast(self):
        stopped = self.as_postgres([self.bin / "pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop"])
        return None if stopped.returncode == 0 else f"pg_ctl stop: {stopped.stderr[-200:]}"

    def kill_postmaster(self):
        pid = int((self.data / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGKILL)
        wait_for(10, lambda: not Path(f"/proc/{pid}").exists(), 0.1)
        return pid

    def stop(self):
        if self.bin and self.data.exists():
            self.as_postgres([self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "stop"])

    def psql(self, database, sql):
        return self.as_postgres([self.bin / "psql", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-h", self.sock,
                                 "-p", str(self.port), "-U", "postgres", "-d", database, "-c", sql], timeout=30)

    def rows(self, sql):
        """The rows of `sql` in database petty, as lists of text; None when the server does not answer."""
        answer = self.psql("petty", sql)
        if answer.returncode != 0:
            return None
        return [line.split("\t") for line in answer.stdout.splitlines() if line]

    def tail(self, lines=5):
        text = self.log.read_text(errors="replace").splitlines() if self.log.exists() else []
        return " | ".join(text[-lines:])
