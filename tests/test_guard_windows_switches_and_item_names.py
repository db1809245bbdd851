"""Where Windows writers write: one-letter switches written together (`xcopy a b /E/H/C/I/Y`) are switches,
not a folder at the drive's root; New-Item's `-Name` is joined to its `-Path` (or the current folder), so a
leading separator stays inside it (`New-Item -Path . -Name \\bin\\stage`), while a name holding a drive or a
run-time word, and a `-Path` outside the project, still block."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

ALLOWED = [
    ("powershell", 'xcopy ".github\\help\\*.url" "dist\\tmp" /E/H/C/I/Y'),
    ("powershell", "xcopy assets build\\assets /s/e/i/y"),
    ("powershell", 'cmd /c "xcopy assets build\\assets /E/I"'),
    ("powershell", 'New-Item -Path . -Name \\bin\\stage -ItemType "directory" -Force'),
    ("powershell", "New-Item -Path src -Name new.cs -ItemType File"),
    ("powershell", "New-Item -ItemType Directory -Name build"),
]

BLOCKED = [
    ("powershell", "xcopy src C:\\Windows\\x /E/H", "containment"),
    ("powershell", "xcopy src \\\\server\\share /E/I", "network"),
    ("powershell", "New-Item -Path C:\\Windows -Name x.txt", "containment"),
    ("powershell", "New-Item -Path .. -Name x.txt", "containment"),
    ("powershell", "New-Item -Name ..\\x.txt", "containment"),
    ("powershell", "New-Item -Path .\\out -Name C:\\Windows\\x", "containment"),
    ("powershell", "New-Item -Path . -Name $n", "containment.write-unknown-target"),
]


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_switch_clusters_and_joined_names_stay_in_the_project(shell: str, command: str) -> None:
    guard_allows(shell, command)


@pytest.mark.parametrize(("shell", "command", "rule"), BLOCKED)
def test_writes_that_leave_the_project_still_block(shell: str, command: str, rule: str) -> None:
    guard_blocks(shell, command, rule)
