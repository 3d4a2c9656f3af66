"""The records of a `.luma` file, read and checked before they are believed.

Every record shares one envelope (docs/recording-format.md):

    magic 4 bytes · fieldsLength u32 · payloadLength u64 · fields · crc u32 (CRC-32 of all before) · payload

A closed file ends with a 20-byte trailer pointing at the index record. Every length a file
declares is checked against the file's size and the format's limits before anything is read or
allocated, so a hostile file costs bounded reads and memory.
"""
from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass, field

HEADER, REFERENCE, CHUNK, INDEX = b"LUMA", b"LREF", b"LCHK", b"LIDX"
KINDS = (HEADER, REFERENCE, CHUNK, INDEX)
PREFIX_SIZE = 16
CRC_SIZE = 4
MAXIMUM_FIELDS_LENGTH = 64 << 20
TRAILER_SIZE = 20
MAXIMUM_DIMENSION = 16384
MAXIMUM_METADATA_ENTRIES = 256
MAXIMUM_METADATA_STRING = 65536
MAXIMUM_CHUNK_FRAMES = 1 << 16
MAXIMUM_CHUNK_RAW_BYTES = 256 << 20
MAXIMUM_TICKS = 1 << 61
#: Furthest from byte 0 that a version-2 header copy can lie.
HEADER_COPY_SEARCH_LIMIT = 300 << 20
READABLE_VERSIONS = range(1, 4)
INDEX_ENTRY_SIZE = 44


class FieldError(Exception):
    """A read inside a record's fields failed: which offset, and why."""

    def __init__(self, offset: int, reason: str):
        super().__init__(reason)
        self.offset = offset
        self.reason = reason


class Fields:
    """Little-endian, bounds-checked reads of a record's fields."""

    def __init__(self, data: bytes, offset: int = 0):
        self.data = data
        self.offset = offset

    @property
    def remaining(self) -> int:
        return len(self.data) - self.offset

    def _unpack(self, fmt: str, size: int):
        if self.remaining < size:
            raise FieldError(self.offset, "field runs past the end of the record")
        (value,) = struct.unpack_from(fmt, self.data, self.offset)
        self.offset += size
        return value

    def u8(self) -> int: return self._unpack("<B", 1)
    def u16(self) -> int: return self._unpack("<H", 2)
    def u32(self) -> int: return self._unpack("<I", 4)
    def u64(self) -> int: return self._unpack("<Q", 8)
    def i64(self) -> int: return self._unpack("<q", 8)

    def raw(self, count: int) -> bytes:
        if count < 0 or count > self.remaining:
            raise FieldError(self.offset, "field runs past the end of the record")
        self.offset += count
        return self.data[self.offset - count:self.offset]

    def string(self, limit: int) -> str:
        length = self.u32()
        if length > limit:
            raise FieldError(self.offset - 4, f"string of {length} bytes is over the {limit}-byte limit")
        raw = self.raw(length)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise FieldError(self.offset - length, "string is not valid UTF-8") from None


class ByteSource:
    """Random-access reads of a file of known size (`os.pread`, so one source may serve several
    readers). Never reads past the size it was opened with."""

    def __init__(self, path: str):
        self.path = path
        self.fd = os.open(path, os.O_RDONLY)
        self.size = os.fstat(self.fd).st_size

    def read(self, offset: int, count: int) -> bytes:
        if offset < 0 or count < 0 or offset + count > self.size:
            raise OSError(f"read of {count} bytes at {offset} is past the end of the file ({self.size} bytes)")
        data = os.pread(self.fd, count, offset)
        while len(data) < count:  # pread may return short reads on some filesystems
            more = os.pread(self.fd, count - len(data), offset + len(data))
            if not more:
                raise OSError(f"the file ended at byte {offset + len(data)} while reading (it shrank while open?)")
            data += more
        return data

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


@dataclass
class Record:
    """A record whose envelope has been read and checked; its payload is still in the file."""
    kind: bytes
    offset: int
    fields: bytes
    payload_offset: int
    payload_length: int

    @property
    def end(self) -> int:
        return self.payload_offset + self.payload_length


class RecordProblem(Exception):
    """Why no intact record starts at an offset. `end_of_file` tells an interrupted write."""

    def __init__(self, reason: str, end_of_file: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.end_of_file = end_of_file


def chunk_fields_length(frame_count: int) -> int:
    """Bytes of the fields of a chunk of `frame_count` frames: 24 fixed, then 9 per frame."""
    return 24 + 9 * frame_count


def read_record(src: ByteSource, offset: int) -> Record:
    """Reads and checks the envelope of the record at `offset`; raises `RecordProblem`."""
    size = src.size
    if offset > size or size - offset < PREFIX_SIZE:
        raise RecordProblem(f"the file ends inside this record (it needs {PREFIX_SIZE - (size - min(offset, size))} more bytes)", True)
    prefix = src.read(offset, PREFIX_SIZE)
    kind = prefix[:4]
    if kind not in KINDS:
        raise RecordProblem("no record starts here")
    fields_length, payload_length = struct.unpack_from("<IQ", prefix, 4)
    if fields_length > MAXIMUM_FIELDS_LENGTH:
        raise RecordProblem(f"record declares {fields_length} bytes of fields (limit {MAXIMUM_FIELDS_LENGTH})")
    fields_end = offset + PREFIX_SIZE + fields_length + CRC_SIZE
    if fields_end > size:
        raise RecordProblem(f"the file ends inside this record (it needs {fields_end - size} more bytes)", True)
    if kind == CHUNK:
        # A chunk's fields length follows from its frame count: check it before reading them all.
        if fields_length < 24:
            raise RecordProblem("chunk fields are too short")
        (count,) = struct.unpack("<I", src.read(offset + PREFIX_SIZE + 12, 4))
        if not (1 <= count <= MAXIMUM_CHUNK_FRAMES) or fields_length != chunk_fields_length(count):
            raise RecordProblem(f"chunk fields length {fields_length} does not fit its frame count {count}")
    rest = src.read(offset + PREFIX_SIZE, fields_length + CRC_SIZE)
    fields = rest[:fields_length]
    (stored,) = struct.unpack_from("<I", rest, fields_length)
    if stored != zlib.crc32(prefix + fields):
        raise RecordProblem("the record header fails its CRC check")
    if payload_length > size - fields_end:
        raise RecordProblem(f"the file ends inside this record (it needs {payload_length - (size - fields_end)} more bytes)", True)
    return Record(kind, offset, fields, fields_end, payload_length)


def try_record(src: ByteSource, offset: int) -> Record | None:
    try:
        return read_record(src, offset)
    except RecordProblem:
        return None


def search_next(src: ByteSource, after: int, kinds=KINDS, before: int | None = None, accept=lambda r: True) -> Record | None:
    """The first intact record of one of `kinds` starting after `after` (and before `before`) for
    which `accept` holds. Reads in blocks that start at 4 KiB and double up to 1 MiB, so a hostile
    file packed with near-miss records costs bounded reads."""
    size = src.size
    end = min(size, before if before is not None else size)
    block = 4096
    offset = after + 1
    while offset < end:
        count = min(block + 3, size - offset)
        if count < 4:
            return None
        data = src.read(offset, count)
        candidates = sorted(i for magic in kinds for i in _find_all(data, magic) if offset + i < end)
        for i in candidates:
            r = try_record(src, offset + i)
            if r is not None and r.kind in kinds and accept(r):
                return r
        offset += block
        block = min(2 * block, 1 << 20)
    return None


def _find_all(data: bytes, magic: bytes):
    i = data.find(magic)
    while i >= 0:
        yield i
        i = data.find(magic, i + 1)


def trailer_index_offset(src: ByteSource) -> int | None:
    """Where the trailer says the index starts, or None without an intact trailer."""
    if src.size < TRAILER_SIZE:
        return None
    t = src.read(src.size - TRAILER_SIZE, TRAILER_SIZE)
    if t[:4] != b"LTRL" or t[16:] != b"LEND":
        return None
    offset, crc = struct.unpack_from("<QI", t, 4)
    return offset if crc == zlib.crc32(t[:12]) else None


# MARK: - Header

@dataclass
class Header:
    version: int
    width: int
    height: int
    timescale: int
    rate_numerator: int
    rate_denominator: int
    metadata: dict = field(default_factory=dict)

    @property
    def frame_size(self) -> int:
        return self.width * self.height


class HeaderProblem(Exception):
    def __init__(self, reason: str, unsupported_version: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.unsupported_version = unsupported_version


def parse_header(fields: bytes) -> Header:
    """Parses a header record's fields, checking every declared value; raises `HeaderProblem`."""
    r = Fields(fields)
    try:
        version = r.u16()
        if version not in READABLE_VERSIONS:
            raise HeaderProblem(f"format version {version}", unsupported_version=version)
        r.u16()
        width, height = r.u32(), r.u32()
        pixel_format = r.u8()
        if pixel_format != 0:
            raise HeaderProblem(f"pixel format {pixel_format} is unknown (only gray8 = 0 exists)")
        r.raw(3)
        timescale = r.i64()
        num, den = r.u32(), r.u32()
        count = r.u32()
        if count > MAXIMUM_METADATA_ENTRIES:
            raise HeaderProblem(f"{count} metadata entries is over the limit of {MAXIMUM_METADATA_ENTRIES}")
        metadata = {}
        for _ in range(count):
            key = r.string(MAXIMUM_METADATA_STRING)
            metadata[key] = r.string(MAXIMUM_METADATA_STRING)
    except FieldError as e:
        raise HeaderProblem(f"{e.reason} at field offset {e.offset}") from None
    limit = MAXIMUM_DIMENSION
    if not (1 <= width <= limit and 1 <= height <= limit):
        raise HeaderProblem(f"frame size {width}x{height} is outside 1...{limit} in each dimension")
    if not (1 <= timescale <= 10 ** 12):
        raise HeaderProblem(f"timescale {timescale} is outside 1...10^12 ticks per second")
    if num > 0 and den == 0:
        raise HeaderProblem(f"nominal frame rate {num}/{den} is not a valid fraction")
    return Header(version, width, height, timescale, num, den, metadata)


# MARK: - Chunks and the index

INTRA, FROM_PREVIOUS, FROM_REFERENCE = 0, 1, 2


@dataclass
class ChunkFields:
    number: int
    first_frame: int
    ticks: list
    codings: list
    whole: list
    raw_length: int


@dataclass(frozen=True)
class ChunkInfo:
    """One chunk as the index (or a scan) knows it, without decoding it."""
    number: int
    offset: int
    first_frame: int
    frame_count: int
    first_ticks: int
    last_ticks: int
    payload_length: int

    @property
    def frames(self) -> range:
        return range(self.first_frame, self.first_frame + self.frame_count)

    @property
    def payload_offset(self) -> int:
        return self.offset + PREFIX_SIZE + chunk_fields_length(self.frame_count) + CRC_SIZE

    @property
    def record_end(self) -> int:
        return self.payload_offset + self.payload_length


def payload_sizes(version: int, width: int, height: int) -> tuple[int, int, int, int]:
    """(mask, modes, low nibbles, fixed bytes per frame not stored whole) of a frame's payload."""
    n = width * height
    mask = (n + 7) // 8
    if version >= 3:
        modes = ((width + 15) // 16) * ((height + 15) // 16)
        low = (n + 1) // 2
        return mask, modes, low, modes + low + mask
    return mask, 0, 0, mask


def parse_chunk_fields(fields: bytes, header: Header) -> ChunkFields:
    """Parses and checks a chunk's fields against the frame size and payload layout; raises FieldError."""
    frame_size = header.frame_size
    r = Fields(fields)
    number, first, count, raw = r.u32(), r.u64(), r.u32(), r.u64()
    if first >= (1 << 62):
        raise FieldError(4, f"first frame {first} is impossible")
    if not (1 <= count <= MAXIMUM_CHUNK_FRAMES):
        raise FieldError(12, f"frame count {count} is outside 1...{MAXIMUM_CHUNK_FRAMES}")
    if count > 1 and count * frame_size > MAXIMUM_CHUNK_RAW_BYTES:
        raise FieldError(12, f"{count} frames of {frame_size} bytes exceed the {MAXIMUM_CHUNK_RAW_BYTES >> 20} MiB chunk limit")
    if len(fields) != chunk_fields_length(count):
        raise FieldError(0, f"chunk fields are {len(fields)} bytes, {count} frames need {chunk_fields_length(count)}")
    ticks, codings, whole = [], [], []
    for i in range(count):
        t = r.i64()
        if abs(t) > MAXIMUM_TICKS:
            raise FieldError(r.offset - 8, f"timestamp of frame {first + i} is {t} ticks, beyond ±2^61")
        if ticks and t <= ticks[-1]:
            raise FieldError(r.offset - 8, f"timestamp of frame {first + i} does not increase ({ticks[-1]} then {t})")
        c = r.u8()
        coding = c & 0x7F
        if coding > FROM_REFERENCE:
            raise FieldError(r.offset - 1, f"frame {first + i} has unknown coding {c}")
        if i == 0 and coding == FROM_PREVIOUS:
            raise FieldError(r.offset - 1, "first frame of a chunk cannot be a delta from the previous frame")
        if header.version >= 3 and c & 0x80:
            raise FieldError(r.offset - 1, f"frame {first + i} is marked stored whole, which version {header.version} does not have")
        ticks.append(t)
        codings.append(coding)
        whole.append(bool(c & 0x80))
    _, _, _, fixed = payload_sizes(header.version, header.width, header.height)
    n_whole = sum(whole)
    least = (count - n_whole) * fixed + n_whole * frame_size
    most = (count - n_whole) * fixed + count * frame_size
    if not (least <= raw <= most):
        raise FieldError(16, f"declares {raw} payload bytes, impossible for {count} frames of {frame_size} bytes")
    return ChunkFields(number, first, ticks, codings, whole, raw)


@dataclass
class Index:
    frame_count: int
    chunks: list
    frames_digest: bytes


def parse_index(fields: bytes, file_size: int) -> Index | None:
    """The index if it is consistent with a file of `file_size` bytes, else None (then scan)."""
    r = Fields(fields)
    try:
        frames, count, digest = r.u64(), r.u32(), r.raw(32)
    except FieldError:
        return None
    if count * INDEX_ENTRY_SIZE != r.remaining or frames >= (1 << 62):
        return None
    chunks = []
    next_frame, last_offset, last_ticks = 0, 0, None
    for i in range(count):
        offset, first, n, t0, t1, payload = struct.unpack_from("<QQIqqQ", fields, r.offset)
        r.offset += INDEX_ENTRY_SIZE
        if not ((offset > last_offset or i == 0) and offset < file_size and payload < file_size
                and first >= next_frame and first < (1 << 61) and 1 <= n <= MAXIMUM_CHUNK_FRAMES
                and t0 <= t1 and (last_ticks is None or t0 > last_ticks)
                and abs(t0) <= MAXIMUM_TICKS and abs(t1) <= MAXIMUM_TICKS):
            return None
        chunks.append(ChunkInfo(i, offset, first, n, t0, t1, payload))
        next_frame, last_offset, last_ticks = first + n, offset, t1
    if not (next_frame == frames or (not chunks and frames == 0)):
        return None
    return Index(frames, chunks, digest)
