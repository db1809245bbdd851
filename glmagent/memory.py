"""`AgentSummaryStore`: the per-task memory file and the audit log beside it.

    {workdir}/.hazina/agent-memory/{taskId}.txt     human summary: per run a header, one block per
                                                   iteration (`Iteration N:` then `- ` bullets), a footer
    {workdir}/.hazina/agent-memory/{taskId}.jsonl   one hash-chained record per event (`glmagent.audit`)
    {workdir}/.hazina/agent-memory/act.jsonl        the same records for `glmagent act`
    {workdir}/.hazina/agent-memory/.gitignore       `*`: none of it shows up in the user's `git status`

A run holds the task's lock from `start_run` to `close`, so two runs with one task id never interleave.
Every record and block is redacted, written, flushed and fsynced before the next one. When a run finishes,
its chain head goes into the footer and into the anchor file in the user's state folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from glmagent._log import get_logger
from glmagent.audit import (
    DEFAULT_LOCK_WAIT,
    MEMORY_DIR,
    AnchorBook,
    AuditWriter,
    RunLock,
    append_durably,
    check_record_path,
    ensure_private_dir,
    last_byte,
    new_run_id,
    one_line,
    read_no_follow,
    render_footer,
    render_header,
    text_hash,
    uninterrupted,
    utc_now,
    validate_task_id,
)
from glmagent.errors import RecordPathError
from glmagent.observation import Observation
from glmagent.secrets import Redactor

log = get_logger(__name__)

#: The task id under which `glmagent act` records its runs.
ACT_TASK_ID = "act"

#: An iteration summary is capped near 500 tokens; ~4 characters per token is a safe estimate for English
#: text and code paths.
MAX_SUMMARY_CHARS = 1900
#: Characters of a command's or a failed action's output kept (the end) in its audit record.
ACTION_OUTPUT_TAIL = 2_000
#: Characters of a test run's output kept (the end: the summary and failures) in its audit record.
TEST_OUTPUT_TAIL = 4_000
_BLOCK = re.compile(r"^Iteration (\d+):\n(?:- .*\n?)*", re.MULTILINE)


def format_iteration(number: int, lines: Iterable[str]) -> str:
    """One iteration block in the memory file's exact format, capped at ~500 tokens."""
    bullets, used, dropped = [], 0, 0
    for line in lines:
        flat = one_line(line, 300)  # data only: no name or thought can start a line of its own
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


def iteration_blocks(text: str) -> list[tuple[int, str]]:
    """The `Iteration N:` blocks of a memory file, in order, without run headers and footers."""
    return [(int(match.group(1)), match.group(0).rstrip("\n") + "\n") for match in _BLOCK.finditer(text)]


def tail(text: str, limit: int) -> str:
    """The last `limit` characters of `text`, saying how much was cut before them."""
    if len(text) <= limit:
        return text
    return f"[... {len(text) - limit:,} characters cut ...]\n{text[-limit:]}"


class AgentSummaryStore:
    """Reads and appends one task's memory file and audit log."""

    def __init__(
        self,
        workdir: Path,
        task_id: str,
        *,
        redactor: Redactor | None = None,
        anchors: AnchorBook | None = None,
        lock_wait: float = DEFAULT_LOCK_WAIT,
        keep_summary: bool = True,
    ) -> None:
        self.task_id = validate_task_id(task_id)
        self.workdir = workdir
        """Every file below it is opened without following links (`glmagent.audit._files`)."""
        self.directory = workdir / MEMORY_DIR
        self.summary_path = self.directory / f"{task_id}.txt"
        self.audit_path = self.directory / f"{task_id}.jsonl"
        self.lock_path = self.directory / f"{task_id}.lock"
        self.keep_summary = keep_summary
        self.lock_wait = lock_wait
        self._redact = redactor or Redactor()
        self._anchors = anchors
        self._lock = RunLock(self.lock_path, task_id, base=workdir)
        self._writer: AuditWriter | None = None
        self._prompt_parts: set[str] = set()
        self.run_id: str | None = None

    # -- reading --
    def load_summary(self) -> str:
        """The iteration blocks earlier iterations (of this or previous runs with the task id) wrote."""
        data = read_no_follow(self.summary_path, base=self.workdir)
        if data is None:
            return ""
        text = data.decode("utf-8", errors="replace")
        return "\n".join(block for _, block in iteration_blocks(text))

    def check_paths(self) -> None:
        """Raise `RecordPathError` when a folder or file this store writes is a link (nothing is written):
        a check to make before an action runs whose record could not be written afterwards."""
        for path in (self.summary_path, self.audit_path, self.lock_path, self.directory / ".gitignore"):
            check_record_path(path, base=self.workdir)
        anchors = (self._anchors or AnchorBook()).path
        check_record_path(anchors, base=anchors.parent)

    def next_iteration_number(self) -> int:
        """Iteration numbers continue across runs that share a task id."""
        return max((n for n, _ in iteration_blocks(self.load_summary())), default=0) + 1

    # -- one run --
    def start_run(self, **details: Any) -> str:
        """Take the task's lock (waiting at most `lock_wait` seconds), then write `task_start` and the
        memory file's run header. Returns the run id."""
        if self._writer is not None:
            raise RuntimeError("a run is already open on this store")
        run_id = new_run_id()
        self.check_paths()
        ensure_private_dir(self.directory, base=self.workdir)
        self._lock.acquire(
            {"run": run_id, "pid": os.getpid(), "started": utc_now()},
            wait=self.lock_wait,
            on_wait=lambda message: log.warning(message),
        )
        self.run_id = run_id
        self._writer = AuditWriter(
            self.audit_path, self.task_id, run_id, redactor=self._redact, base=self.workdir
        )
        self._prompt_parts = set()
        try:
            self._writer.open()
            with uninterrupted():  # the record and its header, or neither
                stored = self._writer.append("task_start", details)
                if self.keep_summary:
                    self._append_text(render_header(stored))
        except BaseException:
            self.close()
            raise
        return run_id

    def record(self, event: str, **fields: Any) -> dict[str, Any]:
        """Append one audit record (JSON Lines, hash-chained); returns it as stored."""
        if self._writer is None:
            raise RuntimeError("start_run() first: records belong to a run")
        return self._writer.append(event, fields)

    def record_request(self, iteration: int, attempt: int, messages: Sequence[Mapping[str, Any]]) -> None:
        """A planner request; system prompts are stored once a run (`prompt_part`) and referenced by hash."""
        compact: list[dict[str, Any]] = []
        for message in messages:
            if message.get("role") == "system":
                content = self._redact(str(message.get("content", "")))
                digest = text_hash(content)
                if digest not in self._prompt_parts:
                    self.record("prompt_part", sha256=digest, role="system", text=content)
                    self._prompt_parts.add(digest)
                compact.append({"role": "system", "sha256": digest})
            else:
                compact.append(dict(message))
        self.record("planner_request", iteration=iteration, attempt=attempt, messages=compact)

    def record_action(self, action: Mapping[str, Any], observation: Observation, **extra: Any) -> None:
        """An executed (or refused) action with its policy decision, result and the end of its output."""
        fields: dict[str, Any] = {
            **extra,
            "action": dict(action),
            "status": observation.status,
            "summary": observation.summary,
            "details": observation.details,
            "duration_s": observation.duration_s,
        }
        # A file's content is the file: only outputs that say what happened are kept.
        if observation.tool != "read_file" or observation.status != "ok":
            fields["output_tail"] = tail(observation.output, ACTION_OUTPUT_TAIL)
        self.record("action", **fields)

    def record_tests(self, label: str, outcome: Mapping[str, Any]) -> None:
        """One run of the test command, with the end of its output."""
        self.record(
            "tests",
            label=label,
            command=outcome.get("command"),
            passed=outcome.get("passed"),
            exit_code=outcome.get("exit_code"),
            summary=outcome.get("summary"),
            duration_s=outcome.get("duration_s"),
            output_tail=tail(str(outcome.get("output", "")), TEST_OUTPUT_TAIL),
        )

    def append_iteration(self, number: int, lines: Iterable[str]) -> str:
        """Record one iteration summary, then append its block to the memory file; returns the block."""
        block = self._redact(format_iteration(number, lines))
        with uninterrupted():  # both files say the same, whatever signal arrives meanwhile
            self.record("iteration_summary", iteration=number, summary=block)
            if self.keep_summary:
                self._append_text(block)
        return block

    def finish_run(self, **outcome: Any) -> None:
        """Write `task_end`, the memory file's footer with the chain head and the anchor; release the lock."""
        writer = self._writer
        if writer is None:
            raise RuntimeError("start_run() first: no run is open")
        try:
            with uninterrupted():
                stored = writer.append("task_end", outcome)
                if self.keep_summary:
                    self._append_text(render_footer(stored, writer.head))
                try:
                    (self._anchors or AnchorBook()).append(
                        self.audit_path, self.task_id, writer.run_id, writer.seq, writer.head, writer.size
                    )
                except (OSError, RecordPathError) as error:
                    log.warning(f"could not write the audit anchor ({error}); `audit verify` will say so")
        finally:
            self.close()

    def close(self) -> None:
        """Close the run's files and release the task's lock (idempotent; a run not finished stays open-ended
        in the log, which `verify` reports as incomplete)."""
        if self._writer is not None:
            writer, self._writer = self._writer, None
            writer.close()
        self._lock.release()

    def _append_text(self, piece: str) -> None:
        previous = last_byte(self.summary_path, base=self.workdir)
        # A blank line between pieces; a piece cut short by a crash is closed first.
        separator = "" if not previous else ("\n" if previous == b"\n" else "\n\n")
        append_durably(
            self.summary_path, (separator + piece).encode("utf-8", "backslashreplace"), base=self.workdir
        )


def act_store(workdir: Path, *, redactor: Redactor | None = None) -> AgentSummaryStore:
    """The store `glmagent act` records into (`act.jsonl`, no memory file)."""
    return AgentSummaryStore(workdir, ACT_TASK_ID, redactor=redactor, keep_summary=False)
