"""`glmagent audit export --html`: one self-contained page for a run.

Everything is inline (styles, no scripts, no fonts, no images), and a Content-Security-Policy forbids the
page from loading anything, so opening it makes no network request. Sections have stable ids: `overview`,
`verification`, `summary`, `timeline` (with `iteration-N` inside) and `outcome`.
"""

from __future__ import annotations

from html import escape
from typing import Any

from glmagent.audit._timeline import Step, Timeline, brief, facts, policy_line
from glmagent.audit._verify import VerifyReport

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #d5d9e0}
h3{font-size:14px;margin:18px 0 6px;color:#46506a}
table.facts td{padding:2px 12px 2px 0;vertical-align:top}table.facts td:first-child{color:#5b6478}
pre{background:#fff;border:1px solid #dde1e8;border-radius:4px;padding:8px;overflow-x:auto;margin:4px 0;
font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap}
.badge{display:inline-block;padding:0 6px;border-radius:3px;font-size:12px;font-weight:600}
.ok .badge,.passed .badge,.verified{background:#d9f2df;color:#14532d}
.failed .badge,.bad{background:#fde0e0;color:#7f1d1d}
.rejected .badge{background:#7f1d1d;color:#fff}.skipped .badge{background:#eceef2;color:#555}
.action,.tests,.plan,.note{background:#fff;border:1px solid #dde1e8;border-left-width:4px;border-radius:4px;
padding:6px 10px;margin:6px 0}
.action.ok{border-left-color:#22a34a}.action.failed{border-left-color:#d97706}
.action.rejected{border-left-color:#b91c1c;background:#fff5f5}
.tests.passed{border-left-color:#22a34a}.tests.failed{border-left-color:#b91c1c}.plan{border-left-color:#6366f1}
.diff .add{color:#14532d;background:#e6f6ea}.diff .del{color:#7f1d1d;background:#fdecec}
.diff .hunk{color:#4338ca}.diff .file{font-weight:600}.muted{color:#6b7280}
.problem{color:#7f1d1d}.blocked-rule{color:#7f1d1d;font-weight:600}
"""


def render_html(timeline: Timeline, report: VerifyReport) -> str:
    run = timeline.run
    title = f"glmagent audit · {run.task_id} · {run.run_id}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        # Nothing may be fetched: the page is the whole record.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src '
        "'unsafe-inline'\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body><main>",
        f"<h1>{escape(run.description or run.task_id)}</h1>",
        f'<p class="muted">task {escape(run.task_id)} · run {escape(run.run_id)}</p>',
        '<section id="overview"><h2>Overview</h2><table class="facts">',
        *(f"<tr><td>{escape(label)}</td><td>{escape(text)}</td></tr>" for label, text in facts(run)),
        "</table></section>",
        _verification(report, run.run_id),
        _summary(timeline.summaries),
        _timeline(timeline.steps),
        _outcome(timeline),
        "</main></body></html>",
    ]
    return "\n".join(parts) + "\n"


def _verification(report: VerifyReport, run_id: str) -> str:
    status = report.run_status(run_id)
    css = "verified" if report.ok else "bad"
    items = [f'<li class="problem">{escape(f.kind)}: {escape(f.message)}</li>' for f in report.problems]
    items += [f"<li>{escape(f.kind)}: {escape(f.message)}</li>" for f in report.notes]
    check = next((c for c in report.runs if c.run == run_id), None)
    head = f"head <code>{escape(check.head)}</code>" if check else ""
    anchored = f", anchored {escape(check.anchored_at)}" if check and check.anchored_at else ""
    return (
        '<section id="verification"><h2>Verification</h2>'
        f'<p><span class="badge {css}">{escape(status)}</span> {report.records} records, {head}{anchored}</p>'
        + (f"<ul>{''.join(items)}</ul>" if items else "")
        + "</section>"
    )


def _summary(blocks: list[str]) -> str:
    body = "".join(f"<pre>{escape(block.rstrip())}</pre>" for block in blocks) or "<p>(none)</p>"
    return f'<section id="summary"><h2>Summary (memory file)</h2>{body}</section>'


def _timeline(steps: list[Step]) -> str:
    out = ['<section id="timeline"><h2>Timeline</h2>']
    current: int | None = None
    open_section = False
    for step in steps:
        if step.iteration is not None and step.iteration != current:
            if open_section:
                out.append("</section>")
            current = step.iteration
            out.append(f'<section class="iteration" id="iteration-{current}"><h3>Iteration {current}</h3>')
            open_section = True
        out.append(_step(step))
    if open_section:
        out.append("</section>")
    out.append("</section>")
    return "\n".join(out)


def _step(step: Step) -> str:
    data = step.data
    if step.kind == "tests":
        css = "passed" if data["passed"] else "failed"
        verdict = "PASSED" if data["passed"] else "FAILED"
        output = (
            f"<pre>{escape(str(data['output_tail']))}</pre>"
            if not data["passed"] and data.get("output_tail")
            else ""
        )
        return (
            f'<div class="tests {css}"><span class="badge">{verdict}</span> '
            f"tests ({escape(data['label'])}) · "
            f"exit {escape(str(data['exit_code']))} · {escape(data['summary'])}"
            f'<pre class="command">$ {escape(str(data.get("command") or ""))}</pre>{output}</div>'
        )
    if step.kind == "plan":
        if not data["valid"]:
            return (
                f'<div class="plan"><span class="badge bad">invalid reply</span> attempt {data["attempt"]}: '
                f"{escape(str(data.get('error')))}<pre>{escape(str(data.get('raw', ''))[:4000])}</pre></div>"
            )
        steps = "".join(f"<li>{escape(item)}</li>" for item in data.get("steps", []))
        return (
            f'<div class="plan"><strong>plan</strong> {escape(str(data.get("thought", "")))}'
            + (f"<ol>{steps}</ol>" if steps else "")
            + "</div>"
        )
    if step.kind == "action":
        return _action(data)
    return f'<div class="note">{escape(data["event"])}: {escape(data["text"])}</div>'


def _action(data: dict[str, Any]) -> str:
    status = data["status"]
    label = "BLOCKED" if status == "rejected" else status
    parts = [f'<div class="action {escape(status)}"><span class="badge">{escape(label)}</span> ']
    parts.append(escape(brief(data) if status == "rejected" else data["summary"]))
    if status == "rejected":
        why = policy_line(data["policy"]) if data.get("policy") else data["summary"]
        parts.append(f'<div class="blocked-rule">{escape(why)}</div>')
    if data["tool"] == "run" and status != "rejected":
        code = "timed out" if data.get("timed_out") else f"exit {data.get('exit_code')}"
        if (data.get("policy") or {}).get("allowed"):
            code += " · policy: allowed"
        parts.append(f'<pre class="command">$ {escape(str(data.get("command")))}   → {escape(code)}</pre>')
        if data.get("output_tail"):
            parts.append(f'<pre class="output">{escape(str(data["output_tail"]))}</pre>')
    if data.get("diff"):
        parts.append(_diff(str(data["diff"])))
    elif status == "failed" and data["tool"] != "run" and data.get("output_tail"):
        parts.append(f"<pre>{escape(str(data['output_tail']))}</pre>")
    parts.append("</div>")
    return "".join(parts)


def _diff(diff: str) -> str:
    lines = []
    for line in diff.splitlines():
        css = (
            "file"
            if line.startswith(("+++", "---"))
            else "add"
            if line.startswith("+")
            else "del"
            if line.startswith("-")
            else "hunk"
            if line.startswith("@@")
            else ""
        )
        lines.append(f'<span class="{css}">{escape(line)}</span>' if css else escape(line))
    return '<pre class="diff">' + "\n".join(lines) + "</pre>"


def _outcome(timeline: Timeline) -> str:
    run = timeline.run
    if run.end is None:
        text = "no end recorded: the run was stopped or killed"
        css = "bad"
    else:
        text = f"{run.outcome} at {run.end.get('ts')}" + (
            f" — {run.end['error']}" if run.end.get("error") else ""
        )
        css = "verified" if run.end.get("success") else "bad"
    badge = f'<span class="badge {css}">{escape(text)}</span>'
    return f'<section id="outcome"><h2>Outcome</h2><p>{badge}</p></section>'
