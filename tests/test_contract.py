"""The planner output contract: the JSON schema and the pydantic models accept and reject the same input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from pydantic import ValidationError

from glmagent.contract import (
    InvalidPlannerOutput,
    PlannerOutput,
    ToolName,
    extract_json_object,
    parse_action,
    parse_planner_output,
    planner_schema,
    schema_errors,
)

VALID = {
    "thought": "read first",
    "plan": ["read", "fix"],
    "actions": [
        {"tool": "read_file", "path": "src/app.py"},
        {"tool": "apply_diff", "path": "src/app.py", "diff": "@@\n-a\n+b\n"},
        {"tool": "run", "command": "pytest -q"},
        {"tool": "git_status"},
        {"tool": "git_diff", "path": "src"},
    ],
}

HANDPICKED = [
    VALID,
    {"thought": "", "plan": [], "actions": []},
    {"thought": "x", "plan": [], "actions": [{"tool": "rm", "command": "x"}]},
    {"thought": "x", "plan": [], "actions": [{"tool": "read_file"}]},
    {"thought": "x", "plan": [], "actions": [{"tool": "apply_diff", "path": "a"}]},
    {"thought": "x", "plan": [], "actions": [{"tool": "run"}]},
    {"thought": "x", "plan": [], "actions": [{"tool": "run", "command": ""}]},
    {"thought": "x", "plan": [], "actions": [{"tool": "run", "command": "ls", "extra": 1}]},
    {"thought": "x", "plan": [], "actions": [], "extra": True},
    {"thought": 3, "plan": [], "actions": []},
    {"thought": "x", "plan": "do it", "actions": []},
    {"thought": "x", "plan": [1], "actions": []},
    {"plan": [], "actions": []},
    {"thought": "x", "plan": []},
    {"thought": "x", "plan": [], "actions": {"tool": "git_status"}},
    {"thought": "x", "plan": [], "actions": [{"tool": "git_status", "path": 3}]},
    {"thought": "x", "plan": [], "actions": [{"tool": None}]},
]


def _schema_accepts(document: object) -> bool:
    return not schema_errors(document)


def _model_accepts(document: object) -> bool:
    try:
        PlannerOutput.model_validate(document)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("document", HANDPICKED, ids=range(len(HANDPICKED)))
def test_schema_and_models_agree_on_handpicked_documents(document: object) -> None:
    assert _schema_accepts(document) == _model_accepts(document)


def test_handpicked_set_covers_both_verdicts() -> None:
    verdicts = {_schema_accepts(d) for d in HANDPICKED}
    assert verdicts == {True, False}


_values = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(["", "x", "src/a.py"]))
_actions = st.dictionaries(
    st.sampled_from(["tool", "path", "diff", "command", "other"]),
    st.one_of(_values, st.sampled_from([t.value for t in ToolName] + ["delete_file"])),
    max_size=4,
)
_documents = st.dictionaries(
    st.sampled_from(["thought", "plan", "actions", "extra"]),
    st.one_of(_values, st.lists(st.one_of(_values, _actions), max_size=3), st.lists(_actions, max_size=3)),
    max_size=4,
)


@settings(max_examples=examples(400), deadline=None)
@given(_documents)
def test_schema_and_models_agree_on_generated_documents(document: dict) -> None:
    assert _schema_accepts(document) == _model_accepts(document)


def test_schema_is_draft_2020_12_closed_and_lists_exactly_five_tools() -> None:
    schema = planner_schema()
    assert schema["$schema"].endswith("2020-12/schema")
    assert schema["additionalProperties"] is False
    action = schema["$defs"]["action"]
    assert action["additionalProperties"] is False
    assert set(action["properties"]["tool"]["enum"]) == {t.value for t in ToolName}


def test_fenced_json_with_prose_is_extracted() -> None:
    text = "Sure, here is my plan:\n```json\n" + json.dumps(VALID) + "\n```\nLet me know!"
    assert parse_planner_output(text).actions[2].command == "pytest -q"


def test_object_with_prose_around_it_and_no_fence_is_extracted() -> None:
    text = "I will read the file. " + json.dumps(VALID) + " That is all."
    assert len(parse_planner_output(text).actions) == 5


def test_missing_object_is_never_guessed() -> None:
    with pytest.raises(InvalidPlannerOutput, match="no JSON object"):
        extract_json_object("I will read src/app.py and then run pytest.")


def test_two_different_objects_are_refused() -> None:
    text = json.dumps(VALID) + "\nor maybe\n" + json.dumps({"thought": "b", "plan": [], "actions": []})
    with pytest.raises(InvalidPlannerOutput, match="2 different JSON objects"):
        extract_json_object(text)


def test_truncated_json_is_an_error_not_a_partial_plan() -> None:
    with pytest.raises(InvalidPlannerOutput):
        parse_planner_output(json.dumps(VALID)[:-5])


def test_schema_error_names_the_field_and_location() -> None:
    with pytest.raises(InvalidPlannerOutput) as caught:
        parse_planner_output(
            json.dumps({"thought": "x", "plan": [], "actions": [{"tool": "apply_diff", "path": "a"}]})
        )
    assert "at actions/0: 'diff' is a required property" in str(caught.value)


def test_array_reply_is_rejected_with_a_clear_message() -> None:
    with pytest.raises(InvalidPlannerOutput, match="JSON list, not an object"):
        parse_planner_output("[1, 2]")


def test_parse_action_validates_one_action() -> None:
    assert parse_action('{"tool": "run", "command": "ls"}').command == "ls"
    with pytest.raises(InvalidPlannerOutput, match="at action/tool"):
        parse_action('{"tool": "shell", "command": "ls"}')
    with pytest.raises(InvalidPlannerOutput, match="not valid JSON"):
        parse_action("{tool: run}")
