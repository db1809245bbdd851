"""Anchors: the chain head of every finished run, kept outside the project in the user's state folder.

A hash chain shows an edit, a removal or a reordering, but someone who rewrites a whole log can recompute
every hash. The head each run ended with is therefore also appended to `audit-anchors.jsonl` in the user's
state folder (`glmagent.userdirs.state_dir()`), which neither the project nor the commands the agent runs
can write. `verify` compares the log with every anchor that names it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from glmagent.audit._files import append_durably
from glmagent.audit._records import read_lines, utc_now

ANCHOR_FILE = "audit-anchors.jsonl"


def default_anchor_file() -> Path:
    from glmagent.userdirs import state_dir

    return state_dir() / ANCHOR_FILE


@dataclass(frozen=True)
class Anchor:
    """Where one run's chain ended when it finished."""

    log: str
    """The audit log's absolute path when the run finished."""
    task_id: str
    run: str
    seq: int
    """The sequence number of the run's last record."""
    head: str
    """SHA-256 of that record's line."""
    size: int
    """The log's size in bytes right after that record."""
    ts: str
    line: int = 0
    """Line of the anchor file (for messages)."""


class AnchorBook:
    """The anchor file: appended to when a run finishes, read by `verify`."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_anchor_file()

    def append(self, log: Path, task_id: str, run: str, seq: int, head: str, size: int) -> None:
        entry = {
            "log": str(log.resolve()),
            "task_id": task_id,
            "run": run,
            "seq": seq,
            "head": head,
            "size": size,
            "ts": utc_now(),
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        append_durably(self.path, (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8"))

    def for_log(self, log: Path, runs: set[str]) -> list[Anchor]:
        """Anchors naming this log by path, or naming one of its runs (a moved project keeps its runs)."""
        where = str(log.resolve())
        found = []
        for line in read_lines(self.path):
            entry = line.record
            if not entry or not _well_formed(entry):
                continue
            if entry["log"] == where or entry["run"] in runs:
                found.append(
                    Anchor(
                        log=entry["log"],
                        task_id=entry["task_id"],
                        run=entry["run"],
                        seq=entry["seq"],
                        head=entry["head"],
                        size=entry["size"],
                        ts=entry["ts"],
                        line=line.number,
                    )
                )
        return found

    def exists(self) -> bool:
        return os.path.isfile(self.path)


def _well_formed(entry: dict[str, Any]) -> bool:
    kinds = {"log": str, "task_id": str, "run": str, "seq": int, "head": str, "size": int, "ts": str}
    return all(isinstance(entry.get(key), kind) for key, kind in kinds.items())
