#!/usr/bin/env python3
"""The alert rows of issue 45 against a real PostgreSQL (a throwaway cluster, as Tests/postgres/run.sh starts one)
and the release server. Run by hand: `python3 Benchmarks/helpers/alert_bench.py [--rows load,send,post]`.

  load  1,000,000 alerts (PettyBench alert-rows: AlertWorkload over the large dataset) COPYed in with psql, then the
        server started on them: the seconds its evaluator takes to load them (its own log line), and its VmRSS once
        loaded against the same server on an empty alerts database. Targets: <= 30 s, <= 250 MB more RSS.
  send  100,000 notifications (2 each for 50,000 devices) in the outbox, the server started with PETTY_PUSH_URL at
        Tests/FakeRelay (PettyBench fake-relay): seconds from the server answering /health to no unsent row left,
        through AlertSenderService. Target <= 60 s.
  post  POST /v1/devices/{id}/alerts with wrk over 2,000 devices created through the API (64 connections, 2
        threads, DURATION). Target >= 2,000 req/s.
Prints each figure with its target and PASS/MISS; the last line is "N passed, N failed". Needs postgresql, wrk.
`--server BINARY` measures another build's server (a before figure) with this script and its PettyBench.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import http.client
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Scripts"))
from harness import Processes, Results, free_port, proc_status_kb, raise_on_signals, wait_for, http_get  # noqa: E402

RELEASE = ROOT / ".build" / "release"
RUN = RELEASE / "Run"
BENCH = RELEASE / "PettyBench"
LOADED = re.compile(r"alerts: evaluating as .*?: (\d+) alerts and (\d+) states loaded in ([\d.]+) s")


def sh(args, **kwargs):
    return subprocess.run([str(a) for a in args], check=True, **kwargs)


class Cluster:
    """initdb in a temporary directory as the postgres user, pg_ctl on a free loopback port, fsync off."""

    def __init__(self, work):
        bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: [int(x) for x in re.findall(r"\d+", str(p))])
        if not bins:
            raise SystemExit("postgresql is not installed (apt-get install -y postgresql)")
        self.bin = bins[-1]
        self.work = work / "pg"
        self.work.mkdir()
        self.data = self.work / "data"
        self.sock = self.work / "sock"
        self.sock.mkdir()
        self.port = free_port()
        os.chmod(self.work, 0o755)
        if os.getuid() == 0:
            shutil.chown(self.work, "postgres", "postgres")
            shutil.chown(self.sock, "postgres", "postgres")

    def as_postgres(self, args, **kwargs):
        prefix = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        return sh(prefix + [str(a) for a in args], **kwargs)

    def start(self):
        self.as_postgres([self.bin / "initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8"], stdout=subprocess.DEVNULL)
        conf = f"listen_addresses = '127.0.0.1'\nport = {self.port}\nunix_socket_directories = '{self.sock}'\nfsync = off\n"
        conf += "synchronous_commit = off\nmax_wal_size = 4GB\nshared_buffers = 256MB\n"
        self.as_postgres(["sh", "-c", f"cat >> {self.data}/postgresql.conf"], input=conf.encode())
        self.as_postgres([self.bin / "pg_ctl", "-D", self.data, "-l", self.work / "server.log", "-w", "-t", "30", "start"], stdout=subprocess.DEVNULL)

    def stop(self):
        try:
            self.as_postgres([self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except subprocess.CalledProcessError:
            pass

    def psql(self, db, sql, capture=False):
        result = self.as_postgres([self.bin / "psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", self.sock, "-p", self.port,
                                   "-U", "postgres", "-d", db], input=sql.encode(), capture_output=capture)
        return result.stdout.decode().strip() if capture else None

    def url(self, db):
        return f"postgres://postgres@127.0.0.1:{self.port}/{db}"


class Bench:
    def __init__(self, args):
        self.args = args
        self.procs = Processes()
        self.results = Results()
        self.work = Path(tempfile.mkdtemp(prefix="petty-alertbench."))
        os.chmod(self.work, 0o755)
        self.cluster = Cluster(self.work)
        self.port = free_port()

    def serve(self, db, log, env=None):
        data = self.work / f"data-{db}"
        if not data.exists():
            shutil.copytree(self.work / "large", data)
        env = {"PETTY_PROVIDERS": "none", "PETTY_DATABASE_URL": self.cluster.url(db), **(env or {})}
        started = time.monotonic()
        proc = self.procs.start([self.args.server, "serve", "--env", "production", "--port", self.port, "--data-dir", data, "--log-level", "notice"],
                                log=log, env=env)
        ok = wait_for(60, lambda: proc.poll() is None and self.health() is not None, interval=0.05)
        if not ok:
            raise SystemExit(f"the server did not answer /health: see {log}")
        return proc, started

    def row(self, name, ok, detail):
        """Every row prints its figure and target, met or not."""
        print(f"{name:<16} {'PASS' if ok else 'MISS'}  {detail}", flush=True)
        self.results.add(name, "PASS" if ok else "FAIL", detail)

    def row_failed(self, name, detail):
        self.row(name, False, detail)

    def health(self):
        try:
            reply = http_get(f"http://127.0.0.1:{self.port}/health", timeout=2)
            return json.loads(reply.body) if reply.status == 200 else None
        except (OSError, ValueError):
            return None

    def migrated(self, db):
        """The server creates and migrates its schema at start: start it once on `db`, wait for the evaluator."""
        self.cluster.psql("postgres", f"CREATE DATABASE {db}")
        log = self.work / f"migrate-{db}.log"
        proc, _ = self.serve(db, log)
        wait_for(60, lambda: LOADED.search(log.read_text(errors="replace")) is not None)
        self.procs.stop(proc)

    def loaded_line(self, log, seconds):
        found = None

        def seen():
            nonlocal found
            found = LOADED.search(log.read_text(errors="replace"))
            return found is not None
        wait_for(seconds, seen, interval=0.1)
        return found

    def run(self):
        rows = self.args.rows.split(",")
        print(f"== {time.strftime('%Y-%m-%d %H:%M:%S')} load average {os.getloadavg()}; work {self.work}")
        sh([BENCH, "make-large-dataset", "--out", self.work / "large"], stdout=subprocess.DEVNULL)
        self.cluster.start()
        try:
            if "load" in rows:
                self.load()
            if "send" in rows:
                self.send()
            if "post" in rows:
                self.post()
        finally:
            self.procs.stop_all()
            self.cluster.stop()
            if not self.args.keep:
                shutil.rmtree(self.work, ignore_errors=True)
        print(f"== load average {os.getloadavg()}")
        print(self.results.summary())

    def load(self):
        count = self.args.alerts
        self.migrated("petty_empty")
        self.migrated("petty_alerts")
        sh([BENCH, "alert-rows", "--data-dir", self.work / "large", "--out", self.work, "--alerts", count])
        copy_started = time.monotonic()
        self.cluster.psql("petty_alerts", f"""
            \\copy devices (id, platform, push_token, time_zone, secret_hash) FROM '{self.work}/devices.csv' WITH (FORMAT csv)
            \\copy alerts (id, device_id, kind, fuel, station_ids, near_lat, near_lng, radius_km, threshold_tenths, change_tenths, delivery, at_minute, quiet_from_minute, quiet_to_minute) FROM '{self.work}/alerts.csv' WITH (FORMAT csv)
            SELECT setval(pg_get_serial_sequence('devices', 'id'), (SELECT max(id) FROM devices));
            SELECT setval(pg_get_serial_sequence('alerts', 'id'), (SELECT max(id) FROM alerts));
            UPDATE devices d SET alert_count = c.n FROM (SELECT device_id, count(*)::integer AS n FROM alerts GROUP BY device_id) c WHERE d.id = c.device_id;
            ANALYZE;
            """)
        print(f"   COPY of {count} alerts: {time.monotonic() - copy_started:.1f} s (not part of the figure)")
        rss = {}
        for db in ["petty_empty", "petty_alerts"]:
            log = self.work / f"load-{db}.log"
            proc, started = self.serve(db, log)
            found = self.loaded_line(log, 300)
            if found is None:
                self.row_failed(f"alert-load {db}", f"no 'alerts loaded' line in {log}")
                self.procs.stop(proc)
                return
            wall = time.monotonic() - started
            time.sleep(3)
            rss[db] = proc_status_kb(proc.pid) / 1024
            print(f"   {db}: {found.group(1)} alerts, {found.group(2)} states loaded in {found.group(3)} s (server's log; {wall:.1f} s from exec), VmRSS {rss[db]:.0f} MB")
            self.procs.stop(proc)
            if db == "petty_alerts":
                seconds = float(found.group(3))
                self.row("alert-load time", seconds <= 30 and int(found.group(1)) == count,
                                   f"{count} alerts loaded from PostgreSQL in {seconds:.1f} s; target <= 30 s")
        extra = rss["petty_alerts"] - rss["petty_empty"]
        self.row("alert-load RSS", extra <= 250,
                           f"+{extra:.0f} MB RSS with {count} alerts ({rss['petty_alerts']:.0f} MB against {rss['petty_empty']:.0f} MB); target <= 250 MB")

    def send(self):
        total = self.args.notifications
        devices = total // 2
        self.migrated("petty_send")
        if not (self.work / "devices.csv").exists():
            sh([BENCH, "alert-rows", "--data-dir", self.work / "large", "--out", self.work, "--alerts", devices * 6])
        self.cluster.psql("petty_send", f"""
            \\copy devices (id, platform, push_token, time_zone, secret_hash) FROM '{self.work}/devices.csv' WITH (FORMAT csv)
            INSERT INTO notifications (device_id, decision_key, collapse_id, payload, fence_generation, fence_revision, deliver_after)
            WITH d AS (SELECT id, row_number() OVER (ORDER BY id) AS n FROM devices ORDER BY id LIMIT {devices})
            SELECT d.id, 'bench.' || g, 'petty-bench.' || g,
                   jsonb_build_object('title', 'Station ' || g, 'message', 'U91 is 179.9 c/L, at or below your 180.0',
                                      'station_id', 1, 'fuel', 'U91', 'price', 179.9),
                   0, 0, now() - interval '1 minute'
            FROM generate_series(1, {total}) g JOIN d ON d.n = (g - 1) % {devices} + 1;
            ANALYZE;
            """)
        total = int(self.cluster.psql("petty_send", "SELECT count(*) FROM notifications", capture=True))
        relay_log = self.work / "relay.log"
        relay = self.procs.start([BENCH, "fake-relay"], log=relay_log)
        wait_for(10, lambda: relay_log.exists() and relay_log.read_text().startswith("port "))
        relay_port = relay_log.read_text().split()[1]
        log = self.work / "send.log"
        proc, _ = self.serve("petty_send", log, env={"PETTY_PUSH_URL": f"http://127.0.0.1:{relay_port}"})
        started = time.monotonic()
        unsent = lambda: int(self.cluster.psql("petty_send", "SELECT count(*) FROM notifications WHERE sent_at IS NULL", capture=True))
        done = wait_for(600, lambda: unsent() == 0, interval=0.5)
        seconds = time.monotonic() - started
        time.sleep(1.5)
        lines = [line for line in relay_log.read_text().splitlines() if line.startswith("relay:")]
        self.procs.stop(proc)
        self.procs.stop(relay)
        detail = f"{total} notifications sent in {seconds:.1f} s ({total / seconds:.0f}/s), relay saw: {lines[-1] if lines else '?'}; target <= 60 s"
        self.row("alert-send", done and seconds <= 60, detail if done else f"unsent rows left after {seconds:.0f} s")

    def post(self):
        db = "petty_post"
        self.migrated(db)
        log = self.work / "post.log"
        proc, _ = self.serve(db, log)
        # /health answers before the alerts' database is ready (it connects and migrates in the background).
        wait_for(60, lambda: ((self.health() or {}).get("alerts") or {}).get("database") == "connected", interval=0.1)
        devices = []
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        for n in range(self.args.devices):
            body = json.dumps({"platform": "ios", "push_token": f"bench-token-{n:06d}", "time_zone": "Australia/Sydney"})
            conn.request("POST", "/v1/devices", body=body, headers={"Content-Type": "application/json"})
            reply = conn.getresponse()
            created = json.loads(reply.read())
            if reply.status != 201:
                raise SystemExit(f"POST /v1/devices answered {reply.status}: {created}")
            devices.append((created["id"], created["secret"]))
        conn.close()
        lua = self.work / "post.lua"
        table = ",\n".join(f'{{"/v1/devices/{i}/alerts", "Bearer {s}"}}' for i, s in devices)
        lua.write_text(f"""
local devices = {{
{table}
}}
local body = '{{"kind": "price_below", "fuel": "U91", "station_ids": [1, 2, 3], "threshold": 179.9, "quiet_hours": {{"from": "22:00", "to": "07:00"}}}}'
local counter = 0
local offset = 0
function setup(thread)
  thread:set("offset", offset)
  offset = offset + 1
end
function init(args)
  counter = offset
end
function request()
  counter = counter + 2
  local d = devices[(counter % #devices) + 1]
  return wrk.format("POST", d[1], {{["Content-Type"] = "application/json", ["Authorization"] = d[2]}}, body)
end
""")
        out = subprocess.run(["wrk", "-t2", "-c64", f"-d{self.args.duration}", "--latency", "-s", str(lua), f"http://127.0.0.1:{self.port}"],
                             capture_output=True, text=True).stdout
        self.procs.stop(proc)
        rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        errors = int(bad.group(1)) if bad else 0
        p99 = re.search(r"99%\s+(\S+)", out)
        stored = int(self.cluster.psql(db, "SELECT count(*) FROM alerts", capture=True))
        seconds = float(re.match(r"([\d.]+)", self.args.duration).group(1))
        created = stored / seconds
        self.row("alert-post", created >= 2000 and errors == 0,
                 f"{created:.0f} alerts created/s ({stored} stored in {self.args.duration}); wrk: {rate:.0f} answers/s, "
                 f"{errors} non-2xx (503 when the database gate is full), p99 {p99.group(1) if p99 else '?'}; target >= 2,000 req/s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default="load,send,post")
    parser.add_argument("--alerts", type=int, default=1_000_000)
    parser.add_argument("--notifications", type=int, default=100_000)
    parser.add_argument("--devices", type=int, default=2_000)
    parser.add_argument("--duration", default="10s")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--server", type=Path, default=RUN, help="the server binary to measure (another build's, for a before figure)")
    args = parser.parse_args()
    raise_on_signals()
    for binary in (args.server, BENCH):
        if not binary.exists():
            raise SystemExit(f"{binary} is missing: swift build -c release --product Run && swift build -c release --product PettyBench")
    Bench(args).run()


if __name__ == "__main__":
    main()
