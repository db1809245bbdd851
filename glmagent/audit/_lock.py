"""One run per task id at a time: an exclusive lock on `{taskId}.lock` beside the task's files.

The operating system releases the lock when its holder exits however it exits (`kill -9` included), so a
crashed run never blocks the next one. A second run waits a bounded time, then fails naming the holder.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from glmagent.audit._files import open_no_follow
from glmagent.errors import GlmAgentError, TaskBusyError

#: Seconds a second run of the same task id waits for the first before giving up.
DEFAULT_LOCK_WAIT = 60.0
_POLL = 0.1
# Byte 0 is the locked region on Windows (which refuses reads of locked bytes); the holder's details follow.
_INFO_OFFSET = 1


class RunLock:
    """An exclusive, process-lifetime lock on one file."""

    def __init__(self, path: Path, task_id: str, *, base: Path | None = None) -> None:
        self.path = path
        self.task_id = task_id
        self.base = base
        """The trusted folder the lock's path is walked from without following links (default: its own)."""
        self._fd: int | None = None

    def acquire(
        self,
        holder: dict[str, Any],
        *,
        wait: float = DEFAULT_LOCK_WAIT,
        on_wait: Callable[[str], None] | None = None,
    ) -> None:
        """Take the lock, waiting up to `wait` seconds; raise `TaskBusyError` naming the holder otherwise."""
        fd = open_no_follow(self.path, os.O_RDWR | os.O_CREAT, base=self.base, make_dirs=True)
        try:
            self._wait_for(fd, wait, on_wait)
            os.ftruncate(fd, _INFO_OFFSET)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, b" " + json.dumps(holder).encode() + b"\n")
        except BaseException:
            os.close(fd)  # Ctrl-C while waiting, or gave up: nothing held, nothing leaked
            raise
        self._fd = fd

    def _wait_for(self, fd: int, wait: float, on_wait: Callable[[str], None] | None) -> None:
        deadline = time.monotonic() + max(0.0, wait)
        told = False
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                raise TaskBusyError(
                    f"task {self.task_id} is already running ({self.describe_holder()}); "
                    f"waited {wait:.0f} s. Wait for it to finish, stop it, or use another --task-id"
                )
            if not told and on_wait is not None:
                holder = self.describe_holder()
                on_wait(f"task {self.task_id} is running ({holder}); waiting up to {wait:.0f} s")
                told = True
            time.sleep(_POLL)

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.ftruncate(fd, _INFO_OFFSET)
            _unlock(fd)
        finally:
            os.close(fd)

    def describe_holder(self) -> str:
        """`run R, pid N, started T` from the lock file, as far as it can be read."""
        try:
            with os.fdopen(open_no_follow(self.path, os.O_RDONLY, base=self.base), "rb") as handle:
                handle.seek(_INFO_OFFSET)
                info = json.loads(handle.read().decode("utf-8") or "{}")
        except (OSError, ValueError, GlmAgentError):
            info = {}
        parts = [f"{key} {info[key]}" for key in ("run", "pid", "started") if info.get(key)]
        return ", ".join(parts) or "another process"


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        # flock locks belong to the open file description: two opens in one process exclude each other too.
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
