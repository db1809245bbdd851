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
where the planner can (`ExploringPlanner`). The files the model's edits changed since the run's best test
result go back to what they held then (the start, or the last iteration that brought the tests closer to
passing): a first reply is tried on the code it was written for, not on the leftovers of stalled attempts
(the live bench's model, starting afresh, added an unused `default=0.0` parameter, and its next attempt
built on it). Not when a command other than the test command ran since: what it changed is unknown. The
guards against repeats stay: an edit refused before, or one remaking an undone change, is refused again.
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
    """Counts the iterations that brought the tests no closer to passing, says when to start afresh, and
    keeps what the files the model changed since the best test result held then."""

    def __init__(self, after: int = STALLED_ITERATIONS) -> None:
        self.after = after
        """Stalled iterations in a row that make a fresh start due (0: never)."""
        self.stalled = 0
        """Iterations in a row, since the last fresh start, that did not improve on the best test run."""
        self.best: TestOutcome | None = None
        """The best test run so far (the earliest of equals), or None before the baseline."""
        self.best_iteration: int | None = None
        """The iteration after which `best` ran (None: the baseline)."""
        self._score: tuple[int, int, int] | None = None
        self._since_best: dict[str, bytes | None] = {}
        self._unknown_changes = False

    def baseline(self, tests: TestOutcome) -> None:
        """The test run before the first iteration: what progress is measured against."""
        self.best, self._score = tests, _score(tests)

    def changed(self, before: dict[str, bytes | None], ran_other_command: bool) -> None:
        """An iteration's edits changed these files (their content before it), and maybe a command ran whose
        changes are unknown."""
        for path, data in before.items():
            self._since_best.setdefault(path, data)
        self._unknown_changes = self._unknown_changes or ran_other_command

    def observe(self, iteration: int, tests: TestOutcome | None) -> None:
        """Iteration `iteration` ended with `tests` (None: nothing changed, or the change was undone)."""
        score = None if tests is None else _score(tests)
        if tests is not None and score is not None and (self._score is None or score > self._score):
            self.best, self._score, self.best_iteration = tests, score, iteration
            self._since_best, self._unknown_changes = {}, False
            self.stalled = 0
        else:
            self.stalled += 1

    def due(self, tests: TestOutcome | None) -> bool:
        """Whether the next prompt should start afresh: the tests still fail after enough stalled
        iterations."""
        return bool(self.after) and tests is not None and not tests.passed and self.stalled >= self.after

    def to_put_back(self) -> dict[str, bytes | None]:
        """The files to write back for a fresh start, with what they held at the best test run (None: they
        did not exist); empty when nothing changed or a command may have changed files unseen."""
        return {} if self._unknown_changes else dict(self._since_best)

    def started(self) -> None:
        """A fresh start was given: count stalled iterations from it."""
        self.stalled = 0

    def put_back(self) -> None:
        """The files `to_put_back` named hold what they held at the best test run again."""
        self._since_best = {}
