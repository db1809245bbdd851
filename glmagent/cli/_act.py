"""`glmagent act`: run ONE action exactly as the loop would and print the observation as JSON."""

from __future__ import annotations

import argparse
import sys

from glmagent.cli._common import add_containment, add_directory, add_policy_files, add_shell, warn
from glmagent.cli._exit import EXIT_NOT_DONE, EXIT_SUCCESS, EXIT_USAGE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def register(commands: Any) -> None:
    act = commands.add_parser(
        "act",
        help="run ONE action through validation, policy and executor",
        description="Run one action exactly as the loop would and print the observation as JSON. "
        "Exit 0 if it succeeded, 1 if it was rejected or failed, 2 if the action JSON is invalid.",
        epilog='example: glmagent act \'{"tool": "run", "command": "pytest -q"}\'',
    )
    act.add_argument("action", help="the action as JSON, or - to read it from stdin")
    add_directory(act)
    add_shell(act)
    add_policy_files(act)
    add_containment(act)
    act.set_defaults(handler=run_act)


def run_act(args: argparse.Namespace) -> int:
    import json

    from glmagent.agent import CodingAgent, sandbox_for
    from glmagent.config import resolve_settings
    from glmagent.contract import InvalidPlannerOutput, parse_action

    text = sys.stdin.read() if args.action == "-" else args.action
    try:
        action = parse_action(text)
    except InvalidPlannerOutput as invalid:
        print(json.dumps({"status": "rejected", "error": str(invalid)}))
        return EXIT_USAGE
    workdir = args.directory.expanduser().resolve()
    flags = {
        "shell": args.shell,
        "policy_files": args.policy_files,
        "sandbox": args.sandbox,
        "allow_network": args.allow_network,
        "command_timeout": args.command_timeout,
    }
    settings = resolve_settings(workdir, flags, warn=warn)
    observation = CodingAgent(settings=settings).act(action, workdir)
    document = observation.model_dump(mode="json")
    document["sandbox"] = sandbox_for(settings, workdir).describe()
    print(json.dumps(document, indent=2))
    return EXIT_SUCCESS if observation.status == "ok" else EXIT_NOT_DONE
