"""A find or a recursive grep from the top of the project lists git's files and glmagent's too.

`find . -type f -exec sed -i 's/a/b/' {} +` rewrites `.git/config`, the index and the packs as well as the
sources, and `grep -rl old . | xargs sed -i 's/old/new/'` rewrites whichever of them holds the word: writes
into `.git` and `.hazina` however plainly inside the project the start lies. A name or path test none of
their files passes (`-name '*.py'`, `--include='*.py'`), an exclusion of the folder (`-not -path
'./.git/*'`, `-path ./.git -prune -o` without `-depth`, `--exclude-dir=.git`) or a start below the top keeps
them out; reading what is found, and `touch`, which only sets times, stay allowed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import decide_in, decided_fresh_and_in, every_case

from glmagent.guard._find_reach import find_reaches_protected, listing_reaches_protected
from glmagent.guard._syntax import DYN, Arg

PROJECT = Path("/home/dev/proj")

INTO_PROTECTED = [
    "find . -type f -exec sed -i 's/a/b/' {} +",
    "find -type f -exec sed -i 's/a/b/' {} +",  # GNU find starts at . when given no start
    "find ./ -type f -name '*' -exec sed -i 's/a/b/' {} \\;",
    "find . -exec perl -pi -e 's/a/b/' {} +",
    "find . -type f -execdir dos2unix {} \\;",
    "find . -type f -exec chmod 644 {} +",  # hooks lose their execute bit
    "find . -newer Makefile -exec sed -i 's/a/b/' {} +",
    "find . -name 'config*' -exec sed -i 's/a/b/' {} +",  # git's configuration
    "find . -iname 'head' -exec sed -i 's/a/b/' {} +",
    "find . -name '*.sample' -exec sed -i 's/a/b/' {} +",
    "find . -path '*/hooks/*' -exec sed -i 's/a/b/' {} +",
    "find . -name '*.txt' -exec sed -i 's/a/b/' {} +",  # glmagent's summaries
    "find . -name '*.jsonl' -exec sed -i 1d {} +",  # and its audit records
    "find . -path ./.git -prune -o -type f -exec sed -i 's/a/b/' {} +",  # .hazina is still reached
    "find . -not -path './.git' -type f -exec sed -i 's/a/b/' {} +",  # the folder itself only
    "find . -not -name .git -type f -exec sed -i 's/a/b/' {} +",
    "find . \\( -name '*.js' -o -name '*.txt' \\) -exec sed -i 's/a/b/' {} +",
    "find . -name '*.pyc' -print -o -type f -exec sed -i 's/a/b/' {} +",  # the second alternative
    "find . -depth -path ./.git -prune -o -path ./.hazina -prune -o -type f -exec sed -i 's/a/b/' {} +",
    "find . -name '*.md' -print -o -name '*.txt' -print | xargs sed -i 's/a/b/'",
    "find . -name \"$PATTERN\" -exec sed -i 's/a/b/' {} +",
    # the top however written, a folder above it, the project's own absolute path, a start known at run time
    "find .// -type f -exec sed -i 's/a/b/' {} +",
    "find ./src/.. -type f -exec sed -i 's/a/b/' {} +",
    "cd src && find .. -type f -exec sed -i 's/a/b/' {} +",
    "grep -rl old \"$PWD\" | xargs sed -i 's/old/new/'",
    "cd src && grep -rl old .. | xargs sed -i 's/old/new/'",
    # fd and ripgrep told to search hidden folders (ripgrep's guide: add `-g '!.git'`)
    "fd -H -x sed -i 's/a/b/'",
    "fd --hidden -t f -X sed -i 's/a/b/' {}",
    "fd -u -e txt -x sed -i 's/a/b/'",
    "fd -H | xargs sed -i 's/a/b/'",
    "rg --hidden -l old | xargs sed -i 's/old/new/'",
    "rg -uu -l old . | xargs sed -i 's/old/new/'",
    "rg --files --hidden | xargs sed -i 's/a/b/'",
    "rg --hidden -g '*.txt' -l old | xargs sed -i 's/old/new/'",
    "find . -type f | xargs sed -i 's/a/b/'",
    "find . -type f -print0 | xargs -0 sed -i 's/a/b/'",
    "find . -type f | xargs -I{} sed -i 's/a/b/' {}",
    "find . -type f | xargs chmod 644",
    "grep -rl old . | xargs sed -i 's/old/new/g'",
    "grep -rl old | xargs sed -i 's/old/new/g'",  # grep -r searches . when given no file
    "grep -Rl old ./ | xargs perl -pi -e 's/old/new/'",
    "grep -r -l -e old | xargs sed -i 's/old/new/'",
    "grep -rlZ old . | xargs -0 sed -i 's/old/new/'",
    "grep --recursive -l old . | xargs sed -i 's/old/new/'",
    "grep -rl --include='*.txt' old . | xargs sed -i 's/old/new/'",
    "grep -rl --exclude-dir=.git old . | xargs sed -i 's/old/new/'",  # .hazina is still searched
]

KEPT_OUT = [
    "find . -name '*.py' -exec sed -i 's/a/b/' {} +",
    "find . -name '*.md' -exec sed -i 's/a/b/' {} \\;",
    "find . -iname '*.JS' -exec sed -i 's/a/b/' {} +",
    "find . \\( -name '*.js' -o -name '*.ts' \\) -exec sed -i 's/a/b/' {} +",
    "find . -path './src/*' -exec sed -i 's/a/b/' {} +",
    "find src -type f -exec sed -i 's/a/b/' {} +",
    "find . -path ./.git -prune -o -path ./.hazina -prune -o -type f -exec sed -i 's/a/b/' {} +",
    "find . -name .git -prune -o -name .hazina -prune -o -type f -exec sed -i 's/a/b/' {} +",
    "find . -not -path './.git/*' -not -path './.hazina/*' -type f -exec sed -i 's/a/b/' {} +",
    "find . ! -path '*/.git/*' -name '*.md' -exec sed -i 's/a/b/' {} +",
    "find . -name \\*.html -exec sed -i 's|x|y|g' -- {} \\;",
    "find . -type f -exec grep -l foo {} +",  # reading what is found
    "find . -type f -exec wc -l {} +",
    "find . -type f -exec touch {} +",  # only the times change
    "find . -type f | xargs touch",
    "find . -type f | xargs grep foo",
    "find . -name '*.py' | xargs sed -i 's/a/b/'",
    "grep -rl old src | xargs sed -i 's/old/new/g'",
    "grep -rl --include='*.py' old . | xargs sed -i 's/old/new/g'",
    "grep -rl --exclude-dir=.git --exclude-dir=.hazina old . | xargs sed -i 's/old/new/g'",
    "grep -l old *.py | xargs sed -i 's/old/new/'",  # not recursive
    "grep -rl old . | xargs wc -l",
    "git grep -l old | xargs sed -i 's/old/new/'",  # tracked files only
    "rg -l old | xargs sed -i 's/old/new/'",  # ripgrep skips hidden folders
    "rg --hidden -g '!.git' -g '!.hazina' -l old | xargs sed -i 's/old/new/'",
    "rg --hidden -t py -l old | xargs sed -i 's/old/new/'",
    "rg --files --hidden src | xargs sed -i 's/a/b/'",
    "fd -x sed -i 's/a/b/'",  # fd skips hidden folders
    "fd -H -E .git -E .hazina -x sed -i 's/a/b/'",
    "fd -H -e py -x sed -i 's/a/b/'",
    "fd -H x src -x sed -i 's/a/b/'",
    "fd -H -x wc -l",
    "fd PATTERN -x git status",
    "find . -name '*.pyc' -delete",
    "find . -name '*.pyc' -exec rm {} \\; -o -name '*.pyo' -delete",  # each action, its own alternative
    "find . -name '*.js' -o -name '*.ts' -exec sed -i 's/a/b/' {} +",  # the action binds to `*.ts`
]


def _blocked_into_protected(command: str) -> None:
    decided_fresh_and_in(command, PROJECT, "containment.write-git-dir")


def test_the_project_named_by_its_absolute_path_is_its_top_too() -> None:
    """(With the working directory unknown, an absolute path is outside the project: blocked as that.)"""
    for command in (
        "find /home/dev/proj -type f -exec sed -i 's/a/b/' {} +",
        "grep -rl old /home/dev/proj | xargs sed -i 's/old/new/'",
    ):
        decision = decide_in(command, PROJECT)
        assert decision.rule_id == "containment.write-git-dir", decision.reason
        assert decide_in(command.replace("/home/dev/proj", "/home/dev/proj/src"), PROJECT).allowed


POWERSHELL_INTO_PROTECTED = [
    "Get-ChildItem -Recurse -Force | Set-ItemProperty -Name IsReadOnly -Value $false",
    "gci -r -fo | Set-Acl -AclObject $acl",
    "Get-ChildItem -Recurse -Attributes Hidden | Rename-Item -NewName { $_.Name + '.bak' }",
    "ls -Recurse -Force | Move-Item -Destination archive",
]
POWERSHELL_KEPT_OUT = [
    "Get-ChildItem -Recurse | Set-ItemProperty -Name IsReadOnly -Value $false",  # hidden folders skipped
    "Get-ChildItem src -Recurse -Force | Set-ItemProperty -Name IsReadOnly -Value $false",
    "Get-ChildItem -Recurse -Force -Filter *.ps1 | Set-ItemProperty -Name IsReadOnly -Value $false",
    "Get-ChildItem -Recurse -Force | Select-String TODO",
]


def test_a_powershell_listing_of_hidden_folders_hands_on_git_s_files() -> None:
    """`Get-ChildItem -Recurse -Force` (or `-Hidden`) lists `.git` as `find .` does; the cmdlets whose
    `-Path` binds from the pipeline then change its files."""
    for command in POWERSHELL_INTO_PROTECTED:
        decision = decide_in(command, PROJECT, "powershell")
        assert decision.rule_id == "containment.write-git-dir", f"{command}: {decision.reason}"
    for command in POWERSHELL_KEPT_OUT:
        decision = decide_in(command, PROJECT, "powershell")
        assert decision.allowed, f"{command}: {decision.rule_id} ({decision.reason})"


def _allowed(command: str) -> None:
    decided_fresh_and_in(command, PROJECT, None)


def test_a_listing_from_the_top_fed_to_a_writer_writes_into_git_and_hazina() -> None:
    every_case(INTO_PROTECTED, _blocked_into_protected)


def test_a_listing_that_keeps_them_out_or_a_reader_stays_allowed() -> None:
    every_case(KEPT_OUT, _allowed)


def test_the_block_says_which_folder_and_which_listing() -> None:
    reason = decide_in("grep -rl old . | xargs sed -i 's/old/new/g'", PROJECT).reason
    assert "./.git" in reason and "`grep` lists" in reason
    reason = decide_in("find . -name '*.txt' -exec sed -i 's/a/b/' {} +", PROJECT).reason
    assert "./.hazina" in reason and "`find` reaches" in reason


def _words(line: str) -> list[Arg]:
    """The words of `line`, each `$NAME` in it known only at run time (as the parsers write it, `DYN`)."""
    return [Arg(re.sub(r"\$\w+", DYN, w), w) for w in line.split()]


@pytest.mark.parametrize(
    ("args", "reached"),
    [
        (". -type f", ["./.git", "./.hazina"]),
        ("-type f", ["./.git", "./.hazina"]),
        (". -name *.txt", ["./.hazina"]),
        (". -name HEAD", ["./.git"]),
        (". -name *.rs", []),
        ("src . -type f", ["./.git", "./.hazina"]),  # one start at the top is enough
        ("src tests -type f", []),
        ("src/.. ../.. -name HEAD", ["src/../.git", "../../.git"]),
        ("/srv/app -name HEAD", ["/srv/app/.git"]),
        ("-L . -type f", ["./.git", "./.hazina"]),
    ],
)
def test_where_in_the_protected_folders_a_find_reaches(args: str, reached: list[str]) -> None:
    assert find_reaches_protected(_words(args)) == reached


@pytest.mark.parametrize(
    ("line", "reached"),
    [
        ("grep -rl x .", ["./.git", "./.hazina"]),
        ("grep -l x .", []),
        ("grep -d recurse -l x .", ["./.git", "./.hazina"]),
        ("grep --directories=recurse -l x", ["./.git", "./.hazina"]),
        ("grep -rl --exclude-dir=.* x .", []),
        ("grep -rl -f patterns.txt src", []),
        ("grep -rl -f patterns.txt .", ["./.git", "./.hazina"]),
        ("grep -rl -- -x .", ["./.git", "./.hazina"]),
        ("grep -rl --include=*.txt x ..", ["../.hazina"]),
        ("egrep -r x", ["./.git", "./.hazina"]),
        ("grep -rl x $PWD", [".git", ".hazina"]),  # (DYN stands for the run-time word)
        ("grep -rl x $X/..", [".git", ".hazina"]),
        ("grep -rl x $DOCS/html", []),  # a folder so named, not the project's top
        ("ls -R", []),
        ("", []),
    ],
)
def test_where_in_the_protected_folders_a_listing_prints(line: str, reached: list[str]) -> None:
    assert listing_reaches_protected(_words(line)) == reached
