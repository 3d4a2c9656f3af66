#ifndef LUMATRACE_RESIDUAL_KERNELS_H
#define LUMATRACE_RESIDUAL_KERNELS_H
// The two inner loops of the .luma codec, which split a frame's residual (current - predictor,
// mod 256) into a mask of one bit per pixel (set where the residual is not zero) and the non-zero
// residual bytes, and join them again (see MaskedResidual.swift for the layout).
//
// They are in C because they need a byte shuffle (SSSE3 `pshufb`), which Swift cannot express:
// a shuffle places 8 residual bytes at their pixels' positions in one instruction, where the
// portable loop handles one pixel at a time. Each function checks once per process whether the
// CPU has SSSE3 and POPCNT and otherwise runs a portable loop with the same results.
//
// Neither allocates; both read and write only the spans they are given.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Writes the mask of `current - predictor` (`(count + 7) / 8` bytes, bit k of byte i = pixel
/// 8i + k) and its non-zero bytes, in pixel order, to `values` (room for `count` bytes).
/// Returns the number of values written.
size_t lt_residual_compact(const uint8_t *current, const uint8_t *predictor, size_t count,
                           uint8_t *mask, uint8_t *values);

/// Rebuilds a frame: `frame[i] = predictor[i] + (mask bit i ? next value : 0)`. `available` values
/// were stored; `readable` (at least `available`) bytes from `values` may be read, and the fast
/// path reads up to 8 bytes beyond the last value it uses when `readable` allows. Returns the
/// number of values used, or -1 when the mask asks for more than `available` (a damaged payload;
/// `frame` is then partly written).
ptrdiff_t lt_residual_expand(const uint8_t *mask, const uint8_t *values, size_t available, size_t readable,
                             size_t count, const uint8_t *predictor, uint8_t *frame);

// MARK: - Block prediction and nibbles (format version 3)

/// Blocks of LT_PREDICTION_BLOCK × LT_PREDICTION_BLOCK pixels choose their predictor.
#define LT_PREDICTION_BLOCK 16
/// A block's predictor: the predictor frame (previous or reference; zeros for intra), the
/// neighbours in the current frame, or the predictor frame plus the neighbours' temporal residual.
enum { LT_MODE_TEMPORAL = 0, LT_MODE_SPATIAL = 1, LT_MODE_TEMPORAL_SPATIAL = 2, LT_MODE_COUNT = 3 };
/// The neighbour predictor: the pixel above, or MED of left, above and upper-left (LOCO-I).
enum { LT_SPATIAL_UP = 0, LT_SPATIAL_MED = 1 };

/// Blocks in a frame: one mode byte each, in raster order.
size_t lt_prediction_block_count(size_t width, size_t height);

/// Chooses each block's mode (smallest sum of |residual|, ties to the lower mode) and writes the
/// residual of every pixel under it, zigzag-mapped (0, -1, 1, -2, … → 0, 1, 2, 3, …) and split in
/// nibbles: `low` holds the low nibbles two to a byte (`(width * height + 1) / 2` bytes; pixel 2k
/// in the low half of byte k), `high` the high nibbles one to a byte (`width * height` bytes, for
/// the mask coder). `predictor` may be NULL (zeros). SSSE3 for UP prediction on even widths.
void lt_blocks_encode(const uint8_t *current, const uint8_t *predictor, size_t width, size_t height, int spatial,
                      uint8_t *modes, uint8_t *low, uint8_t *high);

/// Tests: nonzero runs the portable path even where SSSE3 is available, to compare their bytes.
void lt_blocks_use_portable_path(int portable);

/// Rebuilds a frame from what `lt_blocks_encode` wrote. Returns 0, or -1 (nothing written) when a
/// mode byte is not a mode. `high` may be `frame` itself (the high nibbles expanded into the frame
/// to be rebuilt): every path reads a pixel's high nibble before it writes that pixel, and reads
/// back only pixels it has written. `predictor` must not overlap `frame`.
int lt_blocks_decode(const uint8_t *modes, const uint8_t *low, const uint8_t *high, const uint8_t *predictor, size_t width,
                     size_t height, int spatial, uint8_t *frame);

#ifdef __cplusplus
}
#endif
#endif
