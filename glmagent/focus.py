"""The files a model works on, shown in full in every prompt, and which of them it has seen.

A small model spends its first iteration reading the files a failing test names, and writes diffs against
content it has not seen (or remembers wrongly). So the loop keeps a working set: the project files named in
the failing test output at the start (code before tests), then every file the model reads or edits; each
prompt shows the current text of the most recent ones, fenced as a Markdown code block, within a budget
(`FILES_CAP` characters in all, `FILE_CAP` per file). What was shown is "seen": a diff for an existing file
the model has not seen is not applied (`glmagent.loop`), like an edit tool that refuses unread files.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from glmagent.errors import GlmAgentError
from glmagent.secrets import Redactor
from glmagent.tested_code import Definition, data_read_by, used_definitions
from glmagent.testing import is_test_path, locations_in
from glmagent.tools import files
from glmagent.workspace import Workspace

#: Characters of file text shown per prompt in all, and per file (a longer file shows its start and end).
FILES_CAP = 16_000
FILE_CAP = 9_000
#: Files kept in the working set (the most recently used are shown first).
MAX_FILES = 6
#: Files taken from the failing test output at the start.
MAX_FROM_TESTS = 3

_HEADER_END = "line numbers are not part of the file)"
"""How the first line of a `read_file` listing ends (before its `:`); what the prompt adds about the file
goes after it."""
_LOCKED = "a test file you may not change: the task is done when it passes"


class FileView:
    """Reads project files for the prompt through the workspace's confinement (never outside the project,
    never .git/ or .hazina/), numbered like `read_file`."""

    def __init__(self, workspace: Workspace, redactor: Redactor | None = None) -> None:
        self.workspace = workspace
        self.redactor = redactor or Redactor()
        """Secret values are replaced before any text reaches the model, as in every observation."""

    def normalise(self, path: str) -> str | None:
        """The workspace-relative form of `path` (relative or absolute), or None when it is outside the
        project or names no regular file."""
        try:
            candidate = Path(path)
            if candidate.is_absolute():
                candidate = candidate.resolve()
                if not candidate.is_relative_to(self.workspace.root):
                    return None
                path = self.workspace.relative(candidate)
            target = self.workspace.resolve(path)
            if not target.is_file() or target.is_symlink():
                return None
            return self.workspace.relative(target)
        except (GlmAgentError, OSError, ValueError):
            return None

    def exists(self, path: str) -> bool:
        return self.normalise(path) is not None

    def text(self, path: str) -> str | None:
        """The file's text as it is (at most `FILE_CAP` * 4 characters), or None."""
        relative = self.normalise(path)
        if relative is None:
            return None
        try:
            with (self.workspace.root / relative).open(encoding="utf-8", errors="replace") as handle:
                return handle.read(FILE_CAP * 4)
        except OSError:
            return None

    def show(self, path: str) -> str | None:
        """The file's numbered text (as `read_file` shows it), or None when it cannot be shown as text."""
        try:
            observation = files.read_file(self.workspace, path)
        except (GlmAgentError, OSError, ValueError):
            return None
        return self.redactor(observation.output) if observation.status == "ok" else None


def files_named_in(output: str, view: FileView, limit: int = MAX_FROM_TESTS) -> list[str]:
    """Project files that test output names (traceback frames, `path:line` locations) and the project
    modules those test files import (an assertion that fails in a test names no code file); code before
    tests, in order of mention; at most `limit`."""
    found: list[str] = []
    for path, _line in locations_in(output):
        relative = view.normalise(path)
        if relative is not None and relative not in found:
            found.append(relative)
    tests = [p for p in found if is_test_path(p)]
    for test in tests:
        for imported in imported_files(test, view):
            if imported not in found:
                found.append(imported)
    code = [p for p in found if not is_test_path(p)]
    return (code + tests)[:limit]


#: `import a.b`, `from a.b import c`, `from . import c` (Python); `from './x'`, `require('../x')` (JS/TS).
_PY_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.MULTILINE)
_JS_IMPORT = re.compile(r"""(?:from\s+|require\()\s*['"](\.{1,2}/[^'"]+)['"]""")


def imported_files(path: str, view: FileView) -> list[str]:
    """The project files a source file imports, as far as its import lines say (Python modules from the
    project root or the file's folder; relative JavaScript and TypeScript paths)."""
    text = view.text(path)
    if text is None:
        return []
    folder = Path(path).parent
    candidates: list[str] = []
    if path.endswith(".py"):
        for match in _PY_IMPORT.finditer(text):
            module = (match.group(1) or match.group(2) or "").lstrip(".")
            if not module:
                continue
            base = module.replace(".", "/")
            for root in (Path(), folder):
                candidates += [(root / f"{base}.py").as_posix(), (root / base / "__init__.py").as_posix()]
    else:
        for match in _JS_IMPORT.finditer(text):
            base = (folder / match.group(1)).as_posix()
            candidates += [base, *(f"{base}{ext}" for ext in (".js", ".ts", ".jsx", ".tsx", ".mjs"))]
    found: list[str] = []
    for candidate in candidates:
        relative = view.normalise(candidate)
        if relative is not None and relative != path and relative not in found:
            found.append(relative)
    return found


class WorkingSet:
    """The files the model works on, most recent first, and every file whose text it has been shown."""

    def __init__(
        self,
        view: FileView,
        *,
        cap: int = FILES_CAP,
        file_cap: int = FILE_CAP,
        project_files: Callable[[], list[str]] | None = None,
    ) -> None:
        self.view = view
        self.cap = cap
        self.file_cap = file_cap
        self.project_files = project_files
        self.paths: list[str] = []
        self.seen: set[str] = set()

    def start_from(self, test_output: str) -> None:
        """Begin with the project files the failing test output names (code first)."""
        for path in reversed(files_named_in(test_output, self.view)):
            self.add(path)

    def add(self, path: str) -> None:
        """Put `path` (if it is a project file) at the front."""
        relative = self.view.normalise(path)
        if relative is None:
            return
        if relative in self.paths:
            self.paths.remove(relative)
        self.paths.insert(0, relative)
        del self.paths[MAX_FILES:]

    def mark_seen(self, path: str) -> None:
        relative = self.view.normalise(path)
        if relative is not None:
            self.seen.add(relative)

    def has_seen(self, path: str) -> bool:
        relative = self.view.normalise(path)
        return relative is None or relative in self.seen

    def namesake(self, path: str, diff: str | None = None) -> str | None:
        """The one project file a path that names no file evidently means, or None.

        Small models invent folders (`app/settings.py` for the root's `settings.py`). A relative path inside
        the project that names no file, read or edited (a diff with lines to find, not one creating the
        file), means the project file of the same name when there is exactly one; anything else (several
        namesakes, a diff creating the file, a path leaving the project) is left as given.
        """
        if self.project_files is None or self.view.exists(path):
            return None
        candidate = Path(path)
        if candidate.is_absolute() or ".." in candidate.parts or not candidate.name:
            return None
        if diff is not None and not _edits_existing_file(path, diff):
            return None
        try:
            listed = self.project_files()
        except (GlmAgentError, OSError, ValueError):
            return None
        found = [f for f in listed if f.rsplit("/", 1)[-1] == candidate.name]
        if len(found) != 1 or not self.view.exists(found[0]):
            return None
        return found[0]

    def capture(self, path: str) -> bytes | None:
        """The file's bytes now (None: it does not exist), to put back with `put_back`."""
        try:
            target = self.view.workspace.resolve(path)
            return target.read_bytes() if target.is_file() and not target.is_symlink() else None
        except (GlmAgentError, OSError, ValueError):
            return None

    def put_back(self, path: str, data: bytes | None) -> bool:
        """Make the file hold `data` again (written atomically; None: delete it); False when that failed."""
        workspace = self.view.workspace
        try:
            target = workspace.resolve(path, for_write=True)
            if data is None:
                if target.is_file() and not target.is_symlink():
                    workspace.delete(target)
            else:
                workspace.write_atomic(target, data)
        except (GlmAgentError, OSError, ValueError):
            return False
        return True

    def render(
        self, read_only: Callable[[str], bool] | None = None, failing: str | None = None
    ) -> list[tuple[str, str]]:
        """`(path, fenced text)` of the files to show now, within the budget, the files `read_only`
        names last and marked so; each counts as seen. `failing`: the output of a failing test run, whose
        report points at functions of the code files (`glmagent.tested_code`), named in their headers."""
        shown: list[tuple[str, str]] = []
        room = self.cap
        locked = [p for p in self.paths if read_only is not None and read_only(p)]
        for path in [p for p in self.paths if p not in locked] + locked:
            text = self.view.show(path)
            if text is None:
                continue
            if path in locked:
                text = text.replace(_HEADER_END, f"{_HEADER_END[:-1]}; {_LOCKED})", 1)
            elif failing:
                code = self.view.text(path) or ""
                used = used_definitions(failing, path, code)
                said = _pointers(used, data_read_by(code, used))
                if said:
                    text = text.replace(_HEADER_END, f"{_HEADER_END[:-1]}; {said})", 1)
            if len(text) > min(self.file_cap, room):
                if room < 1_000:
                    break
                text = _cut(text, min(self.file_cap, room))
            text = fenced(text)
            shown.append((path, text))
            self.seen.add(path)
            room -= len(text)
        return shown


def _pointers(used: list[Definition], data: list[Definition]) -> str:
    """What a file's header says of where the failing tests lead in it (the functions, the module-level
    values they read, the lines that raised), or ""."""
    named = [d.label() for d in used if d.name]
    lines = [d.label() for d in used if not d.name]
    reads = f" and the module values they read: {', '.join(d.label() for d in data)}" if data else ""
    said = [f"the failing tests use {', '.join(named)}{reads}"] if named else []
    return "; ".join(said + ([f"the error is raised at {', '.join(lines)}"] if lines else []))


def _edits_existing_file(path: str, diff: str) -> bool:
    """Whether `diff` edits a file (has lines to find in it) rather than creating it."""
    from glmagent.errors import PatchRejected
    from glmagent.patching import apply_patch

    try:
        apply_patch(path, None, diff)
    except PatchRejected as refused:
        return refused.reason == "missing_file"
    return False


_NUMBERED = re.compile(r" *(\d+) \| ?(.*)")


def fenced(listing: str) -> str:
    """A `read_file` listing as the prompt shows a file: its header, then its lines as they are, between
    Markdown fences instead of behind line numbers. A model asked for a file's whole new text copied the
    numbers and the ` | ` into it; a fenced file is what it was trained to rewrite. Notes of lines left out
    stand between fences and say which lines."""
    header, _, body = listing.partition("\n")
    header = header.replace("; line numbers are not part of the file", "")
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    out: list[str] = [header]
    block: list[str] = []
    last = 0
    pending_note: str | None = None
    for line in body.split("\n"):
        numbered = _NUMBERED.fullmatch(line)
        if numbered is None:
            pending_note = line
            continue
        number = int(numbered.group(1))
        if pending_note is not None or (block and number != last + 1):
            if block:
                out += [fence, *block, fence]
                block = []
            out.append(_left_out(last + 1, number - 1) if number > last + 1 else (pending_note or ""))
            pending_note = None
        block.append(numbered.group(2))
        last = number
    if block:
        out += [fence, *block, fence]
    if pending_note is not None:
        out.append(pending_note)
    return "\n".join(out)


def _left_out(first: int, last: int) -> str:
    return (
        f'[... lines {first}-{last} not shown here; read_file with "lines": "{first}-{last}" shows them ...]'
    )


def _cut(text: str, limit: int) -> str:
    """The start and end of a numbered file text, whole lines only, with a note on what is left out."""
    lines = text.splitlines()
    head: list[str] = []
    tail: list[str] = []
    used = 0
    budget = limit - 200
    for line in lines:
        if used + len(line) + 1 > budget * 2 // 3:
            break
        head.append(line)
        used += len(line) + 1
    for line in reversed(lines[len(head) :]):
        if used + len(line) + 1 > budget:
            break
        tail.insert(0, line)
        used += len(line) + 1
    left_out = len(lines) - len(head) - len(tail)
    if len(head) < 2:  # a few very long lines (minified code, a log): show their start instead of nothing
        return (
            text[: max(0, budget)] + f"\n[... {len(text) - max(0, budget):,} characters not shown here ...]"
        )
    note = f"[... {left_out} lines not shown here; read_file shows more ...]"
    return "\n".join([*head, note, *tail])
