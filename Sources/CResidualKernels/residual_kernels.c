// See residual_kernels.h. Two paths per function: SSSE3 (16 pixels per step, one shuffle per 8
// pixels) and a portable loop; both give identical results on every input.
#include "residual_kernels.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define LT_X86 1
#include <immintrin.h>
#endif

// For each mask byte m: where each of its 8 pixels takes its value from, as a pshufb control.
// expand_lo: pixel k of the low half takes value byte rank(k) (0x80, i.e. zero, when bit k is
// clear); expand_hi: the same for the high half, whose values sit in bytes 8..15. compact_lo/hi:
// the inverse, the positions of the set bits in order (the low or high 8 bytes of a 16-byte step).
static uint8_t expand_lo[256][8], expand_hi[256][8];
static uint8_t compact_lo[256][8], compact_hi[256][8];
static uint8_t bit_count[256];
static int use_ssse3;

__attribute__((constructor)) static void lt_residual_kernels_init(void) {
    for (int m = 0; m < 256; m++) {
        int rank = 0;
        for (int k = 0; k < 8; k++) {
            if (m & (1 << k)) {
                expand_lo[m][k] = (uint8_t)rank;
                expand_hi[m][k] = (uint8_t)(rank + 8);
                compact_lo[m][rank] = (uint8_t)k;
                compact_hi[m][rank] = (uint8_t)(k + 8);
                rank++;
            } else {
                expand_lo[m][k] = 0x80;
                expand_hi[m][k] = 0x80;
            }
        }
        for (int r = rank; r < 8; r++) { compact_lo[m][r] = 0x80; compact_hi[m][r] = 0x80; }
        bit_count[m] = (uint8_t)rank;
    }
#ifdef LT_X86
    __builtin_cpu_init();
    use_ssse3 = __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("popcnt");
#endif
}

// MARK: - Portable

/// Compacts pixels [start, count) 8 at a time; mask byte start/8 onwards. Returns the new value count.
static size_t compact_portable(const uint8_t *current, const uint8_t *predictor, size_t start, size_t count,
                               uint8_t *mask, uint8_t *values, size_t j) {
    for (size_t i = start; i < count; i += 8) {
        size_t n = count - i < 8 ? count - i : 8;
        uint8_t bits = 0;
        for (size_t k = 0; k < n; k++) {
            uint8_t r = (uint8_t)(current[i + k] - predictor[i + k]);
            values[j] = r;
            j += r != 0;
            bits |= (uint8_t)((r != 0) << k);
        }
        mask[i >> 3] = bits;
    }
    return j;
}

/// Expands pixels [start, count) one mask byte at a time. Returns the new value count or -1.
static ptrdiff_t expand_portable(const uint8_t *mask, const uint8_t *values, size_t available, size_t start,
                                 size_t count, const uint8_t *predictor, uint8_t *frame, size_t j) {
    for (size_t i = start; i < count; i += 8) {
        size_t n = count - i < 8 ? count - i : 8;
        uint8_t m = mask[i >> 3];
        if (n < 8) m &= (uint8_t)((1u << n) - 1);
        if (j + bit_count[m] > available) return -1;
        for (size_t k = 0; k < n; k++) {
            uint8_t v = 0;
            if (m & (1u << k)) v = values[j++];
            frame[i + k] = (uint8_t)(predictor[i + k] + v);
        }
    }
    return (ptrdiff_t)j;
}

// MARK: - SSSE3

#ifdef LT_X86
__attribute__((target("ssse3,popcnt")))
static size_t compact_ssse3(const uint8_t *current, const uint8_t *predictor, size_t count, uint8_t *mask, uint8_t *values) {
    const __m128i zero = _mm_setzero_si128();
    size_t j = 0, i = 0;
    for (; i + 16 <= count; i += 16) {
        __m128i r = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(current + i)),
                                 _mm_loadu_si128((const __m128i *)(predictor + i)));
        unsigned bits = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(r, zero)) & 0xFFFFu;
        mask[i >> 3] = (uint8_t)bits;
        mask[(i >> 3) + 1] = (uint8_t)(bits >> 8);
        unsigned m0 = bits & 0xFF, m1 = bits >> 8;
        // j <= i here, so both 8-byte stores stay inside values[0 ..< i + 16].
        _mm_storel_epi64((__m128i *)(values + j), _mm_shuffle_epi8(r, _mm_loadl_epi64((const __m128i *)compact_lo[m0])));
        j += (size_t)__builtin_popcount(m0);
        _mm_storel_epi64((__m128i *)(values + j), _mm_shuffle_epi8(r, _mm_loadl_epi64((const __m128i *)compact_hi[m1])));
        j += (size_t)__builtin_popcount(m1);
    }
    return compact_portable(current, predictor, i, count, mask, values, j);
}

__attribute__((target("ssse3,popcnt")))
static ptrdiff_t expand_ssse3(const uint8_t *mask, const uint8_t *values, size_t available, size_t readable,
                              size_t count, const uint8_t *predictor, uint8_t *frame) {
    size_t j = 0, i = 0;
    for (; i + 64 <= count; i += 64) {
        uint64_t word;
        memcpy(&word, mask + (i >> 3), 8);  // little-endian: bit k = pixel i + k
        size_t need = (size_t)__builtin_popcountll(word);
        if (j + need > available) return -1;
        if (word == 0) {
            memcpy(frame + i, predictor + i, 64);
            continue;
        }
        if (word == ~(uint64_t)0) {
            for (size_t o = 0; o < 64; o += 16) {
                __m128i p = _mm_loadu_si128((const __m128i *)(predictor + i + o));
                __m128i v = _mm_loadu_si128((const __m128i *)(values + j + o));
                _mm_storeu_si128((__m128i *)(frame + i + o), _mm_add_epi8(p, v));
            }
            j += 64;
            continue;
        }
        if (j + need + 8 > readable) {  // too close to the end of the values to read 8 at a time
            ptrdiff_t r = expand_portable(mask, values, available, i, i + 64, predictor, frame, j);
            if (r < 0) return -1;
            j = (size_t)r;
            continue;
        }
        for (size_t o = 0; o < 64; o += 16) {
            unsigned m0 = (unsigned)(word >> o) & 0xFF, m1 = (unsigned)(word >> (o + 8)) & 0xFF;
            __m128i v0 = _mm_loadl_epi64((const __m128i *)(values + j));
            j += bit_count[m0];
            __m128i v1 = _mm_loadl_epi64((const __m128i *)(values + j));
            j += bit_count[m1];
            __m128i control = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)expand_lo[m0]),
                                                 _mm_loadl_epi64((const __m128i *)expand_hi[m1]));
            __m128i r = _mm_shuffle_epi8(_mm_unpacklo_epi64(v0, v1), control);
            __m128i p = _mm_loadu_si128((const __m128i *)(predictor + i + o));
            _mm_storeu_si128((__m128i *)(frame + i + o), _mm_add_epi8(p, r));
        }
    }
    return expand_portable(mask, values, available, i, count, predictor, frame, j);
}
#endif

// MARK: - Entry points

size_t lt_residual_compact(const uint8_t *current, const uint8_t *predictor, size_t count,
                           uint8_t *mask, uint8_t *values) {
#ifdef LT_X86
    if (use_ssse3) return compact_ssse3(current, predictor, count, mask, values);
#endif
    return compact_portable(current, predictor, 0, count, mask, values, 0);
}

ptrdiff_t lt_residual_expand(const uint8_t *mask, const uint8_t *values, size_t available, size_t readable,
                             size_t count, const uint8_t *predictor, uint8_t *frame) {
    if (readable < available) readable = available;
#ifdef LT_X86
    if (use_ssse3) return expand_ssse3(mask, values, available, readable, count, predictor, frame);
#endif
    return expand_portable(mask, values, available, 0, count, predictor, frame, 0);
}
