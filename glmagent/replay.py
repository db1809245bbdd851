"""Replay a recorded run: its stored planner replies, fed through the real loop, policy and tools again.

The replay starts from the files the run started from: a fresh clone of the git commit recorded in
`task_start` (when the tree was clean), or a directory the caller names (`--in DIR`). It never touches the
project itself. What is compared, in order: each reply's verdict (valid or not), each action's tool, status,
one-line summary and policy rule, each test run's verdict and summary, and at the end the stop reason,
success, iteration count and whether the tests passed. Durations, token counts and timestamps are not
compared: they differ on every run.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from glmagent.agent import CodingAgent
from glmagent.audit import Run, find_run, load_runs, require_log, software_facts
from glmagent.config import Settings
from glmagent.errors import ConfigError
from glmagent.loop import LoopObserver, TaskResult
from glmagent.planners.scripted import ScriptedPlanner
from glmagent.tools import git

#: Task id suffix of the replay's own records (in the directory the replay runs in).
REPLAY_SUFFIX = ".replay"


@dataclass(frozen=True)
class Difference:
    """Where the replay went another way than the record."""

    step: str
    recorded: str
    replayed: str


@dataclass
class ReplayReport:
    task_id: str
    run_id: str
    directory: Path
    """Where the replay ran."""
    result: TaskResult
    scratch: bool = False
    """True when glmagent made `directory` (a clone of the recorded commit) and removed it afterwards."""
    differences: list[Difference] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    compared: int = 0
    """Steps compared (reply verdicts, actions, test runs, the outcome)."""

    @property
    def reproduced(self) -> bool:
        return not self.differences

    def to_json(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id,
            "run": self.run_id,
            "directory": str(self.directory),
            "scratch": self.scratch,
            "reproduced": self.reproduced,
            "compared": self.compared,
            "differences": [d.__dict__ for d in self.differences],
            "notes": self.notes,
            "result": self.result.model_dump(mode="json"),
        }


def replay_run(
    workdir: Path,
    task_id: str,
    *,
    run_id: str | None = None,
    into: Path | None = None,
    shell: str | None = None,
    sandbox: str | None = None,
    observer: LoopObserver | None = None,
) -> ReplayReport:
    """Re-run one recorded run (default: the latest) and compare it with its record."""
    workdir = workdir.expanduser().resolve()
    log = require_log(workdir, task_id)
    recorded = find_run(log, run_id)
    if recorded.mode != "task":
        raise ConfigError(
            f"run {recorded.run_id} records `glmagent act`, which has no planner replies to replay"
        )
    replies = recorded.replies()
    if not replies:
        raise ConfigError(f"run {recorded.run_id} of {task_id} has no stored planner replies to replay")
    start = recorded.start
    notes = _policy_notes(start)
    with _starting_directory(workdir, start, into) as directory:
        settings = Settings(
            provider="replay",
            shell=shell or start.get("shell") or "auto",  # type: ignore[arg-type]
            sandbox=sandbox or "auto",  # type: ignore[arg-type]
            allow_network=bool(start.get("allow_network")),
            command_timeout=float(start.get("command_timeout") or 300.0),
            test_timeout=float(start.get("test_timeout") or 900.0),
            policy_files=_recorded_policy_files(start),
        )
        agent = CodingAgent(
            planner=ScriptedPlanner(replies, name="replay"), settings=settings, observer=observer
        )
        task = CodingAgent.create_task(
            description=recorded.description,
            working_directory=directory,
            max_iterations=int(start.get("max_iterations") or 5),
            test_command=start.get("test_command"),
            task_id=task_id[: 80 - len(REPLAY_SUFFIX)] + REPLAY_SUFFIX,
        )
        result = agent.run(task, details={"replay_of": {"task_id": task_id, "run": recorded.run_id}})
        replayed = load_runs(Path(result.audit_file or ""))[-1]
        report = ReplayReport(task_id, recorded.run_id, directory, result, scratch=into is None, notes=notes)
        _compare(recorded, replayed, report)
    return report


@contextmanager
def _starting_directory(workdir: Path, start: dict[str, Any], into: Path | None) -> Iterator[Path]:
    if into is not None:
        target = into.expanduser().resolve()
        if not target.is_dir():
            raise ConfigError(f"--in {target}: not a directory")
        if target == workdir:
            raise ConfigError(
                "--in names the project itself; a replay changes the files it runs in, so give it a copy "
                "of the "
                "project as it was when the run started"
            )
        yield target
        return
    state = start.get("start_state") if isinstance(start.get("start_state"), dict) else {}
    head = state.get("git_head")
    if not head or not state.get("git_clean"):
        why = "outside a git repository" if not head else "with uncommitted changes"
        raise ConfigError(
            f"the run started {why}, so its starting files cannot be rebuilt; pass --in DIR with a copy of "
            "the "
            "project as it was when the run started"
        )
    top = git.run_git(workdir, "rev-parse", "--show-toplevel")
    if top.exit_code != 0:
        raise ConfigError(f"cannot find the git repository of {workdir}: {top.stderr.strip()}; pass --in DIR")
    scratch = Path(tempfile.mkdtemp(prefix="glmagent-replay-"))
    clone = scratch / "project"
    try:
        _clone_at(Path(top.stdout.strip()), clone, str(head))
        yield clone / str(state.get("git_prefix") or "")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _clone_at(repository: Path, target: Path, commit: str) -> None:
    """A detached checkout of `commit` from the local `repository` (hooks and the user's config kept out)."""
    safe = ("-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "advice.detachedHead=false")
    for args, cwd in (
        (["clone", "--quiet", "--no-checkout", "--no-hardlinks", str(repository), str(target)], None),
        (["checkout", "--quiet", "--detach", commit], target),
    ):
        done = subprocess.run(
            ["git", *safe, *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        if done.returncode != 0:
            raise ConfigError(
                f"cannot rebuild the starting files from commit {commit[:12]}: {done.stderr.strip()}; "
                "pass --in DIR with a copy of the project as it was"
            )


def _recorded_policy_files(start: dict[str, Any]) -> list[Path]:
    """The run's extra rule files (the built-in policy is always loaded) that still exist."""
    files = [entry for entry in start.get("policy_files") or [] if isinstance(entry, dict)][1:]
    return [Path(str(entry["path"])) for entry in files if Path(str(entry.get("path"))).is_file()]


def _policy_notes(start: dict[str, Any]) -> list[str]:
    recorded = [entry for entry in start.get("policy_files") or [] if isinstance(entry, dict)]
    now = software_facts(Path(str(entry.get("path"))) for entry in recorded)
    notes = []
    for old, new in zip(recorded, now["policy_files"], strict=True):
        if new["sha256"] is None:
            notes.append(f"policy file {old.get('path')} no longer exists: replayed without it")
        elif new["sha256"] != old.get("sha256"):
            notes.append(f"policy file {old.get('path')} changed since the run: decisions may differ")
    if start.get("planner_schema_sha256") and start["planner_schema_sha256"] != now["planner_schema_sha256"]:
        notes.append("the planner schema changed since the run: reply verdicts may differ")
    if start.get("glmagent_version") and start["glmagent_version"] != now["glmagent_version"]:
        notes.append(
            f"recorded with glmagent {start['glmagent_version']}, replayed with {now['glmagent_version']}"
        )
    return notes


def _steps(run: Run) -> list[tuple[str, str]]:
    """(where, what) for every compared step of a run, iterations counted from the run's first."""
    first: int | None = None
    iteration = 0
    steps: list[tuple[str, str]] = []
    for record in run.records:
        event = record.get("event")
        if isinstance(record.get("iteration"), int):
            first = record["iteration"] if first is None else first
            iteration = record["iteration"] - first + 1
        if event == "validation":
            verdict = "valid" if record.get("valid") else f"invalid: {record.get('error')}"
            steps.append((f"iteration {iteration}, reply {record.get('attempt')}", verdict))
        elif event == "action":
            action = record.get("action") or {}
            details = record.get("details") or {}
            rule = (
                (details.get("policy") or {}).get("rule_id")
                if isinstance(details.get("policy"), dict)
                else None
            )
            what = f"[{record.get('status')}] {record.get('summary')}" + (f" (rule {rule})" if rule else "")
            steps.append(
                (
                    f"iteration {iteration}, action {int(record.get('index', 0)) + 1} ({action.get('tool')})",
                    what,
                )
            )
        elif event == "tests":
            label = "baseline" if record.get("label") == "baseline" else f"after iteration {iteration}"
            verdict = "passed" if record.get("passed") else "failed"
            steps.append((f"tests {label}", f"{verdict}: {record.get('summary')}"))
    end = run.end or {}
    steps.append(
        (
            "outcome",
            f"{end.get('stop_reason')}, success={end.get('success')}, iterations={end.get('iterations')}, "
            f"tests_passed={end.get('tests_passed')}",
        )
    )
    return steps


def _compare(recorded: Run, replayed: Run, report: ReplayReport) -> None:
    old, new = _steps(recorded), _steps(replayed)
    report.compared = max(len(old), len(new))
    for index in range(report.compared):
        before = old[index] if index < len(old) else ("(nothing)", "(nothing recorded)")
        after = new[index] if index < len(new) else ("(nothing)", "(nothing replayed)")
        if before != after:
            where = before[0] if before[0] == after[0] else f"{before[0]} / {after[0]}"
            report.differences.append(Difference(where, before[1], after[1]))
