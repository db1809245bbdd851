"""Names an edit took out of a Python module that other files of the project still use.

A rename or removal made in one file breaks every file that imports the old name, and a model that has just
renamed a function rarely goes looking for its callers; it learns of them only from the next test run's
`ImportError`, an iteration later. Saying where the old name is still used, right in the edit's result,
turns a rename across files into one iteration's work.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

#: Files searched at most, bytes read of each at most, and what the note lists at most.
MAX_FILES = 2_000
MAX_BYTES = 200_000
MAX_SHOWN_FILES = 5
MAX_SHOWN_LINES = 5


def top_level_names(source: bytes | None) -> set[str] | None:
    """The functions, classes and assigned names a Python module defines at top level; None when it does
    not parse (no source: none)."""
    if not source:
        return set()
    try:
        body = ast.parse(source).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    names: set[str] = set()
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def dropped(before: bytes | None, after: bytes | None) -> list[str]:
    """Top-level names `before` defines and `after` (None: the file deleted) does not, when both parse."""
    old, new = top_level_names(before), top_level_names(after)
    return sorted(old - new) if old is not None and new is not None else []


def uses_elsewhere(root: Path, files: Iterable[str], changed: str, names: list[str]) -> dict[str, list[int]]:
    """`{path: line numbers}` of the project's other Python files that import any of `names` from the
    changed module (`from store.format import fmt_price`, relative imports too) or reach them through it
    (`format.fmt_price`), with the lines that then use them; bounded: `MAX_FILES` files of at most
    `MAX_BYTES` each, symlinks skipped."""
    wanted = set(names)
    module = Path(changed).with_suffix("").name
    if module == "__init__":
        module = Path(changed).parent.name
    found: dict[str, list[int]] = {}
    searched = 0
    for path in files:
        if path == changed or not path.endswith((".py", ".pyi")):
            continue
        searched += 1
        if searched > MAX_FILES:
            break
        target = root / path
        try:
            if target.is_symlink() or target.stat().st_size > MAX_BYTES:
                continue
            tree = ast.parse(target.read_bytes())
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        lines = _uses(tree, module, wanted)
        if lines:
            found[path] = lines
    return found


def _from_module(node: ast.ImportFrom, module: str) -> bool:
    dotted = node.module or ""
    return dotted == module or dotted.endswith("." + module) or (node.level > 0 and not dotted)


def _tail(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _uses(tree: ast.Module, module: str, wanted: set[str]) -> list[int]:
    """Lines of `tree` importing a wanted name from `module`, using a name so imported, or reaching a wanted
    name as an attribute of `module`."""
    imported: set[str] = set()
    lines: set[int] = set()
    aliases = {module}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if _from_module(node, module):
                hits = [a for a in node.names if a.name in wanted]
                imported.update(a.asname or a.name for a in hits)
                if hits:
                    lines.add(node.lineno)
            aliases.update(a.asname for a in node.names if a.name == module and a.asname)
        elif isinstance(node, ast.Import):
            aliases.update(a.asname for a in node.names if a.asname and a.name.split(".")[-1] == module)
    for node in ast.walk(tree):
        named = isinstance(node, ast.Name) and node.id in imported
        reached = isinstance(node, ast.Attribute) and node.attr in wanted and _tail(node.value) in aliases
        if named or reached:
            lines.add(node.lineno)
    return sorted(lines)


def note(changed: str, names: list[str], uses: dict[str, list[int]]) -> str:
    """What the model is told: which files still use the names the edit of `changed` took away, and where."""
    listed = []
    for path in sorted(uses)[:MAX_SHOWN_FILES]:
        lines = uses[path]
        shown = ", ".join(str(n) for n in lines[:MAX_SHOWN_LINES])
        shown += ", ..." if len(lines) > MAX_SHOWN_LINES else ""
        listed.append(f"{path} (line{'s' if len(lines) > 1 else ''} {shown})")
    more = len(uses) - MAX_SHOWN_FILES
    tail = f" and {more} more files" if more > 0 else ""
    return (
        f"{changed} no longer defines {', '.join(names)}, and other files still use "
        f"{'it' if len(names) == 1 else 'them'}: {'; '.join(listed)}{tail}. Change them to match, or they "
        "break."
    )
