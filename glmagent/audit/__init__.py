"""The audit trail: hash-chained records, the user-side anchors, verification, and reading it back.

    _records   the record format (envelope, hashing, parsing lines)
    _files     durable appends (flush + fsync, directory sync, the self-ignoring folder)
    _lock      one run per task id at a time
    _writer    `AuditWriter`: one run's records, chained to the log's tail
    _anchors   chain heads of finished runs, kept in the user's state folder
    _summary   the memory file's run header and footer
    _runs      a log read back as runs (for list, show, export, replay, resume)
    _verify    what `glmagent audit verify` checks
    _show      the plain-text timeline of `glmagent audit show`
    _html      the self-contained page of `glmagent audit export --html`

`memory` writes through this package; the CLI reads through it. The public surface is `__all__`.
"""

from __future__ import annotations

from glmagent.audit._anchors import Anchor, AnchorBook, default_anchor_file
from glmagent.audit._facts import planner_schema_sha256, software_facts
from glmagent.audit._files import (
    append_durably,
    check_record_path,
    ensure_private_dir,
    last_byte,
    open_no_follow,
    read_no_follow,
    uninterrupted,
)
from glmagent.audit._lock import DEFAULT_LOCK_WAIT, RunLock
from glmagent.audit._records import (
    GENESIS,
    LogLine,
    iter_records,
    new_run_id,
    read_lines,
    sha256_hex,
    text_hash,
    utc_now,
)
from glmagent.audit._runs import (
    MEMORY_DIR,
    Run,
    audit_log_path,
    find_run,
    load_runs,
    memory_dir,
    require_log,
    task_ids,
    task_records,
    validate_task_id,
)
from glmagent.audit._summary import one_line, render_footer, render_header, split_runs
from glmagent.audit._verify import Finding, RunCheck, VerifyReport, verify_log
from glmagent.audit._writer import AuditWriter

__all__ = [
    "DEFAULT_LOCK_WAIT",
    "GENESIS",
    "MEMORY_DIR",
    "Anchor",
    "AnchorBook",
    "AuditWriter",
    "Finding",
    "LogLine",
    "Run",
    "RunCheck",
    "RunLock",
    "VerifyReport",
    "append_durably",
    "audit_log_path",
    "check_record_path",
    "default_anchor_file",
    "ensure_private_dir",
    "find_run",
    "iter_records",
    "last_byte",
    "load_runs",
    "memory_dir",
    "new_run_id",
    "one_line",
    "open_no_follow",
    "planner_schema_sha256",
    "read_lines",
    "read_no_follow",
    "render_footer",
    "render_header",
    "require_log",
    "sha256_hex",
    "software_facts",
    "split_runs",
    "task_ids",
    "task_records",
    "text_hash",
    "uninterrupted",
    "utc_now",
    "validate_task_id",
    "verify_log",
]
