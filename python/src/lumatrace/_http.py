"""A recording on a web server or in an object store (a presigned URL is one), read with HTTP range
requests: only the bytes the reader needs are fetched, the trailer and the index first, then the
chunks asked for. The same checks, retries and limits as the Swift reader's `HTTPByteSource`
(Sources/LumaFormat/ByteSources/HTTPByteSource.swift), with the standard library's `http.client`:

- Small reads (record envelopes, chunk tables) are served from blocks of `BLOCK_SIZE` bytes,
  fetched once and kept (the last `CACHED_BLOCKS`); a read of a block or more (a chunk's payload)
  is fetched exactly.
- A request that fails on the way (connection refused, reset or cut, a timeout, a short body,
  HTTP 5xx or 429) is retried up to `MAXIMUM_ATTEMPTS` times, waiting 0.25 s, then twice as long
  each time.
- Every answer must be a 206 whose Content-Range starts at the byte asked for, whose body is no
  longer than asked for, and whose resource length, ETag and Last-Modified are those of the first
  answer (the Swift reader checks the first two; a server without ETags still says when it changed):
  a resource replaced while being read is an error, never frames of two versions. A request that
  fails for good ends the source: every later read raises the same error.
- Proxies are those the environment names (`http_proxy`, `https_proxy`, `no_proxy`), as curl's.
- A request has a deadline, `DEFAULT_REQUEST_TIMEOUT` seconds unless `LUMATRACE_HTTP_TIMEOUT`
  says otherwise, from the connection to the last byte of the body, the status line and headers
  included (`_DeadlineSocket`: a server sending a header line now and then is cut off), and ends sooner when its body comes at under 512 bytes a second for 30 s; at
  most `MAXIMUM_REDIRECTS` redirects are followed, to `http` and `https` only; header lines are
  bounded by `http.client` (64 KiB a line, 100 lines). The body is read in pieces, so memory
  follows the bytes that arrive, never a length a server claims.

A URL may carry secrets: a password (`https://user:pw@host/...`) and, in a presigned URL, a
signature in its query. The source names itself (`name`, and so every message) as scheme, host,
port and path only, the query and fragment replaced by `?…` (`redacted`).
"""
from __future__ import annotations

import base64
import functools
import http.client
import io
import os
import socket
import ssl
import time
import urllib.parse
import urllib.request

from .errors import HTTPError

BLOCK_SIZE = 4 << 10
CACHED_BLOCKS = 64
MAXIMUM_ATTEMPTS = 5
MAXIMUM_REDIRECTS = 5
#: The environment variable that sets a request's deadline, in whole seconds.
REQUEST_TIMEOUT_VARIABLE = "LUMATRACE_HTTP_TIMEOUT"
DEFAULT_REQUEST_TIMEOUT = 120
MAXIMUM_REQUEST_TIMEOUT = 86_400
#: A body that comes at under `LOW_SPEED_LIMIT` bytes a second for `LOW_SPEED_TIME` seconds ends
#: its request (and it is retried): a server that trickles cannot hold a reader for days.
LOW_SPEED_LIMIT, LOW_SPEED_TIME = 512, 30.0
#: The most one read may ask for: more than any chunk's payload can be (256 MiB of frames).
MAXIMUM_READ = 1 << 30
_PIECE = 1 << 16
_STATUS_TEXT = {401: " Unauthorized", 403: " Forbidden (an expired presigned URL says so too)", 404: " Not Found",
                410: " Gone"}


def is_url(location: str) -> bool:
    """Whether `location` names a web resource (`http://` or `https://`) rather than a file."""
    return location[:8].lower().startswith(("http://", "https://"))


def redacted(url: str) -> str:
    """The URL as messages show it: without user name and password, its query and fragment
    replaced by `?…` (as the Swift reader's `RecordingLocation` shows itself)."""
    scheme, _, rest = url.partition("://")
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, after = rest[:end], rest[end:]
    host = authority.rpartition("@")[2]
    path_end = min((i for i in (after.find(c) for c in "?#") if i >= 0), default=len(after))
    return f"{scheme}://{host}{after[:path_end]}" + ("?…" if path_end < len(after) else "")


def _printable(text: str) -> str:
    """A server's words with control characters escaped, so an ETag cannot drive a terminal."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


class _Transient(Exception):
    """A request failed in a way worth trying again."""


class _Final(Exception):
    """A request failed in a way no retry mends."""


class _Answer:
    __slots__ = ("body", "total", "etag", "modified")

    def __init__(self, body: bytes, total: int, etag: str, modified: str):
        self.body, self.total, self.etag, self.modified = body, total, etag, modified


class HTTPByteSource:
    """Random-access reads of a web resource of known size, by range requests (see the module).
    `report`, when given, hears of every retry: `report(message)` with the redacted URL."""

    def __init__(self, url: str, report=None):
        self.url = url
        self.name = redacted(url)
        self.report = report
        self.bytes_fetched = 0
        self.failure: HTTPError | None = None
        self._blocks: dict[int, bytes] = {}
        self._connection: http.client.HTTPConnection | None = None
        self._connected_to = None
        self.timeout = self._request_timeout()
        first = self._fetch(0, BLOCK_SIZE, None)
        self.size, self._etag, self._modified = first.total, first.etag, first.modified
        self._blocks[0] = first.body

    def _request_timeout(self) -> int:
        text = os.environ.get(REQUEST_TIMEOUT_VARIABLE, "")
        if not text:
            return DEFAULT_REQUEST_TIMEOUT
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAXIMUM_REQUEST_TIMEOUT:
            raise HTTPError(self.name, f"{REQUEST_TIMEOUT_VARIABLE}={_printable(text)} is not a number of seconds "
                                       f"from 1 to {MAXIMUM_REQUEST_TIMEOUT}")
        return int(text)

    # MARK: - Reads

    def read(self, offset: int, count: int) -> bytes:
        if offset < 0 or count < 0 or offset + count > self.size:
            raise OSError(f"read of {count} bytes at {offset} is past the end of the resource ({self.size} bytes)")
        if count == 0:
            return b""
        if count >= BLOCK_SIZE:
            return self._checked_fetch(offset, count).body
        out = bytearray()
        while len(out) < count:
            at = offset + len(out)
            index = at // BLOCK_SIZE
            block = self._block(index)
            start = at - index * BLOCK_SIZE
            out += block[start:start + count - len(out)]
        return bytes(out)

    def _block(self, index: int) -> bytes:
        block = self._blocks.get(index)
        if block is None:
            start = index * BLOCK_SIZE
            block = self._checked_fetch(start, min(BLOCK_SIZE, self.size - start)).body
            self._blocks[index] = block
            if len(self._blocks) > CACHED_BLOCKS:
                del self._blocks[next(iter(self._blocks))]  # the oldest (dicts keep insertion order)
        return block

    def _checked_fetch(self, offset: int, count: int) -> _Answer:
        if self.failure is not None:
            raise self.failure
        try:
            return self._fetch(offset, count, (self.size, self._etag, self._modified))
        except HTTPError as error:
            # A request that failed for good ends the source: a reader that would go on past it (a
            # scan for chunks) fails at once, and says why.
            self.failure = error
            raise

    def _fetch(self, offset: int, count: int, expected) -> _Answer:
        """GETs `count` bytes at `offset` (fewer at the end of the resource, on the first request),
        retrying what is worth retrying; `expected` is the (length, ETag, Last-Modified) every later
        answer must have."""
        if count > MAXIMUM_READ:
            raise HTTPError(self.name, f"a read of {count} bytes is over the {MAXIMUM_READ}-byte limit of one request")
        attempt = 0
        while True:
            attempt += 1
            try:
                return self._request(offset, count, expected)
            except _Final as problem:
                self._disconnect()
                raise HTTPError(self.name, str(problem)) from None
            except _Transient as problem:
                self._disconnect()
                if attempt >= MAXIMUM_ATTEMPTS:
                    raise HTTPError(self.name, str(problem), attempts=attempt) from None
                wait = 0.25 * (1 << (attempt - 1))
                if self.report is not None:
                    self.report(f"{self.name}: {problem}; retry {attempt} of {MAXIMUM_ATTEMPTS - 1} in {wait:.2f} s")
                time.sleep(wait)

    # MARK: - One request

    def _request(self, offset: int, count: int, expected) -> _Answer:
        deadline = time.monotonic() + self.timeout
        url, response = self.url, None
        for _ in range(MAXIMUM_REDIRECTS + 1):
            response = self._send(url, offset, count, deadline)
            if response.status not in (301, 302, 303, 307, 308):
                break
            location = response.getheader("Location")
            response.read(_PIECE)  # a redirect's body is not wanted; the connection is let go below
            self._disconnect()
            if not location:
                raise _Final(f"HTTP {response.status} without a Location to go to")
            url = urllib.parse.urljoin(url, location)
            if not is_url(url):
                raise _Final("a redirect leads to something that is not http or https")
        else:
            raise _Final(f"more than {MAXIMUM_REDIRECTS} redirects (a loop?)")
        try:
            return self._answer(response, offset, count, expected, deadline)
        finally:
            if response.will_close or not response.isclosed():
                self._disconnect()

    def _send(self, url: str, offset: int, count: int, deadline: float) -> http.client.HTTPResponse:
        parts = urllib.parse.urlsplit(url)
        try:
            port = parts.port
        except ValueError:
            raise _Final("the URL's port is not a port number") from None
        target = (parts.scheme.lower(), parts.hostname or "", port)
        if not target[1]:
            raise _Final("the URL names no host")
        headers = {"Range": f"bytes={offset}-{offset + count - 1}", "Accept-Encoding": "identity",
                   "User-Agent": "lumatrace"}
        original = urllib.parse.urlsplit(self.url)
        if parts.username is not None and (parts.hostname, parts.port) == (original.hostname, original.port):
            user = urllib.parse.unquote(parts.username) + ":" + urllib.parse.unquote(parts.password or "")
            headers["Authorization"] = "Basic " + base64.b64encode(user.encode()).decode("ascii")
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        proxy = _proxy(parts)
        if proxy is not None and target[0] == "http":  # a plain request goes to the proxy, naming the whole URL
            path = f"http://{_host_and_port(parts)}{path}"
            headers.update(_proxy_authorization(proxy))
        try:
            if self._connection is None or self._connected_to != (target, proxy):
                self._disconnect()
                kind = http.client.HTTPSConnection if target[0] == "https" else http.client.HTTPConnection
                wait = self._wait(deadline, 15.0)
                if proxy is None:
                    self._connection = kind(target[1], target[2], timeout=wait)
                else:
                    self._connection = kind(proxy.hostname, proxy.port or 80, timeout=wait)
                    if target[0] == "https":  # a tunnel through the proxy (CONNECT), TLS inside it
                        self._connection.set_tunnel(target[1], target[2] or 443, headers=_proxy_authorization(proxy))
                self._connected_to = (target, proxy)
            self._connection.timeout = self._wait(deadline, 15.0)
            if self._connection.sock is not None:
                self._connection.sock.settimeout(self._connection.timeout)
            self._connection.request("GET", path, headers=headers)
            self._connection.response_class = functools.partial(_Response, deadline=deadline)
            return self._connection.getresponse()
        except http.client.HTTPException as e:
            if isinstance(e, http.client.LineTooLong) or "got more than" in str(e):
                raise _Final(f"the server's answer could not be taken in: {_printable(str(e))} (a header line over "
                             f"64 KiB, or over 100 header lines)") from None
            raise _Transient(f"the server's answer is not HTTP: {_printable(str(e)) or type(e).__name__}") from None
        except socket.timeout:
            raise _Transient(self._timed_out("no answer")) from None
        except ssl.SSLCertVerificationError as e:  # no retry makes a certificate trusted
            raise _Final(f"the server's TLS certificate is not trusted: {_printable(e.verify_message or str(e))}") from None
        except OSError as e:
            raise _Transient(_printable(e.strerror or str(e))) from None

    def _answer(self, response, offset: int, count: int, expected, deadline: float) -> _Answer:
        status = response.status
        etag, modified = response.getheader("ETag", ""), response.getheader("Last-Modified", "")
        if status == 206:
            pass
        elif status == 200 and expected is None and response.getheader("Content-Length") == "0":
            raise _Final("is empty (0 bytes): not a recording")
        elif status == 200:
            raise _Final("the server answered a range request with the whole resource (HTTP 200): it does not "
                         "serve byte ranges")
        elif status == 416 and expected is None:
            raise _Final("is empty (0 bytes): not a recording")
        elif status == 429 or 500 <= status <= 599:
            raise _Transient(f"HTTP {status}")
        else:
            raise _Final(f"HTTP {status}{_STATUS_TEXT.get(status, '')}")
        first, total = _content_range(response.getheader("Content-Range", ""))
        if first is None or total is None:
            raise _Final(f"the server's answer does not say which bytes it holds (no Content-Range for bytes {offset}...)")
        if first != offset:
            raise _Final(f"the server answered with bytes from {first} when asked for bytes from {offset}: its range "
                         f"answers cannot be trusted")
        if expected is not None:
            if total != expected[0]:
                raise _Final(f"changed while being read: it was {expected[0]} bytes, now {total}")
            if etag != expected[1]:
                raise _Final(f"changed while being read: its ETag was {_printable(expected[1]) or 'none'}, "
                             f"now {_printable(etag) or 'none'}")
            if modified != expected[2]:
                raise _Final(f"changed while being read: it was last modified {_printable(expected[2]) or 'at no stated time'}, "
                             f"now {_printable(modified) or 'at no stated time'}")
        wanted = min(count, max(total - offset, 0))
        longer = _Final(f"the server sent more than the {wanted} bytes asked for: its range answers cannot be trusted")
        declared = response.getheader("Content-Length")
        if declared is not None and declared.isascii() and declared.isdigit() and int(declared) > wanted:
            raise longer  # refused without reading it
        body = self._body(response, wanted, deadline)
        if len(body) > wanted:
            raise longer
        if len(body) < wanted:
            raise _Transient(f"the answer held {len(body)} bytes of the {wanted} asked for")
        self.bytes_fetched += len(body)
        return _Answer(body, total, etag, modified)

    def _body(self, response, wanted: int, deadline: float) -> bytes:
        """At most `wanted` + 1 bytes of the body (one more tells a body longer than asked for),
        read in pieces under the deadline and the low-speed limit."""
        pieces, received = [], 0
        window_start, window_bytes = time.monotonic(), 0
        try:
            while received <= wanted:
                if self._connection is not None and self._connection.sock is not None:
                    self._connection.sock.settimeout(self._wait(deadline, LOW_SPEED_TIME))
                piece = response.read1(min(_PIECE, wanted + 1 - received))  # one receive: the deadline is checked per piece
                if not piece:
                    break
                pieces.append(piece)
                received += len(piece)
                window_bytes += len(piece)
                now = time.monotonic()
                if now > deadline:
                    raise _Transient(self._timed_out(f"the body stopped at {received} bytes"))
                if now - window_start >= LOW_SPEED_TIME:
                    if window_bytes < LOW_SPEED_LIMIT * LOW_SPEED_TIME:
                        raise _Transient(self._timed_out(f"the body came at under {LOW_SPEED_LIMIT} bytes/s"))
                    window_start, window_bytes = now, 0
        except socket.timeout:
            raise _Transient(self._timed_out(f"the body stopped at {received} bytes")) from None
        except http.client.IncompleteRead as e:
            pieces.append(e.partial)
        except OSError as e:
            raise _Transient(_printable(e.strerror or str(e))) from None
        return b"".join(pieces)

    def _timed_out(self, words: str) -> str:
        return (f"timed out: {words} (a request may take at most {self.timeout} s, or stall under {LOW_SPEED_LIMIT} "
                f"bytes/s for {LOW_SPEED_TIME:.0f} s; {REQUEST_TIMEOUT_VARIABLE}=SECONDS sets the deadline)")

    @staticmethod
    def _wait(deadline: float, most: float) -> float:
        return max(0.001, min(most, deadline - time.monotonic()))

    def _disconnect(self) -> None:
        if self._connection is not None:
            self._connection.close()
        self._connection, self._connected_to = None, None

    def close(self) -> None:
        self._disconnect()
        self._blocks.clear()


class _Response(http.client.HTTPResponse):
    """An answer read from the socket under its request's deadline (`_DeadlineSocket`)."""

    def __init__(self, sock, *args, deadline: float, **kwargs):
        super().__init__(_DeadlineSocket(sock, deadline), *args, **kwargs)


class _DeadlineSocket:
    """A connection's socket as `http.client.HTTPResponse` reads it (`makefile`): each receive
    waits no longer than what is left of the deadline (or the socket's own timeout, when shorter),
    and none starts after it, so a server sending a byte or a header line now and then cannot keep
    a request alive past its deadline."""

    def __init__(self, sock, deadline: float):
        self.sock, self.deadline = sock, deadline

    def makefile(self, mode: str):
        # The socket's own file keeps it open while the answer is read, as http.client expects.
        return io.BufferedReader(_DeadlineReader(self.sock, self.sock.makefile(mode, buffering=0), self.deadline))


class _DeadlineReader(io.RawIOBase):
    def __init__(self, sock, raw, deadline: float):
        self.sock, self.raw, self.deadline = sock, raw, deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout("the request's deadline passed")
        timeout = self.sock.gettimeout()
        if timeout is None or timeout > left:
            self.sock.settimeout(left)
        return self.raw.readinto(buffer)

    def close(self) -> None:
        self.raw.close()
        super().close()


def _proxy(parts):
    """The proxy the environment names for this URL (`http_proxy`, `https_proxy`, `no_proxy`, as
    curl reads them), taken apart; None for none."""
    if urllib.request.proxy_bypass_environment(_host_and_port(parts)):
        return None
    named = urllib.request.getproxies_environment().get(parts.scheme.lower())
    if not named:
        return None
    proxy = urllib.parse.urlsplit(named if "://" in named else "http://" + named)
    return proxy if proxy.hostname else None


def _proxy_authorization(proxy) -> dict:
    if proxy.username is None:
        return {}
    user = urllib.parse.unquote(proxy.username) + ":" + urllib.parse.unquote(proxy.password or "")
    return {"Proxy-Authorization": "Basic " + base64.b64encode(user.encode()).decode("ascii")}


def _host_and_port(parts) -> str:
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    return host if parts.port is None else f"{host}:{parts.port}"


def _content_range(value: str):
    """(first byte, total length) of a Content-Range `bytes FIRST-LAST/TOTAL`; None where absent."""
    unit, _, spec = value.strip().partition(" ")
    if unit.lower() != "bytes":
        return None, None
    span, _, total = spec.strip().partition("/")
    first, _, last = span.partition("-")
    if not (first.isascii() and first.isdigit() and last.isascii() and last.isdigit()):
        return None, (int(total) if total.isascii() and total.isdigit() else None)
    return int(first), (int(total) if total.isascii() and total.isdigit() else None)
