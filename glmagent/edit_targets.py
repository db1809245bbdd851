"""Which files an `apply_diff` may name, where the planner's server holds replies to a schema.

Shown a failing test, a small model often edits the test instead of the code: in the live bench's audit
logs 80 of 519 replies of the 1.5B model had an edit of a protected test file refused (18 of them first
replies), and a refused reply is an iteration spent. The loop refuses those edits whatever happens; where
the server enforces the strict schema while the model writes (llama.cpp, vLLM, Ollama, OpenAI's strict
mode), the schema can also leave them out: `apply_diff`'s `path` becomes one of the project's files that
are not tests, and the model's first choice of a file is a file it may change.

That closes the way to new files, so the paths are narrowed only where the task is a fix of failing tests
that do not ask for a missing file (`No module named ...`, `FileNotFoundError`: a task that needs a new
file keeps the free path), test files are protected, and the project is small enough for an `enum`
(`MAX_PATHS`, `MAX_CHARS`). A file created since (by a command) is listed from the next request on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

MAX_PATHS = 200
"""Most paths a narrowed schema lists (OpenAI's strict mode takes up to 500 enum values)."""
MAX_CHARS = 6_000
"""Most characters those paths may hold together (OpenAI's limit for a large enum is 7,500)."""

_MISSING_FILE = re.compile(
    r"No module named|ModuleNotFoundError|FileNotFoundError|No such file or directory|Cannot find module|"
    r"cannot find package|ENOENT",
    re.IGNORECASE,
)
"""Failures that may ask for a file the project does not have yet."""


@runtime_checkable
class EditTargetingPlanner(Protocol):
    """A planner that can hold its next replies' `apply_diff` paths to a list (through the strict schema)."""

    def limit_edit_paths(self, paths: Sequence[str] | None) -> None:
        """From the next request on, `apply_diff` may name only `paths`; None lifts the limit."""
        ...


def edit_targets(
    list_files: Callable[[], Sequence[str]], is_test: Callable[[str], bool], failing_output: str | None
) -> list[str] | None:
    """The paths `apply_diff` may name, or None for no limit.

    `list_files()`: the project's files now (listed only when the output leaves a limit possible);
    `is_test(path)`: whether a path is a protected test file; `failing_output`: the latest test run's output
    while the tests fail (None when they pass or are not run: no failing test to turn the model from)."""
    if failing_output is None or _MISSING_FILE.search(failing_output):
        return None
    files = list_files()
    editable = [path for path in files if not is_test(path)]
    if not editable or len(editable) == len(files) or len(editable) > MAX_PATHS:
        return None  # nothing to steer away from, or too many to list
    if sum(len(path) + 3 for path in editable) > MAX_CHARS:
        return None
    return editable
