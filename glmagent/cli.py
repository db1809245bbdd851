"""The `glmagent` command: argument parsing and rendering over the library API, nothing more."""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from glmagent import __version__
from glmagent.errors import ConfigError, GlmAgentError, PlannerError, PolicyError

EXIT_SUCCESS = 0
EXIT_NOT_DONE = 1
EXIT_USAGE = 2
EXIT_PLANNER = 3
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141

_MAIN_EPILOG = """\
examples:
  glmagent demo                                   offline run on a bundled sample project
  glmagent task "add null checks to parser.py" --test "pytest"
  glmagent task "fix the failing test" --provider replay --replay replies.jsonl --json
  glmagent act '{"tool": "read_file", "path": "README.md"}'
  glmagent policy check "rm -rf build"            exit 1: blocked, with the rule that matched
  glmagent policy rules                           the deny rules and why each exists

exit codes of `task`: 0 success, 1 finished without success, 2 usage or configuration error,
3 planner/provider failure, 130 interrupted (Ctrl-C).
"""

_TASK_EPILOG = """\
The loop stops by itself: when the planner returns no actions, when the tests pass (if they failed before
iteration 1), or at --max-iterations. Each iteration's summary is appended to
.hazina/agent-memory/TASK_ID.txt and every event to TASK_ID.jsonl beside it; reuse --task-id to continue.

providers (API keys come from the environment only):
  glm     GLM API (default): ZAI_API_KEY or ZHIPUAI_API_KEY
  openai  any OpenAI-compatible endpoint: OPENAI_API_KEY, --base-url URL --model M
  ollama  local Ollama at http://localhost:11434/v1, no key
  replay  recorded replies, offline: --replay FILE (JSON Lines, one reply per line)

settings precedence: flags > GLMAGENT_* environment variables > .hazina/config.toml > defaults.
"""


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (exposed for tests and documentation)."""
    parser = argparse.ArgumentParser(
        prog="glmagent",
        description="A plan → act → observe coding agent: a model plans, glmagent acts through five "
        "checked tools (read_file, apply_diff, run, git_status, git_diff) and observes the results.",
        epilog=_MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"glmagent {__version__}")
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help="operational logs on stderr (-vv: debug)"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    task = commands.add_parser(
        "task",
        help="run a task in a project",
        description="Run the plan → act → observe loop on DESCRIPTION in a project directory.",
        epilog=_TASK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    task.add_argument("description", help="what to do, in plain words")
    task.add_argument("--test", dest="test_command", metavar="CMD", help="test command the loop runs itself")
    task.add_argument(
        "-C", "--directory", type=Path, default=Path("."), help="project directory (default: .)"
    )
    task.add_argument("--max-iterations", type=int, metavar="N", help="iteration limit (default 5)")
    task.add_argument("--provider", choices=("glm", "openai", "ollama", "replay"), help="planner provider")
    task.add_argument("--model", help="model name (each provider has a default)")
    task.add_argument("--base-url", metavar="URL", help="API root of an OpenAI-compatible provider")
    task.add_argument("--replay", type=Path, metavar="FILE", help="recorded replies for --provider replay")
    _add_shell(task)
    task.add_argument("--task-id", metavar="ID", help="memory file name; reuse it to continue a task")
    _add_policy_files(task)
    task.add_argument("--command-timeout", type=float, metavar="S", help="seconds per `run` command (300)")
    task.add_argument("--test-timeout", type=float, metavar="S", help="seconds for the test command (900)")
    task.add_argument("--json", action="store_true", help="print the result as JSON on stdout")

    demo = commands.add_parser(
        "demo",
        help="offline end-to-end run on a bundled sample project",
        description="Copy a small sample project into a temporary directory and run the real loop on it "
        "with a recorded planner: read the file, apply a fix, tests pass, stop. Needs pytest.",
    )
    demo.add_argument("--dir", type=Path, metavar="DIR", help="copy the sample project here instead")
    _add_shell(demo)
    demo.add_argument("--json", action="store_true", help="print the result as JSON on stdout")

    act = commands.add_parser(
        "act",
        help="run ONE action through validation, policy and executor",
        description="Run one action exactly as the loop would and print the observation as JSON. "
        "Exit 0 if it succeeded, 1 if it was rejected or failed, 2 if the action JSON is invalid.",
        epilog='example: glmagent act \'{"tool": "run", "command": "pytest -q"}\'',
    )
    act.add_argument("action", help="the action as JSON, or - to read it from stdin")
    act.add_argument("-C", "--directory", type=Path, default=Path("."), help="project directory (default: .)")
    _add_shell(act)
    _add_policy_files(act)

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
    _add_policy_files(check)
    rules = policy_commands.add_parser("rules", help="list the deny rules with their justification")
    rules.add_argument("--json", action="store_true", help="print the rules as JSON")
    _add_policy_files(rules)

    commands.add_parser("schema", help="print the planner output JSON schema")
    return parser


def _add_shell(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--shell",
        choices=("auto", "posix", "powershell"),
        help="command backend (auto: PowerShell on Windows)",
    )


def _add_policy_files(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--policy",
        dest="policy_files",
        action="append",
        type=Path,
        metavar="FILE",
        default=[],
        help="extra deny rules (TOML); repeatable; can only add denies",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _configure_logging(args.verbose)
    handler = {
        "task": _cmd_task,
        "demo": _cmd_demo,
        "act": _cmd_act,
        "policy": _cmd_policy,
        "schema": _cmd_schema,
    }[args.command]
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`glmagent ... | head`): stop quietly, like other Unix tools.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except PlannerError as error:
        print(f"glmagent: planner error: {error}", file=sys.stderr)
        return EXIT_PLANNER
    except (ConfigError, PolicyError) as error:
        print(f"glmagent: {error}", file=sys.stderr)
        return EXIT_USAGE
    except GlmAgentError as error:
        print(f"glmagent: {error}", file=sys.stderr)
        return EXIT_NOT_DONE
    except Exception as error:  # a bug in glmagent itself: say so plainly, keep the traceback behind -v
        print(f"glmagent: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        if args.verbose:
            traceback.print_exc()
        else:
            print("run again with -v for the traceback", file=sys.stderr)
        return 70


class _StderrLogger:
    """Writes to whatever `sys.stderr` is at call time (it may be swapped after configuration)."""

    def msg(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    debug = info = warning = warn = error = critical = exception = fatal = msg


def _configure_logging(verbosity: int) -> None:
    import logging

    import structlog

    level = logging.WARNING if verbosity == 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="%H:%M:%S"),
            structlog.dev.ConsoleRenderer(colors=False),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=lambda *_: _StderrLogger(),
        cache_logger_on_first_use=False,
    )


def _exit_code(result: Any) -> int:
    from glmagent.loop import StopReason

    if result.success:
        return EXIT_SUCCESS
    if result.stop_reason is StopReason.PLANNER_ERROR:
        return EXIT_PLANNER
    if result.stop_reason is StopReason.INTERRUPTED:
        return EXIT_INTERRUPTED
    return EXIT_NOT_DONE


def _cmd_task(args: argparse.Namespace) -> int:
    from glmagent.agent import CodingAgent, planner_from_settings
    from glmagent.config import resolve_settings
    from glmagent.render import ConsoleObserver

    workdir = args.directory.expanduser().resolve()
    if not workdir.is_dir():
        raise ConfigError(f"project directory does not exist: {workdir}")
    flags = {
        "provider": args.provider,
        "model": args.model,
        "base_url": args.base_url,
        "replay": args.replay,
        "max_iterations": args.max_iterations,
        "test_command": args.test_command,
        "shell": args.shell,
        "command_timeout": args.command_timeout,
        "test_timeout": args.test_timeout,
        "policy_files": args.policy_files,
    }
    if args.replay is not None and args.provider is None:
        flags["provider"] = "replay"  # --replay alone clearly means offline replay
    settings = resolve_settings(workdir, flags)
    planner = planner_from_settings(settings)
    progress = sys.stderr if args.json else sys.stdout
    observer = ConsoleObserver(progress, planner_label=getattr(planner, "name", settings.provider))
    agent = CodingAgent(planner=planner, settings=settings, observer=observer)
    task = CodingAgent.create_task(
        description=args.description,
        working_directory=workdir,
        max_iterations=settings.max_iterations,
        test_command=settings.test_command,
        task_id=args.task_id,
    )
    print(f"task {task.task_id} in {workdir}", file=progress)
    try:
        result = agent.run(task)
    finally:
        close = getattr(planner, "close", None)
        if callable(close):
            close()
    _emit_result(result, args.json)
    return _exit_code(result)


def _emit_result(result: Any, as_json: bool) -> None:
    from glmagent.render import render_result

    if as_json:
        print(json.dumps(result.model_dump(mode="json"), indent=2))
    else:
        render_result(result)


def _cmd_demo(args: argparse.Namespace) -> int:
    from glmagent.demo import DEMO_TASK, run_demo
    from glmagent.render import ConsoleObserver

    progress = sys.stderr if args.json else sys.stdout
    print(f"glmagent demo: {DEMO_TASK}", file=progress)
    print("planner: recorded replies (offline); tests: the sample project's pytest suite", file=progress)
    result = run_demo(
        args.dir, observer=ConsoleObserver(progress, planner_label="replay"), shell=args.shell or "auto"
    )
    print(f"\nproject: {result.working_directory}", file=progress)
    _emit_result(result, args.json)
    return _exit_code(result)


def _cmd_act(args: argparse.Namespace) -> int:
    from glmagent.agent import CodingAgent
    from glmagent.config import resolve_settings
    from glmagent.contract import InvalidPlannerOutput, parse_action

    text = sys.stdin.read() if args.action == "-" else args.action
    try:
        action = parse_action(text)
    except InvalidPlannerOutput as invalid:
        print(json.dumps({"status": "rejected", "error": str(invalid)}))
        return EXIT_USAGE
    workdir = args.directory.expanduser().resolve()
    settings = resolve_settings(workdir, {"shell": args.shell, "policy_files": args.policy_files})
    observation = CodingAgent(settings=settings).act(action, workdir)
    print(json.dumps(observation.model_dump(mode="json"), indent=2))
    return EXIT_SUCCESS if observation.status == "ok" else EXIT_NOT_DONE


def _cmd_policy(args: argparse.Namespace) -> int:
    from glmagent.guard import Policy

    policy = Policy.load(args.policy_files) if args.policy_files else Policy.default()
    if args.policy_command == "rules":
        return _print_rules(policy, args.json)
    if args.cmd == "-":
        blocked = 0
        for line in sys.stdin:
            decision = policy.check(line.rstrip("\r\n"), args.shell)
            blocked += not decision.allowed
            print(json.dumps(decision.model_dump(mode="json")), flush=False)
        return EXIT_NOT_DONE if blocked else EXIT_SUCCESS
    decision = policy.check(args.cmd, args.shell)
    if args.json:
        print(json.dumps(decision.model_dump(mode="json"), indent=2))
    elif decision.allowed:
        print(f"allowed ({args.shell})")
    else:
        print(f"BLOCKED ({args.shell})\n{decision.planner_message()}")
    return EXIT_SUCCESS if decision.allowed else EXIT_NOT_DONE


def _print_rules(policy: Any, as_json: bool) -> int:
    rules = list(policy.rules)
    if as_json:
        print(json.dumps([rule.model_dump(mode="json") for rule in rules], indent=2))
        return EXIT_SUCCESS
    for rule in rules:
        print(f"{rule.id}  [{rule.category}]\n    {rule.justification}")
    print(f"\n{len(rules)} rules")
    return EXIT_SUCCESS


def _cmd_schema(args: argparse.Namespace) -> int:
    from glmagent.contract import planner_schema

    print(json.dumps(planner_schema(), indent=2))
    return EXIT_SUCCESS
