"""An event log's events as Rerun data: what the `.rrd` export and the live stream log besides
the frames.

- `events/ANALYZER/KIND/FIELD` (`/ID` for an event with an `id`): a `Scalars` series of each
  number an event's data carries at its top level (a differencing's `changedFraction` and
  `meanAbsoluteDifference`, a trajectory's or a track's `confidence`, one series per object);
- `events/ANALYZER`: a `TextLog` row per event, `KIND {data as JSON}`, at the event's frame;
- the recording property `lumatrace`: the recording's file and frames digest, the log's
  analyzers (`NAME VERSION`, the instance name first when it differs); a live stream adds the
  property `stream`: whether it is complete.

Times are the caller's (`frame` and `time` timelines, set before `log`).
"""
from __future__ import annotations

import json

from ._event_messages import numbers

#: The name of the recording property that says what the data was made from.
PROPERTIES = "lumatrace"
#: The recording property of a live stream (`rerun_live`): `complete` (false when a signal stopped
#: it before its log ended) and `stoppedBy` (that signal's name, or empty).
STREAM_PROPERTY = "stream"
EVENTS_ENTITY = "events"


def recording_properties(rr, header: dict, frames_digest: str | None):
    """`AnyValues` of the recording property: `recording` (file), `framesDigest`, `analyzers`."""
    analyzers = []
    for a in header.get("analyzers") or []:
        name, kind = a.get("name"), a.get("analyzer")
        analyzers.append(f"{name}={kind} {a.get('version')}" if kind and kind != name else f"{name} {a.get('version')}")
    recording = header.get("recording") or {}
    return rr.AnyValues(recording=str(recording.get("file", "")), framesDigest=frames_digest or "",
                        analyzers=analyzers)


def scalar_entity(rr, analyzer: str, kind: str, field: str, identifier) -> str:
    parts = [EVENTS_ENTITY, analyzer, kind, field] + ([identifier] if isinstance(identifier, str) and identifier else [])
    return "/".join(rr.escape_entity_path_part(p) for p in parts)


def text_entity(rr, analyzer: str) -> str:
    return f"{EVENTS_ENTITY}/{rr.escape_entity_path_part(analyzer)}"


class EventData:
    """Logs events (from `EventMessages`) to a Rerun recording stream at its current times."""

    def __init__(self, rr, stream):
        self.rr, self.stream = rr, stream

    def log(self, events: list) -> None:
        """Logs one frame's events: `[(EventStream, event line as JSON), ...]`."""
        rr = self.rr
        for stream, event in events:
            data = event.get("data")
            identifier = data.get("id") if isinstance(data, dict) else None
            for field, value in numbers(data):
                self.stream.log(scalar_entity(rr, stream.analyzer, stream.kind, field, identifier), rr.Scalars(value))
            text = f"{stream.kind} {json.dumps(data, separators=(',', ':'), ensure_ascii=False)}"
            self.stream.log(text_entity(rr, stream.analyzer), rr.TextLog(text, level=rr.TextLogLevel.INFO))
