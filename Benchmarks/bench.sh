#!/usr/bin/env bash
# Side-by-side HTTP benchmark: Petty vs nginx serving the very same response bytes as static files,
# interleaved round by round (server, nginx, server, nginx, ...), medians reported.
#
#   Benchmarks/bench.sh                 # every scenario, 3 rounds of 5 s
#   ROUNDS=5 DURATION=10s Benchmarks/bench.sh
#   SCENARIOS="station list" Benchmarks/bench.sh
#
# Needs wrk, nginx and curl (apt-get install -y wrk nginx curl). Loopback only; cleans up after itself.
set -euo pipefail
cd "$(dirname "$0")/.."

ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
THREADS=${THREADS:-2}
PETTY_PORT=${PETTY_BENCH_PORT:-18181}
NGINX_PORT=${NGINX_BENCH_PORT:-18182}
work=$(mktemp -d /tmp/petty-bench.XXXXXX)
chmod 755 "$work"
server_pid=""
nginx_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true
    [ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT

for tool in wrk nginx curl python3; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is required (apt-get install -y wrk nginx curl)" >&2; exit 2; }
done

# name | path | connections | extra wrk args
all_scenarios=(
    "station|/v1/stations/1|64|"
    "list|/v1/stations?state=NSW&limit=50|64|"
    "near|/v1/stations?near=-33.8688,151.2093&radius_km=5&fuel=U91&sort=price|64|"
    "page|/stations/1|64|"
    "c1000|/v1/stations/1|1000|"
    "close|/v1/stations/1|64|close"
)
selected=${SCENARIOS:-"station list near page c1000 close"}

echo "== building release"
swift build -c release --product Run >/dev/null
mkdir -p "$work/data" "$work/www"
.build/release/Run serve --env production --port "$PETTY_PORT" --data-dir "$work/data" --log-level warning >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PETTY_PORT/health" >/dev/null 2>&1 && break; sleep 0.1; done

# nginx serves each scenario's bytes, captured from the server, as a static file with the same content type.
cat >"$work/nginx.conf" <<NGINX
worker_processes $THREADS;
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
        listen 127.0.0.1:$NGINX_PORT reuseport;
        root $work/www;
        location ~ \.html$ { default_type "text/html; charset=utf-8"; }
        location / { default_type "application/json; charset=utf-8"; }
    }
}
NGINX
mkdir -p "$work/tmp"
for entry in "${all_scenarios[@]}"; do
    IFS='|' read -r name path _ _ <<<"$entry"
    ext=$([ "$name" = page ] && echo html || echo json)
    curl -fs -H 'Accept: text/html' "http://127.0.0.1:$PETTY_PORT$path" -o "$work/www/$name.$ext" || echo "warning: $path did not answer 200" >&2
done
nginx -c "$work/nginx.conf" -g 'daemon off;' &
nginx_pid=$!
sleep 0.5

run_wrk() { # url connections mode(close|html|"") -> "rps p50_ms p99_ms errors"
    local url=$1 conns=$2 mode=$3
    local args=(-t"$THREADS" -c"$conns" -d"$DURATION" --latency)
    case "$mode" in
        *close*) args+=(-H "Connection: close") ;;
    esac
    case "$mode" in
        *html*) args+=(-H "Accept: text/html") ;;
    esac
    wrk "${args[@]}" "$url" 2>&1 | python3 -c '
import re, sys
text = sys.stdin.read()
if "Requests/sec" not in text:
    sys.stderr.write(text[-400:]); print("0 0 0 1"); sys.exit()
def ms(v):
    n = float(re.match(r"[\d.]+", v).group()); u = v[len(re.match(r"[\d.]+", v).group()):]
    return n * {"us": 0.001, "ms": 1, "s": 1000}.get(u, 1)
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
p50 = ms(re.search(r"50%\s+(\S+)", text).group(1)); p99 = ms(re.search(r"99%\s+(\S+)", text).group(1))
errors = sum(int(x) for x in re.findall(r"(?:connect|read|write|timeout) (\d+)", text))
m = re.search(r"Non-2xx or 3xx responses: (\d+)", text); errors += int(m.group(1)) if m else 0
print(f"{rps:.0f} {p50:.2f} {p99:.2f} {errors}")'
}

rss_kb() { awk '/VmHWM/ {print $2}' "/proc/$1/status"; }

results="$work/results.txt"
: >"$results"
for name in $selected; do
    for entry in "${all_scenarios[@]}"; do
        IFS='|' read -r sname path conns extra <<<"$entry"
        [ "$sname" = "$name" ] || continue
        ext=$([ "$name" = page ] && echo html || echo json)
        for round in $(seq 1 "$ROUNDS"); do
            mode=$extra
            [ "$name" = page ] && mode="$mode html"
            echo "petty $name $round $(run_wrk "http://127.0.0.1:$PETTY_PORT$path" "$conns" "$mode")" >>"$results"
            echo "nginx $name $round $(run_wrk "http://127.0.0.1:$NGINX_PORT/$name.$ext" "$conns" "$extra")" >>"$results"
            echo "  $name round $round done" >&2
        done
    done
done

echo
echo "wrk -t$THREADS -d$DURATION, $ROUNDS interleaved rounds, medians; Petty peak RSS $(( $(rss_kb "$server_pid") / 1024 )) MB"
python3 - "$results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    who, name, _, rps, p50, p99, errors = line.split()
    rows.setdefault((name, who), []).append((float(rps), float(p50), float(p99), int(errors)))
names = list(dict.fromkeys(k[0] for k in rows))
print(f"{'scenario':<10}{'petty req/s':>13}{'nginx req/s':>13}{'ratio':>8}{'petty p50':>11}{'petty p99':>11}{'nginx p99':>11}{'errors':>8}")
for name in names:
    p = rows[(name, "petty")]; n = rows[(name, "nginx")]
    med = lambda xs, i: statistics.median(x[i] for x in xs)
    prps, nrps = med(p, 0), med(n, 0)
    print(f"{name:<10}{prps:>13.0f}{nrps:>13.0f}{prps / nrps:>8.2f}{med(p, 1):>9.2f}ms{med(p, 2):>9.2f}ms{med(n, 2):>9.2f}ms{sum(x[3] for x in p):>8}")
PY
