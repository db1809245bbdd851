"""Which project paths are tests: the one rule the loop, the prompt and the patcher share."""

from __future__ import annotations

import re

_TEST_DIRS = frozenset({"test", "tests", "testing", "spec", "specs", "__tests__", "testdata"})
_TEST_NAME = re.compile(
    r"^(test_.*|.*_test|.*_tests|.*\.test|.*\.spec|.*_spec|.*Tests?|conftest)\.\w+$|^(pytest\.ini|tox\.ini|"
    r"jest\.config\.\w+|vitest\.config\.\w+|\.mocharc.*)$"
)


def is_test_path(path: str) -> bool:
    """Whether a project path is a test file, or configuration that decides which tests run: in a test
    folder, named like one (`test_x.py`, `x_test.go`, `x.spec.ts`, `XTest.java`), `conftest.py`,
    `pytest.ini`."""
    parts = path.replace("\\", "/").split("/")
    if any(part.lower() in _TEST_DIRS for part in parts[:-1]):
        return True
    return bool(_TEST_NAME.match(parts[-1]))
