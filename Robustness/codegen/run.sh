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
requirements="$root/Robustness/codegen/requirements.txt"
stamp="$venv/.requirements.sha256"
want=$(sha256sum "$requirements" | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "== venv: installing openapi-python-client into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv" || { echo "python3 -m venv failed (Debian: apt-get install python3-venv)"; echo "0 passed, 1 failed"; exit 1; }
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements" || { echo "0 passed, 1 failed"; exit 1; }
    echo "$want" > "$stamp"
fi

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
