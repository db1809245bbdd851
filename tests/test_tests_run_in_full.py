"""A task passes only when the tests pass as they ran at the start: not by running fewer of them, and the
user decides whether the model may change test files (`--test-edits`, `test_edits` in config)."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import plan, run_outcome

from glmagent.agent import CodingAgent
from glmagent.cli import main
from glmagent.config import Settings, resolve_settings
from glmagent.loop import TaskResult
from glmagent.planners.scripted import ScriptedPlanner
from glmagent.testing import fewer_tests_ran, ran_count

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")

PYTEST = f"{shlex.quote(sys.executable)} -m pytest -q -p no:cacheprovider"
STATS = """def mean(values):
    return sum(values) / len(values)
"""
TESTS = """from stats import mean


def test_mean_of_two():
    assert mean([1, 3]) == 2


def test_mean_of_nothing_is_zero():
    assert mean([]) == 0.0
"""
FIX = (
    "<<<<<<< SEARCH\n    return sum(values) / len(values)\n=======\n    if not values:\n        return 0.0\n"
    "    return sum(values) / len(values)\n>>>>>>> REPLACE\n"
)
DESELECT = (
    "--- /dev/null\n+++ b/pyproject.toml\n@@ -0,0 +1,2 @@\n+[tool.pytest.ini_options]\n"
    '+addopts = "--deselect tests/test_stats.py::test_mean_of_nothing_is_zero"\n'
)
SKIP_ON_IMPORT = (
    "<<<<<<< SEARCH\ndef mean(values):\n=======\nimport pytest\n\n"
    'pytest.skip("not ready", allow_module_level=True)\n\n\ndef mean(values):\n>>>>>>> REPLACE\n'
)
DROP_TEST = (
    "<<<<<<< SEARCH\n\n\ndef test_mean_of_nothing_is_zero():\n    assert mean([]) == 0.0\n=======\n"
    ">>>>>>> REPLACE\n"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "stats"
    (root / "tests").mkdir(parents=True)
    (root / "stats.py").write_text(STATS, encoding="utf-8")
    (root / "tests" / "test_stats.py").write_text(TESTS, encoding="utf-8")
    # A module-level skip in stats.py skips all of test_stats.py: this file keeps the run "passing".
    (root / "tests" / "test_sum.py").write_text("def test_sum():\n    assert 1\n", encoding="utf-8")
    return root


def run(
    project: Path,
    replies: Sequence[dict],
    *,
    description: str = "mean([]) should return 0.0",
    test_edits: bool | None = None,
    settings: Settings | None = None,
) -> tuple[TaskResult, ScriptedPlanner]:
    planner = ScriptedPlanner(list(replies))
    agent = CodingAgent(
        planner=planner, settings=settings or Settings(provider="replay", shell="posix", sandbox="none")
    )
    task = CodingAgent.create_task(
        description, project, max_iterations=3, test_command=PYTEST, task_id="t", test_edits=test_edits
    )
    return agent.run(task), planner


def user_prompt(planner: ScriptedPlanner, number: int) -> str:
    return "\n".join(m.content for m in planner.requests[number] if m.role == "user")


@pytest.mark.parametrize(
    ("line", "ran"),
    [
        ("1 failed, 2 passed in 0.10s", 3),
        ("===== 1 passed, 1 deselected in 0.01s =====", 1),
        ("1 skipped in 0.01s", 0),
        ("2 passed, 1 error, 3 skipped, 1 xfailed in 1.2s", 3),
        ("no tests ran in 0.01s", None),
        ("", None),
    ],
)
def test_ran_count_counts_what_ran_not_what_was_skipped(line: str, ran: int | None) -> None:
    assert ran_count(f"....\n{line}\n") == ran


def test_a_passing_run_with_fewer_tests_than_at_the_start_does_not_pass() -> None:
    baseline = run_outcome("1 failed, 2 passed in 0.1s", passed=False)
    fewer = fewer_tests_ran(baseline, run_outcome("2 passed, 1 deselected in 0.1s", passed=True))
    assert not fewer.passed and "only 2 of the 3 tests" in fewer.summary
    same = run_outcome("3 passed in 0.1s", passed=True)
    more = run_outcome("4 passed in 0.1s", passed=True)
    unknown = run_outcome("OK", passed=True)
    assert fewer_tests_ran(baseline, same) is same and fewer_tests_ran(baseline, more) is more
    assert fewer_tests_ran(baseline, unknown) is unknown


def test_the_real_fix_still_passes(project: Path) -> None:
    result, _ = run(project, [plan({"tool": "apply_diff", "path": "stats.py", "diff": FIX})])
    assert result.success and result.stop_reason == "tests_passed"


@pytest.mark.parametrize(
    ("path", "diff"),
    [("pyproject.toml", DESELECT), ("stats.py", SKIP_ON_IMPORT)],
    ids=["deselected-in-pyproject", "module-level-skip-in-the-code"],
)
def test_running_fewer_tests_is_not_a_fix(project: Path, path: str, diff: str) -> None:
    result, planner = run(project, [plan({"tool": "apply_diff", "path": path, "diff": diff}), plan()])

    assert not result.success and result.tests_passed is False
    assert "fewer ran than at the start" in user_prompt(planner, 1)
    records = [json.loads(x) for x in (project / ".hazina" / "agent-memory" / "t.jsonl").open()]
    after = [r for r in records if r["event"] == "tests" and r.get("label") != "baseline"]
    assert after and all(r["passed"] is False for r in after)


def test_a_task_allowed_to_change_tests_may_run_fewer(project: Path) -> None:
    drop = {"tool": "apply_diff", "path": "tests/test_stats.py", "diff": DROP_TEST}
    result, _ = run(project, [plan(drop)], description="drop the obsolete mean test", test_edits=True)
    assert result.success and result.test_files == {"tests/test_stats.py": "changed"}


@pytest.mark.parametrize(("value", "editable"), [("allow", True), ("deny", False)])
def test_the_setting_decides_over_the_description(project: Path, value: str, editable: bool) -> None:
    drop = {"tool": "apply_diff", "path": "tests/test_stats.py", "diff": DROP_TEST}
    settings = Settings(provider="replay", shell="posix", sandbox="none", test_edits=value)  # type: ignore[arg-type]
    # "update the tests" would allow it, "make the tests pass" would not: the setting wins either way.
    for description in ("update the tests", "make the tests pass"):
        (project / "tests" / "test_stats.py").write_text(TESTS, encoding="utf-8")
        run(project, [plan(drop), plan()], description=description, settings=settings)
        changed = (project / "tests" / "test_stats.py").read_text(encoding="utf-8") != TESTS
        assert changed is editable, (value, description)


def test_test_edits_flag_reaches_the_task(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = tmp_path / "replies.jsonl"
    drop = {"tool": "apply_diff", "path": "tests/test_stats.py", "diff": DROP_TEST}
    replay.write_text(json.dumps(plan(drop)) + "\n", encoding="utf-8")
    args = ["task", "make the tests pass", "-C", str(project), "--replay", str(replay), "--shell", "posix"]
    args += ["--sandbox", "none", "--test", PYTEST, "--json"]

    assert main([*args, "--test-edits", "allow"]) == 0
    assert json.loads(capsys.readouterr().out)["test_files"] == {"tests/test_stats.py": "changed"}
    [log] = (project / ".hazina" / "agent-memory").glob("*.jsonl")
    start = next(r for r in map(json.loads, log.open()) if r["event"] == "task_start")
    assert start["test_files"] == "editable"


def test_an_untrusted_project_file_cannot_open_the_tests(project: Path) -> None:
    (project / ".hazina").mkdir()
    (project / ".hazina" / "config.toml").write_text('test_edits = "allow"\n', encoding="utf-8")
    warnings: list[str] = []
    assert resolve_settings(project, warn=warnings.append).test_edits == "auto"
    assert any("test_edits" in w for w in warnings)
