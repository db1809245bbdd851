"""Plain-text views for `glmagent audit list`, `show` and `verify`.

Blocked and rejected actions stand out without colour: their lines start with `!!` and name the rule.
Records hold what the model, its commands and the files wrote, so every line passes through
`glmagent.inert` on its way out: an escape sequence, a carriage return or a bidirectional override in a
thought, a file name or an output is shown as `\x1b`, `\r`, `\u202e`, never obeyed by the terminal.
Multi-line blocks (a diff, an output tail) are split on newlines only, so each line is one line on screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from glmagent.audit._runs import Run
from glmagent.audit._timeline import Step, Timeline, brief, facts, last_line, output_body, policy_line
from glmagent.audit._verify import VerifyReport
from glmagent.inert import inert_line

#: Lines of a diff or an output tail shown inline; `--json` and the HTML export have all of it.
SHOWN_LINES = 40


def run_row(task_id: str, run: Run, status: str) -> dict[str, Any]:
    """One line of `audit list`, as data."""
    return {
        "started": run.started,
        "task_id": task_id,
        "run": run.run_id,
        "description": run.description,
        "mode": run.mode,
        "outcome": run.outcome,
        "success": bool(run.end.get("success")) if run.end else None,
        "stop_reason": run.end.get("stop_reason") if run.end else None,
        "iterations": run.iterations,
        "tokens": run.tokens,
        "cost_usd": run.cost,
        "chain": status,
    }


def render_list(rows: Sequence[dict[str, Any]]) -> str:
    """Runs, newest first, as an aligned table."""
    if not rows:
        return "no recorded runs here (tasks record into .hazina/agent-memory/)"
    header = ("started (UTC)", "task", "run", "outcome", "iter", "tokens", "cost", "chain", "description")
    table = [header]
    for row in rows:
        cost = f"${row['cost_usd']:.4f}" if row["cost_usd"] is not None else "-"
        outcome = row["outcome"] if row["success"] is not None else "incomplete"
        table.append(
            (
                row["started"].replace("T", " ")[:19],
                row["task_id"],
                row["run"],
                outcome,
                str(row["iterations"]),
                f"{row['tokens']:,}",
                cost,
                row["chain"],
                _clip(row["description"], 60),
            )
        )
    table = [tuple(inert_line(cell) for cell in line) for line in table]
    widths = [max(len(line[i]) for line in table) for i in range(len(header) - 1)]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line[:-1], widths, strict=True)) + "  " + line[-1]
        for line in table
    )


def render_show(timeline: Timeline, report: VerifyReport) -> str:
    """One run: its facts, chain status, memory summaries and timeline, every line inert."""
    return _shown(_show_lines(timeline, report))


def _show_lines(timeline: Timeline, report: VerifyReport) -> list[str]:
    run = timeline.run
    out: list[str] = [f"task {run.task_id} · run {run.run_id}"]
    labels = facts(run)
    width = max(len(label) for label, _ in labels)
    out += [f"  {label.ljust(width)}  {text}" for label, text in labels]
    out.append(f"  {'chain'.ljust(width)}  {chain_line(report, run.run_id)}")
    if timeline.summaries:
        out += ["", "Summary (memory file)"]
        for index, block in enumerate(timeline.summaries):
            out += ([""] if index else []) + [f"  {line}" for line in _block(block.rstrip("\n"))]
    out += ["", "Timeline"]
    current: int | None = None
    for step in timeline.steps:
        if step.iteration is not None and step.iteration != current:
            current = step.iteration
            out.append(f"  ── iteration {current} " + "─" * 40)
        out += _step(step)
    if run.end is not None:
        out += ["", f"  end: {run.outcome} at {run.end.get('ts')}"]
        if run.end.get("error"):
            out.append(f"       {run.end['error']}")
    else:
        out += [
            "",
            "  end: none recorded: the run was stopped or killed (resume it with `glmagent task --resume`)",
        ]
    return out


def chain_line(report: VerifyReport, run_id: str) -> str:
    status = report.run_status(run_id)
    check = next((c for c in report.runs if c.run == run_id), None)
    detail = f"{check.records} records, head {check.head[:12]}…" if check else ""
    if check is not None and check.anchored_at:
        detail += f", anchored {check.anchored_at}"
    problems = [f for f in report.problems if f.run in (run_id, None)]
    text = f"{status}: {detail}" if detail else status
    if problems:
        text += f" · {problems[0].kind}: {problems[0].message}"
    return text


def _step(step: Step) -> list[str]:
    data = step.data
    if step.kind == "tests":
        verdict = "PASSED" if data["passed"] else "FAILED"
        where = "baseline" if data["label"] == "baseline" else data["label"]
        lines = [f"  tests ({where}): {verdict} · exit {data['exit_code']} · {data['summary']}"]
        body = output_body(data.get("output_tail"), data.get("command"))
        last = last_line(body)
        shown = f"      $ {data.get('command') or ''}"
        lines.append(f"{shown}  → {last}" if data["passed"] and last else shown)
        if not data["passed"] and body:
            lines += _indented(_block(body)[-8:], "      | ")
        return lines
    if step.kind == "plan":
        if not data["valid"]:
            return [
                f"  !! reply {data['attempt']} INVALID: {data.get('error')}",
                *_indented(_block(_clip(str(data.get("raw", "")), 400))[:6], "      | "),
            ]
        tokens = f" ({data['tokens']:,} tokens)" if data.get("tokens") else ""
        lines = [f"  plan{tokens}: {data.get('thought', '')}"]
        lines += [f"      · {item}" for item in data.get("steps", [])]
        return lines
    if step.kind == "action":
        return _action(data)
    return [f"  note: {data['event']}: {data['text']}"]


def _action(data: dict[str, Any]) -> list[str]:
    status = data["status"]
    if status == "rejected":
        lines = [f"  !! [BLOCKED] {brief(data)}"]
        if data.get("policy"):
            lines.append(f"  !!     {policy_line(data['policy'])}")
        else:
            lines.append(f"  !!     {data['summary']}")
        return lines
    lines = [f"  [{status}] {data['summary']}"]
    if data["tool"] == "run":
        code = "timed out" if data.get("timed_out") else f"exit {data.get('exit_code')}"
        allowed = " · policy: allowed" if (data.get("policy") or {}).get("allowed") else ""
        lines.append(f"      $ {data.get('command')}  → {code}{allowed}")
        body = output_body(data.get("output_tail"), data.get("command"))
        if body:
            lines += _indented(_block(body)[-SHOWN_LINES // 4 :], "      | ")
    if data.get("diff"):
        diff_lines = _block(data["diff"])
        lines += _indented(diff_lines[:SHOWN_LINES], "      ")
        if len(diff_lines) > SHOWN_LINES:
            lines.append(f"      … {len(diff_lines) - SHOWN_LINES} more diff lines (--json or export --html)")
    elif status == "failed" and data["tool"] != "run" and data.get("output_tail"):
        lines += _indented(_block(data["output_tail"])[:8], "      | ")
    return lines


def render_verify(report: VerifyReport) -> str:
    """The report of `audit verify`: runs, problems, notes, verdict."""
    lines = [
        f"{report.log}: {report.records} records in {len(report.runs)} run(s), head "
        f"{(report.head or '-')[:16]}…"
    ]
    for check in report.runs:
        anchored = f", anchored {check.anchored_at}" if check.anchored_at else ""
        lines.append(
            f"  run {check.run}: {check.status} (lines {check.first_line}-{check.last_line}, "
            f"{check.records} records{anchored})"
        )
    for finding in report.problems:
        lines.append(f"  PROBLEM {finding.kind}: {finding.message}")
    for finding in report.notes:
        lines.append(f"  note {finding.kind}: {finding.message}")
    if report.ok:
        lines.append("OK: the chain, the stored replies, the memory file and the anchors agree")
    else:
        first = report.problems[0]
        where = f" at line {first.line}" if first.line else ""
        lines.append(f"FAILED: {len(report.problems)} problem(s); the first is {first.kind}{where}")
    return _shown(lines)


def _shown(lines: Sequence[str]) -> str:
    """The report's lines as terminal text: each made inert (a newline inside one is shown as `\\n`)."""
    return "\n".join(inert_line(line) for line in lines)


def _block(text: object) -> list[str]:
    """A multi-line block's lines, split on newlines only (`str.splitlines` would also break at form
    feeds, `\\x1c`-`\\x1e`, `\\x85` and U+2028, which are then shown escaped instead)."""
    text = str(text).replace("\r\n", "\n").removesuffix("\n")
    return text.split("\n") if text else []


def _indented(lines: Sequence[str], prefix: str) -> list[str]:
    return [prefix + line for line in lines]


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split()) if limit < 100 else text
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
