"""Refuse an edit that would leave a Python file unparseable when it parsed before.

A small model's most common broken edit is structural: an `elif` under a `raise`, a block left without its
body, indentation one level off. Written to disk, it fails every test at import and is undone only after a
test run, and the model is left believing its lines are in the file. Refused before the write, the model
is told at once what the result would be and where it breaks, as with any other refused diff.

Only parsing happens (`ast` mode of `compile`): nothing in the file runs. A file that did not parse before
the diff is left to the diff (the task may be to fix it); so is one that the running Python cannot judge
(too deeply nested, or text that is not UTF-8).
"""

from __future__ import annotations

import ast
import sys
from pathlib import PurePosixPath

from glmagent.errors import PatchRejected

PYTHON_SUFFIXES = frozenset({".py", ".pyi", ".pyw"})
_SHOW_AROUND = 3
"""Lines shown on each side of the line the parser stopped at."""


def check_python_syntax(path: str, before: bytes | None, after: bytes) -> None:
    """Raise `PatchRejected(reason="syntax_error")` when `after` (the edited bytes of `path`) is not valid
    Python and `before` (None for a new file) was, naming the line and showing the result around it.
    Bytes, so that the parser reads them as Python would: a BOM or a coding declaration is honoured."""
    if PurePosixPath(path).suffix.lower() not in PYTHON_SUFFIXES:
        return
    if before is not None and _syntax_error(path, before) is not None:
        return
    error = _syntax_error(path, after)
    if error is None:
        return
    line = error.lineno or 0
    what = error.msg or "invalid syntax"
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    where = f"line {line}: {what}" if line else what
    raise PatchRejected(
        f"With this diff {path} would no longer be valid Python ({where}, as Python {version} reads it), "
        f"so it was not applied.\n{lines_around(after, line)}\n"
        "Send the diff again so that the code stays valid: new lines at the indentation of the block they "
        "belong to, every `if`/`elif`/`else`/`def` with its body, brackets and quotes closed.",
        reason="syntax_error",
    )


def _syntax_error(path: str, source: bytes) -> SyntaxError | None:
    try:
        ast.parse(source, filename=path)
    except SyntaxError as error:  # IndentationError and TabError are SyntaxErrors
        return error
    except (ValueError, UnicodeError, RecursionError, MemoryError):  # NUL bytes, bad text, deep nesting
        return None
    return None


def lines_around(source: bytes, line: int) -> str:
    """The lines of `source` around `line` (1-based), numbered, that line marked."""
    lines = source.decode("utf-8-sig", errors="replace").splitlines()
    if not 1 <= line <= len(lines):
        return "The result would end there."
    lo, hi = max(1, line - _SHOW_AROUND), min(len(lines), line + _SHOW_AROUND)
    width = len(str(hi))
    rows = [f"{n:>{width}} {'>' if n == line else ' '} {lines[n - 1]}" for n in range(lo, hi + 1)]
    return f"The file would read, at lines {lo}-{hi} (line numbers are not part of the file):\n" + "\n".join(
        rows
    )
