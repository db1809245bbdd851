"""`glmagent schema`: print the planner output JSON schema."""

from __future__ import annotations

import argparse
import json
from typing import Any

from glmagent.cli._exit import EXIT_SUCCESS


def register(commands: Any) -> None:
    schema = commands.add_parser("schema", help="print the planner output JSON schema")
    schema.set_defaults(handler=run_schema)


def run_schema(args: argparse.Namespace) -> int:
    from glmagent.contract import planner_schema

    print(json.dumps(planner_schema(), indent=2))
    return EXIT_SUCCESS
