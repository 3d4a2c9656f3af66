"""What an export must draw, read straight from an event log's JSON lines: the specification the
Foxglove and Rerun tests check their files against, written apart from `lumatrace.overlays` so
that a mistake there cannot hide in both.

Per frame, what each event's declared shape draws (see the table in `lumatrace.overlays`):

    pathUpdate    a line through detectedPoints, the newest point as a dot (its radius is
                  movingAverageRadius x width), the projected points as dots; a label with the confidence
    pathEnd       a line through its points, labelled
    box           a box, labelled        boxRecovered  the same        boxLost  the track's last box
    quadrilateral a closed line          blobs         a box per blob
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

RECORDINGS = Path(__file__).resolve().parents[2] / "Recordings"
BUNDLED = ["balls-synth", "tracking-synth", "toss-real"]


def recording_path(name: str) -> Path:
    return RECORDINGS / f"{name}.luma"


def events_path(name: str) -> Path:
    return RECORDINGS / f"{name}.events.jsonl"


def export_bundled(tmp_path_factory, write, suffix: str, read) -> dict:
    """Each bundled recording exported once by `write` (`to_mcap`, `to_rrd`) into a fresh folder:
    name -> (path, the summary `write` returned, `read(path)`)."""
    folder = tmp_path_factory.mktemp(suffix.lstrip("."))
    out = {}
    for name in BUNDLED:
        path = folder / f"{name}{suffix}"
        summary = write(recording_path(name), events_path(name), path)
        out[name] = (path, summary, read(path))
    return out


def read_log(path):
    """(header, events): the header line and every event line as JSON, in order."""
    lines = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    header, rest = lines[0], lines[1:]
    return header, [e for e in rest if "frame" in e]


def shapes_of(header) -> dict:
    return {(a["name"], d["kind"]): d.get("shape") for a in header["analyzers"] for d in a.get("events", [])}


def pixel(point, width, height):
    """A log point (normalized, lower-left origin) in pixels from the top-left corner."""
    return (point[0] * width, (1 - point[1]) * height)


def box_corners(box, width, height):
    """A log box [x, y, w, h] (lower-left corner at x, y) as its four pixel corners, clockwise on
    screen from the top-left one."""
    x, y, w, h = box
    left, top = x * width, (1 - y - h) * height
    return [(left, top), (left + w * width, top), (left + w * width, top + h * height), (left, top + h * height)]


def expected_nanoseconds(ticks, timescale) -> int:
    """ticks / timescale seconds in nanoseconds, rounded to the nearest (half up)."""
    exact = Fraction(int(ticks) * 10**9, int(timescale))
    return int(exact + Fraction(1, 2)) if exact >= 0 else -int(-exact + Fraction(1, 2))


def draws_fitted_path(data) -> bool:
    """Whether a pathUpdate's `timeFit` is drawn (as `lumatrace render` draws it): x of degree 1 or
    2, y of degree 2, and a `timeRange.duration` of at least 0."""
    fit, span = data.get("timeFit") or {}, data.get("timeRange") or {}
    return (len(fit.get("x") or []) in (2, 3) and len(fit.get("y") or []) == 3
            and isinstance(span.get("duration"), (int, float)) and span["duration"] >= 0)


def fitted_path(data, width, height, samples=48):
    """A pathUpdate's fitted path in pixels: `samples` + 1 points from t = 0 to timeRange.duration."""
    fit, duration = data["timeFit"], data["timeRange"]["duration"]

    def value(coefficients, t):
        return sum(c * t ** k for k, c in enumerate(coefficients))

    return [pixel((value(fit["x"], duration * k / samples), value(fit["y"], duration * k / samples)), width, height)
            for k in range(samples + 1)]


def foxglove_primitives(path, analyzer=None) -> dict:
    """frame -> Counter of what its ImageAnnotations hold (of one `analyzer`, or all): `strip`,
    `loop` and `points` (PointsAnnotation types LINE_STRIP, LINE_LOOP, POINTS), `circle`, `text`."""
    header, events = read_log(path)
    shapes = shapes_of(header)
    out: dict = defaultdict(Counter)
    live = set()
    for e in events:
        if analyzer is not None and e["analyzer"] != analyzer:
            continue
        shape, data, c = shapes.get((e["analyzer"], e["kind"])), e.get("data") or {}, out[e["frame"]]
        key = (e["analyzer"], data.get("id"))
        if shape == "pathUpdate" and data.get("detectedPoints"):
            c["strip"] += 1 + draws_fitted_path(data)
            c["circle" if "movingAverageRadius" in data else "points"] += 1
            c["text"] += "confidence" in data or bool(data.get("id"))
            c["points"] += bool(data.get("projectedPoints"))
        elif shape == "pathEnd" and data.get("points"):
            c["strip"] += 1
            c["text"] += 1
        elif shape in ("box", "boxRecovered"):
            c["loop"] += 1
            c["text"] += 1
            live.add(key)
        elif shape == "boxLost" and key in live:
            c["loop"] += 1
            c["text"] += 1
            live.discard(key)
        elif shape == "quadrilateral":
            c["loop"] += 1
            c["text"] += "id" in data or "confidence" in data
        elif shape == "blobs":
            c["loop"] += len(data["blobs"])
    return {f: c for f, c in out.items() if +c}


def rerun_instances(path) -> dict:
    """(analyzer, layer) -> {frame: instances} for every layer the log draws on (a Rerun entity
    `camera/annotations/ANALYZER/LAYER`), with the instances (boxes, strips, points) each frame
    logs there."""
    header, events = read_log(path)
    shapes = shapes_of(header)
    out: dict = defaultdict(Counter)
    live = set()

    def add(layer, frame, n):
        if n:
            out[(e["analyzer"], layer)][frame] += n

    for e in events:
        shape, data, frame = shapes.get((e["analyzer"], e["kind"])), e.get("data") or {}, e["frame"]
        key = (e["analyzer"], data.get("id"))
        if shape == "pathUpdate" and data.get("detectedPoints"):
            add("paths", frame, 1)
            add("fit", frame, draws_fitted_path(data))
            add("positions", frame, 1)
            add("projected", frame, len(data.get("projectedPoints") or []))
        elif shape == "pathEnd" and data.get("points"):
            add("ended", frame, 1)
        elif shape == "box":
            add("boxes", frame, 1)
            live.add(key)
        elif shape == "boxRecovered":
            add("recovered", frame, 1)
            live.add(key)
        elif shape == "boxLost" and key in live:
            add("lost", frame, 1)
            live.discard(key)
        elif shape == "quadrilateral":
            add("quads", frame, 1)
        elif shape == "blobs":
            add("blobs", frame, len(data["blobs"]))
    return {k: dict(v) for k, v in out.items()}


def write_log(path, analyzers, events, *, width=320, height=180, frames=90, digest=None):
    """Writes a small version-1 event log that `lumatrace` reads (a full header, a footer whose
    count and SHA-256 of the event lines check): `analyzers` as [(name, [(kind, shape), ...])],
    `events` as [(frame, analyzer, kind, data)]; `digest` the recording's frames digest, if the log
    is to name it."""
    recording = {"file": "x.luma", "bytes": 0, "sha256": digest or "", "frames": frames, "width": width,
                 "height": height, "timescale": 30}
    header = {"format": "lumatrace.events", "version": 1, "recording": recording,
              "engine": {"name": "lumatrace", "version": "0.1.0"},
              "replay": {"from": 0, "to": frames - 1, "skipDamaged": False},
              "analyzers": [{"name": name, "version": "1", "frameAnalysisSpacing": 0.0,
                             "regionOfInterest": [0.0, 0.0, 1.0, 1.0], "configuration": {},
                             "events": [{"kind": k, "version": 1, "shape": s} for k, s in kinds]}
                            for name, kinds in analyzers]}
    lines = [json.dumps({"frame": f, "t": f / 30, "analyzer": a, "kind": k, "data": d}) + "\n" for f, a, k, d in events]
    footer = {"end": {"complete": True, "frames": frames, "events": len(events), "counts": {},
                      "sha256": hashlib.sha256("".join(lines).encode()).hexdigest()}}
    Path(path).write_text(json.dumps(header) + "\n" + "".join(lines) + json.dumps(footer) + "\n")


def every_shape_log(path):
    """A log for balls-synth.luma (320x180, 90 frames) with every shape the bundled logs lack:
    quadrilaterals, a track lost and recovered, a lost track never seen, and free JSON."""
    quad = {"topLeft": [0.1, 0.9], "topRight": [0.4, 0.85], "bottomRight": [0.45, 0.5], "bottomLeft": [0.1, 0.55],
            "confidence": 0.75}
    box = {"id": "AAAA1111-0000", "label": "cup", "boundingBox": [0.5, 0.25, 0.25, 0.5], "confidence": 0.9}
    write_log(path, [("rectangles", [("rectangle", "quadrilateral")]),
                     ("tracking", [("track", "box"), ("track.lost", "boxLost"), ("track.recovered", "boxRecovered")]),
                     ("notes", [("note", None)])],
              [(0, "rectangles", "rectangle", quad),
               (1, "tracking", "track", box),
               (1, "notes", "note", {"text": "hello"}),
               (2, "tracking", "track.lost", {"id": "AAAA1111-0000"}),
               (2, "tracking", "track.lost", {"id": "never-seen"}),
               (5, "tracking", "track.recovered", dict(box, boundingBox=[0.25, 0.25, 0.25, 0.25])),
               (6, "rectangles", "rectangle", dict(quad, id="QQ-1"))],
              digest=_balls_digest())
    return quad, box


def _balls_digest() -> str:
    import lumatrace
    with lumatrace.open(recording_path("balls-synth")) as rec:
        return rec.frames_digest()


#: A replay of balls-synth by the Swift tool whose analyzers emit every shape the exports draw:
#: rectangles (quadrilateral), a tracker nominating moving regions that loses and recovers them
#: (box, boxLost, boxRecovered), and one that follows rectangles (box, and quadrilaterals with ids).
REPLAY_ARGUMENTS = ["--analyzer", "rectangles", "--analyzer", "lost=tracking", "--analyzer", "rtrack=tracking",
                    "--set", "lost.nominate=motion", "--set", "lost.lostThreshold=0.9", "--set", "lost.lostFrames=1",
                    "--set", "rtrack.nominate=rectangles"]


def replayed_every_shape_log(lumatrace: str, tmp_path_factory) -> Path:
    """The log of `REPLAY_ARGUMENTS` (version 2, as `lumatrace replay` writes by default), made
    once per test session."""
    folder = tmp_path_factory.getbasetemp() / "replays"
    folder.mkdir(exist_ok=True)
    out = folder / "balls-synth.every-shape.events.jsonl"
    if not out.exists():
        subprocess.run([lumatrace, "replay", str(recording_path("balls-synth")), *REPLAY_ARGUMENTS, "-o", str(out)],
                       check=True, capture_output=True)
    return out


def replayed_part(lumatrace: str, name: str, first: int, last: int, folder: Path) -> Path:
    """The log of `lumatrace replay NAME.luma --from FIRST --to LAST` (the default analyzers)."""
    out = Path(folder) / f"{name}.{first}-{last}.events.jsonl"
    subprocess.run([lumatrace, "replay", str(recording_path(name)), "--from", str(first), "--to", str(last),
                    "-o", str(out)], check=True, capture_output=True)
    return out


# MARK: - Large frames

#: The side of the frames of `large_frames`: 64 MiB a frame, large enough that what an export holds
#: is counted in frames, small enough to export in a second.
LARGE = 8192


def large_frames(lumatrace: str, folder: Path, frames: int = 3) -> tuple[Path, Path]:
    """A recording of `frames` grey frames of LARGE² (recorded by the Swift tool from a Y4M stream,
    each frame a shifted ramp, so no two are alike) and an event log without analyzers for it:
    (recording, log), made once per folder."""
    luma, log = Path(folder) / "large.luma", Path(folder) / "large.events.jsonl"
    if not luma.exists():
        record = subprocess.Popen([lumatrace, "record", "-", "-o", str(luma), "--fps", "30"],
                                  stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        record.stdin.write(f"YUV4MPEG2 W{LARGE} H{LARGE} F30:1 Ip A1:1 Cmono\n".encode())
        ramp = bytes(range(256)) * (LARGE // 256)
        for k in range(frames):
            record.stdin.write(b"FRAME\n" + (ramp[k:] + ramp[:k]) * LARGE)
        record.stdin.close()
        assert record.wait() == 0, record.stderr.read().decode()
        write_log(log, [], [], width=LARGE, height=LARGE, frames=frames)
    return luma, log


def peak_memory(sdk: str, export: str, recording: Path, log: Path, output: Path) -> float:
    """What `export` (`"module.function"`, e.g. `"lumatrace.foxglove.to_mcap"`) of `recording`
    holds at its peak beyond a process that has imported `sdk` and opened the recording, in
    frames (LARGE² bytes): measured in a process of its own, so no other test's memory counts.
    The peak is the process's own (`VmHWM`, Linux): `ru_maxrss` starts from the parent's at fork."""
    module, function = export.rsplit(".", 1)
    code = (f"import re, {sdk}, lumatrace, {module}\n"
            f"def peak(): return int(re.search(r'VmHWM:\\s*(\\d+) kB', open('/proc/self/status').read())[1])\n"
            f"lumatrace.open({str(recording)!r}).info\n"
            f"before = peak()\n"
            f"{module}.{function}({str(recording)!r}, {str(log)!r}, {str(output)!r}, force=True)\n"
            f"print(before, peak())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    before, peak = (int(kb) for kb in done.stdout.split())
    return (peak - before) * 1024 / LARGE ** 2
