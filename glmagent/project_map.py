"""The project map shown in the first prompt: which files exist, so a model does not guess paths; for a
small project, with the functions and classes each Python file defines (a symbol map, after aider's repo
map), so that a task naming a function leads to its file.

Tracked files from `git ls-files` inside a repository (untracked files the user has not ignored included),
or a bounded walk elsewhere. Capped by a number of files and of characters: when the project is larger, the
shallowest paths are shown (the top level and the main folders say most about a project) and the rest are
counted in a last line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from glmagent.tools.git import GitRunner

#: Files listed at most; the rest are counted.
MAX_FILES = 400
#: Characters of the whole map at most, the last line included.
MAX_CHARS = 8_000
_SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hazina",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".tox",
        ".mypy_cache",
        ".pytest_cache",
        "dist",
        "build",
        "target",
        ".idea",
        ".vscode",
    }
)


#: Projects with at most this many files get a symbol map; larger ones list paths only.
SYMBOLS_MAX_FILES = 200
#: Bytes of a Python file parsed for its symbols at most.
SYMBOLS_MAX_BYTES = 200_000


def project_map(
    root: Path, limit: int = MAX_FILES, max_chars: int = MAX_CHARS, *, git: GitRunner | None = None
) -> str:
    """One path per line (sorted), then `(N more files not shown)` when the list was cut; the file list
    comes from `git` (glmagent's contained git, made for `root` when not given) inside a repository. In a
    small project a Python file's line also names its top-level functions and classes:
    `shop/pricing.py: order_total(items), discounted(total, percent)`."""
    lines = _listing(root, limit, max_chars, git)
    if len(lines) > SYMBOLS_MAX_FILES or any(line.startswith("(") for line in lines):
        return "\n".join(lines)
    text = "\n".join(_with_symbols(root, line) for line in lines)
    return text if len(text) <= max_chars else "\n".join(lines)


def project_files(root: Path, git: GitRunner | None = None) -> list[str]:
    """Every project file (tracked and untracked-not-ignored, or a bounded walk outside git), sorted."""
    if git is None:
        from glmagent.tools.git import GitRunner

        git = GitRunner(root)
    files = git.files()
    if files is None:
        files, _ = _walked_files(root, MAX_FILES * 10)
    return sorted({f for f in files if not f.startswith((".hazina/", ".git/"))})


def _with_symbols(root: Path, path: str) -> str:
    if not path.endswith(".py"):
        return path
    import ast

    try:
        target = root / path
        if target.is_symlink() or target.stat().st_size > SYMBOLS_MAX_BYTES:
            return path
        tree = ast.parse(target.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return path
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(f"{node.name}({', '.join(a.arg for a in node.args.args)})")
        elif isinstance(node, ast.ClassDef):
            methods = [
                n.name
                for n in node.body
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and not n.name.startswith("__")
            ]
            names.append(f"class {node.name}" + (f" ({', '.join(methods)})" if methods else ""))
    return f"{path}: {', '.join(names)}" if names else path


def _listing(root: Path, limit: int, max_chars: int, git: GitRunner | None) -> list[str]:
    if git is None:
        from glmagent.tools.git import GitRunner

        git = GitRunner(root)
    files = git.files()
    complete = True
    if files is None:
        files, complete = _walked_files(root, limit * 10)
    files = sorted({f for f in files if not f.startswith((".hazina/", ".git/"))})
    if not files:
        return ["(no files yet)"]
    room = max_chars - len(f"(at least {len(files):,} more files not shown)") - 1
    chosen: set[str] = set()
    for path in sorted(files, key=lambda f: (f.count("/"), f)):
        if len(chosen) >= limit or room < len(path) + 1:
            break
        chosen.add(path)
        room -= len(path) + 1
    lines = [f for f in files if f in chosen]
    left_out = len(files) - len(lines)
    if left_out or not complete:
        at_least = "" if complete else "at least "
        lines.append(f"({at_least}{left_out:,} more files not shown)")
    return lines


def _walked_files(root: Path, cap: int) -> tuple[list[str], bool]:
    """About `cap` files under `root` at most (hidden and generated folders skipped), and whether that is
    all of them."""
    found: list[str] = []
    for current, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIPPED_DIRS and not d.startswith("."))
        base = Path(current).relative_to(root)
        found.extend((base / name).as_posix() for name in filenames)
        if len(found) >= cap:
            return found, False
    return found, True
