"""Path clauses match words in time proportional to the words, with the same verdicts as before.

A path glob with a piece between two `*` in one component (`*lsass*.dmp`) once let the regex engine try
every occurrence of the piece, each to the end of the word: a 100 kB word of `lsass` took seconds. The glob
now takes the piece's first occurrence, which is always the best one for the rest of the component; the
property test compares it with the plain translation on words made of the globs' own pieces. And a line
whose words that may name a credential file total more than `MAX_MATCHED` characters is too large to check
(blocked), since matching them costs time in proportion. Timing itself is measured by
`bench/policy_bench.py`, not here.
"""

from __future__ import annotations

import re

import pytest
from conftest import guard_blocks
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from glmagent.guard._rules import _SEP, _path_glob
from glmagent.guard._words import MAX_MATCHED


def _plain(path: str) -> str:
    """The translation before: every `*` a greedy run within the component."""
    out = []
    i = 0
    while i < len(path):
        if path.startswith("**", i):
            out.append(".+")
            i += 2
            continue
        ch = path[i]
        out.append({"*": r"[^/\\]*", "?": r"[^/\\]", "/": _SEP}.get(ch, re.escape(ch)))
        i += 1
    return "".join(out)


GLOBS = ["*lsass*.dmp", "a*b?c*d*e", "x/*ab*cd*/y", "*a*a*", "**/k*ey*.pem", "?*x*", "Policies/*/M*a*/G.xml"]


@given(
    glob=st.sampled_from(GLOBS),
    word=st.lists(
        st.sampled_from(["a", "b", "c", "d", "e", "x", "y", "k", "ab", "cd", "lsass", ".dmp", "/", "\\"])
    ).map("".join),
)
@settings(max_examples=examples(400))
def test_the_first_occurrence_reading_matches_what_the_plain_reading_matches(glob: str, word: str) -> None:
    new = re.compile(rf"(?:{_path_glob(glob)})$", re.IGNORECASE | re.DOTALL)
    old = re.compile(rf"(?:{_plain(glob)})$", re.IGNORECASE | re.DOTALL)
    assert bool(new.match(word)) == bool(old.match(word)), (glob, word)


def test_a_piece_between_two_stars_is_read_once() -> None:
    assert "(?=(?P<" in _path_glob("*lsass*.dmp")
    assert _path_glob("*.kdbx") == _plain("*.kdbx")  # one star: nothing to change


@pytest.mark.parametrize("unit", ["lsass", "a/.aws/", "credentials ", "ntds.dit"])
def test_a_line_of_long_credential_like_words_is_too_large_to_check(unit: str) -> None:
    guard_blocks("posix", "tool " + unit * (2 * MAX_MATCHED // len(unit)), "size.exceeded")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cat ~/.aws/credentials", "env.secret-files"),  # short words: decided by their rule, as before
        ("cat C:/x/" + "lsass" * 100 + ".dmp", "env.credential-dump"),
    ],
)
def test_short_credential_paths_are_still_decided_by_their_rule(command: str, expected: str) -> None:
    guard_blocks("posix", command, expected)
