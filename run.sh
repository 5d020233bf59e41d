#!/usr/bin/env bash
# Builds the release binary when the sources are newer than it, then replaces this shell with the server,
# so a supervisor's signals (TERM on stop) reach the server process itself.
# Extra flags pass through (later flags win); PETTY_* environment variables keep working as fallbacks.
set -euo pipefail
cd "$(dirname "$0")"

bin=.build/release/Run
needs_build() {
    [ ! -x "$bin" ] && return 0
    [ -n "$(find Package.swift Sources -newer "$bin" -print -quit 2>/dev/null)" ]
}
if needs_build; then
    echo "run.sh: building release binary..." >&2
    swift build -c release --product Run >&2
fi

exec "$bin" serve \
    --env "${PETTY_ENV:-production}" \
    --hostname "${PETTY_HOSTNAME:-0.0.0.0}" \
    --port "${PETTY_PORT:-8080}" \
    "$@"
