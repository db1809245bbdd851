"""Refuse an edit that puts new Python code where it can never run: after a `return`, `raise`, `continue` or
`break` in the same block.

A small model asked for a missing branch kept the function's final `raise ValueError(...)` as the first
line of its replacement and wrote the new branch below it. The edit parsed and named nothing undefined, so
it was written; the tests failed as before, and the model, told only that, never saw that its branch was
dead. Refused before the write, it is told which line would never run and why.

Only statements the edit makes unreachable count: dead code the file already had is the file's business.
Nothing runs; the file is only parsed. A file that did not parse before, or a non-Python file, is left to
the edit, as `_syntax` and `_names` leave them.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import PurePosixPath

from glmagent.errors import PatchRejected
from glmagent.patching._syntax import PYTHON_SUFFIXES, lines_around

_ENDS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_MAX_LINES = 10_000
"""Longer files are not judged (parsing one costs a few milliseconds per thousand lines)."""
_SHOWN_CHARS = 80


def _short(text: str) -> str:
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


def check_python_reachable(path: str, before: bytes | None, after: bytes) -> None:
    """Raise `PatchRejected(reason="unreachable")` when `after` (the edited bytes of `path`) holds a
    statement that follows a `return`, `raise`, `continue` or `break` in its block and `before` held no
    such statement of that text. A new file (`before` None) is not judged."""
    if before is None or PurePosixPath(path).suffix.lower() not in PYTHON_SUFFIXES:
        return
    if after.count(b"\n") > _MAX_LINES:
        return
    now = _dead_statements(after)
    if not now:
        return
    earlier = _dead_statements(before)
    if earlier is None:
        return  # it did not parse: what was reachable is unknown
    known = Counter(text for text, _line, _end in earlier)
    for text, line, (end_text, end_line) in now:
        if known[text] > 0:
            known[text] -= 1
            continue
        shown, ending = _short(text), _short(end_text)
        same_line = line == end_line
        where = "on the same line" if same_line else f"on line {end_line}"
        semicolon = " (a statement after `;` on an `if` line belongs to that `if`)" if same_line else ""
        raise PatchRejected(
            f"With this diff {path} would hold code that never runs, so it was not applied: `{shown}` "
            f"(line {line}) comes after `{ending}` {where}, in the same block, and the block ends there."
            f"\n{lines_around(after, line)}\n"
            f"Put the new lines before `{ending}` (a new branch goes above the statement that ends the "
            f"block), or inside the branch they belong to{semicolon}.",
            reason="unreachable",
        )


def _dead_statements(source: bytes) -> list[tuple[str, int, tuple[str, int]]] | None:
    """(statement's first line, its line number, (the statement ending its block, that one's line)) of
    each statement that follows a `return`/`raise`/`continue`/`break` in its block; None when the source
    does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    text = source.decode("utf-8", "replace")
    dead: list[tuple[str, int, tuple[str, int]]] = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for i, ending in enumerate(block):
                if isinstance(ending, _ENDS):
                    end = (_first_line(text, ending), ending.lineno)
                    dead += [(_first_line(text, s), s.lineno, end) for s in block[i + 1 :]]
                    break
    return dead


def _first_line(text: str, node: ast.stmt) -> str:
    """The first line of a statement's own text (`return x`, not the `if c: return 0;` it shares a line
    with)."""
    segment = ast.get_source_segment(text, node) or ""
    return segment.splitlines()[0].strip() if segment else ""
