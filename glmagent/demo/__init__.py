"""`glmagent demo`: the real loop, offline, on a bundled sample project with a recorded planner.

The sample project (`sample_project/`) has a module that crashes on `None` input and a pytest suite with one
failing test. The recorded replies (`replies.jsonl`) read the module, then send a fix the way models write
diffs (placeholder hunk header, stale line numbers, JSON wrapped in prose and a code fence). The loop applies
it, runs the tests, sees them pass and stops.
"""

from __future__ import annotations

import importlib.util
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from glmagent.errors import ConfigError
from glmagent.loop import LoopObserver, TaskResult

DEMO_DIR = Path(__file__).resolve().parent
SAMPLE_PROJECT = DEMO_DIR / "sample_project"
REPLAY_FILE = DEMO_DIR / "replies.jsonl"
DEMO_TASK = (
    "wordstats crashes when given None; make None behave like empty text without breaking other tests."
)


def demo_test_command(shell_kind: str) -> str:
    """Run the sample project's tests with the interpreter glmagent itself runs on."""
    if shell_kind == "powershell":
        return f"& '{sys.executable}' -m pytest -q -p no:cacheprovider"
    return f"{shlex.quote(sys.executable)} -m pytest -q -p no:cacheprovider"


def prepare_project(destination: Path | None = None) -> Path:
    """Copy the sample project into `destination` (default: a new temporary directory)."""
    target = (
        Path(destination) if destination else Path(tempfile.mkdtemp(prefix="glmagent-demo-")) / "wordstats"
    )
    if target.exists() and any(target.iterdir()):
        raise ConfigError(f"demo directory {target} is not empty")
    shutil.copytree(SAMPLE_PROJECT, target, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def run_demo(
    destination: Path | None = None, *, observer: LoopObserver | None = None, shell: str = "auto"
) -> TaskResult:
    """Run the whole demo and return the loop's result; the project stays on disk for inspection."""
    if importlib.util.find_spec("pytest") is None:
        raise ConfigError(
            "the demo runs the sample project's pytest suite, but pytest is not installed; "
            "install it with `pip install pytest` (or `pip install 'glmagent[test]'`)"
        )
    from glmagent.agent import CodingAgent
    from glmagent.config import Settings
    from glmagent.planners.scripted import ScriptedPlanner
    from glmagent.tools.shell import make_shell

    project = prepare_project(destination)
    backend = make_shell(shell)  # type: ignore[arg-type]
    agent = CodingAgent(
        planner=ScriptedPlanner.from_replay_file(REPLAY_FILE),
        settings=Settings(provider="replay", replay=REPLAY_FILE, shell=backend.kind),
        observer=observer,
        shell=backend,
    )
    task = CodingAgent.create_task(
        description=DEMO_TASK,
        working_directory=project,
        max_iterations=5,
        test_command=demo_test_command(backend.kind),
        task_id="demo",
    )
    return agent.run(task)
