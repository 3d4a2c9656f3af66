#!/usr/bin/env python3
"""OpenCV peer for Lumatrace's box-tracking benchmark.

    python trackers.py FRAMES.y4m --box X,Y,W,H [--trackers KCF,CSRT,MOSSE,MIL] [--runs 3]

Loads the Y (luma) plane of every frame of a YUV4MPEG2 file into memory first (with
peer.py's reader), then, on one OpenCV thread, runs each tracker over the gray frames:
init on frame 0 with --box (x, y, width, height in pixels, top-left origin; floats are
rounded to the nearest integer, width and height to at least 1, as OpenCV wants an
integer Rect), then update on frames 1..N-1. The trackers get the 1-channel frames
as they are (no BGR copies are made by this script):

  KCF    cv2.TrackerKCF_create with desc_pca = desc_npca = TrackerKCF_GRAY and
         compressed_size = 1 (the defaults add colour names and fail on 1 channel).
  CSRT   cv2.TrackerCSRT_create with use_color_names = False, use_gray = True
         (HOG + gray features: colour names of a gray image carry nothing). CSRT
         itself turns each 1-channel frame into BGR (cvtColor) in init and update,
         with any params, so that conversion is part of its timed cost.
  MOSSE  cv2.legacy.TrackerMOSSE_create() (defaults; the legacy tuple-box API).
  MIL    cv2.TrackerMIL_create() (defaults).

MIL draws its random Haar features with the C library's rand() and its samples with
cv::theRNG(): both are reset before every run (srand(1), cv2.setRNGSeed(0): the states
a fresh process starts from), so every run and tracker order gives the same boxes.
MIL's accuracy depends a lot on these draws; other seeds give other boxes.

When update() reports failure the previous box is kept for that frame and the frame
counts as lost (OTB one-pass evaluation: no re-initialisation). Init plus all updates
are timed with time.perf_counter, --runs times, each with a fresh tracker (created
outside the timed part); fps = frames / median seconds.

Prints one JSON line per tracker on stdout, in the order asked:
  {"tracker": "KCF", "opencv": ..., "frames": N, "runs": R, "fps": ..., "seconds": [...],
   "lostFrames": n, "boxes": [[x, y, w, h], ...]}
lostFrames and boxes are from the last run; boxes has N entries, frame 0 being the
(rounded) init box; values are rounded to 3 decimals.
Errors (unreadable file, bad --box, unknown tracker, a tracker that cannot be created or
fails) go to stderr as one line naming the file or option, exit status 1.
"""

import argparse
import ctypes
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer import read_y4m_luma, Y4MError  # noqa: E402

PROG = "trackers.py"
DEFAULT_TRACKERS = "KCF,CSRT,MOSSE,MIL"


class TrackerError(Exception):
    pass


def make_kcf(cv2):
    params = cv2.TrackerKCF_Params()
    params.desc_pca = cv2.TrackerKCF_GRAY    # any other mix crashes on 1-channel frames
    params.desc_npca = cv2.TrackerKCF_GRAY
    params.compressed_size = 1
    return cv2.TrackerKCF_create(params)


def make_csrt(cv2):
    params = cv2.TrackerCSRT_Params()
    params.use_color_names = False  # colour names of a gray image carry nothing
    params.use_gray = True
    return cv2.TrackerCSRT_create(params)


# name -> factory(cv2) returning a fresh tracker
TRACKERS = {
    "KCF": make_kcf,
    "CSRT": make_csrt,
    "MOSSE": lambda cv2: cv2.legacy.TrackerMOSSE_create(),
    "MIL": lambda cv2: cv2.TrackerMIL_create(),
}


def parse_box(text):
    """'X,Y,W,H' (floats) -> (x, y, w, h) ints for OpenCV, or raise ValueError."""
    parts = text.split(",")
    if len(parts) != 4:
        raise ValueError(f"expected X,Y,W,H (4 comma-separated numbers), got {text!r}")
    try:
        x, y, w, h = (float(p) for p in parts)
    except ValueError:
        raise ValueError(f"expected X,Y,W,H (4 comma-separated numbers), got {text!r}")
    if not all(math.isfinite(v) for v in (x, y, w, h)) or w <= 0 or h <= 0:
        raise ValueError(f"{text!r}: numbers must be finite, width and height positive")
    nearest = lambda v: int(math.floor(v + 0.5))  # round half up (not Python's half-even)
    return nearest(x), nearest(y), max(1, nearest(w)), max(1, nearest(h))


def reseed(cv2):
    """Reset the random states trackers draw from (MIL: libc rand() and cv::theRNG())."""
    cv2.setRNGSeed(0)  # RNG(0) is the state theRNG() starts from
    try:
        ctypes.CDLL(None).srand(1)  # the process's C library, which OpenCV shares
    except (OSError, AttributeError):
        pass  # no C library symbols to reach (e.g. Windows): runs may differ


def run_once(cv2, name, frames, box):
    """One fresh run: returns (seconds, lost frames, boxes)."""
    reseed(cv2)
    tracker = TRACKERS[name](cv2)  # created outside the timed part
    updates = [None] * (len(frames) - 1)
    try:
        start = time.perf_counter()
        ok_init = tracker.init(frames[0], box)  # None (new API) or a bool (legacy API)
        for t in range(1, len(frames)):
            updates[t - 1] = tracker.update(frames[t])
        elapsed = time.perf_counter() - start
    except cv2.error as e:
        raise TrackerError(f"{name}: OpenCV error: {str(e).strip().splitlines()[-1]}")
    if ok_init is False:
        raise TrackerError(f"{name}: init failed on frame 0 with box {list(box)}")
    # Untimed bookkeeping: a failed update keeps the previous box (no re-initialisation).
    boxes = [[float(v) for v in box]]
    lost = 0
    for ok, found in updates:
        if ok:
            boxes.append([round(float(v), 3) for v in found])
        else:
            boxes.append(boxes[-1])
            lost += 1
    return elapsed, lost, boxes


def main(argv=None):
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("y4m", help="YUV4MPEG2 file (only the Y plane is used)")
    parser.add_argument("--box", required=True, help="first-frame box X,Y,W,H in pixels, top-left origin")
    parser.add_argument("--trackers", default=DEFAULT_TRACKERS,
                        help=f"comma-separated, run in order (default {DEFAULT_TRACKERS})")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per tracker (median reported)")

    def fail(message):
        print(f"{PROG}: {message}", file=sys.stderr)
        sys.exit(1)

    parser.error = fail  # argparse's own errors too: one line, exit 1
    args = parser.parse_args(argv)
    if args.runs < 1:
        fail("--runs must be at least 1")
    try:
        box = parse_box(args.box)
    except ValueError as e:
        fail(f"--box: {e}")
    names = [n.strip().upper() for n in args.trackers.split(",")]
    for n in names:
        if n not in TRACKERS:
            fail(f"--trackers: unknown tracker {n!r} (known: {', '.join(TRACKERS)})")

    try:
        frames, width, height = read_y4m_luma(args.y4m)
    except Y4MError as e:
        fail(e)
    x, y, w, h = box
    if x >= width or y >= height or x + w <= 0 or y + h <= 0:
        fail(f"--box: {list(box)} lies outside the {width}x{height} frames of {args.y4m}")

    import cv2

    cv2.setNumThreads(1)
    try:
        cv2.ocl.setUseOpenCL(False)
    except AttributeError:
        pass
    for n in names:  # fail before any output if a tracker cannot be made
        try:
            TRACKERS[n](cv2)
        except (cv2.error, AttributeError) as e:
            fail(f"--trackers: cannot create {n} with OpenCV {cv2.__version__}: "
                 f"{str(e).strip().splitlines()[-1]}")

    count = len(frames)
    for n in names:
        seconds = []
        try:
            for _ in range(args.runs):
                elapsed, lost, boxes = run_once(cv2, n, frames, box)
                seconds.append(elapsed)
        except TrackerError as e:
            fail(f"{args.y4m}: {e}")
        median = statistics.median(seconds)
        print(json.dumps({
            "tracker": n, "opencv": cv2.__version__, "frames": count, "runs": args.runs,
            "fps": count / median if median > 0 else None, "seconds": seconds,
            "lostFrames": lost, "boxes": boxes,
        }, separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
