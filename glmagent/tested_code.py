"""Which functions of a code file the failing tests use, to point a model at them.

A small model shown a failing test and the module under test often edits the test (the file the traceback
names) or lines of the module that have nothing to do with the failure. The failure report already says
where to look: the test lines it quotes call the code's functions (`> assert word_counts("…") == …`), and a
traceback into the code names the line that raised. `used_definitions` turns that into the functions and
classes of one Python file, with their lines, for the header of the file's listing in the prompt.
`data_read_by` adds the module-level values those functions read: a wrong default or table entry often lives
in a `DEFAULTS = {...}` above the function the test calls, and a model pointed only at the function looks
for it there.
"""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

from glmagent.python_defs import Definition, definitions
from glmagent.testing import locations_in

__all__ = ["MAX_DATA", "MAX_LISTED", "Definition", "data_read_by", "used_definitions"]

MAX_LISTED = 4
"""Definitions named per file at most: more would point nowhere in particular."""

MAX_DATA = 3
"""Module-level values named per file at most."""

#: A source line a failure report quotes: pytest shows the failing test's lines indented, the failing one
#: marked `>` (`E` lines, the error, are not code).
_QUOTED = re.compile(r"^(?:>|    )\s*(?P<code>\S.*)$", re.MULTILINE)
_CALLED = re.compile(r"(?<![\w\"'])([A-Za-z_]\w*)\s*\(")


def used_definitions(test_output: str, path: str, text: str) -> list[Definition]:
    """The functions and classes of the Python file `path` (content `text`) that the failing tests in
    `test_output` call on the lines the report quotes, or that hold a line a traceback names in this file
    (a line outside them as a `Definition` without a name); in the file's order, at most `MAX_LISTED`, a
    method left out when its class is named. Nothing for other files, text that does not parse, or a
    report that names none of them."""
    if not path.endswith((".py", ".pyi")) or not test_output:
        return []
    defined = definitions(text)
    if defined is None:
        return []
    called = {name for match in _QUOTED.finditer(test_output) for name in _CALLED.findall(match["code"])}
    raised = [line for where, line in locations_in(test_output) if _same_file(where, path)]
    used = {d for d in defined if d.name in called}
    for line in raised:
        holding = [d for d in defined if d.first <= line <= d.last]
        # the innermost: a method, not its class
        used.add(min(holding, key=lambda d: d.last - d.first) if holding else Definition("", line, line))
    outer = {d for d in used if not any(o != d and o.first <= d.first and d.last <= o.last for o in used)}
    return sorted(outer, key=lambda d: d.first)[:MAX_LISTED]


def _same_file(where: str, path: str) -> bool:
    """Whether a location's path (relative, or absolute in a traceback) names the project file `path`."""
    written, wanted = PurePosixPath(where.replace("\\", "/")), PurePosixPath(path)
    return written.parts[-len(wanted.parts) :] == wanted.parts


def data_read_by(text: str, used: list[Definition]) -> list[Definition]:
    """The module-level assignments of the Python `text` (`NAME = ...`, one statement each, with its lines)
    whose names the named functions and classes in `used` read and do not assign themselves; in the file's
    order, at most `MAX_DATA`. Nothing when the text does not parse or `used` names nothing."""
    wanted = [d for d in used if d.name]
    if not wanted:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    assigned: dict[str, Definition] = {}
    for statement in tree.body:
        targets = (
            statement.targets
            if isinstance(statement, ast.Assign)
            else [statement.target]
            if isinstance(statement, ast.AnnAssign) and statement.value is not None
            else []
        )
        for target in targets:
            if isinstance(target, ast.Name) and not target.id.startswith("__"):
                last = statement.end_lineno or statement.lineno
                assigned.setdefault(target.id, Definition(target.id, statement.lineno, last))
    if not assigned:
        return []
    read: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and any(
            d.name == node.name and d.first <= node.lineno <= d.last for d in wanted
        ):
            names = [n for n in ast.walk(node) if isinstance(n, ast.Name)]
            stored = {n.id for n in names if not isinstance(n.ctx, ast.Load)}
            read |= {n.id for n in names if isinstance(n.ctx, ast.Load)} - stored
    found = [d for name, d in assigned.items() if name in read]
    return sorted(found, key=lambda d: d.first)[:MAX_DATA]
