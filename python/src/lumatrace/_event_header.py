"""An event log's first line, checked as the Swift reader (`EventLogHeader.init(json:)`) checks it.

    facts = read_header(value, path)   # raises EventLogError naming line 1
    facts.first_frame, facts.last_frame, facts.shapes

Every field the Swift reader needs is checked here with its rules and words: the format and its
version, the recording's file name (a name beside the log, never a path), frame size and timescale,
the replayed frames (at most 2^40), and each analyzer's name, region of interest, version,
spacing, configuration, declared event kinds (`{"kind","version","shape"}` with a known shape or
none) and program files. A header that passes is one `lumatrace` reads too.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ._json import compact, int_value, member, number_value
from .errors import EventLogError

FORMAT = "lumatrace.events"
#: The format versions read (as the Swift `EventLogHeader.readableVersions`).
READABLE_VERSIONS = (1, 2)
#: The most frames a log may say a recording has, and the largest frame index it may name.
MAXIMUM_FRAMES = 1 << 40
#: The event shapes a header may declare (the Swift `EventShape`).
SHAPES = ("pathEnd", "pathUpdate", "box", "boxLost", "boxRecovered", "quadrilateral", "blobs")
_INT_MAX = (1 << 63) - 1


@dataclass(frozen=True)
class LogHeader:
    """What a checked header says: the format version, the frames replayed (`last_frame` None
    for a version-2 replay to the recording's end, which only the footer knows), and the shape
    each analyzer declares for each kind it emits: (analyzer, kind) -> shape name or None."""
    version: int
    width: int
    height: int
    first_frame: int
    last_frame: int | None
    shapes: dict = field(default_factory=dict)

    @property
    def replays_to_end(self) -> bool:
        return self.last_frame is None


def read_header(value, path: str) -> LogHeader:
    """The facts of a header line's JSON value; `EventLogError` at line 1 for what `lumatrace`
    refuses."""

    def refuse(reason: str):
        return EventLogError(path, 1, reason)

    def need(v, what: str):
        if v is None:
            raise refuse(f"header has no valid {what}")
        return v

    def need_int(v, what: str, least: int, most: int = MAXIMUM_FRAMES) -> int:
        n = need(int_value(v), what)
        if n < least:
            raise refuse(f"header has {what} {n}, expected at least {least}")
        if n > most:
            raise refuse(f"header has {what} {n}, more than any recording holds (at most {most})")
        return n

    def string(v):
        return v if isinstance(v, str) else None

    if member(value, "format") != FORMAT:
        raise refuse(f'not a Lumatrace event log (the first line has no "format":"{FORMAT}")')
    version = need(int_value(member(value, "version")), "version")
    if version not in READABLE_VERSIONS:
        raise refuse(f"event log format version {version} is not supported (this reader reads versions "
                     f"{READABLE_VERSIONS[0]} to {READABLE_VERSIONS[-1]}): upgrade the lumatrace package")
    recording = need(member(value, "recording"), "recording")
    file = need(string(member(recording, "file")), "recording.file")
    if not file or "/" in file or file in (".", "..") or "\0" in file:
        raise refuse(f"recording.file {compact(file)} is not a file name: a log names its recording by a file "
                      f"name beside the log, never a path")
    frame_count = None
    if version == 1:
        need_int(member(recording, "bytes"), "recording.bytes", 0, _INT_MAX)
        need(string(member(recording, "sha256")), "recording.sha256")
        frame_count = need_int(member(recording, "frames"), "recording.frames", 0)
    width = need_int(member(recording, "width"), "recording.width", 1, 65536)
    height = need_int(member(recording, "height"), "recording.height", 1, 65536)
    need_int(member(recording, "timescale"), "recording.timescale", 1, _INT_MAX)
    need(string(member(member(value, "engine"), "version")), "engine.version")
    replay = need(member(value, "replay"), "replay")
    first = need_int(member(replay, "from"), "replay.from", 0)
    last = None
    if version == 1 or member(replay, "to") is not None:
        last = need_int(member(replay, "to"), "replay.to", first)
    if version == 1 and last >= frame_count:
        raise refuse(f"header has replay.to {last}, past the recording's {frame_count} frames")
    if not isinstance(member(replay, "skipDamaged"), bool):
        raise refuse("header has no valid replay.skipDamaged")
    declared = {}
    analyzers = member(value, "analyzers")
    for analyzer in need(analyzers if isinstance(analyzers, list) else None, "analyzers"):
        name = need(string(member(analyzer, "name")), "analyzer name")
        region = member(analyzer, "regionOfInterest")
        region = need([n for n in region if number_value(n) is not None] if isinstance(region, list) else None,
                      f"{name}.regionOfInterest")
        if len(region) != 4:
            raise refuse(f"header has an invalid {name}.regionOfInterest")
        if isinstance(analyzer, dict) and "analyzer" in analyzer:
            need(string(analyzer["analyzer"]), f"{name}.analyzer")
        need(string(member(analyzer, "version")), f"{name}.version")
        need(number_value(member(analyzer, "frameAnalysisSpacing")), f"{name}.frameAnalysisSpacing")
        if not isinstance(analyzer, dict) or "configuration" not in analyzer:
            raise refuse(f"header has no valid {name}.configuration")
        events = member(analyzer, "events")
        kinds = {}
        for entry in events if isinstance(events, list) else []:
            kind, shape = _schema(entry)
            if kind is None:
                raise refuse(f"header has an invalid {name}.events entry {compact(entry)}: "
                             f'expected {{"kind":…,"version":…,"shape":…}}')
            kinds.setdefault(kind, shape)
        if kinds:  # as the Swift `EventShapes`: a later analyzer of the same name declares for it
            declared[name] = kinds
        files = member(analyzer, "programFiles")
        for program in files if isinstance(files, list) else []:
            need(string(member(program, "path")), f"{name}.programFiles path")
            need(string(member(program, "sha256")), f"{name}.programFiles sha256")
    shapes = {(name, kind): shape for name, kinds in declared.items() for kind, shape in kinds.items()}
    return LogHeader(version, width, height, first, last, shapes)


def _schema(entry) -> tuple:
    """(kind, shape) of a declared event kind, or (None, None) when it is not one (the Swift
    `EventSchema(json:)`): a kind that is a non-empty string, an integer version, and a shape that
    is absent, null or a known shape's name."""
    kind = member(entry, "kind")
    if not isinstance(kind, str) or not kind or int_value(member(entry, "version")) is None:
        return None, None
    shape = member(entry, "shape")
    if shape is not None and shape not in SHAPES:
        return None, None
    return kind, shape
