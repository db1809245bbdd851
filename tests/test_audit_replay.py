"""`glmagent replay`: the stored replies through the real loop again, compared with the record."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from audit_support import finished_task

from glmagent.audit import iter_records, verify_log
from glmagent.cli import main
from glmagent.demo import prepare_project

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend"),
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]


def snapshot(project: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(project)): path.read_bytes()
        for path in sorted(project.rglob("*"))
        if path.is_file() and ".git" not in path.parts and "__pycache__" not in path.parts
    }


def test_replay_of_the_demo_reproduces_its_outcome_without_touching_the_project(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = tmp_path / "demo"
    assert main(["demo", "--dir", str(demo), "--sandbox", "none"]) == 0
    before = snapshot(demo)
    capsys.readouterr()
    assert main(["replay", "demo", "-C", str(demo), "--sandbox", "none"]) == 0
    out = capsys.readouterr().out
    assert "REPRODUCED: 7 steps match the record (tests_passed, success)" in out
    assert snapshot(demo) == before, "the replay ran in a clone of the recorded commit, not in the project"
    log = demo / ".hazina" / "agent-memory" / "demo.jsonl"
    assert len({r["run"] for r in iter_records(log)}) == 1 and verify_log(log).ok


def test_replay_in_a_given_copy_runs_there_and_reports_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = tmp_path / "demo"
    assert main(["demo", "--dir", str(demo), "--sandbox", "none"]) == 0
    fresh = prepare_project(tmp_path / "fresh")
    capsys.readouterr()
    assert main(["replay", "demo", "-C", str(demo), "--in", str(fresh), "--sandbox", "none", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["reproduced"] is True and report["differences"] == [] and report["compared"] == 7
    assert report["result"]["stop_reason"] == "tests_passed"
    assert "_words(text)" in (fresh / "wordstats.py").read_text(), "the fix was applied in the copy"
    replay_log = fresh / ".hazina" / "agent-memory" / "demo.replay.jsonl"
    start = next(iter_records(replay_log))
    assert start["replay_of"]["task_id"] == "demo" and verify_log(replay_log).ok


def test_a_replay_that_goes_another_way_names_where(
    git_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished_task(git_project)
    copy = tmp_path / "changed"
    shutil.copytree(git_project, copy, ignore=shutil.ignore_patterns(".hazina", ".git"))
    (copy / "app.py").write_text("def greet(name):\n    return 'hey ' + name\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", "t", "-C", str(git_project), "--in", str(copy), "--sandbox", "none"]) == 1
    out = capsys.readouterr().out
    assert "DIFFERS: " in out
    assert "iteration 3, action 1 (apply_diff):\n    recorded: [ok] Modified app.py (+1 -1)\n" in out
    assert "    replayed: [failed] Diff for app.py not applied" in out


def test_replay_needs_the_starting_files(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    finished_task(project)  # not a git repository: the start cannot be rebuilt
    capsys.readouterr()
    assert main(["replay", "t", "-C", str(project)]) == 2
    assert "pass --in DIR with a copy of the project" in capsys.readouterr().err
    assert main(["replay", "t", "-C", str(project), "--in", str(project)]) == 2
    assert "--in names the project itself" in capsys.readouterr().err


def test_replay_refuses_uncommitted_starting_state(
    git_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (git_project / "scratch.txt").write_text("not committed\n", encoding="utf-8")
    finished_task(git_project)
    capsys.readouterr()
    assert main(["replay", "t", "-C", str(git_project)]) == 2
    assert "the run started with uncommitted changes" in capsys.readouterr().err
    status = subprocess.run(["git", "status", "--porcelain"], cwd=git_project, capture_output=True, text=True)
    assert ".hazina" not in status.stdout
