"""An edit whose search lines are lines of the file with lines left out between them, read line by line.

Small models list the lines they mean to change and skip the ones they do not (a docstring between a `def`
and its body): `"search": ["def word_counts(text):", "    counts = {}", "    for word in text.split():"]`
with the same three lines, one changed, as `replace`. In the live bench (word_case, temperature_formula)
that edit was the fix, refused as stale because the lines are not consecutive. When search and replace have
the same number of lines, and every search line is exactly one line of the file (indentation aside), in
order, close together (at most `_MAX_LEFT_OUT` lines left out in all; a line that recurs in the file counts
when only one choice of lines fits), the edit is read as each of those
lines replaced by its replace line, the lines between kept. Lines added or removed are read too, where
their place is not in doubt (`_read_with_lines_added`): the live bench's model listed `def balance(entries):`
and three body lines without the docstring, and added a line between two of them that are neighbours in
the file. Lines that recur, lie far apart or come out of order, or added lines whose place is unclear, are
left to be refused with the lines the file has. Search lines copied with the prompt's line numbers
(`3 | def to_fahrenheit(celsius):`, every line numbered) are read without them. The note names the
reading, so the model learns that search lines are consecutive lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import NamedTuple

from glmagent.patching._indent import derive_indent_map, leading_ws

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
    if len(search) < 2 or not replace:
        return None
    search, replace = _without_gutter(search), _without_gutter(replace)
    wanted = [line.strip() for line in search]
    if not all(wanted):
        return None
    at = _one_placement(wanted, [line.strip() for line in file_lines])
    if at is None:
        return None
    first, last = at[0], at[-1]
    if last - first + 1 == len(at):
        return None  # consecutive: the edit is judged as written
    block = list(file_lines[first : last + 1])
    if len(search) != len(replace):
        return _read_with_lines_added(search, replace, block, at)
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
    return PairedEdit(block, changed, _note(at, "each replaced by its replace line"))


def _one_placement(wanted: Sequence[str], keys: Sequence[str]) -> list[int] | None:
    """The file lines the search lines are, in order and with at most `_MAX_LEFT_OUT` lines left out
    between them, when exactly one choice of lines fits (a line that recurs in the file is placed by its
    neighbours); None when none or several do."""
    where: dict[str, list[int]] = {}
    for number, key in enumerate(keys):
        where.setdefault(key, []).append(number)
    found: list[list[int]] = []

    def extend(chosen: list[int]) -> None:
        if len(found) > 1:
            return
        if len(chosen) == len(wanted):
            found.append(list(chosen))
            return
        for number in where.get(wanted[len(chosen)], ()):
            if chosen and number <= chosen[-1]:
                continue
            if chosen and number - chosen[0] + 1 - (len(chosen) + 1) > _MAX_LEFT_OUT:
                break  # positions only grow from here
            chosen.append(number)
            extend(chosen)
            chosen.pop()

    extend([])
    return found[0] if len(found) == 1 else None


def _note(at: Sequence[int], reading: str) -> str:
    skipped = [n + 1 for n in range(at[0], at[-1] + 1) if n not in at]
    plural = "s" if len(skipped) > 1 else ""
    return (
        f"search lines are lines {', '.join(str(n + 1) for n in at)} of the file, with line{plural} "
        f"{', '.join(map(str, skipped))} left out between them: read as {reading}, the lines between kept "
        "(search lines are consecutive lines of the file)"
    )


def _read_with_lines_added(
    search: Sequence[str], replace: Sequence[str], block: list[str], at: Sequence[int]
) -> PairedEdit | None:
    """Search lines found at `at` (in order, some left out between), replace lines of another count: read
    when every line the replacement adds or changes has one place. Search and replace are lined up (by their
    text, indentation aside); each run of search lines replaced, and each place lines go in, must lie between
    lines that are neighbours in the file, or before the first or after the last: lines added where the
    file has lines the edit left out could go before those lines or after them. Listed lines that go are
    taken out wherever they are. The added lines take the file's indentation as the listed lines map to it.
    `block` is the file's lines from the first listed line to the last."""
    first = at[0]
    indent = derive_indent_map(list(zip(search, (block[n - first] for n in at), strict=True)))
    if indent is None:
        return None  # the listed lines' indentation does not map to the file's in one way
    keys = [line.strip() for line in search]
    changed = list(block)
    # Worked from the end, so that the positions of what comes before stay valid.
    matcher = SequenceMatcher(None, keys, [line.strip() for line in replace], autojunk=False)
    for tag, i1, i2, j1, j2 in reversed(matcher.get_opcodes()):
        if tag == "equal":
            continue
        added = [indent.apply(line) for line in replace[j1:j2]]
        if any(line is None for line in added):
            return None
        if tag == "delete":
            for i in reversed(range(i1, i2)):
                del changed[at[i] - first]
            continue
        if tag == "insert":
            if 0 < i1 < len(at) and at[i1] - at[i1 - 1] != 1:
                return None  # between two listed lines with file lines between them: before those, or after?
            where = at[i1] - first if i1 < len(at) else at[-1] - first + 1
            changed[where:where] = added  # type: ignore[assignment]
            continue
        if any(at[i + 1] - at[i] != 1 for i in range(i1, i2 - 1)):
            return None  # the lines replaced have file lines between them: where the new ones go is unclear
        changed[at[i1] - first : at[i2 - 1] - first + 1] = added  # type: ignore[assignment]
    if changed == block:
        return None
    return PairedEdit(
        block, changed, _note(at, "the lines they list changed as the replace lines change them")
    )
