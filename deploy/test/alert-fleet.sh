#!/usr/bin/env bash
# The fleet with alerts (issue 45): 3 members on a real 3-member etcd behind the shipped nginx config, one throwaway
# PostgreSQL, a fake gorush relay and the fake providers; a price crossing, kill -9 of the leader between deciding
# and sending and between sending and marking, PostgreSQL stopped 60 s (and its postmaster killed -9) across a poll,
# the relay down ALERT_FLEET_RELAY_DOWN seconds (default 300). Prints the failure table (scenario, decisions,
# deliveries, resends, duplicates shown, lost); last line `N passed, N failed` (deploy/test/alert_fleet_check.py).
exec python3 "$(dirname "$0")/alert_fleet_check.py" "$@"
