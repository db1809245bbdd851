"""A line that only asks a program for its usage text prints it and exits: allowed, whatever rules name the
program. Only when the help request is the sole argument, the program is named without a path, and the
request is help to that program (`/?` is a path to a PowerShell cmdlet or alias, `-?` a glob to POSIX).
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

from glmagent.guard import Policy

HELP_ONLY = [
    ("posix", "ftp --help"),
    ("posix", "nc --help"),
    ("posix", "useradd --help"),
    ("powershell", "ftp --help"),
    ("powershell", "robocopy /?"),
    ("powershell", "ftp /?"),
    ("powershell", "cmd /c del /?"),
    ("powershell", "cmd /c rd /?"),
    ("powershell", "Remove-Item -?"),
    ("powershell", "netsh -?"),
]

NOT_HELP_ONLY = [
    ("posix", "ftp --help example.com", "network"),  # more than the help request
    ("posix", "ftp example.com", "network"),
    ("posix", "/tmp/x --help", "unverifiable.outside-program"),  # a program from outside the project runs
    ("posix", "rm /?", "containment"),  # a glob of the root's one-letter entries, not help
    ("powershell", "del /?", "containment"),  # `Remove-Item /?`: a wildcard path to a cmdlet
    ("powershell", "Remove-Item /?", "containment"),
    ("posix", 'ftp "$X"', "network"),
    ("powershell", "cmd /c del /? & rd /s /q C:\\x", "destructive"),
]


@pytest.mark.parametrize(("shell", "command"), HELP_ONLY, ids=[c for _, c in HELP_ONLY])
def test_asking_only_for_help_is_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


@pytest.mark.parametrize(
    ("shell", "command", "expected"), NOT_HELP_ONLY, ids=[c for _, c, _ in NOT_HELP_ONLY]
)
def test_help_beside_anything_else_is_judged_as_usual(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), HELP_ONLY[:4], ids=[c for _, c in HELP_ONLY[:4]])
def test_the_fast_path_and_the_walk_agree_on_help(shell: str, command: str) -> None:
    """The fast path for one command of literal words decides help requests as the walk does."""
    from glmagent.guard._engine import Evaluation

    policy = Policy.default()
    walked = Evaluation(policy._compiled).check(command, shell)  # type: ignore[arg-type]
    assert walked.allowed == policy.check(command, shell).allowed  # type: ignore[arg-type]
