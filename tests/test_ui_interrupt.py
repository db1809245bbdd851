"""Ctrl-C as a user presses it: the first lets the running action finish, then the task stops with its
summary; a second stops at once. Either way the audit log is whole JSON Lines ending in `task_end`.

No test here times anything: the running command waits for a gate file the test opens (or never opens), so
"it let the command finish" and "it stopped before the command ended" are facts on disk at any load."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import plan

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


#: A command that runs until the test creates `go` in the project (which some tests never do).
GATED = "touch started; while [ ! -e go ]; do sleep 0.05; done; touch finished"


class Output:
    """A child's stdout, read line by line as it comes."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        assert proc.stdout is not None
        self.reader = threading.Thread(target=lambda: self.lines.extend(proc.stdout or []), daemon=True)
        self.reader.start()

    def wait_for(self, text: str, proc: subprocess.Popen[str], timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout  # a generous bound on waiting, never an assertion on speed
        while not any(text in line for line in list(self.lines)):
            assert proc.poll() is None, "".join(self.lines)
            assert time.monotonic() < deadline, f"{text!r} never shown: {''.join(self.lines)}"
            time.sleep(0.02)

    def text(self) -> str:
        self.reader.join(60)
        return "".join(self.lines)

    def finish(self, proc: subprocess.Popen[str], timeout: float = 300) -> str:
        """Wait for the child to end and return its stderr. Not `communicate()`: that would read stdout too,
        racing this reader for the last lines (the summary), which a busy machine then loses."""
        assert proc.stderr is not None
        err = proc.stderr.read()
        proc.wait(timeout=timeout)
        return err


def _start(project: Path, tmp_path: Path, *extra: str) -> subprocess.Popen[str]:
    replies = tmp_path / "replies.jsonl"
    slow = GATED
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
    output = Output(proc)
    _wait_for(project / "started", proc)
    proc.send_signal(signal.SIGINT)
    output.wait_for("Ctrl-C again to stop now", proc)
    (project / "go").touch()  # the running command may end now that the Ctrl-C was taken
    err = output.finish(proc)
    out = output.text()
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
    output = Output(proc)
    _wait_for(project / "started", proc)
    proc.send_signal(signal.SIGINT)
    output.wait_for("Ctrl-C again to stop now", proc)
    proc.send_signal(signal.SIGINT)
    err = output.finish(proc)  # the gate never opens: only stopping the command ends this
    out = output.text()
    assert proc.returncode == 130, out + err
    assert not (project / "finished").exists(), "the running command was stopped"
    assert "INTERRUPTED" in out and "Traceback" not in err
    records = _audit(project)
    assert records[-1]["event"] == "task_end" and records[-1]["stop_reason"] == "interrupted"


def test_ctrl_c_while_the_tests_run_stops_at_once(project: Path, tmp_path: Path) -> None:
    gated = "touch testing; while [ ! -e go ]; do sleep 0.05; done; touch tested"
    proc = _start(project, tmp_path, "--sandbox", "none", "--test", gated)
    _wait_for(project / "testing", proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)  # the gate never opens: only stopping the tests ends this
    assert proc.returncode == 130, out + err
    assert not (project / "tested").exists()
    assert _audit(project)[-1]["event"] == "task_end"


def test_sigterm_stops_at_once_with_its_own_exit_code(project: Path, tmp_path: Path) -> None:
    proc = _start(project, tmp_path, "--sandbox", "none")
    _wait_for(project / "started", proc)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=300)  # the gate never opens: only stopping the command ends this
    assert proc.returncode == 143, out + err
    assert not (project / "finished").exists()
    assert _audit(project)[-1]["event"] == "task_end"
