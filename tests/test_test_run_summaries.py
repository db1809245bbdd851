"""The one line a test run is condensed to (what the model, the summary and the audit log show), and the
file locations taken from its output."""

from __future__ import annotations

from glmagent.testing import locations_in, summarise_test_run


def test_a_tool_with_run_and_nothing_after_it_is_named_without_a_crash() -> None:
    assert summarise_test_run("npm run", True, "") == "npm run passed"
    assert summarise_test_run("npm run test:unit", True, "") == "npm run test:unit passed"


def test_a_run_that_timed_out_says_so_whatever_it_printed() -> None:
    output = "FAILED tests/t.py::test_x - assert 1 == 2\n1 failed in 0.1s\n"
    assert summarise_test_run("pytest -q", False, output, timed_out=True) == "pytest timed out"


def test_pytests_full_closing_line_gives_only_the_bad_news() -> None:
    output = (
        "FAILED tests/t.py::test_x - assert 1 == 2\n"
        "ERROR tests/t.py::test_y - fixture 'db' not found\n"
        "============ 1 failed, 2 passed, 1 skipped, 1 error in 0.12s ============\n"
    )
    assert summarise_test_run("python -m pytest", False, output) == (
        "pytest failed: 1 failed, 1 error in tests/t.py::test_x, tests/t.py::test_y"
    )


def test_a_failure_without_a_closing_line_shows_its_last_line() -> None:
    assert summarise_test_run("./check.sh", False, "checking\nsomething broke\n\n") == (
        "tests failed: something broke"
    )


def test_locations_come_from_tracebacks_and_pytest_reports_first_mention_first() -> None:
    output = (
        'Traceback (most recent call last):\n  File "/work/app/slug.py", line 12, in slugify\n'
        "tests/test_slug.py:7: in test_dash\nE   assert ...\n/work/app/slug.py:40: AssertionError\n"
    )
    assert locations_in(output) == [("/work/app/slug.py", 12), ("tests/test_slug.py", 7)]
