"""An edit whose one search line is part of one line of the file, read as a change of that line.

Small models treat `search`/`replace` like `str.replace`: the live bench's model sent
`"search": ["if best is None or entry.amount > best.amount"]` (the line without its `:`) with the changed
condition as `replace`, and it was refused as stale. When the edit is one search line and one replace
line, the search line (stripped) is not a whole line of the file but occurs exactly once in it, inside one
line, is long enough to mean something (12 characters, or 8 when it holds more than names: `timeout": 3`,
the quote opening `"timeout": 3,` dropped) and neither starts nor ends inside a name or number of that
line (`count": 10` inside `"total_count": 10,`), the edit is read as that line with the part replaced. Only as
a second reading, after the edit did not match as written; a part that occurs twice, or in no line, is
left to be refused. The note names the reading, so the model learns that search lines are whole lines.

A line that already reads as the replacement there is not changed again: the live bench's model, shown
`return total // size - 1`, sent `return total // size` -> `return total // size - 1` (the change it had
made an iteration before), and reading it as a part made the line `return total // size - 1 - 1`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

_SHORTEST = 12
"""Characters (outside the line's indentation) a part must have: a name alone recurs, or means little."""
_SHORTEST_WITH_SIGNS = 8
"""... or, holding more than names (an operator, a quote, a bracket), this many: `timeout": 3` (the live
bench's model dropped the quote that opens `"timeout": 3,`)."""


_NAMES = re.compile(r"[\w. ]+")
"""A part of names, dots and blanks only."""


def _cuts_a_word(line: str, at: int, char: str, after: bool = False) -> bool:
    """Whether the part's first character (at `at`), or with `after` its last one, continues a name or
    number of the line across the part's edge."""
    beside = at + 1 if after else at - 1
    return (
        0 <= beside < len(line)
        and (char.isalnum() or char == "_")
        and (line[beside].isalnum() or line[beside] == "_")
    )


class FragmentEdit(NamedTuple):
    """An edit read as a change inside one line: that line, the line changed, the note to give."""

    search: list[str]
    replace: list[str]
    note: str


def read_as_part_of_a_line(
    search: Sequence[str], replace: Sequence[str], file_lines: Sequence[str], file_keys: set[str]
) -> FragmentEdit | None:
    """The edit read as a change inside the one line its search line is part of, or None (see the
    module docstring); `file_keys` are `_items.line_keys(file_lines)`."""
    if len(search) != 1 or len(replace) != 1:
        return None
    part, new_part = search[0].strip(), replace[0].strip()
    shortest = _SHORTEST if _NAMES.fullmatch(part) else _SHORTEST_WITH_SIGNS
    if len(part) < shortest or not new_part or part == new_part:
        return None
    if part in file_keys:
        return None  # a whole line: the edit is judged as written
    found = [(i, line) for i, line in enumerate(file_lines) if part in line]
    if len(found) != 1 or found[0][1].count(part) != 1:
        return None
    number, line = found[0]
    at = line.index(part)
    end = at + len(part)
    if _cuts_a_word(line, at, part[0]) or _cuts_a_word(line, end - 1, part[-1], after=True):
        return None  # `n = 1` inside `n = 10`: a part that starts or ends inside a name or number
    if line.startswith(new_part, at) or line.endswith(new_part, 0, at + len(part)):
        return None  # the line holds the replacement where the part is: already made, not to be made twice
    changed = line.replace(part, new_part, 1)
    note = (
        f"search line {search[0]!r} is part of line {number + 1}, read as that line with the part replaced: "
        "search and replace lines are whole lines of the file"
    )
    return FragmentEdit([line], [changed], note)
