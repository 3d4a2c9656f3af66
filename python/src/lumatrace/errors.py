"""The errors of reading a recording or an event log.

Every error names the file, and where it applies the chunk, the frames or the byte offset, so one
line tells a user what is wrong and where: the same cases as the Swift reader's `LumaFormatError`.
"""
from __future__ import annotations


class LumatraceError(Exception):
    """Base class of every error this package raises about a file's contents."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path


class NotARecordingError(LumatraceError):
    """The file is not a `.luma` recording; `looks_like` guesses what it is."""

    def __init__(self, path: str, looks_like: str):
        super().__init__(path, f"not a .luma recording ({looks_like})")
        self.looks_like = looks_like


class UnsupportedVersionError(LumatraceError):
    """The recording is of a format version this reader does not know (it reads 1-3)."""

    def __init__(self, path: str, version: int):
        super().__init__(path, f".luma format version {version} is not supported by this reader "
                               f"(it reads versions 1...3); upgrade the lumatrace package")
        self.version = version


class InvalidHeaderError(LumatraceError):
    """The file header (and every copy of it) is damaged or declares something impossible."""

    def __init__(self, path: str, reason: str):
        super().__init__(path, f"invalid recording header: {reason}")
        self.reason = reason


class DamagedChunkError(LumatraceError):
    """A chunk cannot be decoded: its record or payload is damaged. `frames` is the range of
    frame indices it held (a Python `range`)."""

    def __init__(self, path: str, chunk: int, frames: range, reason: str):
        super().__init__(path, f"chunk {chunk} (frames {frames.start}...{frames.stop - 1}) is damaged: {reason}")
        self.chunk = chunk
        self.frames = frames
        self.reason = reason


class MissingFramesError(LumatraceError):
    """Frames are not in the recording at all: lost with a damaged chunk of an unclosed file, or
    removed by `lumatrace recover` (the index records the hole)."""

    def __init__(self, path: str, frames: range, reason: str):
        which = f"frame {frames.start} is" if len(frames) == 1 else f"frames {frames.start}...{frames.stop - 1} are"
        super().__init__(path, f"{which} not in the recording ({reason})")
        self.frames = frames
        self.reason = reason


class EventLogError(LumatraceError):
    """An event log line is not what the log format says; `line` is 1-based."""

    def __init__(self, path: str, line: int | None, reason: str):
        super().__init__(path, f"line {line}: {reason}" if line is not None else reason)
        self.line = line
        self.reason = reason


class HTTPError(LumatraceError):
    """A recording named by an `http(s)://` URL could not be read: the server's answers, or the
    connection, failed (`problem`), for good or after `attempts` tries. `path` is the URL as
    messages show it: without its password and query."""

    def __init__(self, url: str, problem: str, attempts: int | None = None):
        super().__init__(url, problem + (f" (gave up after {attempts} attempts)" if attempts else ""))
        self.problem = problem
        self.attempts = attempts
