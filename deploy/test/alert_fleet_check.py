"""The fleet with alerts (issue 45, "How it is checked"): 3 Petty members on a real 3-member etcd (deploy/test/
fleet_check.py's setup, behind the shipped nginx config), one throwaway PostgreSQL, a fake gorush relay and the fake
providers (deploy/test/alert_fleet_fakes.py). Each scenario makes one WA station cross a `price_below` alert of a
device of its own (the fake FuelWatch's price for it is fixed below the threshold from then on), then:

    a  nothing else: exactly one delivery
    b  the relay refuses (503) so the decided row stays unsent; the leader is killed -9 with it unsent, the relay
       comes back and the new leader delivers it
    c  the relay holds its answer 8 s; the leader is killed -9 after the relay received the push and before the
       answer (so before the row is marked): the new leader resends it with the same collapse id
    d  PostgreSQL stopped (pg_ctl stop -m fast) for 60 s across a poll, then started: the snapshot published
       meanwhile is decided when it returns; then the postmaster killed -9 across another poll
    e  the relay down (503) for ALERT_FLEET_RELAY_DOWN seconds (default 300), then back

and at the end, for every scenario: every decided notification delivered, none decided twice (one outbox row per
alert: the crossing is not decided again on later polls or by the next leader), resends only with the same
collapse id. Prints the failure table (scenario, decisions, deliveries, resends, duplicates shown, lost), then the
`check | result` table ending `N passed, N failed`.

ALERT_FLEET_RELAY_DOWN (seconds, default 300) is scenario e's outage; FLEET_LEASE, FLEET_KEEP and FLEET_BINARY as in
fleet_check.py. The members run on the real clock (no libfaketime: no scenario needs FuelWatch's tomorrow window).
Processes are stopped by pid."""
import json
import os
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fleet_check  # noqa: E402  (puts Scripts/ on sys.path)
from fleet_check import Fleet, ensure_etcd, note, one_leader, release_binary, run_as_script, start_etcd, tear_down  # noqa: E402
from fleet_clock import RealClock  # noqa: E402
from fleet_fakes import NSW  # noqa: E402
from harness import Processes, Results, raise_on_signals, wait_for  # noqa: E402
from alert_fleet_fakes import GorushRelay, Postgres, PricedFuelWatch  # noqa: E402

RELAY_DOWN = float(os.environ.get("ALERT_FLEET_RELAY_DOWN", "300"))
LEASE = fleet_check.LEASE
POLL = 60  # PETTY_WA_POLL_SECONDS: the shortest the WA poller allows
RELAY_AUTHORIZATION = "key=alert-fleet-check"
TOPIC = "au.petty.check"
THRESHOLD = 170.0  # every fixture price is 182.9 c/L or more in the fake feed (its prices + 60 + 0 to 4.9)
CROSSED = 165.0


def request(method, url, body=None, secret=None, timeout=10):
    """(status, parsed JSON or None)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    if secret:
        req.add_header("Authorization", f"Bearer {secret}")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as reply:
            raw = reply.read()
            return reply.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw)
        except ValueError:
            return error.code, None
    except OSError:
        return 0, None


class Scenario:
    def __init__(self, key, title, station_name):
        self.key, self.title, self.station_name = key, title, station_name
        self.device = self.secret = self.alert = self.station = None
        self.token = f"alert-fleet-token-{key}-{os.urandom(6).hex()}"
        self.crossed_at = None


class AlertFleet:
    def __init__(self, results, fleet, fake, relay, pg):
        self.results, self.fleet, self.fake, self.relay, self.pg = results, fleet, fake, relay, pg
        self.stations = {}

    def member(self):
        """A live member's base URL, a follower when there is one (writes reach the leader through NOTIFY)."""
        leaders = set(self.fleet.leaders())
        live = [i for i in range(3) if self.fleet.live[i]]
        chosen = next((i for i in live if i not in leaders), live[0])
        return f"http://127.0.0.1:{self.fleet.ports[chosen]}"

    def load_stations(self):
        status, body = request("GET", f"{self.member()}/v1/stations?state=WA&limit=500")
        self.stations = {}
        for station in (body or {}).get("data") or []:
            self.stations[station.get("name")] = station.get("id")
        return status

    def subscribe(self, scenario):
        """A device of its own (no burst folding across scenarios) and a price_below alert on its station."""
        scenario.station = self.stations.get(scenario.station_name)
        if scenario.station is None:
            return f"station {scenario.station_name!r} not in /v1/stations (names: {list(self.stations)[:5]})"
        platform = "ios" if scenario.key in "ace" else "android"
        answer = []
        # A member whose alerts are still starting answers 503 "try again shortly": as an app would, try again.
        wait_for(60, lambda: answer.__setitem__(slice(None), request("POST", f"{self.member()}/v1/devices", {
            "platform": platform, "push_token": scenario.token, "time_zone": "Australia/Perth"})) or answer[0] != 503, 1)
        status, body = answer
        if status != 201:
            return f"POST /v1/devices: {status} {body}"
        scenario.device, scenario.secret = body["id"], body["secret"]
        status, body = request("POST", f"{self.member()}/v1/devices/{scenario.device}/alerts",
                               {"kind": "price_below", "fuel": "U91", "station_ids": [scenario.station], "threshold": THRESHOLD},
                               secret=scenario.secret)
        if status != 201:
            return f"POST /v1/devices/{scenario.device}/alerts: {status} {body}"
        scenario.alert = body["id"]
        # The leader's index learns of the alert through LISTEN/NOTIFY (its /health `alerts` counts the index).
        expected = self.alerts_made = getattr(self, "alerts_made", 0) + 1
        indexed = wait_for(10, lambda: (self.leader_alerts_health().get("alerts") or 0) >= expected, 0.5)
        self.results.check(f"{scenario.key}: the leader's index holds the new alert within 10 s (LISTEN/NOTIFY)", indexed,
                           f"leader /health alerts: {json.dumps(self.leader_alerts_health())[:200]}")
        return None

    def cross(self, scenario):
        self.fake.prices[scenario.station_name] = CROSSED
        scenario.crossed_at = time.monotonic()

    def decisions(self, scenario):
        """[(id, collapse id, sent)] of the scenario's alert, or None when PostgreSQL does not answer."""
        rows = self.pg.rows(f"SELECT id, collapse_id, sent_at IS NOT NULL FROM notifications WHERE alert_id = {int(scenario.alert)} ORDER BY id")
        return None if rows is None else [(int(r[0]), r[1], r[2] == "t") for r in rows]

    def wait_decided(self, scenario, seconds):
        found = []
        wait_for(seconds, lambda: bool(found.__setitem__(slice(None), self.decisions(scenario) or []) or found), 0.2)
        return found

    def wait_delivered(self, scenario, seconds, times=1):
        """The scenario's deliveries once its decided rows are all marked sent and the relay got each of them
        `times` times or more."""
        def done():
            rows = self.decisions(scenario) or []
            return rows and all(sent for _, _, sent in rows) and all(len(self.relay.delivered(c)) >= times for _, c, _ in rows)
        return wait_for(seconds, done, 0.3)

    def kill_leader(self):
        leader = one_leader(self.fleet, 30)
        if leader is None:
            return None
        self.fleet.kill(leader)
        return leader

    def restart(self, member):
        """Starts a killed member again and waits for its alerts to be ready (connected and migrated)."""
        self.fleet.start(member)
        ready = wait_for(90, lambda: ((self.fleet.health(member) or {}).get("alerts") or {}).get("status") in ("ok", "degraded"), 0.5)
        if not ready:
            note(f"m{member} restarted, alerts not ready: {(self.fleet.health(member) or {}).get('alerts')}")

    # --- scenarios -----------------------------------------------------------------------------------------

    def crossing(self, s):
        self.cross(s)
        decided = self.wait_decided(s, POLL + 30)
        self.results.check("a: a price crossing is decided on the leader's next poll", bool(decided), self.logs())
        delivered = self.wait_delivered(s, 30)
        self.results.check("a: ... and delivered through the relay", delivered, f"rows {self.decisions(s)}")

    def killed_before_sending(self, s):
        self.relay.down = True
        self.cross(s)
        decided = self.wait_decided(s, POLL + 30)
        unsent = bool(decided) and not any(sent for _, _, sent in decided)
        self.results.check("b: decided and unsent while the relay refuses (503)", unsent, f"rows {decided}")
        killed = self.kill_leader()
        self.results.check("b: the leader killed -9 with the row unsent", killed is not None and not any(
            sent for _, _, sent in self.decisions(s) or []), f"killed m{killed}")
        self.relay.down = False
        new = one_leader(self.fleet, LEASE + 30)
        # A failed row waits out the sender's retry delay (30 s) before the new leader tries it.
        delivered = self.wait_delivered(s, LEASE + 90)
        self.results.check(f"b: the new leader (m{new}) delivers the decided row", delivered, f"rows {self.decisions(s)} {self.logs()}")
        if killed is not None:
            self.restart(killed)

    def killed_before_marking(self, s):
        self.relay.latency = 8
        self.cross(s)
        decided = self.wait_decided(s, POLL + 30)
        received = wait_for(30, lambda: decided and self.relay.delivered(decided[0][1]), 0.05)
        killed = self.kill_leader() if received else None
        rows = self.decisions(s) or []
        self.results.check("c: the leader killed -9 after the relay got the push, before the row was marked sent",
                           received and killed is not None and rows and not rows[0][2], f"received {bool(received)}, rows {rows}")
        self.relay.latency = 0
        delivered = self.wait_delivered(s, LEASE + 60, times=2)
        self.results.check("c: the new leader resends it with the same collapse id and marks it", delivered,
                           f"rows {self.decisions(s)}, deliveries {[len(self.relay.delivered(c)) for _, c, _ in rows]}")
        if killed is not None:
            self.restart(killed)

    def database_stopped(self, s):
        problem = self.pg.stop_fast()
        stopped = time.monotonic()
        self.results.check("d: PostgreSQL stopped (pg_ctl stop -m fast)", problem is None, problem or "")
        self.cross(s)
        polled = wait_for(POLL + 30, lambda: self.wa_poll_after(s.crossed_at), 0.5)
        time.sleep(max(0, 60 - (time.monotonic() - stopped)))
        self.results.check("d: the leader polled while the database was down", polled, "no WA poll")
        problem = self.pg.start()
        self.results.check("d: PostgreSQL started again after 60 s", problem is None, problem or "")
        delivered = self.wait_delivered(s, 90)
        self.results.check("d: the snapshot published while it was down is decided and delivered", delivered,
                           f"rows {self.decisions(s)} {self.logs()}")

    def postmaster_killed(self, s):
        pid = self.pg.kill_postmaster()
        self.cross(s)
        polled = wait_for(POLL + 30, lambda: self.wa_poll_after(s.crossed_at), 0.5)
        self.results.check(f"d: the postmaster (pid {pid}) killed -9 across a poll", polled, "no WA poll")
        problem = self.pg.start()
        self.results.check("d: PostgreSQL started again after the kill -9", problem is None, problem or "")
        delivered = self.wait_delivered(s, 90)
        self.results.check("d: that snapshot is decided and delivered", delivered, f"rows {self.decisions(s)} {self.logs()}")

    def relay_down(self, s):
        self.relay.down = True
        down_at = time.monotonic()
        self.cross(s)
        decided = self.wait_decided(s, POLL + 30)
        self.results.check("e: decided while the relay is down", bool(decided), self.logs())
        time.sleep(max(0, RELAY_DOWN - 30 - (time.monotonic() - down_at)))
        # The sender's first try (a second or so after the decision) is what turns /health's relay to failing: a
        # short outage (ALERT_FLEET_RELAY_DOWN=60) may end within a poll of the decision, so wait for it, the relay
        # still down, for up to 30 s.
        alerts = {}
        wait_for(30, lambda: alerts.update(self.leader_alerts_health()) or alerts.get("relay") not in (None, "ok", "not configured"), 0.5)
        note(f"/health alerts during the outage: {json.dumps(alerts)}")
        self.results.check("e: the leader's /health alerts says the relay is failing during the outage",
                           alerts.get("relay") not in (None, "ok", "not configured"), json.dumps(alerts)[:300])
        time.sleep(max(0, RELAY_DOWN - (time.monotonic() - down_at)))
        refused = len([r for r in self.relay.requests if r[0] >= down_at and r[1] == 503])
        self.relay.down = False
        note(f"relay down {time.monotonic() - down_at:.0f} s: {refused} requests refused")
        delivered = self.wait_delivered(s, 90)
        self.results.check(f"e: delivered once the relay is back after {RELAY_DOWN:.0f} s ({refused} refused tries)",
                           delivered and refused >= 1, f"rows {self.decisions(s)}")

    def leader_alerts_health(self):
        leader = one_leader(self.fleet, 10)
        return ((self.fleet.health(leader) or {}).get("alerts") or {}) if leader is not None else {}

    def wa_poll_after(self, since):
        return any("Day=tomorrow" not in c[2] for c in self.fake.calls_by(since))

    def logs(self):
        """The alert lines of each member's log, last few: why nothing was decided."""
        lines = []
        for i in range(3):
            log = self.fleet.work / f"m{i}.log"
            text = log.read_text(errors="replace").splitlines() if log.exists() else []
            lines += [f"m{i}: {line[-160:]}" for line in text if "alerts" in line][-3:]
        return " | ".join(lines)

    # --- the failure table -------------------------------------------------------------------------------

    def table(self, scenarios):
        print(f"{'scenario':<44} | decisions | deliveries | resends | duplicates shown | lost")
        print(f"{'-' * 44}-+-----------+------------+---------+------------------+-----")
        totals = []
        for s in scenarios:
            rows = (self.decisions(s) if s.alert else []) or []
            collapse = [c for _, c, _ in rows]
            deliveries = sum(len(self.relay.delivered(c)) for c in collapse)
            resends = sum(max(0, len(self.relay.delivered(c)) - 1) for c in collapse)
            # A phone shows one notification per collapse id: more than one decided row for the one crossing is
            # what it would show twice.
            shown_twice = max(0, len({c for c in collapse if self.relay.delivered(c)}) - 1)
            lost = len([c for c in collapse if not self.relay.delivered(c)])
            print(f"{s.key + ': ' + s.title:<44} | {len(rows):>9} | {deliveries:>10} | {resends:>7} | {shown_twice:>16} | {lost:>4}")
            totals.append((s, len(rows), deliveries, shown_twice, lost))
        return totals


def role(alerts):
    return alerts.get("evaluator_role", alerts.get("evaluatorRole"))


def main():
    raise_on_signals()
    results = Results()
    work = Path(tempfile.mkdtemp(prefix="petty-alertfleet."))
    os.chmod(work, 0o755)
    procs = Processes()
    fake = nsw = relay = pg = None
    scenarios = [Scenario("a", "a price crossing", "Vibe Welshpool"),
                 Scenario("b", "kill -9 between deciding and sending", "Caltex StarShop Mt Lawley"),
                 Scenario("c", "kill -9 between sending and marking", "Caltex StarShop South Lake"),
                 Scenario("d", "PostgreSQL stopped 60 s across a poll", "7-Eleven Forrestdale"),
                 Scenario("d2", "the postmaster killed -9 across a poll", "United Southern River"),
                 Scenario("e", f"the relay down {RELAY_DOWN:.0f} s", "Shell High Wycombe")]
    try:
        version = ensure_etcd()
        if not version:
            results.failed("etcd-server installed", "apt-get install etcd-server failed")
            return results
        pg = Postgres(work)
        problem = pg.setup()
        results.check(f"a throwaway PostgreSQL on 127.0.0.1:{pg.port}", problem is None, problem or "")
        if problem:
            return results
        binary = release_binary(results)
        if not binary:
            return results
        etcd, up = start_etcd(procs, work)
        results.check(f"3 etcd {version} members answer", up, etcd.last_words())
        if not up:
            return results
        problem = etcd.enable_auth()
        results.check("etcd auth enabled (root user and role)", problem is None, problem or "")
        clock = RealClock()
        fake, nsw, relay = PricedFuelWatch(clock.now), NSW(clock.now), GorushRelay(RELAY_AUTHORIZATION)
        for server in (fake, nsw, relay):
            threading.Thread(target=server.serve_forever, daemon=True).start()
        # The members' environment: Processes.start adds it to every member's.
        os.environ.update({"PETTY_DATABASE_URL": pg.url, "PETTY_PUSH_URL": relay.url,
                           "PETTY_PUSH_AUTHORIZATION": RELAY_AUTHORIZATION, "PETTY_PUSH_TOPIC": TOPIC})
        fleet = Fleet(procs, work, etcd, fake, nsw, binary, clock)
        for i in range(3):
            fleet.start(i)
        problem = fleet.start_nginx()
        results.check("the shipped nginx config (3 upstreams) passes nginx -t", problem is None, problem or "")
        serving = wait_for(120, lambda: all(fleet.health(i) for i in range(3)), 0.5)
        results.check("3 Petty members serve, alerts on (PETTY_DATABASE_URL, PETTY_PUSH_URL)", serving, fleet.last_words())
        leader = one_leader(fleet, 60)
        results.check("one leader elected", leader is not None, fleet.last_words())
        if not serving or leader is None:
            return results
        check = AlertFleet(results, fleet, fake, relay, pg)
        # The members serve the bundled samples until the leader's first WA poll: wait for the fake feed's stations.
        names = [s.station_name for s in scenarios]
        loaded = wait_for(POLL + 60, lambda: check.load_stations() == 200 and all(n in check.stations for n in names), 1)
        evaluating = wait_for(60, lambda: role(check.leader_alerts_health()) == "evaluator", 0.5)
        results.check("the WA stations served and the leader evaluating alerts", loaded and evaluating,
                      f"{len(check.stations)} stations, missing {[n for n in names if n not in check.stations]}, "
                      f"alerts {json.dumps(check.leader_alerts_health())[:300]}")
        if not loaded:
            return results
        steps = {"a": check.crossing, "b": check.killed_before_sending, "c": check.killed_before_marking,
                 "d": check.database_stopped, "d2": check.postmaster_killed, "e": check.relay_down}
        for s in scenarios:
            started = time.monotonic()
            problem = check.subscribe(s)
            if not results.check(f"{s.key}: a device and its price_below alert created ({s.station_name})", problem is None, problem or ""):
                continue
            note(f"scenario {s.key}: {s.title}")
            steps[s.key](s)
            note(f"scenario {s.key}: {time.monotonic() - started:.0f} s")
        # One more poll after the last crossing: a crossing must not be decided again while its price stays below.
        last = time.monotonic()
        wait_for(POLL + 30, lambda: check.wa_poll_after(last), 0.5)
        time.sleep(3)
        totals = check.table(scenarios)
        for s, decisions, deliveries, shown_twice, lost in totals:
            results.check(f"{s.key}: one decision, delivered, none lost or shown twice",
                          decisions == 1 and deliveries >= 1 and shown_twice == 0 and lost == 0,
                          f"decisions {decisions}, deliveries {deliveries}, shown twice {shown_twice}, lost {lost}")
        once = [s for s in scenarios if s.key in ("a", "d", "d2") and s.alert]
        results.check("a, d: exactly one delivery each (no resend without a crash)",
                      all(sum(len(relay.delivered(c)) for _, c, _ in check.decisions(s) or []) == 1 for s in once),
                      ", ".join(f"{s.key}: {[len(relay.delivered(c)) for _, c, _ in check.decisions(s) or []]}" for s in once))
        known = {c for s in scenarios if s.alert for _, c, _ in check.decisions(s) or []}
        stray = [d for d in relay.all_deliveries() if d[1] not in known]
        results.check("the relay got nothing but the decided notifications, with each device's token",
                      not stray and all(d[2] == s.token for s in scenarios if s.alert
                                        for _, c, _ in check.decisions(s) or [] for d in relay.delivered(c)),
                      f"stray: {stray[:3]}")
        results.check("every push well formed (collapse id, tokens, data) and authorized", not relay.problems, "; ".join(relay.problems[:3]))
    finally:
        tear_down((fake, nsw, relay), procs, work, then=[pg.stop] if pg else [])
    return results


if __name__ == "__main__":
    run_as_script(main, "alert fleet check")
