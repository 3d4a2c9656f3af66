"""`python -m lumatrace stream-rerun`: an event log piped in line by line is logged to Rerun as it
arrives. Checked with Rerun's save-to-file sink (`--save`), no viewer: the file is read back with
Rerun's own reader and compared with the log's lines."""
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("rerun", reason="needs rerun-sdk: pip install 'lumatrace[rerun]'")

from export_expectations import events_path, read_log, rerun_instances  # noqa: E402
from test_rerun import Loaded, expected_series, on_screen  # noqa: E402

PYTHON_SOURCE = Path(__file__).resolve().parents[1] / "src"


def stream_rerun(*args, stdin, cwd):
    """Runs `python -m lumatrace stream-rerun ARGS` with this tree's package, `stdin` piped in."""
    env = {"PYTHONPATH": str(PYTHON_SOURCE), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "lumatrace", "stream-rerun", *args], stdin=stdin, cwd=cwd,
                          env=env, capture_output=True, text=True)


def test_a_piped_log_is_streamed_event_by_event_with_numbers_text_and_shapes(tmp_path):
    log = events_path("balls-synth")
    with open(log, "rb") as piped:
        done = stream_rerun("--save", "out.rrd", stdin=piped, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    _, events = read_log(log)
    assert done.stdout.strip() == f"streamed {len(events)} events of {len({e['frame'] for e in events})} frames to out.rrd"
    loaded = Loaded(tmp_path / "out.rrd")
    for entity, series in expected_series(log).items():
        rows = loaded.rows[entity]
        assert [(r["frame"], r["Scalars:scalars"]) for r in rows] == [(f, [v]) for f, v in series], entity
    times = {e["frame"]: round(e["t"] * 1e9) for e in events}
    assert all(r["time"] == times[r["frame"]] for r in loaded.rows["/events/differencing"])
    assert len(loaded.rows["/events/trajectory"]) == sum(e["analyzer"] == "trajectory" for e in events)
    for (analyzer, layer), per_frame in rerun_instances(log).items():
        logged = loaded.instances(f"/camera/annotations/{analyzer}/{layer}")
        assert {f: on_screen(logged, f) for f in times} == {f: per_frame.get(f, 0) for f in times}, layer
    assert loaded.rows["/__properties/lumatrace"][0]["analyzers"] == ["differencing 1", "trajectory 3"]
    assert loaded.images == []                 # frames stay in the recording


def test_a_live_recordings_events_are_consumed_from_a_pipe(lumatrace_bin, tmp_path):
    # A small Y4M stream: a bright square moving right, 20 frames.
    width, height = 64, 48
    with open(tmp_path / "moving.y4m", "wb") as f:
        f.write(f"YUV4MPEG2 W{width} H{height} F30:1 Ip A1:1 C420jpeg\n".encode())
        for k in range(20):
            luma = np.full((height, width), 40, np.uint8)
            luma[10:20, 2 + 2 * k:12 + 2 * k] = 220
            f.write(b"FRAME\n" + luma.tobytes() + bytes(width * height // 2))
    with open(tmp_path / "moving.y4m", "rb") as camera:
        record = subprocess.Popen([lumatrace_bin, "record", "-", "--live", "-o", "live.luma", "--analyzer",
                                   "differencing", "--events", "-"], stdin=camera, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, cwd=tmp_path)
        done = stream_rerun("--save", "live.rrd", stdin=record.stdout, cwd=tmp_path)
        record.stdout.close()
        assert record.wait(timeout=60) == 0
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "streamed 19 events of 19 frames to live.rrd"
    loaded = Loaded(tmp_path / "live.rrd")
    fractions = loaded.rows["/events/differencing/diff/changedFraction"]
    assert [r["frame"] for r in fractions] == list(range(1, 20))
    assert all(r["Scalars:scalars"][0] > 0 for r in fractions)   # the square moved on every frame


def test_a_log_broken_midway_names_its_line_and_an_existing_file_is_kept(tmp_path):
    lines = events_path("toss-real").read_text().splitlines(keepends=True)
    broken = tmp_path / "broken.events.jsonl"
    broken.write_text("".join(lines[:5]) + "not json\n")
    with open(broken, "rb") as piped:
        done = stream_rerun("--save", "out.rrd", stdin=piped, cwd=tmp_path)
    assert done.returncode == 2
    assert "error: standard input: line 6: not valid JSON" in done.stderr
    assert not (tmp_path / "out.rrd").exists()
    (tmp_path / "out.rrd").write_bytes(b"RRF2 mine")
    with open(events_path("toss-real"), "rb") as piped:
        done = stream_rerun("--save", "out.rrd", stdin=piped, cwd=tmp_path)
    assert done.returncode == 2 and "out.rrd: already exists (--force replaces it)" in done.stderr
    assert (tmp_path / "out.rrd").read_bytes() == b"RRF2 mine"


def test_exactly_one_destination_is_named(tmp_path):
    with open(events_path("toss-real"), "rb") as piped:
        done = stream_rerun("--spawn", "--save", "x.rrd", stdin=piped, cwd=tmp_path)
    assert done.returncode == 64 and "not allowed with argument" in done.stderr
    with open(events_path("toss-real"), "rb") as piped:
        done = stream_rerun(stdin=piped, cwd=tmp_path)
    assert done.returncode == 64 and "one of the arguments --spawn --connect --save is required" in done.stderr


def _y4m_frame(width, height, k) -> bytes:
    luma = np.full((height, width), 40, np.uint8)
    luma[10:20, 2 + 2 * k:12 + 2 * k] = 220
    return b"FRAME\n" + luma.tobytes() + bytes(width * height // 2)


def test_ctrl_c_on_a_live_pipeline_saves_what_was_streamed_marked_incomplete(lumatrace_bin, tmp_path):
    # A live session as a terminal runs it: `record --live ... --events - | stream-rerun --save`, one
    # process group, a camera that keeps its end open, and Ctrl-C (SIGINT to the group).
    width, height = 64, 48
    record = subprocess.Popen([lumatrace_bin, "record", "-", "--live", "-o", "live.luma", "--analyzer",
                               "differencing", "--events", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, cwd=tmp_path, process_group=0)
    env = {"PYTHONPATH": str(PYTHON_SOURCE), "PATH": "/usr/bin:/bin"}
    streamer = subprocess.Popen([sys.executable, "-m", "lumatrace", "stream-rerun", "--save", "live.rrd"],
                                stdin=record.stdout, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                cwd=tmp_path, env=env, process_group=record.pid)
    record.stdout.close()
    record.stdin.write(f"YUV4MPEG2 W{width} H{height} F30:1 Ip A1:1 C420jpeg\n".encode())
    for k in range(8):
        record.stdin.write(_y4m_frame(width, height, k))
    record.stdin.flush()
    # Wait for the event that shows the stream has begun: its temporary .rrd appears once the
    # log's header has been read and the file opened.
    deadline = time.monotonic() + 120   # a hang guard, not a measurement
    while not any(p.name.startswith(".live.rrd.") for p in tmp_path.iterdir()):
        assert streamer.poll() is None, streamer.communicate()
        assert time.monotonic() < deadline, "stream-rerun never opened its output"
        time.sleep(0.05)
    os.killpg(record.pid, signal.SIGINT)
    out, err = streamer.communicate(timeout=120)
    record.stdin.close()
    assert record.wait(timeout=60) == 0
    assert streamer.returncode == 0, err
    assert err == ""
    # record kept the frames it received; their events went through the pipe and into the file.
    frames = int(re.search(r"frames\s+(\d+)", subprocess.run([lumatrace_bin, "info", "live.luma"], cwd=tmp_path,
                                                              capture_output=True, text=True).stdout)[1])
    assert 1 <= frames <= 8
    assert out.strip() == (f"stopped by SIGINT: saved the {frames - 1} events of {frames - 1} frames streamed "
                           f"before it to live.rrd, marked incomplete")
    loaded = Loaded(tmp_path / "live.rrd")
    fractions = loaded.rows["/events/differencing/diff/changedFraction"]
    assert [r["frame"] for r in fractions] == list(range(1, frames))
    [marked] = loaded.rows["/__properties/stream"]
    assert marked["complete"] == [False] or marked["complete"] is False, marked
    assert "SIGINT" in str(marked["stoppedBy"])
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_force_replaces_only_a_rerun_file(tmp_path):
    (tmp_path / "notes.txt").write_text("my notes\n")
    with open(events_path("toss-real"), "rb") as piped:
        done = stream_rerun("--save", "notes.txt", "--force", stdin=piped, cwd=tmp_path)
    assert done.returncode == 2
    assert "notes.txt: is not a Rerun .rrd file (a file of unknown kind)" in done.stderr
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"
    (tmp_path / "old.rrd").write_bytes(b"RRF2 an older stream")
    with open(events_path("toss-real"), "rb") as piped:
        done = stream_rerun("--save", "old.rrd", "--force", stdin=piped, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "old.rrd").read_bytes().startswith(b"RRF") and (tmp_path / "old.rrd").stat().st_size > 100
