"""A line that only asks a program for its usage text prints it and exits: allowed, whatever rules name the
program. Only when the help request is the sole argument, the program is named without a path, and the
request is help to that program (`/?` is a path to a PowerShell cmdlet or alias, `-?` a glob to POSIX);
or when a tool built on subcommands that answers `--help` after one (`pip install --help`) is given one
subcommand word and `--help`.
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
    # one subcommand of a tool that answers its `--help` with that subcommand's usage
    ("posix", "pip install --help"),
    ("posix", "npm publish --help"),
    ("posix", "docker run --help"),
    ("posix", "git push --help"),
    ("posix", "cargo publish --help"),
    ("posix", "kubectl apply --help"),
    ("posix", "systemctl reboot --help"),
    ("powershell", "winget install --help"),
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
    ("posix", "pip install requests --help", "network"),  # a package named beside the request
    ("posix", "docker run alpine --help", "network"),  # the image runs, given --help
    ("posix", "pip Install --help", "network"),  # no subcommand's spelling: judged as written
    ("posix", "/tmp/pip install --help", "network"),  # named by a path: judged as written
    ("posix", "pip install -h", "network"),  # `-h` is another option to many subcommands
    ("posix", "sudo pip install --help", "containment.privilege-elevation"),
]


@pytest.mark.parametrize(("shell", "command"), HELP_ONLY, ids=[c for _, c in HELP_ONLY])
def test_asking_only_for_help_is_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


@pytest.mark.parametrize(
    ("shell", "command", "expected"), NOT_HELP_ONLY, ids=[c for _, c, _ in NOT_HELP_ONLY]
)
def test_help_beside_anything_else_is_judged_as_usual(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(
    ("shell", "command"),
    HELP_ONLY[:4] + HELP_ONLY[-8:-1],
    ids=[c for _, c in HELP_ONLY[:4] + HELP_ONLY[-8:-1]],
)
def test_the_fast_path_and_the_walk_agree_on_help(shell: str, command: str) -> None:
    """The fast path for one command of literal words decides help requests as the walk does."""
    from glmagent.guard._engine import Evaluation

    policy = Policy.default()
    walked = Evaluation(policy._compiled).check(command, shell)  # type: ignore[arg-type]
    assert walked.allowed == policy.check(command, shell).allowed  # type: ignore[arg-type]
