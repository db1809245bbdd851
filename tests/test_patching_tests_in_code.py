"""An edit that copies tests into a file of code is refused; tests edited where they live are not."""

from __future__ import annotations

import pytest

from glmagent.errors import PatchRejected
from glmagent.patching import apply_edits, apply_patch

CODE = b'''from datetime import date, timedelta


def date_range(start: date, end: date) -> list[date]:
    """Every day from start to end."""
    days = []
    current = start
    while current < end:
        days.append(current)
        current += timedelta(days=1)
    return days
'''
FIXED = CODE.decode().replace("while current < end:", "while current <= end:")
COPIED_TESTS = """

def test_includes_both_ends():
    assert date_range(date(2024, 2, 27), date(2024, 2, 28)) == [date(2024, 2, 27), date(2024, 2, 28)]


def test_single_day():
    assert date_range(date(2024, 1, 1), date(2024, 1, 1)) == [date(2024, 1, 1)]
"""


def whole(path: str, original: bytes | None, text: str) -> bytes | None:
    """The file `apply_edits` writes for `text` sent as the file's whole new content."""
    return apply_edits(path, original, [([], text.removesuffix("\n").split("\n"))], content=True).content


def test_the_code_file_sent_whole_with_the_tests_appended_is_refused_and_says_why() -> None:
    # A small model's reply, as it came (live run 35, dates_inclusive): the file with the tests after it.
    with pytest.raises(PatchRejected) as refused:
        whole("calendar_utils.py", CODE, FIXED + COPIED_TESTS)
    assert refused.value.reason == "tests_in_code"
    message = str(refused.value)
    assert "test_includes_both_ends, test_single_day" in message and "calendar_utils.py" in message
    assert "Tests live in the test files" in message


def test_the_same_fix_without_the_copied_tests_applies() -> None:
    assert whole("calendar_utils.py", CODE, FIXED) == FIXED.encode()


def test_a_test_class_added_by_search_and_replace_is_refused_too() -> None:
    edit = (
        ["    return days"],
        ["    return days", "", "", "class TestRange:", "    def test_one(self):", "        pass"],
    )
    with pytest.raises(PatchRejected) as refused:
        apply_edits("calendar_utils.py", CODE, [edit])
    assert refused.value.reason == "tests_in_code" and "TestRange" in str(refused.value)


def test_a_unified_diff_adding_a_test_function_is_refused() -> None:
    diff = (
        "--- a/calendar_utils.py\n+++ b/calendar_utils.py\n@@ -10,2 +10,6 @@\n"
        "         current += timedelta(days=1)\n     return days\n"
        "+\n+\n+def test_empty():\n+    assert True\n"
    )
    with pytest.raises(PatchRejected) as refused:
        apply_patch("calendar_utils.py", CODE, diff)
    assert refused.value.reason == "tests_in_code"


@pytest.mark.parametrize(
    "path", ["tests/test_calendar.py", "test_calendar.py", "conftest.py", "spec/helpers.py"]
)
def test_tests_added_to_a_test_file_apply(path: str) -> None:
    assert whole(path, CODE, FIXED + COPIED_TESTS) == (FIXED + COPIED_TESTS).encode()


def test_a_test_function_the_code_file_already_had_may_stay_and_change() -> None:
    before = CODE + b"\n\ndef test_helper():\n    return 1\n"
    after = before.decode().replace("return 1", "return 2").replace("current < end", "current <= end")
    assert whole("calendar_utils.py", before, after) == after.encode()


def test_a_new_file_and_a_file_of_another_language_are_not_judged() -> None:
    created = apply_patch(
        "helpers.py", None, "--- /dev/null\n+++ b/helpers.py\n@@ -0,0 +1,2 @@\n+def test_x():\n+    pass\n"
    )
    assert created.content == b"def test_x():\n    pass\n"
    script = b"echo start\n"
    assert (
        whole("run.sh", script, "echo start\ndef test_x() { :; }\n") == b"echo start\ndef test_x() { :; }\n"
    )


def test_names_that_only_start_like_a_test_are_code() -> None:
    added = FIXED + "\n\ndef testimony():\n    return 'said'\n\n\nclass Testament:\n    pass\n"
    assert whole("calendar_utils.py", CODE, added) == added.encode()
