"""What each loop event looks like on screen: the real loop and a scripted planner, in plain mode."""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import plan, python_check

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.planners.base import ChatMessage, PlannerReply, TokenUsage
from glmagent.ui import TaskScreen
from glmagent.ui._diff import diff_lines
from glmagent.ui._tail import useful_tail

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")

DIFF = (
    "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,3 @@\n def greet(name):\n"
    "+    name = name or 'world'\n     return 'hello ' + name\n"
)


class _PricedPlanner:
    """Replies from a list, each reporting token usage and a cost, like a hosted model."""

    name = "glm:glm-5"

    def __init__(self, replies: Sequence[dict]) -> None:
        self.replies = list(replies)

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        reply = self.replies.pop(0) if self.replies else plan()
        usage = TokenUsage(prompt_tokens=1000, completion_tokens=200, total_tokens=1200, reasoning_tokens=50)
        return PlannerReply(text=json.dumps(reply), usage=usage, cost_usd=0.0021)


def _render(
    project: Path, replies: Sequence[dict], *, test_command: str | None = None, verbose: int = 0
) -> str:
    out = io.StringIO()
    screen = TaskScreen(out, colour=False, planner_label="glm:glm-5", verbose=verbose)
    agent = CodingAgent(
        planner=_PricedPlanner(replies),
        settings=Settings(provider="replay", shell="posix", sandbox="none"),
        observer=screen.observer,
    )
    task = CodingAgent.create_task("fix it", project, test_command=test_command, task_id="t")
    with screen.running():
        result = agent.run(task)
    screen.summary(result)
    return out.getvalue()


def test_one_line_per_action_with_its_outcome(project: Path) -> None:
    shown = _render(
        project,
        [
            plan(
                {"tool": "run", "command": "echo hi; exit 1"},
                {"tool": "apply_diff", "path": "app.py", "diff": DIFF},
                {"tool": "run", "command": "rm -rf /"},
                {"tool": "run", "command": "echo never"},
                thought="first thought",
                steps=["look", "fix"],
            ),
        ],
    )
    assert "   thought  first thought" in shown
    assert "   plan     1. look\n            2. fix" in shown
    assert re.search(r"   ✗ \$ echo hi; exit 1 · exit 1 · \d+\.\ds\n       hi\n", shown)
    assert "   ✓ modified app.py +1 −0" in shown
    assert "   ✗ $ rm -rf / · blocked by rule destructive." in shown
    assert "   – $ echo never · skipped: an earlier action was rejected" in shown


def test_diffs_show_old_and_new_line_numbers() -> None:
    lines = [line.plain for line in diff_lines(DIFF, limit=10)]
    assert lines == [
        "    @@ -1,2 +1,3 @@",
        "1 1   def greet(name):",
        "  2 +     name = name or 'world'",
        "2 3       return 'hello ' + name",
    ]
    assert diff_lines(DIFF, limit=2)[-1].plain == "… 2 more diff lines (the whole diff is in the audit log)"


def test_command_output_is_trimmed_to_its_tail() -> None:
    output = (
        "$ make\n[exit 2]\n--- stdout ---\n"
        + "\n".join(f"line {i}" for i in range(50))
        + "\n--- stderr ---\nboom"
    )
    assert useful_tail(output, 3) == (["line 48", "line 49", "boom"], 48)


def test_the_summary_has_files_tests_tokens_and_cost(project: Path) -> None:
    (project / "flag").write_text("")
    shown = _render(
        project,
        [plan({"tool": "apply_diff", "path": "app.py", "diff": DIFF}), plan()],
        test_command=python_check("'world' in open('app.py').read()"),
    )
    assert "✗ tests (baseline) tests failed" in shown
    assert "✓ SUCCESS · tests_passed" in shown
    assert "  files       app.py +1 −0" in shown
    assert "  tests       failing → passing · tests passed" in shown
    assert "  tokens      1,200 tokens (1,000 in, 200 out of which 50 reasoning, $0.0021)" in shown
    assert re.search(r"  iterations  1 of 5\n", shown)
    assert "  review      glmagent audit show t -C " in shown and "t.txt" in shown


def test_verbose_shows_the_whole_thought(project: Path) -> None:
    long = "word " * 200
    short = _render(project, [plan({"tool": "read_file", "path": "app.py"}, thought=long)])
    full = _render(project, [plan({"tool": "read_file", "path": "app.py"}, thought=long)], verbose=1)
    assert "…" in short.split("thought", 1)[1].splitlines()[0]
    assert (long.strip()) in full
