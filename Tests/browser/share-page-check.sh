#!/usr/bin/env bash
# Loads the station share page in a real headless Chromium against the real server binary.
#
#   bash Tests/browser/share-page-check.sh
#
# Needs `chromium` and `python3` on PATH; installs nothing. Without them it prints SKIP and exits 0,
# unless CI=true, where a missing browser is a failure. Checks:
#   1. /stations/<id> renders the station's name and a price in the browser's DOM;
#   2. a station renamed (in the persisted snapshot) to `<script>alert(1)</script> & "Bob's" 🚗 東京` renders
#      that name as text: escaped in the serialised DOM, no <script> element, the exact text in <h1>;
#   3. the page's own requests (CSS, icon) pass its Content-Security-Policy (no CSP violation in the browser log);
#   4. every "updated" time in the DOM carries its date, and the sample-data notice sits above the prices;
#   5. a phone-width screenshot is written to $SCREENSHOT (default /tmp/share-page.png).
# The last line is "N passed, M failed"; the exit status is non-zero on any failure. Bounded to ~2 minutes
# after the build (each browser run is capped at 40 s, server start at 30 s).
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
SCREENSHOT="${SCREENSHOT:-/tmp/share-page.png}"
STATION_ID="${STATION_ID:-1}"
HOSTILE='<script>alert(1)</script> & "Bob'"'"'s" 🚗 東京'
DEADLINE=$((SECONDS + 110))

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

for tool in chromium python3 curl; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        if [ "${CI:-}" = "true" ]; then
            fail "$tool is not installed (required when CI=true)"
            finish
        fi
        echo "SKIP: $tool is not installed (apt-get install -y chromium python3 curl); nothing checked"
        echo "0 passed, 0 failed"
        exit 0
    fi
done

WORK="$(mktemp -d /tmp/petty-browser.XXXXXX)"
DATA="$WORK/data"
mkdir -p "$DATA"
SERVER_PID=""

stop_server() {
    [ -n "$SERVER_PID" ] || return 0
    if kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null
        for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$SERVER_PID" 2>/dev/null && kill -KILL "$SERVER_PID" 2>/dev/null
    fi
    wait "$SERVER_PID" 2>/dev/null
    SERVER_PID=""
}
cleanup() { stop_server; rm -rf "$WORK"; }
trap cleanup EXIT
trap 'echo "interrupted"; exit 1' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

start_server() {
    PORT="$(free_port)"
    BASE="http://127.0.0.1:$PORT"
    PETTY_PROVIDERS=none .build/debug/Run serve --port "$PORT" --data-dir "$DATA" --public-dir "$ROOT/Public" --log-level warning \
        >>"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 150); do
        if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$BASE/health")" = "200" ]; then return 0; fi
        kill -0 "$SERVER_PID" 2>/dev/null || break
        [ "$SECONDS" -lt "$DEADLINE" ] || break
        sleep 0.2
    done
    echo "server did not become healthy; log:"; tail -20 "$WORK/server.log"
    return 1
}

# Headless Chromium with its own throwaway profile; the DOM goes to $1, the log to $1.log.
browse() {
    local out="$1"; shift
    timeout 40 chromium --headless --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
        --user-data-dir="$WORK/profile" --enable-logging=stderr --v=0 "$@" >"$out" 2>"$out.log"
}

echo "== build"
if ! swift build >"$WORK/build.log" 2>&1; then
    tail -30 "$WORK/build.log"
    fail "swift build"
    finish
fi
DEADLINE=$((SECONDS + 110))  # the budget covers everything after the (possibly first, slow) build

echo "== first start: seeds the sample data and persists it to $DATA"
if ! start_server; then fail "server start (sample data)"; finish; fi
pass "server healthy on port $PORT"
NAME="$(curl -s --max-time 5 -H 'Accept: application/json' "$BASE/stations/$STATION_ID" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["name"])')"
PRICE="$(curl -s --max-time 5 "$BASE/v1/stations/$STATION_ID" |
    python3 -c 'import json,sys; print("%.1f" % json.load(sys.stdin)["data"]["prices"][0]["price"])')"
echo "station $STATION_ID: $NAME, first price $PRICE"

browse "$WORK/page.html" --dump-dom "$BASE/stations/$STATION_ID"
if grep -qF "<h1>$NAME</h1>" "$WORK/page.html"; then pass "DOM has the station name in <h1>"; else fail "station name '$NAME' not in the DOM"; fi
if grep -qF "<td class=\"price\">$PRICE</td>" "$WORK/page.html"; then pass "DOM has the price $PRICE"; else fail "price $PRICE not in the DOM"; fi
if grep -qE "Content Security Policy|Refused to" "$WORK/page.html.log"; then
    fail "the page broke its own CSP: $(grep -m1 -E 'Content Security Policy|Refused to' "$WORK/page.html.log")"
else
    pass "no CSP violations logged"
fi

# What a recipient reads: every time carries its date, and the sample notice comes before the prices.
layout="$(python3 - "$WORK/page.html" <<'EOF'
import re, sys
from html.parser import HTMLParser

class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.order, self.updated, self.current = [], [], None
    def handle_starttag(self, tag, attrs):
        cls = dict(attrs).get("class") or ""
        if tag == "p" and cls == "notice": self.order.append("notice")
        if tag == "table" and "prices" in cls.split(): self.order.append("prices")
        if tag == "td" and cls == "updated": self.current = ""
    def handle_endtag(self, tag):
        if tag == "td" and self.current is not None:
            self.updated.append(self.current); self.current = None
    def handle_data(self, data):
        if self.current is not None: self.current += data

page = Page()
page.feed(open(sys.argv[1], encoding="utf-8").read())
dated = re.compile(r"^updated \d{1,2}:\d{2} [ap]m (Sun|Mon|Tue|Wed|Thu|Fri|Sat) \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)( \d{4})?$")
undated = [text for text in page.updated if not dated.match(text)]
print("times=%s" % ("ok" if page.updated and not undated else "undated %r of %d" % (undated[:2], len(page.updated))))
print("notice=%s" % ("ok" if page.order[:2] == ["notice", "prices"] else "order %r" % page.order))
EOF
)"
if grep -qx "times=ok" <<<"$layout"; then pass "every update time in the DOM carries its date"; else fail "update times: $(grep '^times=' <<<"$layout")"; fi
if grep -qx "notice=ok" <<<"$layout"; then pass "the sample-data notice comes before the prices"; else fail "sample notice: $(grep '^notice=' <<<"$layout")"; fi

browse "$WORK/shot.out" --hide-scrollbars --window-size=390,1200 --screenshot="$SCREENSHOT" "$BASE/stations/$STATION_ID"
if [ -s "$SCREENSHOT" ]; then pass "phone-width screenshot written to $SCREENSHOT"; else fail "no screenshot"; fi

echo "== rename station $STATION_ID to a hostile name in the persisted snapshot, restart"
stop_server
if [ ! -s "$DATA/snapshot.bin" ]; then fail "the server did not persist $DATA/snapshot.bin"; finish; fi
# Export the binary snapshot as JSON, edit it, and let the server import it on the next start.
if ! .build/debug/Run export --data-dir "$DATA" >"$DATA/snapshot.json" || ! rm "$DATA/snapshot.bin"; then fail "exporting the snapshot"; finish; fi
if ! HOSTILE="$HOSTILE" python3 - "$DATA/snapshot.json" "$STATION_ID" <<'EOF'
import json, os, sys
path, wanted = sys.argv[1], int(sys.argv[2])
with open(path, encoding="utf-8") as f:
    snapshot = json.load(f)
station = next(e["station"] for e in snapshot["stations"] if e["station"]["id"] == wanted)
station["name"] = os.environ["HOSTILE"]
station["brand"] = "<img src=x onerror=alert(2)>"
with open(path, "w", encoding="utf-8") as f:
    json.dump(snapshot, f, ensure_ascii=False)
EOF
then fail "editing snapshot.json"; finish; fi
if ! start_server; then fail "server restart on the edited data"; finish; fi
pass "server restarted on the edited data"

browse "$WORK/hostile.html" --dump-dom "$BASE/stations/$STATION_ID"
if grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$WORK/hostile.html"; then
    pass "hostile name is escaped text in the DOM"
else
    fail "escaped hostile name not found in the DOM"
fi
report="$(HOSTILE="$HOSTILE" python3 - "$WORK/hostile.html" <<'EOF'
import os, sys
from html.parser import HTMLParser

class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.scripts = self.imgs_with_onerror = 0
        self.stack, self.h1, self.title, self.og_title = [], "", "", None
    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script": self.scripts += 1
        if tag == "img" and "onerror" in attrs: self.imgs_with_onerror += 1
        if tag == "meta" and attrs.get("property") == "og:title": self.og_title = attrs.get("content")
        self.stack.append(tag)
    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag: pass
    def handle_data(self, data):
        if "h1" in self.stack: self.h1 += data
        if "title" in self.stack: self.title += data

page = Page()
page.feed(open(sys.argv[1], encoding="utf-8").read())
hostile = os.environ["HOSTILE"]
print("scripts=%d" % page.scripts)
print("onerror=%d" % page.imgs_with_onerror)
print("h1=%s" % ("ok" if page.h1 == hostile else "got %r" % page.h1))
print("title=%s" % ("ok" if page.title == hostile + ": fuel prices · Petty" else "got %r" % page.title))
print("og=%s" % ("ok" if page.og_title == hostile + ": fuel prices" else "got %r" % page.og_title))
EOF
)"
check() { if grep -qx "$1" <<<"$report"; then pass "$2"; else fail "$2 ($(grep "^${1%%=*}=" <<<"$report"))"; fi; }
check "scripts=0" "no <script> element in the DOM"
check "onerror=0" "no injected <img onerror> element"
check "h1=ok" "<h1> text is exactly the hostile name"
check "title=ok" "<title> text is exactly the hostile name"
check "og=ok" "og:title attribute is exactly the hostile name"

stop_server
[ "$SECONDS" -lt "$DEADLINE" ] || fail "took longer than the time budget"
finish
