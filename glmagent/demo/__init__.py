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
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from glmagent.errors import ConfigError
from glmagent.loop import LoopObserver, TaskResult
from glmagent.stopping import StopControl

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
    _commit_start(target)
    return target


def _commit_start(project: Path) -> None:
    """Commit the sample as the demo starts (when git is installed): `git diff` then shows what the agent
    changed, and `glmagent replay demo` can rebuild the starting files from the recorded commit."""
    if shutil.which("git") is None:
        return
    from glmagent.tools.shell import child_environment

    settings = ["-c", "user.name=glmagent demo", "-c", "user.email=demo@glmagent.invalid"]
    settings += ["-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null"]
    settings += ["-c", "init.defaultBranch=main"]
    message = "wordstats sample as the demo starts"
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", message]):
        done = subprocess.run(
            ["git", *settings, *args],
            cwd=project,
            env=child_environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
        if done.returncode != 0:
            return  # the demo works without a repository; only replay then needs --in


def run_demo(
    destination: Path | None = None,
    *,
    observer: LoopObserver | None = None,
    shell: str = "auto",
    sandbox: str = "auto",
    allow_network: bool = False,
    command_timeout: float | None = None,
    announce: Callable[[Path, str], None] | None = None,
    stop: StopControl | None = None,
) -> TaskResult:
    """Run the whole demo and return the loop's result; the project stays on disk for inspection.

    `announce` receives the sample project's path and the line saying which layer contains the commands
    (the OS sandbox or none) before the run starts; `stop` is handed to the agent (see `CodingAgent`).
    """
    if importlib.util.find_spec("pytest") is None:
        raise ConfigError(
            "the demo runs the sample project's pytest suite, but pytest is not installed; "
            "install it with `pip install pytest` (or `pip install 'glmagent[test]'`)"
        )
    from glmagent.agent import CodingAgent, sandbox_for
    from glmagent.config import Settings
    from glmagent.planners.scripted import ScriptedPlanner
    from glmagent.tools.shell import resolve_shell_kind

    kind = resolve_shell_kind(shell)  # type: ignore[arg-type]
    extra = {} if command_timeout is None else {"command_timeout": command_timeout}
    settings = Settings(
        provider="replay",
        replay=REPLAY_FILE,
        shell=kind,
        sandbox=sandbox,  # type: ignore[arg-type]
        allow_network=allow_network,
        **extra,
    )
    project = prepare_project(destination)
    if announce is not None:
        announce(project, sandbox_for(settings, project).describe())
    agent = CodingAgent(
        planner=ScriptedPlanner.from_replay_file(REPLAY_FILE), settings=settings, observer=observer, stop=stop
    )
    task = CodingAgent.create_task(
        description=DEMO_TASK,
        working_directory=project,
        max_iterations=5,
        test_command=demo_test_command(kind),
        task_id="demo",
    )
    return agent.run(task)
