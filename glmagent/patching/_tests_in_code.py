"""Refuse an edit that puts test functions into a file of code.

A small model shown the code and its failing tests sent the code file whole with the test file's tests
appended (`def test_includes_both_ends(): ...` under `date_range`). Most of the file's lines came back, so it
read as the file revised and was written: the user's module gained copies of their tests that pytest never
collects from it. Refused before the write, the model is told that tests live in the test files and that
only the code changes.

Only top-level `test_*` functions and `TestX` classes the edit adds count, and only in a file that is not a
test file (`glmagent.testpaths.is_test_path`); a file that did not parse before, or a non-Python file, is left
to the edit, as `_syntax` and `_names` leave them.
"""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

from glmagent.errors import PatchRejected
from glmagent.patching._syntax import PYTHON_SUFFIXES
from glmagent.testpaths import is_test_path

_TEST_CLASS = re.compile(r"Test(?:[A-Z0-9_]|$)")
"""`TestRange`, `Test_x`: pytest's test classes, not `Testament`."""
_MAX_LINES = 10_000
"""Longer files are not judged (parsing one costs a few milliseconds per thousand lines)."""


def _test_definitions(data: bytes) -> set[str] | None:
    """Names of the top-level test functions and test classes `data` defines; None when it does not parse."""
    try:
        body = ast.parse(data).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    names = set()
    for node in body:
        if (isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_")) or (
            isinstance(node, ast.ClassDef) and _TEST_CLASS.match(node.name)
        ):
            names.add(node.name)
    return names


def check_no_tests_added(path: str, before: bytes | None, after: bytes) -> None:
    """Raise `PatchRejected(reason="tests_in_code")` when `after` (the edited bytes of `path`, a Python file
    that is not a test file) defines a top-level `test_*` function or `TestX` class that `before` did not.
    A new file (`before` None) is not judged: a model may be asked to create one."""
    if before is None or PurePosixPath(path).suffix.lower() not in PYTHON_SUFFIXES or is_test_path(path):
        return
    if after.count(b"\n") > _MAX_LINES or (b"def test_" not in after and b"class Test" not in after):
        return
    had = _test_definitions(before)
    now = _test_definitions(after)
    if had is None or now is None:
        return
    added = sorted(now - had)
    if added:
        listed = ", ".join(added[:5]) + (f" and {len(added) - 5} more" if len(added) > 5 else "")
        raise PatchRejected(
            f"With this diff {path} would define {listed}: tests, in a file of code, so it was not applied. "
            "Tests live in the test files, and the loop runs them itself; send only the code the tests "
            "need changed, without copying any test into it.",
            reason="tests_in_code",
        )
