"""Signals that stop a run: Ctrl-C (SIGINT), and SIGTERM/SIGHUP (docker stop, a cancelled CI job, a closed
terminal).

A first Ctrl-C while an action runs lets it finish, then the task stops with its summary written; a second
Ctrl-C, or a Ctrl-C at any other moment, stops at once (the running command's process tree is killed).
SIGTERM and SIGHUP stop at once too and raise `Terminated`, a `KeyboardInterrupt`; the CLI then exits with
128 + the signal number (143 for SIGTERM, 129 for SIGHUP). In every case a record being written is finished
first and the loop writes its summary and a `task_end` record (see `glmagent.stopping`).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

from glmagent.stopping import StopControl


class Terminated(KeyboardInterrupt):
    """The process was asked to stop by a signal other than Ctrl-C."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")


#: The stop control of this process's run; `task` and `demo` hand it to the agent.
CONTROL = StopControl()

_received: list[int] = []


def _on_signal(signum: int, frame: object) -> None:
    if signum == signal.SIGINT:
        CONTROL.interrupt(KeyboardInterrupt(), graceful=True)
        return
    if _received:
        return  # already stopping: let the summary and the audit record be written
    _received.append(signum)
    CONTROL.interrupt(Terminated(signum), graceful=False)


@contextmanager
def stop_on_termination() -> Iterator[None]:
    """Install the handlers while the block runs (main thread only; an ignored SIGINT stays ignored)."""
    previous: dict[int, object] = {}
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is None:
            continue  # Windows has no SIGHUP
        if signum == signal.SIGINT and signal.getsignal(signum) is signal.SIG_IGN:
            continue  # started in the background with Ctrl-C ignored: keep it so
        # Outside the main thread (embedded use) signal.signal raises ValueError: leave signals alone.
        try:
            previous[signum] = signal.signal(signum, _on_signal)
        except ValueError:
            continue
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]


def termination_exit_code() -> int | None:
    """128 + the signal that stopped the run, or None when no signal did."""
    return 128 + _received[0] if _received else None
