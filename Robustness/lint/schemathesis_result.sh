# Sourced by api_fuzz.sh and alerts_fuzz.sh: one way to run schemathesis and read its verdict.
#
#   run_schemathesis NAME WORKDIR ARGS...
#
# Runs `schemathesis ARGS...` from WORKDIR (it keeps a .schemathesis/ cache in its working directory), shows and
# keeps its report in WORKDIR/out.txt, then prints `RESULT NAME <test cases> <failures>` from the summary
# ("N generated, N found M unique failures"). An error that is not a check failure still counts as one failure.
# Returns schemathesis's exit status.
run_schemathesis() {
    local name=$1 work=$2; shift 2
    (cd "$work" && schemathesis "$@") | tee "$work/out.txt"
    local status=${PIPESTATUS[0]}
    local cases failures
    cases=$(grep -Eo '[0-9]+ generated' "$work/out.txt" | tail -1 | grep -Eo '[0-9]+' || true)
    failures=$(grep -Eo '[0-9]+ unique failures' "$work/out.txt" | tail -1 | grep -Eo '[0-9]+' || true)
    cases=${cases:-0}
    failures=${failures:-0}
    [ "$status" -ne 0 ] && [ "$failures" -eq 0 ] && failures=1
    echo "RESULT $name $cases $failures"
    return "$status"
}
