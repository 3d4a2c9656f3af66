"""`lumatrace.rerun.to_rrd`: every export is loaded back with Rerun's own reader
(`rerun.chunk.RrdReader`, the SDK's chunk API: no viewer, no server) and checked against the
recording's frames and what the event log says (`export_expectations`)."""
import json
import os
from collections import defaultdict

import numpy as np
import pytest

pytest.importorskip("rerun", reason="needs rerun-sdk: pip install 'lumatrace[rerun]'")
import pyarrow as pa  # noqa: E402
from rerun.chunk import RrdReader  # noqa: E402

import lumatrace  # noqa: E402
from lumatrace._export import OtherRecordingError  # noqa: E402
from lumatrace.rerun import to_rrd  # noqa: E402

from export_expectations import (BUNDLED, LARGE, peak_memory, box_corners, draws_fitted_path, every_shape_log, events_path,  # noqa: E402
                                 export_bundled, expected_nanoseconds, fitted_path, pixel, read_log, recording_path,
                                 replayed_every_shape_log, replayed_part, rerun_instances, shapes_of)

#: The component that holds one instance per box, strip or point, by archetype.
INSTANCES = {"Boxes2D": "Boxes2D:half_sizes", "LineStrips2D": "LineStrips2D:strips", "Points2D": "Points2D:positions"}


class Loaded:
    """An .rrd read back: its recording store, and each entity's rows in frame order, every row a
    dict of column -> value (`frame` and `time` as ints, `time` in ns)."""

    def __init__(self, path):
        reader = RrdReader(path)
        [self.store] = reader.recordings()
        self.blueprints = reader.blueprints()
        self.rows = defaultdict(list)
        self.images = []          # (frame, time, pyarrow row of Image:buffer, Image:format)
        for chunk in reader.stream(store=self.store):
            batch = chunk.to_record_batch()
            names = batch.schema.names
            if chunk.entity_path == "/camera/image":
                frames = batch.column("frame").to_pylist()
                times = batch.column("time").cast(pa.int64()).to_pylist()
                for k in range(batch.num_rows):
                    self.images.append((frames[k], times[k], batch.column("Image:buffer")[k],
                                        batch.column("Image:format")[k].as_py()))
                continue
            columns = {n: (batch.column(n).cast(pa.int64()) if n == "time" else batch.column(n)).to_pylist()
                       for n in names if n != "rerun.controls.RowId"}
            for k in range(batch.num_rows):
                self.rows[chunk.entity_path].append({n: v[k] for n, v in columns.items()})
        self.images.sort(key=lambda r: r[0])
        for rows in self.rows.values():
            rows.sort(key=lambda r: r.get("frame", -1))

    def image_bytes(self, k) -> bytes:
        return np.asarray(self.images[k][2].values[0].values, dtype=np.uint8).tobytes()

    def instances(self, entity) -> dict:
        """frame -> instances logged on that frame (0 for a row that clears the entity)."""
        out = {}
        for row in self.rows[entity]:
            [column] = [c for c in INSTANCES.values() if c in row]
            out[row["frame"]] = len(row[column] or [])
        return out


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Each bundled recording exported once: name -> (path, summary, Loaded)."""
    return export_bundled(tmp_path_factory, to_rrd, ".rrd", Loaded)


def on_screen(logged: dict, frame: int) -> int:
    """What the viewer shows at `frame`: the latest row at or before it (Rerun's latest-at)."""
    earlier = [f for f in logged if f <= frame]
    return logged[max(earlier)] if earlier else 0


# MARK: - Frames

@pytest.mark.parametrize("name", BUNDLED)
def test_one_grey_image_per_frame_on_the_frame_and_time_timelines(exported, name):
    _, summary, loaded = exported[name]
    rec = lumatrace.open(recording_path(name))
    assert len(loaded.images) == rec.info.frame_count == summary.frames
    assert [f for f, *_ in loaded.images] == list(range(len(rec)))
    assert [t for _, t, *_ in loaded.images] == [expected_nanoseconds(t, rec.info.timescale) for t in rec.times.ticks]
    for k in (0, len(rec) // 2, len(rec) - 1):
        [image_format] = loaded.images[k][3]
        assert (image_format["width"], image_format["height"]) == (rec.info.width, rec.info.height)
        assert image_format["color_model"] == 1 and image_format["channel_datatype"] == 6   # L, U8
        assert loaded.image_bytes(k) == rec[k].tobytes()


def test_an_export_of_large_frames_waits_for_rerun_to_write_them(large, tmp_path):
    # Before, `rr.Image` copied the pixels three times and frames were decoded faster than Rerun
    # wrote them: 8.6 frames. Rerun itself holds about two and a half frames while it encodes one.
    recording, log = large
    out = tmp_path / "large.rrd"
    assert peak_memory("rerun", "lumatrace.rerun.to_rrd", recording, log, out) < 7
    rec, loaded = lumatrace.open(recording), Loaded(out)
    assert len(loaded.images) == len(rec) == 3
    for k in range(3):
        [image_format] = loaded.images[k][3]
        assert (image_format["width"], image_format["height"], image_format["color_model"]) == (LARGE, LARGE, 1)
        assert loaded.image_bytes(k) == rec[k].tobytes()


# MARK: - Annotations

@pytest.mark.parametrize("name", BUNDLED)
def test_every_frame_shows_exactly_what_its_events_drew(exported, name):
    _, _, loaded = exported[name]
    n = lumatrace.open(recording_path(name)).info.frame_count
    expected = rerun_instances(events_path(name))
    entities = {f"/camera/annotations/{a}/{layer}" for a, layer in expected}
    assert entities == {e for e in loaded.rows if e.startswith("/camera/annotations/")}
    for (analyzer, layer), per_frame in expected.items():
        logged = loaded.instances(f"/camera/annotations/{analyzer}/{layer}")
        shown = [on_screen(logged, f) for f in range(n)]
        assert shown == [per_frame.get(f, 0) for f in range(n)], f"{analyzer}/{layer}"


def test_tracked_boxes_are_at_their_pixel_corners_with_labels(exported):
    _, _, loaded = exported["tracking-synth"]
    header, events = read_log(events_path("tracking-synth"))
    w, h = header["recording"]["width"], header["recording"]["height"]
    rows = {r["frame"]: r for r in loaded.rows["/camera/annotations/tracking/boxes"]}
    tracks = [e for e in events if e["kind"] == "track"]
    assert sum(len(r["Boxes2D:half_sizes"]) for r in rows.values()) == len(tracks)
    for e in (tracks[0], tracks[len(tracks) // 2], tracks[-1]):
        row = rows[e["frame"]]
        boxes = [((cx - hx, cy - hy), (cx + hx, cy + hy))
                 for (cx, cy), (hx, hy) in zip(row["Boxes2D:centers"], row["Boxes2D:half_sizes"])]
        corners = box_corners(e["data"]["boundingBox"], w, h)
        wanted = (corners[0], corners[2])
        assert any(np.allclose(np.array(b), np.array(wanted), atol=1e-3) for b in boxes), e["frame"]
        assert f"{e['data']['label']} {e['data']['confidence']:.2f}" in row["Boxes2D:labels"]


def test_a_trajectorys_position_has_the_objects_radius(exported):
    _, _, loaded = exported["balls-synth"]
    header, events = read_log(events_path("balls-synth"))
    w, h = header["recording"]["width"], header["recording"]["height"]
    update = next(e for e in events if e["kind"] == "trajectory")
    rows = {r["frame"]: r for r in loaded.rows["/camera/annotations/trajectory/positions"]}
    row = rows[update["frame"]]
    newest = pixel(update["data"]["detectedPoints"][-1], w, h)
    assert np.allclose(row["Points2D:positions"][0], newest, atol=1e-3)
    assert row["Points2D:radii"][0] == pytest.approx(update["data"]["movingAverageRadius"] * w, rel=1e-5)
    strip = {r["frame"]: r for r in loaded.rows["/camera/annotations/trajectory/paths"]}[update["frame"]]
    assert len(strip["LineStrips2D:strips"][0]) == len(update["data"]["detectedPoints"])


def test_quadrilaterals_close_and_lost_tracks_show_their_last_box(tmp_path):
    log = tmp_path / "every.events.jsonl"
    quad, _ = every_shape_log(log)
    out = tmp_path / "every.rrd"
    summary = to_rrd(recording_path("balls-synth"), log, out)
    loaded = Loaded(out)
    expected = rerun_instances(log)
    for (analyzer, layer), per_frame in expected.items():
        logged = loaded.instances(f"/camera/annotations/{analyzer}/{layer}")
        assert [on_screen(logged, f) for f in range(10)] == [per_frame.get(f, 0) for f in range(10)], layer
    strip = loaded.rows["/camera/annotations/rectangles/quads"][0]["LineStrips2D:strips"][0]
    corners = [pixel(quad[k], 320, 180) for k in ("topLeft", "topRight", "bottomRight", "bottomLeft", "topLeft")]
    assert np.allclose(strip, corners, atol=1e-3)
    lost = {r["frame"]: r for r in loaded.rows["/camera/annotations/tracking/lost"]}
    assert lost[2]["Boxes2D:labels"] == ["cup lost"]
    assert summary.not_drawn == {"notes/note": 1, "tracking/track.lost": 1}


def test_a_replayed_log_with_every_shape_shows_what_it_says(lumatrace_bin, tmp_path_factory, tmp_path):
    log = replayed_every_shape_log(lumatrace_bin, tmp_path_factory)
    header, events = read_log(log)
    shapes = shapes_of(header)
    assert {"quadrilateral", "box", "boxLost", "boxRecovered"} <= {shapes[(e["analyzer"], e["kind"])] for e in events}
    to_rrd(recording_path("balls-synth"), log, tmp_path / "every.rrd")
    loaded = Loaded(tmp_path / "every.rrd")
    expected = rerun_instances(log)
    assert {layer for _, layer in expected} >= {"quads", "boxes", "lost", "recovered"}
    for (analyzer, layer), per_frame in expected.items():
        logged = loaded.instances(f"/camera/annotations/{analyzer}/{layer}")
        assert [on_screen(logged, f) for f in range(90)] == [per_frame.get(f, 0) for f in range(90)], (analyzer, layer)


def test_a_log_of_another_recording_of_the_same_size_is_refused_unless_asked(tmp_path):
    with pytest.raises(OtherRecordingError, match="is a log of another recording"):
        to_rrd(recording_path("balls-synth"), events_path("tracking-synth"), tmp_path / "x.rrd")
    assert os.listdir(tmp_path) == []
    summary = to_rrd(recording_path("balls-synth"), events_path("tracking-synth"), tmp_path / "x.rrd",
                     other_recording=True)
    assert (summary.frames, summary.events) == (90, 449)


# MARK: - Events as data

def expected_series(path) -> dict:
    """entity -> [(frame, value)] of every top-level number in every event's data, by the rule
    `events/ANALYZER/KIND/FIELD[/ID]`, written from the log's JSON lines."""
    _, events = read_log(path)
    out = defaultdict(list)
    for e in events:
        data = e["data"] if isinstance(e["data"], dict) else {}
        for field, value in data.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                entity = f"/events/{e['analyzer']}/{e['kind']}/{field}" + (f"/{data['id']}" if data.get("id") else "")
                out[entity].append((e["frame"], float(value)))
    return dict(out)


@pytest.mark.parametrize("name", BUNDLED)
def test_every_number_an_event_carries_is_a_scalar_series_at_its_frames_time(exported, name):
    _, _, loaded = exported[name]
    rec = lumatrace.open(recording_path(name))
    times = [expected_nanoseconds(t, rec.info.timescale) for t in rec.times.ticks]
    expected = expected_series(events_path(name))
    assert {e for e in loaded.rows if e.startswith("/events/") and e.count("/") >= 4} == set(expected)
    for entity, series in expected.items():
        rows = loaded.rows[entity]
        assert [(r["frame"], r["Scalars:scalars"]) for r in rows] == [(f, [v]) for f, v in series], entity
        assert [r["time"] for r in rows] == [times[f] for f, _ in series]
    if name == "balls-synth":
        assert "/events/differencing/diff/changedFraction" in expected
        assert any(e.startswith("/events/trajectory/trajectory/confidence/") for e in expected)


@pytest.mark.parametrize("name", BUNDLED)
def test_a_text_log_per_analyzer_holds_every_event(exported, name):
    _, _, loaded = exported[name]
    _, events = read_log(events_path(name))
    for analyzer in {e["analyzer"] for e in events}:
        mine = [e for e in events if e["analyzer"] == analyzer]
        rows = loaded.rows[f"/events/{analyzer}"]
        assert len(rows) == len(mine)
        assert sorted((r["frame"], r["TextLog:text"][0]) for r in rows) == sorted(
            (e["frame"], f"{e['kind']} {json.dumps(e['data'], separators=(',', ':'))}") for e in mine)


def test_the_recordings_digest_and_analyzers_are_recording_properties(exported):
    _, _, loaded = exported["balls-synth"]
    [row] = loaded.rows["/__properties/lumatrace"]
    digest = lumatrace.open(recording_path("balls-synth")).frames_digest()
    assert row["framesDigest"] == [digest]
    assert row["recording"] == ["balls-synth.luma"]
    assert row["analyzers"] == ["differencing 1", "trajectory 3"]


def test_a_trajectorys_fitted_path_is_a_line_of_49_points(exported):
    _, _, loaded = exported["balls-synth"]
    header, events = read_log(events_path("balls-synth"))
    update = next(e for e in events if e["kind"] == "trajectory" and draws_fitted_path(e["data"]))
    row = {r["frame"]: r for r in loaded.rows["/camera/annotations/trajectory/fit"]}[update["frame"]]
    expected = fitted_path(update["data"], header["recording"]["width"], header["recording"]["height"])
    assert np.allclose(row["LineStrips2D:strips"][0], expected, atol=1e-3)


def test_a_log_of_part_of_the_recording_exports_those_frames_only(lumatrace_bin, tmp_path):
    log = replayed_part(lumatrace_bin, "toss-real", 10, 29, tmp_path)
    summary = to_rrd(recording_path("toss-real"), log, tmp_path / "part.rrd")
    loaded = Loaded(tmp_path / "part.rrd")
    assert summary.frames == 20
    assert [f for f, *_ in loaded.images] == list(range(10, 30))


# MARK: - Files

def test_the_same_inputs_are_the_same_rerun_recording(exported, tmp_path):
    path, _, loaded = exported["toss-real"]
    again = tmp_path / "again.rrd"
    to_rrd(recording_path("toss-real"), events_path("toss-real"), again)
    store = Loaded(again).store
    assert (store.application_id, store.recording_id) == (loaded.store.application_id, loaded.store.recording_id)
    other = exported["balls-synth"][2].store
    assert other.recording_id != loaded.store.recording_id
    assert len(loaded.blueprints) == 1                  # the default view of /camera


def test_no_wall_clock_timeline_and_the_recording_is_named_after_its_file(exported):
    _, _, loaded = exported["balls-synth"]
    timelines = {k for rows in loaded.rows.values() for r in rows for k in r if k in ("frame", "time", "log_time", "log_tick")}
    assert timelines == {"frame", "time"}
    assert loaded.rows["/__properties"][0]["RecordingInfo:name"] == ["balls-synth.luma"]
