// libpng and libjpeg behind plain functions that return a status code (see glue.h).
//
// Why C: both libraries signal errors by longjmp, and unwinding through Swift frames is undefined.
// Each entry point below owns its setjmp, so a longjmp only ever crosses C frames of this file and
// of the library, and every entry point returns normally.

#include "glue.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>
#include <jpeglib.h>
#include <jerror.h>

static void lt_set_message(char *err, size_t errcap, const char *prefix, const char *msg) {
    if (err == NULL || errcap == 0) return;
    snprintf(err, errcap, "%s%s", prefix ? prefix : "", msg ? msg : "");
}

static int lt_dimensions_ok(uint32_t w, uint32_t h) {
    return w >= 1 && h >= 1 && w <= LT_MAX_DIMENSION && h <= LT_MAX_DIMENSION;
}

static int lt_limit_error(uint32_t w, uint32_t h, char *err, size_t errcap) {
    char msg[160];
    snprintf(msg, sizeof msg, "image is %ux%u; width and height must each be 1...%u",
             (unsigned)w, (unsigned)h, (unsigned)LT_MAX_DIMENSION);
    lt_set_message(err, errcap, NULL, msg);
    return LT_ERR_LIMIT;
}

// MARK: - PNG

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;
    int truncated;  // set when libpng asked for bytes past the end
    int code;       // first error's status code
    char *err;
    size_t errcap;
} lt_png_ctx;

static void lt_png_read(png_structp png, png_bytep out, size_t n) {
    lt_png_ctx *ctx = (lt_png_ctx *)png_get_io_ptr(png);
    if (n > ctx->size - ctx->pos) {
        ctx->truncated = 1;
        png_error(png, "file ends in the middle of a chunk");
    }
    memcpy(out, ctx->data + ctx->pos, n);
    ctx->pos += n;
}

static void lt_png_error(png_structp png, png_const_charp msg) {
    lt_png_ctx *ctx = (lt_png_ctx *)png_get_error_ptr(png);
    if (ctx->code == LT_OK) {
        ctx->code = ctx->truncated ? LT_ERR_TRUNCATED : LT_ERR_CORRUPT;
        lt_set_message(ctx->err, ctx->errcap, NULL, msg);
    }
    png_longjmp(png, 1);
}

static void lt_png_warning(png_structp png, png_const_charp msg) {
    // Warnings (a damaged ancillary chunk, an sRGB profile quirk, ...) never affect the pixels we
    // keep, so they are dropped rather than printed to stderr.
    (void)png;
    (void)msg;
}

// Reads the size straight from IHDR so an over-limit image gets a precise message before libpng's
// generic "exceeds user limit". Returns LT_OK when there is no IHDR to read (libpng reports it).
static int lt_png_precheck(const uint8_t *data, size_t size, uint32_t *w, uint32_t *h,
                           char *err, size_t errcap) {
    if (size < 24 || memcmp(data + 12, "IHDR", 4) != 0) return LT_OK;
    uint32_t width = png_get_uint_32(data + 16), height = png_get_uint_32(data + 20);
    if (w) *w = width;
    if (h) *h = height;
    if (!lt_dimensions_ok(width, height)) return lt_limit_error(width, height, err, errcap);
    return LT_OK;
}

static png_structp lt_png_create(lt_png_ctx *ctx, png_infop *info) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, ctx, lt_png_error,
                                             lt_png_warning);
    if (png == NULL) return NULL;
    *info = png_create_info_struct(png);
    if (*info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return NULL;
    }
    return png;
}

// Limits and chunk policy, applied before libpng reads a byte.
static void lt_png_configure(png_structp png, lt_png_ctx *ctx) {
    png_set_user_limits(png, LT_MAX_DIMENSION, LT_MAX_DIMENSION);
    png_set_chunk_cache_max(png, 64);
    png_set_chunk_malloc_max(png, LT_PNG_CHUNK_MALLOC_MAX);
    // Skip every ancillary chunk (text, ICC profiles, gamma, ...): luma is taken from the raw
    // samples, as ffmpeg does, and skipping means no decompressing of zTXt/iCCP payloads.
    // Negative count = all known chunks except IHDR, PLTE, tRNS, IDAT and IEND, plus unknown ones.
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_set_read_fn(png, ctx, lt_png_read);
}

// BT.601 full-range luma with 8-bit weights summing to 256: exact for gray (R = G = B gives Y = R).
static inline uint8_t lt_luma(const uint8_t *rgb) {
    return (uint8_t)((77u * rgb[0] + 150u * rgb[1] + 29u * rgb[2] + 128u) >> 8);
}

void lt_rgb_to_luma(const uint8_t *rgb, size_t pixels, uint8_t *out) {
    for (size_t i = 0; i < pixels; i++) out[i] = lt_luma(rgb + i * 3);
}

// Reads the header, and decodes to `outch` channels per pixel: 1 (luma) or 3 (RGB, gray
// replicated), or with 0 stops after the header: the one setjmp context of every PNG entry point.
// `w` and `h`, when given, get the header's dimensions as soon as they are known, even when refused.
static int lt_png_decode(const uint8_t *data, size_t size, uint32_t *w, uint32_t *h, uint8_t *out, size_t outcap,
                         size_t outch, char *err, size_t errcap) {
    lt_set_message(err, errcap, NULL, "");
    int pre = lt_png_precheck(data, size, w, h, err, errcap);
    if (pre != LT_OK) return pre;

    lt_png_ctx ctx = {data, size, 0, 0, LT_OK, err, errcap};
    png_infop info = NULL;
    png_structp png = lt_png_create(&ctx, &info);
    if (png == NULL) {
        lt_set_message(err, errcap, NULL, "out of memory creating the PNG reader");
        return LT_ERR_CORRUPT;
    }
    // Assigned after setjmp, read after longjmp: must be volatile.
    uint8_t *volatile row = NULL;
    volatile int status = LT_OK;
    if (setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_read_struct(&png, &info, NULL);
        if (status != LT_OK) return status;
        return ctx.code == LT_OK ? LT_ERR_CORRUPT : ctx.code;
    }
    lt_png_configure(png, &ctx);
    png_read_info(png, info);

    uint32_t width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    if (w) *w = width;
    if (h) *h = height;
    if (!lt_dimensions_ok(width, height)) {
        status = lt_limit_error(width, height, err, errcap);
        png_longjmp(png, 1);
    }
    if (outch == 0) {
        png_destroy_read_struct(&png, &info, NULL);
        return LT_OK;
    }
    if ((size_t)width * height * outch != outcap) {
        status = LT_ERR_ARGUMENT;
        lt_set_message(err, errcap, NULL, "output buffer size is not width * height * channels");
        png_longjmp(png, 1);
    }
    int interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;

    // Everything to 8-bit gray or 8-bit RGB: palette → RGB, gray < 8 bits scaled up (1-bit 1 →
    // 255), 16-bit → high byte, alpha (including tRNS turned into alpha) dropped without
    // compositing. Interlace handling is deliberately NOT enabled: each Adam7 pass's rows arrive as
    // small sub-images that are scattered into `out` below, so memory stays at one row.
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_strip_alpha(png);
    png_read_update_info(png, info);

    size_t channels = png_get_channels(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if ((channels != 1 && channels != 3) || png_get_bit_depth(png, info) != 8 ||
        rowbytes < (size_t)width * channels) {
        status = LT_ERR_CORRUPT;
        lt_set_message(err, errcap, NULL, "unexpected pixel layout after expansion");
        png_longjmp(png, 1);
    }
    row = (uint8_t *)malloc(rowbytes);
    if (row == NULL) {
        status = LT_ERR_CORRUPT;
        lt_set_message(err, errcap, NULL, "out of memory for one row");
        png_longjmp(png, 1);
    }

    for (int pass = 0; pass < (interlaced ? 7 : 1); pass++) {
        uint32_t cols = interlaced ? PNG_PASS_COLS(width, pass) : width;
        uint32_t rows = interlaced ? PNG_PASS_ROWS(height, pass) : height;
        if (cols == 0 || rows == 0) continue;  // libpng skips empty passes too
        for (uint32_t r = 0; r < rows; r++) {
            png_read_row(png, row, NULL);
            uint32_t y = interlaced ? PNG_ROW_FROM_PASS_ROW(r, pass) : r;
            uint8_t *dst = out + (size_t)y * width * outch;
            for (uint32_t i = 0; i < cols; i++) {
                uint32_t x = interlaced ? PNG_COL_FROM_PASS_COL(i, pass) : i;
                if (outch == 1) {
                    dst[x] = channels == 1 ? row[i] : lt_luma(row + (size_t)i * 3);
                } else {
                    for (size_t c = 0; c < 3; c++) dst[(size_t)x * 3 + c] = channels == 1 ? row[i] : row[(size_t)i * 3 + c];
                }
            }
        }
    }
    // Reads through IEND, checking the remaining chunks' CRCs: a file cut after its last IDAT is
    // still an error.
    png_read_end(png, NULL);

    free(row);
    png_destroy_read_struct(&png, &info, NULL);
    return LT_OK;
}

int lt_png_read_info(const uint8_t *data, size_t size, uint32_t *w, uint32_t *h,
                     char *err, size_t errcap) {
    if (w) *w = 0;
    if (h) *h = 0;
    return lt_png_decode(data, size, w, h, NULL, 0, 0, err, errcap);
}

int lt_png_decode_luma(const uint8_t *data, size_t size, uint8_t *out, size_t outcap,
                       char *err, size_t errcap) {
    return lt_png_decode(data, size, NULL, NULL, out, outcap, 1, err, errcap);
}

int lt_png_decode_rgb(const uint8_t *data, size_t size, uint8_t *out, size_t outcap,
                      char *err, size_t errcap) {
    return lt_png_decode(data, size, NULL, NULL, out, outcap, 3, err, errcap);
}

// MARK: - PNG writing

typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int failed;
    char *err;
    size_t errcap;
} lt_png_sink;

static void lt_png_write(png_structp png, png_bytep bytes, size_t n) {
    lt_png_sink *sink = (lt_png_sink *)png_get_io_ptr(png);
    if (sink->size + n > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 65536;
        while (capacity < sink->size + n) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(sink->data, capacity);
        if (grown == NULL) {
            sink->failed = 1;
            png_error(png, "out of memory for the encoded PNG");
        }
        sink->data = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->data + sink->size, bytes, n);
    sink->size += n;
}

static void lt_png_flush(png_structp png) { (void)png; }

static void lt_png_write_error(png_structp png, png_const_charp msg) {
    lt_png_sink *sink = (lt_png_sink *)png_get_error_ptr(png);
    lt_set_message(sink->err, sink->errcap, "PNG encoder: ", msg);
    png_longjmp(png, 1);
}

int lt_png_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int level,
                      uint8_t **out, size_t *outsize, char *err, size_t errcap) {
    *out = NULL;
    *outsize = 0;
    lt_set_message(err, errcap, NULL, "");
    if (!lt_dimensions_ok(width, height)) return lt_limit_error(width, height, err, errcap);
    lt_png_sink sink = {NULL, 0, 0, 0, err, errcap};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, lt_png_write_error, lt_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, &info);
        lt_set_message(err, errcap, NULL, "out of memory creating the PNG writer");
        return LT_ERR_CORRUPT;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(sink.data);
        return LT_ERR_CORRUPT;
    }
    png_set_write_fn(png, &sink, lt_png_write, lt_png_flush);
    png_set_compression_level(png, level < 0 ? 6 : (level > 9 ? 9 : level));
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(rgb + (size_t)y * width * 3));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *out = sink.data;
    *outsize = sink.size;
    return LT_OK;
}

void lt_free(void *pointer) { free(pointer); }

// MARK: - JPEG

typedef struct {
    struct jpeg_error_mgr pub;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    int code;
    char *err;
    size_t errcap;
} lt_jpeg_err;

static void lt_jpeg_fail(j_common_ptr cinfo, int code) {
    lt_jpeg_err *e = (lt_jpeg_err *)cinfo->err;
    if (e->code == LT_OK) {
        char msg[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, msg);
        e->code = code;
        lt_set_message(e->err, e->errcap, NULL, msg);
    }
    longjmp(e->jump, 1);
}

static void lt_jpeg_error_exit(j_common_ptr cinfo) {
    int code = LT_ERR_CORRUPT;
    switch (cinfo->err->msg_code) {
    case JERR_BAD_PRECISION:
    case JERR_SOF_UNSUPPORTED:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_NO_ARITH_TABLE:
        code = LT_ERR_UNSUPPORTED;
        break;
    case JERR_INPUT_EOF:
    case JERR_INPUT_EMPTY:
        code = LT_ERR_TRUNCATED;
        break;
    case JERR_NO_BACKING_STORE: {
        // Only raised when the whole-image coefficient buffers exceed max_memory_to_use.
        lt_jpeg_err *e = (lt_jpeg_err *)cinfo->err;
        if (e->code == LT_OK) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "decoding this progressive or multi-scan JPEG needs more than %ld MiB",
                     (long)(LT_JPEG_MAX_MEMORY >> 20));
            e->code = LT_ERR_UNSUPPORTED;
            lt_set_message(e->err, e->errcap, NULL, msg);
        }
        longjmp(e->jump, 1);
    }
    default:
        break;
    }
    lt_jpeg_fail(cinfo, code);
}

// libjpeg "warnings" include lost data: it pads a truncated file with zeros and carries on. Those
// are errors here; harmless ones (stray bytes between markers, odd JFIF versions) are ignored.
static void lt_jpeg_emit_message(j_common_ptr cinfo, int msg_level) {
    if (msg_level >= 0) return;  // trace messages
    switch (cinfo->err->msg_code) {
    case JWRN_JPEG_EOF:
        lt_jpeg_fail(cinfo, LT_ERR_TRUNCATED);
        break;
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_MUST_RESYNC:
    case JWRN_BOGUS_PROGRESSION:
        lt_jpeg_fail(cinfo, LT_ERR_CORRUPT);
        break;
    default:
        break;
    }
}

static void lt_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

// Called between chunks of work in jpeg_start_decompress/read_scanlines: bounds the number of
// progressive scans, each of which costs a pass over the whole image.
static void lt_jpeg_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    if (d->input_scan_number > LT_JPEG_MAX_SCANS) {
        lt_jpeg_err *e = (lt_jpeg_err *)cinfo->err;
        if (e->code == LT_OK) {
            char msg[160];
            snprintf(msg, sizeof msg, "more than %d scans (a legitimate progressive JPEG has ~10)",
                     LT_JPEG_MAX_SCANS);
            e->code = LT_ERR_CORRUPT;
            lt_set_message(e->err, e->errcap, NULL, msg);
        }
        longjmp(e->jump, 1);
    }
}

// Sets up error handling, limits and the memory source. Call right after a successful setjmp.
static void lt_jpeg_begin(struct jpeg_decompress_struct *cinfo, lt_jpeg_err *e,
                          const uint8_t *data, size_t size) {
    jpeg_create_decompress(cinfo);
    cinfo->mem->max_memory_to_use = LT_JPEG_MAX_MEMORY;
    e->progress.progress_monitor = lt_jpeg_progress;
    cinfo->progress = &e->progress;
    jpeg_mem_src(cinfo, data, (unsigned long)size);
}

static void lt_jpeg_init_err(struct jpeg_decompress_struct *cinfo, lt_jpeg_err *e, char *err,
                             size_t errcap) {
    memset(e, 0, sizeof *e);
    cinfo->err = jpeg_std_error(&e->pub);
    e->pub.error_exit = lt_jpeg_error_exit;
    e->pub.emit_message = lt_jpeg_emit_message;
    e->pub.output_message = lt_jpeg_output_message;
    e->code = LT_OK;
    e->err = err;
    e->errcap = errcap;
}

// After jpeg_read_header: refuse what this decoder does not handle, with a status code.
static int lt_jpeg_check_header(struct jpeg_decompress_struct *cinfo, int header_status,
                                char *err, size_t errcap) {
    if (header_status != JPEG_HEADER_OK) {
        lt_set_message(err, errcap, NULL, "no image in the JPEG data (tables only)");
        return LT_ERR_CORRUPT;
    }
    if (!lt_dimensions_ok(cinfo->image_width, cinfo->image_height))
        return lt_limit_error(cinfo->image_width, cinfo->image_height, err, errcap);
    if (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK) {
        lt_set_message(err, errcap, NULL, "CMYK/YCCK JPEG");
        return LT_ERR_UNSUPPORTED;
    }
    if (cinfo->arith_code) {
        lt_set_message(err, errcap, NULL, "arithmetic-coded JPEG");
        return LT_ERR_UNSUPPORTED;
    }
    return LT_OK;
}

// Reads the header (and with `decode`, the whole image into `out`, `outcap` = width * height
// bytes): the one setjmp context both entry points below share. `w` and `h`, when given, get the
// header's dimensions as soon as it is read, even when the header is refused.
static int lt_jpeg_run(const uint8_t *data, size_t size, uint32_t *w, uint32_t *h, int decode, uint8_t *out,
                       size_t outcap, char *err, size_t errcap) {
    lt_set_message(err, errcap, NULL, "");
    if (size == 0) {
        lt_set_message(err, errcap, NULL, "empty JPEG data");
        return LT_ERR_TRUNCATED;
    }
    struct jpeg_decompress_struct cinfo;
    lt_jpeg_err e;
    lt_jpeg_init_err(&cinfo, &e, err, errcap);
    if (setjmp(e.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return e.code == LT_OK ? LT_ERR_CORRUPT : e.code;
    }
    lt_jpeg_begin(&cinfo, &e, data, size);
    int header = jpeg_read_header(&cinfo, TRUE);
    if (w) *w = cinfo.image_width;
    if (h) *h = cinfo.image_height;
    int status = lt_jpeg_check_header(&cinfo, header, err, errcap);
    if (decode && status == LT_OK && (size_t)cinfo.image_width * cinfo.image_height != outcap) {
        lt_set_message(err, errcap, NULL, "output buffer size is not width * height");
        status = LT_ERR_ARGUMENT;
    }
    if (!decode || status != LT_OK) {
        jpeg_destroy_decompress(&cinfo);
        return status;
    }

    // libjpeg converts to gray by taking Y of YCbCr as is (chroma is not even decoded for
    // sequential files); a 3-component RGB JPEG goes through libjpeg's own RGB → gray weights.
    cinfo.out_color_space = JCS_GRAYSCALE;
    cinfo.dct_method = JDCT_ISLOW;  // the accurate integer IDCT: same output on every machine
    jpeg_start_decompress(&cinfo);
    if (cinfo.output_components != 1 || cinfo.output_width != cinfo.image_width ||
        cinfo.output_height != cinfo.image_height) {
        lt_set_message(err, errcap, NULL, "unexpected output layout from libjpeg");
        jpeg_destroy_decompress(&cinfo);
        return LT_ERR_CORRUPT;
    }
    size_t width = cinfo.output_width;
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW rowptr = out + (size_t)cinfo.output_scanline * width;
        if (jpeg_read_scanlines(&cinfo, &rowptr, 1) != 1) {
            // Only a suspending data source returns 0; the memory source never suspends.
            lt_set_message(err, errcap, NULL, "libjpeg returned no scanline");
            jpeg_destroy_decompress(&cinfo);
            return LT_ERR_CORRUPT;
        }
    }
    // Reads up to EOI, so a file cut after its last scan line is still reported as truncated.
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return LT_OK;
}

int lt_jpeg_read_info(const uint8_t *data, size_t size, uint32_t *w, uint32_t *h,
                      char *err, size_t errcap) {
    if (w) *w = 0;
    if (h) *h = 0;
    return lt_jpeg_run(data, size, w, h, 0, NULL, 0, err, errcap);
}

int lt_jpeg_decode_luma(const uint8_t *data, size_t size, uint8_t *out, size_t outcap,
                        char *err, size_t errcap) {
    return lt_jpeg_run(data, size, NULL, NULL, 1, out, outcap, err, errcap);
}
