"""The Petty members' wall clock in the fleet check: Debian's libfaketime shifts it by a constant offset so that
Perth's local time in the members is 16:00 when the run starts, inside FuelWatch's tomorrow window (14:30 to 06:00
Perth), whatever the real time. Scenario 6 then runs at any hour. Only the members are shifted: etcd, nginx and the
checker keep the real clock, and the fake providers date their feeds with `MemberClock.now()`.

CLOCK_MONOTONIC must be left alone (FAKETIME_DONT_FAKE_MONOTONIC=1): the lease deadline and the etcd client's
timeouts then read the kernel's clock, and libdispatch's timers (Task.sleep, asyncAfter) are armed with the kernel's
monotonic times. They also need fleet_timerfd.c, compiled here and preloaded before libfaketime, which hands
timerfd_settime to the kernel: libfaketime 0.9.10 mangles absolute monotonic timers, so without it no member's
Task.sleep ever returns (nothing is elected). Faking CLOCK_MONOTONIC too leaves the timers dead even with the shim.
"""
import glob
import shutil
import subprocess
import time
from email.utils import parsedate_to_datetime
from pathlib import Path

from harness import apt_install  # the importer puts Scripts/ on sys.path

PERTH_OFFSET = 8 * 3600  # UTC+8 all year
MEMBER_PERTH_START = 16 * 3600  # 16:00 Perth: 1.5 h after publication, 14 h before the 06:00 rollover
LIBRARY_GLOB = "/usr/lib/*/faketime/libfaketime.so.1"
TIMERFD_SHIM = Path(__file__).resolve().parent / "fleet_timerfd.c"


def ensure_libfaketime():
    """The path of libfaketime.so.1, installing Debian's `faketime` when it is missing; None if that failed."""
    found = glob.glob(LIBRARY_GLOB)
    if not found and shutil.which("apt-get"):
        apt_install("faketime")
        found = glob.glob(LIBRARY_GLOB)
    return found[0] if found else None


def build_timerfd_shim(directory):
    """fleet_timerfd.c compiled into `directory` with the system C compiler (or the Swift toolchain's clang):
    (path, None), or (None, why)."""
    compiler = shutil.which("cc") or shutil.which("clang")
    if not compiler:
        return None, "no C compiler (cc or clang) for fleet_timerfd.c"
    out = Path(directory) / "fleet_timerfd.so"
    built = subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(out), str(TIMERFD_SHIM)],
                           capture_output=True, text=True)
    return (str(out), None) if built.returncode == 0 else (None, built.stderr[-300:])


def perth_seconds_of_day(epoch):
    return int(epoch + PERTH_OFFSET) % 86400


def in_tomorrow_window(epoch):
    """What the WA poller requires before it asks for `Day=tomorrow` (WATomorrowSchedule.window): 14:30 <= Perth < 06:00."""
    seconds = perth_seconds_of_day(epoch)
    return seconds >= 14 * 3600 + 30 * 60 or seconds < 6 * 3600


class MemberClock:
    """A constant offset, whole seconds, from the real clock to the members' clock."""

    def __init__(self, library, shim, real_now=None):
        real_now = time.time() if real_now is None else real_now
        self.library, self.shim = library, shim
        self.offset = (MEMBER_PERTH_START - perth_seconds_of_day(real_now)) % 86400

    def now(self):
        return time.time() + self.offset

    def env(self):
        """The environment that starts a member on the shifted clock (LD_PRELOAD on the member itself, not through
        the `faketime` wrapper, which forks: the pid the check kills and freezes must be the member's)."""
        return {"LD_PRELOAD": f"{self.shim}:{self.library}", "FAKETIME": f"+{self.offset}",
                "FAKETIME_DONT_FAKE_MONOTONIC": "1"}

    def perth(self, epoch=None):
        return time.strftime("%Y-%m-%d %H:%M", time.gmtime((self.now() if epoch is None else epoch) + PERTH_OFFSET))

    @staticmethod
    def from_date_header(value):
        """Epoch seconds of an HTTP `Date` header, or None."""
        try:
            return parsedate_to_datetime(value).timestamp()
        except (TypeError, ValueError, IndexError):
            return None


class RealClock:
    """The members on the real clock (no libfaketime): for runs that measure rather than walk Perth's day."""

    offset = 0

    def now(self):
        return time.time()

    def env(self):
        return {}

    def perth(self, epoch=None):
        return time.strftime("%Y-%m-%d %H:%M", time.gmtime((self.now() if epoch is None else epoch) + PERTH_OFFSET))
