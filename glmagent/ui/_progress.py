"""`TaskProgress`: the loop's progress as it happens — a live status line while something runs, then each
iteration's thought and plan, one line per action with its outcome, diffs, command output tails and tests.

On a terminal the status line shows a spinner, the elapsed time, the iteration (N of M) and the tokens so
far; piped, the same events are printed as plain lines, with no spinner and no escape codes.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from rich.console import Console
from rich.live import Live
from rich.table import Table
from rich.text import Text

from glmagent.contract import Action, PlannerOutput, ToolName
from glmagent.loop import is_trial_run
from glmagent.observation import Observation
from glmagent.planners.base import PlannerReply, TokenUsage
from glmagent.testing import TestOutcome
from glmagent.ui._console import Glyphs, duration, glyphs_for, inert_text, is_live, print_rows, shorten
from glmagent.ui._diff import diff_lines
from glmagent.ui._tail import useful_tail

#: How much of each thing is shown by default; `-v` shows more.
THOUGHT_CHARS = (320, 4000)
PLAN_STEPS = (6, 50)
DIFF_LINES = (60, 400)
FAILED_TAIL = (8, 30)
OK_TAIL = (3, 12)
_SPACES = re.compile(r"[ \t\n]+")


@dataclass
class FileChange:
    """What `apply_diff` did to one file over the run."""

    added: int = 0
    removed: int = 0
    edits: int = 0
    created: bool = False
    deleted: bool = False


@dataclass
class RunFacts:
    """What the summary shows that the loop's `TaskResult` does not carry."""

    max_iterations: int = 0
    tests_before: TestOutcome | None = None
    tests_after: TestOutcome | None = None
    files: dict[str, FileChange] = field(default_factory=dict)
    usage: TokenUsage = field(default_factory=TokenUsage)

    def record_change(self, observation: Observation) -> None:
        details = observation.details
        path = details.get("path")
        if observation.tool != "apply_diff" or observation.status != "ok" or not isinstance(path, str):
            return
        change = self.files.setdefault(path, FileChange())
        change.added += int(details.get("added") or 0)
        change.removed += int(details.get("removed") or 0)
        change.edits += 1
        change.created = change.created or details.get("action") == "create"
        change.deleted = details.get("action") == "delete"


class TaskProgress:
    """A `LoopObserver` drawing on a rich console; use it as a context manager around the run."""

    def __init__(self, console: Console, *, planner_label: str, verbose: int = 0) -> None:
        self.console = console
        self.planner_label = planner_label
        self.detail = 1 if verbose else 0
        self.glyphs: Glyphs = glyphs_for(console)
        self.facts = RunFacts()
        self.live = is_live(console)
        self._live: Live | None = None
        self._phase: Text | None = None
        self._phase_started = time.monotonic()
        self._stopping: str | None = None
        self._retry: str | None = None

    # --- the live status line -------------------------------------------------------------------------

    def __enter__(self) -> TaskProgress:
        if self.live:
            self._live = Live(
                console=self.console,
                get_renderable=self._status,
                transient=True,
                refresh_per_second=8,
                # Whatever else writes to the terminal while the status line is up (log lines, a library's
                # print) goes above it instead of through it; with --json this also keeps stdout clean.
                redirect_stdout=True,
                redirect_stderr=True,
            )
            self._live.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def _set_phase(self, text: Text | None) -> None:
        self._phase = text
        self._phase_started = time.monotonic()
        self._retry = None

    def _status(self) -> Text:
        if self._phase is None:
            return Text("")
        elapsed = time.monotonic() - self._phase_started
        frames = self.glyphs.spinner
        line = Text(frames[int(elapsed * 10) % len(frames)] + " ", style="accent")
        line.append_text(self._phase)
        line.append(f" · {duration(elapsed)}", style="muted")
        if self.facts.usage.total_tokens:
            line.append(f" · {self.facts.usage.total_tokens:,} tokens so far", style="muted")
        if self._retry:
            line.append(" · ", style="muted")
            line.append_text(inert_text(shorten(self._retry, 90, self.glyphs.ellipsis), "warn"))
        if self._stopping:
            line.append(f" · {self._stopping}; Ctrl-C again to stop now", style="warn")
        return line

    def planner_retry(self, message: str) -> None:
        """A planner request is being retried (shown in the status line, or as a line when piped)."""
        if self.live:
            self._retry = message
        else:
            self._print(Text("   ").append_text(inert_text(message, "warn")))

    def stop_requested(self, message: str) -> None:
        """A first Ctrl-C: say that the running action finishes first (called from a signal handler)."""
        self._stopping = message
        if not self.live:
            self._print(Text(f"   {message}; press Ctrl-C again to stop now", style="warn"))

    def _print(self, *lines: Text) -> None:
        for line in lines:
            self.console.print(line)

    def _print_indented(self, lines: list[Text], *, indent: int) -> None:
        """Lines under an action; on a terminal, a long line wraps at the same indent."""
        if not lines:
            return
        if self.live:
            grid = Table.grid()
            grid.add_column(width=indent, no_wrap=True)
            grid.add_column(overflow="fold")
            for line in lines:
                grid.add_row("", line)
            self.console.print(grid)
            return
        for line in lines:
            self.console.print(Text(" " * indent).append_text(line))

    # --- LoopObserver ---------------------------------------------------------------------------------

    def planning(self, iteration: int, max_iterations: int, attempt: int) -> None:
        self.facts.max_iterations = max_iterations
        self._iteration = iteration
        what = Text(f"iteration {iteration} of {max_iterations} · asking ")
        what.append_text(inert_text(self.planner_label))
        if attempt > 1:
            what.append(" again (the last reply was invalid)", style="warn")
        self._set_phase(what)
        if not self.live:
            self._print(Text(""), Text(f"{what.plain} {self.glyphs.ellipsis}", style="heading"))
        elif attempt > 1:
            self._print(Text("   the reply was not a valid plan; asking once more", style="warn"))
        self._asked_at = time.monotonic()

    def planned(self, iteration: int, output: PlannerOutput, reply: PlannerReply) -> None:
        took = time.monotonic() - getattr(self, "_asked_at", time.monotonic())
        if reply.usage is not None:
            self.facts.usage = self.facts.usage + reply.usage
        self._set_phase(None)
        facts = f"planned in {duration(took)}"
        if reply.usage is not None and reply.usage.total_tokens:
            facts += f" · {reply.usage.total_tokens:,} tokens"
        if self.live:
            header = Text()
            header.append(
                f"{self.glyphs.rule * 2} iteration {iteration} of {self.facts.max_iterations}", "heading"
            )
            header.append(f" · {facts}", style="muted")
            self._print(Text(""), header)
        else:
            self._print(Text(f"   {facts}", style="muted"))
        g = self.glyphs
        rows = [
            ("thought", inert_text(shorten(_flat(output.thought), THOUGHT_CHARS[self.detail], g.ellipsis)))
        ]
        steps = output.plan[: PLAN_STEPS[self.detail]]
        for number, step in enumerate(steps, start=1):
            text = inert_text(f"{number}. " + shorten(_flat(step), 160, g.ellipsis))
            rows.append(("plan" if number == 1 else "", text))
        if len(output.plan) > len(steps):
            rows.append(("", Text(f"{g.ellipsis} {len(output.plan) - len(steps)} more steps", "muted")))
        print_rows(self.console, rows, indent=3, width=8)
        if not output.actions:
            self._print(Text("   no actions: the planner considers the task done", style="muted"))

    def action_started(self, iteration: int, action: Action) -> None:
        what = Text(f"iteration {iteration} of {self.facts.max_iterations} · ")
        what.append_text(inert_text(shorten(_action_label(action), 100, self.glyphs.ellipsis)))
        self._set_phase(what)

    def action_done(self, iteration: int, action: Action, observation: Observation) -> None:
        self._set_phase(None)
        self.facts.record_change(observation)
        line, extra = self._action_lines(action, observation)
        self._print(line)
        self._print_indented(extra, indent=7)

    def tests_started(self, label: str) -> None:
        self._set_phase(Text(f"running the tests ({label})"))

    def tests_done(self, label: str, outcome: TestOutcome) -> None:
        self._set_phase(None)
        if label == "baseline":
            self.facts.tests_before = outcome
        elif outcome.passed or not is_trial_run(label):
            self.facts.tests_after = outcome
        mark, style = (self.glyphs.ok, "ok") if outcome.passed else (self.glyphs.fail, "fail")
        if label == "baseline":
            self._print(Text(""))
        line = Text("" if label == "baseline" else "   ")
        line.append(f"{mark} tests ({label}) ", style=style)
        line.append_text(inert_text(outcome.summary))
        line.append(f" · {duration(outcome.duration_s)}", style="muted")
        self._print(line)

    def iteration_done(self, iteration: int, block: str) -> None:
        self._set_phase(None)

    # --- one action -----------------------------------------------------------------------------------

    def _action_lines(self, action: Action, observation: Observation) -> tuple[Text, list[Text]]:
        """The action's one line, and what is shown under it (a diff, an output tail, a reason)."""
        g = self.glyphs
        status = observation.status
        mark, style = {
            "ok": (g.ok, "ok"),
            "failed": (g.fail, "fail"),
            "rejected": (g.fail, "warn"),
        }.get(status, (g.skip, "muted"))
        line = Text("   ")
        line.append(f"{mark} ", style=style)
        details = observation.details
        extra: list[Text] = []
        if action.tool is ToolName.RUN:
            line.append("$ ", style="muted")
            line.append_text(inert_text(shorten(action.command or "", 200, g.ellipsis)))
            policy = details.get("policy") if isinstance(details.get("policy"), dict) else {}
            if status == "rejected" and policy:
                line.append(" · blocked by rule ", style="warn")
                line.append_text(inert_text(str(policy.get("rule_id") or "?"), "warn"))
                reason = policy.get("reason") or policy.get("justification")
                if reason:
                    extra.append(inert_text(shorten(str(reason), 300, g.ellipsis), "muted"))
            elif status == "rejected":
                line.append_text(inert_text(" · " + observation.summary, "warn"))
            elif details.get("timed_out"):
                line.append(" · timed out", style="fail")
            elif status == "skipped":
                line.append(" · skipped: an earlier action was rejected", style="muted")
            else:
                line.append(f" · exit {details.get('exit_code')}", style=style)
            if observation.executed:
                line.append(f" · {duration(observation.duration_s)}", style="muted")
                extra += self._tail(observation, failed=status == "failed")
        elif action.tool is ToolName.APPLY_DIFF and status == "ok":
            verb = {"create": "created", "delete": "deleted"}.get(str(details.get("action")), "modified")
            line.append(f"{verb} ")
            line.append_text(inert_text(str(details.get("path", action.path))))
            line.append(f" +{details.get('added', 0)}", style="diff.add")
            line.append(f" {g.minus}{details.get('removed', 0)}", style="diff.del")
            diff = details.get("diff")
            if isinstance(diff, str):
                extra += diff_lines(diff, limit=DIFF_LINES[self.detail], ellipsis=g.ellipsis)
        else:
            line.append_text(inert_text(observation.summary, "" if status == "ok" else style))
            if status in ("failed", "rejected") and action.tool is ToolName.APPLY_DIFF:
                why = observation.output.splitlines()[1 : 5 if not self.detail else 20]
                extra += [inert_text(w, "muted") for w in why]
        return line, extra

    def _tail(self, observation: Observation, *, failed: bool) -> list[Text]:
        count = (FAILED_TAIL if failed else OK_TAIL)[self.detail]
        tail, earlier = useful_tail(observation.output, count)
        lines: list[Text] = []
        if earlier:
            lines.append(Text(f"{self.glyphs.ellipsis} {earlier} earlier lines", style="muted"))
        style = "" if failed else "muted"
        return lines + [inert_text(shorten(t, 300, self.glyphs.ellipsis), style) for t in tail]


def _flat(text: str) -> str:
    """Runs of spaces, tabs and newlines as one space; every other character stays, to be shown inert."""
    return _SPACES.sub(" ", text).strip(" ")


def _action_label(action: Action) -> str:
    if action.tool is ToolName.RUN:
        return f"$ {action.command}"
    if action.tool is ToolName.APPLY_DIFF:
        return f"applying a diff to {action.path}"
    if action.tool is ToolName.READ_FILE:
        return f"reading {action.path}"
    return action.brief()
