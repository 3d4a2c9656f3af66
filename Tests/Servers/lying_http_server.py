#!/usr/bin/env python3
"""A web server that lies, for the tests of lumatrace's HTTP range reader.

usage: lying_http_server.py PORT FILE [SECONDS]

It serves FILE on 127.0.0.1:PORT with range requests; the first segment of the URL's path picks
the lie (http://127.0.0.1:PORT/<lie>/name.luma):

  honest        tells the truth (206, Content-Range, a fixed ETag)
  etag_change   a new ETag on every answer: the resource was replaced
  len_change    a resource one byte longer on every answer
  more          100 KB more body than the range asked for
  wrongcr       a Content-Range one byte past the range asked for
  bighdr        a 10 MiB header line
  slowloris     honest headers, then the body at 2 bytes a second
  slowfirst     the first answer honest, then slowloris
  slowheaders   a status line, then a header line every half second, never ending
  etag_esc      an ETag of terminal escapes (retitles and colours a terminal printed raw)
  st503         HTTP 503 always
  auth          401 unless the request carries Basic credentials; logs them to stderr

It stops by itself after SECONDS (default 120), so a test that fails cannot leave it behind.
"""
import http.server
import os
import re
import socketserver
import sys
import threading
import time

PORT, DATA = int(sys.argv[1]), open(sys.argv[2], "rb").read()
threading.Timer(float(sys.argv[3]) if len(sys.argv) > 3 else 120.0, lambda: os._exit(0)).start()
answers = {}
LIES = {"honest", "etag_change", "len_change", "more", "bighdr", "slowloris", "slowfirst", "slowheaders", "etag_esc",
        "st503", "auth", "wrongcr"}


class Liar(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def byte_range(self):
        match = re.match(r"bytes=(\d+)-(\d+)", self.headers.get("Range", ""))
        if not match:
            return 0, len(DATA) - 1
        return int(match.group(1)), min(int(match.group(2)), len(DATA) - 1)

    def answer(self, status, headers, body=b"", trickle=False):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if not trickle:
            self.wfile.write(body)
            return
        try:
            for i in range(0, len(body), 2):
                self.wfile.write(body[i:i + 2])
                self.wfile.flush()
                time.sleep(1)
        except OSError:
            pass

    def slow_headers(self):
        self.close_connection = True
        try:
            self.wfile.write(b"HTTP/1.1 206 Partial Content\r\n")
            for i in range(100000):
                self.wfile.write(b"X-Slow-%d: 1\r\n" % i)
                self.wfile.flush()
                time.sleep(0.5)
        except OSError:
            pass

    def do_GET(self):
        lie = self.path.split("/")[1] if self.path.count("/") > 1 else ""
        count = answers[lie] = answers.get(lie, 0) + 1
        first, last = self.byte_range()
        body, total, etag = DATA[first:last + 1], len(DATA), '"v1"'
        extra, trickle = [], False
        if lie not in LIES:
            return self.answer(404, [("Content-Length", "0")])
        if lie == "st503":
            return self.answer(503, [("Content-Length", "0")])
        if lie == "slowheaders":
            return self.slow_headers()
        if lie == "auth":
            sys.stderr.write("Authorization: %s\n" % self.headers.get("Authorization"))
            sys.stderr.flush()
            if not self.headers.get("Authorization", "").startswith("Basic "):
                return self.answer(401, [("Content-Length", "0")])
        if lie == "etag_change":
            etag = '"v%d"' % count
        elif lie == "etag_esc":
            etag = '"\x1b]0;PWNED\x07\x1b[31mRED\x1b[0m%d"' % count
        elif lie == "len_change":
            total += count - 1
        elif lie == "more":
            body += b"X" * 100000
        elif lie == "bighdr":
            extra = [("X-Big", "z" * (10 << 20))]
        elif lie == "slowloris" or (lie == "slowfirst" and count > 1):
            trickle = True
        shift = 1 if lie == "wrongcr" else 0
        headers = [("Content-Range", "bytes %d-%d/%d" % (first + shift, last + shift, total)), ("Content-Length", str(len(body))), ("ETag", etag)]
        self.answer(206, headers + extra, body, trickle)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


Server(("127.0.0.1", PORT), Liar).serve_forever()
