"""The strict form of the planner schema, for servers that enforce a JSON schema while decoding.

Grammar-constrained decoders (llama.cpp, vLLM, OpenAI's strict mode, Ollama's `format`) do not enforce the
documented schema's per-tool `if`/`then` requirements, so a model could send `{"tool": "read_file"}` with no
`path`. This form says the same thing in the subset they all enforce: each action is one closed object per
tool (`tool` a `const`, every field required, `additionalProperties: false`), and `git_diff`, whose `path` is
optional, gets two (with and without it) since strict modes insist that every field be required (and so does
`read_file` with its optional `lines`; `apply_diff` has one each with `content`, `edits` and `diff`).
Lengths are bounded so a decoder cannot run on forever. For well-formed replies it accepts exactly what
`schemas/planner_output.schema.json` accepts (tests/test_strict_schema.py compares the two).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from glmagent.contract import ONE_OF_FIELDS, REQUIRED_FIELDS, ToolName

MAX_THOUGHT_CHARS = 4_000
MAX_PLAN_STEPS = 30
MAX_STEP_CHARS = 500
MAX_ACTIONS = 30
MAX_EDITS = 30

_FIELD_DOCS = {
    "path": "Workspace-relative file path.",
    "diff": "SEARCH/REPLACE blocks or a unified diff for `path`.",
    "content": "The complete new text of `path` (a short file, or a new one).",
    "command": "A shell command; checked by the command policy before it runs.",
    "lines": 'The part of a long file to show: "START-END", e.g. "120-180".',
}

_LINES = {"type": "array", "items": {"type": "string"}}
_EDITS = {
    "type": "array",
    "minItems": 1,
    "maxItems": MAX_EDITS,
    "items": {
        "type": "object",
        "additionalProperties": False,
        "required": ["search", "replace"],
        "properties": {"search": _LINES, "replace": _LINES},
    },
}


def _action(tool: ToolName, fields: tuple[str, ...]) -> dict[str, Any]:
    properties: dict[str, Any] = {"tool": {"type": "string", "const": tool.value}}
    for name in fields:
        if name == "edits":
            properties[name] = _EDITS
        else:
            properties[name] = {"type": "string", "minLength": 1, "description": _FIELD_DOCS[name]}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["tool", *fields],
        "properties": properties,
    }


@cache
def strict_planner_schema() -> dict[str, Any]:
    """The strict schema (draft 2020-12 keywords only, no conditionals, no `$ref`); cached, do not mutate."""
    variants = []
    for tool in ToolName:
        # A tool taking one of several fields gets one form per field, the first (the taught one) first.
        for field in ONE_OF_FIELDS.get(tool, (None,)):
            variants.append(_action(tool, (*REQUIRED_FIELDS[tool], *([field] if field else []))))
    variants.append(_action(ToolName.GIT_DIFF, ("path",)))  # git_diff's optional path: a form of its own
    variants.append(_action(ToolName.READ_FILE, ("path", "lines")))  # so is read_file's optional range
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["thought", "plan", "actions"],
        "properties": {
            "thought": {"type": "string", "maxLength": MAX_THOUGHT_CHARS},
            "plan": {
                "type": "array",
                "maxItems": MAX_PLAN_STEPS,
                "items": {"type": "string", "maxLength": MAX_STEP_CHARS},
            },
            "actions": {"type": "array", "maxItems": MAX_ACTIONS, "items": {"anyOf": variants}},
        },
    }


def with_edit_paths(schema: Mapping[str, Any], paths: Sequence[str]) -> dict[str, Any]:
    """A copy of a strict planner schema whose `apply_diff` actions may name only `paths`
    (`glmagent.edit_targets`); the other tools keep their free `path`. A schema of another shape is
    returned as it is."""
    narrowed = copy.deepcopy(dict(schema))
    actions = narrowed.get("properties", {}).get("actions", {}).get("items", {})
    for variant in actions.get("anyOf", ()):
        properties = variant.get("properties", {})
        if properties.get("tool", {}).get("const") == ToolName.APPLY_DIFF.value and "path" in properties:
            properties["path"] = {"type": "string", "enum": list(paths), "description": _FIELD_DOCS["path"]}
    return narrowed
