"""The `run` commands of a project's recent tasks, read back from their audit logs.

`glmagent policy suggest` turns them into allow entries. Only `run_command` and `blocked_run` know what an
audit record looks like, so a change to the record's shape is mended in one place.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from glmagent.audit import iter_records
from glmagent.memory import ACT_TASK_ID, MEMORY_DIR

Backend = Literal["posix", "powershell"]


@dataclass(frozen=True)
class RunCommand:
    """One command a task ran (or asked to run), the backend, and the task it came from."""

    command: str
    backend: Backend
    task_id: str
    blocked_by: str | None = None
    """The policy rule that blocked it (`allowlist.not-allowed`, a deny rule's id, "" when the record does
    not say); None when it ran."""


def run_command(record: Mapping[str, Any]) -> tuple[str, Backend] | None:
    """The command and backend of an audit record of a `run` action that ran (ok or failed), else None.

    A rejected command never ran (the policy blocked it) and a skipped one was never tried, so neither is
    a command the user's tasks need.
    """
    if record.get("event") != "action" or record.get("status") not in ("ok", "failed"):
        return None
    action = record.get("action")
    if not isinstance(action, Mapping) or action.get("tool") != "run":
        return None
    command = action.get("command")
    if not isinstance(command, str) or not command.strip():
        return None
    details = record.get("details")
    policy = details.get("policy") if isinstance(details, Mapping) else None
    backend = policy.get("backend") if isinstance(policy, Mapping) else None
    return command, "powershell" if backend == "powershell" else "posix"


def blocked_run(record: Mapping[str, Any]) -> tuple[str, Backend, str] | None:
    """The command, backend and blocking rule of an audit record of a `run` action the policy blocked, else
    None (the rule is "" when the record does not name one)."""
    if record.get("event") != "action" or record.get("status") != "rejected":
        return None
    action = record.get("action")
    if not isinstance(action, Mapping) or action.get("tool") != "run":
        return None
    command = action.get("command")
    details = record.get("details")
    policy = details.get("policy") if isinstance(details, Mapping) else None
    if not isinstance(command, str) or not command.strip() or not isinstance(policy, Mapping):
        return None  # rejected before the policy judged it (a malformed action)
    rule = policy.get("rule_id")
    backend: Backend = "powershell" if policy.get("backend") == "powershell" else "posix"
    return command, backend, rule if isinstance(rule, str) else ""


def audit_logs(workdir: Path, tasks: int) -> list[Path]:
    """The audit logs of the `tasks` most recently written tasks in `workdir`, newest first (`glmagent act`'s
    log holds single actions, not tasks, and is left out)."""
    folder = workdir / MEMORY_DIR
    try:
        logs = [p for p in folder.glob("*.jsonl") if p.is_file() and p.stem != ACT_TASK_ID]
    except OSError:
        return []
    logs.sort(key=lambda p: p.stat().st_mtime_ns, reverse=True)
    return logs[:tasks]


def recent_run_commands(workdir: Path, tasks: int = 10, *, blocked: bool = False) -> Iterator[RunCommand]:
    """Every `run` command the last `tasks` tasks ran (and with `blocked`, those the policy blocked, each
    with its rule), oldest task first, in the order they came.

    Lines that are not whole JSON objects (a log cut short by a crash) are skipped.
    """
    for log in reversed(audit_logs(workdir, tasks)):
        try:
            records = list(iter_records(log))
        except OSError:
            continue
        for record in records:
            found = run_command(record)
            if found is not None:
                yield RunCommand(found[0], found[1], log.stem)
            elif blocked and (refused := blocked_run(record)) is not None:
                yield RunCommand(refused[0], refused[1], log.stem, blocked_by=refused[2])
