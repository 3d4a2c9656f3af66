"""Analyzers in Python: a class whose `analyze(frame)` returns events, run by Lumatrace's
`external` analyzer.

    from lumatrace.analyzer import Analyzer, Event, run

    class Brightness(Analyzer):
        events = {"brightness": None}        # every kind it emits -> its shape (None: free JSON)

        def analyze(self, frame):            # frame.pixels: (H, W) uint8; frame.region: the region of interest
            return Event("brightness", {"mean": frame.region.mean()})

    if __name__ == "__main__":
        run(Brightness)

    $ lumatrace replay clip.luma --analyzer external --set external.command=".venv/bin/python brightness.py"

`run` speaks the external analyzer's protocol (`Plugins/External/ExternalProtocol.swift`) on stdin
and stdout, so an analyzer never sees it: it answers the hello with the declared event kinds, hands
each frame to `analyze`, writes the events and the frame's done line and flushes, and reports an
exception as an error line naming the frame (the traceback goes to stderr). `print()` goes to
stderr too: stdout carries only protocol lines.

`run_on` runs the same class on a recording or on arrays without Lumatrace, through the same code,
and returns the events as Lumatrace would log them: the way to test an analyzer with pytest.

    events = run_on(Brightness, "clip.luma")
    events = run_on(Brightness, [np.full((48, 64), v, np.uint8) for v in (10, 20, 30)])

The lifecycle, one instance per replay: `configure(options, stream)` once (raise `ValueError` to
refuse the options; Lumatrace prints the message), `analyze(frame)` for every analyzed frame in
order, `finish()` once after the last. Event data is JSON: numpy scalars and arrays become numbers
and lists, floats are rounded to six decimals (the log's precision, so the output does not depend
on the last bits of a sum), and NaN, infinities, sets or other objects are an error naming the
field.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import re
import struct
import sys
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, NamedTuple

import numpy as np

__all__ = ["Analyzer", "Event", "EventKind", "Frame", "Stream", "Region", "LoggedEvent", "AnalyzerError",
           "OptionsRefused", "ProtocolError", "SHAPES", "DECIMALS", "run", "serve", "run_on"]

#: The protocol version this module speaks (`ExternalProtocol.version`).
PROTOCOL = 1
#: Decimals every float in event data is rounded to: what a log holds (Lumatrace writes six).
DECIMALS = 6
#: The shapes an event kind may declare (`EventShape` in LumaAnalysis) and the fields each needs;
#: the stock `lumatrace` draws, scores and diffs events of these shapes from any analyzer.
SHAPES: dict[str, tuple[str, ...]] = {
    "pathEnd": ("id", "points", "confidence"),
    "pathUpdate": ("id", "confidence"),
    "box": ("id", "boundingBox", "confidence"),
    "boxLost": ("id",),
    "boxRecovered": ("id", "boundingBox", "confidence"),
    "quadrilateral": ("topLeft", "topRight", "bottomRight", "bottomLeft"),
    "blobs": ("changedFraction", "blobs"),
}
_KIND = re.compile(r"[A-Za-z0-9._-]{1,64}\Z")
_HEADER = struct.Struct("<4sIIIqqq")  # magic, width, height, reserved, frame index, ticks, timescale


# MARK: - What an analyzer declares, receives and returns

@dataclass(frozen=True)
class EventKind:
    """A declared event kind's shape (one of `SHAPES`, or None for free JSON) and schema version:
    bump `version` when the kind's data changes for the same input. `events = {"spot": "box"}` is
    short for `events = {"spot": EventKind("box")}`."""
    shape: str | None = None
    version: int = 1


class Event(NamedTuple):
    """An event to emit: its declared `kind` and its `data`, a dict of JSON values."""
    kind: str
    data: Mapping[str, Any]


class LoggedEvent(NamedTuple):
    """An event as `run_on` returns it: stamped with the frame it was emitted at (events from
    `finish` carry the last frame, as in a log, and are `final`), its data as Lumatrace receives it."""
    frame: int
    seconds: float
    kind: str
    data: dict
    final: bool = False


class Region(NamedTuple):
    """A rectangle normalized to the frame with a lower-left origin, as Lumatrace gives the region
    of interest: `x`, `y` is its lower-left corner, `(0, 0, 1, 1)` the whole frame."""
    x: float
    y: float
    width: float
    height: float

    def pixel_bounds(self, frame_width: int, frame_height: int) -> tuple[int, int, int, int]:
        """`(x0, y0, x1, y1)`: columns `x0:x1` and rows `y0:y1` counted from the top, the whole
        pixels covering the rectangle; never empty, always inside the frame. The same pixels as
        Lumatrace's `NormalizedRect.pixelBounds`, so a Python analyzer sees what a built-in does."""
        x0 = min(max(math.floor(self.x * frame_width), 0), frame_width - 1)
        x1 = max(min(math.ceil((self.x + self.width) * frame_width), frame_width), x0 + 1)
        y0 = min(max(math.floor((1 - (self.y + self.height)) * frame_height), 0), frame_height - 1)
        y1 = max(min(math.ceil((1 - self.y) * frame_height), frame_height), y0 + 1)
        return x0, y0, x1, y1

    def crop(self, pixels: np.ndarray) -> np.ndarray:
        """The part of `pixels` (an `(H, W)` array) inside the rectangle: a view, not a copy."""
        x0, y0, x1, y1 = self.pixel_bounds(pixels.shape[1], pixels.shape[0])
        return pixels[y0:y1, x0:x1]


WHOLE_FRAME = Region(0.0, 0.0, 1.0, 1.0)


@dataclass(frozen=True)
class Stream:
    """What an analyzer knows before the first frame (the hello's `stream`, `regionOfInterest`
    and `frameAnalysisSpacing`). There is no frame count: the same analyzer runs while recording."""
    width: int
    height: int
    #: Ticks per second of the frames' timestamps.
    timescale: int
    #: Informational; time comes from each frame's timestamp.
    nominal_frame_rate: float
    #: A stable name for the stream (hex): derive ids from it, never from a clock or random numbers.
    identity: str
    region_of_interest: Region = WHOLE_FRAME
    #: Seconds between analyzed frames (0: every frame).
    frame_analysis_spacing: float = 0.0
    #: Known only in replays that write a version-1 log; None otherwise.
    frame_count: int | None = None

    def normalized_point(self, px: float, py: float) -> list[float]:
        """Pixel `(px, py)` (continuous, top-left origin) as Lumatrace's coordinates: `[x, y]`
        normalized to the frame, y up from the bottom edge."""
        return [px / self.width, 1 - py / self.height]

    def normalized_box(self, left: float, top: float, width: float, height: float) -> list[float]:
        """A box in pixels (its top-left corner, top-left origin) as a `boundingBox`
        `[x, y, width, height]`: normalized, `x, y` its lower-left corner."""
        return [left / self.width, 1 - (top + height) / self.height, width / self.width, height / self.height]

    @classmethod
    def from_hello(cls, hello: Mapping[str, Any]) -> "Stream":
        s = hello["stream"]
        return cls(width=int(s["width"]), height=int(s["height"]), timescale=int(s["timescale"]),
                   nominal_frame_rate=float(s.get("nominalFrameRate") or 0), identity=str(s.get("identity", "")),
                   region_of_interest=Region(*(float(v) for v in hello.get("regionOfInterest", WHOLE_FRAME))),
                   frame_analysis_spacing=float(hello.get("frameAnalysisSpacing", 0)), frame_count=s.get("frameCount"))


@dataclass(slots=True, eq=False)
class Frame:
    """One frame: `pixels`, a read-only `(height, width)` uint8 array (top row first, yours to
    keep), its `index` in the recording and its time (`ticks` of `timescale`, or `seconds`).
    `region` is the pixels of the region of interest. numpy functions take a frame as its pixels.
    Frames compare by identity, as arrays have no single truth value."""
    pixels: np.ndarray
    index: int
    ticks: int
    timescale: int
    region_of_interest: Region = WHOLE_FRAME

    @property
    def seconds(self) -> float:
        return self.ticks / self.timescale

    @property
    def region(self) -> np.ndarray:
        """The pixels inside the region of interest (`Region.crop`): a view."""
        return self.region_of_interest.crop(self.pixels)

    @property
    def width(self) -> int:
        return self.pixels.shape[1]

    @property
    def height(self) -> int:
        return self.pixels.shape[0]

    def __array__(self, dtype=None, copy=None):
        if dtype is not None and np.dtype(dtype) != self.pixels.dtype:
            return self.pixels.astype(dtype)
        return self.pixels.copy() if copy else self.pixels

    def __repr__(self) -> str:
        return f"Frame(index={self.index}, seconds={self.seconds:g}, {self.width}x{self.height})"


class Analyzer:
    """Base class of a Python analyzer. Declare `events`, write `analyze`; `configure` and `finish`
    have defaults. One instance runs one replay: keep state in `self`."""

    #: Every event kind it emits -> its shape: None (free JSON), a name from `SHAPES`, or an
    #: `EventKind`. Sent to Lumatrace once, in the ready line; emitting another kind is an error.
    events: Mapping[str, str | EventKind | None] = {}
    #: The stream, set before `configure` is called.
    stream: Stream

    def configure(self, options: dict, stream: Stream) -> None:
        """Called once, before the first frame, with the options (`--set external.options='{…}'`,
        a dict) and the stream. Raise `ValueError` to refuse them: its message is what the user
        sees, so name the option and what it may be. By default, refuses any option."""
        if options:
            raise ValueError(f"{type(self).__name__} takes no options (got {', '.join(sorted(options))})")

    def analyze(self, frame: Frame):
        """Called for every analyzed frame, in order. Returns its events: an `Event`, a list of them
        (or `yield` them), a dict (the data of the one kind declared), or None for none."""
        raise NotImplementedError(f"{type(self).__name__} must define analyze(self, frame)")

    def finish(self):
        """Called once after the last frame (also when a replay stops early), for events still
        open; returns events as `analyze` does. By default, none."""
        return None


# MARK: - Errors

class AnalyzerError(Exception):
    """The analyzer failed, or broke a rule of its declarations: what Lumatrace receives as
    `{"error": message}`. `frame` is the frame it failed at, None before the first or at the end."""

    def __init__(self, message: str, frame: int | None = None):
        super().__init__(message)
        self.frame = frame


class OptionsRefused(AnalyzerError):
    """`configure` refused its options (it raised `ValueError`)."""


class ProtocolError(Exception):
    """What came in on stdin is not the protocol: the input ended early or is not from Lumatrace."""


# MARK: - Events to protocol lines

def _declared(cls: type) -> dict[str, EventKind]:
    """The class's `events`, checked once, before the ready line."""
    name = cls.__name__
    if not isinstance(cls.events, Mapping):
        raise AnalyzerError(f"{name}.events must be a dict of kind -> shape, e.g. {{\"brightness\": None}}")
    kinds: dict[str, EventKind] = {}
    for kind, declared in cls.events.items():
        if not isinstance(kind, str) or not _KIND.match(kind):
            raise AnalyzerError(f"{name}.events: {kind!r} is not an event kind: 1-64 letters, digits, '.', '_' or '-'")
        k = declared if isinstance(declared, EventKind) else EventKind(declared)
        if k.shape is not None and k.shape not in SHAPES:
            raise AnalyzerError(f"{name}.events[{kind!r}]: {k.shape!r} is not a shape: None or one of {', '.join(SHAPES)}")
        if isinstance(k.version, bool) or not isinstance(k.version, int) or k.version < 1:
            raise AnalyzerError(f"{name}.events[{kind!r}]: version {k.version!r} is not an integer >= 1")
        kinds[kind] = k
    return kinds


def _json(value: Any, path: str) -> Any:
    """`value` as plain JSON values: numpy scalars and arrays converted, floats rounded to
    `DECIMALS` (and -0.0 made 0.0). Raises ValueError naming `path` for what JSON cannot hold."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        f = float(value)
        if not math.isfinite(f):
            raise ValueError(f"{path} is {f}, which JSON cannot hold: leave the field out or use None")
        return round(f, DECIMALS) + 0.0  # + 0.0 turns -0.0 into 0.0
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"{path} has the key {key!r}: JSON keys are strings")
            out[key] = _json(item, f"{path}[{key!r}]")
        return out
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_json(item, f"{path}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, (set, frozenset)):
        raise ValueError(f"{path} is a set, which has no order: use a sorted list")
    raise ValueError(f"{path} is a {type(value).__name__}, not JSON: use numbers, strings, lists and dicts")


def _line(value: Mapping[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


class _Session:
    """One analyzer instance through a replay: declarations, options, frames and end in,
    protocol lines out. `serve` feeds it from stdin, `run_on` from frames in memory."""

    def __init__(self, factory: Callable[[], Analyzer]):
        try:
            self.analyzer = factory()
        except Exception as e:
            name = getattr(factory, "__name__", repr(factory))
            raise AnalyzerError(f"creating {name} raised {type(e).__name__}: {e} (traceback on stderr)") from e
        if not isinstance(self.analyzer, Analyzer):
            raise AnalyzerError(f"{self.analyzer!r} is not an Analyzer: give a subclass of lumatrace.analyzer.Analyzer")
        self.name = type(self.analyzer).__name__
        self.kinds = _declared(type(self.analyzer))

    def start(self, options: Any, stream: Stream) -> str:
        """Configures the analyzer; returns the ready line."""
        if not isinstance(options, dict):
            raise OptionsRefused(f"options must be a JSON object, e.g. {{\"every\":10}}; got {json.dumps(options)}")
        self.analyzer.stream = stream
        try:
            self.analyzer.configure(options, stream)
        except ValueError as e:
            raise OptionsRefused(str(e) or f"{self.name} refused its options") from e
        except Exception as e:
            raise AnalyzerError(f"configure raised {type(e).__name__}: {e} (traceback on stderr)") from e
        declared = [{"kind": k, "version": d.version, "shape": d.shape} for k, d in self.kinds.items()]
        return _line({"ready": True, "events": declared})

    def frame(self, frame: Frame) -> list[str]:
        """The event lines of one frame (without its done line)."""
        return self._lines(lambda: self.analyzer.analyze(frame), "analyze", f"frame {frame.index}", frame.index)

    def end(self) -> list[str]:
        """The event lines of `finish` (without the done line)."""
        return self._lines(self.analyzer.finish, "finish", "at the end", None)

    def _lines(self, call: Callable[[], Any], method: str, where: str, index: int | None) -> list[str]:
        try:
            # A generator runs while it is listed: its exceptions are the method's too.
            events = self._events(call(), method, where, index)
        except AnalyzerError:
            raise
        except Exception as e:
            raise AnalyzerError(f"{where}: {method} raised {type(e).__name__}: {e} (traceback on stderr)", index) from e
        lines = []
        for kind, data in events:
            declared = self.kinds.get(kind) if isinstance(kind, str) else None
            if declared is None:
                known = ", ".join(self.kinds) or "none"
                raise AnalyzerError(f"{where}: {self.name} emitted an event of kind {kind!r}, which it does not declare "
                                    f"(declared: {known}); add it to {self.name}.events", index)
            if not isinstance(data, Mapping):
                raise AnalyzerError(f"{where}: the data of a {kind} event is a {type(data).__name__}: give a dict", index)
            missing = [f for f in SHAPES.get(declared.shape, ()) if f not in data]
            if missing:
                raise AnalyzerError(f"{where}: a {kind} event (shape {declared.shape}) lacks {', '.join(missing)}", index)
            try:
                lines.append(_line({"kind": kind, "data": _json(data, "data")}))
            except ValueError as e:
                raise AnalyzerError(f"{where}: a {kind} event's {e}", index) from None
        return lines

    def _events(self, result: Any, method: str, where: str, index: int | None) -> list:
        if result is None:
            return []
        if isinstance(result, Event):
            return [result]
        if isinstance(result, Mapping):
            if len(self.kinds) != 1:
                raise AnalyzerError(f"{where}: {method} returned a dict, which is an event's data only when one kind is "
                                    f"declared ({self.name} declares {len(self.kinds)}): return Event(kind, data)", index)
            return [Event(next(iter(self.kinds)), result)]
        if isinstance(result, (str, bytes)) or not isinstance(result, Iterable):
            raise AnalyzerError(f"{where}: {method} returned a {type(result).__name__}: return an Event, a list of "
                                f"Events (or yield them), a dict or None", index)
        events = []
        for item in result:
            if not (isinstance(item, tuple) and len(item) == 2):
                raise AnalyzerError(f"{where}: {method} gave {item!r} among its events: give Event(kind, data)", index)
            events.append(item)
        return events


# MARK: - Speaking the protocol

def run(analyzer: Callable[[], Analyzer]) -> None:
    """Runs `analyzer` (a subclass of `Analyzer`) as Lumatrace's external analyzer runs programs:
    the protocol on stdin and stdout, until the end of the replay; then exits the process (status 0;
    1 when the analyzer failed, 2 when it refused its options)."""
    if sys.stdin.isatty():
        script = os.path.basename(sys.argv[0]) or "analyzer.py"
        sys.exit(f"{script} is an analyzer: Lumatrace runs it and speaks to it on stdin, e.g.\n"
                 f"  lumatrace replay clip.luma --analyzer external --set external.command=\"{sys.executable} {sys.argv[0]}\"\n"
                 f"To try it without Lumatrace, use lumatrace.analyzer.run_on in Python or a test.")
    sys.stdout.flush()
    # Keep the protocol's stdout to ourselves: fd 1 (print, C libraries, child processes) goes to
    # stderr, where Lumatrace passes diagnostics through.
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    sys.exit(serve(analyzer, sys.stdin.buffer, protocol))


def serve(analyzer: Callable[[], Analyzer], input, output, diagnostics=None) -> int:
    """Speaks the protocol for `analyzer` on `input` (binary) and `output` (text), writing
    tracebacks and problems with the input to `diagnostics` (default stderr); returns the exit
    status `run` exits with. `run` is this on stdin and stdout."""
    diagnostics = diagnostics or sys.stderr
    name = getattr(analyzer, "__name__", type(analyzer).__name__)
    last: int | None = None

    def send(line: str) -> None:
        output.write(line + "\n")

    try:
        hello = _read_hello(input)
        session = _Session(analyzer)
        name = session.name
        send(session.start(hello.get("options", {}), _stream_of(hello)))
        output.flush()
        stream = session.analyzer.stream
        while True:
            magic, width, height, _, index, ticks, timescale = _HEADER.unpack(_read_header(input, last))
            if magic == b"LTEN":
                for line in session.end():
                    send(line)
                send(_line({"done": "end"}))
                output.flush()
                return 0
            if magic != b"LTFR":
                raise ProtocolError(f"expected a frame header (\"LTFR\") or the end (\"LTEN\") {_after(last)}, read {magic!r}")
            if (width, height) != (stream.width, stream.height):
                raise ProtocolError(f"frame {index} is {width}x{height}, the stream {stream.width}x{stream.height}")
            pixels = np.frombuffer(_read_exactly(input, width * height, lambda got, n: (
                f"input ended {got} bytes into frame {index}'s {n} bytes of pixels (did Lumatrace stop?)")), dtype=np.uint8)
            pixels = pixels.reshape(height, width)
            pixels.flags.writeable = False
            for line in session.frame(Frame(pixels, index, ticks, timescale, stream.region_of_interest)):
                send(line)
            send(_line({"done": index}))
            output.flush()
            last = index
    except AnalyzerError as e:
        # Lumatrace prints the error line; stderr gets what it cannot hold, the traceback.
        if e.__cause__ is not None and not isinstance(e, OptionsRefused):
            _print_traceback(e.__cause__, diagnostics)
        return _fail(output, str(e), 2 if isinstance(e, OptionsRefused) else 1)
    except ProtocolError as e:
        # Lumatrace may be gone: say it on stderr too.
        print(f"{name}: {e}", file=diagnostics)
        return _fail(output, str(e), 1)
    except BrokenPipeError:
        print(f"{name}: Lumatrace closed the pipe {_after(last)}", file=diagnostics)
        return 1


def _fail(output, message: str, status: int) -> int:
    """Sends `message` as an error line, if Lumatrace still reads; returns `status`."""
    try:
        output.write(_line({"error": message}) + "\n")
        output.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass
    return status


def _print_traceback(error: BaseException, diagnostics) -> None:
    """The traceback from the analyzer's own code on (this module's frames left out)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb or error.__traceback__, file=diagnostics)


def _after(last: int | None) -> str:
    return "before the first frame" if last is None else f"after frame {last}"


def _read_hello(input) -> dict:
    line = input.readline()
    if not line:
        raise ProtocolError("input ended before the hello line (is this program run by Lumatrace's external analyzer?)")
    try:
        hello = json.loads(line)
    except ValueError:
        hello = None
    if not isinstance(hello, dict) or hello.get("lumatrace") != "external-analyzer":
        raise ProtocolError(f"the first line is not Lumatrace's hello: {line[:80]!r}")
    if hello.get("protocol") != PROTOCOL:
        raise AnalyzerError(f"this lumatrace.analyzer speaks protocol {PROTOCOL}, Lumatrace sent protocol "
                            f"{hello.get('protocol')!r}: use the lumatrace Python package of the same checkout")
    return hello


def _stream_of(hello: dict) -> Stream:
    try:
        return Stream.from_hello(hello)
    except (KeyError, TypeError, ValueError) as e:
        raise ProtocolError(f"the hello's stream or region of interest is incomplete ({type(e).__name__}: {e})") from None


def _read_header(input, last: int | None) -> bytes:
    return _read_exactly(input, _HEADER.size, lambda got, n: (
        f"input ended {_after(last)}, without the end marker (\"LTEN\"): Lumatrace stopped before the end" if got == 0
        else f"input ended {got} bytes into a {n}-byte frame header {_after(last)}"))


def _read_exactly(input, n: int, ended: Callable[[int, int], str]) -> bytearray:
    """`n` bytes, in a fresh buffer (a frame handed out is the analyzer's to keep)."""
    buffer = bytearray(n)
    view, got = memoryview(buffer), 0
    while got < n:
        count = input.readinto(view[got:])
        if not count:
            raise ProtocolError(ended(got, n))
        got += count
    return buffer


# MARK: - Without Lumatrace

def run_on(analyzer: Callable[[], Analyzer], source, options: Mapping[str, Any] | None = None, *,
           region_of_interest=(0.0, 0.0, 1.0, 1.0), start: int = 0, stop: int | None = None,
           rate: int = 30) -> list[LoggedEvent]:
    """Runs `analyzer` over frames without Lumatrace, as a replay through the external analyzer
    would, and returns its events. Errors raise `AnalyzerError` (`OptionsRefused` for options),
    with the analyzer's own exception as the cause.

    `source` is a `.luma` path or an open recording (`lumatrace.open`; frames `start:stop`, with
    their timestamps and the stream's identity as Lumatrace computes it), or `(H, W)` uint8
    arrays (frame i at `i / rate` seconds), or `(index, ticks, array)` triples with `rate` ticks
    per second. Every frame is analyzed (frame analysis spacing 0). The options and the region of
    interest reach the analyzer as the hello carries them, with six decimals.
    """
    if not isinstance(source, (str, os.PathLike)):
        return _run_on(analyzer, source, options, region_of_interest, start, stop, rate)
    from . import open as open_recording
    with open_recording(source) as recording:
        return _run_on(analyzer, recording, options, region_of_interest, start, stop, rate)


def _run_on(analyzer, source, options, region_of_interest, start, stop, rate) -> list[LoggedEvent]:
    frames, timescale, nominal_rate, first = _frames_of(source, start, stop, rate)
    session = _Session(analyzer)
    roi = Region(*(round(float(v), DECIMALS) for v in region_of_interest))
    try:
        wire_options = json.loads(_line({"options": _json(dict(options or {}), "options")}))["options"]
    except ValueError as e:
        raise ValueError(f"run_on: {e}") from None
    events: list[LoggedEvent] = []
    stream = None
    last = None
    for index, ticks, array in frames:
        pixels = _pixels(array, index)
        if stream is None:
            stream = Stream(width=pixels.shape[1], height=pixels.shape[0], timescale=timescale,
                            nominal_frame_rate=round(float(nominal_rate), DECIMALS),
                            identity=_identity(*(first or (ticks, pixels))), region_of_interest=roi)
            session.start(wire_options, stream)
        elif pixels.shape != (stream.height, stream.width):
            raise ValueError(f"run_on: frame {index} is {pixels.shape[1]}x{pixels.shape[0]}, the first {stream.width}x{stream.height}")
        frame = Frame(pixels, int(index), int(ticks), timescale, roi)
        events += [_logged(line, frame, False) for line in session.frame(frame)]
        last = frame
    if last is None:
        raise ValueError("run_on: no frames to analyze")
    events += [_logged(line, last, True) for line in session.end()]
    return events


def _logged(line: str, frame: Frame, final: bool) -> LoggedEvent:
    event = json.loads(line)
    return LoggedEvent(frame.index, frame.seconds, event["kind"], event["data"], final)


def _frames_of(source, start: int, stop: int | None, rate: int):
    """`(frames, timescale, nominal rate, (ticks, pixels) of the stream's first frame or None)`."""
    if hasattr(source, "frames") and hasattr(source, "info"):
        info = source.info
        first = None
        for _, ticks, pixels in source.frames(0, 1):
            first = (int(ticks), pixels)
        return source.frames(start, stop), info.timescale, info.nominal_frame_rate, first
    if isinstance(rate, bool) or not isinstance(rate, int) or rate < 1:
        raise ValueError(f"run_on: rate must be a whole number of frames per second, got {rate!r}")
    frames = []
    for i, item in enumerate(source):
        frames.append(tuple(item) if isinstance(item, tuple) else (i, i, item))
    return frames[start:stop], rate, rate, None


def _pixels(array, index) -> np.ndarray:
    pixels = np.asarray(array)
    if pixels.ndim != 2 or pixels.dtype != np.uint8:
        raise ValueError(f"run_on: frame {index} is a {pixels.dtype} array of shape {pixels.shape}: "
                         "give (height, width) uint8 luma")
    pixels = pixels.view()
    pixels.flags.writeable = False
    return pixels


def _identity(ticks: int, pixels: np.ndarray) -> str:
    """The stream's name as Lumatrace gives it: SHA-256 of the first frame's ticks (int64, little
    endian) and pixels (`StreamIdentity.ofFirstFrame`)."""
    return hashlib.sha256(struct.pack("<q", int(ticks)) + np.ascontiguousarray(pixels).tobytes()).hexdigest()
