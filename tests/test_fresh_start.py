"""After two iterations in a row that bring the tests no closer to passing, the loop asks afresh: the next
prompt leaves the stalled history out, and a planner that can sample warm is asked to.

Scripted planner, real files, real pytest runs (`glmagent.fresh_start`)."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import plan, run_outcome

from glmagent.agent import CodingAgent
from glmagent.cli import main
from glmagent.config import Settings
from glmagent.fresh_start import FreshStarts
from glmagent.loop import TaskResult
from glmagent.planners.base import ChatMessage, PlannerReply
from glmagent.planners.scripted import ScriptedPlanner

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")

PYTEST = f"{shlex.quote(sys.executable)} -m pytest -q -p no:cacheprovider"
CALC = "def half(n):\n    return n / 2\n\n\ndef double(n):\n    return n * 3 + 1\n"
TESTS = (
    "from calc import double, half\n\n\ndef test_half():\n    assert half(4) == 2\n\n\n"
    "def test_double():\n    assert double(2) == 4\n\n\ndef test_double_zero():\n    assert double(0) == 0\n"
)
STALE = {"tool": "apply_diff", "path": "calc.py", "edits": [{"search": ["return n * 30"], "replace": ["x"]}]}
FIX = {
    "tool": "apply_diff",
    "path": "calc.py",
    "edits": [{"search": ["    return n * 3 + 1"], "replace": ["    return n * 2"]}],
}


class ExploringScripted(ScriptedPlanner):
    """A scripted planner that says when it was asked to sample anew."""

    def __init__(self, replies: Sequence[object]) -> None:
        super().__init__(replies)  # type: ignore[arg-type]
        self.explored_before: list[int] = []

    def explore(self) -> None:
        self.explored_before.append(len(self.requests))

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        return super().plan(messages)


@pytest.fixture
def calc(tmp_path: Path) -> Path:
    root = tmp_path / "calc"
    (root / "tests").mkdir(parents=True)
    (root / "calc.py").write_text(CALC, encoding="utf-8")
    (root / "tests" / "test_calc.py").write_text(TESTS, encoding="utf-8")
    return root


def run_task(
    project: Path, planner: ScriptedPlanner, iterations: int = 5, fresh_start_after: int = 2
) -> TaskResult:
    settings = Settings(provider="replay", shell="posix", sandbox="none", fresh_start_after=fresh_start_after)
    agent = CodingAgent(planner=planner, settings=settings)
    task = CodingAgent.create_task(
        description="double(n) should double n",
        working_directory=project,
        test_command=PYTEST,
        task_id="t",
        max_iterations=iterations,
    )
    return agent.run(task)


def user_prompt(planner: ScriptedPlanner, number: int) -> str:
    return "\n".join(m.content for m in planner.requests[number] if m.role == "user")


def system_prompt(planner: ScriptedPlanner, number: int) -> str:
    return "\n".join(m.content for m in planner.requests[number] if m.role == "system")


def records(project: Path, event: str) -> list[dict]:
    path = project / ".hazina" / "agent-memory" / "t.jsonl"
    return [r for r in map(json.loads, path.read_text().splitlines()) if r["event"] == event]


def test_two_stalled_iterations_bring_a_prompt_without_their_history(
    calc: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    planner = ExploringScripted([plan(STALE), plan({"tool": "read_file", "path": "calc.py"}), plan(FIX)])

    result = run_task(calc, planner)

    assert result.success and result.iterations == 3
    second, third = user_prompt(planner, 1), user_prompt(planner, 2)
    assert "# Results of iteration 1" in second and "this one starts afresh" not in second
    assert "# Results of iteration" not in third and "# Notes from the loop" not in third
    assert "Iterations 1-2 did not make the tests pass; this one starts afresh" in third
    # What the first prompt held: the project's files, the example reply, the failing tests, the code.
    assert "# Project files" in third and "# Project files" not in second
    assert system_prompt(planner, 2) == system_prompt(planner, 0) != system_prompt(planner, 1)
    assert "# Latest test run: FAILED" in third and "return n * 3 + 1" in third
    assert planner.explored_before == [2]
    # Only refused edits: no file to put back, and none is said to be.
    assert [(r["iteration"], r["put_back"]) for r in records(calc, "fresh_start")] == [(3, [])]
    assert "as they were" not in third
    assert "Started afresh: 2 iterations in a row" in result.summary
    # An auditor sees it in the timeline.
    assert main(["audit", "show", "t", "-C", str(calc)]) == 0
    assert "note: fresh_start: started afresh after 2 iterations without progress" in capsys.readouterr().out


def test_an_iteration_that_gets_closer_to_passing_keeps_the_history(calc: Path) -> None:
    # Iteration 1 fixes one of the two failing tests (double(0) == 0); iterations 2 and 3 stall: the fresh
    # start comes at 4, not 3.
    closer = {
        "tool": "apply_diff",
        "path": "calc.py",
        "edits": [{"search": ["    return n * 3 + 1"], "replace": ["    return n * 3"]}],
    }
    read = {"tool": "read_file", "path": "calc.py"}
    planner = ExploringScripted([plan(closer), plan(STALE), plan(read), plan(read)])

    run_task(calc, planner, iterations=4)

    assert "starts afresh" not in user_prompt(planner, 2)
    assert "Iterations 1-3 did not make the tests pass; this one starts afresh" in user_prompt(planner, 3)
    assert planner.explored_before == [3]


def test_a_change_that_was_undone_is_no_progress(calc: Path) -> None:
    worse = {
        "tool": "apply_diff",
        "path": "calc.py",
        "edits": [{"search": ["    return n / 2"], "replace": ["    return n"]}],
    }
    planner = ExploringScripted([plan(worse), plan(STALE), plan(FIX)])

    result = run_task(calc, planner)

    assert result.success
    assert "this one starts afresh" in user_prompt(planner, 2)
    assert (calc / "calc.py").read_text() == CALC.replace("n * 3 + 1", "n * 2")


def test_a_planner_without_explore_still_gets_the_fresh_prompt(calc: Path) -> None:
    planner = ScriptedPlanner([plan(STALE), plan(STALE | {"path": "calc.py"}), plan(FIX)])  # type: ignore[arg-type]

    assert run_task(calc, planner).success
    assert "this one starts afresh" in user_prompt(planner, 2)


NEUTRAL = {
    "tool": "apply_diff",
    "path": "calc.py",
    "edits": [{"search": ["def half(n):"], "replace": ["def half(n, unused=0):"]}],
}


def test_changes_of_the_stalled_iterations_are_taken_out_at_a_fresh_start(calc: Path) -> None:
    # A change that neither helps nor harms stays through the stalled iterations, then goes: the fresh
    # attempt starts from the code as it was at the best test run (here the start).
    planner = ExploringScripted([plan(NEUTRAL), plan(STALE), plan(FIX)])

    result = run_task(calc, planner)

    assert "def half(n, unused=0):" in user_prompt(planner, 1)
    third = user_prompt(planner, 2)
    assert "The files they changed are as they were at the start again." in third
    assert "```\ndef half(n):\n" in third
    assert result.success and (calc / "calc.py").read_text() == CALC.replace("n * 3 + 1", "n * 2")
    assert records(calc, "fresh_start")[0]["put_back"] == ["calc.py"]
    assert "calc.py put back as at the start" in result.summary


def test_a_change_that_got_closer_stays_at_a_fresh_start(calc: Path) -> None:
    closer = {
        "tool": "apply_diff",
        "path": "calc.py",
        "edits": [{"search": ["    return n * 3 + 1"], "replace": ["    return n * 3"]}],
    }
    planner = ExploringScripted([plan(closer), plan(NEUTRAL), plan(STALE), plan()])

    run_task(calc, planner, iterations=4)

    fourth = user_prompt(planner, 3)
    assert "as they were after iteration 1 again" in fourth
    assert (calc / "calc.py").read_text() == CALC.replace("n * 3 + 1", "n * 3")


def test_nothing_is_put_back_after_a_command_that_may_have_changed_files(calc: Path) -> None:
    touch = {"tool": "run", "command": "python3 -c pass"}
    planner = ExploringScripted([plan(NEUTRAL, touch), plan(STALE), plan()])

    run_task(calc, planner, iterations=3)

    assert "starts afresh" in user_prompt(planner, 2) and "as they were" not in user_prompt(planner, 2)
    assert "def half(n, unused=0):" in (calc / "calc.py").read_text()
    assert records(calc, "fresh_start")[0]["put_back"] == []


def test_fresh_starts_can_be_turned_off(calc: Path) -> None:
    planner = ExploringScripted([plan(STALE), plan({"tool": "read_file", "path": "calc.py"}), plan(FIX)])

    assert run_task(calc, planner, fresh_start_after=0).success
    third = user_prompt(planner, 2)
    assert "# Results of iteration 2" in third and "starts afresh" not in third
    assert planner.explored_before == [] and records(calc, "fresh_start") == []


def test_progress_is_fewer_failing_tests_then_more_passing_ones() -> None:
    two = run_outcome(passed=False, output="FAILED t.py::a\nFAILED t.py::b\n2 failed, 1 passed in 0.1s")
    one = run_outcome(passed=False, output="FAILED t.py::a\n1 failed, 2 passed in 0.1s")
    fresh = FreshStarts(after=2)
    fresh.baseline(two)

    fresh.observe(1, one)
    assert fresh.stalled == 0 and fresh.best is one and fresh.best_iteration == 1
    fresh.observe(2, two)  # worse than the best so far
    as_good = run_outcome(passed=False, output="FAILED t.py::b\n1 failed, 2 passed in 0.1s")
    fresh.observe(3, as_good)  # as good as the best, not better
    assert fresh.stalled == 2 and fresh.due(one) and fresh.best is one
    assert not fresh.due(run_outcome(passed=True, output="3 passed in 0.1s")) and not fresh.due(None)

    fresh.started()
    assert fresh.stalled == 0 and not fresh.due(one)
    fresh.observe(4, None)  # nothing changed
    assert fresh.stalled == 1


@pytest.mark.parametrize(
    "no_change",
    [
        {"tool": "apply_diff", "path": "calc.py", "content": CALC},  # the file as it is, sent whole
        {  # replace lines equal to the search lines
            "tool": "apply_diff",
            "path": "calc.py",
            "edits": [{"search": ["    return n / 2"], "replace": ["    return n / 2"]}],
        },
        {  # a change the file holds already
            "tool": "apply_diff",
            "path": "calc.py",
            "diff": (
                "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n"
                " def half(n):\n-    return n // 2\n+    return n / 2\n"
            ),
        },
    ],
    ids=["content", "edits", "already_applied"],
)
def test_an_edit_that_changes_nothing_makes_the_next_requests_explore(calc: Path, no_change: dict) -> None:
    # At temperature 0 a model that sent back the file unchanged sent it back again on the next request
    # (dates_inclusive in the live bench): nothing it was shown had changed.
    planner = ExploringScripted([plan(no_change), plan(FIX)])

    result = run_task(calc, planner)

    assert result.success and result.iterations == 2
    assert planner.explored_before == [1]  # after the first reply, before the second request


def test_an_edit_that_changes_something_does_not_explore(calc: Path) -> None:
    closer = {
        "tool": "apply_diff",
        "path": "calc.py",
        "edits": [{"search": ["    return n * 3 + 1"], "replace": ["    return n * 3"]}],
    }
    planner = ExploringScripted([plan(closer), plan({"tool": "read_file", "path": "calc.py"})])

    run_task(calc, planner, iterations=2)

    assert planner.explored_before == []
