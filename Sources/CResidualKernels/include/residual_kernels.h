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

#ifdef __cplusplus
}
#endif
#endif
