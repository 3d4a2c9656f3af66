#!/usr/bin/env python3
"""Brightness histogram: an analyzer plugin in Python, run by Lumatrace's `external` analyzer.

    lumatrace replay clip.luma --analyzer external \
      --set external.command="python3 Plugins/BrightnessHistogram/brightness_histogram.py" \
      --set external.options='{"every":10,"bins":16}'

Every `every` analyzed frames it emits a `brightness` event for the region of interest: the mean
and standard deviation of the luma, and the share of pixels in each of `bins` equal brightness
ranges. Lighting changes, clouds, a camera that switched its exposure: all show up here.

The protocol (ExternalProtocol in Plugins/External): a JSON hello line on stdin, answered with
{"ready":true}; then per frame a 40-byte little-endian header ("LTFR", u32 width, u32 height,
u32 reserved, i64 index, i64 ticks, i64 timescale) and width*height luma bytes, answered with
event lines and {"done":index}; an "LTEN" header at the end, answered with {"done":"end"}.
Diagnostics go to stderr: stdout carries only protocol lines.
"""
import json
import struct
import sys

import numpy as np

HEADER = struct.Struct("<4sIIIqqq")


def read_exactly(stream, n):
    data = bytearray()
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            raise EOFError(f"input ended after {len(data)} of {n} bytes")
        data += chunk
    return bytes(data)


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")


def main():
    stdin = sys.stdin.buffer
    hello = json.loads(stdin.readline())
    options = hello.get("options", {})
    every = options.get("every", 10)
    bins = options.get("bins", 16)
    if not (isinstance(every, int) and every >= 1) or not (isinstance(bins, int) and 1 <= bins <= 256):
        send({"error": f"options: every must be an integer >= 1 and bins 1...256 (got every={every!r}, bins={bins!r})"})
        sys.stdout.flush()
        return 0
    width, height = hello["stream"]["width"], hello["stream"]["height"]
    # The region of interest is normalized with a lower-left origin; rows count from the top.
    rx, ry, rw, rh = hello["regionOfInterest"]
    x0, x1 = round(rx * width), round((rx + rw) * width)
    y0, y1 = round((1 - ry - rh) * height), round((1 - ry) * height)
    send({"ready": True})
    sys.stdout.flush()

    analyzed = 0
    while True:
        magic, w, h, _, index, ticks, timescale = HEADER.unpack(read_exactly(stdin, HEADER.size))
        if magic == b"LTEN":
            send({"done": "end"})
            sys.stdout.flush()
            return 0
        if magic != b"LTFR":
            print(f"brightness_histogram: unexpected header {magic!r}", file=sys.stderr)
            return 1
        frame = np.frombuffer(read_exactly(stdin, w * h), dtype=np.uint8).reshape(h, w)
        if analyzed % every == 0:
            region = frame[y0:y1, x0:x1]
            counts = np.bincount(((region.astype(np.uint32) * bins) >> 8).ravel(), minlength=bins)
            pixels = max(region.size, 1)
            send({"kind": "brightness", "data": {
                "mean": round(float(region.mean()), 6),
                "std": round(float(region.std()), 6),
                "histogram": [round(int(c) / pixels, 6) for c in counts],
            }})
        analyzed += 1
        send({"done": index})
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
