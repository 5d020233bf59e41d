#!/usr/bin/env bash
# The long scenarios that the README's `swift test` skips to stay fast: followers copying from real leaders,
# pollers against fake providers that hang or fail, the WA trading-day walk and live site facts over sockets, the
# `serve` binary against fake providers and on a locked directory, restarts on a real data directory, persistence
# retrying on a full disk, every bit flip of every data file, a follower offered a dataset at the 100,000-station limit. Each such suite is marked `.longScenario` (Tests/*/Support/LongScenario.swift) and runs here with
# PETTY_LONG_SCENARIOS=1.
# .ci/run calls this after `swift test`; it prints `N passed, N failed` last.
set -uo pipefail
cd "$(dirname "$0")/.."

# The suite names: the first type declared after each `.longScenario` trait.
suites=$(awk '/\.longScenario/ { want = 1 } want && match($0, /(struct|class|enum) [A-Za-z]+/) {
    split(substr($0, RSTART, RLENGTH), part, " "); print part[2]; want = 0 }' $(grep -rl '\.longScenario' Tests --include='*.swift') | sort -u)
if [ -z "$suites" ]; then echo "no long scenarios found"; echo "0 passed, 1 failed"; exit 1; fi
filter=$(echo "$suites" | paste -sd'|')
echo "long scenarios: ${filter//|/, }"

log=$(mktemp)
PETTY_LONG_SCENARIOS=1 swift test --skip-build --filter "\\.($filter)/" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
summary=$(grep -E 'Test run with [0-9]+ tests' "$log" | tail -n 1)
total=$(echo "$summary" | grep -oE 'with [0-9]+ tests' | grep -oE '[0-9]+')
failed=$(grep -E '^✘ Test .* failed after' "$log" | grep -cv '^✘ Test run with' || true)
rm -f "$log"
if [ -z "$total" ]; then echo "0 passed, 1 failed"; exit 1; fi
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
passed=$(( total > failed ? total - failed : 0 ))
echo "$passed passed, $failed failed"
exit "$status"
