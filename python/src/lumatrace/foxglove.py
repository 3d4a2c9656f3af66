"""A recording and its event log as an MCAP file for Foxglove.

    lumatrace.foxglove.to_mcap("clip.luma", "clip.events.jsonl", "clip.mcap", layout_path="clip.layout.json")

Open the file in Foxglove (app.foxglove.dev or the desktop app), and import the layout (Layouts >
Import from file) to see the frames with what each analyzer drew, a plot of the events' main
numbers and every event as it was logged. The topics, written with the official Foxglove SDK
(`foxglove-sdk`):

- `/camera/image`, one `foxglove.RawImage` (protobuf) per frame: `mono8`, step = width, frame_id
  "camera";
- `/lumatrace/ANALYZER/annotations`, one `foxglove.ImageAnnotations` (protobuf) per analyzer
  instance and frame, at the image's timestamp, so the Image panel pairs them exactly and ticks each
  analyzer on or off; a frame where the analyzer drew nothing gets an empty message, which clears
  what the previous frame drew;
- `/lumatrace/ANALYZER/events/KIND`, every event of one analyzer instance and kind as the log holds
  it (`{"frame","t","analyzer","kind","data"}`), JSON with a JSON Schema made from the shape the
  log's header declares for the kind (`lumatrace._event_schema`): plot
  `/lumatrace/differencing/events/diff.data.changedFraction` or a trajectory's `.data.confidence`;
  Raw Messages shows every event. Events have a namespace of their own, so no kind's name (even
  `annotations`) meets another topic.

ANALYZER and KIND are each one segment of a topic (`topic_segment`): a `/`, a `%`, a space or
another character outside letters, digits, `_`, `-` and `.` is percent-encoded (as UTF-8), and so
is a leading dot, so that no segment is `.`, `..` or hidden.

What each event kind draws is decided in `lumatrace.overlays`: paths, a trajectory's fitted path
and quadrilaterals are `PointsAnnotation`s (`LINE_STRIP`, `LINE_LOOP`), boxes `LINE_LOOP`s of their
four corners, a trajectory's current position a `CircleAnnotation` of the object's radius
(projected points are `POINTS`), and labels `TextAnnotation`s above their shape, naming the
analyzer and the object.

A log of part of a recording (`lumatrace replay --from/--to`) exports those frames only. Times are
the frames' own: a message's timestamp, log time and publish time are the frame's ticks / timescale
in nanoseconds, counted from the start of the recording (Foxglove shows the first frame at
1970-01-01 00:00:00). No wall clock is read: the same inputs give the same bytes.
"""
from __future__ import annotations

import json
import os
from contextlib import ExitStack

from ._event_messages import EventStream
from ._event_schema import event_schema
from ._export import Export, Pairing, exporting, import_sdk
from ._foxglove_layout import LAYOUT_KIND, write_layout
from ._output import OutputError, OutputFile, same_path
from ._raw_image import raw_image_message
from .errors import LumatraceError
from .overlays import Box, Dots, Polyline

__all__ = ["to_mcap", "IMAGE_TOPIC", "annotations_topic", "events_topic", "topic_segment"]

IMAGE_TOPIC = "/camera/image"
FRAME_ID = "camera"

_LINE_THICKNESS = 2.0
_POINT_SIZE = 4.0
_FONT_SIZE = 12.0


#: The characters a topic segment keeps as they are.
_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")


def topic_segment(name: str) -> str:
    """`name` (an analyzer instance's or an event kind's) as one segment of a topic: letters, digits,
    `_`, `-` and `.` as they are, every other character percent-encoded as UTF-8 (`a/b` is `a%2Fb`),
    and a leading dot too (`..` is `%2E.`), so a segment is never `.`, `..` or hidden and two names
    are never one topic."""
    encoded = "".join(c if c in _PLAIN else "".join(f"%{b:02X}" for b in c.encode("utf-8", "surrogatepass"))
                      for c in name)
    return "%2E" + encoded[1:] if encoded.startswith(".") else encoded


def annotations_topic(analyzer: str) -> str:
    """The topic of what one analyzer instance draws on the frames."""
    return f"/lumatrace/{topic_segment(analyzer)}/annotations"


def events_topic(stream: EventStream) -> str:
    """The topic of one analyzer instance's events of one kind, in the instance's `events` namespace."""
    return f"/lumatrace/{topic_segment(stream.analyzer)}/events/{topic_segment(stream.kind)}"


def to_mcap(recording_path, events_path, output_path, *, force: bool = False,
            other_recording: bool = False, layout_path=None, progress=None) -> Export:
    """Writes `output_path` (an `.mcap`) with the frames the event log covers, what each analyzer
    draws on each and every event as data, by the rules of every export
    (`lumatrace._export.exporting`: complete or not at all, an existing MCAP file replaced only
    with `force`, the log one of these frames unless `other_recording`). With `layout_path`, also
    writes a Foxglove layout for the file there (`_foxglove_layout`; replaced only with `force`).
    `progress(done, total)` is called after each frame. Returns what was written (`Export`).

    Raises what `exporting` raises, and `MissingSDKError` without `foxglove-sdk`."""
    foxglove = import_sdk("foxglove", what="Foxglove", package="foxglove-sdk", extra="foxglove")
    from foxglove.channels import ImageAnnotationsChannel
    from foxglove.mcap import MCAPWriteOptions
    from foxglove.messages import RawImage

    if layout_path is not None and same_path(layout_path, output_path):
        raise OutputError(os.fspath(layout_path), "isInput", f"is also the export's output {os.fspath(output_path)}: "
                                                            f"each output needs a file of its own")
    with ExitStack() as claimed:
        # The layout's name is claimed first: a layout that may not be written stops the export before it starts.
        layout = None if layout_path is None else claimed.enter_context(OutputFile(
            layout_path, force=force, inputs=[recording_path, events_path, output_path], kind=LAYOUT_KIND))
        out, pairing = claimed.enter_context(exporting(recording_path, events_path, output_path, kind="mcap",
                                                       force=force, other_recording=other_recording))
        # A context of our own: the channels reach this file only, never the SDK's global sinks.
        context = foxglove.Context()
        # One compression thread: zstd's multithreaded output need not be the same bytes run to run.
        writer = foxglove.open_mcap(out.writing_path, context=context,
                                    writer_options=MCAPWriteOptions(compression_threads=0))
        try:
            writer.write_metadata("lumatrace", _metadata(pairing))
            # The frames' channel is the SDK's RawImage channel (its schema, its encoding), fed
            # messages made around each frame's pixels (`_raw_image`): one copy of a frame, not three.
            images = foxglove.Channel(IMAGE_TOPIC, schema=RawImage.get_schema(), message_encoding="protobuf",
                                      context=context)
            analyzers = _drawing_analyzers(pairing)
            annotations = {a: ImageAnnotationsChannel(annotations_topic(a), context=context) for a in analyzers}
            events = {stream: _events_channel(foxglove, stream, context) for stream in pairing.messages.streams}
            frames = 0
            for frame in pairing.frames(progress):
                if frame.nanoseconds < 0:
                    raise LumatraceError(pairing.recording_path, f"frame {frame.index} is before time 0 "
                                                                 f"({frame.nanoseconds} ns); MCAP times start at 0")
                stamp = _timestamp(frame.nanoseconds)
                images.log(_image(frame.pixels, stamp), log_time=frame.nanoseconds)
                for analyzer, channel in annotations.items():
                    shapes = [s for s in frame.shapes if s.source.analyzer == analyzer]
                    channel.log(_annotations(shapes, stamp), log_time=frame.nanoseconds)
                for stream, event in pairing.messages[frame.index]:
                    events[stream].log(_compact(event), log_time=frame.nanoseconds)
                frames += 1
                del frame  # one frame at a time: let it go before the next is decoded
        finally:
            writer.close()
        if layout is not None:
            write_layout(layout.writing_path, pairing.messages.streams_with_events, list(annotations))
        return pairing.summary(out.name, frames)


def _drawing_analyzers(pairing: Pairing) -> list:
    """The analyzer instances with an annotations topic: those whose events drew something, in
    the header's order, then any other."""
    drawing = {s.source.analyzer for shapes in pairing.overlays.by_frame.values() for s in shapes}
    named = [a.get("name") for a in pairing.overlays.header.get("analyzers") or []]
    ordered = [a for a in dict.fromkeys(named) if a in drawing]
    return ordered + sorted(drawing - set(ordered))


def _events_channel(foxglove, stream: EventStream, context):
    schema = foxglove.Schema(name=f"lumatrace.{stream.shape or 'event'}", encoding="jsonschema",
                             data=_compact(event_schema(stream.analyzer, stream.kind, stream.shape)))
    return foxglove.Channel(events_topic(stream), message_encoding="json", schema=schema, context=context)


def _compact(value) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def _metadata(pairing: Pairing) -> dict:
    """The MCAP metadata record "lumatrace": what the file was made from."""
    info, header = pairing.recording.info, pairing.overlays.header
    analyzers = [f"{a.get('name')} {a.get('version')}" for a in header.get("analyzers") or []]
    return {
        "recording": os.path.basename(pairing.recording_path),
        "framesDigest": pairing.recording_digest,
        "events": os.path.basename(pairing.events_path),
        "analyzers": ", ".join(analyzers),
        "width": str(info.width), "height": str(info.height),
        "timescale": str(info.timescale), "frames": str(info.frame_count),
        "exportedFrames": f"{pairing.frame_range.start}...{pairing.frame_range.stop - 1}",
    }


def _timestamp(ns: int):
    from foxglove.messages import Timestamp
    sec, nsec = divmod(ns, 1_000_000_000)
    return Timestamp(sec, nsec)


def _image(pixels, stamp) -> bytes:
    """A frame's `foxglove.RawImage` message (its wire bytes): `mono8`, step = width, at `stamp`."""
    return raw_image_message(pixels, sec=stamp.sec, nsec=stamp.nsec, frame_id=FRAME_ID, encoding="mono8")


def _annotations(shapes: list, stamp):
    """One frame's shapes as a `foxglove.ImageAnnotations` (empty when there are none)."""
    from foxglove.messages import (CircleAnnotation, ImageAnnotations, PointsAnnotation, PointsAnnotationType,
                                   TextAnnotation)
    points, circles, texts = [], [], []
    for shape in shapes:
        color = _color(shape.color)
        if isinstance(shape, Box):
            points.append(PointsAnnotation(timestamp=stamp, type=PointsAnnotationType.LineLoop,
                                           points=_points(shape.corners), outline_color=color,
                                           thickness=_LINE_THICKNESS))
        elif isinstance(shape, Polyline):
            kind = PointsAnnotationType.LineLoop if shape.closed else PointsAnnotationType.LineStrip
            points.append(PointsAnnotation(timestamp=stamp, type=kind, points=_points(shape.points),
                                           outline_color=color, thickness=_LINE_THICKNESS))
        elif isinstance(shape, Dots) and shape.radius is not None:
            for x, y in shape.points:
                circles.append(CircleAnnotation(timestamp=stamp, position=_point(x, y), diameter=2.0 * shape.radius,
                                                thickness=_LINE_THICKNESS, outline_color=color))
        elif isinstance(shape, Dots):
            points.append(PointsAnnotation(timestamp=stamp, type=PointsAnnotationType.Points,
                                           points=_points(shape.points), outline_color=color, fill_color=color,
                                           thickness=_POINT_SIZE))
        if shape.label:
            x, y = shape.anchor
            texts.append(TextAnnotation(timestamp=stamp, position=_point(x, y),
                                        text=f"{shape.source.analyzer} {shape.label}",
                                        font_size=_FONT_SIZE, text_color=_color((255, 255, 255, 255)),
                                        background_color=_color(shape.color[:3] + (170,))))
    return ImageAnnotations(timestamp=stamp, circles=circles, points=points, texts=texts)


def _color(rgba):
    from foxglove.messages import Color
    r, g, b, a = rgba
    return Color(r=r / 255.0, g=g / 255.0, b=b / 255.0, a=a / 255.0)


def _point(x: float, y: float):
    from foxglove.messages import Point2
    return Point2(x=float(x), y=float(y))


def _points(points) -> list:
    return [_point(x, y) for x, y in points]
