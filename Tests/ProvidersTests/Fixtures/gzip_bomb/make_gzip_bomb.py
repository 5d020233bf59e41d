#!/usr/bin/env python3
"""Writes the parts of a gzip bomb for the client's size-cap tests: head.bin + unit.bin x 384 + tail.bin is a
valid gzip stream (Content-Encoding: gzip) of 384 MiB of zeros in about 400 KB.

Each unit is 1 MiB of zeros compressed and then Z_FULL_FLUSH'ed: the flush byte-aligns the stream and resets
the dictionary, so every unit compresses to the same bytes and the server can repeat one. The tail (the final
block, CRC-32 and size) is only right for exactly UNITS units. Run from this directory: python3 make_gzip_bomb.py
"""
import zlib

UNITS = 384
MIB = bytes(1 << 20)

compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: gzip wrapper
first = compressor.compress(MIB) + compressor.flush(zlib.Z_FULL_FLUSH)
head, unit = first[:10], first[10:]
for _ in range(UNITS - 1):
    assert compressor.compress(MIB) + compressor.flush(zlib.Z_FULL_FLUSH) == unit
tail = compressor.flush()

# Check the assembled stream really inflates to UNITS MiB.
inflater = zlib.decompressobj(31)
total = len(inflater.decompress(head))
for _ in range(UNITS):
    total += len(inflater.decompress(unit))
total += len(inflater.decompress(tail)) + len(inflater.flush())
assert total == UNITS << 20 and inflater.eof, total

for name, data in [("head.bin", head), ("unit.bin", unit), ("tail.bin", tail)]:
    with open(name, "wb") as f:
        f.write(data)
print(f"head {len(head)} B, unit {len(unit)} B, tail {len(tail)} B: {len(head) + UNITS * len(unit) + len(tail)} B -> {total} B")
