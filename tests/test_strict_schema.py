"""The strict planner schema (what grammar-constrained decoders are asked to enforce) against the documented
one (`schemas/planner_output.schema.json`): same verdict on every well-formed reply, never more lenient, and
built only from keywords strict modes enforce."""

from __future__ import annotations

import ast
import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from glmagent.contract import ONE_OF_FIELDS, REQUIRED_FIELDS, ToolName, extract_json_object, planner_schema
from glmagent.strict_schema import (
    MAX_ACTIONS,
    MAX_EDITS,
    MAX_PLAN_STEPS,
    MAX_STEP_CHARS,
    MAX_THOUGHT_CHARS,
    strict_planner_schema,
)

REPO = Path(__file__).resolve().parent.parent
STRICT = jsonschema.Draft202012Validator(strict_planner_schema())
DOCUMENTED = jsonschema.Draft202012Validator(planner_schema())
#: Fields each tool may carry: the required ones, and git_diff's optional path.
ALLOWED_FIELDS = {tool: {"tool", *REQUIRED_FIELDS[tool]} for tool in ToolName}
ALLOWED_FIELDS[ToolName.GIT_DIFF] |= {"path"}
ALLOWED_FIELDS[ToolName.READ_FILE] |= {"lines"}
ALLOWED_FIELDS[ToolName.APPLY_DIFF] |= set(ONE_OF_FIELDS[ToolName.APPLY_DIFF])


def well_formed(document: Any) -> bool:
    """A reply as a model should write it: every action carries only the fields its tool takes, and lengths
    stay within the strict bounds. (The documented schema also lets e.g. a `read_file` carry a `command`,
    which means nothing; the strict form, one closed object per tool, does not.)"""
    if not isinstance(document, dict):
        return False
    thought, plan, actions = document.get("thought"), document.get("plan"), document.get("actions")
    if isinstance(thought, str) and len(thought) > MAX_THOUGHT_CHARS:
        return False
    if isinstance(plan, list) and (
        len(plan) > MAX_PLAN_STEPS or any(isinstance(s, str) and len(s) > MAX_STEP_CHARS for s in plan)
    ):
        return False
    if isinstance(actions, list):
        if len(actions) > MAX_ACTIONS:
            return False
        for action in actions:
            tool = action.get("tool") if isinstance(action, dict) else None
            if tool in set(ToolName) and not set(action) <= ALLOWED_FIELDS[ToolName(tool)]:
                return False
            edits = action.get("edits") if isinstance(action, dict) else None
            if isinstance(edits, list) and len(edits) > MAX_EDITS:
                return False
    return True


# -- the corpus: every reply the test suite and the demo use ------------------------------------------------


def _literal_dicts(path: Path) -> Iterator[dict[str, Any]]:
    """Dict literals in a Python file (those that can be evaluated without running code)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            try:
                value = ast.literal_eval(node)
            except (ValueError, TypeError, SyntaxError, RecursionError):
                continue
            if isinstance(value, dict):
                yield value
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and '"tool"' in node.value:
            try:
                value = extract_json_object(node.value)
            except Exception:
                continue
            if isinstance(value, dict):
                yield value


@functools.cache
def corpus() -> list[Any]:
    """Every reply document of the demo and of the tests' source, once each. Read when a test asks (not at
    collection, which every xdist worker does: parsing all the test files is seconds of CPU)."""
    documents: list[Any] = []
    for line in (REPO / "glmagent" / "demo" / "replies.jsonl").read_text(encoding="utf-8").splitlines():
        value = json.loads(line)
        documents.append(extract_json_object(value) if isinstance(value, str) else value)
    for path in sorted((REPO / "tests").glob("test_*.py")):
        for value in _literal_dicts(path):
            if "actions" in value or "thought" in value:
                documents.append(value)
            elif "tool" in value:  # an action on its own: as the reply a model would send it in
                documents.append({"thought": "", "plan": [], "actions": [value]})
    unique = {json.dumps(d, sort_keys=True, default=repr): d for d in documents}
    return list(unique.values())


def test_the_corpus_is_large_and_has_both_verdicts_and_every_tool() -> None:
    documents = corpus()
    assert len(documents) >= 50
    verdicts = {DOCUMENTED.is_valid(d) for d in documents}
    assert verdicts == {True, False}
    tools = {
        a.get("tool")
        for d in documents
        if isinstance(d.get("actions"), list)
        for a in d["actions"]
        if isinstance(a, dict)
    }
    assert {t.value for t in ToolName} <= tools


def test_strict_and_documented_schemas_agree_on_every_well_formed_reply_of_the_corpus() -> None:
    wrong = []
    for document in corpus():
        strict, documented = STRICT.is_valid(document), DOCUMENTED.is_valid(document)
        if well_formed(document) and strict != documented:
            wrong.append(f"strict {strict}, documented {documented}: {json.dumps(document)[:300]}")
        elif not well_formed(document) and strict:
            wrong.append(f"ill-formed, yet strict takes it: {json.dumps(document)[:300]}")
    assert not wrong, "\n".join(wrong)


def test_replies_the_strict_schema_refuses_but_the_documented_one_takes_are_exactly_the_ill_formed() -> None:
    differ = [d for d in corpus() if DOCUMENTED.is_valid(d) and not STRICT.is_valid(d)]
    assert all(not well_formed(d) for d in differ)


# -- generated replies --------------------------------------------------------------------------------------

_text = st.one_of(
    st.sampled_from(["", "x", "src/app.py", "pytest -q", "@@ -1 +1 @@\n-a\n+b\n"]), st.text(max_size=8)
)
_value = st.one_of(st.none(), st.booleans(), st.integers(-1, 1), _text)
_tool = st.one_of(
    st.sampled_from([t.value for t in ToolName]), st.sampled_from(["delete_file", "", "READ_FILE"])
)
_field = st.sampled_from(["path", "diff", "command", "edits", "content"])
_edit = st.one_of(
    st.fixed_dictionaries({"search": st.lists(_text, max_size=3), "replace": st.lists(_text, max_size=3)}),
    st.fixed_dictionaries({"search": _value, "replace": st.lists(_text, max_size=2)}),
    st.fixed_dictionaries({"search": st.lists(_text, max_size=2)}),
    _value,
)
_edits = st.one_of(st.lists(_edit, max_size=3), st.lists(_edit, min_size=MAX_EDITS, max_size=MAX_EDITS + 1))


@st.composite
def _action(draw: st.DrawFn) -> dict[str, Any]:
    action: dict[str, Any] = {}
    if draw(st.integers(0, 9)):  # mostly with a tool
        action["tool"] = draw(_tool)
    for name in draw(st.sets(_field)):
        action[name] = draw(_edits if name == "edits" else st.one_of(_text, _text, _value))
    if not draw(st.integers(0, 15)):
        action["other"] = draw(_value)
    return action


@st.composite
def _reply(draw: st.DrawFn) -> Any:
    if not draw(st.integers(0, 30)):
        return draw(_value)
    document: dict[str, Any] = {}
    for key, strategy in (
        ("thought", st.one_of(_text, _text, _value, st.text(min_size=3990, max_size=4010, alphabet="ab"))),
        ("plan", st.one_of(st.lists(_text, max_size=3), st.lists(_value, max_size=2), _value)),
        ("actions", st.one_of(st.lists(_action(), max_size=4), st.lists(_value, max_size=2), _action())),
    ):
        if draw(st.integers(0, 12)):  # each member usually present
            document[key] = draw(strategy)
    if not draw(st.integers(0, 20)):
        document["extra"] = draw(_value)
    return document


@settings(max_examples=examples(300), deadline=None)
@given(_reply())
def test_strict_and_documented_schemas_agree_on_generated_replies(document: Any) -> None:
    strict, documented = STRICT.is_valid(document), DOCUMENTED.is_valid(document)
    if well_formed(document):
        assert strict == documented
    else:
        assert not strict or documented


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(list(ToolName)), max_size=MAX_ACTIONS), st.integers(0, 2))
def test_every_well_formed_action_list_passes_both(tools: list[ToolName], form: int) -> None:
    diff_path = form == 1
    values = {
        "content": "def f():\n    return 1\n",
        "path": "src/a.py",
        "diff": "@@ -1 +1 @@\n-a\n+b\n",
        "command": "pytest -q",
        "edits": [{"search": ["a"], "replace": ["b", ""]}, {"search": [], "replace": ["x"]}],
    }
    actions = []
    for tool in tools:
        action = {"tool": tool.value, **{name: values[name] for name in REQUIRED_FIELDS[tool]}}
        if tool is ToolName.GIT_DIFF and diff_path:
            action["path"] = "src"
        one_of = ONE_OF_FIELDS.get(tool, ())
        if one_of:
            name = one_of[form % len(one_of)]
            action[name] = values[name]
        actions.append(action)
    document = {"thought": "t", "plan": ["a"], "actions": actions}
    assert STRICT.is_valid(document) and DOCUMENTED.is_valid(document)


# -- its shape: only what constrained decoders enforce ------------------------------------------------------


def _keywords(schema: Any) -> Iterator[str]:
    if isinstance(schema, dict):
        for key, value in schema.items():
            yield key
            if key != "properties":
                yield from _keywords(value)
            else:
                for sub in value.values():
                    yield from _keywords(sub)
    elif isinstance(schema, list):
        for item in schema:
            yield from _keywords(item)


def test_the_strict_schema_has_no_conditionals_and_one_closed_object_per_tool_form() -> None:
    schema = strict_planner_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    used = set(_keywords(schema))
    assert not used & {"if", "then", "else", "allOf", "oneOf", "not", "$ref", "$defs", "patternProperties"}

    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == set(schema["properties"]) == {"thought", "plan", "actions"}
    variants = schema["properties"]["actions"]["items"]["anyOf"]
    for variant in variants:
        assert variant["type"] == "object" and variant["additionalProperties"] is False
        assert set(variant["required"]) == set(variant["properties"])  # every field required
        assert variant["properties"]["tool"] == {
            "type": "string",
            "const": variant["properties"]["tool"]["const"],
        }
    forms = sorted((v["properties"]["tool"]["const"], tuple(sorted(v["required"]))) for v in variants)
    # One object per tool; git_diff and read_file twice, since git_diff's path and read_file's lines are
    # optional and strict modes require every field; apply_diff once with `edits` and once with `diff`.
    assert forms == sorted(
        [(t.value, tuple(sorted({"tool", *REQUIRED_FIELDS[t]}))) for t in ToolName if t not in ONE_OF_FIELDS]
        + [("git_diff", ("path", "tool")), ("read_file", ("lines", "path", "tool"))]
        + [("apply_diff", (field, "path", "tool")) for field in ("content", "edits", "diff")]
    )
    assert {v["properties"]["tool"]["const"] for v in variants} == {t.value for t in ToolName}


def test_the_strict_schema_bounds_every_list_and_free_text() -> None:
    properties = strict_planner_schema()["properties"]
    assert properties["thought"]["maxLength"] == MAX_THOUGHT_CHARS
    assert properties["plan"]["maxItems"] == MAX_PLAN_STEPS
    assert properties["plan"]["items"]["maxLength"] == MAX_STEP_CHARS
    assert properties["actions"]["maxItems"] == MAX_ACTIONS
    for variant in properties["actions"]["items"]["anyOf"]:
        for name, field in variant["properties"].items():
            if name == "edits":
                assert (field["minItems"], field["maxItems"]) == (1, MAX_EDITS)
            elif name != "tool":
                assert field["minLength"] == 1  # as the documented schema: no empty path or command


def test_the_prompt_shows_the_strict_schema_where_the_request_does_not_enforce_it() -> None:
    from glmagent.prompt import ContextBuilder

    system = ContextBuilder().build(
        task="t",
        test_command="pytest -q",
        memory_summary="",
        last=None,
        tests=None,
        iteration=1,
        max_iterations=5,
    )[0]
    written = json.dumps(strict_planner_schema(), separators=(",", ":"))
    assert written in system.text() and written not in system.content
    assert system.text(schema_enforced=True) == system.content
    assert '"if"' not in system.text() and '"then"' not in system.text()


def test_a_retry_writes_the_schema_out_whatever_the_request_enforces() -> None:
    # A server may take a `json_schema` response format and not hold the model to it: after an invalid reply
    # the model is shown the schema itself.
    from glmagent.prompt import ContextBuilder

    builder = ContextBuilder()
    first = builder.build(
        task="t", test_command=None, memory_summary="", last=None, tests=None, iteration=1, max_iterations=5
    )
    system = builder.retry(first, "not json", "no JSON object found")[0]
    written = json.dumps(strict_planner_schema(), separators=(",", ":"))
    assert system.schema_text == "" and written in system.text(schema_enforced=True)
