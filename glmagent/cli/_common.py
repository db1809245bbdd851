"""Argument helpers shared by several subcommands.

Imported by every `glmagent` invocation, `--help` included: only `argparse` at module level (paths are
built by `path_arg` when an option is actually given), so start-up stays close to a bare interpreter.
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path


def path_arg(text: str) -> Path:
    """`type=` for path options; pathlib is imported only when a path is parsed."""
    from pathlib import Path

    return Path(text)


def add_shell(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--shell",
        choices=("auto", "posix", "powershell"),
        help="command backend (auto: PowerShell on Windows)",
    )


def add_containment(parser: argparse.ArgumentParser) -> None:
    """`--sandbox`, `--allow-network` and `--command-timeout`: how commands the agent runs are contained."""
    parser.add_argument(
        "--sandbox",
        choices=("auto", "bwrap", "none"),
        help="OS sandbox for commands and tests (auto: bubblewrap on Linux if installed; none: policy only)",
    )
    parser.add_argument(
        "--allow-network",
        action="store_true",
        default=None,
        help="let sandboxed commands and tests use the network (recorded in the audit log)",
    )
    parser.add_argument(
        "--command-timeout", type=float, metavar="S", help="seconds per `run` command (default 300)"
    )


def add_policy_files(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--policy",
        dest="policy_files",
        action="append",
        type=path_arg,
        metavar="FILE",
        default=[],
        help="extra deny rules (TOML); repeatable; can only add denies",
    )


def add_directory(parser: argparse.ArgumentParser, help: str = "project directory (default: .)") -> None:
    # A string default goes through `type` too, so handlers always get a Path.
    parser.add_argument("-C", "--directory", type=path_arg, default=".", help=help)


def add_json(parser: argparse.ArgumentParser, help: str = "print the result as JSON on stdout") -> None:
    parser.add_argument("--json", action="store_true", help=help)


def warn(message: str) -> None:
    """A warning on stderr (`glmagent: ...`), control characters made visible."""
    from glmagent.cli._output import warning

    warning(message)
