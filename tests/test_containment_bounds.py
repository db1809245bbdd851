"""Bounds on what one reply can make glmagent do (issue row 8): actions per reply, read_file size (and line
ranges), diff size, edited file size, observation text per iteration. Memory is measured with tracemalloc
(allocations, not time), so the checks hold on a busy machine."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from conftest import plan

from glmagent.agent import CodingAgent
from glmagent.config import Settings, resolve_settings
from glmagent.contract import Action, parse_planner_output
from glmagent.guard import Policy
from glmagent.limits import Limits
from glmagent.planners.base import ChatMessage, PlannerReply
from glmagent.planners.scripted import ScriptedPlanner
from glmagent.tools.executor import ToolExecutor
from glmagent.tools.shell import PosixShell
from glmagent.workspace import Workspace


class Recording(ScriptedPlanner):
    """A scripted planner that keeps the prompts it was sent."""

    def __init__(self, replies: list[dict]) -> None:
        super().__init__(replies)
        self.prompts: list[str] = []

    def plan(self, messages: list[ChatMessage]) -> PlannerReply:
        self.prompts.append("\n".join(m.content for m in messages))
        return super().plan(messages)


def records(result: object) -> list[dict]:
    path = result.audit_file  # type: ignore[attr-defined]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_ten_thousand_actions_in_one_reply_run_twenty_and_the_model_is_told(project: Path) -> None:
    flood = [{"tool": "read_file", "path": "app.py"}] * 10_000
    planner = Recording([plan(*flood), plan()])
    agent = CodingAgent(planner=planner, settings=Settings(sandbox="none"))
    result = agent.run(CodingAgent.create_task("flood", project, max_iterations=2))
    stored = records(result)
    assert sum(1 for r in stored if r["event"] == "action") == 20
    refused = [r for r in stored if r["event"] == "actions_refused"]
    assert refused == [refused[0]] and refused[0]["count"] == 9_980 and refused[0]["limit"] == 20
    assert "a reply may carry at most 20 actions" in planner.prompts[1]
    assert "Refused 9,980 action(s)" in result.summary


def test_the_action_limit_is_a_setting(project: Path) -> None:
    (project / ".hazina").mkdir()
    (project / ".hazina" / "config.toml").write_text("max_actions = 3\n", encoding="utf-8")
    settings = resolve_settings(project)
    assert settings.max_actions == 3
    planner = ScriptedPlanner([plan(*[{"tool": "read_file", "path": "app.py"}] * 5), plan()])
    result = CodingAgent(planner=planner, settings=settings).run(CodingAgent.create_task("x", project))
    assert sum(1 for r in records(result) if r["event"] == "action") == 3


@pytest.fixture
def executor(project: Path) -> ToolExecutor:
    return ToolExecutor(Workspace(project), PosixShell(), Policy.default(), command_timeout=20)


def act(executor: ToolExecutor, **fields: str):
    return executor.execute(Action(**fields))  # type: ignore[arg-type]


def peak_while(call) -> int:
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_reading_a_huge_file_holds_at_most_the_read_limit(executor: ToolExecutor, project: Path) -> None:
    line = b"x" * 99 + b"\n"
    with (project / "huge.log").open("wb") as handle:
        for _ in range(300):
            handle.write(line * 1000)  # 30 MB
    seen = {}
    peak = peak_while(lambda: seen.update(observation=act(executor, tool="read_file", path="huge.log")))
    observation = seen["observation"]
    assert observation.status == "ok"
    assert peak < 8_000_000, f"{peak:,} bytes allocated reading a 30 MB file"
    assert '"lines": "' in observation.output and "huge.log" in observation.output  # how to ask for more
    assert observation.details["bytes"] == 30_000_000


def test_a_line_range_reads_that_part_and_says_what_follows(executor: ToolExecutor, project: Path) -> None:
    (project / "long.txt").write_text("".join(f"line {i}\n" for i in range(1, 5001)), encoding="utf-8")
    observation = act(executor, tool="read_file", path="long.txt", lines="2000-2002")
    assert observation.status == "ok"
    body = observation.output.splitlines()[1:]
    assert body == ["2000 | line 2000", "2001 | line 2001", "2002 | line 2002"]
    tail = act(executor, tool="read_file", path="long.txt", lines="4999-")
    assert tail.output.splitlines()[1:] == ["4999 | line 4999", "5000 | line 5000"]
    more = act(executor, tool="read_file", path="long.txt", lines="1-")
    assert '"lines": "1501-3000"' in more.output
    past = act(executor, tool="read_file", path="long.txt", lines="9000-9100")
    assert past.status == "failed" and "5,000 lines" in past.output


@pytest.mark.parametrize("lines", ["abc", "10-5", "0-3", "-4"])
def test_a_bad_line_range_is_refused_with_the_form_to_use(executor: ToolExecutor, lines: str) -> None:
    observation = act(executor, tool="read_file", path="app.py", lines=lines)
    assert observation.status == "rejected"
    assert "START-END" in observation.output or "not end before it starts" in observation.output


def test_a_single_enormous_line_is_not_held_whole(executor: ToolExecutor, project: Path) -> None:
    (project / "minified.js").write_bytes(b"a" * 5_000_000 + b"\nlast\n")
    seen = {}
    peak = peak_while(
        lambda: seen.update(observation=act(executor, tool="read_file", path="minified.js", lines="1-2"))
    )
    assert peak < 8_000_000
    assert "last" in seen["observation"].output and "longer than" in seen["observation"].output


def test_an_oversized_diff_is_refused_before_it_is_parsed(executor: ToolExecutor, project: Path) -> None:
    body = "".join(f"+line {i}\n" for i in range(200_000))
    diff = f"--- /dev/null\n+++ b/big.py\n@@ -0,0 +1,200000 @@\n{body}"
    assert len(diff) > 1_000_000
    seen = {}
    peak = peak_while(
        lambda: seen.update(observation=act(executor, tool="apply_diff", path="big.py", diff=diff))
    )
    observation = seen["observation"]
    assert observation.status == "failed" and "over the limit" in observation.output
    assert "smaller diffs" in observation.output
    assert not (project / "big.py").exists()
    assert peak < 3 * len(diff), f"{peak:,} bytes for a {len(diff):,}-byte diff"


def test_an_oversized_file_is_not_edited(project: Path) -> None:
    executor = ToolExecutor(
        Workspace(project), PosixShell(), Policy.default(), limits=Limits(edit_max_bytes=10_000)
    )
    (project / "data.txt").write_text("x\n" * 10_000, encoding="utf-8")
    observation = act(
        executor,
        tool="apply_diff",
        path="data.txt",
        diff="--- a/data.txt\n+++ b/data.txt\n@@ -1 +1 @@\n-x\n+y\n",
    )
    assert observation.status == "failed" and "over the limit" in observation.output
    assert (project / "data.txt").read_text(encoding="utf-8") == "x\n" * 10_000


def test_one_iterations_observations_are_bounded_in_all(project: Path) -> None:
    (project / "chatty.py").write_text("print('y' * 200_000)\n", encoding="utf-8")
    planner = Recording([plan(*[{"tool": "run", "command": "python3 chatty.py"}] * 8), plan()])
    settings = Settings(sandbox="none", observation_max_chars=100_000)
    agent = CodingAgent(planner=planner, settings=settings)
    seen: list[int] = []

    class Watch:
        def __getattr__(self, name: str):
            return lambda *args: seen.append(len(args[2].output)) if name == "action_done" else None

    agent.observer = Watch()  # type: ignore[assignment]
    agent.run(CodingAgent.create_task("chatty", project, max_iterations=2))
    assert len(seen) == 8
    assert sum(seen) <= 100_000 + 8 * 600, seen
    assert seen[0] > 50_000 and seen[-1] <= 600  # the first got room, the last only a floor


def test_the_schema_and_the_model_both_take_an_optional_line_range() -> None:
    reply = json.dumps(plan({"tool": "read_file", "path": "a.py", "lines": "10-20"}))
    assert parse_planner_output(reply).actions[0].lines == "10-20"
    from glmagent.contract import InvalidPlannerOutput

    with pytest.raises(InvalidPlannerOutput):
        parse_planner_output(json.dumps(plan({"tool": "read_file", "path": "a.py", "lines": ""})))
