#!/usr/bin/env python3
"""Open COUNT keep-alive connections to 127.0.0.1:PORT, send one complete request on each and read its
whole response, then hold them open, idle. Prints `READY ok=N failed=M seconds=T` once all are set up.
On SIGUSR1 (or after --hold-max seconds) checks how many the server closed meanwhile, prints
`HELD open=N closed=M` and exits (closing them all). Python stdlib only.

    idle_conns.py PORT COUNT PATH [--hold-max 55]
"""
import errno, resource, select, signal, socket, sys, time

port, count, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
hold_max = float(sys.argv[sys.argv.index("--hold-max") + 1]) if "--hold-max" in sys.argv else 55.0

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
want = min(hard, count + 256) if hard != resource.RLIM_INFINITY else count + 256
if soft < want:
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))

request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUser-Agent: petty-bench-idle\r\n\r\n".encode()
ep = select.epoll()
conns = {}      # fd -> [sock, state, buffer]
started = time.monotonic()
opened = ok = failed = 0
MAX_PENDING = 500


def source(i):
    # Spread over 40 loopback source addresses so repeated rounds never run short of ephemeral ports.
    return (f"127.0.{1 + (i // 250) % 40}.{1 + i % 250}", 0)


def open_one(i):
    global failed
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    try:
        s.bind(source(i))
    except OSError:
        pass
    err = s.connect_ex(("127.0.0.1", port))
    if err not in (0, errno.EINPROGRESS):
        s.close(); failed += 1; return
    conns[s.fileno()] = [s, "connecting", b""]
    ep.register(s.fileno(), select.EPOLLOUT)


def complete(buf):
    head_end = buf.find(b"\r\n\r\n")
    if head_end < 0:
        return False
    length = 0
    for line in buf[:head_end].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    return len(buf) >= head_end + 4 + length


def fail(fd):
    global failed
    s = conns.pop(fd)[0]
    try: ep.unregister(fd)
    except OSError: pass
    s.close(); failed += 1


pending = 0
deadline = time.monotonic() + 60
while (opened < count or pending) and time.monotonic() < deadline:
    while opened < count and pending < MAX_PENDING:
        before = failed
        open_one(opened); opened += 1
        if failed == before: pending += 1
    for fd, event in ep.poll(0.5):
        entry = conns.get(fd)
        if entry is None: continue
        s, state, buf = entry
        if event & (select.EPOLLERR | select.EPOLLHUP) and state == "connecting":
            fail(fd); pending -= 1; continue
        if state == "connecting":
            if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) != 0:
                fail(fd); pending -= 1; continue
            try: s.send(request)
            except OSError: fail(fd); pending -= 1; continue
            entry[1] = "reading"
            ep.modify(fd, select.EPOLLIN)
        else:
            try: data = s.recv(65536)
            except BlockingIOError: continue
            except OSError: fail(fd); pending -= 1; continue
            if not data: fail(fd); pending -= 1; continue
            entry[2] = buf + data
            if complete(entry[2]):
                if not entry[2].startswith(b"HTTP/1.1 200"):
                    fail(fd); pending -= 1; continue
                entry[1] = "idle"; entry[2] = b""
                ep.unregister(fd)
                ok += 1; pending -= 1
for fd in [fd for fd, e in conns.items() if e[1] != "idle"]:
    fail(fd)

print(f"READY ok={ok} failed={failed} seconds={time.monotonic() - started:.1f}", flush=True)

stop = False
def on_signal(*_):
    global stop
    stop = True
signal.signal(signal.SIGUSR1, on_signal)
signal.signal(signal.SIGTERM, on_signal)
hold_until = time.monotonic() + hold_max
while not stop and time.monotonic() < hold_until:
    time.sleep(0.1)

open_count = closed = 0
for s, _, _ in conns.values():
    try:
        data = s.recv(1, socket.MSG_PEEK)
        if data: open_count += 1   # unexpected bytes, but still open
        else: closed += 1
    except BlockingIOError:
        open_count += 1
    except OSError:
        closed += 1
print(f"HELD open={open_count} closed={closed}", flush=True)
for s, _, _ in conns.values():
    s.close()
