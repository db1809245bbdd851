"""Searching or listing the whole machine: a walk that starts at the root of the file system or of a drive
(`find /`, `ls -R /`, `Get-ChildItem C:\\ -Recurse`, `where /r C:\\`, `locate`) and the mail spools. The same
walk inside the project, a library's own folder, or one level of the root stays allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "find / -name tftp*"),
    ("posix", "find / -name 'nmap' 2>/dev/null"),
    ("posix", "find / -maxdepth 2 -name .dockerenv"),
    ("posix", "find / -type d -name 'wp-content'"),
    ("posix", "gfind / -newer /etc/hosts"),
    ("posix", "sudo find / -xdev -size +100M"),
    ("posix", "fd -H kubeconfig.bak /"),
    ("posix", "ls -alR / 2>/dev/null | grep -i backup"),
    ("posix", "tree -a /"),
    ("posix", "du -a / | sort -n | tail"),
    ("posix", "locate socat"),
    ("posix", "mlocate -i nc.openbsd"),
    ("posix", "ls -la /var/mail"),
    ("posix", "ls /private/var/mail/"),
    ("powershell", "Get-ChildItem -Path C:\\ -Recurse -Filter psexec.exe -ErrorAction SilentlyContinue"),
    ("powershell", "gci c:\\ -Recurse -Include *.ps1"),
    ("powershell", "Get-ChildItem $env:SystemDrive\\ -Recurse"),
    ("powershell", "dir C:\\ /s /b | findstr /i putty"),
    ("powershell", "where.exe /r C:\\ plink.exe"),
    ("powershell", "cmd.exe /c dir c:\\ /s"),
]

ALLOWED = [
    ("posix", "find . -name '*.pyc'"),
    ("posix", "find src tests -type f -name '*.py'"),
    ("posix", "find /usr/lib -name 'libssl.so*'"),
    ("posix", "find /opt/homebrew/opt -maxdepth 1 -name 'openssl*'"),
    ("posix", "ls -la /"),
    ("posix", "ls -R docs"),
    ("posix", "tree -L 2 src"),
    ("posix", "du -sh dist"),
    ("posix", "df -h /"),
    ("posix", "cargo locate-project --workspace"),
    ("posix", "grep -rn locate src"),
    ("posix", "ls /var/spool"),
    ("posix", "echo 'find / -name x'"),
    ("powershell", "Get-ChildItem C:\\"),
    ("powershell", "Get-ChildItem -Recurse -Filter *.csproj"),
    ("powershell", "dir /s /b *.sln"),
    ("powershell", "where.exe dotnet"),
    ("powershell", "where /r . *.props"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_a_walk_of_the_whole_machine_is_blocked(shell: str, command: str) -> None:
    guard_blocks(shell, command, "env")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_a_walk_of_the_project_or_a_known_folder_stays_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


@pytest.mark.parametrize(
    ("shell", "command", "rule"),
    [
        ("posix", "find / -name x 2>/dev/null | head", "env.machine-search"),
        ("posix", "find / -print0 | xargs -0 rm -rf --", "destructive.recursive-delete"),
        ("posix", "find / -type f | xargs grep -il password", "env.credential-dump"),
        ("powershell", "Get-ChildItem C:\\ -Recurse | Remove-Item -Force", "destructive"),
    ],
)
def test_a_later_deny_in_the_line_names_the_reason(shell: str, command: str, rule: str) -> None:
    guard_blocks(shell, command, rule)
