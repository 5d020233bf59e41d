#!/usr/bin/env bash
# The price alert routes (tag Alerts) with a database: a throwaway PostgreSQL (initdb in a temporary directory as the
# postgres user, trust on loopback), the server with PETTY_DATABASE_URL, two devices made through the API, then
#   1. schemathesis on the Alerts operations, all checks, authenticated as the first device (`-H Authorization`),
#      its id and alert id fixed in the paths (Robustness/lint/schemathesis-alerts.toml says why)
#   2. alerts_bad_input.py: wrong and missing secrets, the other device's ids, oversized and truncated bodies,
#      unknown fields and kinds: a clear JSON 4xx every time and nothing written
# Needs `schemathesis` on PATH (run.sh puts the pinned venv there). Prints `RESULT schemathesis-alerts <cases>
# <failures>` and `RESULT alerts-bad-input <cases> <failures>`; exits non-zero on any failure.
#
#   Robustness/lint/alerts_fuzz.sh [--binary PATH]      ST_MAX_TIME (default 60 s), ST_MAX_EXAMPLES, ST_SEED as api_fuzz.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

binary="$root/.build/release/Run"
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
max_time="${ST_MAX_TIME:-60}"
max_examples="${ST_MAX_EXAMPLES:-50}"
seed="${ST_SEED:-}"

fail() { echo "$1" >&2; echo "RESULT schemathesis-alerts 0 1"; echo "RESULT alerts-bad-input 0 1"; exit 1; }

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [ -z "$(pg_bin)" ]; then
    apt-get -o Acquire::Retries=3 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Retries=3 install -y -qq --no-install-recommends postgresql >/dev/null
fi
BIN=$(pg_bin)
[ -n "$BIN" ] || fail "postgresql is not installed and could not be"
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

work=$(mktemp -d /tmp/petty-alerts-fuzz.XXXXXX)
chmod 755 "$work"
mkdir -p "$work/sock" "$work/data-petty"
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$work" "$work/sock"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi
    as_postgres "$BIN/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pg_port=$(free_port)
as_postgres "$BIN/initdb" -D "$work/pg" -U postgres --auth=trust -E UTF8 >"$work/initdb.log" 2>&1 || { cat "$work/initdb.log"; fail "initdb failed"; }
printf "listen_addresses = '127.0.0.1'\nport = %s\nunix_socket_directories = '%s'\nfsync = off\n" "$pg_port" "$work/sock" >>"$work/pg/postgresql.conf"
as_postgres "$BIN/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w -t 30 start >/dev/null || { cat "$work/pg.log"; fail "PostgreSQL did not start"; }
psql() { as_postgres "$BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$work/sock" -p "$pg_port" -U postgres "$@"; }
psql -d postgres -c "CREATE ROLE petty LOGIN" -c "CREATE DATABASE petty OWNER petty" >/dev/null || fail "could not create the petty role and database"

port=$(free_port)
url="http://127.0.0.1:$port"
PETTY_PROVIDERS=none PETTY_DATABASE_URL="postgres://petty@127.0.0.1:$pg_port/petty" \
    "$binary" serve --hostname 127.0.0.1 --port "$port" --data-dir "$work/data-petty" --env production --log-level warning \
    >"$work/server.log" 2>&1 &
server_pid=$!
alerts_ok() { curl -sS "$url/health" 2>/dev/null | python3 -c 'import json, sys; sys.exit(json.load(sys.stdin).get("alerts", {}).get("status") != "ok")' 2>/dev/null; }
for _ in $(seq 1 300); do
    alerts_ok && break
    kill -0 "$server_pid" 2>/dev/null || { tail -n 20 "$work/server.log"; fail "server exited early"; }
    sleep 0.2
done
alerts_ok || { curl -sS "$url/health"; tail -n 20 "$work/server.log"; fail "alerts never reported ok"; }

# Two devices: the first is the one schemathesis acts as; the second is "another device".
device() { curl -fsS -X POST "$url/v1/devices" -H 'Content-Type: application/json' -d "{\"platform\": \"$1\", \"push_token\": \"fuzz-token-$1-0123456789\", \"time_zone\": \"Australia/Perth\"}"; }
first=$(device ios) && second=$(device android) || fail "POST /v1/devices failed"
field() { python3 -c "import json, sys; print(json.loads(sys.argv[1])['$2'])" "$1"; }
export ALERTS_DEVICE_ID; ALERTS_DEVICE_ID=$(field "$first" id)
export ALERTS_DEVICE_SECRET; ALERTS_DEVICE_SECRET=$(field "$first" secret)
station=$(curl -fsS "$url/v1/stations?state=WA&limit=1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"][0]["id"])') || fail "no WA station to watch"
alert=$(curl -fsS -X POST "$url/v1/devices/$ALERTS_DEVICE_ID/alerts" -H 'Content-Type: application/json' -H "Authorization: Bearer $ALERTS_DEVICE_SECRET" \
    -d "{\"kind\": \"price_below\", \"fuel\": \"U91\", \"station_ids\": [$station], \"threshold\": 150.0}") || fail "POST /v1/devices/{id}/alerts failed"
export ALERTS_ALERT_ID; ALERTS_ALERT_ID=$(field "$alert" id)

echo "== schemathesis on the Alerts operations (device $ALERTS_DEVICE_ID, alert $ALERTS_ALERT_ID, PostgreSQL on :$pg_port)"
args=(
    --config-file "$root/Robustness/lint/schemathesis-alerts.toml"
    run "$root/Public/openapi.json" --url "$url"
    --include-tag Alerts
    # Deleting the device would leave every later case a 401; alerts_bad_input.py deletes one and checks what is left.
    --exclude-operation-id deleteDevice
    -H "Authorization: Bearer $ALERTS_DEVICE_SECRET"
    # No stateful phase: its links would follow a created alert's id, which the fixed path parameter replaces.
    --phases examples,coverage,fuzzing
    --max-examples "$max_examples"
    --max-time "$max_time"
    --workers 1
    --generation-database none
    --request-timeout 10
    --no-color
)
[ -n "$seed" ] && args+=(--seed "$seed")
source "$root/Robustness/lint/schemathesis_result.sh"
run_schemathesis schemathesis-alerts "$work" "${args[@]}"
status=$?
if grep -q 'Internal Server Error\|status 5[0-9][0-9]' "$work/server.log" 2>/dev/null; then echo "the server logged a 5xx:"; grep -m 5 '5[0-9][0-9]' "$work/server.log"; fi

echo "== bad input on the alert routes (wrong secrets, other devices' ids, bodies, fields, kinds)"
ALERTS_URL="$url" ALERTS_OTHER="$second" ALERTS_STATION="$station" \
    ALERTS_PSQL="$BIN/psql -X -q -A -t -h $work/sock -p $pg_port -U postgres -d petty" \
    python3 "$root/Robustness/lint/alerts_bad_input.py"
bad_status=$?
if ! kill -0 "$server_pid" 2>/dev/null; then echo "the server died"; tail -n 20 "$work/server.log"; status=1; fi
[ "$status" -eq 0 ] && [ "$bad_status" -eq 0 ]
