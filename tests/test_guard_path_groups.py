"""A long `path` clause is matched group by group (`GroupedPathPattern`): only the paths sharing a literal the
word holds are tried. These tests hold it to the clause's whole regex, word for word."""

from __future__ import annotations

import pickle
import re

import pytest

from glmagent.guard import Policy
from glmagent.guard._rules import GroupedPathPattern, PathClause, PathPattern, _steps_taken, path_regex

_FILLS = {"**": ("", "a/b", "x/.y"), "*": ("", "Ab", "q.example"), "?": ("z", ".")}
_PREFIXES = ("", "./", "/home/u/", "$HOME/", "~/", "C:\\Users\\me\\", "--file=", "'", "proj/", "../", "//")
_SUFFIXES = ("", "/", "'", ".bak", "/.", ".example", ".md")


def _filled(glob: str) -> list[str]:
    """Words a glob stands for, each wildcard filled in one of a few ways (the same for every wildcard)."""
    words = []
    for i in range(3):
        word = re.sub(r"\[[^\]]*\]", "a", glob)
        for wildcard, fills in _FILLS.items():
            word = word.replace(wildcard, fills[i % len(fills)])
        words.append(word)
    return words


def _grouped_clauses() -> list[tuple[str, PathClause, GroupedPathPattern]]:
    policy = Policy.default()
    found = []
    for rule in policy.rules:
        for clause in rule.when:
            if isinstance(clause, PathClause):
                pattern = path_regex(clause.paths, clause.except_paths)
                if isinstance(pattern, GroupedPathPattern):
                    found.append((rule.id, clause, pattern))
    return found


def test_the_long_path_clauses_are_grouped() -> None:
    ids = {rule_id for rule_id, _, _ in _grouped_clauses()}
    assert "env.secret-files" in ids  # hundreds of credential and secret paths


@pytest.mark.parametrize(
    ("rule_id", "clause", "grouped"), _grouped_clauses(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_groups_match_what_the_whole_regex_matches(
    rule_id: str, clause: PathClause, grouped: GroupedPathPattern
) -> None:
    matched = missed = 0
    for glob in [*clause.paths, *clause.except_paths]:
        for filled in _filled(glob):
            for i, prefix in enumerate(_PREFIXES):
                word = prefix + filled + _SUFFIXES[(i + len(glob)) % len(_SUFFIXES)]
                for spelled in (word, word.upper(), word.replace("/", "\\")):
                    whole = grouped.regex.match(_steps_taken(spelled)) is not None
                    assert (grouped.match(spelled) is not None) == whole, (rule_id, spelled, whole)
                    matched += whole
                    missed += not whole
    assert matched > 100 and missed > 100  # both sides are exercised


@pytest.mark.parametrize(
    "word",
    [
        "/home/u/.aws/credential\u017f",  # `ſ` is `s` to re.IGNORECASE: read by the whole regex
        "/home/u/" + "a/" * 200 + ".aws/credentials",  # longer than a word the groups read
        "src/app.py",
        "docs/windows.md",
        ".env.example",
        "config.yaml",
    ],
)
def test_words_beyond_the_groups_reach_are_read_whole(word: str) -> None:
    for _, _, grouped in _grouped_clauses():
        assert (grouped.match(word) is not None) == (grouped.regex.match(_steps_taken(word)) is not None)


def test_a_short_clause_keeps_one_regex() -> None:
    assert type(path_regex(["~/.netrc", "/etc/shadow"], [])) is PathPattern


def test_a_grouped_clause_survives_the_load_cache() -> None:
    _, _, grouped = next(c for c in _grouped_clauses() if c[0] == "env.secret-files")
    copy = pickle.loads(pickle.dumps(grouped))
    assert isinstance(copy, GroupedPathPattern)
    for word in ("~/.aws/credentials", "$HOME/.netrc", ".env", "app/.env", ".env.example", "README.md"):
        assert (copy.match(word) is None) == (grouped.match(word) is None)


@pytest.mark.parametrize(
    ("command", "allowed"),
    [
        ("cat .env", False),
        ("cat app/.env.production", False),
        ("cat ~/.aws/credentials", False),
        ("cat /home/dev/.kube/config", False),
        ("cat .env.example", True),
        ("cat app/.env.sample", True),
        ("cat config.yaml", True),
        ("sed -n '1,40p' docs/windows.md", True),
    ],
)
def test_the_decisions_stand(command: str, allowed: bool) -> None:
    decision = Policy.default().check(command, "posix")
    assert decision.allowed == allowed, decision.reason
