"""A model that sends an edit again is sampled differently next time, and a runaway's retry is bounded.

At temperature 0 a small model shown nearly the same prompt sends the same refused edit again and again (the
live bench saw one eight times in a task). The planner notices an `apply_diff` identical to an earlier one
and samples the next request at `STUCK_TEMPERATURE`; after a reply cut off as a runaway, the retry's strict
schema bounds its lists, so a loop of actions or of lines has to end where the list does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from conftest import mock_planner, plan

from glmagent.planners.base import ChatMessage
from glmagent.planners.runaway import (
    RUNAWAY_MAX_ACTIONS,
    RUNAWAY_MAX_EDITS,
    RUNAWAY_MAX_ITEMS,
    RUNAWAY_MAX_STEPS,
    capped_schema,
    repeated_unit,
)
from glmagent.planners.stuck import STUCK_TEMPERATURE, WARM_REQUESTS, EditMemory
from glmagent.strict_schema import strict_planner_schema

EDIT = {"tool": "apply_diff", "path": "stats.py", "edits": [{"search": ["a = 1"], "replace": ["a = 2"]}]}
OTHER_EDIT = {
    "tool": "apply_diff",
    "path": "stats.py",
    "edits": [{"search": ["a = 1"], "replace": ["a = 3"]}],
}
READ = {"tool": "read_file", "path": "stats.py"}
TESTS = {"tool": "run", "command": "pytest -q"}


def _text(*actions: dict) -> str:
    return json.dumps(plan(*actions))


def test_an_edit_sent_again_is_a_repeat_whatever_its_key_order() -> None:
    memory = EditMemory()
    assert memory.repeats(_text(READ, EDIT)) is False
    reordered = dict(reversed(list(EDIT.items())))
    assert memory.repeats(_text(reordered)) is True


def test_reads_test_runs_and_new_edits_are_not_repeats() -> None:
    memory = EditMemory()
    assert memory.repeats(_text(READ, EDIT, TESTS)) is False
    assert memory.repeats(_text(READ, OTHER_EDIT, TESTS)) is False
    assert memory.repeats(_text(READ, TESTS)) is False


def test_the_same_edit_twice_in_one_reply_is_not_a_repeat_of_an_earlier_reply() -> None:
    assert EditMemory().repeats(_text(EDIT, EDIT)) is False


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"actions": "none"}', '{"actions": [1, "x"]}', ""])
def test_a_reply_that_is_not_a_plan_is_no_repeat_and_no_error(text: str) -> None:
    memory = EditMemory()
    assert memory.repeats(text) is False
    assert memory.repeats(text) is False


def test_the_memory_forgets_the_oldest_edits_beyond_its_limit() -> None:
    memory = EditMemory(limit=2)
    edits = [{**EDIT, "path": f"m{n}.py"} for n in range(3)]
    for edit in edits:
        assert memory.repeats(_text(edit)) is False
    assert memory.repeats(_text(edits[0])) is False  # forgotten
    assert memory.repeats(_text(edits[2])) is True


def _events(content: str) -> Iterator[bytes]:
    for chunk in (
        {"model": "m", "choices": [{"index": 0, "delta": {"content": content}}]},
        {"model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ):
        yield f"data: {json.dumps(chunk)}\n\n".encode()
    yield b"data: [DONE]\n\n"


class _Server:
    """Answers each request with the next scripted reply text, keeping the request bodies."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.bodies: list[dict] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.bodies.append(json.loads(request.content))
        events = _events(self.replies.pop(0))
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=events)


ASK = [ChatMessage(role="user", content="fix it")]


def test_after_a_repeated_edit_the_next_requests_sample_warmer_then_go_back() -> None:
    server = _Server(
        [_text(EDIT), _text(READ, EDIT), _text(OTHER_EDIT), _text(TESTS), _text(TESTS), _text(TESTS)]
    )
    planner = mock_planner(server)
    replies = [planner.plan(ASK) for _ in range(6)]

    warm = [STUCK_TEMPERATURE] * WARM_REQUESTS
    assert WARM_REQUESTS == 3
    assert [b["temperature"] for b in server.bodies] == [0.0, 0.0, *warm, 0.0]
    assert [r.temperature for r in replies] == [0.0, 0.0, *warm, 0.0]


def test_a_repeat_while_warm_counts_the_window_again() -> None:
    server = _Server([_text(EDIT), _text(EDIT), _text(TESTS), _text(EDIT), *[_text(TESTS)] * 4])
    planner = mock_planner(server)
    for _ in range(8):
        planner.plan(ASK)

    S = STUCK_TEMPERATURE
    assert [b["temperature"] for b in server.bodies] == [0.0, 0.0, S, S, S, S, S, 0.0]


def test_asked_to_explore_the_next_requests_sample_warmer() -> None:
    # The loop's fresh start (glmagent.fresh_start): at temperature 0 a prompt like the first brings the
    # first reply again.
    server = _Server([_text(TESTS)] * 5)
    planner = mock_planner(server)
    planner.plan(ASK)
    planner.explore()
    for _ in range(4):
        planner.plan(ASK)

    S = STUCK_TEMPERATURE
    assert [b["temperature"] for b in server.bodies] == [0.0, S, S, S, 0.0]


def test_a_configured_temperature_above_the_stuck_one_is_kept() -> None:
    server = _Server([_text(EDIT), _text(EDIT), _text(TESTS)])
    planner = mock_planner(server, temperature=1.0)
    for _ in range(3):
        planner.plan(ASK)
    assert [b["temperature"] for b in server.bodies] == [1.0, 1.0, 1.0]


def test_capped_schema_bounds_actions_and_every_list_and_keeps_smaller_bounds() -> None:
    schema = strict_planner_schema()
    capped = capped_schema(schema)

    assert capped["properties"]["actions"]["maxItems"] == RUNAWAY_MAX_ACTIONS
    assert capped["properties"]["plan"]["maxItems"] == RUNAWAY_MAX_STEPS
    edits = capped["properties"]["actions"]["items"]["anyOf"][2]["properties"]["edits"]
    assert edits["maxItems"] == RUNAWAY_MAX_EDITS
    text = json.dumps(capped)
    lists = [node for node in _nodes(capped) if node.get("type") == "array"]
    assert lists and all("maxItems" in node and node["maxItems"] <= RUNAWAY_MAX_ITEMS for node in lists)
    assert '"search": {"type": "array", "items": {"type": "string"}, "maxItems": 200}' in text
    assert "maxItems" not in json.dumps(
        schema["properties"]["actions"]["items"]["anyOf"][2]["properties"]["edits"]["items"]
    )
    assert schema != capped  # the planner's own schema is not changed


def test_a_retry_that_writes_one_edit_again_must_close_the_list_before_it_reads_as_a_loop() -> None:
    """A live run's retry wrote the same edit of its test file until it was cut off, as the first attempt
    had: the task ended at its first iteration. With the edits bounded, those copies end the list first."""
    head = '{"thought": "fix", "plan": ["fix"], "actions": [{"tool": "apply_diff", "path": "t.py", "edits": ['
    edit = (
        '\n        {\n          "search": ["assert parse_flag(text) is False, text"],\n'
        '          "replace": ["assert parse_flag(text, default=True) is False, text"]\n        },'
    )
    assert repeated_unit(head + edit * 40) is not None  # unbounded, it is a loop
    assert repeated_unit(head + edit * RUNAWAY_MAX_EDITS) is None


def _nodes(node: object) -> Iterator[dict]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _nodes(item)


def test_the_request_after_a_runaway_asks_for_the_capped_schema_and_the_next_one_does_not() -> None:
    loop = '{"thought": "t", "plan": [], "actions": [' + ", ".join([json.dumps(READ)] * 400)
    server = _Server([loop, _text(READ), _text(TESTS)])
    planner = mock_planner(server, schema=strict_planner_schema(), formats=("json_schema",))
    replies = [planner.plan(ASK) for _ in range(3)]

    assert replies[0].finish_reason == "repetition"
    schemas = [b["response_format"]["json_schema"]["schema"] for b in server.bodies]
    assert [s["properties"]["actions"].get("maxItems") for s in schemas] == [30, RUNAWAY_MAX_ACTIONS, 30]


IDLE_EDIT = {
    "tool": "apply_diff",
    "path": "progress.py",
    "edits": [
        {"search": ["    return 0 if total == 0 else 0"], "replace": ["    return 0 if total == 0 else 0 "]}
    ],
}


def test_an_edit_that_changes_no_line_counts_as_a_repeat_at_once() -> None:
    # progress_clamp in the live bench: the model "changed" the line it had written to itself, twice.
    assert EditMemory().repeats(_text(READ, IDLE_EDIT, TESTS)) is True


@pytest.mark.parametrize(
    "edits",
    [
        [{"search": ["a = 1"], "replace": ["a = 1"]}, {"search": ["b = 1"], "replace": ["b = 2"]}],
        [{"search": [], "replace": ["def f():", "    return 1"]}],  # a whole function sent alone
        [{"search": ["a = 1"], "replace": ["a = 1", "b = 2"]}],
        [],
    ],
    ids=["one of two idle", "empty search", "line added", "no edits"],
)
def test_an_edit_that_changes_something_is_not_idle(edits: list) -> None:
    action = {"tool": "apply_diff", "path": "x.py", "edits": edits}
    assert EditMemory().repeats(_text(action)) is False
