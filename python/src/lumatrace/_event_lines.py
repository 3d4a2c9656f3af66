"""An event log read one line at a time, checked as the Swift reader (`EventLogReader`) checks it.

    log = EventLines("clip.events.jsonl")
    log.header                       # the first line, as JSON
    for line, event in log:          # (1-based line number, the event as JSON), in frame order
        ...
    log.footer                       # after the loop: the footer's "end" object, or None

Memory stays one line, whatever the log's length. The checks are those of `lumatrace.events`
(`read_events`) and of the command line, with the same words: a header of format
"lumatrace.events" and version 1 or 2; every event line with `frame` (an integer), `t`,
`analyzer`, `kind` and `data`; frames that never go back; a last line that ends in a newline (a
crash cuts it off); and a footer, when there is one, that is the last line and whose event count
and SHA-256 match the event lines (an edited log is refused).
"""
from __future__ import annotations

import hashlib
import json
import math
import warnings

from .errors import EventLogError

#: The format versions read (as the Swift `EventLogHeader.readableVersions`).
READABLE_VERSIONS = (1, 2)
#: The longest line a log may have (as the Swift reader).
MAXIMUM_LINE_BYTES = 4 << 20


class EventLines:
    """A log's header on opening (raising `EventLogError` for a file that is not an event log),
    then its events by iteration (raising `EventLogError` naming the line that breaks a rule)."""

    def __init__(self, path, partial: bool = False):
        self.path = str(path)
        #: Read up to a last line a crash cut off (with a warning) instead of refusing the log.
        self.partial = partial
        self.footer: dict | None = None
        try:
            self._file = open(self.path, "rb")
        except OSError as e:
            raise EventLogError(self.path, None, e.strerror or str(e)) from None
        try:
            self.header = self._read_header()
        except BaseException:
            self._file.close()
            raise

    def shapes(self) -> dict:
        """The shape each analyzer declares for each kind it emits: (analyzer, kind) -> shape name
        (None for free JSON)."""
        out = {}
        for analyzer in self.header.get("analyzers") or []:
            for declared in analyzer.get("events") or []:
                out[(analyzer.get("name"), declared.get("kind"))] = declared.get("shape")
        return out

    def _read_header(self) -> dict:
        path, first = self.path, self._file.readline(MAXIMUM_LINE_BYTES + 1)
        if not first:
            raise EventLogError(path, None, "empty file: not an event log")
        try:
            header = json.loads(first)
        except (ValueError, RecursionError):
            raise EventLogError(path, 1, "not valid JSON: not a Lumatrace event log") from None
        if not isinstance(header, dict) or header.get("format") != "lumatrace.events":
            raise EventLogError(path, 1, 'not a Lumatrace event log (the header has no "format":"lumatrace.events")')
        if header.get("version") not in READABLE_VERSIONS:
            raise EventLogError(path, 1, f"event log format version {header.get('version')!r} is not supported "
                                         f"(this reader reads versions 1...2)")
        return header

    def __iter__(self):
        path, f = self.path, self._file
        digest, count, last_frame, footer_line, number = hashlib.sha256(), 0, None, None, 1
        try:
            while True:
                line = f.readline(MAXIMUM_LINE_BYTES + 1)
                if not line:
                    break
                number += 1
                if len(line) > MAXIMUM_LINE_BYTES:
                    raise EventLogError(path, number, f"line is longer than {MAXIMUM_LINE_BYTES >> 20} MiB: "
                                                      f"not an event log line")
                if not line.endswith(b"\n"):
                    if self.partial:
                        warnings.warn(f"{path}: line {number} is cut off (no newline): left out", stacklevel=2)
                        break
                    raise EventLogError(path, number, "last line is cut off (no newline): the log is truncated")
                if footer_line is not None:
                    raise EventLogError(path, footer_line, "footer line is not the last line")
                try:
                    event = json.loads(line)
                except (ValueError, RecursionError):  # RecursionError: nesting deeper than any log's
                    raise EventLogError(path, number, "not valid JSON") from None
                if isinstance(event, dict) and "end" in event:
                    self.footer, footer_line = event["end"], number
                    continue
                try:
                    frame, time, analyzer, kind = event["frame"], event["t"], event["analyzer"], event["kind"]
                    event["data"]
                except (KeyError, TypeError):
                    raise EventLogError(path, number,
                                        "not an event line (needs frame, t, analyzer, kind, data)") from None
                if (not isinstance(frame, int) or isinstance(frame, bool) or frame < 0
                        or not isinstance(time, (int, float))
                        or not isinstance(analyzer, str) or not isinstance(kind, str)):
                    raise EventLogError(path, number, "not an event line (frame is an integer, t a number, "
                                                      "analyzer and kind strings)")
                if not math.isfinite(time):
                    raise EventLogError(path, number, f"event time {time} is not a recording time")
                if last_frame is not None and frame < last_frame:
                    raise EventLogError(path, number, f"events are out of frame order ({frame} after {last_frame})")
                last_frame = frame
                digest.update(line)
                count += 1
                yield number, event
            if footer_line is not None:
                footer = self.footer
                if not isinstance(footer, dict) or footer.get("sha256") != digest.hexdigest():
                    raise EventLogError(path, footer_line, "footer digest does not match the event lines: "
                                                           "the log was edited or damaged")
                if footer.get("events") != count:
                    raise EventLogError(path, footer_line, f"footer counts {footer.get('events')} events, "
                                                           f"the log has {count}")
        finally:
            f.close()

    def close(self) -> None:
        self._file.close()
