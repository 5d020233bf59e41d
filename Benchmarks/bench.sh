#!/usr/bin/env bash
# Petty vs nginx on the same bytes, plus the memory, start-up and merge rows: see Benchmarks/bench.py and
# Benchmarks/README.md (SCENARIOS, ROUNDS, DURATION, THREADS, KEEP, ... are read there).
exec python3 "$(dirname "$0")/bench.py" "$@"
