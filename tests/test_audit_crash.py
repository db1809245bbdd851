"""Real `glmagent` processes: `kill -9` mid-iteration, `--resume`, and two runs of one task id at once."""

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
from audit_support import run_glmagent
from conftest import plan

from glmagent.audit import iter_records, split_runs

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")


def glmagent(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "glmagent", *args],
        cwd=cwd,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, so the test can clean up whatever it left
    )


def replay_file(path: Path, *replies: dict) -> Path:
    path.write_text("".join(json.dumps(reply) + "\n" for reply in replies), encoding="utf-8")
    return path


def records(project: Path, task_id: str) -> list[dict]:
    return list(iter_records(project / ".hazina" / "agent-memory" / f"{task_id}.jsonl"))


def wait_for(condition, proc: subprocess.Popen[str], timeout: float = 60) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


def running(pattern: str) -> bool:
    return bool(subprocess.run(["pgrep", "-f", pattern], capture_output=True, check=False).stdout.strip())


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_glmagent(*args, cwd=cwd)


def test_kill_9_mid_iteration_leaves_a_log_that_verifies_and_resume_continues_it(
    project: Path, tmp_path: Path
) -> None:
    marker = f"{random.randrange(10**9)}"
    first = replay_file(
        tmp_path / "first.jsonl",
        plan({"tool": "run", "command": "echo one"}),
        plan({"tool": "run", "command": f"sleep 97.{marker}"}),
    )
    proc = glmagent(
        "task", "count to two", "--replay", str(first), "--task-id", "k", "--sandbox", "none", cwd=project
    )
    try:
        # Mid-iteration 2: its plan is recorded and its command is running.
        wait_for(lambda: running(f"sleep 97.{marker}"), proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        subprocess.run(["pkill", "-9", "-f", f"sleep 97.{marker}"], check=False)
    assert proc.returncode == -signal.SIGKILL
    killed = records(project, "k")
    assert killed[-1]["event"] != "task_end" and killed[-1].get("iteration") == 2

    verified = cli("audit", "verify", "k", cwd=project)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "incomplete" in verified.stdout and "PROBLEM" not in verified.stdout

    # The kill could as well have landed inside a write: the log then ends in a torn record.
    log = project / ".hazina" / "agent-memory" / "k.jsonl"
    with log.open("ab") as handle:
        handle.write(b'{"v":1,"run":"' + killed[0]["run"].encode() + b'","seq":9,"prev":"')
    torn = cli("audit", "verify", "k", cwd=project)
    assert torn.returncode == 0 and "note torn_tail" in torn.stdout, torn.stdout

    second = replay_file(tmp_path / "second.jsonl", plan({"tool": "run", "command": "echo two"}), plan())
    resumed = cli("task", "--resume", "k", "--replay", str(second), "--sandbox", "none", cwd=project)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert f"(resuming run {killed[0]['run']})" in resumed.stdout

    after = records(project, "k")
    runs = list(dict.fromkeys(r["run"] for r in after))
    assert len(runs) == 2
    start = next(r for r in after if r["run"] == runs[1] and r["event"] == "task_start")
    assert start["resumed_from"] == runs[0] and start["description"] == "count to two"
    assert start["torn"][0]["length"] > 0, "the torn record is acknowledged, not hidden"
    memory = (project / ".hazina" / "agent-memory" / "k.txt").read_text()
    assert (
        "Iteration 1:\n- Ran `echo one` (exit 0)" in memory
        and "Iteration 2:\n- Ran `echo two` (exit 0)" in memory
    )
    assert f"# resumes run {runs[0]}" in memory

    final = cli("audit", "verify", "k", "--json", cwd=project)
    report = json.loads(final.stdout)
    assert final.returncode == 0 and report["ok"], report["problems"]
    assert [run["status"] for run in report["runs"]] == ["incomplete", "verified"]
    assert {note["kind"] for note in report["notes"]} == {"torn", "incomplete"}


def test_two_runs_of_one_task_id_at_once_stay_intact_and_separable(project: Path, tmp_path: Path) -> None:
    procs = []
    for name in ("alpha", "beta"):
        replies = replay_file(
            tmp_path / f"{name}.jsonl",
            plan({"tool": "run", "command": f"echo {name}-1; sleep 1"}),
            plan({"tool": "run", "command": f"echo {name}-2"}),
            plan(),
        )
        procs.append(
            glmagent(
                "task",
                f"run {name}",
                "--replay",
                str(replies),
                "--task-id",
                "same",
                "--sandbox",
                "none",
                cwd=project,
            )
        )
    outputs = [proc.communicate(timeout=120) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], outputs
    assert any("is running" in err and "waiting up to" in err for _, err in outputs), "the second run waited"

    log = records(project, "same")
    runs = list(dict.fromkeys(r["run"] for r in log))
    assert len(runs) == 2
    boundary = next(i for i, r in enumerate(log) if r["run"] == runs[1])
    assert all(r["run"] == runs[0] for r in log[:boundary]) and all(
        r["run"] == runs[1] for r in log[boundary:]
    )
    assert [r["seq"] for r in log[boundary:]] == list(range(1, len(log) - boundary + 1))

    _, sections = split_runs((project / ".hazina" / "agent-memory" / "same.txt").read_text())
    assert [run for run, _ in sections] == runs
    for (_, text), first in zip(sections, (log[0], log[boundary]), strict=True):
        name = "alpha" if "run alpha" in first["description"] else "beta"
        other = "beta" if name == "alpha" else "alpha"
        assert f"`echo {name}-1; sleep 1`" in text and other not in text.split("\n# task:")[1]
        assert text.rstrip().splitlines()[-1].startswith("# chain head: ")

    listed = cli("audit", "list", "--json", cwd=project)
    rows = json.loads(listed.stdout)
    assert sorted(row["run"] for row in rows) == sorted(runs)
    assert {row["chain"] for row in rows} == {"verified"}
    assert cli("audit", "verify", "same", cwd=project).returncode == 0
