"""Ctrl-C as a user presses it: the first lets the running action finish, then the task stops with its
summary; a second stops at once. Either way the audit log is whole JSON Lines ending in `task_end`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import plan

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _start(project: Path, tmp_path: Path, *extra: str) -> subprocess.Popen[str]:
    replies = tmp_path / "replies.jsonl"
    slow = "touch started; sleep 3; touch finished"
    replies.write_text(
        json.dumps(plan({"tool": "run", "command": slow}, {"tool": "run", "command": "touch second"}))
        + "\n"
        + json.dumps(plan({"tool": "run", "command": "touch next-iteration"}))
        + "\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.Popen(
        [sys.executable, "-m", "glmagent", "task", "x", "-C", str(project), "--replay", str(replies), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _wait_for(path: Path, proc: subprocess.Popen[str], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def _audit(project: Path) -> list[dict]:
    """The task's records — each line whole JSON — after `glmagent audit verify` found the record intact."""
    (log,) = (project / ".hazina" / "agent-memory").glob("task-*.jsonl")
    verified = subprocess.run(
        [sys.executable, "-m", "glmagent", "audit", "verify", log.stem, "-C", str(project)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_a_first_ctrl_c_lets_the_running_action_finish_then_stops_with_the_summary(
    project: Path, tmp_path: Path
) -> None:
    proc = _start(project, tmp_path, "--sandbox", "none")
    _wait_for(project / "started", proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    assert (project / "finished").exists(), "the running command was allowed to finish"
    assert not (project / "second").exists(), "nothing after it ran"
    assert not (project / "next-iteration").exists()
    assert "Ctrl-C again to stop now" in out
    assert "INTERRUPTED · interrupted" in out and "stopped after the current action (Ctrl-C)" in out
    records = _audit(project)
    assert records[-1]["event"] == "task_end" and records[-1]["stop_reason"] == "interrupted"
    actions = [r for r in records if r["event"] == "action"]
    assert [a["status"] for a in actions] == ["ok"]


def test_a_second_ctrl_c_stops_at_once_and_the_audit_stays_whole(project: Path, tmp_path: Path) -> None:
    proc = _start(project, tmp_path, "--sandbox", "none")
    _wait_for(project / "started", proc)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.3)
    pressed = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    assert time.monotonic() - pressed < 2.5, "stopped without waiting for the command"
    assert not (project / "finished").exists(), "the running command was stopped"
    assert "INTERRUPTED" in out and "Traceback" not in err
    records = _audit(project)
    assert records[-1]["event"] == "task_end" and records[-1]["stop_reason"] == "interrupted"


def test_ctrl_c_while_the_tests_run_stops_at_once(project: Path, tmp_path: Path) -> None:
    proc = _start(project, tmp_path, "--sandbox", "none", "--test", "touch testing; sleep 20")
    _wait_for(project / "testing", proc)
    pressed = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    assert time.monotonic() - pressed < 5
    assert _audit(project)[-1]["event"] == "task_end"


def test_sigterm_stops_at_once_with_its_own_exit_code(project: Path, tmp_path: Path) -> None:
    proc = _start(project, tmp_path, "--sandbox", "none")
    _wait_for(project / "started", proc)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, out + err
    assert not (project / "finished").exists()
    assert _audit(project)[-1]["event"] == "task_end"
