"""A streamed reply that keeps repeating itself is cut off, not read to max_tokens.

The live bench saw a 1.5B model spend ten minutes on one reply cycling through the same run of `\\u00A1...`
escapes until the 4,096-token limit. The cut needs three exact copies: a SEARCH/REPLACE reply repeats its
SEARCH lines once in REPLACE, which must never look like a loop.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx
import pytest
from conftest import plan

from glmagent.agent import CodingAgent
from glmagent.audit import verify_log
from glmagent.config import Settings
from glmagent.planners.base import ChatMessage, PlannerReply
from glmagent.planners.openai_compat import RUNAWAY_FREQUENCY_PENALTY, OpenAICompatiblePlanner
from glmagent.planners.retry import RetryPolicy
from glmagent.planners.runaway import MIN_SHORT_SPAN, MIN_SPAN, RUNAWAY, repeated_unit
from glmagent.planners.stuck import STUCK_TEMPERATURE

ESCAPES = "".join(f"\\u{code:04X}" for code in range(0xA1, 0x100))
"""One cycle of the bench's runaway: 95 escapes, 570 characters."""
OPENING = '{"thought": "t", "plan": [], "actions": [{"tool": "apply_diff", "path": "slug.py", "diff": "[^'


def test_a_reply_cycling_through_the_same_text_is_found_with_its_unit() -> None:
    text = OPENING + ESCAPES * 4
    assert repeated_unit(text) == ESCAPES
    assert repeated_unit(OPENING + ESCAPES * 2) is None  # two copies are not yet a loop


def test_a_search_replace_reply_copying_a_long_search_part_is_not_a_loop() -> None:
    lines = "".join(f"    value_{n} = compute({n}, scale=2)\n" for n in range(80))  # 2,900 characters
    reply = f"<<<<<<< SEARCH\n{lines}=======\n{lines}    extra = 1\n>>>>>>> REPLACE\n"
    for end in range(len(lines), len(reply) + 1, 97):  # as it streams in
        assert repeated_unit(reply[:end]) is None, end


@pytest.mark.parametrize("copies", [3, 60])
def test_a_line_repeated_is_a_loop_only_over_the_minimum_span(copies: int) -> None:
    line = "    assert f(1) == 1\n"
    text = OPENING + line * copies
    expected = line if copies * len(line) >= MIN_SPAN else None
    assert repeated_unit(text) == expected


NEWLINE_LOOP = (
    '{"thought": "t", "plan": [], "actions": [{"tool": "apply_diff", "path": "slug.py", '
    '"diff": "<<<<<<< HEAD\\nimport re'
)
"""How the bench's commonest runaway begins: a diff's first line, then nothing but `\\n` escapes."""


STREAM_HEADERS = {"content-type": "text/event-stream"}


def test_a_short_unit_is_a_loop_after_a_hundred_copies_not_fifteen_hundred_characters() -> None:
    escape = "\\n"  # the two characters of a JSON newline escape
    assert repeated_unit(NEWLINE_LOOP + escape * 100) == escape
    assert repeated_unit(NEWLINE_LOOP + escape * 99) is None
    assert repeated_unit(NEWLINE_LOOP + "=" * MIN_SHORT_SPAN) == "="
    assert repeated_unit(NEWLINE_LOOP + "=" * (MIN_SHORT_SPAN - 1)) is None  # a docstring's ruler
    # Longer units still need MIN_SPAN characters: 60 copies of a 20-character line are not yet a loop.
    assert repeated_unit(NEWLINE_LOOP + "    total += 1\\n" * 60) is None


def test_the_planner_cuts_a_newline_runaway_within_a_few_hundred_characters() -> None:
    sent = [0]

    def events() -> Iterator[bytes]:
        def event(data: object) -> bytes:
            return f"data: {json.dumps(data)}\n\n".encode()

        yield event({"model": "m", "choices": [{"index": 0, "delta": {"content": NEWLINE_LOOP}}]})
        for _ in range(4000):  # about the token limit's worth, one escape per event as a server sends it
            sent[0] += 1
            yield event({"model": "m", "choices": [{"index": 0, "delta": {"content": "\\n"}}]})
        yield event({"model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]})
        yield b"data: [DONE]\n\n"

    planner = OpenAICompatiblePlanner(
        base_url="http://127.0.0.1:9/v1",
        model="m",
        api_key=None,
        retry=RetryPolicy(max_retries=0, backoff_s=0.0, jitter=lambda low, high: 0.0),
        transport=httpx.MockTransport(
            lambda request: httpx.Response(200, headers=STREAM_HEADERS, content=events())
        ),
    )
    reply = planner.plan([ChatMessage(role="user", content="fix it")])

    assert reply.finish_reason == RUNAWAY
    assert sent[0] <= 300, f"{sent[0]} escapes were read before the cut"


def _runaway_stream(sent: list[int]) -> Iterator[bytes]:
    """A server that would stream the cycle 2,000 times (about 1.1 MB) before stopping at `length`."""

    def event(data: object) -> bytes:
        return f"data: {json.dumps(data)}\n\n".encode()

    yield event({"model": "m", "choices": [{"index": 0, "delta": {"content": OPENING}}]})
    for _ in range(2000):
        for i in range(0, len(ESCAPES), 30):
            sent[0] += 1
            piece = ESCAPES[i : i + 30]
            yield event({"model": "m", "choices": [{"index": 0, "delta": {"content": piece}}]})
    yield event({"model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]})
    yield b"data: [DONE]\n\n"


def test_the_planner_stops_reading_a_runaway_stream_and_says_why() -> None:
    sent = [0]

    def handler(request: httpx.Request) -> httpx.Response:
        events = _runaway_stream(sent)
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=events)

    planner = OpenAICompatiblePlanner(
        base_url="http://127.0.0.1:9/v1",
        model="m",
        api_key=None,
        retry=RetryPolicy(max_retries=0, backoff_s=0.0, jitter=lambda low, high: 0.0),
        transport=httpx.MockTransport(handler),
    )
    reply = planner.plan([ChatMessage(role="user", content="fix it")])

    assert reply.finish_reason == RUNAWAY
    assert reply.text.startswith(OPENING + ESCAPES * 2)  # what came before the cut is kept, for the audit
    assert sent[0] < 200, "the stream was read far past the point where it began repeating"


class _RunawayThenFix:
    """A planner whose first reply was cut as a runaway; the retry is a valid plan."""

    name = "runaway-then-fix"

    def __init__(self) -> None:
        self.requests: list[list[ChatMessage]] = []

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        self.requests.append(list(messages))
        if len(self.requests) == 1:
            return PlannerReply(text=OPENING + ESCAPES * 3, model="m", latency_s=0.0, finish_reason=RUNAWAY)
        return PlannerReply(text=json.dumps(plan()), model="m", latency_s=0.0, finish_reason="stop")


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_the_loop_retries_a_runaway_reply_telling_the_model_what_it_repeated(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("x = 1\n", encoding="utf-8")
    planner = _RunawayThenFix()
    agent = CodingAgent(planner=planner, settings=Settings(provider="replay", shell="posix", sandbox="none"))
    task = CodingAgent.create_task(
        description="tidy app.py", working_directory=tmp_path, task_id="t", max_iterations=2
    )
    agent.run(task)

    retry = "\n".join(m.content for m in planner.requests[1])
    assert "kept repeating the same text ('\\\\u00A1\\\\u00A2" in retry
    log = tmp_path / ".hazina" / "agent-memory" / "t.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    invalid = [r for r in records if r["event"] == "validation" and not r["valid"]]
    assert len(invalid) == 1 and "kept repeating" in invalid[0]["error"]
    assert verify_log(log).ok


def _event(data: object) -> bytes:
    return f"data: {json.dumps(data)}\n\n".encode()


def _newline_loop() -> Iterator[bytes]:
    yield _event({"model": "m", "choices": [{"index": 0, "delta": {"content": NEWLINE_LOOP}}]})
    for _ in range(400):
        yield _event({"model": "m", "choices": [{"index": 0, "delta": {"content": "\\n"}}]})
    yield b"data: [DONE]\n\n"


def _valid_reply() -> Iterator[bytes]:
    yield _event({"model": "m", "choices": [{"index": 0, "delta": {"content": json.dumps(plan())}}]})
    yield _event({"model": "m", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    yield b"data: [DONE]\n\n"


class _Server:
    """Streams a newline runaway to the first request, valid plans after; optionally refuses the penalty."""

    def __init__(self, *, refuse_penalty: bool = False, runaways: int = 1) -> None:
        self.bodies: list[dict[str, object]] = []
        self.refuse_penalty = refuse_penalty
        self.runaways = runaways

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.bodies.append(body)
        if self.refuse_penalty and "frequency_penalty" in body:
            error = {"error": {"message": "Unrecognized request argument supplied: frequency_penalty"}}
            return httpx.Response(400, json=error)
        answered = [b for b in self.bodies if not (self.refuse_penalty and "frequency_penalty" in b)]
        events = _newline_loop() if len(answered) <= self.runaways else _valid_reply()
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=events)


def _planner(server: _Server) -> OpenAICompatiblePlanner:
    return OpenAICompatiblePlanner(
        base_url="http://127.0.0.1:9/v1",
        model="m",
        api_key=None,
        retry=RetryPolicy(max_retries=0, backoff_s=0.0, jitter=lambda low, high: 0.0),
        transport=httpx.MockTransport(server),
    )


def test_the_request_after_a_runaway_carries_a_frequency_penalty_and_the_one_after_that_does_not() -> None:
    server = _Server()
    planner = _planner(server)
    ask = [ChatMessage(role="user", content="fix it")]

    first, second, third = planner.plan(ask), planner.plan(ask), planner.plan(ask)

    assert first.finish_reason == RUNAWAY and first.frequency_penalty is None
    assert "frequency_penalty" not in server.bodies[0]
    assert server.bodies[1]["frequency_penalty"] == RUNAWAY_FREQUENCY_PENALTY
    assert second.finish_reason == "stop" and second.frequency_penalty == RUNAWAY_FREQUENCY_PENALTY
    assert "frequency_penalty" not in server.bodies[2] and third.frequency_penalty is None


def test_the_request_after_a_runaway_is_sampled_warm_and_the_one_after_that_is_not() -> None:
    # Run 35's http_status_branch: both attempts at temperature 0 wrote the same 743 characters, then the
    # same loop, and the task ended on two invalid replies.
    server = _Server()
    planner = _planner(server)
    ask = [ChatMessage(role="user", content="fix it")]

    replies = [planner.plan(ask) for _ in range(3)]

    assert [b.get("temperature") for b in server.bodies] == [0.0, STUCK_TEMPERATURE, 0.0]
    assert [r.temperature for r in replies] == [0.0, STUCK_TEMPERATURE, 0.0]


def test_a_runaway_again_keeps_the_penalty_for_the_next_request() -> None:
    server = _Server(runaways=2)
    planner = _planner(server)
    ask = [ChatMessage(role="user", content="fix it")]
    replies = [planner.plan(ask) for _ in range(3)]

    assert [r.finish_reason for r in replies] == [RUNAWAY, RUNAWAY, "stop"]
    penalty = RUNAWAY_FREQUENCY_PENALTY
    assert [b.get("frequency_penalty") for b in server.bodies] == [None, penalty, penalty]


def test_a_server_refusing_the_penalty_gets_the_request_without_it_and_never_again() -> None:
    server = _Server(refuse_penalty=True, runaways=2)
    planner = _planner(server)
    ask = [ChatMessage(role="user", content="fix it")]
    replies = [planner.plan(ask) for _ in range(3)]

    assert [r.finish_reason for r in replies] == [RUNAWAY, RUNAWAY, "stop"]
    penalty = RUNAWAY_FREQUENCY_PENALTY
    assert [b.get("frequency_penalty") for b in server.bodies] == [None, penalty, None, None]
    assert all(r.frequency_penalty is None for r in replies)


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_the_audit_shows_which_retry_carried_the_penalty(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("x = 1\n", encoding="utf-8")
    agent = CodingAgent(
        planner=_planner(_Server()), settings=Settings(provider="replay", shell="posix", sandbox="none")
    )
    task = CodingAgent.create_task(
        description="tidy app.py", working_directory=tmp_path, task_id="t", max_iterations=1
    )
    agent.run(task)

    log = tmp_path / ".hazina" / "agent-memory" / "t.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    replies = [r for r in records if r["event"] == "planner_reply"]
    assert [(r["attempt"], r["finish_reason"], r["frequency_penalty"]) for r in replies] == [
        (1, RUNAWAY, None),
        (2, "stop", RUNAWAY_FREQUENCY_PENALTY),
    ]
    assert verify_log(log).ok
