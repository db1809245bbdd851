"""Searching file names for credentials: cmd's `dir /s` and `where /r` with a credential name hunt for secret
files wherever they start (the cheat sheets' `dir /s /b *pass* == *cred* == *vnc* == *.config*`); so do
`find`, `Get-ChildItem -Recurse` and `locate` from the root, a home or a drive with names such as `*pass*` or
`*cred*`. Listing the project's own sources recursively, or a name search inside the project, stays fine.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    # a recursive search of a home folder, every user's, /etc or the disk reads every key in it, whatever it
    # looks for
    ("posix", 'grep -R "current-context" /home/'),
    ("posix", "grep -rn TODO ~"),
    ("posix", "rg -uu -l BEGIN /Users/dev"),
    ("posix", "ag secret $HOME"),
    ("posix", "egrep -r 'x' /root"),
    ("posix", "grep -r --include=*.yml server /etc"),
    ("powershell", 'cmd /c "dir /S /B *pass*.txt == *pass*.ini == *cred* == *vnc* == *.config*"'),
    ("powershell", 'cmd /c "dir c:*vnc.ini /s /b"'),
    ("powershell", 'cmd /c "where /r C:\\ *pass*"'),
    ("powershell", 'cmd /c "dir /s /b C:\\Users\\*unattend*.xml"'),
    ("powershell", "dir /s *pass*"),  # any credential or key name, not only `*password*`
    ("powershell", "dir /s *vnc*"),
    ("powershell", "cmd /c dir /s /b *.ppk"),
    ("powershell", 'cmd /c "dir /s /b C:\\Users\\*.pfx"'),
    ("powershell", "Get-ChildItem -Recurse -Include *pass* C:\\"),
    ("powershell", "Get-ChildItem C:\\Users -Recurse -Filter *cred*"),
    ("posix", "find / -name '*pass*' 2>/dev/null"),
    ("posix", "find ~ -iname '*cred*'"),
    ("posix", 'find /var/lib/kubelet/pods -name "*secret*" -type f -exec cat {} +'),
    ("posix", "find / -name .env 2>/dev/null"),
    ("powershell", 'forfiles /p C:\\ /s /m web.config /c "cmd /c findstr /i connectionString @file"'),
    # a recursive listing filtered for credential file names
    ("powershell", "dir c:\\ /s /b /c | findstr /si *vnc.ini"),
    ("powershell", 'cmd /c "dir c:\\ /s /b | findstr /si *vnc.ini"'),  # a cmd pipe feeds as well
    ("powershell", 'cmd /c "dir c:\\ /s /b | findstr /si pass"'),
    ("powershell", 'dir /b /s | find /I "password"'),  # Windows' find is a text filter
    ("powershell", 'cmd /c "dir /s /b | find /i password"'),  # ... inside cmd too
    ("powershell", 'cmd /c "tasklist /v | find password"'),
    # PowerShell hands cmd a word's inner quotes as they are (`"dir … | findstr "pass""`)
    ("powershell", "cmd /c 'dir c:\\ /s /b | findstr \"pass\"'"),
    ("powershell", "cmd /c 'dir /s | find \"password\"'"),
    ("powershell", "Get-ChildItem C:\\ -Recurse -ErrorAction SilentlyContinue | Select-String unattend"),
    ("posix", "find / 2>/dev/null | grep -i '\\.kdbx'"),
    ("posix", "ls -R /mnt | grep -i ntds.dit"),
    # the users' folders listed whole
    ("powershell", 'cmd /c dir "C:\\Users" /s /a /b'),
    ("powershell", "cmd /c dir C:\\Users\\ /s"),
]

ALLOWED = [
    ("posix", "grep -rn TODO ~/src/app/docs"),  # a folder inside a home is only that folder
    ("posix", "rg current-context deploy/"),
    ("posix", "grep current-context ~/notes.txt"),  # one file, not a tree
    ("posix", "grep -r server /etc/nginx/sites-enabled"),
    ("posix", "rg --files"),
    ("powershell", 'cmd /c "dir /s /b *.cs"'),
    ("powershell", 'cmd /c "dir /s build"'),
    ("powershell", "dir /s *.py"),
    ("powershell", 'cmd /c "dir /s /b keys\\*.json"'),
    ("powershell", 'cmd /c "where /r . *.dll"'),
    ("powershell", 'cmd /c "dir *pass*"'),  # this folder only, no search
    ("powershell", "Get-ChildItem -Recurse -Filter *passport*.cs .\\src"),
    ("powershell", "gci -r -fi *cred*.xml"),  # inside the project
    ("posix", "find . -name '*pass*'"),
    ("posix", "find src -name '*credential*.py'"),
    ("posix", "find . -name '*secret*'"),
    ("powershell", 'forfiles /p . /m *.cs /c "cmd /c echo @file"'),
    ("posix", "find . -name '*.py' | grep -v test_"),
    ("powershell", "cmd /c dir src /s /b | findstr /i .csproj"),
    ("posix", "git ls-files | grep unattend"),
    ("powershell", "cmd /c dir C:\\Users\\Public\\Documents"),  # (`dir C:\\Users`: env.accounts)
    ("powershell", 'cmd /c "dir src /s /b | findstr /i .cs"'),
    ("powershell", 'dir /b /s | find /I "Program"'),
    ("powershell", 'cmd /c "dir /s /b | find /i .csproj"'),
    ("powershell", "cmd /c 'dir /s /b | find /i \".csproj\"'"),
    ("powershell", "cmd /c 'git log | find \"password\"'"),  # the project's history, not a hunt
    ("powershell", 'cmd /c "dir /s /b | sort"'),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_credential_names_searched_across_folders_hunt_for_secrets(shell: str, command: str) -> None:
    guard_blocks(shell, command, "env.credential-dump")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_projects_own_name_searches_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


# Asking whether a credential file is there reads nothing of it, whichever way it is asked: `test` and
# PowerShell's `Test-Path`, as bash's `[ -f F ]` already was. Reading it after the test is still reading it.
EXISTENCE_ONLY = [
    ("posix", "test -f ~/.netrc || echo 'no .netrc'"),
    ("posix", "test -e ~/.aws/credentials && echo configured"),
    ("powershell", "Test-Path ~\\.ssh\\id_rsa"),
    ("powershell", "Test-Path -Path $PROFILE -PathType Leaf"),
]
READ_AFTER_ALL = [
    ("posix", "test -f ~/.ssh/id_rsa && cat ~/.ssh/id_rsa"),
    ("posix", 'test -n "$(cat ~/.aws/credentials)"'),
    ("powershell", "Test-Path (Get-Content ~\\.ssh\\id_rsa)"),
    ("powershell", "if (Test-Path ~\\.netrc) { Get-Content ~\\.netrc }"),
]


@pytest.mark.parametrize(("shell", "command"), EXISTENCE_ONLY)
def test_asking_whether_a_credential_file_exists_reads_nothing(shell: str, command: str) -> None:
    guard_allows(shell, command)


@pytest.mark.parametrize(("shell", "command"), READ_AFTER_ALL)
def test_reading_a_credential_file_beside_the_test_still_blocks(shell: str, command: str) -> None:
    guard_blocks(shell, command, "env.secret-files")
