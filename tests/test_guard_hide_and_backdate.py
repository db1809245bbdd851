"""Hiding files and forging their timestamps outside the project: `touch -t/-d/-r`, `SetFile`, `chflags`,
`attrib +h +s`, `xattr -w com.apple.…`, and from PowerShell setting a file's times to anything but now or its
hidden/system attributes. Inside the project, touching files and stamping them is build work and stays
allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks, guard_decision

BLOCKED = [
    ("posix", "touch -a -t 197001010000.00 /tmp/report.txt"),
    ("posix", "touch -m --date='2001-01-01' /var/log/auth.log"),
    ("posix", "touch -r /bin/ls /usr/local/bin/helper"),
    ("posix", "touch -d @0 ~/.bashrc"),
    ("posix", "touch -amt 200001010000 ../other/file"),
    ("posix", "sudo touch -r /etc/hostname /etc/cron.d/job"),
    ("posix", "SetFile -m 01/01/1970 /tmp/x"),
    ("posix", "SetFile -d '04/25/2023 11:11:00' ~/Library/x.plist"),
    ("posix", "setfile -a V /tmp/evil"),
    ("posix", "chflags hidden ~/evil"),
    ("posix", "chflags schg /tmp/x"),
    ("posix", "xattr -w com.apple.FinderInfo 0 /tmp/x"),
    ("powershell", "attrib +h C:\\Users\\Public\\x.exe"),
    ("powershell", "attrib.exe +s +h %TEMP%\\x.txt"),
    ("powershell", "cmd /c attrib +h c:\\autoexec.bat"),
    ("powershell", "Get-ChildItem C:\\x.txt | % { $_.CreationTime = '01/01/1970 00:00:00' }"),
    ("powershell", "(Get-Item C:\\x.txt).LastAccessTime = Get-Date '1/1/1970'"),
    ("powershell", "$f = Get-Item x; $f.LastWriteTimeUtc = [datetime]'2000-01-01'"),
    ("powershell", "(Get-Item C:\\x.txt).Attributes = 'Hidden, System'"),
    ("powershell", "$f.Attributes += 'Hidden'"),
    ("powershell", "[IO.File]::SetCreationTime('C:\\x.txt', [datetime]'1970-01-01')"),
]

ALLOWED = [
    ("posix", "touch build/stamp"),
    ("posix", "touch /tmp/ready"),
    ("posix", "touch -d @0 build/stamp"),
    ("posix", "touch -r Makefile out.o"),
    ("posix", "find . -exec touch -d '2000-01-01' {} +"),
    ("posix", "touch -a -m -t 202210312359 example"),
    ("posix", "SetFile -a V build/App.app/Icon"),
    ("posix", "chflags -R nouchg build"),
    ("posix", "xattr -l ~/x"),
    ("posix", "xattr -w user.note x build/x"),
    ("powershell", "attrib +r .\\dist\\x.txt"),
    ("powershell", "attrib -h .\\x.txt"),
    ("powershell", "attrib"),
    ("powershell", "(Get-Item file).LastWriteTime = Get-Date"),
    ("powershell", "(Get-Item x.txt).LastWriteTime = (Get-Date)"),
    ("powershell", "$f.LastWriteTimeUtc = [DateTime]::UtcNow"),
    ("powershell", "(Get-Item x.txt).LastWriteTime"),
    ("powershell", "$f.Attributes = 'Normal'"),
    ("powershell", "$p.Recurse = $true"),
    ("powershell", "[IO.File]::GetLastWriteTime('x.txt')"),
    ("posix", "echo 'touch -t 197001010000 /tmp/x'"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_hiding_or_backdating_outside_the_project_is_blocked(shell: str, command: str) -> None:
    guard_blocks(shell, command, "destructive.hide-or-backdate")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_touching_inside_the_project_stays_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


@pytest.mark.parametrize(
    "command",
    [
        "SetFile -a V $f",
        "for f in $HOME/*; do SetFile -a V $f; done",
        'chflags hidden "$TARGET"',
        "chflags -R schg $d",
    ],
)
def test_hiding_a_file_named_only_at_run_time_is_blocked(command: str) -> None:
    # The file may be anywhere: blocked as a possible case of the rule, never allowed.
    guard_blocks("posix", command, "dynamic.arguments")
    assert "destructive.hide-or-backdate" in guard_decision("posix", command).reason


def test_a_loop_over_a_glob_hides_what_the_glob_names() -> None:
    # `$f` walks `~/*`: the rule judges the glob, as if written in place.
    guard_blocks("posix", "for f in ~/*; do SetFile -a V $f; done", "destructive.hide-or-backdate")
