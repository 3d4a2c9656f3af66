"""A `.luma` recording as a sequence of numpy frames.

    rec = lumatrace.open("clip.luma")
    len(rec)            # frames
    rec[0]              # (height, width) uint8
    rec[10:20]          # (10, height, width) uint8
    rec[[1, 5, 7]]      # (3, height, width) uint8
    rec.times.seconds   # float64 per frame; rec.times.ticks are exact
    rec.frame_at(2.5)   # the frame on screen 2.5 s into the recording
    for frame in rec:   # memory bounded by one chunk's payload and two frames
        ...

Opening reads the header, the reference frame and the index (or, for a file that was never
closed or whose index is damaged, scans its records). A frame costs at most one chunk's
decompression: the last chunk's payload is kept with the last frame rebuilt from it, so reading
frames in order decompresses each chunk once and rebuilds each frame once, and memory stays the
payload and two frames (`ChunkFrames`), however many frames a chunk holds; a chunk of one frame lets
its payload go once the frame is rebuilt.
"""
from __future__ import annotations

import hashlib
import os
import struct
import warnings
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import zstandard

from . import _records as rec_
from ._http import HTTPByteSource, is_url
from ._payload import ChunkFrames, PayloadDamage
from ._payload import decoder as choose_decoder
from ._records import FROM_REFERENCE, ByteSource, ChunkInfo, Header, HeaderProblem, RecordProblem
from .errors import (DamagedChunkError, InvalidHeaderError, MissingFramesError,
                     NotARecordingError, UnsupportedVersionError)

__all__ = ["Recording", "RecordingInfo", "Damage", "FrameTimes", "open"]


@dataclass(frozen=True)
class Damage:
    """Damage found in a recording: frames that cannot be read (`frames` is a `range`, or None
    when nothing says how many frames were lost), where in the file, and why."""
    chunk: int | None
    frames: range | None
    bytes: range
    reason: str

    def __str__(self) -> str:
        s = f"chunk {self.chunk} " if self.chunk is not None else ""
        if self.frames is not None:
            s += "(no whole frames) " if len(self.frames) == 0 else f"(frames {self.frames.start}...{self.frames.stop - 1}) "
        return s + f"at bytes {self.bytes.start}..<{self.bytes.stop}: {self.reason}"


#: The reference a chunk is checked with by `verify`: the reference decodes, its pixels are not kept.
_CHECKED = np.zeros((0, 0), dtype=np.uint8)


@dataclass(frozen=True)
class RecordingInfo:
    """What a recording is, read from its header and index without decoding a frame."""
    path: str
    format_version: int
    width: int
    height: int
    timescale: int
    #: The nominal frame rate (informational: timing comes from each frame's timestamp); 0 unknown.
    nominal_frame_rate: Fraction
    metadata: dict
    frame_count: int
    readable_frame_count: int
    chunks: tuple
    has_index: bool
    file_size: int
    #: Damage found while opening (payload damage shows when a chunk is decoded: `verify()`).
    damage: tuple = field(default=())

    @property
    def frame_size(self) -> int:
        return self.width * self.height


class FrameTimes:
    """Every frame's timestamp: exact `ticks` (int64) of `timescale` per second, and `seconds`
    (float64). Frames lost to damage have no time: `ticks` holds only the readable frames'
    times, and `frames` says which frame each belongs to."""

    def __init__(self, frames: np.ndarray, ticks: np.ndarray, timescale: int):
        self.frames = frames
        self.ticks = ticks
        self.timescale = timescale
        self.seconds = ticks / float(timescale)

    def __len__(self) -> int:
        return len(self.ticks)

    def __repr__(self) -> str:
        return f"FrameTimes({len(self)} frames, timescale {self.timescale})"


class Recording:
    """A `.luma` recording, opened for reading. Use `lumatrace.open(path)` (a path, or an
    `http(s)://` URL read by range requests; `path` is then the URL without its secrets).

    Frames are `(height, width)` uint8 arrays, top row first. Indexing accepts ints (negative
    counts from the end) and slices; a frame of a damaged chunk raises `DamagedChunkError` naming
    the chunk and its frames. With `skip_damaged=True`, iteration skips damaged chunks instead and
    lists each gap in `skipped` (a `Damage`), with a warning.

    A single frame (`rec[i]`, iteration) is read-only: it is the reader's own, kept to rebuild the
    next one from. To draw on it (`cv2.rectangle(frame, ...)`, which otherwise fails on a read-only
    array), ask for a copy: `rec.frame(i, writable=True)`. Stacks (`rec[a:b]`, `rec[[i, j]]`) are
    new arrays, writable already.

    As a video reader would: `shape` (frames, height, width), `dtype` (uint8), `width`, `height`
    and `fps`, the nominal rate (see `fps`: timing comes from each frame's own timestamp).
    """

    def __init__(self, path: str, skip_damaged: bool = False, report=None, decoder: str | None = None):
        #: The decode path, `"c"` (compiled) or `"numpy"` (`lumatrace._payload.decoder`).
        self.decoder = choose_decoder(decoder)
        location = os.fspath(path)
        self._src = HTTPByteSource(location, report=report) if is_url(location) else ByteSource(location)
        #: The file's path, or the URL as messages show it (without its password and query).
        self.path = self._src.name if is_url(location) else location
        self.skip_damaged = skip_damaged
        self.skipped: list[Damage] = []
        self._zstd = zstandard.ZstdDecompressor()
        #: The chunk decoded last, with its frame times.
        self._cached: tuple[ChunkFrames, list] | None = None
        self._times: FrameTimes | None = None
        try:
            self._open()
        except BaseException:
            self._src.close()
            raise

    # MARK: - Opening

    def _open(self) -> None:
        """Reads the header (or its copy), and when the one at byte 0 and its copy disagree,
        believes the one whose size and version decode the first chunk (as the Swift reader)."""
        primary = self._read_header()
        disagreement = None
        if primary[1]["copy"] is None:
            copy = self._disagreeing_copy(primary)
            if copy is not None:
                disagreement = copy[1]["copy"]
                self._load(primary, disagreement)
                if not self._first_chunk_decodes():
                    try:
                        self._load(copy, disagreement)
                        if self._first_chunk_decodes():
                            return
                    except Exception:
                        pass
                    self._load(primary, disagreement)
                return
        self._load(primary, disagreement)

    def _read_header(self):
        src, path = self._src, self.path
        head = src.read(0, min(src.size, 64))
        failure: Exception
        if head[:4] == rec_.HEADER:
            try:
                r = rec_.read_record(src, 0)
                if r.payload_length != 0:
                    failure = InvalidHeaderError(path, "the header record declares a payload")
                else:
                    return rec_.parse_header(r.fields), {"fields": r.fields, "end": r.end, "copy": None}
            except RecordProblem as e:
                failure = InvalidHeaderError(path, e.reason)
            except HeaderProblem as e:
                if e.unsupported_version is not None:
                    failure = UnsupportedVersionError(path, e.unsupported_version)
                else:
                    failure = InvalidHeaderError(path, e.reason)
        else:
            kind = _sniff(head)
            if kind is not None:
                raise NotARecordingError(path, kind)
            failure = NotARecordingError(path, "its first bytes are " + " ".join(f"{b:x}" for b in head[:8]))
        found = {}

        def accept(r):
            found["header"] = _header_copy(r)
            return found["header"] is not None

        copy = rec_.search_next(src, 0, (rec_.HEADER,), before=rec_.HEADER_COPY_SEARCH_LIMIT, accept=accept)
        if copy is None:
            raise failure
        return found["header"], {"fields": copy.fields, "end": copy.end - copy.offset, "copy": copy.offset}

    def _disagreeing_copy(self, primary):
        """The header copy after the first chunk (version 2 and later), when intact and different."""
        header, meta = primary
        src = self._src
        _, end = self._read_references(meta["end"], src.size)
        chunk = rec_.try_record(src, end)
        if chunk is None or chunk.kind != rec_.CHUNK:
            return None
        copy = rec_.try_record(src, chunk.end)
        if copy is None or copy.kind != rec_.HEADER or copy.fields == meta["fields"]:
            return None
        parsed = _header_copy(copy)
        return None if parsed is None else (parsed, {"fields": copy.fields, "end": meta["end"], "copy": copy.offset})

    def _load(self, chosen, disagreement) -> None:
        header, meta = chosen
        src, path = self._src, self.path
        self.header: Header = header
        self._cached = None
        self._times = None
        damage: list[Damage] = []
        if disagreement is not None:
            believed = ("the one at byte 0 decodes the chunks" if meta["copy"] is None
                        else "its copy decodes the chunks and was used")
            damage.append(Damage(None, range(0), range(0, meta["end"]),
                                 f"the file header at byte 0 and its copy at byte {disagreement} disagree; {believed}"))
        elif meta["copy"] is not None:
            damage.append(Damage(None, range(0), range(0, meta["end"]),
                                 f"the file header is damaged; it was read from its copy at byte {meta['copy']}"))
        index = None
        index_offset = rec_.trailer_index_offset(src)
        if index_offset is not None:
            index = self._read_index(index_offset, meta["end"])
        limit = index_offset if index is not None else src.size
        references, chunks_start = self._read_references(meta["end"], limit)
        scanned_refs = []
        if index is not None:
            chunks = index.chunks
            self._indexed_digest = index.frames_digest
            expected = 0
            for c in chunks:
                if c.first_frame > expected:
                    damage.append(Damage(None, range(expected, c.first_frame), range(c.offset, c.offset),
                                         "frames missing from the index (removed as damaged by `lumatrace recover`)"))
                expected = c.first_frame + c.frame_count
        else:
            chunks, scan_damage, scanned_refs = self._scan(chunks_start)
            damage += scan_damage
            self._indexed_digest = None
        if chunks:
            references += self._read_references(chunks[0].record_end, limit)[0]
        # The reference frame is decoded when a chunk first needs it (`_reference_frame`): a frame's
        # worth of memory that opening a file of huge frames does not spend.
        self._reference_records = references + scanned_refs
        self._reference: np.ndarray | None = None
        self._reference_read = False
        self._reference_checked: bool | None = None
        self._chunks: list[ChunkInfo] = list(chunks)
        self._firsts = np.array([c.first_frame for c in chunks], dtype=np.int64)
        self.info = RecordingInfo(
            path=path, format_version=header.version, width=header.width, height=header.height,
            timescale=header.timescale,
            nominal_frame_rate=Fraction(header.rate_numerator, header.rate_denominator) if header.rate_denominator else Fraction(0),
            metadata=dict(header.metadata),
            frame_count=(chunks[-1].first_frame + chunks[-1].frame_count) if chunks else 0,
            readable_frame_count=sum(c.frame_count for c in chunks),
            chunks=tuple(chunks), has_index=index is not None, file_size=src.size, damage=tuple(damage))

    def _read_index(self, offset: int, start: int):
        src = self._src
        if src.size < start + rec_.TRAILER_SIZE or offset < start:
            return None
        r = rec_.try_record(src, offset)
        if r is None or r.kind != rec_.INDEX or r.end != src.size - rec_.TRAILER_SIZE:
            return None
        index = rec_.parse_index(r.fields, src.size)
        if index is None:
            return None
        for entry in {id(e): e for e in (index.chunks[:1] + index.chunks[-1:])}.values():
            c = rec_.try_record(src, entry.offset) if entry.offset >= start else None
            if c is None or c.kind != rec_.CHUNK or c.payload_length != entry.payload_length:
                return None
            try:
                f = rec_.parse_chunk_fields(c.fields, self.header)
            except rec_.FieldError:
                return None
            if f.first_frame != entry.first_frame or len(f.ticks) != entry.frame_count:
                return None
        return index

    def _read_references(self, offset: int, limit: int):
        """Reads the run of header and reference records at `offset`; returns its reference
        records, in order, and the offset past the run."""
        position, found = offset, []
        while True:
            r = rec_.try_record(self._src, position)
            if r is None or not (r.kind == rec_.REFERENCE or (r.kind == rec_.HEADER and position > 0)) or r.end > limit:
                break
            position = r.end
            if r.kind == rec_.REFERENCE:
                found.append(r)
        return found, position

    def _reference_frame(self) -> np.ndarray | None:
        """The file's reference frame, from the first of its copies that decodes (None when none
        does), decoded once, when first needed."""
        if not self._reference_read:
            self._reference_read = True
            for r in self._reference_records:
                frame = self._decode_reference(r, self.header.frame_size)
                if frame is not None:
                    self._reference = frame.reshape(self.header.height, self.header.width)
                    break
        return self._reference

    def _reference_decodes(self) -> bool:
        """Whether a copy of the reference frame decodes, checked once without keeping the frame
        (unless it is kept already): `verify` needs no pixels."""
        if self._reference_read:
            return self._reference is not None
        if self._reference_checked is None:
            self._reference_checked = any(self._decode_reference(r, self.header.frame_size) is not None
                                          for r in self._reference_records)
        return self._reference_checked

    def _decode_reference(self, r, frame_size: int):
        if len(r.fields) < 12:
            return None
        (size,) = struct.unpack_from("<Q", r.fields, 4)
        if size != frame_size or frame_size == 0:
            return None
        try:
            data = self._decompress(self._src.read(r.payload_offset, r.payload_length), frame_size)
        except ValueError:
            return None
        return np.frombuffer(data, dtype=np.uint8)

    def _scan(self, start: int):
        """Every intact chunk of a file without a usable index, and what lies between them."""
        src = self._src
        chunks, damage, references = [], [], []
        position, next_frame, last_ticks = start, 0, None
        pending = None

        def close_damage(end, next_chunk):
            nonlocal pending
            if pending is None:
                return
            last_number = chunks[-1].number if chunks else -1
            chunk = last_number + 1 if next_chunk is not None and next_chunk.number == last_number + 2 else None
            frames = range(next_frame, max(next_frame, next_chunk.first_frame)) if next_chunk is not None else None
            damage.append(Damage(chunk, frames, range(pending[0], end), pending[1]))
            pending = None

        def next_candidate(after):
            r = rec_.search_next(src, after)
            return r.offset if r is not None else src.size

        while position < src.size:
            if src.size - position == rec_.TRAILER_SIZE and rec_.trailer_index_offset(src) is not None:
                break
            try:
                r = rec_.read_record(src, position)
            except RecordProblem as problem:
                if problem.end_of_file:
                    nxt = next_candidate(position)
                    if nxt >= src.size and pending is None:
                        damage.append(Damage((chunks[-1].number if chunks else -1) + 1, None, range(position, src.size),
                                             "incomplete chunk at the end of the file (recording was interrupted); earlier chunks are intact"))
                    elif pending is None:
                        pending = (position, "a record declares more bytes than the file holds")
                    position = nxt
                else:
                    if pending is None:
                        pending = (position, problem.reason)
                    position = next_candidate(position)
                continue
            if r.kind == rec_.CHUNK:
                try:
                    f = rec_.parse_chunk_fields(r.fields, self.header)
                except rec_.FieldError:
                    f = None
                if f is not None and f.first_frame >= next_frame and (last_ticks is None or f.ticks[0] > last_ticks) and r.payload_length > 0:
                    close_damage(r.offset, f)
                    chunks.append(ChunkInfo(f.number, r.offset, f.first_frame, len(f.ticks), f.ticks[0], f.ticks[-1], r.payload_length))
                    next_frame = f.first_frame + len(f.ticks)
                    last_ticks = f.ticks[-1]
                    position = r.end
                else:
                    if pending is None:
                        pending = (position, "a chunk header declares impossible frames or timestamps")
                    position = next_candidate(position)
            else:
                if r.kind == rec_.REFERENCE:
                    references.append(r)
                position = r.end
        close_damage(src.size, None)
        return chunks, damage, references

    def _first_chunk_decodes(self) -> bool:
        if not self._chunks:
            return False
        try:
            self._decode(self._chunks[0])
            return True
        except DamagedChunkError:
            return False

    # MARK: - Decoding

    def _decompress(self, payload: bytes, expected: int) -> bytes:
        if len(payload) < 6 or payload[:4] != b"\x28\xb5\x2f\xfd":
            raise ValueError("payload is not a zstd frame")
        if not payload[4] & 0x04:
            raise ValueError("payload has no content checksum")
        try:
            params = zstandard.get_frame_parameters(payload)
        except zstandard.ZstdError as e:
            raise ValueError(str(e)) from None
        if params.content_size != expected:
            unknown = params.content_size in (zstandard.CONTENTSIZE_UNKNOWN, zstandard.CONTENTSIZE_ERROR)
            raise ValueError("payload does not declare its size" if unknown else f"payload declares {params.content_size} bytes, expected {expected}")
        try:
            data = self._zstd.decompress(payload, max_output_size=expected)
        except zstandard.ZstdError as e:
            raise ValueError(str(e)) from None
        if len(data) != expected:
            raise ValueError(f"payload decoded to {len(data)} bytes, expected {expected}")
        return data

    def _damaged(self, c: ChunkInfo, reason: str) -> DamagedChunkError:
        return DamagedChunkError(self.path, c.number, c.frames, reason)

    def _chunk_fields(self, c: ChunkInfo):
        try:
            r = rec_.read_record(self._src, c.offset)
        except RecordProblem as e:
            raise self._damaged(c, e.reason) from None
        if r.kind != rec_.CHUNK:
            raise self._damaged(c, f"expected a chunk record, found {r.kind.decode('latin-1')}")
        try:
            f = rec_.parse_chunk_fields(r.fields, self.header)
        except rec_.FieldError as e:
            raise self._damaged(c, e.reason) from None
        if f.first_frame != c.first_frame or len(f.ticks) != c.frame_count:
            raise self._damaged(c, f"chunk header says frames {f.first_frame}..<{f.first_frame + len(f.ticks)}, the index says {c.frames.start}..<{c.frames.stop}")
        return f

    def _decode(self, c: ChunkInfo, check_only: bool = False) -> tuple[ChunkFrames, list]:
        """(frames, ticks) of one chunk, checked (its frames are rebuilt when asked for:
        `ChunkFrames`); raises DamagedChunkError. `check_only` checks the chunk without keeping it
        or the reference frame (`verify`): the chunk's frames cannot be rebuilt from what it returns."""
        if self._cached is not None and self._cached[0].number == c.number:
            return self._cached
        self._cached = None  # the chunk before (its payload, its last frame) is let go first
        f = self._chunk_fields(c)
        reference = None
        if FROM_REFERENCE in f.codings:  # decoded before the payload: never both at once for a check
            reference = (_CHECKED if self._reference_decodes() else None) if check_only else self._reference_frame()
        if c.payload_length > self._src.size:
            raise self._damaged(c, "payload length is larger than the file")
        try:
            raw = self._decompress(self._src.read(c.payload_offset, c.payload_length), f.raw_length)
        except ValueError as e:
            raise self._damaged(c, f"payload: {e}") from None
        h = self.header
        try:
            frames = ChunkFrames(c.number, np.frombuffer(raw, dtype=np.uint8), h.version, h.width, h.height,
                                 f.codings, f.whole, reference, c.first_frame, compiled=self.decoder == "c")
        except PayloadDamage as e:
            raise self._damaged(c, f"payload: {e}") from None
        except LookupError as e:
            raise self._damaged(c, str(e)) from None
        if check_only:
            return frames, f.ticks
        self._cached = (frames, f.ticks)
        return self._cached

    def _chunk_of(self, frame: int) -> ChunkInfo | None:
        k = int(np.searchsorted(self._firsts, frame, side="right")) - 1
        if k >= 0 and frame in self._chunks[k].frames:
            return self._chunks[k]
        return None

    # MARK: - Frames

    def __len__(self) -> int:
        return self.info.frame_count

    @property
    def width(self) -> int:
        """Pixels a row."""
        return self.info.width

    @property
    def height(self) -> int:
        """Rows a frame."""
        return self.info.height

    @property
    def shape(self) -> tuple[int, int, int]:
        """`(frames, height, width)`: the shape of every frame stacked (`rec[:]`), frames lost to
        damage counted."""
        return (len(self), self.info.height, self.info.width)

    @property
    def dtype(self) -> np.dtype:
        """Every frame's element type: `uint8`, one luma byte a pixel."""
        return np.dtype(np.uint8)

    @property
    def fps(self) -> float:
        """The nominal frame rate, frames a second, as the recording's header names it (what
        `lumatrace info` prints as "nominal 179/6 = 29.833 fps"; `info.nominal_frame_rate` is the
        exact fraction); 0.0 when it names none, as `cv2.CAP_PROP_FPS`. Informational only: each
        frame keeps its own timestamp (`times`), and a recording of a camera or of a variable-rate
        video need not be evenly spaced, so compute a time as `rec.times.seconds[i]`, never as
        `i / rec.fps`."""
        return float(self.info.nominal_frame_rate)

    def frame(self, index: int, writable: bool = False) -> np.ndarray:
        """Frame `index` (0-based; negative counts from the end) as a `(height, width)` uint8
        array: read-only (the reader's own, no copy made), or with `writable=True` a copy of its
        own that can be drawn on (`cv2.rectangle`, `cv2.polylines`)."""
        n = len(self)
        if not isinstance(index, (int, np.integer)):
            raise TypeError(f"frame indices are integers, not {type(index).__name__}")
        i = int(index) + n if index < 0 else int(index)
        if not 0 <= i < n:
            raise IndexError(f"{self.path}: frame {index} is out of range (the recording has {n} frames, 0...{max(n - 1, 0)})")
        c = self._chunk_of(i)
        if c is None:
            raise MissingFramesError(self.path, range(i, i + 1), "it lay in a damaged chunk")
        frames, _ = self._decode(c)
        pixels = frames.frame(i - c.first_frame)
        return pixels.copy() if writable else pixels

    def __getitem__(self, key):
        """`rec[i]` one frame; `rec[a:b:s]` and `rec[[i, j, ...]]` (a list, a tuple, a `range` or an
        integer array, negative from the end) the frames stacked into a new `(n, height, width)` array, decoded
        in file order so each chunk is decompressed once."""
        if isinstance(key, slice):
            return self._stack(range(*key.indices(len(self))))
        if isinstance(key, (list, tuple, range, np.ndarray)):
            indices = np.asarray(key)
            if indices.ndim != 1 or not (indices.dtype.kind in "iu" or len(indices) == 0):
                raise TypeError(f"frames are chosen by a list of integers, not {indices.dtype} of shape {indices.shape}")
            return self._stack([int(i) for i in indices])
        return self.frame(key)

    def _stack(self, indices) -> np.ndarray:
        out = np.empty((len(indices), self.header.height, self.header.width), dtype=np.uint8)
        n = len(self)
        for j in sorted(range(len(indices)), key=lambda j: indices[j] + n if indices[j] < 0 else indices[j]):
            out[j] = self.frame(indices[j])
        return out

    def __iter__(self):
        """Frames in order, one chunk decoded at a time. A frame is not held here once the next is
        asked for: a caller that keeps no frame (`map(f, rec)`) holds one at a time."""
        for _, _, frame in self.frames():
            yield frame
            del frame

    def frames(self, start: int = 0, stop: int | None = None):
        """Yields `(index, ticks, frame)` for frames `start..<stop` in order, one chunk decoded at a
        time. A damaged chunk raises `DamagedChunkError`, or with `skip_damaged` is skipped and
        listed in `skipped`."""
        stop = len(self) if stop is None else min(stop, len(self))
        expected = start
        for c in self._chunks:
            if c.first_frame + c.frame_count <= start or c.first_frame >= stop:
                continue
            if c.first_frame > expected:
                self._gap(Damage(None, range(expected, c.first_frame), range(c.offset, c.offset), "frames not in the recording"),
                          MissingFramesError(self.path, range(expected, c.first_frame), "they lay in a damaged chunk"))
            try:
                frames, ticks = self._decode(c)
            except DamagedChunkError as e:
                self._gap(Damage(c.number, c.frames, range(c.offset, c.record_end), e.reason), e)
                expected = c.first_frame + c.frame_count
                continue
            for k in range(max(start, c.first_frame) - c.first_frame, min(stop, c.first_frame + c.frame_count) - c.first_frame):
                yield c.first_frame + k, ticks[k], frames.frame(k)
            frames = None  # held no longer than the reader holds it
            expected = c.first_frame + c.frame_count

    def _gap(self, damage: Damage, error: Exception) -> None:
        if not self.skip_damaged:
            raise error
        self.skipped.append(damage)
        warnings.warn(f"{self.path}: skipped {damage}", stacklevel=3)

    @property
    def times(self) -> FrameTimes:
        """Every readable frame's timestamp (read from the chunks' frame tables, not decoded)."""
        if self._times is None:
            frames, ticks = [], []
            for c in self._chunks:
                try:
                    f = self._chunk_fields(c)
                except DamagedChunkError:
                    if not self.skip_damaged:
                        raise
                    continue
                frames.extend(c.frames)
                ticks.extend(f.ticks)
            self._times = FrameTimes(np.array(frames, dtype=np.int64), np.array(ticks, dtype=np.int64), self.header.timescale)
        return self._times

    def index_at(self, seconds: float | None = None, *, ticks: int | None = None) -> int:
        """The frame on screen at a time: the last frame whose timestamp is at or before it.
        Give `seconds` (float) or exact `ticks`."""
        if (seconds is None) == (ticks is None):
            raise TypeError("index_at takes seconds or ticks=, one of them")
        t = self.times
        if ticks is None:
            target = Fraction(seconds) * self.header.timescale
            k = int(np.searchsorted(t.ticks, int(np.floor(target)), side="right")) - 1
        else:
            k = int(np.searchsorted(t.ticks, ticks, side="right")) - 1
        if k < 0:
            first = t.seconds[0] if len(t) else float("nan")
            when = f"{seconds} s" if ticks is None else f"{ticks} ticks"
            raise IndexError(f"{self.path}: no frame is on screen at {when} (the first frame is at {first:.6f} s)")
        return int(t.frames[k])

    def frame_at(self, seconds: float | None = None, *, ticks: int | None = None, writable: bool = False) -> np.ndarray:
        """The frame on screen at a time (see `index_at`); a copy of its own with `writable=True`."""
        return self.frame(self.index_at(seconds, ticks=ticks), writable=writable)

    def verify(self) -> list[Damage]:
        """Decodes every chunk; returns all damage (found while opening, and payloads that fail).
        Memory is one chunk's payload or the reference frame at a time: neither is kept."""
        found = list(self.info.damage)
        for c in self._chunks:
            try:
                self._decode(c, check_only=True)
            except DamagedChunkError as e:
                found.append(Damage(c.number, c.frames, range(c.offset, c.offset + c.payload_length), str(e)))
        if self._chunks and not self._reference_decodes():
            found.append(Damage(None, None, range(0), "both copies of the reference frame are damaged"))
        return found

    def frames_digest(self) -> str:
        """SHA-256 (hex) of every frame's timestamp (i64 little-endian) and pixels, in order: the
        frames digest `lumatrace info` prints. From the index when the file has one, otherwise
        computed by decoding every frame."""
        if self._indexed_digest is not None:
            return self._indexed_digest.hex()
        return self.computed_frames_digest()

    def computed_frames_digest(self) -> str:
        """The frames digest computed from the decoded frames (never from the index)."""
        h = hashlib.sha256()
        for _, ticks, frame in self.frames():
            h.update(struct.pack("<q", ticks))
            h.update(frame)  # the frame's own bytes (C-contiguous), not a copy
            del frame  # one frame at a time: let it go before the next is decoded
        return h.hexdigest()

    def close(self) -> None:
        self._src.close()
        self._cached = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self) -> str:
        i = self.info
        return (f"<lumatrace.Recording {i.path!r}: {i.frame_count} frames {i.width}x{i.height}, "
                f"format version {i.format_version}, {len(i.chunks)} chunks>")


def open(path, skip_damaged: bool = False, report=None, decoder: str | None = None) -> Recording:  # noqa: A001 - as io.open
    """Opens a `.luma` recording for reading (see `Recording`): a file's path, or an `http://` or
    `https://` URL read by range requests (`lumatrace._http`: the bytes asked for only, checked,
    retried; `HTTPError` when the server fails). `report(message)` hears of every retry.
    `decoder` is `"auto"` (the compiled path when built), `"c"` or `"numpy"` (default: the
    `LUMATRACE_DECODER` variable, else auto)."""
    return Recording(path, skip_damaged=skip_damaged, report=report, decoder=decoder)


def _header_copy(r) -> Header | None:
    """The header a record holds if it can be a copy of one: no payload, intact fields, and a
    version that writes copies (2 and later)."""
    if r.kind != rec_.HEADER or r.payload_length != 0:
        return None
    try:
        header = rec_.parse_header(r.fields)
    except HeaderProblem:
        return None
    return header if header.version >= 2 else None


# What a file that is not a recording looks like, and how to record it: this mirrors Swift's
# sniffing, whose source of truth is `FileKindSniffer.kind(head:)` and `FileKind.description`
# (Sources/LumaOutput/FileKindSniffer.swift, FileKind.swift), with the hints of the command line's
# `FlagHints.recordHint(for:)` (Sources/LumatraceCLI/Support/FlagHints.swift). One row a kind, in
# the order Swift tests them: (does the head match, the kind's words, the hint with its joint, or "").
_RECORD_VIDEO = ": record it first with `lumatrace record VIDEO -o OUT.luma`"
_RECORD_FOLDER = "; a folder of images is recorded with `lumatrace record FOLDER -o OUT.luma`"
_FILE_KINDS = (
    (lambda h: h[4:8] == b"ftyp", "it looks like an MP4/MOV video", _RECORD_VIDEO),
    (lambda h: h[:4] == b"RIFF" and h[8:12] == b"AVI ", "it looks like an AVI video", _RECORD_VIDEO),
    (lambda h: h[:4] == b"\x1a\x45\xdf\xa3", "it looks like a Matroska/WebM video", _RECORD_VIDEO),
    (lambda h: h[:4] == b"GIF8", "it looks like a GIF", ": record it first with `lumatrace record FILE.gif -o OUT.luma`"),
    (lambda h: h[:9] == b"YUV4MPEG2", "it looks like a Y4M video stream",
     ": record it first with `lumatrace record FILE.y4m -o OUT.luma`"),
    (lambda h: h[:4] == b"\x89PNG", "it looks like a PNG image", _RECORD_FOLDER),
    (lambda h: h[:3] == b"\xff\xd8\xff", "it looks like a JPEG image", _RECORD_FOLDER),
    (lambda h: h[:2] in (b"P5", b"P2"), "it looks like a PGM image", ""),
    (lambda h: h.startswith(b'{"format":"lumatrace.events"'), "it looks like a Lumatrace event log", ""),
    (lambda h: h[:1] == b"{", "it looks like JSON text", ""),
)


def _sniff(head: bytes) -> str | None:
    """What a file is when recognizably something else than a recording, with how to record it
    (the words of the Swift reader and command line: see `_FILE_KINDS`)."""
    if not head:
        return "the file is empty"
    for matches, words, hint in _FILE_KINDS:
        if matches(head):
            return words + hint
    if all(b in (9, 10, 13) or 32 <= b < 127 for b in head[:32]):
        return f"it looks like a text file starting '{head[:24].decode('ascii')}'"
    return None
