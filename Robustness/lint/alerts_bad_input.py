"""Bad input on the price alert routes against a server with a database (run by alerts_fuzz.sh, Python 3 stdlib):
wrong and missing secrets, another device's ids, oversized and truncated bodies, unknown fields and kinds. Each case
must get its 4xx with a JSON `{"error": true, "reason": "..."}` body and write nothing (the devices, alerts and
notifications tables are compared before and after through psql). Prints a row per case, then
`RESULT alerts-bad-input <cases> <failures>`.

Environment: ALERTS_URL, ALERTS_DEVICE_ID and ALERTS_DEVICE_SECRET (the device acting), ALERTS_OTHER (the other device's POST /v1/devices answer), ALERTS_STATION (a WA station id), ALERTS_PSQL (the psql
command line for the database)."""
import http.client
import json
import os
import subprocess
import sys
import urllib.parse

URL = urllib.parse.urlsplit(os.environ["ALERTS_URL"])
DEVICE = int(os.environ["ALERTS_DEVICE_ID"])
SECRET = os.environ["ALERTS_DEVICE_SECRET"]
OTHER = json.loads(os.environ["ALERTS_OTHER"])
STATION = int(os.environ["ALERTS_STATION"])
PSQL = os.environ["ALERTS_PSQL"].split()


def call(method, path, body=None, secret=SECRET, headers=None, raw=None):
    """(status, parsed JSON or None, raw body)."""
    connection = http.client.HTTPConnection(URL.hostname, URL.port, timeout=10)
    sent = {"Content-Type": "application/json"}
    if secret is not None:
        sent["Authorization"] = f"Bearer {secret}"
    sent.update(headers or {})
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    try:
        connection.request(method, path, body=data, headers=sent)
        reply = connection.getresponse()
        text = reply.read()
    except OSError as error:
        return 0, None, str(error).encode()
    finally:
        connection.close()
    try:
        return reply.status, json.loads(text), text
    except ValueError:
        return reply.status, None, text


def tables():
    """What a refused request must not change: every row of the three tables, as text."""
    out = []
    for sql in ("SELECT id, platform, push_token, time_zone, encode(secret_hash, 'hex'), token_dead FROM devices ORDER BY id",
                "SELECT * FROM alerts ORDER BY id", "SELECT count(*) FROM notifications"):
        args = PSQL + ["-c", sql]
        if os.getuid() == 0:
            args = ["runuser", "-u", "postgres", "--"] + args
        out.append(subprocess.run(args, capture_output=True, text=True).stdout)
    return out


def alert(**fields):
    body = {"kind": "price_below", "fuel": "U91", "station_ids": [STATION], "threshold": 150.0}
    body.update(fields)
    return {k: v for k, v in body.items() if v is not None}


mine = f"/v1/devices/{DEVICE}"


def own_alert():
    """An alert of its own. The fuzz run before may have deleted or replaced the one it was given, and on a fast
    machine it fills the device to its limit (50, then 409), so its leftovers are deleted first."""
    status, listed, text = call("GET", f"{mine}/alerts")
    if status != 200 or not isinstance(listed, dict):
        sys.exit(f"GET {mine}/alerts answered {status}: {text[:200]!r}")
    for left in listed.get("data", []):
        call("DELETE", f"{mine}/alerts/{left['id']}")
    status, made, text = call("POST", f"{mine}/alerts", {"kind": "price_below", "fuel": "U91", "station_ids": [STATION], "threshold": 150.0})
    if status != 201 or not isinstance(made, dict) or "id" not in made:
        sys.exit(f"POST {mine}/alerts answered {status}: {text[:200]!r}")
    return made["id"]


ALERT = own_alert()
theirs = f"/v1/devices/{OTHER['id']}"
missing = "/v1/devices/987654321"
wrong = "0" * len(SECRET)
big = alert(extra="x" * (17 * 1024))

# (name, method, path, body or raw bytes, secret, expected status, words the reason must contain)
CASES = [
    ("no Authorization header", "GET", f"{mine}/alerts", None, None, 401, []),
    ("a wrong secret", "GET", f"{mine}/alerts", None, wrong, 401, []),
    ("a wrong secret on PUT device", "PUT", mine, {"push_token": "stolen-token-0123456789"}, wrong, 401, []),
    ("a wrong secret on DELETE device", "DELETE", mine, None, wrong, 401, []),
    ("a wrong secret on POST alert", "POST", f"{mine}/alerts", alert(), wrong, 401, []),
    ("the other device's id with this secret", "GET", f"{theirs}/alerts", None, SECRET, 401, []),
    ("the other device's id: PUT", "PUT", theirs, {"time_zone": "Australia/Sydney"}, SECRET, 401, []),
    ("the other device's id: DELETE", "DELETE", theirs, None, SECRET, 401, []),
    ("the other device's id: POST alert", "POST", f"{theirs}/alerts", alert(), SECRET, 401, []),
    ("the other device's id: this device's alert", "GET", f"{theirs}/alerts/{ALERT}", None, SECRET, 401, []),
    ("the other device's secret on this device", "GET", f"{mine}/alerts", None, OTHER["secret"], 401, []),
    ("the other device's secret on this device's alert", "DELETE", f"{mine}/alerts/{ALERT}", None, OTHER["secret"], 401, []),
    ("a device id that does not exist", "GET", f"{missing}/alerts", None, SECRET, 401, []),
    ("an alert id that is not this device's", "GET", f"{mine}/alerts/987654321", None, SECRET, 404, []),
    ("a body over 16 KiB", "POST", f"{mine}/alerts", big, SECRET, 413, []),
    ("a body over 16 KiB on PUT alert", "PUT", f"{mine}/alerts/{ALERT}", big, SECRET, 413, []),
    ("a body over 16 KiB on POST device", "POST", "/v1/devices",
     {"platform": "ios", "push_token": "t" * (17 * 1024), "time_zone": "Australia/Perth"}, None, 413, []),
    ("a truncated body", "POST", f"{mine}/alerts", json.dumps(alert()).encode()[:-7], SECRET, 400, []),
    ("a truncated body on POST device", "POST", "/v1/devices", b'{"platform": "ios", "push_to', None, 400, []),
    ("an empty body", "POST", f"{mine}/alerts", b"", SECRET, 400, []),
    ("a JSON array", "POST", f"{mine}/alerts", b"[1, 2]", SECRET, 400, []),
    ("an unknown field", "POST", f"{mine}/alerts", alert(colour="blue"), SECRET, 400, ["colour"]),
    ("an unknown field on POST device", "POST", "/v1/devices",
     {"platform": "ios", "push_token": "abc0123456789", "time_zone": "Australia/Perth", "admin": True}, None, 400, ["admin"]),
    ("an unknown field on PUT device", "PUT", mine, {"push_token": "abc0123456789", "secret": "x"}, SECRET, 400, ["secret"]),
    ("an unknown kind", "POST", f"{mine}/alerts", alert(kind="price_teleport"), SECRET, 400, ["kind"]),
    ("an unknown kind on PUT alert", "PUT", f"{mine}/alerts/{ALERT}", alert(kind="price_sometimes"), SECRET, 400, ["kind"]),
    ("an unknown fuel", "POST", f"{mine}/alerts", alert(fuel="U93"), SECRET, 400, ["fuel"]),
    ("an unknown platform", "POST", "/v1/devices", {"platform": "symbian", "push_token": "abc0123456789", "time_zone": "Australia/Perth"},
     None, 400, ["platform"]),
    ("an unknown time zone", "POST", "/v1/devices", {"platform": "ios", "push_token": "abc0123456789", "time_zone": "Mars/Olympus"},
     None, 400, ["time_zone"]),
    ("a station that does not exist", "POST", f"{mine}/alerts", alert(station_ids=[987654321]), SECRET, 400, ["station"]),
    ("21 stations", "POST", f"{mine}/alerts", alert(station_ids=[STATION] * 21), SECRET, 400, ["station_ids"]),
    ("radius_km over 25", "POST", f"{mine}/alerts", alert(kind="cheapest_changed", threshold=None, station_ids=None,
                                                           near="-31.95,115.86", radius_km=26), SECRET, 400, ["radius_km"]),
    ("change under 1.0", "POST", f"{mine}/alerts", alert(kind="price_drop", threshold=None, change=0.5), SECRET, 400, ["change"]),
    ("a threshold as text", "POST", f"{mine}/alerts", alert(threshold="cheap"), SECRET, 400, ["threshold"]),
    ("quiet_hours with one end", "POST", f"{mine}/alerts", alert(quiet_hours={"from": "22:00"}), SECRET, 400, ["quiet_hours"]),
    ("notifications?after=abc", "GET", f"{mine}/notifications?after=abc", None, SECRET, 400, ["after"]),
    ("an unknown query parameter", "GET", f"{mine}/alerts?colour=blue", None, SECRET, 400, ["colour"]),
]


def main():
    failures = 0
    before = tables()
    if not before[0]:
        print("psql could not read the tables")
        print("RESULT alerts-bad-input 0 1")
        return 1
    unauthorized = set()
    for name, method, path, body, secret, expected, words in CASES:
        raw = body if isinstance(body, bytes) else None
        status, parsed, text = call(method, path, body=None if raw is not None else body, secret=secret, raw=raw)
        reason = (parsed or {}).get("reason", "") if isinstance(parsed, dict) else ""
        problems = []
        if status != expected:
            problems.append(f"status {status}, expected {expected}")
        if not (isinstance(parsed, dict) and parsed.get("error") is True and isinstance(reason, str) and reason):
            problems.append(f"not a JSON error: {text[:120]!r}")
        missing_words = [w for w in words if w not in reason]
        if missing_words:
            problems.append(f"the reason does not name {missing_words}: {reason!r}")
        if expected == 401:
            unauthorized.add(text)
        failures += bool(problems)
        print(f"{'PASS' if not problems else 'FAIL'}  {name:<52} {status}  {'; '.join(problems) or reason[:80]}")
    # A 401 says nothing about whether the id exists: one body for a wrong secret, another device and no device.
    same = len(unauthorized) == 1
    failures += not same
    print(f"{'PASS' if same else 'FAIL'}  {'every 401 is the same body (no id is revealed)':<52} {len(unauthorized)} distinct")
    after = tables()
    unchanged = after == before
    failures += not unchanged
    print(f"{'PASS' if unchanged else 'FAIL'}  {'nothing written by any refused request':<52} "
          f"{'' if unchanged else 'devices, alerts or notifications changed'}")
    # Last, what the fuzz run left out: deleting the other device takes its rows and leaves this one's.
    status, _, _ = call("DELETE", theirs, secret=OTHER["secret"])
    gone, _, _ = call("GET", f"{theirs}/alerts", secret=OTHER["secret"])
    kept, _, _ = call("GET", f"{mine}/alerts/{ALERT}")
    deleted = (status, gone, kept) == (204, 401, 200)
    failures += not deleted
    print(f"{'PASS' if deleted else 'FAIL'}  {'DELETE a device: its secret then 401, others kept':<52} {status} {gone} {kept}")
    cases = len(CASES) + 3
    print(f"RESULT alerts-bad-input {cases} {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
