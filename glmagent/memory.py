"""`AgentSummaryStore`: the per-task memory file and the machine-readable audit log beside it.

    {workdir}/.hazina/agent-memory/{taskId}.txt     human summary, appended once per iteration
    {workdir}/.hazina/agent-memory/{taskId}.jsonl   one JSON record per event

Every record passes through `redact` first, so the values of API-key variables never reach disk.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from glmagent.errors import ConfigError
from glmagent.secrets import Redactor

MEMORY_DIR = Path(".hazina") / "agent-memory"

#: An iteration summary is capped near 500 tokens; ~4 characters per token is a safe estimate for English
#: text and code paths.
MAX_SUMMARY_CHARS = 1900
_TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$")


def validate_task_id(task_id: str) -> str:
    """Task ids become file names: letters, digits, `.`, `_`, `-`, at most 80 characters."""
    if not _TASK_ID.match(task_id) or ".." in task_id:
        raise ConfigError(
            f"invalid task id {task_id!r}: use letters, digits, '.', '_' or '-' (max 80, no path separators)"
        )
    return task_id


def format_iteration(number: int, lines: Iterable[str]) -> str:
    """One iteration block in the memory file's exact format, capped at ~500 tokens."""
    bullets, used, dropped = [], 0, 0
    for line in lines:
        flat = " ".join(line.split())
        if len(flat) > 300:
            flat = flat[:299] + "…"
        if used + len(flat) > MAX_SUMMARY_CHARS:
            dropped += 1
            continue
        bullets.append(f"- {flat}")
        used += len(flat) + 3
    if dropped:
        bullets.append(f"- ({dropped} more events not shown; see the audit log)")
    if not bullets:
        bullets.append("- No actions")
    return f"Iteration {number}:\n" + "\n".join(bullets) + "\n"


class AgentSummaryStore:
    """Reads and appends one task's memory file and audit log."""

    def __init__(self, workdir: Path, task_id: str, *, redactor: Redactor | None = None) -> None:
        self.task_id = validate_task_id(task_id)
        self.directory = workdir / MEMORY_DIR
        self.summary_path = self.directory / f"{task_id}.txt"
        self.audit_path = self.directory / f"{task_id}.jsonl"
        self._redact = redactor or Redactor()

    def load_summary(self) -> str:
        """Everything earlier iterations (of this or previous runs with the same task id) recorded."""
        try:
            return self.summary_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""

    def next_iteration_number(self) -> int:
        """Iteration numbers continue across runs that share a task id."""
        numbers = re.findall(r"^Iteration (\d+):$", self.load_summary(), flags=re.MULTILINE)
        return max((int(n) for n in numbers), default=0) + 1

    def append_iteration(self, number: int, lines: Iterable[str]) -> str:
        """Append one iteration block; returns the block as written."""
        block = self._redact(format_iteration(number, lines))
        self.directory.mkdir(parents=True, exist_ok=True)
        existing = self.summary_path.exists() and self.summary_path.stat().st_size > 0
        with self.summary_path.open("a", encoding="utf-8", errors="backslashreplace", newline="\n") as handle:
            handle.write(("\n" if existing else "") + block)
        return block

    def record(self, event: str, **fields: Any) -> None:
        """Append one audit event (JSON Lines)."""
        entry = {
            "ts": dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"),
            "task_id": self.task_id,
            "event": event,
            **fields,
        }
        line = self._redact(json.dumps(entry, ensure_ascii=False, default=str))
        self.directory.mkdir(parents=True, exist_ok=True)
        # Model text may hold lone surrogates: they are written escaped, never allowed to break the record.
        with self.audit_path.open("a", encoding="utf-8", errors="backslashreplace", newline="\n") as handle:
            handle.write(line + "\n")
