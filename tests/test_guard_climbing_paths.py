"""A path with `..` steps is judged by where the steps lead, as the file system resolves it.

`/tmp/../etc/passwd` is `/etc/passwd`, and `~/../../etc/passwd` climbs above the home folder, whose depth the
policy does not know: it may reach the root, so the rest is judged as from there. Steps that stay inside a
folder (`src/../README.md`) or lead to a sibling project change nothing.
"""

from __future__ import annotations

import pytest
from conftest import every_case, guard_allows, guard_blocks

from glmagent.guard._paths import climbed

BLOCKED = [
    ("posix", "cat /tmp/../etc/passwd", "env.accounts"),
    ("posix", "cat /etc/../etc/group", "env.accounts"),
    ("posix", "cat ~/../../etc/passwd", "env.accounts"),
    ("posix", 'cat "$HOME/../../etc/passwd"', "env.accounts"),
    ("posix", "cat ../../../../etc/passwd", "env.accounts"),
    ("posix", "cat ~/work/../.ssh/id_rsa", "env.secret-files"),
    ("posix", "cp ~/src/../.aws/credentials creds.txt", "env.secret-files"),
    ("powershell", "Get-Content C:\\Windows\\Temp\\..\\System32\\config\\SAM", "env.secret-files"),
    ("posix", "ls -la /tmp/../root", "env.machine-discovery"),  # a command's own operand rules too
]

ALLOWED = [
    ("posix", "cat src/../README.md"),
    ("posix", "cat ../sibling/README.md"),
    ("posix", "diff -u ../old/src/app.py src/app.py"),
    ("posix", "cat src/../etc/passwd"),  # the project's own etc/passwd: the steps stay inside it
    ("posix", "ls ../.."),
    ("posix", "ls -la /tmp/../usr/share"),  # (`/tmp/../home` lists the accounts: env.accounts)
    ("posix", 'find ../ -name "*.txt"'),  # the folder above: not the root, whatever its depth
    ("posix", "du -sh .."),
    ("posix", "cat /usr/share/../share/dict/words"),
    ("powershell", "Get-Content ..\\docs\\README.md"),
]


def test_a_path_is_judged_where_its_steps_lead() -> None:
    every_case(BLOCKED, guard_blocks)


def test_steps_that_stay_in_harmless_places_change_nothing() -> None:
    every_case(ALLOWED, guard_allows)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("/tmp/../etc/passwd", "/etc/passwd"),
        ("~/x/../.ssh/id_rsa", "~/.ssh/id_rsa"),
        ("~/../../etc/shadow", "/etc/shadow"),
        ("\x00/../.aws/credentials", "/.aws/credentials"),  # `$HOME/..`: a run-time folder
        ("../../..", None),  # only climbs: which folder depends on the depth
        ("~/..", None),
        ("../..x/y", "/..x/y"),  # `..x` is a name, not a step
        ("src/../app.py", "app.py"),
        ("C:\\Windows\\..\\Windows\\win.ini", "C:/Windows/win.ini"),
        ("a..b/c", None),
        ("/a/./b", None),  # no `..` step: the rules' own patterns read `./`
    ],
)
def test_climbed_takes_the_steps(word: str, expected: str | None) -> None:
    assert climbed(word) == expected
