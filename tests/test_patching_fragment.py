"""An edit whose one search line is part of a line of the file is read as a change of that line.

Seen in the live bench: `"search": ["if best is None or entry.amount > best.amount"]`, the line without its
`:`, and the changed condition as `replace` (ledger_none), refused as stale.
"""

from __future__ import annotations

import pytest

from glmagent.errors import PatchRejected
from glmagent.patching import apply_edits

LEDGER = b'''def largest(entries):
    """The entry with the largest amount."""
    best = None
    for entry in entries:
        if best is None or entry.amount > best.amount:
            best = entry
    return best
'''
CONDITION = "if best is None or entry.amount > best.amount"


def test_a_part_of_one_line_is_replaced_within_that_line() -> None:
    result = apply_edits(
        "ledger.py", LEDGER, [([CONDITION], ["if entry.amount is not None and (best is None)"])]
    )

    assert result.content is not None
    assert (
        b"        if entry.amount is not None and (best is None):\n            best = entry\n"
        in result.content
    )
    notes = [note for hunk in result.hunks for note in hunk.notes]
    assert notes[0].startswith(f"edit #1: search line {CONDITION!r} is part of line 5, read as that line")


@pytest.mark.parametrize(
    "edit",
    [
        (["best.amount"], ["best.value"]),  # too short to mean one place
        (["best = entry and best"], ["x"]),  # in no line
        ([CONDITION, "    best = entry"], ["x", "y"]),  # more than one line: a block, judged as one
        ([CONDITION], ["x", "y"]),
    ],
    ids=["short", "nowhere", "two search lines", "two replace lines"],
)
def test_parts_that_do_not_name_one_place_are_refused(edit: tuple[list[str], list[str]]) -> None:
    with pytest.raises(PatchRejected) as refused:
        apply_edits("ledger.py", LEDGER, [edit])

    assert refused.value.reason == "stale_context"


def test_a_part_found_in_two_lines_is_refused() -> None:
    content = b"a = compute(total, rate)\nb = compute(total, rate) + 1\n"

    with pytest.raises(PatchRejected) as refused:
        apply_edits("calc.py", content, [(["compute(total, rate)"], ["compute(total, rate=rate)"])])

    assert refused.value.reason == "stale_context"


def test_the_changed_line_is_still_checked_like_any_edit() -> None:
    # The replacement carries the `:` the part left out: the line would read `...::`, which does not parse.
    with pytest.raises(PatchRejected) as refused:
        apply_edits("ledger.py", LEDGER, [([CONDITION], ["if best is None or entry.amount is None:"])])

    assert refused.value.reason == "syntax_error"


def test_a_whole_line_is_judged_as_written() -> None:
    result = apply_edits("ledger.py", LEDGER, [(["best = None"], ["best = entries[0] if entries else None"])])

    assert result.content is not None and b"    best = entries[0] if entries else None\n" in result.content
    assert not [note for hunk in result.hunks for note in hunk.notes if "part of line" in note]


PAGING = b"""def page_count(total, size):
    if size <= 0:
        raise ValueError("size must be positive")
    return total // size - 1
"""


@pytest.mark.parametrize(
    "edit",
    [
        (["return total // size"], ["return total // size - 1"]),  # the live bench's: a suffix added again
        (["total // size - 1"], ["return total // size - 1"]),  # a prefix added again
    ],
    ids=["suffix", "prefix"],
)
def test_a_part_whose_line_already_reads_as_the_replacement_is_not_changed_twice(
    edit: tuple[list[str], list[str]],
) -> None:
    # Read as a part, the first would make the line `return total // size - 1 - 1`.
    with pytest.raises(PatchRejected) as refused:
        apply_edits("paging.py", PAGING, [edit])

    assert refused.value.reason == "already_applied"


def test_a_part_extended_where_the_line_does_not_yet_read_so_is_changed() -> None:
    result = apply_edits("paging.py", PAGING, [(["return total // size"], ["return -(-total // size)"])])

    assert result.content is not None and b"    return -(-total // size) - 1\n" in result.content


SETTINGS = b'DEFAULTS = {\n    "host": "localhost",\n    "timeout": 3,\n    "total_count": 10,\n}\n'


def test_a_shorter_part_holding_more_than_names_is_read_as_part_of_its_line() -> None:
    # The live bench's model, writing `"timeout": 3,` in JSON, dropped the quote that opens it.
    result = apply_edits("settings.py", SETTINGS, [(['    timeout": 3'], ['    timeout": 30'])])

    assert result.content == SETTINGS.replace(b'"timeout": 3,', b'"timeout": 30,')


@pytest.mark.parametrize(
    "edit",
    [
        (['count": 10'], ['count": 20']),  # starts inside the name total_count
        (['"total_count": 1'], ['"total_count": 2']),  # ends inside the number 10: it would read 20
        (["timeout"], ["timeout = 30"]),  # a name alone, shorter than 12
    ],
    ids=["inside a name", "inside a number", "a name"],
)
def test_a_part_that_cuts_a_name_or_number_or_is_a_short_name_is_refused(
    edit: tuple[list[str], list[str]],
) -> None:
    with pytest.raises(PatchRejected) as refused:
        apply_edits("settings.py", SETTINGS, [edit])

    assert refused.value.reason == "stale_context"
