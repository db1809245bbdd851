"""Argument helpers shared by several subcommands."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


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
    parser.add_argument("--command-timeout", type=float, metavar="S", help="seconds per `run` command (300)")


def add_policy_files(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--policy",
        dest="policy_files",
        action="append",
        type=Path,
        metavar="FILE",
        default=[],
        help="extra deny rules (TOML); repeatable; can only add denies",
    )


def add_directory(parser: argparse.ArgumentParser, help: str = "project directory (default: .)") -> None:
    parser.add_argument("-C", "--directory", type=Path, default=Path("."), help=help)


def emit_result(result: Any, as_json: bool) -> None:
    """Print a `TaskResult`: the JSON document on stdout, or the human summary."""
    from glmagent.render import render_result

    if as_json:
        print(json.dumps(result.model_dump(mode="json"), indent=2))
    else:
        render_result(result)
