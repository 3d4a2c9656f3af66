"""`lumatrace.analyzer`: a Python analyzer is a class; `run` speaks the external analyzer's
protocol for it, `run_on` runs it without Lumatrace. The protocol specs start the analyzer as a
program and speak to it as Lumatrace does (Plugins/External/ExternalProtocol.swift)."""
import hashlib
import importlib.util
import io
import json
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import lumatrace
from lumatrace.analyzer import (Analyzer, AnalyzerError, Event, EventKind, OptionsRefused, Region, Stream, run_on, serve)

REPO = Path(__file__).resolve().parents[2]
TOSS = REPO / "Recordings" / "toss-real.luma"
HEADER = struct.Struct("<4sIIIqqq")


# MARK: - Speaking the protocol to a program

def hello(width=8, height=6, options=None, roi=(0, 0, 1, 1), protocol=1):
    return json.dumps({"lumatrace": "external-analyzer", "protocol": protocol,
                       "stream": {"width": width, "height": height, "timescale": 600, "nominalFrameRate": 30.0,
                                  "frameCount": None, "identity": "ab12"},
                       "regionOfInterest": list(roi), "frameAnalysisSpacing": 0.0, "options": options or {}}).encode() + b"\n"


def frame(index, pixels):
    h, w = pixels.shape
    return HEADER.pack(b"LTFR", w, h, 0, index, index * 20, 600) + pixels.tobytes()


END = HEADER.pack(b"LTEN", 0, 0, 0, 0, 0, 0)


def program(tmp_path, body):
    """An analyzer program in a file: `body` is the class `A`; `run(A)` is appended."""
    path = tmp_path / "analyzer.py"
    path.write_text("import numpy as np\nfrom lumatrace.analyzer import Analyzer, Event, run\n\n"
                    + textwrap.dedent(body) + "\n\nif __name__ == '__main__':\n    run(A)\n")
    return path


def speak(path, stdin):
    r = subprocess.run([sys.executable, str(path)], input=stdin, capture_output=True, timeout=60)
    return r.returncode, [json.loads(line) for line in r.stdout.decode().splitlines()], r.stderr.decode()


MEAN = """
class A(Analyzer):
    events = {"mean": None, "total": None}

    def configure(self, options, stream):
        self.scale = options.get("scale", 1)
        if not isinstance(self.scale, int) or self.scale < 1:
            raise ValueError(f"scale must be an integer >= 1 (got {self.scale!r})")
        self.frames = 0

    def analyze(self, frame):
        print("diagnostics go to stderr")
        self.frames += 1
        yield Event("mean", {"mean": frame.region.mean() * self.scale, "index": frame.index, "seconds": frame.seconds,
                             "size": frame.region.shape})

    def finish(self):
        return Event("total", {"frames": self.frames})
"""


def test_protocol_round_trip(tmp_path):
    frames = [np.full((6, 8), v, np.uint8) for v in (10, 20, 30)]
    stdin = hello(options={"scale": 2}) + b"".join(frame(i, f) for i, f in enumerate(frames)) + END
    status, lines, stderr = speak(program(tmp_path, MEAN), stdin)
    assert status == 0, stderr
    assert lines[0] == {"ready": True, "events": [{"kind": "mean", "version": 1, "shape": None},
                                                  {"kind": "total", "version": 1, "shape": None}]}
    assert lines[1:] == [
        {"kind": "mean", "data": {"mean": 20.0, "index": 0, "seconds": 0.0, "size": [6, 8]}}, {"done": 0},
        {"kind": "mean", "data": {"mean": 40.0, "index": 1, "seconds": 0.033333, "size": [6, 8]}}, {"done": 1},
        {"kind": "mean", "data": {"mean": 60.0, "index": 2, "seconds": 0.066667, "size": [6, 8]}}, {"done": 2},
        {"kind": "total", "data": {"frames": 3}}, {"done": "end"}]
    assert stderr.count("diagnostics go to stderr") == 3, "print() reaches stderr, never the protocol's stdout"


def test_each_frame_is_answered_before_the_next_is_sent(tmp_path):
    """Lumatrace waits for a frame's done line before it writes the next frame: the answer must be
    flushed, not left in a buffer."""
    with subprocess.Popen([sys.executable, str(program(tmp_path, MEAN))], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL) as p:
        try:
            p.stdin.write(hello())
            p.stdin.flush()
            assert json.loads(p.stdout.readline())["ready"] is True
            for i in range(3):
                p.stdin.write(frame(i, np.zeros((6, 8), np.uint8)))
                p.stdin.flush()
                assert json.loads(p.stdout.readline())["kind"] == "mean"
                assert json.loads(p.stdout.readline()) == {"done": i}
            p.stdin.write(END)
            p.stdin.close()
            assert [json.loads(line) for line in p.stdout] == [{"kind": "total", "data": {"frames": 3}}, {"done": "end"}]
            assert p.wait(timeout=30) == 0
        finally:
            p.kill()


def test_options_it_refuses_are_an_error_line_and_status_2(tmp_path):
    status, lines, stderr = speak(program(tmp_path, MEAN), hello(options={"scale": 0}))
    assert status == 2
    assert lines == [{"error": "scale must be an integer >= 1 (got 0)"}]
    with pytest.raises(OptionsRefused, match=r"scale must be an integer >= 1 \(got 'x'\)"):
        run_on(_load(program(tmp_path, MEAN)).A, [np.zeros((6, 8), np.uint8)], {"scale": "x"})


def test_an_analyzer_without_configure_refuses_every_option():
    class NoOptions(Analyzer):
        events = {"x": None}

        def analyze(self, frame):
            return None

    with pytest.raises(OptionsRefused, match=r"NoOptions takes no options \(got every\)"):
        run_on(NoOptions, [np.zeros((2, 2), np.uint8)], {"every": 3})


def test_an_exception_in_analyze_is_an_error_naming_the_frame_and_a_nonzero_exit(tmp_path):
    path = program(tmp_path, """
        class A(Analyzer):
            events = {"x": None}

            def analyze(self, frame):
                if frame.index == 2:
                    return {"ratio": 1 / 0}
                return {"ratio": 1.0}
        """)
    stdin = hello() + b"".join(frame(i, np.zeros((6, 8), np.uint8)) for i in range(4)) + END
    status, lines, stderr = speak(path, stdin)
    assert status == 1
    assert lines[-1] == {"error": "frame 2: analyze raised ZeroDivisionError: division by zero (traceback on stderr)"}
    assert lines[1:-1] == [{"kind": "x", "data": {"ratio": 1.0}}, {"done": 0}, {"kind": "x", "data": {"ratio": 1.0}}, {"done": 1}]
    assert "Traceback" in stderr and "1 / 0" in stderr
    with pytest.raises(AnalyzerError, match="frame 2: analyze raised ZeroDivisionError") as caught:
        run_on(_load(path).A, [np.zeros((6, 8), np.uint8)] * 4)
    assert caught.value.frame == 2 and isinstance(caught.value.__cause__, ZeroDivisionError)


def test_a_generator_that_raises_is_reported_like_a_function():
    class Yields(Analyzer):
        events = {"x": None}

        def analyze(self, frame):
            yield Event("x", {})
            raise KeyError("gone")

    with pytest.raises(AnalyzerError, match=r"frame 0: analyze raised KeyError: 'gone'"):
        run_on(Yields, [np.zeros((2, 2), np.uint8)])


def test_an_event_of_an_undeclared_kind_is_refused_naming_the_declared_ones():
    class Typo(Analyzer):
        events = {"brightness": None, "glare": None}

        def analyze(self, frame):
            return [Event("brightnes", {"mean": 1})]

    with pytest.raises(AnalyzerError, match=r"frame 0: Typo emitted an event of kind 'brightnes', which it does not declare "
                                            r"\(declared: brightness, glare\); add it to Typo.events"):
        run_on(Typo, [np.zeros((2, 2), np.uint8)])


def test_declarations_are_checked_before_the_first_frame(tmp_path):
    path = program(tmp_path, """
        class A(Analyzer):
            events = {"spot": "bbox"}

            def analyze(self, frame):
                return None
        """)
    status, lines, _ = speak(path, hello())
    assert status == 1
    assert lines == [{"error": "A.events['spot']: 'bbox' is not a shape: None or one of pathEnd, pathUpdate, box, boxLost, "
                               "boxRecovered, quadrilateral, blobs"}]

    class BadKind(Analyzer):
        events = {"two words": None}

    with pytest.raises(AnalyzerError, match="'two words' is not an event kind"):
        run_on(BadKind, [np.zeros((2, 2), np.uint8)])


def test_shapes_and_versions_are_declared_in_the_ready_line_and_shaped_events_need_their_fields(tmp_path):
    class Spots(Analyzer):
        events = {"spot": "box", "spot.lost": EventKind("boxLost", version=2)}

        def analyze(self, frame):
            return Event("spot", {"id": "s1", "boundingBox": self.stream.normalized_box(1, 1, 2, 2)})

    with pytest.raises(AnalyzerError, match=r"frame 0: a spot event \(shape box\) lacks confidence"):
        run_on(Spots, [np.zeros((4, 4), np.uint8)])
    path = program(tmp_path, """
        from lumatrace.analyzer import EventKind
        class A(Analyzer):
            events = {"spot": "box", "spot.lost": EventKind("boxLost", version=2)}
        """)
    assert speak(path, hello())[1][0]["events"] == [{"kind": "spot", "version": 1, "shape": "box"},
                                                    {"kind": "spot.lost", "version": 2, "shape": "boxLost"}]


def test_event_data_becomes_deterministic_json():
    class Numbers(Analyzer):
        events = {"n": None}

        def analyze(self, frame):
            return {"f64": np.float64(2) / 3, "f32": np.float32(0.1), "int": np.int64(7), "flag": np.bool_(True),
                    "array": np.array([[1, 2], [3, 4]], np.uint8), "tuple": (1.23456789, -1e-9), "none": None}

    [event] = run_on(Numbers, [np.zeros((2, 2), np.uint8)])
    assert event.data == {"f64": 0.666667, "f32": 0.1, "int": 7, "flag": True, "array": [[1, 2], [3, 4]],
                          "tuple": [1.234568, 0.0], "none": None}
    assert json.dumps(event.data["tuple"]) == "[1.234568, 0.0]", "-0.0 is written 0.0"

    for bad, message in [(float("nan"), r"data\['x'\] is nan, which JSON cannot hold"),
                         ({1, 2}, r"data\['x'\] is a set, which has no order"),
                         (object(), r"data\['x'\] is a object, not JSON")]:
        class Bad(Analyzer):
            events = {"n": None}

            def analyze(self, frame, bad=bad):
                return {"x": bad}

        with pytest.raises(AnalyzerError, match=r"frame 0: a n event's " + message):
            run_on(Bad, [np.zeros((2, 2), np.uint8)])


def test_input_that_ends_inside_a_frame_is_a_clear_error(tmp_path):
    pixels = np.zeros((6, 8), np.uint8)
    status, lines, stderr = speak(program(tmp_path, MEAN), hello() + frame(0, pixels) + frame(1, pixels)[:60])
    assert status == 1
    assert lines[-1] == {"error": "input ended 20 bytes into frame 1's 48 bytes of pixels (did Lumatrace stop?)"}
    assert "input ended 20 bytes into frame 1's 48 bytes of pixels" in stderr
    status, lines, _ = speak(program(tmp_path, MEAN), hello() + frame(0, pixels))
    assert status == 1
    assert lines[-1] == {"error": "input ended after frame 0, without the end marker (\"LTEN\"): Lumatrace stopped before the end"}


def test_a_hello_of_another_protocol_or_none_is_refused(tmp_path):
    path = program(tmp_path, MEAN)
    status, lines, _ = speak(path, hello(protocol=2))
    assert status == 1 and "speaks protocol 1, Lumatrace sent protocol 2" in lines[0]["error"]
    status, lines, _ = speak(path, b"hello\n")
    assert status == 1 and lines[0]["error"].startswith("the first line is not Lumatrace's hello")


def test_an_analyzer_that_cannot_be_created_or_a_hello_without_its_stream_is_an_error_line():
    """`serve` is `run` on any streams, here in memory."""
    class Broken(Analyzer):
        events = {"x": None}

        def __init__(self):
            raise RuntimeError("no camera model")

    out, err = io.StringIO(), io.StringIO()
    assert serve(Broken, io.BytesIO(hello()), out, err) == 1
    assert json.loads(out.getvalue()) == {"error": "creating Broken raised RuntimeError: no camera model (traceback on stderr)"}
    assert "Traceback" in err.getvalue()

    out = io.StringIO()
    no_stream = json.dumps({"lumatrace": "external-analyzer", "protocol": 1}).encode() + b"\n"
    assert serve(_load_mean(), io.BytesIO(no_stream), out, io.StringIO()) == 1
    assert json.loads(out.getvalue()) == {"error": "the hello's stream or region of interest is incomplete (KeyError: 'stream')"}


def _load_mean():
    namespace = {}
    exec("import numpy as np\nfrom lumatrace.analyzer import Analyzer, Event\n" + textwrap.dedent(MEAN), namespace)
    return namespace["A"]


# MARK: - The region of interest

def test_the_region_of_interest_is_normalized_with_a_lower_left_origin():
    # The lower-left quarter of a 100x60 frame: columns 0..<50, rows 30..<60 from the top.
    assert Region(0, 0, 0.5, 0.5).pixel_bounds(100, 60) == (0, 30, 50, 60)
    # The upper-right 0.3 x 0.2: columns 70..<100, rows 0..<12.
    assert Region(0.7, 0.8, 0.3, 0.2).pixel_bounds(100, 60) == (70, 0, 100, 12)
    # Partly covered pixels are in; never empty; never outside the frame.
    assert Region(0.105, 0.5, 0.01, 0.001).pixel_bounds(100, 60) == (10, 29, 12, 30)
    assert Region(1.0, 1.0, 0.0, 0.0).pixel_bounds(100, 60) == (99, 0, 100, 1)
    assert Region(-0.5, -0.5, 2, 2).pixel_bounds(100, 60) == (0, 0, 100, 60)


def test_the_region_of_interest_reaches_the_analyzer_cropped(tmp_path):
    pixels = np.arange(48, dtype=np.uint8).reshape(6, 8)  # value = 8 * row + column
    status, lines, _ = speak(program(tmp_path, MEAN), hello(roi=(0.5, 0.5, 0.5, 0.5)) + frame(0, pixels) + END)
    assert status == 0
    # Columns 4..<8, rows 0..<3: the upper right.
    assert lines[1]["data"]["mean"] == float(pixels[0:3, 4:8].mean())
    assert lines[1]["data"]["size"] == [3, 4]

    class Crop(Analyzer):
        events = {"crop": None}

        def analyze(self, frame):
            return {"crop": frame.region, "roi": frame.region_of_interest}

    [event] = run_on(Crop, [pixels], region_of_interest=(0.25, 0, 0.5, 1 / 3))
    assert event.data == {"crop": pixels[4:6, 2:6].tolist(), "roi": [0.25, 0.0, 0.5, 0.333333]}


def test_normalized_coordinates_match_lumatraces():
    s = Stream(width=100, height=50, timescale=30, nominal_frame_rate=30, identity="x")
    assert s.normalized_point(25, 10) == [0.25, 0.8]
    assert s.normalized_box(10, 5, 20, 10) == [0.1, 0.7, 0.2, 0.2]


# MARK: - run_on

def test_run_on_a_recording_sees_its_frames_times_and_identity():
    class Seen(Analyzer):
        events = {"seen": None, "summary": None}

        def configure(self, options, stream):
            self.stream_seen = stream
            self.count = 0

        def analyze(self, frame):
            self.count += 1
            assert not frame.pixels.flags.writeable
            return Event("seen", {"ticks": frame.ticks, "mean": frame.pixels.mean()})

        def finish(self):
            return Event("summary", {"frames": self.count, "identity": self.stream_seen.identity})

    rec = lumatrace.open(TOSS)
    events = run_on(Seen, TOSS)
    assert [e.frame for e in events] == list(range(len(rec))) + [len(rec) - 1]
    assert [e.seconds for e in events[:-1]] == rec.times.seconds.tolist()
    assert events[5].data == {"ticks": int(rec.times.ticks[5]), "mean": round(float(rec[5].mean()), 6)}
    summary = events[-1]
    assert summary.final and summary.kind == "summary" and summary.data["frames"] == len(rec)
    # Lumatrace names a stream by its first frame: SHA-256 of its ticks (int64 LE) and pixels.
    first = struct.pack("<q", int(rec.times.ticks[0])) + rec[0].tobytes()
    assert summary.data["identity"] == hashlib.sha256(first).hexdigest()
    # A part of it: the frames asked for, the same identity.
    part = run_on(Seen, rec, start=10, stop=13)
    assert [e.frame for e in part] == [10, 11, 12, 12] and part[-1].data["identity"] == summary.data["identity"]


def test_the_bundled_brightness_histogram_through_run_on():
    """Plugins/BrightnessHistogram, the example the Swift tests replay through `external`."""
    plugin = _load(REPO / "Plugins" / "BrightnessHistogram" / "brightness_histogram.py").BrightnessHistogram
    events = run_on(plugin, TOSS, {"every": 10, "bins": 8})
    assert [e.frame for e in events] == [0, 10, 20, 30, 40, 50]
    for e in events:
        assert e.kind == "brightness" and len(e.data["histogram"]) == 8
        assert abs(sum(e.data["histogram"]) - 1) < 1e-5 and 0 < e.data["mean"] < 255
    assert run_on(plugin, TOSS, {"every": 10, "bins": 8}) == events, "deterministic"
    with pytest.raises(OptionsRefused, match="every must be an integer >= 1"):
        run_on(plugin, TOSS, {"every": 0})


def test_run_on_arrays_and_triples():
    class Times(Analyzer):
        events = {"t": None}

        def analyze(self, frame):
            return {"index": frame.index, "seconds": frame.seconds}

    frames = [np.zeros((4, 4), np.uint8)] * 3
    assert [e.data for e in run_on(Times, frames, rate=25)] == [
        {"index": 0, "seconds": 0.0}, {"index": 1, "seconds": 0.04}, {"index": 2, "seconds": 0.08}]
    assert [e.data for e in run_on(Times, [(7, 1000, frames[0])], rate=1000)] == [{"index": 7, "seconds": 1.0}]
    with pytest.raises(ValueError, match=r"frame 0 is a float64 array of shape \(4, 4\): give \(height, width\) uint8 luma"):
        run_on(Times, [np.zeros((4, 4))])
    with pytest.raises(ValueError, match="no frames to analyze"):
        run_on(Times, [])


def _load(path):
    """A plugin file as a module (plugins are scripts, not packages)."""
    spec = importlib.util.spec_from_file_location(Path(path).stem + "_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
