"""`glmagent audit list|show|verify|export`: review, verify and export the recorded runs of a project."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from glmagent.cli._common import add_directory
from glmagent.cli._exit import EXIT_NOT_DONE, EXIT_SUCCESS
from glmagent.errors import ConfigError

_AUDIT_EPILOG = """\
what verify checks: every record's envelope and its link to the record before it (SHA-256 of that line),
sequence numbers within each run, each stored reply against the verdict recorded for it, the memory file
against the records, and each finished run's head against the anchor kept in your state folder. A last line
cut short by a crash is reported as a torn tail, not as tampering; a run without task_end as incomplete.

exit codes of verify: 0 intact, 1 a problem was found (named, with its line), 2 no such task.
"""


def register(commands: Any) -> None:
    audit = commands.add_parser(
        "audit",
        help="review, verify and export recorded runs",
        description="Read the records glmagent keeps in .hazina/agent-memory/: list runs, show one as a "
        "timeline, verify that nothing was edited, removed, reordered or rewritten, or export an HTML page.",
        epilog=_AUDIT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = audit.add_subparsers(dest="audit_command", metavar="SUBCOMMAND")
    sub.required = True

    listing = sub.add_parser("list", help="runs, newest first, with outcome and chain status")
    add_directory(listing)
    listing.add_argument("--json", action="store_true", help="print the runs as a JSON array")
    listing.set_defaults(handler=run_list)

    show = _task_parser(sub, "show", "one run: summaries and a timeline of plans, actions, tests", run=True)
    show.add_argument("--json", action="store_true", help="print the run's records and verification as JSON")
    show.set_defaults(handler=run_show)

    verify = _task_parser(
        sub, "verify", "check the chain, replies, memory file and anchors (exit 1: tampered)"
    )
    verify.add_argument(
        "--anchors",
        type=Path,
        metavar="FILE",
        help="anchor file to check against (default: audit-anchors.jsonl in your state folder)",
    )
    verify.add_argument("--json", action="store_true", help="print the report as JSON")
    verify.set_defaults(handler=run_verify)

    export = _task_parser(sub, "export", "write one run as a self-contained HTML page", run=True)
    export.add_argument("--html", type=Path, metavar="FILE", required=True, help="the page to write")
    export.set_defaults(handler=run_export)


def _task_parser(sub: Any, name: str, help: str, *, run: bool = False) -> argparse.ArgumentParser:
    """A subcommand about one task: TASK_ID, -C DIR, and (for one run) --run RUN."""
    parser: argparse.ArgumentParser = sub.add_parser(name, help=help)
    parser.add_argument("task_id", metavar="TASK_ID")
    add_directory(parser)
    if run:
        parser.add_argument(
            "--run", metavar="RUN", help="which run (any unique part of its id); default: the latest"
        )
    return parser


def _workdir(args: argparse.Namespace) -> Path:
    workdir = args.directory.expanduser().resolve()
    if not workdir.is_dir():
        raise ConfigError(f"project directory does not exist: {workdir}")
    return workdir


def _verify(workdir: Path, task_id: str, anchors: Path | None = None) -> Any:
    from glmagent.audit import AnchorBook, require_log, verify_log

    log = require_log(workdir, task_id)
    book = AnchorBook(anchors) if anchors is not None else None
    return verify_log(log, summary=log.with_suffix(".txt"), anchors=book)


def run_list(args: argparse.Namespace) -> int:
    from glmagent.audit import load_runs, memory_dir, task_ids
    from glmagent.audit._show import render_list, run_row

    workdir = _workdir(args)
    rows = []
    for task_id in task_ids(workdir):
        report = _verify(workdir, task_id)
        for run in load_runs(memory_dir(workdir) / f"{task_id}.jsonl"):
            if run.start:
                rows.append(run_row(task_id, run, report.run_status(run.run_id)))
    rows.sort(key=lambda row: row["started"], reverse=True)
    print(json.dumps(rows, indent=2) if args.json else render_list(rows))
    return EXIT_SUCCESS


def run_show(args: argparse.Namespace) -> int:
    from glmagent.audit import find_run
    from glmagent.audit._show import render_show
    from glmagent.audit._timeline import build_timeline

    workdir = _workdir(args)
    report = _verify(workdir, args.task_id)
    run = find_run(report.log, args.run)
    if args.json:
        document = {"run": run.run_id, "records": run.records, "verification": report.to_json()}
        from glmagent.inert import inert_json  # readable non-ASCII text, nothing a terminal would obey

        print(inert_json(json.dumps(document, indent=2, ensure_ascii=False)))
    else:
        print(render_show(build_timeline(run), report))
    return EXIT_SUCCESS


def run_verify(args: argparse.Namespace) -> int:
    from glmagent.audit._show import render_verify

    report = _verify(_workdir(args), args.task_id, args.anchors)
    print(json.dumps(report.to_json(), indent=2) if args.json else render_verify(report))
    return EXIT_SUCCESS if report.ok else EXIT_NOT_DONE


def run_export(args: argparse.Namespace) -> int:
    from glmagent.audit import find_run
    from glmagent.audit._html import render_html
    from glmagent.audit._timeline import build_timeline

    workdir = _workdir(args)
    report = _verify(workdir, args.task_id)
    run = find_run(report.log, args.run)
    target = args.html.expanduser()
    if target.is_dir():
        raise ConfigError(f"--html {target} is a directory; name the page to write")
    page = render_html(build_timeline(run), report)
    from glmagent.workspace import Workspace

    existed = target.exists()
    try:
        # Written whole or not at all: never a half page where an earlier export stood.
        Workspace(target.parent.resolve()).write_atomic(target.resolve(), page.encode("utf-8"))
        if not existed:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(target, 0o666 & ~mask)  # a new page gets the permissions any new file would
    except OSError as error:
        raise ConfigError(f"cannot write {target}: {error.strerror or error}") from None
    from glmagent.cli._output import notice

    notice(f"wrote {target} (run {run.run_id}, {report.run_status(run.run_id)})", level="info")
    return EXIT_SUCCESS
