"""Path confinement and atomic writes: the file tools never leave the working directory."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from glmagent.workspace import PathRejected, Workspace


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "root"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text("x = 1\n")
    (tmp_path / "secret.txt").write_text("outside\n")
    return Workspace(root)


@pytest.mark.parametrize(
    "path", ["../secret.txt", "src/../../secret.txt", "/etc/passwd", "C:\\Windows\\win.ini"]
)
def test_escapes_are_rejected(ws: Workspace, path: str) -> None:
    with pytest.raises(PathRejected, match=r"outside|absolute Windows"):
        ws.resolve(path)


def test_absolute_path_inside_the_workspace_is_accepted(ws: Workspace) -> None:
    assert ws.resolve(str(ws.root / "src" / "a.py")) == ws.root / "src" / "a.py"


def test_symlink_pointing_out_is_rejected(ws: Workspace, tmp_path: Path) -> None:
    (ws.root / "link.txt").symlink_to(tmp_path / "secret.txt")
    (ws.root / "linkdir").symlink_to(tmp_path)
    with pytest.raises(PathRejected, match="outside"):
        ws.resolve("link.txt")
    with pytest.raises(PathRejected, match="outside"):
        ws.resolve("linkdir/secret.txt", for_write=True)


def test_symlink_inside_the_workspace_is_fine(ws: Workspace) -> None:
    (ws.root / "alias.py").symlink_to(ws.root / "src" / "a.py")
    assert ws.resolve("alias.py") == ws.root / "src" / "a.py"


@pytest.mark.parametrize("path", [".git/config", ".hazina/agent-memory/t.txt", "./.GIT/hooks/pre-commit"])
def test_writes_into_protected_folders_are_refused(ws: Workspace, path: str) -> None:
    with pytest.raises(PathRejected, match="never writes"):
        ws.resolve(path, for_write=True)
    ws.resolve(path)  # reading is allowed


@pytest.mark.parametrize(
    "path",
    [
        ".vscode/settings.json", ".vscode/tasks.json", "web/.VSCode/Settings.json",
        ".claude/settings.local.json", ".claude/hooks/pre-tool.sh", ".mcp.json", "tools/.cursor/mcp.json",
        ".gemini/settings.json", "app.code-workspace",
    ],
)  # fmt: skip
def test_writes_to_an_editors_or_agents_own_settings_are_refused(ws: Workspace, path: str) -> None:
    # They decide what that tool runs, later and without asking (VS Code's tasks, Claude Code's hooks).
    with pytest.raises(PathRejected, match="settings"):
        ws.resolve(path, for_write=True)
    ws.resolve(path)  # reading is allowed


@pytest.mark.parametrize(
    "path", [".vscode/notes.md", "docs/settings.json", ".claude/skills/a.md", "mcp.json", "src/hooks/a.py"]
)
def test_files_only_named_like_tool_settings_stay_writable(ws: Workspace, path: str) -> None:
    assert ws.resolve(path, for_write=True) == ws.root / path


@pytest.mark.parametrize("path", ["", "   ", "a\x00b", "."])
def test_empty_nul_and_root_paths_are_refused(ws: Workspace, path: str) -> None:
    with pytest.raises(PathRejected):
        ws.resolve(path, for_write=True)


def test_backslash_separators_are_understood(ws: Workspace) -> None:
    assert ws.resolve("src\\a.py") == ws.root / "src" / "a.py"


def test_atomic_write_replaces_content_and_keeps_mode(ws: Workspace) -> None:
    target = ws.root / "src" / "a.py"
    os.chmod(target, 0o750)
    ws.write_atomic(target, b"y = 2\n")
    assert target.read_bytes() == b"y = 2\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o750
    assert [p.name for p in target.parent.iterdir()] == ["a.py"], "no temporary file left behind"


def test_failed_atomic_write_leaves_the_original_untouched(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = ws.root / "src" / "a.py"

    def boom(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        ws.write_atomic(target, b"half")
    assert target.read_bytes() == b"x = 1\n"
    assert [p.name for p in target.parent.iterdir()] == ["a.py"]


def test_missing_root_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(NotADirectoryError):
        Workspace(tmp_path / "nope")
