"""A diff that would leave a parsing Python file unparseable is refused before the write, with the line.

Seen in the live bench's audit logs: a 1.5B model put `elif score < 60: return 'F'` under a `raise`. Written,
every test errored at import, the change was undone after a test run, and the model went on sending diffs
against the lines it believed it had added. Refused at once, it is told where the result breaks.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from conftest import plan, run_scripted

from glmagent.errors import PatchRejected
from glmagent.patching import apply_patch

GRADES = '''def letter_grade(score):
    """The letter for a score from 0 to 100."""
    if not 0 <= score <= 100:
        raise ValueError(f"score out of range: {score}")
    if score >= 90:
        return "A"
    elif score >= 60:
        return "D"
'''
ELIF_UNDER_RAISE = """<<<<<<< SEARCH
    if not 0 <= score <= 100:
        raise ValueError(f"score out of range: {score}")
=======
    if not 0 <= score <= 100:
        raise ValueError(f"score out of range: {score}")
        elif score < 60:
            return 'F'
>>>>>>> REPLACE
"""
GOOD_FIX = """<<<<<<< SEARCH
    elif score >= 60:
        return "D"
=======
    elif score >= 60:
        return "D"
    return "F"
>>>>>>> REPLACE
"""


def _refusal(path: str, original: bytes | None, diff: str) -> PatchRejected:
    with pytest.raises(PatchRejected) as caught:
        apply_patch(path, original, diff)
    return caught.value


def test_a_diff_breaking_a_python_file_is_refused_naming_the_line_and_showing_the_result() -> None:
    refused = _refusal("grades.py", GRADES.encode(), ELIF_UNDER_RAISE)
    message = str(refused)
    assert refused.reason == "syntax_error"
    assert "grades.py would no longer be valid Python (line 5: invalid syntax" in message
    assert "5 >         elif score < 60:" in message  # the result as it would read, the line marked
    assert "4           raise ValueError" in message and "7       if score >= 90:" in message


@pytest.mark.parametrize(
    ("broken", "what"),
    [
        ("    return total /\n", "invalid syntax"),
        ("  return total / len(values)\n", "unindent does not match"),
        ("    return (total\n", "was never closed"),
        ("    if values:\n", "expected an indented block"),
    ],
    ids=["dangling-operator", "indentation", "unclosed-bracket", "block-without-body"],
)
def test_each_kind_of_broken_structure_is_refused(broken: str, what: str) -> None:
    source = b"def mean(values):\n    total = sum(values)\n    return total / len(values)\n"
    diff = f"<<<<<<< SEARCH\n    return total / len(values)\n=======\n{broken}>>>>>>> REPLACE\n"
    refused = _refusal("stats.py", source, diff)
    assert refused.reason == "syntax_error" and what in str(refused)


def test_a_valid_fix_to_the_same_file_applies() -> None:
    result = apply_patch("grades.py", GRADES.encode(), GOOD_FIX)
    assert result.content is not None and result.content.decode().endswith('    return "F"\n')


def test_a_file_that_did_not_parse_before_is_left_to_the_diff() -> None:
    """The task may be to fix a broken file, one step at a time: its edits are not judged by syntax."""
    broken = b"def f(:\n    return 1\n"
    result = apply_patch("broken.py", broken, "@@ -2 +2 @@\n-    return 1\n+    return 2 +\n")
    assert result.content == b"def f(:\n    return 2 +\n"


@pytest.mark.parametrize("path", ["grades.txt", "grades.js", "Makefile", "grades.pyx", "notes.md"])
def test_files_that_are_not_python_are_not_parsed(path: str) -> None:
    result = apply_patch(path, GRADES.encode(), ELIF_UNDER_RAISE)
    assert result.content is not None and b"elif score < 60" in result.content


@pytest.mark.parametrize("path", ["pkg/Grades.PY", "stubs/grades.pyi", "gui/grades.pyw"])
def test_every_python_suffix_is_parsed(path: str) -> None:
    assert _refusal(path, GRADES.encode(), ELIF_UNDER_RAISE).reason == "syntax_error"


def test_a_new_python_file_must_parse() -> None:
    diff = "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,2 @@\n+def f()\n+    return 1\n"
    refused = _refusal("new.py", None, diff)
    assert refused.reason == "syntax_error" and "line 1" in str(refused)
    good = "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,2 @@\n+def f():\n+    return 1\n"
    assert apply_patch("new.py", None, good).action == "create"


def test_a_coding_declaration_is_read_as_python_reads_it() -> None:
    """Latin-1 bytes with their declaration parse; the check must not refuse an edit of such a file."""
    source = "# -*- coding: latin-1 -*-\nNAME = 'café'\n".encode("latin-1")
    result = apply_patch("old.py", source, "@@ -2 +2 @@\n-NAME = 'café'\n+NAME = 'naïve'\n")
    assert result.content is not None and result.content.endswith("NAME = 'naïve'\n".encode("latin-1"))


def test_deleting_a_python_file_is_not_parsed() -> None:
    diff = "--- a/grades.py\n+++ /dev/null\n" + "".join(f"-{line}\n" for line in GRADES.splitlines())
    diff = diff.replace("+++ /dev/null\n", f"+++ /dev/null\n@@ -1,{len(GRADES.splitlines())} +0,0 @@\n", 1)
    assert apply_patch("grades.py", GRADES.encode(), diff).action == "delete"


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_in_the_loop_the_file_is_untouched_and_the_model_is_told_at_once(tmp_path: Path) -> None:
    """No test run is needed to find the break, and nothing is undone: the next prompt carries the refusal."""
    (tmp_path / "grades.py").write_text(GRADES, encoding="utf-8")
    (tmp_path / "test_grades.py").write_text(
        "from grades import letter_grade\n\n\ndef test_fail():\n    assert letter_grade(42) == 'F'\n",
        encoding="utf-8",
    )
    code = "from grades import letter_grade; assert letter_grade(42) == 'F'"
    replies = [
        plan({"tool": "apply_diff", "path": "grades.py", "diff": ELIF_UNDER_RAISE}),
        plan({"tool": "apply_diff", "path": "grades.py", "diff": GOOD_FIX}),
    ]

    result, planner, records = run_scripted(
        tmp_path,
        replies,
        test_command=f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}",
        description="scores below 60 get an F",
    )

    assert result.success and result.iterations == 2
    second = "\n".join(m.content for m in planner.requests[1] if m.role == "user")
    assert "grades.py would no longer be valid Python (line 5" in second
    assert "Undid" not in second and "undone" not in second
    first = next(r for r in records if r["event"] == "action")
    assert first["status"] == "failed" and first["details"]["reason"] == "syntax_error"
