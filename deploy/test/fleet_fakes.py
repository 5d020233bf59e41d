"""The fake providers of the fleet check (Python 3 stdlib, loopback only). Each Petty instance is given its own
base-URL prefix (`/m0`, `/m1`, ...), so every logged call says which instance polled, and when (monotonic).
Feeds are dated by `clock` (the members' shifted wall clock, fleet_clock.py), so the members take them as current.

    FuelWatch   GET /<m>/fuelwatch/fuelWatchRSS?Product=N[&Day=tomorrow]: the WA RSS fixture, dated today (or
                tomorrow once `tomorrow_published`), prices a few tenths apart on each call
    NSW         GET /<m>/oauth/client_credential/accesstoken: a token (not logged as a poll);
                GET /<m>/FuelPriceCheck/v1/fuel/prices and /prices/new: the NSW subset fixture, `lastupdated` now
"""
import http.server
import json
import re
import threading
import time

from harness import ROOT, free_port

WA_FIXTURE = ROOT / "Tests/ProvidersTests/Fixtures/wa_fuelWatchRSS_today_metro_ULP.xml"
NSW_FIXTURE = ROOT / "Tests/ProvidersTests/Fixtures/nsw_v1_fuel_prices.subset.json"
NSW_TOKEN = b'{"access_token":"fleet-check-token","token_type":"BearerToken","expires_in":"43199"}'


class FakeProvider(http.server.ThreadingHTTPServer):
    """Logs each poll as (monotonic time, instance prefix, path); `body(path)` is (status, content type, bytes)."""
    daemon_threads = True

    def __init__(self, clock=time.time):
        self.calls = []
        self.lock = threading.Lock()
        self.shift = 0
        self.clock = clock
        super().__init__(("127.0.0.1", free_port()), FakeProviderHandler)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def next_shift(self):
        """0.0 to 4.9 cents, a different one each call: every poll is news, none a placeholder."""
        with self.lock:
            self.shift += 1
            return (self.shift % 50) / 10

    def calls_by(self, since=0.0, until=None):
        with self.lock:
            return [c for c in self.calls if c[0] >= since and (until is None or c[0] < until)]

    def is_poll(self, path):
        return True

    def body(self, path):
        raise NotImplementedError


class FakeProviderHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        server = self.server
        prefix, _, rest = self.path.lstrip("/").partition("/")
        if server.is_poll("/" + rest):
            with server.lock:
                server.calls.append((time.monotonic(), prefix, self.path))
        status, content_type, body = server.body("/" + rest)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class FuelWatch(FakeProvider):
    def __init__(self, clock=time.time):
        self.template = WA_FIXTURE.read_text()
        self.tomorrow_published = False
        # Stations new to the feed (names), each at its own place: what makes a leader issue a new station id.
        self.new_stations = []
        super().__init__(clock)

    def body(self, path):
        return 200, "text/xml; charset=utf-8", self.feed("Day=tomorrow" in path)

    def feed(self, tomorrow):
        perth = self.clock() + 8 * 3600
        if tomorrow and not self.tomorrow_published:
            return re.sub(r"<item>.*</item>", "", self.template, flags=re.S).encode()
        day = time.strftime("%Y-%m-%d", time.gmtime(perth - 6 * 3600 + (86400 if tomorrow else 0)))
        shift = self.next_shift()
        body = re.sub(r"<date>[^<]*</date>", f"<date>{day}</date>", self.template)
        if not tomorrow and self.new_stations:
            first = re.search(r"<item>.*?</item>", body, re.S).group(0)
            added = "".join(
                re.sub(r"<latitude>[^<]*</latitude><longitude>[^<]*</longitude>",
                       f"<latitude>{-31.5 - n * 0.01:.4f}</latitude><longitude>115.7000</longitude>",
                       first.replace("United Byford", name))
                for n, name in enumerate(self.new_stations))
            body = body.replace("</channel>", added + "</channel>", 1)
        bump = 3 if tomorrow else 60
        return re.sub(r"<price>([0-9.]+)</price>",
                      lambda m: f"<price>{float(m.group(1)) + bump + shift:.1f}</price>", body).encode()


class NSW(FakeProvider):
    """OAuth token, then full lists and deltas alike (the delta's shape is the list's, PROVIDERS.md §1.4)."""
    TOKEN_PATH = "/oauth/client_credential/accesstoken"
    PRICE_PATHS = ("/FuelPriceCheck/v1/fuel/prices", "/FuelPriceCheck/v1/fuel/prices/new")

    def __init__(self, clock=time.time):
        self.template = json.loads(NSW_FIXTURE.read_text())
        super().__init__(clock)

    def is_poll(self, path):
        return path.split("?", 1)[0] in self.PRICE_PATHS

    def body(self, path):
        path = path.split("?", 1)[0]
        if path == self.TOKEN_PATH:
            return 200, "application/json", NSW_TOKEN
        if path not in self.PRICE_PATHS:
            return 404, "application/json", b'{"error":"not found"}'
        shift = self.next_shift()
        now = time.strftime("%d/%m/%Y %H:%M:%S", time.gmtime(self.clock() - 60))  # UTC, as the real feed
        prices = [{**p, "price": round(p["price"] + shift, 1), "lastupdated": now} for p in self.template["prices"]]
        return 200, "application/json", json.dumps({"stations": self.template["stations"], "prices": prices}).encode()


def poll_runs(calls):
    """The calls of several fakes, time-ordered, as runs of one instance: [(prefix, first, last, count)]."""
    out = []
    for at, prefix, _ in sorted(calls):
        if out and out[-1][0] == prefix:
            out[-1] = (prefix, out[-1][1], at, out[-1][3] + 1)
        else:
            out.append((prefix, at, at, 1))
    return out
