"""After an iteration of several edits whose tests fail, the loop tries the files without one edit (the last
of each file, latest first): when that makes the tests pass, the edit is left out and the task is done.

Scripted planner, real files, real pytest runs (`AgentLoop._leave_out_an_edit`)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from conftest import plan

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.loop import LEAVE_OUT_TRIALS, TaskResult
from glmagent.planners.scripted import ScriptedPlanner

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")

PYTEST = f"{shlex.quote(sys.executable)} -m pytest -q -p no:cacheprovider"
GRADES = (
    "def letter(score):\n"
    "    if score >= 90:\n"
    '        return "A"\n'
    "    if score >= 60:\n"
    '        return "D"\n'
    "\n\n"
    "def report(scores):\n"
    "    return {name: letter(score) for name, score in scores.items()}\n"
)
TESTS = (
    "from grades import letter, report\n\n\n"
    "def test_letter():\n"
    '    assert letter(12) == "F"\n\n\n'
    "def test_report():\n"
    '    assert report({"ann": 95, "bob": 12}) == {"ann": "A", "bob": "F"}\n'
)
FIX = {  # what the task needs: an F below 60
    "tool": "apply_diff",
    "path": "grades.py",
    "edits": [{"search": ['        return "D"'], "replace": ['        return "D"', '    return "F"']}],
}
BREAK_REPORT = {  # a second edit the model thought would help: it drops the failing scores
    "tool": "apply_diff",
    "path": "grades.py",
    "edits": [
        {
            "search": ["    return {name: letter(score) for name, score in scores.items()}"],
            "replace": ["    return {name: letter(score) for name, score in scores.items() if score >= 60}"],
        }
    ],
}
HELPER = "def clamp(score):\n    return max(0, min(100, score))\n"
NEW_HELPER = {"tool": "apply_diff", "path": "helpers.py", "content": HELPER}


@pytest.fixture
def grades(tmp_path: Path) -> Path:
    root = tmp_path / "grades"
    (root / "tests").mkdir(parents=True)
    (root / "grades.py").write_text(GRADES, encoding="utf-8")
    (root / "tests" / "test_grades.py").write_text(TESTS, encoding="utf-8")
    return root


def run_task(project: Path, planner: ScriptedPlanner, iterations: int = 1) -> TaskResult:
    settings = Settings(provider="replay", shell="posix", sandbox="none")
    agent = CodingAgent(planner=planner, settings=settings)
    task = CodingAgent.create_task(
        description="letter() returns None below 60; those scores get an F",
        working_directory=project,
        test_command=PYTEST,
        task_id="t",
        max_iterations=iterations,
    )
    return agent.run(task)


def records(project: Path, event: str) -> list[dict]:
    path = project / ".hazina" / "agent-memory" / "t.jsonl"
    return [r for r in map(json.loads, path.read_text().splitlines()) if r["event"] == event]


def fixed_grades() -> str:
    return GRADES.replace('        return "D"\n', '        return "D"\n    return "F"\n')


def test_a_second_edit_that_keeps_the_tests_failing_is_left_out(grades: Path) -> None:
    planner = ScriptedPlanner([plan(FIX, BREAK_REPORT)])

    result = run_task(grades, planner)

    assert result.success and result.stop_reason.value == "tests_passed" and result.iterations == 1
    assert (grades / "grades.py").read_text(encoding="utf-8") == fixed_grades()
    assert "Left out action 2 (an edit of grades.py): with it the tests failed" in result.summary
    assert [(r["action"], r["path"]) for r in records(grades, "left_out")] == [(2, "grades.py")]
    labels = [(r["label"], r["passed"]) for r in records(grades, "tests")]
    assert labels == [
        ("baseline", False),
        ("after iteration 1", False),
        ("after iteration 1 without action 2", True),
    ]


def test_the_edit_left_out_may_be_in_another_file_than_the_last(grades: Path) -> None:
    # report moves to its own module; the reply breaks it there (action 1), then fixes letter (action 2).
    # Latest first: without action 2 the tests still fail, so grades.py is put back as the fix made it;
    # without action 1 they pass.
    (grades / "summary.py").write_text(
        "from grades import letter\n\n\ndef best(scores):\n    return letter(max(scores))\n", encoding="utf-8"
    )
    (grades / "tests" / "test_summary.py").write_text(
        "from summary import best\n\n\ndef test_best():\n    assert best([12, 95]) == 'A'\n", encoding="utf-8"
    )
    break_best = {
        "tool": "apply_diff",
        "path": "summary.py",
        "edits": [
            {"search": ["    return letter(max(scores))"], "replace": ["    return letter(min(scores))"]}
        ],
    }
    planner = ScriptedPlanner([plan(break_best, FIX)])

    result = run_task(grades, planner)

    assert result.success
    assert (grades / "grades.py").read_text(encoding="utf-8") == fixed_grades()
    assert "max(scores)" in (grades / "summary.py").read_text(encoding="utf-8")
    assert [(r["action"], r["path"]) for r in records(grades, "left_out")] == [(1, "summary.py")]


def test_edits_that_are_all_needed_stay_when_the_tests_still_fail(grades: Path) -> None:
    # The fix and a harmless new file, with the tests still failing for another reason: no edit's absence
    # makes them pass, so every file is as the edits made it.
    (grades / "tests" / "test_more.py").write_text(
        "from grades import letter\n\n\ndef test_b():\n    assert letter(85) == 'B'\n", encoding="utf-8"
    )
    planner = ScriptedPlanner([plan(FIX, NEW_HELPER)])

    result = run_task(grades, planner)

    assert not result.success
    assert (grades / "grades.py").read_text(encoding="utf-8") == fixed_grades()
    assert (grades / "helpers.py").read_text(encoding="utf-8") == HELPER
    assert records(grades, "left_out") == []
    tried = [r["label"] for r in records(grades, "tests") if "without" in r["label"]]
    assert tried == ["after iteration 1 without action 2", "after iteration 1 without action 1"]
    assert "without action" not in result.summary  # trial runs are in the audit, not the summary


def test_one_edit_is_never_left_out(grades: Path) -> None:
    planner = ScriptedPlanner([plan(BREAK_REPORT)])

    run_task(grades, planner)

    assert [r["label"] for r in records(grades, "tests")] == ["baseline", "after iteration 1"]


def test_a_command_in_the_iteration_rules_the_trials_out(grades: Path) -> None:
    # The command may have changed files itself: the edits' snapshots no longer say what is there.
    planner = ScriptedPlanner([plan(FIX, {"tool": "run", "command": "true"}, BREAK_REPORT)])

    result = run_task(grades, planner)

    assert not result.success
    assert [r["label"] for r in records(grades, "tests")] == ["baseline", "after iteration 1"]


def test_trials_are_bounded(grades: Path) -> None:
    # Five files edited, the tests failing whatever is left out: at most LEAVE_OUT_TRIALS extra runs.
    edits = [{"tool": "apply_diff", "path": f"extra{i}.py", "content": f"VALUE = {i}\n"} for i in range(5)]
    planner = ScriptedPlanner([plan(*edits)])

    run_task(grades, planner)

    tried = [r["label"] for r in records(grades, "tests") if "without" in r["label"]]
    assert tried == [f"after iteration 1 without action {n}" for n in (5, 4, 3)][:LEAVE_OUT_TRIALS]
    assert all((grades / f"extra{i}.py").read_text(encoding="utf-8") == f"VALUE = {i}\n" for i in range(5))


def test_the_summary_shows_the_tests_of_the_files_kept_not_of_a_failed_trial(grades: Path) -> None:
    import io

    from glmagent.ui import TaskScreen

    (grades / "tests" / "test_more.py").write_text(
        "from grades import letter\n\n\ndef test_b():\n    assert letter(85) == 'B'\n", encoding="utf-8"
    )
    out = io.StringIO()
    screen = TaskScreen(out, colour=False, planner_label="replay", verbose=0)
    agent = CodingAgent(
        planner=ScriptedPlanner([plan(FIX, NEW_HELPER)]),
        settings=Settings(provider="replay", shell="posix", sandbox="none"),
        observer=screen.observer,
    )
    task = CodingAgent.create_task("fix it", grades, test_command=PYTEST, task_id="t", max_iterations=1)
    with screen.running():
        result = agent.run(task)
    screen.summary(result)
    shown = out.getvalue()

    # Without action 1 (the fix) three tests fail; the files kept are the edits' own, with one failing.
    assert "tests (after iteration 1 without action 1) pytest failed: 3 failed" in shown
    assert "  tests       failing → failing · pytest failed: 1 failed" in shown


def test_a_test_the_model_was_asked_to_write_is_never_left_out(grades: Path) -> None:
    # The task lets the model change tests: its new test fails with the code as edited, and leaving that
    # test out would make the rest pass. A test dropped to pass is no fix.
    new_test = {
        "tool": "apply_diff",
        "path": "tests/test_bonus.py",
        "content": "from grades import letter\n\n\ndef test_b():\n    assert letter(85) == 'B'\n",
    }
    planner = ScriptedPlanner([plan(FIX, new_test)])
    settings = Settings(provider="replay", shell="posix", sandbox="none")
    task = CodingAgent.create_task(
        description="give scores below 60 an F, and add a test for 85",
        working_directory=grades,
        test_command=PYTEST,
        task_id="t",
        max_iterations=1,
        test_edits=True,
    )

    result = CodingAgent(planner=planner, settings=settings).run(task)

    assert not result.success
    assert (grades / "tests" / "test_bonus.py").exists()
    assert records(grades, "left_out") == []
    tried = [r["label"] for r in records(grades, "tests") if "without" in r["label"]]
    assert tried == ["after iteration 1 without action 1"]  # the code edit only
