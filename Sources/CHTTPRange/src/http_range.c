// See http_range.h.
#include "http_range.h"

#include <curl/curl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct lt_http {
    CURL *curl;
    char error[CURL_ERROR_SIZE];
};

typedef struct {
    uint8_t *out;
    size_t count;
    lt_http_response *response;
} transfer;

static size_t on_body(char *data, size_t size, size_t n, void *context) {
    transfer *t = context;
    size_t bytes = size * n;
    size_t room = t->count - t->response->received;
    if (bytes > room) {
        t->response->overflow = 1;
        return 0;  // aborts the transfer: never write past the caller's buffer
    }
    memcpy(t->out + t->response->received, data, bytes);
    t->response->received += bytes;
    return bytes;
}

/// Header lines: keeps Content-Range's total and first byte, and the ETag. A redirect's headers
/// come first; the status line of each response resets what an earlier one said.
static size_t on_header(char *line, size_t size, size_t n, void *context) {
    transfer *t = context;
    size_t bytes = size * n;
    char text[512];
    size_t length = bytes < sizeof text - 1 ? bytes : sizeof text - 1;
    memcpy(text, line, length);
    text[length] = 0;
    while (length > 0 && (text[length - 1] == '\r' || text[length - 1] == '\n')) text[--length] = 0;
    lt_http_response *r = t->response;
    if (strncmp(text, "HTTP/", 5) == 0) {
        r->total = -1;
        r->first = -1;
        r->etag[0] = 0;
    } else if (strncasecmp(text, "content-range:", 14) == 0) {
        int64_t first = -1, last = -1, total = -1;
        if (sscanf(text + 14, " bytes %" SCNd64 "-%" SCNd64 "/%" SCNd64, &first, &last, &total) == 3) {
            r->first = first;
            r->total = total;
        } else if (sscanf(text + 14, " bytes */%" SCNd64, &total) == 1) {
            r->total = total;
        }
    } else if (strncasecmp(text, "content-length:", 15) == 0 && r->first < 0) {
        // A whole answer (HTTP 200) says its length here; a range answer's Content-Range wins.
        int64_t length = -1;
        if (sscanf(text + 15, " %" SCNd64, &length) == 1 && r->total < 0) r->total = length;
    } else if (strncasecmp(text, "etag:", 5) == 0) {
        const char *value = text + 5;
        while (*value == ' ' || *value == '\t') value++;
        snprintf(r->etag, sizeof r->etag, "%s", value);
    }
    return bytes;
}

lt_http *lt_http_open(const char *url, long timeout_seconds) {
    static int initialized = 0;
    if (!initialized) {
        curl_global_init(CURL_GLOBAL_DEFAULT);
        initialized = 1;
    }
    lt_http *http = calloc(1, sizeof *http);
    if (!http) return NULL;
    http->curl = curl_easy_init();
    if (!http->curl) {
        free(http);
        return NULL;
    }
    CURL *c = http->curl;
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 15L);
    // A stalled or trickling server: under 512 bytes/s for 30 s, or a request longer than the
    // deadline in all, ends the request (and it is retried). Without the deadline, a body sent at
    // 2 bytes a second would hold a replay for days.
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 512L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 30L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, timeout_seconds);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "lumatrace");
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, http->error);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    // Identity encoding only: a compressed answer's length would not be the range's.
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, NULL);
    return http;
}

void lt_http_close(lt_http *http) {
    if (!http) return;
    curl_easy_cleanup(http->curl);
    free(http);
}

int lt_http_get_range(lt_http *http, uint64_t offset, size_t count, uint8_t *out, lt_http_response *response) {
    memset(response, 0, sizeof *response);
    response->total = -1;
    response->first = -1;
    if (count == 0) return -1;
    transfer t = {out, count, response};
    char range[64];
    snprintf(range, sizeof range, "%" PRIu64 "-%" PRIu64, offset, offset + (uint64_t)count - 1);
    CURL *c = http->curl;
    http->error[0] = 0;
    curl_easy_setopt(c, CURLOPT_RANGE, range);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &t);
    CURLcode code = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &response->status);
    if (code == CURLE_OK) return 0;
    if (code == CURLE_WRITE_ERROR && response->overflow) return 0;  // the caller sees `overflow`
    snprintf(response->error, sizeof response->error, "%s", http->error[0] ? http->error : curl_easy_strerror(code));
    switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
        response->timed_out = 1;
        response->transient = 1;
        break;
    case CURLE_OUT_OF_MEMORY:
        // libcurl says "Out of memory" for a header line longer than it takes in (100 KB).
        snprintf(response->error, sizeof response->error, "the server's answer could not be taken in (libcurl: %s): "
                 "a header line over libcurl's 100 KB limit does this", http->error[0] ? http->error : curl_easy_strerror(code));
        break;
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
        response->transient = 1;
        break;
    default:
        break;
    }
    return -1;
}
