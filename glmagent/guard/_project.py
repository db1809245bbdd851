"""Whether a file a command would overwrite holds anything nobody can get back: read from the disk and git.

`> file`, `tee file` and `Out-File file` replace what the file held. That destroys work only when the file
holds something: a file that does not exist yet, an empty one, or generated output git is told to ignore (and
does not track) can be written again without loss. Anything else, in particular a tracked file with content
or an untracked one that may be the user's unsaved work, is kept. Every doubt keeps the file: a link on the
way, a folder that leads outside the working directory, a special file, git missing or slow.
"""

from __future__ import annotations

import os
import stat

GIT_LOOKUPS = 4
"""Files of one command line git is asked about at most; later ones are kept (a check stays fast)."""
GIT_TIMEOUT = 2.0
"""Seconds one `git check-ignore` may take before the file is kept."""


class ReplaceableFiles:
    """The files under one working directory that a command line may overwrite without loss."""

    __slots__ = ("_asked", "_folders", "_real_root", "root")

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)
        self._real_root = os.path.realpath(self.root)
        self._asked = 0
        self._folders: dict[str, bool] = {}
        """Folder -> whether it really lies in the working directory (links resolved), asked once each."""

    def state(self, relative: str) -> str | None:
        """What overwriting the file at `relative` (inside the working directory, `/`-separated) loses:
        nothing, because it is "new", "empty" or "ignored" output; None when it must be kept."""
        path = os.path.join(self.root, *[p for p in relative.split("/") if p])
        folder = os.path.dirname(path)
        inside = self._folders.get(folder)
        if inside is None:
            real, root = os.path.realpath(folder), self._real_root
            inside = real == root or real.startswith(root.rstrip(os.sep) + os.sep)
            self._folders[folder] = inside
        if not inside:
            return None  # a link on the way leads out of the working directory
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            return "new"
        except OSError:
            return None
        if not stat.S_ISREG(info.st_mode):
            return None  # a link, a folder, a device: keep it
        if info.st_size == 0:
            return "empty"
        return "ignored" if self._ignored(relative) else None

    def _ignored(self, relative: str) -> bool:
        """Does git ignore the file and not track it (generated output: `coverage.lcov`, `build/`)?"""
        if self._asked >= GIT_LOOKUPS:
            return False
        self._asked += 1
        import subprocess  # only here: a check that asks git nothing does not pay for the import

        env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}
        try:
            done = subprocess.run(
                # No fsmonitor hook: reading the index must not run a program the repository names.
                ["git", "-c", "core.fsmonitor=false", "check-ignore", "-q", "--", relative],
                cwd=self.root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=GIT_TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            return False
        return done.returncode == 0
