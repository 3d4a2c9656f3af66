// Study: how zstd's level changes format 3's payloads. Codes a gray Y4M's frames (at most 400) as
// format-3 chunk payloads of 30 frames (block modes, low nibbles, high-nibble masks, non-zero high
// nibbles) and compresses each with zstd at LEVEL (content checksum on, as the format does), then
// prints the ratio and zstd's own compress and decompress speeds in MB/s of frames.
//   cc -O2 -o /tmp/levels Benchmarks/codec-study/levels.c Sources/CResidualKernels/*.c -ISources/CResidualKernels/include -lzstd
//   /tmp/levels clip.y4m 1      # the format's level; 2, 3 … or negative (-1, -3: literals left uncoded)
// (`lumatrace export REC --format y4m` makes the Y4M; Benchmarks/codec-study/run does it for every clip.)
#include "residual_kernels.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: levels CLIP.y4m LEVEL\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    char line[256];
    if (!f || !fgets(line, sizeof line, f)) { fprintf(stderr, "levels: cannot read %s\n", argv[1]); return 2; }
    int level = atoi(argv[2]), w = 0, h = 0;
    for (char *p = line; *p; p++) {
        if (p[0] == ' ' && p[1] == 'W') w = atoi(p + 2);
        if (p[0] == ' ' && p[1] == 'H') h = atoi(p + 2);
    }
    if (w <= 0 || h <= 0) { fprintf(stderr, "levels: no size in %s's header\n", argv[1]); return 2; }
    size_t n = (size_t)w * h, cap = 400, count = 0, chunk = 30;
    uint8_t *frames = malloc(cap * n);
    while (count < cap && fgets(line, sizeof line, f) && fread(frames + count * n, 1, n, f) == n) count++;
    size_t blocks = lt_prediction_block_count(w, h), lowSize = (n + 1) / 2, maskSize = (n + 7) / 8;
    size_t capacity = chunk * (blocks + lowSize + maskSize + n) + 64;
    uint8_t *raw = malloc(capacity), *back = malloc(capacity), *high = malloc(n), *zeros = calloc(n, 1);
    uint8_t *packed = malloc(ZSTD_compressBound(capacity));
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    double compressing = 0, decompressing = 0;
    size_t total = 0;
    for (size_t c0 = 0; c0 < count; c0 += chunk) {
        size_t k = c0 + chunk < count ? chunk : count - c0, values = 0;
        uint8_t *modes = raw, *lows = modes + k * blocks, *masks = lows + k * lowSize, *nonzero = masks + k * maskSize;
        for (size_t i = 0; i < k; i++) {
            const uint8_t *predictor = i == 0 ? NULL : frames + (c0 + i - 1) * n;
            lt_blocks_encode(frames + (c0 + i) * n, predictor, w, h, LT_SPATIAL_UP, modes + i * blocks, lows + i * lowSize, high);
            values += lt_residual_compact(high, zeros, n, masks + i * maskSize, nonzero + values);
        }
        size_t length = (size_t)(nonzero + values - raw);
        double t0 = now();
        ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
        size_t z = ZSTD_compress2(cctx, packed, ZSTD_compressBound(capacity), raw, length);
        double t1 = now();
        size_t r = ZSTD_decompressDCtx(dctx, back, capacity, packed, z);
        double t2 = now();
        if (ZSTD_isError(z) || r != length || memcmp(back, raw, length)) { fprintf(stderr, "levels: round trip failed\n"); return 1; }
        compressing += t1 - t0;
        decompressing += t2 - t1;
        total += z;
    }
    printf("%s level %d: ratio %.3f, zstd compress %.0f MB/s, decompress %.0f MB/s (of frames)\n", argv[1], level,
           (double)(count * n) / total, count * n / compressing / 1e6, count * n / decompressing / 1e6);
    return 0;
}
