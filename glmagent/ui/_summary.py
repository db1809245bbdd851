"""The end of a task on screen: outcome and stop reason, iterations, files changed, tests before → after,
tokens and cost, duration, and where the memory and audit files are with the command to review them.

A panel on a terminal; aligned `name  value` lines when piped, so logs stay greppable.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from glmagent.loop import StopReason, TaskResult, usage_line
from glmagent.testing import TestOutcome
from glmagent.ui._console import Glyphs, duration, glyphs_for, inert_text, is_live, print_rows
from glmagent.ui._progress import RunFacts

#: Files listed by name before the rest are counted.
FILES_SHOWN = 8


def outcome_sentence(result: TaskResult) -> str:
    """Why the task ended, in words."""
    if result.stop_reason is StopReason.TESTS_PASSED:
        return "the tests pass"
    if result.success:
        passing = " and the tests pass" if result.tests_passed else ""
        return f"the planner declared the task done{passing}"
    return result.error or result.stop_reason.value


def review_command(result: TaskResult) -> str:
    """The command that shows the task's record (`glmagent audit show`)."""
    directory = _shown_path(result.working_directory)
    where = "" if directory == "." else f" -C {shlex.quote(directory)}"
    return f"glmagent audit show {shlex.quote(result.task_id)}{where}"


def _shown_path(path: Path | None) -> str:
    """A path relative to the current directory when it is inside it (shorter to read and to copy)."""
    if path is None:
        return ""
    try:
        relative = path.relative_to(Path.cwd())
    except (ValueError, OSError):
        return str(path)
    return str(relative)


def _tests(facts: RunFacts, result: TaskResult, g: Glyphs) -> Text:
    before, after = facts.tests_before, facts.tests_after
    if before is None and after is None:
        return Text("no test command", style="muted")

    def state(outcome: TestOutcome) -> Text:
        return Text("passing" if outcome.passed else "failing", style="ok" if outcome.passed else "fail")

    text = Text()
    if before is not None:
        text.append_text(state(before))
    if after is not None:
        if before is not None:
            text.append(f" {g.arrow} ")
        text.append_text(state(after))
        text.append(" · ", style="muted")
        text.append_text(inert_text(after.summary, "muted"))
    elif before is not None:
        text.append(" (not run again: nothing was changed)", style="muted")
    return text


def _files(facts: RunFacts, g: Glyphs) -> Text:
    if not facts.files:
        return Text("none", style="muted")
    text = Text()
    for index, (path, change) in enumerate(sorted(facts.files.items())):
        if index == FILES_SHOWN:
            text.append(f"\nand {len(facts.files) - FILES_SHOWN} more", style="muted")
            break
        if index:
            text.append("\n")
        text.append_text(inert_text(path))
        text.append(f" +{change.added}", style="diff.add")
        text.append(f" {g.minus}{change.removed}", style="diff.del")
        note = "created" if change.created else "deleted" if change.deleted else ""
        if change.edits > 1:
            note = ", ".join(n for n in (note, f"{change.edits} edits") if n)
        if note:
            text.append(f" ({note})", style="muted")
    return text


def _tokens(result: TaskResult) -> Text:
    if not result.usage.total_tokens:
        return Text("none reported by the planner", style="muted")
    text = Text(usage_line(result.usage, result.cost_usd))
    if result.cost_usd is None:
        text.append(" · cost unknown (no price set for the model)", style="muted")
    return text


def summary_rows(result: TaskResult, facts: RunFacts, g: Glyphs) -> list[tuple[str, Text]]:
    """The summary as (name, value) rows, in the order shown."""
    outcome = inert_text(outcome_sentence(result), "" if result.success else "fail")
    rows = [
        ("outcome", outcome),
        ("iterations", Text(iterations_text(result, facts.max_iterations))),
        ("files", _files(facts, g)),
        ("tests", _tests(facts, result, g)),
        ("tokens", _tokens(result)),
        ("duration", Text(duration(result.duration_s))),
    ]
    if result.memory_file:
        rows.append(("memory", inert_text(_shown_path(result.memory_file))))
    if result.audit_file:
        rows.append(("audit", inert_text(_shown_path(result.audit_file))))
    if result.audit_file:
        rows.append(("review", inert_text(review_command(result), "accent")))
    return rows


def iterations_text(result: TaskResult, limit: int = 0) -> str:
    """The iterations by their numbers, which run on across the runs of a task (a resumed one):
    `2 of 5`, or `4 of 4 (2-4 in this run)`; `limit` is the highest number this run could reach."""
    of = f" of {limit}" if limit else ""
    first = result.first_iteration
    if first <= 1:
        return f"{result.iterations}{of}"
    if not result.iterations:
        return f"none in this run (the task had {first - 1} before){of.replace(' of', ', up to')}"
    last = first + result.iterations - 1
    return f"{last}{of} ({first}-{last} in this run)" if last > first else f"{last}{of} (this run's only one)"


def verdict(result: TaskResult, g: Glyphs) -> Text:
    if result.success:
        return Text(f"{g.ok} SUCCESS", style="verdict.ok")
    if result.stop_reason is StopReason.INTERRUPTED:
        return Text(f"{g.fail} INTERRUPTED", style="verdict.stopped")
    return Text(f"{g.fail} NOT DONE", style="verdict.fail")


def print_summary(console: Console, result: TaskResult, facts: RunFacts) -> None:
    """The summary panel (a terminal) or block (anything else)."""
    g = glyphs_for(console)
    rows = summary_rows(result, facts, g)
    if is_live(console):
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="muted", no_wrap=True)
        grid.add_column(overflow="fold")
        for name, value in rows:
            grid.add_row(name, value)
        title = verdict(result, g)
        title.append(f" · {result.stop_reason.value}")
        console.print()
        console.print(
            Panel(Group(grid), title=title, title_align="left", border_style=title.style, expand=False)
        )
        return
    console.print()
    headline = verdict(result, g)
    headline.append(f" · {result.stop_reason.value}", style="muted")
    console.print(headline)
    print_rows(console, rows, indent=2, width=11)


def print_one_line(console: Console, result: TaskResult) -> None:
    """`-q`: the outcome in one line."""
    g = glyphs_for(console)
    line = verdict(result, g)
    line.append(f" · {result.stop_reason.value} · {_iteration_count(result)} · {duration(result.duration_s)}")
    if not result.success:
        line.append(" · ")
        line.append_text(inert_text(outcome_sentence(result)))
    console.print(line)


def _iteration_count(result: TaskResult) -> str:
    if result.first_iteration <= 1 or not result.iterations:
        return f"{result.iterations} iteration(s)"
    last = result.first_iteration + result.iterations - 1
    return (
        f"iterations {result.first_iteration}-{last}"
        if last > result.first_iteration
        else f"iteration {last}"
    )
