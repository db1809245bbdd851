"""Exit codes of the `glmagent` command, in one place so every subcommand means the same thing by them."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

EXIT_SUCCESS = 0
EXIT_NOT_DONE = 1
EXIT_USAGE = 2
EXIT_PLANNER = 3
EXIT_INTERNAL = 70
"""A bug in glmagent itself; never the answer to bad input from the user or the model."""
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141


def task_exit_code(result: Any) -> int:
    """The exit code of `task`/`demo` for a `TaskResult`."""
    from glmagent.loop import StopReason

    if result.success:
        return EXIT_SUCCESS
    if result.stop_reason is StopReason.PLANNER_ERROR:
        return EXIT_PLANNER
    if result.stop_reason is StopReason.INTERRUPTED:
        return EXIT_INTERRUPTED
    return EXIT_NOT_DONE
