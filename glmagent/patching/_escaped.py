"""Edits of a Python file whose line breaks came escaped twice: `def f(x):\\n    return x` as one line.

Asked for a file's text inside a JSON string, a small model now and then escapes it once more: the string
decodes to one long line holding `\\n` (and `\\"`) where the lines and quotes should be. In the live bench's
audit logs 5 of 1,224 edits came so (`content` of rename_price's two files, progress_clamp, grades_branch),
each refused as a syntax error or as "other content". Read again with those escapes as the characters they
stand for, but only as a second reading: when the edit as written is refused, when some one-line item holds
at least `MIN_BREAKS` escaped breaks and no real one, and when the reading then applies and passes every
Python check (a line such as `return "\\n".join(lines)` is never decoded into a broken one and kept).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

MIN_BREAKS = 2
"""Escaped line breaks a one-line item must hold to be read again (one is often a string's own `\\n`)."""

NOTE = 'read with its escaped line breaks (\\n) and quotes (\\") as the lines and quotes they stand for'

_ESCAPE = re.compile(r"\\(.)")
_MEANING = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\"}


def _unescaped(item: str) -> str | None:
    """The item with its escapes decoded, when it is one line holding at least `MIN_BREAKS` `\\n`."""
    if "\n" in item.rstrip("\n") or item.count("\\n") < MIN_BREAKS:
        return None
    return _ESCAPE.sub(lambda m: _MEANING.get(m.group(1), m.group(0)), item)


def read_escaped_breaks(
    path: str, edits: Sequence[tuple[Sequence[str], Sequence[str]]]
) -> list[tuple[list[str], list[str]]] | None:
    """`edits` with every such item decoded (an item holding line breaks counts as those lines); None for a
    file that is not Python or when no item is such."""
    if not path.endswith((".py", ".pyi")):
        return None
    read: list[tuple[list[str], list[str]]] = []
    found = False
    for search, replace in edits:
        sides: list[list[str]] = []
        for side in (search, replace):
            decoded = [_unescaped(item) for item in side]
            found = found or any(d is not None for d in decoded)
            sides.append([d if d is not None else item for item, d in zip(side, decoded, strict=True)])
        read.append((sides[0], sides[1]))
    return read if found else None
