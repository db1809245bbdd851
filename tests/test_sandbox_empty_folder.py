"""The empty folder the sandbox binds over hidden folders is this process's, and none outlives its process.

A process killed outright (SIGKILL) runs no exit handler, so its folder stays in the temp directory; the next
glmagent process that needs one removes it. These tests use a private temp directory and real processes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from glmagent.tools import sandbox

if not hasattr(os, "getuid"):
    pytest.skip("the bubblewrap sandbox runs on Linux only", allow_module_level=True)


@pytest.fixture
def temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    sandbox._empty_folder.cache_clear()
    yield tmp_path
    made = sandbox._empty_folder()
    sandbox._empty_folder.cache_clear()
    sandbox._remove_folder(made)


def _gone_pid() -> int:
    """The ID of a process that has exited."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_folder_of_a_process_that_is_gone_is_removed(temp: Path) -> None:
    orphan = temp / f"glmagent-empty-{_gone_pid()}-abc123"
    orphan.mkdir(mode=0o555)
    made = Path(sandbox._empty_folder())
    assert not orphan.exists()
    assert made.parent == temp and made.name.startswith(f"glmagent-empty-{os.getpid()}-")
    assert not any(made.iterdir())


def test_folders_of_running_processes_with_content_or_other_names_stay(temp: Path) -> None:
    running = temp / f"glmagent-empty-{os.getppid()}-abc123"  # the process that started this one
    running.mkdir()
    holding = temp / f"glmagent-empty-{_gone_pid()}-def456"
    holding.mkdir()
    (holding / "keep.txt").write_text("not ours to delete\n")
    unnamed = temp / "glmagent-empty-x1y2z3"  # no process ID in the name
    unnamed.mkdir()
    huge = temp / f"glmagent-empty-{10**30}-abc"  # no process ID can be that large
    huge.mkdir()
    target = temp / "elsewhere"
    target.mkdir()
    link = temp / f"glmagent-empty-{_gone_pid()}-link"
    link.symlink_to(target)
    sandbox._empty_folder()
    assert running.is_dir() and holding.is_dir() and unnamed.is_dir() and huge.is_dir()
    assert (holding / "keep.txt").exists()
    assert link.is_symlink() and target.is_dir()
