"""A short file sent whole: an empty SEARCH part over an existing file, read as the file rewritten.

Small models copy a whole short file with one change far more reliably than they recall the exact lines a
SEARCH part needs (the usual refusal for them is lines invented or mistyped). The new content is turned
into ordinary hunks against the file (difflib, with real context), so it is placed, reported and checked
like any other diff. Accepted only when it reads as a revision of this file, never as a replacement: the
file is short, most of its lines come back, and (Python) every top-level function and class is still
defined. Placeholders and the syntax check apply as for any diff.
"""

from __future__ import annotations

import ast
from difflib import unified_diff

from glmagent.errors import PatchRejected
from glmagent.patching._locate import quote
from glmagent.patching._parse import Hunk, parse_diff
from glmagent.patching._text import FileText

REWRITE_MAX_LINES = 150
"""Longest file that may be sent whole; a longer one is edited by SEARCH/REPLACE blocks."""

_NOTE = "an empty SEARCH part over an existing file: read as the whole file rewritten"


def is_whole_file(hunks: list[Hunk]) -> bool:
    """One SEARCH/REPLACE block with an empty SEARCH part: the form that sends a file whole."""
    return len(hunks) == 1 and hunks[0].header == "SEARCH/REPLACE" and not hunks[0].old_lines


def rewrite_hunks(path: str, target: FileText, new_lines: list[str]) -> tuple[list[Hunk], str]:
    """Hunks turning `target` into `new_lines`, and the note to report; PatchRejected when the content is
    not a revision of this file (too long a file, most of its lines or a top-level name gone)."""
    old = target.lines
    if len(old) > REWRITE_MAX_LINES:
        raise PatchRejected(
            f"An empty SEARCH part sends {path} whole, but the file has {len(old)} lines (at most "
            f"{REWRITE_MAX_LINES} may be sent whole). Change it with SEARCH/REPLACE blocks whose SEARCH "
            "lines are copied from the file.",
            reason="new_file_exists",
        )
    _check_kept(path, old, new_lines)
    if path.endswith((".py", ".pyi")):
        _check_names(path, old, new_lines)
    text = "\n".join(unified_diff(old, new_lines, n=3, lineterm=""))
    return [h for s in parse_diff(text) for h in s.hunks], _NOTE


def _check_kept(path: str, old: list[str], new: list[str]) -> None:
    """Most of the file's lines must come back: a rewrite changes a few, it does not start over."""
    present = {line.strip() for line in new}
    kept_out = [line for line in old if line.strip() and line.strip() not in present]
    allowed = max(4, sum(1 for line in old if line.strip()) // 4)
    if len(kept_out) > allowed:
        raise PatchRejected(
            f"An empty SEARCH part sends {path} whole, but this content leaves out {len(kept_out)} of the "
            f"file's lines (e.g. {quote(kept_out[0])}): it reads as other content, not this file changed. "
            "Send the complete file with only the lines that must change changed, or a SEARCH/REPLACE "
            "block whose SEARCH lines are copied from the file.",
            reason="new_file_exists",
        )


def _top_level_names(lines: list[str]) -> set[str] | None:
    try:
        tree = ast.parse("\n".join(lines))
    except (SyntaxError, ValueError):
        return None
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
    return names


def _check_names(path: str, old: list[str], new: list[str]) -> None:
    """Every function and class the file defines at top level is still defined: nothing silently dropped."""
    before, after = _top_level_names(old), _top_level_names(new)
    if before is None or after is None:
        return  # the syntax check after applying names a file that does not parse
    lost = sorted(before - after)
    if lost:
        raise PatchRejected(
            f"An empty SEARCH part sends {path} whole, but this content no longer defines "
            f"{', '.join(lost)}, which the file defines. Send the complete file, every definition included.",
            reason="new_file_exists",
        )
