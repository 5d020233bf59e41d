#!/usr/bin/env python3
"""A tiny fake NSW FuelCheck for the merge-under-load row (Python stdlib, loopback only).

    fake_nsw.py PORT PAYLOAD_FILE LOG_FILE [DELAY_SECONDS]

GET /oauth/client_credential/accesstoken        -> {"access_token":"x","expires_in":"43199"}
GET /FuelPriceCheck/v1/fuel/prices and /prices/new -> the payload (both: every poll is a full 2.5 MB parse),
                                                     sent DELAY_SECONDS after the request arrives
Each data response is logged to LOG_FILE as `served <path> <unix time when sent>`.
"""
import sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, payload_path, log_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
delay = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
payload = open(payload_path, "rb").read()
TOKEN = b'{"access_token":"x","expires_in":"43199"}'


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, body, status=200):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/oauth/client_credential/accesstoken":
            self.reply(TOKEN)
        elif path in ("/FuelPriceCheck/v1/fuel/prices", "/FuelPriceCheck/v1/fuel/prices/new"):
            if delay:
                time.sleep(delay)
            self.reply(payload)
            with open(log_path, "a") as log:
                log.write(f"served {path} {time.time():.3f}\n")
        else:
            self.reply(b'{"error":"not found"}', 404)


ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
