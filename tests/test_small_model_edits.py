"""The edit forms a small model gets right, and what it is shown: SEARCH/REPLACE blocks, a changed block
placed by its removed lines when the context around it is wrong, a refusal that names the file line a
mistyped one meant, test output without what models copy by mistake, and a symbol map."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import WORDS_MODULE

from glmagent.errors import PatchRejected
from glmagent.patching import apply_patch
from glmagent.project_map import project_map
from glmagent.testing import is_test_path, locations_in, task_allows_test_changes, trim_test_output

STATS = b'''"""Small statistics helpers."""


def mean(values):
    """Return the arithmetic mean of values."""
    return sum(values) / len(values)


def spread(values):
    """Return the difference between the largest and the smallest value."""
    return max(values) - min(values)
'''
FIXED = STATS.replace(
    b"    return sum(values) / len(values)\n",
    b"    if len(values) == 0:\n        return 0.0\n    return sum(values) / len(values)\n",
)


def _refused(path: str, content: bytes, diff: str) -> PatchRejected:
    """The refusal `apply_patch` answers the diff with (the test fails when it applies)."""
    with pytest.raises(PatchRejected) as refused:
        apply_patch(path, content, diff)
    return refused.value


def test_the_reported_small_model_diff_is_applied_where_its_removed_line_is() -> None:
    # A 1.5B model's reply: the docstring lost its final '.', and the return line is both context and
    # removed. Its change is clear all the same: the removed line occurs once, and is replaced.
    diff = (
        "--- a/stats.py\n+++ b/stats.py\n@@ -4,3 +4,5 @@\n def mean(values):\n"
        '     """Return the arithmetic mean of values"""\n     return sum(values) / len(values)\n'
        "-    return sum(values) / len(values)\n+    if len(values) == 0:\n+        return 0.0\n"
        "+    return sum(values) / len(values)\n"
    )

    result = apply_patch("stats.py", STATS, diff)

    assert result.content == FIXED
    [note] = [n for h in result.hunks for n in h.notes]
    assert "do not match the file and were ignored" in note and "line 6" in note


def test_a_changed_block_whose_removed_lines_occur_twice_is_still_refused() -> None:
    twice = STATS + b"\n\ndef average(values):\n    return sum(values) / len(values)\n"
    diff = "@@\n def mean(vals):\n-    return sum(values) / len(values)\n+    return 0.0\n"

    refused = _refused("stats.py", twice, diff)

    assert refused.reason == "stale_context"


def test_a_changed_block_split_by_context_is_not_placed_by_its_removed_lines() -> None:
    diff = "@@\n def mean(vals):\n-    return sum(values) / len(values)\n wrong line\n+    return 0.0\n"

    refused = _refused("stats.py", STATS, diff)

    assert refused.reason == "stale_context"


def test_search_replace_blocks_edit_one_place_each() -> None:
    diff = (
        "Here is the change:\n```\n<<<<<<< SEARCH\n    return sum(values) / len(values)\n=======\n"
        "    if len(values) == 0:\n        return 0.0\n    return sum(values) / len(values)\n"
        ">>>>>>> REPLACE\n<<<<<<< SEARCH\n    return max(values) - min(values)\n=======\n"
        "    return max(values) - min(values) if values else 0\n>>>>>>> REPLACE\n```\n"
    )

    result = apply_patch("stats.py", STATS, diff)

    assert result.content == FIXED.replace(b"min(values)\n", b"min(values) if values else 0\n")
    assert len(result.hunks) == 2


def test_search_replace_with_an_empty_search_creates_a_missing_file() -> None:
    result = apply_patch("new.py", None, "<<<<<<< SEARCH\n=======\nVALUE = 1\n>>>>>>> REPLACE\n")

    assert result.action == "create" and result.content == b"VALUE = 1\n"


FIX_LINES = "    if len(values) == 0:\n        return 0.0\n    return sum(values) / len(values)\n"


@pytest.mark.parametrize("opening", ["<<<<<<< HEAD", "<<<<<<< stats.py", "<<<<<<<", "<<<<< 1"])
@pytest.mark.parametrize(
    "closing", [">>>>>>> HEAD", ">>>>>>> REPLACE", ">>>>>>> updated", ">>>>>>>", ">>>>>> 1"]
)
def test_git_conflict_blocks_are_read_as_search_replace_blocks(opening: str, closing: str) -> None:
    # The 1.5B model's other form: old lines above '=======', new ones below, between conflict markers.
    diff = f"{opening}\n    return sum(values) / len(values)\n=======\n{FIX_LINES}{closing}\n"

    assert apply_patch("stats.py", STATS, diff).content == FIXED


def _numbered(text: bytes) -> str:
    """`text` as the prompt shows a file: ` 7 |     return x`."""
    return "".join(f"{n:>2} | {line}\n" for n, line in enumerate(text.decode().splitlines(), 1))


def test_lines_copied_with_the_prompts_line_numbers_are_read_without_them() -> None:
    # The bench's model, offered to send a short file whole, copied it with the numbers shown beside it.
    both = f"<<<<<<< SEARCH\n{_numbered(STATS)}=======\n{_numbered(FIXED)}>>>>>>> REPLACE\n"
    whole = f"<<<<<<< HEAD\n=======\n{_numbered(FIXED)}>>>>>>> HEAD\n"

    assert apply_patch("stats.py", STATS, both).content == FIXED
    assert apply_patch("stats.py", STATS, whole).content == FIXED


def test_numbered_new_lines_beside_unnumbered_old_ones_are_taken_as_written() -> None:
    table = b"# Steps\n\n1 | build\n2 | test\n"
    diff = "<<<<<<< SEARCH\n1 | build\n2 | test\n=======\n1 | build\n2 | lint\n3 | test\n>>>>>>> REPLACE\n"

    assert apply_patch("STEPS.md", table, diff).content == b"# Steps\n\n1 | build\n2 | lint\n3 | test\n"


def test_conflict_markers_in_a_unified_diff_are_lines_of_the_file() -> None:
    merged = b"a = 1\n<<<<<<< HEAD\nb = 2\n=======\nb = 3\n>>>>>>> other\nc = 4\n"
    diff = "@@ -1,3 +1,3 @@\n a = 1\n-<<<<<<< HEAD\n+<<<<<<< ours\n b = 2\n"

    result = apply_patch("notes.txt", merged, diff)

    assert result.content == merged.replace(b"<<<<<<< HEAD", b"<<<<<<< ours")


@pytest.mark.parametrize("ending", ["", "=======\n", "=======\n\n"])
def test_a_last_conflict_block_may_end_with_the_text(ending: str) -> None:
    # The model's replies were complete (valid JSON), so every line after the divider is what it meant.
    diff = f"<<<<<<< HEAD\n    return sum(values) / len(values)\n=======\n{FIX_LINES}{ending}"

    assert apply_patch("stats.py", STATS, diff).content == FIXED


def test_a_conflict_block_left_open_before_more_markers_is_not_guessed_at() -> None:
    diff = (
        "<<<<<<< HEAD\n    return sum(values) / len(values)\n=======\n    return 0.0\n"
        "<<<<<<< HEAD\n    return max(values) - min(values)\n=======\n    return 0\n"
    )

    refused = _refused("stats.py", STATS, diff)

    assert refused.reason == "unparseable"


def _whole(content: bytes) -> str:
    return "<<<<<<< SEARCH\n=======\n" + content.decode() + ">>>>>>> REPLACE\n"


def test_a_short_file_sent_whole_is_applied_as_the_change_it_makes() -> None:
    result = apply_patch("stats.py", STATS, _whole(FIXED))

    assert result.content == FIXED
    assert (result.added, result.removed) == (2, 0)
    assert "@@ -3,6 +3,8 @@" in result.diff  # the change with real context, not the whole file replaced
    assert "read as the whole file rewritten" in result.summary()


def test_a_file_sent_whole_changes_the_right_one_of_repeated_lines() -> None:
    original = b"x = 1\n" * 10
    wanted = b"x = 1\n" * 5 + b"x = 2\n" + b"x = 1\n" * 4

    assert apply_patch("values.txt", original, _whole(wanted)).content == wanted


def test_a_file_sent_whole_keeps_the_files_line_endings_and_final_newline() -> None:
    crlf = STATS.replace(b"\n", b"\r\n").rstrip(b"\r\n")

    result = apply_patch("stats.py", crlf, _whole(FIXED))

    assert result.content == FIXED.replace(b"\n", b"\r\n").rstrip(b"\r\n")


@pytest.mark.parametrize(
    ("content", "says"),
    [
        # another file's content: most lines gone
        (b"VALUE = 1\n", "leaves out"),
        # a changed function beside one the file does not have: not some of its definitions, rewritten
        (
            FIXED.split(b"\n\n\ndef spread")[0] + b"\n\n\ndef median(values):\n    return 0\n",
            "no longer defines",
        ),
        # elided code
        (
            FIXED.replace(b"    return max(values) - min(values)\n", b"    # ... rest unchanged ...\n"),
            "placeholder",
        ),
    ],
    ids=["other content", "a definition swapped", "a placeholder"],
)
def test_content_sent_whole_that_is_not_this_file_revised_is_refused(content: bytes, says: str) -> None:
    refused = _refused("stats.py", STATS, _whole(content))

    assert says in str(refused)
    assert refused.reason in ("new_file_exists", "placeholder")


@pytest.mark.parametrize(
    "content",
    [
        FIXED.split(b"\n\n\ndef spread")[0] + b"\n",  # with the module docstring
        b"def mean(values):" + FIXED.split(b"def mean(values):")[1].split(b"\n\n\ndef spread")[0] + b"\n",
    ],
    ids=["with the docstring", "the function alone"],
)
def test_the_function_it_changed_sent_alone_replaces_that_function_and_keeps_the_rest(content: bytes) -> None:
    # What small models send as "the whole file": the function they fixed. Nothing else is dropped.
    result = apply_patch("stats.py", STATS, _whole(content))

    assert result.content == FIXED
    assert "holding only mean of the file's definitions" in result.hunks[0].notes[-1]


def test_a_function_sent_alone_must_be_that_function_revised_not_a_stub() -> None:
    body = "".join(f"    step_{n} = values[{n}]\n" for n in range(12))
    original = f"def mean(values):\n{body}    return 0\n\n\ndef spread(values):\n    return 1\n".encode()

    refused = _refused("stats.py", original, _whole(b"def mean(values):\n    pass\n"))

    assert refused.reason == "new_file_exists" and "leaves out 13" in str(refused)


def test_a_long_file_cannot_be_sent_whole() -> None:
    from glmagent.patching import REWRITE_MAX_LINES

    long = b"".join(b"x%d = %d\n" % (i, i) for i in range(REWRITE_MAX_LINES + 1))

    refused = _refused("consts.py", long, _whole(long.replace(b"x0 = 0", b"x0 = 1")))

    assert refused.reason == "new_file_exists" and "SEARCH/REPLACE" in str(refused)


def test_a_file_sent_whole_unchanged_is_already_applied() -> None:
    refused = _refused("stats.py", STATS, _whole(STATS))

    assert refused.reason == "already_applied"


def test_only_a_short_files_stale_refusal_offers_sending_it_whole() -> None:
    from glmagent.patching import REWRITE_MAX_LINES

    stale = "<<<<<<< SEARCH\n    return total / count\n=======\n    return 0.0\n>>>>>>> REPLACE\n"
    long = STATS + b"".join(b"X%d = %d\n" % (i, i) for i in range(REWRITE_MAX_LINES))
    messages = []
    for content in (STATS, long):
        refused = _refused("stats.py", content, stale)
        assert refused.reason == "stale_context"
        messages.append(str(refused))

    assert "send it whole" in messages[0] and "send it whole" not in messages[1]


WORDS = b"import re\n\n\n" + WORDS_MODULE
WORDS_FIXED = WORDS.replace(b"in text.split()", b"in text.lower().split()")
WORD_COUNTS_FIXED = (
    b"def word_counts(text):\n"
    + WORDS_FIXED.split(b"def word_counts(text):\n")[1].split(b"\n\n\ndef most_common")[0]
    + b"\n"
)
FILLER = b"".join(b"\n\ndef helper_%d(value):\n    return value + %d\n" % (n, n) for n in range(40))


def test_a_function_sent_alone_replaces_it_in_a_file_too_long_to_send_whole() -> None:
    from glmagent.patching import REWRITE_MAX_LINES

    long = WORDS + FILLER
    assert long.count(b"\n") > REWRITE_MAX_LINES

    result = apply_patch("words.py", long, _whole(WORD_COUNTS_FIXED))

    assert result.content == WORDS_FIXED + FILLER


def test_every_function_sent_alone_keeps_the_files_imports() -> None:
    both = WORDS_FIXED.split(b"import re\n\n\n")[1]

    result = apply_patch("words.py", WORDS, _whole(both))

    assert result.content == WORDS_FIXED


CLASS = b"""class Counter:
    def __init__(self):
        self.counts = {}

    def add(self, text):
        for word in text.split():
            self.counts[word] = self.counts.get(word, 0) + 1

    def total(self):
        return sum(self.counts.values())
"""
CLASS_FIXED = CLASS.replace(b"in text.split()", b"in text.lower().split()")
ADD_FIXED = (
    b"    def add(self, text):\n" + CLASS_FIXED.split(b"    def add(self, text):\n")[1].split(b"\n\n")[0]
)


@pytest.mark.parametrize(
    "sent",
    [ADD_FIXED + b"\n", b"\n".join(line[4:] for line in ADD_FIXED.split(b"\n")) + b"\n"],
    ids=["indented as in its class", "without its class's indentation"],
)
def test_a_method_sent_alone_replaces_the_method_of_that_name(sent: bytes) -> None:
    result = apply_patch("counter.py", CLASS, _whole(sent))

    assert result.content == CLASS_FIXED
    assert "holding only add" in result.hunks[0].notes[-1]


def test_a_method_whose_name_the_file_defines_twice_is_not_guessed_at() -> None:
    twice = CLASS + b"\n\nclass Other:\n    def add(self, text):\n        return text\n"

    refused = _refused("counter.py", twice, _whole(ADD_FIXED + b"\n"))

    assert refused.reason == "new_file_exists"


def test_a_stale_edit_aimed_inside_a_function_is_offered_that_function_whole() -> None:
    # A 1.5B model's edit (the bench's word_case): one invented line, one real line without its indentation.
    stale = (
        "<<<<<<< SEARCH\ncounts = word_counts(text):\ncounts[word] = counts.get(word, 0) + 1\n=======\n"
        "counts = word_counts(text.lower()):\ncounts[word.lower()] = counts.get(word.lower(), 0) + 1\n"
        ">>>>>>> REPLACE\n"
    )
    for content in (WORDS, WORDS + FILLER):
        message = str(_refused("words.py", content, stale))

        assert "Or send the whole of `word_counts` (lines 4-9) with your change" in message
        assert "send it whole" not in message


def test_a_stale_edit_of_a_file_that_is_not_python_is_offered_no_function() -> None:
    stale = (
        "<<<<<<< SEARCH\ncounts = word_counts(text):\ncounts[word] = counts.get(word, 0) + 1\n"
        "=======\nx\n>>>>>>> REPLACE\n"
    )

    message = str(_refused("words.txt", WORDS, stale))

    assert "the whole of" not in message and "send it whole" in message


def test_search_lines_found_nowhere_are_refused_with_the_lines_they_were_meant_to_be() -> None:
    diff = (
        '<<<<<<< SEARCH\n    """Return the arithmetic mean of values"""\n    return sum(values) / len(vals)\n'
        "=======\n    return 0.0\n>>>>>>> REPLACE\n"
    )

    refused = _refused("stats.py", STATS, diff)

    message = str(refused)
    assert refused.reason == "stale_context"
    assert 'the file has, at line 5: \'    """Return the arithmetic mean of values."""\'' in message
    assert "the file has, at line 6: '    return sum(values) / len(values)'" in message


PYTEST_FAILURE = """\
.F.                                                                      [100%]
=================================== FAILURES ===================================
_________________________ test_mean_of_nothing_is_zero _________________________

    def test_mean_of_nothing_is_zero():
>       assert mean([]) == 0.0
               ^^^^^^^^

tests/test_stats.py:9:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

values = []

    def mean(values):
        \"\"\"Return the arithmetic mean of values.\"\"\"
>       return sum(values) / len(values)
               ^^^^^^^^^^^^^^^^^^^^^^^^^
E       ZeroDivisionError: division by zero

stats.py:6: ZeroDivisionError
=========================== short test summary info ============================
FAILED tests/test_stats.py::test_mean_of_nothing_is_zero - ZeroDivisionError:...
1 failed, 2 passed in 0.70s
"""


def test_pytest_failures_are_trimmed_to_what_a_model_needs() -> None:
    trimmed = trim_test_output(PYTEST_FAILURE)

    assert trimmed.splitlines() == [
        ".F.                                                                      [100%]",
        "=================================== FAILURES ===================================",
        "_________________________ test_mean_of_nothing_is_zero _________________________",
        "",
        "> assert mean([]) == 0.0",
        "",
        "tests/test_stats.py:9:",
        "",
        "> return sum(values) / len(values)",
        "E       ZeroDivisionError: division by zero",
        "",
        "stats.py:6: ZeroDivisionError",
        "=========================== short test summary info ============================",
        "FAILED tests/test_stats.py::test_mean_of_nothing_is_zero - ZeroDivisionError:...",
        "1 failed, 2 passed",
    ]


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("1 failed, 2 passed in 0.70s", "1 failed, 2 passed"),
        ("==== 1 passed, 2 warnings in 61.20s (0:01:01) ====", "==== 1 passed, 2 warnings ===="),
        ("no tests ran in 0.01s", "no tests ran"),
        ("Ran 3 tests in 0.002s", "Ran 3 tests"),
        ("2 failed, 1 error in 3s", "2 failed, 1 error"),
        ("print('made in 2s')", "print('made in 2s')"),  # not a closing line
        ("E   assert 'x passed in 3s' == ''", "E   assert 'x passed in 3s' == ''"),
    ],
)
def test_a_closing_line_loses_its_run_time_and_nothing_else_does(line: str, shown: str) -> None:
    # Two runs of the same failure read alike: a prompt differing only in `in 0.92s` / `in 0.19s` made the
    # same model at temperature 0 write a different fix.
    assert trim_test_output(line) == shown


def test_other_output_only_loses_its_column_markers() -> None:
    traceback = (
        'Traceback (most recent call last):\n  File "/p/app.py", line 3, in <module>\n    print(1 / 0)\n'
        "          ~~^~~\nZeroDivisionError: division by zero\n"
    )

    assert trim_test_output(traceback) == traceback.replace("          ~~^~~\n", "").rstrip("\n")
    assert locations_in(traceback) == [("/p/app.py", 3)]
    assert locations_in(PYTEST_FAILURE) == [("tests/test_stats.py", 9), ("stats.py", 6)]


@pytest.mark.parametrize(
    ("path", "test"),
    [
        ("tests/test_x.py", True),
        ("test_a.py", True),
        ("pkg/a_test.go", True),
        ("web/app.spec.ts", True),
        ("src/FooTest.java", True),
        ("conftest.py", True),
        ("pytest.ini", True),
        ("src/testing.py", False),
        ("latest.py", False),
        ("contest.py", False),
        ("app.py", False),
    ],
)
def test_test_files_are_recognised_by_folder_and_name(path: str, test: bool) -> None:
    assert is_test_path(path) is test


@pytest.mark.parametrize(
    ("description", "allowed"),
    [
        ("add a test for mean([])", True),
        ("Update the tests for the new API", True),
        ("write unit tests for slugify", True),
        ("the test is wrong: it expects 3", True),
        ("fix the failing test", False),
        ("make the tests pass", False),
        ("Rename calc_total to order_total and make the tests pass", False),
        ("mean([]) crashes with ZeroDivisionError", False),
    ],
)
def test_only_a_task_that_asks_for_test_changes_allows_them(description: str, allowed: bool) -> None:
    assert task_allows_test_changes(description) is allowed


def test_a_small_project_map_names_each_python_files_functions_and_classes(tmp_path: Path) -> None:
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "pricing.py").write_text(
        "def calc_total(items):\n    pass\n\n\nclass Cart:\n    def add(self, item):\n        pass\n"
    )
    (tmp_path / "broken.py").write_text("def oops(:\n")
    (tmp_path / "notes.txt").write_text("x")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)

    assert project_map(tmp_path).splitlines() == [
        "broken.py",
        "notes.txt",
        "shop/pricing.py: calc_total(items), class Cart (add)",
    ]
