"""What the loop does for a model that is small: it shows the failing output trimmed and the files it names
from the first prompt on, tells a blind diff that it was blind, does not run a failed action again while
nothing changed, and keeps the tests as they were at the start (so editing them cannot pass a task).

Scripted planner, real files, real pytest runs, the real policy and executor."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.loop import TaskResult
from glmagent.planners.scripted import ScriptedPlanner

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")

PYTEST = f"{shlex.quote(sys.executable)} -m pytest -q -p no:cacheprovider"
STATS = '''"""Small statistics helpers."""


def mean(values):
    """Return the arithmetic mean of values."""
    return sum(values) / len(values)
'''
TEST = """from stats import mean


def test_mean_of_nothing_is_zero():
    assert mean([]) == 0.0
"""
FIX = (
    "<<<<<<< SEARCH\n    return sum(values) / len(values)\n=======\n    if not values:\n        return 0.0\n"
    "    return sum(values) / len(values)\n>>>>>>> REPLACE\n"
)
WEAKEN_TEST = "<<<<<<< SEARCH\n    assert mean([]) == 0.0\n=======\n    assert True\n>>>>>>> REPLACE\n"


@pytest.fixture
def stats_project(tmp_path: Path) -> Path:
    root = tmp_path / "stats"
    (root / "tests").mkdir(parents=True)
    (root / "stats.py").write_text(STATS, encoding="utf-8")
    (root / "tests" / "test_stats.py").write_text(TEST, encoding="utf-8")
    (root / "util.py").write_text("def double(x):\n    return 2 * x\n", encoding="utf-8")
    return root


def plan(*actions: dict, thought: str = "working on it") -> dict:
    return {"thought": thought, "plan": [], "actions": list(actions)}


def run_task(
    project: Path,
    replies: Sequence[object],
    description: str = "mean([]) should return 0.0",
    *,
    fresh_start_after: int = 2,
) -> tuple[TaskResult, ScriptedPlanner]:
    planner = ScriptedPlanner(replies)  # type: ignore[arg-type]
    settings = Settings(provider="replay", shell="posix", sandbox="none", fresh_start_after=fresh_start_after)
    agent = CodingAgent(planner=planner, settings=settings)
    task = CodingAgent.create_task(
        description=description, working_directory=project, test_command=PYTEST, task_id="t", max_iterations=4
    )
    return agent.run(task), planner


def prompt(planner: ScriptedPlanner, number: int) -> str:
    return "\n".join(m.content for m in planner.requests[number] if m.role == "user")


def actions(project: Path) -> list[dict]:
    path = project / ".hazina" / "agent-memory" / "t.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    return [r for r in records if r["event"] == "action"]


def test_the_first_prompt_shows_the_failure_trimmed_and_the_files_it_names(stats_project: Path) -> None:
    _, planner = run_task(stats_project, [plan(thought="look first")])

    first = prompt(planner, 0)
    files = first.split("# Files", 1)[1]
    # Code before tests, fenced, as they are; a file the failure does not name is not shown.
    assert files.index("## stats.py (") < files.index("## tests/test_stats.py (")
    assert (
        '\n```\n"""Small statistics helpers."""\n\n\ndef mean(values):\n' in files
        and "util.py (" not in files
    )
    assert "\n    return sum(values) / len(values)\n```\n" in files and " | " not in files
    failure = first.split("# Latest test run", 1)[1].split("# Files", 1)[0]
    assert "E       ZeroDivisionError: division by zero" in failure and "stats.py:6" in failure
    # No column markers and no quoted source with pytest's indentation: models copy them into diffs.
    assert "^^^" not in failure and '    """Return the arithmetic mean' not in failure


def test_a_fix_in_the_first_reply_passes_without_reading_anything(stats_project: Path) -> None:
    result, planner = run_task(stats_project, [plan({"tool": "apply_diff", "path": "stats.py", "diff": FIX})])

    assert result.success and result.iterations == 1 and len(planner.requests) == 1
    assert result.test_files == {}


def test_a_diff_to_a_test_file_is_refused_when_the_task_does_not_ask_for_it(stats_project: Path) -> None:
    weaken = {"tool": "apply_diff", "path": "tests/test_stats.py", "diff": WEAKEN_TEST}
    result, planner = run_task(stats_project, [plan(weaken), plan()])

    assert not result.success
    assert (stats_project / "tests" / "test_stats.py").read_text() == TEST
    assert result.test_files == {"tests/test_stats.py": "edit refused"}
    [refused] = actions(stats_project)
    assert refused["status"] == "failed" and refused["details"]["reason"] == "test_file"
    assert "the task does not ask to change tests" in prompt(planner, 1)


def test_a_test_file_diff_sent_again_is_told_to_change_the_code(stats_project: Path) -> None:
    weaken = {"tool": "apply_diff", "path": "tests/test_stats.py", "diff": WEAKEN_TEST}
    # The refusal under test comes after two stalled iterations: without fresh starts, which leave it out.
    _, planner = run_task(stats_project, [plan(weaken), plan(weaken), plan()], fresh_start_after=0)

    again = prompt(planner, 2)
    assert "the same action as in iteration 1" in again
    assert "change the code they test instead (stats.py" in again
    assert "copy its ' ' and '-' lines" not in again


def test_a_task_that_asks_for_test_changes_may_make_them_and_they_are_named(stats_project: Path) -> None:
    weaken = {"tool": "apply_diff", "path": "tests/test_stats.py", "diff": WEAKEN_TEST}
    result, _ = run_task(stats_project, [plan(weaken)], description="the test is wrong: update the test")

    assert result.success and result.test_files == {"tests/test_stats.py": "changed"}
    end = json.loads((stats_project / ".hazina" / "agent-memory" / "t.jsonl").read_text().splitlines()[-1])
    assert end["event"] == "task_end" and end["test_files"] == {"tests/test_stats.py": "changed"}


def test_a_command_that_rewrites_a_test_cannot_pass_the_task(stats_project: Path) -> None:
    (stats_project / "always.txt").write_text("def test_nothing():\n    pass\n", encoding="utf-8")
    replies = [plan({"tool": "run", "command": "cp always.txt tests/test_stats.py"}), plan()]

    result, planner = run_task(stats_project, replies)

    assert not result.success and result.tests_passed is False
    assert (stats_project / "tests" / "test_stats.py").read_text() == TEST
    assert result.test_files == {"tests/test_stats.py": "put back"}
    assert "were put back as they were" in prompt(planner, 1)


def test_a_test_file_a_command_creates_is_removed_again(stats_project: Path) -> None:
    (stats_project / "always.txt").write_text("collect_ignore = ['tests']\n", encoding="utf-8")
    replies = [plan({"tool": "run", "command": "cp always.txt conftest.py"}), plan()]

    result, _ = run_task(stats_project, replies)

    assert not result.success and not (stats_project / "conftest.py").exists()
    assert result.test_files == {"conftest.py": "put back"}


def test_a_failed_action_is_not_run_again_until_something_changed(stats_project: Path) -> None:
    failing = {"tool": "run", "command": "exit 3"}
    edit = {
        "tool": "apply_diff",
        "path": "util.py",
        "diff": "--- a/util.py\n+++ b/util.py\n@@\n-    return 2 * x\n+    return x + x\n",
    }
    replies = [
        plan(failing),
        plan(failing),
        plan({"tool": "read_file", "path": "util.py"}, edit, failing),
        plan(),
    ]

    # The refusal under test comes after two stalled iterations: without fresh starts, which leave it out.
    _, planner = run_task(stats_project, replies, fresh_start_after=0)

    runs = [a for a in actions(stats_project) if a["action"]["tool"] == "run"]
    assert [r["details"].get("refused_by") for r in runs] == [None, "loop", None]
    assert "Not run: the same action as in iteration 1" in prompt(planner, 2)


def test_a_diff_written_without_seeing_the_file_is_told_so_when_it_fails(stats_project: Path) -> None:
    blind = "<<<<<<< SEARCH\n    return x * 2\n=======\n    return x + x\n>>>>>>> REPLACE\n"
    replies = [plan({"tool": "apply_diff", "path": "util.py", "diff": blind}), plan()]

    _, planner = run_task(stats_project, replies)

    second = prompt(planner, 1)
    assert "You had not seen util.py when you wrote this diff" in second
    assert "## util.py (" in second.split("# Files", 1)[1]


def test_code_a_failing_test_imports_is_shown_though_the_failure_names_only_the_test(tmp_path: Path) -> None:
    root = tmp_path / "conf"
    (root / "tests").mkdir(parents=True)
    (root / "defaults.py").write_text('LIMITS = {"timeout": 3}\n\n\ndef load():\n    return dict(LIMITS)\n')
    (root / "tests" / "test_defaults.py").write_text(
        "from defaults import load\n\n\ndef test_timeout():\n    assert load()['timeout'] == 30\n"
    )

    _, planner = run_task(root, [plan(thought="look")], description="the default timeout should be 30")

    files = prompt(planner, 0).split("# Files", 1)[1]
    assert files.index("## defaults.py (") < files.index("## tests/test_defaults.py (")
    assert "a test file you may not change" in files.split("## tests/test_defaults.py", 1)[1].splitlines()[0]


def test_tests_a_change_broke_are_named_to_the_model(stats_project: Path) -> None:
    (stats_project / "tests" / "test_stats.py").write_text(
        TEST + "\n\ndef test_mean():\n    assert mean([2, 4]) == 3\n"
    )
    breaks = (
        "<<<<<<< SEARCH\n    return sum(values) / len(values)\n=======\n    return 0.0\n>>>>>>> REPLACE\n"
    )

    _, planner = run_task(
        stats_project, [plan({"tool": "apply_diff", "path": "stats.py", "diff": breaks}), plan()]
    )

    assert "made tests fail that passed before: tests/test_stats.py::test_mean." in prompt(planner, 1)


def test_lines_a_change_took_out_are_quoted_beside_the_tests_it_broke(tmp_path: Path) -> None:
    # The live bench's 1.5B model, asked for an 'F' below 60, replaced the range check with the new branch:
    # the range test failed from then on, and it never saw what it had removed.
    root = tmp_path / "grades"
    (root / "tests").mkdir(parents=True)
    (root / "grades.py").write_text(
        "def letter(score):\n    if not 0 <= score <= 100:\n        raise ValueError(score)\n"
        "    if score >= 60:\n        return 'P'\n",
        encoding="utf-8",
    )
    (root / "tests" / "test_grades.py").write_text(
        "import pytest\nfrom grades import letter\n\n\ndef test_fail():\n    assert letter(10) == 'F'\n\n\n"
        "def test_pass():\n    assert letter(70) == 'P'\n\n\n"
        "def test_range():\n    with pytest.raises(ValueError):\n        letter(101)\n",
        encoding="utf-8",
    )
    replaces_guard = (
        "<<<<<<< SEARCH\n    if not 0 <= score <= 100:\n        raise ValueError(score)\n=======\n"
        "    if score < 60:\n        return 'F'\n>>>>>>> REPLACE\n"
    )

    _, planner = run_task(
        root,
        [plan({"tool": "apply_diff", "path": "grades.py", "diff": replaces_guard}), plan()],
        description="letter() should give 'F' below 60",
    )

    second = prompt(planner, 1)
    assert "made tests fail that passed before: tests/test_grades.py::test_range." in second
    quoted = second.split("which those tests may need:\n", 1)[1].splitlines()[:3]
    assert quoted[:2] == [
        "    grades.py:     if not 0 <= score <= 100:",
        "    grades.py:         raise ValueError(score)",
    ]


def test_only_lines_gone_from_the_file_count_as_taken_out() -> None:
    from glmagent.loop import lines_taken_out

    before = b"a = 1\nb = 2\n\nc = 3\n"
    assert lines_taken_out(before, b"b = 2\n    a = 1\nc = 4\n") == ["c = 3"]  # moved/re-indented: kept
    assert lines_taken_out(before, None) == ["a = 1", "b = 2", "c = 3"]
    assert lines_taken_out(None, b"x\n") == []


def test_a_change_that_breaks_more_tests_than_it_fixes_is_undone(stats_project: Path) -> None:
    test = stats_project / "tests" / "test_stats.py"
    more = (
        "\n\ndef test_mean():\n    assert mean([2, 4]) == 3\n\n\ndef test_one():\n    assert mean([5]) == 5\n"
    )
    test.write_text(TEST + more)
    worse = "<<<<<<< SEARCH\n    return sum(values) / len(values)\n=======\n    return 0.0\n>>>>>>> REPLACE\n"
    replies = [
        plan({"tool": "apply_diff", "path": "stats.py", "diff": worse}),
        plan({"tool": "apply_diff", "path": "stats.py", "diff": FIX}),
    ]

    result, planner = run_task(stats_project, replies)

    # Iteration 1 fixed one test and broke two: undone, so iteration 2's fix applies to the original file.
    assert (stats_project / "stats.py").read_text() != STATS and result.success and result.iterations == 2
    second = prompt(planner, 1)
    assert "so they were undone" in second and "tests/test_stats.py::test_mean" in second
    assert "## stats.py (" in second and "\n    return sum(values) / len(values)\n" in second


def test_a_change_that_breaks_a_whole_test_file_is_undone(stats_project: Path) -> None:
    # Valid Python that cannot be imported: every test file importing stats errors at collection.
    breaking = "<<<<<<< SEARCH\ndef mean(values):\n=======\nimport no_such_helpers\n\n\ndef mean(values):\n"
    breaking += ">>>>>>> REPLACE\n"
    (stats_project / "tests" / "test_more.py").write_text("def test_passes():\n    assert True\n")

    _, planner = run_task(
        stats_project, [plan({"tool": "apply_diff", "path": "stats.py", "diff": breaking}), plan()]
    )

    assert (stats_project / "stats.py").read_text() == STATS
    assert "left the tests worse than before" in prompt(planner, 1)


@pytest.mark.parametrize(
    "spelled", [PYTEST, "  " + PYTEST.replace(" -q ", "   -q ") + " "], ids=["as given", "spaced"]
)
def test_a_change_is_undone_though_the_model_ran_the_test_command_too(
    stats_project: Path, spelled: str
) -> None:
    # Small models end most replies with a run of the test command; it changes nothing an undo must
    # account for, as the loop runs the same command after every iteration anyway.
    _three_tests(stats_project)
    replies = [
        plan({"tool": "apply_diff", "path": "stats.py", "diff": WORSE}, {"tool": "run", "command": spelled}),
        plan(),
    ]

    _, planner = run_task(stats_project, replies)

    assert (stats_project / "stats.py").read_text() == STATS
    assert "so they were undone" in prompt(planner, 1)


def test_a_change_beside_another_command_is_not_undone(stats_project: Path) -> None:
    # What another command did is unknown: putting the diffs' files back could leave a state nobody tested.
    _three_tests(stats_project)
    other = f"{PYTEST} tests/test_stats.py"
    replies = [
        plan({"tool": "apply_diff", "path": "stats.py", "diff": WORSE}, {"tool": "run", "command": other}),
        plan(),
    ]

    _, planner = run_task(stats_project, replies)

    assert "    return 0.0\n" in (stats_project / "stats.py").read_text()
    second = prompt(planner, 1)
    assert "so they were undone" not in second and "made tests fail that passed before" in second


def _three_tests(project: Path) -> None:
    more = (
        "\n\ndef test_mean():\n    assert mean([2, 4]) == 3\n\n\ndef test_one():\n    assert mean([5]) == 5\n"
    )
    (project / "tests" / "test_stats.py").write_text(TEST + more)


WORSE = "<<<<<<< SEARCH\n    return sum(values) / len(values)\n=======\n    return 0.0\n>>>>>>> REPLACE\n"


def test_an_undone_change_made_again_in_other_words_is_refused_and_the_file_kept(stats_project: Path) -> None:
    _three_tests(stats_project)
    # The same change as edits, its lines unindented: other text, the same file as iteration 1 made.
    again = {"search": ["return sum(values) / len(values)"], "replace": ["return 0.0"]}
    replies = [
        plan({"tool": "apply_diff", "path": "stats.py", "diff": WORSE}),
        plan({"tool": "apply_diff", "path": "stats.py", "edits": [again]}),
        plan({"tool": "apply_diff", "path": "stats.py", "diff": FIX}),
    ]

    # The refusal under test comes after two stalled iterations: without fresh starts, which leave it out.
    result, planner = run_task(stats_project, replies, fresh_start_after=0)

    first, second, third = actions(stats_project)
    assert first["status"] == "ok" and third["status"] == "ok" and result.success
    assert second["status"] == "failed" and second["details"]["reason"] == "undone_before"
    told = prompt(planner, 2)
    assert "makes stats.py exactly what your changes in iteration 1 made of it" in told
    assert "they broke tests/test_stats.py::test_mean" in told


def test_the_refused_change_leaves_the_file_as_it_was(stats_project: Path) -> None:
    # A command in the same iteration: the loop does not undo that iteration, so only the refusal keeps it.
    _three_tests(stats_project)
    again = {"search": ["return sum(values) / len(values)"], "replace": ["return 0.0"]}
    replies = [
        plan({"tool": "apply_diff", "path": "stats.py", "diff": WORSE}),
        plan({"tool": "apply_diff", "path": "stats.py", "edits": [again]}, {"tool": "run", "command": "ls"}),
    ]

    run_task(stats_project, replies)

    assert (stats_project / "stats.py").read_text() == STATS


def test_a_change_undone_with_another_file_may_be_made_again_alone(stats_project: Path) -> None:
    # Which of the two files' changes broke the tests is unknown: the stats.py half stays possible.
    _three_tests(stats_project)
    util = "<<<<<<< SEARCH\n    return 2 * x\n=======\n    return x + x\n>>>>>>> REPLACE\n"
    replies = [
        plan(
            {"tool": "apply_diff", "path": "stats.py", "diff": WORSE},
            {"tool": "apply_diff", "path": "util.py", "diff": util},
        ),
        plan(
            {
                "tool": "apply_diff",
                "path": "stats.py",
                "diff": WORSE,
            }
        ),
    ]

    run_task(stats_project, replies)

    assert [a["status"] for a in actions(stats_project)] == ["ok", "ok", "ok"]


def test_undone_changes_are_told_apart_by_file_and_content() -> None:
    from glmagent.undone_changes import UndoneChange, UndoneChanges

    undone = UndoneChanges()
    undone.remember("a.py", b"x = 1\n", UndoneChange(1, "it broke t1"))
    undone.remember("a.py", b"x = 1\n", UndoneChange(3, "it broke t2"))  # the first is kept
    undone.remember("b.py", None, UndoneChange(2, "deleting it broke t3"))

    assert undone.produced("a.py", b"x = 1\n") == UndoneChange(1, "it broke t1")
    assert undone.produced("a.py", b"x = 2\n") is None and undone.produced("c.py", b"x = 1\n") is None
    assert undone.produced("b.py", None) == UndoneChange(2, "deleting it broke t3")
    assert undone.watches("a.py") and not undone.watches("c.py")


def test_a_diff_that_changes_nothing_is_a_failure_and_not_accepted_again(stats_project: Path) -> None:
    line = "    return sum(values) / len(values)\n"
    same = f"<<<<<<< SEARCH\n{line}=======\n{line}>>>>>>> REPLACE\n"
    again = plan({"tool": "apply_diff", "path": "stats.py", "diff": same})

    result, planner = run_task(stats_project, [again, again, plan()])

    diffs = actions(stats_project)
    assert [d["status"] for d in diffs] == ["failed", "failed"]
    assert (
        diffs[0]["summary"] == "Diff for stats.py not applied: its REPLACE part equals its SEARCH part"
        and diffs[1]["details"]["reason"] == "repeated"
    )
    told = prompt(planner, 1)
    assert "the fix is still to be made" in told and "changed nothing" not in told
    assert not result.success


def test_a_swapped_diff_sent_again_is_answered_with_the_diff_it_meant_which_then_fixes(
    stats_project: Path,
) -> None:
    # The fix under SEARCH, the file's line under REPLACE: what small models send. It is not applied.
    swapped = (
        "<<<<<<< SEARCH\n    if not values:\n        return 0.0\n=======\n"
        "    return sum(values) / len(values)\n>>>>>>> REPLACE\n"
    )
    edit = {"tool": "apply_diff", "path": "stats.py", "diff": swapped}
    replies = [plan(edit), plan(edit), plan({"tool": "apply_diff", "path": "stats.py", "diff": FIX})]

    # The refusal under test comes after two stalled iterations: without fresh starts, which leave it out.
    result, planner = run_task(stats_project, replies, fresh_start_after=0)

    first, again = actions(stats_project)[:2]
    assert first["details"]["reason"] == "already_applied" and first["details"]["suggested_diff"]
    assert again["details"]["reason"] == "repeated"
    assert "wrong way round. Send this:\n" + first["details"]["suggested_diff"] in prompt(planner, 2)
    # the diff shown is the fix the scripted model then sends
    assert first["details"]["suggested_diff"] + "\n" == FIX
    assert result.success and "return 0.0" in (stats_project / "stats.py").read_text()
