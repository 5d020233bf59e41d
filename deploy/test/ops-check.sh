#!/usr/bin/env bash
# Proves the shipped deploy configs with the real programs, on loopback only:
# builds the release binary, renders deploy/nginx/* and deploy/supervisor/* into a temp dir with sed
# (paths, high ports, the current user), runs the real supervisord and nginx, and checks what ops rely on.
#
#   bash deploy/test/ops-check.sh
#
# Needs: swift, nginx, supervisord/supervisorctl, curl, openssl, ss. Prints a `check | result` table and
# `N passed, N failed` as the last line; exits 1 if anything failed. SKIP lines are neither.
# After the build, the checks are bounded by OPS_TIME_LIMIT seconds (default 170). Everything it starts is
# stopped by pid and the temp dir removed on exit (OPS_KEEP=1 keeps the dir for debugging).
# OPS_DATA_SEED=<dir>: copied into the data dir before the first start, so the "same data" checks have data.
#
# Differences from production, all made by sed on copies: user= is the current user (root in CI), HOME and
# logs live in the temp dir, nginx listens on 127.0.0.1 high ports (no [::] listens), the certificate is a
# fresh self-signed one, provider base URLs point at 127.0.0.1:9 (nothing leaves the machine).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEPLOY=$ROOT/deploy
TIME_LIMIT=${OPS_TIME_LIMIT:-170}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/petty-ops.XXXXXX")
ME=$(id -un)
PASSED=0 FAILED=0
RESULTS=()
exec 3>&1 4>&2
SUP_PID="" NGX_PID="" WATCHDOG="" FINISHED=0 BIN_REAL="" APP_PORT="" MULTI_PORTS=()

pass() { RESULTS+=("$1|PASS${2:+ ($2)}"); PASSED=$((PASSED + 1)); }
fail() { RESULTS+=("$1|FAIL${2:+ ($2)}"); FAILED=$((FAILED + 1)); }
skip() { RESULTS+=("$1|SKIP${2:+ ($2)}"); }
note() { echo "ops-check: $*" >&2; }

# --- cleanup and report ------------------------------------------------------------------------------

server_pids() { # every live process running our binary (resolved path), optionally only those with a port flag
    local pid exe
    [ -n "$BIN_REAL" ] || return 0
    for pid in $(ls /proc | grep -E '^[0-9]+$'); do
        exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || continue
        [ "$exe" = "$BIN_REAL" ] || continue
        if [ -n "${1:-}" ] && ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "--port $1\b"; then continue; fi
        echo "$pid"
    done
}

stop_pid() { # TERM, wait up to $2 s, then KILL
    local pid=$1 limit=${2:-10} i
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < limit * 10; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    { wait "$pid"; } 2>/dev/null
    return 0
}

cleanup() {
    [ -n "$WATCHDOG" ] && kill "$WATCHDOG" 2>/dev/null
    { wait "$WATCHDOG"; } 2>/dev/null
    WATCHDOG=""
    stop_pid "$NGX_PID" 5; NGX_PID=""
    stop_pid "$SUP_PID" 20; SUP_PID=""   # supervisord stops its programs (TERM, then KILL after stopwaitsecs)
    local pid
    local port
    for port in $APP_PORT "${MULTI_PORTS[@]}"; do
        for pid in $(server_pids "$port"); do note "killing leftover server pid $pid"; kill -KILL "$pid" 2>/dev/null; done
    done
    if [ "${OPS_KEEP:-0}" = 1 ]; then note "kept $TMP"; else rm -rf "$TMP"; fi
}

finish() {
    [ "$FINISHED" = 1 ] && return
    FINISHED=1
    exec 1>&3 2>&4   # a trap can fire inside a command whose output goes to /dev/null
    if [ "$FAILED" -gt 0 ] && [ -d "$TMP/log" ]; then
        for f in petty.err.log petty.out.log supervisord.log nginx-error.log; do
            [ -s "$TMP/log/$f" ] && { echo "---- tail $f" >&2; tail -n 15 "$TMP/log/$f" >&2; }
        done
    fi
    cleanup
    echo
    printf '%-62s | %s\n' "check" "result"
    printf '%-62s-+-%s\n' "$(printf '%.0s-' {1..62})" "------"
    local row
    for row in "${RESULTS[@]}"; do printf '%-62s | %s\n' "${row%%|*}" "${row#*|}"; done
    echo "$PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ]
    exit $?
}

on_signal() { fail "finished within the time limit" "stopped after ${TIME_LIMIT}s or interrupted"; finish; }
trap on_signal TERM INT
trap finish EXIT

# --- helpers -----------------------------------------------------------------------------------------

port_free() { ! ss -ltnH "sport = :$1" 2>/dev/null | grep -q .; }

free_port() {
    local p
    for p in $(shuf -i 20000-59999 -n 100); do port_free "$p" && { echo "$p"; return; }; done
    echo 0
}

wait_for() { # seconds, command...: polls every 0.2 s
    local limit=$1 i; shift
    for ((i = 0; i < limit * 5; i++)); do "$@" && return 0; sleep 0.2; done
    return 1
}

ctl() { supervisorctl -c "$TMP/supervisord.conf" "$@"; }
state() { ctl status "$1" 2>/dev/null | awk '{print $2}'; }
is_running() { [ "$(state "${1:-petty}")" = RUNNING ]; }
sup_pid() { ctl pid "${1:-petty}" 2>/dev/null | tr -dc '0-9'; }

# http <url> [curl args...]: sets CODE, BODY (file $TMP/body) and HEADERS (file $TMP/headers).
http() {
    local url=$1; shift
    CODE=$(curl -sk --max-time 5 -o "$TMP/body" -D "$TMP/headers" -w '%{http_code}' "$@" "$url" 2>/dev/null) || true
    [ -n "$CODE" ] || CODE=000
}
header() { grep -i "^$1:" "$TMP/headers" | head -n 1 | cut -d: -f2- | tr -d '\r' | sed 's/^ *//'; }

APP() { http "http://127.0.0.1:$APP_PORT$1" "${@:2}"; }
WEB() { http "https://127.0.0.1:$HTTPS_PORT$1" "${@:2}"; }

# /health also reports times, poll attempts and failures that change from call to call; the data it describes
# (station and price counts, per state) must be the same after a restart.
normalise_health() {
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"stations": d.get("stations"), "prices": d.get("prices"), "states": d.get("states")}, sort_keys=True))' 2>/dev/null || echo unparsable
}

# snapshot <name>: records /v1/stations/1 and /health from the app as $TMP/snap-<name>.{station,health,codes}
snapshot() {
    APP /v1/stations/1; local sc=$CODE; cp "$TMP/body" "$TMP/snap-$1.station"
    APP /health; local hc=$CODE; normalise_health <"$TMP/body" >"$TMP/snap-$1.health"
    echo "$sc $hc" >"$TMP/snap-$1.codes"
}

# same_data <label> <before> <after>
same_data() {
    local label=$1 a=$2 b=$3 sa ha sb hb
    read -r sa ha <"$TMP/snap-$a.codes"; read -r sb hb <"$TMP/snap-$b.codes"
    if [ "$sa" = 404 ] || [ "$sb" = 404 ]; then
        skip "$label: GET /v1/stations/1 unchanged" "endpoint not present yet (404)"
    elif [ "$sa" = 200 ] && [ "$sb" = 200 ] && cmp -s "$TMP/snap-$a.station" "$TMP/snap-$b.station"; then
        pass "$label: GET /v1/stations/1 unchanged"
    else
        fail "$label: GET /v1/stations/1 unchanged" "status $sa -> $sb, bodies $(cmp -s "$TMP/snap-$a.station" "$TMP/snap-$b.station" && echo equal || echo differ)"
    fi
    if [ "$ha" = 404 ] || [ "$hb" = 404 ]; then
        skip "$label: GET /health counts unchanged" "endpoint not present yet (404)"
    elif [ "$ha" = 200 ] && [ "$hb" = 200 ] && cmp -s "$TMP/snap-$a.health" "$TMP/snap-$b.health"; then
        pass "$label: GET /health counts unchanged (stations, prices, per state)"
    else
        fail "$label: GET /health counts unchanged" "status $ha -> $hb: $(cat "$TMP/snap-$a.health") -> $(cat "$TMP/snap-$b.health")"
    fi
}

# --- 1. build ----------------------------------------------------------------------------------------

for tool in swift nginx supervisord supervisorctl curl openssl ss shuf; do
    command -v "$tool" >/dev/null || { fail "tool '$tool' installed"; exit 1; }
done

note "building release binary (swift build -c release --product Run)"
if (cd "$ROOT" && swift build -c release --product Run >"$TMP/build.log" 2>&1); then
    pass "swift build -c release --product Run"
else
    tail -n 30 "$TMP/build.log" >&2
    fail "swift build -c release --product Run"; exit 1
fi
BIN_REAL=$(readlink -f "$ROOT/.build/release/Run")

# The checks are bounded from here on; the watchdog TERMs this shell, whose trap reports and cleans up.
( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep "$TIME_LIMIT" & s=$!; wait $s; kill -TERM $$ ) &
WATCHDOG=$!

# --- 2. render the shipped configs into the temp dir --------------------------------------------------

APP_PORT=$(free_port); HTTP_PORT=$(free_port); HTTPS_PORT=$(free_port)
MULTI_PREFIX="" MULTI_PORTS=()
for _ in $(seq 50); do # petty-multi.conf's ports are 808<n>; here <prefix>0 and <prefix>1
    p=$((RANDOM % 4000 + 2000))
    if port_free "${p}0" && port_free "${p}1"; then MULTI_PREFIX=$p; MULTI_PORTS=("${p}0" "${p}1"); break; fi
done
mkdir -p "$TMP"/{log,etc,conf.d,home,data,acme/.well-known/acme-challenge,tls,nginx/tmp,public/css,public/.well-known}
note "temp dir $TMP; app :$APP_PORT, nginx http :$HTTP_PORT https :$HTTPS_PORT"

# Public/: a page, a stylesheet, a JSON file big enough to gzip, universal links, a dotfile that must stay private.
echo "petty ops-check static $$" >"$TMP/public/ops-check.txt"
echo "body { color: #123; }" >"$TMP/public/css/ops.css"
{ printf '['; for i in $(seq 100); do printf '{"id":%d,"name":"station %d"},' "$i" "$i"; done; printf '{"id":0}]\n'; } >"$TMP/public/data.json"
echo '{"applinks":{"details":[]}}' >"$TMP/public/.well-known/apple-app-site-association"
echo "SECRET=1" >"$TMP/public/.env"
echo "acme-token" >"$TMP/acme/.well-known/acme-challenge/token1"
[ -n "${OPS_DATA_SEED:-}" ] && cp -a "$OPS_DATA_SEED"/. "$TMP/data/"

# Environment file: the shipped example with test values; secrets stay empty, providers go nowhere.
sed -e "s#^PETTY_HOSTNAME=.*#PETTY_HOSTNAME=127.0.0.1#" \
    -e "s#^PETTY_PORT=.*#PETTY_PORT=$APP_PORT#" \
    -e "s#^PETTY_DATA_DIR=.*#PETTY_DATA_DIR=$TMP/data#" \
    -e "s#^PETTY_PUBLIC_DIR=.*#PETTY_PUBLIC_DIR=$TMP/public#" \
    -e "s#^PETTY_PROVIDERS=.*#PETTY_PROVIDERS=#" \
    -e "s#^\(PETTY_[A-Z]*_BASE_URL\)=.*#\1=http://127.0.0.1:9#" \
    "$DEPLOY/env/petty.env.example" >"$TMP/etc/petty.env"
chmod 600 "$TMP/etc/petty.env"
if (set -a; . "$TMP/etc/petty.env") 2>"$TMP/env.err"; then pass "petty.env.example is valid sh"; else fail "petty.env.example is valid sh" "$(head -c 120 "$TMP/env.err")"; fi

render_program() { # shipped supervisor file -> test copy
    sed -e "s#/etc/petty/petty.env#$TMP/etc/petty.env#g" \
        -e "s#/srv/petty#$ROOT#g" \
        -e "s#/var/log/supervisor/#$TMP/log/#g" \
        -e "s#^user=petty#user=$ME#" \
        -e "s#HOME=\"/var/lib/petty\"#HOME=\"$TMP/home\"#" \
        -e "s#USER=\"petty\",LOGNAME=\"petty\"#USER=\"$ME\",LOGNAME=\"$ME\"#" \
        -e "s#808%(process_num)d#${MULTI_PREFIX}%(process_num)d#g" \
        "$1"
}
render_program "$DEPLOY/supervisor/petty.conf" >"$TMP/conf.d/petty.conf"

cat >"$TMP/supervisord.conf" <<EOF
[unix_http_server]
file=$TMP/supervisor.sock
chmod=0700

[supervisord]
logfile=$TMP/log/supervisord.log
pidfile=$TMP/supervisord.pid
childlogdir=$TMP/log
nodaemon=true

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[supervisorctl]
serverurl=unix://$TMP/supervisor.sock

[include]
files=$TMP/conf.d/*.conf
EOF

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
    -keyout "$TMP/tls/privkey.pem" -out "$TMP/tls/fullchain.pem" >/dev/null 2>&1

sed -e "s#/srv/petty/Public#$TMP/public#g" "$DEPLOY/nginx/petty-locations.conf" >"$TMP/nginx/petty-locations.conf"
sed -e "s#^\( *\)listen 80;#\1listen 127.0.0.1:$HTTP_PORT;#" \
    -e "s#^\( *\)listen 443 ssl#\1listen 127.0.0.1:$HTTPS_PORT ssl#" \
    -e "/listen \[::\]/d" \
    -e "s#server 127.0.0.1:8080 #server 127.0.0.1:$APP_PORT #" \
    -e "s#/etc/letsencrypt/live/petty.example.com/#$TMP/tls/#g" \
    -e "s#/var/www/letsencrypt#$TMP/acme#g" \
    -e "s#/var/log/nginx/#$TMP/log/nginx-#g" \
    -e "s#/etc/nginx/snippets/petty-locations.conf#$TMP/nginx/petty-locations.conf#g" \
    "$DEPLOY/nginx/petty.conf" >"$TMP/nginx/petty.conf"

{
    [ "$(id -u)" = 0 ] && echo "user root;   # workers must read the 0700 temp dir"
    cat <<EOF
worker_processes 1;
daemon off;
pid $TMP/nginx/nginx.pid;
error_log $TMP/log/nginx-error.log warn;
events { worker_connections 256; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log $TMP/log/nginx-access.log;
    client_body_temp_path $TMP/nginx/tmp/body;
    proxy_temp_path $TMP/nginx/tmp/proxy;
    fastcgi_temp_path $TMP/nginx/tmp/fastcgi;
    uwsgi_temp_path $TMP/nginx/tmp/uwsgi;
    scgi_temp_path $TMP/nginx/tmp/scgi;
    include $TMP/nginx/petty.conf;
}
EOF
} >"$TMP/nginx/nginx.conf"
NGX_FLAGS=(-p "$TMP/nginx/" -c "$TMP/nginx/nginx.conf")
nginx -h 2>&1 | grep -q -- ' -e filename' && NGX_FLAGS+=(-e "$TMP/log/nginx-error.log")

# --- 3. nginx -t and start both -------------------------------------------------------------------------

if nginx -t "${NGX_FLAGS[@]}" >"$TMP/nginx-t.log" 2>&1; then
    pass "nginx -t (shipped site + snippet, self-signed cert)"
else
    fail "nginx -t (shipped site + snippet, self-signed cert)" "$(grep -m1 emerg "$TMP/nginx-t.log")"
fi

# The first-certificate site (HTTP only) must be valid on its own too.
sed -e "s#^\( *\)listen 80;#\1listen 127.0.0.1:$HTTP_PORT;#" -e "/listen \[::\]/d" -e "s#/var/www/letsencrypt#$TMP/acme#g" \
    "$DEPLOY/nginx/petty-bootstrap.conf" >"$TMP/nginx/petty-bootstrap.conf"
sed -e "s#include $TMP/nginx/petty.conf;#include $TMP/nginx/petty-bootstrap.conf;#" "$TMP/nginx/nginx.conf" >"$TMP/nginx/nginx-bootstrap.conf"
if nginx -t -p "$TMP/nginx/" -c "$TMP/nginx/nginx-bootstrap.conf" "${NGX_FLAGS[@]:4}" >"$TMP/nginx-t-bootstrap.log" 2>&1; then
    pass "nginx -t (petty-bootstrap.conf, before the certificate)"
else
    fail "nginx -t (petty-bootstrap.conf, before the certificate)" "$(grep -m1 emerg "$TMP/nginx-t-bootstrap.log")"
fi

supervisord -c "$TMP/supervisord.conf" </dev/null >"$TMP/log/supervisord.console" 2>&1 3>&- 4>&- &
SUP_PID=$!
nginx "${NGX_FLAGS[@]}" </dev/null >"$TMP/log/nginx.console" 2>&1 3>&- 4>&- &
NGX_PID=$!

if wait_for 20 is_running; then pass "supervisorctl status petty: RUNNING"; else fail "supervisorctl status petty: RUNNING" "$(state petty)"; fi
wait_for 5 bash -c "ss -ltnH 'sport = :$APP_PORT' | grep -q ." || true
PID1=$(sup_pid)

# The wrapper execs run.sh, which execs the binary: supervisor's pid is the server, leading its own group.
if [ -n "$PID1" ] && [ "$(readlink "/proc/$PID1/exe" 2>/dev/null)" = "$BIN_REAL" ]; then
    pass "supervisor's pid is the server itself (sh and run.sh exec'd)"
else
    fail "supervisor's pid is the server itself (sh and run.sh exec'd)" "pid $PID1 is $(readlink "/proc/${PID1:-0}/exe" 2>/dev/null)"
fi
if [ -n "$PID1" ] && [ "$(ps -o pgid= -p "$PID1" | tr -d ' ')" = "$PID1" ]; then
    pass "server leads its own process group (stopasgroup)"
else
    fail "server leads its own process group (stopasgroup)"
fi
ENV_OK=$(tr '\0' '\n' <"/proc/${PID1:-0}/environ" 2>/dev/null | grep -c "^PETTY_DATA_DIR=$TMP/data$")
if [ "$ENV_OK" = 1 ]; then pass "env file reaches the server (PETTY_DATA_DIR)"; else fail "env file reaches the server (PETTY_DATA_DIR)"; fi

wait_for 10 bash -c "ss -ltnH 'sport = :$HTTPS_PORT' | grep -q ." || true

# --- 4. nginx in front ----------------------------------------------------------------------------------

WEB /health
if [ "$CODE" = 200 ]; then pass "GET /health via nginx (HTTPS) proxied: 200"; else fail "GET /health via nginx (HTTPS) proxied: 200" "got $CODE"; fi
if [ -z "$(header Server | grep -E '[0-9]')" ] && header Server | grep -qx nginx; then
    pass "server_tokens off (Server: nginx, no version)"
else
    fail "server_tokens off (Server: nginx, no version)" "Server: $(header Server)"
fi
if header Strict-Transport-Security | grep -q max-age; then pass "HSTS on proxied responses"; else fail "HSTS on proxied responses"; fi

http "http://127.0.0.1:$HTTP_PORT/v1/stations?x=1"
if [ "$CODE" = 301 ] && header Location | grep -q '^https://.*/v1/stations?x=1$'; then
    pass "HTTP redirects to HTTPS (301, path and query kept)"
else
    fail "HTTP redirects to HTTPS (301, path and query kept)" "got $CODE $(header Location)"
fi
http "http://127.0.0.1:$HTTP_PORT/.well-known/acme-challenge/token1"
if [ "$CODE" = 200 ] && grep -q acme-token "$TMP/body"; then pass "ACME challenge served over HTTP (no redirect)"; else fail "ACME challenge served over HTTP (no redirect)" "got $CODE"; fi

WEB /ops-check.txt
if [ "$CODE" = 200 ] && grep -q "ops-check static $$" "$TMP/body"; then pass "static file from Public/ via nginx"; else fail "static file from Public/ via nginx" "got $CODE"; fi
WEB /css/ops.css
if [ "$CODE" = 200 ] && header Cache-Control | grep -q 'max-age=604800'; then
    pass "static asset cached a week (Cache-Control max-age=604800)"
else
    fail "static asset cached a week (Cache-Control max-age=604800)" "got $CODE, Cache-Control: $(header Cache-Control)"
fi
WEB /data.json -H 'Accept-Encoding: gzip'
if [ "$CODE" = 200 ] && header Content-Encoding | grep -q gzip; then pass "gzip for application/json"; else fail "gzip for application/json" "got $CODE, Content-Encoding: $(header Content-Encoding)"; fi
WEB /.well-known/apple-app-site-association
if [ "$CODE" = 200 ] && header Content-Type | grep -q '^application/json'; then
    pass "apple-app-site-association: 200 application/json"
else
    fail "apple-app-site-association: 200 application/json" "got $CODE, $(header Content-Type)"
fi
WEB /.env
if [ "$CODE" = 404 ]; then pass "dotfiles in Public/ are not served (404)"; else fail "dotfiles in Public/ are not served (404)" "got $CODE"; fi
# The internal endpoints answer loopback, and nginx connects from loopback: only nginx's own 404 keeps them private.
for path in /internal/v1/dataset /metrics; do
    WEB "$path"
    if [ "$CODE" = 404 ] && ! grep -q petty_ "$TMP/body"; then pass "$path not served through nginx (404)"; else fail "$path not served through nginx (404)" "got $CODE"; fi
done

# One request line per request in supervisor's stdout log, with the client nginx forwarded.
MARK="ops-check-$$-$RANDOM"
for i in 1 2 3; do WEB "/$MARK" -H "X-Forwarded-For: 203.0.113.77"; done
count_lines() { [ "$(grep -c "/$MARK " "$TMP/log/petty.out.log" 2>/dev/null)" = 3 ]; }
if wait_for 5 count_lines; then
    pass "request log: one line per request (3 requests, 3 lines)"
    if grep "/$MARK " "$TMP/log/petty.out.log" | grep -q "203.0.113.77 GET"; then
        pass "request log shows the client from X-Forwarded-For"
    else
        skip "request log shows the client from X-Forwarded-For" "logs the peer; TrustedProxyMiddleware not wired in App yet"
    fi
else
    fail "request log: one line per request (3 requests, 3 lines)" "$(grep -c "/$MARK " "$TMP/log/petty.out.log" 2>/dev/null) lines"
fi

# Rate limit: 60 back-to-back requests on one keep-alive connection; burst 20 at 10 r/s must overflow.
# (-o pairs with the URL after it; one -o for 60 URLs would print 59 bodies)
urls=(); for i in $(seq 60); do urls+=(-o /dev/null "https://127.0.0.1:$HTTPS_PORT/v1/ops-check-burst"); done
curl -sk --max-time 20 -w '%{http_code}\n' "${urls[@]}" >"$TMP/burst" 2>/dev/null
n429=$(grep -c '^429$' "$TMP/burst"); nother=$(grep -vc '^429$' "$TMP/burst")
if [ "$n429" -gt 0 ] && [ "$nother" -ge 20 ]; then
    pass "/v1/ burst is rate limited with 429" "$nother answered, $n429 limited"
else
    fail "/v1/ burst is rate limited with 429" "$nother answered, $n429 limited"
fi
urls=(); for i in $(seq 60); do urls+=(-o /dev/null "https://127.0.0.1:$HTTPS_PORT/health"); done
curl -sk --max-time 20 -w '%{http_code}\n' "${urls[@]}" >"$TMP/burst-health" 2>/dev/null
if [ "$(grep -c '^200$' "$TMP/burst-health")" = 60 ]; then pass "/health is not rate limited (60 of 60 answered 200)"; else fail "/health is not rate limited (60 of 60 answered 200)" "$(sort "$TMP/burst-health" | uniq -c | tr -s ' \n' ' ')"; fi

# --- 5. supervisor lifecycle ----------------------------------------------------------------------------

snapshot before
ctl restart petty >/dev/null 2>&1
PID2=$(sup_pid)
if is_running && [ -n "$PID2" ] && [ "$PID2" != "$PID1" ] && ! kill -0 "$PID1" 2>/dev/null; then
    pass "supervisorctl restart petty: RUNNING with a new pid"
else
    fail "supervisorctl restart petty: RUNNING with a new pid" "state $(state petty), pid $PID1 -> $PID2"
fi
wait_for 5 bash -c "curl -s -o /dev/null --max-time 1 http://127.0.0.1:$APP_PORT/health" || true
snapshot restarted
same_data "after restart" before restarted

ctl stop petty >/dev/null 2>&1
if [ "$(state petty)" = STOPPED ] && [ -z "$(server_pids "$APP_PORT")" ]; then
    pass "supervisorctl stop petty: no server process left"
else
    fail "supervisorctl stop petty: no server process left" "state $(state petty), pids $(server_pids "$APP_PORT" | tr '\n' ' ')"
fi
if grep 'stopped: petty ' "$TMP/log/supervisord.log" | tail -n 1 | grep -q "(exit status 0)"; then
    pass "TERM drains and exits 0 (no KILL needed)"
else
    fail "TERM drains and exits 0 (no KILL needed)" "$(grep 'stopped: petty' "$TMP/log/supervisord.log" | tail -n 1 | cut -c1-80)"
fi
if port_free "$APP_PORT"; then pass "port $APP_PORT is free after stop (ss -ltn)"; else fail "port $APP_PORT is free after stop (ss -ltn)"; fi

# With the app down, nginx still serves Public/ by itself, and the API answers 502.
WEB /ops-check.txt
if [ "$CODE" = 200 ] && grep -q "ops-check static $$" "$TMP/body"; then pass "static file served by nginx itself (app stopped)"; else fail "static file served by nginx itself (app stopped)" "got $CODE"; fi
WEB /health
if [ "$CODE" = 502 ]; then pass "/health via nginx is 502 while the app is stopped"; else fail "/health via nginx is 502 while the app is stopped" "got $CODE"; fi

ctl start petty >/dev/null 2>&1
PID3=$(sup_pid)
if is_running && [ -n "$PID3" ]; then pass "supervisorctl start petty: RUNNING"; else fail "supervisorctl start petty: RUNNING" "$(state petty)"; fi
wait_for 5 bash -c "curl -s -o /dev/null --max-time 1 http://127.0.0.1:$APP_PORT/health" || true
snapshot started

kill -KILL "$PID3" 2>/dev/null
restarted_after_kill() { local p; p=$(sup_pid); is_running && [ -n "$p" ] && [ "$p" != 0 ] && [ "$p" != "$PID3" ]; }
if wait_for 20 restarted_after_kill; then
    pass "kill -9 of the server: supervisor restarts it (new pid)"
else
    fail "kill -9 of the server: supervisor restarts it (new pid)" "state $(state petty), pid $(sup_pid)"
fi
wait_for 5 bash -c "curl -s -o /dev/null --max-time 1 http://127.0.0.1:$APP_PORT/health" || true
WEB /health
if [ "$CODE" = 200 ]; then pass "GET /health via nginx after kill -9: 200"; else fail "GET /health via nginx after kill -9: 200" "got $CODE"; fi
snapshot killed
same_data "after kill -9" started killed

# --- 6. several instances (petty-multi.conf) via reread/update -----------------------------------------

if [ -z "$MULTI_PREFIX" ]; then
    fail "petty-multi.conf: free ports found"
else
    render_program "$DEPLOY/supervisor/petty-multi.conf" >"$TMP/conf.d/petty.conf"
    ctl reread >/dev/null 2>&1; ctl update >/dev/null 2>&1
    multi_up() { is_running petty:petty-0 && is_running petty:petty-1; }
    if wait_for 20 multi_up; then
        pass "petty-multi.conf: reread/update starts petty:petty-0 and -1"
    else
        fail "petty-multi.conf: reread/update starts petty:petty-0 and -1" "$(ctl status 'petty:*' 2>&1 | awk '{print $1, $2}' | tr '\n' ' ')"
    fi
    ok=0
    for port in "${MULTI_PORTS[@]}"; do
        wait_for 5 bash -c "curl -s -o /dev/null --max-time 1 http://127.0.0.1:$port/health" && ok=$((ok + 1))
    done
    if [ "$ok" = 2 ]; then pass "each instance answers on its own port (${MULTI_PORTS[*]})"; else fail "each instance answers on its own port (${MULTI_PORTS[*]})" "$ok of 2"; fi
    ctl stop 'petty:*' >/dev/null 2>&1
    if [ -z "$(server_pids "${MULTI_PORTS[0]}")$(server_pids "${MULTI_PORTS[1]}")" ]; then
        pass "supervisorctl stop 'petty:*' stops every instance"
    else
        fail "supervisorctl stop 'petty:*' stops every instance"
    fi
fi

finish
