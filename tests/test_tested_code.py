"""The functions of a code file a failing test report points at, named in the file's header in the prompt."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from conftest import WORDS_MODULE, plan, run_scripted

from glmagent.tested_code import MAX_DATA, MAX_LISTED, Definition, data_read_by, used_definitions

WORDS = WORDS_MODULE.decode() + "\n\ndef unused(text):\n    return text\n"

# What `python -m pytest -q` printed for the bench's word_case task (long format, as the loop keeps it).
WORDS_REPORT = """FF.                                                                      [100%]
=================================== FAILURES ===================================
____________________________ test_case_insensitive _____________________________

    def test_case_insensitive():
>       assert word_counts("The cat saw the dog") == {"the": 2, "cat": 1, "saw": 1, "dog": 1}
E       AssertionError: assert {'The': 1, 'c...'the': 1, ...} == {'the': 2, 'c...: 1, 'dog': 1}

tests/test_words.py:5: AssertionError
_______________________________ test_most_common _______________________________

    def test_most_common():
>       assert most_common("Go go GO stop") == "go"
E       AssertionError: assert 'Go' == 'go'

tests/test_words.py:9: AssertionError
2 failed, 1 passed
"""


def test_the_functions_the_failing_lines_call_are_named_with_their_lines() -> None:
    used = used_definitions(WORDS_REPORT, "words.py", WORDS)

    assert used == [Definition("word_counts", 1, 6), Definition("most_common", 9, 11)]
    assert [d.label() for d in used] == ["word_counts (lines 1-6)", "most_common (lines 9-11)"]


def test_a_traceback_into_the_file_names_the_function_holding_the_line() -> None:
    stats = "def mean(values):\n    total = sum(values)\n    return total / len(values)\n"
    report = (
        "    def test_mean_of_nothing():\n>       assert compute([]) == 0.0\n\n"
        "tests/test_stats.py:4:\n_ _ _ _\n\n    def mean(values):\n        total = sum(values)\n"
        ">       return total / len(values)\nE       ZeroDivisionError: division by zero\n\n"
        "/tmp/project/stats.py:3: ZeroDivisionError\n"
    )

    assert used_definitions(report, "stats.py", stats) == [Definition("mean", 1, 3)]
    unquoted = report.replace("    def mean(values):\n", "")  # the frame's location alone
    assert used_definitions(unquoted, "stats.py", stats) == [Definition("mean", 1, 3)]
    assert used_definitions(unquoted, "other/stats.py", stats) == []  # another folder's stats.py


def test_a_traceback_line_outside_every_function_is_named_by_its_line() -> None:
    # After a rename the caller's import fails at its first line: no function holds it.
    checkout = "from shop.pricing import calc_total\n\n\ndef checkout(cart):\n    return calc_total(cart)\n"
    report = (
        "tests/test_shop.py:1: in <module>\n    from shop.checkout import checkout\n"
        "shop/checkout.py:1: in <module>\n    from shop.pricing import calc_total\n"
        "E   ImportError: cannot import name 'calc_total' from 'shop.pricing'\n"
    )

    [line] = used_definitions(report, "shop/checkout.py", checkout)

    assert (line.name, line.first, line.label()) == ("", 1, "line 1")


def test_a_class_whose_method_is_used_too_is_named_once() -> None:
    todo = "class TodoList:\n    def __init__(self, items=[]):\n        self.items = items\n\n"
    todo += "    def add(self, text):\n        self.items.append(text)\n"
    report = (
        "    def test_lists():\n        first = TodoList()\n        first.add('milk')\n>       assert 0\n"
    )

    assert used_definitions(report, "todo.py", todo) == [Definition("TodoList", 1, 6)]


@pytest.mark.parametrize(
    ("path", "text", "report"),
    [
        ("words.js", WORDS, WORDS_REPORT),  # not Python
        ("words.py", "def word_counts(text:\n", WORDS_REPORT),  # does not parse
        ("words.py", WORDS, "E       AssertionError: word_counts(x) is wrong\n"),  # an error line, not code
        ("words.py", WORDS, ""),
    ],
    ids=["not python", "unparseable", "only an error line", "no report"],
)
def test_nothing_is_named_without_a_python_file_and_quoted_code_calling_it(
    path: str, text: str, report: str
) -> None:
    assert used_definitions(report, path, text) == []


def test_at_most_a_few_are_named() -> None:
    text = "".join(f"def f{n}():\n    return {n}\n\n\n" for n in range(10))
    report = ">       assert " + " + ".join(f"f{n}()" for n in range(10)) + " == 0\n"

    assert [d.name for d in used_definitions(report, "m.py", text)] == [f"f{n}" for n in range(MAX_LISTED)]


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_the_prompt_names_them_in_the_files_header_while_the_tests_fail(tmp_path: Path) -> None:
    (tmp_path / "words.py").write_text(WORDS, encoding="utf-8")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_words.py").write_text(
        "from words import word_counts\n\n\ndef test_case_insensitive():\n"
        '    assert word_counts("The the") == {"the": 2}\n',
        encoding="utf-8",
    )
    fixed = {
        "search": ["    for word in text.split():"],
        "replace": ["    for word in text.lower().split():"],
    }

    result, planner, _records = run_scripted(
        tmp_path,
        [plan({"tool": "apply_diff", "path": "words.py", "edits": [fixed]})],
        test_command=f"{shlex.quote(sys.executable)} -m pytest -q -p no:cacheprovider",
        description="count words case-insensitively",
    )

    assert result.success
    first = "\n".join(m.content for m in planner.requests[0] if m.role == "user")
    assert "## words.py (15 lines; the failing tests use " in first
    assert (
        "word_counts (lines 1-6)):" in first and "unused" not in first.split("## words.py")[1].split("\n")[0]
    )


def test_a_files_header_says_where_the_error_is_raised_and_what_the_tests_use(tmp_path: Path) -> None:
    from glmagent.focus import FileView, WorkingSet
    from glmagent.workspace import Workspace

    shop = tmp_path / "shop"
    shop.mkdir()
    (shop / "checkout.py").write_text(
        "from shop.pricing import calc_total\n\n\ndef checkout(cart):\n    return calc_total(cart)\n",
        encoding="utf-8",
    )
    report = (
        "    def test_checkout():\n>       assert checkout([]) == 0\n\n"
        "shop/checkout.py:1: in <module>\n    from shop.pricing import calc_total\nE   ImportError: no\n"
    )
    files = WorkingSet(FileView(Workspace(tmp_path)))
    files.add("shop/checkout.py")

    [(_path, text)] = files.render(failing=report)
    [(_path, passing)] = files.render()

    assert text.splitlines()[0] == (
        "shop/checkout.py (5 lines; the failing tests use checkout (lines 4-5); "
        "the error is raised at line 1):"
    )
    assert passing.splitlines()[0] == "shop/checkout.py (5 lines):"


SETTINGS = """\"\"\"Connection settings.\"\"\"

__all__ = ["load"]
DEFAULTS = {
    "host": "localhost",
    "timeout": 3,
}
RETRIES: int = 2
UNUSED = 1
settings = None


def load(overrides=None):
    settings = dict(DEFAULTS)
    settings.update(overrides or {})
    return settings


def retries():
    return RETRIES
"""


def test_the_module_values_a_used_function_reads_are_named_with_their_lines() -> None:
    load = Definition("load", 13, 16)

    # `settings` is assigned at the top level too, but inside load it is load's own
    assert data_read_by(SETTINGS, [load]) == [Definition("DEFAULTS", 4, 7)]
    assert data_read_by(SETTINGS, [load, Definition("retries", 19, 20)]) == [
        Definition("DEFAULTS", 4, 7),
        Definition("RETRIES", 8, 8),
    ]


@pytest.mark.parametrize(
    ("text", "used"),
    [
        (SETTINGS, [Definition("", 14, 14)]),  # a raising line, no function
        (SETTINGS, []),
        (SETTINGS.replace("def load", "def load("), [Definition("load", 13, 16)]),  # does not parse
        (SETTINGS, [Definition("retries", 13, 16)]),  # a name whose lines hold another function
    ],
    ids=["no named function", "nothing used", "unparseable", "name and lines disagree"],
)
def test_no_module_values_are_named_without_a_named_function_reading_them(
    text: str, used: list[Definition]
) -> None:
    assert data_read_by(text, used) == []


def test_at_most_a_few_module_values_are_named() -> None:
    text = (
        "".join(f"V{n} = {n}\n" for n in range(10))
        + "\n\ndef f():\n    return "
        + " + ".join(f"V{n}" for n in range(10))
    )

    assert [d.name for d in data_read_by(text, [Definition("f", 13, 14)])] == [
        f"V{n}" for n in range(MAX_DATA)
    ]


def test_a_files_header_names_the_module_values_the_used_function_reads(tmp_path: Path) -> None:
    from glmagent.focus import FileView, WorkingSet
    from glmagent.workspace import Workspace

    (tmp_path / "settings.py").write_text(SETTINGS, encoding="utf-8")
    report = (
        '    def test_default_timeout():\n>       assert load()["timeout"] == 30\nE       assert 3 == 30\n'
    )
    files = WorkingSet(FileView(Workspace(tmp_path)))
    files.add("settings.py")

    [(_path, text)] = files.render(failing=report)

    assert text.splitlines()[0].endswith(
        "the failing tests use load (lines 13-16) and the module values they read: DEFAULTS (lines 4-7)):"
    )
