#!/usr/bin/env python3
"""How small could a .luma file be with other residuals, zstd still the entropy stage?

Reads a gray Y4M (as `lumatrace export REC --format y4m` writes it: exactly the recorded luma),
codes its frames in chunks the way the recording format does (the first frame of a chunk intra,
the others against the previous frame, each chunk one zstd frame at level 1) and prints, for each
way of forming the residual, raw bytes ÷ compressed bytes (higher is better):

  temporal         current − previous frame (what format versions 1 and 2 store, before the mask)
  temporal+mask    the same as format 2 stores it: a bit mask of non-zero residuals + those bytes
  spatial          current − MED predictor (LOCO-I / JPEG-LS / FFV1's median of left, above, gradient)
  blocks           per 16×16 block the cheapest of temporal, spatial, and MED over the temporal
                   residual (sum of |residual| decides; one choice byte per block is stored)
  blocks+nibbles   the same residuals zigzag-mapped (0, −1, 1, −2 … → 0, 1, 2, 3 …), low nibbles
                   packed two to a byte, high nibbles stored as mask + non-zero bytes
  blocks+nibbles+contexts  as above, each chunk's residuals split into 4 streams by the previous
                   frame's local |residual| (the decoder knows it), each stream compressed alone

Only a study: nothing here is a format. Usage: residuals.py FILE.y4m [--frames N] [--chunk N];
`Benchmarks/codec-study/run` records every clip of the shared data folder and studies each.
"""
import argparse
import sys

import numpy as np
import zstandard

ZSTD = zstandard.ZstdCompressor(level=1)
BLOCK = 16


def read_y4m(path, limit):
    with open(path, "rb") as f:
        header = f.readline().split()
        if not header or header[0] != b"YUV4MPEG2":
            sys.exit(f"{path}: not a YUV4MPEG2 file")
        fields = {t[:1]: t[1:] for t in header[1:]}
        if fields.get(b"C", b"mono").split(b"X")[0] not in (b"mono",):
            sys.exit(f"{path}: not a gray (Cmono) Y4M; write it with `lumatrace export REC --format y4m`")
        w, h = int(fields[b"W"]), int(fields[b"H"])
        frames = []
        while len(frames) < limit:
            marker = f.readline()
            if not marker:
                break
            data = f.read(w * h)
            if len(data) < w * h:
                sys.exit(f"{path}: frame {len(frames)} is truncated")
            frames.append(np.frombuffer(data, np.uint8).reshape(h, w))
    if len(frames) < 2:
        sys.exit(f"{path}: fewer than 2 frames")
    return np.stack(frames)


def med(x):
    """The MED predictor of every pixel from its left, upper and upper-left neighbours (0 outside)."""
    x = x.astype(np.int16)
    a = np.zeros_like(x); b = np.zeros_like(x); c = np.zeros_like(x)
    a[:, 1:] = x[:, :-1]; b[1:, :] = x[:-1, :]; c[1:, 1:] = x[:-1, :-1]
    hi, lo = np.maximum(a, b), np.minimum(a, b)
    return np.where(c >= hi, lo, np.where(c <= lo, hi, a + b - c))


def wrap(x):
    return (x % 256).astype(np.uint8)


def signed(r):
    return r.astype(np.int8).astype(np.int16)


def block_cost(r):
    h, w = r.shape
    hb, wb = h // BLOCK * BLOCK, w // BLOCK * BLOCK
    return np.abs(signed(r))[:hb, :wb].reshape(hb // BLOCK, BLOCK, wb // BLOCK, BLOCK).sum(axis=(1, 3))


def blocks(current, previous):
    """The per-block choice of temporal, spatial or MED-over-temporal residual, and the choices."""
    t = wrap(current.astype(np.int16) - previous)
    candidates = [t, wrap(current.astype(np.int16) - med(current)), wrap(signed(t) - med(signed(t)))]
    choice = np.argmin(np.stack([block_cost(r) for r in candidates]), axis=0)
    h, w = current.shape
    full = np.zeros((h, w), np.int64)
    full[: choice.shape[0] * BLOCK, : choice.shape[1] * BLOCK] = np.repeat(np.repeat(choice, BLOCK, 0), BLOCK, 1)
    return np.take_along_axis(np.stack(candidates), full[None], 0)[0], choice.astype(np.uint8)


def masked(r):
    nonzero = r != 0
    return np.packbits(nonzero, bitorder="little").tobytes() + r[nonzero].tobytes()


def nibbles(r):
    s = signed(r.ravel())
    z = np.where(s >= 0, 2 * s, -2 * s - 1).astype(np.uint8)
    low, high = z & 15, z >> 4
    if low.size % 2:
        low = np.append(low, 0)
    return (low[0::2] | (low[1::2] << 4)).astype(np.uint8).tobytes(), masked(high)


def size(*parts):
    return sum(len(ZSTD.compress(p)) for p in parts)


def study(frames, chunk):
    n, h, w = frames.shape
    totals = dict.fromkeys(["temporal", "temporal+mask", "spatial", "blocks", "blocks+nibbles", "blocks+nibbles+contexts"], 0)
    for start in range(0, n, chunk):
        streams = {k: [] for k in totals}
        context_residuals = [[] for _ in range(4)]
        activity = None
        for i in range(start, min(n, start + chunk)):
            current = frames[i]
            intra = wrap(current.astype(np.int16) - med(current))
            spatial = intra
            if i == start:
                temporal, chosen, choices = current.copy(), intra, b""
            else:
                temporal = wrap(current.astype(np.int16) - frames[i - 1])
                chosen, choice = blocks(current, frames[i - 1])
                choices = choice.tobytes()
            streams["temporal"].append(temporal.tobytes())
            streams["temporal+mask"].append(masked(temporal))
            streams["spatial"].append(spatial.tobytes())
            streams["blocks"].append(chosen.tobytes() + choices)
            low, high = nibbles(chosen)
            streams["blocks+nibbles"].append((low, high, choices))
            context = np.zeros((h, w), np.int64) if activity is None else np.digitize(activity, (2, 4, 8))
            for q in range(4):
                context_residuals[q].append(chosen[context == q])
            streams.setdefault("choices", []).append(choices)
            a = np.abs(signed(chosen)).astype(np.int32)
            activity = a.copy()
            activity[1:-1, 1:-1] = sum(a[1 + dy : h - 1 + dy, 1 + dx : w - 1 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)) // 9
        for k in ("temporal", "temporal+mask", "spatial", "blocks"):
            totals[k] += size(b"".join(streams[k]))
        parts = streams["blocks+nibbles"]
        choices = b"".join(p[2] for p in parts)
        totals["blocks+nibbles"] += size(b"".join(p[0] for p in parts), b"".join(p[1] for p in parts), choices)
        for q in range(4):
            if context_residuals[q]:
                low, high = nibbles(np.concatenate(context_residuals[q]))
                totals["blocks+nibbles+contexts"] += size(low, high)
        totals["blocks+nibbles+contexts"] += size(choices)
    raw = n * h * w
    return {k: raw / v for k, v in totals.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("y4m")
    parser.add_argument("--frames", type=int, default=0, help="study only the first N frames (default: all)")
    parser.add_argument("--chunk", type=int, default=30, help="frames per chunk (default 30: a 1 s chunk at 30 fps)")
    args = parser.parse_args()
    frames = read_y4m(args.y4m, args.frames or sys.maxsize)
    ratios = study(frames, args.chunk)
    print(" ".join(f"{k}={v:.2f}" for k, v in ratios.items()))


if __name__ == "__main__":
    main()
