"""A finished task with every kind of step, shared by the audit tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import plan, python_check

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.planners.scripted import ScriptedPlanner

DIFF = "\n".join(
    [
        "--- a/app.py",
        "+++ b/app.py",
        "@@",
        " def greet(name):",
        "-    return 'hello ' + name",
        "+    return 'hi ' + name",
        "",
    ]
)
REPLIES = [
    plan({"tool": "read_file", "path": "app.py"}, thought="look first"),
    plan({"tool": "run", "command": "rm -rf /"}, {"tool": "git_status"}, thought="clean up"),
    plan(
        {"tool": "apply_diff", "path": "app.py", "diff": DIFF},
        {"tool": "run", "command": "echo changed"},
        thought="say hi",
        steps=["edit app.py", "check"],
    ),
]


def finished_task(
    project: Path, task_id: str = "t", description: str = "say hi", *, test_output: str = ""
) -> Path:
    """Run a task with a read, a blocked command, a diff, a command and test runs; returns its audit log.
    The test command prints `test_output` (nothing by default) before it passes or fails."""
    agent = CodingAgent(planner=ScriptedPlanner(REPLIES), settings=Settings(provider="replay", shell="posix"))
    check = python_check(f"print({test_output!r}) or 'hi ' in open('app.py').read()")
    result = agent.run(CodingAgent.create_task(description, project, test_command=check, task_id=task_id))
    assert result.success
    return project / ".hazina" / "agent-memory" / f"{task_id}.jsonl"


def run_glmagent(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`glmagent ARGS` as a separate process, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "glmagent", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
