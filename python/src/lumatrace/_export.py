"""What the Foxglove and Rerun exports share: a recording's frames, each with its exact time and
the shapes its event log draws on it, and the summary an export returns.
"""
from __future__ import annotations

import importlib
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator, NamedTuple

import numpy as np

from ._event_messages import EventMessages, read_event_messages
from ._output import OutputFile
from .errors import LumatraceError
from .overlays import Overlays, read_overlays
from .recording import Recording


class MissingSDKError(ImportError):
    """An export's viewer SDK is not installed; the message says which extra installs it."""

    def __init__(self, what: str, package: str, extra: str):
        super().__init__(f"the {what} export needs the {package} package: pip install 'lumatrace[{extra}]'")
        self.package = package
        self.extra = extra


def import_sdk(module: str, *, what: str, package: str, extra: str):
    """Imports a viewer's SDK, or raises `MissingSDKError` naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingSDKError(what, package, extra) from None


def nanoseconds(ticks: int, timescale: int) -> int:
    """A frame's time in whole nanoseconds, the nearest to ticks / timescale seconds (exact
    integer arithmetic: a 179-per-second timescale has no exact nanosecond)."""
    ticks, timescale = int(ticks), int(timescale)
    return (2 * ticks * 1_000_000_000 + timescale) // (2 * timescale)


def logged_recording(overlays: Overlays) -> tuple:
    """(frames digest, file name) of the recording a log was made from: in the header of a
    version-1 log, in the footer of a complete version-2 log; ("", name) when the log does not say
    (a version-2 log whose replay has not finished)."""
    header = overlays.header.get("recording") or {}
    footer = (overlays.footer or {}).get("recording") or {}
    digest = header.get("sha256") or footer.get("sha256") or ""
    return (digest if isinstance(digest, str) else ""), str(header.get("file", "?"))


def logged_timescale(overlays: Overlays):
    return (overlays.header.get("recording") or {}).get("timescale")


class Frame(NamedTuple):
    """One frame to export: its index, time (ns, see `nanoseconds`), pixels (H, W) uint8, and the
    shapes its events draw (a list of `overlays` shapes)."""
    index: int
    nanoseconds: int
    pixels: np.ndarray
    shapes: list


@dataclass(frozen=True)
class Export:
    """What an export wrote: frames, event lines read, events drawn and the shapes they made, and
    the events with nothing to draw by `"analyzer/kind"`."""
    output: str
    frames: int
    events: int
    drawn: int
    shapes: int
    not_drawn: dict = field(default_factory=dict)
    #: Why the log is incomplete ("" when it is complete): it has no footer (its replay did not
    #: finish), or its footer says the replay stopped early.
    incomplete: str = ""

    def __str__(self) -> str:
        text = (f"wrote {self.output}: {self.frames} frames, {self.events} events, "
                f"{self.drawn} drawn as {self.shapes} shapes")
        if self.not_drawn:
            kinds = ", ".join(f"{k} ({n})" for k, n in sorted(self.not_drawn.items()))
            text += f"; nothing to draw for {kinds}"
        if self.incomplete:
            text += f"; the log is incomplete ({self.incomplete})"
        return text


class OtherRecordingError(LumatraceError):
    """The event log was made from other frames than the recording's: its frames digest (the
    SHA-256 of every frame's timestamp and pixels, which the log records) is not the recording's."""

    def __init__(self, events_path: str, recording_path: str, logged_file: str, logged: str, actual: str):
        super().__init__(events_path, f"is a log of another recording ({logged_file}, frames digest {logged[:12]}...), "
                                      f"not of {recording_path} ({actual[:12]}...)")
        self.recording_path = recording_path
        self.logged_digest = logged
        self.actual_digest = actual


class Pairing:
    """A recording opened with its event log read against it: the same frame size, every event on
    one of its frames, and (unless `other_recording`) the log made from these very frames, as the
    Swift tool requires before it draws a log over a recording. Use as a context manager;
    `frames()` yields `Frame`s in order, one recording chunk decoded at a time."""

    def __init__(self, recording_path, events_path, *, other_recording: bool = False):
        self.recording_path = os.fspath(recording_path)
        self.events_path = os.fspath(events_path)
        self.recording = Recording(self.recording_path)
        self._digest: str | None = None
        try:
            info = self.recording.info
            self.overlays: Overlays = read_overlays(self.events_path, width=info.width, height=info.height,
                                                    frame_count=info.frame_count, recording=self.recording_path)
            self.messages: EventMessages = read_event_messages(self.events_path)
            if not other_recording:
                self._require_same_recording()
        except BaseException:
            self.recording.close()
            raise

    def _require_same_recording(self) -> None:
        logged, file = logged_recording(self.overlays)
        # A digest in other ticks cannot be compared without re-timing every frame; the Swift tool
        # re-computes it, this reader lets such a log through.
        if not logged or logged_timescale(self.overlays) not in (None, self.recording.info.timescale):
            return
        actual = self.recording_digest
        if actual != logged:
            raise OtherRecordingError(self.events_path, self.recording_path, file, logged, actual)

    @property
    def recording_digest(self) -> str:
        """The recording's frames digest (from its index; computed, once, for a file without one)."""
        if self._digest is None:
            self._digest = self.recording.frames_digest()
        return self._digest

    @property
    def frame_range(self) -> range:
        """The frames the log's replay covered (`lumatrace replay --from/--to`): the frames an
        export holds."""
        last = self.messages.last_frame
        count = self.recording.info.frame_count
        return range(min(self.messages.first_frame, count), count if last is None else min(last + 1, count))

    def frames(self, progress: Callable[[int, int], None] | None = None) -> Iterator[Frame]:
        """The frames of `frame_range` in order; `progress(done, total)` is called after each.
        Nothing here holds a frame once the next is asked for: a caller that lets each frame go
        (`del frame` at the end of its loop) holds one frame at a time, not two."""
        timescale = self.recording.info.timescale
        frames = self.frame_range
        done = 0
        # Counted by hand: `enumerate` keeps its last tuple, and with it the last frame, while it
        # asks for the next.
        for index, ticks, pixels in self.recording.frames(frames.start, frames.stop):
            yield Frame(index, nanoseconds(ticks, timescale), pixels, self.overlays[index])
            del pixels  # before the next frame is decoded
            done += 1
            if progress is not None:
                progress(done, len(frames))

    def summary(self, output: str, frames: int) -> Export:
        o = self.overlays
        incomplete = ("no footer: its replay did not finish" if o.footer is None
                      else "its footer says the replay stopped early" if o.footer.get("complete") is False else "")
        return Export(output, frames, o.events, o.drawn, o.shape_count, dict(o.not_drawn), incomplete)

    def close(self) -> None:
        self.recording.close()

    def __enter__(self) -> "Pairing":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@contextmanager
def exporting(recording_path, events_path, output_path, *, kind: str, force: bool,
              other_recording: bool) -> Iterator[tuple[OutputFile, Pairing]]:
    """The rules every export writes by: `output_path` claimed for a file of `kind` ("mcap",
    "rrd"), and the recording paired with its event log. Yields `(out, pairing)`: write to
    `out.writing_path`, reading `pairing.frames()`.

    The file appears only when complete (written to a temporary sibling, then renamed). An existing
    file is replaced only with `force`, and only if it is of `kind`; the output is never one of the
    inputs. The log must have been made from the recording's frames (its frames digest says),
    unless `other_recording`.

    Raises `OutputError` for the output, the reading errors of `lumatrace.open`, `EventLogError` and
    `OtherRecordingError` for the inputs (each naming its file)."""
    with OutputFile(output_path, force=force, inputs=[recording_path, events_path], kind=kind) as out, \
            Pairing(recording_path, events_path, other_recording=other_recording) as pairing:
        yield out, pairing
