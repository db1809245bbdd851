"""An audit log read back as runs: what `list`, `show`, `export`, `replay` and `--resume` work from."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from glmagent.audit._records import iter_records, read_lines
from glmagent.audit._summary import outcome_text
from glmagent.errors import ConfigError

MEMORY_DIR = Path(".hazina") / "agent-memory"
_TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")


def validate_task_id(task_id: str) -> str:
    """Task ids become file names: letters, digits, `.`, `_`, `-`, at most 80 characters."""
    if not _TASK_ID.match(task_id) or ".." in task_id:
        raise ConfigError(
            f"invalid task id {task_id!r}: use letters, digits, '.', '_' or '-' (max 80, no path separators)"
        )
    return task_id


def memory_dir(workdir: Path) -> Path:
    return workdir / MEMORY_DIR


def audit_log_path(workdir: Path, task_id: str) -> Path:
    return memory_dir(workdir) / f"{task_id}.jsonl"


def task_records(workdir: Path, task_id: str) -> Iterator[dict[str, Any]]:
    """Every record of one task's audit log, oldest first (lines that are not records are skipped).

    A small public entry point for tools that read what earlier tasks did, e.g. the `run` commands of
    `action` records (`record["action"]["command"]`)."""
    yield from iter_records(audit_log_path(workdir, task_id))


def task_ids(workdir: Path) -> list[str]:
    """The task ids with an audit log in `workdir`, by name."""
    folder = memory_dir(workdir)
    if not folder.is_dir():
        return []
    return sorted(path.stem for path in folder.glob("*.jsonl") if path.is_file())


@dataclass
class Run:
    """One run of a task: the records from its `task_start` on, in file order."""

    run_id: str
    task_id: str
    records: list[dict[str, Any]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)

    @property
    def start(self) -> dict[str, Any]:
        first = self.records[0] if self.records else {}
        return first if first.get("event") == "task_start" else {}

    @property
    def end(self) -> dict[str, Any] | None:
        last = self.records[-1] if self.records else {}
        return last if last.get("event") == "task_end" else None

    @property
    def finished(self) -> bool:
        return self.end is not None

    @property
    def mode(self) -> str:
        return str(self.start.get("mode") or "task")

    @property
    def started(self) -> str:
        return str(self.start.get("started_at") or self.start.get("ts") or "")

    @property
    def description(self) -> str:
        return str(self.start.get("description") or "")

    @property
    def outcome(self) -> str:
        """`SUCCESS (tests_passed)`, `NOT DONE (max_iterations)`, or `incomplete` for a run without an end."""
        return outcome_text(self.end) if self.end else "incomplete (no task_end: stopped or killed)"

    @property
    def iterations(self) -> int:
        if self.end is not None and isinstance(self.end.get("iterations"), int):
            return int(self.end["iterations"])
        return sum(1 for r in self.records if r.get("event") == "iteration_summary")

    @property
    def tokens(self) -> int:
        if self.end is not None:
            usage = self.end.get("usage") or {}
            return int(usage.get("total_tokens") or 0) if isinstance(usage, dict) else 0
        return sum(
            int((r.get("usage") or {}).get("total_tokens") or 0)
            for r in self.records
            if r.get("event") == "planner_reply" and isinstance(r.get("usage"), dict)
        )

    @property
    def cost(self) -> float | None:
        value = self.end.get("cost_usd") if self.end else None
        return float(value) if isinstance(value, int | float) else None

    def events(self, name: str) -> list[dict[str, Any]]:
        return [r for r in self.records if r.get("event") == name]

    def prompt_parts(self) -> dict[str, str]:
        return {str(r.get("sha256")): str(r.get("text", "")) for r in self.events("prompt_part")}

    def replies(self) -> list[str]:
        """The planner's raw replies in the order the loop received them."""
        return [str(r.get("text", "")) for r in self.events("planner_reply")]


def load_runs(path: Path) -> list[Run]:
    """The runs of one audit log, in file order (records without a run id are left out)."""
    runs: dict[str, Run] = {}
    for line in read_lines(path):
        record = line.record
        if record is None or not line.terminated or not isinstance(record.get("run"), str):
            continue
        run = runs.get(record["run"])
        if run is None:
            run = runs[record["run"]] = Run(record["run"], str(record.get("task_id", path.stem)))
        run.records.append(record)
        run.lines.append(line.number)
    return list(runs.values())


def find_run(path: Path, run_id: str | None = None) -> Run:
    """One run of a log: `run_id` (any unique part of it, e.g. its random end), or the latest one."""
    runs = [run for run in load_runs(path) if run.start]
    if not runs:
        raise ConfigError(f"no runs recorded in {path}")
    if run_id is None:
        return runs[-1]
    matches = [run for run in runs if run_id in run.run_id]
    if len(matches) != 1:
        known = ", ".join(run.run_id for run in runs)
        what = "no run" if not matches else "several runs"
        raise ConfigError(f"{what} matching {run_id!r} in {path}; runs: {known}")
    return matches[0]


def require_log(workdir: Path, task_id: str) -> Path:
    """The audit log of `task_id` in `workdir`, or a `ConfigError` listing the tasks that exist."""
    path = audit_log_path(workdir, validate_task_id(task_id))
    if path.is_file():
        return path
    known = task_ids(workdir)
    hint = f"; tasks here: {', '.join(known)}" if known else " (no tasks recorded there)"
    raise ConfigError(f"no audit log for task {task_id!r} in {memory_dir(workdir)}{hint}")
