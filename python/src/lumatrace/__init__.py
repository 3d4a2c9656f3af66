"""Lumatrace from Python: recordings as numpy frames, event logs as pandas tables, analyzers in a
few lines.

    import lumatrace
    rec = lumatrace.open("clip.luma")          # frames: rec[i], rec[a:b], iteration, rec.times
    rec = lumatrace.open("https://host/clip.luma")   # the same, by HTTP range requests
    events = lumatrace.read_events("clip.events.jsonl")   # one pandas DataFrame (a URL too)

numpy and zstandard (for the chunks' compression), with the frames rebuilt by a C extension built
at install (numpy when there is no compiler); no Swift toolchain needed.
"""
from .errors import (DamagedChunkError, EventLogError, HTTPError, InvalidHeaderError, LumatraceError, MissingFramesError,
                     NotARecordingError, UnsupportedVersionError)
from .recording import Damage, FrameTimes, Recording, RecordingInfo, open

__version__ = "0.1.0"


def read_events(path, by_kind: bool = False, partial: bool = False, recording=None):
    """Reads an event log into pandas (see `lumatrace.events.read_events`)."""
    from .events import read_events as _read
    return _read(path, by_kind=by_kind, partial=partial, recording=recording)


__all__ = ["open", "Recording", "RecordingInfo", "FrameTimes", "Damage", "read_events",
           "LumatraceError", "NotARecordingError", "UnsupportedVersionError", "InvalidHeaderError",
           "DamagedChunkError", "MissingFramesError", "EventLogError", "HTTPError"]
