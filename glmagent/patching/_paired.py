"""An edit whose search lines are lines of the file with lines left out between them, read line by line.

Small models list the lines they mean to change and skip the ones they do not (a docstring between a `def`
and its body): `"search": ["def word_counts(text):", "    counts = {}", "    for word in text.split():"]`
with the same three lines, one changed, as `replace`. In the live bench (word_case, temperature_formula)
that edit was the fix, refused as stale because the lines are not consecutive. When search and replace have
the same number of lines, and every search line is exactly one line of the file (indentation aside), in
order, close together (at most `_MAX_LEFT_OUT` lines left out in all), the edit is read as each of those
lines replaced by its replace line, the lines between kept. Only then: lines that recur, lie far apart or
come out of order, or a replacement of another length (lines added or removed: where they go is unclear),
are left to be refused with the lines the file has. Search lines copied with the prompt's line numbers
(`3 | def to_fahrenheit(celsius):`, every line numbered) are read without them. The note names the
reading, so the model learns that search lines are consecutive lines.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

from glmagent.patching._indent import leading_ws

_MAX_LEFT_OUT = 6
"""File lines left out between the search lines, in all, at most: further apart, they are not one place."""
_GUTTER = re.compile(r"^\s*\d+\s*\|(?: ?(.*))?$")


class PairedEdit(NamedTuple):
    """An edit read line by line: the file's lines from the first search line to the last, those lines
    with the listed ones replaced, and the note to give."""

    search: list[str]
    replace: list[str]
    note: str


def _without_gutter(lines: Sequence[str]) -> list[str]:
    """The lines without the prompt's line numbers when every one carries them, else as they are."""
    matches = [_GUTTER.match(line) for line in lines]
    if all(m is not None for m in matches):
        return [m.group(1) or "" for m in matches if m is not None]
    return list(lines)


def read_as_paired_lines(
    search: Sequence[str], replace: Sequence[str], file_lines: Sequence[str]
) -> PairedEdit | None:
    """The edit read line by line over the file lines its search lines are, or None (see the module
    docstring)."""
    if len(search) < 2 or len(search) != len(replace):
        return None
    search, replace = _without_gutter(search), _without_gutter(replace)
    wanted = [line.strip() for line in search]
    if not all(wanted):
        return None
    counts = Counter(line.strip() for line in file_lines)
    if any(counts[key] != 1 for key in wanted):
        return None
    where = {line.strip(): number for number, line in enumerate(file_lines) if counts[line.strip()] == 1}
    at = [where[key] for key in wanted]
    if any(b <= a for a, b in pairwise(at)):
        return None
    first, last = at[0], at[-1]
    left_out = last - first + 1 - len(at)
    if left_out == 0 or left_out > _MAX_LEFT_OUT:
        return None  # consecutive: the edit is judged as written
    block = list(file_lines[first : last + 1])
    changed = list(block)
    for number, old, new in zip(at, search, replace, strict=True):
        if new.strip() == old.strip():
            continue
        line = file_lines[number]
        ours = leading_ws(old)
        extra = leading_ws(new)[len(ours) :] if new.startswith(ours) else ""
        changed[number - first] = leading_ws(line) + extra + new.strip()
    if changed == block:
        return None
    skipped = [n + 1 for n in range(first, last + 1) if n not in at]
    plural = "s" if len(skipped) > 1 else ""
    note = (
        f"search lines are lines {', '.join(str(n + 1) for n in at)} of the file, with line{plural} "
        f"{', '.join(map(str, skipped))} left out between them: read as each replaced by its replace line, "
        "the lines between kept (search lines are consecutive lines of the file)"
    )
    return PairedEdit(block, changed, note)
