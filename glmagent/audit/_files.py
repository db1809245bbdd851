"""Durable appends: every write reaches the disk (flush + fsync) before the next one starts.

A crash or `kill -9` can then lose at most the write in progress, and a new file's directory entry is synced
too, so the file itself survives a power cut.

glmagent's own files never follow links. A cloned repository can commit `.hazina -> /elsewhere`, or
`agent-memory/TASK.txt -> ~/.bashrc`; writing through either would put glmagent's records (and text the model
chose) into a file outside the project. Every open walks from a trusted folder (the project, the user's state
folder) one component at a time with `O_NOFOLLOW` (`open_no_follow`), and a link, a file where a folder
belongs, or a record file with other names (hard links) is refused with `RecordPathError` naming it, before
anything is written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from glmagent.errors import RecordPathError

#: Keeps `.hazina/agent-memory/` (memory files, audit logs, locks) out of the user's `git status`.
GITIGNORE_TEXT = "# written by glmagent: memory files and audit logs stay out of version control\n*\n"


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_WALKS = _NOFOLLOW != 0 and _DIRECTORY != 0 and os.open in os.supports_dir_fd


def _refuse(path: Path, what: str) -> RecordPathError:
    return RecordPathError(
        f"refusing to write glmagent's records: {path} {what}; glmagent never writes its memory, audit log "
        "or lock through a link. Remove it (nothing was written there), then run again"
    )


def _describe_link(path: Path) -> str:
    try:
        return f"is a symbolic link (to {os.readlink(path)})"
    except OSError:
        return "is a symbolic link"


def _open_folder(parent: int, name: str, path: Path, *, create: bool) -> int:
    """`name` in the folder `parent` as a folder descriptor, created when missing and asked to."""
    for _ in range(3):
        try:
            return os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                raise
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, 0o755, dir_fd=parent)
                os.fsync(parent)
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                if os.path.islink(path):
                    raise _refuse(path, _describe_link(path)) from None
                raise _refuse(path, "is not a folder") from None
            raise
    raise _refuse(path, "keeps changing while glmagent opens it")


def open_no_follow(
    path: Path, flags: int, mode: int = 0o644, *, base: Path | None = None, make_dirs: bool = False
) -> int:
    """Open `path` without following a link anywhere below `base` (default: its own folder).

    `base` itself is opened as it is (it is the user's choice: the project or the state folder); every
    folder below it and the file itself must be real. Raises `RecordPathError` naming a link, a non-folder
    or a non-regular file (a FIFO or device); `make_dirs` creates missing folders on the way.
    """
    base = base or path.parent
    try:
        relative = path.relative_to(base)
    except ValueError:
        raise ValueError(f"{path} is not inside {base}") from None
    if not relative.parts:
        raise ValueError(f"{path} names its base folder, not a file")
    if not _WALKS:
        return _open_checked_by_lstat(path, base, relative, flags, mode, make_dirs)
    current = os.open(base, os.O_RDONLY | _DIRECTORY)
    try:
        walked = base
        for name in relative.parts[:-1]:
            walked = walked / name
            folder = _open_folder(current, name, walked, create=make_dirs)
            os.close(current)
            current = folder
        name = relative.parts[-1]
        try:
            os.stat(name, dir_fd=current, follow_symlinks=False)
            existed = True
        except FileNotFoundError:
            existed = False
        try:
            # O_NONBLOCK: a FIFO planted as a record file fails at once instead of blocking the open.
            fd = os.open(name, flags | _NOFOLLOW | os.O_NONBLOCK, mode, dir_fd=current)
        except OSError as error:
            if error.errno == errno.ELOOP or (error.errno == errno.EEXIST and os.path.islink(path)):
                raise _refuse(path, _describe_link(path)) from None
            if error.errno == errno.ENXIO:
                raise _refuse(path, "is not a regular file") from None
            raise
        if flags & os.O_CREAT and not existed:
            os.fsync(current)
    finally:
        os.close(current)
    return _regular_or_closed(fd, path)


def _regular_or_closed(fd: int, path: Path) -> int:
    """`fd` once it is known to be a regular file with one name; closed (and refused) otherwise."""
    try:
        _check_regular(fd, path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _check_regular(fd: int, path: Path) -> None:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(path, "is not a regular file")
    if info.st_nlink > 1:
        raise _refuse(
            path, f"has {info.st_nlink} names (hard links), so writing it would change another file"
        )
    if sys.platform != "win32":
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)


def _open_checked_by_lstat(
    path: Path, base: Path, relative: Path, flags: int, mode: int, make_dirs: bool
) -> int:
    """Where the OS has no `O_NOFOLLOW`/`dir_fd` (Windows): every component checked with lstat first."""
    walked = base
    for name in relative.parts:
        walked = walked / name
        if os.path.islink(walked) or getattr(walked, "is_junction", lambda: False)():
            raise _refuse(walked, _describe_link(walked))
        if walked != path:
            if not walked.exists() and make_dirs:
                walked.mkdir(exist_ok=True)
            elif walked.exists() and not walked.is_dir():
                raise _refuse(walked, "is not a folder")
    return _regular_or_closed(os.open(path, flags, mode), path)


def check_record_path(path: Path, *, base: Path) -> None:
    """Raise `RecordPathError` if any part of `path` below `base` that exists is a link or of the wrong
    kind (nothing is created or written: a check before an action runs)."""
    walked = base
    relative = path.relative_to(base)
    for index, name in enumerate(relative.parts):
        walked = walked / name
        if os.path.islink(walked):
            raise _refuse(walked, _describe_link(walked))
        if not os.path.lexists(walked):
            return
        last = index == len(relative.parts) - 1
        if not last and not walked.is_dir():
            raise _refuse(walked, "is not a folder")
        if last and walked.is_file() and walked.stat().st_nlink > 1:
            raise _refuse(walked, "has other names (hard links), so writing it would change another file")


def ensure_private_dir(directory: Path, *, base: Path | None = None) -> None:
    """Create `directory` (and the folders between `base` and it) with a `.gitignore` that ignores
    everything in it; no part of the way may be a link."""
    ignore = directory / ".gitignore"
    try:
        fd = open_no_follow(
            ignore,
            os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
            base=base or directory,
            make_dirs=True,
        )
    except FileExistsError:
        check_record_path(ignore, base=base or directory)
        return
    try:
        write_durably(fd, GITIGNORE_TEXT.encode())
    finally:
        os.close(fd)


def open_append(path: Path, *, exclusive: bool = False, base: Path | None = None) -> int:
    """An append-only descriptor for `path`, opened without following links below `base`; a new file's
    directory entry is synced."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0)
    if exclusive:
        flags |= os.O_EXCL
    return open_no_follow(path, flags, base=base)


def write_durably(fd: int, data: bytes) -> None:
    """Write all of `data` and wait until it is on disk."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    os.fsync(fd)


def append_durably(path: Path, data: bytes, *, exclusive: bool = False, base: Path | None = None) -> None:
    """Append `data` to `path` (created if needed, never through a link) and wait until it is on disk."""
    fd = open_append(path, exclusive=exclusive, base=base)
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


def last_byte(path: Path, *, base: Path | None = None) -> bytes:
    """The file's last byte (empty for an empty or missing file); read without following links."""
    try:
        fd = open_no_follow(path, os.O_RDONLY | getattr(os, "O_BINARY", 0), base=base)
    except FileNotFoundError:
        return b""
    with os.fdopen(fd, "rb") as handle:
        handle.seek(0, os.SEEK_END)
        if handle.tell() == 0:
            return b""
        handle.seek(-1, os.SEEK_END)
        return handle.read(1)


def read_no_follow(path: Path, *, base: Path | None = None) -> bytes | None:
    """The file's bytes, read without following links below `base`; None when it does not exist."""
    try:
        fd = open_no_follow(path, os.O_RDONLY | getattr(os, "O_BINARY", 0), base=base)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


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
