#!/usr/bin/env python3
"""Writes the hostile inputs of `scripts/reliability hostile` that are made, not committed: files
crafted to say something impossible or dangerous (headers that disagree, extreme times, thousands of
analyzer instances, a 300 MiB line, a path where a file name belongs) and seeded mutations (flips
and cuts) of a version-3 recording. Everything is derived from the committed seeds and a fixed seed,
so every run tries the same inputs.

  scripts/hostile-inputs.py OUT_FOLDER [MUTATIONS]

OUT_FOLDER/recordings/*.luma   crafted and mutated recordings
OUT_FOLDER/logs/*.events.jsonl crafted event logs
OUT_FOLDER/pipelines/*.json    crafted pipeline files
"""
import os
import random
import struct
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEED_RECORDING = os.path.join(ROOT, "Fuzz/Corpus/FuzzRecording/balls-16x16-3chunks-v3.luma")
SEED_LOG = os.path.join(ROOT, "Recordings/toss-real.events.jsonl")


def rewrite_header(data: bytearray, offset: int, width=None, height=None, version=None) -> bytearray:
    """The header record at `offset` saying another size or version, its CRC made good."""
    assert data[offset:offset + 4] == b"LUMA", "no header record there"
    fields_length, = struct.unpack_from("<I", data, offset + 4)
    fields = offset + 16
    if version is not None:
        struct.pack_into("<H", data, fields, version)
    if width is not None:
        struct.pack_into("<I", data, fields + 4, width)
    if height is not None:
        struct.pack_into("<I", data, fields + 8, height)
    struct.pack_into("<I", data, fields + fields_length, zlib.crc32(bytes(data[offset:fields + fields_length])) & 0xFFFFFFFF)
    return data


def header_copy(data: bytes) -> int:
    return data.index(b"LUMA", 1)


def write(path: str, data) -> None:
    with open(path, "wb") as f:
        f.write(data if isinstance(data, (bytes, bytearray)) else data.encode())


def recordings(out: str, mutations: int) -> None:
    seed = open(SEED_RECORDING, "rb").read()
    copy = header_copy(seed)
    crafted = {
        "header-dims1x1": rewrite_header(bytearray(seed), 0, width=1, height=1),
        "header-dims16384": rewrite_header(bytearray(seed), 0, width=16384, height=16384),
        "header-v2-claim": rewrite_header(bytearray(seed), 0, version=2),
        "copy-dims1x1": rewrite_header(bytearray(seed), copy, width=1, height=1),
        "both-dims1x1": rewrite_header(rewrite_header(bytearray(seed), 0, width=1, height=1), copy, width=1, height=1),
        "both-dims16384": rewrite_header(rewrite_header(bytearray(seed), 0, width=16384, height=16384), copy, width=16384, height=16384),
    }
    for name, data in crafted.items():
        write(os.path.join(out, f"crafted-{name}.luma"), data)
    rng = random.Random(31)
    for i in range(mutations):
        data = bytearray(seed)
        kind = rng.choice(["flip", "flips", "cut", "cut-and-flip", "zero-run"])
        if kind in ("flip", "flips", "cut-and-flip"):
            for _ in range(1 if kind == "flip" else rng.randint(2, 16)):
                at = rng.randrange(len(data))
                data[at] ^= 1 << rng.randrange(8)
        if kind == "zero-run":
            at = rng.randrange(len(data))
            for j in range(at, min(len(data), at + rng.randint(4, 256))):
                data[j] = 0
        if kind in ("cut", "cut-and-flip"):
            data = data[:rng.randrange(1, len(data))]
        write(os.path.join(out, f"mutated-{i:03d}-{kind}.luma"), data)


def logs(out: str) -> None:
    lines = open(SEED_LOG).read().split("\n")
    header, event = lines[0], lines[1]
    t = event.split('"t":')[1].split(",")[0]
    for name, value in [("time-1e300", "1e300"), ("time-minus-1e300", "-1e300"), ("time-1e19", "1e19")]:
        write(os.path.join(out, f"{name}.events.jsonl"), "\n".join([header, event.replace(f'"t":{t}', f'"t":{value}')] + lines[2:]))
    write(os.path.join(out, "recording-path.events.jsonl"),
          "\n".join([header.replace('"file":"toss-real.luma"', '"file":"../../toss-real.luma"')] + lines[1:]))
    write(os.path.join(out, "frames-huge.events.jsonl"),
          "\n".join([header.replace('"to":59', '"to":9223372036854775807').replace('"frames":60', '"frames":9223372036854775807')] + lines[1:]))
    # A header naming 3000 analyzer instances (each an ordinary differencing), then nothing.
    entry = '{"name":"d%d","analyzer":"differencing","version":"1","frameAnalysisSpacing":0.000000,' \
            '"regionOfInterest":[0.000000,0.000000,1.000000,1.000000],"configuration":{}}'
    start = header.index('"analyzers":[') + len('"analyzers":[')
    many = header[:start] + ",".join(entry % i for i in range(3000)) + '],"x":0}'
    write(os.path.join(out, "instances-3000.events.jsonl"), many + "\n")


def pipelines(out: str) -> None:
    for count in (1000, 100000):
        entries = ",".join('{"name":"d%d","analyzer":"differencing"}' % i for i in range(count))
        write(os.path.join(out, f"instances-{count}.json"), '{"analyzers":[%s]}' % entries)
    write(os.path.join(out, "command-array.json"), '{"analyzers":[{"name":"external","configuration":{"command":["sh","-c","true"]}}]}')
    # One 300 MiB line, written in pieces.
    with open(os.path.join(out, "line-300MiB.json"), "wb") as f:
        f.write(b'{"analyzers":[')
        piece = b"0," * (1 << 19)
        for _ in range(300):
            f.write(piece)
        f.write(b"0]}")


def main() -> None:
    out = sys.argv[1]
    mutations = int(sys.argv[2]) if len(sys.argv) > 2 else 350
    for sub in ("recordings", "logs", "pipelines"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    recordings(os.path.join(out, "recordings"), mutations)
    logs(os.path.join(out, "logs"))
    pipelines(os.path.join(out, "pipelines"))


if __name__ == "__main__":
    main()
