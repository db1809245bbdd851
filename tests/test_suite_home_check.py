"""The suite's own guarantee that nothing under the real home changes: the end-of-session check finds every
kind of change, by `find` and by the Python walk alike, and leaves out what it is told to."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import conftest
import pytest

FINDERS = ["find", "walk"]


def _changes(monkeypatch: pytest.MonkeyPatch, how: str, root: Path, since_ns: int) -> set[str]:
    if how == "walk":
        monkeypatch.setattr(conftest, "_changed_by_find", lambda *_: None)
    elif shutil.which("find") is None or os.name == "nt":
        pytest.skip("no POSIX find on this machine: the Python walk is what runs")
    return {line.split("~/", 1)[1] for line in conftest.home_changes(root, since_ns)}


def _home(tmp_path: Path) -> tuple[Path, int]:
    """A home with files and folders made before the session mark (change times a second in the past would
    need root to fake, so the mark is taken after they are made and a moment passes)."""
    root = tmp_path / "home"
    (root / ".config" / "tool").mkdir(parents=True)
    (root / ".config" / "tool" / "settings").write_text("a = 1\n")
    (root / ".ssh").mkdir()
    (root / ".ssh" / "id_ed25519").write_text("key\n")
    (root / "notes.txt").write_text("notes\n")
    (root / "old").mkdir()
    (root / "old" / "gone.txt").write_text("x\n")
    (root / ".browser").mkdir()
    time.sleep(0.05)
    mark = tmp_path / "mark"
    mark.touch()
    time.sleep(0.05)
    return root, mark.stat().st_mtime_ns


@pytest.mark.parametrize("how", FINDERS)
def test_an_untouched_home_has_no_changes_even_after_reading_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str
) -> None:
    root, since = _home(tmp_path)
    (root / ".ssh" / "id_ed25519").read_text()
    list(root.rglob("*"))
    assert _changes(monkeypatch, how, root, since) == set()


@pytest.mark.parametrize("how", FINDERS)
def test_writes_creations_removals_and_permission_changes_are_all_found(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str
) -> None:
    root, since = _home(tmp_path)
    with (root / ".config" / "tool" / "settings").open("a") as f:
        f.write("b = 2\n")  # same folder entries, only the content
    (root / ".cache").mkdir()  # created
    (root / "old" / "gone.txt").unlink()  # removed: its folder shows it
    (root / ".ssh" / "id_ed25519").chmod(0o644)  # permissions only
    found = _changes(monkeypatch, how, root, since)
    assert {".config/tool/settings", ".cache", "old", ".ssh/id_ed25519"} <= found
    assert "notes.txt" not in found


@pytest.mark.parametrize("how", FINDERS)
def test_ignored_paths_are_left_out_with_everything_beneath(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str
) -> None:
    root, since = _home(tmp_path)
    (root / ".browser" / "profile").write_text("busy\n")
    (root / "notes.txt").write_text("changed\n")
    monkeypatch.setenv(conftest.HOME_IGNORE, ".browser")
    assert _changes(monkeypatch, how, root, since) == {"notes.txt"}
