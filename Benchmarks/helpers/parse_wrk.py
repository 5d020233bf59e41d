#!/usr/bin/env python3
"""Reads `wrk --latency` output on stdin, prints `rps p50_ms p99_ms errors max_ms` (errors: socket errors plus
non-2xx/3xx responses). Unparsable output prints `0 0 0 1 0` and the tail of the text on stderr."""
import re, sys

text = sys.stdin.read()


def ms(value):
    number = re.match(r"[\d.]+", value).group()
    return float(number) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}.get(value[len(number):], 1)


try:
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    p50 = ms(re.search(r"^\s+50%\s+(\S+)", text, re.M).group(1))
    p99 = ms(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1))
    worst = ms(re.search(r"Latency\s+\S+\s+\S+\s+(\S+)", text).group(1))
except Exception as error:
    sys.stderr.write(f"bench: unparsable wrk output ({error!r}):\n{text[-600:]}\n")
    print("0 0 0 1 0")
    sys.exit()
errors = sum(int(x) for x in re.findall(r"(?:connect|read|write|timeout) (\d+)", text))
m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
errors += int(m.group(1)) if m else 0
print(f"{rps:.0f} {p50:.2f} {p99:.2f} {errors} {worst:.2f}")
