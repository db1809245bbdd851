"""`glmagent policy check|explain|rules|suggest|cache`: ask the command policy about commands, list its rules,
suggest an allowlist from recent tasks, manage the load cache."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from glmagent.cli._common import add_directory, add_policy_files
from glmagent.cli._exit import EXIT_NOT_DONE, EXIT_SUCCESS


def register(commands: Any) -> None:
    policy = commands.add_parser(
        "policy",
        help="check or explain commands against the command policy, list its rules, suggest an allowlist",
    )
    policy_commands = policy.add_subparsers(dest="policy_command", metavar="SUBCOMMAND")
    policy_commands.required = True
    check = _command_parser(
        policy_commands,
        "check",
        "would this command be allowed?",
        "Check COMMAND against the policy that applies in DIR (the built-in rules, your policy files, the "
        "project's .hazina/policy.toml). Exit 0 allowed, 1 blocked. With -, read one command per line from "
        "stdin and print one JSON line per command (exit 1 if any was blocked).",
    )
    check.set_defaults(handler=run_check)
    explain = _command_parser(
        policy_commands,
        "explain",
        "why is this command allowed or blocked?",
        "Show how the policy reads COMMAND: every simple command in it, the layers it was unwrapped from "
        "(sudo, sh -c, substitutions, ...), the rules that matched each, the allow entry that allows it in "
        "allowlist mode, and the rule that decided. Exit 0 allowed, 1 blocked.",
    )
    explain.add_argument("--tree", action="store_true", help="also print the parser's syntax tree")
    explain.set_defaults(handler=run_explain)

    rules = policy_commands.add_parser(
        "rules", help="list the deny rules (and allow entries) with their justification"
    )
    rules.add_argument("--json", action="store_true", help="print the deny rules as JSON")
    add_policy_files(rules)
    add_directory(rules, "project whose policy files count (default: .)")
    rules.set_defaults(handler=run_rules)

    suggest = policy_commands.add_parser(
        "suggest",
        help="print [[allow]] entries for the commands of your last tasks",
        description="Read the audit logs of the last tasks in DIR (.hazina/agent-memory/*.jsonl) and print a "
        "policy file in allowlist mode whose [[allow]] entries cover every command they ran: programs, "
        "programs with their subcommands (git status|diff), interpreters with their module (python -m "
        "pytest), each with the commands it came from as proven examples. Review it, then save it with "
        "--policy FILE or as policy.toml in your config folder.",
    )
    suggest.add_argument(
        "--tasks", type=int, default=10, metavar="N", help="how many recent tasks to read (10)"
    )
    add_directory(suggest, "project whose tasks to read (default: .)")
    suggest.set_defaults(handler=run_suggest)

    cache = policy_commands.add_parser(
        "cache",
        help="show or clear the compiled-policy cache",
        description="Policies are compiled and their examples proven once, then kept in your state folder "
        "per policy-file content and glmagent build. Show where, or delete every entry with --clear.",
    )
    cache.add_argument("--clear", action="store_true", help="delete every cached policy")
    cache.set_defaults(handler=run_cache)


def _command_parser(commands: Any, name: str, help: str, description: str) -> argparse.ArgumentParser:
    """A subcommand about one COMMAND: the backend, JSON output, policy files and working directory."""
    parser: argparse.ArgumentParser = commands.add_parser(name, help=help, description=description)
    what = "the command line, or - for batch mode on stdin" if name == "check" else "the command line"
    parser.add_argument("cmd", metavar="COMMAND", help=what)
    parser.add_argument("--shell", choices=("posix", "powershell"), default="posix", help="backend (posix)")
    parser.add_argument(
        "--json",
        action="store_true",
        help=f"print the {'decision' if name == 'check' else 'explanation'} as JSON",
    )
    add_policy_files(parser)
    add_directory(parser, "working directory the command's writes are judged against (default: .)")
    return parser


def _load(args: argparse.Namespace) -> Any:
    """The policy a task in `args.directory` would use, plus the files named with --policy."""
    from glmagent.guard import Policy
    from glmagent.userdirs import config_dir

    workdir = args.directory.expanduser().resolve()
    if not workdir.is_dir():
        from glmagent.errors import ConfigError

        raise ConfigError(f"project directory does not exist: {workdir}")
    configs = (workdir / ".hazina" / "config.toml", config_dir() / "config.toml")
    if any(_names_policy_files(path) for path in configs):
        # Config files can name policy files: take them as a task would (this imports the settings).
        from glmagent.config import resolve_settings, split_policy_files

        settings = resolve_settings(workdir, {"policy_files": args.policy_files}, env={}, warn=lambda _: None)
        mine, project = split_policy_files(workdir, settings.policy_files)
        return Policy.load(mine, project_files=project)
    # The common case, without importing the settings machinery, so that `policy check` starts fast.
    own = config_dir() / "policy.toml"
    projects = workdir / ".hazina" / "policy.toml"
    project = [projects] if projects.is_file() else []
    mine = [own] if own.is_file() else []
    mine += [p for p in args.policy_files if not (project and _same_file(p, projects))]
    if not mine and not project:
        return Policy.default()
    return Policy.load(mine, project_files=project)


def _names_policy_files(config: Path) -> bool:
    """Could `config` set `policy_files`? Any line naming it outside a comment counts (then the settings
    are read as a task reads them); the commented mention in the file `glmagent init` writes does not."""
    try:
        data = config.read_bytes()
    except OSError:
        return False
    return any(b"policy_files" in line.split(b"#", 1)[0] for line in data.splitlines())


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _json(value: Any, indent: int | None = None) -> str:
    import json  # only JSON output needs it; a plain check stays light

    return json.dumps(value, indent=indent)


def run_check(args: argparse.Namespace) -> int:
    policy = _load(args)
    cwd = args.directory.expanduser().resolve()
    if args.cmd == "-":
        blocked = 0
        for line in sys.stdin:
            decision = policy.check(line.rstrip("\r\n"), args.shell, cwd=cwd)
            blocked += not decision.allowed
            print(_json(decision.model_dump(mode="json")), flush=False)
        return EXIT_NOT_DONE if blocked else EXIT_SUCCESS
    decision = policy.check(args.cmd, args.shell, cwd=cwd)
    if args.json:
        print(_json(decision.model_dump(mode="json"), indent=2))
    elif decision.allowed:
        print(f"allowed ({args.shell})")
    else:
        from glmagent.ui import inert  # the command and the rules' text are shown, never obeyed

        print(f"BLOCKED ({args.shell})\n{inert(decision.planner_message(), multiline=True)}")
    return EXIT_SUCCESS if decision.allowed else EXIT_NOT_DONE


def run_explain(args: argparse.Namespace) -> int:
    policy = _load(args)
    cwd = args.directory.expanduser().resolve()
    explained = policy.explain(args.cmd, args.shell, cwd=cwd, tree=args.tree)
    if args.json:
        print(_json(explained.model_dump(mode="json"), indent=2))
    else:
        from glmagent.ui import inert

        print(inert(render_explanation(explained), multiline=True))
    return EXIT_SUCCESS if explained.decision.allowed else EXIT_NOT_DONE


def run_rules(args: argparse.Namespace) -> int:
    policy = _load(args)
    rules = list(policy.rules)
    if args.json:
        print(_json([rule.model_dump(mode="json") for rule in rules], indent=2))
        return EXIT_SUCCESS
    from glmagent.ui import inert

    for rule in rules:
        print(inert(f"{rule.id}  [{rule.category}]") + f"\n    {inert(rule.justification)}")
    print(f"\n{len(rules)} rules")
    if policy.mode == "allowlist":
        entries = policy.allow_entries
        print(f"\nallowlist mode: only commands these {len(entries)} entries allow may run")
        for entry in entries:
            how = " ".join(entry.prefix) or "|".join(entry.subcommands) or "any arguments"
            print(
                f"  {entry.id}: {'|'.join(entry.commands)} {how}"
                + (f"  ({entry.description})" * bool(entry.description))
            )
    return EXIT_SUCCESS


def run_suggest(args: argparse.Namespace) -> int:
    from glmagent.cli._output import notice
    from glmagent.errors import ConfigError
    from glmagent.guard import Policy
    from glmagent.guard._allowlist import NOT_ALLOWED_ID
    from glmagent.guard._suggest import allow_entries_toml, suggest_allow_entries
    from glmagent.recent_commands import audit_logs, recent_run_commands

    if args.tasks < 1:
        raise ConfigError("--tasks must be at least 1")
    workdir = args.directory.expanduser().resolve()
    logs = audit_logs(workdir, args.tasks)
    found = list(recent_run_commands(workdir, args.tasks, blocked=True))
    # Commands that ran, and those only the allowlist stopped: an entry is what lets them run. A deny rule
    # applies on top of any allowlist, so no entry could let its commands run.
    wanted = [c for c in found if c.blocked_by is None or c.blocked_by == NOT_ALLOWED_ID]
    denied = list(
        dict.fromkeys(
            (c.command, c.blocked_by or "a rule the record does not name") for c in found if c not in wanted
        )
    )
    folder = workdir / ".hazina" / "agent-memory"
    if not wanted:
        if not logs:
            notice(f"nothing to suggest: no task logs in {folder}")
        else:
            notice(f"nothing to suggest: {_found_sentence(len(logs), found, folder)}" + _denied_note(denied))
        return EXIT_NOT_DONE
    lines = list(dict.fromkeys((c.command, c.backend) for c in wanted))
    suggestion = suggest_allow_entries(Policy.default(), lines)
    tasks = sorted({c.task_id for c in wanted})
    off_list = len({c.command for c in wanted if c.blocked_by is not None})
    header = [
        f"Allow entries for the {len(lines)} distinct commands {len(tasks)} recent task(s) ran or asked to "
        f"run in {workdir}" + (f" ({off_list} of them blocked by your allowlist)." if off_list else "."),
        "Review before use: an entry without subcommands or prefix allows every use of its program (the deny",
        "rules still apply). Save as policy.toml in your glmagent config folder, or pass with --policy FILE.",
    ]
    if suggestion.skipped:
        header += ["", "Not covered (a command of these lines will stay blocked):"]
        header += [f"  {line}" for line in suggestion.skipped]
    if denied:
        header += [
            "",
            "Blocked by deny rules, which apply on top of any allowlist (no entry can allow these):",
        ]
        header += [f"  {command}  ({rule})" for command, rule in denied]
    print(allow_entries_toml(suggestion.entries, header), end="")
    return EXIT_SUCCESS


def _found_sentence(logs: int, found: list[Any], folder: Path) -> str:
    """What the logs hold: `3 task log(s) in DIR hold 2 run command(s), 2 blocked by deny rules`."""
    if not found:
        return f"{logs} task log(s) in {folder} hold no `run` command"
    blocked = sum(1 for c in found if c.blocked_by is not None)
    ran = len(found) - blocked
    return (
        f"{logs} task log(s) in {folder} hold {len(found)} `run` command(s): {ran} ran, {blocked} blocked by "
        "deny rules"
    )


def _denied_note(denied: list[tuple[str, str]]) -> str:
    if not denied:
        return ""
    shown = "; ".join(f"`{command}` ({rule})" for command, rule in denied[:5])
    more = f"; and {len(denied) - 5} more" if len(denied) > 5 else ""
    return f" ({shown}{more}); a deny rule applies on top of any allowlist, so no allow entry can allow them"


def run_cache(args: argparse.Namespace) -> int:
    from glmagent.guard import _cache

    folder = _cache.cache_dir()
    if args.clear:
        removed = _cache.clear()
        print(f"removed {removed} cached polic{'y' if removed == 1 else 'ies'} from {folder}")
        return EXIT_SUCCESS
    entries = _cache.entries()
    state = "on" if _cache.enabled() else "off (GLMAGENT_POLICY_CACHE)"
    print(f"policy cache: {folder} ({state})")
    total = sum(p.stat().st_size for p in entries)
    print(f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}, {total / 1024:.0f} KiB")
    return EXIT_SUCCESS


def render_explanation(explained: Any) -> str:
    """An `Explanation` as text: the decision first, then each simple command at its nesting depth."""
    decision = explained.decision
    mode = f"{explained.mode} mode"
    lines = []
    if decision.allowed:
        lines.append(f"ALLOWED ({decision.backend}, {mode}): {decision.reason}")
    else:
        lines.append(f"BLOCKED ({decision.backend}, {mode}) by {decision.rule_id} [{decision.category}]")
        lines.append(f"  {decision.reason}")
        if decision.justification:
            lines.append(f"  why: {decision.justification}")
    lines.append(f"\nparse: {explained.parse_status}")
    if explained.commands:
        lines.append("commands, outermost first (indented: run by the command above it):")
    for number, step in enumerate(explained.commands, 1):
        indent = "  " * (step.depth + 1)
        lines.append(f"{indent}{number}. {' '.join(step.raw)}")
        detail = f"{indent}   program {step.program}"
        if step.via:
            detail += f", inside {' -> '.join(step.via)}"
        if step.dialect != decision.backend:
            detail += f", read as {step.dialect}"
        lines.append(detail)
        if step.words != step.raw:
            lines.append(f"{indent}   words: {' | '.join(step.words)}")
        if explained.mode == "allowlist" and step.allowed_by is not None:
            lines.append(f"{indent}   on the allowlist: {', '.join(step.allowed_by)}")
        lines += [_finding_line(indent, found) for found in step.findings]
    for found in explained.line_findings:
        lines.append(_finding_line("  ", found))
    if explained.tree is not None:
        lines.append(f"\nsyntax tree:\n{explained.tree}")
    return "\n".join(lines)


def _finding_line(indent: str, found: Any) -> str:
    mark = "  <- decides" if found.decides else ""
    return f"{indent}   {found.rule_id} [{found.category}]: {found.reason}{mark}"
