"""A package run by npx or dlx that is named for its command line is judged as the command it installs;
Windows' program folders as WSL and Git Bash name them.

`npx eas-cli build` runs `eas build`, `npx @railway/cli up` runs `railway up`, `npx @vercel/cli deploy` runs
`vercel deploy`: each reaches its service as the bare command does, which the package's name hid. Convex's
and Stripe's own clients reach their services too.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

REMOTE = "network.remote-service"

BLOCKED = [
    ("posix", "npx eas-cli build", REMOTE),
    ("posix", "npx @railway/cli up", REMOTE),
    ("posix", "npx @vercel/cli deploy", REMOTE),
    ("posix", "bunx @railway/cli up", REMOTE),
    ("posix", "npx convex deploy", REMOTE),
    ("posix", "npx convex dev", REMOTE),
    ("posix", "stripe prices retrieve price_1", REMOTE),
    ("posix", "npx eas-cli@latest build --platform ios", "network.package-install"),
    ("posix", "/mnt/c/Users/bob/x.exe", "unverifiable.outside-program"),
    ("posix", "/c/tools/evil", "unverifiable.outside-program"),
]

ALLOWED = [
    ("posix", "npx eslint ."),
    ("posix", "npx prettier --check ."),
    ("posix", "npx @angular/cli build"),
    ("posix", "npx tsc -p ."),
    ("posix", "stripe --version"),
    ("posix", "convex --help"),
    ("posix", '"/mnt/c/Program Files/AutoHotkey/v2/AutoHotkey64.exe" script.ahk'),
    ("posix", '"/c/Program Files/nodejs/node.exe" x.js'),
    ("posix", '"/c/Program Files (x86)/Tool/tool.exe" --version'),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_cli_packages_are_their_commands(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_local_tools_and_installed_programs_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
