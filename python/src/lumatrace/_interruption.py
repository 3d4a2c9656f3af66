"""Ctrl-C on a live pipeline, as the command line takes it.

    lumatrace record - --live ... --events - | python -m lumatrace stream-rerun --save live.rrd

A terminal's Ctrl-C sends SIGINT to every program of the pipeline at once. `record` then closes its
file and its end of the pipe, after writing the events of the frames it received; the reader should
take those too, and then save what it streamed. So the first SIGINT (or SIGTERM) only notes the
signal and lets the reading go on to the end of the log; if the writer does not close its end
within `GRACE` seconds (it was not signalled, or it hangs), or a second signal comes, the reading
stops at once (`KeyboardInterrupt`). Either way the reader knows it was stopped (`signal_name`)
and marks what it saved as incomplete.
"""
from __future__ import annotations

import signal

#: How long the writer may take to close its end after the first signal, in seconds.
GRACE = 5.0
_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interruption:
    """Within `with Interruption() as stop:`, SIGINT and SIGTERM are noted (`stop.signal_name()`)
    instead of stopping the program; a second one, or `GRACE` seconds after the first, raises
    `KeyboardInterrupt`. The handlers before are restored on leaving."""

    def __init__(self, grace: float = GRACE):
        self.grace = grace
        self._name: str | None = None
        self._previous: dict = {}

    def signal_name(self) -> str | None:
        """The first signal received ("SIGINT", "SIGTERM"), or None."""
        return self._name

    def __enter__(self) -> "Interruption":
        for number in _SIGNALS:
            self._previous[number] = signal.signal(number, self._received)
        self._previous[signal.SIGALRM] = signal.signal(signal.SIGALRM, self._grace_over)
        return self

    def __exit__(self, *exception) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        for number, handler in self._previous.items():
            signal.signal(number, handler)

    def _received(self, number, frame) -> None:
        if self._name is not None:
            raise KeyboardInterrupt
        self._name = signal.Signals(number).name
        signal.setitimer(signal.ITIMER_REAL, self.grace)

    def _grace_over(self, number, frame) -> None:
        raise KeyboardInterrupt
