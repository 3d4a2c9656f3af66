"""Chunk payloads decoded into frames, with numpy doing the per-pixel work.

Versions 1 and 2: each frame's residual (`current - predictor`, mod 256) as a mask of one bit per
pixel and the non-zero bytes (or every byte, for a frame stored whole).

Version 3: every 16x16 block of a frame names its predictor: 0 the predictor frame, 1 the pixel
above in the frame itself, 2 the predictor frame plus the change of the pixel above. Residuals are
zigzag-mapped and split into nibbles: the low ones two to a byte, the high ones as a mask and the
non-zero values. Decoding follows each block's mode row by row in the Swift reader; here the rows
of a block are folded into a cumulative sum down the block (mode 1 adds up residuals from the row
above the block, mode 2 adds up changes), so a frame costs a few whole-array operations and one
short loop over its block rows.
"""
from __future__ import annotations

import numpy as np

from ._records import FROM_PREVIOUS, FROM_REFERENCE, payload_sizes

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


def _mask_positions(mask: np.ndarray, count: int) -> np.ndarray:
    """Indices of the set bits of a little-endian bit mask of `count` pixels. Masks are mostly
    zero, so only their non-zero bytes are unpacked."""
    nonzero = np.flatnonzero(mask)
    bits = np.unpackbits(mask[nonzero][:, None], axis=1, bitorder="little").view(bool)
    positions = (nonzero[:, None] * 8 + np.arange(8))[bits]
    return positions[positions < count] if len(positions) and positions[-1] >= count else positions


def decode_frames(raw: np.ndarray, version: int, width: int, height: int, codings, whole,
                  reference: np.ndarray | None, first_frame: int) -> np.ndarray:
    """Rebuilds a chunk's frames, `(n, height, width)` uint8, from its decompressed payload.

    Raises `PayloadDamage` (message names the frame) when the payload is inconsistent, and
    `LookupError` when a frame is coded against a reference frame that is lost."""
    n = len(codings)
    size = width * height
    out = np.empty((n, height, width), dtype=np.uint8)
    zeros = None
    mask_size, mode_size, low_size, fixed = payload_sizes(version, width, height)

    def predictor(k):
        nonlocal zeros
        c = codings[k]
        if c == FROM_PREVIOUS:
            return out[k - 1]
        if c == FROM_REFERENCE:
            if reference is None:
                raise LookupError(f"both copies of the file's reference frame are damaged, and frame {first_frame + k} is coded against it")
            return reference
        if zeros is None:
            zeros = np.zeros((height, width), dtype=np.uint8)
        return zeros

    if version >= 3:
        modes = raw[:n * mode_size].reshape(n, mode_size) if mode_size else None
        lows = raw[n * mode_size:n * (mode_size + low_size)].reshape(n, low_size)
        masks = raw[n * (mode_size + low_size):n * fixed].reshape(n, mask_size)
        values = raw[n * fixed:]
        used = 0
        for k in range(n):
            positions = _mask_positions(masks[k], size)
            if used + len(positions) > len(values):
                raise PayloadDamage(f"the mask of frame {first_frame + k} asks for more high nibbles than stored")
            high = values[used:used + len(positions)]
            used += len(positions)
            residual = _nibble_residuals(lows[k], positions, high, size)
            if not _rebuild_blocks(modes[k], residual.reshape(height, width), predictor(k), out[k]):
                raise PayloadDamage(f"frame {first_frame + k} has a block mode that is not a mode")
        if used != len(values):
            raise PayloadDamage(f"{len(values) - used} high-nibble bytes are left over")
        return out

    n_masked = n - sum(whole)
    masks = raw[:n_masked * mask_size].reshape(n_masked, mask_size)
    values = raw[n_masked * mask_size:]
    used = masked = 0
    flat = out.reshape(n, size)
    for k in range(n):
        p = predictor(k).reshape(size)
        if whole[k]:
            if len(values) - used < size:
                raise PayloadDamage(f"frame {first_frame + k} is cut short")
            np.add(p, values[used:used + size], out=flat[k])
            used += size
            continue
        positions = _mask_positions(masks[masked], size)
        masked += 1
        if used + len(positions) > len(values):
            raise PayloadDamage(f"the mask of frame {first_frame + k} asks for more residual bytes than stored")
        flat[k] = p
        flat[k, positions] += values[used:used + len(positions)]
        used += len(positions)
    if used != len(values):
        raise PayloadDamage(f"{len(values) - used} residual bytes are left over")
    return out


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


def _rebuild_blocks(modes: np.ndarray, residual: np.ndarray, predictor: np.ndarray, frame: np.ndarray) -> bool:
    """Writes `frame` from its block modes, residuals and predictor frame; False when a mode byte
    is not a mode (nothing is written then).

    Within a block, mode 1 (the pixel above) makes a pixel the pixel above the block plus the
    residuals down to it, and mode 2 (the change above) the predictor plus the change above the
    block plus the residuals down to it: running sums down each block column. Selecting between
    modes uses byte masks (and/or), which unlike `np.where` cost as little as an addition."""
    height, width = residual.shape
    if not modes.any():  # every block predicted by the predictor frame
        np.add(predictor, residual, out=frame)
        return True
    if modes.max() > 2:
        return False
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
    below[0] = last_p[0]
    carried = (below & is2) + sums[:, BLOCK - 1]
    not0 = ~is0
    above = np.zeros((rows, width), dtype=np.uint8)
    for b in range(1, rows):
        np.add(above[b - 1], carried[b - 1], out=above[b])
        np.bitwise_and(above[b], not0[b - 1], out=above[b])
        np.bitwise_or(above[b], temporal[b - 1], out=above[b])
    change = np.zeros((rows, width), dtype=np.uint8)
    change[1:] = above[1:] - last_p[:-1]
    # Modes 1 and 2: sums + (above | predictor + change); mode 0: predictor + residual.
    offsets = ((above & is1) + (change & is2))[:, None, :]
    later = sums + (p3 & ~is1[:, None, :]) + offsets
    result = ((p3 + r3) & is0[:, None, :]) | (later & ~is0[:, None, :])
    frame[:] = result.reshape(padded, width)[:height]
    return True
