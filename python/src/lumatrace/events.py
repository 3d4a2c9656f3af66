"""Event logs as pandas tables.

    events = lumatrace.read_events("clip.events.jsonl")
    events[events.kind == "track"][["frame", "time", "id", "x", "y", "width", "height"]]

    tables = lumatrace.read_events("clip.events.jsonl", by_kind=True)
    tables["trajectory.end"]          # one row per path: its fit, launch, apex, landing
    tables["trajectory.end.points"]   # one row per path point: id, frame, x, y, radius

An event log is JSON lines: a header naming the recording and every analyzer with the shape of each
event kind it emits, one event per line, and a footer. Columns come from those shape declarations
(`box` events have `x, y, width, height` from their `boundingBox`, `quadrilateral` events their
four corners, ...), and any other field of an event becomes a column of its own (nested objects as
`a.b`), so a new plugin's events load without code changes. Coordinates stay as the log has them:
normalized to the frame, lower-left origin.
"""
from __future__ import annotations

from dataclasses import dataclass

from ._event_lines import EventLines

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


@dataclass
class EventLog:
    """A whole event log: its header (as JSON), its footer (None when the replay did not finish),
    and the shape of every `(analyzer, kind)`."""
    path: str
    header: dict
    footer: dict | None
    shapes: dict


def read_events(path, by_kind: bool = False, partial: bool = False):
    """Reads an event log into pandas.

    Returns one long DataFrame (`frame`, `time`, `analyzer`, `kind`, `id`, then every field as
    typed columns), or with `by_kind=True` a dict of one DataFrame per event kind, plus for kinds
    of shape `pathEnd` a `KIND.points` table (one row per path point) and for `blobs` a
    `KIND.blobs` table (one row per blob). The log itself (header, footer, shapes) is in
    `DataFrame.attrs["log"]` of each table; `log.footer` is None for a replay that did not finish.

    The log is checked as `lumatrace` checks it (events in frame order, the footer's digest and
    count): a damaged or edited log raises `EventLogError` naming the line. A log whose last line
    a crash cut off is an error too; `partial=True` reads the lines before it (with a warning)."""
    import pandas as pd

    log, rows, nested = _parse(str(path), partial=partial)
    if not by_kind:
        frame = _frame(pd, rows)
        frame.attrs["log"] = log
        return frame
    tables = {}
    kinds = sorted({r["kind"] for r in rows})
    for kind in kinds:
        subset = [r for r in rows if r["kind"] == kind]
        tables[kind] = _frame(pd, subset)
    for (kind, name), items in sorted(nested.items()):
        base = ["frame", "analyzer", "kind", "id"] if name == "points" else _BASE
        tables[f"{kind}.{name}"] = _frame(pd, items, base=base)
    for table in tables.values():
        table.attrs["log"] = log
    return tables


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
            for key, value in data.items():
                if key == _NESTED.get(shape) and isinstance(value, list):
                    _nest(nested, kind, key, value, row, data.get("id"), shape)
                    row[f"{key}Count"] = len(value)
                else:
                    _flatten(row, key, value)
        else:
            row["data"] = data
        rows.append(row)
    return EventLog(path, lines.header, lines.footer, shapes), rows, nested


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
            for field, value in item.items():
                _flatten(entry, field, value)
        else:
            entry["index"] = k
            entry["value"] = item
        out.append(entry)


def _flatten(row, key, value, prefix=""):
    name = prefix + key
    if key in _SPLIT and isinstance(value, list) and len(value) == len(_SPLIT[key]) and not prefix:
        for column, v in zip(_SPLIT[key], value):
            row[column] = v
    elif isinstance(value, dict):
        for k, v in value.items():
            _flatten(row, k, v, prefix=name + ".")
    else:
        row[name] = value


def _frame(pd, rows, base=_BASE):
    """A DataFrame of `rows` with the `base` columns first, then every other field in the order
    first seen; integer, float and string columns typed (nullable where some rows lack them)."""
    columns = list(base)
    seen = set(columns)
    for r in rows:
        for k in r:
            if k not in seen:
                seen.add(k)
                columns.append(k)
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
