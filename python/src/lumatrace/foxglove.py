"""A recording and its event log as an MCAP file for Foxglove.

    lumatrace.foxglove.to_mcap("clip.luma", "clip.events.jsonl", "clip.mcap")

Open the file in Foxglove (app.foxglove.dev or the desktop app) and add an Image panel on
`/camera/image`; tick `/camera/annotations` in the panel's annotation list to draw the events on
the frames. Two topics, written with the official Foxglove SDK (`foxglove-sdk`), as protobuf:

- `/camera/image`, one `foxglove.RawImage` per frame: `mono8`, step = width, frame_id "camera";
- `/camera/annotations`, one `foxglove.ImageAnnotations` per frame at the image's timestamp, so the
  image panel pairs them exactly; a frame without events gets an empty message, which clears what
  the previous frame drew.

What each event kind draws is decided in `lumatrace.overlays`: paths and quadrilaterals are
`PointsAnnotation`s (`LINE_STRIP`, `LINE_LOOP`), boxes `LINE_LOOP`s of their four corners, a
trajectory's current position a `CircleAnnotation` of the object's radius (projected points are
`POINTS`), and labels `TextAnnotation`s above their shape.

Times are the frames' own: a message's timestamp, log time and publish time are the frame's
ticks / timescale in nanoseconds, counted from the start of the recording (Foxglove shows the first
frame at 1970-01-01 00:00:00). No wall clock is read: the same inputs give the same bytes.
"""
from __future__ import annotations

import os

from ._export import Export, Pairing, exporting, import_sdk
from .errors import LumatraceError
from .overlays import Box, Dots, Polyline

__all__ = ["to_mcap", "IMAGE_TOPIC", "ANNOTATIONS_TOPIC"]

IMAGE_TOPIC = "/camera/image"
ANNOTATIONS_TOPIC = "/camera/annotations"
FRAME_ID = "camera"

_LINE_THICKNESS = 2.0
_POINT_SIZE = 4.0
_FONT_SIZE = 12.0


def to_mcap(recording_path, events_path, output_path, *, force: bool = False,
            other_recording: bool = False) -> Export:
    """Writes `output_path` (an `.mcap`) with every frame of the recording and what its event log
    draws on each, by the rules of every export (`lumatrace._export.exporting`: complete or not at
    all, an existing MCAP file replaced only with `force`, the log one of these frames unless
    `other_recording`). Returns what was written (`Export`).

    Raises what `exporting` raises, and `MissingSDKError` without `foxglove-sdk`."""
    foxglove = import_sdk("foxglove", what="Foxglove", package="foxglove-sdk", extra="foxglove")
    from foxglove.channels import ImageAnnotationsChannel, RawImageChannel
    from foxglove.mcap import MCAPWriteOptions

    with exporting(recording_path, events_path, output_path, kind="mcap", force=force,
                   other_recording=other_recording) as (out, pairing):
        # A context of our own: the channels reach this file only, never the SDK's global sinks.
        context = foxglove.Context()
        # One compression thread: zstd's multithreaded output need not be the same bytes run to run.
        writer = foxglove.open_mcap(out.writing_path, context=context,
                                    writer_options=MCAPWriteOptions(compression_threads=0))
        try:
            writer.write_metadata("lumatrace", _metadata(pairing))
            images = RawImageChannel(IMAGE_TOPIC, context=context)
            annotations = ImageAnnotationsChannel(ANNOTATIONS_TOPIC, context=context)
            info = pairing.recording.info
            frames = 0
            for frame in pairing.frames():
                if frame.nanoseconds < 0:
                    raise LumatraceError(pairing.recording_path, f"frame {frame.index} is before time 0 "
                                                                 f"({frame.nanoseconds} ns); MCAP times start at 0")
                stamp = _timestamp(frame.nanoseconds)
                images.log(_image(frame.pixels, info.width, info.height, stamp), log_time=frame.nanoseconds)
                annotations.log(_annotations(frame.shapes, stamp), log_time=frame.nanoseconds)
                frames += 1
        finally:
            writer.close()
        return pairing.summary(out.name, frames)


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
    }


def _timestamp(ns: int):
    from foxglove.messages import Timestamp
    sec, nsec = divmod(ns, 1_000_000_000)
    return Timestamp(sec, nsec)


def _image(pixels, width: int, height: int, stamp):
    from foxglove.messages import RawImage
    return RawImage(timestamp=stamp, frame_id=FRAME_ID, width=width, height=height, encoding="mono8",
                    step=width, data=pixels.tobytes())


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
            texts.append(TextAnnotation(timestamp=stamp, position=_point(x, y), text=shape.label,
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
