#!/usr/bin/env python3
"""The Python reader's speed against the Swift decoder, measured in the same run on the same files.

    Benchmarks/run python [--runs 5] [--json]

For each 720p recording (two real clips and a synthetic scene, recorded here in format version 3
with the release `lumatrace`): the Python reader decodes every frame (`for frame in rec`), and the
Swift decoder does the same (`lumatrace info` decodes and checks every chunk; its time less that of
`lumatrace info --quick`, which opens the file without decoding). Both run pinned to one core.
Throughput is raw frame bytes per second; figures are medians of `--runs` runs. Also: loading a
100,000-event log into pandas (`lumatrace.read_events`).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import measuring  # noqa: E402


def pin_to_one_core():
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {measuring.one_core()})


def seconds(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def python_decode(path):
    import lumatrace
    start = time.perf_counter()
    with lumatrace.open(path) as rec:
        n = sum(1 for _ in rec)
        size = n * rec.info.frame_size
    return size, time.perf_counter() - start


def inputs(lumatrace_bin, folder):
    made = []
    for name, source in [("negative-720p", measuring.shared_clip("ball-hand-moved-negative", "ball4.mp4")),
                         ("ball1-720p", measuring.shared_clip("vot2015-ball1", "imgs"))]:
        out = folder / f"{name}.luma"
        subprocess.run([lumatrace_bin, "record", str(source), "-o", str(out)], check=True, capture_output=True)
        made.append((name, out))
    out = folder / "synthetic-720p.luma"
    subprocess.run([lumatrace_bin, "synth", "mixed", "-o", str(out), "--size", "1280x720", "--frames", "300"], check=True, capture_output=True)
    made.append(("synthetic-720p", out))
    return made


def event_log(lumatrace_bin, folder, events=100_000):
    """A log of at least `events` events: a synthetic scene replayed through differencing and
    trajectory, as many frames as it takes."""
    clip, log = folder / "events.luma", folder / "events.events.jsonl"
    subprocess.run([lumatrace_bin, "synth", "balls", "-o", str(clip), "--size", "160x96", "--frames", str(events)],
                   check=True, capture_output=True)
    subprocess.run([lumatrace_bin, "replay", str(clip), "-o", str(log), "--analyzer", "differencing", "--analyzer", "trajectory"],
                   check=True, capture_output=True)
    return log


def main():
    parser = measuring.argument_parser(__doc__, "runs per measurement; medians are reported (default 5)")
    parser.add_argument("--json", action="store_true", help="one JSON line per input instead of the table")
    args = parser.parse_args()
    lumatrace_bin = measuring.release_lumatrace()
    pin_to_one_core()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = []
        for name, path in inputs(lumatrace_bin, folder):
            py, swift = [], []
            for _ in range(args.runs):
                size, elapsed = python_decode(path)
                py.append(size / elapsed / 1e6)
                full = seconds(["taskset", "-c", str(measuring.one_core()), lumatrace_bin, "info", str(path)])
                quick = seconds(["taskset", "-c", str(measuring.one_core()), lumatrace_bin, "info", str(path), "--quick"])
                swift.append(size / max(full - quick, 1e-9) / 1e6)
            row = {"input": name, "frames_mb": round(size / 1e6, 1), "python_mbps": round(statistics.median(py), 1),
                   "swift_mbps": round(statistics.median(swift), 1)}
            row["python_vs_swift"] = round(row["python_mbps"] / row["swift_mbps"], 3)
            rows.append(row)
        import lumatrace
        log = event_log(lumatrace_bin, folder)
        loads = []
        for _ in range(args.runs):
            start = time.perf_counter()
            events = lumatrace.read_events(log)
            loads.append(time.perf_counter() - start)
        rows.append({"input": "event log", "events": len(events), "load_seconds": round(statistics.median(loads), 2),
                     "events_per_second": round(len(events) / statistics.median(loads))})
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return
    print(f"Python reader vs Swift decoder, one core, median of {args.runs} runs (format version 3)")
    print(f"{'input':<16} {'frames MB':>10} {'Python MB/s':>12} {'Swift MB/s':>11} {'Python/Swift':>13}")
    for r in rows[:-1]:
        print(f"{r['input']:<16} {r['frames_mb']:>10} {r['python_mbps']:>12} {r['swift_mbps']:>11} {r['python_vs_swift']:>13}")
    r = rows[-1]
    print(f"read_events: {r['events']} events in {r['load_seconds']} s ({r['events_per_second']} events/s)")


if __name__ == "__main__":
    sys.exit(main())
