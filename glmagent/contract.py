"""The planner's output contract: one JSON object `{thought, plan[], actions[]}`.

`schemas/planner_output.schema.json` is the single source of truth; the pydantic models below mirror it for
typed access and a test proves that both accept and reject the same documents. `parse_planner_output` turns
the raw text a model sent into a validated `PlannerOutput`, or raises `InvalidPlannerOutput` with a message
that quotes what was wrong so the planner can fix it on its retry.
"""

from __future__ import annotations

import json
import re
from enum import StrEnum
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from glmagent._resources import data_dir
from glmagent.errors import GlmAgentError

SCHEMA_FILE = "planner_output.schema.json"


class ToolName(StrEnum):
    """The five tools a planner may call; anything else is rejected."""

    READ_FILE = "read_file"
    APPLY_DIFF = "apply_diff"
    RUN = "run"
    GIT_STATUS = "git_status"
    GIT_DIFF = "git_diff"


#: Fields each tool requires, mirrored from the schema's `allOf` conditions.
REQUIRED_FIELDS: dict[ToolName, tuple[str, ...]] = {
    ToolName.READ_FILE: ("path",),
    ToolName.APPLY_DIFF: ("path",),
    ToolName.RUN: ("command",),
    ToolName.GIT_STATUS: (),
    ToolName.GIT_DIFF: (),
}

#: Fields of which a tool takes exactly one: apply_diff's change, as the file's whole new `content`, as
#: `edits`, or as `diff` text (the first is the form the prompt teaches first).
ONE_OF_FIELDS: dict[ToolName, tuple[str, ...]] = {ToolName.APPLY_DIFF: ("content", "edits", "diff")}


class Edit(BaseModel):
    """One place an `apply_diff` changes: the file's lines to find, and the lines that replace them.

    One JSON string per line, so a model writes no line-break escapes and no block markers: small models
    get this form right far more often than SEARCH/REPLACE text (`bench/live_bench.py`, README)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    search: list[str]
    """The file's lines to change, copied exactly (empty: the whole file, or a new one, is `replace`)."""
    replace: list[str]
    """The lines that take their place."""


def edits_as_text(edits: list[Edit]) -> str:
    """`edits` written as SEARCH/REPLACE blocks: how logs, messages and repeat checks show them."""
    blocks = []
    for edit in edits:
        # A line break ending an item only ends its line (`patching.apply_edits` reads it so too).
        search = [line.removesuffix("\n") for line in edit.search]
        replace = [line.removesuffix("\n") for line in edit.replace]
        parts = ["<<<<<<< SEARCH", *search, "=======", *replace, ">>>>>>> REPLACE"]
        blocks.append("\n".join(parts))
    return "\n".join(blocks) + "\n"


class Action(BaseModel):
    """One tool call proposed by the planner."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    # Strict mode would demand a ToolName instance; the JSON gives its string value.
    tool: ToolName = Field(strict=False)
    path: str | None = Field(default=None, min_length=1)
    diff: str | None = Field(default=None, min_length=1)
    """apply_diff: the change as SEARCH/REPLACE blocks or a unified diff (or give `edits`)."""
    edits: list[Edit] | None = Field(default=None, min_length=1)
    """apply_diff: the change as a list of search/replace line lists (or give `diff`)."""
    content: str | None = Field(default=None, min_length=1)
    """apply_diff: the file's complete new text (a short file, or a new one); read like one edit with an
    empty `search`, so the same checks apply (the file is revised, not replaced)."""
    command: str | None = Field(default=None, min_length=1)
    lines: str | None = Field(default=None, min_length=1)
    """read_file only: the line range `START-END` of a long file to show."""

    @model_validator(mode="after")
    def _required_fields_present(self) -> Action:
        missing = [name for name in REQUIRED_FIELDS[self.tool] if getattr(self, name) is None]
        if missing:
            raise ValueError(f"tool {self.tool.value!r} requires {', '.join(missing)}")
        one_of = ONE_OF_FIELDS.get(self.tool, ())
        given = [name for name in one_of if getattr(self, name) is not None]
        if one_of and len(given) != 1:
            raise ValueError(f"tool {self.tool.value!r} requires exactly one of {' or '.join(one_of)}")
        return self

    def change_edits(self) -> list[Edit] | None:
        """apply_diff's change as edits: `edits` as sent, or `content` as one edit with an empty `search`;
        None for a `diff`."""
        if self.content is not None:
            return [Edit(search=[], replace=self.content.removesuffix("\n").split("\n"))]
        return self.edits

    def change_text(self) -> str | None:
        """apply_diff's change as text: `diff` as sent, or `edits` (or `content`) as SEARCH/REPLACE blocks."""
        edits = self.change_edits()
        if edits is not None:
            return edits_as_text(edits)
        return self.diff

    def brief(self) -> str:
        """A one-line description for progress output and logs."""
        if self.tool is ToolName.RUN:
            return f"run `{self.command}`"
        if self.path and self.lines and self.tool is ToolName.READ_FILE:
            return f"{self.tool.value} {self.path} lines {self.lines}"
        if self.path:
            return f"{self.tool.value} {self.path}"
        return self.tool.value


class PlannerOutput(BaseModel):
    """A validated planner reply."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    thought: str
    plan: list[str]
    actions: list[Action]


class InvalidPlannerOutput(GlmAgentError):
    """The planner's text is not exactly one JSON object matching the schema."""


@cache
def planner_schema() -> dict[str, Any]:
    """The planner output JSON schema (draft 2020-12), loaded once."""
    return json.loads((data_dir("schemas") / SCHEMA_FILE).read_text(encoding="utf-8"))


@cache
def _validator() -> Any:
    import jsonschema

    schema = planner_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def schema_errors(document: Any) -> list[str]:
    """Every schema violation of `document`, each as `at <json path>: <message>`, most specific first."""
    errors = sorted(_validator().iter_errors(document), key=lambda e: (list(e.absolute_path), e.message))
    messages = []
    for error in errors:
        for leaf in _leaf_errors(error):
            where = "/".join(str(part) for part in leaf.absolute_path) or "(top level)"
            messages.append(f"at {where}: {leaf.message}")
    return list(dict.fromkeys(messages))


def _leaf_errors(error: Any) -> list[Any]:
    # `if/then` failures wrap the useful "'path' is a required property" in their context.
    if error.context:
        return [leaf for sub in error.context for leaf in _leaf_errors(sub)]
    return [error]


_FENCE = re.compile(r"```[ \t]*(?:json|JSON|jsonc)?[ \t]*\r?\n(.*?)\r?\n?```", re.DOTALL)


def extract_json_object(text: str) -> Any:
    """Find the one JSON object in a model reply.

    Accepts the bare object, the object inside a Markdown code fence, or the object with prose around it.
    Never invents one: no object, or several different objects, is an error.
    """
    stripped = text.strip()
    if not stripped:
        raise InvalidPlannerOutput("the reply was empty; send exactly one JSON object")
    try:
        return _loads(stripped)
    except json.JSONDecodeError:
        pass
    for block in _FENCE.findall(stripped):
        try:
            return _loads(block.strip())
        except json.JSONDecodeError:
            continue
    candidates = _embedded_objects(stripped)
    if not candidates:
        raise InvalidPlannerOutput(
            "no JSON object found in the reply; send exactly one JSON object "
            '{"thought": ..., "plan": [...], "actions": [...]} and nothing else'
        )
    distinct = {json.dumps(c, sort_keys=True) for c in candidates}
    if len(distinct) > 1:
        raise InvalidPlannerOutput(
            f"the reply holds {len(distinct)} different JSON objects; send exactly one JSON object"
        )
    return candidates[0]


#: Deeper JSON than any plan needs; Python's decoder would exhaust the stack (RecursionError) long before
#: a real reply got there, so such text is refused as invalid input instead.
_TOO_DEEP = (
    "the JSON is nested too deeply to be a plan or an action; send exactly one flat JSON object "
    '{"thought": ..., "plan": [...], "actions": [...]}'
)


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise InvalidPlannerOutput(_TOO_DEEP) from None


def _embedded_objects(text: str) -> list[Any]:
    decoder = json.JSONDecoder()
    found: list[Any] = []
    index = text.find("{")
    while index != -1:
        try:
            value, end = decoder.raw_decode(text, index)
        except json.JSONDecodeError:
            index = text.find("{", index + 1)
            continue
        except RecursionError:
            raise InvalidPlannerOutput(_TOO_DEEP) from None
        if isinstance(value, dict):
            found.append(value)
        index = text.find("{", end)
    return found


_UNUSABLE = re.compile("[\x00\ud800-\udfff]")


def unusable_text(document: Any, where: str = "") -> list[str]:
    """Strings in `document` that hold a NUL byte or a lone UTF-16 surrogate, as `at <path>: <why>`.

    Both pass a JSON schema, yet no file name, command line or UTF-8 file can hold them: they are invalid
    output, told to the model like any schema violation.
    """
    problems: list[str] = []
    if isinstance(document, str):
        found = _UNUSABLE.search(document)
        if found:
            char = found.group()
            what = "a NUL byte (\\u0000)" if char == "\x00" else f"a lone surrogate (\\u{ord(char):04x})"
            problems.append(
                f"at {where or '(top level)'}: the text contains {what}, which is not usable text"
            )
    elif isinstance(document, dict):
        for key, value in document.items():
            label = f"{where}/{key}" if where else str(key)
            if isinstance(key, str) and _UNUSABLE.search(key):
                problems.append(f"at {label!r}: a key contains a NUL byte or a lone surrogate")
            problems += unusable_text(value, label)
    elif isinstance(document, list):
        for index, value in enumerate(document):
            problems += unusable_text(value, f"{where}/{index}" if where else str(index))
    return problems


def validate_planner_document(document: Any) -> PlannerOutput:
    """Validate a decoded document against the schema, then build the typed model."""
    if not isinstance(document, dict):
        raise InvalidPlannerOutput(
            f"the reply is a JSON {type(document).__name__}, not an object; "
            'send {"thought": ..., "plan": [...], "actions": [...]}'
        )
    problems = schema_errors(document) or unusable_text(document)
    if problems:
        raise InvalidPlannerOutput("the JSON does not match the schema: " + "; ".join(problems[:8]))
    return PlannerOutput.model_validate(document)


def parse_planner_output(text: str) -> PlannerOutput:
    """Raw planner text → validated `PlannerOutput`, or `InvalidPlannerOutput` explaining what to fix."""
    return validate_planner_document(extract_json_object(text))


def parse_action(text: str) -> Action:
    """One action from JSON text (for `glmagent act`), validated against the same schema as planner output."""
    try:
        document = _loads(text)
    except json.JSONDecodeError as error:
        raise InvalidPlannerOutput(f"the action is not valid JSON: {error}") from None
    if not isinstance(document, dict):
        raise InvalidPlannerOutput('the action must be a JSON object like {"tool": "read_file", "path": "x"}')
    wrapper = {"thought": "", "plan": [], "actions": [document]}
    problems = schema_errors(wrapper) or unusable_text(wrapper)
    problems = [p.replace("at actions/0", "at action", 1) for p in problems]
    if problems:
        raise InvalidPlannerOutput("the action does not match the schema: " + "; ".join(problems[:8]))
    return Action.model_validate(document)
