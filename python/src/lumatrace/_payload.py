"""Chunk payloads decoded into frames, with numpy doing the per-pixel work.

Versions 1 and 2: each frame's residual (`current - predictor`, mod 256) as a mask of one bit per
pixel and the non-zero bytes (or every byte, for a frame stored whole).

Version 3: every 16x16 block of a frame names its predictor: 0 the predictor frame, 1 the pixel
above in the frame itself, 2 the predictor frame plus the change of the pixel above. Residuals are
zigzag-mapped and split into nibbles: the low ones two to a byte, the high ones as a mask and the
non-zero values. Decoding follows each block's mode row by row in the Swift reader; here the rows
of a block are folded into a cumulative sum down the block (mode 1 adds up residuals from the row
above the block, mode 2 adds up changes), so a band of block rows costs a few whole-array
operations and one short loop over its block rows.

Frames are rebuilt one at a time (`ChunkFrames`), each from the one before it and a band of block
rows at a time, so decoding holds the chunk's payload, two frames and bounded scratch.

The compiled path (`lumatrace._kernels`, built at `pip install` when a C compiler is there) runs the
Swift reader's own C kernels on whole frames instead, with one frame of scratch (the high nibbles,
only for a frame that has any; a frame of zeros is read, never written, so it takes no memory); it
gives the same bytes (tests/test_kernels.py).
`decoder()` says which path is used: the compiled one when built, unless `LUMATRACE_DECODER=numpy`
(or `lumatrace.open(..., decoder="numpy")`) asks for numpy.
"""
from __future__ import annotations

import os

import numpy as np

from ._records import FROM_PREVIOUS, FROM_REFERENCE, payload_sizes

import warnings
from pathlib import Path

try:
    from . import _kernels
    #: Why the compiled decoder is not there (None when it is).
    UNBUILT_BECAUSE: str | None = None
except ImportError as e:  # built without a C compiler: numpy decodes
    _kernels = None
    # setup.py leaves its reason beside the package when it could not compile the kernels.
    _note = Path(__file__).with_name("_kernels_unbuilt.txt")
    UNBUILT_BECAUSE = (f"the install could not build it: {_note.read_text().strip()}" if _note.is_file()
                       else f"it does not import: {e}")

#: The environment variable that picks the decode path: `numpy`, `c`, or unset (`auto`).
DECODER_VARIABLE = "LUMATRACE_DECODER"
DECODERS = ("auto", "c", "numpy")
#: Whether this process was told that `auto` decodes with numpy (it is told once).
_told_numpy = False


def _tell_numpy_decodes() -> None:
    """Warns, once a process, that `auto` decodes with numpy because the compiled decoder is missing,
    and why; pointing at the caller of `lumatrace.open`."""
    global _told_numpy
    if _told_numpy:
        return
    _told_numpy = True
    warnings.warn(f"lumatrace decodes frames with numpy, about 6 times slower than its C decoder "
                  f"(lumatrace._kernels), which is missing: {UNBUILT_BECAUSE}. Reinstall the package with a C compiler and "
                  f"Python's headers (Debian: apt-get install gcc python3-dev); decoder='numpy' or "
                  f"{DECODER_VARIABLE}=numpy chooses numpy and says nothing.", RuntimeWarning, stacklevel=5)


def decoder(asked: str | None = None) -> str:
    """The decode path to use, `"c"` or `"numpy"`: `asked` (else `LUMATRACE_DECODER`, else
    `auto`); `auto` is the compiled path when it was built. Asking for `c` where it was not built is
    an error saying how to build it."""
    choice = asked if asked is not None else (os.environ.get(DECODER_VARIABLE) or "auto")
    if choice not in DECODERS:
        source = "decoder" if asked is not None else DECODER_VARIABLE
        raise ValueError(f"{source}={choice!r} is not a decoder: use one of {', '.join(DECODERS)}")
    if choice == "c" and _kernels is None:
        raise ImportError(f"the compiled decoder (lumatrace._kernels) is missing ({UNBUILT_BECAUSE}): reinstall the package with a C "
                          "compiler and Python's headers (Debian: gcc python3-dev), or use decoder='numpy'")
    if choice == "auto" and _kernels is None:
        _tell_numpy_decodes()
    return "c" if choice == "c" or (choice == "auto" and _kernels is not None) else "numpy"

BLOCK = 16

# zigzag^-1 of every byte (0, 1, 2, 3, ... -> 0, -1, 1, -2, ... mod 256)
_UNZIGZAG = np.array([(z >> 1) ^ (-(z & 1) & 0xFF) for z in range(256)], dtype=np.uint8)
# The four residuals of two packed low-nibble bytes (one little-endian u16) whose high nibbles are
# zero, as one little-endian u32: one table lookup rebuilds four pixels.
_i = np.arange(1 << 16)
_u = _UNZIGZAG.astype(np.uint32)
_QUAD = (_u[_i & 15] | (_u[(_i >> 4) & 15] << 8) | (_u[(_i >> 8) & 15] << 16) | (_u[_i >> 12] << 24)).astype("<u4")
del _i, _u


class PayloadDamage(Exception):
    """The decompressed payload does not hold what its chunk's fields say."""


#: The pixels rebuilt at a time (rounded to whole rows of blocks): what a frame's decoding needs
#: beyond its own pixels and its predictor is a few times this, whatever the frame's size.
BAND_PIXELS = 1 << 18
# The set bits of every byte.
_POPCOUNT = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint8)


class ChunkFrames:
    """A chunk's frames, rebuilt one at a time from its decompressed payload.

    The payload is checked and laid out once, on construction (raising `PayloadDamage` naming the
    frame, or `LookupError` when a frame is coded against a reference frame that is lost), so
    rebuilding a frame cannot fail. `frame(k)` rebuilds frame `k` (0-based in the chunk) from the
    frame before it, keeping only the last frame rebuilt: memory is the payload, two frames and a
    few bands of scratch (`BAND_PIXELS`), as in the Swift reader, whatever the chunk's frame count
    and size. A chunk of one frame lets its payload go once that frame is rebuilt. Reading in order rebuilds each frame once; going back restarts from the nearest frame
    not coded against the one before it."""

    def __init__(self, number: int, raw: np.ndarray, version: int, width: int, height: int, codings, whole,
                 reference: np.ndarray | None, first_frame: int, compiled: bool = False):
        self.number = number
        #: Whether frames are rebuilt by the compiled kernels (`decoder()`), else with numpy.
        self.compiled = compiled
        # The compiled path's scratch, made when first needed: a frame of zeros (address space only).
        self._zero_frame: np.ndarray | None = None
        self.version, self.width, self.height = version, width, height
        self.codings, self.whole, self.reference, self.first_frame = codings, whole, reference, first_frame
        n, size = len(codings), width * height
        set_bits = _kernels.set_bits if compiled else _set_bits
        mask_size, mode_size, low_size, fixed = payload_sizes(version, width, height)
        if version >= 3:
            self.modes = raw[:n * mode_size].reshape(n, mode_size)
            self.lows = raw[n * mode_size:n * (mode_size + low_size)].reshape(n, low_size)
            self.masks = raw[n * (mode_size + low_size):n * fixed].reshape(n, mask_size)
            self.values = raw[n * fixed:]
            self.mask_of = list(range(n))
            stored = [set_bits(self.masks[k], size) for k in range(n)]
            short = "the mask of frame {} asks for more high nibbles than stored"
            left_over = "{} high-nibble bytes are left over"
        else:
            self.mask_of = [None if w else sum(1 for x in whole[:k] if not x) for k, w in enumerate(whole)]
            masked = n - sum(whole)
            self.masks = raw[:masked * mask_size].reshape(masked, mask_size)
            self.values = raw[masked * mask_size:]
            stored = [size if whole[k] else set_bits(self.masks[self.mask_of[k]], size) for k in range(n)]
            short = "the mask of frame {} asks for more residual bytes than stored"
            left_over = "{} residual bytes are left over"
        #: The residual bytes (versions 1, 2) or high nibbles (3) each frame stores.
        self.stored = stored
        self.offsets, used = [], 0
        for k, count in enumerate(stored):
            if used + count > len(self.values):
                raise PayloadDamage(f"frame {first_frame + k} is cut short" if version < 3 and whole[k]
                                    else short.format(first_frame + k))
            self.offsets.append(used)
            used += count
        if used != len(self.values):
            raise PayloadDamage(left_over.format(len(self.values) - used))
        if version >= 3:
            bad = np.flatnonzero((self.modes > 2).any(axis=1))
            if len(bad):
                raise PayloadDamage(f"frame {first_frame + int(bad[0])} has a block mode that is not a mode")
        lost = [k for k, c in enumerate(codings) if c == FROM_REFERENCE]
        if lost and reference is None:
            raise LookupError(f"both copies of the file's reference frame are damaged, and frame "
                              f"{first_frame + lost[0]} is coded against it")
        self._last: tuple[int, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self.codings)

    def frame(self, k: int) -> np.ndarray:
        """Frame `k` of the chunk, a read-only `(height, width)` uint8 array of its own."""
        last = self._last
        if last is not None and last[0] == k:
            return last[1]
        start = k
        while self.codings[start] == FROM_PREVIOUS and not (last is not None and last[0] == start - 1):
            start -= 1
        for i in range(start, k + 1):
            previous = self._last[1] if self._last is not None and self._last[0] == i - 1 else None
            self._last = None  # the frame before is all a frame needs: let older ones go
            frame = self._rebuild(i, previous)
            frame.flags.writeable = False
            self._last = (i, frame)
        if len(self.codings) == 1:
            self._release_payload()
        return self._last[1]

    def _release_payload(self) -> None:
        """Lets the payload and the scratch go once a chunk's only frame is rebuilt: that frame is
        all the chunk is asked for from then on, and a frame of 16384² holds payloads of 200 MB."""
        self.modes = self.lows = self.masks = self.values = None
        self._zero_frame = None

    def _predictor(self, k: int, previous: np.ndarray | None) -> np.ndarray | None:
        """What frame `k` is coded against; None for nothing (zeros)."""
        coding = self.codings[k]
        if coding == FROM_PREVIOUS:
            return previous
        return self.reference if coding == FROM_REFERENCE else None

    def _rebuild(self, k: int, previous: np.ndarray | None) -> np.ndarray:
        predictor = self._predictor(k, previous)
        out = np.empty((self.height, self.width), dtype=np.uint8)
        if self.compiled:
            self._rebuild_compiled(k, predictor, out)
        elif self.version >= 3:
            self._rebuild_v3(k, predictor, out)
        else:
            self._rebuild_masked(k, predictor, out.reshape(-1))
        return out

    def _rebuild_compiled(self, k: int, predictor: np.ndarray | None, out: np.ndarray) -> None:
        """Any version, whole frames at a time by the Swift reader's kernels. The payload was
        checked on construction (masks against values, modes), so a kernel cannot fail here."""
        size, used = self.width * self.height, self.offsets[k]
        zeros = self._zeros()
        p = zeros if predictor is None else predictor
        if self.version < 3:
            if self.whole[k]:
                np.add(p.reshape(-1), self.values[used:used + size], out=out.reshape(-1))
            else:
                _kernels.residual_expand(self.masks[self.mask_of[k]], self.values[used:], size, p, out)
            return
        high = zeros  # no high nibble set (most frames of a still scene): nothing to expand
        if self.stored[k]:
            # The high nibbles are expanded into the frame itself, which the decode then overwrites:
            # it reads each pixel's high nibble before it writes that pixel, so no frame-sized
            # scratch is held beside the frame (a 16384² frame is 268 MB).
            high = out
            _kernels.residual_expand(self.masks[k], self.values[used:], size, zeros, high)
        _kernels.blocks_decode(self.modes[k], self.lows[k], high, p, self.width, self.height, out)

    def _zeros(self) -> np.ndarray:
        """A frame of zeros, never written: `np.zeros` maps fresh pages that read as zeros without
        taking memory, so it costs address space, not RSS."""
        if self._zero_frame is None:
            self._zero_frame = np.zeros(self.width * self.height, dtype=np.uint8)
            self._zero_frame.flags.writeable = False
        return self._zero_frame

    def _rebuild_masked(self, k: int, predictor: np.ndarray | None, out: np.ndarray) -> None:
        """Versions 1 and 2: the predictor plus every residual byte (a frame stored whole), or plus
        the non-zero ones where the mask says, a band of pixels at a time."""
        size, used = len(out), self.offsets[k]
        if predictor is None:
            out[:] = 0
        else:
            out[:] = predictor.reshape(-1)
        if self.whole[k]:
            out += self.values[used:used + size]
            return
        mask = self.masks[self.mask_of[k]]
        for start in range(0, size, BAND_PIXELS):
            stop = min(start + BAND_PIXELS, size)
            positions = _mask_positions(mask[start >> 3:(stop + 7) >> 3], stop - start)
            out[start:stop][positions] += self.values[used:used + len(positions)]
            used += len(positions)

    def _rebuild_v3(self, k: int, predictor: np.ndarray | None, out: np.ndarray) -> None:
        """Version 3: bands of whole block rows, each from its low nibbles, its high nibbles and the
        rows just above it (of the frame and of the predictor)."""
        height, width = self.height, self.width
        band = BLOCK * max(1, BAND_PIXELS // (BLOCK * width))
        modes = self.modes[k].reshape((height + BLOCK - 1) // BLOCK, (width + BLOCK - 1) // BLOCK)
        low, mask, used = self.lows[k], self.masks[k], self.offsets[k]
        zeros = np.zeros((min(band, height), width), dtype=np.uint8) if predictor is None else None
        above = predictor_above = np.zeros(width, dtype=np.uint8)
        for top in range(0, height, band):
            bottom = min(top + band, height)
            start, stop = top * width, bottom * width  # multiples of 16: whole mask and nibble bytes
            positions = _mask_positions(mask[start >> 3:(stop + 7) >> 3], stop - start)
            high = self.values[used:used + len(positions)]
            used += len(positions)
            residual = _nibble_residuals(low[start >> 1:(stop + 1) >> 1], positions, high, stop - start)
            p = zeros[:bottom - top] if predictor is None else predictor[top:bottom]
            _rebuild_blocks(modes[top // BLOCK:(bottom + BLOCK - 1) // BLOCK], residual.reshape(bottom - top, width),
                            p, out[top:bottom], above, predictor_above)
            above, predictor_above = out[bottom - 1], p[bottom - top - 1]


def _set_bits(mask: np.ndarray, count: int) -> int:
    """How many of the first `count` bits of a little-endian bit mask are set."""
    whole = count >> 3
    total = int(_POPCOUNT[mask[:whole]].sum(dtype=np.int64))
    if count & 7:
        total += int(_POPCOUNT[mask[whole] & ((1 << (count & 7)) - 1)])
    return total


def _mask_positions(mask: np.ndarray, count: int) -> np.ndarray:
    """Indices of the set bits of a little-endian bit mask of `count` pixels. Masks are mostly
    zero, so only their non-zero bytes are unpacked."""
    nonzero = np.flatnonzero(mask)
    bits = np.unpackbits(mask[nonzero][:, None], axis=1, bitorder="little").view(bool)
    positions = (nonzero[:, None] * 8 + np.arange(8))[bits]
    return positions[positions < count] if len(positions) and positions[-1] >= count else positions


def _nibble_residuals(low: np.ndarray, positions: np.ndarray, high: np.ndarray, size: int) -> np.ndarray:
    """The signed residuals (as uint8, mod 256) of one frame from its packed low nibbles and its
    sparse high nibbles."""
    if len(low) % 2:
        low = np.concatenate((low, np.zeros(1, dtype=np.uint8)))
    residual = np.take(_QUAD, low.view("<u2")).view(np.uint8)[:size]
    if len(positions):
        lowbits = (low[positions >> 1] >> ((positions & 1) << 2).astype(np.uint8)) & 15
        residual[positions] = _UNZIGZAG[lowbits | (high << 4)]
    return residual


def _rebuild_blocks(modes: np.ndarray, residual: np.ndarray, predictor: np.ndarray, frame: np.ndarray,
                    above_row: np.ndarray, predictor_above_row: np.ndarray) -> None:
    """Writes `frame` (whole block rows of a frame, or its last ones) from its block modes
    (checked: 0...2), residuals and predictor, given the rows just above it of the frame
    (`above_row`) and of the predictor (zeros at the top of the frame).

    Within a block, mode 1 (the pixel above) makes a pixel the pixel above the block plus the
    residuals down to it, and mode 2 (the change above) the predictor plus the change above the
    block plus the residuals down to it: running sums down each block column. Selecting between
    modes uses byte masks (and/or), which unlike `np.where` cost as little as an addition."""
    height, width = residual.shape
    if not modes.any():  # every block predicted by the predictor frame
        np.add(predictor, residual, out=frame)
        return
    rows = (height + BLOCK - 1) // BLOCK
    columns = (width + BLOCK - 1) // BLOCK
    padded = rows * BLOCK
    if padded != height:
        r = np.zeros((padded, width), dtype=np.uint8)
        r[:height] = residual
        p = np.zeros((padded, width), dtype=np.uint8)
        p[:height] = predictor
    else:
        r, p = residual, predictor
    r3 = r.reshape(rows, BLOCK, width)
    p3 = p.reshape(rows, BLOCK, width)
    # The mode of every pixel column of every block row, as byte masks (255 where it holds).
    m = np.repeat(modes.reshape(rows, columns), BLOCK, axis=1)[:, :width]
    is0, is1, is2 = [np.where(m == mode, 255, 0).astype(np.uint8) for mode in range(3)]
    # Running sums of the residuals down each block.
    sums = r3.copy()
    for y in range(1, BLOCK):
        np.add(sums[:, y], sums[:, y - 1], out=sums[:, y])
    # The row above each block row (`above`) and its change from the predictor (`change`): a short
    # scan down the frame. A block's last row is its predictor plus residual (mode 0), or the row
    # above the block plus the block column's sum (mode 1), or that plus the predictor's own change
    # down the block (mode 2: predictor + change above + sum = above + Δpredictor + sum).
    last_p = p3[:, BLOCK - 1]
    temporal = (last_p + r3[:, BLOCK - 1]) & is0
    below = np.zeros_like(last_p)
    below[1:] = last_p[1:] - last_p[:-1]
    below[0] = last_p[0] - predictor_above_row
    carried = (below & is2) + sums[:, BLOCK - 1]
    not0 = ~is0
    above = np.zeros((rows, width), dtype=np.uint8)
    above[0] = above_row
    for b in range(1, rows):
        np.add(above[b - 1], carried[b - 1], out=above[b])
        np.bitwise_and(above[b], not0[b - 1], out=above[b])
        np.bitwise_or(above[b], temporal[b - 1], out=above[b])
    change = np.zeros((rows, width), dtype=np.uint8)
    change[1:] = above[1:] - last_p[:-1]
    change[0] = above_row - predictor_above_row
    # Modes 1 and 2: sums + (above | predictor + change); mode 0: predictor + residual.
    offsets = ((above & is1) + (change & is2))[:, None, :]
    later = sums + (p3 & ~is1[:, None, :]) + offsets
    result = ((p3 + r3) & is0[:, None, :]) | (later & ~is0[:, None, :])
    frame[:] = result.reshape(padded, width)[:height]
