"""Event logs read from a web server, as recordings are (`lumatrace.open(url)`): the same tables as
from the file, by the same HTTP reader (range requests, its checks, retries and limits, `HTTPError`
when the server fails), the log checked line by line as a file is, and the URL named without its
secrets."""
import tracemalloc

import pandas as pd
import pytest

import lumatrace
from lumatrace import _http
from conftest import RECORDINGS
from http_server import LyingServer

LOG = RECORDINGS / "tracking-synth.events.jsonl"


@pytest.fixture(autouse=True)
def quick_retries_and_no_proxy(monkeypatch):
    """As tests/test_http.py: fewer retries, and no proxy of the machine between reader and server."""
    monkeypatch.setattr(_http, "MAXIMUM_ATTEMPTS", 3)
    for name in ("http_proxy", "https_proxy", "no_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


def served(data: bytes):
    server = LyingServer(data)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def log_server():
    yield from served(LOG.read_bytes())


def test_an_event_log_on_a_web_server_reads_as_the_file(log_server):
    url = log_server.url("honest", "tracking-synth.events.jsonl")
    pd.testing.assert_frame_equal(lumatrace.read_events(url), lumatrace.read_events(LOG))
    remote, local = lumatrace.read_events(url, by_kind=True), lumatrace.read_events(LOG, by_kind=True)
    assert list(remote) == list(local)
    for name in local:
        pd.testing.assert_frame_equal(remote[name], local[name])
    assert remote.log.path == url and remote.log.footer == local.log.footer


def test_an_event_log_url_with_a_recording_url_takes_its_times(tmp_path):
    """Path points in frames without events take the recording's times, the recording a URL too."""
    for log_server in served(LOG.read_bytes()):
        for rec_server in served((RECORDINGS / "tracking-synth.luma").read_bytes()):
            tables = lumatrace.read_events(log_server.url("honest", "t.events.jsonl"), by_kind=True,
                                           recording=rec_server.url("honest", "t.luma"))
            assert len(tables["track"]) > 0 and tables["track"]["time"].notna().all()


@pytest.mark.parametrize("lie, words", [
    ("whole", "answered a range request with the whole resource (HTTP 200): it does not serve byte ranges"),
    ("st503", "HTTP 503 (gave up after 3 attempts)"),
    ("nothing-here", "HTTP 404 Not Found"),
])
def test_a_failing_server_raises_the_http_error_lumatrace_open_raises(log_server, lie, words):
    url = log_server.url(lie, "tracking-synth.events.jsonl")
    with pytest.raises(lumatrace.HTTPError) as raised:
        lumatrace.read_events(url)
    assert str(raised.value).startswith(f"{url}: {raised.value.problem}") and words in str(raised.value)


def test_a_log_a_server_claims_is_over_the_limit_is_refused_before_it_is_read(log_server):
    tracemalloc.start()
    try:
        with pytest.raises(lumatrace.EventLogError, match=r"log is 1125899906842624 bytes, over the 2147483648-byte limit"):
            lumatrace.read_events(log_server.url("huge", "tracking-synth.events.jsonl"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20


def test_an_edited_log_on_a_server_is_refused_naming_the_url_without_its_secrets_and_the_line():
    lines = LOG.read_bytes().split(b"\n")
    lines[5] = lines[5].replace(b'"frame":', b'"frame": ', 1)  # still JSON, no longer what the footer hashed
    for server in served(b"\n".join(lines)):
        url = server.url("honest", "t.events.jsonl").replace("http://", "http://bob:hunter2@") + "?token=abc"
        with pytest.raises(lumatrace.EventLogError) as raised:
            lumatrace.read_events(url)
        message = str(raised.value)
        assert message.startswith(f"http://127.0.0.1:{server.port}/honest/t.events.jsonl?…: line ")
        assert "footer digest does not match" in message
        assert "hunter2" not in message and "abc" not in message
