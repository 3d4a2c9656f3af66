"""A frame as the wire bytes of a `foxglove.RawImage` protobuf message, made around its pixels.

The SDK's `RawImage` holds its own copy of the pixels and encodes into another, so a frame of
16384² (256 MiB) costs three frames' worth on its way to the file. Here the fields before and after
the pixels are encoded once, and the message is made by one join: the pixels are copied once, into
the message the MCAP writer compresses as it reads it.

The bytes are exactly those of `foxglove.messages.RawImage(...).encode()` (tests/test_foxglove.py):
fields in the SDK's order (timestamp, width, height, encoding, step, data, frame_id), and a field
holding its default value (0, "") left out, as proto3 does.
"""
from __future__ import annotations

import struct

import numpy as np

# Each field's key: its number and wire type (0 varint, 2 length-delimited, 5 fixed32).
_TIMESTAMP, _WIDTH, _HEIGHT, _ENCODING, _STEP, _DATA, _FRAME_ID = 0x0A, 0x15, 0x1D, 0x22, 0x2D, 0x32, 0x3A
# Within the timestamp: seconds and nanoseconds, varints.
_SEC, _NSEC = 0x08, 0x10


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _delimited(key: int, data: bytes) -> bytes:
    return bytes((key,)) + _varint(len(data)) + data if data else b""


def _fixed32(key: int, value: int) -> bytes:
    return bytes((key,)) + struct.pack("<I", value) if value else b""


def _timestamp(sec: int, nsec: int) -> bytes:
    """A timestamp field is always present (the SDK sets it), even when both its numbers are 0."""
    inner = (bytes((_SEC,)) + _varint(sec) if sec else b"") + (bytes((_NSEC,)) + _varint(nsec) if nsec else b"")
    return bytes((_TIMESTAMP,)) + _varint(len(inner)) + inner


def raw_image_message(pixels: np.ndarray, *, sec: int, nsec: int, frame_id: str, encoding: str) -> bytes:
    """The `foxglove.RawImage` message of a `(height, width)` C-contiguous uint8 frame (one byte a
    pixel, step = width), at `sec` seconds and `nsec` nanoseconds (each checked by the caller to
    fit the message's unsigned 32-bit fields)."""
    height, width = pixels.shape
    before = b"".join((_timestamp(sec, nsec), _fixed32(_WIDTH, width), _fixed32(_HEIGHT, height),
                       _delimited(_ENCODING, encoding.encode("utf-8")), _fixed32(_STEP, width)))
    after = _delimited(_FRAME_ID, frame_id.encode("utf-8"))
    if pixels.size == 0:
        return before + after
    return b"".join((before, bytes((_DATA,)), _varint(pixels.size), memoryview(np.ascontiguousarray(pixels)).cast("B"), after))
