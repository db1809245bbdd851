"""`glmagent audit export --html`: one self-contained page for a run.

Everything is inline (styles, no scripts, no fonts, no images), and a Content-Security-Policy forbids the
page from loading anything, so opening it makes no network request. Recorded text goes through the same
`glmagent.inert` as on a terminal before it is escaped for HTML. Sections have stable ids: `overview`,
`verification`, `summary`, `timeline` (with `iteration-N` inside) and `outcome`.
"""

from __future__ import annotations

from html import escape
from typing import Any

from glmagent.audit._timeline import Step, Timeline, brief, facts, last_line, output_body, policy_line
from glmagent.audit._verify import VerifyReport
from glmagent.inert import inert


def _text(text: object) -> str:
    """Recorded text as HTML: made inert first, as on a terminal (a bidirectional override or an escape
    sequence is shown as `\\u202e`, `\\x1b`, never applied), then escaped for HTML."""
    return escape(inert(str(text), multiline=True))


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
.plan ol{margin:4px 0 2px}details.output{margin:4px 0}details.output summary{cursor:pointer;color:#374151}
details.output summary code{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
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
        f"<title>{_text(title)}</title><style>{_CSS}</style></head><body><main>",
        f"<h1>{_text(run.description or run.task_id)}</h1>",
        f'<p class="muted">task {_text(run.task_id)} · run {_text(run.run_id)}</p>',
        '<section id="overview"><h2>Overview</h2><table class="facts">',
        *(f"<tr><td>{_text(label)}</td><td>{_text(text)}</td></tr>" for label, text in facts(run)),
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
    items = [f'<li class="problem">{_text(f.kind)}: {_text(f.message)}</li>' for f in report.problems]
    items += [f"<li>{_text(f.kind)}: {_text(f.message)}</li>" for f in report.notes]
    check = next((c for c in report.runs if c.run == run_id), None)
    head = f"head <code>{_text(check.head)}</code>" if check else ""
    anchored = f", anchored {_text(check.anchored_at)}" if check and check.anchored_at else ""
    return (
        '<section id="verification"><h2>Verification</h2>'
        f'<p><span class="badge {css}">{_text(status)}</span> {report.records} records, {head}{anchored}</p>'
        + (f"<ul>{''.join(items)}</ul>" if items else "")
        + "</section>"
    )


def _summary(blocks: list[str]) -> str:
    body = "".join(f"<pre>{_text(block.rstrip())}</pre>" for block in blocks) or "<p>(none)</p>"
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
        return _tests(data)
    if step.kind == "plan":
        if not data["valid"]:
            return (
                f'<div class="plan"><span class="badge bad">invalid reply</span> attempt {data["attempt"]}: '
                f"{_text(str(data.get('error')))}<pre>{_text(str(data.get('raw', ''))[:4000])}</pre></div>"
            )
        steps = "".join(f"<li>{_text(item)}</li>" for item in data.get("steps", []))
        return (
            f'<div class="plan"><strong>plan</strong> {_text(str(data.get("thought", "")))}'
            + (f"<ol>{steps}</ol>" if steps else "")
            + "</div>"
        )
    if step.kind == "action":
        return _action(data)
    return f'<div class="note">{_text(data["event"])}: {_text(data["text"])}</div>'


def _tests(data: dict[str, Any]) -> str:
    """A test run, its command once: a failed run with its output open, a passing one with the runner's
    last line (`4 passed in 1.90s`) and its output folded away."""
    css = "passed" if data["passed"] else "failed"
    verdict = "PASSED" if data["passed"] else "FAILED"
    head = (
        f'<div class="tests {css}"><span class="badge">{verdict}</span> tests ({_text(data["label"])}) · '
        f"exit {_text(data['exit_code'])} · {_text(data['summary'])}"
    )
    command = f"$ {data.get('command') or ''}"
    body = output_body(data.get("output_tail"), data.get("command"))
    if not data["passed"]:
        output = f'<pre class="output">{_text(body)}</pre>' if body else ""
        return f'{head}<pre class="command">{_text(command)}</pre>{output}</div>'
    last = last_line(body)
    if not last:  # it printed nothing worth unfolding
        return f'{head}<pre class="command">{_text(command)}</pre></div>'
    shown = f"{command}   → {last}"
    return (
        f'{head}<details class="output"><summary><code>{_text(shown)}</code></summary>'
        f"<pre>{_text(body)}</pre></details></div>"
    )


def _action(data: dict[str, Any]) -> str:
    status = data["status"]
    label = "BLOCKED" if status == "rejected" else status
    parts = [f'<div class="action {_text(status)}"><span class="badge">{_text(label)}</span> ']
    parts.append(_text(brief(data) if status == "rejected" else data["summary"]))
    if status == "rejected":
        why = policy_line(data["policy"]) if data.get("policy") else data["summary"]
        parts.append(f'<div class="blocked-rule">{_text(why)}</div>')
    if data["tool"] == "run" and status != "rejected":
        code = "timed out" if data.get("timed_out") else f"exit {data.get('exit_code')}"
        if (data.get("policy") or {}).get("allowed"):
            code += " · policy: allowed"
        parts.append(f'<pre class="command">$ {_text(str(data.get("command")))}   → {_text(code)}</pre>')
        body = output_body(data.get("output_tail"), data.get("command"))
        if body:
            parts.append(f'<pre class="output">{_text(body)}</pre>')
    if data.get("diff"):
        parts.append(_diff(str(data["diff"])))
    elif status == "failed" and data["tool"] != "run" and data.get("output_tail"):
        parts.append(f"<pre>{_text(str(data['output_tail']).rstrip())}</pre>")
    parts.append("</div>")
    return "".join(parts)


def _diff(diff: str) -> str:
    lines = []
    # Newlines only (splitlines also breaks at form feeds and U+2028, which are shown escaped instead).
    for line in diff.replace("\r\n", "\n").rstrip("\n").split("\n"):
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
        lines.append(f'<span class="{css}">{_text(line)}</span>' if css else _text(line))
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
    badge = f'<span class="badge {css}">{_text(text)}</span>'
    return f'<section id="outcome"><h2>Outcome</h2><p>{badge}</p></section>'
