"""Edits that search by the line numbers the prompt shows are read as those lines of the file.

Seen in the live bench: `"search": ["3"], "replace": ["text = str(value).strip()"]` (the fix, refused as
stale three times) and `"search": ["5|     return total // size + 1"]`.
"""

from __future__ import annotations

import pytest

from glmagent.errors import PatchRejected
from glmagent.patching import apply_edits

PORT = b'''def parse_port(value):
    """A TCP port from user input such as " 8080 "."""
    text = value.strip()
    if not text.isdigit():
        raise ValueError(f"not a port: {value!r}")
    return int(text)
'''


def _apply(edits: list[tuple[list[str], list[str]]], content: bytes = PORT) -> tuple[str, list[str]]:
    result = apply_edits("netconf.py", content, edits)
    assert result.content is not None
    return result.content.decode(), [note for hunk in result.hunks for note in hunk.notes]


def test_a_bare_number_is_that_line_and_the_replacement_takes_its_indentation() -> None:
    text, notes = _apply([(["3"], ["text = str(value).strip()"])])

    assert text == PORT.decode().replace("value.strip()", "str(value).strip()", 1)
    assert notes == [
        "edit #1: search lines '3' read as line 3 of the file, the number(s) the prompt shows: search lines "
        "are the file's text, without the numbers and ' | '"
    ]


def test_the_replacement_keeps_its_own_relative_indentation() -> None:
    text, _ = _apply(
        [(["3"], ["if not isinstance(value, str):", "    value = str(value)", "text = value.strip()"])]
    )

    assert (
        "    if not isinstance(value, str):\n        value = str(value)\n    text = value.strip()\n" in text
    )


def test_one_numbered_line_with_its_text_loses_the_number() -> None:
    text, _ = _apply([(["3|     text = value.strip()"], ["3|     text = str(value).strip()"])])

    assert "    text = str(value).strip()\n    if not text.isdigit():" in text


def test_a_number_in_the_replacement_stands_for_the_file_line_unchanged() -> None:
    text, _ = _apply([(["3", "4"], ["3", "    if not text.isdecimal():"])])

    assert "    text = value.strip()\n    if not text.isdecimal():\n" in text


def test_a_line_that_recurs_is_edited_at_the_numbered_place_only() -> None:
    content = b"def f(x):\n    x = clean(x)\n    return x\n\n\ndef g(x):\n    x = clean(x)\n    return x\n"

    text, _ = _apply([(["7"], ["x = clean(x).lower()"])], content)

    assert text == content.decode().replace(
        "def g(x):\n    x = clean(x)", "def g(x):\n    x = clean(x).lower()"
    )


@pytest.mark.parametrize(
    "edit",
    [
        (["3", "5"], ["x = 1"]),  # not consecutive
        (["42"], ["x = 1"]),  # past the end of the file
        (["3|     text = value.lower()"], ["x = 1"]),  # the text is not line 3's
        (["3", "4"], ["", ""]),  # nothing of its own: says nothing about the fix
        (["3", "4"], ["3", "4"]),
    ],
    ids=["gap", "out of range", "other text", "blanks", "numbers only"],
)
def test_edits_the_numbers_do_not_explain_are_refused(edit: tuple[list[str], list[str]]) -> None:
    with pytest.raises(PatchRejected) as refused:
        apply_edits("netconf.py", PORT, [edit])

    assert refused.value.reason == "stale_context"


def test_a_file_of_numbers_is_searched_as_written() -> None:
    content = b"1\n2\n3\n"

    text, notes = _apply([(["3"], ["4"])], content)

    assert text == "1\n2\n4\n" and notes == []
