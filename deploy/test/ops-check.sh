#!/usr/bin/env bash
# Proves the shipped deploy configs with the real nginx and supervisord: see deploy/test/ops_check.py
# (OPS_TIME_LIMIT, OPS_KEEP, OPS_DATA_SEED). Last line: `N passed, N failed`.
exec python3 "$(dirname "$0")/ops_check.py" "$@"
