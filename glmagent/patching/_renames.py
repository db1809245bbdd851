"""Definitions a Python text sent whole renames: a function or class the file defines that the sent text no
longer defines, but defines under a new name with most of the same body.

Asked to rename a function, a small model sends the file (or the function alone) with the new name; read
only as "a definition dropped" that is refused, and the rename can never be made by sending content.
A pairing is accepted only when it is unambiguous: each dropped name meets exactly one new definition
keeping at least half of its body lines (its header aside), no two dropped names meet the same one, and the
sent text no longer mentions the old name (a wrapper that calls it, or code still using it, is not a rename).
"""

from __future__ import annotations

import ast
import re

from glmagent.python_defs import DefinitionNode


def _bodies(lines: list[str], body: list[ast.stmt], names: set[str]) -> dict[str, set[str]]:
    """The stripped non-blank lines of the bodies of the top-level definitions named in `names` (a
    one-line definition has none: nothing to recognise it by)."""
    found: dict[str, set[str]] = {}
    for node in body:
        if isinstance(node, DefinitionNode) and node.name in names:
            start = node.body[0].lineno
            inside = lines[start - 1 : node.end_lineno] if start > node.lineno else []
            # ' for " as everywhere in Python edits: a model retyping a line often swaps them
            found[node.name] = {line.strip().replace("'", '"') for line in inside if line.strip()}
    return found


def renamed_definitions(
    old: list[str], old_body: list[ast.stmt], new: list[str], new_body: list[ast.stmt], dropped: set[str]
) -> dict[str, str]:
    """`{old name: new name}` for the top-level functions and classes named in `dropped` (defined in `old`,
    not in `new`) that `new` defines under a name `old` does not define, keeping at least half of the body
    lines; only pairs that are each other's only match, and only old names `new` no longer mentions."""
    old_names = {n.name for n in old_body if isinstance(n, DefinitionNode)}
    gained = {n.name for n in new_body if isinstance(n, DefinitionNode)} - old_names
    before, after = _bodies(old, old_body, dropped), _bodies(new, new_body, gained)
    sent = "\n".join(new)
    matches = {
        name: [other for other, lines in after.items() if 2 * len(body & lines) >= len(body)]
        for name, body in before.items()
        if body and not re.search(rf"\b{re.escape(name)}\b", sent)
    }
    pairs = {name: found[0] for name, found in matches.items() if len(found) == 1}
    taken = [new_name for found in matches.values() for new_name in found]
    return {name: new_name for name, new_name in pairs.items() if taken.count(new_name) == 1}


def describe(pairs: dict[str, str]) -> str:
    """`fmt_price renamed to format_price` (and so on), for the note of an applied edit."""
    return ", ".join(f"{old} renamed to {new}" for old, new in pairs.items())
