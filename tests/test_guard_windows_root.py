"""A working directory on a Windows drive (`C:\\Users\\dev\\app`) is the project, as a POSIX one is: a
command the policy judges against it is checked, not failed."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import decide_in

DEV = Path("C:/Users/dev/app")

JUDGED = [
    # (command, the working directory, the rule that blocks it; None: allowed)
    ("python C:\\Users\\dev\\app\\tools\\gen.py", DEV, None),
    ("python C:\\tmp\\x.py", DEV, "unverifiable.outside-program"),
    ("cd C:\\; make", DEV, "unverifiable.outside-program"),
    ("Remove-Item -Recurse C:\\Users\\dev\\other", DEV, "destructive.recursive-delete"),
]


@pytest.mark.parametrize(("command", "root", "rule"), JUDGED)
def test_a_drive_working_directory_is_judged_as_the_project(
    command: str, root: Path | None, rule: str | None
) -> None:
    decision = decide_in(command, root, "powershell")
    assert decision.rule_id == rule, f"{decision.rule_id}: {decision.reason}"
