"""`AuditWriter`: appends one run's records to an audit log, each chained to the line before it.

The caller holds the task's `RunLock`, so no other process appends while a run is open. Opening a run reads
the log's tail: the last record's hash becomes the next `prev`. Lines after the last record that are not
records (a write cut short by a crash) are left in place, closed with a newline, and listed in the new run's
first record as `torn`, so a verifier can tell that damage from an edit.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from glmagent.audit._files import (
    ensure_private_dir,
    open_append,
    open_no_follow,
    uninterrupted,
    write_durably,
)
from glmagent.audit._records import (
    FORMAT_VERSION,
    GENESIS,
    encode_record,
    parse_lines,
    redact_value,
    sha256_hex,
    utc_now,
)
from glmagent.secrets import Redactor

_TAIL_WINDOW = 64 * 1024


class AuditWriter:
    """Writes the records of one run to one audit log, flushed and fsynced one by one."""

    def __init__(
        self,
        path: Path,
        task_id: str,
        run_id: str,
        *,
        redactor: Redactor | None = None,
        base: Path | None = None,
    ) -> None:
        self.path = path
        self.base = base
        """The trusted folder the log's path is walked from without following links (default: its own)."""
        self.task_id = task_id
        self.run_id = run_id
        self._redact = redactor or Redactor()
        self.head = GENESIS
        """SHA-256 of the last line written (the chain head)."""
        self.seq = 0
        self.size = 0
        """Bytes in the file after the last write (anchors record where a run ended)."""
        self._fd: int | None = None
        self._torn: list[dict[str, Any]] = []
        self._needs_newline = False

    def open(self) -> None:
        ensure_private_dir(self.path.parent, base=self.base)
        self._fd = open_append(self.path, base=self.base)
        self.size = os.fstat(self._fd).st_size
        self.head, self._torn, self._needs_newline = _tail_state(self.path, self.size, self.base)

    def append(self, event: str, fields: Mapping[str, Any]) -> dict[str, Any]:
        """Write one record; returns it as stored (secrets replaced)."""
        if self._fd is None:
            self.open()
        assert self._fd is not None
        record: dict[str, Any] = {
            "v": FORMAT_VERSION,
            "run": self.run_id,
            "seq": self.seq + 1,
            "prev": self.head,
            "ts": utc_now(),
            "task_id": self.task_id,
            "event": event,
        }
        body = dict(fields)
        if self.seq == 0 and self._torn:
            body["torn"] = self._torn
        for key, value in body.items():
            if key not in record:
                record[key] = redact_value(value, self._redact)
        line = encode_record(record)
        prefix = b"\n" if self._needs_newline else b""
        with uninterrupted():
            # The newline closing a torn line and the record acknowledging it go down in one write.
            write_durably(self._fd, prefix + line + b"\n")
            self._needs_newline = False
            self.seq += 1
            self.head = sha256_hex(line)
            self.size += len(prefix) + len(line) + 1
        return record

    def close(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)


def _tail_state(path: Path, size: int, base: Path | None = None) -> tuple[str, list[dict[str, Any]], bool]:
    """(hash of the last JSON-object line, the broken lines after it, whether the file lacks its final
    newline), read backwards from the end so a long log costs no more than a short one."""
    if size == 0:
        return GENESIS, [], False
    with os.fdopen(open_no_follow(path, os.O_RDONLY | getattr(os, "O_BINARY", 0), base=base), "rb") as handle:
        window = _TAIL_WINDOW
        while True:
            start = max(0, size - window)
            handle.seek(start)
            data = handle.read(size - start)
            first_newline = data.find(b"\n") if start > 0 else -1
            if start > 0 and first_newline == -1:
                window *= 4  # one line longer than the window: read further back
                continue
            # Lines that start inside the window: drop the partial first one unless the window is the file.
            body = data[first_newline + 1 :] if start > 0 else data
            base = start + first_newline + 1 if start > 0 else 0
            lines = parse_lines(body)
            torn: list[dict[str, Any]] = []
            for line in reversed(lines):
                if line.record is not None and line.terminated:
                    return line.hash, list(reversed(torn)), not data.endswith(b"\n")
                torn.append({"offset": base + line.offset, "length": len(line.raw), "sha256": line.hash})
            if start == 0:
                return GENESIS, list(reversed(torn)), not data.endswith(b"\n")
            window *= 4
