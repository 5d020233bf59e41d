#!/usr/bin/env python3
"""Request smuggling: every ambiguous framing is sent directly to the server and through nginx
(the project's deploy/nginx/petty-locations.conf in front), each followed on the same connection by a
benign canary (`GET /health`, Connection: close). A hidden request is always `GET /smuggled`.

Directly (strict reading: attack + canary = at most 2 requests):
  - `reject` cases get one 4xx/5xx with `Connection: close`, the connection closes, the canary is never
    answered and `/smuggled` never reaches a handler (the server's info-level request log, stdout);
  - `accept` cases (framing everybody reads the same way) get their answer and the canary's, nothing else;
  - `either` cases may go both ways (a MAY in the RFC), with the same two rules.
Through nginx (what nginx saw is in its access log):
  - every request nginx saw gets exactly one response, and no more responses than that;
  - our server handles no request nginx did not see: if `/smuggled` reaches our log, nginx logged it as a
    request of its own (then it was not hidden from nginx: nginx read the bytes leniently as a pipelined
    request, applied its rules to it and re-framed it), which is reported as INFO;
  - a fresh request afterwards gets its own answer (no poisoned upstream keep-alive connection).

    python3 Robustness/smuggling.py [--quick]
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import Nginx, Server, exchange, start_fast_script  # noqa: E402

SMUGGLED = b"GET /smuggled HTTP/1.1\r\nHost: localhost\r\n\r\n"
CANARY = b"GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
POST = b"POST /v1/stations HTTP/1.1\r\nHost: localhost\r\n"
GET = b"GET /health HTTP/1.1\r\nHost: localhost\r\n"
CHUNK_OF_SMUGGLED = b"%x\r\n" % len(SMUGGLED) + SMUGGLED + b"\r\n0\r\n\r\n"
TERMINATOR = b"0\r\n\r\n"


def cl(n):
    return b"Content-Length: %d\r\n" % n


class Case:
    def __init__(self, name, payload, expect, statuses=(400,), direct_responses=None):
        """expect: 'reject' (direct: one error response, then closed), 'accept' (direct: answered, canary too)
        or 'either' (one of the two; `statuses` lists the acceptable first statuses)."""
        self.name = name
        self.payload = payload
        self.expect = expect
        self.statuses = set(statuses)
        self.direct_responses = direct_responses


def cases():
    te = b"Transfer-Encoding: chunked\r\n"
    return [
        # Content-Length and Transfer-Encoding together, in both orders (CL.TE and TE.CL).
        Case("CL.TE: Content-Length then Transfer-Encoding", POST + cl(len(TERMINATOR + SMUGGLED)) + te + b"\r\n" + TERMINATOR + SMUGGLED, "reject"),
        Case("TE.CL: Transfer-Encoding then Content-Length", POST + te + cl(4) + b"\r\n" + CHUNK_OF_SMUGGLED, "reject"),
        Case("TE.CL with Content-Length: 0", POST + te + cl(0) + b"\r\n" + CHUNK_OF_SMUGGLED, "reject"),
        # Duplicate or malformed lengths.
        Case("two Content-Length values that differ", POST + cl(0) + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "reject"),
        Case("two Content-Length values that differ (reverse)", POST + cl(len(SMUGGLED)) + cl(0) + b"\r\n" + SMUGGLED, "reject"),
        Case("Content-Length list '0, 44'", POST + b"Content-Length: 0, %d\r\n\r\n" % len(SMUGGLED) + SMUGGLED, "reject"),
        Case("Content-Length list 'n, n' (same values)", POST + b"Content-Length: %d, %d\r\n\r\n" % (len(SMUGGLED), len(SMUGGLED)) + SMUGGLED, "reject"),
        Case("Content-Length with a plus sign", POST + b"Content-Length: +%d\r\n\r\n" % len(SMUGGLED) + SMUGGLED, "reject"),
        Case("Content-Length negative", POST + b"Content-Length: -1\r\n\r\n" + SMUGGLED, "reject"),
        Case("Content-Length with an inner space", POST + b"Content-Length: 4 4\r\n\r\n" + SMUGGLED, "reject"),
        Case("Content-Length in hex", POST + b"Content-Length: 0x2c\r\n\r\n" + SMUGGLED, "reject"),
        Case("Content-Length empty", POST + b"Content-Length: \r\n\r\n" + SMUGGLED, "reject"),
        Case("Content-Length with trailing junk", POST + b"Content-Length: %dx\r\n\r\n" % len(SMUGGLED) + SMUGGLED, "reject"),
        Case("Content-Length with a space before the colon", POST + b"Content-Length : %d\r\n\r\n" % len(SMUGGLED) + SMUGGLED, "reject"),
        Case("Content-Length overflowing 64 bits", POST + b"Content-Length: 18446744073709551617\r\n\r\n" + SMUGGLED, "reject", (413,)),
        Case("Content-Length with leading zeros (valid: 1*DIGIT)", POST + b"Content-Length: 000%d\r\n\r\n" % len(SMUGGLED) + SMUGGLED, "accept", (405,)),
        Case("two identical Content-Length fields (valid)", POST + cl(len(SMUGGLED)) + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "accept", (405,)),
        # Transfer-Encoding variants.
        Case("Transfer-Encoding obs-fold ('Transfer-Encoding:' CRLF ' chunked')", POST + b"Transfer-Encoding:\r\n chunked\r\n" + cl(4) + b"\r\n" + CHUNK_OF_SMUGGLED, "reject"),
        Case("obs-fold on another header", POST + b"X-A: a\r\n b\r\n" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "reject"),
        Case("Transfer-Encoding: xchunked with Content-Length", POST + b"Transfer-Encoding: xchunked\r\n" + cl(4) + b"\r\n" + CHUNK_OF_SMUGGLED, "reject"),
        Case("Transfer-Encoding: xchunked alone", POST + b"Transfer-Encoding: xchunked\r\n\r\n" + CHUNK_OF_SMUGGLED, "reject", (400, 501)),
        Case("Transfer-Encoding: chunked, identity", POST + b"Transfer-Encoding: chunked, identity\r\n\r\n" + CHUNK_OF_SMUGGLED, "reject", (400, 501)),
        Case("Transfer-Encoding: identity, chunked", POST + b"Transfer-Encoding: identity, chunked\r\n\r\n" + CHUNK_OF_SMUGGLED, "reject", (400, 501)),
        Case("Transfer-Encoding: chunked twice", POST + te + te + b"\r\n" + CHUNK_OF_SMUGGLED, "reject"),
        Case("Transfer-Encoding: chunked, chunked", POST + b"Transfer-Encoding: chunked, chunked\r\n\r\n" + CHUNK_OF_SMUGGLED, "reject"),
        Case("Transfer-Encoding with a space before the colon", POST + b"Transfer-Encoding : chunked\r\n" + cl(4) + b"\r\n" + CHUNK_OF_SMUGGLED, "reject"),
        Case("Transfer-Encoding with a tab before the value end ('chunked\\t')", POST + b"Transfer-Encoding: chunked\t\r\n\r\n" + CHUNK_OF_SMUGGLED, "accept", (405,)),
        Case("Transfer-Encoding: Chunked (case-insensitive, valid)", POST + b"Transfer-Encoding: Chunked\r\n\r\n" + CHUNK_OF_SMUGGLED, "accept", (405,)),
        Case("Transfer-Encoding in HTTP/1.0", b"POST /v1/stations HTTP/1.0\r\nHost: localhost\r\n" + te + b"\r\n" + CHUNK_OF_SMUGGLED, "reject"),
        Case("Transfer-Encoding vertical tab ('\\x0bchunked')", POST + b"Transfer-Encoding: \x0bchunked\r\n" + cl(4) + b"\r\n" + CHUNK_OF_SMUGGLED, "reject"),
        # Chunk-size tricks.
        Case("chunk size with 0x", POST + te + b"\r\n0x2c\r\n" + SMUGGLED + b"\r\n0\r\n\r\n", "reject"),
        Case("chunk size with a leading +", POST + te + b"\r\n+2c\r\n" + SMUGGLED + b"\r\n0\r\n\r\n", "reject"),
        Case("chunk size with a leading -", POST + te + b"\r\n-0\r\n\r\n" + SMUGGLED, "reject"),
        Case("chunk size overflowing 64 bits", POST + te + b"\r\n1" + b"0" * 16 + b"2c\r\n" + SMUGGLED + b"\r\n0\r\n\r\n", "reject", (400, 413)),
        Case("chunk size with leading spaces", POST + te + b"\r\n 2c\r\n" + SMUGGLED + b"\r\n0\r\n\r\n", "reject"),
        Case("chunk size with trailing space (BWS)", POST + te + b"\r\n2c \r\n" + SMUGGLED + b"\r\n0\r\n\r\n", "reject"),
        Case("chunk extension abuse (2 KiB)", POST + te + b"\r\n2c;" + b"a" * 2048 + b"\r\n" + SMUGGLED + b"\r\n0\r\n\r\n", "reject"),
        Case("chunk extension with a bare LF inside", POST + te + b"\r\n2c;a\nb\r\n" + SMUGGLED + b"\r\n0\r\n\r\n", "reject"),
        Case("chunk extension (valid, short)", POST + te + b"\r\n%x;name=value\r\n" % len(SMUGGLED) + SMUGGLED + b"\r\n0\r\n\r\n", "accept", (405,)),
        Case("bare LF after the chunk size", POST + te + b"\r\n%x\n" % len(SMUGGLED) + SMUGGLED + b"\r\n0\r\n\r\n", "reject"),
        Case("bare LF after the chunk data", POST + te + b"\r\n%x\r\n" % len(SMUGGLED) + SMUGGLED + b"\n0\r\n\r\n", "reject"),
        Case("bare LF after the last chunk", POST + te + b"\r\n0\n\r\n" + SMUGGLED, "reject"),
        Case("bare CR after the chunk size", POST + te + b"\r\n%x\r" % len(SMUGGLED) + SMUGGLED + b"\r\n0\r\n\r\n", "reject"),
        Case("chunk data longer than its size", POST + te + b"\r\n3\r\nabc" + SMUGGLED + b"\r\n0\r\n\r\n", "reject"),
        Case("last chunk without the final CRLF, then a request", POST + te + b"\r\n0\r\n" + SMUGGLED, "reject"),
        Case("trailer with obs-fold", POST + te + b"\r\n0\r\nX: a\r\n b\r\n\r\n" + SMUGGLED, "reject"),
        # Line-ending and character tricks in the head.
        Case("bare CR in a header value", POST + b"X-A: a\rb\r\n" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "reject"),
        Case("bare CR as a line end", POST + b"X-A: a\r" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "reject"),
        Case("bare CR in the request line", b"POST /v1/stations\rHTTP/1.1\r\nHost: localhost\r\n" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "reject"),
        Case("NUL in a header value", POST + b"X-A: a\x00b\r\n" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "reject"),
        Case("NUL in a header name", POST + b"X-\x00A: a\r\n" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "reject"),
        Case("header name with a space", POST + b"X A: a\r\n" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "reject"),
        Case("header line without a colon", POST + b"Content-Length\r\n" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "reject"),
        Case("two Host fields", POST + b"Host: other\r\n" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "reject"),
        # A bare LF in the head is refused (RFC 9112 §2.2 lets a recipient accept it; Petty does not: it can be read two ways).
        Case("head ended by LF LF (bare LF lines)", b"POST /v1/stations HTTP/1.1\nHost: localhost\n" + b"Content-Length: %d\n\n" % len(SMUGGLED) + SMUGGLED, "reject"),
        Case("head ended by CRLF then LF", POST + cl(len(SMUGGLED)) + b"\n" + SMUGGLED, "reject"),
        Case("head ended by LF then CRLF", POST + b"Content-Length: %d\n\r\n" % len(SMUGGLED) + SMUGGLED, "reject"),
        Case("Content-Length line ended by a bare LF", POST + b"Content-Length: %d\nX-A: b\r\n\r\n" % len(SMUGGLED) + SMUGGLED, "reject"),
        # A body that contains a second request.
        Case("GET with a Content-Length body holding a request", GET + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "accept", (200,)),
        Case("GET with a chunked body holding a request", GET + te + b"\r\n" + CHUNK_OF_SMUGGLED, "accept", (200,)),
        Case("HTTP/1.0 with a Content-Length body holding a request",
             b"POST /v1/stations HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "accept", (405,)),
        Case("Expect: 100-continue with a body holding a request",
             POST + b"Expect: 100-continue\r\n" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "accept", (405,)),
        Case("unsupported Expect with a body holding a request",
             POST + b"Expect: something\r\n" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "either", (417, 405)),
        Case("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + SMUGGLED, "reject", (400, 505)),
        Case("HTTP/1.1 absolute-form with a body holding a request",
             b"POST http://localhost/v1/stations HTTP/1.1\r\nHost: localhost\r\n" + cl(len(SMUGGLED)) + b"\r\n" + SMUGGLED, "accept", (405,)),
    ]


def classify(responses):
    """Names each response by what answered it: the attack, the canary (health JSON) or the hidden request (404)."""
    names = []
    for r in responses:
        if r.status == 200 and b"uptime_seconds" in r.body:
            names.append("canary")
        elif r.status == 404:
            names.append("smuggled?")
        else:
            names.append(str(r.status))
    return names


def main():
    checks = start_fast_script(__doc__)
    server = Server(log_level="info")
    nginx = None
    tried = 0
    lenient = []
    try:
        nginx = Nginx(server.port)
        for case in cases():
            tried += 1
            print(f"\n== {case.name} ({case.expect})", flush=True)
            for path, port in (("direct", server.port), ("nginx", nginx.port)):
                log_before = len(server.log_text())
                access_before = len(nginx.access_log())
                try:
                    responses, how = exchange(port, case.payload + CANARY, timeout=6, quiet_after=1.5)
                except OSError as error:
                    responses, how = [], f"connect error {error}"
                time.sleep(0.1)
                new_log = server.log_text()[log_before:]
                seen_by_nginx = nginx.access_log()[access_before:].splitlines()
                names = classify(responses)
                smuggled_logged = "/smuggled" in new_log
                follow_up = exchange(port, CANARY, timeout=5)[0]
                follow_ok = len(follow_up) == 1 and classify(follow_up) == ["canary"]
                first = responses[0] if responses else None
                detail = f"responses {names}, then {how}; follow-up {'ok' if follow_ok else classify(follow_up)}"
                if path == "direct":
                    strict = len(responses) <= 2 and "smuggled?" not in names and not smuggled_logged and follow_ok
                    rejected = (len(responses) == 1 and first.status in case.statuses and first.status >= 400
                                and (first.header("Connection") or "").lower() == "close" and how in ("FIN", "RST"))
                    accepted = len(responses) == 2 and first.status in case.statuses and names[1] == "canary"
                    statuses = "/".join(map(str, sorted(case.statuses)))
                    if case.expect == "reject":
                        ok, want = strict and rejected, f"one {statuses} + close, canary unanswered"
                    elif case.expect == "accept":
                        ok, want = strict and accepted, f"{statuses} then the canary"
                    else:
                        ok, want = strict and (rejected or accepted), f"{statuses}: rejected and closed, or answered with the canary"
                    if smuggled_logged:
                        detail += "; /smuggled IN SERVER LOG"
                else:
                    nginx_saw_smuggled = any("/smuggled" in line for line in seen_by_nginx)
                    hidden = smuggled_logged and not nginx_saw_smuggled
                    ok = (first is not None and len(responses) == len(seen_by_nginx) and not hidden and follow_ok)
                    want = "each request nginx saw answered once; nothing nginx did not see reaches the app"
                    detail += f"; nginx saw {len(seen_by_nginx)} request(s)"
                    if hidden:
                        detail += "; /smuggled IN SERVER LOG, NOT IN NGINX'S"
                    elif smuggled_logged:
                        lenient.append(case.name)
                        detail += "; INFO: nginx read /smuggled as its own pipelined request (its log has it) and forwarded it re-framed"
                checks.check(f"{path}: {case.name}: {want}", ok, detail)
        direct_smuggled = [line for line in server.log_text().splitlines() if "/smuggled" in line]
        checks.check("every /smuggled in the server log was a request nginx logged too",
                     len(direct_smuggled) == len(lenient), f"{len(direct_smuggled)} in our log, {len(lenient)} seen by nginx")
        checks.check("server alive and healthy after all cases", server.healthy())
    finally:
        if nginx is not None:
            nginx.cleanup()
        code = server.stop()
        server.cleanup()
    checks.check("server exits cleanly on SIGTERM", code == 0, f"exit {code}")
    print(f"\ncases tried: {tried} (each directly and through nginx)")
    if lenient:
        print("INFO: nginx accepted these malformed bodies leniently and forwarded the following bytes as a separate, "
              "visible request (our server alone rejects them): " + "; ".join(lenient))
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
