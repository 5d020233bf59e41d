#!/usr/bin/env python3
"""
Protocol lint for Petty: REDbot and httplint against the live server.

REDbot (package `redbot`) fetches each target itself and runs its active checks
(conditional requests with the ETag and with Last-Modified, Range, content
negotiation). httplint (package `httplint`) lints messages this script captures
with a raw socket: the GET, the HEAD, and the 304 answer to a conditional GET,
each with its request. A third, home-made check compares HEAD with GET.

Findings are printed per target, grouped by level. Exit status is 1 when any
REDbot note or httplint note has level BAD (or a HEAD/GET mismatch, or a fetch
fails); WARN notes are printed but allowed.

Usage:
  protocol_lint.py --url http://127.0.0.1:8080     # a running server
  protocol_lint.py --binary .build/release/Run     # start one on a free port
"""

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from configparser import ConfigParser
from email.utils import formatdate, parsedate_to_datetime
from urllib.parse import urlsplit

import thor
from httplint import HttpRequestLinter, HttpResponseLinter
from httplint.note import levels
from redbot.resource import HttpResource

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
USER_AGENT = "petty-protocol-lint/1 (httplint)"

# (path, extra request headers). The share page is asked for the way a browser asks.
TARGETS = [
    ("/v1/stations/1", []),
    ("/v1/stations?state=NSW&limit=5", []),
    ("/v1/averages", []),
    ("/health", []),
    ("/stations/1", [("Accept", BROWSER_ACCEPT)]),
    ("/css/petty.css", []),
    ("/", [("Accept", BROWSER_ACCEPT)]),
]

LEVEL_ORDER = [levels.BAD, levels.WARN, levels.INFO, levels.GOOD]

# Response fields that may legitimately differ between two requests for the same resource.
VOLATILE = {"date"}


# ---------------------------------------------------------------------------------------------
# Server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary: str):
    port = free_port()
    data_dir = tempfile.mkdtemp(prefix="petty-lint-")
    proc = subprocess.Popen(
        [binary, "serve", "--hostname", "127.0.0.1", "--port", str(port), "--data-dir", data_dir,
         "--env", "production", "--log-level", "warning"],
        stdout=subprocess.DEVNULL, stderr=sys.stderr,
        # Sample data only: a live provider's poll would change the resources between two requests.
        env=dict(os.environ, PETTY_PROVIDERS="none"),
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited early with status {proc.returncode}")
        try:
            status, _, _, _ = raw_exchange("127.0.0.1", port, "GET", "/health", [])
            if status == 200:
                return proc, port, data_dir
        except OSError:
            pass
        time.sleep(0.2)
    proc.terminate()
    raise SystemExit("server did not answer /health within 60 s")


def stop_server(proc, data_dir):
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    shutil.rmtree(data_dir, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Raw capture


def raw_exchange(host, port, method, path, headers):
    """One request on its own connection; returns (status, topline parts, raw headers, body)."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", f"User-Agent: {USER_AGENT}"]
    lines += [f"{n}: {v}" for n, v in headers]
    lines += ["Connection: close", "", ""]
    request = "\r\n".join(lines).encode("ascii")
    with socket.create_connection((host, port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, sep, body = data.partition(b"\r\n\r\n")
    if not sep:
        raise OSError(f"no complete response head for {method} {path}")
    head_lines = head.split(b"\r\n")
    version, status, phrase = (head_lines[0].split(b" ", 2) + [b""])[:3]
    fields = []
    for line in head_lines[1:]:
        name, _, value = line.partition(b":")
        fields.append((name, value.strip(b" \t")))
    return int(status), (version, status, phrase), fields, body


def lint_exchange(host, port, method, path, headers):
    """Capture one exchange and lint request and response with httplint. Returns (linter, fields, status)."""
    status, (version, code, phrase), fields, body = raw_exchange(host, port, method, path, headers)
    req = HttpRequestLinter()
    req.process_request_topline(method.encode(), f"http://{host}:{port}{path}".encode(), b"1.1")
    req.process_headers([(b"Host", f"{host}:{port}".encode()), (b"User-Agent", USER_AGENT.encode())]
                        + [(n.encode(), v.encode()) for n, v in headers])
    req.finish_content(True)
    res = HttpResponseLinter()
    res.request = req
    req.response = res
    res.is_head_response = method == "HEAD"
    res.base_uri = f"http://{host}:{port}{path}"
    res.process_response_topline(version.split(b"/")[-1], code, phrase)
    res.process_headers(fields)
    if method != "HEAD" and status not in (204, 304):
        res.feed_content(body)
    elif body:
        res.feed_content(body)  # bytes after a bodiless response: httplint says so
    res.finish_content(True)
    return res, fields, status


def field_map(fields):
    """A response's header fields by lower-case name."""
    return {n.decode().lower(): v.decode() for n, v in fields}


def head_get_differences(head_status, head_map, get_status, get_map):
    """What a HEAD said differently from a GET of the same resource, fields in VOLATILE aside."""
    diffs = []
    if head_status != get_status:
        diffs.append(f"status {head_status} vs GET {get_status}")
    for name in sorted(set(get_map) | set(head_map)):
        if name in VOLATILE:
            continue
        if get_map.get(name) != head_map.get(name):
            diffs.append(f"{name}: HEAD {head_map.get(name)!r} vs GET {get_map.get(name)!r}")
    return diffs


# ---------------------------------------------------------------------------------------------
# Conditional and Range probes: what REDbot's own checks leave out.


def probes(host, port, path, headers):
    """(label, extra request headers, check(status, fields, body) -> problem or None) for one target."""
    status, _, fields, full = raw_exchange(host, port, "GET", path, headers)
    got = field_map(fields)
    etag, last_modified = got.get("etag"), got.get("last-modified")
    out = []

    def expect(code, whole=False):
        def check(status, fields, body):
            if status != code:
                return f"status {status}, expected {code}"
            if whole and body != full:
                return "body differs from a plain GET"
            return None
        return check

    if etag:
        opaque = etag[2:] if etag.startswith("W/") else etag
        out += [
            ("If-None-Match weak form", [("If-None-Match", "W/" + opaque)], expect(304)),
            ("If-None-Match list", [("If-None-Match", '"nope", ' + etag)], expect(304)),
            ("If-None-Match *", [("If-None-Match", "*")], expect(304)),
            ("If-None-Match other", [("If-None-Match", '"nope"')], expect(200, whole=True)),
        ]
        if last_modified:
            # §13.1.3: If-Modified-Since is ignored when If-None-Match is present.
            out.append(("If-None-Match other + If-Modified-Since",
                        [("If-None-Match", '"nope"'), ("If-Modified-Since", last_modified)], expect(200, whole=True)))
    if last_modified:
        earlier = formatdate(parsedate_to_datetime(last_modified).timestamp() - 1, usegmt=True)
        out += [
            ("If-Modified-Since earlier", [("If-Modified-Since", earlier)], expect(200, whole=True)),
            ("If-Modified-Since garbage", [("If-Modified-Since", "yesterday")], expect(200, whole=True)),
        ]

    def range_check(status, fields, body):
        if "bytes" not in got.get("accept-ranges", ""):
            # Range not advertised: ignoring it (a full 200) is the correct answer (§14.2).
            if status != 200 or "content-range" in fields:
                return f"status {status} / Content-Range {fields.get('content-range')!r} for an unadvertised Range"
            return None
        if status != 206:
            return f"status {status}, expected 206 (Accept-Ranges: bytes is advertised)"
        if fields.get("content-range") != f"bytes 0-9/{len(full)}" or body != full[:10]:
            return f"Content-Range {fields.get('content-range')!r} / body {body!r} do not match bytes 0-9"
        return None

    if status == 200 and len(full) > 10:
        out.append(("Range bytes=0-9", [("Range", "bytes=0-9")], range_check))
    return out


# ---------------------------------------------------------------------------------------------
# REDbot


def run_redbot(base_url):
    """Check every target concurrently in one thor loop; returns {path: HttpResource}."""
    config = ConfigParser()
    config.read_dict({"redbot": {"enable_local_access": "True"}})
    section = config["redbot"]
    resources = {}
    pending = set()
    for path, headers in TARGETS:
        resource = HttpResource(section)
        resource.set_request(base_url + path, "GET", headers)
        resources[path] = resource
        pending.add(path)

        def done(path=path):
            pending.discard(path)
            if not pending:
                thor.stop()

        resource.once("check_done", done)
    for resource in resources.values():
        resource.check()
    thor.schedule(90, thor.stop)  # never hang CI
    thor.run()
    return resources


# ---------------------------------------------------------------------------------------------
# Output


def walk_notes(notes, depth=0):
    for note in notes:
        yield depth, note
        yield from walk_notes(note.subnotes, depth + 1)


def print_notes(title, notes, show_good):
    print(f"  {title}")
    flat = list(walk_notes(notes))
    if not flat:
        print("    (no notes)")
    for level in LEVEL_ORDER:
        if level == levels.GOOD and not show_good:
            count = sum(1 for _, n in flat if n.level == level)
            if count:
                print(f"    GOOD: {count} note(s)")
            continue
        picked = [(d, n) for d, n in flat if n.level == level]
        if not picked:
            continue
        print(f"    {level.name}:")
        for depth, note in picked:
            print(f"      {'  ' * depth}- [{note.category.name.lower()}] {note.summary}")


def count_level(notes, level):
    return sum(1 for _, n in walk_notes(notes) if n.level == level)


def warn_summaries(notes):
    return [n.summary for _, n in walk_notes(notes) if n.level == levels.WARN]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="base URL of a running server (default: start --binary)")
    parser.add_argument("--binary", default=".build/release/Run", help="server binary to start")
    parser.add_argument("--show-good", action="store_true", help="list GOOD notes too")
    args = parser.parse_args()

    proc = data_dir = None
    if args.url:
        base_url = args.url.rstrip("/")
    else:
        proc, port, data_dir = start_server(args.binary)
        base_url = f"http://127.0.0.1:{port}"
    parts = urlsplit(base_url)
    host, port = parts.hostname, parts.port or 80

    results = {}  # check -> [cases, failures]
    warns = []
    try:
        print(f"== REDbot against {base_url}")
        redbot_failures = 0
        resources = run_redbot(base_url)
        for path, _ in TARGETS:
            resource = resources[path]
            res = resource.response
            print(f"\n-- REDbot GET {path} -> {res.status_code} {res.status_phrase or ''}".rstrip())
            failed = False
            if not res.complete:
                print(f"  FETCH ERROR: {resource.fetch_error}")
                failed = True
            print_notes("notes:", res.notes, args.show_good)
            bad = count_level(res.notes, levels.BAD)
            warns += [f"redbot {path}: {w}" for w in warn_summaries(res.notes)]
            if bad or failed:
                redbot_failures += 1
        results["redbot"] = [len(TARGETS), redbot_failures]

        print(f"\n== httplint on captured exchanges (GET, HEAD, conditional GET)")
        lint_cases = lint_failures = 0
        head_cases = head_failures = 0
        for path, headers in TARGETS:
            get, get_fields, get_status = lint_exchange(host, port, "GET", path, headers)
            head, head_fields, head_status = lint_exchange(host, port, "HEAD", path, headers)
            exchanges = [("GET", get), ("HEAD", head)]
            get_map = field_map(get_fields)
            conditionals = []
            if "etag" in get_map:
                conditionals.append(("If-None-Match", get_map["etag"]))
            if "last-modified" in get_map:
                conditionals.append(("If-Modified-Since", get_map["last-modified"]))
            for name, value in conditionals:
                res, _, status = lint_exchange(host, port, "GET", path, headers + [(name, value)])
                exchanges.append((f"GET {name}", res))
                if status != 304:
                    print(f"  {name} with the response's own validator answered {status}, not 304")
                    lint_failures += 1
            for label, res in exchanges:
                lint_cases += 1
                print(f"\n-- httplint {label} {path} -> {res.status_code}")
                print_notes("response:", res.notes, args.show_good)
                if res.request is not None and count_level(res.request.notes, levels.BAD):
                    print_notes("request (ours):", res.request.notes, args.show_good)
                warns += [f"httplint {label} {path}: {w}" for w in warn_summaries(res.notes)]
                if count_level(res.notes, levels.BAD):
                    lint_failures += 1

            # HEAD must say what GET says (RFC 9110 §9.3.2), Content-Length included. A resource that changes
            # by itself (/health's uptime_seconds going from 9 to 10) may differ from the GET before it: HEAD
            # must then say what the GET after it says.
            head_cases += 1
            head_map = field_map(head_fields)
            diffs = head_get_differences(head_status, head_map, get_status, get_map)
            if diffs:
                _, later_fields, later_status = lint_exchange(host, port, "GET", path, headers)
                later_map = field_map(later_fields)
                if not head_get_differences(head_status, head_map, later_status, later_map):
                    print(f"  {path} changed between GET and HEAD; HEAD matches the GET after it")
                    diffs = []
            if diffs:
                head_failures += 1
                print(f"  HEAD/GET MISMATCH on {path}: " + "; ".join(diffs))
        results["httplint"] = [lint_cases, lint_failures]
        results["head-vs-get"] = [head_cases, head_failures]

        print("\n== conditional and Range probes (RFC 9110 §13, §14)")
        cases = failures = 0
        for path, headers in TARGETS:
            for label, extra, ok in probes(host, port, path, headers):
                status, _, fields, body = raw_exchange(host, port, "GET", path, headers + extra)
                cases += 1
                problem = ok(status, field_map(fields), body)
                if problem:
                    failures += 1
                    print(f"  FAIL {path} {label}: {problem}")
        print(f"  {cases} probes, {failures} failed")
        results["conditional"] = [cases, failures]
    finally:
        if proc is not None:
            stop_server(proc, data_dir)

    print("\n== WARN notes (allowed)")
    for line in sorted(set(warns)) or ["(none)"]:
        print(f"  {line}")
    print()
    for check, (cases, failures) in results.items():
        print(f"RESULT {check} {cases} {failures}")
    sys.exit(1 if any(f for _, f in results.values()) else 0)


if __name__ == "__main__":
    main()
