#!/usr/bin/env bash
# The PostgreSQL client and the alert storage against a real server: installs Debian's postgresql if missing, runs
# initdb in a temporary directory as the postgres user (initdb refuses root), starts it on a free loopback port and a
# socket directory of its own, creates a trust role, a SCRAM role and a cleartext-password role, then runs the live
# suites (which `swift test` alone skips). The server is always stopped. Ends with one line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [ -z "$(pg_bin)" ]; then
    echo "== installing postgresql"
    apt-get -o Acquire::Retries=3 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Retries=3 install -y -qq --no-install-recommends postgresql >/dev/null
fi
BIN=$(pg_bin)
if [ -z "$BIN" ]; then echo "postgresql is not installed and could not be"; echo "0 passed, 1 failed"; exit 1; fi

as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

work=$(mktemp -d /tmp/petty-pg.XXXXXX)
chmod 755 "$work"
data=$work/data
sock=$work/sock
mkdir -p "$sock"
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$work" "$sock"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 55432)

stop() {
    as_postgres "$BIN/pg_ctl" -D "$data" -m immediate stop >/dev/null 2>&1
    rm -rf "$work"
}
trap stop EXIT

echo "== initdb and start PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (socket $sock)"
as_postgres "$BIN/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$work/initdb.log" 2>&1 \
    || as_postgres "$BIN/initdb" -D "$data" -U postgres --auth=trust -E UTF8 >"$work/initdb.log" 2>&1 \
    || { cat "$work/initdb.log"; echo "0 passed, 1 failed"; exit 1; }
cat >>"$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$sock'
password_encryption = 'scram-sha-256'
fsync = off
CONF
# First match wins: the SCRAM and cleartext roles must prove a password; everyone else is trusted.
cat >"$data/pg_hba.conf" <<HBA
local all petty_scram             scram-sha-256
host  all petty_scram 127.0.0.1/32 scram-sha-256
host  all petty_clear 127.0.0.1/32 password
local all all                     trust
host  all all         127.0.0.1/32 trust
HBA
as_postgres "$BIN/pg_ctl" -D "$data" -l "$work/server.log" -w -t 30 start >/dev/null \
    || { cat "$work/server.log"; echo "0 passed, 1 failed"; exit 1; }

psql() { as_postgres "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$sock" -p "$port" -U postgres "$@"; }
# The SCRAM password has the characters a URL must escape: @ : / % and a space.
psql -d postgres <<'SQL' || { echo "0 passed, 1 failed"; exit 1; }
CREATE ROLE petty_trust LOGIN CREATEDB;
CREATE ROLE petty_scram LOGIN PASSWORD 'p@ss:w/rd% 1';
CREATE ROLE petty_clear LOGIN PASSWORD 'clear';
CREATE DATABASE petty_test OWNER petty_trust;
GRANT ALL ON DATABASE petty_test TO petty_scram;
SQL
psql -d petty_test -c 'GRANT ALL ON SCHEMA public TO petty_scram' || { echo "0 passed, 1 failed"; exit 1; }

export PETTY_TEST_DATABASE_URL="postgres://petty_trust@127.0.0.1:$port/petty_test"
export PETTY_TEST_DATABASE_SCRAM_URL="postgres://petty_scram:p%40ss%3Aw%2Frd%25%201@127.0.0.1:$port/petty_test"
export PETTY_TEST_DATABASE_SOCKET_URL="postgres:///petty_test?host=$sock&port=$port&user=petty_trust"
export PETTY_TEST_DATABASE_CLEARTEXT_URL="postgres://petty_clear:clear@127.0.0.1:$port/petty_test"
# An argument narrows the first run to matching tests (e.g. `run.sh twoMembersMigrating`).
filter=${1:-'PostgresLiveTests|AlertsLive'}
echo "== swift test --filter '$filter'"
log=$work/test.log
swift test --filter "$filter" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

if [ $# -eq 0 ]; then
# Alone, since a restart breaks every other test's connections: it restarts the server under an open transaction.
echo "== swift test --filter PostgresRestartLiveTests (the server restarted mid-transaction)"
restart="$BIN/pg_ctl -D $data -m fast -w -t 30 restart -l $work/server.log"
[ "$(id -u)" -eq 0 ] && restart="runuser -u postgres -- $restart"
PETTY_TEST_DATABASE_RESTART_COMMAND="$restart" swift test --skip-build --filter PostgresRestartLiveTests 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" -ne 0 ] && status=1
fi

passed=$(grep -cE '^✔ Test .*\(\) passed' "$log")
failed=$(grep -cE '^✘ Test .*\(\) failed' "$log")
skipped=$(grep -cE '^➜ Test .*\(\) skipped' "$log")
if [ "$skipped" -gt 0 ]; then echo "$skipped live tests were skipped although a server was running"; fi
failed=$((failed + skipped))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
if [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
[ "$failed" -gt 0 ] && tail -n 40 "$work/server.log"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
