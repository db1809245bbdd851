"""A command reference's placeholders (`git tag -a <tagname>`): a shell reads `<tagname>` as a redirection
from `tagname` and one to the word after it. Where no word follows, the shell refuses the whole line, so
none of it runs; the policy judges the line as it would run once completed, each placeholder a value only
known then (`${tagname}`). Where a word does follow, the shell runs the line as written: it is judged as
written, and also as it runs once someone fills it in (`docker exec -it <container> sh`)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import every_case, guard_allows, guard_decision

REFUSED_BY_THE_SHELL_AND_HARMLESS = [
    "git tag -a <tagname>",
    "git log -p <file_name>       # change over time for a specific file",
    "grep -r <pattern> <dir>",
    "git diff <commit>..<commit>",
    "make -C examples/device BOARD=<board>",
    "git worktree add -b branch-name <path>",
    "git log <rev> | less",
    "git log <rev> >log.txt",  # `> >log.txt`: an operator where the word to write to should be
]
REFUSED_BY_THE_SHELL_BUT_HARMFUL_ONCE_FILLED = [
    # what a placeholder stands for is judged as a run-time value: a machine's address, say
    ("python3 cve-2020-1472-exploit.py <DC_NAME> <DC_IP>", "network"),
    ("cat <local-file> | redis-cli -h <ip> -x set crackit", "network"),
    ("gitdumper <url>/.git/ <destination_dir>", "network"),
    ("rm -rf / ; git tag <x>", "destructive"),  # the rest of the line is judged as ever
]
RUN_AS_WRITTEN = [
    # a word after the placeholder is where the shell writes: `> origin/main`
    "git checkout -b <name> origin/main",
    "sort <in.txt> out.txt",
    "git log <x>| less",  # `>|` writes the file `less`
    'echo "<x>" > f.txt',  # quoted: text
]
RUN_AS_WRITTEN_BUT_HARMFUL_ONCE_FILLED = [
    # as written they read a file and write another; filled in, they do what the reference meant
    ("docker exec -it <container> sh", "unverifiable.terminal-program"),
    ("docker exec -it --user root <container name> sh", "unverifiable.terminal-program"),
    ("docker exec <container id> sh -c 'wget -O- 169.254.170.2/creds'", "network.http-client"),
    ("ditto -x -k <archive>.zip /Applications", "containment.write-outside-project"),
    ("xterm -display <server ip>:3", "network.locator"),
]


def _bash_refuses(line: str) -> bool:
    done = subprocess.run(["bash", "-n", "-c", line], capture_output=True, text=True)
    return done.returncode != 0 and "syntax error" in done.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_shell_refuses_the_lines_judged_as_completed_and_runs_the_others() -> None:
    # The premise, checked against a real shell: the filled-in reading applies only where bash runs nothing.
    harmful = [c for c, _ in REFUSED_BY_THE_SHELL_BUT_HARMFUL_ONCE_FILLED]
    completed = REFUSED_BY_THE_SHELL_AND_HARMLESS + harmful
    assert [c for c in completed if not _bash_refuses(c)] == []
    run = RUN_AS_WRITTEN + [c for c, _ in RUN_AS_WRITTEN_BUT_HARMFUL_ONCE_FILLED]
    assert [c for c in run if _bash_refuses(c)] == []


def test_placeholders_in_a_line_the_shell_refuses_are_values_to_come() -> None:
    every_case([("posix", c) for c in REFUSED_BY_THE_SHELL_AND_HARMLESS], guard_allows)


@pytest.mark.parametrize(("command", "category"), REFUSED_BY_THE_SHELL_BUT_HARMFUL_ONCE_FILLED)
def test_what_a_completed_line_would_do_is_still_judged(command: str, category: str) -> None:
    decision = guard_decision("posix", command)
    assert not decision.allowed and decision.category == category, decision


def test_a_line_the_shell_runs_is_judged_as_written() -> None:
    # `git checkout -b <name> ~/.bashrc` truncates ~/.bashrc: no placeholder is filled in
    decision = guard_decision("posix", "git checkout -b <name> ~/.bashrc")
    assert not decision.allowed and decision.argv == [">", "~/.bashrc"], decision
    # over two lines, the first runs before the shell meets the second: the second is not completed
    assert guard_decision("posix", "ls\ngit tag <x>").rule_id == "parse.error"


def test_a_line_the_shell_runs_as_written_stays_allowed_when_neither_reading_harms() -> None:
    every_case([("posix", c) for c in RUN_AS_WRITTEN], guard_allows)


@pytest.mark.parametrize(("command", "rule_id"), RUN_AS_WRITTEN_BUT_HARMFUL_ONCE_FILLED)
def test_a_line_the_shell_runs_is_also_judged_as_filled_in(command: str, rule_id: str) -> None:
    decision = guard_decision("posix", command)
    assert decision.rule_id == rule_id, decision


def test_each_reading_starts_from_the_line_start() -> None:
    # as written, the line writes the file `sh`; filled in, it runs `sh` in a container: not "a file this
    # line wrote", which would be the first reading's knowledge leaking into the second
    decision = guard_decision("posix", "docker exec -it <container> sh")
    assert "writes" not in decision.reason, decision


POWERSHELL_FILLED_IN = [
    # PowerShell reserves `<`: it refuses such a line whole, so it is judged as it runs once completed
    ("icacls <file> /grant Everyone:F", "dynamic.arguments"),
    ("Remove-Item <path> -Recurse", "destructive.recursive-delete"),
    ("qemu-system-i386.exe -netdev socket,id=s,connect=<AttackerIP>:<Port>", "dynamic"),
]
POWERSHELL_HARMLESS = [
    "git tag -a <tagname>",
    "git checkout -b <branch name>",
    'Write-Host "<b>bold</b>"',  # quoted: text
    "Select-String -Pattern '<tag>' x.html",
    "<# a block comment #> Get-Date",
]


@pytest.mark.parametrize(("command", "expected"), POWERSHELL_FILLED_IN)
def test_powershell_placeholders_are_values_to_come(command: str, expected: str) -> None:
    decision = guard_decision("powershell", command)
    assert not decision.allowed and (decision.rule_id or "").startswith(expected), decision


def test_powershell_lines_with_harmless_placeholders_or_quoted_angles_stay_allowed() -> None:
    every_case([("powershell", c) for c in POWERSHELL_HARMLESS], guard_allows)
