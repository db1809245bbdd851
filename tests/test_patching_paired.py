"""Search lines that are lines of the file with lines left out between them, read line by line.

The edits below are the live bench's model's own (word_case, temperature_formula, dates_inclusive): each was
the fix, refused as stale because the lines it listed are not consecutive in the file."""

from __future__ import annotations

import pytest

from glmagent.errors import PatchRejected
from glmagent.patching import apply_edits

WORDS = b'''def word_counts(text):
    """How often each word occurs in `text`."""
    counts = {}
    for word in text.split():
        counts[word] = counts.get(word, 0) + 1
    return counts
'''
UNITS = b'''def to_fahrenheit(celsius):
    """Degrees Celsius to degrees Fahrenheit."""
    return celsius * 5 / 9 + 32


def to_celsius(fahrenheit):
    """Degrees Fahrenheit to degrees Celsius."""
    return (fahrenheit - 32) * 5 / 9
'''
UNITS_FIXED = UNITS.replace(b"celsius * 5 / 9 + 32", b"celsius * 9 / 5 + 32")


def test_a_docstring_left_out_between_the_listed_lines_is_kept() -> None:
    search = ["def word_counts(text):", "    counts = {}", "    for word in text.split():"]
    replace = ["def word_counts(text):", "    counts = {}", "    for word in text.lower().split():"]

    result = apply_edits("words.py", WORDS, [(search, replace)])

    assert result.content == WORDS.replace(b"in text.split()", b"in text.lower().split()")
    assert "search lines are lines 1, 3, 4 of the file, with line 2 left out" in result.hunks[0].notes[0]


def test_lines_copied_with_their_numbers_are_read_the_same_way() -> None:
    search = ["3 | def to_fahrenheit(celsius):", "4 |     return celsius * 5 / 9 + 32"]
    replace = ["3 | def to_fahrenheit(celsius):", "4 |     return celsius * 9 / 5 + 32"]

    assert apply_edits("units.py", UNITS, [(search, replace)]).content == UNITS_FIXED


def test_lines_written_without_their_indentation_keep_the_files() -> None:
    search = ["return celsius * 5 / 9 + 32", "return (fahrenheit - 32) * 5 / 9"]
    replace = ["return celsius * 9 / 5 + 32", "return (fahrenheit - 32) * 5 / 9"]

    assert apply_edits("units.py", UNITS, [(search, replace)]).content == UNITS_FIXED


@pytest.mark.parametrize(
    ("content", "search", "replace"),
    [
        # a line that recurs: which one is meant is unknown
        (
            WORDS + b"\n\ndef other(text):\n    counts = {}\n    return counts\n",
            ["def word_counts(text):", "    counts = {}", "    for word in text.split():"],
            ["def word_counts(text):", "    counts = {}", "    for word in text.lower().split():"],
        ),
        # out of order
        (
            WORDS,
            ["    for word in text.split():", "def word_counts(text):"],
            ["    for word in text.lower().split():", "def word_counts(text):"],
        ),
        # a line added: where it goes between the listed lines is unclear
        (
            WORDS,
            ["def word_counts(text):", "    counts = {}"],
            ["def word_counts(text):", "    text = text.lower()", "    counts = {}"],
        ),
        # too far apart to be one place
        (
            WORDS + b"".join(b"X%d = %d\n" % (n, n) for n in range(8)) + b"def last():\n    return 0\n",
            ["def word_counts(text):", "    return 0"],
            ["def word_counts(text):", "    return 1"],
        ),
        # a line the file does not have
        (
            WORDS,
            ["def word_counts(text):", "    counts = dict()"],
            ["def word_counts(text):", "    counts = {}"],
        ),
    ],
    ids=["recurring line", "out of order", "line added", "far apart", "invented line"],
)
def test_anything_less_clear_is_refused_as_before(
    content: bytes, search: list[str], replace: list[str]
) -> None:
    with pytest.raises(PatchRejected) as refused:
        apply_edits("words.py", content, [(search, replace)])

    assert refused.value.reason == "stale_context"


def test_consecutive_lines_are_applied_as_written_with_no_note() -> None:
    search = ["    counts = {}", "    for word in text.split():"]
    replace = ["    counts = {}", "    for word in text.lower().split():"]

    result = apply_edits("words.py", WORDS, [(search, replace)])

    assert result.content == WORDS.replace(b"in text.split()", b"in text.lower().split()")
    assert not any("left out" in note for hunk in result.hunks for note in hunk.notes)
