"""Upstream attacks: the real binary polls a hostile fake provider on loopback. A provider (or a host it
redirects to) must never learn our credentials, never put its words into /health, never cost us unbounded
memory, and never make us drop the data we hold.

    python3 Robustness/upstream.py [--quick] [--only redirect,gzip_bomb,endless,trickle,html,garbage,empty]

First a good fake WA FuelWatch feed (the recorded capture, dated today) gives the server live WA data, which it
persists; each WA scenario then starts the server on a copy of that data directory with the fake turned hostile
(its first poll runs at start, and a failed poll is only retried 15-30 s later, so one server per scenario is the
fast way). The fake holds its answer until the script has read the server's memory, so the baseline is taken
before the attack. The redirect scenarios run NSW (OAuth credentials) against the fake and a second loopback
server on another port."""

import http.server
import json
import os
import re
import shutil
import struct
import sys
import tempfile
import threading
import time
import zlib

from common import HOST, ROOT, Checks, PeakMemory, Server, require_binary, free_port, simple_get, stop_upstream

FIXTURE = os.path.join(ROOT, "Tests", "ProvidersTests", "Fixtures", "wa_fuelWatchRSS_today_metro_ULP.xml")
WA_PATH = "/fuelwatch/fuelWatchRSS"
NSW_TOKEN_PATH = "/oauth/client_credential/accesstoken"
NSW_DATA_PATH = "/FuelPriceCheck/v1/fuel/prices"
MIB = 1 << 20
CAP = 16 << 20                # ProviderClient.Options.maxResponseBytes (counted on decoded bytes)
RSS_BOUND_KIB = 300 * 1024    # growth allowed during an attack
STREAM_SECONDS = 30        # an endless body gives up after this long or STREAM_BYTES (the server should hang up
STREAM_BYTES = 2 << 30     # long before; a server without a cap must not take the machine down)
TRICKLE_TIMEOUT = 3        # PETTY_PROVIDER_TIMEOUT_SECONDS for the trickle scenario
CANARY = "EVIL-ORIGIN-CANARY-5d1e"
NSW_KEY = "robust-nsw-key-8c2f"
NSW_SECRET = "robust-nsw-secret-31b7"
ISSUED_TOKEN = "robust-issued-token-a9e4"
CREDENTIAL_HEADERS = ("authorization", "apikey")


def gzip_bomb(units):
    """(head, unit, tail): head + unit * units + tail is one valid gzip stream of `units` MiB of zeros.
    After a Z_FULL_FLUSH the compressor starts afresh, so every MiB compresses to the same bytes; only the
    trailer (CRC-32 and length of everything) must be computed over the whole stream."""
    zeros = bytes(MIB)
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: gzip wrapper
    first = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
    head, unit = first[:10], first[10:]
    final_block = compressor.flush()[:-8]  # the empty last block, without this one-MiB stream's trailer
    crc = 0
    for _ in range(units):
        crc = zlib.crc32(zeros, crc)
    return head, unit, final_block + struct.pack("<II", crc, (units * MIB) & 0xFFFFFFFF)


class Fake(http.server.ThreadingHTTPServer):
    """A provider whose behaviour is `mode`; records every request's path and headers. Requests wait for
    `gate` (at most 20 s) so an attack starts when the script is ready to measure it."""
    daemon_threads = True

    def __init__(self, template, bomb):
        self.template = template
        self.bomb = bomb
        self.mode = "good"
        self.redirect_to = None
        self.requests = []
        self.sent = 0            # body bytes written by the current streaming attack
        self.stream_ended = None  # seconds the streaming attack lasted, once the client gave up
        self.lock = threading.Lock()
        self.gate = threading.Event()
        self.gate.set()
        self.closing = threading.Event()
        self.shift = 0
        self.generation = 0
        super().__init__((HOST, free_port()), Handler)

    @property
    def url(self):
        return f"http://{HOST}:{self.server_address[1]}"

    def handle_error(self, request, client_address):
        pass  # the server under test hangs up on attacks on purpose

    def reset(self, mode):
        with self.lock:
            self.generation += 1  # a stream still running from the last scenario stops counting
            self.mode = mode
            self.requests = []
            self.sent = 0
            self.stream_ended = None

    def feed(self, tomorrow):
        if tomorrow:  # not yet published: a valid, empty channel
            return re.sub(r"<item>.*</item>", "", self.template, flags=re.S).encode()
        with self.lock:
            self.shift += 1
            shift = self.shift % 50
        today = time.strftime("%Y-%m-%d", time.gmtime(time.time() + 8 * 3600 - 6 * 3600))  # Perth trading day
        body = re.sub(r"<date>[^<]*</date>", f"<date>{today}</date>", self.template)
        return re.sub(r"<price>([0-9.]+)</price>", lambda m: f"<price>{float(m.group(1)) + 60 + shift / 10:.1f}</price>",
                      body).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="text/xml; charset=utf-8", extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        server = self.server
        with server.lock:
            server.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
            mode = server.mode
        server.gate.wait(20)
        if server.closing.is_set():
            return
        if self.path.startswith(NSW_TOKEN_PATH):
            if mode == "redirect_token":
                self.redirect(server.redirect_to + self.path)
            else:
                body = json.dumps({"access_token": ISSUED_TOKEN, "expires_in": "43199", "token_type": "BearerToken"})
                self.answer(200, body.encode(), "application/json")
            return
        if mode == "good":
            self.answer(200, server.feed("Day=tomorrow" in self.path))
        elif mode == "evil":  # the other origin: would love to be shown on /health
            body = json.dumps({"error": f"{CANARY} send your key to {CANARY}", "prices": [], "stations": []})
            self.answer(200, body.encode(), "application/json")
        elif mode in ("redirect_data", "redirect_token"):
            self.redirect(server.redirect_to + self.path)
        elif mode == "redirect_same":
            if self.path.startswith("/moved"):
                self.answer(404, b"moved here, nothing to see", "text/plain")
            else:
                self.redirect(f"{server.url}/moved{self.path}")
        elif mode == "gzip_bomb":
            self.stream_gzip()
        elif mode == "endless":
            self.stream_endless()
        elif mode == "trickle":
            self.stream_trickle()
        elif mode == "html":
            self.answer(200, b"<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>FuelWatch is "
                        b"down for maintenance</h1><p>Please try again later.</p></body></html>", "text/html")
        elif mode == "garbage":
            rng = __import__("random").Random(7)
            self.answer(200, bytes(rng.getrandbits(8) for _ in range(64 * 1024)))
        elif mode == "empty":
            self.answer(200, b"")
        else:
            self.answer(500, b"unknown mode", "text/plain")

    def redirect(self, location):
        self.answer(302, f"Moved to {location} {CANARY}".encode(), "text/plain", extra=[("Location", location)])

    def count(self, generation, n):
        with self.server.lock:
            if self.server.generation == generation:
                self.server.sent += n

    def ended(self, generation, started):
        with self.server.lock:
            if self.server.generation == generation:
                self.server.stream_ended = time.time() - started

    def stream_gzip(self):
        generation = self.server.generation
        head, unit, tail = self.server.bomb
        units = self.server.bomb_units
        self.send_response(200)
        self.send_header("Content-Type", "text/xml; charset=utf-8")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(head) + units * len(unit) + len(tail)))
        self.end_headers()
        started = time.time()
        try:
            self.wfile.write(head)
            batch = unit * 64
            for _ in range(units // 64):
                self.wfile.write(batch)
                self.count(generation, len(batch))
            self.wfile.write(tail)
            self.count(generation, len(tail))
        except OSError:
            pass
        self.ended(generation, started)

    def stream_trickle(self):
        """A valid feed promised in full (Content-Length), sent one byte a second: every read succeeds, so only
        the whole-request deadline can end it."""
        generation = self.server.generation
        body = self.server.feed(False)
        self.send_response(200)
        self.send_header("Content-Type", "text/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        started = time.time()
        try:
            for byte in body[:STREAM_SECONDS]:
                if self.server.closing.is_set():
                    break
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                self.count(generation, 1)
                time.sleep(1)
        except OSError:
            pass
        self.ended(generation, started)

    def stream_endless(self):
        """Chunked XML-looking items, 64 KiB per chunk, as fast as loopback takes them, until the client hangs up
        (or STREAM_SECONDS / STREAM_BYTES)."""
        generation = self.server.generation
        sent = [0]
        self.send_response(200)
        self.send_header("Content-Type", "text/xml; charset=utf-8")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        item = b"<item><title>x</title><price>180.0</price><trading-name>Endless</trading-name></item>\n"
        chunk = (item * (65536 // len(item) + 1))[:65536]
        framed = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
        started = time.time()
        try:
            self.wfile.write(b"%x\r\n<?xml version=\"1.0\"?><rss><channel>\r\n" % len(b"<?xml version=\"1.0\"?><rss><channel>"))
            while time.time() - started < STREAM_SECONDS and sent[0] < STREAM_BYTES and not self.server.closing.is_set():
                self.wfile.write(framed)
                sent[0] += len(chunk)
                self.count(generation, len(chunk))
        except OSError:
            pass
        self.ended(generation, started)


def provider(health, name):
    for entry in (health or {}).get("providers", []):
        if entry.get("provider") == name:
            return entry
    return None


def wait_for(predicate, timeout, every=0.1, during=None):
    """Calls predicate() until it returns something truthy or `timeout` passes; `during()` runs each round."""
    deadline = time.time() + timeout
    while True:
        value = predicate()
        if value or time.time() >= deadline:
            return value
        if during:
            during()
        time.sleep(every)


def wa_env(fake, timeout):
    return {"PETTY_PROVIDERS": "wa", "PETTY_WA_BASE_URL": fake.url, "PETTY_WA_POLL_SECONDS": "600",
            "PETTY_PROVIDER_TIMEOUT_SECONDS": str(timeout)}


def seed(checks, fake, work):
    """Runs the server against the good feed until it holds live WA data, stops it (it saves), and returns
    (data dir, reference) where reference describes what it served."""
    data = os.path.join(work, "seeded")
    fake.reset("good")
    server = Server(log_level="info", environ=wa_env(fake, 10), data_dir=data)
    try:
        wa = wait_for(lambda: (lambda p: p if p and p.get("source") == "live" and p.get("stations", 0) > 0 else None)(
            provider(server.health(), "wa")), 45, every=0.2)
        if not checks.check("seed: the good fake feed gave the server live WA data", wa is not None,
                            json.dumps(provider(server.health(), "wa"))):
            return None, None
        _, _, body = simple_get(server.port, "/v1/stations?state=WA&limit=1")
        station_id = json.loads(body)["data"][0]["id"]
        status, _, station = simple_get(server.port, f"/v1/stations/{station_id}")
        reference = {"stations": wa["stations"], "prices": wa["prices"], "as_of": wa.get("as_of"), "id": station_id,
                     "station": station}
        print(f"  seeded: WA live, {wa['stations']} stations, {wa['prices']} prices, as of {wa.get('as_of')}; "
              f"watching station {station_id}", flush=True)
    finally:
        server.cleanup()  # a graceful stop: the data directory (outside its temp dir) keeps the final save
    return data, reference


WA_ATTACKS = {
    # name: (mode, what the error must say, whether memory is the point)
    "gzip_bomb": ("gzip_bomb", "larger than", True),
    "endless": ("endless", "larger than", True),
    "trickle": ("trickle", "timeout", False),
    "html": ("html", None, False),
    "garbage": ("garbage", None, False),
    "empty": ("empty", None, False),
}


def wa_attack(checks, name, fake, seeded, reference, work):
    mode, error_text, memory = WA_ATTACKS[name]
    print(f"== {name}", flush=True)
    data = os.path.join(work, name)
    shutil.copytree(seeded, data)
    fake.reset(mode)
    fake.gate.clear()
    # A trickle ends only at the request deadline, and a timeout is retried (3 attempts): keep the deadline short.
    server = Server(log_level="info", environ=wa_env(fake, TRICKLE_TIMEOUT if mode == "trickle" else 10), data_dir=data)
    served = [0, 0]  # good answers, requests

    def probe():
        status, _, body = simple_get(server.port, f"/v1/stations/{reference['id']}", timeout=5)
        served[1] += 1
        served[0] += status == 200 and body == reference["station"]

    try:
        base_rss, base_hwm = server.rss_kib(), server.hwm_kib()
        sampler = PeakMemory(server.pid)
        fake.gate.set()
        started = time.time()

        def failed():
            wa = provider(server.health(), "wa")
            return wa if wa and wa.get("last_error") and wa.get("status") in ("failing", "stale") else None

        wa = wait_for(failed, 60, every=0.2, during=probe)
        elapsed = time.time() - started
        probe()
        peak_rss, hwm = sampler.stop()
        health = server.health() or {}
        wa = provider(health, "wa") or {}
        error = wa.get("last_error") or ""
        print(f"  wa after {elapsed:.1f} s: status {wa.get('status')}, last_error {error!r}; fake requests "
              f"{len(fake.requests)}, attack bytes sent {fake.sent:,}"
              + (f" in {fake.stream_ended:.1f} s" if fake.stream_ended is not None else ""), flush=True)
        print(f"  RSS before {base_rss // 1024} MiB, peak {peak_rss // 1024} MiB; VmHWM before {base_hwm // 1024} MiB, "
              f"after {hwm // 1024} MiB", flush=True)
        checks.check(f"{name}: wa reported failing (or stale) with a reason", wa.get("status") in ("failing", "stale")
                     and bool(error), f"{wa.get('status')}: {error}")
        if error_text:
            checks.check(f"{name}: the error says '{error_text}'", error_text in error, error)
        checks.check(f"{name}: /health status degraded", health.get("status") == "degraded", health.get("status", ""))
        checks.check(f"{name}: WA data kept ({reference['stations']} stations, {reference['prices']} prices, live)",
                     wa.get("stations") == reference["stations"] and wa.get("prices") == reference["prices"]
                     and wa.get("source") == "live" and wa.get("as_of") == reference["as_of"],
                     f"{wa.get('stations')} stations, {wa.get('prices')} prices, {wa.get('source')}, as of {wa.get('as_of')}")
        checks.check(f"{name}: station {reference['id']} served unchanged throughout ({served[0]}/{served[1]})",
                     served[1] > 0 and served[0] == served[1])
        if memory:
            growth = max(peak_rss - base_rss, hwm - base_hwm)
            checks.check(f"{name}: memory growth {growth // 1024} MiB <= {RSS_BOUND_KIB // 1024} MiB", growth <= RSS_BOUND_KIB)
        if mode == "trickle":
            # 3 attempts of TRICKLE_TIMEOUT s with backoff of at most 1 s and 2 s between them.
            checks.check(f"{name}: the request deadline ended it ({elapsed:.1f} s <= {3 * TRICKLE_TIMEOUT + 3 + 5} s)",
                         elapsed <= 3 * TRICKLE_TIMEOUT + 3 + 5)
        if mode == "endless":
            # Informational, not a check: URLSession on Linux takes seconds (sometimes the whole transfer) to pass a
            # cancel on to libcurl, so the socket may keep reading after the cap. Memory is what the cap must bound,
            # and that is checked above; ending the transfer at once needs a client of our own (see README).
            ended = f" in {fake.stream_ended:.1f} s" if fake.stream_ended is not None else ", still sending"
            print(f"INFO {name}: the upstream sent {fake.sent // MIB} MiB{ended} (the cap is {CAP // MIB} MiB)")
        checks.check(f"{name}: server alive and healthy", server.healthy())
    finally:
        fake.gate.set()
        server.cleanup()
        shutil.rmtree(data, ignore_errors=True)


def nsw_env(fake):
    return {"PETTY_PROVIDERS": "nsw", "PETTY_NSW_API_KEY": NSW_KEY, "PETTY_NSW_API_SECRET": NSW_SECRET,
            "PETTY_NSW_BASE_URL": fake.url, "PETTY_PROVIDER_TIMEOUT_SECONDS": "5"}


def carried_credentials(requests):
    return [(path, name) for path, headers in requests for name in CREDENTIAL_HEADERS if name in headers]


def redirects(checks, fake, evil):
    """NSW's token request, then its data request, answered by a 302 to another origin (a second loopback
    server on another port); then a same-origin redirect as the control that the recording sees credentials."""
    for mode, what in (("redirect_token", "token request (Basic key:secret)"), ("redirect_data", "data request (Bearer, apikey)")):
        name = f"redirect ({what})"
        print(f"== {name}", flush=True)
        fake.reset(mode)
        fake.redirect_to = evil.url
        evil.reset("evil")
        server = Server(log_level="info", environ=nsw_env(fake))
        try:
            nsw = wait_for(lambda: (lambda p: p if p and p.get("last_error") else None)(provider(server.health(), "nsw")), 30, every=0.2)
            time.sleep(0.5)  # anything late to the other origin would arrive now
            raw = simple_get(server.port, "/health")[2].decode("utf-8", "replace")
            error = (nsw or {}).get("last_error") or ""
            print(f"  nsw: {error!r}; fake saw {[p for p, _ in fake.requests]}; other origin saw {[p for p, _ in evil.requests]}", flush=True)
            checks.check(f"{name}: the fake answered the {what} with a 302", any(
                p.startswith(NSW_TOKEN_PATH if mode == "redirect_token" else NSW_DATA_PATH) for p, _ in fake.requests))
            checks.check(f"{name}: the other origin saw no Authorization/apikey", not carried_credentials(evil.requests),
                         str(carried_credentials(evil.requests)))
            checks.check(f"{name}: the other origin was never contacted", not evil.requests, f"{len(evil.requests)} requests")
            checks.check(f"{name}: nsw last_error says the redirect was refused",
                         "redirect to another origin refused" in error, error)
            checks.check(f"{name}: nothing from the other origin or the redirect body in /health", CANARY not in raw)
            log = server.log_text()
            checks.check(f"{name}: nothing from the other origin in the log", CANARY not in log)
            checks.check(f"{name}: no credential in /health or the log",
                         not any(s in raw + log for s in (NSW_KEY, NSW_SECRET, ISSUED_TOKEN)))
        finally:
            server.cleanup()
    # Control: a redirect within the origin is followed, and the recorder sees the credentials it carries.
    # Without this, "the other origin saw no Authorization" could pass because headers were never recorded.
    name = "redirect (same origin, control)"
    print(f"== {name}", flush=True)
    fake.reset("redirect_same")
    server = Server(log_level="info", environ=nsw_env(fake))
    try:
        wait_for(lambda: any(p.startswith("/moved") for p, _ in fake.requests), 30, every=0.2)
        moved = [h for p, h in fake.requests if p.startswith("/moved")]
        checks.check(f"{name}: followed, with Authorization: Bearer and apikey (the recorder sees credentials)",
                     bool(moved) and moved[0].get("authorization") == f"Bearer {ISSUED_TOKEN}" and moved[0].get("apikey") == NSW_KEY,
                     f"{len(moved)} requests to /moved")
    finally:
        server.cleanup()


def main():
    require_binary()
    quick = "--quick" in sys.argv
    only = set(sys.argv[sys.argv.index("--only") + 1].split(",")) if "--only" in sys.argv else None
    checks = Checks()
    units = 1024 if quick else 4096  # 1 GiB (quick) or 4 GiB of zeros, in about 1 MB or 4 MB
    with open(FIXTURE, "rb") as f:
        template = f.read().decode("utf-8")
    bomb = gzip_bomb(units)
    fake = Fake(template, bomb)
    fake.bomb_units = units
    evil = Fake(template, bomb)
    for server in (fake, evil):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"fake provider {fake.url}, other origin {evil.url}; gzip bomb {len(bomb[0]) + units * len(bomb[1]) + len(bomb[2]):,} B "
          f"inflating to {units} MiB", flush=True)
    work = tempfile.mkdtemp(prefix="petty-upstream-")
    try:
        if only is None or "redirect" in only:
            redirects(checks, fake, evil)
        wanted = [name for name in WA_ATTACKS if only is None or name in only]
        if wanted:
            print("== seed", flush=True)
            seeded, reference = seed(checks, fake, work)
            if seeded:
                for name in wanted:
                    wa_attack(checks, name, fake, seeded, reference, work)
    finally:
        for server in (fake, evil):
            stop_upstream(server)
        shutil.rmtree(work, ignore_errors=True)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
