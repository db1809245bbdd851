"""The `glmagent` command: argument parsing and rendering over the library API, nothing more."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence

from glmagent import __version__
from glmagent.cli._exit import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_NOT_DONE,
    EXIT_PLANNER,
    EXIT_SUCCESS,
    EXIT_USAGE,
)
from glmagent.errors import ConfigError, GlmAgentError, PlannerError, PolicyError

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_INTERRUPTED",
    "EXIT_NOT_DONE",
    "EXIT_PLANNER",
    "EXIT_SUCCESS",
    "EXIT_USAGE",
    "build_parser",
    "main",
]

_MAIN_EPILOG = """\
examples:
  glmagent demo                                   offline run on a bundled sample project
  glmagent task "add null checks to parser.py" --test "pytest"
  glmagent task "fix the failing test" --provider replay --replay replies.jsonl --json
  glmagent act '{"tool": "read_file", "path": "README.md"}'
  glmagent policy check "rm -rf build"            exit 1: blocked, with the rule that matched
  glmagent policy rules                           the deny rules and why each exists
  glmagent audit list                             recorded runs here, newest first, with chain status
  glmagent audit verify TASK_ID                   exit 1 if a record was edited, removed or rewritten
  glmagent task --resume TASK_ID                  continue a stopped task with its memory

exit codes of `task`: 0 success, 1 finished without success, 2 usage or configuration error,
3 planner/provider failure, 130 interrupted (Ctrl-C), 143/129 stopped by SIGTERM/SIGHUP (summary and
audit record written, running commands stopped).
"""


#: Subcommand modules, in the order `--help` lists them; each has `register(commands)`, which adds its
#: parser and sets `handler`. Keeping each command in its own module keeps this file to the shared plumbing.
_COMMAND_MODULES = ("_task", "_act", "_audit", "_replay", "_policy", "_schema", "_trust")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (exposed for tests and documentation)."""
    import importlib

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
    for name in _COMMAND_MODULES:
        importlib.import_module(f"glmagent.cli.{name}").register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _configure_logging(args.verbose)
    handler = args.handler
    from glmagent.cli._signals import stop_on_termination, termination_exit_code

    try:
        with stop_on_termination():
            code = handler(args)
        return termination_exit_code() or code
    except KeyboardInterrupt as stop:
        print(f"\n{stop or 'interrupted'}", file=sys.stderr)
        return termination_exit_code() or EXIT_INTERRUPTED
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
