"""Shared fixtures: real temporary projects, a scripted planner, and the real executor parts."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from glmagent.guard import Decision

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "corpus"


@pytest.fixture(autouse=True)
def _private_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test gets its own user config and state folders: nothing reads or writes the real ones."""
    base = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("GLMAGENT_CONFIG_DIR", str(base / "config"))
    monkeypatch.setenv("GLMAGENT_STATE_DIR", str(base / "state"))


def plan(*actions: dict, thought: str = "working on it", steps: list[str] | None = None) -> dict:
    """A planner reply document."""
    return {"thought": thought, "plan": steps or [], "actions": list(actions)}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small real project directory with a module and a state-driven test command."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text("def greet(name):\n    return 'hello ' + name\n", encoding="utf-8")
    return root


@pytest.fixture
def git_project(project: Path) -> Path:
    """`project` as a git repository with one commit."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    env_args = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "-A"], cwd=project, check=True)
    subprocess.run(["git", *env_args, "commit", "-qm", "init"], cwd=project, check=True)
    return project


def python_check(expression: str) -> str:
    """A test command that passes when `expression` (Python, run in the project) is true."""
    code = f"import sys; sys.exit(0 if ({expression}) else 1)"
    return f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}"


def guard_decision(shell: str, command: str) -> Decision:
    """The built-in policy's decision on `command` (imported here lazily: conftest loads for every test)."""
    from glmagent.guard import Policy

    return Policy.default().check(command, shell)  # type: ignore[arg-type]


def guard_example(command: str) -> Decision:
    """The built-in policy's decision on a command written like a rule example: `PS> ` runs it on the
    PowerShell backend, anything else on POSIX."""
    if command.startswith("PS> "):
        return guard_decision("powershell", command[4:])
    return guard_decision("posix", command)


ELEVATION = "containment.privilege-elevation"
"""The rule that decides any line that elevates or switches user (`sudo X`), whatever X is."""


def guard_findings(shell: str, command: str) -> set[str]:
    """Every rule id and category the whole walk finds in `command` (not only the deciding one)."""
    from glmagent.guard import Policy

    explained = Policy.default().explain(command, shell)  # type: ignore[arg-type]
    found = [f for c in explained.commands for f in c.findings] + list(explained.line_findings)
    return {f.rule_id for f in found} | {f.category for f in found}


def assert_decided_as(shell: str, command: str, decision: Decision, expected: str) -> None:
    """`decision` blocks `command` as `expected` (a rule id with a dot, or a category). A line that elevates
    (`sudo X`) is decided by the privilege rule; what it wraps must still be found as `expected` inside it."""
    assert not decision.allowed, f"allowed: {command!r}"
    got = decision.rule_id if "." in expected else decision.category
    if got != expected and decision.rule_id == ELEVATION:
        assert expected in guard_findings(shell, command), f"{command!r}: {expected} not found inside"
        return
    assert got == expected, f"{command!r}: {decision.rule_id} ({decision.reason})"


def guard_blocks(shell: str, command: str, expected: str) -> None:
    """`command` is blocked by `expected`: a rule id (with a dot) or a category (see `assert_decided_as`)."""
    assert_decided_as(shell, command, guard_decision(shell, command), expected)


def guard_allows(shell: str, command: str, *, clean_parse: bool = False) -> None:
    """`command` is allowed (and, with `clean_parse`, read without a parse problem)."""
    d = guard_decision(shell, command)
    assert d.allowed, f"blocked: {command!r}: {d.rule_id} ({d.reason})"
    if clean_parse:
        assert d.parse_status == "ok"
