#!/usr/bin/env bash
# One leader and two followers behind a real nginx upstream, on loopback:
# all three serve the same data, and the followers keep serving when the leader is killed.
# Bounded (about 30 s after the build), cleans up by pid. Last line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)

work=$(mktemp -d /tmp/petty-lf.XXXXXX)
chmod 755 "$work"
pids=()
nginx_pid=""
passed=0
failed=0
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
check() { # name, command...
    local name=$1; shift
    if "$@"; then echo "PASS | $name"; passed=$((passed + 1)); else echo "FAIL | $name"; failed=$((failed + 1)); fi
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_ready() { for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$1/health" >/dev/null 2>&1 && return 0; sleep 0.1; done; return 1; }

swift build -c release --product Run >/dev/null || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
BIN=$ROOT/.build/release/Run
LEADER=$(free_port); F1=$(free_port); F2=$(free_port); NGINX=$(free_port)

PETTY_PROVIDERS=none "$BIN" serve --port "$LEADER" --data-dir "$work/leader" --log-level warning >"$work/leader.log" 2>&1 &
leader_pid=$!; pids+=("$leader_pid")
wait_ready "$LEADER" || { echo "leader did not start"; cat "$work/leader.log"; echo "0 passed, 1 failed"; exit 1; }
for port in "$F1" "$F2"; do
    PETTY_FOLLOW_URL="http://127.0.0.1:$LEADER" PETTY_FOLLOW_SECONDS=1 PETTY_SAMPLE_DATA=off \
        "$BIN" serve --port "$port" --data-dir "$work/follower-$port" --log-level info >"$work/follower-$port.log" 2>&1 &
    pids+=("$!")
done

cat >"$work/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/tmp; proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp; uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
    upstream petty {
        server 127.0.0.1:$LEADER max_fails=1 fail_timeout=10s;
        server 127.0.0.1:$F1 max_fails=1 fail_timeout=10s;
        server 127.0.0.1:$F2 max_fails=1 fail_timeout=10s;
        keepalive 16;
    }
    server {
        listen 127.0.0.1:$NGINX;
        location / {
            proxy_pass http://petty;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_next_upstream error timeout http_502 http_503;
            proxy_connect_timeout 1s;
            add_header X-Upstream \$upstream_addr always;
        }
    }
}
NGINX
mkdir -p "$work/tmp"
nginx -c "$work/nginx.conf" -g 'daemon off;' &
nginx_pid=$!

followers_synced() {
    for _ in $(seq 1 60); do
        local ok=0
        for port in "$F1" "$F2"; do curl -fs "http://127.0.0.1:$port/v1/stations/1" -o /dev/null && ok=$((ok + 1)); done
        [ "$ok" -eq 2 ] && return 0
        sleep 0.25
    done
    return 1
}
same_everywhere() { # path
    local reference; reference=$(curl -fs "http://127.0.0.1:$LEADER$1" | sha256sum)
    for port in "$F1" "$F2"; do [ "$(curl -fs "http://127.0.0.1:$port$1" | sha256sum)" = "$reference" ] || return 1; done
}
same_etag_everywhere() {
    local reference; reference=$(curl -fsI "http://127.0.0.1:$LEADER$1" | grep -i '^etag')
    [ -n "$reference" ] || return 1
    for port in "$F1" "$F2"; do [ "$(curl -fsI "http://127.0.0.1:$port$1" | grep -i '^etag')" = "$reference" ] || return 1; done
}
nginx_spreads_and_serves() { # all 30 answered 200 with the same body, by more than one upstream
    local upstreams=() bodies=()
    for _ in $(seq 1 30); do
        local out; out=$(curl -fs -D - "http://127.0.0.1:$NGINX/v1/stations/1" -o "$work/body") || return 1
        upstreams+=("$(printf '%s' "$out" | grep -i '^x-upstream' | tr -d '\r')")
        bodies+=("$(sha256sum <"$work/body")")
    done
    [ "$(printf '%s\n' "${bodies[@]}" | sort -u | wc -l)" -eq 1 ] && [ "$(printf '%s\n' "${upstreams[@]}" | sort -u | wc -l)" -ge "${1:-2}" ]
}
all_via_nginx() {
    for _ in $(seq 1 30); do curl -fs "http://127.0.0.1:$NGINX/v1/stations?state=WA&limit=5" -o /dev/null || return 1; done
}
followers_still_serve() {
    for port in "$F1" "$F2"; do curl -fs "http://127.0.0.1:$port/v1/stations/1" -o /dev/null || return 1; done
}
follower_health_says_failing() {
    curl -fs "http://127.0.0.1:$F1/health" | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d["follow"]["status"] == "failing" and d["stations"] > 0 else 1)'
}
follower_logged_copy() { grep -q "applied leader snapshot" "$work/follower-$F1.log"; }

check "followers copied the leader's dataset" followers_synced
check "the follower logged the copy" follower_logged_copy
check "same /v1/stations/1 on leader and both followers" same_everywhere "/v1/stations/1"
check "same /v1/trends on leader and both followers" same_everywhere "/v1/trends?state=VIC&fuel=U91&days=30"
check "same ETag on every instance" same_etag_everywhere "/v1/stations?state=NSW&limit=50"
check "nginx spreads requests over the upstream, same body" nginx_spreads_and_serves 2
kill -9 "$leader_pid"
sleep 2.5
check "followers keep serving after the leader is killed" followers_still_serve
check "nginx keeps answering 200 without the leader" all_via_nginx
check "follower /health reports the leader as failing" follower_health_says_failing
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
