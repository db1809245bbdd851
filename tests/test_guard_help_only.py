"""A line that only asks a program for its usage text or its version prints it and exits: allowed, whatever
rules name the program. Only when the help request is the sole argument, the program is named without a
path, and the request is help to that program (`/?` is a path to a PowerShell cmdlet or alias, `-?` a glob
to POSIX); or when a tool built on subcommands that answers `--help` after one (`pip install --help`) is
given one subcommand word and `--help`. The version is asked by `--version`, or by `-V`, `-v` or `-version`
only of the programs that document them so alone (`ssh -V`; `ssh -v` is verbose mode, `tcpdump -V` a file
of names).
"""

from __future__ import annotations

import pytest
from conftest import every_case, guard_allows, guard_blocks

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

VERSION_ONLY = [
    ("posix", "ssh -V"),
    ("posix", "nmap --version"),
    ("posix", "nmap -V"),
    ("posix", "ping -V"),
    ("posix", "ping --version"),
    ("posix", "dig -v"),
    ("posix", "traceroute --version"),
    ("posix", "mount --version"),
    ("posix", "mount -V"),
    ("posix", "parted --version"),
    ("posix", "parted -v"),
    ("posix", "su --version"),
    ("posix", "pkexec --version"),
    ("posix", "nslookup -version"),
    ("posix", "iptables -V"),
    ("posix", "rsync -V"),
    ("powershell", "ssh -V"),
    ("powershell", "nmap --version"),
    ("posix", "xcrun swift -version"),  # (swift's long options take one dash: no cluster holding `-e`)
    ("posix", "swift -help"),
]

NOT_VERSION_ONLY = [
    ("posix", "ssh -v", "network"),  # verbose mode, not the version
    ("posix", "ssh -V host", "network"),  # more than the request
    ("posix", "ssh '-V'", "network"),  # quoted: judged as written, as help is
    ("posix", "dig -v example.com", "network"),
    ("posix", "tcpdump -V", "network"),  # tcpdump's `-V` names a file listing captures to read
    ("posix", "nc -V", "network"),  # not a version request to nc
    ("posix", "sudo -V", "containment.privilege-elevation"),  # to root it lists sudo's settings
    ("posix", "kubectl version", "network"),  # a `version` subcommand asks the cluster
    ("posix", "/tmp/x --version", "unverifiable.outside-program"),
    ("posix", "pkexec --version sh", "containment.privilege-elevation"),
]

NOT_HELP_ONLY = [
    ("posix", "ftp --help example.com", "network"),  # more than the help request
    ("posix", "ftp example.com", "network"),
    ("posix", "swift -version -e 'print(1)'", "unverifiable.inline-code"),
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


def test_asking_only_for_the_version_is_allowed() -> None:
    every_case(VERSION_ONLY, guard_allows)


def test_a_version_flag_that_is_something_else_or_stands_beside_more_is_judged_as_usual() -> None:
    every_case(NOT_VERSION_ONLY, guard_blocks)


@pytest.mark.parametrize(
    ("shell", "command", "expected"), NOT_HELP_ONLY, ids=[c for _, c, _ in NOT_HELP_ONLY]
)
def test_help_beside_anything_else_is_judged_as_usual(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(
    ("shell", "command"),
    HELP_ONLY[:4] + HELP_ONLY[-8:-1] + VERSION_ONLY[:4],
    ids=[c for _, c in HELP_ONLY[:4] + HELP_ONLY[-8:-1] + VERSION_ONLY[:4]],
)
def test_the_fast_path_and_the_walk_agree_on_help(shell: str, command: str) -> None:
    """The fast path for one command of literal words decides help requests as the walk does."""
    from glmagent.guard._engine import Evaluation

    policy = Policy.default()
    walked = Evaluation(policy._compiled).check(command, shell)  # type: ignore[arg-type]
    assert walked.allowed == policy.check(command, shell).allowed  # type: ignore[arg-type]
