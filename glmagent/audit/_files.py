"""Durable appends: every write reaches the disk (flush + fsync) before the next one starts.

A crash or `kill -9` can then lose at most the write in progress, and a new file's directory entry is synced
too, so the file itself survives a power cut.
"""

from __future__ import annotations

import contextlib
import os
import sys
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
