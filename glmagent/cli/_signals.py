"""SIGTERM and SIGHUP (docker stop, a cancelled CI job, a closed terminal) stop a task like Ctrl-C does.

The handler raises `Terminated`, a `KeyboardInterrupt`, in the main thread: the running command's process
tree is stopped, the loop writes its summary and a `task_end` record, and the CLI exits with 128 + the
signal number (143 for SIGTERM, 129 for SIGHUP).
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from contextlib import contextmanager


class Terminated(KeyboardInterrupt):
    """The process was asked to stop by a signal other than Ctrl-C."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")


_received: list[int] = []


def _on_signal(signum: int, frame: object) -> None:
    if _received:
        return  # already stopping: let the summary and the audit record be written
    _received.append(signum)
    raise Terminated(signum)


@contextmanager
def stop_on_termination() -> Iterator[None]:
    """Turn SIGTERM/SIGHUP into `Terminated` while the block runs (main thread only)."""
    names = ("SIGTERM", "SIGHUP")
    previous: dict[int, object] = {}
    for name in names:
        signum = getattr(signal, name, None)
        if signum is None:
            continue  # Windows has no SIGHUP
        # Outside the main thread (embedded use) signal.signal raises ValueError: leave signals alone.
        with contextlib.suppress(ValueError):
            previous[signum] = signal.signal(signum, _on_signal)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]


def termination_exit_code() -> int | None:
    """128 + the signal that stopped the run, or None when no signal did."""
    return 128 + _received[0] if _received else None
