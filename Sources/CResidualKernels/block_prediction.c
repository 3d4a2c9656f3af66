// See residual_kernels.h: block-wise prediction and nibble packing (format version 3, a study on
// the codec-v3 branch).
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

void lt_blocks_predict(const uint8_t *current, const uint8_t *predictor, size_t width, size_t height, int spatial,
                       uint8_t *modes, uint8_t *residual) {
    size_t columns = (width + BLOCK - 1) / BLOCK;
    for (size_t by = 0; by * BLOCK < height; by++) {
        size_t y0 = by * BLOCK, y1 = y0 + BLOCK < height ? y0 + BLOCK : height;
        for (size_t bx = 0; bx < columns; bx++) {
            size_t x0 = bx * BLOCK, x1 = x0 + BLOCK < width ? x0 + BLOCK : width;
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
                for (size_t x = x0; x < x1; x++)
                    residual[y * width + x] = zigzag(residual_at(current, predictor, width, spatial, best, x, y));
        }
    }
}

int lt_blocks_reconstruct(const uint8_t *modes, const uint8_t *residual, const uint8_t *predictor, size_t width,
                          size_t height, int spatial, uint8_t *frame) {
    size_t columns = (width + BLOCK - 1) / BLOCK, blocks = lt_prediction_block_count(width, height);
    for (size_t b = 0; b < blocks; b++)
        if (modes[b] >= LT_MODE_COUNT) return -1;
    for (size_t y = 0; y < height; y++) {
        const uint8_t *row_modes = modes + (y / BLOCK) * columns;
        const uint8_t *r = residual + y * width;
        const uint8_t *p = predictor ? predictor + y * width : NULL;
        uint8_t *f = frame + y * width;
        for (size_t bx = 0; bx < columns; bx++) {
            size_t x0 = bx * BLOCK, x1 = x0 + BLOCK < width ? x0 + BLOCK : width;
            switch (row_modes[bx]) {
            case LT_MODE_TEMPORAL:
                for (size_t x = x0; x < x1; x++) f[x] = (uint8_t)((p ? p[x] : 0) + unzigzag(r[x]));
                break;
            case LT_MODE_SPATIAL:
#define PIXEL(px, py) ((int)frame[(py) * width + (px)])
                for (size_t x = x0; x < x1; x++) f[x] = (uint8_t)(NEIGHBOUR_PREDICTION(spatial, PIXEL, x, y) + unzigzag(r[x]));
#undef PIXEL
                break;
            default:
#define TEMPORAL(px, py) ((int)(int8_t)(uint8_t)(frame[(py) * width + (px)] - (predictor ? predictor[(py) * width + (px)] : 0)))
                for (size_t x = x0; x < x1; x++)
                    f[x] = (uint8_t)((p ? p[x] : 0) + NEIGHBOUR_PREDICTION(spatial, TEMPORAL, x, y) + unzigzag(r[x]));
#undef TEMPORAL
                break;
            }
        }
    }
    return 0;
}

void lt_nibbles_split(const uint8_t *values, size_t count, uint8_t *low, uint8_t *high) {
    size_t i = 0;
    for (; i + 1 < count; i += 2) {
        low[i / 2] = (uint8_t)((values[i] & 15) | (values[i + 1] << 4));
        high[i] = values[i] >> 4;
        high[i + 1] = values[i + 1] >> 4;
    }
    if (i < count) {
        low[i / 2] = values[i] & 15;
        high[i] = values[i] >> 4;
    }
}

void lt_nibbles_join(const uint8_t *low, const uint8_t *high, size_t count, uint8_t *values) {
    for (size_t i = 0; i < count; i++) {
        uint8_t pair = low[i / 2];
        values[i] = (uint8_t)(((i & 1) ? pair >> 4 : pair & 15) | (high[i] << 4));
    }
}
