"""An edit whose search lines are the line numbers the prompt shows, read as those lines of the file.

The prompt numbers every file it shows (` 3 |     text = value.strip()`), and a small model sometimes
searches by the number: `"search": ["3"], "replace": ["text = str(value).strip()"]`, or
`["5|     return x"]` for one line (two or more numbered lines with their text are read by
`_parse.without_line_numbers`). In the live bench's port_int task that edit was the fix, refused as stale.
When every search line is such a number (bare, or with the line's own text after it) and the numbers run
consecutively within the file, the edit is read as replacing those lines. Only as a second reading: a search
line that is a line of the file (a file of numbers) is searched for as written, and an edit whose
replacement holds no line of the model's own (nothing but numbers or blanks) is left to be refused, since
it says nothing about the fix.

Replace lines that are bare numbers in the searched range stand for those file lines unchanged; numbered
ones lose their number. The model's own lines are indented as the first searched line is, keeping their
relative indentation (it wrote them without knowing the file's). Where the numbered lines occur elsewhere
in the file too, their neighbours are added on both sides so that the edit matches at the numbered place
only. The note names the reading, so the model learns the form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

_NUMBER = re.compile(r"^\s*(\d+)\s*(?:\|(?: ?(.*))?)?$")
"""A line number as the prompt shows it, alone (`3`, `3|`) or before the line's text (`3 |     x = 1`)."""
_WIDEN = 6
"""Neighbouring lines added, at most, to make the numbered lines a place the edit matches only once."""


class NumberedEdit(NamedTuple):
    """An edit read by its line numbers: the file's lines there, what replaces them, the note to give."""

    search: list[str]
    replace: list[str]
    note: str


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def read_by_line_numbers(
    search: Sequence[str], replace: Sequence[str], file_lines: Sequence[str], file_keys: set[str]
) -> NumberedEdit | None:
    """The edit read by the line numbers it searches by, or None when it does not search by them (see
    the module docstring); `file_keys` are `_items.line_keys(file_lines)`."""
    if not search or not file_lines or all(line.strip() in file_keys for line in search):
        return None
    numbers: list[int] = []
    with_text = 0
    for line in search:
        match = _NUMBER.match(line)
        if match is None:
            return None
        number, text = int(match.group(1)), (match.group(2) or "").strip()
        if not 1 <= number <= len(file_lines):
            return None
        if text and text != file_lines[number - 1].strip():
            return None
        numbers.append(number)
        with_text += bool(text)
    if with_text >= 2:
        return None  # numbered lines with their text: `_parse.without_line_numbers` reads those
    first, last = numbers[0], numbers[-1]
    if numbers != list(range(first, last + 1)):
        return None
    searched = list(file_lines[first - 1 : last])
    own: list[int] = []  # positions of the model's own lines in the replacement
    lines: list[str] = []
    for item in replace:
        match = _NUMBER.match(item)
        if match is not None and first <= int(match.group(1)) <= last:
            kept = file_lines[int(match.group(1)) - 1]
            text = match.group(2)
            if text is None or not text.strip() or text.strip() == kept.strip():
                lines.append(kept)  # the file's line, unchanged
                continue
            item = text
        lines.append(item)
        if item.strip():
            own.append(len(lines) - 1)
    if not own:
        return None
    lines = _reindented(lines, own, _indent(next((s for s in searched if s.strip()), "")))
    unique = _unique_span(file_lines, first - 1, last)
    if unique is None:
        return None
    start, end = unique  # the numbered lines, with the file's neighbours as context where they recur
    before, after = list(file_lines[start : first - 1]), list(file_lines[last:end])
    searched, lines = before + searched + after, before + lines + after
    span = f"line {first}" if first == last else f"lines {first}-{last}"
    note = (
        f"search lines {', '.join(repr(s) for s in search)} read as {span} of the file, the number(s) the "
        "prompt shows: search lines are the file's text, without the numbers and ' | '"
    )
    return NumberedEdit(searched, lines, note)


def _unique_span(lines: Sequence[str], start: int, end: int) -> tuple[int, int] | None:
    """`lines[start:end]` widened by neighbouring lines (before first, then after) until it occurs once in
    `lines`: the number named one place, and the edit must match only there. None past `_WIDEN` lines."""
    for _ in range(_WIDEN + 1):
        block = list(lines[start:end])
        width = len(block)
        if sum(1 for i in range(len(lines) - width + 1) if list(lines[i : i + width]) == block) == 1:
            return start, end
        if start > 0:
            start -= 1
        elif end < len(lines):
            end += 1
        else:
            return None
    return None


def _reindented(lines: list[str], own: list[int], base: str) -> list[str]:
    """`lines` with the model's own lines (positions `own`) shifted so the first starts at `base`, their
    relative indentation kept; unchanged when one is less indented than the first."""
    start = _indent(lines[own[0]])
    if start == base:
        return lines
    if not all(lines[i].startswith(start) for i in own):
        return lines  # a line less indented than the first: shifting them would be a guess
    out = list(lines)
    for i in own:
        out[i] = base + lines[i][len(start) :]
    return out
