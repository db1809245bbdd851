"""`glmagent schema`: print the planner output JSON schema."""

from __future__ import annotations

import argparse

from glmagent.cli._exit import EXIT_SUCCESS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def register(commands: Any) -> None:
    schema = commands.add_parser("schema", help="print the planner output JSON schema")
    schema.set_defaults(handler=run_schema)


def run_schema(args: argparse.Namespace) -> int:
    import json

    from glmagent.contract import planner_schema

    print(json.dumps(planner_schema(), indent=2))
    return EXIT_SUCCESS
