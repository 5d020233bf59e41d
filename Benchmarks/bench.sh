#!/usr/bin/env bash
# Side-by-side HTTP benchmark: Petty vs nginx serving the very same response bytes as static files,
# interleaved round by round (server, nginx, server, nginx, ...), medians reported; plus the memory, start-up
# and merge rows of the performance issue. One command prints every figure with its target and PASS/MISS.
#
#   Benchmarks/bench.sh                 # everything, 3 rounds of 5 s (about 6 minutes on 2 cores plus the build)
#   ROUNDS=5 DURATION=10s Benchmarks/bench.sh
#   SCENARIOS="station list" Benchmarks/bench.sh
#   SCENARIOS="memory startup merge" Benchmarks/bench.sh
#
# Scenarios: station list near page summary advice sumnear c1000 close idle10k (wrk, Petty vs nginx) and memory startup merge
# merge_load (Petty alone). See Benchmarks/README.md for what each row means.
# Other knobs: THREADS (wrk threads and nginx workers, 2), IDLE_CONNS (10000), MERGE_WINDOW (10s),
# FAKE_NSW_DELAY (2 s), STARTUP_RUNS (5), MERGE_RUNS (5), KEEP=1 (keep the work directory).
#
# Needs wrk, nginx, curl and python3 (apt-get install -y wrk nginx curl python3). Loopback only; every server
# it starts runs with PETTY_PROVIDERS=none (no provider calls) except merge_load, whose provider is a local fake.
# Cleans up after itself, by pid.
set -euo pipefail
cd "$(dirname "$0")/.."

ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 65536 2>/dev/null || true
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
THREADS=${THREADS:-2}
PETTY_PORT=${PETTY_BENCH_PORT:-18181}
NGINX_PORT=${NGINX_BENCH_PORT:-18182}
AUX_PORT=${AUX_BENCH_PORT:-18183}
FAKE_PORT=${FAKE_NSW_BENCH_PORT:-18184}
IDLE_CONNS=${IDLE_CONNS:-10000}
MERGE_WINDOW=${MERGE_WINDOW:-10s}
FAKE_NSW_DELAY=${FAKE_NSW_DELAY:-2}
STARTUP_RUNS=${STARTUP_RUNS:-5}
MERGE_RUNS=${MERGE_RUNS:-5}
NSW_PAYLOAD=Sources/Providers/SampleData/nsw/nsw_v1_fuel_prices.json
HELPERS=Benchmarks/helpers

all_names="station list near page summary advice sumnear c1000 close idle10k memory startup merge merge_load"
selected=${SCENARIOS:-$all_names}
for name in $selected; do
    case " $all_names " in *" $name "*) ;; *) echo "bench: unknown scenario '$name' (known: $all_names)" >&2; exit 2 ;; esac
done
wants() { case " $selected " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

work=$(mktemp -d /tmp/petty-bench.XXXXXX)
chmod 755 "$work"
server_pid=""
nginx_pid=""
aux_pid=""
fake_pid=""
helper_pid=""
stop_pid() { # pid: TERM, wait up to 10 s, then KILL
    local pid=$1
    [ -n "$pid" ] || return 0
    kill "$pid" 2>/dev/null || return 0
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}
cleanup() {
    stop_pid "$helper_pid"
    stop_pid "$server_pid"
    stop_pid "$aux_pid"
    stop_pid "$fake_pid"
    stop_pid "$nginx_pid"
    if [ -n "${KEEP:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

for tool in wrk nginx curl python3; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is required (apt-get install -y wrk nginx curl python3)" >&2; exit 2; }
done

results="$work/results.txt"
: >"$results"
note() { echo "$*" >>"$results"; }
command_line="ROUNDS=$ROUNDS DURATION=$DURATION SCENARIOS=\"$selected\" Benchmarks/bench.sh"
note "C $command_line"
note "U start $(uptime)"
echo "== $command_line"
echo "== load at start: $(uptime)"

needs_large=""
for name in memory startup merge merge_load; do wants "$name" && needs_large=1; done
wrk_names=""
for name in station list near page summary advice sumnear c1000 close idle10k; do wants "$name" && wrk_names="$wrk_names $name"; done

echo "== building release"
swift build -c release --product Run >/dev/null
[ -n "$needs_large" ] && swift build -c release --product PettyBench >/dev/null
RUN=.build/release/Run
BENCH=.build/release/PettyBench

# Starts Run on port $1 with data dir $2, logging to $3; further args are environment assignments.
# Prints the pid. PETTY_PROVIDERS=none unless overridden: the benchmark never calls real providers.
start_petty() {
    local port=$1 dir=$2 log=$3
    shift 3
    env PETTY_PROVIDERS=none "$@" "$RUN" serve --env production --port "$port" --data-dir "$dir" --log-level notice >"$log" 2>&1 &
    echo $!
}
wait_ready() { # port pid
    for _ in $(seq 1 300); do
        curl -fs "http://127.0.0.1:$1/health" >/dev/null 2>&1 && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
rss_kb() { awk -v f="$2:" '$1 == f {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
tree_rss_kb() { # pid and its children (nginx master + workers)
    local total=0 pid
    for pid in $1 $(pgrep -P "$1" 2>/dev/null); do total=$((total + $(rss_kb "$pid" VmRSS))); done
    echo "$total"
}

# The fake NSW provider (helpers/fake_nsw.py) on FAKE_PORT, answering data calls after $1 seconds.
start_fake() {
    : >"$work/fake.log"
    python3 "$HELPERS/fake_nsw.py" "$FAKE_PORT" "$NSW_PAYLOAD" "$work/fake.log" "$1" >"$work/fake.out" 2>&1 &
    fake_pid=$!
    for _ in $(seq 1 50); do curl -fs "http://127.0.0.1:$FAKE_PORT/oauth/client_credential/accesstoken" >/dev/null 2>&1 && break; sleep 0.1; done
}
nsw_env=(PETTY_PROVIDERS=nsw PETTY_NSW_API_KEY=bench-key PETTY_NSW_API_SECRET=bench-secret
    PETTY_NSW_BASE_URL="http://127.0.0.1:$FAKE_PORT" PETTY_NSW_POLL_SECONDS=60)

run_wrk() { # url connections mode(close|html|"") duration -> "rps p50_ms p99_ms errors max_ms"
    local url=$1 conns=$2 mode=$3 duration=${4:-$DURATION}
    local args=(-t"$THREADS" -c"$conns" -d"$duration" --latency)
    case "$mode" in *close*) args+=(-H "Connection: close") ;; esac
    case "$mode" in *html*) args+=(-H "Accept: text/html") ;; esac
    case "$mode" in *lua*) args+=(-s "$HELPERS/random_near.lua") ;; esac
    wrk "${args[@]}" "$url" 2>&1 | tee "$(mktemp "$work/wrk-XXXXXX.txt")" | python3 "$HELPERS/parse_wrk.py"
}

# Samples VmRSS of pid $1 every 0.2 s into file $2 until killed.
sample_rss() {
    while kill -0 "$1" 2>/dev/null; do rss_kb "$1" VmRSS >>"$2"; sleep 0.2; done
}
max_of() { sort -n "$1" 2>/dev/null | tail -1; }

# ---------------------------------------------------------------------------------------------------------------
# wrk scenarios: Petty on the bundled sample data vs nginx on the captured bytes.
# name | path | connections | extra
all_scenarios=(
    "station|/v1/stations/1|64|"
    "list|/v1/stations?state=NSW&limit=50|64|"
    "near|/v1/stations?near=-33.8688,151.2093&radius_km=5&fuel=U91&sort=price|64|"
    "page|/stations/1|64|"
    "summary|/v1/summary?state=NSW&fuel=U91|64|"
    "advice|/v1/advice?fuel=U91&city=melbourne|64|"
    "sumnear|/v1/summary?state=NSW&fuel=U91&near=-33.8688,151.2093|64|lua"
    "c1000|/v1/stations/1|1000|"
    "close|/v1/stations/1|64|close"
    "idle10k|/v1/stations/1|64|idle"
)

if [ -n "$wrk_names" ]; then
    mkdir -p "$work/data" "$work/www" "$work/tmp"
    server_pid=$(start_petty "$PETTY_PORT" "$work/data" "$work/server.log")
    wait_ready "$PETTY_PORT" "$server_pid" || { cat "$work/server.log"; echo "bench: server did not start" >&2; exit 1; }

    # nginx serves each scenario's bytes, captured from the server, as a static file with the same content type.
    cat >"$work/nginx.conf" <<NGINX
worker_processes $THREADS;
worker_rlimit_nofile 20000;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 20000; }
http {
    access_log off;
    keepalive_requests 10000000;
    keepalive_timeout 60s;
    client_body_temp_path $work/tmp;
    proxy_temp_path $work/tmp;
    fastcgi_temp_path $work/tmp;
    uwsgi_temp_path $work/tmp;
    scgi_temp_path $work/tmp;
    server {
        listen 127.0.0.1:$NGINX_PORT reuseport backlog=4096;
        root $work/www;
        location ~ \.html$ { default_type "text/html; charset=utf-8"; }
        location / { default_type "application/json; charset=utf-8"; }
    }
}
NGINX
    for entry in "${all_scenarios[@]}"; do
        IFS='|' read -r name path _ _ <<<"$entry"
        ext=$([ "$name" = page ] && echo html || echo json)
        curl -fs -H 'Accept: text/html' "http://127.0.0.1:$PETTY_PORT$path" -o "$work/www/$name.$ext" || echo "warning: $path did not answer 200" >&2
    done
    nginx -c "$work/nginx.conf" -g 'daemon off;' &
    nginx_pid=$!
    sleep 0.5

    # idle10k: hold IDLE_CONNS idle keep-alive connections (each served one request) while wrk runs the
    # 64-connection station scenario; report req/s, RSS while holding, and whether every idle one survived.
    idle_round() { # who port path -> "I who round ok failed open closed rss_kb" + the wrk line
        local who=$1 port=$2 path=$3 round=$4 pid=$5
        local out="$work/idle-$who-$round.txt" samples="$work/rss-$who-$round.txt"
        : >"$samples"
        python3 "$HELPERS/idle_conns.py" "$port" "$IDLE_CONNS" "$path" --hold-max 55 >"$out" 2>&1 &
        helper_pid=$!
        for _ in $(seq 1 600); do grep -q READY "$out" && break; kill -0 "$helper_pid" 2>/dev/null || break; sleep 0.1; done
        local ready
        ready=$(grep READY "$out" || echo "READY ok=0 failed=$IDLE_CONNS")
        local sampler=""
        if [ "$who" = petty ]; then sample_rss "$pid" "$samples" & sampler=$!; fi
        local line
        line=$(run_wrk "http://127.0.0.1:$port$path" 64 "")
        local rss
        if [ "$who" = petty ]; then
            rss_kb "$pid" VmRSS >>"$samples"
            kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null || true
            rss=$(max_of "$samples")
        else
            rss=$(tree_rss_kb "$pid")
        fi
        kill -USR1 "$helper_pid" 2>/dev/null || true
        wait "$helper_pid" 2>/dev/null || true
        helper_pid=""
        local held
        held=$(grep HELD "$out" || echo "HELD open=0 closed=$IDLE_CONNS")
        local ok failed open closed
        ok=$(sed -E 's/.*ok=([0-9]+).*/\1/' <<<"$ready"); failed=$(sed -E 's/.*failed=([0-9]+).*/\1/' <<<"$ready")
        open=$(sed -E 's/.*open=([0-9]+).*/\1/' <<<"$held"); closed=$(sed -E 's/.*closed=([0-9]+).*/\1/' <<<"$held")
        note "I $who $round $ok $failed $open $closed ${rss:-0} $(sed -E 's/.*seconds=([0-9.]+).*/\1/' <<<"$ready")"
        set -- $line
        note "W $who idle10k $round $1 $2 $3 $(( $4 + failed + closed )) ${rss:-0} $5"
    }

    for name in $wrk_names; do
        for entry in "${all_scenarios[@]}"; do
            IFS='|' read -r sname path conns extra <<<"$entry"
            [ "$sname" = "$name" ] || continue
            ext=$([ "$name" = page ] && echo html || echo json)
            for round in $(seq 1 "$ROUNDS"); do
                if [ "$name" = idle10k ]; then
                    idle_round petty "$PETTY_PORT" "$path" "$round" "$server_pid"
                    idle_round nginx "$NGINX_PORT" "/$name.$ext" "$round" "$nginx_pid"
                else
                    mode=$extra
                    [ "$name" = page ] && mode="$mode html"
                    line=$(run_wrk "http://127.0.0.1:$PETTY_PORT$path" "$conns" "$mode")
                    set -- $line
                    note "W petty $name $round $1 $2 $3 $4 $(rss_kb "$server_pid" VmRSS) $5"
                    line=$(run_wrk "http://127.0.0.1:$NGINX_PORT/$name.$ext" "$conns" "${extra//lua/}")
                    set -- $line
                    note "W nginx $name $round $1 $2 $3 $4 0 $5"
                fi
                echo "  $name round $round done ($(uptime | sed 's/.*load/load/'))" >&2
            done
        done
    done
    note "P $(rss_kb "$server_pid" VmHWM)"
    stop_pid "$server_pid"; server_pid=""
    stop_pid "$nginx_pid"; nginx_pid=""
    note "U after-wrk $(uptime)"
fi

# ---------------------------------------------------------------------------------------------------------------
# The large, synthetic-extended data directory (memory, startup, merge_load; merge reports on it too).
if [ -n "$needs_large" ]; then
    echo "== building the large data directory (PettyBench make-large-dataset)"
    "$BENCH" make-large-dataset --out "$work/large" | tee "$work/large.txt" | sed 's/^/   /'
    note "D $(grep LARGE_DATASET "$work/large.txt")"
fi

if wants memory; then
    echo "== memory: idle server on the large data directory"
    cp -a "$work/large" "$work/mem-data"
    aux_pid=$(start_petty "$AUX_PORT" "$work/mem-data" "$work/memory.log")
    wait_ready "$AUX_PORT" "$aux_pid" || { cat "$work/memory.log"; echo "bench: server did not start" >&2; exit 1; }
    for path in "/health" "/v1/stations/1" "/v1/stations?state=NSW&limit=50" "/v1/stations?state=QLD&limit=50" \
        "/v1/stations?near=-33.8688,151.2093&radius_km=5&fuel=U91&sort=price" "/stations/1" "/v1/averages?state=NSW" \
        "/v1/trends?state=VIC&fuel=U91&days=30" "/v1/tomorrow?state=WA&fuel=U91" "/v1/prices/cheapest?state=QLD&fuel=U91" \
        "/v1/prices/changes?since=2026-01-01T00:00:00Z"; do
        code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Accept: text/html' "http://127.0.0.1:$AUX_PORT$path")
        echo "   GET $path -> $code"
    done
    sleep 5
    note "M $(rss_kb "$aux_pid" VmRSS) $(rss_kb "$aux_pid" VmHWM)"
    stop_pid "$aux_pid"; aux_pid=""

    # The same after one live full NSW poll (fake provider, no delay): what a polling server holds at idle.
    echo "== memory after one full NSW poll (fake provider)"
    start_fake 0
    rm -rf "$work/mem-data"; cp -a "$work/large" "$work/mem-data"
    aux_pid=$(start_petty "$AUX_PORT" "$work/mem-data" "$work/memory-poll.log" "${nsw_env[@]}")
    wait_ready "$AUX_PORT" "$aux_pid" || { cat "$work/memory-poll.log"; echo "bench: server did not start" >&2; exit 1; }
    polled=""
    for _ in $(seq 1 300); do
        case $(curl -fs "http://127.0.0.1:$AUX_PORT/health" | python3 "$HELPERS/nsw_poll_check.py" 0 1e12 2>/dev/null) in
            live@*) polled=1; break ;;
        esac
        sleep 0.1
    done
    sleep 5
    note "M2 $(rss_kb "$aux_pid" VmRSS) $(rss_kb "$aux_pid" VmHWM) ${polled:-0}"
    stop_pid "$aux_pid"; aux_pid=""
    stop_pid "$fake_pid"; fake_pid=""
fi

if wants startup; then
    echo "== startup: exec to first 200 from /health on the large data directory, $STARTUP_RUNS runs"
    PETTY_PROVIDERS=none python3 "$HELPERS/startup.py" "$STARTUP_RUNS" "$AUX_PORT" "$work/large" "$work" -- \
        "$RUN" serve --env production --port "$AUX_PORT" --log-level notice | tee "$work/startup.txt" | sed 's/^/   /'
    note "S $(grep STARTUP_MEDIAN "$work/startup.txt" | sed -E 's/.*ms=(-?[0-9]+).*/\1/') $(grep 'STARTUP run' "$work/startup.txt" | sed -E 's/.*ms=(-?[0-9]+) loaded_ms=(-?[0-9]+).*/\1\/\2/' | tr '\n' ' ')"
fi

if wants merge; then
    echo "== merge: PettyBench merge-nsw (in-process, release), $MERGE_RUNS runs each"
    "$BENCH" merge-nsw --payload "$NSW_PAYLOAD" --runs "$MERGE_RUNS" --base sample | tee "$work/merge-sample.txt" | sed 's/^/   /'
    "$BENCH" merge-nsw --payload "$NSW_PAYLOAD" --runs "$MERGE_RUNS" --base "$work/large" | tee "$work/merge-large.txt" | sed 's/^/   /'
    note "G $(grep MERGE_RESULT "$work/merge-sample.txt")"
    note "G $(grep MERGE_RESULT "$work/merge-large.txt")"
fi

if wants merge_load; then
    echo "== merge under load: station scenario for $MERGE_WINDOW with a full NSW poll inside, vs without; $ROUNDS rounds"
    start_fake "$FAKE_NSW_DELAY"
    for round in $(seq 1 "$ROUNDS"); do
        for kind in polls quiet; do
            rm -rf "$work/ml-data"; cp -a "$work/large" "$work/ml-data"
            if [ "$kind" = polls ]; then
                aux_pid=$(start_petty "$AUX_PORT" "$work/ml-data" "$work/ml-$kind-$round.log" "${nsw_env[@]}")
            else
                aux_pid=$(start_petty "$AUX_PORT" "$work/ml-data" "$work/ml-$kind-$round.log")
            fi
            wait_ready "$AUX_PORT" "$aux_pid" || { cat "$work/ml-$kind-$round.log"; echo "bench: server did not start" >&2; exit 1; }
            t0=$(date +%s.%N)
            line=$(run_wrk "http://127.0.0.1:$AUX_PORT/v1/stations/1" 64 "" "$MERGE_WINDOW")
            t1=$(date +%s.%N)
            polls=0; applied="-"
            if [ "$kind" = polls ]; then
                polls=$(awk -v a="$t0" -v b="$t1" '$3 >= a && $3 <= b {n++} END {print n + 0}' "$work/fake.log")
                applied=$(curl -fs "http://127.0.0.1:$AUX_PORT/health" | python3 "$HELPERS/nsw_poll_check.py" "$t0" "$t1")
            fi
            set -- $line
            note "L $kind $round $1 $2 $3 $4 $5 $polls $applied $(rss_kb "$aux_pid" VmHWM)"
            stop_pid "$aux_pid"; aux_pid=""
            echo "  merge_load $kind round $round: $line polls=$polls nsw=$applied ($(uptime | sed 's/.*load/load/'))" >&2
        done
    done
    stop_pid "$fake_pid"; fake_pid=""
fi

note "U end $(uptime)"
[ -n "${KEEP:-}" ] && cp "$results" "$work/results.keep.txt"

# ---------------------------------------------------------------------------------------------------------------
echo
python3 - "$results" "$THREADS" "$DURATION" "$ROUNDS" "$IDLE_CONNS" "$MERGE_WINDOW" <<'PY'
import statistics, sys
path, threads, duration, rounds, idle_conns, window = sys.argv[1:]
wrk, idle, loads, merges, merge_load = {}, {}, [], [], {}
memory = memory_poll = startup = dataset = command = None
petty_hwm = 0
for line in open(path):
    kind, _, rest = line.rstrip("\n").partition(" ")
    f = rest.split()
    if kind == "C": command = rest
    elif kind == "U": loads.append(rest)
    elif kind == "W":
        who, name, _, rps, p50, p99, errors, rss, worst = f
        wrk.setdefault((name, who), []).append((float(rps), float(p50), float(p99), int(errors), int(rss or 0), float(worst)))
    elif kind == "I": idle.setdefault(f[0], []).append(f[2:])
    elif kind == "P": petty_hwm = int(f[0] or 0)
    elif kind == "M": memory = (int(f[0]), int(f[1]))
    elif kind == "M2": memory_poll = (int(f[0]), int(f[1]), f[2] == "1")
    elif kind == "S": startup = (int(f[0]), f[1:])
    elif kind == "D": dataset = rest
    elif kind == "G": merges.append(dict(x.split("=", 1) for x in f[1:]))
    elif kind == "L": merge_load.setdefault(f[0], []).append(f[1:])

med = lambda xs, i: statistics.median(x[i] for x in xs)
verdict = lambda ok: "PASS" if ok else "MISS"
print(f"== command: {command}")
for l in loads: print(f"== load {l}")
if wrk: print(f"== wrk -t{threads} -d{duration}, {rounds} interleaved rounds (Petty, nginx, Petty, nginx, ...), medians; Petty on the bundled sample data")
targets = {
    "station": (0.8, "≥0.8×, p99≤1.5×"), "list": (0.5, "≥0.5×"), "near": (0.3, "≥0.3×"), "page": (0.5, "≥0.5×"),
    "summary": (0.7, "≥0.7×"), "advice": (0.7, "≥0.7×"), "sumnear": (0.3, "≥0.3× (random)"),
    "c1000": (0.8, "≥0.8×, 0 err"), "close": (0.7, "≥0.7×, 0 err"), "idle10k": (0.7, "≥0.7×, ≤150MB"),
}
header = f"{'scenario':<9}{'petty req/s':>12}{'nginx req/s':>12}{'ratio':>7}  {'target':<16}{'petty p50':>10}{'petty p99':>10}{'nginx p99':>10}{'errors':>7}{'petty RSS':>10}  verdict"
if wrk: print(header); print("-" * len(header))
names = list(dict.fromkeys(k[0] for k in wrk))
for name in names:
    p, n = wrk.get((name, "petty"), []), wrk.get((name, "nginx"), [])
    if not p or not n: continue
    prps, nrps = med(p, 0), med(n, 0)
    ratio = prps / nrps if nrps else 0
    errors = sum(x[3] for x in p)
    rss = max(x[4] for x in p) / 1024
    minimum, label = targets[name]
    ok = ratio >= minimum
    if name == "station": ok = ok and med(p, 2) <= 1.5 * med(n, 2)
    if name in ("c1000", "close", "idle10k"): ok = ok and errors == 0
    if name == "idle10k": ok = ok and rss <= 150
    print(f"{name:<9}{prps:>12.0f}{nrps:>12.0f}{ratio:>6.2f}×  {label:<16}{med(p, 1):>8.2f}ms{med(p, 2):>8.2f}ms{med(n, 2):>8.2f}ms{errors:>7}{rss:>8.0f}MB  {verdict(ok)}")
if idle:
    for who, rows in idle.items():
        desc = "; ".join(f"r{i + 1}: {r[0]} ok/{r[1]} failed, {r[2]} still open/{r[3]} closed after wrk, setup {r[5]}s, RSS {int(r[4]) // 1024} MB" for i, r in enumerate(rows))
        print(f"   idle10k {who}: {idle_conns} idle connections — {desc}" + (" (nginx: master+workers)" if who == "nginx" else ""))
if petty_hwm:
    print(f"   Petty (sample data) peak RSS over the wrk scenarios: {petty_hwm // 1024} MB")

extra = []
if dataset:
    print(f"== large data directory (SYNTHETIC-EXTENDED, see Benchmarks/README.md): {dataset.replace('LARGE_DATASET ', '')}")
if memory:
    rss, hwm = memory[0] / 1024, memory[1] / 1024
    extra.append(("memory", f"VmRSS {rss:.0f} MB (VmHWM {hwm:.0f} MB) idle, large dataset, no provider", "RSS ≤ 80 MB", verdict(rss <= 80)))
if memory_poll:
    rss, hwm, polled = memory_poll[0] / 1024, memory_poll[1] / 1024, memory_poll[2]
    extra.append(("memory after poll", f"VmRSS {rss:.0f} MB (VmHWM {hwm:.0f} MB) idle 5 s after one full NSW poll merged (fake provider)",
                  "RSS ≤ 80 MB", verdict(rss <= 80) if polled else "INVALID (no poll merged)"))
if startup:
    ms = startup[0]
    extra.append(("startup", f"median {ms} ms exec→/health 200 (runs ms/load ms: {' '.join(startup[1])})", "≤ 1000 ms", verdict(0 <= ms <= 1000)))
for m in merges:
    total = float(m["total"])
    steady = float(m["steady_adapt"]) + float(m["steady_apply"])
    desc = (f"poll on live data {steady:.0f} ms = adapt {float(m['steady_adapt']):.0f} + store apply {float(m['steady_apply']):.0f}"
            f" (merge, index, render, publish); first poll over sample data {total:.0f} ms = adapt {float(m['adapt']):.0f}"
            f" + merge {float(m['merge']):.0f} + index {float(m['index']):.0f} + full render {float(m['render']):.0f}; peak RSS +{int(m['delta_kb']) // 1024} MB")
    extra.append((f"merge ({m['base']}, {m['stations']} st.)", desc, "≤ 150 ms", verdict(steady <= 150)))
if merge_load:
    polls, quiet = merge_load.get("polls", []), merge_load.get("quiet", [])
    if polls and quiet:
        pp99 = statistics.median(float(r[3]) for r in polls); qp99 = statistics.median(float(r[3]) for r in quiet)
        pmax = statistics.median(float(r[5]) for r in polls); qmax = statistics.median(float(r[5]) for r in quiet)
        prps = statistics.median(float(r[1]) for r in polls); qrps = statistics.median(float(r[1]) for r in quiet)
        errors = sum(int(r[4]) for r in polls + quiet)
        seen = sum(int(r[6]) for r in polls); inside = sum(1 for r in polls if r[7].endswith("@in"))
        ratio = pp99 / qp99 if qp99 else 0
        desc = (f"p99 {pp99:.2f} ms with polls vs {qp99:.2f} ms without = {ratio:.2f}× (max {pmax:.0f} vs {qmax:.0f} ms; "
                f"{prps:.0f} vs {qrps:.0f} req/s; {errors} errors); {seen} full NSW payloads served inside the {window} windows, "
                f"nsw live merge finished inside in {inside}/{len(polls)} rounds")
        valid = seen >= len(polls) and inside == len(polls)
        extra.append(("merge under load", desc, "p99 ≤ 2×", verdict(ratio <= 2) if valid else "INVALID (no poll in window)"))
if extra:
    print()
    width = max(len(e[0]) for e in extra)
    for name, desc, target, v in extra:
        print(f"{name:<{width}}  {v:<5} target {target:<12} {desc}")
PY
