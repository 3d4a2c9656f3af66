"""What the Python benchmarks (`http-replay/measure.py`, `python-reader/bench.py`) share: where the
checkout and the shared clips are, the release `lumatrace` they measure, the core they pin it to, and
their `--runs` option (figures are medians of that many runs).

A benchmark script imports it from the folder above its own:

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import measuring
"""
import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("LUMATRACE_SHARED_DATA", ROOT.parent / "shared" / "data"))


def release_lumatrace() -> str:
    """Builds `lumatrace` in release (its output shown only when the build fails) and returns its path."""
    subprocess.run(["swift", "build", "-c", "release", "--product", "lumatrace"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return str(ROOT / ".build" / "release" / "lumatrace")


def shared_clip(*parts: str) -> Path:
    """A clip of ../shared/data (or LUMATRACE_SHARED_DATA); exits saying so when it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        sys.exit(f"{path} is missing: the benchmark reads the clips of ../shared/data (or LUMATRACE_SHARED_DATA)")
    return path


def one_core() -> int:
    """The core a benchmark pins what it measures to (`taskset -c`): the first one it may use."""
    return min(os.sched_getaffinity(0))


def _runs(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number of at least 1")
    return int(text)


def argument_parser(description: str, runs_help: str) -> argparse.ArgumentParser:
    """A benchmark's command line: its description as the help text, and `--runs` (default 5)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=_runs, default=5, help=runs_help)
    return parser
