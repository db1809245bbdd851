"""Obfuscated and evasive lines, and the everyday lines that look like them.

- Every process's command line read straight from /proc (`cat /proc/*/cmdline`, `/proc/[0-9]*/cmdline`, a
  host's mounted into a container) is discovery, as `wmic process get commandline` is; the machine's own
  facts (`/proc/cpuinfo`) and a project file of that name stay fine.
- PowerShell's operators written against the string after them in an expression (`('a' +'b c')`, `$v = 'x'
  +' y'`, `'{0} x' -f'y z'`) are operators, not a bare word glued to a string: such a line is read as
  PowerShell reads it, not refused as unreadable; what the built string runs is still judged (`iex ('Remove-'
  +'Item -Recurse C:\\x')`), and a bare word glued to a string in a command's arguments is still respelled.
- A line in the PowerShell box whose program's name is cut by cmd's escape (`n^e^t u^s^er`, `v^ssadmin`,
  `pow^ershell -e …`) is a cmd line: PowerShell finds no such program, cmd runs `net user`. It is judged as
  cmd runs it; a caret in an argument (`git log HEAD^`) is PowerShell's plain text.
- A path whose run-time start is glued to a folder's name (`${X}etc/shadow`, `$(pwd | cut -c1)etc/shadow`)
  may name it from the root; one substitution glued to literal text whose output is knowable
  (`/etc/$(rev <<< wodahs)`, `/etc/sh$(echo ad)ow`) is also judged as the path it prints. A build's own
  paths built the same way (`docs/$(echo intro).md`, `out/$(date +%F)`, `${PREFIX}lib/pkgconfig`) stay fine.
- `${!v}` whose name the line sets once, literally (`v=VERSION`, a loop's words), reads that variable: fine
  for a plain one, a secret read for a secret's name; one naming a place (`HOME`) stays a run-time read.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "cat /proc/*/cmdline", "env.process-command-lines"),
    ("posix", "strings /proc/[0-9]*/cmdline | grep -i token", "env.process-command-lines"),
    ("posix", "tr '\\0' ' ' < /proc/*/cmdline", "env.process-command-lines"),
    ("posix", "for f in /proc/*/task/*/cmdline; do cat $f; done", "env.process-command-lines"),
    ("posix", "head -c 200 /host/proc/1/cmdline", "env.process-command-lines"),
    ("powershell", "iex ('Remove-It' +'em -Recurse C:\\src')", "destructive"),
    ("powershell", "Invoke-Expression ('Remove-Item' +' -Recurse -Force C:\\src')", "destructive"),
    ("powershell", "& ('I'+'EX') ('Write-Host' +' hi')", "unverifiable"),
    ("powershell", "$c = 'Remove-Item' +' -Recurse ~'; iex $c", "destructive"),
    ("powershell", "n^e^t u^s^er", "env.accounts"),
    ("powershell", "n^et user backup P@ss1 /add", "env"),
    ("powershell", "v^ssadmin delete shadows /all /quiet", "destructive"),
    ("powershell", "w^mic shadowcopy delete", "destructive"),
    ("powershell", "r^eg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v x /f", "destructive"),
    ("powershell", "pow^ershell -e SQBFAFgA", "unverifiable"),
    ("powershell", "^c^m^d /c del /s /q C:\\src", "destructive"),
    ("posix", "cat ${X}etc/shadow", "env.secret-files"),
    ("posix", "cat $(pwd | cut -c1)etc/shadow", "env.secret-files"),
    ("posix", "tail ${ROOT}home/*/.bash_history", "env.secret-files"),
    ("posix", "cat /etc/$(rev <<< wodahs)", "env.secret-files"),
    ("posix", "cat /etc/sh$(echo ad)ow", "env.secret-files"),
    ("posix", "cat /etc/$(echo c2hhZG93 | base64 -d)", "env.secret-files"),
    ("posix", "cp /etc/$(printf 'sh%s' adow) build/", "env.secret-files"),
    ("posix", 'name=AWS_SECRET_ACCESS_KEY; echo "${!name}"', "env.secret-variable"),
    ("posix", 'for v in VERSION GITHUB_TOKEN; do echo "${!v}"; done', "env.secret-variable"),
    ("posix", "p=HOME; ls ${!p}", "env.secret-variable"),
    ("posix", "echo ${!name}", "env.secret-variable"),
]

ALLOWED = [
    ("posix", "cat /proc/cpuinfo"),
    ("posix", "cat /proc/self/status"),
    ("posix", "cat tests/fixtures/proc/1/cmdline.txt"),
    ("posix", "ps aux | grep uvicorn"),
    ("powershell", "Write-Host ('Build' +' finished') -ForegroundColor Green"),
    ("powershell", "Write-Host ( 'Obfu'  +'scation Ro' +  'cks!') -ForegroundColor Green"),
    ("powershell", "$msg = 'Version ' +\"$v built\""),
    ("powershell", "$label = '{0} build' -f'Release x64'"),
    ("powershell", "if ($name -eq 'app' +' core') { Write-Host 'same' }"),
    ("powershell", "$files = @{ Out = 'bin' +'\\Release x64' }"),
    ("powershell", "Write-Output ($parts -join ' ')"),
    ("powershell", "throw 'Build failed: ' +'exit code 1'"),
    ("powershell", "$words = $line -split' '"),
    ("powershell", "git log --oneline HEAD^..main"),
    ("powershell", "git diff HEAD^ -- src"),
    ("powershell", "net start"),
    ("powershell", "echo ^<none^>"),
    ("posix", "cat docs/$(echo intro).md"),
    ("posix", "mkdir -p out/$(date +%F)"),
    ("posix", "ls ${PREFIX}lib/pkgconfig"),
    ("posix", "cp build/$(git rev-parse --short HEAD).tar.gz dist/"),
    ("posix", "tar -czf dist/app-$(echo 1.0).tgz src"),
    ("posix", "cat ${BUILD_DIR}etc/app.conf"),
    ("posix", 'name=VERSION; echo "${!name}"'),
    ("posix", 'for v in PYTHON_VERSION NODE_VERSION; do echo "$v=${!v}"; done'),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_obfuscated_and_evasive_lines_are_blocked(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_their_everyday_neighbours_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command, clean_parse=shell == "powershell")
