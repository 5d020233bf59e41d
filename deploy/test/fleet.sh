#!/usr/bin/env bash
# The fleet on a real etcd: installs Debian's etcd-server and faketime if missing, starts 3 etcd members and 3 Petty
# instances on loopback behind the shipped nginx config (the instances under libfaketime at 16:00 Perth, so the
# tomorrow-prices scenario runs at any hour), and checks the seven scenarios of issue 24 (deploy/test/fleet_check.py;
# `--failover` measures the Benchmarks failover row instead; `--round2` runs issue 46's scenarios: the etcd-writer
# attacks, a signed fleet and a member with the wrong secret, members at -1 h and +1 h and a leader 5 minutes off, a typo'd fleet name, etcd
# wiped and rebuilt with a member holding only samples, and again with a stale member that kept its data). Last line: `N passed, N failed`.
exec python3 "$(dirname "$0")/fleet_check.py" "$@"
