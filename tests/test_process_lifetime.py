"""Everything a command started is gone when it ends, times out, or the agent is stopped by a signal.

Real `glmagent` processes, real children: detached (`setsid`) grandchildren, background jobs, SIGTERM/SIGHUP
from outside. Each test uses a unique sleep duration so it can find (and clean up) exactly its own processes.
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
from conftest import plan

from glmagent.tools.sandbox import bwrap_problem
from glmagent.tools.shell import PosixShell, child_environment

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX process semantics")

SANDBOXES = [
    "none",
    pytest.param("bwrap", marks=pytest.mark.skipif(bwrap_problem() is not None, reason=f"{bwrap_problem()}")),
]


def unique_sleep(base: int) -> str:
    return f"{base}.{random.randrange(10**6):06d}"


def running(pattern: str) -> list[str]:
    done = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True, check=False)
    return done.stdout.split()


def still_running(pattern: str, within: float = 10.0) -> list[str]:
    """The processes matching `pattern` once they had `within` seconds to go: a process sent SIGKILL is
    listed until the kernel has torn it down, which on a loaded machine can trail its killer's exit."""
    deadline = time.monotonic() + within
    while (left := running(pattern)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.fixture
def reaped() -> list[str]:
    """Patterns whose processes must be gone by the end (killed here if a test failed)."""
    patterns: list[str] = []
    yield patterns
    for pattern in patterns:
        subprocess.run(["pkill", "-9", "-f", pattern], check=False)


def glmagent(*args: str, cwd: Path, **popen: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "glmagent", *args],
        cwd=cwd,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **popen,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_timeout_kills_detached_grandchildren_and_returns_before_the_command_would_end(
    project: Path, reaped: list[str], sandbox: str
) -> None:
    duration = unique_sleep(901)
    reaped.append(f"sleep {duration}")
    (project / "spawn.py").write_text(
        "import subprocess, time\n"
        f"subprocess.Popen(['sleep', '{duration}'], start_new_session=True)\n"
        "time.sleep(600)\n"
        "open('finished', 'w').close()\n",
        encoding="utf-8",
    )
    action = json.dumps({"tool": "run", "command": "python3 spawn.py"})
    proc = glmagent("act", action, "--command-timeout", "3", "--sandbox", sandbox, cwd=project)
    # Generous: a 3 s timeout must end the act long before the command's own 600 s, at any load.
    out, err = proc.communicate(timeout=300)
    observation = json.loads(out)
    assert observation["details"]["timed_out"] is True, err
    assert not (project / "finished").exists()
    assert still_running(f"sleep {duration}") == []


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_background_jobs_die_with_the_command_and_its_output_is_kept(
    project: Path, reaped: list[str], sandbox: str
) -> None:
    duration = unique_sleep(900)
    reaped.append(f"sleep {duration}")
    action = json.dumps({"tool": "run", "command": f"echo hello; sleep {duration} &"})
    proc = glmagent("act", action, "--sandbox", sandbox, cwd=project)
    # The act must not wait for its background job (900 s): a generous bound holds at any load.
    out, err = proc.communicate(timeout=300)
    observation = json.loads(out)
    assert observation["status"] == "ok", err
    assert "--- stdout ---\nhello" in observation["output"]
    assert still_running(f"sleep {duration}") == []


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_signal_stops_the_task_writes_the_summary_and_kills_the_command(
    project: Path, reaped: list[str], tmp_path: Path, signum: int, code: int
) -> None:
    duration = unique_sleep(172)
    reaped.append(f"sleep {duration}")
    replay = tmp_path / "replies.jsonl"
    replay.write_text(json.dumps(plan({"tool": "run", "command": f"sleep {duration}"})) + "\n")
    proc = glmagent(
        "task",
        "wait a while",
        "--replay",
        str(replay),
        "--task-id",
        "sig",
        "--sandbox",
        "none",
        cwd=project,
    )
    deadline = time.monotonic() + 30
    while not running(f"sleep {duration}"):
        assert time.monotonic() < deadline and proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert still_running(f"sleep {duration}") == []
    memory = project / ".hazina" / "agent-memory"
    assert "Interrupted: stopped by SIG" in (memory / "sig.txt").read_text(encoding="utf-8")
    records = [json.loads(line) for line in (memory / "sig.jsonl").read_text(encoding="utf-8").splitlines()]
    assert records[-1]["event"] == "task_end" and records[-1]["stop_reason"] == "interrupted"
    assert signal.Signals(signum).name in records[-1]["error"]


def test_an_editor_launch_fails_at_once_with_advice(git_project: Path) -> None:
    (git_project / "app.py").write_text("changed\n", encoding="utf-8")
    subprocess.run(["git", "add", "app.py"], cwd=git_project, check=True)
    result = PosixShell().run(
        "git -c user.name=t -c user.email=t@example.invalid commit", git_project, timeout=600
    )
    assert not result.timed_out  # it failed at once instead of waiting for an editor until the timeout
    assert result.exit_code != 0
    assert "pass the text on the command line" in result.stderr


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("http://user:pw@proxy.example:3128", "http://proxy.example:3128"),
        ("https://tok%40en@p.example/", "https://p.example/"),
        ("user:pw@proxy.example:8080", "proxy.example:8080"),
        ("http://proxy.example:3128", "http://proxy.example:3128"),
    ],
)
@pytest.mark.parametrize("name", ["HTTPS_PROXY", "http_proxy", "ALL_PROXY", "Ftp_Proxy"])
def test_proxy_credentials_never_reach_commands(name: str, value: str, expected: str) -> None:
    env = child_environment({"PATH": "/bin", name: value})
    assert env[name] == expected


def test_commands_get_editors_that_refuse() -> None:
    env = child_environment({"PATH": "/bin", "EDITOR": "vim", "GIT_EDITOR": "nano"})
    assert env["EDITOR"] == env["VISUAL"] == "false"
    assert "pass the text on the command line" in env["GIT_EDITOR"] == env["GIT_SEQUENCE_EDITOR"]


def test_a_nul_byte_in_a_command_is_refused_not_a_crash(tmp_path: Path) -> None:
    result = PosixShell().run("echo a\x00b", tmp_path, timeout=10)
    assert result.exit_code == 126 and "NUL byte" in result.stderr


def test_the_agent_environment_stays_out_of_reach_without_a_sandbox_by_policy(project: Path) -> None:
    """Without the OS layer, the agent's own /proc/PID/environ is the policy's job (see the guard tests)."""
    proc = glmagent(
        "act",
        json.dumps({"tool": "run", "command": f"cat /proc/{os.getpid()}/environ"}),
        "--sandbox",
        "none",
        cwd=project,
    )
    out, _ = proc.communicate(timeout=60)
    assert json.loads(out)["status"] == "rejected"
