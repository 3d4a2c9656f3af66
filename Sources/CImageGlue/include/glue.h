#ifndef LUMATRACE_CIMAGEGLUE_H
#define LUMATRACE_CIMAGEGLUE_H
// Plain-C front end to libpng and libjpeg: image-file decoding for LumaFormat, PNG writing for LumaRender.
//
// Both libraries report errors by longjmp, which must never cross a Swift frame. Every setjmp and
// longjmp lives in glue.c; these functions always return normally with a status code and, on
// failure, a NUL-terminated message in `err` (at most `errcap` bytes including the NUL).
//
// Decoding works on a complete in-memory file. Output is 8-bit luma, row-major, top row first,
// written straight into a caller-provided buffer of exactly width * height bytes; the glue itself
// allocates only one row (PNG) or what libjpeg needs internally (capped, see LT_JPEG_MAX_MEMORY).

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes returned by every lt_* function.
enum {
    LT_OK = 0,
    LT_ERR_CORRUPT = 1,      ///< The library rejected the data (bad checksum, bad Huffman code).
    LT_ERR_TRUNCATED = 2,    ///< The data ends before the image does.
    LT_ERR_UNSUPPORTED = 3,  ///< Valid but not handled here: CMYK/YCCK, arithmetic-coded,
                             ///< 12-bit or lossless JPEG, or one needing over LT_JPEG_MAX_MEMORY.
    LT_ERR_LIMIT = 4,        ///< Width or height is 0 or over LT_MAX_DIMENSION (*w and *h are set).
    LT_ERR_ARGUMENT = 5,     ///< The output buffer does not hold exactly width * height bytes.
};

/// Largest width or height accepted (each dimension must be 1...LT_MAX_DIMENSION).
#define LT_MAX_DIMENSION 16384u
/// libjpeg's max_memory_to_use: caps the whole-image coefficient buffers of progressive JPEGs.
#define LT_JPEG_MAX_MEMORY (1024L * 1024L * 1024L)
/// Progressive JPEGs with more scans than this are refused (each scan is a pass over the image).
#define LT_JPEG_MAX_SCANS 100
/// libpng's png_set_chunk_malloc_max: no ancillary chunk is kept, so this is only a backstop.
#define LT_PNG_CHUNK_MALLOC_MAX (1024u * 1024u)

/// Reads the PNG header only. On success or LT_ERR_LIMIT, *w and *h hold the declared size.
int lt_png_read_info(const uint8_t *data, size_t size, uint32_t *w, uint32_t *h,
                     char *err, size_t errcap);

/// Decodes a PNG of any color type, bit depth and interlacing to luma: gray as is, 16-bit samples
/// by their high byte, palette and RGB by Y = (77 R + 150 G + 29 B + 128) >> 8, alpha dropped.
/// `outcap` must equal width * height.
int lt_png_decode_luma(const uint8_t *data, size_t size, uint8_t *out, size_t outcap,
                       char *err, size_t errcap);

/// Decodes a PNG to 8-bit RGB, 3 bytes per pixel (gray replicated, 16-bit by the high byte,
/// alpha dropped). `outcap` must equal width * height * 3.
int lt_png_decode_rgb(const uint8_t *data, size_t size, uint8_t *out, size_t outcap,
                      char *err, size_t errcap);

/// Encodes 8-bit RGB (3 bytes per pixel, top row first) as a PNG in memory at zlib `level` 0...9.
/// On LT_OK, *out is a malloc'ed buffer of *outsize bytes that the caller releases with lt_free.
int lt_png_encode_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, int level,
                      uint8_t **out, size_t *outsize, char *err, size_t errcap);

/// Releases a buffer returned by lt_png_encode_rgb.
void lt_free(void *pointer);

/// Reads the JPEG header (up to the first scan). On success or LT_ERR_LIMIT, *w and *h are set.
int lt_jpeg_read_info(const uint8_t *data, size_t size, uint32_t *w, uint32_t *h,
                      char *err, size_t errcap);

/// Decodes a JPEG to luma via libjpeg's JCS_GRAYSCALE output (the Y channel of YCbCr as coded).
/// Warnings that mean lost or damaged data (premature end, bad Huffman code, ...) are errors.
/// `outcap` must equal width * height.
int lt_jpeg_decode_luma(const uint8_t *data, size_t size, uint8_t *out, size_t outcap,
                        char *err, size_t errcap);

/// Converts `pixels` 8-bit RGB pixels (3 bytes each) to luma with the weights PNG decoding uses:
/// Y = (77 R + 150 G + 29 B + 128) >> 8 (BT.601, full range). Used for video whose frames are RGB,
/// so a GIF and the same frames as PNG files give the same luma.
void lt_rgb_to_luma(const uint8_t *rgb, size_t pixels, uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif
