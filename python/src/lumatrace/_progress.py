"""A progress bar on a terminal: `export-mcap` and `export-rrd` show how many frames are written.

    with ProgressBar.on_terminal(sys.stderr, "export-mcap") as progress:
        to_mcap(..., progress=progress)    # progress(done, total) after each frame

Drawn on standard error only when it is a terminal (a pipe, a file or CI gets nothing, so their
output stays the same bytes), redrawn at most once per percent, and erased at the end.
"""
from __future__ import annotations

_WIDTH = 30


class ProgressBar:
    """`progress(done, total)` draws `LABEL [#####.....] done/total frames` on `stream`."""

    def __init__(self, stream, label: str):
        self.stream, self.label = stream, label
        self._shown: int | None = None
        self._drawn = False

    @classmethod
    def on_terminal(cls, stream, label: str) -> "ProgressBar | _Silent":
        """A bar when `stream` is a terminal, else something that draws nothing."""
        isatty = getattr(stream, "isatty", None)
        return cls(stream, label) if isatty is not None and isatty() else _Silent()

    def __call__(self, done: int, total: int) -> None:
        percent = 100 * done // total if total else 100
        if percent == self._shown and done != total:
            return
        self._shown = percent
        filled = _WIDTH * done // total if total else _WIDTH
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (_WIDTH - filled)}] {done}/{total} frames")
        self.stream.flush()
        self._drawn = True

    def __enter__(self) -> "ProgressBar":
        return self

    def __exit__(self, *exc) -> None:
        if self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()


class _Silent:
    """No progress shown (standard error is not a terminal); still a valid `progress` argument."""

    def __call__(self, done: int, total: int) -> None:
        pass

    def __enter__(self):
        return None

    def __exit__(self, *exc) -> None:
        pass
