"""The `glmagent` command: argument parsing and rendering over the library API, nothing more.

Start-up matters (`glmagent --help`, `glmagent policy check` in a loop): at import this package loads only
argparse and its own small modules; everything else is imported by the handler that needs it.
`bench/startup_bench.py` measures it against a bare interpreter.
"""

from __future__ import annotations

import argparse
import sys

from glmagent import __version__
from glmagent.cli._exit import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_NOT_DONE,
    EXIT_PLANNER,
    EXIT_SUCCESS,
    EXIT_USAGE,
)
from glmagent.cli._output import add_output_options, merge_output_options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_INTERNAL",
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
  glmagent task --task-file TASK.md --replay replies.jsonl --json
  glmagent act '{"tool": "read_file", "path": "README.md"}'
  glmagent policy check "rm -rf build"            exit 1: blocked, with the rule that matched
  glmagent config show                            every setting and where it came from

exit codes: 0 success, 1 finished without success (or: blocked, failed), 2 usage or configuration error,
3 planner/provider failure, 130 interrupted (Ctrl-C), 143/129 stopped by SIGTERM/SIGHUP (summary and
audit record written, running commands stopped), 141 output pipe closed.
"""


#: Subcommand modules, in the order `--help` lists them; each has `register(commands)`, which adds its
#: parser and sets `handler`. Keeping each command in its own module keeps this file to the shared plumbing.
_COMMAND_MODULES = ("_task", "_act", "_policy", "_schema", "_trust", "_config", "_init")


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
    add_output_options(parser, sub=False)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for name in _COMMAND_MODULES:
        module = __import__(f"glmagent.cli.{name}", fromlist=["register"])
        module.register(commands)
    for subparser in _subparsers(parser):
        add_output_options(subparser, sub=True)
    return parser


def _subparsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Every subcommand's parser, nested ones (`policy check`) included."""
    found: list[argparse.ArgumentParser] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in dict.fromkeys(action.choices.values()):  # aliases map to the same parser
                found.append(child)
                found += _subparsers(child)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    from glmagent.cli._output import protect_streams

    protect_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    merge_output_options(args)
    handler = args.handler
    from glmagent.cli._output import configure_logging
    from glmagent.cli._signals import stop_on_termination, termination_exit_code
    from glmagent.errors import ConfigError, GlmAgentError, PlannerError, PolicyError

    configure_logging(args.verbose, args.log_format, colour=args.colour)
    try:
        with stop_on_termination():
            code = handler(args)
        return termination_exit_code() or code
    except KeyboardInterrupt as stop:
        print(f"\nglmagent: {stop or 'interrupted'}", file=sys.stderr)
        return termination_exit_code() or EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`glmagent ... | head`): stop quietly, like other Unix tools.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except PlannerError as error:
        _error(f"planner error: {error}")
        return EXIT_PLANNER
    except (ConfigError, PolicyError) as error:
        _error(str(error))
        return EXIT_USAGE
    except GlmAgentError as error:
        _error(str(error))
        return EXIT_NOT_DONE
    except Exception as error:  # a bug in glmagent itself: say so plainly, keep the traceback behind -v
        _error(f"internal error (a bug in glmagent): {type(error).__name__}: {error}")
        if args.verbose:
            import traceback

            traceback.print_exc()
        else:
            print("run again with -v for the traceback", file=sys.stderr)
        return EXIT_INTERNAL


def _error(message: str) -> None:
    from glmagent.ui import inert

    print(f"glmagent: {inert(message, multiline=True)}", file=sys.stderr)
