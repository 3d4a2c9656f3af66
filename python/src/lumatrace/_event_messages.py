"""An event log's events as data for a viewer: each event on the stream of its analyzer instance
and kind, by frame, with the numbers it carries.

    messages = read_event_messages("clip.events.jsonl")
    messages.streams                   # every (analyzer, kind), declared ones first
    for stream, event in messages[12]: # frame 12's events, in the log's order
        numbers(event["data"])         # [("changedFraction", 0.0026), ...]

The log is read (and checked) by `_event_lines`, one line at a time; the events are kept, by frame.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ._event_lines import EventLines


@dataclass(frozen=True)
class EventStream:
    """The events of one analyzer instance and kind, and the shape the header declares for them
    (None: free JSON, or a kind the header does not declare)."""
    analyzer: str
    kind: str
    shape: str | None


@dataclass
class EventMessages:
    """A whole log's events by frame. `streams` lists every stream: those the header declares, in
    its order, then undeclared ones in the order they first appear; `first_frame` and `last_frame`
    are the frames the log's replay covered (`last_frame` None: to the recording's end)."""
    header: dict
    streams: list
    first_frame: int
    last_frame: int | None
    by_frame: dict = field(default_factory=dict)
    count: int = 0

    @property
    def streams_with_events(self) -> list:
        """The streams with at least one event, in the order of `streams`."""
        seen = {stream for events in self.by_frame.values() for stream, _ in events}
        return [s for s in self.streams if s in seen]

    def __getitem__(self, frame: int) -> list:
        """Frame `frame`'s events as (`EventStream`, event line as JSON), in the log's order."""
        return self.by_frame.get(frame, [])


def read_event_messages(path) -> EventMessages:
    """Reads an event log's events; raises `EventLogError` (naming the file and line) for a log
    `lumatrace` refuses."""
    log = EventLines(path)
    try:
        declared = {key: EventStream(*key, shape) for key, shape in log.shapes().items()}
        out = EventMessages(log.header, list(declared.values()), log.facts.first_frame, log.facts.last_frame)
        for _, event in log:
            key = (event["analyzer"], event["kind"])
            stream = declared.get(key)
            if stream is None:
                stream = declared[key] = EventStream(*key, None)
                out.streams.append(stream)
            out.by_frame.setdefault(event["frame"], []).append((stream, event))
            out.count += 1
        return out
    finally:
        log.close()


def numbers(data) -> list:
    """The finite numbers an event's data carries at its top level, as (field, value) in the
    data's order (a plot's series: changedFraction, confidence, ...); booleans are not numbers."""
    if not isinstance(data, dict):
        return []
    return [(name, float(value)) for name, value in data.items()
            if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)]
