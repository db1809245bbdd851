"""How a request to stop reaches a running task.

A first Ctrl-C while an action runs lets that action finish, then the loop stops and writes its summary; a
second stops at once (the running command's process tree is killed). At any other moment — waiting for the
planner, running the tests — nothing of the project is half-done, so a first Ctrl-C stops at once.
Whatever stops the task, the loop then writes its summary and the `task_end` record, ignoring further
interrupts; a record being written when the signal comes is finished first (`glmagent.audit.uninterrupted`).

`StopControl` holds no signal handler itself: the CLI installs one that calls `interrupt`. Library users
without one get Python's usual KeyboardInterrupt, which the loop also turns into a written summary.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

GRACEFUL_STOP = "stopped after the current action (Ctrl-C)"


class StopControl:
    """Where the loop is (running an action, finishing) and whether a stop was asked."""

    def __init__(self) -> None:
        self.requested: str | None = None
        """Set by a first Ctrl-C during an action: the loop stops once the action is done."""
        self.on_request: Callable[[str], None] | None = None
        """Told when a graceful stop was requested (the UI says "stopping after the current action")."""
        self._in_action = False
        self._finishing = False

    def interrupt(self, error: KeyboardInterrupt, *, graceful: bool) -> None:
        """Stop the task: called in the main thread by a signal handler, which returns if this returns.

        `graceful` (a first Ctrl-C) during an action only records the request; otherwise `error` is raised.
        """
        if self._finishing:
            return  # already stopping: the summary and the last record are being written
        if graceful and self._in_action and self.requested is None:
            self.requested = GRACEFUL_STOP
            if self.on_request is not None:
                self.on_request("stopping after the current action")
            return
        raise error

    @contextmanager
    def action(self) -> Iterator[None]:
        """While the block runs, a first Ctrl-C waits for it to finish."""
        self._in_action = True
        try:
            yield
        finally:
            self._in_action = False

    def finishing(self) -> None:
        """The loop is writing its summary: further interrupts change nothing."""
        self._finishing = True

    def reset(self) -> None:
        """Ready for another task (library users may run several with one control)."""
        self.requested, self._finishing = None, False
