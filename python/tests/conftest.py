"""Shared locations: the repository the package sits in, its bundled recordings and corpus."""
import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RECORDINGS = REPO / "Recordings"
CONFORMANCE = REPO / "Tests" / "Conformance"
SHARED_DATA = REPO.parent / "shared" / "data"


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
