"""The gaps mutating the containment code found: each test fails on the mutant named in its docstring.

- `os.killpg` replaced by `os.kill` in `_stop_tree`: a background job of the command survives.
- `PR_SET_PDEATHSIG` dropped from the reaper: `kill -9` of glmagent during a `run` leaves the command alive.
- `auto` not picking bubblewrap where it works.
- `is_relative_to` replaced by a string prefix check: `../proj2` from `proj` counts as inside.
- the nested-repository check limited to the top level: `vendor/x/.git/config` becomes writable.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from glmagent.contract import Action
from glmagent.guard import Policy
from glmagent.tools.executor import ToolExecutor
from glmagent.tools.sandbox import BwrapSandbox, bwrap_problem, resolve_sandbox
from glmagent.tools.shell import PosixShell, _stop_tree
from glmagent.workspace import Workspace

posix_only = pytest.mark.skipif(os.name == "nt", reason="process groups and signals are POSIX")
SANDBOXES = [
    "none",
    pytest.param("bwrap", marks=pytest.mark.skipif(bwrap_problem() is not None, reason="no bwrap")),
]


def unique_sleep(base: int) -> str:
    return f"{base}.{random.randrange(10**6):06d}"


def running(command: str, *, exact: bool = True) -> list[str]:
    """Processes whose whole command line is `command` (or contains it, when not `exact`)."""
    flags = "-fx" if exact else "-f"
    done = subprocess.run(["pgrep", flags, command], capture_output=True, text=True, check=False)
    return done.stdout.split()


def wait_until(condition, limit: float = 30.0) -> bool:
    """Poll `condition` until it holds or `limit` seconds pass (a bound for a stuck test, not a timing)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.fixture
def reaped() -> list[str]:
    patterns: list[str] = []
    yield patterns
    for pattern in patterns:
        subprocess.run(["pkill", "-9", "-f", pattern], check=False)


@posix_only
@pytest.mark.parametrize("graceful", [False, True])
def test_stopping_a_command_kills_its_whole_process_group(reaped: list[str], graceful: bool) -> None:
    """Mutant: `os.killpg(proc.pid, SIGKILL)` → `os.kill(proc.pid, SIGKILL)`; the background job lives on."""
    duration = unique_sleep(303)
    reaped.append(f"sleep {duration}")
    # `trap '' TERM` makes the shell outlive the polite SIGTERM, as a real stuck command would.
    proc = subprocess.Popen(
        ["/bin/sh", "-c", f"trap '' TERM; sleep {duration} & sleep {duration}; wait"],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert wait_until(lambda: len(running(f"sleep {duration}")) == 2)
    _stop_tree(proc, graceful=graceful)
    assert wait_until(lambda: running(f"sleep {duration}") == [], limit=10), running(f"sleep {duration}")


@posix_only
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_kill_9_of_glmagent_during_a_run_leaves_no_process(
    project: Path, reaped: list[str], sandbox: str
) -> None:
    """Mutant: no `PR_SET_PDEATHSIG` in the reaper (nor `--die-with-parent`): the command outlives us."""
    duration = unique_sleep(304)
    reaped.append(f"sleep {duration}")
    (project / "spawn.py").write_text(
        f"import subprocess, time\nsubprocess.Popen(['sleep', '{duration}'], start_new_session=True)\n"
        f"subprocess.run(['sleep', '{duration}'])  # {duration}\n",
        encoding="utf-8",
    )
    action = json.dumps({"tool": "run", "command": "python3 spawn.py"})
    proc = subprocess.Popen(
        [sys.executable, "-m", "glmagent", "act", action, "--sandbox", sandbox],
        cwd=project,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_until(lambda: len(running(f"sleep {duration}")) == 2), "the command never started"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert wait_until(lambda: running(f"sleep {duration}") == [], limit=15), running(f"sleep {duration}")
        assert not running("python3 spawn.py")
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.skipif(bwrap_problem() is not None, reason=f"no usable bubblewrap: {bwrap_problem()}")
def test_auto_picks_bubblewrap_where_it_works(tmp_path: Path) -> None:
    """Mutant: `auto` falling through to no sandbox on Linux."""
    chosen = resolve_sandbox("auto", tmp_path)
    assert isinstance(chosen, BwrapSandbox)
    assert chosen.describe().startswith("OS sandbox: bubblewrap")


@pytest.fixture
def sibling(tmp_path: Path) -> tuple[Path, Path]:
    project = tmp_path / "proj"
    other = tmp_path / "proj2"
    for folder in (project, other):
        folder.mkdir()
        (folder / "f.txt").write_text("x\n", encoding="utf-8")
    return project, other


NEW_FILE = "--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+planted\n"


@pytest.mark.parametrize("form", ["relative", "absolute", "dotted"])
def test_a_sibling_named_with_the_projects_name_as_prefix_is_outside(
    sibling: tuple[Path, Path], form: str
) -> None:
    """Mutant: `str(real).startswith(str(root))` for the confinement check; `../proj2` would pass."""
    project, other = sibling
    path = {"relative": "../proj2/new.py", "absolute": str(other / "new.py"), "dotted": "./../proj2/new.py"}[
        form
    ]
    executor = ToolExecutor(Workspace(project), PosixShell(), Policy.default())
    observation = executor.execute(Action(tool="apply_diff", path=path, diff=NEW_FILE.format(path="new.py")))
    assert observation.status == "rejected" and "outside the working directory" in observation.output
    assert not (other / "new.py").exists()
    read = executor.execute(Action(tool="read_file", path=path.replace("new.py", "f.txt")))
    assert read.status == "rejected"


@pytest.mark.parametrize(
    "command",
    [
        "echo planted >> ../proj2/f.txt",
        "cp f.txt ../proj2/g.txt",
        "tee -a ../proj2/f.txt < f.txt",
        "mv f.txt ../proj2/",
        "echo planted >> {other}/f.txt",
    ],
)
def test_the_write_target_policy_puts_the_sibling_outside(sibling: tuple[Path, Path], command: str) -> None:
    """The policy's side of the same check: writes into `../proj2` are writes outside the project."""
    project, other = sibling
    decision = Policy.default().check(command.format(other=other), "posix", cwd=project)
    assert not decision.allowed, decision
    inside = Policy.default().check(
        command.replace("../proj2", "sub").format(other=project), "posix", cwd=project
    )
    assert inside.allowed, inside


@pytest.mark.parametrize(
    "path",
    [
        "vendor/x/.git/config",
        "vendor/x/.git/hooks/pre-commit",
        "vendor/x/.GIT/config",
        "a/b/c/.git/info/attributes",
        "vendor/x/.hazina/agent-memory/t.txt",
        "vendor/x/.git",
    ],
)
def test_apply_diff_never_writes_into_a_nested_repository(project: Path, path: str) -> None:
    """Mutant: only the top-level `.git` protected; a vendored repository's config/hook becomes writable."""
    nested = project / "vendor" / "x"
    (nested / ".git").mkdir(parents=True)
    executor = ToolExecutor(Workspace(project), PosixShell(), Policy.default())
    observation = executor.execute(Action(tool="apply_diff", path=path, diff=NEW_FILE.format(path=path)))
    assert observation.status == "rejected" and "never writes" in observation.output
    assert not (project / path).is_file()
