#!/usr/bin/env python3
"""Side-by-side HTTP benchmark: Petty vs nginx serving the very same response bytes as static files,
interleaved round by round (server, nginx, server, nginx, ...), medians reported; plus the memory, start-up,
merge and history-memory rows. One command prints every figure with its target and PASS/MISS, then
`N passed, N failed` (MISS and INVALID count as failed; the exit status is 0 unless the bench itself broke).

    Benchmarks/bench.sh                 # everything, 3 rounds of 5 s (about 7 minutes on 2 cores plus the build)
    ROUNDS=5 DURATION=10s Benchmarks/bench.sh
    SCENARIOS="station list" Benchmarks/bench.sh
    SCENARIOS="memory startup merge" Benchmarks/bench.sh
    SCENARIOS=fleet Benchmarks/bench.sh     # opt-in: needs etcd (installs Debian's etcd-server)

Knobs: SCENARIOS, ROUNDS (3), DURATION (5s), THREADS (wrk threads and nginx workers, 2), IDLE_CONNS (10000),
MERGE_WINDOW (10s), FAKE_NSW_DELAY (2 s), STARTUP_RUNS (5), MERGE_RUNS (5), NEAR_POINTS (1000), KEEP=1 (keep
the work directory), PETTY_BENCH_PORT, NGINX_BENCH_PORT, AUX_BENCH_PORT, FAKE_NSW_BENCH_PORT.
See Benchmarks/README.md for what each row means. Needs wrk and nginx; loopback only; every server it starts
runs with PETTY_PROVIDERS=none except merge_load's, whose NSW provider is a local fake. Stops all it started,
by pid.
"""
import http.client
import json
import math
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "Scripts"))
import harness  # noqa: E402
from harness import ROOT, Processes, Results, http_get, proc_status_kb, tree_rss_kb, wait_for  # noqa: E402

ENV = os.environ
ROUNDS = int(ENV.get("ROUNDS", "3"))
DURATION = ENV.get("DURATION", "5s")
THREADS = int(ENV.get("THREADS", "2"))
PETTY_PORT = int(ENV.get("PETTY_BENCH_PORT", "18181"))
NGINX_PORT = int(ENV.get("NGINX_BENCH_PORT", "18182"))
AUX_PORT = int(ENV.get("AUX_BENCH_PORT", "18183"))
FAKE_PORT = int(ENV.get("FAKE_NSW_BENCH_PORT", "18184"))
STACK_PORT = int(ENV.get("STACK_BENCH_PORT", "18185"))            # shipped nginx config, Petty compresses
STACK_NGINX_GZIP_PORT = int(ENV.get("STACK_GZIP_BENCH_PORT", "18186"))  # the same stack, nginx compresses
IDLE_CONNS = int(ENV.get("IDLE_CONNS", "10000"))
MERGE_WINDOW = ENV.get("MERGE_WINDOW", "10s")
FAKE_NSW_DELAY = ENV.get("FAKE_NSW_DELAY", "2")
STARTUP_RUNS = int(ENV.get("STARTUP_RUNS", "5"))
MERGE_RUNS = int(ENV.get("MERGE_RUNS", "5"))
NEAR_POINTS = int(ENV.get("NEAR_POINTS", "1000"))
NSW_PAYLOAD = "Sources/Providers/SampleData/nsw/nsw_v1_fuel_prices.json"
HELPERS = ROOT / "Benchmarks" / "helpers"
RUN = ROOT / ".build/release/Run"
BENCH = ROOT / ".build/release/PettyBench"
NEAR_QUERY = "/v1/stations?near={lat:.4f},{lng:.4f}&radius_km=5&fuel=U91&sort=price"
SUMMARY_NEAR_QUERY = "/v1/summary?state=NSW&fuel=U91&near={lat:.4f},{lng:.4f}"
SYDNEY = ((-34.05, -33.70), (150.85, 151.30))  # metro Sydney, south-north and west-east
MELBOURNE = ((-38.05, -37.60), (144.70, 145.30))  # metro Melbourne, the same way
ALONG_ROUTES = int(ENV.get("ALONG_ROUTES", "1000"))
ALONG_QUERY = "/v1/stations/along?polyline={polyline}&fuel=U91&detour_km=2&sort=price&limit=20"


@dataclass
class Scenario:
    path: str
    connections: int = 64
    mode: str = ""          # "close", "html", "idle", "gzip" (Accept-Encoding: gzip), "stack" (through nginx)
    target: float = 0.5
    label: str = ""
    optional: bool = False  # an endpoint still being built elsewhere: skipped while it answers 404
    random_query: str = ""  # a query over NEAR_POINTS random points over Sydney ({lat}, {lng}) instead of `path`
    random_routes: bool = False  # with random_query: ALONG_ROUTES random routes ({polyline}) instead of points
    post: bool = False      # with random_routes: POST each route's parameters as a JSON body to `path` instead


SCENARIOS = {
    "station": Scenario("/v1/stations/1", target=1.0, label="≥1.0×, p99≤1.5×"),
    "list": Scenario("/v1/stations?state=NSW&limit=50", target=1.0, label="≥1.0×"),
    "near": Scenario("(NEAR_POINTS random points over Sydney)", target=1.0, label="≥1.0×", random_query=NEAR_QUERY),
    "page": Scenario("/stations/1", mode="html", target=1.0, label="≥1.0×"),
    "summary": Scenario("/v1/summary?state=NSW&fuel=U91", target=1.0, label="≥1.0×", optional=True),
    "advice": Scenario("/v1/advice?fuel=U91&city=sydney", target=1.0, label="≥1.0×", optional=True),
    "sumnear": Scenario("(summary near NEAR_POINTS random points over Sydney)", target=0.8, label="≥0.8×",
                        random_query=SUMMARY_NEAR_QUERY),
    "q": Scenario("/v1/stations?q=bond%20jun&fuel=U91&sort=price&limit=20", target=0.8, label="≥0.8×"),
    # A search with a typo and an abbreviation: the forgiving path (one edit over the vocabulary, `jnct`).
    "qtypo": Scenario("/v1/stations?q=bondi%20juntion%20jnct&fuel=U91&sort=price&limit=20", target=0.8, label="≥0.8×"),
    "along": Scenario("(ALONG_ROUTES random routes of 20-200 km across Sydney and Melbourne)", target=0.5, label="≥0.5×",
                      random_query=ALONG_QUERY, random_routes=True),
    # The same routes' parameters as a JSON body (apps with routes too long for a request line); nginx is sent the
    # same body and answers the captured bytes (its static module answers POST through `error_page 405 =200`).
    "alongpost": Scenario("/v1/stations/along", target=0.5, label="≥0.5×", random_query=ALONG_QUERY,
                          random_routes=True, post=True),
    "c1000": Scenario("/v1/stations/1", connections=1000, target=1.0, label="≥1.0×, 0 err"),
    "close": Scenario("/v1/stations/1", mode="close", target=1.0, label="≥1.0×, 0 err"),
    "idle10k": Scenario("/v1/stations/1", mode="idle", target=1.0, label="≥1.0×, ≤150MB"),
    "trends": Scenario("/v1/trends?state=VIC&fuel=U91&days=30", target=1.0, label="≥1.0×"),
    "averages": Scenario("/v1/averages?state=NSW", target=1.0, label="≥1.0×"),
    "cheapest100": Scenario("/v1/prices/cheapest?fuel=U91&state=NSW&limit=100", target=1.0, label="≥1.0×"),
    "tomorrow": Scenario("/v1/tomorrow?state=WA&fuel=U91", target=1.0, label="≥1.0×"),
    "history": Scenario("/v1/stations/3370/history?fuel=U91&days=30", target=1.0, label="≥1.0×"),
    "changes": Scenario("/v1/prices/changes?since=2000-01-01T00:00:00Z&limit=500", target=1.0, label="≥1.0× (500 items)"),
    "cluster": Scenario("/v1/stations?state=NSW&fuel=U91&cluster=true&zoom=22", target=1.0, label="≥1.0×"),
    # Petty's gzip of the list against nginx gzip_static serving those very compressed bytes.
    "gzip": Scenario("/v1/stations?state=NSW&limit=50", mode="gzip", target=1.0, label="≥1.0× gzip_static"),
    # The shipped nginx config in front of Petty, gzip requested: Petty's stored gzip passed through ("petty"
    # column) against the same stack with nginx compressing every response ("nginx" column).
    "stack": Scenario("/v1/stations?state=NSW&limit=50", mode="gzip stack", target=3.0, label="≥3× nginx-gzip stack"),
}
LARGE = ["memory", "startup", "merge", "merge_load"]
ALL = [*SCENARIOS, *LARGE, "history-memory", "worst"]
OPT_IN = ["fleet", "memory_polls"]  # named only: minutes each (3 etcd members and 3 Petty instances; 60 s polls)
MEMORY_PATHS = ["/health", "/v1/stations/1", "/v1/stations?state=NSW&limit=50", "/v1/stations?state=QLD&limit=50",
                "/v1/stations?near=-33.8688,151.2093&radius_km=5&fuel=U91&sort=price", "/stations/1",
                "/v1/averages?state=NSW", "/v1/trends?state=VIC&fuel=U91&days=30", "/v1/tomorrow?state=WA&fuel=U91",
                "/v1/prices/cheapest?state=QLD&fuel=U91", "/v1/prices/changes?since=2026-01-01T00:00:00Z"]
NSW_ENV = {"PETTY_PROVIDERS": "nsw", "PETTY_NSW_API_KEY": "bench-key", "PETTY_NSW_API_SECRET": "bench-secret",
           "PETTY_NSW_BASE_URL": f"http://127.0.0.1:{FAKE_PORT}", "PETTY_NSW_POLL_SECONDS": "60"}


def encode_polyline(points):
    """Google's encoded polyline, precision 5 (what the Directions API returns)."""
    out, previous = [], (0, 0)
    for lat, lng in points:
        current = (round(lat * 1e5), round(lng * 1e5))
        for delta in (current[0] - previous[0], current[1] - previous[1]):
            value = ~(delta << 1) if delta < 0 else delta << 1
            while value >= 0x20:
                out.append(chr((0x20 | (value & 0x1F)) + 63))
                value >>= 5
            out.append(chr(value + 63))
        previous = current
    return "".join(out)


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def load():
    return re.sub(r".*load", "load", uptime())


def indented(text):
    for line in text.splitlines():
        print(f"   {line}", flush=True)


@dataclass
class Wrk:
    rps: float = 0
    p50: float = 0
    p99: float = 0
    errors: int = 1
    worst: float = 0
    rss_kb: int = 0

    @staticmethod
    def parse(text):
        """`wrk --latency` output; errors are socket errors plus non-2xx/3xx responses."""
        def ms(value):
            number = re.match(r"[\d.]+", value).group()
            return float(number) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}.get(value[len(number):], 1)
        try:
            rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
            p50 = ms(re.search(r"^\s+50%\s+(\S+)", text, re.M).group(1))
            p99 = ms(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1))
            worst = ms(re.search(r"Latency\s+\S+\s+\S+\s+(\S+)", text).group(1))
        except (AttributeError, ValueError) as error:
            sys.stderr.write(f"bench: unparsable wrk output ({error!r}):\n{text[-600:]}\n")
            return Wrk()
        errors = sum(int(x) for x in re.findall(r"(?:connect|read|write|timeout) (\d+)", text))
        non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
        return Wrk(rps, p50, p99, errors + (int(non2xx.group(1)) if non2xx else 0), worst)

    def __str__(self):
        return f"{self.rps:.0f} {self.p50:.2f} {self.p99:.2f} {self.errors} {self.worst:.2f}"


class Bench:
    def __init__(self, selected, work):
        self.selected, self.work = selected, work
        self.procs = Processes()
        self.results = Results()
        self.wrk = {}           # (scenario, who) -> [Wrk]
        self.idle = {}          # who -> [dict]
        self.skipped = {}       # scenario -> reason
        self.rendered = []         # (name, verdict, target, description)
        self.petty_hwm = 0
        self.dataset = None
        self.loads = [f"start {uptime()}"]
        self.wrk_count = 0

    def wants(self, name):
        return name in self.selected

    # --- processes ---------------------------------------------------------------------------------------------

    def start_petty(self, port, data, log, env=None):
        """PETTY_PROVIDERS=none unless overridden: the benchmark never calls real providers."""
        return self.procs.start([RUN, "serve", "--env", "production", "--port", port, "--data-dir", data,
                                 "--log-level", "notice"], log=log, env={"PETTY_PROVIDERS": "none", **(env or {})})

    def wait_ready(self, port, proc, log):
        def ready():
            if proc.poll() is not None:
                return True
            return http_get(f"http://127.0.0.1:{port}/health", timeout=2).status == 200
        if not wait_for(30, ready, 0.1) or proc.poll() is not None:
            sys.stdout.write(Path(log).read_text(errors="replace"))
            raise SystemExit("bench: server did not start")

    def start_fake(self, delay):
        (self.work / "fake.log").write_text("")
        proc = self.procs.start([sys.executable, HELPERS / "fake_nsw.py", FAKE_PORT, NSW_PAYLOAD,
                                 self.work / "fake.log", delay], log=self.work / "fake.out")
        wait_for(5, lambda: http_get(f"http://127.0.0.1:{FAKE_PORT}/oauth/client_credential/accesstoken",
                                     timeout=1).status == 200, 0.1)
        return proc

    def run_wrk(self, url, connections, mode="", duration=None, script=None):
        args = ["wrk", f"-t{THREADS}", f"-c{connections}", f"-d{duration or DURATION}", "--latency"]
        if "close" in mode:
            args += ["-H", "Connection: close"]
        if "html" in mode:
            args += ["-H", "Accept: text/html"]
        if "gzip" in mode:
            args += ["-H", "Accept-Encoding: gzip"]
        if script:
            args += ["-s", str(script)]
        out = subprocess.run(args + [url], capture_output=True, text=True)
        text = out.stdout + out.stderr
        self.wrk_count += 1
        (self.work / f"wrk-{self.wrk_count}.txt").write_text(text)
        return Wrk.parse(text)

    # --- wrk rows ------------------------------------------------------------------------------------------------

    def near_points(self):
        """NEAR_POINTS fixed random points over metro Sydney (seeded: the same points every run)."""
        rng = random.Random(17)
        return [(rng.uniform(*SYDNEY[0]), rng.uniform(*SYDNEY[1])) for _ in range(NEAR_POINTS)]

    def along_routes(self):
        """ALONG_ROUTES fixed random drives (seeded): half from a point in metro Sydney, half in metro Melbourne, each
        20-200 km of 0.3-2 km legs whose heading wanders, as a Google encoded polyline (percent-encoded)."""
        rng = random.Random(29)
        routes = []
        for i in range(ALONG_ROUTES):
            box = SYDNEY if i % 2 == 0 else MELBOURNE
            lat, lng = rng.uniform(*box[0]), rng.uniform(*box[1])
            heading, length, goal = rng.uniform(0, 2 * math.pi), 0.0, rng.uniform(20, 200)
            points = [(lat, lng)]
            while length < goal:
                heading += rng.uniform(-0.5, 0.5)
                km = rng.uniform(0.3, 2.0)
                lat += km * math.cos(heading) / 111.195
                lng += km * math.sin(heading) / (111.195 * math.cos(math.radians(lat)))
                points.append((lat, lng))
                length += km
            routes.append(urllib.parse.quote(encode_polyline(points), safe=""))
        return routes

    def write_lua(self, name, paths):
        """A wrk script requesting one of `paths` at random per request (each wrk thread seeds its own)."""
        listed = ",\n".join(f'  "{p}"' for p in paths)
        script = self.work / f"{name}.lua"
        script.write_text(f"local paths = {{\n{listed}\n}}\n"
                          "math.randomseed(os.time() + tonumber(tostring({}):match('0x(%x+)') or '0', 16))\n"
                          "request = function() return wrk.format(nil, paths[math.random(#paths)]) end\n")
        return script

    def write_post_lua(self, name, pairs):
        """A wrk script POSTing one of `pairs` (path, JSON body) at random per request."""
        listed = ",\n".join(f'  {{"{p}", [==[{b}]==]}}' for p, b in pairs)
        script = self.work / f"{name}.lua"
        script.write_text(f"local pairs = {{\n{listed}\n}}\n"
                          "math.randomseed(os.time() + tonumber(tostring({}):match('0x(%x+)') or '0', 16))\n"
                          "request = function()\n  local p = pairs[math.random(#pairs)]\n"
                          "  return wrk.format('POST', p[1], {['Content-Type'] = 'application/json'}, p[2])\nend\n")
        return script

    @staticmethod
    def along_body(query):
        """The JSON body of POST /v1/stations/along carrying a GET along query's parameters."""
        fields = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(query).query))
        return json.dumps(fields, separators=(",", ":"))

    def capture_post(self, path, body, target):
        conn = http.client.HTTPConnection(f"127.0.0.1:{PETTY_PORT}", timeout=30)
        try:
            conn.request("POST", path, body=body.encode(), headers={"Content-Type": "application/json"})
            reply = conn.getresponse()
            data = reply.read()
        finally:
            conn.close()
        if reply.status == 200:
            target.write_bytes(data)
        return reply.status

    def capture(self, path, target, mode):
        headers = {"Accept": "text/html"} if "html" in mode else {}
        if "gzip" in mode:
            headers["Accept-Encoding"] = "gzip"
            # A memoized body's first gzip is the fast one, made for that request alone; wrk gets the stored
            # one from the second request on, so that is what nginx must serve.
            http_get(f"http://127.0.0.1:{PETTY_PORT}{path}", headers=headers, timeout=30)
        reply = http_get(f"http://127.0.0.1:{PETTY_PORT}{path}", headers=headers, timeout=30)
        if "gzip" in mode and reply.header("Content-Encoding") != "gzip":
            print(f"warning: {path} with Accept-Encoding: gzip came back uncompressed", file=sys.stderr)
        if reply.status == 200:
            target.write_bytes(reply.body)
        return reply.status

    def write_nginx_conf(self):
        www, conf = self.work / "www", self.work / "nginx.conf"
        conf.write_text(f"""worker_processes {THREADS};
worker_rlimit_nofile 20000;
pid {self.work}/nginx.pid;
error_log {self.work}/nginx-error.log warn;
events {{ worker_connections 20000; }}
http {{
    access_log off;
    keepalive_requests 10000000;
    keepalive_timeout 60s;
{harness.nginx_temp_paths(self.work / "tmp")}
    server {{
        listen 127.0.0.1:{NGINX_PORT} reuseport backlog=4096;
        root {www};
        location ~ \\.html$ {{ default_type "text/html; charset=utf-8"; }}
        location /gz/ {{ gzip_static on; default_type "application/json; charset=utf-8"; }}
        location /alongpost/ {{ default_type "application/json; charset=utf-8"; error_page 405 =200 $uri; }}
        location / {{ default_type "application/json; charset=utf-8"; }}
    }}
}}
""")
        return conf

    def write_stack_conf(self, port, nginx_compresses):
        """The shipped deploy/nginx/petty-locations.conf in a plain-HTTP server proxying to the bench's Petty. With
        `nginx_compresses`, the pre-compression setup: Petty is asked for identity and nginx gzips each response."""
        name = "stack-nginx-gzip" if nginx_compresses else "stack"
        snippet = (ROOT / "deploy/nginx/petty-locations.conf").read_text().replace("/srv/petty/Public", str(ROOT / "Public"))
        # The shipped 10 r/s per client would make this a rate-limit benchmark of one loopback client: no limit.
        snippet = re.sub(r"\n\s*limit_req[^;]*;", "", snippet)
        if nginx_compresses:
            snippet = snippet.replace("    gzip off;\n", "").replace(
                "proxy_set_header Connection \"\";", "proxy_set_header Connection \"\";\nproxy_set_header Accept-Encoding \"\";")
        (self.work / f"{name}-locations.conf").write_text(snippet)
        conf = self.work / f"{name}.conf"
        conf.write_text(f"""worker_processes {THREADS};
worker_rlimit_nofile 20000;
pid {self.work}/{name}.pid;
error_log {self.work}/{name}-error.log warn;
events {{ worker_connections 20000; }}
http {{
    access_log off;
    keepalive_requests 10000000;
    keepalive_timeout 60s;
{harness.nginx_temp_paths(self.work / "tmp" / name)}
    upstream petty {{
        server 127.0.0.1:{PETTY_PORT};
        keepalive 64;
    }}
    server {{
        listen 127.0.0.1:{port} reuseport backlog=4096;
        include {self.work}/{name}-locations.conf;
    }}
}}
""")
        return conf

    def wrk_rows(self, names):
        www = self.work / "www"
        for d in ("data", "tmp", "www", *(f"www/{n}" for n in names if SCENARIOS[n].random_query)):
            (self.work / d).mkdir(parents=True, exist_ok=True)
        log = self.work / "server.log"
        server = self.start_petty(PETTY_PORT, self.work / "data", log)
        self.wait_ready(PETTY_PORT, server, log)

        # nginx serves each scenario's bytes, captured from the server, as a static file with the same content type.
        # near: one file per random point, and two wrk scripts drawing from the same list of points.
        plans = {}
        extra_nginx = []
        for name in names:
            s = SCENARIOS[name]
            if s.random_query:
                petty_paths, nginx_paths = [], []
                queries = ([s.random_query.format(polyline=p) for p in self.along_routes()] if s.random_routes
                           else [s.random_query.format(lat=lat, lng=lng) for lat, lng in self.near_points()])
                if s.post:
                    bodies = [self.along_body(q) for q in queries]
                    pairs = [(i, b) for i, b in enumerate(bodies)
                             if self.capture_post(s.path, b, www / name / f"{i}.json") == 200]
                    if not pairs:
                        raise SystemExit(f"bench: no {name} body answered 200")
                    plans[name] = ("/", self.write_post_lua(f"{name}-petty", [(s.path, b) for _, b in pairs]),
                                   "/", self.write_post_lua(f"{name}-nginx", [(f"/{name}/{i}.json", b) for i, b in pairs]),
                                   PETTY_PORT, NGINX_PORT)
                    continue
                for i, path in enumerate(queries):
                    status = self.capture(path, www / name / f"{i}.json", s.mode)
                    if status != 200:
                        print(f"warning: {path} answered {status}", file=sys.stderr)
                        continue
                    petty_paths.append(path)
                    nginx_paths.append(f"/{name}/{i}.json")
                if not petty_paths:
                    raise SystemExit(f"bench: no {name} point answered 200")
                plans[name] = ("/", self.write_lua(f"{name}-petty", petty_paths),
                               "/", self.write_lua(f"{name}-nginx", nginx_paths), PETTY_PORT, NGINX_PORT)
                continue
            if "stack" in s.mode:
                stacks = [(STACK_PORT, False), (STACK_NGINX_GZIP_PORT, True)]
                for port, nginx_compresses in stacks:
                    (self.work / "tmp" / ("stack-nginx-gzip" if nginx_compresses else "stack")).mkdir(exist_ok=True)
                    extra_nginx.append(self.procs.start(
                        ["nginx", "-c", self.write_stack_conf(port, nginx_compresses), "-g", "daemon off;"],
                        log=self.work / f"nginx-stack-{port}.console"))
                plans[name] = (s.path, None, s.path, None, STACK_PORT, STACK_NGINX_GZIP_PORT)
                continue
            if "gzip" in s.mode:
                (www / "gz").mkdir(exist_ok=True)
                self.capture(s.path, www / "gz" / f"{name}.json.gz", s.mode)
                status = self.capture(s.path, www / "gz" / f"{name}.json", "")
                plans[name] = (s.path, None, f"/gz/{name}.json", None, PETTY_PORT, NGINX_PORT)
                continue
            ext = "html" if "html" in s.mode else "json"
            status = self.capture(s.path, www / f"{name}.{ext}", s.mode)
            if s.optional and status == 404:
                self.skipped[name] = f"skipped: endpoint answered 404 (GET {s.path})"
                continue
            if status != 200:
                print(f"warning: {s.path} did not answer 200 ({status})", file=sys.stderr)
            plans[name] = (s.path, None, f"/{name}.{ext}", None, PETTY_PORT, NGINX_PORT)

        nginx = self.procs.start(["nginx", "-c", self.write_nginx_conf(), "-g", "daemon off;"],
                                 log=self.work / "nginx.console")
        time.sleep(0.5)
        for name, (petty_path, petty_script, nginx_path, nginx_script, petty_port, nginx_port) in plans.items():
            s = SCENARIOS[name]
            for round_ in range(1, ROUNDS + 1):
                if s.mode == "idle":
                    self.idle_round("petty", PETTY_PORT, petty_path, round_, server.pid)
                    self.idle_round("nginx", NGINX_PORT, nginx_path, round_, nginx.pid)
                else:
                    w = self.run_wrk(f"http://127.0.0.1:{petty_port}{petty_path}", s.connections, s.mode,
                                     script=petty_script)
                    w.rss_kb = proc_status_kb(server.pid)
                    self.wrk.setdefault((name, "petty"), []).append(w)
                    w = self.run_wrk(f"http://127.0.0.1:{nginx_port}{nginx_path}", s.connections,
                                     s.mode.replace("html", ""), script=nginx_script)
                    self.wrk.setdefault((name, "nginx"), []).append(w)
                print(f"  {name} round {round_} done ({load()})", file=sys.stderr, flush=True)
        self.petty_hwm = proc_status_kb(server.pid, "VmHWM")
        self.procs.stop(server)
        self.procs.stop(nginx)
        for proc in extra_nginx:
            self.procs.stop(proc)
        self.loads.append(f"after-wrk {uptime()}")

    def idle_round(self, who, port, path, round_, pid):
        """Holds IDLE_CONNS idle keep-alive connections (each served one request) while wrk runs the 64-connection
        station scenario; records req/s, RSS while holding, and whether every idle one survived."""
        out = self.work / f"idle-{who}-{round_}.txt"
        helper = self.procs.start([sys.executable, HELPERS / "idle_conns.py", port, IDLE_CONNS, path,
                                   "--hold-max", "55"], log=out)
        wait_for(60, lambda: "READY" in out.read_text() or helper.poll() is not None, 0.1)
        ready = dict(re.findall(r"(\w+)=([\d.]+)", next(
            (l for l in out.read_text().splitlines() if l.startswith("READY")), f"READY ok=0 failed={IDLE_CONNS}")))
        samples, stop = [], threading.Event()
        sampler = None
        if who == "petty":
            def sample():
                while not stop.is_set():
                    samples.append(proc_status_kb(pid))
                    stop.wait(0.2)
            sampler = threading.Thread(target=sample)
            sampler.start()
        w = self.run_wrk(f"http://127.0.0.1:{port}{path}", 64)
        if sampler:
            samples.append(proc_status_kb(pid))
            stop.set()
            sampler.join()
            rss = max(samples)
        else:
            rss = tree_rss_kb(pid)
        if helper.poll() is None:
            helper.send_signal(signal.SIGUSR1)
        try:
            helper.wait(30)
        except subprocess.TimeoutExpired:
            pass
        self.procs.stop(helper)
        held = dict(re.findall(r"(\w+)=(\d+)", next(
            (l for l in out.read_text().splitlines() if l.startswith("HELD")), f"HELD open=0 closed={IDLE_CONNS}")))
        self.idle.setdefault(who, []).append({**ready, **held, "rss": rss})
        w.errors += int(ready.get("failed", 0)) + int(held.get("closed", 0))
        w.rss_kb = rss
        self.wrk.setdefault(("idle10k", who), []).append(w)

    # --- rows on the large data directory ------------------------------------------------------------------------

    def make_large(self):
        print("== building the large data directory (PettyBench make-large-dataset)", flush=True)
        out = subprocess.run([BENCH, "make-large-dataset", "--out", self.work / "large"], capture_output=True,
                             text=True, check=True).stdout
        indented(out)
        self.dataset = next((l.replace("LARGE_DATASET ", "") for l in out.splitlines() if "LARGE_DATASET" in l), "")

    def fresh_copy(self, name):
        target = self.work / name
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(self.work / "large", target, symlinks=True)
        return target

    def memory(self):
        print("== memory: idle server on the large data directory", flush=True)
        log = self.work / "memory.log"
        server = self.start_petty(AUX_PORT, self.fresh_copy("mem-data"), log)
        self.wait_ready(AUX_PORT, server, log)
        for path in MEMORY_PATHS:
            reply = http_get(f"http://127.0.0.1:{AUX_PORT}{path}", headers={"Accept": "text/html"}, timeout=30)
            print(f"   GET {path} -> {reply.status:03d}", flush=True)
        time.sleep(5)
        rss, hwm = proc_status_kb(server.pid) / 1024, proc_status_kb(server.pid, "VmHWM") / 1024
        self.procs.stop(server)
        self.rendered.append(("memory", verdict(rss <= 80), "RSS ≤ 80 MB",
                           f"VmRSS {rss:.0f} MB (VmHWM {hwm:.0f} MB) idle, large dataset, no provider"))

        # The same after one live full NSW poll (fake provider, no delay): what a polling server holds at idle.
        print("== memory after one full NSW poll (fake provider)", flush=True)
        fake, server = self.start_polling_server(self.work / "memory-poll.log")
        polled = wait_for(30, lambda: nsw_poll(self.health(AUX_PORT), 0, 1e12).startswith("live@"), 0.1)
        time.sleep(5)
        rss, hwm = proc_status_kb(server.pid) / 1024, proc_status_kb(server.pid, "VmHWM") / 1024
        self.procs.stop(server)
        self.procs.stop(fake)
        self.rendered.append(("memory after poll", verdict(rss <= 80) if polled else "INVALID (no poll merged)",
                           "RSS ≤ 80 MB",
                           f"VmRSS {rss:.0f} MB (VmHWM {hwm:.0f} MB) idle 5 s after one full NSW poll merged (fake provider)"))

    def memory_polls(self):
        """Opt-in: what a polling server settles at. RSS 5 s after each of MEMORY_POLLS full NSW polls, which come
        60 s apart (the provider's shortest interval), so the row takes that many minutes."""
        polls = int(ENV.get("MEMORY_POLLS", "4"))
        print(f"== memory after {polls} polls: large data directory, fake NSW provider polled every 60 s", flush=True)
        fake, server = self.start_polling_server(self.work / "memory-polls.log")
        sizes = []
        for poll in range(1, polls + 1):
            if not wait_for(90, lambda: (self.work / "fake.log").read_text().count("/fuel/prices") >= poll, 0.5):
                break
            time.sleep(5)
            sizes.append(proc_status_kb(server.pid) / 1024)
            print(f"   poll {poll}: VmRSS {sizes[-1]:.0f} MB", flush=True)
        hwm = proc_status_kb(server.pid, "VmHWM") / 1024
        self.procs.stop(server)
        self.procs.stop(fake)
        complete = len(sizes) == polls
        self.rendered.append((f"memory after {polls} polls", verdict(max(sizes) <= 80) if complete else "INVALID (a poll never came)",
                              "RSS ≤ 80 MB",
                              f"VmRSS {', '.join(f'{mb:.0f}' for mb in sizes)} MB 5 s after each poll (VmHWM {hwm:.0f} MB)"))

    def start_polling_server(self, log):
        """The fake NSW provider (no delay) and a server on a fresh copy of the large data directory polling it."""
        fake = self.start_fake(0)
        server = self.start_petty(AUX_PORT, self.fresh_copy("mem-data"), log, NSW_ENV)
        self.wait_ready(AUX_PORT, server, log)
        return fake, server

    def health(self, port):
        return http_get(f"http://127.0.0.1:{port}/health", timeout=5).body

    def startup(self):
        print(f"== startup: exec to first 200 from /health on the large data directory, {STARTUP_RUNS} runs", flush=True)
        out = subprocess.run([sys.executable, HELPERS / "startup.py", str(STARTUP_RUNS), str(AUX_PORT),
                              self.work / "large", self.work, "--", RUN, "serve", "--env", "production", "--port",
                              str(AUX_PORT), "--log-level", "notice"], capture_output=True, text=True,
                             env={**ENV, "PETTY_PROVIDERS": "none"}).stdout
        indented(out)
        median = re.search(r"STARTUP_MEDIAN ms=(-?\d+)", out)
        ms = int(median.group(1)) if median else -1
        runs = " ".join(f"{a}/{b}" for a, b in re.findall(r"STARTUP run=\d+ ms=(-?\d+) loaded_ms=(-?\d+)", out))
        self.rendered.append(("startup", verdict(0 <= ms <= 1000), "≤ 1000 ms",
                           f"median {ms} ms exec→/health 200 (runs ms/load ms: {runs})"))

    def merge(self):
        print(f"== merge: PettyBench merge-nsw (in-process, release), {MERGE_RUNS} runs each", flush=True)
        for base in ("sample", self.work / "large"):
            out = subprocess.run([BENCH, "merge-nsw", "--payload", NSW_PAYLOAD, "--runs", str(MERGE_RUNS), "--base",
                                  base], capture_output=True, text=True).stdout
            indented(out)
            line = next((l for l in out.splitlines() if "MERGE_RESULT" in l), None)
            if not line:
                self.rendered.append((f"merge ({base})", "INVALID (no MERGE_RESULT)", "≤ 150 ms", ""))
                continue
            m = dict(x.split("=", 1) for x in line.split()[1:])
            steady = float(m["steady_adapt"]) + float(m["steady_apply"])
            desc = (f"poll on live data {steady:.0f} ms = adapt {float(m['steady_adapt']):.0f} + store apply "
                    f"{float(m['steady_apply']):.0f} (merge, index, render, publish); first poll over sample data "
                    f"{float(m['total']):.0f} ms = adapt {float(m['adapt']):.0f} + merge {float(m['merge']):.0f} + "
                    f"index {float(m['index']):.0f} + full render {float(m['render']):.0f}; "
                    f"peak RSS +{int(m['delta_kb']) // 1024} MB")
            self.rendered.append((f"merge ({m['base']}, {m['stations']} st.)", verdict(steady <= 150), "≤ 150 ms", desc))

    def merge_load(self):
        print(f"== merge under load: station scenario for {MERGE_WINDOW} with a full NSW poll inside, vs without; "
              f"{ROUNDS} rounds", flush=True)
        fake = self.start_fake(FAKE_NSW_DELAY)
        rows = {"polls": [], "quiet": []}
        for round_ in range(1, ROUNDS + 1):
            for kind in ("polls", "quiet"):
                log = self.work / f"ml-{kind}-{round_}.log"
                server = self.start_petty(AUX_PORT, self.fresh_copy("ml-data"), log,
                                          NSW_ENV if kind == "polls" else None)
                self.wait_ready(AUX_PORT, server, log)
                t0 = time.time()
                w = self.run_wrk(f"http://127.0.0.1:{AUX_PORT}/v1/stations/1", 64, duration=MERGE_WINDOW)
                t1 = time.time()
                polls, applied = 0, "-"
                if kind == "polls":
                    served = (self.work / "fake.log").read_text().split("\n")
                    polls = sum(1 for l in served if len(l.split()) == 3 and t0 <= float(l.split()[2]) <= t1)
                    applied = nsw_poll(self.health(AUX_PORT), t0, t1)
                rows[kind].append((w, polls, applied))
                self.procs.stop(server)
                print(f"  merge_load {kind} round {round_}: {w} polls={polls} nsw={applied} ({load()})",
                      file=sys.stderr, flush=True)
        self.procs.stop(fake)
        polls, quiet = rows["polls"], rows["quiet"]
        med = lambda rs, f: statistics.median(f(r[0]) for r in rs)
        pp99, qp99 = med(polls, lambda w: w.p99), med(quiet, lambda w: w.p99)
        ratio = pp99 / qp99 if qp99 else 0
        seen = sum(r[1] for r in polls)
        inside = sum(1 for r in polls if r[2].endswith("@in"))
        errors = sum(r[0].errors for r in polls + quiet)
        desc = (f"p99 {pp99:.2f} ms with polls vs {qp99:.2f} ms without = {ratio:.2f}× (max "
                f"{med(polls, lambda w: w.worst):.0f} vs {med(quiet, lambda w: w.worst):.0f} ms; "
                f"{med(polls, lambda w: w.rps):.0f} vs {med(quiet, lambda w: w.rps):.0f} req/s; {errors} errors); "
                f"{seen} full NSW payloads served inside the {MERGE_WINDOW} windows, nsw live merge finished inside in "
                f"{inside}/{len(polls)} rounds")
        valid = seen >= len(polls) and inside == len(polls)
        self.rendered.append(("merge under load", verdict(ratio <= 2) if valid else "INVALID (no poll in window)",
                           "p99 ≤ 2×", desc))

    def history_memory(self):
        """Another branch adds `PettyBench history-memory`; until it exists the row says so."""
        print("== history-memory: PettyBench history-memory", flush=True)
        out = subprocess.run([BENCH, "history-memory"], capture_output=True, text=True)
        line = next((l for l in out.stdout.splitlines() if l.startswith("history-memory:")), None)
        if out.returncode != 0 or not line:
            self.rendered.append(("history-memory", "SKIP", "≤ +30 MB",
                               "skipped: PettyBench has no history-memory command yet"))
            return
        indented(out.stdout)
        mb = re.search(r"\+(-?[\d.]+) MB", line)
        self.rendered.append(("history-memory", verdict(bool(mb) and float(mb.group(1)) <= 30), "≤ +30 MB", line))

    def worst(self):
        """`PettyBench worst`: every /v1 endpoint's most expensive request within its limits against a plain one,
        CPU per request in process (Benchmarks/README.md, "worst"); one row per endpoint."""
        print("== worst: PettyBench worst (in-process, release, CPU per request)", flush=True)
        data = self.work / "worst-data"
        data.mkdir(exist_ok=True)
        out = subprocess.run([BENCH, "worst", "--data-dir", str(data), "--runs", ENV.get("WORST_RUNS", "15")],
                             capture_output=True, text=True)
        indented(out.stdout + out.stderr[-600:])
        rows = [line for line in out.stdout.splitlines() if re.search(r"\s(PASS|MISS)\s", line)]
        if out.returncode != 0 or not rows:
            self.rendered.append(("worst", "INVALID (no measurement)", "≤ 20×, ≤ 2 ms", ""))
        for line in rows:
            endpoint = line.split()[0] if not line.startswith("along-worst") else "along-worst"
            v = "PASS" if re.search(r"\sPASS\s", line) else "MISS"
            self.rendered.append((f"worst {endpoint}", v, "≤ 20×, ≤ 2 ms", " ".join(line.split()[1:])))

    def fleet(self):
        """Benchmarks/helpers/fleet_throughput.py with this release build: req/s through nginx, 1 member vs 3."""
        env = {**os.environ, "FLEET_BINARY": str(RUN), "DURATION": DURATION, "THREADS": str(THREADS), "ROUNDS": str(ROUNDS)}
        out = subprocess.run([sys.executable, HELPERS / "fleet_throughput.py"], env=env, capture_output=True, text=True)
        indented(out.stdout + out.stderr[-600:])
        rows = [line.split() for line in out.stdout.splitlines() if line.startswith("FLEET_ROW ")]
        if not rows:
            self.rendered.append(("fleet 3 vs 1", "INVALID (no measurement)", "0 errors", ""))
        for _, path, one, three, errors in rows:
            ratio = int(three) / int(one) if int(one) else 0
            self.rendered.append((f"fleet 3 vs 1 {path}", verdict(int(errors) == 0 and int(one) > 0 and int(three) > 0),
                               "0 errors", f"{one} -> {three} req/s through nginx, {ratio:.2f}× (no ratio target: "
                               "members share this machine's cores)"))

    # --- report ----------------------------------------------------------------------------------------------------

    def report(self, command):
        print(f"\n== command: {command}")
        for entry in self.loads:
            print(f"== load {entry}")
        if self.wrk or self.skipped:
            print(f"== wrk -t{THREADS} -d{DURATION}, {ROUNDS} interleaved rounds (Petty, nginx, Petty, nginx, ...), "
                  "medians; Petty on the bundled sample data")
            header = (f"{'scenario':<9}{'petty req/s':>12}{'nginx req/s':>12}{'ratio':>7}  {'target':<16}"
                      f"{'petty p50':>10}{'petty p99':>10}{'nginx p99':>10}{'errors':>7}{'petty RSS':>10}  verdict")
            print(header)
            print("-" * len(header))
        med = lambda xs, f: statistics.median(f(x) for x in xs)
        for name in [n for n in SCENARIOS if self.wants(n)]:
            if name in self.skipped:
                print(f"{name:<9}  {self.skipped[name]}")
                self.results.skipped(name, self.skipped[name])
                continue
            p, n = self.wrk.get((name, "petty"), []), self.wrk.get((name, "nginx"), [])
            if not p or not n:
                continue
            s = SCENARIOS[name]
            prps, nrps = med(p, lambda w: w.rps), med(n, lambda w: w.rps)
            ratio = prps / nrps if nrps else 0
            errors = sum(w.errors for w in p)
            nginx_errors = sum(w.errors for w in n)
            rss = max(w.rss_kb for w in p) / 1024
            ok = ratio >= s.target
            if name == "station":
                ok = ok and med(p, lambda w: w.p99) <= 1.5 * med(n, lambda w: w.p99)
            if name in ("c1000", "close", "idle10k"):
                ok = ok and errors == 0
            if name == "idle10k":
                ok = ok and rss <= 150
            # nginx answering errors (a missing file, a stray server sharing its port) serves other bytes: no ratio.
            row_verdict = f"INVALID (nginx: {nginx_errors} errors or non-2xx)" if nginx_errors else verdict(ok)
            self.results.add(name, row_verdict)
            print(f"{name:<9}{prps:>12.0f}{nrps:>12.0f}{ratio:>6.2f}×  {s.label:<16}{med(p, lambda w: w.p50):>8.2f}ms"
                  f"{med(p, lambda w: w.p99):>8.2f}ms{med(n, lambda w: w.p99):>8.2f}ms{errors:>7}{rss:>8.0f}MB  "
                  f"{row_verdict}")
        if self.wants("along") and ("along", "petty") in self.wrk:
            print(f"   along: {ALONG_ROUTES} seeded random routes of 20-200 km from metro Sydney and Melbourne, one drawn "
                  "per request; nginx serves each route's captured bytes")
        if self.wants("near") and ("near", "petty") in self.wrk:
            print(f"   near: {NEAR_POINTS} seeded random points over metro Sydney (lat {SYDNEY[0][0]}..{SYDNEY[0][1]}, "
                  f"lng {SYDNEY[1][0]}..{SYDNEY[1][1]}), one drawn per request; nginx serves each point's captured bytes")
        for who, rows in self.idle.items():
            desc = "; ".join(f"r{i + 1}: {r.get('ok')} ok/{r.get('failed')} failed, {r.get('open')} still open/"
                             f"{r.get('closed')} closed after wrk, setup {r.get('seconds', '?')}s, RSS "
                             f"{r['rss'] // 1024} MB" for i, r in enumerate(rows))
            print(f"   idle10k {who}: {IDLE_CONNS} idle connections — {desc}"
                  + (" (nginx: master+workers)" if who == "nginx" else ""))
        if self.petty_hwm:
            print(f"   Petty (sample data) peak RSS over the wrk scenarios: {self.petty_hwm // 1024} MB")
        if self.dataset:
            print(f"== large data directory (SYNTHETIC-EXTENDED, see Benchmarks/README.md): {self.dataset}")
        if self.rendered:
            print()
            width = max(len(e[0]) for e in self.rendered)
            for name, v, target, desc in self.rendered:
                print(f"{name:<{width}}  {v:<5} target {target:<12} {desc}")
                self.results.add(name, v.split()[0])
        print(self.results.summary())


def verdict(ok):
    return "PASS" if ok else "MISS"


def nsw_poll(health_body, start, end):
    """`<nsw source>@in` when NSW's last_success lies within [start-1, end+1] (unix seconds; last_success has
    whole-second precision), else `<source>@out`."""
    import json
    from datetime import datetime
    try:
        nsw = next(p for p in json.loads(health_body).get("providers", []) if p.get("provider") == "nsw")
        success = nsw.get("last_success")
        at = datetime.fromisoformat(success.replace("Z", "+00:00")).timestamp() if success else 0
        return f"{nsw.get('source', '?')}@{'in' if start - 1 <= at <= end + 1 else 'out'}"
    except (ValueError, StopIteration, AttributeError):
        return "?@out"


def main():
    os.chdir(ROOT)
    selected = ENV.get("SCENARIOS", " ".join(ALL)).split()
    unknown = [n for n in selected if n not in ALL + OPT_IN]
    if unknown:
        sys.exit(f"bench: unknown scenario '{unknown[0]}' (known: {' '.join(ALL + OPT_IN)})")
    for tool in ("wrk", "nginx"):
        if not shutil.which(tool):
            sys.exit(f"bench: {tool} is required (apt-get install -y wrk nginx)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for limit in (hard, 65536):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
            break
        except (ValueError, OSError):
            pass
    harness.raise_on_signals()

    # Both servers listen with `reuseport`, so a stray server on a bench port would silently take half the
    # connections: refuse to start instead.
    for port in (PETTY_PORT, NGINX_PORT, AUX_PORT, FAKE_PORT, STACK_PORT, STACK_NGINX_GZIP_PORT):
        with socket.socket() as probe:
            probe.settimeout(1)
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                sys.exit(f"bench: something already listens on 127.0.0.1:{port} (a server left from another run?); "
                         "stop it or choose other ports (PETTY_BENCH_PORT, NGINX_BENCH_PORT, ...)")

    command = f'ROUNDS={ROUNDS} DURATION={DURATION} SCENARIOS="{" ".join(selected)}" Benchmarks/bench.sh'
    print(f"== {command}\n== load at start: {uptime()}", flush=True)
    work = Path(tempfile.mkdtemp(prefix="petty-bench."))
    work.chmod(0o755)
    bench = Bench(selected, work)
    try:
        print("== building release", flush=True)
        subprocess.run(["swift", "build", "-c", "release", "--product", "Run"], check=True, stdout=subprocess.DEVNULL)
        if any(bench.wants(n) for n in [*LARGE, "history-memory", "memory_polls", "worst"]):
            subprocess.run(["swift", "build", "-c", "release", "--product", "PettyBench"], check=True,
                           stdout=subprocess.DEVNULL)
        wrk_names = [n for n in SCENARIOS if bench.wants(n)]
        if wrk_names:
            bench.wrk_rows(wrk_names)
        if any(bench.wants(n) for n in [*LARGE, "memory_polls"]):
            bench.make_large()
        for name, run in (("memory", bench.memory), ("startup", bench.startup), ("merge", bench.merge),
                          ("merge_load", bench.merge_load), ("history-memory", bench.history_memory),
                          ("memory_polls", bench.memory_polls), ("worst", bench.worst), ("fleet", bench.fleet)):
            if bench.wants(name):
                run()
        bench.loads.append(f"end {uptime()}")
        bench.report(command)
        print("\n== advice: Run backtest (served rule vs the three naive baselines, held-out half)", flush=True)
        indented(subprocess.run([RUN, "backtest"], capture_output=True, text=True).stdout)
    finally:
        bench.procs.stop_all()
        if ENV.get("KEEP"):
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
