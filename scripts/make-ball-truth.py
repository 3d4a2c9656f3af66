#!/usr/bin/env python3
"""Ball ground truth for the real "kind A" clips in /work/shared/data.

The trajectory analyzer only ever sees luma; this script finds the ball in the ORIGINAL colour
video (colour threshold, usually combined with a difference from the median background), links
the detections into tracks, cuts the tracks into free flights (pieces that fit one parabola with
the clip's gravity), and writes one `lumatrace-truth` JSON file per clip to
Tests/TrajectoryTests/RealTruth/<folder>.truth.json.

Run from the repository root:

    /work/venv-truth/bin/python scripts/make-ball-truth.py            # writes the JSON files
    /work/venv-truth/bin/python scripts/make-ball-truth.py --sheets /tmp/truth-sheets
                                                                      # also draws contact sheets

Needs numpy, opencv-python-headless, ffmpeg and ffprobe. Output is deterministic (no randomness;
every number is rounded to 6 decimals).

Conventions (same as Sources/LumaSynth/GroundTruth.swift):
- frame = 0-based index in decode order, as produced by
  `ffmpeg -i CLIP -map 0:v:0 -fps_mode passthrough -f rawvideo -pix_fmt gray -`
  (frames are decoded here with the same command but `-pix_fmt rgb24`, and the count is checked
  against `ffprobe -count_frames`);
- x = px / W, y = 1 - py / H with continuous pixel coordinates (pixel centres at +0.5), so the
  origin is the lower-left corner; radius = radius_px / W.
"""

import argparse
import json
import os
import subprocess
import sys

import cv2
import numpy as np

DATA = "/work/shared/data"
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(REPO, "Tests", "TrajectoryTests", "RealTruth")

# --------------------------------------------------------------------------------------------
# Parameters per clip.
#   hsv        list of (low, high) OpenCV HSV ranges (H 0..179, S and V 0..255); a pixel is "ball
#              colour" when it is inside any of them.
#   motion     minimum max-over-RGB absolute difference from the median background (0 = colour only).
#   area       (min, max) blob area in pixels after the morphology.
#   radius     (min, max) blob radius in pixels (2 * sqrt(smallest eigenvalue of the pixel
#              covariance); for a disk this is its radius, for a motion-blurred streak the half width).
#   fill       minimum blob area / bounding-box area (rejects thin or ragged blobs).
#   roi        (x0, y0, x1, y1) pixel box searched for the ball (None = whole frame).
#   gate       how far (pixels) a detection may be from the track's prediction.
#   gravity    image-space gravity in pixels / frame^2 (downward positive), measured from the
#              longest clean flight of the clip with a free quadratic fit.
#   tol        largest residual (pixels) of a point from its flight's parabola.
#   min_points shortest flight that is listed.
#   ends       label of each flight's end, by flight number (1-based, in time order); decided by
#              looking at the frames (see README.md in the output folder).
#   negative   the ball is never thrown: the truth lists no flights.
#   juggling   chain flights into balls by hand (the next throw from the hand that caught a ball
#              is that ball).
# --------------------------------------------------------------------------------------------
CLIPS = {
    "ball-vertical-toss": dict(
        file="ball.mp4",
        # Moving pixels that are greenish, or grey enough not to be skin (the motion-blurred ball
        # is a faint, desaturated streak); skin is H < 15 with S > 60.
        hsv=[((16, 0, 0), (80, 255, 255)), ((0, 0, 0), (180, 50, 255))],
        motion=14, area=(250, 8000), radius=(12, 32), fill=0.45, roi=None,
        # Strong rolling-shutter / blur distortion: the apparent gravity grows from ~9 to ~16
        # px/frame^2 during the fall, so a free quadratic with a wide tolerance is used.
        gate=60, gravity=None, g_range=(5, 20), tol=14.0, min_r_frac=0.0, min_points=5,
        ends={1: "exit"}, negative=False, juggling=False,
        notes="Green ball tossed straight up by a hand entering from the bottom; it falls out of the "
              "bottom edge (caught below the frame). Strong motion blur and rolling-shutter "
              "distortion (apparent gravity grows from ~9 to ~16 px/frame^2), so the fit "
              "tolerance is wide; release frame 17 (ball merged with the hand) is left out.",
    ),
    "freethrow-basketball-side": dict(
        file="FreeThrow.mp4",
        hsv=[((0, 25, 20), (25, 255, 200)), ((115, 25, 20), (180, 255, 200))],  # brown/red, not sky
        motion=30, area=(120, 900), radius=(7, 16), fill=0.5, roi=None,
        # Frames 128-133: the ball is inside the rim and net (not free), checked by eye.
        exclude=[(128, 133)],
        gate=30, gravity=None, g_range=(0.6, 1.3), perspective=True, tol=2.0, min_points=5,
        ends={1: "bounce", 2: "bounce"}, negative=False, juggling=False,
        notes="Free throw, released at frame ~97 (97-101 are missing or partly masked where the "
              "ball crosses the roof line), enters the rim at 128; 128-133 (inside rim and net) are "
              "excluded by hand; the second flight is the drop out of the net to the ground "
              "(bounce at ~148, behind the fence colours). Dribbles before the shot are not listed.",
    ),
    "basketball-court-shots": dict(
        file="three_score_two_miss.mp4",
        hsv=[((0, 25, 20), (25, 255, 200)), ((115, 25, 20), (180, 255, 200))],
        motion=30, area=(120, 900), radius=(7, 16), fill=0.5, roi=None,
        # The ball flies away from the camera towards the hoop: x is not linear in t.
        gate=30, gravity=None, g_range=(2.5, 6.0), perspective=True, tol=2.5, min_points=5,
        ends={1: "bounce", 3: "bounce", 4: "bounce", 6: "bounce", 7: "bounce", 8: "bounce",
              10: "bounce", 11: "bounce"},
        negative=False, juggling=False,
        notes="Five jump shots. Shot flights end at the rim/backboard; their last frames near the "
              "hoop (ball in front of the backboard and buildings) are often missing. Shorter "
              "flights are drops from the rim to the ground and bounces, found automatically.",
    ),
    "juggling-3ball-cascade": dict(
        file="ss3_id_01.mp4",
        hsv=[((30, 80, 60), (55, 255, 255))],
        motion=0, area=(150, 1500), radius=(9, 20), fill=0.5, roi=None,
        gate=40, gravity=4.2, tol=2.5, min_points=5, ends={}, negative=False, juggling=True,
        notes="Three-ball cascade; each throw from hand to hand is one segment (end caught; the "
              "first starts in flight at frame 1 and the last runs to the clip end). Balls are "
              "chained by hand (the next throw from the catching hand continues the same ball), so "
              "ball names are best effort. Frames where a ball is half hidden by a hand are left out.",
    ),
    "ball-hand-moved-negative": dict(
        file="ball4.mp4",
        hsv=[((30, 60, 40), (90, 255, 255))],
        motion=0, area=(500, 20000), radius=(15, 80), fill=0.4, roi=None,
        gate=80, gravity=None, tol=2.0, min_points=5, ends={}, negative=True, juggling=False,
        notes="NEGATIVE clip: the green ball is carried around by hand and never thrown or "
              "released (checked by eye on the whole clip), so there are no ball segments.",
    ),
}


# ---------------------------------------------------------------------------------- decoding
def probe_frame_count(path):
    """Frame count by actually decoding the first video stream (ffprobe -count_frames)."""
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
         "-show_entries", "stream=nb_read_frames,width,height", "-of", "json", path],
        check=True, capture_output=True, text=True).stdout
    s = json.loads(out)["streams"][0]
    return int(s["width"]), int(s["height"]), int(s["nb_read_frames"])


def decode_rgb(path):
    """All frames as an (N, H, W, 3) uint8 RGB array, in the analyzer's decode order."""
    w, h, n = probe_frame_count(path)
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
         "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], check=True, capture_output=True).stdout
    frames = np.frombuffer(raw, np.uint8).reshape(-1, h, w, 3)
    if len(frames) != n:
        sys.exit(f"{path}: decoded {len(frames)} frames, ffprobe counted {n}")
    return frames


# ------------------------------------------------------------------------------- detection
def median_background(frames):
    """Per-pixel median of every 3rd frame (the cameras are fixed)."""
    return np.median(frames[::3], axis=0).astype(np.int16)


def blob_geometry(ys, xs):
    """Centre (continuous pixel coordinates) and radius of a blob given its pixel indices."""
    cx, cy = xs.mean() + 0.5, ys.mean() + 0.5
    cov = np.cov(np.vstack([xs, ys]).astype(np.float64)) if len(xs) > 2 else np.eye(2)
    lam = max(float(np.linalg.eigvalsh(cov)[0]), 0.0)
    # Uniform disk of radius R: variance R^2 / 4 along any axis. Add 1/12 px^2 of pixel area.
    return cx, cy, 2.0 * np.sqrt(lam + 1.0 / 12.0)


def detect_candidates(frames, bg, p):
    """Ball-like blobs per frame: list of (cx, cy, r, area) in pixels, one list per frame."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    out = []
    for rgb in frames:
        hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
        mask = np.zeros(hsv.shape[:2], np.uint8)
        for lo, hi in p["hsv"]:
            mask |= cv2.inRange(hsv, np.array(lo, np.uint8), np.array(hi, np.uint8))
        if p["motion"] > 0:
            diff = np.abs(rgb.astype(np.int16) - bg).max(axis=2)
            mask &= (diff > p["motion"]).astype(np.uint8) * 255
        if p["roi"] is not None:
            x0, y0, x1, y1 = p["roi"]
            roi = np.zeros_like(mask)
            roi[y0:y1, x0:x1] = 255
            mask &= roi
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        found = []
        for k in range(1, n):
            x, y, w, h, area = stats[k]
            if not (p["area"][0] <= area <= p["area"][1]):
                continue
            if area < p["fill"] * w * h:
                continue
            ys, xs = np.nonzero(labels[y:y + h, x:x + w] == k)
            cx, cy, r = blob_geometry(ys + y, xs + x)
            # A blob cut by the frame edge has a biased centre: skip it (the ball is partly outside).
            at_edge = x == 0 or y == 0 or x + w == mask.shape[1] or y + h == mask.shape[0]
            if p["radius"][0] <= r <= p["radius"][1] and not at_edge:
                found.append((cx, cy, r, int(area)))
        out.append(found)
    return out


# -------------------------------------------------------------------------------- tracking
def drop_excluded(cands, p):
    """Empty the candidate lists of frames listed in the clip's `exclude` ranges (inclusive)."""
    out = list(cands)
    for a, b in p.get("exclude", []):
        for i in range(a, b + 1):
            out[i] = []
    return out


def link_tracks(cands, p, max_gap=3):
    """Greedy nearest-neighbour linking of detections into tracks.

    Each track predicts its next position from its last two points (constant velocity plus the
    clip's gravity); detections are given to the nearest prediction within `gate` pixels, closest
    pairs first. A track ends after `max_gap` frames without a detection.
    Returns a list of tracks, each a list of (frame, cx, cy, r) in frame order.
    """
    g = p["gravity"] or 0.0
    active, done = [], []
    for i, found in enumerate(cands):
        pairs = []
        for ti, tr in enumerate(active):
            f1, x1, y1, _ = tr[-1]
            dt = i - f1
            if len(tr) >= 2:
                f0, x0, y0, _ = tr[-2]
                vx, vy = (x1 - x0) / (f1 - f0), (y1 - y0) / (f1 - f0)
                px, py, gate = x1 + vx * dt, y1 + vy * dt + 0.5 * g * dt * dt, p["gate"]
            else:
                px, py, gate = x1, y1, 2 * p["gate"]
            for ci, (cx, cy, _, _) in enumerate(found):
                d = np.hypot(cx - px, cy - py)
                if d <= gate * dt:
                    pairs.append((d, ti, ci))
        used_t, used_c = set(), set()
        for d, ti, ci in sorted(pairs):
            if ti in used_t or ci in used_c:
                continue
            used_t.add(ti)
            used_c.add(ci)
            cx, cy, r, _ = found[ci]
            active[ti].append((i, cx, cy, r))
        for ci, (cx, cy, r, _) in enumerate(found):
            if ci not in used_c:
                active.append([(i, cx, cy, r)])
        still = []
        for tr in active:
            (still if i - tr[-1][0] < max_gap else done).append(tr)
        active = still
    return sorted(done + active, key=lambda tr: tr[0][0])


# ---------------------------------------------------------------------------- segmentation
def parabola_residuals(pts, g, perspective=False):
    """Distances (px) of points (frame, x, y, r) from the best parabola through them:
    x linear in t (quadratic when `perspective`: a ball flying away from the camera slows down in
    the image); y = c + d t + g t^2 / 2 with the clip's gravity g (or a free quadratic if g is
    None)."""
    a = np.asarray(pts, dtype=np.float64)
    t = a[:, 0] - a[0, 0]
    ones = np.ones_like(t)
    ax = np.vstack([ones, t, t * t]).T if perspective else np.vstack([ones, t]).T
    rx = a[:, 1] - ax @ np.linalg.lstsq(ax, a[:, 1], rcond=None)[0]
    if g is None:
        ay = np.vstack([ones, t, t * t]).T
        yy = a[:, 2]
    else:
        ay = np.vstack([ones, t]).T
        yy = a[:, 2] - 0.5 * g * t * t
    ry = yy - ay @ np.linalg.lstsq(ay, yy, rcond=None)[0]
    return np.hypot(rx, ry)


def fitted_gravity(pts):
    """Quadratic coefficient * 2 of a free fit of y(t): the flight's gravity in px/frame^2."""
    a = np.asarray(pts, dtype=np.float64)
    return 2.0 * np.polyfit(a[:, 0] - a[0, 0], a[:, 2], 2)[0]


def split_flights(track, p, max_gap=3):
    """Cut one track into free flights.

    1. From every start point, grow a window to the right while all its points stay within `tol`
       of one parabola (and no gap exceeds `max_gap` frames).
    2. Keep the longest windows that do not overlap.
    3. Merge neighbouring kept windows when their union still fits one parabola (a window can
       stop early at a single noisy point, e.g. a ball half hidden by the hand).
    4. Drop flights whose own free-fit gravity is far from the clip's (hand-carried motion).
    Returns lists of points (frame, x, y, r).
    """
    # A blob much smaller than the track's typical one is a partly hidden ball (behind a hand,
    # merging with a dark roof line): its centre is biased, so leave that frame out.
    rmed = np.median([q[3] for q in track])
    track = [q for q in track if q[3] >= p.get("min_r_frac", 0.75) * rmed]
    g, tol, n = p["gravity"], p["tol"], len(track)
    persp = p.get("perspective", False)
    windows = []
    for s in range(n):
        e = s + 1
        while e < n and track[e][0] - track[e - 1][0] <= max_gap:
            if e + 1 - s >= 4 and parabola_residuals(track[s:e + 1], g, persp).max() > tol:
                break
            e += 1
        if e - s >= 4:
            windows.append((s, e))
    chosen, taken = [], np.zeros(n, bool)
    for s, e in sorted(windows, key=lambda w: (-(w[1] - w[0]), w[0])):
        if not taken[s:e].any():
            taken[s:e] = True
            chosen.append((s, e))
    chosen.sort()
    merged = []
    for s, e in chosen:
        if merged:
            ps, pe = merged[-1]
            if (pe == s and track[s][0] - track[pe - 1][0] <= max_gap
                    and parabola_residuals(track[ps:e], g, persp).max() <= tol):
                merged[-1] = (ps, e)
                continue
        merged.append((s, e))
    flights = []
    for s, e in merged:
        f = track[s:e]
        if len(f) < p["min_points"]:
            continue
        fg = fitted_gravity(f)
        if g is not None and abs(fg - g) > p.get("g_slack", 0.3) * g:
            continue
        if g is None and not (p["g_range"][0] <= fg <= p["g_range"][1]):
            continue
        # a held or rolling ball can fit a parabola over a few frames: require real travel
        travel = np.hypot(f[-1][1] - f[0][1], f[-1][2] - f[0][2])
        if travel < 3 * np.median([q[3] for q in f]):
            continue
        flights.append(f)
    return flights


# ---------------------------------------------------------------------------- labelling
def guess_end(flight, w, h, n):
    """'end' when the flight lasts to the last frame, 'exit' when the last point is within two radii of the frame border, else 'caught'."""
    if flight[-1][0] == n - 1:
        return "end"
    _, x, y, r = flight[-1]
    return "exit" if min(x, y, w - x, h - y) < 2.5 * r else "caught"


def chain_balls(flights, w):
    """Ball number per flight for juggling. In a cascade a flight moving right is caught by the
    image-right hand, and that hand's next throw (a flight moving left, starting after the catch)
    is the same ball; likewise for the other hand."""
    vx = [(f[-1][1] - f[0][1]) / max(1, f[-1][0] - f[0][0]) for f in flights]
    ball = [0] * len(flights)
    claimed = [False] * len(flights)
    nxt = 1
    for i in sorted(range(len(flights)), key=lambda k: flights[k][0][0]):
        if ball[i] == 0:
            ball[i] = nxt
            nxt += 1
        later = [j for j in range(len(flights)) if not claimed[j] and j != i
                 and flights[j][0][0] > flights[i][-1][0] - 2 and (vx[j] > 0) != (vx[i] > 0)]
        if later:
            j = min(later, key=lambda k: flights[k][0][0])
            claimed[j] = True
            ball[j] = ball[i]
    return ball


def make_segments(flights, p, w, h, n):
    """Truth segments: ids throw1.. in time order, ball names, end labels, normalized points.
    Every point of a flight gets the flight's median measured radius (motion blur and partial
    masks make single-frame radii noisy; the ball's size does not change within a flight)."""
    balls = chain_balls(flights, w) if p["juggling"] else [1] * len(flights)
    segs = []
    for k, (f, b) in enumerate(zip(flights, balls), start=1):
        r = float(np.median([q[3] for q in f]))
        pts = [[int(q[0]), round(q[1] / w, 6), round(1 - q[2] / h, 6), round(r / w, 6)] for q in f]
        segs.append(dict(id=f"throw{k}", ball=f"ball{b}", end=p["ends"].get(k, guess_end(f, w, h, n)),
                         points=pts))
    return segs


# ------------------------------------------------------------------------------- writing
def number(v):
    """Shortest text of a 6-decimal number (12, 0.5, 0.123457), as the Swift writer does."""
    if isinstance(v, int):
        return str(v)
    t = f"{v:.6f}".rstrip("0").rstrip(".")
    return "0" if t in ("-0", "") else t


def truth_json(w, h, n, notes, segs):
    """Canonical truth text: fixed key order, one point per line (matches canonicalJSON())."""
    out = ["{", '  "format": "lumatrace-truth",', '  "version": 1,', f'  "width": {w},',
           f'  "height": {h},', f'  "frames": {n},', f'  "notes": {json.dumps(notes)},']
    if not segs:
        out.append('  "ballSegments": [],')
    else:
        out.append('  "ballSegments": [')
        for i, s in enumerate(segs):
            pts = ",\n".join("      [" + ", ".join(number(v) for v in q) + "]" for q in s["points"])
            tail = "," if i + 1 < len(segs) else ""
            out.append(f'    {{"id": {json.dumps(s["id"])}, "ball": {json.dumps(s["ball"])}, '
                       f'"end": {json.dumps(s["end"])}, "points": [\n{pts}\n    ]}}{tail}')
        out.append("  ],")
    out.append('  "objectTracks": []')
    out.append("}")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------- visual checks
COLOURS = [(255, 0, 0), (0, 160, 255), (0, 200, 0), (255, 0, 255), (255, 140, 0), (0, 0, 255),
           (120, 60, 0), (0, 120, 120)]


def draw_timeline(cands, flights, w, h, n, path):
    """y(t) (top) and x(t) (bottom) of every detection (grey) and every flight (coloured)."""
    sx, sy = 3, 0.5 if h > 600 else 0.8
    img = np.full((int(h * sy) + int(w * sy) + 30, n * sx + 10, 3), 255, np.uint8)
    oy = int(h * sy) + 20
    for i, found in enumerate(cands):
        for cx, cy, _, _ in found:
            cv2.circle(img, (i * sx + 5, int(cy * sy)), 1, (170, 170, 170), -1)
            cv2.circle(img, (i * sx + 5, oy + int(cx * sy)), 1, (170, 170, 170), -1)
    for k, f in enumerate(flights):
        c = COLOURS[k % len(COLOURS)]
        for q in f:
            cv2.circle(img, (q[0] * sx + 5, int(q[2] * sy)), 2, c, -1)
            cv2.circle(img, (q[0] * sx + 5, oy + int(q[1] * sy)), 2, c, -1)
        cv2.putText(img, str(k + 1), (f[0][0] * sx + 5, max(12, int(f[0][2] * sy) - 8)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.4, c, 1)
    for i in range(0, n, 10):
        cv2.putText(img, str(i), (i * sx + 5, oy - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.3, (0, 0, 0), 1)
    cv2.imwrite(path, img)


def draw_flights(frames, flights, path, cols=4, max_width=480):
    """One tile per flight: its middle frame with every point of the flight drawn on it."""
    h, w = frames.shape[1:3]
    scale = min(1.0, max_width / w)
    tiles = []
    for k, f in enumerate(flights):
        im = cv2.cvtColor(frames[f[len(f) // 2][0]], cv2.COLOR_RGB2BGR)
        for q in f:
            cv2.circle(im, (int(q[1]), int(q[2])), max(2, int(q[3])), (0, 0, 255), 1)
        im = cv2.resize(im, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        cv2.putText(im, f"{k + 1}: {f[0][0]}-{f[-1][0]}", (5, 20), cv2.FONT_HERSHEY_SIMPLEX,
                    0.6, (0, 0, 255), 2)
        tiles.append(im)
    if not tiles:
        return
    while len(tiles) % cols:
        tiles.append(np.zeros_like(tiles[0]))
    rows = [np.hstack(tiles[r:r + cols]) for r in range(0, len(tiles), cols)]
    cv2.imwrite(path, np.vstack(rows))


# ----------------------------------------------------------------------------------- main
NOTES_COMMON = (
    "Made by scripts/make-ball-truth.py from the original colour video (HSV colour threshold{motion}, "
    "blob size/fill filter, nearest-neighbour tracking, split into pieces that fit one parabola). "
    "Points are measured blob centroids, in flight only; frames where the ball is held, rolling, "
    "partly hidden or cut by the frame edge are left out. Radius = the flight's median blob radius. "
    "end: bounce = hits floor, rim, net or backboard; caught = lands in a hand; exit = leaves the "
    "frame; end = clip ends in flight. See Tests/TrajectoryTests/RealTruth/README.md. ")


def process_clip(name, p, sheets):
    """Decode one clip, find its flights and write its truth file (and contact sheets)."""
    frames = decode_rgb(os.path.join(DATA, name, p["file"]))
    n, h, w = frames.shape[:3]
    cands = detect_candidates(frames, median_background(frames), p)
    cands = drop_excluded(cands, p)
    flights = []
    if not p["negative"]:
        for track in link_tracks(cands, p):
            flights += split_flights(track, p)
        flights.sort(key=lambda f: (f[0][0], f[0][1]))
    segs = make_segments(flights, p, w, h, n)
    notes = NOTES_COMMON.format(motion=" AND difference from the median background" if p["motion"] else "")
    notes += p["notes"]
    with open(os.path.join(OUT_DIR, name + ".truth.json"), "w") as fh:
        fh.write(truth_json(w, h, n, notes, segs))
    if sheets:
        os.makedirs(sheets, exist_ok=True)
        draw_timeline(cands, flights, w, h, n, os.path.join(sheets, name + ".timeline.png"))
        narrow = w < 600
        draw_flights(frames, flights, os.path.join(sheets, name + ".flights.png"),
                     cols=6 if narrow else 4, max_width=240 if narrow else 480)
    return segs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sheets", help="folder for contact sheets (timeline and per-flight PNGs)")
    ap.add_argument("clips", nargs="*", help="clip folder names (default: all)")
    args = ap.parse_args()
    os.makedirs(OUT_DIR, exist_ok=True)
    for name in args.clips or CLIPS:
        segs = process_clip(name, CLIPS[name], args.sheets)
        print(f"{name}: {len(segs)} segments")
        for s in segs:
            f = [int(q[0]) for q in s["points"]]
            print(f"  {s['id']} {s['ball']} {s['end']}: frames {f[0]}-{f[-1]} ({len(f)} points)")


if __name__ == "__main__":
    main()
