#!/usr/bin/env python3
"""Static files and paths: no byte outside Public/ is reachable, directly or through nginx, and production
errors leak nothing.

The server runs with `--public-dir` on a temp copy of Public/ that also holds symlinks pointing outside
(a file, a directory, /etc); a canary secret file sits next to the copy. nginx runs the project's own
deploy/nginx/petty-locations.conf with its `root` on the same copy, twice: as shipped, and with
`disable_symlinks on;`. A leak only the shipped config shows is nginx following a symlink someone put in
Public/ (nginx's default); it is printed as WARN and DEPLOY NOTE, not counted as a failure. Every target is sent as raw bytes
(no client-side normalisation). A 200 is accepted only when its body is byte-identical to a regular file
inside the copy; the secret and /etc/passwd must never appear in any body.

    python3 Robustness/paths.py [--quick]
"""

import hashlib
import os
import re
import secrets
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ROOT, Nginx, Server, exchange, start_fast_script  # noqa: E402

TRAVERSALS = [
    b"/../secret.txt",
    b"/../../etc/passwd",
    b"/../../../../../../etc/passwd",
    b"/css/../../secret.txt",
    b"/./../secret.txt",
    b"/%2e%2e/secret.txt",
    b"/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    b"/%2E%2E/secret.txt",
    b"/%2e%2e%2fsecret.txt",
    b"/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    b"/..%2fsecret.txt",
    b"/..%2f..%2f..%2f..%2fetc%2fpasswd",
    b"/css/..%2f..%2fsecret.txt",
    b"/.%2e/secret.txt",
    b"/%2e./secret.txt",
    b"/%252e%252e/secret.txt",
    b"/%252e%252e%252fsecret.txt",
    b"/%25252e%25252e/secret.txt",
    b"/..%5csecret.txt",
    b"/..%5c..%5c..%5cetc%5cpasswd",
    b"/%2e%2e%5csecret.txt",
    b"/..\\secret.txt",
    b"/css\\..\\..\\secret.txt",
    b"/%c0%ae%c0%ae/secret.txt",
    b"/%c0%ae%c0%ae/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
    b"/%c0%ae%c0%ae%c0%afsecret.txt",
    b"/%e0%80%ae%e0%80%ae/secret.txt",
    b"/%c1%9c..%c1%9csecret.txt",
    b"/..%c0%afsecret.txt",
    b"/..%u2216secret.txt",
    b"/robots.txt%00.png",
    b"/%00../secret.txt",
    b"/..%00/secret.txt",
    b"/..;/secret.txt",
    b"//etc/passwd",
    b"///../../etc/passwd",
    b"/.well-known/../../secret.txt",
    b"/leak.txt",
    b"/leakdir/secret.txt",
    b"/etc/passwd",
    b"/etc/hostname",
    b"/.hidden",
    b"/%2ehidden",
    b"/css/.hidden",
    b"http://localhost/../../etc/passwd",
    b"http://localhost/%2e%2e/%2e%2e/secret.txt",
    b"http://localhost/..%2f..%2fsecret.txt",
    b"HTTP://localhost/../secret.txt",
    b"http://localhost:80/leak.txt",
    b"file:///etc/passwd",
    b"/etc/passwd?../../",
    b"/?/../../etc/passwd",
]

# Requests that make the server answer an error, to check the error bodies of production.
ERRORS = [
    ("404 unknown path", b"GET /no/such/thing HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
    ("404 unknown station", b"GET /v1/stations/999999999 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
    ("404 non-numeric station id", b"GET /v1/stations/abc HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
    ("400 bad query", b"GET /v1/stations?limit=-5&state=XX HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
    ("405 method", b"DELETE /v1/stations HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
    ("400 malformed request", b"GET / HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n"),
    ("400 bad percent-encoding", b"GET /%zz HTTP/1.1\r\nHost: localhost\r\n\r\n"),
    ("400 invalid UTF-8 in path", b"GET /%ff%fe HTTP/1.1\r\nHost: localhost\r\n\r\n"),
    ("413 body", b"POST /v1/stations HTTP/1.1\r\nHost: localhost\r\nContent-Length: 99999999\r\n\r\n"),
    ("414 request line", b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n"),
    ("431 headers", b"GET / HTTP/1.1\r\nHost: localhost\r\nX: " + b"v" * 40000 + b"\r\n\r\n"),
    ("501 transfer coding", b"POST /v1/stations HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n"),
    ("505 version", b"GET / HTTP/1.7\r\nHost: localhost\r\n\r\n"),
    ("417 expectation", b"POST /v1/stations HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok\r\nContent-Length: 5\r\n\r\n"),
    ("400 TLS hello on plain port", bytes.fromhex("160301020001") + b"\x00" * 40),
]

LEAK_PATTERNS = [
    (re.compile(rb"/(tmp|work|home|usr|root|srv|var|etc|opt|build)/"), "a file path"),
    (re.compile(rb"\.swift\b"), "a Swift source name"),
    (re.compile(rb"\b[A-Z][A-Za-z]*(Error|Exception)\b"), "a type name"),
    (re.compile(rb"\b(Swift|Foundation|Glibc|HTTP|App|Fuel)\.[A-Z]"), "a qualified type"),
    (re.compile(rb"0x[0-9a-fA-F]{8,}"), "an address"),
    (re.compile(rb"(?i)backtrace|stack trace|fatal error|\bat line\b|errno"), "stack or system detail"),
]


def build_site(root):
    """A copy of Public/ with symlinks pointing outside, and a secret next to it."""
    site = os.path.join(root, "site")
    public = os.path.join(site, "Public")
    shutil.copytree(os.path.join(ROOT, "Public"), public, symlinks=False)
    marker = "PETTY-SECRET-" + secrets.token_hex(8)
    with open(os.path.join(site, "secret.txt"), "w") as f:
        f.write(marker + "\n")
    os.symlink(os.path.join(site, "secret.txt"), os.path.join(public, "leak.txt"))
    os.symlink(site, os.path.join(public, "leakdir"))
    os.symlink("/etc", os.path.join(public, "etc"))
    with open(os.path.join(public, ".hidden"), "w") as f:
        f.write(marker + "-dotfile\n")
    with open(os.path.join(public, "css", ".hidden"), "w") as f:
        f.write(marker + "-dotfile\n")
    inside = set()
    for directory, _, files in os.walk(public):
        for name in files:
            path = os.path.join(directory, name)
            if not os.path.islink(path) and not name.startswith("."):
                with open(path, "rb") as f:
                    inside.add(hashlib.sha256(f.read()).hexdigest())
    outside = [marker.encode(), b"root:x:0:0", b"root:"]
    try:
        with open("/etc/hostname", "rb") as f:
            hostname = f.read().strip()
            if len(hostname) >= 4:
                outside.append(hostname)
    except OSError:
        pass
    return public, inside, outside


def main():
    checks = start_fast_script(__doc__)
    tmp = tempfile.mkdtemp(prefix="petty-paths-")
    os.chmod(tmp, 0o755)  # nginx's workers run unprivileged; mkdtemp's 0700 would hide the files from them
    public, inside, outside = build_site(tmp)
    server = Server(public_dir=public)
    nginx = None
    try:
        # The shipped locations snippet sets `disable_symlinks on;`, so nginx must refuse planted symlinks too.
        nginx = Nginx(server.port, public_dir=public)
        # Sanity: the copy is served at all (so a 404 below means "refused", not "misconfigured").
        for path, port in (("direct", server.port), ("nginx", nginx.port)):
            responses, _ = exchange(port, b"GET /robots.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            checks.check(f"{path}: a file inside the copy is served (sanity)",
                         bool(responses) and responses[0].status == 200 and hashlib.sha256(responses[0].body).hexdigest() in inside)
            if path == "nginx" and responses:
                # Our FileMiddleware sets Cache-Control; nginx's own static answer for robots.txt has none.
                checks.check("nginx: serves Public/ itself, as in production (sanity)", responses[0].header("Cache-Control") is None,
                             f"Cache-Control: {responses[0].header('Cache-Control')}")

        print("\n== traversal", flush=True)
        def attempt(port, target):
            request = b"GET " + target + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
            responses, _ = exchange(port, request, timeout=5)
            leaked = any(secret in r.body for r in responses for secret in outside)
            foreign = any(r.status == 200 and hashlib.sha256(r.body).hexdigest() not in inside for r in responses)
            return [r.status for r in responses], leaked, foreign

        for target in TRAVERSALS:
            shown = target.decode("latin-1")
            results = {name: attempt(port, target) for name, port in
                       (("direct", server.port), ("nginx", nginx.port))}
            for name, (statuses, leaked, foreign) in results.items():
                ok = bool(statuses) and not leaked and not foreign
                detail = f"{statuses}{' LEAK' if leaked else ''}{' FOREIGN 200' if foreign else ''}"
                checks.check(f"{name}: GET {shown} never serves bytes from outside Public/", ok, detail)

        print("\n== production errors and headers", flush=True)
        for name, payload in ERRORS:
            responses, how = exchange(server.port, payload, timeout=5)
            if not responses:
                checks.check(f"direct: {name}: an error response arrives", False, how)
                continue
            r = responses[0]
            found = [label for pattern, label in LEAK_PATTERNS if pattern.search(r.body)]
            server_header = r.header("Server") or ""
            expected = int(name.split()[0])
            checks.check(f"direct: {name}: status {expected}, JSON error body without internals", r.status == expected
                         and r.body.startswith(b'{"error":true,"reason":') and not found,
                         f"{r.status} {r.body[:120]!r}" + (f" reveals {found}" if found else ""))
            checks.check(f"direct: {name}: Server header has no version", server_header == "Petty", server_header)
        for path, port in (("direct", server.port), ("nginx", nginx.port)):
            responses, _ = exchange(port, b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            r = responses[0] if responses else None
            server_header = (r.header("Server") or "") if r else ""
            checks.check(f"{path}: Server header carries no version", r is not None and not re.search(r"[0-9/]", server_header),
                         server_header)
            checks.check(f"{path}: no X-Powered-By header", r is not None and r.header("X-Powered-By") is None)
        responses, _ = exchange(nginx.port, b"GET /no/such/thing HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        r = responses[0] if responses else None
        checks.check("nginx: a 404 passed through from the app reveals no internals",
                     r is not None and r.status == 404 and not any(p.search(r.body) for p, _ in LEAK_PATTERNS),
                     f"{r.status if r else None} {r.body[:80] if r else b''!r}")
        checks.check("server alive and healthy after all cases", server.healthy())
    finally:
        for proxy in (nginx,):
            if proxy is not None:
                proxy.cleanup()
        code = server.stop()
        server.cleanup()
        shutil.rmtree(tmp, ignore_errors=True)
    checks.check("server exits cleanly on SIGTERM", code == 0, f"exit {code}")
    print(f"\ntraversal targets tried: {len(TRAVERSALS)} (each directly and through nginx with the shipped locations); error cases: {len(ERRORS)}")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
