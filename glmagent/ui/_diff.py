"""A unified diff as a user reads it: old and new line numbers in a gutter, changes in colour."""

from __future__ import annotations

import re

from rich.text import Text

from glmagent.ui._console import inert_text

_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")


def diff_lines(diff: str, *, limit: int, indent: str = "", ellipsis: str = "…") -> list[Text]:
    """The diff's hunks with line numbers, at most `limit` lines, then how many more there were.

    File headers (`---`/`+++`) are left out: the action line above names the file.
    """
    rows: list[tuple[int | None, int | None, str, str]] = []  # old number, new number, mark, text
    old = new = 0
    for line in diff.splitlines():
        if line.startswith(("--- ", "+++ ", "diff ", "index ")) and not rows:
            continue
        hunk = _HUNK.match(line)
        if hunk:
            old, new = int(hunk.group(1)), int(hunk.group(2))
            rows.append((None, None, "@", line))
        elif line.startswith("+"):
            rows.append((None, new, "+", line[1:]))
            new += 1
        elif line.startswith("-"):
            rows.append((old, None, "-", line[1:]))
            old += 1
        elif line.startswith("\\"):
            rows.append((None, None, "\\", line))
        else:
            rows.append((old, new, " ", line[1:]))
            old += 1
            new += 1
    numbers = [n for o, w, _, _ in rows for n in (o, w) if n is not None]
    width = len(str(max(numbers, default=0)))
    shown: list[Text] = []
    for old_no, new_no, mark, text in rows[:limit]:
        row = Text(indent)
        if mark in "@\\":
            row.append(" " * (2 * width + 2))
            row.append_text(inert_text(text, "diff.hunk"))
            shown.append(row)
            continue
        gutter = f"{'' if old_no is None else old_no:>{width}} {'' if new_no is None else new_no:>{width}} "
        row.append(gutter, style="diff.lineno")
        style = {"+": "diff.add", "-": "diff.del"}.get(mark, "muted")
        row.append_text(inert_text(f"{mark} {text}", style))
        row.rstrip()  # an empty context line ends at its line numbers
        shown.append(row)
    if len(rows) > limit:
        more = Text(indent)
        more.append(
            f"{ellipsis} {len(rows) - limit} more diff lines (the whole diff is in the audit log)", "muted"
        )
        shown.append(more)
    return shown
