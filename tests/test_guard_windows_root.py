"""A working directory on a Windows drive (`C:\\Users\\dev\\app`) is the project, as a POSIX one is: a
command the policy judges against it is checked, not failed; and the superuser's home holds the project
itself where the agent works there (a container's `/var/root/app`, Windows' `C:\\Users\\Administrator\\…`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import decide_in

DEV = Path("C:/Users/dev/app")
ADMIN = Path("C:\\Users\\Administrator\\src\\app")

JUDGED = [
    # (command, the working directory, the rule that blocks it; None: allowed)
    ("python C:\\Users\\dev\\app\\tools\\gen.py", DEV, None),
    ("python C:\\tmp\\x.py", DEV, "unverifiable.outside-program"),
    ("cd C:\\; make", DEV, "unverifiable.outside-program"),
    ("Remove-Item -Recurse C:\\Users\\dev\\other", DEV, "destructive.recursive-delete"),
    ("Get-Content C:\\Users\\Administrator\\src\\app\\README.md", ADMIN, None),
    ("Get-Content .\\README.md", ADMIN, None),
    ("Get-Content C:\\Users\\Administrator\\Desktop\\proof.txt", ADMIN, "env.secret-files"),
    ("Get-Content C:\\Users\\Administrator\\src\\app\\README.md", DEV, "env.secret-files"),
    ("Get-Content C:\\Users\\Administrator\\src\\app\\README.md", None, "env.secret-files"),
]


@pytest.mark.parametrize(("command", "root", "rule"), JUDGED)
def test_a_drive_working_directory_is_judged_as_the_project(
    command: str, root: Path | None, rule: str | None
) -> None:
    decision = decide_in(command, root, "powershell")
    assert decision.rule_id == rule, f"{decision.rule_id}: {decision.reason}"


def test_a_project_in_the_superusers_home_reads_its_own_files() -> None:
    root = Path("/var/root/app")
    assert decide_in("cat /var/root/app/README.md", root).allowed
    assert decide_in("cat /var/root/notes.txt", root).rule_id == "env.secret-files"
    assert decide_in("cat /var/root/app/../notes.txt", root).rule_id == "env.secret-files"
    assert decide_in("cat /var/root/app/README.md", None).rule_id == "env.secret-files"
