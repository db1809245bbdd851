"""The working directory the agent may touch, and the only way file tools reach the disk.

Every path a planner names goes through `Workspace.resolve`: absolute paths outside the root, `..` escapes
and symlinks pointing out are rejected, and writes into any `.git/` or `.hazina/` (at any depth), or into an
editor's or coding agent's own settings (`glmagent.agent_settings`), are refused. Writes are atomic
(temporary file in the same directory, then rename) so an interrupted write never leaves a half-written file.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from pathlib import Path, PurePosixPath

from glmagent.agent_settings import obeyed_setting
from glmagent.errors import GlmAgentError

#: Folders the agent never writes into, at any depth: git's own data and glmagent's memory and audit trail.
PROTECTED_DIRS = (".git", ".hazina")

_WINDOWS_ABSOLUTE = re.compile(r"^(?:[A-Za-z]:|[\\/]{2})")


class PathRejected(GlmAgentError):
    """A path names something outside the workspace, or a protected location."""


class Workspace:
    """A confined view of one directory tree."""

    def __init__(self, root: Path | str) -> None:
        resolved = Path(root).expanduser().resolve()
        if not resolved.is_dir():
            raise NotADirectoryError(f"working directory does not exist: {resolved}")
        self.root = resolved

    def resolve(self, path: str, *, for_write: bool = False) -> Path:
        """Map a planner-supplied path to an absolute path inside the workspace, or raise `PathRejected`."""
        if not path or not path.strip():
            raise PathRejected("the path is empty")
        if "\x00" in path:
            raise PathRejected("the path contains a NUL byte")
        text = path.strip().replace("\\", "/")
        if os.name != "nt" and _WINDOWS_ABSOLUTE.match(path.strip()):
            raise PathRejected(f"{path!r} is an absolute Windows path; use a path relative to the workspace")
        candidate = Path(text)
        if not candidate.is_absolute():
            candidate = self.root / candidate
        # resolve() follows every symlink on the way, so a link pointing out of the tree is caught here.
        real = candidate.resolve()
        if real != self.root and not real.is_relative_to(self.root):
            raise PathRejected(
                f"{path!r} is outside the working directory; only paths inside {self.root.name}/ may be used"
            )
        if real == self.root:
            raise PathRejected(f"{path!r} is the working directory itself, not a file")
        if for_write:
            # Nested repositories (vendored code, submodules) have hooks and config of their own.
            parts = real.relative_to(self.root).parts
            for part in parts:
                if part.casefold() in PROTECTED_DIRS:
                    raise PathRejected(f"{path!r} is inside a {part}/ folder, which the agent never writes")
            setting = obeyed_setting([part.casefold() for part in parts])
            if setting is not None:
                raise PathRejected(
                    f"{path!r} is {setting}: an editor's or coding agent's own settings, which run code "
                    "without asking; the agent leaves them to the user"
                )
        return real

    def require_regular(self, target: Path, shown: str) -> None:
        """Refuse FIFOs, sockets and devices without opening them (opening a FIFO blocks forever)."""
        try:
            mode = target.stat().st_mode
        except FileNotFoundError:
            return
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            kind = (
                "a named pipe (FIFO)"
                if stat.S_ISFIFO(mode)
                else "a socket"
                if stat.S_ISSOCK(mode)
                else "a device"
                if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "not a regular file"
            )
            raise PathRejected(f"{shown!r} is {kind}; the file tools only open regular files")

    def relative(self, path: Path) -> str:
        """The workspace-relative POSIX form of an absolute path inside the workspace."""
        return PurePosixPath(path.relative_to(self.root)).as_posix()

    def write_atomic(self, target: Path, data: bytes) -> None:
        """Replace `target` with `data` in one rename, keeping the file's permission bits."""
        target.parent.mkdir(parents=True, exist_ok=True)
        mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
        fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".glmagent.tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            if mode is not None:
                os.chmod(tmp_name, mode)
            os.replace(tmp_name, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
            raise

    def delete(self, target: Path) -> None:
        """Delete one regular file."""
        target.unlink()
