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



def _version() -> str:
    """The installed package's version (Lumatrace's, which setup.py read from the one place it is
    written); from a checkout's source tree without an install, that place itself."""
    from importlib import metadata
    try:
        return metadata.version("lumatrace")
    except metadata.PackageNotFoundError:
        import re
        from pathlib import Path
        swift = Path(__file__).resolve().parents[3] / "Sources" / "LumaEngine" / "LumatraceVersion.swift"
        found = re.search(r'engine = "([0-9.]+)"', swift.read_text()) if swift.is_file() else None
        return found.group(1) if found else "0+unknown"


__version__ = _version()


def read_events(path, by_kind: bool = False, partial: bool = False, recording=None):
    """Reads an event log into pandas (see `lumatrace.events.read_events`)."""
    from .events import read_events as _read
    return _read(path, by_kind=by_kind, partial=partial, recording=recording)


__all__ = ["open", "Recording", "RecordingInfo", "FrameTimes", "Damage", "read_events",
           "LumatraceError", "NotARecordingError", "UnsupportedVersionError", "InvalidHeaderError",
           "DamagedChunkError", "MissingFramesError", "EventLogError", "HTTPError"]
