"""Secrets and leaks: the real binary runs with distinctive credentials against a hostile fake provider that
answers with errors echoing every header it received (so a careless error message would repeat the token).
Then nothing the server writes or answers may contain a credential: logs, /health, error bodies, responses.
Also: production errors show no paths, Swift types or stack details, and `Server` carries no version.

    python3 Robustness/leaks.py [--quick]"""

import base64
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from common import BINARY, HOST, ROOT, Checks, die_with_parent, free_port, stop_process

SECRETS = {
    "PETTY_NSW_API_KEY": "nswkey-SECRET-7f3a9c",
    "PETTY_NSW_API_SECRET": "nswsecret-SECRET-b81d22",
    "PETTY_QLD_TOKEN": "qldtoken-SECRET-0c4e11",
    "PETTY_SA_TOKEN": "satoken-SECRET-99aa07",
    "PETTY_VIC_CONSUMER_ID": "vicid-SECRET-5e6f70",
}
ISSUED_TOKEN = "issued-access-token-SECRET-424242"


class EchoingProvider(http.server.ThreadingHTTPServer):
    daemon_threads = True
    requests = 0

    def handle_error(self, request, client_address):
        pass


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.server.requests += 1
        headers = "\n".join(f"{k}: {v}" for k, v in self.headers.items())
        if "accesstoken" in self.path:  # NSW OAuth: issue a token, so data calls carry it as a Bearer
            body = json.dumps({"access_token": ISSUED_TOKEN, "expires_in": "43199", "token_type": "BearerToken"})
            status = 200
        elif self.server.requests % 2:
            body = f"Unauthorized for {self.path}. You sent:\n{headers}"
            status = 401
        else:
            body = f"<html>Internal error; request headers were {headers}</html>"
            status = 500
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json" if status == 200 else "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_POST = do_GET

    def log_message(self, *args):
        pass


def fetch(port, path, headers=None, method="GET"):
    request = urllib.request.Request(f"http://{HOST}:{port}{path}", headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, dict(response.headers), response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode("utf-8", "replace")


def main():
    checks = Checks()
    fake = EchoingProvider((HOST, free_port()), Handler)
    threading.Thread(target=fake.serve_forever, daemon=True).start()
    base = f"http://{HOST}:{fake.server_address[1]}"
    work = tempfile.mkdtemp(prefix="petty-secrets-")
    port = free_port()
    env = dict(os.environ, **SECRETS, PETTY_PROVIDERS="nsw,tas,qld,sa,vic,wa", PETTY_NSW_BASE_URL=base,
               PETTY_QLD_BASE_URL=base, PETTY_SA_BASE_URL=base, PETTY_VIC_BASE_URL=base, PETTY_WA_BASE_URL=base,
               PETTY_PROVIDER_TIMEOUT_SECONDS="3")
    log_path = os.path.join(work, "server.log")
    log = open(log_path, "wb")
    proc = subprocess.Popen([BINARY, "serve", "--port", str(port), "--hostname", HOST, "--data-dir", os.path.join(work, "data"),
                             "--env", "production", "--log-level", "debug"], stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, env=env, cwd=ROOT, preexec_fn=die_with_parent)
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if fetch(port, "/health")[0] in (200, 503):
                    break
            except Exception:
                time.sleep(0.1)
        # Let every provider fail at least once (retries included).
        time.sleep(12 if "--quick" in sys.argv else 30)
        answers = []
        for path, headers, method in [
            ("/health", {}, "GET"), ("/v1/stations?fuel=XYZ", {}, "GET"), ("/v1/stations/999999", {}, "GET"),
            ("/v1/stations?near=abc", {}, "GET"), ("/nope/../../etc/passwd", {}, "GET"), ("/v1/stations", {}, "DELETE"),
            ("/stations/1", {"Accept": "text/html"}, "GET"), ("/stations/0", {"Accept": "text/html"}, "GET"),
            ("/v1/prices/changes?since=%00", {}, "GET"),
        ]:
            status, response_headers, body = fetch(port, path, headers, method)
            answers.append((path, status, response_headers, body))
        health = json.loads(answers[0][3])
        checks.check("the fake provider was called", fake.requests > 0, f"{fake.requests} requests")
        failing = [p["provider"] for p in health["providers"] if p.get("last_error")]
        checks.check("/health reports provider errors", len(failing) > 0, ", ".join(failing))
        log.flush()
        logs = open(log_path, "rb").read().decode("utf-8", "replace")
        checks.check("the server logged poll failures", "poll " in logs and "failed" in logs)
        basic = base64.b64encode(f'{SECRETS["PETTY_NSW_API_KEY"]}:{SECRETS["PETTY_NSW_API_SECRET"]}'.encode()).decode()
        needles = list(SECRETS.values()) + [ISSUED_TOKEN, basic]
        for where, text in [("logs", logs)] + [(f"response {path} ({status})", body + json.dumps(h)) for path, status, h, body in answers]:
            leaked = [n for n in needles if n in text]
            checks.check(f"no credential in {where}", not leaked, ", ".join(leaked))
        for path, status, headers, body in answers[1:]:
            bad = [marker for marker in ("/work/", "/root/", ".swift", "Swift.", "Fatal error", "0x0000", "DecodingError", "Foundation.")
                   if marker in body]
            checks.check(f"production error for {path} reveals no internals", not bad, ", ".join(bad))
            checks.check(f"Server header of {path} has no version", headers.get("Server") == "Petty", headers.get("Server", ""))
        # A start-up error must not echo credentials either.
        failed_start = subprocess.run([BINARY, "serve", "--port", "99999"], env=env, capture_output=True, timeout=30)
        output = (failed_start.stdout + failed_start.stderr).decode("utf-8", "replace")
        checks.check("a start-up error is a clear message", failed_start.returncode != 0 and "port" in output)
        checks.check("a start-up error echoes no credential", not any(n in output for n in needles))
    finally:
        stop_process(proc, signal.SIGTERM, grace=15)
        log.close()
        fake.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
