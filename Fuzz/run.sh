#!/usr/bin/env bash
# Runs the libFuzzer targets for a bounded time each and fails on any crash, hang, OOM or sanitizer report.
#
#   bash Fuzz/run.sh [seconds-per-target] [target...]     (defaults: 60 s, every target)
#
# Builds first (cached: only what changed is rebuilt). Each target starts from its committed seeds in
# Fuzz/corpus/<target>/ plus what earlier local runs found in Fuzz/work/<target>/ (new inputs go there, never
# into the committed corpus); crash, timeout, OOM and leak inputs are written to Fuzz/findings/<target>/ and
# the libFuzzer log to Fuzz/findings/<target>.log. Exit status 1 when any target failed.
# Reproduce a finding: .build-fuzz/bin/fuzz-<target> Fuzz/findings/<target>/crash-...
set -uo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET=${1:-60}
shift || true
ALL_TARGETS=(parser query nsw wa-rss wa-sites informed-sources vic support snapshot)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${ALL_TARGETS[@]}")

if ! [[ $SECONDS_PER_TARGET =~ ^[0-9]+$ ]] || [ "$SECONDS_PER_TARGET" -lt 1 ]; then
    echo "usage: Fuzz/run.sh [seconds-per-target] [target...]" >&2
    exit 2
fi

echo "== fuzz: build"
build_started=$SECONDS
bash Fuzz/build.sh "${targets[@]}" || { echo "fuzz build failed"; exit 1; }
echo "   build took $((SECONDS - build_started)) s"

max_len() {
    case $1 in
        parser) echo 65536 ;;
        query|support) echo 4096 ;;
        snapshot) echo 65536 ;;  # a few dozen stations; the checks are per field, not per size
        *) echo 3145728 ;;  # provider payloads: up to 3 MB
    esac
}

dict() {
    case $1 in
        parser|query) echo Fuzz/dicts/http.dict ;;
        wa-rss) echo Fuzz/dicts/xml.dict ;;
        nsw|wa-sites|informed-sources|vic) echo Fuzz/dicts/json.dict ;;
        *) echo "" ;;
    esac
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-"detect_leaks=1:abort_on_error=0:symbolize=1:allocator_may_return_null=1"}
# Swift's own crash backtracer would race ASan/libFuzzer's handlers (and trip ASan itself): leave crashes to them.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS=${LSAN_OPTIONS:-"suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0"}
if command -v llvm-symbolizer >/dev/null 2>&1; then export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-$(command -v llvm-symbolizer)}; fi

rows=()
passed=0 failed=0
for target in "${targets[@]}"; do
    findings="Fuzz/findings/$target"
    work="Fuzz/work/$target"
    log="Fuzz/findings/$target.log"
    mkdir -p "$findings" "$work"
    before=$(find "$findings" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
    args=(
        -max_total_time="$SECONDS_PER_TARGET" -timeout=5 -rss_limit_mb=2048 -max_len="$(max_len "$target")"
        -print_final_stats=1 -artifact_prefix="$findings/" -close_fd_mask=1
    )
    d=$(dict "$target")
    [ -n "$d" ] && args+=(-dict="$d")
    # FoundationXML leaks on every malformed document (suppressed in lsan.supp), which makes libFuzzer run a full
    # leak scan after nearly every input: ~75 exec/s instead of ~6,000. Skip the per-input scan for wa-rss; ASan's
    # leak check at exit (detect_leaks=1 above, same suppressions) still fails the run on any other leak.
    [ "$target" = wa-rss ] && args+=(-detect_leaks=0)
    echo "== fuzz: $target (${SECONDS_PER_TARGET} s)"
    started=$SECONDS
    # A hard cap above libFuzzer's own: a wedged process must not stall CI.
    timeout --kill-after=15 $((SECONDS_PER_TARGET + 120)) \
        ".build-fuzz/bin/fuzz-$target" "${args[@]}" "$work" "Fuzz/corpus/$target" >"$log" 2>&1
    status=$?
    elapsed=$((SECONDS - started))
    after=$(find "$findings" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
    crashes=$((after - before))

    execs=$(grep -E '^stat::number_of_executed_units:' "$log" | awk '{print $2}' | tail -1)
    rate=$(grep -E '^stat::average_exec_per_sec:' "$log" | awk '{print $2}' | tail -1)
    added=$(grep -E '^stat::new_units_added:' "$log" | awk '{print $2}' | tail -1)
    final=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -1)
    cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$final")
    ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$final")
    corp=$(sed -nE 's/.*corp: ([0-9]+\/[0-9]+[A-Za-z]*).*/\1/p' <<<"$final")

    problem=""
    if [ $status -ne 0 ] || [ $crashes -gt 0 ]; then
        problem=$(grep -m1 -oE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer): [a-zA-Z-]+( [a-zA-Z-]+)?|Fatal error: .*|invariant violated: .*' "$log" | head -1)
        [ -z "$problem" ] && [ $status -eq 124 ] && problem="killed by the hard time cap"
        [ -z "$problem" ] && problem="exit status $status"
        [ $crashes -eq 0 ] && crashes=1
        failed=$((failed + 1))
        echo "   FAILED: $problem"
        echo "   log: $log"
        grep -E '^(artifact_prefix|Test unit written to)' "$log" | sed 's/^/   /'
    else
        passed=$((passed + 1))
    fi
    rows+=("$target|$elapsed|${execs:-?}|${rate:-?}|cov ${cov:-?} ft ${ft:-?}|${corp:-?}|${added:-?}|$crashes")
done

echo
echo "== fuzz: summary (${SECONDS_PER_TARGET} s per target)"
{
    echo "target|seconds|executions|exec/s|coverage|corpus (units/size)|new units|crashes"
    printf '%s\n' "${rows[@]}"
} | column -t -s '|' -o ' | '
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
