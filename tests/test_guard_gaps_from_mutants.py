"""Decisions no other test pinned: each one changes under a one-line edit of the guard that the rest of the
suite let through.

- `tee` into a new file and a stream (`/dev/null`, `/dev/stderr`, `-`): the stream holds nothing to lose, so
  only the file is judged. Without the stream names, the stream reads as a file outside the project and
  the whole line is blocked.
- PowerShell 7 chains (`a && b`, `a || b`): every command of the chain is judged, including the one after
  the operator, in lines of bare words that the walker might otherwise skip as holding nothing to report.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import committed_repo

from glmagent.guard import Decision, Policy


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git project with one tracked file that holds something."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    return committed_repo(tmp_path_factory.mktemp("proj"), {"README.md": "# demo\n"})


def decide(command: str, shell: str, cwd: Path | None = None) -> Decision:
    return Policy.default().check(command, shell, cwd=cwd)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "command",
    [
        "pytest | tee report.txt /dev/null",
        "pytest 2>&1 | tee build.log /dev/stderr",
        "make | tee /dev/stdout make.log",
    ],
)
def test_tee_into_a_new_file_and_a_stream_is_allowed(repo: Path, command: str) -> None:
    decision = decide(command, "posix", repo)
    assert decision.allowed, (decision.rule_id, decision.reason)


@pytest.mark.parametrize("stream", ["/dev/null", "/dev/stderr"])
def test_a_stream_beside_a_file_with_content_does_not_spare_the_file(repo: Path, stream: str) -> None:
    decision = decide(f"pytest | tee README.md {stream}", "posix", repo)
    assert not decision.allowed
    assert decision.rule_id == "destructive.truncating-write", decision.rule_id


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("git status && Remove-Item -Recurse C:\\src", "destructive.recursive-delete"),
        ("git status || Remove-Item -Recurse -Force C:\\src", "destructive.recursive-delete"),
        ("Remove-Item -Recurse C:\\src && git status", "destructive.recursive-delete"),
        ("git diff && git status || Stop-Computer -Force", "destructive.system-power"),
        ("git status && Get-Process | Stop-Process -Force", "destructive.kill-all"),
    ],
)
def test_every_command_of_a_powershell_chain_is_judged(command: str, rule: str) -> None:
    decision = decide(command, "powershell")
    assert not decision.allowed
    assert decision.rule_id == rule, (decision.rule_id, decision.reason)
