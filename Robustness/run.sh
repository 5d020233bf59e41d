#!/usr/bin/env bash
# The robustness suite in one command: hostile clients, request smuggling (direct and behind nginx),
# static paths and production errors, crash safety of the data (kill -9 while polling and persisting),
# secrets (credentials never in logs, /health or error bodies), and a hostile upstream provider (cross-origin
# redirects, gzip bomb, endless body, garbage feeds), and storage attacks (full disk, deleted or corrupted data
# directory, two servers on one), and a hostile leader for a follower (empty, older, sample, broken, endless or
# trickling datasets), and cheap requests that must not take the service down (route search work budget, the
# antimeridian, 100-continue refusals, header room through nginx, nginx's 429, two instances under four
# attackers within their rate limits). Loopback only; every script is bounded and cleans up after itself.
#
#   Robustness/run.sh --quick   # CI: ~5 min with a cached release build
#   Robustness/run.sh           # full: waits for the idle and write timeouts too (~8 min)
#
# Prints each script's output, then `check | cases tried | failures`, and `N passed, N failed` last.
# Exit status 0 only when every check passed.
set -uo pipefail
cd "$(dirname "$0")/.."

mode=()
hostile_limit=600
crash_limit=600
upstream_limit=300
storage_limit=300
follower_limit=300
case "${1:-}" in
    --quick) mode=(--quick); hostile_limit=150; crash_limit=180; upstream_limit=120; storage_limit=150; follower_limit=180 ;;
    "") ;;
    *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
esac

command -v python3 >/dev/null || { echo "run.sh: python3 is required" >&2; exit 2; }
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "run.sh: nginx is required" >&2; exit 2; }

bin=.build/release/Run
if [ ! -x "$bin" ] || [ -n "$(find Package.swift Sources -newer "$bin" -print -quit 2>/dev/null)" ]; then
    echo "== building release binary"
    swift build -c release --product Run || { echo "run.sh: build failed" >&2; exit 1; }
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
names=(hostile_clients smuggling paths crash_safety leaks upstream storage follower cheap_requests)
limits=("$hostile_limit" 120 120 "$crash_limit" 120 "$upstream_limit" "$storage_limit" "$follower_limit" 150)
total_passed=0
total_failed=0
rows=()
for i in "${!names[@]}"; do
    name=${names[$i]}
    echo "== $name ${mode[*]}"
    timeout --signal=TERM --kill-after=15 "${limits[$i]}" python3 "Robustness/$name.py" "${mode[@]}" 2>&1 | tee "$out/$name.log"
    status=${PIPESTATUS[0]}
    last=$(tail -n 1 "$out/$name.log")
    if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        passed=${BASH_REMATCH[1]}
        failed=${BASH_REMATCH[2]}
    else
        passed=0
        failed=1  # crashed or timed out before its summary
    fi
    if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
    total_passed=$((total_passed + passed))
    total_failed=$((total_failed + failed))
    rows+=("$(printf '%-16s | %11s | %8s' "$name" "$((passed + failed))" "$failed")")
    echo
done

echo "== robustness summary${mode:+ (quick)}"
printf '%-16s | %11s | %8s\n' "check" "cases tried" "failures"
for row in "${rows[@]}"; do echo "$row"; done
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
