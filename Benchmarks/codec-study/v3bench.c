// Prototype of format-3 frame coding on a gray Y4M: size with zstd level 1 (30-frame chunks) and
// decode MB/s, for spatial = UP and MED, against format-2-like masked temporal residual; then the
// share of decoding: zstd, the high-nibble expansion and the block pass, each in MB/s of frames.
//   cc -O2 -o /tmp/v3bench Benchmarks/codec-study/v3bench.c Sources/CResidualKernels/*.c -ISources/CResidualKernels/include -lzstd
//   /tmp/v3bench clip.y4m
#include "residual_kernels.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); char line[256]; fgets(line, sizeof line, f);
    int w = 0, h = 0; char *p = line; while (*p) { if (*p == ' ' && p[1] == 'W') w = atoi(p + 2); if (*p == ' ' && p[1] == 'H') h = atoi(p + 2); p++; }
    size_t n = (size_t)w * h, cap = 600, count = 0; uint8_t *frames = malloc(cap * n);
    while (count < cap && fgets(line, sizeof line, f) && fread(frames + count * n, 1, n, f) == n) count++;
    int chunk = 30;
    uint8_t *zeros = calloc(n, 1);
    for (int spatial = -1; spatial < 2; spatial++) {
        size_t blocks = lt_prediction_block_count(w, h);
        size_t total = 0; double dsec = 0, esec = 0, tz = 0, te = 0, tb = 0;
        uint8_t *buf = malloc(chunk * (n * 2 + blocks + n / 8 + 64)), *dec = malloc(chunk * (n * 2 + blocks + n / 8 + 64));
        uint8_t *res = malloc(n), *hi = malloc(n), *out = malloc(n * (chunk + 1)), *zbuf = malloc(ZSTD_compressBound(chunk * (n * 2 + blocks + n / 8 + 64)));
        for (size_t c0 = 0; c0 < count; c0 += chunk) {
            size_t c1 = c0 + chunk < count ? c0 + chunk : count, k = c1 - c0;
            // layout: modes[k] | low[k] | masks[k] | values...
            size_t lowSize = (n + 1) / 2, maskSize = (n + 7) / 8;
            uint8_t *modes = buf, *low = modes + k * blocks, *masks = low + k * lowSize, *values = masks + k * maskSize; size_t nv = 0;
            double t0 = now();
            for (size_t i = c0; i < c1; i++) {
                const uint8_t *pred = i == c0 ? NULL : frames + (i - 1) * n;
                if (spatial < 0) { nv += lt_residual_compact(frames + i * n, pred ? pred : zeros, n, masks + (i - c0) * maskSize, values + nv); continue; }
                lt_blocks_encode(frames + i * n, pred, w, h, spatial, modes + (i - c0) * blocks, low + (i - c0) * lowSize, hi);
                nv += lt_residual_compact(hi, zeros, n, masks + (i - c0) * maskSize, values + nv);
            }
            size_t raw = (values + nv) - buf;
            size_t z = ZSTD_compress(zbuf, ZSTD_compressBound(raw), buf, raw, 1);
            esec += now() - t0;
            total += z;
            double t1 = now();
            ZSTD_decompress(dec, raw, zbuf, z); tz += now() - t1;
            uint8_t *dm = dec, *dl = dm + k * blocks, *dk = dl + k * lowSize, *dv = dk + k * maskSize; size_t used = 0;
            for (size_t i = c0; i < c1; i++) {
                uint8_t *o = out + ((i - c0) + 1) * n; const uint8_t *pred = i == c0 ? NULL : o - n;
                if (spatial < 0) { used += lt_residual_expand(dk + (i - c0) * maskSize, dv + used, raw - (dv - dec) - used, raw - (dv - dec) - used, n, pred ? pred : zeros, o); continue; }
                double te0 = now(); used += lt_residual_expand(dk + (i - c0) * maskSize, dv + used, raw - (dv - dec) - used, raw - (dv - dec) - used, n, zeros, hi);
                te += now() - te0; double tb0 = now(); lt_blocks_decode(dm + (i - c0) * blocks, dl + (i - c0) * lowSize, hi, pred, w, h, spatial, o); tb += now() - tb0;
            }
            dsec += now() - t1;
            for (size_t i = c0; i < c1; i++) if (memcmp(out + ((i - c0) + 1) * n, frames + i * n, n)) { printf("MISMATCH frame %zu\n", i); return 1; }
        }
        printf("%s %dx%d %zu frames spatial=%s ratio %.2f encode %.0f MB/s decode %.0f MB/s\n", argv[1], w, h, count, spatial < 0 ? "v2-mask" : spatial ? "MED" : "UP",
               (double)count * n / total, count * n / esec / 1e6, count * n / dsec / 1e6); printf("   zstd %.0f MB/s, expand %.0f MB/s, blocks %.0f MB/s\n", count*n/tz/1e6, count*n/te/1e6, count*n/tb/1e6);
    }
    return 0;
}
