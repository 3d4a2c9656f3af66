#!/usr/bin/env python3
"""OpenCV peer for Lumatrace's trajectory benchmark.

    python peer.py FRAMES.y4m [--runs 5] [--frames N]

Loads the Y (luma) plane of every frame of a YUV4MPEG2 file into memory first,
then, on one OpenCV thread, times two minimal ball detectors over all frames:

  mog2   createBackgroundSubtractorMOG2() (defaults) .apply(frame), then
         findContours(mask > 127, RETR_EXTERNAL, CHAIN_APPROX_SIMPLE) and
         minEnclosingCircle for every contour.
  diff3  three-frame differencing: absdiff(f[t], f[t-1]) & absdiff(f[t-1], f[t-2]),
         threshold at 15, connectedComponentsWithStats.

Prints one JSON line on stdout:
  {"opencv": ..., "frames": N, "width": W, "height": H, "runs": R,
   "mog2": {"fps": median, "seconds": [...]}, "diff3": {"fps": ..., "seconds": [...]}}
fps = frames / median seconds of a run (every frame is fed to each detector).
Errors go to stderr as one line naming the file (and frame), exit status 1.
"""

import argparse
import json
import os
import statistics
import sys
import time

# MOG2 marks foreground 255 and shadows 127 (detectShadows defaults to true):
# a pixel counts as moving when mask > MOG2_THRESHOLD, so shadows are dropped.
MOG2_THRESHOLD = 127
# diff3: a pixel moves when both consecutive differences exceed this.
DIFF_THRESHOLD = 15

# Bytes of the chroma planes per frame, as a function of (width, height),
# for each 8-bit Y4M colour space tag. The Y plane is always width*height.
_half = lambda n: (n + 1) // 2
CHROMA_BYTES = {
    "mono": lambda w, h: 0,
    "420jpeg": lambda w, h: 2 * _half(w) * _half(h),
    "420paldv": lambda w, h: 2 * _half(w) * _half(h),
    "420mpeg2": lambda w, h: 2 * _half(w) * _half(h),
    "420": lambda w, h: 2 * _half(w) * _half(h),
    "422": lambda w, h: 2 * _half(w) * h,
    "444": lambda w, h: 2 * w * h,
    "444alpha": lambda w, h: 3 * w * h,
}
DEFAULT_COLORSPACE = "420jpeg"  # what the YUV4MPEG2 format assumes without a C tag


class Y4MError(Exception):
    pass


def read_y4m_luma(path, max_frames=None):
    """Return (frames, width, height): frames is a list of HxW uint8 arrays (the Y planes)."""
    import numpy as np

    try:
        f = open(path, "rb")
    except OSError as e:
        raise Y4MError(f"{path}: cannot open: {e.strerror or e}")
    with f:
        header = f.readline(4096)
        if not header.startswith(b"YUV4MPEG2 ") or not header.endswith(b"\n"):
            raise Y4MError(f"{path}: not a YUV4MPEG2 file (no 'YUV4MPEG2 ' header line)")
        width = height = None
        colorspace = DEFAULT_COLORSPACE
        for tag in header[len(b"YUV4MPEG2 "):].split():
            key, value = chr(tag[0]), tag[1:].decode("ascii", "replace")
            try:
                if key == "W":
                    width = int(value)
                elif key == "H":
                    height = int(value)
            except ValueError:
                raise Y4MError(f"{path}: bad {key} tag {value!r} in the YUV4MPEG2 header")
            if key == "C":
                colorspace = value
        if not width or not height or width <= 0 or height <= 0:
            raise Y4MError(f"{path}: YUV4MPEG2 header has no valid W and H tags")
        if colorspace not in CHROMA_BYTES:
            raise Y4MError(
                f"{path}: unsupported colour space C{colorspace} "
                f"(8-bit {', '.join(sorted(CHROMA_BYTES))} are supported)")
        luma_bytes = width * height
        chroma_bytes = CHROMA_BYTES[colorspace](width, height)

        frames = []
        while max_frames is None or len(frames) < max_frames:
            index = len(frames)  # 0-based frame number, as named in errors
            line = f.readline(4096)
            if not line:
                break  # clean end of file
            if not line.startswith(b"FRAME") or not line.endswith(b"\n") or \
                    (len(line) > 6 and line[5:6] not in (b" ", b"\n")):
                if not line.endswith(b"\n") and b"FRAME".startswith(line.rstrip()):
                    raise Y4MError(f"{path}: frame {index}: truncated FRAME header")
                raise Y4MError(f"{path}: frame {index}: expected a FRAME header line, got {line[:20]!r}")
            y = np.empty((height, width), dtype=np.uint8)
            got = f.readinto(memoryview(y).cast("B"))
            if got != luma_bytes:
                raise Y4MError(
                    f"{path}: frame {index}: truncated Y plane ({got} of {luma_bytes} bytes)")
            if chroma_bytes:
                rest = f.read(chroma_bytes)
                if len(rest) != chroma_bytes:
                    raise Y4MError(
                        f"{path}: frame {index}: truncated chroma planes "
                        f"({len(rest)} of {chroma_bytes} bytes)")
            frames.append(y)
    if not frames:
        raise Y4MError(f"{path}: frame 0: the file has no frames")
    return frames, width, height


def time_mog2(cv2, frames):
    subtractor = cv2.createBackgroundSubtractorMOG2()  # fresh per run, not timed
    circles = 0
    start = time.perf_counter()
    for frame in frames:
        mask = subtractor.apply(frame)
        moving = (mask > MOG2_THRESHOLD).view("uint8")  # 0/1, no copy
        contours = cv2.findContours(moving, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[-2]
        for contour in contours:
            cv2.minEnclosingCircle(contour)
            circles += 1
    elapsed = time.perf_counter() - start
    return elapsed, circles


def time_diff3(cv2, frames):
    import numpy as np

    shape = frames[0].shape
    # Output buffers allocated once (not timed), as a C++ detector would.
    d_new = np.empty(shape, np.uint8)
    d_old = np.empty(shape, np.uint8)
    both = np.empty(shape, np.uint8)
    binary = np.empty(shape, np.uint8)
    labels = np.empty(shape, np.int32)
    components = 0
    start = time.perf_counter()
    for t in range(2, len(frames)):
        cv2.absdiff(frames[t], frames[t - 1], d_new)
        cv2.absdiff(frames[t - 1], frames[t - 2], d_old)
        cv2.bitwise_and(d_new, d_old, both)
        cv2.threshold(both, DIFF_THRESHOLD, 255, cv2.THRESH_BINARY, binary)
        n = cv2.connectedComponentsWithStats(binary, labels)[0]
        components += n - 1
    elapsed = time.perf_counter() - start
    return elapsed, components


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("y4m", help="YUV4MPEG2 file (only the Y plane is used)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per detector (median reported)")
    parser.add_argument("--frames", type=int, default=None, help="use at most the first N frames")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.frames is not None and args.frames < 1:
        parser.error("--frames must be at least 1")

    try:
        frames, width, height = read_y4m_luma(args.y4m, args.frames)
    except Y4MError as e:
        print(f"peer.py: {e}", file=sys.stderr)
        return 1
    if len(frames) < 3:
        print(f"peer.py: {args.y4m}: frame {len(frames)}: only {len(frames)} frame(s); "
              f"three-frame differencing needs at least 3", file=sys.stderr)
        return 1
    if args.frames is not None and len(frames) < args.frames:
        print(f"peer.py: {args.y4m}: only {len(frames)} frames (asked for {args.frames}); using them all",
              file=sys.stderr)

    import cv2

    cv2.setNumThreads(1)
    try:
        cv2.ocl.setUseOpenCL(False)
    except AttributeError:
        pass

    n = len(frames)
    result = {"opencv": cv2.__version__, "frames": n, "width": width, "height": height, "runs": args.runs}
    for name, timer in (("mog2", time_mog2), ("diff3", time_diff3)):
        seconds = [timer(cv2, frames)[0] for _ in range(args.runs)]
        median = statistics.median(seconds)
        result[name] = {"fps": n / median if median > 0 else None, "seconds": seconds}
    print(json.dumps(result, separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
