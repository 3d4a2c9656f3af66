"""Shared locations: the repository the package sits in, its bundled recordings and corpus."""
import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RECORDINGS = REPO / "Recordings"
CONFORMANCE = REPO / "Tests" / "Conformance"
# The clip corpus, as the Swift tests find it: $LUMATRACE_SHARED_DATA (empty: none), else ../shared/data.
SHARED_DATA = Path(os.environ.get("LUMATRACE_SHARED_DATA") or REPO.parent / "shared" / "data")
HAS_CLIPS = os.environ.get("LUMATRACE_SHARED_DATA", "x") != "" and SHARED_DATA.exists()
# Without the corpus its tests are skipped, unless it is required (CI: LUMATRACE_REQUIRE_CLIPS=1): then they run and fail.
CLIP_CORPUS_SKIP = "needs the clip corpus (../shared/data): scripts/get-clips fetches it, or set LUMATRACE_SHARED_DATA"
needs_clips = pytest.mark.skipif(not HAS_CLIPS and os.environ.get("LUMATRACE_REQUIRE_CLIPS") != "1", reason=CLIP_CORPUS_SKIP)


def lumatrace_binary() -> str:
    """The Swift command-line tool, for tests that compare with it: $LUMATRACE, else the debug build."""
    path = os.environ.get("LUMATRACE") or str(REPO / ".build" / "debug" / "lumatrace")
    if not Path(path).exists():
        pytest.fail(f"{path} is missing: build it with `swift build` (or set LUMATRACE to a lumatrace binary)")
    return path


@pytest.fixture(scope="session")
def lumatrace_bin():
    return lumatrace_binary()


@pytest.fixture(scope="session")
def ffmpeg():
    if shutil.which("ffmpeg") is None:
        pytest.fail("ffmpeg is missing: install it with `apt-get install ffmpeg` (scripts/install-dependencies does)")
    return "ffmpeg"


@pytest.fixture(scope="session")
def large(lumatrace_bin, tmp_path_factory):
    """A recording of large frames and its log (`export_expectations.large_frames`), made once for
    every export test that measures memory."""
    from export_expectations import large_frames
    return large_frames(lumatrace_bin, tmp_path_factory.mktemp("large"))
