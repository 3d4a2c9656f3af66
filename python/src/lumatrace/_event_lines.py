"""An event log read one line at a time, checked as the Swift reader (`EventLogParser`) checks it.

    log = EventLines("clip.events.jsonl")
    log.header                       # the first line, as JSON
    log.facts                        # what it says, checked (`LogHeader`: frames, shapes)
    for line, event in log:          # (1-based line number, the event as JSON), in frame order
        ...
    log.footer                       # after the loop: the footer's "end" object, or None

Memory stays one line, whatever the log's length. The rules and words are the command line's, so
a log is read here exactly when `lumatrace` reads it: a regular file or a pipe of at most 2 GiB
(or a log of at most 2 GiB named by an `http(s)://` URL, read front to back by `lumatrace.open`'s
HTTP reader, `_http`, 1 MiB a request); lines of at most 4 MiB, each strict JSON (`_json`); a
header `lumatrace` accepts (`_event_header`);
every event line with `frame` (an integer), `t` (a number with a fraction or an exponent, as
Lumatrace writes times), `analyzer` and `kind` (strings) and `data`; frames that never go back and
lie within the replayed frames; times within what a recording's ticks can hold; a last line that
ends in a newline (a crash cuts it off); box and corner coordinates of the events whose declared
shape has them within ±10^6 (as the Swift `ObservationCheck`); and a footer, when there is one, that is the last line,
holds what a footer holds, fits the header and the events, and whose event count and SHA-256
match the event lines (an edited log is refused).
"""
from __future__ import annotations

import hashlib
import io
import os
import stat
import warnings

from ._event_header import MAXIMUM_FRAMES, LogHeader, read_header
from ._http import HTTPByteSource, is_url, redacted
from ._json import JSONProblem, int_value, member, parse
from .errors import EventLogError

#: The longest line a log may have, without its newline (as the Swift reader).
MAXIMUM_LINE_BYTES = 4 << 20
#: The largest log read (as the Swift `EventLog.read`'s default).
MAXIMUM_LOG_BYTES = 1 << 31
#: The largest event time, in seconds: the furthest a recording's timestamp can lie (2^61 ticks at
#: one tick per second, the Swift `LoggedEvent.maximumSeconds`).
MAXIMUM_SECONDS = float(1 << 61)
_FOOTER_FIELDS = "(complete, frames, events, counts, sha256)"
#: The largest box or corner coordinate an observation may have (the Swift `ObservationCheck.limit`):
#: normalized coordinates are about 0...1.
MAXIMUM_COORDINATE = 1e6
_CORNERS = ("topLeft", "topRight", "bottomRight", "bottomLeft")
#: A log on a web server is fetched this many bytes a request (the last one fewer).
WEB_READ = 1 << 20


class EventLines:
    """A log's header on opening (raising `EventLogError` for a file that is not an event log),
    then its events by iteration (raising `EventLogError` naming the line that breaks a rule)."""

    def __init__(self, path, partial: bool = False):
        #: The file's path, or the URL as messages show it (without its password and query).
        self.path = str(path)
        self._url = self.path if is_url(self.path) else None
        if self._url is not None:
            self.path = redacted(self._url)
        #: Read up to a last line a crash cut off (with a warning) instead of refusing the log.
        self.partial = partial
        self.footer: dict | None = None
        #: Bytes read so far (the whole log's size once iterated).
        self.bytes_read = 0
        self._file = self._open()
        try:
            self.header = self._read_header()
            self.facts: LogHeader = read_header(self.header, self.path)
        except BaseException:
            self._file.close()
            raise

    def shapes(self) -> dict:
        """The shape each analyzer declares for each kind it emits: (analyzer, kind) -> shape name
        (None for free JSON)."""
        return self.facts.shapes

    def _open(self):
        if self._url is not None:
            return _web_log(self._url, self.path)
        try:
            f = open(self.path, "rb")
        except OSError as e:
            raise EventLogError(self.path, None, f"cannot read: {e.strerror or e}") from None
        status = os.fstat(f.fileno())
        if not (stat.S_ISREG(status.st_mode) or stat.S_ISFIFO(status.st_mode)):
            f.close()
            raise EventLogError(self.path, None, "is not a regular file or a pipe, not an event log")
        if stat.S_ISREG(status.st_mode) and status.st_size > MAXIMUM_LOG_BYTES:
            f.close()
            raise EventLogError(self.path, None, f"log is {status.st_size} bytes, over the "
                                                 f"{MAXIMUM_LOG_BYTES}-byte limit")
        return f

    def _line(self, number: int) -> bytes | None:
        """Line `number` without its newline; None at the end of the log, or (with `partial`) at
        a last line cut off."""
        line = self._file.readline(MAXIMUM_LINE_BYTES + 2)
        if not line:
            return None
        self.bytes_read += len(line)
        if self.bytes_read > MAXIMUM_LOG_BYTES:
            raise EventLogError(self.path, None, f"log is over the {MAXIMUM_LOG_BYTES}-byte limit")
        complete = line.endswith(b"\n")
        if len(line) - complete > MAXIMUM_LINE_BYTES:
            raise EventLogError(self.path, number, f"line is longer than {MAXIMUM_LINE_BYTES >> 20} MiB: "
                                                   f"not an event log line")
        if not complete:
            if self.partial and number > 1:
                warnings.warn(f"{self.path}: line {number} is cut off (no newline): left out", stacklevel=3)
                return None
            raise EventLogError(self.path, number, "last line is cut off (no newline): the log is truncated")
        return line[:-1]

    def _json(self, line: bytes, number: int):
        try:
            return parse(line)
        except JSONProblem as e:
            raise EventLogError(self.path, number, f"not valid JSON: {e.reason}") from None

    def _read_header(self) -> dict:
        line = self._line(1)
        if line is None:
            raise EventLogError(self.path, None, "empty file: not an event log")
        return self._json(line, 1)

    def __iter__(self):
        path, facts = self.path, self.facts
        digest, count, last_frame, footer_line, number = hashlib.sha256(), 0, None, None, 1
        try:
            while True:
                line = self._line(number + 1)
                if line is None:
                    break
                number += 1
                if footer_line is not None:
                    raise EventLogError(path, footer_line, "footer line is not the last line")
                event = self._json(line, number)
                fields = event if type(event) is dict else {}
                if "end" in fields:
                    self.footer, footer_line = event["end"], number
                    continue
                frame, time = fields.get("frame"), fields.get("t")
                if type(frame) is not int:
                    frame = int_value(frame)
                if (frame is None or type(time) is not float or type(fields.get("analyzer")) is not str
                        or type(fields.get("kind")) is not str or "data" not in fields):
                    raise EventLogError(path, number, "not an event line (needs frame, t, analyzer, kind, data; "
                                                      "frame an integer, t a number with decimals, analyzer and "
                                                      "kind strings)")
                if last_frame is not None and frame < last_frame:
                    raise EventLogError(path, number, f"events are out of frame order ({frame} after {last_frame})")
                if frame < facts.first_frame or (facts.last_frame is not None and frame > facts.last_frame):
                    last = facts.last_frame if facts.last_frame is not None else (1 << 63) - 1
                    raise EventLogError(path, number, f"event at frame {frame}, outside the replayed frames "
                                                      f"{facts.first_frame}...{last}")
                if abs(time) > MAXIMUM_SECONDS:
                    raise EventLogError(path, number, f"event time {time!r} is not a recording time "
                                                      f"(at most ±{int(MAXIMUM_SECONDS)} s)")
                _check_coordinates(facts.shapes.get((fields["analyzer"], fields["kind"])), fields["data"], path, number)
                event["frame"] = last_frame = frame
                digest.update(line)
                digest.update(b"\n")
                count += 1
                yield number, event
            if footer_line is not None:
                self._check_footer(footer_line, digest.hexdigest(), count, last_frame)
        finally:
            self._file.close()

    def _check_footer(self, line: int, digest: str, count: int, last_event: int | None) -> None:
        """The checks of the Swift `EventLogParser.finish`: a version-2 footer's recording facts fit
        the header and the events; every footer holds what a footer holds, and its digest and
        count are the event lines'."""
        path, end, facts = self.path, self.footer, self.facts
        if facts.version >= 2:
            recording = member(end, "recording")
            byte_count, frames = int_value(member(recording, "bytes")), int_value(member(recording, "frames"))
            last = int_value(member(end, "lastFrame"))
            if (byte_count is None or byte_count < 0 or not isinstance(member(recording, "sha256"), str)
                    or frames is None or not 0 <= frames <= MAXIMUM_FRAMES
                    or last is None or not 0 <= last <= MAXIMUM_FRAMES):
                raise EventLogError(path, line, "footer has no valid recording facts (end.recording, end.lastFrame)")
            last_event = facts.first_frame if last_event is None else last_event
            if not (last >= last_event and last < max(frames, facts.first_frame + 1)
                    and (facts.replays_to_end or last == facts.last_frame)):
                raise EventLogError(path, line, f"footer's lastFrame {last} does not fit the header's frames "
                                                f"and the events")
        counts = member(end, "counts")
        if (not isinstance(member(end, "complete"), bool) or int_value(member(end, "frames")) is None
                or int_value(member(end, "events")) is None or not isinstance(member(end, "sha256"), str)
                or not isinstance(counts, dict)
                or not all(isinstance(kinds, dict) and all(int_value(n) is not None for n in kinds.values())
                           for kinds in counts.values())):
            raise EventLogError(path, line, f"footer lacks what a footer holds {_FOOTER_FIELDS}")
        if end["sha256"] != digest:
            raise EventLogError(path, line, "footer digest does not match the event lines: the log was edited or damaged")
        if int_value(end["events"]) != count:
            raise EventLogError(path, line, f"footer counts {end['events']} events, the log has {count}")

    def close(self) -> None:
        self._file.close()


class _SourceReader(io.RawIOBase):
    """A web resource read front to back, as a file: `HTTPByteSource` reads of what is asked for."""

    def __init__(self, source: HTTPByteSource):
        self._source, self._at = source, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self._source.read(self._at, min(len(buffer), self._source.size - self._at))
        buffer[:len(data)] = data
        self._at += len(data)
        return len(data)

    def close(self) -> None:
        self._source.close()
        super().close()


def _web_log(url: str, name: str):
    """An event log on a web server, by `lumatrace.open`'s HTTP reader (its checks, retries,
    limits and `HTTPError`), buffered in reads of `WEB_READ` bytes; refused unread when the
    server says it is larger than a log may be."""
    source = HTTPByteSource(url)
    if source.size > MAXIMUM_LOG_BYTES:
        source.close()
        raise EventLogError(name, None, f"log is {source.size} bytes, over the {MAXIMUM_LOG_BYTES}-byte limit")
    return io.BufferedReader(_SourceReader(source), buffer_size=WEB_READ)


def _check_coordinates(shape, data, path: str, line: int) -> None:
    """Refuses a coordinate beyond ±`MAXIMUM_COORDINATE` in an event of a shape with boxes or
    corners, in the Swift reader's words; values of other types are left to the shape's readers."""
    if not isinstance(data, dict) or shape not in ("box", "boxRecovered", "quadrilateral"):
        return
    if shape == "quadrilateral":
        values = [("corner coordinate", v) for name in _CORNERS if isinstance(data.get(name), list)
                  for v in data[name]]
    else:
        box = data.get("boundingBox")
        values = [("box coordinate", v) for v in box] if isinstance(box, list) else []
    for what, v in values:
        if isinstance(v, (int, float)) and not isinstance(v, bool) and not abs(v) <= MAXIMUM_COORDINATE:
            raise EventLogError(path, line, f"{what} {float(v)!r} is outside ±{int(MAXIMUM_COORDINATE)}: "
                                            f"not an observation")
