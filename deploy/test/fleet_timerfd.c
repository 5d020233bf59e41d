/* Preloaded before libfaketime in the fleet check's members (deploy/test/fleet_clock.py).
 *
 * libfaketime 0.9.10 (Debian's faketime) rewrites every TFD_TIMER_ABSTIME timerfd_settime as if the timer's clock
 * were CLOCK_REALTIME, whatever its clock: libdispatch arms its CLOCK_MONOTONIC and CLOCK_BOOTTIME timerfds with
 * absolute times, so under libfaketime Task.sleep and asyncAfter are set decades ahead and never fire (seen with
 * strace: it_value 1795639888 s on a CLOCK_MONOTONIC timer). These two calls go straight to the kernel instead; with
 * FAKETIME_DONT_FAKE_MONOTONIC=1 the monotonic times libdispatch computes are the kernel's own, so they are right.
 * Only wall-clock dispatch timers would still be off by the offset, and Petty has none.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

int timerfd_settime(int fd, int flags, const struct itimerspec *new_value, struct itimerspec *old_value) {
    return (int)syscall(SYS_timerfd_settime, fd, flags, new_value, old_value);
}

int timerfd_gettime(int fd, struct itimerspec *curr_value) {
    return (int)syscall(SYS_timerfd_gettime, fd, curr_value);
}
