"""An event log streamed into Rerun as it is written: a live recording's events in a viewer.

    lumatrace record - --live -o live.luma --analyzer trajectory --events - < camera.y4m \\
        | python -m lumatrace stream-rerun - --spawn

`lumatrace record --live ... --events -` writes each frame's events to standard output as soon as
the frame is analyzed; `stream-rerun` reads them line by line (checked as every log is,
`_event_lines`) and logs each to Rerun as it arrives: the numbers the events carry as scalar
series, every event in a text log, and what they draw (`camera/annotations/ANALYZER/LAYER`, the
same entities as `lumatrace.rerun.to_rrd`, without the frames, which the `.luma` file keeps). Where
the data goes is the caller's choice: a viewer it starts (`spawn`), one already running
(`connect`, a `rerun+http://` URL), or an `.rrd` file (`save`, by the rules of every output).

Ctrl-C ends a live session: a stream stopped (`stopped`, or `KeyboardInterrupt` while it waits
for a line) keeps what it carried, saved to the `.rrd` when that is the destination, and marks it
incomplete: the recording property `stream` says `complete` false and which signal stopped it
(true when the log simply ended).

A frame's shapes are logged when the next frame's first event arrives (or the log ends), since
one entity shows all of a frame's shapes at once; numbers and text are logged at once. Times are
the log's: `frame`, and `time` from each event's `t`. The recording id is derived from the log's
header line, so the same log is the same Rerun recording.
"""
from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass

from ._event_lines import EventLines
from ._event_messages import EventStream
from ._export import import_sdk
from ._output import OutputFile
from ._rerun_events import PROPERTIES, STREAM_PROPERTY, EventData, recording_properties
from .errors import EventLogError, LumatraceError
from .overlays import EventDrawing, Source
from .rerun import APPLICATION_ID, AnnotationLayers, blueprint, set_frame_time

__all__ = ["stream_to_rerun", "Streamed", "STANDARD_INPUT"]

#: The path that means standard input.
STANDARD_INPUT = "-"
_NAMESPACE = uuid.UUID("2f6f1c1e-8a39-5c47-b0f4-7d2e9a1b3c58")


@dataclass(frozen=True)
class Streamed:
    """What a stream carried: the frames with events, the events, and where they went; and, when
    it was stopped before the log ended, by which signal (`stopped_by`, e.g. "SIGINT")."""
    destination: str
    frames: int
    events: int
    stopped_by: str | None = None
    #: Whether the destination is a file (`save`).
    saved: bool = False

    def __str__(self) -> str:
        carried = f"{self.events} events of {self.frames} frames"
        if self.stopped_by is None:
            return f"streamed {carried} to {self.destination}"
        if self.saved:
            return f"stopped by {self.stopped_by}: saved the {carried} streamed before it to {self.destination}, marked incomplete"
        return f"stopped by {self.stopped_by}: streamed {carried} to {self.destination} before it"


def stream_to_rerun(events_path, *, spawn: bool = False, connect: str | None = None, save=None,
                    force: bool = False, stopped=None) -> Streamed:
    """Reads an event log (a file, a pipe, or `-` for standard input) line by line and logs each
    event to Rerun as it arrives: to a viewer it starts (`spawn`), to one at `connect`, or to the
    `.rrd` file `save` (complete or not at all; an existing one replaced only with `force`).
    Exactly one destination is named.

    `stopped()`, when given, says whether the stream was asked to stop (the command line's Ctrl-C:
    the signal's name, else None); a stream asked to stop, or interrupted by `KeyboardInterrupt`
    while it reads, ends there, keeps (and saves) what it carried, marked incomplete, and says so
    in the result (`Streamed.stopped_by`).

    Raises `EventLogError` naming the line that breaks a log's rules (what came before it has been
    logged), `OutputError` for `save`, `MissingSDKError` without `rerun-sdk`."""
    if [spawn, connect is not None, save is not None].count(True) != 1:
        raise ValueError("name exactly one destination: spawn, connect or save")
    rr = import_sdk("rerun", what="Rerun", package="rerun-sdk", extra="rerun")
    reading_stdin = os.fspath(events_path) == STANDARD_INPUT
    path = "/dev/stdin" if reading_stdin else os.fspath(events_path)
    name = "standard input" if reading_stdin else os.path.basename(path)
    try:
        return _stream_log(rr, path, name, spawn=spawn, connect=connect, save=save, force=force,
                           stopped=stopped or (lambda: None))
    except EventLogError as e:
        if not reading_stdin:
            raise
        raise EventLogError(name, e.line, e.reason) from None


def _stream_log(rr, path: str, name: str, *, spawn: bool, connect: str | None, save, force: bool,
                stopped) -> Streamed:
    log = EventLines(path)
    try:
        header_line = json.dumps(log.header, sort_keys=True, separators=(",", ":"))
        stream = rr.RecordingStream(APPLICATION_ID, recording_id=str(uuid.uuid5(_NAMESPACE, header_line)),
                                    send_properties=False)
        if not stream.is_enabled():
            raise LumatraceError(path, "Rerun logging is switched off in this environment (RERUN=off); unset RERUN")
        if save is not None:
            with OutputFile(save, force=force, inputs=[path], kind="rrd") as out:
                result = _stream(rr, stream, log, name, stopped, lambda: stream.save(
                    out.writing_path, default_blueprint=blueprint(name)))
            return Streamed(out.name, *result, saved=True)
        if spawn:
            return Streamed("a new Rerun viewer", *_stream(rr, stream, log, name, stopped,
                                                           lambda: stream.spawn(default_blueprint=blueprint(name))))
        return Streamed(connect, *_stream(rr, stream, log, name, stopped,
                                          lambda: stream.connect_grpc(connect, default_blueprint=blueprint(name))))
    finally:
        log.close()


def _stream(rr, stream, log: EventLines, name: str, stopped, open_sink) -> tuple:
    """Logs every event of `log` to `stream` once `open_sink()` has given it a destination, up to
    the log's end or a `KeyboardInterrupt`; returns (frames with events, events, the signal that
    stopped it or None)."""
    open_sink()
    try:
        stream.set_log_time_enabled(False)
        stream.send_recording_name(name)
        stream.send_property(PROPERTIES, recording_properties(rr, log.header, None))
        recording = log.header.get("recording") or {}
        drawing = EventDrawing(log.path, int(recording["width"]), int(recording["height"]))
        shapes_of = log.shapes()
        layers, data = AnnotationLayers(rr, stream), EventData(rr, stream)
        frame, shapes, frames, events, interrupted = None, [], 0, 0, False
        try:
            for number, event in log:
                if event["frame"] != frame:
                    if frame is not None:
                        layers.log(shapes)
                    frame, shapes, frames = event["frame"], [], frames + 1
                    set_frame_time(stream, frame, round(event["t"] * 1_000_000_000))
                analyzer, kind, payload = event["analyzer"], event["kind"], event["data"]
                shape = shapes_of.get((analyzer, kind))
                payload_fields = payload if isinstance(payload, dict) else {}
                identifier = payload_fields.get("id") if isinstance(payload_fields.get("id"), str) else None
                shapes += drawing.draw(Source(analyzer, kind, shape, identifier, number), payload_fields)
                data.log([(EventStream(analyzer, kind, shape), event)])
                events += 1
        except KeyboardInterrupt:
            interrupted = True
        if frame is not None:
            layers.log(shapes)
        stopped_by = stopped() or ("SIGINT" if interrupted else None)
        stream.send_property(STREAM_PROPERTY, rr.AnyValues(complete=stopped_by is None, stoppedBy=stopped_by or ""))
        return frames, events, stopped_by
    finally:
        stream.flush()
        stream.disconnect()
