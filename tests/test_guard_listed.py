"""What a listing hands a writer lies below the listing's starts.

`find ../site -name '*.html' | xargs sed -i …` edits files of `../site`, and `sed -i … $(grep -rl old src)`
edits files of `src`: every path a listing prints begins with one of its starts as written. So a writer fed
by a listing (through `xargs`, `fd -x` or a command substitution) is judged as writing below each start:
outside the project it is blocked, inside it is fine (where the substitution form used to be refused as a
target only known at run time). Line filters between the two (`grep -v test`, `sort`, `head`) pass the
listing's lines on, and a `grep` filter that no file of `.git` or `.hazina` passes keeps that folder out.
What any other command prints may name any file, so a writer fed by it writes a place known only at run
time, in either form.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import decide_in, decided_fresh_and_in, every_case

from glmagent.guard._find_reach import _posix_regex, filters_keep_out
from glmagent.guard._listed import listing_starts
from glmagent.guard._syntax import Arg

PROJECT = Path("/home/dev/proj")

WRITES_OUTSIDE = [
    "find ../site -name '*.html' | xargs sed -i 's/a/b/'",
    "find /srv/app -name '*.py' -print0 | xargs -0 sed -i 's/a/b/'",
    "grep -rl old /srv/app | xargs sed -i 's/old/new/'",
    "grep -rl old ../lib | xargs perl -pi -e 's/old/new/'",
    "rg -l old ../lib | xargs sed -i 's/old/new/'",
    "rg --files ~/notes | xargs sed -i 's/a/b/'",
    "fd -e py . ../other | xargs sed -i 's/a/b/'",
    "git grep -l old -- ../lib | xargs sed -i 's/old/new/'",
    "find ../site -name '*.html' | grep -v draft | sort | xargs sed -i 's/a/b/'",
    "ls -d ../*/setup.cfg | xargs sed -i 's/a/b/'",
    "find ../site -name '*.ts' | xargs prettier --write",
    "fd -e md . ../docs -x sed -i 's/a/b/'",
    "fd -e md . /srv/docs -X sed -i 's/a/b/' {}",
    "sed -i 's/a/b/' $(grep -rl a /srv/app)",
    "sed -i 's/a/b/' $(find /etc -name '*.ini')",
    "sed -i 's/a/b/' `find ../site -name '*.html'`",
    "perl -pi -e 's/a/b/' $(ls -d ../*/setup.cfg)",
    "prettier --write $(find ../site -name '*.ts')",
]

UNKNOWN_TARGET = [
    "cat list.txt | xargs sed -i 's/a/b/'",
    "jq -r '.files[]' x.json | xargs sed -i 's/a/b/'",
    "awk '{print $2}' list | xargs perl -pi -e 's/a/b/'",
    "find . -name '*.py' -printf '/etc/%f\\n' | xargs sed -i 's/a/b/'",  # prints what it likes
    "find . -name '*.py' | grep -o 'x.*' | xargs sed -i 's/a/b/'",  # a part of a path is no path below
    "grep -rl old \"$DOCS/html\" | xargs sed -i 's/old/new/'",
    "sed -i 's/a/b/' $(cat list.txt)",
    "perl -pi -e 's/a/b/' `git grep -l a :/`",  # from the top of the repository, wherever that is
]

INTO_PROTECTED = [
    "sed -i 's/a/b/' $(grep -rl a .)",
    "sed -i 's/a/b/' $(find . -type f)",
    "sed -i 's/a/b/' $(find . -type f | grep -v node_modules)",
    "find . -type f | grep -v node_modules | xargs sed -i 's/a/b/'",
    "find . -name '*' -type f | grep -v composer.lock | xargs sed -i 's/master/main/g'",  # .git/HEAD too
    "find . -type f | grep -v '/\\.git/' | xargs sed -i 's/a/b/'",  # .hazina stays
    "find . -type f | sort | head -50 | xargs sed -i 's/a/b/'",
]

WRITES_THE_PROJECT = [
    "sed -i 's/foo/bar/g' $(grep -rl foo src)",
    "sed -i 's/old/new/' `grep -rl old docs`",
    "sed -i 's/a/b/' \"$(grep -rl a src)\"",
    "perl -pi -e 's/a/b/' $(grep -rl a lib)",
    "perl -pi -e 's/a/b/' `git grep -l a`",
    "sed -i 's/a/b/' $(git ls-files '*.py')",
    "sed -i 's/a/b/' $(find src -name '*.py')",
    "prettier --write $(git diff --name-only HEAD -- '*.ts')",
    "prettier --write $(git ls-files)",
    "sed -i 's/a/b/' $(find . -type f | grep -v '/\\.git/' | grep -v '^\\./\\.hazina')",
    "find src -name '*.py' -print0 | xargs -0 sed -i 's/a/b/'",
    "find . -name '*.py' | sort | head -20 | xargs sed -i 's/a/b/'",
    "find . | grep -E '(__pycache__|\\.pyc|\\.pyo)' | xargs rm -rf",
    "find . -type f | grep '\\.py$' | xargs sed -i 's/a/b/'",
    "find . -type f | grep -v .git | grep -v hazina | xargs sed -i 's/a/b/'",
    "find charts -name Chart.yaml -exec grep -q -l common {} \\; -print0 | xargs -0 sed -i 's/a/b/'",
    "git ls-files '*.md' | xargs sed -i 's/a/b/'",
    "git diff --name-only | xargs sed -i 's/a/b/'",
    "git grep -l foo -- src | xargs sed -i 's/foo/bar/'",
    "rg -l foo | xargs sed -i 's/foo/bar/'",
    "rg --files src | xargs sed -i 's/a/b/'",
    "ls *.md | xargs sed -i 's/a/b/'",
    "fd -e md . docs -x sed -i 's/a/b/'",
    # reading below a start outside, or what any command prints, stays fine
    "fd -e md . /srv/docs -x wc -l",
    "find ~/src/app -name '*.py' | xargs grep -n passthrough",
    "grep -rl old ../lib | xargs wc -l",
    "cat list.txt | xargs grep -n foo",
    "cat list.txt | xargs wc -l",
]


def _blocked_as(rule: str) -> Callable[[str], None]:
    return lambda command: decided_fresh_and_in(command, PROJECT, rule)


def test_a_writer_fed_by_a_listing_outside_writes_there() -> None:
    every_case(WRITES_OUTSIDE, _blocked_as("containment.write-outside-project"))


def test_a_writer_fed_by_what_no_listing_prints_writes_an_unknown_place() -> None:
    every_case(UNKNOWN_TARGET, _blocked_as("containment.write-unknown-target"))


def test_a_writer_fed_by_a_listing_from_the_top_writes_into_git_or_hazina() -> None:
    every_case(INTO_PROTECTED, _blocked_as("containment.write-git-dir"))


def test_a_writer_fed_by_a_listing_inside_the_project_is_fine() -> None:
    every_case(WRITES_THE_PROJECT, lambda command: decided_fresh_and_in(command, PROJECT, None))


def test_the_block_names_the_place_and_the_listing() -> None:
    reason = decide_in("find ../site -name '*.html' | xargs sed -i 's/a/b/'", PROJECT).reason
    assert "`../site/{}`" in reason and "a path below ../site, which `find` lists" in reason
    reason = decide_in("cat list.txt | xargs sed -i 's/a/b/'", PROJECT).reason
    assert "`$(cat list.txt)`" in reason and "the words `cat list.txt` prints" in reason


def _words(line: str) -> list[Arg]:
    return [Arg(w, w) for w in line.split()]


@pytest.mark.parametrize(
    ("command", "starts"),
    [
        ("find src tests -name *.py", ["src", "tests"]),
        ("find -type f", ["."]),
        ("find . -name *.py -exec grep -l x {} +", ["."]),
        ("find . -name *.py -exec cat {} +", None),  # what cat prints is the files' text
        ("find . -printf %f", None),
        ("grep -rl old src lib", ["src", "lib"]),
        ("grep -rl old", ["."]),
        ("grep -l -e old a.txt", ["a.txt"]),
        ("grep -r old src", None),  # lines, not names
        ("grep -rlo old src", None),
        ("rg --files ../lib", ["../lib"]),
        ("rg -l old", ["."]),
        ("rg old src", None),
        ("fd -e py . src", ["src"]),
        ("fd --search-path lib py", ["lib"]),
        ("fd -l py", None),
        ("git ls-files src", ["src"]),
        ("git -C sub ls-files", ["."]),
        ("git ls-files -s", None),
        ("git diff --name-only HEAD~1", ["."]),
        ("git diff HEAD~1", None),
        ("git grep -l old -- lib", ["lib"]),
        ("git grep old", None),
        ("ls src", [".", "src"]),
        ("ls -la", None),
        ("cat list.txt", None),
    ],
)
def test_the_starts_of_a_listing(command: str, starts: list[str] | None) -> None:
    found = listing_starts(_words(command))
    assert (None if found is None else [a.text for a in found]) == starts


@pytest.mark.parametrize(
    ("pattern", "extended", "python"),
    [
        ("\\.py$", False, "\\.py$"),
        ("\\(a\\|b\\)c", False, "(a|b)c"),  # BRE's operators are escaped
        ("(a|b)+", False, "\\(a\\|b\\)\\+"),  # and its bare ones are literals
        ("(a|b)c+", True, "(a|b)c+"),
        ("x^y$z", False, "x\\^y\\$z"),  # anchors only at either end
        ("^\\./\\.git", False, "^\\./\\.git"),
        ("[^/]*\\.txt", False, "[^/]*\\.txt"),
        ("(a*)*b", True, None),  # a repeated group: not read
        ("\\(a\\)*", False, None),
        ("[[:alpha:]]x", False, None),
        ("a{2}", True, None),
        ("\\w+", True, None),
        ("a*b*c*", False, None),  # too many repetitions
    ],
)
def test_a_filter_pattern_is_read_only_when_it_is_plain(
    pattern: str, extended: bool, python: str | None
) -> None:
    assert _posix_regex(pattern, extended) == python


@pytest.mark.parametrize(
    ("filters", "place", "kept_out"),
    [
        (["grep -v /\\.git/"], "./.git", True),
        (["grep -v /\\.git/"], "./.hazina", False),
        (["grep \\.py$"], "./.hazina", True),
        (["grep -E \\.(txt|md)$"], "./.hazina", False),  # glmagent keeps summaries in .txt
        (["grep -v -F .git", "grep -v hazina"], "./.hazina", True),
        (["grep -i -v /\\.GIT/"], "./.git", True),
        (["sort", "head -5"], "./.git", False),
        (["grep -P (?!x)"], "./.git", False),  # not read: keeps nothing out for sure
        (["grep -f patterns.txt"], "./.git", False),
    ],
)
def test_which_filters_keep_a_protected_folder_out(filters: list[str], place: str, kept_out: bool) -> None:
    assert filters_keep_out([_words(f) for f in filters], place) is kept_out
