"""`glmagent policy check|rules`: ask the command policy about a command, or list its rules."""

from __future__ import annotations

import argparse
import sys

from glmagent.cli._common import add_directory, add_policy_files
from glmagent.cli._exit import EXIT_NOT_DONE, EXIT_SUCCESS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def register(commands: Any) -> None:
    policy = commands.add_parser("policy", help="check commands against the command policy, list its rules")
    policy_commands = policy.add_subparsers(dest="policy_command", metavar="SUBCOMMAND")
    policy_commands.required = True
    check = policy_commands.add_parser(
        "check",
        help="would this command be allowed?",
        description="Check COMMAND against the policy. Exit 0 allowed, 1 blocked. With -, read one command "
        "per line from stdin and print one JSON line per command (exit 1 if any was blocked).",
    )
    check.add_argument("cmd", metavar="COMMAND", help="the command line, or - for batch mode on stdin")
    check.add_argument("--shell", choices=("posix", "powershell"), default="posix", help="backend (posix)")
    check.add_argument("--json", action="store_true", help="print the full decision as JSON")
    add_policy_files(check)
    add_directory(check, "working directory the command's writes are judged against (default: .)")
    check.set_defaults(handler=run_check)
    rules = policy_commands.add_parser("rules", help="list the deny rules with their justification")
    rules.add_argument("--json", action="store_true", help="print the rules as JSON")
    add_policy_files(rules)
    rules.set_defaults(handler=run_rules)


def _load(args: argparse.Namespace) -> Any:
    """The policy a task in `-C DIR` would use for these files: the project's .hazina/policy.toml counts."""
    from glmagent.guard import Policy

    files = list(args.policy_files)
    directory = getattr(args, "directory", None)
    project_rules = directory.expanduser().resolve() / ".hazina" / "policy.toml" if directory else None
    if project_rules is not None and project_rules.is_file() and project_rules not in files:
        files.insert(0, project_rules)
    return Policy.load(files) if files else Policy.default()


def run_check(args: argparse.Namespace) -> int:
    import json

    policy = _load(args)
    cwd = args.directory.expanduser().resolve()
    if args.cmd == "-":
        blocked = 0
        for line in sys.stdin:
            decision = policy.check(line.rstrip("\r\n"), args.shell, cwd=cwd)
            blocked += not decision.allowed
            print(json.dumps(decision.model_dump(mode="json")), flush=False)
        return EXIT_NOT_DONE if blocked else EXIT_SUCCESS
    decision = policy.check(args.cmd, args.shell, cwd=cwd)
    if args.json:
        print(json.dumps(decision.model_dump(mode="json"), indent=2))
    elif decision.allowed:
        print(f"allowed ({args.shell})")
    else:
        from glmagent.ui import inert  # the command and the rules' text are shown, never obeyed

        print(f"BLOCKED ({args.shell})\n{inert(decision.planner_message(), multiline=True)}")
    return EXIT_SUCCESS if decision.allowed else EXIT_NOT_DONE


def run_rules(args: argparse.Namespace) -> int:
    import json

    rules = list(_load(args).rules)
    if args.json:
        print(json.dumps([rule.model_dump(mode="json") for rule in rules], indent=2))
        return EXIT_SUCCESS
    from glmagent.ui import inert

    for rule in rules:
        print(inert(f"{rule.id}  [{rule.category}]") + f"\n    {inert(rule.justification)}")
    print(f"\n{len(rules)} rules")
    return EXIT_SUCCESS
