"""The loop's rules, end to end with a scripted planner, real files, real processes and the real policy."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import plan, python_check

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.errors import PlannerError
from glmagent.loop import StopReason, TaskResult
from glmagent.memory import iteration_blocks
from glmagent.planners.base import ChatMessage, PlannerReply
from glmagent.planners.scripted import ScriptedPlanner

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")


def run_task(
    project: Path,
    replies: Sequence[object],
    *,
    test_command: str | None = None,
    max_iterations: int = 5,
    task_id: str = "t",
    description: str = "make the change",
) -> tuple[TaskResult, ScriptedPlanner]:
    planner = ScriptedPlanner(replies)  # type: ignore[arg-type]
    agent = CodingAgent(planner=planner, settings=Settings(provider="replay", shell="posix"))
    task = CodingAgent.create_task(
        description=description,
        working_directory=project,
        max_iterations=max_iterations,
        test_command=test_command,
        task_id=task_id,
    )
    return agent.run(task), planner


def memory(project: Path, task_id: str = "t") -> str:
    """The memory file's iteration blocks, exactly as written (run headers and footers left out)."""
    text = (project / ".hazina" / "agent-memory" / f"{task_id}.txt").read_text()
    return "\n".join(block for _, block in iteration_blocks(text))


def audit(project: Path, task_id: str = "t") -> list[dict]:
    path = project / ".hazina" / "agent-memory" / f"{task_id}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_completes_when_the_planner_returns_no_actions_after_an_iteration_that_worked(project: Path) -> None:
    result, planner = run_task(
        project, [plan({"tool": "read_file", "path": "app.py"}), plan(thought="nothing left to do")]
    )
    assert result.success and result.stop_reason is StopReason.NO_ACTIONS and result.error is None
    assert result.iterations == 2 and len(planner.requests) == 2
    assert memory(project).endswith("Iteration 2:\n- Planner returned no actions: nothing left to do\n")


def test_declaring_done_without_doing_anything_is_not_success(project: Path) -> None:
    result, planner = run_task(project, [plan(thought="nothing to do")])
    assert not result.success and result.stop_reason is StopReason.NO_ACTIONS
    assert result.iterations == 1 and len(planner.requests) == 1
    assert "no iteration ran actions that all succeeded" in (result.error or "")
    assert memory(project) == "Iteration 1:\n- Planner returned no actions: nothing to do\n"


def test_declaring_done_after_only_failed_actions_is_not_success(project: Path) -> None:
    replies = [
        plan({"tool": "run", "command": "exit 1"}),
        plan({"tool": "read_file", "path": "app.py"}, {"tool": "read_file", "path": "gone.py"}),
        plan(),
    ]
    result, _ = run_task(project, replies)
    assert not result.success and result.stop_reason is StopReason.NO_ACTIONS and result.iterations == 3


def test_one_fully_successful_iteration_then_done_is_success_even_after_a_failure(project: Path) -> None:
    replies = [
        plan({"tool": "read_file", "path": "gone.py"}),
        plan({"tool": "run", "command": "true"}),
        plan(),
    ]
    result, _ = run_task(project, replies)
    assert result.success and result.stop_reason is StopReason.NO_ACTIONS


def test_a_passing_test_command_does_not_make_doing_nothing_a_success(project: Path) -> None:
    result, _ = run_task(project, [plan()], test_command="true")
    assert not result.success and result.tests_passed is True


def test_stops_as_soon_as_failing_tests_pass(project: Path) -> None:
    replies = [
        plan({"tool": "run", "command": "echo step one"}),
        plan({"tool": "run", "command": "touch fixed"}),
        plan({"tool": "run", "command": "touch never-reached"}),
    ]
    result, planner = run_task(
        project, replies, test_command=python_check("__import__('os').path.exists('fixed')")
    )
    assert result.success and result.stop_reason is StopReason.TESTS_PASSED
    assert result.iterations == 2 and len(planner.requests) == 2
    assert not (project / "never-reached").exists()
    text = memory(project)
    label = "tests"  # `python -c ...` names no test runner
    assert text.startswith(
        f"Iteration 1:\n- Baseline: {label} failed\n- Ran `echo step one` (exit 0)\n- {label} failed\n"
    )
    assert text.endswith(f"Iteration 2:\n- Ran `touch fixed` (exit 0)\n- {label} passed\n")


def test_passing_baseline_guards_against_regressions_and_ends_on_no_actions(project: Path) -> None:
    (project / "ok").write_text("")
    replies = [plan({"tool": "run", "command": "echo a"}), plan({"tool": "run", "command": "echo b"}), plan()]
    result, _planner = run_task(
        project, replies, test_command=python_check("__import__('os').path.exists('ok')")
    )
    assert result.success and result.stop_reason is StopReason.NO_ACTIONS
    assert result.iterations == 3 and result.tests_passed is True


def test_regression_under_a_passing_baseline_is_not_success(project: Path) -> None:
    (project / "ok").write_text("")
    replies = [plan({"tool": "run", "command": "mv ok gone"}), plan()]
    result, _ = run_task(project, replies, test_command=python_check("__import__('os').path.exists('ok')"))
    assert not result.success and result.stop_reason is StopReason.NO_ACTIONS
    assert result.tests_passed is False and "tests fail" in (result.error or "")


def test_tests_do_not_rerun_after_read_only_iterations(project: Path) -> None:
    counter = project / "runs.txt"
    test_command = f"echo x >> {counter}; exit 1"
    replies = [plan({"tool": "read_file", "path": "app.py"}), plan({"tool": "git_status"}), plan()]
    result, _ = run_task(project, replies, test_command=test_command)
    assert counter.read_text().count("x") == 1, "only the baseline ran"
    assert not result.success


def test_respects_the_iteration_limit_exactly(project: Path) -> None:
    replies = [plan({"tool": "run", "command": f"echo {i}"}) for i in range(10)]
    result, planner = run_task(project, replies, max_iterations=3)
    assert result.stop_reason is StopReason.MAX_ITERATIONS and not result.success
    assert result.iterations == 3 and len(planner.requests) == 3
    assert memory(project).count("Iteration ") == 3 and "Iteration 3:" in memory(project)


def test_invalid_json_is_retried_once_with_the_validation_error_quoted(project: Path) -> None:
    replies = [
        '{"thought": "x", "plan": [], "actions": [{"tool": "apply_diff", "path": "a"}]}',
        plan(thought="done"),
    ]
    result, planner = run_task(project, replies)
    assert result.stop_reason is StopReason.NO_ACTIONS and len(planner.requests) == 2
    retry = planner.requests[1]
    assert retry[-2].role == "assistant" and "apply_diff" in retry[-2].content
    assert "'diff' is a required property" in retry[-1].content
    assert "Planner output invalid, retried" in memory(project)


def test_two_invalid_replies_end_the_task_with_a_summary(project: Path) -> None:
    result, planner = run_task(project, ["I think we should fix it.", '```json\n{"thought": 1}\n```'])
    assert not result.success and result.stop_reason is StopReason.INVALID_OUTPUT
    assert len(planner.requests) == 2 and result.iterations == 1
    assert "Planner output invalid twice" in memory(project)
    assert "invalid" in (result.error or "")


def test_unknown_tool_means_nothing_in_the_batch_executes(project: Path) -> None:
    bad = plan({"tool": "run", "command": "touch first"}, {"tool": "delete_file", "path": "app.py"})
    result, _ = run_task(project, [bad, bad])
    assert result.stop_reason is StopReason.INVALID_OUTPUT
    assert not (project / "first").exists() and (project / "app.py").exists()


def test_blocked_command_runs_nothing_skips_the_rest_and_the_planner_sees_the_rule(project: Path) -> None:
    (project / "src").mkdir()
    replies = [
        plan({"tool": "run", "command": "ls && rm -fr src"}, {"tool": "run", "command": "touch after"}),
        plan(),
    ]
    result, planner = run_task(project, replies)
    assert (project / "src").is_dir() and not (project / "after").exists()
    next_prompt = planner.requests[1][-1].content
    assert "BLOCKED" in next_prompt and "destructive" in next_prompt
    blocked = [r for r in audit(project) if r["event"] == "action" and r["status"] == "rejected"]
    assert blocked and blocked[0]["details"]["policy"]["rule_id"]
    assert [r["status"] for r in audit(project) if r["event"] == "action"] == ["rejected", "skipped"]
    assert "Skipped 1 remaining action(s)" in memory(project)
    # The planner then stopped with no actions, having done nothing that worked: not success.
    assert not result.success and result.stop_reason is StopReason.NO_ACTIONS


def test_a_failing_command_is_captured_and_the_batch_goes_on(project: Path) -> None:
    replies = [
        plan({"tool": "run", "command": "echo boom >&2; exit 2"}, {"tool": "run", "command": "touch ok"}),
        plan(),
    ]
    _, planner = run_task(project, replies)
    assert (project / "ok").exists()
    prompt = planner.requests[1][-1].content
    assert "exit 2" in prompt and "boom" in prompt and "failed" in prompt


def test_the_prompt_carries_task_memory_schema_and_last_observations(project: Path) -> None:
    run_task(
        project,
        [plan({"tool": "read_file", "path": "app.py"}), plan()],
        task_id="same",
        description="first run",
    )
    _, planner = run_task(
        project,
        [plan({"tool": "run", "command": "echo fresh-observation"}), plan()],
        task_id="same",
        description="add a farewell function",
    )
    system, user = planner.requests[1]
    assert system.role == "system" and '"additionalProperties":false' in system.text()
    assert "add a farewell function" in user.content
    assert "Read app.py (2 lines)" in user.content, "memory of the earlier run is in the prompt"
    assert "fresh-observation" in user.content, "the last observations are in the prompt"
    assert "Iteration 3:" in memory(project, "same"), "numbering continues across runs"


def test_the_prompt_stays_bounded_as_iterations_accumulate(project: Path) -> None:
    big = "y" * 30_000
    replies = [plan({"tool": "run", "command": f"echo {i}-{big}"}) for i in range(12)]
    _, planner = run_task(project, replies, max_iterations=12)
    sizes = [sum(len(m.content) for m in request) for request in planner.requests]
    assert max(sizes) < 80_000
    assert sizes[-1] <= sizes[2] * 1.3, "prompt size must level off, not grow with each iteration"
    assert "characters cut" in planner.requests[-1][-1].content


class _InterruptingPlanner:
    name = "interrupting"

    def __init__(self) -> None:
        self.calls = 0

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        self.calls += 1
        if self.calls == 2:
            raise KeyboardInterrupt
        return PlannerReply(text=json.dumps(plan({"tool": "run", "command": "echo one"})))


def test_ctrl_c_stops_with_the_summary_written(project: Path) -> None:
    agent = CodingAgent(planner=_InterruptingPlanner(), settings=Settings(provider="replay", shell="posix"))
    result = agent.run(CodingAgent.create_task("x", project, task_id="t"))
    assert result.stop_reason is StopReason.INTERRUPTED and not result.success
    assert (
        memory(project)
        == "Iteration 1:\n- Ran `echo one` (exit 0)\n\nIteration 2:\n- Interrupted by the user\n"
    )
    assert audit(project)[-1]["event"] == "task_end"


class _BrokenPlanner:
    name = "broken"

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        raise PlannerError("provider unreachable: connection refused")


def test_provider_failure_stops_with_planner_error(project: Path) -> None:
    agent = CodingAgent(planner=_BrokenPlanner(), settings=Settings(provider="replay", shell="posix"))
    result = agent.run(CodingAgent.create_task("x", project, task_id="t"))
    assert result.stop_reason is StopReason.PLANNER_ERROR and "unreachable" in (result.error or "")
    assert "Planner failed: provider unreachable" in memory(project)


def test_a_blocked_command_changes_nothing_so_the_tests_are_not_run_again(project: Path) -> None:
    counter = project / "test-runs"
    count_runs = python_check(f"open({str(counter)!r}, 'a').write('x') and False")
    replies = [plan({"tool": "run", "command": "rm -rf src"}), plan({"tool": "run", "command": "curl x"})]

    result, _ = run_task(project, replies, test_command=count_runs, max_iterations=2)

    assert [r["event"] for r in audit(project)].count("action") == 2
    assert all(r["status"] == "rejected" for r in audit(project) if r["event"] == "action")
    # Only the baseline ran: nothing the blocked commands "did" could have changed the outcome.
    assert [r["label"] for r in audit(project) if r["event"] == "tests"] == ["baseline"]
    assert counter.read_text() == "x" and result.stop_reason is StopReason.MAX_ITERATIONS
    assert result.error == "stopped at the iteration limit (2) before the task was done"
