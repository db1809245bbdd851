"""Terminal output: live progress of a task and its final summary.

Progress goes to stdout normally; with `--json` it goes to stderr so stdout carries only the JSON result.
Colour is used only when the stream is a terminal and `NO_COLOR` is not set.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

from glmagent.contract import Action, PlannerOutput
from glmagent.loop import TaskResult, usage_line
from glmagent.observation import Observation
from glmagent.planners.base import PlannerReply
from glmagent.testing import TestOutcome

_COLOURS = {"red": "31", "green": "32", "yellow": "33", "cyan": "36", "dim": "2", "bold": "1"}
_STATUS_COLOUR = {"ok": "green", "failed": "red", "rejected": "yellow", "skipped": "dim"}
#: Lines of a resulting diff shown inline; the full diff is in the audit log.
DIFF_PREVIEW_LINES = 60


class Style:
    """ANSI styling that switches itself off for pipes, files and NO_COLOR."""

    def __init__(self, stream: TextIO) -> None:
        self.enabled = stream.isatty() and not os.environ.get("NO_COLOR")

    def __call__(self, text: str, colour: str) -> str:
        return f"\x1b[{_COLOURS[colour]}m{text}\x1b[0m" if self.enabled else text


class ConsoleObserver:
    """A `LoopObserver` printing each step of the loop as it happens."""

    def __init__(self, stream: TextIO | None = None, *, planner_label: str = "planner") -> None:
        self.out = stream or sys.stdout
        self.style = Style(self.out)
        self.planner_label = planner_label
        self._asked_at = 0.0

    def _print(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def planning(self, iteration: int, max_iterations: int, attempt: int) -> None:
        self._asked_at = time.monotonic()
        retry = " (retry after invalid output)" if attempt > 1 else ""
        self._print(self.style(f"\n── iteration {iteration} · asking {self.planner_label}{retry} …", "bold"))

    def planned(self, iteration: int, output: PlannerOutput, reply: PlannerReply) -> None:
        took = time.monotonic() - self._asked_at
        tokens = f", {reply.usage.total_tokens} tokens" if reply.usage else ""
        self._print(self.style(f"   planned in {took:.1f}s{tokens}", "dim"))
        self._print(f"   thought: {output.thought}")
        for step in output.plan:
            self._print(self.style(f"   · {step}", "dim"))
        if not output.actions:
            self._print("   no actions: the planner considers the task done")

    def action_done(self, iteration: int, action: Action, observation: Observation) -> None:
        colour = _STATUS_COLOUR.get(observation.status, "dim")
        self._print(f"   {self.style(f'[{observation.status}]', colour)} {observation.summary}")
        if observation.status == "rejected":
            for line in observation.output.splitlines()[1:6]:
                self._print(self.style(f"      {line}", "yellow"))
        diff = observation.details.get("diff")
        if observation.tool == "apply_diff" and observation.status == "ok" and isinstance(diff, str):
            self._diff(diff)
        elif observation.tool == "apply_diff" and observation.status == "failed":
            for line in observation.output.splitlines()[1:8]:
                self._print(self.style(f"      {line}", "red"))

    def _diff(self, diff: str) -> None:
        lines = diff.splitlines()
        for line in lines[:DIFF_PREVIEW_LINES]:
            colour = "green" if line.startswith("+") else "red" if line.startswith("-") else "cyan"
            if line.startswith(("+++", "---")):
                colour = "bold"
            self._print("      " + self.style(line, colour if line[:1] in "+-@" else "dim"))
        if len(lines) > DIFF_PREVIEW_LINES:
            self._print(self.style(f"      … {len(lines) - DIFF_PREVIEW_LINES} more diff lines", "dim"))

    def tests_done(self, label: str, outcome: TestOutcome) -> None:
        colour = "green" if outcome.passed else "red"
        self._print(f"   tests ({label}): {self.style(outcome.summary, colour)} [{outcome.duration_s:.1f}s]")

    def iteration_done(self, iteration: int, block: str) -> None:
        pass


def render_result(result: TaskResult, stream: TextIO | None = None) -> None:
    """The final summary block."""
    out = stream or sys.stdout
    style = Style(out)
    verdict = style("SUCCESS", "green") if result.success else style("NOT DONE", "red")
    print(
        f"\n{verdict} · stop reason: {result.stop_reason.value} · {result.iterations} iteration(s)"
        f" · {result.duration_s:.1f}s",
        file=out,
    )
    if result.error:
        print(f"  {result.error}", file=out)
    if result.tests_passed is not None:
        print(f"  tests: {'passing' if result.tests_passed else 'failing'}", file=out)
    if result.usage.total_tokens:
        print(f"  planner: {usage_line(result.usage, result.cost_usd)}", file=out)
    if result.memory_file:
        print(f"  memory: {result.memory_file}", file=out)
    if result.audit_file:
        print(f"  audit log: {result.audit_file}", file=out)
