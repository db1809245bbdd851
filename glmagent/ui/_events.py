"""Loop events as debug log lines (`-vv`), and a way to hand the loop several observers at once."""

from __future__ import annotations

from glmagent._log import get_logger
from glmagent.contract import Action, PlannerOutput
from glmagent.loop import LoopObserver
from glmagent.observation import Observation
from glmagent.planners.base import PlannerReply
from glmagent.testing import TestOutcome

log = get_logger("glmagent.loop")


class LoggingObserver:
    """A `LoopObserver` writing one debug log line per loop event."""

    def planning(self, iteration: int, max_iterations: int, attempt: int) -> None:
        log.debug("planner.request", iteration=iteration, max_iterations=max_iterations, attempt=attempt)

    def planned(self, iteration: int, output: PlannerOutput, reply: PlannerReply) -> None:
        log.debug(
            "planner.reply",
            iteration=iteration,
            actions=len(output.actions),
            model=reply.model,
            tokens=reply.usage.total_tokens if reply.usage else None,
            latency_s=reply.latency_s,
            finish_reason=reply.finish_reason,
            attempts=reply.attempts,
        )

    def action_started(self, iteration: int, action: Action) -> None:
        log.debug("action.start", iteration=iteration, action=action.brief())

    def action_done(self, iteration: int, action: Action, observation: Observation) -> None:
        log.debug(
            "action.done",
            iteration=iteration,
            status=observation.status,
            summary=observation.summary,
            duration_s=observation.duration_s,
        )

    def tests_started(self, label: str) -> None:
        log.debug("tests.start", label=label)

    def tests_done(self, label: str, outcome: TestOutcome) -> None:
        log.debug(
            "tests.done",
            label=label,
            passed=outcome.passed,
            exit_code=outcome.exit_code,
            duration_s=outcome.duration_s,
        )

    def iteration_done(self, iteration: int, block: str) -> None:
        log.debug("iteration.done", iteration=iteration, summary_chars=len(block))


class Observers:
    """Several `LoopObserver`s as one, called in order."""

    def __init__(self, *observers: LoopObserver) -> None:
        self.observers = observers

    def planning(self, iteration: int, max_iterations: int, attempt: int) -> None:
        for observer in self.observers:
            observer.planning(iteration, max_iterations, attempt)

    def planned(self, iteration: int, output: PlannerOutput, reply: PlannerReply) -> None:
        for observer in self.observers:
            observer.planned(iteration, output, reply)

    def action_started(self, iteration: int, action: Action) -> None:
        for observer in self.observers:
            observer.action_started(iteration, action)

    def action_done(self, iteration: int, action: Action, observation: Observation) -> None:
        for observer in self.observers:
            observer.action_done(iteration, action, observation)

    def tests_started(self, label: str) -> None:
        for observer in self.observers:
            observer.tests_started(label)

    def tests_done(self, label: str, outcome: TestOutcome) -> None:
        for observer in self.observers:
            observer.tests_done(label, outcome)

    def iteration_done(self, iteration: int, block: str) -> None:
        for observer in self.observers:
            observer.iteration_done(iteration, block)
