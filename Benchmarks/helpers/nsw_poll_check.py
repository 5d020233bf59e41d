#!/usr/bin/env python3
"""Reads /health JSON on stdin; prints `<nsw source>@in` when NSW's last_success lies within [START-1, END+1]
(unix seconds, the wrk window; last_success has whole-second precision), else `<source>@out`."""
import json, sys
from datetime import datetime

start, end = float(sys.argv[1]), float(sys.argv[2])
try:
    health = json.load(sys.stdin)
    nsw = next(p for p in health.get("providers", []) if p.get("provider") == "nsw")
    success = nsw.get("last_success")
    at = datetime.fromisoformat(success.replace("Z", "+00:00")).timestamp() if success else 0
    print(f"{nsw.get('source', '?')}@{'in' if start - 1 <= at <= end + 1 else 'out'}")
except Exception as error:
    sys.stderr.write(f"bench: cannot read NSW status from /health: {error!r}\n")
    print("?@out")
