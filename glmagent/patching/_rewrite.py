"""A short file sent whole: an empty SEARCH part over an existing file, read as the file rewritten.

Small models copy a whole short file with one change far more reliably than they recall the exact lines a
SEARCH part needs (the usual refusal for them is lines invented or mistyped). The new content is turned
into ordinary hunks against the file (difflib, with real context), so it is placed, reported and checked
like any other diff. Accepted only when it reads as a revision of this file, never as a replacement: the
file is short, most of its lines come back, and (Python) every top-level function and class is still
defined. Placeholders and the syntax check apply as for any diff.

What a small model sends as "the whole file" is often only the function it fixed, and rewriting one
function it has just been shown is a form it gets right far more often than recalling exact lines; the
prompt teaches it, and a stale refusal offers it for the function the edit was aimed at. Python content that
is nothing but some of the file's top-level functions and classes (each defined once in the file, each
keeping most of its lines), or one method whose name the file defines once, is read as those definitions
rewritten, and the rest of the file is kept, whatever the file's length. A definition sent under a new name
is the file's one renamed when only that reading fits (`_renames`).
"""

from __future__ import annotations

import ast
from collections import Counter
from difflib import unified_diff
from textwrap import dedent

from glmagent.errors import PatchRejected
from glmagent.patching._file_style import in_file_style
from glmagent.patching._locate import quote
from glmagent.patching._parse import Hunk, parse_diff
from glmagent.patching._renames import describe, renamed_definitions
from glmagent.patching._text import FileText
from glmagent.python_defs import DefinitionNode, definitions, first_line

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
    python = path.endswith((".py", ".pyi"))
    styled: list[str] = []
    if python:
        new_lines, styled = in_file_style(old, new_lines)
    merged = _definitions_rewritten(path, old, new_lines) if python else None
    if merged is not None:
        new_lines, note = merged
    elif len(old) > REWRITE_MAX_LINES:
        alone = " (or, in Python, a whole function alone)" if python else ""
        raise PatchRejected(
            f"An empty SEARCH part sends {path} whole, but the file has {len(old)} lines (at most "
            f"{REWRITE_MAX_LINES} may be sent whole). Change it with SEARCH/REPLACE blocks whose SEARCH "
            f"lines are copied from the file{alone}.",
            reason="new_file_exists",
        )
    else:
        note = _NOTE
    _check_kept(path, old, new_lines)
    renames = _check_names(path, old, new_lines) if python else ""
    if merged is not None:
        renames = ""  # the merge's note names them already
    text = "\n".join(unified_diff(old, new_lines, n=3, lineterm=""))
    return [h for s in parse_diff(text) for h in s.hunks], "; ".join(filter(None, [note, renames, *styled]))


def _top_level(lines: list[str]) -> list[ast.stmt] | None:
    """The text's top-level statements; None when it does not parse."""
    try:
        return ast.parse("\n".join(lines)).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _spans(body: list[ast.stmt]) -> list[tuple[str, int, int]]:
    """`(name, first line, end)` (0-based, end exclusive, decorators included) of each top-level function
    and class of `body`, in order."""
    return [
        (node.name, first_line(node) - 1, node.end_lineno or 0)
        for node in body
        if isinstance(node, DefinitionNode)
    ]


def _definition_spans(lines: list[str]) -> list[tuple[str, int, int]] | None:
    """`_spans` of the text's top-level functions and classes; None when it does not parse."""
    body = _top_level(lines)
    return None if body is None else _spans(body)


def _only_definitions(lines: list[str]) -> list[tuple[str, int, int]] | None:
    """`_definition_spans` of a text that holds nothing else at top level (a docstring first aside)."""
    body = _top_level(lines)
    if body is None:
        return None
    docstring = bool(body) and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    return None if any(not isinstance(n, DefinitionNode) for n in body[docstring:]) else _spans(body)


def _definitions_rewritten(path: str, old: list[str], new: list[str]) -> tuple[list[str], str] | None:
    """The file with the functions and classes `new` holds put in place of the file's own of those
    names, when `new` is nothing but some of the file's top-level definitions, each defined once in the
    file (all of them only when the file holds more, such as imports), or one method (see
    `_method_rewritten`); with the note to report. Small models send the function they fixed as "the
    whole file"."""
    sent, spans = _only_definitions(new), _definition_spans(old)
    if spans is None:
        return None
    if sent is None and new and new[0][:1] in (" ", "\t"):
        new = dedent("\n".join(new)).split("\n")  # a method sent with its class's indentation
        sent = _only_definitions(new)
    if not sent:
        return None
    if len(sent) == 1 and sent[0][0] not in {name for name, _first, _end in spans}:
        method = _method_rewritten(path, old, new, sent[0])
        if method is not None:
            return method
    own = {name: (first, end) for name, first, end in spans}
    if len(own) != len(spans):
        return None  # a name the file defines twice: which one is meant is unknown
    if len(sent) == 1 and sent[0][0] in own:
        part = _class_part_rewritten(path, old, new, own[sent[0][0]])
        if part is not None:
            return part
    names = [name for name, _first, _end in sent]
    if len(set(names)) != len(names):
        return None
    renamed = _renamed_part(old, new, set(names), set(own))
    if renamed is None:
        return None
    if len(names) == len(own) and _only_definitions(old) is not None:
        return None  # every definition of a file that holds nothing else: the file sent whole
    replaced = {name: renamed.get(name, name) for name in names}
    merged = list(old)
    for name, first, end in sorted(sent, key=lambda d: own[replaced[d[0]]][0], reverse=True):
        start, stop = own[replaced[name]]
        _check_kept(path, old[start:stop], new[first:end])  # each one revised, not replaced by a stub
        merged[start:stop] = new[first:end]
    listed = ", ".join(replaced[name] for name in names)
    renames = f"; {describe({old_name: name for name, old_name in renamed.items()})}" if renamed else ""
    return merged, (
        f"an empty SEARCH part holding only {listed} of the file's definitions: read as "
        f"{'that definition' if len(names) == 1 else 'those definitions'} rewritten, the rest of the file "
        f"kept{renames}"
    )


def _renamed_part(old: list[str], new: list[str], sent: set[str], own: set[str]) -> dict[str, str] | None:
    """`{sent name: file's name}` for the sent definitions the file does not define, each a renamed one of
    the file's definitions that were not sent (`_renames`); empty when every sent name is the file's own,
    None when some new name is not a rename."""
    gained = sent - own
    if not gained:
        return {}
    old_body, new_body = _top_level(old), _top_level(new)
    if old_body is None or new_body is None:
        return None
    pairs = renamed_definitions(old, old_body, new, new_body, own - sent)
    found = {new_name: old_name for old_name, new_name in pairs.items()}
    return found if set(found) == gained else None


def _methods(node: ast.ClassDef) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef] | None:
    """The functions a class body defines, by name; None when a name is defined twice."""
    found = [n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    named = {n.name: n for n in found}
    return named if len(named) == len(found) else None


def _class_part_rewritten(
    path: str, old: list[str], new: list[str], span: tuple[int, int]
) -> tuple[list[str], str] | None:
    """The file with the methods of a class sent with only some of them (`class Inventory:` and the one
    method fixed, as small models send "the whole file") put in place of the class's own of those names;
    the rest of the class kept. Only when the sent class holds nothing but methods (a docstring aside), each
    defined once in the file's class, and leaves some of them out."""
    old_body, new_body = _top_level(old), _top_level(new)
    if old_body is None or new_body is None:
        return None
    start, _stop = span
    file_class = next(
        (n for n in old_body if isinstance(n, DefinitionNode) and first_line(n) - 1 == start), None
    )
    sent_class = next((n for n in new_body if isinstance(n, DefinitionNode)), None)
    if not isinstance(file_class, ast.ClassDef) or not isinstance(sent_class, ast.ClassDef):
        return None
    own, sent = _methods(file_class), _methods(sent_class)
    members = (
        sent_class.body[1:] if ast.get_docstring(sent_class, clean=False) is not None else sent_class.body
    )
    if (
        own is None
        or not sent
        or any(not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for n in members)
    ):
        return None
    if not set(sent) < set(own):
        return None  # the whole class, or a method the file's class lacks: read as the class sent whole
    merged = list(old)
    for name in sorted(sent, key=lambda n: own[n].lineno, reverse=True):
        mine, theirs = own[name], sent[name]
        lines = new[first_line(theirs) - 1 : theirs.end_lineno]
        shift = mine.col_offset - theirs.col_offset
        if shift > 0:
            lines = [" " * shift + line if line.strip() else line for line in lines]
        elif shift < 0:
            lines = [line[-shift:] if line[:-shift].strip() == "" else line for line in lines]
        _check_kept(path, old[first_line(mine) - 1 : mine.end_lineno], lines)
        merged[first_line(mine) - 1 : mine.end_lineno] = lines
    listed = ", ".join(sorted(sent, key=lambda n: own[n].lineno))
    return merged, (
        f"an empty SEARCH part holding {file_class.name} with only {listed} of its methods: read as "
        f"{'that method' if len(sent) == 1 else 'those methods'} rewritten, the rest of the file kept"
    )


def _functions(lines: list[str]) -> list[tuple[str, int, int, int]] | None:
    """`(name, first line, end, indentation)` (0-based, end exclusive) of every function and class of the
    text, nested ones included; None when it does not parse."""
    found = definitions("\n".join(lines))
    return None if found is None else [(d.name, d.first - 1, d.last, d.column) for d in found]


def _method_rewritten(
    path: str, old: list[str], new: list[str], sent: tuple[str, int, int]
) -> tuple[list[str], str] | None:
    """The file with one method (or nested function) put in place of the one of its name, when the file
    defines that name exactly once; the sent text is indented as the method is."""
    name, first, end = sent
    found = [f for f in _functions(old) or [] if f[0] == name]
    if len(found) != 1:
        return None
    _name, start, stop, column = found[0]
    pad = old[start][: len(old[start]) - len(old[start].lstrip())] if column else ""
    body = [pad + line if line.strip() else line for line in new[first:end]]
    _check_kept(path, old[start:stop], body)
    merged = [*old[:start], *body, *old[stop:]]
    return merged, (
        f"an empty SEARCH part holding only {name}, which the file defines once: read as that definition "
        "rewritten, the rest of the file kept"
    )


def function_around(path: str, lines: list[str], near: tuple[int, int]) -> tuple[str, int, int] | None:
    """The innermost function of a Python file holding most of the lines [start, end) (0-based) that a
    refused edit resembles, as `(name, first line, end)`, when its name is defined once in the file (so
    that sending it alone replaces it); None otherwise."""
    if not path.endswith((".py", ".pyi")):
        return None
    start, end = near
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    found = _functions(lines) if end > start else None
    if not found:
        return None
    counts = Counter(name for name, *_ in found)
    holding = [
        (stop - first, name, first, stop)
        for name, first, stop, _column in found
        if min(stop, end) - max(first, start) > (end - start) // 2
    ]
    if not holding:
        return None
    _size, name, first, stop = min(holding)
    return (name, first, stop) if counts[name] == 1 else None


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
    """The text's top-level functions and classes, and the methods of those classes (`Class.method`)."""
    body = _top_level(lines)
    if body is None:
        return None
    names = {name for name, _first, _end in _spans(body)}
    for node in body:
        if isinstance(node, ast.ClassDef):
            names.update(f"{node.name}.{method}" for method in _methods(node) or {})
    return names


def _check_names(path: str, old: list[str], new: list[str]) -> str:
    """Every function and class the file defines at top level, and every method of those classes, is still
    defined, or defined under a new name (`_renames`): nothing silently dropped. The renames, described."""
    before, after = _top_level_names(old), _top_level_names(new)
    if before is None or after is None:
        return ""  # the syntax check after applying names a file that does not parse
    lost = sorted(before - after)
    if not lost:
        return ""
    pairs = _renamed(old, new, lost, after)
    gone = [name for name in lost if name.partition(".")[0] not in pairs]
    if not gone:
        return describe(pairs)
    renamed = f" ({describe(pairs)}: read as renames)" if pairs else ""
    raise PatchRejected(
        f"An empty SEARCH part sends {path} whole, but this content no longer defines "
        f"{', '.join(gone)}, which the file defines{renamed}. Send the complete file, every definition "
        "included.",
        reason="new_file_exists",
    )


def _renamed(old: list[str], new: list[str], lost: list[str], after: set[str]) -> dict[str, str]:
    """`renamed_definitions` for the top-level names `lost` lists, less any renamed class that lost a method
    on the way (`Class.method` in `lost` with no `NewClass.method` in `after`)."""
    old_body, new_body = _top_level(old), _top_level(new)
    if old_body is None or new_body is None:
        return {}
    pairs = renamed_definitions(old, old_body, new, new_body, {name for name in lost if "." not in name})
    for name in lost:
        owner, _dot, method = name.partition(".")
        if method and owner in pairs and f"{pairs[owner]}.{method}" not in after:
            del pairs[owner]
    return pairs
