"""Recordings read from a web server by range requests: the same frames as from the file, only the
bytes needed, and every lie a server can tell refused in one line that names the URL without its
secrets."""
import shutil
import socket
import subprocess
import sys
import time
import tracemalloc

import numpy as np
import pytest

import lumatrace
from lumatrace import _http
from conftest import RECORDINGS, REPO
from http_server import LyingServer
from test_recording import recorded

TOSS = RECORDINGS / "toss-real.luma"


@pytest.fixture(scope="module")
def server():
    s = LyingServer(TOSS.read_bytes())
    yield s
    s.close()


@pytest.fixture(autouse=True)
def quick_retries_and_no_proxy(monkeypatch):
    """Retries wait as the reader waits (0.25 s, doubling) but fewer times, to keep the suite quick;
    no proxy of the machine's environment stands between the reader and the local server."""
    monkeypatch.setattr(_http, "MAXIMUM_ATTEMPTS", 3)
    for name in ("http_proxy", "https_proxy", "no_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


@pytest.mark.parametrize("name", ["balls-synth", "toss-real", "tracking-synth"])
def test_a_recording_on_a_web_server_reads_as_the_file(name):
    s = LyingServer((RECORDINGS / f"{name}.luma").read_bytes())
    try:
        with lumatrace.open(RECORDINGS / f"{name}.luma") as local, lumatrace.open(s.url("honest", f"{name}.luma")) as remote:
            assert remote.info.frame_count == local.info.frame_count and remote.info.chunks == local.info.chunks
            assert np.array_equal(remote.times.ticks, local.times.ticks)
            for (i, t, a), (j, u, b) in zip(remote.frames(), local.frames()):
                assert (i, t) == (j, u) and np.array_equal(a, b)
            assert remote.computed_frames_digest() == local.frames_digest()
    finally:
        s.close()


def test_reading_one_frame_fetches_its_chunk_not_the_file(tmp_path, lumatrace_bin):
    path = recorded(lumatrace_bin, tmp_path, 320, 180, 60)
    s = LyingServer(path.read_bytes())
    try:
        with lumatrace.open(s.url("honest")) as rec, lumatrace.open(path) as local:
            assert len(rec.info.chunks) == 6
            assert np.array_equal(rec[45], local[45])
            chunk = rec.info.chunks[4]
            assert chunk.payload_length <= rec._src.bytes_fetched < chunk.payload_length + 20 * _http.BLOCK_SIZE
            assert rec._src.bytes_fetched < rec.info.file_size / 3
    finally:
        s.close()


def test_a_certificate_no_one_trusts_is_refused_at_once(tmp_path):
    if shutil.which("openssl") is None:
        pytest.fail("openssl is missing: the test makes a self-signed certificate with it")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-days", "1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    s = LyingServer(TOSS.read_bytes(), tls=(cert, key))
    try:
        with pytest.raises(lumatrace.HTTPError) as raised:
            lumatrace.open(s.url("honest"))
        assert raised.value.problem.startswith("the server's TLS certificate is not trusted: ")
        assert raised.value.attempts is None, "no retry makes a certificate trusted"
    finally:
        s.close()


def test_the_environments_proxy_is_used_unless_no_proxy_names_the_host(server, monkeypatch):
    monkeypatch.setenv("http_proxy", f"http://carol:pr0xy@127.0.0.1:{server.port}")
    server.proxied.clear()
    with lumatrace.open("http://recordings.invalid:8123/honest/clip.luma") as rec:
        assert len(rec) == 60 and rec.path == "http://recordings.invalid:8123/honest/clip.luma"
    url, authorization = server.proxied[0]
    assert url == "http://recordings.invalid:8123/honest/clip.luma"
    import base64
    assert authorization == "Basic " + base64.b64encode(b"carol:pr0xy").decode()
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    server.proxied.clear()
    with lumatrace.open(server.url("honest")) as rec:
        assert len(rec) == 60 and server.proxied == []


def test_redirects_are_followed(server):
    with lumatrace.open(server.url("redirect")) as rec:
        assert len(rec) == 60 and rec.path == server.url("redirect")


def test_a_server_that_fails_now_and_then_is_retried(server):
    heard = []
    with lumatrace.open(server.url("st503_twice"), report=heard.append) as rec:
        assert len(rec) == 60
    assert [m.split("; ")[1] for m in heard] == ["retry 1 of 2 in 0.25 s", "retry 2 of 2 in 0.50 s"]
    assert all(m.startswith(server.url("st503_twice") + ": HTTP 503") for m in heard)
    with lumatrace.open(server.url("short_once")) as rec:  # a cut answer: asked again
        assert np.array_equal(rec[-1], lumatrace.open(TOSS)[-1])


@pytest.mark.parametrize("lie, words", [
    ("whole", "answered a range request with the whole resource (HTTP 200): it does not serve byte ranges"),
    ("wrongcr", "answered with bytes from 1 when asked for bytes from 0: its range answers cannot be trusted"),
    ("nocr", "does not say which bytes it holds (no Content-Range for bytes 0...)"),
    ("more", "sent more than the 4096 bytes asked for"),
    ("more_hidden", "sent more than the 4096 bytes asked for"),
    ("loop", "more than 5 redirects (a loop?)"),
    ("elsewhere", "a redirect leads to something that is not http or https"),
    ("bighdr", "the server's answer could not be taken in"),
    ("nothing-here", "HTTP 404 Not Found"),
    # the resource replaced between the first answer and the next
    ("etag_change", 'changed while being read: its ETag was "v1", now "v2"'),
    ("len_change", "changed while being read: it was 750803 bytes, now 750804"),
    ("modified", "changed while being read: it was last modified Sat, 28 Nov 2026 13:01:00 GMT, now Sat, 28 Nov 2026 13:02:00 GMT"),
])
def test_a_lying_server_is_refused_when_opening(server, lie, words):
    with pytest.raises(lumatrace.HTTPError) as raised:
        lumatrace.open(server.url(lie))
    assert str(raised.value) == f"{server.url(lie)}: {raised.value.problem}" and words in raised.value.problem


def test_a_server_that_keeps_failing_is_given_up_after_the_retries(server):
    with pytest.raises(lumatrace.HTTPError, match=r"HTTP 503 \(gave up after 3 attempts\)$"):
        lumatrace.open(server.url("st503"))
    with pytest.raises(lumatrace.HTTPError, match=r"the answer held \d+ bytes of the 4096 asked for \(gave up after 3 attempts\)"):
        lumatrace.open(server.url("short"))


def test_a_failure_after_opening_ends_the_source(server, monkeypatch):
    rec = lumatrace.open(server.url("honest"))
    monkeypatch.setattr(rec._src, "url", server.url("etag_change"))  # the resource replaced under the reader
    server.answers["etag_change"] = 1
    with pytest.raises(lumatrace.HTTPError, match="changed while being read") as first:
        rec[-1]
    asked = len(server.requests)
    with pytest.raises(lumatrace.HTTPError) as again:
        rec[0]
    assert again.value is first.value and len(server.requests) == asked, "no request after a failure for good"


@pytest.mark.parametrize("lie", ["slowloris", "slowheaders"])
def test_a_trickling_server_meets_the_deadline(monkeypatch, lie):
    """The repository's lying server (Tests/Servers, which the Swift tests use too) sends its body
    at 2 bytes a second (`slowloris`), or a header line every half second (`slowheaders`): the
    deadline covers the headers as it covers the body."""
    monkeypatch.setenv("LUMATRACE_HTTP_TIMEOUT", "1")
    monkeypatch.setattr(_http, "MAXIMUM_ATTEMPTS", 1)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, str(REPO / "Tests" / "Servers" / "lying_http_server.py"), str(port), str(TOSS), "30"])
    try:
        for _ in range(400):  # a loaded machine takes a while to start Python
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        else:
            pytest.fail("Tests/Servers/lying_http_server.py did not start listening in 20 s")
        started = time.monotonic()
        with pytest.raises(lumatrace.HTTPError, match="timed out: .* at most 1 s"):
            lumatrace.open(f"http://127.0.0.1:{port}/{lie}/clip.luma")
        assert time.monotonic() - started < 5
    finally:
        server.terminate()
        server.wait()


def test_a_resource_that_claims_to_be_huge_costs_no_large_allocation(server):
    tracemalloc.start()
    try:
        with pytest.raises(lumatrace.HTTPError, match=r"the answer held \d+ bytes of the 4096 asked for"):
            lumatrace.open(server.url("huge"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20


@pytest.mark.parametrize("value", ["0", "soon", "86401", "\x1b[31m"])
def test_a_deadline_that_is_not_one_is_refused_naming_the_variable(server, monkeypatch, value):
    monkeypatch.setenv("LUMATRACE_HTTP_TIMEOUT", value)
    with pytest.raises(lumatrace.HTTPError, match="LUMATRACE_HTTP_TIMEOUT=.* is not a number of seconds from 1 to 86400") as raised:
        lumatrace.open(server.url("honest"))
    assert "\x1b" not in str(raised.value)


def test_url_secrets_are_sent_to_the_server_but_never_shown(server):
    url = server.url("secret").replace("http://", "http://alice:s3cr%40t@") + "?X-Amz-Signature=tok123#frag"
    with pytest.raises(lumatrace.HTTPError) as raised:
        lumatrace.open(url)
    message = str(raised.value)
    assert message == f"http://127.0.0.1:{server.port}/secret/clip.luma?…: HTTP 404 Not Found"
    assert raised.value.path == f"http://127.0.0.1:{server.port}/secret/clip.luma?…"
    import base64
    assert server.authorizations[-1] == "Basic " + base64.b64encode(b"alice:s3cr@t").decode()
    assert server.requests[-1] == "/secret/clip.luma?X-Amz-Signature=tok123"


def test_credentials_are_not_sent_to_another_host_a_redirect_names(server):
    url = server.url("tolocalhost").replace("http://", "http://alice:pw@")
    with pytest.raises(lumatrace.HTTPError, match="HTTP 404"):
        lumatrace.open(url)
    assert server.requests[-1].startswith("/secret/") and server.authorizations[-1] is None


def test_one_read_may_ask_for_no_more_than_the_limit(server, monkeypatch):
    with lumatrace.open(server.url("honest")) as rec:
        monkeypatch.setattr(_http, "MAXIMUM_READ", 1 << 16)
        with pytest.raises(lumatrace.HTTPError, match=r"a read of \d+ bytes is over the 65536-byte limit of one request"):
            rec[0]


def test_an_open_recordings_names_hide_the_secrets(server):
    url = server.url("honest").replace("http://", "http://bob:hunter2@") + "?token=abc"
    with lumatrace.open(url) as rec:
        shown = " ".join([rec.path, rec.info.path, repr(rec)])
        assert "hunter2" not in shown and "bob" not in shown and "abc" not in shown
        assert rec.path == f"http://127.0.0.1:{server.port}/honest/clip.luma?…"


def test_terminal_escapes_in_a_servers_words_are_shown_escaped(server, monkeypatch):
    rec = lumatrace.open(server.url("honest"))
    monkeypatch.setattr(rec._src, "_etag", '"\x1b]0;PWNED\x07"')
    with pytest.raises(lumatrace.HTTPError) as raised:
        rec[-1]
    assert "\x1b" not in str(raised.value) and "\\x1b]0;PWNED\\x07" in str(raised.value)


def test_redaction_keeps_scheme_host_port_and_path_only():
    assert _http.redacted("https://alice:pw@bucket.example:8443/clips/shot.luma?X-Amz-Signature=abc") == \
        "https://bucket.example:8443/clips/shot.luma?…"
    assert _http.redacted("http://host/a.luma") == "http://host/a.luma"
    assert _http.redacted("http://u:p@host#x") == "http://host?…"
    assert _http.is_url("HTTPS://x/y") and not _http.is_url("httpx.luma")
