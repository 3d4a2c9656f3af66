"""The compiled decode path (the Swift reader's C kernels, built at `pip install`) and the numpy one
it falls back to give the same bytes, on every recording at hand; the fallback can be forced."""
import json
import subprocess

import numpy as np
import pytest

import lumatrace
from lumatrace import _payload
from conftest import CONFORMANCE, RECORDINGS, needs_clips
from test_recording import clips

built = pytest.mark.skipif(_payload._kernels is None, reason="the compiled decoder is not built: `pip install -e python` "
                                                             "with gcc and Python's headers (Debian: python3-dev)")


def assert_both_paths_equal(path):
    """Every frame and time, decoded by both paths, byte for byte."""
    with lumatrace.open(path, decoder="c") as c, lumatrace.open(path, decoder="numpy") as py:
        assert (c.decoder, py.decoder) == ("c", "numpy")
        frames = 0
        for (i, t, a), (j, u, b) in zip(c.frames(), py.frames(), strict=True):
            assert (i, t) == (j, u) and np.array_equal(a, b), f"{path}: frame {i} differs between the decoders"
            frames += 1
        assert frames == len(c) > 0
        return c.info


INTACT = sorted(p.stem for p in (CONFORMANCE / "recordings").glob("v*-*.luma")
                if json.loads((p.parent / f"{p.stem}.expected.json").read_text())["about"].endswith("intact"))


@built
@pytest.mark.parametrize("path", [RECORDINGS / f"{n}.luma" for n in ("balls-synth", "toss-real", "tracking-synth")]
                         + [CONFORMANCE / "recordings" / f"{n}.luma" for n in INTACT], ids=lambda p: p.stem)
def test_the_compiled_decoder_gives_the_numpy_decoders_bytes(path):
    assert_both_paths_equal(path)


@built
@needs_clips
@pytest.mark.parametrize("source", clips())
def test_the_two_decoders_agree_on_every_shared_clip(lumatrace_bin, tmp_path, source):
    out = tmp_path / "clip.luma"
    subprocess.run([lumatrace_bin, "record", str(source), "-o", str(out)], check=True, capture_output=True)
    assert assert_both_paths_equal(out).format_version == 3


@built
@pytest.mark.parametrize("version", [1, 2, 3])
def test_the_two_decoders_agree_on_odd_sizes_in_every_version(lumatrace_bin, tmp_path, version):
    """A width and height that are not multiples of 16 (partial blocks) or 8 (mask bytes)."""
    from test_recording import recorded
    recorded(lumatrace_bin, tmp_path, 37, 21, 25)  # writes source.y4m, then records it
    out = tmp_path / f"v{version}.luma"
    subprocess.run([lumatrace_bin, "record", str(tmp_path / "source.y4m"), "-o", str(out), "--format-version", str(version)], check=True,
                   capture_output=True)
    assert assert_both_paths_equal(out).format_version == version


def test_the_numpy_decoder_can_be_forced(monkeypatch):
    monkeypatch.setenv("LUMATRACE_DECODER", "numpy")
    with lumatrace.open(RECORDINGS / "balls-synth.luma") as rec:
        assert rec.decoder == "numpy"
        rec[3]
        assert rec._cached[0].compiled is False
    monkeypatch.setenv("LUMATRACE_DECODER", "auto")
    with lumatrace.open(RECORDINGS / "balls-synth.luma") as rec:
        assert rec.decoder == ("numpy" if _payload._kernels is None else "c")


def test_a_decoder_that_is_not_one_is_refused_naming_it(monkeypatch):
    with pytest.raises(ValueError, match="decoder='fast' is not a decoder: use one of auto, c, numpy"):
        lumatrace.open(RECORDINGS / "balls-synth.luma", decoder="fast")
    monkeypatch.setenv("LUMATRACE_DECODER", "gpu")
    with pytest.raises(ValueError, match="LUMATRACE_DECODER='gpu' is not a decoder"):
        lumatrace.open(RECORDINGS / "balls-synth.luma")


def test_without_the_compiled_decoder_auto_falls_back_and_c_says_how_to_build_it(monkeypatch):
    monkeypatch.setattr(_payload, "_kernels", None)
    monkeypatch.setattr(_payload, "UNBUILT_BECAUSE", "the install could not build it: no compiler")
    monkeypatch.setattr(_payload, "_told_numpy", False)  # this process's "told once", as if fresh
    with pytest.warns(RuntimeWarning, match="decodes frames with numpy.*missing: the install could not build it: no compiler"):
        rec = lumatrace.open(RECORDINGS / "balls-synth.luma")
    with rec:
        assert rec.decoder == "numpy" and rec[5].shape == (rec.info.height, rec.info.width)
    with pytest.raises(ImportError, match="missing \\(the install could not build it: no compiler\\).*python3-dev"):
        lumatrace.open(RECORDINGS / "balls-synth.luma", decoder="c")


@built
def test_the_kernels_refuse_buffers_too_small_for_the_frame():
    from lumatrace import _kernels
    frame = np.zeros(64, dtype=np.uint8)
    with pytest.raises(ValueError, match="out holds 63 bytes, 64 needed"):
        _kernels.residual_expand(np.zeros(8, np.uint8), b"", 64, frame, np.zeros(63, np.uint8))
    with pytest.raises(ValueError, match="high holds 10 bytes, 64 needed"):
        _kernels.blocks_decode(np.zeros(1, np.uint8), np.zeros(32, np.uint8), np.zeros(10, np.uint8), frame, 8, 8, frame.copy())
    with pytest.raises(BufferError):
        _kernels.residual_expand(np.zeros(8, np.uint8), b"", 64, frame, b"\0" * 64)  # read-only output
    assert _kernels.residual_expand(np.full(8, 255, np.uint8), b"\1" * 10, 64, frame, np.zeros(64, np.uint8)) == -1


@built
@pytest.mark.parametrize("width", [16, 34, 96, 250])
def test_blocks_decode_may_read_the_high_nibbles_from_the_frame_it_rebuilds(width):
    # The reader expands a frame's high nibbles into the frame itself, so no frame-sized scratch is
    # held beside it (round 5, L15): the decode must give the bytes it gives from a buffer of its own,
    # with every block mode, on widths with a partial block and odd block counts.
    from lumatrace import _kernels
    rng = np.random.default_rng(width)
    height = 40
    blocks = ((width + 15) // 16) * ((height + 15) // 16)
    modes = rng.integers(0, 3, blocks, dtype=np.uint8)
    low = rng.integers(0, 256, (width * height + 1) // 2, dtype=np.uint8)
    high = rng.integers(0, 16, width * height, dtype=np.uint8)
    predictor = rng.integers(0, 256, width * height, dtype=np.uint8)
    apart = np.empty(width * height, dtype=np.uint8)
    assert _kernels.blocks_decode(modes, low, high, predictor, width, height, apart)
    in_place = high.copy()
    assert _kernels.blocks_decode(modes, low, in_place, predictor, width, height, in_place)
    assert np.array_equal(in_place, apart)


@built
@pytest.mark.parametrize("count", [0, 5, 64, 67, 1000])
def test_the_kernels_count_set_bits_as_numpy_does(count):
    from lumatrace import _kernels
    mask = np.random.default_rng(count).integers(0, 256, (count + 7) // 8 + 3, dtype=np.uint8)
    assert _kernels.set_bits(mask, count) == _payload._set_bits(mask, count)
    with pytest.raises(ValueError, match="mask holds"):
        _kernels.set_bits(mask[:1], 64)
