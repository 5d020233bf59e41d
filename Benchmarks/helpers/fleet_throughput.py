#!/usr/bin/env python3
"""The `fleet` row: read throughput through the shipped nginx config with 1 fleet member behind it, then 3.

    SCENARIOS=fleet Benchmarks/bench.sh          (bench.py runs this with its release build; not in the default set)
    DURATION=3s python3 Benchmarks/helpers/fleet_throughput.py

3 etcd members (Debian's etcd-server, installed if missing) and Petty members exactly as deploy/test/fleet_check.py
starts them (fake FuelWatch and NSW, lease FLEET_LEASE), nginx without its per-IP rate limit (one wrk client is not
the many clients it is for) and with THREADS workers. Phase 1: one member, the leader, is nginx's only upstream.
Phase 2: two more members join, and once all three serve the leader's version nginx is restarted with the three
of them. The same wrk run (-t THREADS -c CONNECTIONS -d DURATION) on each path, ROUNDS times; the median req/s
of each phase and the ratio 3/1. Every server wrk reaches is on loopback, and every process is stopped by pid.
On one machine wrk, nginx and every member share the cores, so the ratio shows the cost of the fleet's extra
members there; it measures scaling only with the members on machines of their own.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "Scripts"))
sys.path.insert(0, str(HERE.parent.parent / "deploy/test"))
from harness import ROOT, Processes, http_get, raise_on_signals, wait_for  # noqa: E402
from fleet_check import Etcd, Fleet, ensure_etcd, one_leader  # noqa: E402
from fleet_clock import RealClock  # noqa: E402
from fleet_fakes import NSW, FuelWatch  # noqa: E402

ENV = os.environ
DURATION = ENV.get("DURATION", "5s")
THREADS = int(ENV.get("THREADS", "2"))
CONNECTIONS = int(ENV.get("CONNECTIONS", "64"))
ROUNDS = int(ENV.get("ROUNDS", "1"))
PATHS = ["/v1/stations/1", "/v1/stations?state=NSW&limit=50"]


def wrk(url):
    """(req/s, non-2xx and socket errors) of one wrk run."""
    out = subprocess.run(["wrk", f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{DURATION}", url],
                         capture_output=True, text=True).stdout
    rps, errors = 0.0, 0
    for line in out.splitlines():
        words = line.split()
        if line.startswith("Requests/sec:"):
            rps = float(words[1])
        elif line.strip().startswith("Non-2xx or 3xx responses:"):
            errors += int(words[-1])
        elif line.strip().startswith("Socket errors:"):
            errors += sum(int(w.rstrip(",")) for w in words if w.rstrip(",").isdigit())
    return rps, errors


def measure(fleet, label):
    """Median req/s per path over ROUNDS runs, printed as it goes."""
    rows = {}
    for path in PATHS:
        runs = [wrk(f"http://127.0.0.1:{fleet.nginx_port}{path}") for _ in range(ROUNDS)]
        rows[path] = (statistics.median(r[0] for r in runs), sum(r[1] for r in runs))
        print(f"  {label}: {path} {rows[path][0]:.0f} req/s, {rows[path][1]} errors", flush=True)
    return rows


def restart_nginx(fleet, members):
    fleet.procs.stop(fleet.nginx)
    problem = fleet.start_nginx(members=members, workers=THREADS, rate_limited=False)
    if problem:
        raise SystemExit(f"fleet: nginx -t failed: {problem}")
    answers = lambda: all(http_get(f"http://127.0.0.1:{fleet.nginx_port}{p}", timeout=5).status == 200 for p in PATHS)
    if not wait_for(10, answers, 0.2):
        raise SystemExit("fleet: nginx does not answer 200")


def main():
    raise_on_signals()
    for tool in ("wrk", "nginx"):
        if not shutil.which(tool):
            raise SystemExit(f"fleet: {tool} is required (apt-get install -y wrk nginx)")
    if not ensure_etcd():
        raise SystemExit("fleet: etcd is required (apt-get install -y etcd-server)")
    binary = ENV.get("FLEET_BINARY")
    if not binary:
        subprocess.run(["swift", "build", "-c", "release", "--product", "Run"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        binary = ROOT / ".build/release/Run"
    work = Path(tempfile.mkdtemp(prefix="petty-fleet-bench."))
    procs = Processes()
    fakes = (FuelWatch(), NSW())
    try:
        for fake in fakes:
            threading.Thread(target=fake.serve_forever, daemon=True).start()
        etcd = Etcd(procs, work)
        for i in range(3):
            etcd.start(i)
        if not wait_for(30, lambda: all(etcd.ready(i) for i in range(3)), 0.3):
            raise SystemExit("fleet: etcd did not start")
        problem = etcd.enable_auth()
        if problem:
            raise SystemExit(f"fleet: etcd auth: {problem}")
        fleet = Fleet(procs, work, etcd, fakes[0], fakes[1], binary, RealClock())
        fleet.start(0)
        if not wait_for(120, lambda: fleet.health(0) is not None, 0.5) or one_leader(fleet, 60) != 0:
            raise SystemExit("fleet: member m0 did not lead")
        print(f"== fleet read throughput through nginx (wrk -t{THREADS} -c{CONNECTIONS} -d{DURATION}, median of "
              f"{ROUNDS}; nginx {THREADS} workers, no rate limit)", flush=True)
        restart_nginx(fleet, [0])
        one = measure(fleet, "1 member")
        for i in (1, 2):
            fleet.start(i)
        served = wait_for(120, lambda: len({fleet.version(i) for i in range(3)}) == 1 and fleet.version(1) > 0, 0.5)
        if not served:
            raise SystemExit(f"fleet: members never served one version: {[fleet.version(i) for i in range(3)]}")
        restart_nginx(fleet, [0, 1, 2])
        three = measure(fleet, "3 members")
        print(f"\n  {'path':40} {'1 member':>10} {'3 members':>10} {'3/1':>6}")
        for path in PATHS:
            ratio = three[path][0] / one[path][0] if one[path][0] else 0
            print(f"  {path:40} {one[path][0]:>10.0f} {three[path][0]:>10.0f} {ratio:>5.2f}x")
        for path in PATHS:  # for bench.py's report
            print(f"FLEET_ROW {path} {one[path][0]:.0f} {three[path][0]:.0f} {one[path][1] + three[path][1]}")
        errors = sum(r[1] for r in [*one.values(), *three.values()])
        print(f"  errors (non-2xx and socket): {errors}; load: {Path('/proc/loadavg').read_text().split()[:3]}")
        return 0 if errors == 0 else 1
    finally:
        for fake in fakes:
            fake.shutdown()
        procs.stop_all()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
