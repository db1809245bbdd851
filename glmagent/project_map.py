"""The project map shown in the first prompt: which files exist, so a model does not guess paths.

Tracked files from `git ls-files` inside a repository (untracked files the user has not ignored included),
or a bounded walk elsewhere; capped, with a count of what was left out.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

#: Files listed at most; the rest are counted.
MAX_FILES = 400
_SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hazina",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".tox",
        ".mypy_cache",
        ".pytest_cache",
        "dist",
        "build",
        "target",
        ".idea",
        ".vscode",
    }
)


def project_map(root: Path, limit: int = MAX_FILES) -> str:
    """One path per line (sorted), then `(N more files not shown)` when the list was cut."""
    files = _git_files(root)
    if files is None:
        files = _walked_files(root, limit * 10)
    files = sorted(f for f in files if not f.startswith((".hazina/", ".git/")))
    shown = files[:limit]
    lines = list(shown)
    if len(files) > limit:
        lines.append(f"({len(files) - limit:,} more files not shown)")
    return "\n".join(lines) if lines else "(no files yet)"


def _git_files(root: Path) -> list[str] | None:
    from glmagent.tools.shell import child_environment

    try:
        done = subprocess.run(
            [
                "git",
                "-c",
                "core.fsmonitor=false",
                "ls-files",
                "--cached",
                "--others",
                "--exclude-standard",
                "-z",
            ],
            cwd=root,
            env=child_environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return [p for p in done.stdout.decode("utf-8", "replace").split("\0") if p]


def _walked_files(root: Path, cap: int) -> list[str]:
    found: list[str] = []
    for current, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIPPED_DIRS and not d.startswith("."))
        base = Path(current).relative_to(root)
        found.extend((base / name).as_posix() for name in filenames)
        if len(found) >= cap:
            break
    return found
