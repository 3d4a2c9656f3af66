"""The Python reader, specified: frames as `lumatrace export` gives them, exact times, random access
at the cost of one chunk, damage named or skipped on request, hostile files refused cheaply."""
import json
import subprocess
import sys
import tracemalloc
import warnings

import numpy as np
import pytest

import lumatrace
from conftest import CONFORMANCE, HAS_CLIPS, REPO, RECORDINGS, SHARED_DATA, needs_clips


def exported_frames(lumatrace_bin, path, rec):
    """Every frame through the Swift tool: `lumatrace export --format y4m` (mono)."""
    stream = subprocess.run([lumatrace_bin, "export", str(path), "--format", "y4m"], check=True, capture_output=True).stdout
    body = stream[stream.index(b"\n") + 1:]
    h, w = rec.info.height, rec.info.width
    frames = np.frombuffer(body, dtype=np.uint8).reshape(-1, 6 + w * h)
    assert (frames[:, :6] == np.frombuffer(b"FRAME\n", dtype=np.uint8)).all()
    return frames[:, 6:].reshape(-1, h, w)


def swift_frames_digest(lumatrace_bin, path):
    info = subprocess.run([lumatrace_bin, "info", str(path), "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(info)["sha256"]


def assert_same_as_swift(lumatrace_bin, path):
    """Frames byte for byte as `lumatrace export` writes them, and timestamps exactly: the frames
    digest hashes every frame's ticks with its pixels, so the Python one (computed from what this
    reader decoded) equals the one the Swift writer stored only if every tick is exact."""
    with lumatrace.open(path) as rec:
        ours = np.stack(list(rec))
        assert np.array_equal(ours, exported_frames(lumatrace_bin, path, rec)), f"{path}: frames differ from lumatrace export"
        assert rec.computed_frames_digest() == swift_frames_digest(lumatrace_bin, path), f"{path}: times or frames differ"
        return rec.info


@pytest.mark.parametrize("name", ["balls-synth", "toss-real", "tracking-synth"])
def test_bundled_recordings_read_as_lumatrace_exports_them(lumatrace_bin, name):
    assert_same_as_swift(lumatrace_bin, RECORDINGS / f"{name}.luma")


@pytest.mark.parametrize("case", sorted(p.stem for p in (CONFORMANCE / "recordings").glob("v*-*.luma")
                                        if json.loads((p.parent / f"{p.stem}.expected.json").read_text())["about"].endswith("intact")))
def test_intact_corpus_recordings_read_as_lumatrace_exports_them(lumatrace_bin, case):
    assert_same_as_swift(lumatrace_bin, CONFORMANCE / "recordings" / f"{case}.luma")


def clips():
    if not HAS_CLIPS:
        return []
    found = []
    for folder in sorted(SHARED_DATA.iterdir()):
        if not folder.is_dir():
            continue
        media = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".mp4", ".avi", ".gif"))
        images = [p for p in (folder / "img", folder / "imgs") if p.is_dir()]
        if media or images:
            found.append(pytest.param((media + images)[0], id=folder.name))
    return found


@needs_clips
def test_the_shared_clips_are_beside_the_checkout():
    assert HAS_CLIPS, f"the clip corpus ({SHARED_DATA}) is missing: scripts/get-clips fetches it"
    assert len(clips()) >= 10


@needs_clips
@pytest.mark.parametrize("source", clips())
def test_every_shared_clip_recorded_reads_as_lumatrace_exports_it(lumatrace_bin, tmp_path, source):
    out = tmp_path / "clip.luma"
    subprocess.run([lumatrace_bin, "record", str(source), "-o", str(out)], check=True, capture_output=True)
    info = assert_same_as_swift(lumatrace_bin, out)
    assert info.format_version == 3 and info.frame_count > 0


@needs_clips
@pytest.mark.parametrize("version", [1, 2])
def test_a_real_clip_in_the_older_versions(lumatrace_bin, tmp_path, version):
    source = SHARED_DATA / "basketball-court-shots" / "three_score_two_miss.mp4"
    out = tmp_path / "clip.luma"
    subprocess.run([lumatrace_bin, "record", str(source), "-o", str(out), "--format-version", str(version)], check=True, capture_output=True)
    assert assert_same_as_swift(lumatrace_bin, out).format_version == version


# MARK: - Access

@pytest.fixture
def balls():
    with lumatrace.open(RECORDINGS / "balls-synth.luma") as rec:
        yield rec


def test_frames_by_index_slice_and_from_the_end(balls):
    everything = np.stack(list(balls))
    assert everything.shape == (len(balls), balls.info.height, balls.info.width) and everything.dtype == np.uint8
    assert np.array_equal(balls[5], everything[5])
    assert np.array_equal(balls[-1], everything[-1])
    assert np.array_equal(balls[10:40:3], everything[10:40:3])
    assert balls[3:3].shape == (0, balls.info.height, balls.info.width)
    with pytest.raises(IndexError, match="out of range"):
        balls[len(balls)]
    with pytest.raises(TypeError):
        balls[1.5]


def test_a_list_of_indices_stacks_those_frames_in_the_order_asked(balls):
    everything = np.stack(list(balls))
    chosen = balls[[7, 1, -1, 5, 1]]
    assert chosen.shape == (5, balls.info.height, balls.info.width)
    assert np.array_equal(chosen, everything[[7, 1, -1, 5, 1]])
    assert np.array_equal(balls[np.array([3, 2])], everything[[3, 2]])
    assert balls[[]].shape == (0, balls.info.height, balls.info.width)
    chosen[0, 0, 0] ^= 1  # a new array, not the reader's cached frame
    assert np.array_equal(balls[7], everything[7])
    with pytest.raises(IndexError, match="frame 999 is out of range"):
        balls[[1, 999]]
    with pytest.raises(TypeError, match="list of integers"):
        balls[[0.5, 1.5]]


def test_a_range_of_indices_stacks_those_frames_as_a_list_would(balls):
    everything = np.stack(list(balls))
    assert np.array_equal(balls[range(0, 60, 7)], everything[list(range(0, 60, 7))])
    assert balls[range(0)].shape == (0, balls.info.height, balls.info.width)


def test_a_slice_is_an_array_numpy_takes_as_it_is(balls):
    frames = balls[2:9]
    assert np.asarray(frames) is frames and np.asarray(balls[2:9], dtype=np.float32).shape == (7, balls.info.height, balls.info.width)
    assert np.array_equal(np.asarray(balls[2:9]), np.stack([balls[i] for i in range(2, 9)]))


def test_a_list_of_indices_decodes_each_chunk_once(monkeypatch, tmp_path, lumatrace_bin):
    with lumatrace.open(recorded(lumatrace_bin, tmp_path, 64, 48, 60)) as rec:
        decompressed = []
        original = rec._decompress
        monkeypatch.setattr(rec, "_decompress", lambda payload, size: decompressed.append(size) or original(payload, size))
        rec[[45, 12, 46, 13, 44]]
        assert len(decompressed) == 2, "frames of chunks 1 and 4, asked for alternately, decoded in file order"


def test_frames_are_read_only_so_the_cached_chunk_cannot_be_changed_by_accident(balls):
    with pytest.raises(ValueError):
        balls[0][0, 0] = 1


def test_times_are_exact_ticks_and_seconds(balls):
    times = balls.times
    assert times.timescale == balls.info.timescale == 30
    assert times.ticks.dtype == np.int64 and list(times.ticks[:3]) == [0, 1, 2]
    assert np.allclose(times.seconds, times.ticks / 30)
    assert list(times.frames) == list(range(len(balls)))
    ticks = [t for _, t, _ in balls.frames()]
    assert ticks == list(times.ticks)


def test_frame_at_is_the_frame_on_screen_at_that_time(balls):
    assert balls.index_at(0.0) == 0
    assert balls.index_at(1.0) == 30           # exactly on frame 30's time
    assert balls.index_at(1.0 + 1 / 60) == 30  # between frames 30 and 31
    assert balls.index_at(ticks=31) == 31
    assert balls.index_at(1e6) == len(balls) - 1
    assert np.array_equal(balls.frame_at(1.5), balls[45])
    with pytest.raises(IndexError, match="no frame is on screen"):
        balls.index_at(-0.5)


def recorded(lumatrace_bin, folder, width, height, count, rate=10):
    """A recording of `count` noisy moving-gradient frames, in chunks of one second (`rate` frames)."""
    rng = np.random.default_rng(7)
    source = folder / "source.y4m"
    with open(source, "wb") as f:
        f.write(f"YUV4MPEG2 W{width} H{height} F{rate}:1 Ip A1:1 Cmono\n".encode())
        ramp = np.add.outer(np.arange(height), np.arange(width)).astype(np.int64)
        for k in range(count):
            frame = ((ramp + 3 * k) % 200 + rng.integers(0, 8, (height, width))).astype(np.uint8)
            f.write(b"FRAME\n" + frame.tobytes())
    out = folder / "clip.luma"
    subprocess.run([lumatrace_bin, "record", str(source), "-o", str(out), "--chunk-seconds", "1", "--max-chunk-seconds", "1"],
                   check=True, capture_output=True)
    return out


def test_random_access_decodes_one_chunk(monkeypatch, tmp_path, lumatrace_bin):
    with lumatrace.open(recorded(lumatrace_bin, tmp_path, 64, 48, 60)) as rec:
        assert len(rec.info.chunks) == 6
        decompressed = []
        original = rec._decompress
        monkeypatch.setattr(rec, "_decompress", lambda payload, size: decompressed.append(size) or original(payload, size))
        assert np.array_equal(rec[45], rec[46 - 1])
        rec[46]
        assert len(decompressed) == 1, "frames 45 and 46 share chunk 4: one decoding"
        rec[12]
        assert len(decompressed) == 2 and rec._cached[0].number == 1


def test_iteration_holds_one_chunk_at_a_time(tmp_path, lumatrace_bin):
    with lumatrace.open(recorded(lumatrace_bin, tmp_path, 320, 180, 80)) as rec:
        largest = max(c.frame_count for c in rec.info.chunks) * rec.info.frame_size
        total = len(rec) * rec.info.frame_size
        assert total >= 8 * largest
        tracemalloc.start()
        count = sum(1 for _ in rec)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert count == 80
        assert peak < 4 * largest, f"iterating peaked at {peak} bytes; one chunk is {largest}, all frames {total}"


@pytest.mark.parametrize("version", [1, 2, 3])
def test_frames_rebuilt_a_band_at_a_time_equal_the_swift_export_across_band_edges(monkeypatch, tmp_path, lumatrace_bin,
                                                                                  version):
    """Bands of one row of blocks (16 rows of pixels), so a frame of 100 rows has 7 bands, each
    carrying its modes' state into the next; frames read backwards restart from the chunk."""
    from lumatrace import _payload
    monkeypatch.setattr(_payload, "BAND_PIXELS", 1)
    clip = recorded(lumatrace_bin, tmp_path, 72, 100, 12)
    if version != 3:
        subprocess.run([lumatrace_bin, "record", str(tmp_path / "source.y4m"), "-o", str(clip), "--force",
                        "--format-version", str(version), "--chunk-seconds", "1", "--max-chunk-seconds", "1"],
                       check=True, capture_output=True)
    assert_same_as_swift(lumatrace_bin, clip)
    with lumatrace.open(clip) as rec:
        swift = exported_frames(lumatrace_bin, clip, rec)
        assert all(np.array_equal(rec[i], swift[i]) for i in reversed(range(len(rec))))


#: Peak memory of iterating a recording, measured in a process of its own: what the process held
#: after opening it (no frame yet: the reference frame is decoded when first needed), and its peak
#: resident size while every frame
#: was read. (The kernel's VmHWM, not `ru_maxrss`, which keeps the peak of the process that started
#: this one.)
_ITERATION_PROBE = """if True:
    import sys, lumatrace
    def status(field):
        return next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith(field + ":"))
    rec = lumatrace.open(sys.argv[1])
    held = status("VmRSS")
    count = sum(1 for _ in rec.frames())
    print(count, held, status("VmHWM"))
"""


@pytest.mark.parametrize("content", ["zeros", "noisy"])
def test_iterating_big_frames_holds_the_payload_and_two_frames(tmp_path, lumatrace_bin, content):
    """A chunk of three 4096x4096 frames: iterating holds its decompressed payload, the file's
    reference frame, the frame being rebuilt and the one before it (as the Swift reader), never the
    chunk's frames or frame-sized scratch. (Zeros: 33 KB of file for 48 MiB of frames, the hostile case; noisy: every block mode.)"""
    width = height = 4096
    if content == "zeros":
        source = tmp_path / "source.y4m"
        with open(source, "wb") as f:
            f.write(f"YUV4MPEG2 W{width} H{height} F10:1 Ip A1:1 Cmono\n".encode())
            for _ in range(3):
                f.write(b"FRAME\n" + bytes(width * height))
        clip = tmp_path / "clip.luma"
        subprocess.run([lumatrace_bin, "record", str(source), "-o", str(clip)], check=True, capture_output=True)
    else:
        clip = recorded(lumatrace_bin, tmp_path, width, height, 3)
    with lumatrace.open(clip) as rec:
        (chunk,) = rec.info.chunks
        payload = rec._chunk_fields(chunk).raw_length
        compressed = chunk.payload_length
    count, held, peak = map(int, subprocess.run([sys.executable, "-c", _ITERATION_PROBE, str(clip)], check=True,
                                                capture_output=True, text=True).stdout.split())
    frame = width * height
    assert count == 3
    bound = payload + compressed + 3 * frame + (16 << 20)
    assert peak - held < bound, (f"iterating grew memory by {(peak - held) / frame:.2f} frames; the payload is "
                                 f"{payload / frame:.2f} frames, the bound {bound / frame:.2f}")


#: Peak memory of reading every frame of a recording by `sys.argv[2]` (an expression of `rec`),
#: measured as `_ITERATION_PROBE` measures iterating: what the process held after opening it, its
#: peak, and the first chunk's payload size.
_READING_PROBE = """if True:
    import sys, lumatrace, numpy as np
    def status(field):
        return next(int(l.split()[1]) * 1024 for l in open("/proc/self/status") if l.startswith(field + ":"))
    rec = lumatrace.open(sys.argv[1])
    held = status("VmRSS")
    eval(sys.argv[2])
    print(held, status("VmHWM"), rec._chunk_fields(rec.info.chunks[0]).raw_length)
"""


@pytest.mark.parametrize("reading", ["rec.computed_frames_digest()", "max(map(np.max, rec))"])
def test_reading_every_frame_of_huge_frames_holds_one_frame_at_a_time(lumatrace_bin, tmp_path, reading):
    # Three 4096x4096 frames (16 MiB each), one per chunk, coded against the file's reference frame:
    # the digest, or iterating with no frame kept by the caller, holds the reference, the payload
    # and the frame being read. Before, the frame before was still held while the next was decoded
    # (and the digest hashed a copy of each frame): 3.6 frames.
    side = 4096
    y4m = f"YUV4MPEG2 W{side} H{side} F30:1 Ip A1:1 Cmono\n".encode() + (b"FRAME\n" + bytes(side * side)) * 3
    one_frame_chunks = ["--chunk-seconds", "0.03", "--max-chunk-seconds", "0.03"]
    made = subprocess.run([lumatrace_bin, "record", "-", "-o", "big.luma", *one_frame_chunks], input=y4m, cwd=tmp_path,
                          capture_output=True)
    assert made.returncode == 0, made.stderr
    probe = [sys.executable, "-c", _READING_PROBE, str(tmp_path / "big.luma"), reading]
    held, peak, payload = map(int, subprocess.run(probe, check=True, capture_output=True, text=True).stdout.split())
    frame = side * side
    bound = 2 * frame + payload + frame // 4
    assert peak - held < bound, (f"{reading} grew memory by {(peak - held) / frame:.2f} frames; the payload is "
                                 f"{payload / frame:.2f} frames, the bound {bound / frame:.2f}")
    with lumatrace.open(tmp_path / "big.luma") as rec:
        assert len(rec.info.chunks) == 3
        assert rec.computed_frames_digest() == rec.frames_digest()


def test_info_describes_the_file_without_decoding(balls):
    info = balls.info
    assert (info.width, info.height, info.format_version, info.frame_count) == (320, 180, 1, 90)
    assert info.has_index and info.damage == ()
    assert sum(c.frame_count for c in info.chunks) == 90
    assert float(info.nominal_frame_rate) == 30
    assert repr(balls).startswith("<lumatrace.Recording")


# MARK: - Damage

def corpus(name):
    return CONFORMANCE / "recordings" / f"{name}.luma"


def test_a_damaged_chunk_is_an_error_naming_the_chunk_and_its_frames():
    with lumatrace.open(corpus("v3-payload-flipped")) as rec:
        with pytest.raises(lumatrace.DamagedChunkError) as raised:
            list(rec)
        assert raised.value.chunk == 1 and raised.value.frames == range(10, 20)
        assert "chunk 1 (frames 10...19) is damaged" in str(raised.value)
        assert str(corpus("v3-payload-flipped")) in str(raised.value)


def test_skip_damaged_reports_the_gap_and_reads_the_rest():
    with lumatrace.open(corpus("v3-payload-flipped"), skip_damaged=True) as rec:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            indices = [i for i, _, _ in rec.frames()]
        assert indices == list(range(10)) + list(range(20, 25))
        assert [(d.chunk, d.frames) for d in rec.skipped] == [(1, range(10, 20))]
        assert any("skipped chunk 1" in str(w.message) for w in caught)


def test_verify_lists_payload_damage():
    with lumatrace.open(corpus("v2-payload-flipped")) as rec:
        found = rec.verify()
        assert [d.chunk for d in found] == [1]


def test_a_file_cut_by_a_crash_keeps_every_complete_chunk():
    with lumatrace.open(corpus("v3-truncated")) as rec:
        assert not rec.info.has_index and len(rec) == 20
        assert any("interrupted" in d.reason for d in rec.info.damage)
        assert len(list(rec)) == 20


def test_hostile_claims_cost_no_large_allocation():
    tracemalloc.start()
    with lumatrace.open(corpus("giant-frames-v1")) as rec:
        assert len(rec) == 0 and (rec.info.width, rec.info.height) == (16384, 16384)
        assert list(rec) == []
    with lumatrace.open(corpus("v3-chunk-claims-65536-frames")) as rec:
        with pytest.raises(lumatrace.DamagedChunkError):
            rec[12]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 8 << 20, f"peak {peak} bytes"


def test_not_a_recording_says_what_the_file_looks_like(tmp_path):
    video = tmp_path / "clip.mp4"
    video.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(32))
    with pytest.raises(lumatrace.NotARecordingError, match="MP4/MOV video: record it first"):
        lumatrace.open(video)
    with pytest.raises(FileNotFoundError):
        lumatrace.open(tmp_path / "missing.luma")


def test_file_kinds_use_the_swift_readers_and_command_lines_words():
    """Python's table of file kinds mirrors Swift's: each kind's words are `FileKind`'s and each
    hint is one `FlagHints.recordHint(for:)` gives."""
    from lumatrace.recording import _FILE_KINDS
    kinds = (REPO / "Sources/LumaOutput/FileKind.swift").read_text()
    hints = (REPO / "Sources/LumatraceCLI/Support/FlagHints.swift").read_text()
    for _, words, hint in _FILE_KINDS:
        assert f'return "{words}"' in kinds, words
        assert hint == "" or f'return "{hint[2:]}"' in hints, hint


def test_a_frame_of_a_recording_of_huge_frames_keeps_no_payload_once_rebuilt(lumatrace_bin, tmp_path):
    # Two 4096x4096 frames (16 MiB each), one per chunk: once rec[0] is rebuilt, its chunk's
    # decompressed payload and scratch are let go; what stays is the frame and the reference it is
    # coded against.
    side = 4096
    y4m = f"YUV4MPEG2 W{side} H{side} F30:1 Ip A1:1 Cmono\n".encode() + (b"FRAME\n" + bytes(side * side)) * 2
    one_frame_chunks = ["--chunk-seconds", "0.03", "--max-chunk-seconds", "0.03"]
    made = subprocess.run([lumatrace_bin, "record", "-", "-o", "big.luma", *one_frame_chunks], input=y4m, cwd=tmp_path,
                          capture_output=True)
    assert made.returncode == 0, made.stderr
    rec = lumatrace.open(tmp_path / "big.luma")
    tracemalloc.start()
    try:
        frame = rec[0]
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert frame.shape == (side, side) and not frame.any()
    assert held < 2 * side * side + side * side // 8, f"rec[0] holds {held} bytes after it returned"
    assert len(rec.info.chunks) == 2
    assert not rec[1].any() and not rec[0].any()
    rec.close()


def test_verifying_a_recording_of_huge_frames_holds_a_payload_or_the_reference_never_both(lumatrace_bin, tmp_path):
    # Two 4096x4096 frames (16 MiB each) coded against the file's reference frame: verify() checks
    # that the reference decodes and each chunk's payload, one after the other, keeping neither.
    side = 4096
    y4m = f"YUV4MPEG2 W{side} H{side} F30:1 Ip A1:1 Cmono\n".encode() + (b"FRAME\n" + bytes(side * side)) * 2
    made = subprocess.run([lumatrace_bin, "record", "-", "-o", "big.luma"], input=y4m, cwd=tmp_path, capture_output=True)
    assert made.returncode == 0, made.stderr
    rec = lumatrace.open(tmp_path / "big.luma")
    tracemalloc.start()
    try:
        found = rec.verify()
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert found == []
    assert peak < side * side * 3 // 2, f"verify() took {peak} bytes at its peak"  # a payload is 21 MB
    assert held < side * side // 8, f"verify() holds {held} bytes after it returned"
    assert not rec[1].any()
    rec.close()


def test_opening_a_recording_of_huge_frames_decodes_no_frame(lumatrace_bin, tmp_path):
    # Two 4096x4096 frames (16 MiB each), coded against the file's reference frame: opening reads
    # the index, not the reference; the first frame asked for decodes it.
    side = 4096
    y4m = f"YUV4MPEG2 W{side} H{side} F30:1 Ip A1:1 Cmono\n".encode() + (b"FRAME\n" + bytes(side * side)) * 2
    made = subprocess.run([lumatrace_bin, "record", "-", "-o", "big.luma"], input=y4m, cwd=tmp_path, capture_output=True)
    assert made.returncode == 0, made.stderr
    tracemalloc.start()
    try:
        rec = lumatrace.open(tmp_path / "big.luma")
        _, opened = tracemalloc.get_traced_memory()
        frame = rec[1]
    finally:
        tracemalloc.stop()
    assert opened < side * side // 4, f"opening took {opened} bytes"
    assert frame.shape == (side, side) and not frame.any()
    assert rec.verify() == []
    rec.close()


# MARK: - What a video reader says

def test_a_recording_says_its_shape_dtype_and_size_as_an_array_of_its_frames_would(balls):
    assert (balls.width, balls.height) == (320, 180) == (balls.info.width, balls.info.height)
    assert balls.shape == (90, 180, 320) == np.stack(list(balls)).shape
    assert balls.dtype == np.uint8 == balls[0].dtype
    assert isinstance(balls.width, int) and isinstance(balls.shape[0], int)


@pytest.mark.parametrize("name, fps", [("balls-synth", 30.0), ("toss-real", 179 / 6), ("tracking-synth", 30.0)])
def test_fps_is_the_nominal_rate_lumatrace_info_prints(name, fps):
    """`lumatrace info`: "nominal 179/6 = 29.833 fps" for toss-real, whose frames keep their own times."""
    with lumatrace.open(RECORDINGS / f"{name}.luma") as rec:
        assert rec.fps == fps and isinstance(rec.fps, float)
        assert rec.fps == float(rec.info.nominal_frame_rate)



def test_a_writable_frame_is_one_argument_away_and_is_the_callers_own_copy(balls):
    """For OpenCV, whose drawing calls (`cv2.rectangle(frame, ...)`) write into the frame."""
    frame = balls.frame(7, writable=True)
    assert frame.flags.writeable and np.array_equal(frame, balls[7])
    frame[:] = 255
    assert not np.array_equal(balls[7], frame), "the reader's own frame is unchanged"
    assert balls.frame_at(0.5, writable=True).flags.writeable and not balls.frame(7).flags.writeable


def test_reading_only_says_how_to_get_a_writable_frame():
    """The read-only error is numpy's (or OpenCV's); the docs say where the writable frame is."""
    for text in (lumatrace.Recording.__doc__, lumatrace.Recording.frame.__doc__):
        assert "writable=True" in text
    assert "writable=True" in (REPO / "python" / "README.md").read_text()
