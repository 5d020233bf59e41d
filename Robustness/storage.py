"""Storage attacks: the data directory of the real binary fills up, disappears, is corrupted while the server is
down, or is shared by a second server. The server must keep serving, say what is wrong in /health
(`persistence`, and the overall status `degraded` while saves fail), recover by itself when the cause goes away,
never crash on a damaged file and never reuse a station id.

    python3 Robustness/storage.py [--quick] [--only enospc,deleted,corrupt,two_servers]

`enospc` mounts a small tmpfs (root or CAP_SYS_ADMIN needed; otherwise its checks are printed as SKIP with the
reason and counted as passed). A fake WA FuelWatch provider (upstream.py's) gives the server a change to save:
it holds its answer until the script opens its gate."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from common import BINARY, HOST, ROOT, Checks, Server, die_with_parent, free_port, require_binary, simple_get, stop_upstream
from upstream import FIXTURE, Fake, provider, wait_for

DATA_FILES = ("snapshot.bin", "registry.json", "history.json")


def persistence(health):
    return (health or {}).get("persistence") or {}


def wait_persistence(server, status, timeout, overall=None):
    """Waits until /health's persistence status is `status` (and the overall status `overall`, if given); returns
    the last /health (or {}). A server without a `persistence` object in /health fails at once, without waiting."""
    def reached():
        health = server.health() or {}
        if "persistence" not in health:
            return health or {"status": None}
        done = persistence(health).get("status") == status and (overall is None or health.get("status") == overall)
        return health if done else None
    return wait_for(reached, timeout, every=0.2) or server.health() or {}


def saved_files(data):
    return all(os.path.isfile(os.path.join(data, name)) and os.path.getsize(os.path.join(data, name)) > 0
               for name in DATA_FILES)


def saved_version(server, version):
    """The log says this snapshot version was saved (info level: `data: saved snapshot vN ...`)."""
    return f"saved snapshot v{version} " in server.log_text()


def all_stations(port):
    """{key: id} for every station served, key = (provider, source, name, suburb, latitude, longitude)."""
    stations = {}
    offset = 0
    while offset < 100_000:
        status, _, body = simple_get(port, f"/v1/stations?limit=500&offset={offset}", timeout=10)
        if status != 200:
            break
        page = json.loads(body)["data"]
        for s in page:
            key = (s["provider"], s["source"], s["name"], s["suburb"], s["location"]["latitude"], s["location"]["longitude"])
            stations[key] = s["id"]
        if len(page) < 500:
            break
        offset += 500
    return stations


def wa_env(fake):
    return {"PETTY_PROVIDERS": "wa", "PETTY_WA_BASE_URL": fake.url, "PETTY_WA_POLL_SECONDS": "600",
            "PETTY_PROVIDER_TIMEOUT_SECONDS": "30"}


def second_server(data, timeout=15):
    """Starts another server on `data`; returns (exit code or None if still running after `timeout`, output)."""
    port = free_port()
    proc = subprocess.Popen([BINARY, "serve", "--port", str(port), "--hostname", HOST, "--data-dir", data, "--env",
                             "production", "--log-level", "warning"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, cwd=ROOT, preexec_fn=die_with_parent,
                            env=dict(os.environ, PETTY_PROVIDERS="none"))
    try:
        output, _ = proc.communicate(timeout=timeout)
        return proc.returncode, output.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        proc.kill()
        output, _ = proc.communicate(timeout=10)
        return None, output.decode("utf-8", "replace")


def check_refused(checks, name, data, server):
    code, output = second_server(data)
    lines = [line for line in output.splitlines() if line.strip()]
    print(f"  second server: exit {code}, output {output.strip()[-300:]!r}", flush=True)
    checks.check(f"{name}: a second server on the same directory exits with code 1", code == 1, f"exit {code}")
    checks.check(f"{name}: its error is one line naming the directory",
                 bool(lines) and data in lines[-1] and sum(data in line for line in lines) == 1, lines[-1] if lines else "")
    checks.check(f"{name}: the first server keeps serving", server.healthy())


# --- scenarios -----------------------------------------------------------------------------------

def enospc(checks, fake, work):
    """A 4 MiB tmpfs (sample data takes 1.7 MB); once the first save is done, a filler takes every free byte,
    and the fake's live WA feed makes a change that must be saved. Then space comes back."""
    name = "enospc"
    mount = os.path.join(work, "tmpfs")
    os.makedirs(mount)
    try:
        result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount], capture_output=True, text=True)
        refused = result.returncode != 0 and (result.stderr or result.stdout).strip()[:200]
    except OSError as error:  # no mount(8) at all
        refused = str(error)
    if refused is not False:
        reason = f"cannot mount a tmpfs: {refused}"
        for what in ("saves fail: persistence failing, status degraded", "serving continues while saves fail",
                     "recovers once space is back", "the recovered save holds the new data"):
            checks.skip(f"{name}: {what}", reason)
        return
    data = os.path.join(mount, "data")
    server = None
    try:
        fake.reset("good")
        fake.gate.clear()
        server = Server(log_level="info", environ=wa_env(fake), data_dir=data)
        first = wait_for(lambda: saved_files(data) and saved_version(server, (server.health() or {}).get("snapshot", {}).get("version")), 20)
        if not checks.check(f"{name}: the first save fits", first, "" if first else server.log_text()[-300:]):
            return
        # Take every free byte.
        filler = os.path.join(mount, "filler")
        with open(filler, "wb") as f:
            try:
                while True:
                    f.write(bytes(64 * 1024))
                    f.flush()
            except OSError:
                pass
        free = os.statvfs(mount).f_bavail * os.statvfs(mount).f_frsize
        print(f"  tmpfs full ({free} bytes free); the fake feed now brings live WA data to save", flush=True)
        fake.gate.set()
        live = wait_for(lambda: (lambda p: p and p.get("source") == "live")(provider(server.health(), "wa")), 30)
        checks.check(f"{name}: the poll merged live WA data (a change to save)", bool(live))
        health = wait_persistence(server, "failing", 15)
        p = persistence(health)
        print(f"  /health: status {health.get('status')}, persistence {json.dumps(p)}", flush=True)
        checks.check(f"{name}: saves fail: persistence failing, status degraded",
                     p.get("status") == "failing" and health.get("status") == "degraded", f"{health.get('status')}, {p.get('status')}")
        error = str(p.get("last_error") or "")
        checks.check(f"{name}: last_error says the disk is full", "space" in error.lower() or "enospc" in error.lower(), error)
        status, _, body = simple_get(server.port, "/v1/stations?state=WA&limit=1")
        checks.check(f"{name}: serving continues while saves fail (live WA served)",
                     status == 200 and json.loads(body)["meta"]["source"] == "live", f"{status}")
        # Space comes back.
        os.remove(filler)
        subprocess.run(["mount", "-o", "remount,size=64m", mount], capture_output=True)
        started = time.time()
        health = wait_persistence(server, "ok", 70)
        version = health.get("snapshot", {}).get("version")
        print(f"  after space came back ({time.time() - started:.1f} s): status {health.get('status')}, "
              f"persistence {json.dumps(persistence(health))}", flush=True)
        checks.check(f"{name}: recovers once space is back (persistence ok, status ok)",
                     persistence(health).get("status") == "ok" and health.get("status") == "ok", health.get("status", ""))
        # What is on disk now must be the live data: restart on it with the fake holding its answer.
        wait_for(lambda: saved_version(server, version), 5)
        server.kill()
        server.cleanup()
        server = None
        fake.gate.clear()
        server = Server(log_level="info", environ=wa_env(fake), data_dir=data)
        wa = provider(server.health(), "wa") or {}
        checks.check(f"{name}: the recovered save holds the new data (restart serves live WA)",
                     wa.get("source") == "live", f"{wa.get('source')}, {wa.get('stations')} stations")
    finally:
        fake.gate.set()
        if server:
            server.cleanup()
        if subprocess.run(["umount", mount], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", mount], capture_output=True)


def deleted(checks, work):
    """The data directory is deleted while the server runs; then replaced by a plain file; then freed again."""
    name = "deleted"
    data = os.path.join(work, "data-b")  # names free of words the checks look for
    server = Server(log_level="info", environ={"PETTY_PROVIDERS": "none"}, data_dir=data)
    try:
        # The whole first save, not just its first files: deleting the directory mid-save is a failed save, which
        # is retried without the "deleted" line this scenario looks for.
        if not checks.check(f"{name}: the first save", wait_for(lambda: saved_files(data) and "data: saved snapshot v" in server.log_text(), 20)):
            return
        shutil.rmtree(data)
        started = time.time()
        back = wait_for(lambda: saved_files(data), 15) and persistence(wait_persistence(server, "ok", 10)).get("status") == "ok"
        print(f"  directory deleted; files back after {time.time() - started:.1f} s: {sorted(os.listdir(data)) if os.path.isdir(data) else None}", flush=True)
        checks.check(f"{name}: the server re-creates the directory and saves every file again", bool(back))
        log = server.log_text()
        checks.check(f"{name}: the log says the files were deleted and saved again", "deleted" in log, "" if "deleted" in log else log[-300:])
        checks.check(f"{name}: serving continued", simple_get(server.port, "/v1/stations/1")[0] == 200)
        check_refused(checks, f"{name} (re-created directory)", data, server)
        # A plain file where the directory was: saves cannot succeed until it goes.
        shutil.rmtree(data)
        with open(data, "w") as f:
            f.write("not a directory\n")
        health = wait_persistence(server, "failing", 15)
        print(f"  directory replaced by a file: status {health.get('status')}, persistence {json.dumps(persistence(health))}", flush=True)
        checks.check(f"{name}: a file in the directory's place: persistence failing, status degraded",
                     persistence(health).get("status") == "failing" and health.get("status") == "degraded",
                     f"{health.get('status')}, {persistence(health).get('status')}")
        checks.check(f"{name}: serving continues while saves fail", simple_get(server.port, "/v1/stations/1")[0] == 200)
        os.remove(data)
        started = time.time()
        back = wait_for(lambda: saved_files(data), 20) and persistence(wait_persistence(server, "ok", 70, overall="ok")).get("status") == "ok"
        print(f"  file removed; recovered after {time.time() - started:.1f} s", flush=True)
        checks.check(f"{name}: recovers once the directory can be created again (files saved, status ok)", bool(back))
    finally:
        server.cleanup()
        if os.path.isfile(data):
            os.remove(data)
        shutil.rmtree(data, ignore_errors=True)


def flip(path, offset_fraction=0.5, mask=0x10):
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        at = int(len(data) * offset_fraction)
        data[at] ^= mask
        f.seek(0)
        f.write(data)


def truncate(path):
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) // 2)


CORRUPTIONS = [
    ("snapshot.bin", "one bit flipped", lambda p: flip(p)),
    ("registry.json", "truncated to half", truncate),
    ("history.json", "one bit flipped", lambda p: flip(p, 0.6, 0x01)),
]


def corrupt(checks, fake, work):
    """kill -9 a server holding sample and live WA data, damage one file, restart: it must start, report the
    loss, and keep every station's id (a station seen before keeps its id; a new one never gets an old id)."""
    name = "corrupt"
    seed = os.path.join(work, "data-c")
    fake.reset("good")
    fake.gate.clear()
    server = Server(log_level="info", environ=wa_env(fake), data_dir=seed)
    try:
        known = all_stations(server.port)  # the sample, before live WA replaces its WA part
        fake.gate.set()
        wait_for(lambda: (lambda p: p and p.get("source") == "live")(provider(server.health(), "wa")), 30)
        version = server.health()["snapshot"]["version"]
        if not checks.check(f"{name}: seeded live WA data and saved it", wait_for(lambda: saved_version(server, version), 15)):
            return
        known.update(all_stations(server.port))
        server.kill()
    finally:
        server.cleanup()
    ids = {}
    for key, station_id in known.items():
        ids.setdefault(station_id, set()).add(key)
    print(f"  {len(known)} stations known ({len(ids)} ids, up to {max(ids)}) before kill -9", flush=True)
    for index, (file, how, damage) in enumerate(CORRUPTIONS):
        case = f"{name} ({file} {how})"
        data = os.path.join(work, f"data-c{index}")
        shutil.copytree(seed, data)
        damage(os.path.join(data, file))
        fake.reset("good")
        fake.gate.clear()  # the restart's poll waits: what it loaded is what we see first
        try:
            server = Server(log_level="info", environ=wa_env(fake), data_dir=data, ready_timeout=30)
        except RuntimeError as error:
            checks.check(f"{case}: the server starts", False, str(error)[-400:])
            continue
        try:
            checks.check(f"{case}: the server starts", True)
            health = server.health() or {}
            log = server.log_text()
            loss_lines = [line for line in log.splitlines()
                          if file in line and any(level in line for level in (" WARNING ", " ERROR ", " CRITICAL "))]
            print(f"  log: {loss_lines[:2]}; persistence {json.dumps(persistence(health))}", flush=True)
            checks.check(f"{case}: the log reports the loss (a warning or error naming {file})", bool(loss_lines))
            checks.check(f"{case}: /health persistence reports the loss", file in json.dumps(persistence(health)),
                         json.dumps(persistence(health))[:300])
            fake.gate.set()
            wait_for(lambda: (lambda p: p and p.get("source") == "live")(provider(server.health(), "wa")), 30)
            now = all_stations(server.port)
            changed = [(key, ids_before, now[key]) for key, ids_before in known.items() if key in now and now[key] != ids_before]
            reused = [(key, station_id) for key, station_id in now.items()
                      if station_id in ids and key not in ids[station_id]]
            checks.check(f"{case}: every station keeps its id ({len(now)} served)", not changed, str(changed[:3]))
            checks.check(f"{case}: no id given to another station", not reused, str(reused[:3]))
            checks.check(f"{case}: server healthy", server.healthy())
        finally:
            fake.gate.set()
            server.cleanup()
            shutil.rmtree(data, ignore_errors=True)
    shutil.rmtree(seed, ignore_errors=True)


def two_servers(checks, work):
    name = "two_servers"
    data = os.path.join(work, "data-d")
    server = Server(log_level="info", environ={"PETTY_PROVIDERS": "none"}, data_dir=data)
    try:
        wait_for(lambda: saved_files(data), 20)
        before = {n: os.stat(os.path.join(data, n)).st_mtime_ns for n in DATA_FILES if os.path.exists(os.path.join(data, n))}
        check_refused(checks, name, data, server)
        after = {n: os.stat(os.path.join(data, n)).st_mtime_ns for n in DATA_FILES if os.path.exists(os.path.join(data, n))}
        checks.check(f"{name}: the refused server wrote no data file", before == after)
        checks.check(f"{name}: the first server's persistence is ok", persistence(server.health()).get("status") == "ok")
    finally:
        server.cleanup()


SCENARIOS = ["enospc", "deleted", "corrupt", "two_servers"]


def main():
    require_binary()
    only = set(sys.argv[sys.argv.index("--only") + 1].split(",")) if "--only" in sys.argv else None
    checks = Checks()
    with open(FIXTURE, "rb") as f:
        template = f.read().decode("utf-8")
    fake = Fake(template, None)
    threading.Thread(target=fake.serve_forever, daemon=True).start()
    work = tempfile.mkdtemp(prefix="petty-storage-")
    try:
        for scenario in SCENARIOS:
            if only is not None and scenario not in only:
                continue
            print(f"== {scenario}", flush=True)
            if scenario == "enospc":
                enospc(checks, fake, work)
            elif scenario == "deleted":
                deleted(checks, work)
            elif scenario == "corrupt":
                corrupt(checks, fake, work)
            elif scenario == "two_servers":
                two_servers(checks, work)
    finally:
        stop_upstream(fake)
        shutil.rmtree(work, ignore_errors=True)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
