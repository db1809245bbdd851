"""A run's records turned into a readable timeline: the one model `audit show` and the HTML export render."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from glmagent.audit._runs import Run


@dataclass
class Step:
    """One entry of the timeline."""

    kind: str
    """`tests`, `plan`, `action`, `note`."""
    iteration: int | None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Timeline:
    """A run: its facts, the memory blocks it wrote, and its steps in order."""

    run: Run
    steps: list[Step]
    summaries: list[str]

    def iterations(self) -> list[int]:
        return sorted({s.iteration for s in self.steps if s.iteration is not None})


def build_timeline(run: Run) -> Timeline:
    steps: list[Step] = []
    replies: dict[tuple[Any, Any], dict[str, Any]] = {}
    iteration: int | None = None
    for record in run.records:
        event = record.get("event")
        number = record.get("iteration")
        if isinstance(number, int):
            iteration = number
        if event == "planner_reply":
            replies[(number, record.get("attempt"))] = record
        elif event == "validation":
            reply = replies.pop((number, record.get("attempt")), {})
            steps.append(Step("plan", iteration, _plan(reply, record)))
        elif event == "action":
            steps.append(Step("action", iteration, _action(record)))
        elif event == "tests":
            steps.append(
                Step("tests", iteration if record.get("label") != "baseline" else None, _tests(record))
            )
        elif event in ("context_shrunk", "planner_filtered"):
            steps.append(Step("note", iteration, {"event": event, "text": str(record.get("error", ""))}))
        elif event == "fresh_start":
            text = f"started afresh after {record.get('stalled')} iterations without progress"
            steps.append(Step("note", iteration, {"event": event, "text": text}))
        elif event == "edit_paths":
            paths = record.get("paths")
            text = (
                f"apply_diff held to {len(paths)} non-test file(s) while the tests fail"
                if isinstance(paths, list)
                else "apply_diff may name any file again"
            )
            steps.append(Step("note", iteration, {"event": event, "text": text}))
    summaries = [str(r.get("summary", "")) for r in run.events("iteration_summary")]
    return Timeline(run=run, steps=steps, summaries=summaries)


def _plan(reply: dict[str, Any], validation: dict[str, Any]) -> dict[str, Any]:
    text = str(reply.get("text", ""))
    data: dict[str, Any] = {
        "attempt": validation.get("attempt"),
        "valid": bool(validation.get("valid")),
        "error": validation.get("error"),
        "tokens": (reply.get("usage") or {}).get("total_tokens")
        if isinstance(reply.get("usage"), dict)
        else None,
        "model": reply.get("model"),
    }
    if data["valid"]:
        from glmagent.contract import InvalidPlannerOutput, parse_planner_output

        try:
            output = parse_planner_output(text)
        except InvalidPlannerOutput:
            data["raw"] = text
        else:
            data["thought"] = output.thought
            data["steps"] = list(output.plan)
    else:
        data["raw"] = text
    return data


def _model_change(action: dict[str, Any]) -> str | None:
    """The change an apply_diff action sent: its `diff`, or its `edits` (or `content`, an edit with an empty
    search) as SEARCH/REPLACE text."""
    if isinstance(action.get("diff"), str):
        return action["diff"]
    edits = action.get("edits")
    if isinstance(action.get("content"), str):
        edits = [{"search": [], "replace": action["content"].removesuffix("\n").split("\n")}]
    if not isinstance(edits, list):
        return None
    from pydantic import ValidationError

    from glmagent.contract import Edit, edits_as_text

    try:
        return edits_as_text([Edit.model_validate(edit) for edit in edits])
    except ValidationError:
        return json.dumps(edits, ensure_ascii=False)  # a record this version did not write: shown as it is


def _action(record: dict[str, Any]) -> dict[str, Any]:
    action = record.get("action") if isinstance(record.get("action"), dict) else {}
    details = record.get("details") if isinstance(record.get("details"), dict) else {}
    policy = details.get("policy") if isinstance(details.get("policy"), dict) else None
    return {
        "tool": str(action.get("tool", "?")),
        "path": action.get("path"),
        "command": action.get("command"),
        "status": str(record.get("status", "?")),
        "summary": str(record.get("summary", "")),
        "exit_code": details.get("exit_code"),
        "timed_out": details.get("timed_out"),
        "diff": details.get("diff") if isinstance(details.get("diff"), str) else None,
        "model_diff": _model_change(action),
        "policy": policy,
        "output_tail": record.get("output_tail"),
        "redactions": details.get("redactions"),
    }


def _tests(record: dict[str, Any]) -> dict[str, Any]:
    return {
        "label": str(record.get("label", "")),
        "command": record.get("command"),
        "passed": bool(record.get("passed")),
        "exit_code": record.get("exit_code"),
        "summary": str(record.get("summary", "")),
        "output_tail": record.get("output_tail"),
        "duration_s": record.get("duration_s"),
    }


def brief(action: dict[str, Any]) -> str:
    """`run \\`cmd\\``, `apply_diff path`, `git_status`."""
    if action["tool"] == "run":
        return f"run `{action.get('command')}`"
    return f"{action['tool']} {action['path']}" if action.get("path") else action["tool"]


def output_body(tail: object, command: object) -> str:
    """A command's recorded output without the header the record repeats (`$ COMMAND`, then `[exit 0]`):
    the views show the command and its exit once, beside the verdict. Trailing blank lines are dropped."""
    text = str(tail or "").replace("\r\n", "\n")
    head = f"$ {command}\n"
    if command is not None and text.startswith(head):
        rest = text[len(head) :]
        first, newline, after = rest.partition("\n")
        text = after if first.startswith("[") and first.endswith("]") else rest
        if not newline and first.startswith("[") and first.endswith("]"):
            text = ""
    return text.rstrip("\n")


def last_line(body: str) -> str:
    """The last line a command printed (`4 passed in 1.90s`), not a section marker; "" when none."""
    for line in reversed(body.split("\n")):
        stripped = line.strip()
        if stripped and not (stripped.startswith("--- ") and stripped.endswith(" ---")):
            return stripped
    return ""


def policy_line(policy: dict[str, Any]) -> str:
    """`rule net.curl (network): justification` for a blocking decision."""
    rule = policy.get("rule_id") or "?"
    category = f" ({policy['category']})" if policy.get("category") else ""
    why = policy.get("justification") or policy.get("reason") or ""
    return f"rule {rule}{category}: {why}".rstrip(": ")


def facts(run: Run) -> list[tuple[str, str]]:
    """The run's facts as (label, text) pairs, for the header of `show` and the export."""
    start = run.start
    software = " · ".join(
        part
        for part in (
            f"glmagent {start['glmagent_version']}" if start.get("glmagent_version") else "",
            f"python {start['python']}" if start.get("python") else "",
            str(start.get("platform") or ""),
        )
        if part
    )
    policies = ", ".join(
        f"{entry.get('path')} (sha256 {str(entry.get('sha256'))[:12]}…)"
        for entry in start.get("policy_files") or []
        if isinstance(entry, dict)
    )
    state = start.get("start_state") if isinstance(start.get("start_state"), dict) else {}
    git = (
        f"git {str(state['git_head'])[:12]}{'' if state.get('git_clean') else ' (uncommitted changes)'}"
        if state.get("git_head")
        else "not a git repository"
    )
    cost = f"${run.cost:.4f}" if run.cost is not None else "unknown"
    pairs = [
        ("started", run.started),
        ("task", run.description),
        ("mode", run.mode) if run.mode != "task" else ("", ""),
        ("directory", str(start.get("working_directory") or "")),
        ("start state", git) if "start_state" in start else ("", ""),
        ("tests", str(start.get("test_command") or "(none)")),
        ("planner", str(start.get("planner") or "(none)")),
        (
            "sandbox",
            str(start.get("sandbox") or "unknown")
            + (" · network allowed" if start.get("allow_network") else ""),
        ),
        ("software", software),
        ("policy", policies),
        (
            "schema",
            f"sha256 {str(start.get('planner_schema_sha256'))[:12]}…"
            if start.get("planner_schema_sha256")
            else "",
        ),
        ("resumes", str(start.get("resumed_from") or "")),
        ("outcome", f"{run.outcome} · {run.iterations} iteration(s) · {run.tokens:,} tokens · cost {cost}"),
    ]
    return [(label, text) for label, text in pairs if label and text]


def compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
