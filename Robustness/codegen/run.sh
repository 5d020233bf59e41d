#!/usr/bin/env bash
# Generated-client check: openapi-python-client (pinned, from PyPI) generates a client from Public/openapi.json,
# and client_calls.py calls every operation with it against a live server: required parameters only (so every
# documented default is sent), then each optional parameter. Last line: `N passed, N failed`.
#
#   Robustness/codegen/run.sh            uses the debug build CI's `swift build` made (builds it when missing)
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

venv="$root/.build-lint/codegen-venv"
source "$root/Scripts/pinned_venv.sh"
pinned_venv "$venv" "$root/Robustness/codegen/requirements.txt" || { echo "0 passed, 1 failed"; exit 1; }

binary="$root/.build/debug/Run"
if [ ! -x "$binary" ]; then
    swift build --product Run 2>&1 | tail -3
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== generate ($("$venv/bin/openapi-python-client" --version 2>/dev/null | head -1))"
# Warnings are expected for the follower dataset (a binary media type the generator skips).
(cd "$work" && "$venv/bin/openapi-python-client" generate --path "$root/Public/openapi.json" \
    --output-path "$work/client" --meta none >"$work/generate.log" 2>&1)
if [ ! -f "$work/client/client.py" ]; then
    cat "$work/generate.log"; echo "0 passed, 1 failed"; exit 1
fi
mkdir -p "$work/pkg" && mv "$work/client" "$work/pkg/petty_client"

echo "== call every operation"
"$venv/bin/python" "$root/Robustness/codegen/client_calls.py" --binary "$binary" --client "$work/pkg"
