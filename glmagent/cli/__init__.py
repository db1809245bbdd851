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
    from typing import NoReturn

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
  glmagent audit list                             recorded runs here, newest first, with chain status
  glmagent audit verify TASK_ID                   exit 1 if a record was edited, removed or rewritten
  glmagent task --resume TASK_ID                  continue a stopped task with its memory

exit codes: 0 success, 1 finished without success (or: blocked, failed), 2 usage or configuration error,
3 planner/provider failure, 130 interrupted (Ctrl-C), 143/129 stopped by SIGTERM/SIGHUP (summary and
audit record written, running commands stopped), 141 output pipe closed (the run still goes on to its end).
"""


#: The subcommands, in the order `--help` lists them: the module that registers each (its `register(commands)`
#: adds the parser and sets `handler`) and its one-line help. Only the module of the command being run is
#: imported; the others appear in `glmagent --help` from this table (tests keep it equal to the modules).
COMMANDS: dict[str, tuple[str, str]] = {
    "task": ("_task", "run a task in a project"),
    "demo": ("_task", "offline end-to-end run on a bundled sample project"),
    "act": ("_act", "run ONE action through validation, policy and executor"),
    "audit": ("_audit", "review, verify and export recorded runs"),
    "replay": ("_replay", "re-run a recorded run's replies and report where the outcome differs"),
    "policy": (
        "_policy",
        "check or explain commands against the command policy, list its rules, suggest an allowlist",
    ),
    "schema": ("_schema", "print the planner output JSON schema"),
    "trust": ("_trust", "trust a project's .hazina/config.toml (provider, base_url, test_command)"),
    "config": ("_config", "show the effective settings and where each came from"),
    "init": ("_init", "write a commented .hazina/config.toml with every setting"),
}

#: Main-level options that take a value (so the word after them is not the command).
_VALUED_OPTIONS = ("--log-format",)


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter, minus a `shutil` import and a terminal-size query per argument added."""

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
    ):
        super().__init__(prog, indent_increment, max_help_position, width or _help_width())


class _WrappingFormatter(_Formatter, argparse.HelpFormatter):
    """`_Formatter` that also wraps descriptions (for parsers that did not ask for raw ones)."""

    _fill_text = argparse.HelpFormatter._fill_text


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser using the cheap formatters (subcommand parsers inherit the class)."""

    def __init__(self, *args: object, formatter_class: object = None, **kwargs: object) -> None:
        raw = formatter_class is argparse.RawDescriptionHelpFormatter or formatter_class is _Formatter
        super().__init__(*args, formatter_class=_Formatter if raw else _WrappingFormatter, **kwargs)  # type: ignore[misc, arg-type]

    def error(self, message: str) -> NoReturn:
        """A usage error: argparse's usage and message, or with `--log-format json` one JSON line."""
        from glmagent.cli._output import notice, stderr_is_json

        if not stderr_is_json():
            super().error(message)
        notice(f"{self.prog}: {message} (see {self.prog} --help)", level="error")
        sys.exit(EXIT_USAGE)


def _remember_translations() -> None:
    """argparse asks gettext for each message it sets up or shows (a dozen per parser), and gettext searches
    the locale folders on every call; the answers cannot change while glmagent runs, so keep them."""
    import functools

    if not hasattr(argparse._, "cache_info"):  # type: ignore[attr-defined]
        argparse._ = functools.cache(argparse._)  # type: ignore[attr-defined]


_remember_translations()

_width: list[int] = []


def _help_width() -> int:
    if not _width:
        import os

        columns = os.environ.get("COLUMNS", "")
        if columns.isdigit():
            width = int(columns)
        else:
            try:
                width = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
            except (AttributeError, ValueError, OSError):
                width = 80
        _width.append(max(width - 2, 20))
    return _width[0]


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser. Given `argv`, only the command it names is built in full (start-up time);
    without, every command is (for tests and documentation)."""
    parser = _Parser(
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
    wanted = _command_in(argv) if argv is not None else None
    registered: set[str] = set()
    for name, (module_name, help) in COMMANDS.items():
        if name in registered:
            continue
        if argv is not None and name != wanted and COMMANDS.get(wanted or "", ("",))[0] != module_name:
            commands.add_parser(name, help=help, add_help=False)
            continue
        module = __import__(f"glmagent.cli.{module_name}", fromlist=["register"])
        before = set(commands.choices)
        module.register(commands)
        registered |= set(commands.choices) - before
    for subparser in _subparsers(parser):
        if subparser.add_help:  # stubs of commands not being run have nothing to add to
            add_output_options(subparser, sub=True)
    return parser


def _wants_json_logs(argv: Sequence[str]) -> bool:
    """Does `argv` ask for `--log-format json` (before or after the command, `=` or not)?"""
    return any(
        word == "--log-format=json" or (word == "--log-format" and following == "json")
        for word, following in zip(argv, [*argv[1:], ""], strict=True)
    )


def _command_in(argv: Sequence[str]) -> str | None:
    """The subcommand `argv` names: its first word that is not a main-level option (or an option's value)."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word in _VALUED_OPTIONS:
            skip = True
        elif not word.startswith("-"):
            return word
    return None


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
    from glmagent.cli._output import ReaderGoneStdout, protect_streams

    protect_streams()
    stdout = sys.stdout
    guarded = ReaderGoneStdout(stdout) if stdout is not None else None
    if guarded is not None:
        sys.stdout = guarded  # type: ignore[assignment]
    try:
        code = _main(argv)
        if guarded is not None and not guarded.reader_gone:
            guarded.flush()  # a reader that left during the last lines shows here
    finally:
        if sys.stdout is guarded:
            sys.stdout = stdout
    if guarded is not None and guarded.reader_gone and code not in _STOPPED_BY_SIGNAL:
        # The reader left (`glmagent … | head`); the run went on to its end: say so where it can be seen.
        print(
            "glmagent: the output pipe was closed by its reader; the run went on to its end", file=sys.stderr
        )
        return EXIT_BROKEN_PIPE
    return code


#: Exit codes of a run stopped by Ctrl-C or a signal: they say more than a closed output pipe does.
_STOPPED_BY_SIGNAL = frozenset({EXIT_INTERRUPTED, 128 + 1, 128 + 15})


def _main(argv: Sequence[str] | None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if _wants_json_logs(arguments):
        from glmagent.cli._output import use_log_format

        use_log_format("json")  # before parsing: a usage error is then a JSON line too
    parser = build_parser(arguments)
    args = parser.parse_args(arguments)
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
        _error(f"{stop or 'interrupted'}")
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
            _error("run again with -v for the traceback")
        return EXIT_INTERNAL


def _error(message: str) -> None:
    from glmagent.cli._output import notice

    notice(message, level="error", multiline=True)
