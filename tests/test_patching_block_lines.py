"""Lines Python reads as a syntax error whose meaning as a block is not in doubt are read as that block.

Seen in the live bench: `for line in text.splitlines() if line.strip():` (csv_blank_lines, in most runs),
`def mean(values): if not values: return 0.0` (stats_empty's first reply in three runs) and
`self._counts[name] -= count; if self._counts[name] <= 0: return False` (inventory_remove), refused as
syntax errors again and again.
"""

from __future__ import annotations

import pytest

from glmagent.errors import PatchRejected
from glmagent.patching import apply_edits

ORDERS = b'''def read_rows(text):
    """(name, quantity) pairs from lines like "apples, 3"."""
    rows = []
    for line in text.splitlines():
        name, quantity = line.split(",")
        rows.append((name.strip(), int(quantity)))
    return rows
'''
LOOP = "    for line in text.splitlines():"


def _fixed(guard: str) -> bytes:
    return ORDERS.replace(
        LOOP.encode() + b"\n", f"{LOOP}\n        if {guard}:\n            continue\n".encode()
    )


def _notes(edits: list[tuple[list[str], list[str]]]) -> list[str]:
    return [note for hunk in apply_edits("orders.py", ORDERS, edits).hunks for note in hunk.notes]


@pytest.mark.parametrize(
    ("header", "guard"),
    [
        ("    for line in text.splitlines() if line.strip():", "not line.strip()"),
        ("    for line in text.splitlines() if line.strip()", "not line.strip()"),  # no colon either
        ("for line in text.splitlines() if line.strip():", "not line.strip()"),  # indentation to the file's
        ("    for line in text.splitlines() if line.strip() != '':", "line.strip() == ''"),
        ("    for line in text.splitlines() if not line.isspace():", "line.isspace()"),
        ("    for line in text.splitlines() if line and ',' in line:", "not (line and ',' in line)"),
        ("    for line in text.splitlines() if len(line) > 0:  # skip blanks", "len(line) <= 0"),
    ],
    ids=["colon", "no colon", "unindented", "compare", "not", "and", "comment"],
)
def test_the_header_becomes_a_loop_that_skips_what_the_filter_leaves_out(header: str, guard: str) -> None:
    search = LOOP if header.startswith(" ") else LOOP.strip()  # both sides as indented as each other

    result = apply_edits("orders.py", ORDERS, [([search], [header])])

    assert result.content == _fixed(guard)
    notes = [note for hunk in result.hunks for note in hunk.notes]
    assert f"edit #1: `{header.strip()}` is not Python; read as `for line in text.splitlines():`" in notes[0]


def test_a_body_written_in_the_edit_gives_the_indentation() -> None:
    source = b"def doubled(xs):\n  out = []\n  for x in xs:\n    out.append(x)\n  return out\n"
    edit = (["  for x in xs:", "    out.append(x)"], ["  for x in xs if x:", "    out.append(x * 2)"])

    result = apply_edits("m.py", source, [edit])

    assert result.content == source.replace(
        b"  for x in xs:\n    out.append(x)\n",
        b"  for x in xs:\n    if not x:\n      continue\n    out.append(x * 2)\n",
    )


def test_an_async_loop_keeps_its_async() -> None:
    source = (
        b"async def total(rows):\n    n = 0\n    async for row in rows:\n        n += row\n    return n\n"
    )

    result = apply_edits(
        "m.py", source, [(["    async for row in rows:"], ["    async for row in rows if row is not None:"])]
    )

    assert result.content == source.replace(
        b"    async for row in rows:\n",
        b"    async for row in rows:\n        if row is None:\n            continue\n",
    )


@pytest.mark.parametrize(
    "replace",
    [
        # two filters, or a filter that is no expression: the meaning is not one loop's
        ["    for line in text.splitlines() if line if line.strip():"],
        ["    for line in text.splitlines() if:"],
        # the header is fine, the rest of the edit is not: the edit as written is refused
        ["    for line in text.splitlines() if line.strip():", "        name, quantity = (line.split(','"],
    ],
    ids=["two filters", "no filter", "another error"],
)
def test_other_broken_headers_are_still_refused_as_written(replace: list[str]) -> None:
    search = [LOOP] if len(replace) == 1 else [LOOP, '        name, quantity = line.split(",")']

    with pytest.raises(PatchRejected) as refused:
        apply_edits("orders.py", ORDERS, [(search, replace)])

    assert refused.value.reason == "syntax_error"
    assert replace[0].strip() in str(refused.value)  # the lines the model sent, not the second reading


def test_a_conditional_iterable_is_no_filter_and_is_left_as_written() -> None:
    header = "    for line in (text.splitlines() if text else []):"

    result = apply_edits("orders.py", ORDERS, [([LOOP], [header])])

    assert result.content == ORDERS.replace(LOOP.encode(), header.encode())
    assert _notes([([LOOP], [header])]) == []


def test_other_files_and_files_that_did_not_parse_are_not_read_so() -> None:
    broken = ORDERS.replace(b"def read_rows(text):", b"def read_rows(text:")
    header = "    for line in text.splitlines() if line.strip():"

    result = apply_edits("orders.py", broken, [([LOOP], [header])])  # left to the edit: it did not parse
    assert result.content == broken.replace(LOOP.encode(), header.encode())
    text = apply_edits("notes.txt", ORDERS, [([LOOP], [header])])
    assert text.content == ORDERS.replace(LOOP.encode(), header.encode())


STATS = b'''def mean(values):
    """The arithmetic mean of values,
    or 0.0 for no values."""
    return sum(values) / len(values)


def spread(values):
    return max(values) - min(values)
'''


def test_a_guard_joined_to_a_def_line_goes_after_the_docstring() -> None:
    header = "def mean(values): if not values: return 0.0"

    result = apply_edits("stats.py", STATS, [(["def mean(values):"], [header])])

    assert result.content == STATS.replace(b'values."""\n', b'values."""\n    if not values: return 0.0\n')
    notes = [note for hunk in result.hunks for note in hunk.notes]
    assert notes == [
        f"edit #1: `{header}` is not Python; read as `def mean(values):` with `if not values: return 0.0` "
        "as the first line of its body"
    ]


@pytest.mark.parametrize(
    ("search", "replace", "expected"),
    [
        (  # no docstring: the first line of the body
            ["def spread(values):"],
            ["def spread(values): if not values: return 0"],
            b"def spread(values):\n    if not values: return 0\n    return max",
        ),
        (  # a method, and a loop as the statement
            ["    def total(self):"],
            ["    def total(self): for item in self.items: self.check(item)"],
            b"    def total(self):\n        for item in self.items: self.check(item)\n        return sum",
        ),
        (  # an if header with an if joined to it
            ["    if values:"],
            ["    if values: if None in values: raise ValueError('a missing value')"],
            b"    if values:\n        if None in values: raise ValueError('a missing value')\n        return",
        ),
    ],
    ids=["no docstring", "method", "if"],
)
def test_a_compound_statement_joined_to_a_header_starts_its_body(
    search: list[str], replace: list[str], expected: bytes
) -> None:
    source = STATS + b"\n\nclass Cart:\n    def total(self):\n        return sum(self.items)\n"
    source += b"\n\ndef first(values):\n    if values:\n        return values[0]\n"

    result = apply_edits("stats.py", source, [(search, replace)])

    assert result.content is not None and expected in result.content


@pytest.mark.parametrize(
    "replace",
    [
        "def mean(values): if not values:",  # the joined statement needs a body of its own
        "def mean(values): if not values: return 0.0 else: return 1",  # not one statement
    ],
    ids=["header joined to header", "not a statement"],
)
def test_joined_lines_that_are_no_block_stay_refused(replace: str) -> None:
    with pytest.raises(PatchRejected) as refused:
        apply_edits("stats.py", STATS, [(["def mean(values):"], [replace])])

    assert refused.value.reason == "syntax_error"


INVENTORY = b"""class Inventory:
    def remove(self, name, count=1):
        self._counts[name] -= count
        if self._counts[name] <= 0:
            del self._counts[name]
"""


def test_a_compound_statement_after_a_semicolon_goes_on_a_line_of_its_own() -> None:
    joined = "self._counts[name] -= count; if self._counts[name] < 0: raise ValueError(name)"

    result = apply_edits("inventory.py", INVENTORY, [(["self._counts[name] -= count"], [joined])])

    assert result.content == INVENTORY.replace(
        b"count\n", b"count\n        if self._counts[name] < 0: raise ValueError(name)\n", 1
    )
    notes = [note for hunk in result.hunks for note in hunk.notes]
    assert notes[0] == (
        f"edit #1: `{joined}` is not Python; read as `self._counts[name] -= count` and "
        "`if self._counts[name] < 0: raise ValueError(name)` on two lines"
    )


def test_a_simple_statement_joined_to_a_header_with_its_old_body_under_it_stays_refused() -> None:
    # `return False` added before the `del`, or instead of it? Not said: refused, not guessed.
    header = "        if self._counts[name] <= 0:"

    with pytest.raises(PatchRejected) as refused:
        apply_edits("inventory.py", INVENTORY, [([header], [f"{header} return False"])])

    assert refused.value.reason == "syntax_error"
