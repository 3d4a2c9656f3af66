"""Event logs as pandas tables, specified on the bundled goldens and the conformance logs."""
import hashlib
import json
import subprocess
import sys
import warnings

import pandas as pd
import pytest

import lumatrace
from conftest import CONFORMANCE, RECORDINGS

LOGS = CONFORMANCE / "logs"


def test_one_long_table_with_an_event_per_row():
    events = lumatrace.read_events(RECORDINGS / "tracking-synth.events.jsonl")
    footer = events.attrs["log"].footer
    assert len(events) == footer["events"]
    assert list(events.columns[:5]) == ["frame", "time", "analyzer", "kind", "id"]
    assert events.frame.dtype == "int64" and events.time.dtype == "float64"
    assert isinstance(events.kind.dtype, pd.CategoricalDtype)
    counts = events.groupby(["analyzer", "kind"], observed=True).size()
    assert {(a, k): n for (a, k), n in counts.items()} == {
        (a, k): n for a, kinds in footer["counts"].items() for k, n in kinds.items()}


def test_box_events_have_their_bounding_box_as_columns():
    events = lumatrace.read_events(RECORDINGS / "tracking-synth.events.jsonl")
    first = events[(events.kind == "track") & (events.label == "object1")].iloc[0]
    line = next(json.loads(l) for l in open(RECORDINGS / "tracking-synth.events.jsonl")
                if '"kind":"track"' in l and '"object1"' in l)
    assert [first.x, first.y, first.width, first.height] == line["data"]["boundingBox"]
    assert first.id == line["data"]["id"] and first.frame == line["frame"]


def test_by_kind_splits_paths_into_fits_and_points_and_blobs_into_rows():
    tables = lumatrace.read_events(RECORDINGS / "balls-synth.events.jsonl", by_kind=True)
    assert set(tables) == {"diff", "diff.blobs", "trajectory", "trajectory.end", "trajectory.end.points"}
    ends, points = tables["trajectory.end"], tables["trajectory.end.points"]
    assert ends.pointsCount.sum() == len(points)
    assert set(points.id) == set(ends.id)
    assert list(points.columns) == ["frame", "time", "analyzer", "kind", "id", "endFrame", "x", "y", "radius"]
    one = ends.iloc[0]
    path = points[points.id == one.id]
    assert path.frame.is_monotonic_increasing and path.endFrame.eq(one.frame).all()
    assert {"launch.angle", "apex.x", "apex.time", "landing.x", "equationCoefficients"} <= set(ends.columns)
    assert tables["diff"].blobsCount.sum() == len(tables["diff.blobs"])
    assert {"x", "y", "width", "height", "centroidX", "centroidY", "area"} <= set(tables["diff.blobs"].columns)


@pytest.mark.parametrize("name", ["balls-synth", "toss-real", "tracking-synth"])
def test_every_table_has_frame_and_time(name):
    tables = lumatrace.read_events(RECORDINGS / f"{name}.events.jsonl", by_kind=True)
    for kind, table in tables.items():
        assert list(table.columns[:2]) == ["frame", "time"], kind
        assert table.time.dtype == "float64" and table.time.notna().all(), kind


def test_path_points_have_their_frames_time_from_the_log():
    tables = lumatrace.read_events(RECORDINGS / "toss-real.events.jsonl", by_kind=True)
    points, diff = tables["trajectory.end.points"], tables["diff"]
    assert points.time.dtype == "float64" and points.time.notna().all()
    frame_times = dict(zip(diff.frame, diff.time))  # differencing speaks in every frame
    assert [frame_times[f] for f in points.frame] == list(points.time)
    with lumatrace.open(RECORDINGS / "toss-real.luma") as rec:
        ticks = dict(zip(rec.times.frames.tolist(), rec.times.ticks.tolist()))
    assert all(abs(t - ticks[f] / 179) < 5e-7 for f, t in zip(points.frame, points.time))


def test_path_points_in_frames_without_events_take_the_recordings_times(tmp_path):
    log = tmp_path / "only-ends.events.jsonl"
    lines = (RECORDINGS / "toss-real.events.jsonl").read_text().splitlines(keepends=True)
    kept = [lines[0]] + [l for l in lines[1:-1] if '"kind":"trajectory.end"' in l]
    log.write_text("".join(kept))  # no footer: an unfinished replay's log, read as such
    without = lumatrace.read_events(log, by_kind=True)["trajectory.end.points"]
    ends = set(without.endFrame)
    assert without[~without.frame.isin(ends)].time.isna().all()
    with lumatrace.open(RECORDINGS / "toss-real.luma") as rec:
        seconds = dict(zip(rec.times.frames.tolist(), rec.times.seconds.tolist()))
        for recording in (rec, RECORDINGS / "toss-real.luma"):
            points = lumatrace.read_events(log, by_kind=True, recording=recording)["trajectory.end.points"]
            assert points.time.notna().all()
            assert all(abs(t - seconds[f]) < 5e-7 for f, t in zip(points.frame, points.time))


def test_paths_keep_their_fit_as_one_number_per_column():
    tables = lumatrace.read_events(RECORDINGS / "toss-real.events.jsonl", by_kind=True)
    lines = [json.loads(l) for l in (RECORDINGS / "toss-real.events.jsonl").read_text().splitlines()[1:]]
    for kind in ("trajectory", "trajectory.end"):
        table = tables[kind]
        data = [l["data"] for l in lines if l.get("kind") == kind]
        assert len(table) == len(data) > 0
        assert table["parabola.a"].dtype == "float64"
        assert [[r["parabola.a"], r["parabola.b"], r["parabola.c"]] for _, r in table.iterrows()] == [d["equationCoefficients"] for d in data]
        assert [[r["timeFit.y0"], r["timeFit.y1"], r["timeFit.y2"]] for _, r in table.iterrows()] == [d["timeFit"]["y"] for d in data]
        assert [[r["timeFit.x0"], r["timeFit.x1"]] for _, r in table.iterrows()] == [d["timeFit"]["x"][:2] for d in data]
        assert "equationCoefficients" in table  # the log's own list stays


def test_a_plugins_own_kinds_load_without_code_changes():
    tables = lumatrace.read_events(LOGS / "plugin-kinds-no-footer.events.jsonl", by_kind=True)
    brightness, spot = tables["brightness"], tables["spot"]
    assert brightness["mean"].dtype == "float64" and list(brightness["exposure.value"]) == list(range(6))
    assert brightness["exposure.auto"].all()
    assert spot.width.eq(0.05).all() and spot.id.dtype == "string"


def test_an_unfinished_replay_reads_with_no_footer():
    events = lumatrace.read_events(LOGS / "plugin-kinds-no-footer.events.jsonl")
    assert events.attrs["log"].footer is None and len(events) == 18


def test_a_log_cut_mid_line_is_refused_or_read_up_to_the_cut():
    with pytest.raises(lumatrace.EventLogError, match="cut off"):
        lumatrace.read_events(LOGS / "cut-mid-line.events.jsonl")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        events = lumatrace.read_events(LOGS / "cut-mid-line.events.jsonl", partial=True)
    lines = (LOGS / "cut-mid-line.events.jsonl").read_text().splitlines()
    assert len(events) == len(lines) - 2  # the header and the cut line
    assert "left out" in str(caught[0].message)


def test_errors_name_the_file_and_line(tmp_path):
    with pytest.raises(lumatrace.EventLogError) as raised:
        lumatrace.read_events(LOGS / "edited-event.events.jsonl")
    assert "footer digest does not match" in str(raised.value)
    with pytest.raises(lumatrace.EventLogError, match="empty file"):
        (tmp_path / "empty.jsonl").write_text("")
        lumatrace.read_events(tmp_path / "empty.jsonl")
    with pytest.raises(lumatrace.EventLogError, match="No such file"):
        lumatrace.read_events(tmp_path / "missing.jsonl")
    with pytest.raises(lumatrace.EventLogError, match="line 1: not valid JSON"):
        lumatrace.read_events(RECORDINGS / "toss-real.luma")


@pytest.mark.parametrize("line, reason", [
    (b'{"frame":1,"t":0.1,"analyzer":"a","kind":"k","data":' + b"[" * 100000 + b"]" * 100000 + b"}\n", "not valid JSON"),
    (b'{"frame":1,"t":NaN,"analyzer":"a","kind":"k","data":{}}\n', "not valid JSON"),
    (b'{"frame":' + b"9" * 5000 + b',"t":0.1,"analyzer":"a","kind":"k","data":{}}\n', "not valid JSON"),
    (b'{"frame":1,"t":0.1,"analyzer":"\xff\xfe","kind":"k","data":{}}\n', "not valid JSON"),
], ids=["nested-100000-deep", "nan-time", "5000-digit-frame", "invalid-utf8"])
def test_hostile_event_lines_are_refused_naming_the_line(tmp_path, line, reason):
    header = (LOGS / "v2-tracking.events.jsonl").read_bytes().split(b"\n")[0] + b"\n"
    path = tmp_path / "hostile.events.jsonl"
    path.write_bytes(header + line)
    with pytest.raises(lumatrace.EventLogError) as raised:
        lumatrace.read_events(path)
    assert raised.value.line == 2 and reason in str(raised.value)


def relogged(path, header: bytes, events: list) -> None:
    """Writes a log of `header` (a line) and `events` (dicts) with a footer whose digest and count
    match: a valid log, but for what the events hold."""
    lines = [json.dumps(e, separators=(",", ":")).encode() + b"\n" for e in events]
    footer = json.loads((LOGS / "v2-tracking.events.jsonl").read_bytes().splitlines()[-1])
    footer["end"].update(events=len(lines), sha256=hashlib.sha256(b"".join(lines)).hexdigest(), counts={})
    path.write_bytes(header + b"\n" + b"".join(lines) + json.dumps(footer).encode() + b"\n")


TRACKING_HEADER = (LOGS / "v2-tracking.events.jsonl").read_bytes().splitlines()[0]


def test_data_fields_named_like_the_events_own_columns_keep_their_own_names():
    path = LOGS / "data-fields-named-like-columns.events.jsonl"
    line = json.loads(path.read_text().splitlines()[1])
    first = lumatrace.read_events(path).iloc[0]
    assert (first.frame, first.time, first.analyzer, first.kind) == (line["frame"], line["t"], "tracking", "track")
    assert (first["data.frame"], first["data.time"], first["data.analyzer"], first["data.kind"], first["data.data"]) == (
        "left", 33.5, "spoof", "x", 1)


def test_a_data_field_is_renamed_by_its_name_in_every_row_whatever_its_value(tmp_path):
    """Always `data.frame`, also when the value equals the event's frame: a column holds one thing."""
    path = tmp_path / "same.events.jsonl"
    relogged(path, TRACKING_HEADER, [
        {"frame": 3, "t": 0.1, "analyzer": "tracking", "kind": "hit", "data": {"frame": 3, "x": 1.5}},
        {"frame": 4, "t": 0.2, "analyzer": "tracking", "kind": "hit", "data": {"frame": "left", "data.frame": 7}},
        {"frame": 5, "t": 0.3, "analyzer": "tracking", "kind": "track",
         "data": {"id": "a", "boundingBox": [0.1, 0.2, 0.3, 0.4], "x": 9, "time": 2}},
    ])
    events = lumatrace.read_events(path)
    assert list(events.frame) == [3, 4, 5] and events.frame.dtype == "int64"
    assert list(events.time) == [0.1, 0.2, 0.3]
    assert list(events["data.frame"][:2]) == [3, "left"] and events["data.frame"].isna().tolist() == [False, False, True]
    assert events["data.data.frame"].iloc[1] == 7
    box = events.iloc[2]
    assert (box.x, box.y, box["data.x"], box["data.time"]) == (0.1, 0.2, 9, 2)


def test_blob_fields_named_like_the_blob_tables_columns_keep_their_own_names(tmp_path):
    header = json.loads(TRACKING_HEADER)
    header["analyzers"][0]["events"].append({"kind": "spots", "version": 1, "shape": "blobs"})
    path = tmp_path / "blobs.events.jsonl"
    relogged(path, json.dumps(header).encode(), [
        {"frame": 2, "t": 0.1, "analyzer": "tracking", "kind": "spots",
         "data": {"id": "e", "blobs": [{"index": 7, "frame": "x", "boundingBox": [0.1, 0.2, 0.3, 0.4]}]}},
    ])
    blobs = lumatrace.read_events(path, by_kind=True)["spots.blobs"].iloc[0]
    assert (blobs.frame, blobs["index"], blobs.id, blobs.x) == (2, 0, "e", 0.1)
    assert (blobs["data.index"], blobs["data.frame"]) == (7, "x")


def test_a_log_of_mostly_distinct_fields_is_refused_in_bounded_memory(tmp_path):
    """20,000 events with one field of its own each (1.7 MB) would be a table of 400 million
    cells: refused, naming the limit, while memory grows by a small multiple of the log's size."""
    path = tmp_path / "manycols.events.jsonl"
    relogged(path, TRACKING_HEADER, [{"frame": i // 500, "t": i // 500 * 0.03 + 0.5, "analyzer": "tracking",
                                      "kind": "track", "data": {f"k{i}": 1}} for i in range(20000)])
    size = path.stat().st_size
    # Resident sizes from the kernel (VmHWM is this process's peak; `ru_maxrss` would keep the peak
    # of the process that started it).
    probe = """if True:
        import sys, pandas, lumatrace
        def status(field):
            return next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith(field + ":"))
        before = status("VmRSS")
        try:
            lumatrace.read_events(sys.argv[1])
            print("read")
        except lumatrace.EventLogError as e:
            print(e)
        print(status("VmHWM") - before)
    """
    said, grew = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True,
                                check=True).stdout.splitlines()
    assert said.startswith(f"{path}: the table would be 20000 rows by 20005 columns, over the limit of")
    assert "cells" in said
    assert int(grew) < 20 * size, f"reading grew the peak by {int(grew)} bytes for a log of {size}"


@pytest.mark.parametrize("data, said", [
    ({"id": "A", "boundingBox": [1e300, -1e300, 1e300, 1e300], "confidence": 0.9},
     "box coordinate 1e+300 is outside ±1000000: not an observation"),
    ({"id": "A", "boundingBox": [0.5, 0.5, 0.1, -2000000], "confidence": 0.9},
     "box coordinate -2000000.0 is outside ±1000000: not an observation"),
], ids=["1e300", "minus-2e6"])
def test_box_coordinates_beyond_a_million_are_refused_as_lumatrace_refuses_them(tmp_path, data, said):
    path = tmp_path / "huge.events.jsonl"
    relogged(path, TRACKING_HEADER, [{"frame": 0, "t": 0.5, "analyzer": "tracking", "kind": "track",
                                      "data": {"id": "A", "boundingBox": [0.1, 0.1, 0.2, 0.2], "confidence": 0.9}},
                                     {"frame": 1, "t": 0.53, "analyzer": "tracking", "kind": "track", "data": data}])
    with pytest.raises(lumatrace.EventLogError) as raised:
        lumatrace.read_events(path)
    assert str(raised.value) == f"{path}: line 3: {said}"
    # A coordinate of exactly a million is one.
    relogged(path, TRACKING_HEADER, [{"frame": 0, "t": 0.5, "analyzer": "tracking", "kind": "track",
                                      "data": {"id": "A", "boundingBox": [1e6, -1e6, 0.2, 0.2], "confidence": 0.9}}])
    assert len(lumatrace.read_events(path)) == 1


def test_by_kind_builds_each_table_when_first_asked_for_and_keeps_it(tmp_path, monkeypatch):
    # A log may declare tens of thousands of kinds: reading it costs what the long table costs,
    # and a table is made only for the kinds a caller looks at (round 5, L8).
    from lumatrace import events as module
    header = json.loads(TRACKING_HEADER)
    header["analyzers"][0]["events"] = [{"kind": f"k{i}", "version": 1, "shape": None} for i in range(2000)]
    events = [{"frame": f, "t": 0.5 + f * 0.03, "analyzer": "tracking", "kind": f"k{f * 100 + j}", "data": {"v": j}}
              for f in range(20) for j in range(100)]
    path = tmp_path / "kinds.events.jsonl"
    relogged(path, json.dumps(header, separators=(",", ":")).encode(), events)
    built = []
    real = module._built_frame
    monkeypatch.setattr(module, "_built_frame", lambda pd, rows, columns: built.append(rows[0]["kind"]) or real(pd, rows, columns))
    tables = lumatrace.read_events(path, by_kind=True)
    assert len(tables) == 2000 and "k1999" in tables and "k2000" not in tables and built == []
    first = tables["k1234"]
    assert tables["k1234"] is first and built == ["k1234"]
    assert first["v"].tolist() == [34] and first.attrs["log"].footer is not None
    with pytest.raises(KeyError):
        tables["k2000"]


def test_by_kind_gives_each_of_many_kinds_its_own_rows_as_the_long_table_has_them(tmp_path):
    # 600 kinds, a few events each, interleaved across frames: every table holds its kind's rows,
    # in the log's order, with its own fields only.
    header = json.loads(TRACKING_HEADER)
    header["analyzers"][0]["events"] = [{"kind": f"k{i}", "version": 1, "shape": None} for i in range(600)]
    events = [{"frame": f, "t": 0.5 + f * 0.03, "analyzer": "tracking", "kind": f"k{(f * 7 + j) % 600}",
               "data": {"v": f * 10 + j, f"only{(f * 7 + j) % 600}": True}} for f in range(30) for j in range(60)]
    path = tmp_path / "kinds.events.jsonl"
    relogged(path, json.dumps(header, separators=(",", ":")).encode(), events)
    long = lumatrace.read_events(path)
    tables = lumatrace.read_events(path, by_kind=True)
    assert sorted(tables) == sorted({e["kind"] for e in events})
    for kind, table in tables.items():
        mine = [e for e in events if e["kind"] == kind]
        assert table["frame"].tolist() == [e["frame"] for e in mine]
        assert table["v"].tolist() == [e["data"]["v"] for e in mine]
        assert [c for c in table.columns if c.startswith("only")] == [f"only{kind[1:]}"]
        assert table["v"].tolist() == long[long["kind"] == kind]["v"].astype("int64").tolist()
