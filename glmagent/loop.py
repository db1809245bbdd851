"""`AgentLoop`: plan → act → observe, and the only place that decides whether to go on or stop.

The loop owns no I/O of its own: the planner, the executor, the test runner and the memory store are handed
in as objects that satisfy small Protocols, so each can be replaced by a real fake in tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from difflib import SequenceMatcher
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field

from glmagent.contract import (
    Action,
    InvalidPlannerOutput,
    PlannerOutput,
    ToolName,
    parse_planner_output,
    validate_planner_document,
)
from glmagent.edit_targets import EditTargetingPlanner, edit_targets
from glmagent.errors import ContentFilteredError, ContextTooLongError, PlannerError
from glmagent.fresh_start import STALLED_ITERATIONS, ExploringPlanner, FreshStarts
from glmagent.limits import Limits, ObservationBudget, refused_actions
from glmagent.observation import Observation
from glmagent.planners.base import NO_REPLY_LEFT, ChatMessage, Planner, PlannerReply, TokenUsage
from glmagent.planners.runaway import RUNAWAY, repeated_unit
from glmagent.prompt import ContextBuilder, LastIteration
from glmagent.stopping import StopControl
from glmagent.testing import (
    TestOutcome,
    failing_tests,
    fewer_tests_ran,
    passed_count,
    task_allows_test_changes,
)
from glmagent.testpaths import is_test_path
from glmagent.unclosed_string import closed_string_reading
from glmagent.undone_changes import UndoneChange, UndoneChanges


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
    test_edits: bool | None = None
    """May the model change test files? None: only when the description asks for test changes
    (`glmagent.testing.task_allows_test_changes`). When not, the tests judge the task as they were at its
    start: diffs to them are refused and changes made by commands are put back."""


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
    test_files: dict[str, str] = Field(default_factory=dict)
    """Every test file the model changed or tried to change, and what became of it: `changed` (the task
    asked for test changes), `edit refused`, `put back`, or `could not be put back` (then no success)."""
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


class FileFocus(Protocol):
    """The files the model works on, shown in full in each prompt, and which it has seen
    (`glmagent.focus.WorkingSet`)."""

    paths: list[str]

    def start_from(self, test_output: str) -> None: ...

    def add(self, path: str) -> None: ...

    def mark_seen(self, path: str) -> None: ...

    def has_seen(self, path: str) -> bool: ...

    def namesake(self, path: str, diff: str | None = None) -> str | None: ...

    def render(
        self, read_only: Callable[[str], bool] | None = None, failing: str | None = None
    ) -> list[tuple[str, str]]: ...

    def capture(self, path: str) -> bytes | None: ...

    def put_back(self, path: str, data: bytes | None) -> bool: ...


class TestFileGuard(Protocol):
    """The project's test files as they were at the start (`glmagent.testing.TestFiles`)."""

    def is_test(self, path: str) -> bool: ...

    def changed(self) -> list[str]: ...

    def restore(self, paths: list[str]) -> list[str]: ...


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
        focus: FileFocus | None = None,
        test_files: TestFileGuard | None = None,
        limits: Limits | None = None,
        fresh_start_after: int = STALLED_ITERATIONS,
        list_files: Callable[[], list[str]] | None = None,
    ) -> None:
        self.planner = planner
        self.list_files = list_files
        """The project's files now; with `test_files`, what an edit may name (`glmagent.edit_targets`)."""
        self.fresh_start_after = fresh_start_after
        """Iterations in a row without progress before the next prompt starts afresh (0: never)."""
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
        self.focus = focus
        """Files shown in full in every prompt; without it the model sees files only through read_file."""
        self.test_files = test_files
        """The test files as they were at the start; without it test edits are neither refused nor seen."""

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
        self._notes: list[str] = []
        self._failed_actions: dict[tuple[str, str, str, int], tuple[int, str, str]] = {}
        """Fingerprint -> (iteration, summary, the diff its refusal said to send instead or "")."""
        self._edits = 0  # changes made so far: a failed action may succeed once something changed
        self._test_report: dict[str, str] = {}
        self._undo: dict[str, bytes | None] = {}  # files this iteration's diffs changed, as they were before
        self._applied: list[tuple[int, str, bytes | None]] = []
        """This iteration's applied edits in order: (action number from 1, path, the file before it)."""
        self._undone = UndoneChanges()  # what undone changes made of their file: not to be made again
        self._ran_command = False
        self._fresh = FreshStarts(self.fresh_start_after)  # when the next prompt leaves the history out
        self._edit_paths: list[str] | None = None  # what apply_diff may name, as last given to the planner
        self._baseline_tests: TestOutcome | None = None
        self._tests_editable = (
            task.test_edits if task.test_edits is not None else task_allows_test_changes(task.description)
        )
        # The store takes the task's lock first, so the numbering and memory read below are this run's own.
        self.memory.start_run(
            description=task.description,
            working_directory=str(task.working_directory),
            max_iterations=task.max_iterations,
            test_command=task.test_command,
            test_files="editable" if self._tests_editable else "read-only",
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
                self._fresh.baseline(latest_tests)
                if self.focus is not None and not latest_tests.passed:
                    self.focus.start_from(latest_tests.output)
            last: LastIteration | None = None
            for _ in range(task.max_iterations):
                iterations += 1
                fresh: str | None = None  # the fresh start's summary of the iterations it leaves out
                if self._fresh.due(latest_tests):
                    latest_tests, fresh = self._start_afresh(first, latest_tests)
                    last = None
                self._limit_edit_paths(latest_tests)
                try:
                    output = self._plan(task, iterations, last, latest_tests, fresh=fresh)
                except _SkipIteration:
                    last = None
                    self._close_iteration()
                    continue
                if not output.actions:
                    self._lines.append(f"Planner returned no actions: {output.thought}")
                    self._close_iteration()
                    reason = StopReason.NO_ACTIONS
                    break
                self._undo, self._ran_command, self._applied = {}, False, []
                observations = self._act(output.actions)
                clean_iterations += all(o.status == "ok" for o in observations)
                tested: TestOutcome | None = None
                if self.tests is not None and _changed_something(output.actions, observations):
                    before = latest_tests
                    latest_tests = tested = self._run_tests(f"after iteration {self._number}")
                    if not latest_tests.passed:
                        latest_tests = tested = self._leave_out_an_edit(latest_tests)
                    if self._made_worse(before, latest_tests):
                        assert before is not None
                        latest_tests = self._undo_iteration(before, latest_tests)
                        tested = None  # undone: the files are as they were, no closer to passing
                    else:
                        self._note_regressions(before, latest_tests)
                self._fresh.changed(self._undo, self._ran_command)
                self._fresh.observe(self._number, tested)
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
        unguarded = self._settle_test_files()
        if unguarded and success:
            success = False
            error = (
                f"test files changed and could not be put back ({', '.join(unguarded)}), so passing tests do "
                "not show the task was done"
            )
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
            test_files=self._test_report,
            memory_file=self.memory.summary_path,
            audit_file=self.memory.audit_path,
        )
        self.memory.finish_run(**result.model_dump(mode="json", exclude={"summary"}))
        return result

    def _start_afresh(self, first: int, tests: TestOutcome | None) -> tuple[TestOutcome | None, str]:
        """Record and announce a fresh start (`glmagent.fresh_start`): put the files the stalled iterations
        changed back as they were at the best test run, and ask the planner to sample anew. Returns the test
        outcome that holds for the files as they now are, and the prompt's summary of the earlier
        iterations."""
        stalled = self._fresh.stalled
        self._fresh.started()
        self._notes = []  # they are about the history the fresh prompt leaves out
        if isinstance(self.planner, ExploringPlanner):
            self.planner.explore()
        restored: list[str] = []
        where = ""
        focus = self.focus
        if focus is not None:
            # Refused edits name their file too: only files that hold something else now are written.
            back = {p: data for p, data in self._fresh.to_put_back().items() if focus.capture(p) != data}
            restored = [path for path, data in back.items() if focus.put_back(path, data)]
            if len(restored) == len(back):
                self._fresh.put_back()
                if restored and self._fresh.best is not None:
                    self._edits += 1  # a refused action may succeed on the files as they are again
                    tests = self._fresh.best
                    number = self._fresh.best_iteration
                    where = "at the start" if number is None else f"after iteration {number}"
        self._lines.append(
            f"Started afresh: {stalled} iterations in a row brought the tests no closer to passing, so this "
            "prompt leaves their results out"
            + (f"; {', '.join(restored)} put back as {where}" if where else "")
        )
        self.memory.record("fresh_start", iteration=self._number, stalled=stalled, put_back=restored)
        back_note = f" The files they changed are as they were {where} again." if where else ""
        summary = (
            f"Iterations {first}-{self._number - 1} did not make the tests pass; this one starts afresh."
            f"{back_note} The latest test run and the files as they are now are below: read them anew and "
            "make the fix."
        )
        return tests, summary

    def _limit_edit_paths(self, tests: TestOutcome | None) -> None:
        """While protected tests fail, hold the planner's `apply_diff` paths to the project's other files
        (`glmagent.edit_targets`), where it can; recorded whenever the list changes."""
        if not isinstance(self.planner, EditTargetingPlanner):
            return
        paths = None
        guard, listing = self.test_files, self.list_files
        if guard is not None and listing is not None and tests is not None and not self._tests_editable:
            paths = edit_targets(listing, guard.is_test, None if tests.passed else tests.output)
        if paths != self._edit_paths:
            self.memory.record("edit_paths", iteration=self._number, paths=paths)
            self._edit_paths = paths
        self.planner.limit_edit_paths(paths)

    def _plan(
        self,
        task: Task,
        iteration: int,
        last: LastIteration | None,
        tests: TestOutcome | None,
        *,
        fresh: str | None = None,
    ) -> PlannerOutput:
        """`fresh`: a fresh start's summary of the earlier iterations, shown instead of the memory's."""
        notes, self._notes = self._notes, []
        messages = self.context.build(
            task=task.description,
            test_command=task.test_command,
            memory_summary=fresh or self.memory.load_summary(),
            last=last,
            tests=tests,
            iteration=iteration,
            max_iterations=task.max_iterations,
            project_map=self.project_map if iteration == 1 or fresh is not None else None,
            files=self._files(tests),
            notes=notes,
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
                output = self._read(reply, attempt)
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

    def _read(self, reply: PlannerReply, attempt: int) -> PlannerOutput:
        """The reply's plan, or `InvalidPlannerOutput` saying what to fix. A reply stopped as a loop or at
        `max_tokens` is invalid, unless it left its last string open right before the object's closing
        brackets and reads, so closed, as a valid reply (`_rescued`)."""
        if reply.finish_reason in (RUNAWAY, "length"):
            rescued = self._rescued(reply, attempt)
            if rescued is not None:
                return rescued
        if reply.finish_reason == "length":
            raise InvalidPlannerOutput(
                f"the reply was cut off at the max_tokens limit ({reply_limit(self.planner)}) before "
                "it was complete (finish_reason: length); send a much shorter reply: a one-line "
                "thought, a short plan and fewer actions (the user can raise the limit with "
                "--max-tokens)"
            )
        if reply.finish_reason == RUNAWAY:
            raise InvalidPlannerOutput(
                "the reply was stopped because it kept repeating the same text "
                f"({_quoted_unit(reply.text)}); send a short reply that writes each line once"
            )
        return parse_planner_output(reply.text)

    def _rescued(self, reply: PlannerReply, attempt: int) -> PlannerOutput | None:
        """The reply a runaway or cut-off one meant, when it left its last string open right before the
        object's closing brackets (`glmagent.unclosed_string`) and that reading is a valid reply."""
        document = closed_string_reading(reply.text)
        if document is None:
            return None
        try:
            output = validate_planner_document(document)
        except InvalidPlannerOutput:
            return None
        self._lines.append(
            "Planner reply ran on after an unclosed string: read as closed before its brackets"
        )
        self.memory.record("reply_rescued", iteration=self._number, attempt=attempt, how="unclosed_string")
        return output

    def _ask(self, messages: list[ChatMessage], iteration: int, limit: int, attempt: int) -> PlannerReply:
        self.observer.planning(self._number, limit, attempt)
        # The prompt as composed, schema included: the reply's `response_format` says whether the schema
        # went to the server as the format to enforce instead.
        self.memory.record_request(
            self._number, attempt, [{"role": m.role, "content": m.text()} for m in messages]
        )
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
        done: list[Action] = []
        self._act_within_limits(actions, observations, budget, done)
        for action, observation in zip(done, observations, strict=False):
            if self.focus is not None and action.path and action.tool is ToolName.APPLY_DIFF:
                self.focus.add(action.path)
            read = action.tool is ToolName.READ_FILE and observation.status == "ok"
            if self.focus is not None and action.path and read:
                self.focus.add(action.path)
                self.focus.mark_seen(action.path)
        if beyond:  # one observation, one record: a reply of 10,000 actions costs no more than one of 21
            refused = refused_actions(len(beyond), self.limits.max_actions, beyond[0].tool.value)
            observations.append(refused)
            self._lines.append(refused.summary)
            self.memory.record(
                "actions_refused", iteration=self._number, count=len(beyond), limit=self.limits.max_actions
            )
        return observations

    def _act_within_limits(
        self,
        actions: Sequence[Action],
        observations: list[Observation],
        budget: ObservationBudget,
        done: list[Action],
    ) -> None:
        """Run `actions` in order, appending each one's observation and the action as run (its path
        corrected, see `_retarget`) to `done`; a rejection skips the rest."""
        for index, given in enumerate(actions):
            self.observer.action_started(self._number, given)
            action, moved = self._retarget(given)
            observation = self._refusal(action)
            if observation is None:
                unseen = (
                    action.tool is ToolName.APPLY_DIFF
                    and action.path is not None
                    and self.focus is not None
                    and not self.focus.has_seen(action.path)
                )
                prior: bytes | None = None
                if action.tool is ToolName.APPLY_DIFF and action.path and self.focus is not None:
                    prior = self.focus.capture(action.path)
                    self._undo.setdefault(action.path, prior)
                with self.stop.action():
                    observation = budget.fit(self.executor.execute(action))
                observation = self._not_undone_again(action, observation, prior)
                observation = self._after(action, observation, unseen=unseen)
                if action.tool is ToolName.APPLY_DIFF and action.path and observation.status == "ok":
                    self._applied.append((index + 1, action.path, prior))
            if moved:
                observation = observation.model_copy(
                    update={
                        "summary": f"{observation.summary} (there is no {given.path}: used {action.path})",
                        "output": f"{moved}\n{observation.output}",
                        "details": {**observation.details, "path_given": given.path},
                    }
                )
            observations.append(observation)
            done.append(action)
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
                    done.append(rest)
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

    def _retarget(self, action: Action) -> tuple[Action, str | None]:
        """`action` with a path that names no file replaced by the one project file it evidently means
        (same name, only one), and what to tell the model; every check below sees the corrected path."""
        moves = (ToolName.READ_FILE, ToolName.APPLY_DIFF)
        if self.focus is None or not action.path or action.tool not in moves:
            return action, None
        diff = action.change_text() if action.tool is ToolName.APPLY_DIFF else None
        meant = self.focus.namesake(action.path, diff)
        if meant is None:
            return action, None
        note = (
            f"There is no {action.path}; the project's only file of that name is {meant}, so {meant} was "
            f"used. Write {meant} from now on."
        )
        return action.model_copy(update={"path": meant}), note

    def _refusal(self, action: Action) -> Observation | None:
        """Why the loop does not run `action` at all, as its observation; None when it may run.

        Two things are refused here, before the executor sees them: an action that failed before and would
        fail the same way (nothing changed since), and a diff to a test file the task does not ask to
        change. A diff to a file the model has not been shown is not refused: its lines must match the file
        like any diff's (so it cannot make a wrong edit), and when they do not, the refusal says the file
        was unseen and the next prompt shows it."""
        earlier = self._failed_actions.get(self._fingerprint(action))
        if earlier is not None:
            number, summary, suggested = earlier
            if action.tool is not ToolName.APPLY_DIFF:
                advice = "change it, or do something else."
            elif action.path and self._read_only(action.path):
                advice = f"the tests may not change; change the code they test instead{self._code_files()}."
            elif suggested:
                # Its SEARCH and REPLACE were swapped; a small model repeats it unless shown the fixed form.
                advice = f"its search and replace parts are the wrong way round. Send this:\n{suggested}"
            else:
                advice = (
                    "copy its search lines (a diff's ' ' and '-' lines) from the file's current content "
                    "under # Files."
                )
            return self._refused(
                action,
                "repeated",
                f"Not run: the same action as in iteration {number}, which failed ({summary}), and nothing "
                f"has changed since, so it would fail the same way. Do not send it again: {advice}",
            )
        if action.tool is not ToolName.APPLY_DIFF or not action.path:
            return None
        if self._read_only(action.path):
            self._test_report[action.path] = "edit refused"
            refused = (self._number, "a test file: not to be changed", "")
            self._failed_actions[self._fingerprint(action)] = refused
            return self._refused(
                action,
                "test_file",
                f"Not applied: {action.path} is a test file, and the task does not ask to change tests: the "
                "tests decide whether the task is done, as they were at its start. Change the code they "
                f"test instead{self._code_files()}.",
            )
        return None

    def _files(self, tests: TestOutcome | None) -> list[tuple[str, str]]:
        """The working set's files for the prompt; a failing run's report names what of them it uses."""
        if self.focus is None:
            return []
        failing = tests.output if tests is not None and not tests.passed else None
        return self.focus.render(self._read_only, failing)

    def _code_files(self) -> str:
        """` (a.py, b.py, under # Files)`: the code files the prompt shows, or nothing."""
        code = [p for p in (self.focus.paths if self.focus else []) if not self._read_only(p)]
        return f" ({', '.join(code)}, under # Files)" if code else ""

    def _read_only(self, path: str) -> bool:
        """Whether the model may not change `path`: a test file of a task that does not ask for that."""
        return self.test_files is not None and not self._tests_editable and self.test_files.is_test(path)

    def _refused(self, action: Action, reason: str, text: str) -> Observation:
        label = action.brief()
        return Observation(
            tool=action.tool.value,
            status="failed",
            summary=f"Not run: {label} ({reason.replace('_', ' ')})",
            output=text,
            details={
                "refused_by": "loop",
                "reason": reason,
                **({"path": action.path} if action.path else {}),
            },
        )

    def _fingerprint(self, action: Action) -> tuple[str, str, str, int]:
        text = action.change_text() if action.tool is ToolName.APPLY_DIFF else action.command
        return action.tool.value, action.path or "", (text or "").strip(), self._edits

    def _not_undone_again(self, action: Action, observation: Observation, prior: bytes | None) -> Observation:
        """An applied edit that made its file exactly what an undone change made of it is put back (the
        file holds `prior` again) and refused with what that change broke (`glmagent.undone_changes`)."""
        path = action.path
        if (
            observation.status != "ok"
            or action.tool is not ToolName.APPLY_DIFF
            or not path
            or self.focus is None
            or not self._undone.watches(path)
        ):
            return observation
        earlier = self._undone.produced(path, self.focus.capture(path))
        if earlier is None or not self.focus.put_back(path, prior):
            return observation
        return self._refused(
            action,
            "undone_before",
            f"Not kept: this change makes {path} exactly what your changes in iteration {earlier.iteration} "
            f"made of it, and those were undone because {earlier.why}. {path} is as it was before this "
            "change. The fix is a different change: look again at what the failing tests expect.",
        )

    def _explore(self) -> None:
        """An edit that changes nothing (the file as it is sent back, replace lines equal to search lines,
        a change the file holds already) is the model with no change left to offer, like an edit sent
        again (`glmagent.planners.stuck`): at temperature 0 the next request would bring the same, so the
        planner samples the next ones warm. In the live bench such an edit was followed, cold, by another
        one in dates_inclusive and chunks_last."""
        if isinstance(self.planner, ExploringPlanner):
            self.planner.explore()

    def _after(self, action: Action, observation: Observation, *, unseen: bool) -> Observation:
        """Remember what an executed action means for the next ones: a failure not to repeat, a change
        that lets failed actions be tried again, test files a command changed (put back unless allowed).
        Returns the observation, told that the file was unseen when a diff written blind failed."""
        details = observation.details
        if (
            action.tool is ToolName.APPLY_DIFF
            and observation.status == "ok"
            and details.get("added") == 0
            and details.get("removed") == 0
        ):
            # Worded as a mistake to correct: "the diff changed nothing" was read by small models as
            # "nothing needs changing", and they gave up with the tests still failing.
            if action.content is not None:
                summary = f"Content for {action.path} not applied: it is the file as it is"
                output = (
                    "The content was not applied: it is identical to the file, so the file is unchanged and "
                    "the fix is still to be made. Send the content again with the lines that must change "
                    "changed."
                )
            elif action.edits is not None:
                summary = f"Edit of {action.path} not applied: its replace lines equal its search lines"
                output = (
                    "The edit was not applied: its replace lines are identical to its search lines, so the "
                    "file is unchanged and the fix is still to be made. Send the edit again with `replace` "
                    "holding the lines as they must read after the fix."
                )
            else:
                summary = f"Diff for {action.path} not applied: its REPLACE part equals its SEARCH part"
                output = (
                    "The diff was not applied: its REPLACE part is identical to its SEARCH part (or the hunk "
                    "has only unchanged lines), so the file is unchanged and the fix is still to be made. "
                    "Send the diff again with REPLACE holding the lines as they must read after the fix."
                )
            observation = observation.model_copy(
                update={"status": "failed", "summary": summary, "output": output}
            )
            self._explore()
        elif action.tool is ToolName.APPLY_DIFF and details.get("reason") == "already_applied":
            self._explore()
        if observation.status in ("failed", "rejected"):
            suggested = str((observation.details or {}).get("suggested_diff", ""))
            self._failed_actions[self._fingerprint(action)] = (self._number, observation.summary, suggested)
        if unseen and observation.status == "failed":
            observation = observation.model_copy(
                update={
                    "output": observation.output
                    + f"\nYou had not seen {action.path} when you wrote this diff: its current content is "
                    "shown under # Files now. Copy the search lines (a diff's ' ' and '-' lines) from there.",
                    "details": {**observation.details, "unseen_file": True},
                }
            )
        changed = observation.status == "ok" and action.tool is ToolName.APPLY_DIFF
        if action.tool is ToolName.RUN and observation.executed:
            # The test command runs after every iteration anyway: the model running it too changes nothing
            # an undo must account for. (In the live bench that hid five changes that made the tests worse.)
            self._ran_command = self._ran_command or not self._is_test_command(action.command)
            changed = observation.status == "ok"
            self._guard_tests(action)
        if changed:
            self._edits += 1
        return observation

    def _is_test_command(self, command: str | None) -> bool:
        """Whether `command` is the task's test command (spacing aside)."""
        tests = self._baseline_tests
        return tests is not None and command is not None and command.split() == tests.command.split()

    def _guard_tests(self, action: Action) -> None:
        """Put back test files a command changed, unless the task asks for test changes."""
        if self.test_files is None or self._tests_editable:
            return
        changed = self.test_files.changed()
        if not changed:
            return
        stuck = self.test_files.restore(changed)
        for path in changed:
            self._test_report[path] = "could not be put back" if path in stuck else "put back"
        put_back = [p for p in changed if p not in stuck]
        command = action.brief()
        if put_back:
            names = ", ".join(put_back)
            self._lines.append(f"Put back test file(s) changed by {command}: {names}")
            self._notes.append(
                f"{command} changed the test file(s) {names}. The task does not ask to change tests, so "
                "they were put back as they were: change the code they test instead."
            )
        if stuck:
            self._lines.append(f"Could not put back test file(s) changed by {command}: {', '.join(stuck)}")
        self.memory.record(
            "test_files", iteration=self._number, changed=changed, put_back=put_back, not_put_back=stuck
        )

    def _settle_test_files(self) -> list[str]:
        """At the end: name the test files the model changed (when it may) and return those it changed
        although it may not, and that could not be put back."""
        if self.test_files is None:
            return []
        try:
            changed = self.test_files.changed()
        except OSError:
            changed = []
        if self._tests_editable:
            for path in changed:
                self._test_report[path] = "changed"
        if self._test_report:
            self.memory.record("test_files", iteration=None, final=dict(self._test_report))
        return [
            p for p, what in self._test_report.items() if what == "could not be put back" and p in changed
        ]

    def _made_worse(self, before: TestOutcome | None, now: TestOutcome) -> bool:
        """Whether this iteration's diffs (and nothing else: no command ran) left the tests worse than
        before: fewer passing (a syntax error fails a whole file at collection), or more failing with tests
        that passed then among them. Only when the runs say so in pytest's terms."""
        if before is None or before.passed or now.passed or self._ran_command or not self._undo:
            return False
        passed_before, passed_now = passed_count(before.output), passed_count(now.output)
        if passed_before is not None and passed_now is not None and passed_now < passed_before:
            return True
        earlier, failing = set(failing_tests(before.output)), set(failing_tests(now.output))
        return bool(earlier) and len(failing) > len(earlier) and bool(failing - earlier)

    def _leave_out_an_edit(self, now: TestOutcome) -> TestOutcome:
        """When this iteration applied several edits and the tests fail, try the files without one of them:
        the last edit of each file, latest first, up to `LEAVE_OUT_TRIALS` test runs. The first that makes
        the tests pass is left out (said to the model and recorded as `left_out`); otherwise every file is
        as the edits made it. In the live bench a reply fixed `letter_grade` and, in a second edit, broke
        `report`: no later reply took the second edit back. Only an edit whose absence makes the tests pass
        is left out, so nothing the tests do not judge is dropped, and never an edit of a test file (where
        the task lets the model change tests, a new failing test is what it asked for); a run command in
        the iteration (which may have changed files itself) rules it out."""
        if len(self._applied) < 2 or self._ran_command or self.focus is None:
            return now
        last_edits: dict[str, tuple[int, bytes | None]] = {}
        for number, path, prior in self._applied:
            if not is_test_path(path):  # a test the model was asked to write is never dropped to pass
                last_edits[path] = (number, prior)
        trials = sorted(last_edits.items(), key=lambda item: -item[1][0])[:LEAVE_OUT_TRIALS]
        for path, (number, prior) in trials:
            made = self.focus.capture(path)
            if not self.focus.put_back(path, prior):
                continue
            tried = self._run_tests(f"after iteration {self._number}{TRIAL_MARK}{number}", trial=True)
            if tried.passed:
                self._edits += 1
                self._lines.append(
                    f"Left out action {number} (an edit of {path}): with it the tests failed "
                    f"({now.summary}), without it they pass"
                )
                self.memory.record("left_out", iteration=self._number, action=number, path=path)
                return tried
            if not self.focus.put_back(path, made):
                return tried  # the file could not be made what the edits made of it: this is what holds
        return now

    def _undo_iteration(self, before: TestOutcome, now: TestOutcome) -> TestOutcome:
        """Put the files this iteration's diffs changed back as they were, and say why: a small model that
        builds on a change that broke more than it fixed only makes things worse. Returns the test outcome
        that holds again (the files are as they were when it was measured)."""
        assert self.focus is not None
        # What a one-file change made of its file, remembered below (with several, the culprit is unknown).
        made = {path: self.focus.capture(path) for path in self._undo} if len(self._undo) == 1 else {}
        failed = [path for path, data in self._undo.items() if not self.focus.put_back(path, data)]
        if failed:  # could not undo all of it: keep what is there, and only say what broke
            self._note_regressions(before, now)
            return now
        self._edits += 1
        paths = ", ".join(self._undo)
        broken = [t for t in failing_tests(now.output) if t not in set(failing_tests(before.output))]
        if len(made) == 1:
            [(path, content)] = made.items()
            why = f"they broke {', '.join(broken[:5])}" if broken else f"the tests were worse ({now.summary})"
            self._undone.remember(path, content, UndoneChange(self._number, why))
        self._lines.append(f"Undid the changes to {paths}: the tests were worse after them ({now.summary})")
        self._notes.append(
            f"Your changes in iteration {self._number} to {paths} left the tests worse than before "
            f"({now.summary}; before: {before.summary})"
            + (f", breaking {', '.join(broken[:5])}" if broken else "")
            + ", so they were undone: the files are as they were before them. Try a different change; if it "
            "needs several edits, make them all in one reply."
        )
        self.memory.record("undone", iteration=self._number, paths=list(self._undo), broke=broken)
        return before

    def _note_regressions(self, before: TestOutcome | None, now: TestOutcome) -> None:
        """Tell the model which tests its last changes broke: small models rarely see that a fix of one
        test failed another, and keep building on the broken change."""
        if before is None or now.passed:
            return
        earlier = set(failing_tests(before.output))
        broken = [t for t in failing_tests(now.output) if t not in earlier]
        if broken and (earlier or before.passed):
            note = (
                f"Your changes in iteration {self._number} made tests fail that passed before: "
                f"{', '.join(broken[:5])}. Fix that part of the change (or undo it) as well."
            )
            removed = self._removed_lines()
            if removed:
                # Small models replace the lines they meant to insert after (a guard, a check) and never
                # see what went: quoting them is what lets such a model put them back.
                note += " Your diffs took out these lines, which those tests may need:\n" + "\n".join(removed)
            self._notes.append(note)

    def _removed_lines(self) -> list[str]:
        """The lines this iteration's diffs took out of the files (by file, at most `_REMOVED_SHOWN`)."""
        assert self.focus is not None
        shown: list[str] = []
        for path, old in self._undo.items():
            for line in lines_taken_out(old, self.focus.capture(path)):
                if len(shown) == _REMOVED_SHOWN:
                    return shown
                shown.append(f"    {path}: {line[:_REMOVED_WIDTH]}")
        return shown

    def _run_tests(self, label: str, *, trial: bool = False) -> TestOutcome:
        """Run the test command, record and show it; a `trial` run (files in a state tried, not kept) adds
        no line to the iteration's summary."""
        assert self.tests is not None
        self.observer.tests_started(label)
        outcome = self.tests.run()
        if label == "baseline":
            self._baseline_tests = outcome
        elif self._baseline_tests is not None and not self._tests_editable:
            judged = fewer_tests_ran(self._baseline_tests, outcome)
            if judged is not outcome:
                self._notes.append(
                    f"The tests passed only because fewer ran than at the start: {judged.summary}. Skipping "
                    "or deselecting tests (configuration, markers, collection hooks) is not a fix: make the "
                    "code pass all of them."
                )
            outcome = judged
        if not trial:
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


_REMOVED_SHOWN = 8
_REMOVED_WIDTH = 160


def lines_taken_out(before: bytes | None, after: bytes | None) -> list[str]:
    """Non-blank lines of `before` that a change removed and that `after` no longer holds anywhere (a line
    moved or re-indented is not taken out)."""
    old = (before or b"").decode("utf-8", "replace").splitlines()
    new = (after or b"").decode("utf-8", "replace").splitlines()
    kept = {line.strip() for line in new}
    out: list[str] = []
    for tag, i1, i2, _, _ in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("delete", "replace"):
            out += [line for line in old[i1:i2] if line.strip() and line.strip() not in kept]
    return out


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


LEAVE_OUT_TRIALS = 3
"""Test runs the loop spends at most, after an iteration of several edits, on files without one of them."""


TRIAL_MARK = " without action "
"""In a test run's label: the files were tried without that action's edit (see `is_trial_run`)."""


def is_trial_run(label: str) -> bool:
    """Whether a test run's label names a trial of the files without one edit: unless it passed (and that
    state was kept), the files are as the edits made them again and the run before it still holds."""
    return TRIAL_MARK in label


def _changed_something(actions: Sequence[Action], observations: Sequence[Observation]) -> bool:
    return any(
        action.tool in _CHANGING_TOOLS and observation.executed and "refused_by" not in observation.details
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


def _quoted_unit(text: str) -> str:
    """The text a runaway reply kept repeating, quoted and cut short for the model."""
    unit = repeated_unit(text) or text[-60:]
    return repr(unit[:60]) + (" ..." if len(unit) > 60 else "")
