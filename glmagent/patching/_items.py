"""The lines of an edit given as lists of strings (`apply_edits`), and the one repair that form needs.

A model that writes a line's `"` bare inside a JSON string ends the string there; a server enforcing the
schema while the model writes then reads what follows as the list's next item. `line.split(", ")` comes
back as two items, `line.split(` and `)`: the `", "` between them was the separator. Pieces are joined
again only where the joined line is one of the file's lines and the first piece alone is not (on the
replace side also where the same pieces were joined on the search side), so lines the model meant to be
separate stay separate.
"""

from __future__ import annotations

from collections.abc import Sequence

_SEPARATORS = ('", "', '","')
"""How a bare `"`, the JSON separator and the next item's opening `"` read: with and without a space."""
_MOST_PIECES = 6
"""Pieces one line may have been cut into (`f("a", "b", "c")` is four)."""


def _key(line: str) -> str:
    return line.strip()


def item_lines(item: str) -> list[str]:
    """The lines one item stands for: a line break inside it separates two, one at its end only ends it
    (models write `"    rows = []\\n"` as often as `"    rows = []"`)."""
    body = item[:-1] if item.endswith("\n") else item
    return [line.removesuffix("\r") for line in body.split("\n")]


def _rejoined(
    items: Sequence[str], file_keys: set[str], mirrored: dict[tuple[str, str], int]
) -> tuple[list[str], list[int], dict[tuple[str, str], int]]:
    """`items` with the pieces of cut lines joined; the positions (1-based) of the joined items, and how
    many pieces each (first piece, separator) joined. A cut may fall in an item of several lines: its last
    line is then the first piece, and the first line of the item that ends the cut the last."""
    out: list[str] = []
    joined_at: list[int] = []
    used: dict[tuple[str, str], int] = {}
    i = 0
    while i < len(items):
        before, _, first = items[i].rstrip("\n").rpartition("\n")
        join = None
        if _key(first) not in file_keys:
            join = _join_from(items, i, first, file_keys, mirrored)
        if join is None:
            out.append(items[i])
            i += 1
            continue
        line, count, separator = join
        out.append(f"{before}\n{line}" if before else line)
        joined_at.append(i + 1)
        used[_key(first), separator] = count
        i += count
    return out, joined_at, used


def _join_from(
    items: Sequence[str], i: int, first: str, file_keys: set[str], mirrored: dict[tuple[str, str], int]
) -> tuple[str, int, str] | None:
    for separator in _SEPARATORS:
        wanted = mirrored.get((_key(first), separator))
        for count in range(2, min(_MOST_PIECES, len(items) - i) + 1):
            middle = [piece.rstrip("\n") for piece in items[i + 1 : i + count - 1]]
            if any("\n" in piece for piece in middle):
                break
            last, newline, after = items[i + count - 1].partition("\n")
            line = separator.join([first, *middle, last])
            if count == wanted or _key(line) in file_keys:
                return line + newline + after, count, separator
    return None


def line_keys(lines: Sequence[str]) -> set[str]:
    """What `edit_lines` compares items with: the file's lines without their indentation."""
    return {_key(line) for line in lines}


def edit_lines(
    search: Sequence[str], replace: Sequence[str], file_keys: set[str]
) -> tuple[list[str], list[str], str | None]:
    """The search and replace lines of one edit, with lines cut at a bare `"` joined again (`file_keys`:
    `line_keys` of the file), and a note saying which were (None when none was)."""
    search_items, search_joins, used = _rejoined(search, file_keys, {})
    replace_items, replace_joins, _ = _rejoined(replace, file_keys, used)
    note = None
    if search_joins or replace_joins:
        where = [f"search item {n}" for n in search_joins] + [f"replace item {n}" for n in replace_joins]
        note = (
            f'read {", ".join(where)} together with the item(s) after it as one line of the file: a `"` '
            'written bare inside a JSON string ends it (write it \\")'
        )
    search_lines = [line for item in search_items for line in item_lines(item)]
    replace_lines = [line for item in replace_items for line in item_lines(item)]
    return search_lines, replace_lines, note
