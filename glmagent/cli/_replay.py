"""`glmagent replay`: re-run a recorded run's planner replies through the real loop and compare outcomes."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from glmagent.cli._common import add_containment, add_directory, add_shell
from glmagent.cli._exit import EXIT_NOT_DONE, EXIT_SUCCESS

_REPLAY_EPILOG = """\
The replay starts from the files the run started from: a fresh clone of the git commit recorded when the run
began (if the tree was clean then), or --in DIR, a copy of the project as it was. The project itself is never
touched. Compared, step by step: each reply's verdict, each action's status, summary and policy rule, each
test run, and the outcome (stop reason, success, iterations). Exit 0 reproduced, 1 it differs, 2 usage.
"""


def register(commands: Any) -> None:
    replay = commands.add_parser(
        "replay",
        help="re-run a recorded run's replies and report where the outcome differs",
        description="Feed the planner replies stored for TASK_ID's run back through the real loop, policy "
        "and tools, and report where anything differs from the record.",
        epilog=_REPLAY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    replay.add_argument("task_id", metavar="TASK_ID")
    add_directory(replay, help="project holding the record (default: .)")
    replay.add_argument(
        "--in",
        dest="into",
        type=Path,
        metavar="DIR",
        help="run the replay in DIR, a copy of "
        "the project as it was when the run started (default: a clone of the recorded commit)",
    )
    replay.add_argument("--run", metavar="RUN", help="which run (default: the latest)")
    add_shell(replay)
    add_containment(replay)
    replay.add_argument("--json", action="store_true", help="print the comparison as JSON on stdout")
    replay.set_defaults(handler=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    from glmagent.cli._task import task_screen
    from glmagent.replay import replay_run
    from glmagent.ui import inert

    screen = task_screen(args, "recorded replies")
    with screen.running():
        report = replay_run(
            args.directory,
            args.task_id,
            run_id=args.run,
            into=args.into,
            shell=args.shell,
            sandbox=args.sandbox,
            observer=screen.observer,
        )
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        where = "a clone of the recorded commit (removed)" if report.scratch else str(report.directory)
        print(f"\nreplayed run {report.run_id} of {report.task_id} in {where}")
        for note in report.notes:
            print(f"  note: {inert(note)}")
        if report.reproduced:
            print(
                f"REPRODUCED: {report.compared} steps match the record ({report.result.stop_reason.value}, "
                f"{'success' if report.result.success else 'not done'})"
            )
        else:
            print(f"DIFFERS: {len(report.differences)} of {report.compared} steps")
            for difference in report.differences[:20]:
                # Recorded text is model and command output: shown, never obeyed.
                print(
                    f"  {inert(difference.step)}:\n    recorded: {inert(str(difference.recorded))}\n"
                    f"    replayed: {inert(str(difference.replayed))}"
                )
    return EXIT_SUCCESS if report.reproduced else EXIT_NOT_DONE
