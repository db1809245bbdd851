"""ScriptedPlanner: list and replay-file replies, exhaustion, request recording."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from glmagent.errors import ConfigError
from glmagent.planners.base import ChatMessage, Planner, PlannerReply, TokenUsage
from glmagent.planners.scripted import EXHAUSTED_REPLY, ScriptedPlanner

PLAN = {"thought": "read it", "plan": ["read"], "actions": [{"tool": "read_file", "path": "a.py"}]}


def ask(planner: ScriptedPlanner, text: str = "task") -> PlannerReply:
    return planner.plan([ChatMessage(role="system", content="rules"), ChatMessage(role="user", content=text)])


def test_dict_replies_are_json_and_string_replies_are_verbatim() -> None:
    raw = 'Sure! ```json\n{"thought": "x", "plan": [], "actions": []}\n```'
    planner = ScriptedPlanner([PLAN, raw])

    first, second = ask(planner), ask(planner)

    assert json.loads(first.text) == PLAN
    assert second.text == raw
    assert first.usage is None


def test_exhausted_script_returns_the_no_actions_reply_every_time() -> None:
    planner = ScriptedPlanner([PLAN])
    ask(planner)

    assert planner.remaining == 0
    for _ in range(2):
        reply = ask(planner)
        assert reply.text == '{"thought": "No scripted replies left.", "plan": [], "actions": []}'
        assert reply.text == EXHAUSTED_REPLY
        assert json.loads(reply.text)["actions"] == []


def test_records_copies_of_every_request_including_after_exhaustion() -> None:
    planner = ScriptedPlanner([PLAN])
    conversation = [ChatMessage(role="user", content="first")]
    planner.plan(conversation)
    conversation.append(ChatMessage(role="assistant", content="later"))  # caller keeps building its list
    conversation[0].content = "mutated"
    planner.plan([ChatMessage(role="user", content="second")])

    assert [[m.content for m in request] for request in planner.requests] == [["first"], ["second"]]
    assert planner.requests[0][0] is not conversation[0]


def test_is_a_planner_with_a_name() -> None:
    assert isinstance(ScriptedPlanner([]), Planner)
    assert ScriptedPlanner([]).name == "replay"
    assert ScriptedPlanner([], name="demo").name == "demo"


def test_rejects_replies_that_are_neither_text_nor_mapping() -> None:
    with pytest.raises(TypeError, match="reply 1"):
        ScriptedPlanner([PLAN, 42])  # type: ignore[list-item]


def write(tmp_path: Path, content: str | bytes) -> Path:
    path = tmp_path / "replies.jsonl"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", newline="")
    return path


def test_replay_file_with_object_lines_string_lines_and_blank_lines(tmp_path: Path) -> None:
    malformed = '{"thought": "oops", "actions": [' + "\n(the model stopped here)"
    path = write(tmp_path, "\n".join(["", json.dumps(PLAN), "   ", json.dumps(malformed), "", ""]))

    planner = ScriptedPlanner.from_replay_file(path)

    assert planner.remaining == 2
    assert json.loads(ask(planner).text) == PLAN
    assert ask(planner).text == malformed
    assert ask(planner).text == EXHAUSTED_REPLY


def test_replay_file_with_crlf_line_endings_and_bom(tmp_path: Path) -> None:
    path = write(tmp_path, b"\xef\xbb\xbf" + (json.dumps(PLAN) + "\r\n" + '"raw"\r\n').encode())

    planner = ScriptedPlanner.from_replay_file(path)

    assert [ask(planner).text for _ in range(2)] == [json.dumps(PLAN), "raw"]


def test_replay_line_that_is_not_json_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, json.dumps(PLAN) + "\n\n{thought: unquoted}\n")

    with pytest.raises(ConfigError) as caught:
        ScriptedPlanner.from_replay_file(path)

    assert f"{path}:3" in str(caught.value)
    assert "JSON" in str(caught.value)


@pytest.mark.parametrize("line", ["[1, 2]", "42", "null", "true"])
def test_replay_line_that_is_json_but_not_object_or_string_is_rejected(tmp_path: Path, line: str) -> None:
    path = write(tmp_path, f'"ok"\n{line}\n')

    with pytest.raises(ConfigError, match=r"replies\.jsonl:2: expected a JSON object or a JSON string"):
        ScriptedPlanner.from_replay_file(path)


def test_missing_or_undecodable_replay_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        ScriptedPlanner.from_replay_file(tmp_path / "absent.jsonl")
    with pytest.raises(ConfigError, match="cannot read"):
        ScriptedPlanner.from_replay_file(write(tmp_path, b'"\xff\xfe"\n'))


@given(st.lists(st.text(), max_size=5), st.booleans())
@example(["line\u2028separator", "next\x85line", "para\u2029graph"], False)
def test_string_lines_replay_any_raw_text_exactly(texts: list[str], ensure_ascii: bool) -> None:
    # ensure_ascii=False keeps characters such as U+2028 raw inside the line: they must not split it.
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.jsonl"
        path.write_text(
            "\n".join(json.dumps(t, ensure_ascii=ensure_ascii) for t in texts), encoding="utf-8", newline=""
        )
        planner = ScriptedPlanner.from_replay_file(path)

    assert [planner.plan([]).text for _ in texts] == texts


def test_token_usage_adds_up() -> None:
    total = TokenUsage(prompt_tokens=10, completion_tokens=2, total_tokens=12) + TokenUsage(
        prompt_tokens=5, completion_tokens=1, total_tokens=6
    )

    assert total == TokenUsage(prompt_tokens=15, completion_tokens=3, total_tokens=18)
    assert sum([TokenUsage(total_tokens=1)] * 3, TokenUsage()).total_tokens == 3
    with pytest.raises(TypeError):
        _ = TokenUsage() + 1  # type: ignore[operator]
