"""When the loop gives the model a fresh start: a prompt without the history of attempts that went nowhere.

A small model that has not fixed a task in its first replies rarely fixes it later from the same history:
in the live bench's runs 12 of 17 solved tasks were solved by the first reply. Later prompts hold its own
refused lines (a change it sent that broke the syntax, shown as "the file would read"), and it goes on
searching the file for those lines as if they were there, iteration after iteration; at temperature 0 it
writes the same reply to nearly the same prompt. Yet a first reply sampled warm (temperature 0.7) fixed
tasks that no run of the whole loop had fixed (see the README's live-run section for the figures).

So after `STALLED_ITERATIONS` iterations in a row that brought the tests no closer to passing, the loop
asks again the way it asked first: the task, the latest test run and the files as they are now, without
the last iteration's results and notes, with the earlier iterations summed up in one line, sampled warm
where the planner can (`ExploringPlanner`). Files stay as they are: a change that left the tests worse was
undone already, so what is there is the best state the run has reached. The guards against repeats stay:
an edit refused before, or one remaking an undone change, is refused again.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from glmagent.testing import TestOutcome, failing_tests, passed_count

STALLED_ITERATIONS = 2
"""Iterations in a row without progress after which the next prompt starts afresh."""


@runtime_checkable
class ExploringPlanner(Protocol):
    """A planner that can sample its next replies differently from the last ones (warmer)."""

    def explore(self) -> None: ...


def _score(tests: TestOutcome) -> tuple[int, int, int]:
    """Higher is closer to passing: passed at all, then fewer failing tests, then more passing ones."""
    passed = passed_count(tests.output)
    return (int(tests.passed), -len(failing_tests(tests.output)), passed if passed is not None else 0)


class FreshStarts:
    """Counts the iterations that brought the tests no closer to passing, and says when to start afresh."""

    def __init__(self, after: int = STALLED_ITERATIONS) -> None:
        self.after = after
        """Stalled iterations in a row that make a fresh start due (0: never)."""
        self.stalled = 0
        """Iterations in a row, since the last fresh start, that did not improve on the best test run."""
        self._best: tuple[int, int, int] | None = None

    def baseline(self, tests: TestOutcome) -> None:
        """The test run before the first iteration: what progress is measured against."""
        self._best = _score(tests)

    def observe(self, tests: TestOutcome | None) -> None:
        """An iteration ended with `tests` (None: nothing changed, so the tests were not run again)."""
        score = None if tests is None else _score(tests)
        if score is not None and (self._best is None or score > self._best):
            self._best, self.stalled = score, 0
        else:
            self.stalled += 1

    def due(self, tests: TestOutcome | None) -> bool:
        """Whether the next prompt should start afresh: the tests still fail after enough stalled
        iterations."""
        return bool(self.after) and tests is not None and not tests.passed and self.stalled >= self.after

    def started(self) -> None:
        """A fresh start was given: count stalled iterations from it."""
        self.stalled = 0
