// Range requests over HTTP(S) with libcurl, for reading a recording from a web server or an object
// store (HTTPByteSource.swift). One handle keeps its connection alive between requests; it is not
// thread-safe (the Swift side serializes). libcurl's setopt is variadic, which Swift cannot call,
// so the whole request is made here and its outcome handed back in a struct.
#ifndef LT_HTTP_RANGE_H
#define LT_HTTP_RANGE_H

#include <stddef.h>
#include <stdint.h>

typedef struct lt_http lt_http;

/// The outcome of one request.
typedef struct {
    /// HTTP status (206 for a range), 0 when no response arrived.
    long status;
    /// The resource's whole length from `Content-Range: bytes a-b/TOTAL` (or the length of a 200
    /// answer), -1 when the answer does not say.
    int64_t total;
    /// First byte of the range the server sent, -1 when it sent no Content-Range.
    int64_t first;
    /// Body bytes received and written to the caller's buffer.
    size_t received;
    /// 1 when the body was longer than asked (nothing past `count` is written).
    int overflow;
    /// 1 when the failure is worth retrying: a connection refused, reset or cut, a timeout.
    int transient;
    /// 1 when the request ran out of time (`timeout_seconds`, or too slow for too long).
    int timed_out;
    /// The ETag header, empty when there is none.
    char etag[256];
    /// libcurl's error text, empty on success.
    char error[256];
} lt_http_response;

/// A handle for `url` (only http:// and https:// are followed, redirects included); NULL when
/// libcurl cannot be set up. A request that takes longer than `timeout_seconds` in all, or that
/// receives under 512 bytes a second for 30 s, fails as a timeout (transient).
lt_http *lt_http_open(const char *url, long timeout_seconds);
void lt_http_close(lt_http *http);

/// GETs bytes `offset ..< offset + count` into `out`. Returns 0 when a response arrived (check
/// `status`), -1 when the transfer failed (see `error`, `transient`).
int lt_http_get_range(lt_http *http, uint64_t offset, size_t count, uint8_t *out, lt_http_response *response);

#endif
