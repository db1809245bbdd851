"""A `for` loop written with a comprehension's filter (`for x in xs if cond:`), read as the loop it means.

Small models mix the two forms: the live bench's model, asked to skip blank lines, wrote
`for line in text.splitlines() if line.strip():` in nine edits over seven runs, each refused as a syntax
error, and went on sending it. The meaning is not in doubt: the loop's body runs for the items the filter
keeps. So when an edit leaves a Python file unparseable and its new lines hold such a header, the edit is
read again with the header as a plain `for` and, as the first lines of the body, `if not (cond):` /
`continue`, which runs the body for exactly those items (an `else:` of the loop is unaffected). Only when
that reading parses as a whole; the note names it, so the model sees what was written.

Which part is the filter is read by Python's own parser: the words after `for` must parse as one
comprehension clause with one `if`, so `for x in (a if b else c):` (a conditional expression) is not
touched and stays a header that parses anyway.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import NamedTuple

_HEADER = re.compile(r"^(?P<indent>[ \t]*)(?P<clause>(?:async[ \t]+)?for[ \t].*?)[ \t]*(?::[ \t]*(?:#.*)?)?$")


class FilteredFor(NamedTuple):
    """The edits read with every filtered `for` header made a plain loop, and the notes that say so."""

    edits: list[tuple[list[str], list[str]]]
    notes: list[str]


def _split(clause: str) -> tuple[str, str] | None:
    """`for T in I if C` as (`for T in I:` without the colon, `C`), with the model's own text; None when the
    words are not one comprehension clause with exactly one filter."""
    source = f"[_ {clause}]"
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    body = tree.body
    if not isinstance(body, ast.ListComp) or len(body.generators) != 1 or len(body.generators[0].ifs) != 1:
        return None
    generator = body.generators[0]
    condition = generator.ifs[0]
    iterable = ast.get_source_segment(source, generator.iter)
    cond = ast.get_source_segment(source, condition)
    target = ast.get_source_segment(source, generator.target)
    if iterable is None or cond is None or target is None:
        return None
    keyword = "async for" if generator.is_async else "for"
    return f"{keyword} {target} in {iterable}", cond


_INVERSE = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<", "in": "not in"}
_INVERSE |= {"not in": "in", "is": "is not", "is not": "is"}


def _negated(cond: str) -> str:
    """The condition's negation in the model's own words: `a != b` -> `a == b`, `not x` -> `x`, `x` ->
    `not x`; bracketed after `not` unless it is a name, call, attribute or subscript."""
    try:
        node = ast.parse(cond, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return f"not ({cond})"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        operand = ast.get_source_segment(cond, node.operand)
        if operand is not None:
            return operand
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left = ast.get_source_segment(cond, node.left)
        right = ast.get_source_segment(cond, node.comparators[0])
        if left is not None and right is not None and cond.startswith(left) and cond.endswith(right):
            operator = " ".join(cond[len(left) : len(cond) - len(right)].split())
            if operator in _INVERSE:
                return f"{left} {_INVERSE[operator]} {right}"
    if isinstance(node, ast.Name | ast.Call | ast.Attribute | ast.Subscript):
        return f"not {cond}"
    return f"not ({cond})"


def _step_in_file(result_lines: Sequence[str], header: str) -> str | None:
    """The indentation the body under the one line of the edited file reading `header` (stripped) adds to
    that line's; None when that line is not there exactly once or nothing deeper follows it."""
    places = [n for n, line in enumerate(result_lines) if line.strip() == header]
    if len(places) != 1:
        return None
    at = result_lines[places[0]]
    indent = at[: len(at) - len(at.lstrip())]
    for line in result_lines[places[0] + 1 :]:
        if line.strip():
            deeper = line[: len(line) - len(line.lstrip())]
            return deeper[len(indent) :] if deeper.startswith(indent) and len(deeper) > len(indent) else None
    return None


def read_filtered_for(
    edits: Sequence[tuple[Sequence[str], Sequence[str]]], result_lines: Sequence[str]
) -> FilteredFor | None:
    """`edits` with each filtered `for` header among their replace lines read as a plain loop (see the
    module docstring), given the lines of the file as the edits as written left it; None when no replace
    line is such a header."""
    changed = False
    notes: list[str] = []
    out: list[tuple[list[str], list[str]]] = []
    for number, (search, replace) in enumerate(edits, 1):
        lines = [part for item in replace for part in item.removesuffix("\n").split("\n")]
        new: list[str] = []
        for index, line in enumerate(lines):
            match = _HEADER.match(line) if " if " in line else None
            split = _split(match["clause"]) if match else None
            if match is None or split is None:
                new.append(line)
                continue
            loop, cond = split
            indent = match["indent"]
            under = lines[index + 1] if index + 1 < len(lines) else ""
            under_indent = under[: len(under) - len(under.lstrip())]
            if under.strip() and under_indent.startswith(indent) and len(under_indent) > len(indent):
                step: str | None = under_indent[len(indent) :]
            else:  # the body is the file's lines after the header: read its indentation there
                step = _step_in_file(result_lines, line.strip())
            if step is None:
                return None
            body = indent + step
            new += [f"{indent}{loop}:", f"{body}if {_negated(cond)}:", f"{body}{step}continue"]
            notes.append(
                f"edit #{number}: `{line.strip()}` is not Python; read as `{loop}:` whose body starts with "
                f"`if {_negated(cond)}: continue`"
            )
            changed = True
        out.append((list(search), new))
    return FilteredFor(out, notes) if changed else None
