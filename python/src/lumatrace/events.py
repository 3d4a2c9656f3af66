"""Event logs as pandas tables.

    events = lumatrace.read_events("clip.events.jsonl")
    events[events.kind == "track"][["frame", "time", "id", "x", "y", "width", "height"]]

    tables = lumatrace.read_events("clip.events.jsonl", by_kind=True)
    tables["trajectory.end"]          # one row per path: its fit, launch, apex, landing
    tables["trajectory.end.points"]   # one row per path point: frame, time, id, x, y, radius

An event log is JSON lines: a header naming the recording and every analyzer with the shape of each
event kind it emits, one event per line, and a footer. Columns come from those shape declarations
(`box` events have `x, y, width, height` from their `boundingBox`, `quadrilateral` events their
four corners, ...), and any other field of an event becomes a column of its own (nested objects as
`a.b`), so a new plugin's events load without code changes. A field whose name is a column the
reader fills itself (`frame`, `time`, `analyzer`, `kind`, `data`, a split field's columns) is
`data.NAME`, always, so an event's data never overwrites its frame or time. Coordinates stay as the
log has them: normalized to the frame, lower-left origin.

Paths keep their fit as numbers: `parabola.a`, `parabola.b`, `parabola.c` of `y = a·x² + b·x + c`
(the event's `equationCoefficients`), and `timeFit.x0`, `timeFit.x1` (`timeFit.x2`), `timeFit.y0`,
`timeFit.y1`, `timeFit.y2` of the fit in time. A path point's `time` is its frame's timestamp: from
the log (any event in that frame carries it), else from the recording when one is given
(`recording=`), else NaN.

Tables are bounded by the log's size: a log whose events are mostly distinct fields (each event a
row, each field a column) would make a table almost all empty cells, so a table of more than
`MINIMUM_CELL_LIMIT` + `CELLS_PER_LOG_BYTE` cells per byte of the log is refused with
`EventLogError`, and memory stays a small multiple of the log's size.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from ._event_lines import EventLines
from .errors import EventLogError

#: Fields of a shape read into named columns: field -> column names (lists of numbers split).
_SPLIT = {
    "boundingBox": ("x", "y", "width", "height"),
    "centroid": ("centroidX", "centroidY"),
    "topLeft": ("topLeftX", "topLeftY"),
    "topRight": ("topRightX", "topRightY"),
    "bottomRight": ("bottomRightX", "bottomRightY"),
    "bottomLeft": ("bottomLeftX", "bottomLeftY"),
}
#: Fields that become tables of their own (one row per element), by shape.
_NESTED = {"pathEnd": "points", "blobs": "blobs"}
_POINT_COLUMNS = ("frame", "x", "y", "radius")

_BASE = ["frame", "time", "analyzer", "kind", "id"]
#: Columns the reader fills from the event line: a data field of one of these names is `data.NAME`.
_ENVELOPE = ("frame", "time", "analyzer", "kind", "data")
#: ... and those it fills in a table of path points or blobs (the event's id, the item's index).
_ITEM_COLUMNS = _ENVELOPE + ("id", "index", "value", "endFrame")
#: The cells (rows x columns) a table may hold: this many, plus `CELLS_PER_LOG_BYTE` per byte of the
#: log. The tables of Lumatrace's own logs hold well under one cell per byte; a 1.6 MB log of
#: 20,000 events with one distinct field each would make 400 million.
MINIMUM_CELL_LIMIT = 1 << 22
CELLS_PER_LOG_BYTE = 2


@dataclass
class EventLog:
    """A whole event log: its header (as JSON), its footer (None when the replay did not finish),
    and the shape of every `(analyzer, kind)`."""
    path: str
    header: dict
    footer: dict | None
    shapes: dict


def read_events(path, by_kind: bool = False, partial: bool = False, recording=None):
    """Reads an event log into pandas: a file's path, or an `http://` or `https://` URL, read as
    `lumatrace.open` reads one (the same HTTP reader, checks and retries; `HTTPError` when the
    server fails; messages name the URL without its password and query).

    Returns one long DataFrame (`frame`, `time`, `analyzer`, `kind`, `id`, then every field as
    typed columns), or with `by_kind=True` a mapping (`EventTables`, read like a dict) of one DataFrame
    per event kind, built when first asked for, plus for kinds
    of shape `pathEnd` a `KIND.points` table (one row per path point) and for `blobs` a
    `KIND.blobs` table (one row per blob). The log itself (header, footer, shapes) is in
    `DataFrame.attrs["log"]` of each table; `log.footer` is None for a replay that did not finish.

    The log is checked as `lumatrace` checks it (events in frame order, the footer's digest and
    count): a damaged or edited log raises `EventLogError` naming the line. A log whose last line
    a crash cut off is an error too; `partial=True` reads the lines before it (with a warning).

    `recording` (a path or an open `Recording`) gives the times of path points in frames where the
    log holds no event."""
    import pandas as pd

    log, rows, nested, log_bytes = _parse(str(path), partial=partial)
    _time_points(nested, rows, recording)
    limit = MINIMUM_CELL_LIMIT + CELLS_PER_LOG_BYTE * log_bytes
    if not by_kind:
        frame = _frame(pd, rows, log, limit)
        frame.attrs["log"] = log
        return frame
    groups: dict = {}
    for r in rows:  # one pass: a log may declare tens of thousands of kinds
        groups.setdefault(r["kind"], []).append(r)
    for (kind, name), items in nested.items():
        groups[f"{kind}.{name}"] = items
    return EventTables(pd, log, {name: (groups[name], _columns(groups[name], _BASE, log, limit, name)) for name in sorted(groups)})


class EventTables(Mapping):
    """`read_events(..., by_kind=True)`: one DataFrame per event kind (and per kind's path points
    or blobs), by name, in name order. Each table is built the first time it is asked for, then
    kept: a log may declare tens of thousands of kinds, and a DataFrame costs a fraction of a
    millisecond to make, so reading the log costs what the long table does and each table what
    it holds. Every table's size was checked when the log was read (`EventLogError` then, not
    later); `dict(tables)` builds them all."""

    def __init__(self, pd, log: EventLog, groups: dict):
        self._pd, self.log, self._groups, self._built = pd, log, groups, {}

    def __getitem__(self, name):
        table = self._built.get(name)
        if table is None:
            rows, columns = self._groups[name]  # KeyError for a kind the log does not hold
            table = _built_frame(self._pd, rows, columns)
            table.attrs["log"] = self.log
            self._built[name] = table
        return table

    def __iter__(self):
        return iter(self._groups)

    def __len__(self):
        return len(self._groups)

    def __contains__(self, name):
        return name in self._groups

    def __repr__(self):
        names = list(self._groups)
        shown = ", ".join(repr(n) for n in names[:8]) + (", ..." if len(names) > 8 else "")
        return f"EventTables({len(names)} tables: {shown})"


def _parse(path: str, partial: bool = False):
    """The log's rows, checked line by line as the Swift reader checks it (`EventLines`)."""
    lines = EventLines(path, partial=partial)
    shapes = lines.shapes()
    rows, nested = [], {}
    for _, event in lines:
        frame, analyzer, kind, data = event["frame"], event["analyzer"], event["kind"], event["data"]
        shape = shapes.get((analyzer, kind))
        row = {"frame": frame, "time": float(event["t"]), "analyzer": analyzer, "kind": kind}
        if isinstance(data, dict):
            key = _NESTED.get(shape)
            if isinstance(data.get(key), list):
                _nest(nested, kind, key, data[key], row, data.get("id"), shape)
                row[f"{key}Count"] = len(data[key])
                _add_fields(row, {k: v for k, v in data.items() if k != key}, _ENVELOPE + (f"{key}Count",))
            else:
                _add_fields(row, data, _ENVELOPE)
            if shape in _PATH_SHAPES:
                _add_fit(row, data)
        else:
            row["data"] = data
        rows.append(row)
    return EventLog(lines.path, lines.header, lines.footer, shapes), rows, nested, lines.bytes_read


def _nest(nested, kind, key, items, row, event_id, shape):
    """One row per path point or blob, keyed by the event's frame, time and id."""
    out = nested.setdefault((kind, key), [])
    for k, item in enumerate(items):
        entry = {"frame": row["frame"], "time": row["time"], "analyzer": row["analyzer"], "kind": row["kind"]}
        if event_id is not None:
            entry["id"] = event_id
        if shape == "pathEnd" and isinstance(item, list):
            # A path point: the frame it was seen in (the event's own frame is where the path ended).
            entry = {"frame": item[0] if item else None, "analyzer": row["analyzer"], "kind": row["kind"],
                     "id": event_id, "endFrame": row["frame"]}
            for name, value in zip(_POINT_COLUMNS[1:], item[1:]):
                entry[name] = value
        elif isinstance(item, dict):
            entry["index"] = k
            _add_fields(entry, item, _ITEM_COLUMNS)
        else:
            entry["index"] = k
            entry["value"] = item
        out.append(entry)


#: Shapes of events that carry a fitted path (`equationCoefficients`, `timeFit`).
_PATH_SHAPES = ("pathUpdate", "pathEnd")


def _add_fit(row: dict, data: dict) -> None:
    """A path's fit as one number per column: `parabola.a/b/c` from `equationCoefficients` and
    `timeFit.x0...`, `timeFit.y0...` from `timeFit` (the list columns stay as the log has them).
    A column the event's own fields already fill is left as it is."""
    def numbers(value):
        return isinstance(value, list) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)

    coefficients = data.get("equationCoefficients")
    if numbers(coefficients) and len(coefficients) == 3:
        for name, value in zip("abc", coefficients):
            row.setdefault(f"parabola.{name}", value)
    fit = data.get("timeFit")
    if isinstance(fit, dict):
        for axis in ("x", "y"):
            if numbers(fit.get(axis)) and len(fit[axis]) <= 3:
                for k, value in enumerate(fit[axis]):
                    row.setdefault(f"timeFit.{axis}{k}", value)


def _time_points(nested: dict, rows: list, recording) -> None:
    """Gives every path point its frame's time: from the log's events in that frame, else from
    `recording`'s frame times (opened only when some point needs it), else NaN."""
    points = [p for (_, key), items in nested.items() if key == "points" for p in items]
    if not points:
        return
    times = {r["frame"]: r["time"] for r in rows}
    missing = {p["frame"] for p in points if p["frame"] not in times}
    if missing and recording is not None:
        from .recording import Recording
        rec = recording if isinstance(recording, Recording) else Recording(str(recording))
        try:
            t = rec.times
            for frame, seconds in zip(t.frames.tolist(), t.seconds.tolist()):
                if frame in missing:
                    times[frame] = seconds
        finally:
            if rec is not recording:
                rec.close()
    for p in points:
        p["time"] = times.get(p["frame"], float("nan"))


def _add_fields(row: dict, fields: dict, taken: tuple) -> None:
    """An object's fields as columns of `row`: a shape's split field (`_SPLIT`) as its named
    columns, a nested object as `a.b`, and a field named like a column the reader fills (`taken`,
    or this object's split columns) as `data.NAME`: a name decides it, never a value, so a column
    holds one thing in every row. (Fields named `data.…` become `data.data.…`, so no two fields
    share a column.)"""
    if not any(key in _SPECIAL or type(value) is dict or key.startswith("data.") for key, value in fields.items()) \
            and not any(key in fields for key in taken):
        row.update(fields)  # the common case: plain fields, no name of the reader's
        return
    split = {key for key, value in fields.items() if _splits(key, value)}
    split_columns = {column for key in split for column in _SPLIT[key]}
    for key, value in fields.items():
        if key in split:
            row.update(zip(_SPLIT[key], value))
            continue
        own = key in taken or key in split_columns or key.startswith("data.")
        _flatten(row, f"data.{key}" if own else key, value)


#: Field names `_add_fields` cannot copy as they are: split fields and the columns they split into.
_SPECIAL = frozenset(_SPLIT) | frozenset(column for columns in _SPLIT.values() for column in columns)


def _splits(key: str, value) -> bool:
    return key in _SPLIT and isinstance(value, list) and len(value) == len(_SPLIT[key])


def _flatten(row: dict, name: str, value) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(row, f"{name}.{k}", v)
    else:
        row[name] = value


def _frame(pd, rows, log: EventLog, limit: int, base=_BASE, name: str = "the table"):
    """A DataFrame of `rows` with the `base` columns first, then every other field in the order
    first seen; integer, float and string columns typed (nullable where some rows lack them).
    Refuses (`EventLogError`) a table of more than `limit` cells."""
    return _built_frame(pd, rows, _columns(rows, base, log, limit, name))


def _columns(rows, base, log: EventLog, limit: int, name: str) -> list:
    """The columns of a table of `rows`: `base`, then every other field in the order first seen.
    Refuses (`EventLogError`) a table of more than `limit` cells."""
    columns = list(base)
    seen = set(columns)
    for r in rows:
        for k in r:
            if k not in seen:
                seen.add(k)
                columns.append(k)
    if len(rows) * len(columns) > limit:
        raise EventLogError(log.path, None, f"{name} would be {len(rows)} rows by {len(columns)} columns, over the "
                                            f"limit of {limit} cells for a log of this size ({MINIMUM_CELL_LIMIT} + "
                                            f"{CELLS_PER_LOG_BYTE} per byte): its events hold mostly distinct fields")
    return columns


def _built_frame(pd, rows, columns):
    """The DataFrame of `rows` in `columns`. Each column is built typed from its values
    (`_typed_columns`), not inferred then converted, which is several times faster."""
    typed = _typed_columns(pd, rows, columns) if rows else None
    if typed is not None:
        return pd.DataFrame(typed, copy=False)
    return _inferred_frame(pd, rows, columns)


def _inferred_frame(pd, rows, columns):
    """`rows` as a DataFrame typed by pandas' own inference, then by the rules of `_frame`: the way
    for columns `_typed_columns` leaves to pandas (booleans with gaps, lists, mixed values)."""
    table = pd.DataFrame.from_records(rows, columns=columns)
    for column in columns:
        series = table[column]
        if column in ("analyzer", "kind"):
            table[column] = series.astype("category")
        elif column in ("frame", "endFrame", "index", "pixels") or column.endswith("Count"):
            if series.notna().all():
                table[column] = series.astype("int64")
            else:
                table[column] = series.astype("Int64")
        elif series.dtype == object:
            values = series.dropna()
            if len(values) and all(isinstance(v, str) for v in values):
                table[column] = series.astype("string")
            elif len(values) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
                table[column] = series.astype("float64")
    if "id" in table and table["id"].dtype == object:
        table["id"] = table["id"].astype("string")
    return table


#: Columns of whole numbers: `int64`, or `Int64` where some rows lack them (as are `...Count` columns).
_INTEGER_COLUMNS = ("frame", "endFrame", "index", "pixels")
#: Integers a float64 holds exactly: beyond them a column is left to pandas' inference.
_EXACT_INTEGER = 1 << 53


class _Absent:
    """A row's value in a column it lacks (not a null of the log)."""


_ABSENT = _Absent()


def _typed_columns(pd, rows: list, columns: list):
    """Every column of `rows` as a typed array, as `_inferred_frame` types it: `analyzer` and
    `kind` categorical, whole numbers `int64` (`Int64` or float64 with gaps), other numbers float64,
    text as pandas types text, booleans `bool`. None when some column holds anything else (a list,
    a mix, booleans with gaps, a null): that table is left to `_inferred_frame`."""
    import numpy as np

    typed = {}
    for column in columns:
        values = [r.get(column, _ABSENT) for r in rows]
        present = {type(v) for v in values}
        if type(None) in present:  # a null in the log: pandas makes its column object
            return None
        gaps = _Absent in present
        present.discard(_Absent)
        values = [None if v is _ABSENT else v for v in values]
        integers = column in _INTEGER_COLUMNS or column.endswith("Count")
        if column in ("analyzer", "kind"):
            if present != {str} or gaps:
                return None
            typed[column] = _categorical(pd, np, values)
        elif present <= {int}:
            if any(not -_EXACT_INTEGER <= v <= _EXACT_INTEGER for v in values if v is not None):
                return None
            if not gaps and present:
                typed[column] = np.array(values, dtype=np.int64)
            elif integers:
                mask = np.array([v is None for v in values])
                typed[column] = pd.arrays.IntegerArray(np.array([v or 0 for v in values], dtype=np.int64), mask)
            else:
                typed[column] = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
        elif present <= {int, float} and not integers:
            if any(not -_EXACT_INTEGER <= v <= _EXACT_INTEGER for v in values if type(v) is int):
                return None
            typed[column] = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
        elif present == {str} and not integers:
            typed[column] = pd.array(values, dtype=_text_dtype(pd))
        elif present == {bool} and not gaps and not integers:
            typed[column] = np.array(values, dtype=bool)
        else:
            return None
    return typed


def _categorical(pd, np, values: list):
    """`values` (strings) as `astype("category")` makes them: categories sorted."""
    categories = tuple(sorted(set(values)))
    code = {c: k for k, c in enumerate(categories)}
    codes = np.array([code[v] for v in values], dtype=np.int8 if len(categories) < 128 else np.int32)
    return pd.Categorical.from_codes(codes, dtype=_categories(pd, categories), validate=False)


@functools.lru_cache(maxsize=256)
def _categories(pd, categories: tuple):
    return pd.CategoricalDtype(pd.Index(list(categories)))


@functools.lru_cache(maxsize=1)
def _text_dtype(pd):
    """The type of a column of text: what this pandas infers for text, or `string` where it infers
    `object` (pandas before 3), as `_inferred_frame` converts it."""
    inferred = pd.DataFrame.from_records([{"a": "text"}, {}], columns=["a"])["a"].dtype
    return pd.StringDtype() if inferred == object else inferred
