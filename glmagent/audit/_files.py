"""Durable appends: every write reaches the disk (flush + fsync) before the next one starts.

A crash or `kill -9` can then lose at most the write in progress, and a new file's directory entry is synced
too, so the file itself survives a power cut.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

#: Keeps `.hazina/agent-memory/` (memory files, audit logs, locks) out of the user's `git status`.
GITIGNORE_TEXT = "# written by glmagent: memory files and audit logs stay out of version control\n*\n"


def ensure_private_dir(directory: Path) -> None:
    """Create `directory` (and parents) with a `.gitignore` that ignores everything in it."""
    if not directory.is_dir():
        directory.mkdir(parents=True, exist_ok=True)
        fsync_dir(directory.parent)
    ignore = directory / ".gitignore"
    if not ignore.exists():
        with contextlib.suppress(FileExistsError):
            append_durably(ignore, GITIGNORE_TEXT.encode(), exclusive=True)


def open_append(path: Path, *, exclusive: bool = False) -> int:
    """An append-only descriptor for `path`; a new file's directory entry is synced."""
    existed = path.exists()
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
    if exclusive:
        flags |= os.O_EXCL
    fd = os.open(path, flags, 0o644)
    if not existed:
        fsync_dir(path.parent)
    return fd


def write_durably(fd: int, data: bytes) -> None:
    """Write all of `data` and wait until it is on disk."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    os.fsync(fd)


def append_durably(path: Path, data: bytes, *, exclusive: bool = False) -> None:
    """Append `data` to `path` (created if needed) and wait until it is on disk."""
    fd = open_append(path, exclusive=exclusive)
    try:
        write_durably(fd, data)
    finally:
        os.close(fd)


def fsync_dir(directory: Path) -> None:
    """Make a directory's new entries durable (a no-op where the OS cannot open directories)."""
    if sys.platform == "win32":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def last_byte(path: Path) -> bytes:
    """The file's last byte (empty for an empty or missing file)."""
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            if handle.tell() == 0:
                return b""
            handle.seek(-1, os.SEEK_END)
            return handle.read(1)
    except FileNotFoundError:
        return b""


_HELD = ("SIGINT", "SIGTERM", "SIGHUP")
_holding = threading.local()


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP while a record and what goes with it are written, then deliver them.

    A `KeyboardInterrupt` raised between writing a record and noting its hash would make the next record
    link to the wrong predecessor, and one between a record and its memory-file block would make the two
    files disagree: both would read as tampering. Outside the main thread signals cannot be handled (or
    raised) anyway, so there this does nothing.
    """
    if threading.current_thread() is not threading.main_thread() or getattr(_holding, "active", False):
        yield
        return
    caught: list[int] = []
    previous: dict[int, object] = {}
    for name in _HELD:
        signum = getattr(signal, name, None)
        handler = signal.getsignal(signum) if signum is not None else None
        if signum is None or handler is None:
            continue  # not on this OS, or installed outside Python: leave it alone
        with contextlib.suppress(ValueError, OSError):
            previous[signum] = signal.signal(signum, lambda number, frame: caught.append(number))
    _holding.active = True
    try:
        yield
    finally:
        _holding.active = False
        for signum, handler in previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]
        if caught:
            _deliver(caught[0], previous.get(caught[0]))


def _deliver(signum: int, handler: object) -> None:
    if callable(handler):
        handler(signum, None)  # raises KeyboardInterrupt (or the CLI's Terminated), as it would have
    elif handler == signal.SIG_DFL:
        os.kill(os.getpid(), signum)
