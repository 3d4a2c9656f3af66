"""`lumatrace.foxglove.to_mcap`: every export is read back with the MCAP reader and the Foxglove
protobuf decoder (`mcap`, `mcap-protobuf-support`), and checked against the recording's frames and
what the event log says (`export_expectations`)."""
import json
import os
from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("foxglove", reason="needs foxglove-sdk: pip install 'lumatrace[foxglove]'")
import jsonschema  # noqa: E402 - in the test extra: pip install 'lumatrace[test]'
from mcap.decoder import DecoderFactory as McapDecoderFactory  # noqa: E402
from mcap.reader import make_reader  # noqa: E402
from mcap_protobuf.decoder import DecoderFactory  # noqa: E402

import lumatrace  # noqa: E402
from lumatrace.__main__ import main  # noqa: E402
from lumatrace._export import OtherRecordingError  # noqa: E402
from lumatrace.errors import EventLogError  # noqa: E402
from lumatrace._raw_image import raw_image_message  # noqa: E402
from lumatrace.foxglove import to_mcap  # noqa: E402

from export_expectations import (BUNDLED, LARGE, peak_memory, box_corners, draws_fitted_path, every_shape_log, events_path,  # noqa: E402
                                 export_bundled, expected_nanoseconds, fitted_path, foxglove_primitives, pixel,
                                 read_log, recording_path, replayed_every_shape_log, replayed_part, shapes_of, write_log,
                                 _balls_digest)

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


def test_a_frames_message_is_the_sdks_own_raw_image_byte_for_byte():
    from foxglove.messages import RawImage, Timestamp
    rng = np.random.default_rng(56)
    for (height, width), sec, nsec in [((1, 1), 0, 0), ((2, 3), 0, 7), ((180, 320), 5, 0), ((3, 200), 2**32 - 1, 999_999_999)]:
        pixels = rng.integers(0, 256, (height, width), dtype=np.uint8)
        expected = RawImage(timestamp=Timestamp(sec, nsec), frame_id="camera", width=width, height=height,
                            encoding="mono8", step=width, data=pixels.tobytes()).encode()
        assert raw_image_message(pixels, sec=sec, nsec=nsec, frame_id="camera", encoding="mono8") == expected


def test_an_export_of_large_frames_holds_its_frame_the_reference_frame_and_one_message(large, tmp_path):
    # Before, the pixels were copied by tobytes, into the SDK's RawImage and by its encoding, and
    # the frame before was still held while the next was decoded: 4.1 frames.
    recording, log = large
    out = tmp_path / "large.mcap"
    assert peak_memory("foxglove", "lumatrace.foxglove.to_mcap", recording, log, out) < 3.5
    rec = lumatrace.open(recording)
    images = [m for topic, _, _, _, m in read_mcap(out) if topic == "/camera/image"]
    assert len(images) == len(rec) == 3
    for k, m in enumerate(images):
        assert (m.width, m.height, m.step, m.encoding, m.frame_id) == (LARGE, LARGE, LARGE, "mono8", "camera")
        assert m.data == rec[k].tobytes()


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


def test_a_trajectorys_fitted_path_is_drawn_as_render_draws_it(exported):
    _, _, messages = exported["balls-synth"]
    notes = frame_annotations(messages)
    header, events = read_log(events_path("balls-synth"))
    w, h = header["recording"]["width"], header["recording"]["height"]
    updates = [e for e in events if e["kind"] == "trajectory" and draws_fitted_path(e["data"])]
    assert updates, "the bundled log fits its paths"
    for update in (updates[0], updates[-1]):
        expected = fitted_path(update["data"], w, h)
        strips = [[(q.x, q.y) for q in p.points] for p in notes[update["frame"]].points if p.type == LINE_STRIP]
        assert any(len(s) == 49 and all(p == pytest.approx(q) for p, q in zip(s, expected)) for s in strips)


def test_a_paths_label_names_its_analyzer_and_object_not_only_the_confidence(exported):
    _, _, messages = exported["balls-synth"]
    notes = frame_annotations(messages)
    _, events = read_log(events_path("balls-synth"))
    update = next(e for e in events if e["kind"] == "trajectory")
    short = update["data"]["id"].split("-")[0]
    assert f"trajectory {short} {update['data']['confidence']:.2f}" in [t.text for t in notes[update["frame"]].texts]


# MARK: - Events as data

@pytest.mark.parametrize("name", BUNDLED)
def test_every_event_is_a_json_message_on_its_analyzers_kind_topic_at_its_frames_time(exported, name):
    _, _, messages = exported[name]
    header, events = read_log(events_path(name))
    rec = lumatrace.open(recording_path(name))
    times = [expected_nanoseconds(t, rec.info.timescale) for t in rec.times.ticks]
    found = [(topic, schema, log, publish, m) for topic, schema, log, publish, m in messages
             if not topic.startswith("/camera/") and not topic.endswith("/annotations")]
    declared = shapes_of(header)
    with open(exported[name][0], "rb") as f:
        channels = {c.topic for c in make_reader(f).get_summary().channels.values()}
    assert {c for c in channels if not c.startswith("/camera/") and not c.endswith("/annotations")} == {
        f"/lumatrace/{e['analyzer']}/events/{e['kind']}" for e in events}
    by_topic = Counter(topic for topic, *_ in found)
    assert by_topic == Counter(f"/lumatrace/{e['analyzer']}/events/{e['kind']}" for e in events)
    in_order = sorted(found, key=lambda m: m[2])  # MCAP orders by log time; the log by frame
    assert [m for *_, m in in_order] == sorted(events, key=lambda e: e["frame"])
    for topic, schema, log, publish, m in found:
        assert schema == f"lumatrace.{declared[(m['analyzer'], m['kind'])]}"
        assert topic == f"/lumatrace/{m['analyzer']}/events/{m['kind']}"
        assert log == publish == times[m["frame"]]


def test_the_numbers_to_plot_are_declared_numbers_in_the_schema(exported):
    path, _, messages = exported["balls-synth"]
    with open(path, "rb") as f:
        summary = make_reader(f).get_summary()
    schemas = {c.topic: json.loads(summary.schemas[c.schema_id].data) for c in summary.channels.values()
               if c.message_encoding == "json"}
    diff = schemas["/lumatrace/differencing/events/diff"]["properties"]["data"]
    assert diff["properties"]["changedFraction"]["type"] == "number" and "changedFraction" in diff["required"]
    path_update = schemas["/lumatrace/trajectory/events/trajectory"]["properties"]["data"]
    assert path_update["properties"]["confidence"]["type"] == "number"
    fractions = [m["data"]["changedFraction"] for topic, *_, m in messages if topic == "/lumatrace/differencing/events/diff"]
    assert len(fractions) == 89 and max(fractions) > 0


def test_free_json_events_have_a_channel_whose_schema_allows_any_data(tmp_path):
    log = tmp_path / "every.events.jsonl"
    every_shape_log(log)
    to_mcap(recording_path("balls-synth"), log, tmp_path / "every.mcap")
    notes = [(schema, m) for topic, schema, _, _, m in read_mcap(tmp_path / "every.mcap") if topic == "/lumatrace/notes/events/note"]
    assert notes == [("lumatrace.event", {"frame": 1, "t": 1 / 30, "analyzer": "notes", "kind": "note",
                                          "data": {"text": "hello"}})]


def test_event_topics_have_a_namespace_of_their_own_whatever_the_kinds_name(tmp_path):
    # Kinds a log may declare: one named like the annotations topic, and names that are odd as topic
    # segments (a dot, two, a leading dot, a dash, a slash, a percent sign, a space).
    kinds = ["annotations", ".", "..", ".hidden", "-", "a/b", "100%", "two words", "diff"]
    box = {"id": "A", "boundingBox": [0.5, 0.25, 0.25, 0.5], "confidence": 0.9}
    write_log(tmp_path / "odd.events.jsonl", [("x", [(k, "box") for k in kinds])],
              [(1, "x", k, box) for k in kinds], digest=_balls_digest())
    to_mcap(recording_path("balls-synth"), tmp_path / "odd.events.jsonl", tmp_path / "odd.mcap")
    with open(tmp_path / "odd.mcap", "rb") as f:
        channels = list(make_reader(f).get_summary().channels.values())
    topics = [c.topic for c in channels]
    assert len(topics) == len(set(topics)), topics            # no topic carries two channels
    assert "/lumatrace/x/annotations" in topics
    events = sorted(t for t in topics if t.startswith("/lumatrace/x/events/"))
    assert events == sorted(["/lumatrace/x/events/annotations", "/lumatrace/x/events/%2E", "/lumatrace/x/events/%2E.",
                             "/lumatrace/x/events/%2Ehidden", "/lumatrace/x/events/-", "/lumatrace/x/events/a%2Fb",
                             "/lumatrace/x/events/100%25", "/lumatrace/x/events/two%20words",
                             "/lumatrace/x/events/diff"])
    messages = {topic: m for topic, _, _, _, m in read_mcap(tmp_path / "odd.mcap")}
    assert messages["/lumatrace/x/events/a%2Fb"]["kind"] == "a/b"   # the event keeps its own kind


def test_a_schema_refuses_an_event_without_its_shapes_fields():
    from lumatrace._event_schema import event_schema
    validator = jsonschema.Draft202012Validator(event_schema("tracking", "track", "box"))
    good = {"frame": 3, "t": 0.1, "analyzer": "tracking", "kind": "track",
            "data": {"id": "A", "boundingBox": [0.1, 0.1, 0.2, 0.2], "confidence": 0.5, "mine": [1]}}
    assert validator.is_valid(good)
    assert not validator.is_valid({**good, "data": {"id": "A", "confidence": 0.5}})
    assert not validator.is_valid({**good, "data": {**good["data"], "confidence": "high"}})
    assert not validator.is_valid({**good, "kind": "track.lost"})


# MARK: - Part of a recording

def test_a_log_of_part_of_the_recording_exports_those_frames_only(lumatrace_bin, tmp_path):
    log = replayed_part(lumatrace_bin, "balls-synth", 20, 49, tmp_path)
    summary = to_mcap(recording_path("balls-synth"), log, tmp_path / "part.mcap")
    messages = read_mcap(tmp_path / "part.mcap")
    rec = lumatrace.open(recording_path("balls-synth"))
    times = [expected_nanoseconds(t, rec.info.timescale) for t in rec.times.ticks]
    images = [log_time for topic, _, log_time, _, _ in messages if topic == "/camera/image"]
    assert summary.frames == 30
    with open(tmp_path / "part.mcap", "rb") as f:
        metadata = {m.name: m.metadata for m in make_reader(f).iter_metadata()}
    assert (metadata["lumatrace"]["frames"], metadata["lumatrace"]["exportedFrames"]) == ("90", "20...49")
    assert images == times[20:50]
    _, events = read_log(log)
    assert events and sum(1 for topic, *_ in messages if topic.startswith("/lumatrace/") and
                          not topic.endswith("/annotations")) == len(events)
    notes = frame_annotations(messages)
    assert len(notes) == 30
    assert {f + 20: primitives(m) for f, m in enumerate(notes) if primitives(m)} == foxglove_primitives(log)


# MARK: - Layout

def test_the_layout_shows_the_image_with_every_analyzers_annotations_a_plot_and_raw_messages(tmp_path):
    out, layout = tmp_path / "balls.mcap", tmp_path / "balls.layout.json"
    to_mcap(recording_path("balls-synth"), events_path("balls-synth"), out, layout_path=layout)
    with open(out, "rb") as f:
        topics = {c.topic for c in make_reader(f).get_summary().channels.values()}
    config = json.loads(layout.read_text())
    panels = config["configById"]
    image = panels["Image!lumatrace"]["imageMode"]
    assert image["imageTopic"] == "/camera/image"
    assert image["annotations"] == {"/lumatrace/differencing/annotations": {"visible": True},
                                    "/lumatrace/trajectory/annotations": {"visible": True}}
    assert [p["value"] for p in panels["Plot!lumatrace"]["paths"]] == [
        "/lumatrace/differencing/events/diff.data.changedFraction",
        "/lumatrace/trajectory/events/trajectory.data.confidence",
        '"/lumatrace/trajectory/events/trajectory.end".data.confidence']   # a topic with a dot is quoted
    assert panels["RawMessages!lumatrace"]["topicPath"] in topics
    assert {p["value"].rsplit(".data.", 1)[0].strip('"') for p in panels["Plot!lumatrace"]["paths"]} <= topics
    assert config["layout"]["first"] == "Image!lumatrace"
    assert set(_leaves(config["layout"])) == set(panels)


def test_a_message_path_quotes_a_topic_or_field_as_foxglove_does():
    from lumatrace._foxglove_layout import message_path
    assert message_path("/lumatrace/differencing/diff", "data", "changedFraction") == \
        "/lumatrace/differencing/diff.data.changedFraction"
    assert message_path("/lumatrace/tracking/track.lost", "data", "id") == '"/lumatrace/tracking/track.lost".data.id'
    assert message_path('/odd/"name"\\', "a b") == '"/odd/\\"name\\"\\\\"."a b"'


def _leaves(node):
    return [node] if isinstance(node, str) else _leaves(node["first"]) + _leaves(node["second"])


def test_an_existing_layout_is_replaced_only_with_force_and_stops_the_export_before_it_starts(tmp_path, capsys):
    layout = tmp_path / "a.layout.json"
    layout.write_text("mine\n")
    args = ["export-mcap", str(recording_path("toss-real")), str(events_path("toss-real")), "-o",
            str(tmp_path / "a.mcap"), "--layout", str(layout)]
    assert main(args) == 2
    assert capsys.readouterr().err.strip().endswith("a.layout.json: already exists (--force replaces it)")
    assert sorted(os.listdir(tmp_path)) == ["a.layout.json"] and layout.read_text() == "mine\n"
    assert main(args + ["--force"]) == 2   # not a layout: never replaced
    assert capsys.readouterr().err.strip().endswith(
        "a.layout.json: is not a Foxglove layout (a file of unknown kind); a result replaces only a file of its "
        "own kind: remove it first or choose another name")
    assert sorted(os.listdir(tmp_path)) == ["a.layout.json"] and layout.read_text() == "mine\n"
    layout.write_text('{"configById":{},"layout":"Image!x","globalVariables":{}}')   # as Foxglove saves one
    assert main(args + ["--force"]) == 0
    assert json.loads(layout.read_text())["configById"]
    first = layout.read_bytes()
    (tmp_path / "a.mcap").unlink()
    assert main(args) == 2   # the layout exists
    assert not (tmp_path / "a.mcap").exists()
    assert main(args + ["--force"]) == 0
    assert layout.read_bytes() == first


def test_the_layout_and_the_export_naming_one_file_is_a_wrong_command_line(tmp_path, capsys):
    same = tmp_path / "same.json"
    args = ["export-mcap", str(recording_path("toss-real")), str(events_path("toss-real")), "-o", str(same),
            "--layout", str(same)]
    assert main(args) == 64
    assert capsys.readouterr().err.strip().endswith(
        f"error: -o {same} and --layout {same} name the same file: each output needs a file of its own")
    assert os.listdir(tmp_path) == []


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
    assert (summary.frames, summary.events) == (90, 218)


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
    assert metadata["lumatrace"]["analyzers"] == "differencing 1, trajectory 3"


def test_an_event_past_the_last_frame_names_its_line(tmp_path):
    log = tmp_path / "late.events.jsonl"
    every_shape_log(log)
    lines = log.read_text().splitlines()
    lines.insert(2, lines[1].replace('"frame": 0,', '"frame": 90,'))
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(EventLogError, match=r"late.events.jsonl: line 3: event at frame 90, outside the replayed frames 0...89"):
        to_mcap(recording_path("balls-synth"), log, tmp_path / "x.mcap")
