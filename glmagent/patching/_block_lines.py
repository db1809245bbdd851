"""Lines a small model writes as one and Python reads as a syntax error, while their meaning as a block is
not in doubt, read as that block.

- A `for` header with a comprehension's filter, `for x in xs if cond:`. The live bench's model, asked to
  skip blank lines, wrote `for line in text.splitlines() if line.strip():` in nine edits over seven runs,
  each refused, and went on sending it. The body runs for the items the filter keeps: read as `for x in
  xs:` with `if not cond:` / `continue` as the first lines of the body (an `else:` of the loop is
  unaffected). Which part is the filter is read by Python's parser: the words after `for` must parse as
  one comprehension clause with one `if`, so `for x in (a if b else c):` is not touched.
- A block header with a compound statement on its line, `def mean(values): if not values: return 0.0`
  (stats_empty's first reply in three runs): Python allows only simple statements after the colon. Read
  as the header with that statement as the first line of its body, when the header alone opens a block
  (`def`, `class`, `if`, `for`, `while`, `with`) and the statement parses on its own line. A simple
  statement there with the block's old body still under it (`if count <= 0: return False`) stays
  refused: whether it adds to the body or replaces it is not said.
- A compound statement after a `;`, `self._counts[name] -= count; if self._counts[name] <= 0: return
  False`: read as two lines at the same indentation, when both parts parse on their own lines.

Only as a second reading, when the edit as written would leave a Python file unparseable; only when the
reading parses as a whole (otherwise the edit as written is refused); the note names it, so the model sees
what was written and how it was read. The body's indentation is that of the lines under the header, in the
edit or in the file.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import NamedTuple

from glmagent.python_defs import DefinitionNode

_FOR = re.compile(r"^[ \t]*(?P<clause>(?:async[ \t]+)?for[ \t].*?)[ \t]*(?::[ \t]*(?:#.*)?)?$")
_OPENER = re.compile(r"^[ \t]*(?:async[ \t]+)?(?:def|class|if|for|while|with)\b")
_DEFINITION = re.compile(r"(?:async[ \t]+)?(?:def|class)\b")
_COMPOUND = re.compile(r"(?:if|for|while|with|try|def|class)\b")
"""What may not follow a block header's colon on its line (Python allows simple statements only)."""


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


class BlockReading(NamedTuple):
    """The edits read with every such line made a block, and the notes that say so."""

    edits: list[tuple[list[str], list[str]]]
    notes: list[str]


class _Block(NamedTuple):
    """One line read as a block: its first line (without indentation; a header with its colon), the lines
    after it (each with the levels it lies deeper than a body: -1 beside the first line), and the note."""

    header: str
    body: list[tuple[int, str]]
    note: str


def _shown(text: str, limit: int = 120) -> str:
    """`text` for a note: a hostile or runaway line is not quoted whole into the next prompt."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _filtered_for(line: str) -> _Block | None:
    match = _FOR.match(line) if " if " in line else None
    split = _split(match["clause"]) if match else None
    if split is None:
        return None
    loop, cond = split
    guard = _negated(cond)
    note = (
        f"`{_shown(line.strip())}` is not Python; read as `{_shown(loop)}:` whose body starts with "
        f"`if {_shown(guard)}: continue`"
    )
    return _Block(f"{loop}:", [(0, f"if {guard}:"), (1, "continue")], note)


def _joined_header(line: str) -> _Block | None:
    if _OPENER.match(line) is None:
        return None
    text = line.strip()
    for at in (n for n, char in enumerate(text) if char == ":"):
        header, rest = text[: at + 1], text[at + 1 :].strip()
        if not _COMPOUND.match(rest) or not _parses(f"{header}\n    pass\n") or not _parses(rest):
            continue
        note = (
            f"`{_shown(text)}` is not Python; read as `{_shown(header)}` with `{_shown(rest)}` as the "
            "first line of its body"
        )
        return _Block(header, [(0, rest)], note)
    return None


def _after_semicolon(line: str) -> _Block | None:
    text = line.strip()
    for at in (n for n, char in enumerate(text) if char == ";"):
        first, rest = text[:at].strip(), text[at + 1 :].strip()
        if _COMPOUND.match(rest) and _parses(first) and _parses(rest):
            shown = f"`{_shown(first)}` and `{_shown(rest)}`"
            note = f"`{_shown(text)}` is not Python; read as {shown} on two lines"
            return _Block(first, [(-1, rest)], note)
    return None


def _parses(source: str) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _docstring_under(file_lines: Sequence[str], header: str, indent: str) -> list[str] | None:
    """The docstring lines under the one `def`/`class` line of the file reading `header` (stripped), moved
    from that line's indentation to `indent`; [] when it has none; None when they cannot be moved."""
    places = [n for n, line in enumerate(file_lines) if line.strip() == header]
    if len(places) != 1:
        return []
    at = places[0]
    try:
        tree = ast.parse("\n".join(file_lines))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    for node in ast.walk(tree):
        if isinstance(node, DefinitionNode) and node.lineno == at + 1 and node.body:
            first = node.body[0]
            value = first.value if isinstance(first, ast.Expr) else None
            if not isinstance(value, ast.Constant) or not isinstance(value.value, str):
                return []
            own = file_lines[at][: len(file_lines[at]) - len(file_lines[at].lstrip())]
            doc = list(file_lines[at + 1 : first.end_lineno or first.lineno])
            if any(line.strip() and not line.startswith(own) for line in doc):
                return None
            return [indent + line[len(own) :] if line.strip() else line for line in doc]
    return []


def read_block_lines(
    edits: Sequence[tuple[Sequence[str], Sequence[str]]],
    file_lines: Sequence[str],
    result_lines: Sequence[str],
) -> BlockReading | None:
    """`edits` with each replace line of the kinds above read as a block (see the module docstring), given
    the file's lines and those the edits as written left; None when no replace line is one of them, or
    the indentation of a body cannot be read. A statement joined to a `def` or `class` line goes after
    the docstring, which stays the docstring."""
    changed = False
    notes: list[str] = []
    out: list[tuple[list[str], list[str]]] = []
    for number, (search, replace) in enumerate(edits, 1):
        search = list(search)
        lines = [part for item in replace for part in item.removesuffix("\n").split("\n")]
        new: list[str] = []
        for index, line in enumerate(lines):
            block = _filtered_for(line) or _joined_header(line) or _after_semicolon(line)
            if block is None:
                new.append(line)
                continue
            indent = line[: len(line) - len(line.lstrip())]
            under = lines[index + 1] if index + 1 < len(lines) else ""
            under_indent = under[: len(under) - len(under.lstrip())]
            step: str | None = ""
            if all(deeper < 0 for deeper, _text in block.body):
                pass  # no body: no indentation to read
            elif under.strip() and under_indent.startswith(indent) and len(under_indent) > len(indent):
                step = under_indent[len(indent) :]
            else:  # the body is the file's lines after the header: read its indentation there
                step = _step_in_file(result_lines, line.strip())
            if step is None:
                return None
            new.append(f"{indent}{block.header}")
            last = index == len(lines) - 1 and search and search[-1].strip() == block.header
            if last and _DEFINITION.match(block.header):  # the header as it was, the body in the file
                doc = _docstring_under(file_lines, block.header, indent)
                if doc is None:
                    return None
                search += doc
                new += doc
            new += [f"{indent}{step * (1 + deeper)}{text}" for deeper, text in block.body]
            notes.append(f"edit #{number}: {block.note}")
            changed = True
        out.append((search, new))
    return BlockReading(out, notes) if changed else None
