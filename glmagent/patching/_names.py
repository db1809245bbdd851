"""Refuse an edit that would leave a Python file using a name it no longer defines.

The live bench's small model broke two tasks this way: it replaced `text = value.strip()` with a line that
strips `value` in place, and `current = start` with another list, while the lines below still read `text`
and `current`. Each edit parsed, was written, and turned every test into a `NameError` the model never
traced back to its own edit. Refused before the write, the model is told which name its edit left undefined
and where it is used, as with a syntax error.

pyflakes does the reading (the name analysis SWE-agent's edit linting uses too: well-kept, pure Python,
and it never runs the file). Only names undefined after the edit and not before count, so a file that
already used an undefined name (a star import, a partial module) is judged by what the edit changes. A
file pyflakes cannot read, or one over `_MAX_LINES`, is left to the edit, as `_syntax` leaves a file that
did not parse before.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from glmagent.errors import PatchRejected
from glmagent.patching._syntax import PYTHON_SUFFIXES, lines_around

_MAX_LINES = 10_000
"""Longer files are not judged: pyflakes reads ~30k lines/s here, and an edit should not wait seconds."""
_SHOWN = 3
"""Uses of a newly undefined name quoted in a refusal, at most."""


def check_python_names(path: str, before: bytes | None, after: bytes) -> None:
    """Raise `PatchRejected(reason="undefined_name")` when `after` (the edited bytes of `path`) uses a
    name that is defined nowhere it can be seen from, where `before` had no such use of that name. A new
    file (`before` None) is not judged: it breaks nothing that worked."""
    if before is None or PurePosixPath(path).suffix.lower() not in PYTHON_SUFFIXES:
        return
    if after.count(b"\n") > _MAX_LINES:
        return
    now = _undefined_uses(path, after)
    if not now:
        return
    earlier = _undefined_uses(path, before)
    if earlier is None:
        return  # it did not parse: what it defined is unknown (the task may be to fix it)
    known = {name for name, _line in earlier}
    new = [(name, line) for name, line in now if name not in known]
    if not new:
        return
    names = list(dict.fromkeys(name for name, _line in new))
    listed = ", ".join(f"`{name}`" for name in names)
    uses = "; ".join(f"`{name}` on line {line}" for name, line in new[:_SHOWN])
    first_line = new[0][1]
    raise PatchRejected(
        f"With this diff {path} would use {listed} without defining {'it' if len(names) == 1 else 'them'} "
        f"({uses}), so it was not applied: code reaching that line would fail with a NameError.\n"
        f"{lines_around(after, first_line)}\n"
        "Send the diff again keeping the line that assigns or imports the name, or assign it before its "
        "first use; a name from another module needs its import added or changed in the same apply_diff "
        "(changes that depend on each other belong in one apply_diff).",
        reason="undefined_name",
    )


def _undefined_uses(path: str, source: bytes) -> list[tuple[str, int]] | None:
    """(name, line) of every use pyflakes reports undefined (or used before its local assignment); None
    when the source cannot be read."""
    try:
        import ast

        from pyflakes import checker, messages

        tree = ast.parse(source, filename=path)
        found = checker.Checker(tree, filename=path).messages
    except Exception:  # unparseable, too deep, or a pyflakes limit: the edit decides
        return None
    kinds = (messages.UndefinedName, messages.UndefinedLocal)
    return [(str(m.message_args[0]), int(m.lineno)) for m in found if isinstance(m, kinds)]
