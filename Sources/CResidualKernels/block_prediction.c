// See residual_kernels.h: block-wise prediction and nibble packing, the frame coding of format
// version 3 (BlockResidual.swift; docs/recording-format.md).
#include "residual_kernels.h"

#include <stdlib.h>
#include <string.h>

enum { BLOCK = LT_PREDICTION_BLOCK };

static inline uint8_t zigzag(uint8_t r) {
    int8_t s = (int8_t)r;
    return (uint8_t)(s >= 0 ? 2 * s : -2 * s - 1);
}

static inline uint8_t unzigzag(uint8_t z) { return (uint8_t)((z >> 1) ^ (uint8_t)-(z & 1)); }

/// The MED predictor (LOCO-I) of a pixel from its left (a), upper (b) and upper-left (c) values.
static inline int med(int a, int b, int c) {
    int hi = a > b ? a : b, lo = a < b ? a : b;
    if (c >= hi) return lo;
    if (c <= lo) return hi;
    return a + b - c;
}

/// The value `plane` predicts at (x, y) from already coded neighbours: MED of left, upper,
/// upper-left (0 outside the frame) for `spatial` = LT_SPATIAL_MED, the upper value for LT_SPATIAL_UP.
/// `at(x, y)` reads the plane being predicted (pixels, or signed temporal residuals).
#define NEIGHBOUR_PREDICTION(spatial, at, x, y)                                                   \
    ((spatial) == LT_SPATIAL_UP ? ((y) > 0 ? at((x), (y) - 1) : 0)                                \
                                : med((x) > 0 ? at((x) - 1, (y)) : 0, (y) > 0 ? at((x), (y) - 1) : 0, \
                                      (x) > 0 && (y) > 0 ? at((x) - 1, (y) - 1) : 0))

size_t lt_prediction_block_count(size_t width, size_t height) {
    return ((width + BLOCK - 1) / BLOCK) * ((height + BLOCK - 1) / BLOCK);
}

/// Residual of `mode` at (x, y), as the decoder will undo it.
static inline uint8_t residual_at(const uint8_t *current, const uint8_t *predictor, size_t width, int spatial,
                                  int mode, size_t x, size_t y) {
    size_t i = y * width + x;
    int p = predictor ? predictor[i] : 0;
    switch (mode) {
    case LT_MODE_TEMPORAL:
        return (uint8_t)(current[i] - p);
    case LT_MODE_SPATIAL: {
#define PIXEL(px, py) ((int)current[(py) * width + (px)])
        int s = NEIGHBOUR_PREDICTION(spatial, PIXEL, x, y);
#undef PIXEL
        return (uint8_t)(current[i] - s);
    }
    default: {
#define TEMPORAL(px, py) ((int)(int8_t)(uint8_t)(current[(py) * width + (px)] - (predictor ? predictor[(py) * width + (px)] : 0)))
        int s = NEIGHBOUR_PREDICTION(spatial, TEMPORAL, x, y);
        int t = TEMPORAL(x, y);
#undef TEMPORAL
        return (uint8_t)(t - s);
    }
    }
}

static inline void put_low(uint8_t *low, size_t i, uint8_t z) {
    uint8_t *pair = low + i / 2;
    *pair = (i & 1) ? (uint8_t)((*pair & 0x0F) | (z << 4)) : (uint8_t)((*pair & 0xF0) | (z & 15));
}

static inline uint8_t get_low(const uint8_t *low, size_t i) { return (i & 1) ? low[i / 2] >> 4 : low[i / 2] & 15; }

/// Chooses block (bx, by)'s mode and writes its pixels' zigzag residuals as nibbles.
static void encode_block(const uint8_t *current, const uint8_t *predictor, size_t width, size_t height, int spatial,
                         size_t bx, size_t by, uint8_t *modes, uint8_t *low, uint8_t *high) {
    size_t columns = (width + BLOCK - 1) / BLOCK;
    size_t x0 = bx * BLOCK, x1 = x0 + BLOCK < width ? x0 + BLOCK : width;
    size_t y0 = by * BLOCK, y1 = y0 + BLOCK < height ? y0 + BLOCK : height;
    // Sum of |residual| per mode; the smallest wins, ties to the lower mode.
    unsigned cost[LT_MODE_COUNT] = {0};
    for (int mode = 0; mode < LT_MODE_COUNT; mode++)
        for (size_t y = y0; y < y1; y++)
            for (size_t x = x0; x < x1; x++) {
                int8_t r = (int8_t)residual_at(current, predictor, width, spatial, mode, x, y);
                cost[mode] += (unsigned)(r < 0 ? -r : r);
            }
    int best = 0;
    for (int mode = 1; mode < LT_MODE_COUNT; mode++)
        if (cost[mode] < cost[best]) best = mode;
    modes[by * columns + bx] = (uint8_t)best;
    for (size_t y = y0; y < y1; y++)
        for (size_t x = x0; x < x1; x++) {
            uint8_t z = zigzag(residual_at(current, predictor, width, spatial, best, x, y));
            put_low(low, y * width + x, z);
            high[y * width + x] = z >> 4;
        }
}

/// Rebuilds row y of block column bx.
static void decode_segment(const uint8_t *low, const uint8_t *high, const uint8_t *predictor, size_t width, int spatial,
                           int mode, size_t bx, size_t y, uint8_t *frame) {
    size_t x0 = bx * BLOCK, x1 = x0 + BLOCK < width ? x0 + BLOCK : width;
    for (size_t x = x0; x < x1; x++) {
        size_t i = y * width + x;
        uint8_t r = unzigzag((uint8_t)(get_low(low, i) | (high[i] << 4)));
        int p = predictor ? predictor[i] : 0;
        switch (mode) {
        case LT_MODE_TEMPORAL:
            frame[i] = (uint8_t)(p + r);
            break;
        case LT_MODE_SPATIAL:
#define PIXEL(px, py) ((int)frame[(py) * width + (px)])
            frame[i] = (uint8_t)(NEIGHBOUR_PREDICTION(spatial, PIXEL, x, y) + r);
#undef PIXEL
            break;
        default:
#define TEMPORAL(px, py) ((int)(int8_t)(uint8_t)(frame[(py) * width + (px)] - (predictor ? predictor[(py) * width + (px)] : 0)))
            frame[i] = (uint8_t)(p + NEIGHBOUR_PREDICTION(spatial, TEMPORAL, x, y) + r);
#undef TEMPORAL
            break;
        }
    }
}

// MARK: - Fused: prediction and nibbles in one pass

// LT_FORCE_PORTABLE (a test build) runs the portable path everywhere, to compare its bytes.
#if (defined(__x86_64__) || defined(__i386__)) && !defined(LT_FORCE_PORTABLE)
#include <immintrin.h>
#define LT_BLOCKS_X86 1

/// The zigzag map of 16 residual bytes: (r << 1) ^ (r >> 7 arithmetic), bytewise.
__attribute__((target("ssse3"))) static inline __m128i zigzag16(__m128i r) {
    __m128i sign = _mm_cmpgt_epi8(_mm_setzero_si128(), r);
    __m128i doubled = _mm_add_epi8(r, r);
    return _mm_xor_si128(doubled, sign);
}

__attribute__((target("ssse3"))) static inline __m128i unzigzag16(__m128i z) {
    __m128i half = _mm_and_si128(_mm_srli_epi16(z, 1), _mm_set1_epi8(0x7F));
    __m128i negate = _mm_sub_epi8(_mm_setzero_si128(), _mm_and_si128(z, _mm_set1_epi8(1)));
    return _mm_xor_si128(half, negate);
}

/// Sum of |r| over 16 signed bytes (|-128| = 128), as two 64-bit halves summed.
__attribute__((target("ssse3"))) static inline unsigned cost16(__m128i r) {
    __m128i s = _mm_sad_epu8(_mm_abs_epi8(r), _mm_setzero_si128());
    return (unsigned)(_mm_cvtsi128_si32(s) + _mm_extract_epi16(s, 4));
}

/// The first `n` bytes at `p` in a register, zeros after them (`n` ≤ 16; 16 and 8 load directly).
/// The right edge's partial block is coded in registers too: its missing pixels are zero in every
/// plane, so their residual, and their cost, is zero in every mode, as in the portable path.
__attribute__((target("ssse3"))) static inline __m128i load_bytes(const uint8_t *p, size_t n) {
    if (n == 16) return _mm_loadu_si128((const __m128i *)p);
    if (n == 8) return _mm_loadl_epi64((const __m128i *)p);
    uint8_t padded[16] = {0};
    memcpy(padded, p, n);
    return _mm_loadu_si128((const __m128i *)padded);
}

/// Stores the first `n` bytes of `v` at `p` (`n` ≤ 16; 16 and 8 store directly).
__attribute__((target("ssse3"))) static inline void store_bytes(uint8_t *p, __m128i v, size_t n) {
    if (n == 16) {
        _mm_storeu_si128((__m128i *)p, v);
    } else if (n == 8) {
        _mm_storel_epi64((__m128i *)p, v);
    } else {
        uint8_t padded[16];
        _mm_storeu_si128((__m128i *)padded, v);
        memcpy(p, padded, n);
    }
}

/// `w` pixels from pixel i (on row y) of the current frame and the predictor frame, and the `w`
/// above each (zeros on the first row, for an absent predictor and after the `w`th).
typedef struct { __m128i current, predictor, above, predictorAbove; } Neighbours16;

__attribute__((target("ssse3"))) static inline Neighbours16 neighbours16(const uint8_t *current, const uint8_t *predictor,
                                                                          size_t width, size_t y, size_t i, size_t w) {
    const __m128i zero = _mm_setzero_si128();
    Neighbours16 n;
    n.current = load_bytes(current + i, w);
    n.predictor = predictor ? load_bytes(predictor + i, w) : zero;
    n.above = y ? load_bytes(current + i - width, w) : zero;
    n.predictorAbove = y && predictor ? load_bytes(predictor + i - width, w) : zero;
    return n;
}

/// Chooses the mode of the block at (x0, y0..<y1), `w` pixels wide, and writes its nibbles.
__attribute__((target("ssse3"))) static inline void encode_block_ssse3(const uint8_t *current, const uint8_t *predictor,
                                                                        size_t width, size_t x0, size_t y0, size_t y1, size_t w,
                                                                        uint8_t *mode, uint8_t *low, uint8_t *high) {
    const __m128i zero = _mm_setzero_si128(), lowMask = _mm_set1_epi8(0x0F);
    unsigned cost[3] = {0, 0, 0};
    for (size_t y = y0; y < y1; y++) {
        Neighbours16 n = neighbours16(current, predictor, width, y, y * width + x0, w);
        __m128i t = _mm_sub_epi8(n.current, n.predictor);
        cost[0] += cost16(t);
        cost[1] += cost16(_mm_sub_epi8(n.current, n.above));
        cost[2] += cost16(_mm_sub_epi8(t, _mm_sub_epi8(n.above, n.predictorAbove)));
    }
    int best = 0;
    if (cost[1] < cost[best]) best = 1;
    if (cost[2] < cost[best]) best = 2;
    *mode = (uint8_t)best;
    for (size_t y = y0; y < y1; y++) {
        size_t i = y * width + x0;
        Neighbours16 n = neighbours16(current, predictor, width, y, i, w);
        __m128i r = best == 0 ? _mm_sub_epi8(n.current, n.predictor)
                  : best == 1 ? _mm_sub_epi8(n.current, n.above)
                              : _mm_sub_epi8(_mm_sub_epi8(n.current, n.predictor), _mm_sub_epi8(n.above, n.predictorAbove));
        __m128i z = zigzag16(r);
        store_bytes(high + i, _mm_and_si128(_mm_srli_epi16(z, 4), lowMask), w);
        // Low nibbles two to a byte: even pixel low half, odd pixel high half.
        __m128i lo = _mm_and_si128(z, lowMask);
        __m128i pairs = _mm_or_si128(lo, _mm_srli_epi16(lo, 4));  // byte 2k: lo[2k] | lo[2k+1] << 4
        pairs = _mm_and_si128(pairs, _mm_set1_epi16(0x00FF));
        store_bytes(low + i / 2, _mm_packus_epi16(pairs, zero), w / 2);
    }
}

/// UP prediction, even width, every block with SSSE3 (the right edge's partial one too, padded
/// with zeros); the portable path gives the same bytes.
__attribute__((target("ssse3"))) static void encode_up_ssse3(const uint8_t *current, const uint8_t *predictor, size_t width,
                                                              size_t height, uint8_t *modes, uint8_t *low, uint8_t *high) {
    size_t columns = (width + BLOCK - 1) / BLOCK, full = width / BLOCK;
    for (size_t by = 0; by * BLOCK < height; by++) {
        size_t y0 = by * BLOCK, y1 = y0 + BLOCK < height ? y0 + BLOCK : height;
        for (size_t bx = 0; bx < full; bx++)
            encode_block_ssse3(current, predictor, width, bx * BLOCK, y0, y1, BLOCK, modes + by * columns + bx, low, high);
        if (full < columns)
            encode_block_ssse3(current, predictor, width, full * BLOCK, y0, y1, width - full * BLOCK, modes + by * columns + full,
                               low, high);
    }
}

/// Rebuilds the `w` ≤ 16 pixels of row y in block column bx (the inverse of encode_block_ssse3).
__attribute__((target("ssse3"))) static inline void decode_block_row_ssse3(int mode, const uint8_t *low, const uint8_t *high,
                                                                            const uint8_t *predictor, size_t width, size_t y,
                                                                            size_t bx, size_t w, uint8_t *frame) {
    const __m128i zero = _mm_setzero_si128(), lowMask = _mm_set1_epi8(0x0F);
    size_t i = y * width + bx * BLOCK;
    __m128i pairs = load_bytes(low + i / 2, w / 2);
    __m128i lo = _mm_unpacklo_epi8(_mm_and_si128(pairs, lowMask), _mm_and_si128(_mm_srli_epi16(pairs, 4), lowMask));
    __m128i z = _mm_or_si128(lo, _mm_slli_epi16(_mm_and_si128(load_bytes(high + i, w), lowMask), 4));
    __m128i r = unzigzag16(z);
    __m128i p = predictor ? load_bytes(predictor + i, w) : zero;
    __m128i up = y ? load_bytes(frame + i - width, w) : zero;
    __m128i pUp = y && predictor ? load_bytes(predictor + i - width, w) : zero;
    __m128i base = mode == LT_MODE_SPATIAL ? up : p;
    __m128i add = mode == LT_MODE_TEMPORAL_SPATIAL ? _mm_sub_epi8(up, pUp) : zero;
    store_bytes(frame + i, _mm_add_epi8(_mm_add_epi8(base, add), r), w);
}

/// The inverse of encode_up_ssse3, row by row (each row needs only the row above).
__attribute__((target("ssse3"))) static void decode_up_ssse3(const uint8_t *modes, const uint8_t *low, const uint8_t *high,
                                                              const uint8_t *predictor, size_t width, size_t height, uint8_t *frame) {
    size_t columns = (width + BLOCK - 1) / BLOCK, full = width / BLOCK;
    for (size_t y = 0; y < height; y++) {
        const uint8_t *rowModes = modes + (y / BLOCK) * columns;
        for (size_t bx = 0; bx < full; bx++) decode_block_row_ssse3(rowModes[bx], low, high, predictor, width, y, bx, BLOCK, frame);
        if (full < columns)
            decode_block_row_ssse3(rowModes[full], low, high, predictor, width, y, full, width - full * BLOCK, frame);
    }
}

/// decode_up_ssse3 with two blocks per step: 32 pixels of a row in one AVX2 register, each
/// 128-bit half following its own block's mode.
__attribute__((target("avx2"))) static void decode_up_avx2(const uint8_t *modes, const uint8_t *low, const uint8_t *high,
                                                            const uint8_t *predictor, size_t width, size_t height, uint8_t *frame) {
    size_t columns = (width + BLOCK - 1) / BLOCK, full = width / BLOCK;
    const __m256i zero = _mm256_setzero_si256(), lowMask = _mm256_set1_epi8(0x0F), one = _mm256_set1_epi8(1), seven = _mm256_set1_epi8(0x7F);
    const __m128i lowMask128 = _mm_set1_epi8(0x0F);
    for (size_t y = 0; y < height; y++) {
        const uint8_t *rowModes = modes + (y / BLOCK) * columns;
        size_t bx = 0;
        for (; bx + 2 <= full; bx += 2) {
            size_t i = y * width + bx * BLOCK;
            __m128i pairs = _mm_loadu_si128((const __m128i *)(low + i / 2));
            __m128i even = _mm_and_si128(pairs, lowMask128), odd = _mm_and_si128(_mm_srli_epi16(pairs, 4), lowMask128);
            __m256i lo = _mm256_set_m128i(_mm_unpackhi_epi8(even, odd), _mm_unpacklo_epi8(even, odd));
            __m256i hi = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(high + i)), lowMask);
            __m256i z = _mm256_or_si256(lo, _mm256_slli_epi16(hi, 4));
            __m256i r = _mm256_xor_si256(_mm256_and_si256(_mm256_srli_epi16(z, 1), seven), _mm256_sub_epi8(zero, _mm256_and_si256(z, one)));
            __m256i p = predictor ? _mm256_loadu_si256((const __m256i *)(predictor + i)) : zero;
            __m256i up = y ? _mm256_loadu_si256((const __m256i *)(frame + i - width)) : zero;
            __m256i pUp = y && predictor ? _mm256_loadu_si256((const __m256i *)(predictor + i - width)) : zero;
            int m0 = rowModes[bx], m1 = rowModes[bx + 1];
            __m256i spatial = _mm256_set_m128i(_mm_set1_epi8((char)-(m1 == LT_MODE_SPATIAL)), _mm_set1_epi8((char)-(m0 == LT_MODE_SPATIAL)));
            __m256i both = _mm256_set_m128i(_mm_set1_epi8((char)-(m1 == LT_MODE_TEMPORAL_SPATIAL)), _mm_set1_epi8((char)-(m0 == LT_MODE_TEMPORAL_SPATIAL)));
            __m256i base = _mm256_blendv_epi8(p, up, spatial);
            __m256i add = _mm256_and_si256(_mm256_sub_epi8(up, pUp), both);
            _mm256_storeu_si256((__m256i *)(frame + i), _mm256_add_epi8(_mm256_add_epi8(base, add), r));
        }
        // An odd full block left, then the partial one at the right edge.
        for (; bx < full; bx++) decode_block_row_ssse3(rowModes[bx], low, high, predictor, width, y, bx, BLOCK, frame);
        if (full < columns)
            decode_block_row_ssse3(rowModes[full], low, high, predictor, width, y, full, width - full * BLOCK, frame);
    }
}

static int portable_only, has_ssse3, has_avx2;

__attribute__((constructor)) static void lt_block_kernels_init(void) {
    __builtin_cpu_init();
    has_ssse3 = __builtin_cpu_supports("ssse3");
    has_avx2 = __builtin_cpu_supports("avx2");
}

static int use_ssse3(void) { return has_ssse3 && !__atomic_load_n(&portable_only, __ATOMIC_RELAXED); }
static int use_avx2(void) { return has_avx2 && !__atomic_load_n(&portable_only, __ATOMIC_RELAXED); }

void lt_blocks_use_portable_path(int portable) { __atomic_store_n(&portable_only, portable, __ATOMIC_RELAXED); }
#else
void lt_blocks_use_portable_path(int portable) { (void)portable; }
#endif

void lt_blocks_encode(const uint8_t *current, const uint8_t *predictor, size_t width, size_t height, int spatial,
                      uint8_t *modes, uint8_t *low, uint8_t *high) {
#ifdef LT_BLOCKS_X86
    if (spatial == LT_SPATIAL_UP && width % 2 == 0 && use_ssse3()) {
        encode_up_ssse3(current, predictor, width, height, modes, low, high);
        return;
    }
#endif
    size_t columns = (width + BLOCK - 1) / BLOCK;
    for (size_t by = 0; by * BLOCK < height; by++)
        for (size_t bx = 0; bx < columns; bx++) encode_block(current, predictor, width, height, spatial, bx, by, modes, low, high);
}

int lt_blocks_decode(const uint8_t *modes, const uint8_t *low, const uint8_t *high, const uint8_t *predictor, size_t width,
                     size_t height, int spatial, uint8_t *frame) {
    size_t columns = (width + BLOCK - 1) / BLOCK, blocks = lt_prediction_block_count(width, height);
    for (size_t b = 0; b < blocks; b++)
        if (modes[b] >= LT_MODE_COUNT) return -1;
#ifdef LT_BLOCKS_X86
    if (spatial == LT_SPATIAL_UP && width % 2 == 0 && use_avx2()) {
        decode_up_avx2(modes, low, high, predictor, width, height, frame);
        return 0;
    }
    if (spatial == LT_SPATIAL_UP && width % 2 == 0 && use_ssse3()) {
        decode_up_ssse3(modes, low, high, predictor, width, height, frame);
        return 0;
    }
#endif
    for (size_t y = 0; y < height; y++)
        for (size_t bx = 0; bx < columns; bx++)
            decode_segment(low, high, predictor, width, spatial, modes[(y / BLOCK) * columns + bx], bx, y, frame);
    return 0;
}
