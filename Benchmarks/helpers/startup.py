#!/usr/bin/env python3
"""Time from exec to the first 200 from /health, RUNS times, each on a fresh copy of DATA_DIR.

    startup.py RUNS PORT DATA_DIR WORK_DIR -- COMMAND... (the command gets --data-dir COPY appended)

Prints one `STARTUP run=N ms=T loaded_ms=L` line per run (loaded_ms: the server's own "loaded ... in L ms"
log line, or -1) and `STARTUP_MEDIAN ms=T`.
"""
import os, re, shutil, signal, socket, statistics, subprocess, sys, time

runs, port, data_dir, work = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
command = sys.argv[sys.argv.index("--") + 1:]
request = f"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()


def healthy():
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(request)
            return s.recv(16).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


times = []
for run in range(1, runs + 1):
    copy = os.path.join(work, f"startup-data-{run}")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(data_dir, copy)
    log_path = os.path.join(work, f"startup-{run}.log")
    with open(log_path, "w") as log:
        started = time.monotonic()
        proc = subprocess.Popen(command + ["--data-dir", copy], stdout=log, stderr=subprocess.STDOUT)
        ready = None
        while time.monotonic() - started < 30 and proc.poll() is None:
            if healthy():
                ready = (time.monotonic() - started) * 1000
                break
            time.sleep(0.002)
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill(); proc.wait()
    text = open(log_path).read()
    m = re.search(r"loaded \d+ stations.* in (\d+) ms", text)
    loaded = int(m.group(1)) if m else -1
    if ready is None:
        print(f"STARTUP run={run} ms=-1 loaded_ms={loaded} (never ready; see {log_path})", flush=True)
        continue
    times.append(ready)
    print(f"STARTUP run={run} ms={ready:.0f} loaded_ms={loaded}", flush=True)
    shutil.rmtree(copy, ignore_errors=True)
print(f"STARTUP_MEDIAN ms={statistics.median(times):.0f}" if times else "STARTUP_MEDIAN ms=-1", flush=True)
