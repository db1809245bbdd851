"""A reply that ran away after leaving its last string open is read as the reply it meant.

Recorded in the live bench (http_status_branch, runs 35 and 38): the `content` string ended in
`return 'unknown'}]}` without its closing quote, the model went on with ```` ```Python ```` and a loop,
and its retry, warm or not, wrote the same start; the task ended on two invalid replies.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.planners.base import ChatMessage, PlannerReply
from glmagent.planners.runaway import RUNAWAY
from glmagent.unclosed_string import closed_string_reading

CONTENT = (
    "def describe(status):\\n    if 300 <= status < 400:\\n        return 'redirect'\\n    return 'unknown'"
)
RECORDED = (
    '{\n  "thought": "handle 3xx codes",\n  "plan": ["handle 3xx codes"],\n'
    f'  "actions": [{{"tool": "apply_diff", "path": "status.py", "content": "{CONTENT}}}]}}'
    "```Python -" + "Python" * 300
)


def test_the_recorded_runaway_reads_as_the_reply_it_meant() -> None:
    document = closed_string_reading(RECORDED)

    assert document is not None
    [action] = document["actions"]
    assert action["content"].endswith("return 'unknown'")
    assert "Python" not in action["content"]


@pytest.mark.parametrize(
    "text",
    [
        "no object at all" + "x" * 50,
        '{"thought": "t", "plan": [], "actions": [{"tool": "read_file", "path": "a.py"',  # no brackets
        '{"thought": "t", "plan": [], "actions": [{"tool": "run", "command": "ls}}]] ]]' + "]" * 40,
    ],
    ids=["no object", "no closing brackets", "nothing parses"],
)
def test_text_with_no_such_reading_gives_none(text: str) -> None:
    assert closed_string_reading(text) is None


class _Runaway:
    """A planner whose every reply is the recorded runaway."""

    name = "runaway"

    def __init__(self, text: str) -> None:
        self.text = text
        self.calls = 0

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        self.calls += 1
        return PlannerReply(text=self.text, finish_reason=RUNAWAY)


def _run(tmp_path: Path, text: str) -> tuple[_Runaway, list[dict[str, object]]]:
    (tmp_path / "status.py").write_text("def describe(status):\n    return 'unknown'\n", encoding="utf-8")
    planner = _Runaway(text)
    agent = CodingAgent(planner=planner, settings=Settings(provider="replay", shell="posix", sandbox="none"))
    task = CodingAgent.create_task(
        description="describe 3xx as redirect", working_directory=tmp_path, task_id="t", max_iterations=1
    )
    agent.run(task)
    log = tmp_path / ".hazina" / "agent-memory" / "t.jsonl"
    return planner, [json.loads(line) for line in log.read_text().splitlines()]


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_the_loop_applies_the_edit_of_a_runaway_that_left_its_string_open(tmp_path: Path) -> None:
    planner, records = _run(tmp_path, RECORDED)

    assert planner.calls == 1  # no retry: the reply was read
    assert "return 'redirect'" in (tmp_path / "status.py").read_text(encoding="utf-8")
    assert any(r["event"] == "reply_rescued" for r in records)


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_a_runaway_with_no_such_reading_is_still_invalid(tmp_path: Path) -> None:
    planner, records = _run(tmp_path, '{"thought": "t", "plan": ["' + "loop " * 400)

    assert planner.calls == 2  # retried once, then the task ends
    assert [r["valid"] for r in records if r["event"] == "validation"] == [False, False]
    assert (tmp_path / "status.py").read_text(
        encoding="utf-8"
    ) == "def describe(status):\n    return 'unknown'\n"
