"""A path that names no file, read or edited, means the project's one file of that name (small models invent
folders: `app/stats.py` for the root's `stats.py`); the corrected path meets every check."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import plan

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.loop import TaskResult
from glmagent.planners.scripted import ScriptedPlanner

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")

# The check the tests stand for, without pytest's start-up: what is looked at here is the loop's paths.
CHECK = f"{shlex.quote(sys.executable)} -c 'from stats import mean; assert mean([]) == 0.0'"
STATS = "def mean(values):\n    return sum(values) / len(values)\n"
TESTS = "from stats import mean\n\n\ndef test_mean_of_nothing_is_zero():\n    assert mean([]) == 0.0\n"
FIX = (
    "<<<<<<< SEARCH\n    return sum(values) / len(values)\n=======\n    if not values:\n        return 0.0\n"
    "    return sum(values) / len(values)\n>>>>>>> REPLACE\n"
)
FIXED = "def mean(values):\n    if not values:\n        return 0.0\n    return sum(values) / len(values)\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "stats"
    (root / "tests").mkdir(parents=True)
    (root / "stats.py").write_text(STATS, encoding="utf-8")
    (root / "tests" / "test_stats.py").write_text(TESTS, encoding="utf-8")
    return root


def run(project: Path, replies: Sequence[dict]) -> tuple[TaskResult, ScriptedPlanner]:
    planner = ScriptedPlanner(list(replies))
    agent = CodingAgent(planner=planner, settings=Settings(provider="replay", shell="posix", sandbox="none"))
    task = CodingAgent.create_task(
        "mean([]) should return 0.0", project, max_iterations=2, test_command=CHECK, task_id="t"
    )
    return agent.run(task), planner


def actions(project: Path) -> list[dict]:
    log = project / ".hazina" / "agent-memory" / "t.jsonl"
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return [r for r in records if r["event"] == "action"]


def prompt(planner: ScriptedPlanner, number: int) -> str:
    return "\n".join(m.content for m in planner.requests[number] if m.role == "user")


def test_a_diff_for_an_invented_folder_edits_the_one_file_of_that_name(project: Path) -> None:
    result, _ = run(project, [plan({"tool": "apply_diff", "path": "app/stats.py", "diff": FIX})])
    assert result.success
    assert (project / "stats.py").read_text(encoding="utf-8") == FIXED
    assert not (project / "app").exists()
    [record] = actions(project)
    assert record["status"] == "ok"
    assert record["action"]["path"] == "stats.py"
    assert record["details"]["path_given"] == "app/stats.py"


def test_the_model_is_told_which_file_was_used(project: Path) -> None:
    read = {"tool": "read_file", "path": "src/lib/stats.py"}
    _, planner = run(project, [plan(read), plan()])
    told = prompt(planner, 1)
    assert "Read stats.py (2 lines) (there is no src/lib/stats.py: used stats.py)" in told
    assert "return sum(values) / len(values)" in told
    [record] = actions(project)
    assert record["status"] == "ok" and record["action"]["path"] == "stats.py"


def test_a_namesake_that_is_a_test_file_stays_read_only(project: Path) -> None:
    diff = "<<<<<<< SEARCH\n    assert mean([]) == 0.0\n=======\n    assert True\n>>>>>>> REPLACE\n"
    result, _ = run(project, [plan({"tool": "apply_diff", "path": "test_stats.py", "diff": diff}), plan()])
    assert not result.success
    assert (project / "tests" / "test_stats.py").read_text(encoding="utf-8") == TESTS
    [record] = actions(project)
    assert record["details"]["reason"] == "test_file"
    assert record["action"]["path"] == "tests/test_stats.py"


def test_a_diff_creating_the_file_is_not_moved(project: Path) -> None:
    create = "--- /dev/null\n+++ b/app/stats.py\n@@ -0,0 +1 @@\n+VALUE = 1\n"
    run(project, [plan({"tool": "apply_diff", "path": "app/stats.py", "diff": create}), plan()])
    assert (project / "app" / "stats.py").read_text(encoding="utf-8") == "VALUE = 1\n"
    assert (project / "stats.py").read_text(encoding="utf-8") == STATS


@pytest.mark.parametrize("path", ["app/stats.py", "../other/stats.py", "/elsewhere/stats.py"])
def test_no_guess_with_two_namesakes_or_a_path_leaving_the_project(project: Path, path: str) -> None:
    if path == "app/stats.py":
        (project / "lib").mkdir()
        (project / "lib" / "stats.py").write_text(STATS, encoding="utf-8")
    result, _ = run(project, [plan({"tool": "apply_diff", "path": path, "diff": FIX}), plan()])
    assert not result.success
    assert (project / "stats.py").read_text(encoding="utf-8") == STATS
    record = actions(project)[0]
    assert record["status"] in ("failed", "rejected")
    assert "path_given" not in record.get("details", {})


def test_a_moved_diff_that_fails_says_where_it_went(project: Path) -> None:
    stale = "<<<<<<< SEARCH\n    return total / count\n=======\n    return 0\n>>>>>>> REPLACE\n"
    _, planner = run(project, [plan({"tool": "apply_diff", "path": "app/stats.py", "diff": stale}), plan()])
    told = prompt(planner, 1)
    assert "There is no app/stats.py; the project's only file of that name is stats.py" in told
    assert "stale_context" in told
