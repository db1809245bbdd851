"""Search lines that are lines of the file with lines left out between them, read line by line.

The edits below are the live bench's model's own (word_case, temperature_formula, dates_inclusive): each was
the fix, refused as stale because the lines it listed are not consecutive in the file."""

from __future__ import annotations

import pytest
from conftest import REPO_ROOT

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
        # lines that recur: two places fit them
        (
            WORDS + b"\n\ndef other(text):\n    counts = {}\n    x = 1\n    return counts\n",
            ["    counts = {}", "    return counts"],
            ["    counts = {}", "    return dict(counts)"],
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
    ids=["recurring lines", "out of order", "line added", "far apart", "invented line"],
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


LEDGER = (REPO_ROOT / "bench" / "live_tasks" / "ledger_none" / "project" / "ledger.py").read_bytes()
"""The live bench's ledger_none module: `for entry in entries:` is in both of its functions."""
BALANCE = [
    "def balance(entries):",
    "    total = 0.0",
    "    for entry in entries:",
    "        total += entry.amount",
]


def test_a_line_added_between_neighbours_of_the_file_is_placed_there() -> None:
    # The live bench's model (ledger_none, a first reply sampled warm): the docstring left out, one line
    # added, one changed; `for entry in entries:` recurs in the file, placed by the lines around it.
    replace = [
        "def balance(entries):",
        "    total = 0.0",
        "    filtered_entries = [entry for entry in entries if entry.amount is not None]",
        "    for entry in filtered_entries:",
        "        total += entry.amount",
    ]

    result = apply_edits("ledger.py", LEDGER, [(BALANCE, replace)])

    assert result.content == LEDGER.replace(
        b"    total = 0.0\n    for entry in entries:\n",
        b"    total = 0.0\n    filtered_entries = [entry for entry in entries if entry.amount is not None]\n"
        b"    for entry in filtered_entries:\n",
    )
    assert "read as the lines they list changed as the replace lines change them" in result.hunks[0].notes[0]


def test_lines_added_after_the_last_listed_line_go_there() -> None:
    replace = [*BALANCE, "        if total < 0:", "            total = 0.0"]

    result = apply_edits("ledger.py", LEDGER, [(BALANCE, replace)])

    assert result.content == LEDGER.replace(
        b"        total += entry.amount\n",
        b"        total += entry.amount\n        if total < 0:\n            total = 0.0\n",
    )


def test_a_listed_line_taken_out_goes_and_the_left_out_lines_stay() -> None:
    content = b'def f(x):\n    """Doc."""\n    print("debug", x)\n    y = x + 1\n    return y\n'
    search = ["def f(x):", '    print("debug", x)', "    y = x + 1"]

    result = apply_edits("f.py", content, [(search, ["def f(x):", "    y = x + 1"])])

    assert result.content == b'def f(x):\n    """Doc."""\n    y = x + 1\n    return y\n'


def test_lines_written_deeper_are_added_at_the_files_depth() -> None:
    search = ["    " + line for line in BALANCE]  # as if inside a class
    replace = [*search[:2], "        if not entries:", "            return total", *search[2:]]

    result = apply_edits("ledger.py", LEDGER, [(search, replace)])

    assert result.content is not None
    expected = b"    total = 0.0\n    if not entries:\n        return total\n    for entry in entries:\n"
    assert expected in result.content


@pytest.mark.parametrize(
    "replace",
    [
        # added between the `def` and `total = 0.0`, where the docstring was left out: before it or after?
        ["def balance(entries):", "    entries = list(entries)", *BALANCE[1:]],
        # `def` and `total = 0.0` replaced together by other lines: the docstring between them, kept where?
        ["def balance(entries, start=0.0):", "    total = start", "    x = 1", *BALANCE[2:]],
    ],
    ids=["added beside a left-out line", "replaced across a left-out line"],
)
def test_lines_whose_place_beside_a_left_out_line_is_unclear_are_refused(replace: list[str]) -> None:
    with pytest.raises(PatchRejected) as refused:
        apply_edits("ledger.py", LEDGER, [(BALANCE, replace)])

    assert refused.value.reason == "stale_context"
