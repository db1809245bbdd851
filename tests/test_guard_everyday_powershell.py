"""Everyday PowerShell stays allowed: the build entry points of PowerShell projects (`./build.ps1 -Test`),
parameters with digits, comment-only input, `param()` and `begin`/`process`/`end` blocks, ranges. Beside
each, the same shape doing something dangerous stays blocked, so the fix is a reading, not a hole."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

ALLOWED = [
    "./build.ps1 -Test",
    "./build -package",
    "./Build.ps1",
    "./tools/build.ps1 -Configuration Release",
    "./build.cmd build",
    "./build.cmd docs-fetch --depth 2 --preview",
    "./tools/updateVersion.ps1 -Version '4.0.0' -Changes 'Major release!'",
    "if ($IsWindows) { ./build.ps1 -Bootstrap } else { ./build.ps1 }",
    "Get-ChildItem *.ps1 | ./Format.ps1",
    "Invoke-Pester -Run1 $cov1",
    "./run.ps1 -Run1 $cov1 -Run2 $cov2",
    "# only a note",
    "<# a block comment #>",
    "# one\n# two\n",
    "param([string]$Configuration = 'Release')\ndotnet build -c $Configuration",
    "param()\nWrite-Output 'ready'",
    "begin { $n = 0 } process { $n++ } end { Write-Output $n }",
    "begin {\n  $items = @()\n}\nprocess {\n  $items += $_\n}\nend {\n  $items | Sort-Object\n}",
    "param($a) begin { } process { $_ } end { }",
    "param([string]$Path)",
    "param([Parameter(Mandatory=$true)][string]$Name)",
    "param(\n    [ValidateSet('Debug','Release')]\n    [string] $Configuration = 'Debug'\n)",
    "#Requires -Version 7\nparam([string]$Target)",
    "foreach ($i in 1..$count) { Write-Output $i }",
    "1..10 | ForEach-Object { $_ * 2 }",
    "nbtstat -n",
]

BLOCKED = [
    ("./build.ps1 -Test; Remove-Item -Recurse -Force C:\\src", "destructive.recursive-delete"),
    ("./build -package | Invoke-Expression", "unverifiable"),
    ("if ($IsWindows) { ./build.ps1 } else { rm -r ~ }", "destructive.recursive-delete"),
    ("Invoke-Pester -Run1 $env:API_TOKEN", "env"),
    ("# a note\nRemove-Item -Recurse x", "destructive.recursive-delete"),
    ("param([string]$p)\nRemove-Item -Recurse $p", "destructive.recursive-delete"),
    ("begin { } process { Remove-Item -Recurse $_ } end { }", "destructive.recursive-delete"),
    ("param([string]$x)\nbegin { rm -r x }", "destructive.recursive-delete"),
    ("param([ValidateSet('a','b')][string]$c = $env:TOKEN)", "env"),
    ("foreach ($i in 1..$env:COUNT) { Write-Output $i }", "env"),
    ('1..3 | ForEach-Object { Remove-Item -Recurse "dir$_" }', "destructive.recursive-delete"),
    ("nbtstat -A 10.0.0.1", "network.dns"),
]


@pytest.mark.parametrize("command", ALLOWED)
def test_everyday_powershell_is_allowed(command: str) -> None:
    guard_allows("powershell", command)


@pytest.mark.parametrize(("command", "expected"), BLOCKED)
def test_its_dangerous_twin_is_blocked(command: str, expected: str) -> None:
    guard_blocks("powershell", command, expected)
