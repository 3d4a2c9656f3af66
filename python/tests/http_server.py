"""A local web server that serves one file with range requests, honestly or with a lie the first
segment of the URL's path names (http://127.0.0.1:PORT/<lie>/name.luma), for the tests of
`lumatrace.open(url)`. Each lie is one way a server or an object store can fail a reader:

  honest        206 with Content-Range, Content-Length and a fixed ETag
  whole         200 and the whole file: no byte ranges
  wrongcr       a Content-Range one byte past the range asked for
  nocr          206 without a Content-Range
  more          100 KB more body than the range asked for (Content-Length says so)
  more_hidden   as `more`, with no Content-Length: the connection closes after the body
  short         the body cut short on every answer (Content-Length says the full range)
  short_once    the first answer after the opening one cut short, the rest honest
  etag_change   a new ETag on every answer after the first
  modified      a later Last-Modified on every answer after the first (and no ETag)
  huge          claims a resource of 2^50 bytes: bytes past the file come as empty 206 answers
  len_change    a resource one byte longer on every answer after the first
  st503         HTTP 503 always
  st503_twice   HTTP 503 for the first two answers, then honest
  redirect      302 to /honest/... (relative Location)
  loop          302 to itself
  elsewhere     302 to a URL that is not http(s)
  tolocalhost   302 to the same path under /secret/ on http://localhost:PORT (another host name)
  bighdr        a 100 KB header line
  secret        404, after recording the Authorization header it got
"""
from __future__ import annotations

import http.server
import re
import ssl
import threading

LIES = ("honest", "whole", "wrongcr", "nocr", "more", "more_hidden", "short", "short_once", "etag_change",
        "len_change", "st503", "st503_twice", "redirect", "loop", "elsewhere", "tolocalhost", "bighdr", "modified", "huge", "secret")


class LyingServer:
    """Serves `data` on 127.0.0.1 (a free port) in a thread; `url(lie, name)` names it."""

    def __init__(self, data: bytes, tls: tuple | None = None):
        self.data = data
        self.answers: dict[str, int] = {}
        self.authorizations: list[str | None] = []
        self.requests: list[str] = []
        #: Requests that named a whole URL, as to a proxy, with their Proxy-Authorization.
        self.proxied: list[tuple[str, str | None]] = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                server._answer(self)

        self.httpd = _QuietServer(("127.0.0.1", 0), Handler)
        if tls is not None:  # (certificate, key) files: serve https
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.scheme = "https" if tls is not None else "http"
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, lie: str, name: str = "clip.luma") -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}/{lie}/{name}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _answer(self, h) -> None:
        if h.path.startswith("http://"):  # asked as a proxy: the whole URL, served as if it were this server's
            self.proxied.append((h.path, h.headers.get("Proxy-Authorization")))
            h.path = "/" + h.path.split("/", 3)[3]
        lie = h.path.split("/")[1]
        self.requests.append(h.path)
        count = self.answers[lie] = self.answers.get(lie, 0) + 1
        data = self.data
        match = re.match(r"bytes=(\d+)-(\d+)$", h.headers.get("Range", ""))
        if lie not in LIES:
            return _send(h, 404, [], b"")
        if lie == "secret":
            self.authorizations.append(h.headers.get("Authorization"))
            return _send(h, 404, [], b"")
        if lie in ("redirect", "loop", "elsewhere", "tolocalhost"):
            rest = h.path.split("/", 2)[2]
            to = {"redirect": "/honest/" + rest, "loop": h.path, "elsewhere": "ftp://127.0.0.1/x",
                  "tolocalhost": f"http://localhost:{self.port}/secret/{rest}"}[lie]
            return _send(h, 302, [("Location", to)], b"")
        if lie in ("st503",) or (lie == "st503_twice" and count <= 2):
            return _send(h, 503, [], b"")
        if lie == "whole":
            return _send(h, 200, [("ETag", '"v1"')], data)
        if not match:
            return _send(h, 200, [("ETag", '"v1"')], data)
        first, last = int(match.group(1)), int(match.group(2))
        total, etag = len(data), '"v1"'
        if lie == "etag_change":
            etag = f'"v{count}"'
        elif lie == "len_change":
            total += count - 1
        elif lie == "huge":
            total = 1 << 50
            if first >= len(data):
                return _send(h, 206, [("Content-Range", f"bytes {first}-{last}/{total}"), ("ETag", etag)], b"")
        if first >= len(data):
            return _send(h, 416, [("Content-Range", f"bytes */{total}")], b"")
        last = min(last, len(data) - 1)
        body = data[first:last + 1]
        shift = 1 if lie == "wrongcr" else 0
        headers = [("ETag", etag)] if lie != "modified" else [("Last-Modified", f"Sat, 28 Nov 2026 13:{count:02d}:00 GMT")]
        if lie != "nocr":
            headers.append(("Content-Range", f"bytes {first + shift}-{last + shift}/{total}"))
        if lie == "bighdr":
            headers.append(("X-Big", "z" * 100_000))
        if lie == "more":
            body += b"X" * 100_000
        if lie == "more_hidden":
            return _send(h, 206, headers, body + b"X" * 100_000, length=False)
        if lie == "short" or (lie == "short_once" and count == 2):
            return _send(h, 206, headers + [("Content-Length", str(len(body)))], body[:len(body) // 2], length=False)
        _send(h, 206, headers, body)


class _QuietServer(http.server.ThreadingHTTPServer):
    """A reader that refuses an answer hangs up in the middle of it: not worth a traceback."""
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


def _send(h, status: int, headers, body: bytes, length: bool = True) -> None:
    """One answer; `length=False` leaves Content-Length to the headers given (or none) and closes
    the connection after the body, as a server that cuts or pads its answers does."""
    h.send_response(status)
    for name, value in headers:
        h.send_header(name, value)
    if length and not any(n == "Content-Length" for n, _ in headers):
        h.send_header("Content-Length", str(len(body)))
    if not length:
        h.send_header("Connection", "close")
        h.close_connection = True
    h.end_headers()
    h.wfile.write(body)

