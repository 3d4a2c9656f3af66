"""A recording and its event log as a Rerun `.rrd` file.

    lumatrace.rerun.to_rrd("clip.luma", "clip.events.jsonl", "clip.rrd")

Open the file with `rerun clip.rrd` (the viewer that `pip install rerun-sdk` installs) or drop it
on the web viewer: one 2D view of `/camera` shows each frame with what the events drew on it, and
the time panel scrubs through two timelines, `time` (the frame's own time since the recording
started, to the nanosecond) and `frame` (its index). The entities, written with the official
Rerun SDK:

- `camera/image`: the frame, an `Image` of 8-bit grey (L8);
- `camera/annotations/ANALYZER/LAYER`: what one analyzer's events drew, by the layers of
  `lumatrace.overlays` (`paths`, `fit`, `ended` and `quads` as `LineStrips2D`, a quadrilateral closed
  back to its first corner; `positions` and `projected` as `Points2D`, a trajectory's current
  position with the object's radius; `boxes`, `recovered`, `lost` and `blobs` as `Boxes2D`, with
  labels). Each entity can be hidden on its own in the viewer;
- `events/...`: the events as data (`_rerun_events`): a scalar series of every number they carry,
  a text log per analyzer, and the recording property `lumatrace` (file, frames digest,
  analyzers).

A log of part of a recording (`lumatrace replay --from/--to`) exports those frames only. The
default view puts the frames beside the events' time series and text log.

Rerun shows an entity's latest value at any time, so an entity drawn on a frame and not on the
next is logged empty on that next frame: the viewer never keeps a box past its event.

No viewer is started and nothing goes over the network. The recording id is derived from the
inputs (the recording's frames digest and the log's bytes), so exporting again gives the same
recording, and `log_time` (the wall clock) is not recorded; the file's bytes still differ from run
to run, because Rerun stamps every row with a time-based id.
"""
from __future__ import annotations

import hashlib
import os
import uuid

import numpy as np

from ._export import Export, Pairing, exporting, import_sdk
from ._rerun_events import PROPERTIES, EventData, recording_properties
from .errors import LumatraceError
from .overlays import Box, Dots, Polyline

__all__ = ["to_rrd", "APPLICATION_ID", "IMAGE_ENTITY", "ANNOTATIONS_ENTITY"]

APPLICATION_ID = "lumatrace"
IMAGE_ENTITY = "camera/image"
ANNOTATIONS_ENTITY = "camera/annotations"

# Points without a size of their own: negative radii are UI points in Rerun, not scene pixels.
_DEFAULT_DOT_RADIUS = -3.0
# uuid5 namespace of Lumatrace's Rerun recording ids.
_NAMESPACE = uuid.UUID("6c0a3f8e-2b61-5d7a-9a43-1f3c8e5b7d20")


def to_rrd(recording_path, events_path, output_path, *, force: bool = False,
           other_recording: bool = False, progress=None) -> Export:
    """Writes `output_path` (an `.rrd`) with every frame of the recording and what its event log
    draws on each, by the rules of every export (`lumatrace._export.exporting`: complete or not at
    all, an existing Rerun file replaced only with `force`, the log one of these frames unless
    `other_recording`). `progress(done, total)` is called after each frame. Returns what was
    written (`Export`).

    Raises what `exporting` raises, and `MissingSDKError` without `rerun-sdk`."""
    rr = import_sdk("rerun", what="Rerun", package="rerun-sdk", extra="rerun")

    with exporting(recording_path, events_path, output_path, kind="rrd", force=force,
                   other_recording=other_recording) as (out, pairing):
        stream = rr.RecordingStream(APPLICATION_ID, recording_id=recording_id(pairing), send_properties=False)
        if not stream.is_enabled():
            raise LumatraceError(out.path, "Rerun logging is switched off in this environment (RERUN=off); "
                                              "unset RERUN to export")
        stream.save(out.writing_path, default_blueprint=blueprint(os.path.basename(pairing.recording_path)))
        frames = 0
        try:
            stream.set_log_time_enabled(False)
            stream.send_recording_name(os.path.basename(pairing.recording_path))
            stream.send_property(PROPERTIES, recording_properties(rr, pairing.messages.header,
                                                                  pairing.recording_digest))
            events = EventData(rr, stream)
            layers = AnnotationLayers(rr, stream)
            unwritten = 0
            for frame in pairing.frames(progress):
                set_frame_time(stream, frame.index, frame.nanoseconds)
                stream.log(IMAGE_ENTITY, grey_image(rr, frame.pixels))
                layers.log(frame.shapes)
                events.log(pairing.messages[frame.index])
                frames += 1
                unwritten += frame.pixels.nbytes
                del frame  # one frame at a time: let it go before the next is decoded
                if unwritten >= UNWRITTEN_BYTES:
                    stream.flush()
                    unwritten = 0
        finally:
            stream.flush()
            stream.disconnect()
        return pairing.summary(out.name, frames)


def recording_id(pairing: Pairing) -> str:
    """The Rerun recording id of an export: a UUID derived from the recording's frames digest and
    the event log's SHA-256, so the same inputs are the same Rerun recording (and two logs of one
    recording are two recordings, which a viewer does not merge)."""
    digest = hashlib.sha256()
    with open(pairing.events_path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return str(uuid.uuid5(_NAMESPACE, f"{pairing.recording_digest}/{digest.hexdigest()}"))


def blueprint(name: str):
    """The default view: the frames with what the events drew (`/camera`) beside the events'
    numbers over time and their text log (`/events`)."""
    import rerun.blueprint as rrb
    return rrb.Blueprint(rrb.Horizontal(
        rrb.Spatial2DView(origin="/camera", name=name),
        rrb.Vertical(rrb.TimeSeriesView(origin="/events", name="numbers"),
                     rrb.TextLogView(origin="/events", name="events")),
        column_shares=[3, 2]))


#: The frames' bytes logged before the export waits for Rerun to write them: Rerun encodes on a
#: thread of its own, so without a wait frames decoded faster than they are written pile up in
#: memory (three 16384² frames held 2 GB). One frame of 720p is 0.9 MB: a wait every 70 frames.
UNWRITTEN_BYTES = 64 << 20


def grey_image(rr, pixels: np.ndarray):
    """A `(height, width)` uint8 frame as an `Image` of 8-bit grey (L8) whose buffer is a view of
    the frame's pixels: `rr.Image(pixels)` copies them three times before logging."""
    import pyarrow as pa
    from rerun.components import ImageBufferBatch
    height, width = pixels.shape
    flat = pa.array(np.ascontiguousarray(pixels).reshape(-1))  # a view: no copy of the pixels
    buffer = pa.ListArray.from_arrays(pa.array([0, len(flat)], pa.int32()), flat, type=ImageBufferBatch._ARROW_DATATYPE)
    return rr.Image(bytes=buffer, width=width, height=height, color_model="L", datatype=np.uint8)


def set_frame_time(stream, index: int, nanoseconds: int) -> None:
    """Sets the `frame` and `time` timelines of what `stream` logs next."""
    stream.set_time("frame", sequence=index)
    stream.set_time("time", duration=np.timedelta64(nanoseconds, "ns"))


class AnnotationLayers:
    """What the annotation entities show, frame after frame: `log(shapes)` logs one frame's
    shapes by entity, and clears each entity drawn on the previous frame and not on this one."""

    def __init__(self, rr, stream):
        self.rr, self.stream = rr, stream
        self.kinds: dict = {}             # entity -> the shape class it draws
        self.drawn_before: set = set()    # entities with something on screen

    def log(self, shapes: list) -> None:
        layers = _by_layer(self.rr, shapes)
        for entity in self.drawn_before - layers.keys():
            layers[entity] = []
        for entity in sorted(layers):
            shapes = layers[entity]
            kind = self.kinds.setdefault(entity, type(shapes[0]) if shapes else None)
            self.stream.log(entity, _archetype(self.rr, kind, shapes))
        self.drawn_before = {entity for entity, shapes in layers.items() if shapes}


def _by_layer(rr, shapes: list) -> dict:
    """The frame's shapes by entity path, each list in the log's order."""
    out: dict = {}
    for shape in shapes:
        entity = f"{ANNOTATIONS_ENTITY}/{rr.escape_entity_path_part(shape.source.analyzer)}/{shape.layer}"
        out.setdefault(entity, []).append(shape)
    return out


def _archetype(rr, kind: type, shapes: list):
    """Shapes of one `kind` (`Box`, `Polyline` or `Dots`) as one archetype; unset fields are
    cleared, so nothing of the previous frame (a label, a color) lingers. An empty list gives an
    empty archetype, which clears the entity."""
    colors = [s.color for s in shapes]
    if kind is Box:
        halves = np.array([(s.width / 2, s.height / 2) for s in shapes], dtype=np.float64).reshape(-1, 2)
        corners = np.array([(s.left, s.top) for s in shapes], dtype=np.float64).reshape(-1, 2)
        return rr.Boxes2D.from_fields(clear_unset=True, centers=corners + halves, half_sizes=halves,
                                      colors=colors, labels=_labels(shapes))
    if kind is Polyline:
        strips = [np.array(s.points + (s.points[0],) if s.closed else s.points, dtype=np.float64) for s in shapes]
        return rr.LineStrips2D.from_fields(clear_unset=True, strips=strips, colors=colors, labels=_labels(shapes))
    assert kind is Dots, kind
    positions = [p for s in shapes for p in s.points]
    return rr.Points2D.from_fields(
        clear_unset=True,
        positions=np.array(positions, dtype=np.float64).reshape(-1, 2),
        radii=[_DEFAULT_DOT_RADIUS if s.radius is None else s.radius for s in shapes for _ in s.points],
        colors=[s.color for s in shapes for _ in s.points],
        labels=[s.label or "" for s in shapes for _ in s.points] if any(s.label for s in shapes) else None)


def _labels(shapes: list):
    return [s.label or "" for s in shapes] if any(s.label for s in shapes) else None

