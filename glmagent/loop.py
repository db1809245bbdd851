"""`AgentLoop`: plan → act → observe, and the only place that decides whether to go on or stop.

The loop owns no I/O of its own: the planner, the executor, the test runner and the memory store are handed
in as objects that satisfy small Protocols, so each can be replaced by a real fake in tests.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field

from glmagent.contract import Action, InvalidPlannerOutput, PlannerOutput, ToolName, parse_planner_output
from glmagent.errors import ContentFilteredError, ContextTooLongError, PlannerError
from glmagent.limits import Limits, ObservationBudget, refused_actions
from glmagent.observation import Observation
from glmagent.planners.base import NO_REPLY_LEFT, ChatMessage, Planner, PlannerReply, TokenUsage
from glmagent.prompt import ContextBuilder, LastIteration
from glmagent.stopping import StopControl
from glmagent.testing import TestOutcome


class StopReason(StrEnum):
    """Why a task ended.

    Success is decided apart from the reason (see `_succeeded`): `tests_passed` is always success;
    `no_actions` is success only when the planner declares the task done after at least one iteration in
    this run in which every action succeeded — and, with a test command, while the tests pass. An empty
    replay, a batch of failures followed by "done", or no iteration at all is not success.
    """

    TESTS_PASSED = "tests_passed"
    NO_ACTIONS = "no_actions"
    MAX_ITERATIONS = "max_iterations"
    INVALID_OUTPUT = "invalid_output"
    PLANNER_ERROR = "planner_error"
    INTERRUPTED = "interrupted"


class Task(BaseModel):
    """One unit of work for the agent."""

    description: str = Field(min_length=1)
    working_directory: Path
    task_id: str
    max_iterations: int = Field(default=5, ge=1, le=100)
    test_command: str | None = None
    resumes: str | None = None
    """The run this one continues (`glmagent task --resume`), recorded in `task_start` as `resumed_from`."""


class TaskResult(BaseModel):
    """How a task ended."""

    task_id: str
    working_directory: Path
    success: bool
    stop_reason: StopReason
    iterations: int
    """How many iterations this run ran."""
    first_iteration: int = 1
    """The number of this run's first iteration. Iterations are numbered across the runs of one task (a
    resumed task, a reused task id continue from the memory file), alike in the memory file, the audit log,
    on screen and here: this run ran `first_iteration` .. `first_iteration + iterations - 1`."""
    summary: str
    """The iteration summaries written during this run, as they appear in the memory file."""
    error: str | None = None
    duration_s: float
    usage: TokenUsage = Field(default_factory=TokenUsage)
    cost_usd: float | None = None
    """What the planner calls cost, from the configured price table; None when any price was unknown."""
    tests_passed: bool | None = None
    memory_file: Path | None = None
    audit_file: Path | None = None


class ActionExecutor(Protocol):
    def execute(self, action: Action) -> Observation: ...


class TestRunner(Protocol):
    def run(self) -> TestOutcome: ...


class MemoryStore(Protocol):
    """Where a run is recorded: the memory summary and the audit log (`glmagent.memory`)."""

    summary_path: Path
    audit_path: Path

    def load_summary(self) -> str: ...

    def next_iteration_number(self) -> int: ...

    def start_run(self, **details: Any) -> str: ...

    def record(self, event: str, **fields: Any) -> object: ...

    def record_request(self, iteration: int, attempt: int, messages: Sequence[Mapping[str, Any]]) -> None: ...

    def record_action(self, action: Mapping[str, Any], observation: Observation, **extra: Any) -> None: ...

    def record_tests(self, label: str, outcome: Mapping[str, Any]) -> None: ...

    def append_iteration(self, number: int, lines: Sequence[str]) -> str: ...

    def finish_run(self, **outcome: Any) -> None: ...


class LoopObserver(Protocol):
    """Progress callbacks for a user interface; every method is optional to act on."""

    def planning(self, iteration: int, max_iterations: int, attempt: int) -> None: ...

    def planned(self, iteration: int, output: PlannerOutput, reply: PlannerReply) -> None: ...

    def action_started(self, iteration: int, action: Action) -> None: ...

    def action_done(self, iteration: int, action: Action, observation: Observation) -> None: ...

    def tests_started(self, label: str) -> None: ...

    def tests_done(self, label: str, outcome: TestOutcome) -> None: ...

    def iteration_done(self, iteration: int, block: str) -> None: ...


class SilentObserver:
    """A `LoopObserver` that shows nothing (library use)."""

    def planning(self, iteration: int, max_iterations: int, attempt: int) -> None:
        pass

    def planned(self, iteration: int, output: PlannerOutput, reply: PlannerReply) -> None:
        pass

    def action_started(self, iteration: int, action: Action) -> None:
        pass

    def action_done(self, iteration: int, action: Action, observation: Observation) -> None:
        pass

    def tests_started(self, label: str) -> None:
        pass

    def tests_done(self, label: str, outcome: TestOutcome) -> None:
        pass

    def iteration_done(self, iteration: int, block: str) -> None:
        pass


class _SkipIteration(Exception):
    """The iteration ends without actions (the provider's content filter blocked the reply)."""


class _Stop(Exception):
    """Ends the loop with a reason; raised from deep inside an iteration."""

    def __init__(self, reason: StopReason, error: str | None = None) -> None:
        super().__init__(reason.value)
        self.reason = reason
        self.error = error


#: Actions whose execution means files or state may have changed, so tests must run again.
_CHANGING_TOOLS = (ToolName.APPLY_DIFF, ToolName.RUN)


class AgentLoop:
    """Runs one task to a stop."""

    def __init__(
        self,
        *,
        planner: Planner,
        executor: ActionExecutor,
        memory: MemoryStore,
        tests: TestRunner | None = None,
        context: ContextBuilder | None = None,
        observer: LoopObserver | None = None,
        start_details: Mapping[str, object] | None = None,
        project_map: str | None = None,
        stop: StopControl | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.planner = planner
        self.limits = limits or Limits()
        """Actions run per reply and observation text kept per iteration (`glmagent.limits`)."""
        self.executor = executor
        self.stop = stop or StopControl()
        """Lets a first Ctrl-C finish the running action (the memory store writes each record whole)."""
        self.memory = memory
        self.tests = tests
        self.context = context or ContextBuilder()
        self.observer = observer or SilentObserver()
        self.project_map = project_map
        """The project's files, shown in the first prompt of the run (real models guess paths otherwise)."""
        self.start_details = dict(start_details or {})
        """Extra facts for the `task_start` record (e.g. which OS sandbox contains the commands)."""

    def run(self, task: Task) -> TaskResult:
        """Plan, act and observe until a stop condition holds; the summary is written whatever happens."""
        started = time.monotonic()
        self.stop.reset()
        self._usage = TokenUsage()
        self._cost: float | None = 0.0
        self._priced = False
        self._iteration_usage = TokenUsage()
        self._iteration_cost: float | None = 0.0
        self._blocks: list[str] = []
        self._lines: list[str] = []
        # The store takes the task's lock first, so the numbering and memory read below are this run's own.
        self.memory.start_run(
            description=task.description,
            working_directory=str(task.working_directory),
            max_iterations=task.max_iterations,
            test_command=task.test_command,
            planner=getattr(self.planner, "name", type(self.planner).__name__),
            **({"resumed_from": task.resumes} if task.resumes else {}),
            **self.start_details,
        )
        self._number = self.memory.next_iteration_number()
        first = self._number
        self._last = first + task.max_iterations - 1  # the highest number this run may reach
        iterations = 0
        clean_iterations = 0  # iterations in which every action succeeded
        latest_tests: TestOutcome | None = None
        baseline_passed: bool | None = None
        reason, error = StopReason.MAX_ITERATIONS, None
        try:
            if self.tests is not None:
                latest_tests = self._run_tests("baseline")
                baseline_passed = latest_tests.passed
            last: LastIteration | None = None
            for _ in range(task.max_iterations):
                iterations += 1
                try:
                    output = self._plan(task, iterations, last, latest_tests)
                except _SkipIteration:
                    last = None
                    self._close_iteration()
                    continue
                if not output.actions:
                    self._lines.append(f"Planner returned no actions: {output.thought}")
                    self._close_iteration()
                    reason = StopReason.NO_ACTIONS
                    break
                observations = self._act(output.actions)
                clean_iterations += all(o.status == "ok" for o in observations)
                if self.tests is not None and _changed_something(output.actions, observations):
                    latest_tests = self._run_tests(f"after iteration {self._number}")
                last = LastIteration(number=self._number, observations=observations)
                self._close_iteration()
                if baseline_passed is False and latest_tests is not None and latest_tests.passed:
                    reason = StopReason.TESTS_PASSED
                    break
        except _Stop as stop:
            self.stop.finishing()
            reason, error = stop.reason, stop.error
            self._close_iteration()
        except KeyboardInterrupt as stop:
            self.stop.finishing()
            # A signal-specific subclass says what stopped the run (e.g. "stopped by SIGTERM").
            said = str(stop)
            reason, error = StopReason.INTERRUPTED, said or "interrupted by the user (Ctrl-C)"
            self._lines.append(f"Interrupted: {said}" if said else "Interrupted by the user")
            self._close_iteration()
        self.stop.finishing()
        success = _succeeded(reason, self.tests is not None, latest_tests, clean_iterations)
        if reason is StopReason.MAX_ITERATIONS and error is None:
            error = f"stopped at the iteration limit ({task.max_iterations}) before the task was done"
        elif reason is StopReason.NO_ACTIONS and not success and latest_tests and not latest_tests.passed:
            error = f"the planner stopped while the tests fail ({latest_tests.summary})"
        elif reason is StopReason.NO_ACTIONS and not success:
            error = (
                "the planner declared the task done, but no iteration ran actions that all succeeded, "
                "so nothing shows the task was done"
            )
        result = TaskResult(
            task_id=task.task_id,
            working_directory=task.working_directory,
            success=success,
            stop_reason=reason,
            iterations=iterations,
            first_iteration=first,
            summary="\n".join(self._blocks),
            error=error,
            duration_s=round(time.monotonic() - started, 3),
            usage=self._usage,
            cost_usd=self._cost if self._priced else None,
            tests_passed=latest_tests.passed if latest_tests is not None else None,
            memory_file=self.memory.summary_path,
            audit_file=self.memory.audit_path,
        )
        self.memory.finish_run(**result.model_dump(mode="json", exclude={"summary"}))
        return result

    def _plan(
        self, task: Task, iteration: int, last: LastIteration | None, tests: TestOutcome | None
    ) -> PlannerOutput:
        messages = self.context.build(
            task=task.description,
            test_command=task.test_command,
            memory_summary=self.memory.load_summary(),
            last=last,
            tests=tests,
            iteration=iteration,
            max_iterations=task.max_iterations,
            project_map=self.project_map if iteration == 1 else None,
        )
        shrunk = False
        first = ""  # why the first reply was invalid, once it was
        for attempt in (1, 2):
            while True:
                try:
                    reply = self._ask(messages, iteration, self._last, attempt)
                    break
                except ContextTooLongError as too_long:
                    if shrunk:
                        self._lines.append(f"Planner failed: {too_long}")
                        raise _Stop(StopReason.PLANNER_ERROR, str(too_long)) from None
                    # Once per iteration: the same request with the observations cut hard.
                    shrunk = True
                    self._lines.append("Prompt too long for the model's context; retried with a shorter one")
                    self.memory.record("context_shrunk", iteration=self._number, error=str(too_long))
                    messages = self.context.shrink(messages)
            if attempt == 2 and reply.finish_reason == NO_REPLY_LEFT:
                # Nothing answered the retry: the outcome is the invalid reply, not the stand-in's empty plan.
                self._lines.append(f"Planner output invalid, and no reply was left to retry with: {first}")
                raise _Stop(StopReason.INVALID_OUTPUT, f"planner output invalid: {first}")
            try:
                if reply.finish_reason == "length":
                    raise InvalidPlannerOutput(
                        f"the reply was cut off at the max_tokens limit ({reply_limit(self.planner)}) before "
                        "it was complete (finish_reason: length); send a much shorter reply: a one-line "
                        "thought, a short plan and fewer actions (the user can raise the limit with "
                        "--max-tokens)"
                    )
                output = parse_planner_output(reply.text)
            except InvalidPlannerOutput as invalid:
                self.memory.record(
                    "validation", iteration=self._number, attempt=attempt, valid=False, error=str(invalid)
                )
                if attempt == 2:
                    self._lines.append(f"Planner output invalid twice: {invalid}")
                    raise _Stop(
                        StopReason.INVALID_OUTPUT, f"planner output invalid twice: {invalid}"
                    ) from None
                self._lines.append(f"Planner output invalid, retried: {invalid}")
                first = str(invalid)
                messages = self.context.retry(messages, reply.text, first)
                continue
            self.memory.record("validation", iteration=self._number, attempt=attempt, valid=True)
            self.observer.planned(self._number, output, reply)
            return output
        raise AssertionError("unreachable")

    def _ask(self, messages: list[ChatMessage], iteration: int, limit: int, attempt: int) -> PlannerReply:
        self.observer.planning(self._number, limit, attempt)
        self.memory.record_request(self._number, attempt, [m.model_dump() for m in messages])
        try:
            reply = self.planner.plan(messages)
        except ContextTooLongError:
            raise
        except ContentFilteredError as filtered:
            self._lines.append(f"Planner reply blocked by the provider's content filter: {filtered}")
            self.memory.record("planner_filtered", iteration=self._number, error=str(filtered))
            raise _SkipIteration from None
        except PlannerError as failure:
            self._lines.append(f"Planner failed: {failure}")
            raise _Stop(StopReason.PLANNER_ERROR, str(failure)) from None
        if reply.usage is not None:
            self._usage = self._usage + reply.usage
            self._iteration_usage = self._iteration_usage + reply.usage
            self._iteration_cost = (
                None
                if reply.cost_usd is None or self._iteration_cost is None
                else self._iteration_cost + reply.cost_usd
            )
            if reply.cost_usd is None:
                self._cost = None  # one unknown price makes the total unknown, not smaller
            elif self._cost is not None:
                self._cost = round(self._cost + reply.cost_usd, 6)
            self._priced = self._priced or reply.cost_usd is not None
        # Everything the reply carries (usage, finish_reason, response_format, attempts, cost, ...).
        self.memory.record(
            "planner_reply", iteration=self._number, attempt=attempt, **reply.model_dump(mode="json")
        )
        return reply

    def _act(self, actions: Sequence[Action]) -> list[Observation]:
        observations: list[Observation] = []
        beyond = actions[self.limits.max_actions :]
        actions = actions[: self.limits.max_actions]
        budget = ObservationBudget(self.limits.observation_max_chars)
        self._act_within_limits(actions, observations, budget)
        if beyond:  # one observation, one record: a reply of 10,000 actions costs no more than one of 21
            refused = refused_actions(len(beyond), self.limits.max_actions, beyond[0].tool.value)
            observations.append(refused)
            self._lines.append(refused.summary)
            self.memory.record(
                "actions_refused", iteration=self._number, count=len(beyond), limit=self.limits.max_actions
            )
        return observations

    def _act_within_limits(
        self, actions: Sequence[Action], observations: list[Observation], budget: ObservationBudget
    ) -> None:
        for index, action in enumerate(actions):
            self.observer.action_started(self._number, action)
            with self.stop.action():
                observation = budget.fit(self.executor.execute(action))
            observations.append(observation)
            self._lines.append(observation.summary)
            self.memory.record_action(
                action.model_dump(mode="json", exclude_none=True),
                observation,
                iteration=self._number,
                index=index,
            )
            self.observer.action_done(self._number, action, observation)
            if self.stop.requested is not None:
                raise KeyboardInterrupt(self.stop.requested)
            if observation.status == "rejected":
                skipped = actions[index + 1 :]
                for offset, rest in enumerate(skipped, start=index + 1):
                    skip = Observation(
                        tool=rest.tool.value,
                        status="skipped",
                        summary=f"Skipped {rest.brief()}",
                        output="Not executed: an earlier action in this batch was rejected.",
                    )
                    observations.append(skip)
                    self.observer.action_done(self._number, rest, skip)
                    self.memory.record_action(
                        rest.model_dump(mode="json", exclude_none=True),
                        skip,
                        iteration=self._number,
                        index=offset,
                    )
                if skipped:
                    self._lines.append(f"Skipped {len(skipped)} remaining action(s) after the rejection")
                break

    def _run_tests(self, label: str) -> TestOutcome:
        assert self.tests is not None
        self.observer.tests_started(label)
        outcome = self.tests.run()
        self._lines.append(f"Baseline: {outcome.summary}" if label == "baseline" else outcome.summary)
        self.memory.record_tests(label, outcome.model_dump(mode="json"))
        self.observer.tests_done(label, outcome)
        return outcome

    def _close_iteration(self) -> None:
        """Write the current iteration's summary (once) and move to the next number."""
        if not self._lines:
            return
        spent = self._iteration_usage
        if spent.total_tokens:
            self._lines.append(f"Planner used {usage_line(spent, self._iteration_cost)}")
        self._iteration_usage, self._iteration_cost = TokenUsage(), 0.0
        block = self.memory.append_iteration(self._number, self._lines)
        self._blocks.append(block)
        self.observer.iteration_done(self._number, block)
        self._number += 1
        self._lines = []


def reply_limit(planner: Planner) -> str:
    """The planner's completion-token limit, as far as it says (`?` for planners without one)."""
    limit = getattr(planner, "max_tokens", None)
    return f"{limit:,}" if isinstance(limit, int) else "?"


def usage_line(usage: TokenUsage, cost_usd: float | None) -> str:
    """`1,234 tokens (1,000 in of which 500 cached, 234 out of which 100 reasoning, $0.0012)`; the cost only
    when every price was known."""
    prompt = f"{usage.prompt_tokens:,} in"
    if usage.cached_tokens:
        prompt += f" of which {usage.cached_tokens:,} cached"
    completion = f"{usage.completion_tokens:,} out"
    if usage.reasoning_tokens:
        completion += f" of which {usage.reasoning_tokens:,} reasoning"
    cost = f", ${cost_usd:.4f}" if cost_usd is not None else ""
    return f"{usage.total_tokens:,} tokens ({prompt}, {completion}{cost})"


def _changed_something(actions: Sequence[Action], observations: Sequence[Observation]) -> bool:
    return any(
        action.tool in _CHANGING_TOOLS and observation.executed
        for action, observation in zip(actions, observations, strict=False)
    )


def _succeeded(
    reason: StopReason, has_tests: bool, latest: TestOutcome | None, clean_iterations: int
) -> bool:
    """The honest success rule (documented on `StopReason` and in the README)."""
    if reason is StopReason.TESTS_PASSED:
        return True
    if reason is StopReason.NO_ACTIONS and clean_iterations:
        return not has_tests or (latest is not None and latest.passed)
    return False
