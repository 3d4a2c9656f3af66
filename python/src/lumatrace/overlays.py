"""What an event log draws on its recording's frames, in pixels.

    overlays = read_overlays("clip.events.jsonl", width=320, height=180, frame_count=90)
    for shape in overlays[12]:        # what to draw on frame 12, in the log's order
        ...                           # a Polyline, Dots or a Box

An event log's coordinates are normalized to the frame with the origin at the lower-left corner
(y up, as Vision reports them); every viewer draws on images from the top-left corner (y down), in
pixels. This module does that conversion once, for every exporter: a point (x, y) of the log is at
pixel (x * width, (1 - y) * height), and a box [x, y, w, h], whose lower-left corner is (x, y),
has its top-left corner at pixel (x * width, (1 - y - h) * height).

What is drawn follows each event kind's *shape*, declared in the log's header by the analyzer that
emits it (so an instance renamed with `--analyzer short=trajectory`, or an external analyzer that
declares a shape, is drawn too):

| shape          | drawn as                                                                  |
|----------------|---------------------------------------------------------------------------|
| `pathUpdate`   | the detected points as an open line (`paths`), the newest one as a dot    |
|                | of the object's radius (`positions`: movingAverageRadius, a fraction of   |
|                | the frame's width) labelled with the id and confidence, projected points  |
|                | as dots (`projected`), the fitted path in time (`timeFit`) from the first |
|                | point to now as an open line of 49 points (`fit`), as `render` draws it   |
| `pathEnd`      | the whole path as an open line on the frame it ended (`ended`)            |
| `box`          | the box, labelled with its label (or id) and confidence (`boxes`)         |
| `boxRecovered` | the same (`recovered`)                                                    |
| `boxLost`      | the track's last box, labelled "lost" (`lost`)                            |
| `quadrilateral`| the four corners as a closed line (`quads`)                               |
| `blobs`        | every blob's bounding box (`blobs`)                                       |

Events that draw nothing (kinds of another shape, free JSON with shape null, an empty list of
blobs, the loss of a track never seen) are counted in `not_drawn`. Every shape names its `layer` (the words in parentheses) and its `source` event, so a
viewer can group what it draws by analyzer and layer.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from ._event_lines import EventLines
from .errors import EventLogError

__all__ = ["read_overlays", "Overlays", "EventDrawing", "Polyline", "Dots", "Box", "Source"]

#: RGBA, 0...255 each.
Color = tuple

# Nine distinct hues (matplotlib's tab10 without its red, which marks a lost track): one per
# tracked object or path, in order of appearance.
_PALETTE = ((31, 119, 180), (255, 127, 14), (44, 160, 44), (148, 103, 189),
            (140, 86, 75), (227, 119, 194), (127, 127, 127), (188, 189, 34), (23, 190, 207))
_LOST = (255, 48, 48, 255)
_BLOB = (0, 200, 255, 160)
_QUAD = (255, 0, 255, 255)
#: The segments of a drawn fitted path (as `lumatrace render`'s).
FIT_SAMPLES = 48


@dataclass(frozen=True)
class Source:
    """The event a shape was drawn from: its analyzer (instance name), kind, declared shape, the
    object's id when it has one, and the log line (1-based)."""
    analyzer: str
    kind: str
    shape: str
    id: str | None
    line: int


@dataclass(frozen=True)
class Polyline:
    """A line through `points` (pixels, top-left origin), closed back to its first point when
    `closed`: a path, or a quadrilateral's outline."""
    layer: str
    points: tuple
    closed: bool
    color: Color
    label: str | None
    source: Source

    @property
    def anchor(self) -> tuple:
        """Where a label goes: the newest point of a path, the first corner of an outline."""
        return self.points[0] if self.closed else self.points[-1]


@dataclass(frozen=True)
class Dots:
    """Points (pixels, top-left origin) drawn as dots; `radius` in pixels is the object's own size
    when the event says it, else None (the viewer's default)."""
    layer: str
    points: tuple
    radius: float | None
    color: Color
    label: str | None
    source: Source

    @property
    def anchor(self) -> tuple:
        return self.points[0]


@dataclass(frozen=True)
class Box:
    """An upright rectangle: top-left corner (`left`, `top`) and size, in pixels."""
    layer: str
    left: float
    top: float
    width: float
    height: float
    color: Color
    label: str | None
    source: Source

    @property
    def corners(self) -> tuple:
        """The four corners clockwise on screen from the top-left one."""
        right, bottom = self.left + self.width, self.top + self.height
        return ((self.left, self.top), (right, self.top), (right, bottom), (self.left, bottom))

    @property
    def anchor(self) -> tuple:
        return (self.left, self.top)


@dataclass
class Overlays:
    """The shapes of a whole event log, by frame. `overlays[frame]` is a list (empty for a frame
    with nothing to draw). `events` counts every event line, `drawn` the events that drew at
    least one shape, `not_drawn` the others by `"analyzer/kind"`."""
    path: str
    header: dict
    footer: dict | None
    width: int
    height: int
    by_frame: dict = field(default_factory=dict)
    events: int = 0
    drawn: int = 0
    not_drawn: dict = field(default_factory=dict)

    def __getitem__(self, frame: int) -> list:
        return self.by_frame.get(frame, [])

    @property
    def shape_count(self) -> int:
        return sum(len(shapes) for shapes in self.by_frame.values())


def read_overlays(path, *, width: int, height: int, frame_count: int | None = None,
                  recording: str | None = None) -> Overlays:
    """Reads an event log and converts what it draws to pixels of a `width` x `height` frame.

    Raises `EventLogError` (naming the file and line) for a file that is not an event log or breaks
    one of its rules (see `_event_lines`), a log of a recording of another size (`recording` names
    the recording in that message), an event on a frame at or past `frame_count`, or an event whose
    declared shape's fields are missing or not numbers."""
    log = EventLines(path)
    try:
        return _read(log, width, height, frame_count, recording or "the recording")
    finally:
        log.close()


def _read(log: EventLines, width: int, height: int, frame_count: int | None, which: str) -> Overlays:
    path = log.path
    logged = log.header.get("recording") or {}
    logged = (logged.get("width"), logged.get("height"))
    if None not in logged and logged != (width, height):
        raise EventLogError(path, 1, f"is the log of a {logged[0]}x{logged[1]} recording; "
                                     f"{which} is {width}x{height}: pair each log with its own recording")
    shapes = log.shapes()
    drawing = EventDrawing(path, width, height)
    out = Overlays(path, log.header, None, width, height)
    for number, event in log:
        frame, analyzer, kind, data = event["frame"], event["analyzer"], event["kind"], event["data"]
        if frame_count is not None and frame >= frame_count:
            raise EventLogError(path, number, f"an event on frame {frame}, but {which} has {frame_count} frames "
                                              f"(0...{frame_count - 1}): is this the log of another recording?")
        data = data if isinstance(data, dict) else {}
        source = Source(analyzer, kind, shapes.get((analyzer, kind)),
                        data.get("id") if isinstance(data.get("id"), str) else None, number)
        drawn = drawing.draw(source, data)
        out.events += 1
        if drawn:
            out.by_frame.setdefault(frame, []).extend(drawn)
            out.drawn += 1
        else:
            key = f"{analyzer}/{kind}"
            out.not_drawn[key] = out.not_drawn.get(key, 0) + 1
    out.footer = log.footer
    return out


class _Malformed(Exception):
    pass


class EventDrawing:
    """What events draw, one event at a time, in the log's order (`draw(source, data)` returns the
    shapes; an event of a frame `width` x `height` whose shape's fields are malformed raises
    `EventLogError` naming `path` and its line). Remembers each track's last box, for `boxLost`,
    and gives each object its colour: `read_overlays` draws a whole log with it, a live stream
    event by event."""

    def __init__(self, path: str, width: int, height: int):
        self.path, self.width, self.height = path, width, height
        self.last_box: dict = {}
        self.colors: dict = {}

    def color_of(self, identifier: str | None) -> Color:
        """A hue of its own for each object, in the order objects first appear in the log (nine
        hues, then round again)."""
        if not identifier:
            return _PALETTE[0] + (255,)
        index = self.colors.setdefault(identifier, len(self.colors))
        return _PALETTE[index % len(_PALETTE)] + (255,)

    def draw(self, source: Source, data: dict) -> list:
        method = getattr(self, f"_{source.shape}", None) if isinstance(source.shape, str) else None
        if method is None:
            return []
        try:
            return method(source, data)
        except _Malformed as e:
            raise EventLogError(self.path, source.line, f"a {source.analyzer} {source.kind} event "
                                                        f"(shape {source.shape}): {e}") from None

    # MARK: - Shapes

    def _pathUpdate(self, source: Source, data: dict) -> list:
        detected = self._points(data, "detectedPoints")
        if not detected:
            return []
        color = self.color_of(source.id)
        out = [Polyline("paths", detected, False, color, None, source)]
        fit = self._fitted_path(data)
        if fit:
            out.append(Polyline("fit", fit, False, color[:3] + (200,), None, source))
        radius = _optional_number(data, "movingAverageRadius")
        label = " ".join(part for part in (_short(source.id), _confidence_text(data)) if part)
        out.append(Dots("positions", detected[-1:], None if radius is None else radius * self.width, color,
                        label or None, source))
        if data.get("projectedPoints"):
            out.append(Dots("projected", self._points(data, "projectedPoints"), None, color[:3] + (150,), None, source))
        return out

    def _fitted_path(self, data: dict) -> tuple:
        """The fitted path in time (`timeFit`) from the first detection to now (`timeRange.duration`),
        sampled at `FIT_SAMPLES` + 1 times, as `lumatrace render` draws it; () without a fit it draws."""
        fit, span = data.get("timeFit"), data.get("timeRange")
        duration = _optional_number(span, "duration") if isinstance(span, dict) else None
        if not isinstance(fit, dict) or duration is None or duration < 0:
            return ()
        x, y = fit.get("x"), fit.get("y")
        if not (isinstance(x, list) and isinstance(y, list) and 2 <= len(x) <= 3 and len(y) == 3
                and all(_is_number(c) for c in x + y)):
            return ()
        times = (duration * k / FIT_SAMPLES for k in range(FIT_SAMPLES + 1))
        return tuple(self._pixel([_polynomial(x, t), _polynomial(y, t)], "timeFit") for t in times)

    def _pathEnd(self, source: Source, data: dict) -> list:
        points = data.get("points")
        if not isinstance(points, list):
            raise _Malformed("points is not a list of [frame, x, y, radius?]")
        path = tuple(self._pixel(p[1:3] if isinstance(p, list) else None, "points") for p in points)
        if not path:
            return []
        reason = data.get("reason")
        label = f"{_short(source.id)} ended" + (f" ({reason})" if isinstance(reason, str) else "")
        return [Polyline("ended", path, False, self.color_of(source.id), label.strip(), source)]

    def _box(self, source: Source, data: dict, layer: str = "boxes") -> list:
        box = self._box_of(data, source, layer, self.color_of(source.id), _box_label(source, data))
        self.last_box[(source.analyzer, source.id)] = (box, _box_name(source, data))
        return [box]

    def _boxRecovered(self, source: Source, data: dict) -> list:
        return self._box(source, data, "recovered")

    def _boxLost(self, source: Source, data: dict) -> list:
        last, name = self.last_box.pop((source.analyzer, source.id), (None, None))
        if last is None:
            return []
        return [Box("lost", last.left, last.top, last.width, last.height, _LOST, f"{name} lost".strip(), source)]

    def _quadrilateral(self, source: Source, data: dict) -> list:
        corners = tuple(self._pixel(data.get(name), name)
                        for name in ("topLeft", "topRight", "bottomRight", "bottomLeft"))
        color = self.color_of(source.id) if source.id else _QUAD
        label = _box_label(source, data) if (source.id or "confidence" in data) else None
        return [Polyline("quads", corners, True, color, label, source)]

    def _blobs(self, source: Source, data: dict) -> list:
        blobs = data.get("blobs")
        if not isinstance(blobs, list) or not all(isinstance(b, dict) for b in blobs):
            raise _Malformed("blobs is not a list of objects")
        return [self._box_of(b, source, "blobs", _BLOB, None) for b in blobs]

    # MARK: - Coordinates

    def _pixel(self, value, name: str) -> tuple:
        if not isinstance(value, list) or len(value) < 2 or not all(_is_number(v) for v in value[:2]):
            raise _Malformed(f"{name} holds {json.dumps(value)}, not a point [x, y]")
        return (float(value[0]) * self.width, (1.0 - float(value[1])) * self.height)

    def _points(self, data: dict, name: str) -> tuple:
        value = data.get(name)
        if not isinstance(value, list):
            raise _Malformed(f"{name} is not a list of points [x, y]")
        return tuple(self._pixel(p, name) for p in value)

    def _box_of(self, data: dict, source: Source, layer: str, color: Color, label: str | None) -> Box:
        value = data.get("boundingBox")
        if not isinstance(value, list) or len(value) != 4 or not all(_is_number(v) for v in value):
            raise _Malformed(f"boundingBox holds {json.dumps(value)}, not [x, y, width, height]")
        x, y, w, h = (float(v) for v in value)
        return Box(layer, x * self.width, (1.0 - y - h) * self.height, w * self.width, h * self.height,
                   color, label, source)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _polynomial(coefficients: list, t: float) -> float:
    """c[0] + c[1]·t + c[2]·t² + … (Horner's rule, as the Swift `PathTimeFit.value`)."""
    value = 0.0
    for c in reversed(coefficients):
        value = value * t + float(c)
    return value


def _optional_number(data: dict, name: str) -> float | None:
    v = data.get(name)
    return float(v) if _is_number(v) else None


def _short(identifier: str | None) -> str:
    """The first group of a UUID: enough to tell objects apart on screen."""
    return identifier.split("-", 1)[0][:8] if identifier else ""


def _confidence_text(data: dict) -> str | None:
    c = _optional_number(data, "confidence")
    return None if c is None else f"{c:.2f}"


def _box_name(source: Source, data: dict) -> str:
    """What a box is called on screen: its label, else its id's first group."""
    label = data.get("label")
    return label if isinstance(label, str) and label else _short(source.id)


def _box_label(source: Source, data: dict) -> str | None:
    text = " ".join(part for part in (_box_name(source, data), _confidence_text(data)) if part)
    return text or None

