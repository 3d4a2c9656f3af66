"""`lumatrace.foxglove.to_mcap`: every export is read back with the MCAP reader and the Foxglove
protobuf decoder (`mcap`, `mcap-protobuf-support`), and checked against the recording's frames and
what the event log says (`export_expectations`)."""
import json
import os
from collections import Counter
from types import SimpleNamespace

import pytest

pytest.importorskip("foxglove", reason="needs foxglove-sdk: pip install 'lumatrace[foxglove]'")
jsonschema = pytest.importorskip("jsonschema", reason="needs jsonschema: pip install 'lumatrace[test]'")
from mcap.decoder import DecoderFactory as McapDecoderFactory  # noqa: E402
from mcap.reader import make_reader  # noqa: E402
from mcap_protobuf.decoder import DecoderFactory  # noqa: E402

import lumatrace  # noqa: E402
from lumatrace.__main__ import main  # noqa: E402
from lumatrace._export import OtherRecordingError  # noqa: E402
from lumatrace.errors import EventLogError  # noqa: E402
from lumatrace.foxglove import to_mcap  # noqa: E402

from export_expectations import (BUNDLED, box_corners, every_shape_log, events_path, export_bundled,  # noqa: E402
                                 expected_nanoseconds, foxglove_primitives, pixel, read_log, recording_path,
                                 replayed_every_shape_log, shapes_of)

# PointsAnnotation.type in foxglove.PointsAnnotation's protobuf schema.
POINTS, LINE_LOOP, LINE_STRIP = 1, 2, 3


class JSONSchemaDecoderFactory(McapDecoderFactory):
    """Decodes JSON messages, each checked against its channel's JSON Schema (which must be a valid
    draft 2020-12 schema)."""

    def decoder_for(self, message_encoding, schema):
        if message_encoding != "json" or schema is None or schema.encoding != "jsonschema":
            return None
        declared = json.loads(schema.data)
        jsonschema.Draft202012Validator.check_schema(declared)
        validator = jsonschema.Draft202012Validator(declared)

        def decode(data: bytes):
            value = json.loads(data)
            validator.validate(value)
            return value
        return decode


def read_mcap(path):
    """Every message decoded (protobuf, or JSON checked against its schema): a list of (topic,
    schema name, log time, publish time, message)."""
    with open(path, "rb") as f:
        reader = make_reader(f, decoder_factories=[DecoderFactory(), JSONSchemaDecoderFactory()])
        return [(channel.topic, schema.name, message.log_time, message.publish_time, decoded)
                for schema, channel, message, decoded in reader.iter_decoded_messages()]


def frame_annotations(messages):
    """Each frame's annotations, every analyzer's topic merged: a list by frame of objects with
    `points`, `circles` and `texts`."""
    topics = {}
    for topic, _, _, _, m in messages:
        if topic.startswith("/lumatrace/") and topic.endswith("/annotations"):
            topics.setdefault(topic, []).append(m)
    frames = [SimpleNamespace(points=[], circles=[], texts=[]) for _ in next(iter(topics.values()), [])]
    for notes in topics.values():
        for merged, m in zip(frames, notes, strict=True):
            merged.points += m.points
            merged.circles += m.circles
            merged.texts += m.texts
    return frames


def ns(stamp):
    return stamp.seconds * 1_000_000_000 + stamp.nanos


def primitives(annotations):
    """What one ImageAnnotations holds, counted as `foxglove_primitives` counts it."""
    kinds = {POINTS: "points", LINE_LOOP: "loop", LINE_STRIP: "strip"}
    c = Counter(kinds[p.type] for p in annotations.points)
    c["circle"] += len(annotations.circles)
    c["text"] += len(annotations.texts)
    return +c


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Each bundled recording exported once: name -> (path, summary, messages)."""
    return export_bundled(tmp_path_factory, to_mcap, ".mcap", read_mcap)


# MARK: - Frames

@pytest.mark.parametrize("name", BUNDLED)
def test_one_raw_image_per_frame_with_the_frames_pixels_and_exact_times(exported, name):
    path, summary, messages = exported[name]
    rec = lumatrace.open(recording_path(name))
    images = [(log_time, publish_time, m) for topic, schema, log_time, publish_time, m in messages
              if topic == "/camera/image"]
    assert {schema for topic, schema, *_ in messages if topic == "/camera/image"} == {"foxglove.RawImage"}
    assert len(images) == rec.info.frame_count == summary.frames
    times = [expected_nanoseconds(t, rec.info.timescale) for t in rec.times.ticks]
    assert [ns(m.timestamp) for _, _, m in images] == times
    assert [log for log, _, _ in images] == times
    assert [publish for _, publish, _ in images] == times
    for i in (0, len(rec) // 2, len(rec) - 1):
        m = images[i][2]
        assert (m.width, m.height, m.step, m.encoding, m.frame_id) == (rec.info.width, rec.info.height,
                                                                       rec.info.width, "mono8", "camera")
        assert m.data == rec[i].tobytes()


def test_a_timescale_without_exact_nanoseconds_rounds_each_frame_to_the_nearest():
    # toss-real counts 179 ticks a second: frame 1 is at 6/179 s = 33519553.07... ns.
    assert expected_nanoseconds(6, 179) == 33519553
    assert lumatrace.open(recording_path("toss-real")).info.timescale == 179


# MARK: - Annotations

@pytest.mark.parametrize("name", BUNDLED)
def test_each_analyzer_draws_on_its_own_topic_one_image_annotations_per_frame_at_the_images_timestamp(exported, name):
    _, _, messages = exported[name]
    images = [m for topic, _, _, _, m in messages if topic == "/camera/image"]
    header, _ = read_log(events_path(name))
    drawing = sorted(a["name"] for a in header["analyzers"] if foxglove_primitives(events_path(name), a["name"]))
    topics = sorted({topic for topic, *_ in messages if topic.endswith("/annotations")})
    assert topics == [f"/lumatrace/{a}/annotations" for a in drawing]
    for topic in topics:
        notes = [(log, m) for t, _, log, _, m in messages if t == topic]
        assert {s for t, s, *_ in messages if t == topic} == {"foxglove.ImageAnnotations"}
        assert [ns(m.timestamp) for _, m in notes] == [ns(m.timestamp) for m in images]
        assert [log for log, _ in notes] == [ns(m.timestamp) for m in images]
        for _, m in notes:
            stamps = {ns(a.timestamp) for a in list(m.points) + list(m.circles) + list(m.texts)}
            assert stamps <= {ns(m.timestamp)}
            assert all(t.text.startswith(topic.split("/")[2] + " ") for t in m.texts)


@pytest.mark.parametrize("name", BUNDLED)
def test_each_frame_draws_what_its_events_say(exported, name):
    _, summary, messages = exported[name]
    notes = frame_annotations(messages)
    expected = foxglove_primitives(events_path(name))
    found = {f: primitives(m) for f, m in enumerate(notes) if primitives(m)}
    assert found == expected
    assert expected, "the bundled log draws something"
    assert summary.shapes > 0 and summary.drawn <= summary.events


def test_tracked_boxes_are_line_loops_at_their_pixel_corners_with_labels(exported):
    _, _, messages = exported["tracking-synth"]
    notes = frame_annotations(messages)
    header, events = read_log(events_path("tracking-synth"))
    w, h = header["recording"]["width"], header["recording"]["height"]
    tracks = [e for e in events if e["kind"] == "track"]
    outlines = sum(1 for m in notes for p in m.points if p.type == LINE_LOOP and len(p.points) == 4)
    blobs = sum(len(e["data"]["blobs"]) for e in events if e["kind"] == "diff")
    assert outlines == len(tracks) + blobs          # a box per track event, a box per motion blob
    for e in (tracks[0], tracks[len(tracks) // 2], tracks[-1]):
        m = notes[e["frame"]]
        loops = [[(q.x, q.y) for q in p.points] for p in m.points if p.type == LINE_LOOP]
        corners = box_corners(e["data"]["boundingBox"], w, h)
        assert any(len(loop) == 4 and all(abs(a - b) < 1e-9 for p, q in zip(loop, corners) for a, b in zip(p, q))
                   for loop in loops), f"no outline at {corners} on frame {e['frame']}"
        label = f"tracking {e['data']['label']} {e['data']['confidence']:.2f}"
        assert label in [t.text for t in m.texts]


def test_a_trajectorys_path_ends_at_its_newest_point_drawn_with_the_objects_radius(exported):
    _, _, messages = exported["balls-synth"]
    notes = frame_annotations(messages)
    header, events = read_log(events_path("balls-synth"))
    w, h = header["recording"]["width"], header["recording"]["height"]
    update = next(e for e in events if e["kind"] == "trajectory")
    m = notes[update["frame"]]
    newest = pixel(update["data"]["detectedPoints"][-1], w, h)
    strips = [[(q.x, q.y) for q in p.points] for p in m.points if p.type == LINE_STRIP]
    assert any(len(s) == len(update["data"]["detectedPoints"]) and s[-1] == pytest.approx(newest) for s in strips)
    circle = next(c for c in m.circles if (c.position.x, c.position.y) == pytest.approx(newest))
    assert circle.diameter == pytest.approx(2 * update["data"]["movingAverageRadius"] * w)


def test_quadrilaterals_lost_and_recovered_tracks_and_free_json(tmp_path):
    log = tmp_path / "every.events.jsonl"
    quad, box = every_shape_log(log)
    summary = to_mcap(recording_path("balls-synth"), log, tmp_path / "every.mcap")
    notes = frame_annotations(read_mcap(tmp_path / "every.mcap"))
    found = {f: primitives(m) for f, m in enumerate(notes) if primitives(m)}
    assert found == foxglove_primitives(log)
    assert found[2] == Counter(loop=1, text=1)            # the lost track's last box; the never-seen one draws nothing
    quad_loop = [(q.x, q.y) for q in notes[0].points[0].points]
    assert quad_loop == [pytest.approx(pixel(quad[k], 320, 180)) for k in ("topLeft", "topRight", "bottomRight", "bottomLeft")]
    assert [t.text for t in notes[2].texts] == ["tracking cup lost"]
    assert [t.text for t in notes[5].texts] == ["tracking cup 0.90"]
    assert (summary.events, summary.drawn, summary.not_drawn) == (7, 5, {"notes/note": 1, "tracking/track.lost": 1})


def test_a_replayed_log_with_every_shape_draws_what_it_says(lumatrace_bin, tmp_path_factory, tmp_path):
    log = replayed_every_shape_log(lumatrace_bin, tmp_path_factory)
    header, events = read_log(log)
    assert header["version"] == 2
    shapes = shapes_of(header)
    assert {"quadrilateral", "box", "boxLost", "boxRecovered"} <= {shapes[(e["analyzer"], e["kind"])] for e in events}
    summary = to_mcap(recording_path("balls-synth"), log, tmp_path / "every.mcap")
    notes = frame_annotations(read_mcap(tmp_path / "every.mcap"))
    assert {f: primitives(m) for f, m in enumerate(notes) if primitives(m)} == foxglove_primitives(log)
    assert summary.events == len(events)


# MARK: - Pairing a log with its recording

def test_a_log_of_another_recording_of_the_same_size_is_refused_unless_asked(tmp_path, capsys):
    with pytest.raises(OtherRecordingError) as other:
        to_mcap(recording_path("tracking-synth"), events_path("balls-synth"), tmp_path / "x.mcap")
    assert "balls-synth.events.jsonl: is a log of another recording (balls-synth.luma" in str(other.value)
    assert os.listdir(tmp_path) == []
    args = ["export-mcap", str(recording_path("tracking-synth")), str(events_path("balls-synth")), "-o", str(tmp_path / "x.mcap")]
    assert main(args) == 2
    assert capsys.readouterr().err.strip().endswith("; pass --force to use it anyway")
    summary = to_mcap(recording_path("tracking-synth"), events_path("balls-synth"), tmp_path / "x.mcap",
                      other_recording=True)
    assert (summary.frames, summary.events) == (90, 223)


def test_an_edited_log_is_refused_at_its_footer(tmp_path):
    log = tmp_path / "edited.events.jsonl"
    text = events_path("toss-real").read_text()
    assert '"changedFraction":0.000000' in text
    log.write_text(text.replace('"changedFraction":0.000000', '"changedFraction":0.000001', 1))
    last = len(text.splitlines())
    with pytest.raises(EventLogError, match=rf"edited.events.jsonl: line {last}: footer digest does not match"):
        to_mcap(recording_path("toss-real"), log, tmp_path / "x.mcap")
    assert sorted(os.listdir(tmp_path)) == ["edited.events.jsonl"]


# MARK: - Files

def test_the_same_inputs_give_the_same_bytes(exported, tmp_path):
    path, _, _ = exported["toss-real"]
    again = tmp_path / "again.mcap"
    to_mcap(recording_path("toss-real"), events_path("toss-real"), again)
    assert again.read_bytes() == path.read_bytes()


def test_metadata_names_what_the_file_was_made_from(exported):
    path, _, _ = exported["balls-synth"]
    with open(path, "rb") as f:
        metadata = {m.name: m.metadata for m in make_reader(f).iter_metadata()}
    assert metadata["lumatrace"]["recording"] == "balls-synth.luma"
    assert metadata["lumatrace"]["analyzers"] == "differencing 1, trajectory 2"


def test_an_event_past_the_last_frame_names_its_line(tmp_path):
    log = tmp_path / "late.events.jsonl"
    every_shape_log(log)
    lines = log.read_text().splitlines()
    lines.insert(2, lines[1].replace('"frame": 0,', '"frame": 90,'))
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(EventLogError, match=r"late.events.jsonl: line 3: event at frame 90, outside the replayed frames 0...89"):
        to_mcap(recording_path("balls-synth"), log, tmp_path / "x.mcap")
