"""The audit record format: one JSON object per line, each chained to the line before it by SHA-256.

Every record starts with the same envelope, then its event's own fields:

    v        format version (1)
    run      the run id: one process's run of a task (`20250101T120000Z-3f9c2a1b`)
    seq      1, 2, 3, ... within the run
    prev     SHA-256 (hex) of the previous line of the file, exactly as stored; `GENESIS` for the first
    ts       UTC time with milliseconds
    task_id  the task the record belongs to
    event    task_start, prompt_part, planner_request, planner_reply, validation, action, tests,
             iteration_summary, task_end, ...

A record's own hash is the SHA-256 of its line's bytes (UTF-8, without the newline), so checking the chain
needs no canonical re-encoding: whatever is on disk is what is hashed.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from glmagent.secrets import Redactor

FORMAT_VERSION = 1
GENESIS = "0" * 64
ENVELOPE = ("v", "run", "seq", "prev", "ts", "task_id", "event")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def text_hash(text: str) -> str:
    """The SHA-256 of a text as UTF-8 (lone surrogates escaped, as they are stored)."""
    return sha256_hex(text.encode("utf-8", "backslashreplace"))


def new_run_id(now: dt.datetime | None = None) -> str:
    """`YYYYMMDDTHHMMSSZ-xxxxxxxx`: sorts by start time, unique across processes."""
    stamp = (now or dt.datetime.now(dt.UTC)).strftime("%Y%m%dT%H%M%SZ")
    return f"{stamp}-{secrets.token_hex(4)}"


def utc_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


def redact_value(value: Any, redactor: Redactor) -> Any:
    """`value` with every secret replaced in every string it holds (keys included), before serialising, so
    the JSON stays valid whatever the secret looks like."""
    if isinstance(value, str):
        return redactor(value)
    if isinstance(value, Mapping):
        return {redactor(str(k)): redact_value(v, redactor) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_value(item, redactor) for item in value]
    return value


def encode_record(record: Mapping[str, Any]) -> bytes:
    """The stored line for `record` (without the newline). Lone surrogates in model text are written as
    JSON escapes, so a record never breaks on them and reads back to the same string."""
    line = json.dumps(record, ensure_ascii=False, default=str, separators=(",", ":"))
    return line.encode("utf-8", "backslashreplace")


@dataclass(frozen=True)
class LogLine:
    """One line of an audit log as found on disk."""

    number: int
    """1-based line number."""
    offset: int
    """Byte offset of the line's first byte."""
    raw: bytes
    """The line's bytes without the newline."""
    terminated: bool
    """False for a last line without its newline: a write cut short."""
    record: dict[str, Any] | None
    """The parsed record, or None when the line is not a JSON object."""

    @property
    def hash(self) -> str:
        return sha256_hex(self.raw)

    @property
    def chained(self) -> bool:
        """True when the line is a record with the full envelope."""
        return self.record is not None and all(key in self.record for key in ENVELOPE)


def parse_lines(data: bytes) -> list[LogLine]:
    """Split an audit log's bytes into lines and parse each one (never raises)."""
    lines: list[LogLine] = []
    offset = 0
    number = 0
    while offset < len(data):
        end = data.find(b"\n", offset)
        terminated = end != -1
        raw = data[offset : end if terminated else len(data)]
        number += 1
        lines.append(LogLine(number, offset, raw, terminated, _parse(raw)))
        offset = (end + 1) if terminated else len(data)
    return lines


def _parse(raw: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def read_lines(path: Path) -> list[LogLine]:
    """Every line of the log at `path` (an empty list when it does not exist)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    return parse_lines(data)


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    """The records of one audit log in file order, skipping lines that are not JSON objects."""
    for line in read_lines(path):
        if line.record is not None and line.terminated:
            yield line.record
