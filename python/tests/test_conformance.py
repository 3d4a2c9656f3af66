"""The conformance corpus (Tests/Conformance/recordings): every case says what a reader must make of
a file, and this reader must make exactly that of each. The Swift reader walks the same corpus
(ConformanceCorpusTests), so the two readers cannot drift apart. Adding a case is adding files."""
import hashlib
import json
import struct

import pytest

import lumatrace
from lumatrace import _records
from lumatrace.overlays import read_overlays
from conftest import CONFORMANCE

CASES = sorted(p.name[:-len(".expected.json")] for p in (CONFORMANCE / "recordings").glob("*.expected.json"))
ERRORS = {
    "notARecording": lumatrace.NotARecordingError,
    "unsupportedVersion": lumatrace.UnsupportedVersionError,
    "invalidHeader": lumatrace.InvalidHeaderError,
    "damagedChunk": lumatrace.DamagedChunkError,
}


def test_the_corpus_is_there():
    assert len(CASES) >= 30, f"expected the committed corpus in {CONFORMANCE}, found {len(CASES)} cases"


@pytest.mark.parametrize("case", CASES)
def test_case(case):
    expected = json.loads((CONFORMANCE / "recordings" / f"{case}.expected.json").read_text())
    path = CONFORMANCE / "recordings" / f"{case}.luma"
    if expected["open"] != "ok":
        with pytest.raises(ERRORS[expected["open"]["error"]]) as raised:
            lumatrace.open(path)
        assert str(path) in str(raised.value), "the error names the file"
        return
    with lumatrace.open(path) as rec:
        info = rec.info
        assert (info.format_version, info.width, info.height, info.timescale) == (
            expected["formatVersion"], expected["width"], expected["height"], expected["timescale"])
        assert len(rec) == expected["frameCount"]
        assert info.has_index == expected["hasIndex"]
        assert [(c.number, [c.first_frame, c.first_frame + c.frame_count]) for c in info.chunks] == [
            (c["number"], c["frames"]) for c in expected["chunks"]]
        readable = hashlib.sha256()
        for chunk, want in zip(info.chunks, expected["chunks"]):
            if "error" in want:
                with pytest.raises(ERRORS[want["error"]]) as raised:
                    rec[chunk.first_frame]
                assert raised.value.chunk == chunk.number and raised.value.frames == chunk.frames
                continue
            h = hashlib.sha256()
            for index, ticks, frame in rec.frames(chunk.first_frame, chunk.first_frame + chunk.frame_count):
                for digest in (h, readable):
                    digest.update(struct.pack("<q", ticks))
                    digest.update(frame.tobytes())
            assert h.hexdigest() == want["framesDigest"], f"chunk {chunk.number}"
        assert readable.hexdigest() == expected["readableFramesDigest"]


def test_version_3_cases_use_every_block_mode_and_version_2_stores_busy_frames_whole():
    """The corpus is only as good as what it exercises: all three block modes of version 3 and
    the frames stored whole of versions 1 and 2 must occur in it."""
    modes, whole = set(), 0
    for case in CASES:
        path = CONFORMANCE / "recordings" / f"{case}.luma"
        if not case.startswith(("v2-noisy", "v3-")) or "claims" in case:
            continue
        with lumatrace.open(path) as rec:
            for chunk in rec.info.chunks:
                try:
                    fields = rec._chunk_fields(chunk)
                    raw = rec._decompress(rec._src.read(chunk.payload_offset, chunk.payload_length), fields.raw_length)
                except (lumatrace.DamagedChunkError, ValueError):
                    continue
                whole += sum(fields.whole)
                if rec.info.format_version == 3:
                    _, mode_size, _, _ = _records.payload_sizes(3, rec.info.width, rec.info.height)
                    modes |= set(raw[:mode_size * chunk.frame_count])
    assert modes == {0, 1, 2}
    assert whole > 0


LOG_CASES = sorted(p.name[:-len(".expected.json")] for p in (CONFORMANCE / "logs").glob("*.expected.json"))


@pytest.mark.parametrize("case", LOG_CASES)
def test_log_case(case):
    expected = json.loads((CONFORMANCE / "logs" / f"{case}.expected.json").read_text())
    path = CONFORMANCE / "logs" / f"{case}.events.jsonl"
    if expected["read"] != "ok":
        with pytest.raises(lumatrace.EventLogError) as raised:
            lumatrace.read_events(path)
        assert raised.value.line == expected["read"]["line"], str(raised.value)
        assert f"{path}: line {raised.value.line}: " in str(raised.value), "one line naming the file and line"
        # The exports read logs through the same checks (`lumatrace.overlays`).
        with pytest.raises(lumatrace.EventLogError) as drawing:
            read_overlays(path, width=160, height=96)
        assert drawing.value.line == expected["read"]["line"], str(drawing.value)
        return
    events = lumatrace.read_events(path)
    log = events.attrs["log"]
    assert log.header["version"] == expected["formatVersion"]
    assert len(events) == expected["events"]
    assert bool(log.footer and log.footer.get("complete")) == expected["complete"]
    counts = events.groupby(["analyzer", "kind"], observed=True).size()
    assert {a: {k: int(counts[(a, k)]) for k in ks} for a, ks in expected["counts"].items()} == expected["counts"]
    assert int(counts.sum()) == expected["events"]
    tables = lumatrace.read_events(path, by_kind=True)
    assert {name: len(table) for name, table in tables.items()} == expected["rows"]
