"""While protected tests fail, a planner whose server enforces the schema may name only the project's other
files in `apply_diff` (`glmagent.edit_targets`): the model's first choice of a file is one it may change.

Unit checks of the rule and the narrowed schema (validated with jsonschema), the planner's requests through
`httpx.MockTransport`, and whole runs with a scripted planner, real files and real pytest."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

import httpx
import jsonschema
import pytest
from conftest import mock_planner, plan, run_scripted

from glmagent.cli import main
from glmagent.edit_targets import MAX_CHARS, MAX_PATHS, EditTargetingPlanner, edit_targets
from glmagent.planners.base import ChatMessage, PlannerReply
from glmagent.planners.scripted import ScriptedPlanner
from glmagent.strict_schema import strict_planner_schema, with_edit_paths
from glmagent.testing import is_test_path

FAILING = "FAILED tests/test_calc.py::test_double - assert 7 == 4\n1 failed, 1 passed"
FILES = ["README.md", "calc.py", "pkg/util.py", "tests/test_calc.py", "tests/conftest.py"]


def edit(path: str) -> dict:
    return {"tool": "apply_diff", "path": path, "edits": [{"search": ["a = 1"], "replace": ["a = 2"]}]}


# -- the rule -------------------------------------------------------------------------------------------


def test_while_tests_fail_the_paths_are_the_files_that_are_not_tests() -> None:
    assert edit_targets(lambda: FILES, is_test_path, FAILING) == ["README.md", "calc.py", "pkg/util.py"]


@pytest.mark.parametrize(
    "output",
    [
        "E   ModuleNotFoundError: No module named 'calc'",
        "ImportError while importing test module: No module named 'pkg.parse'",
        "FileNotFoundError: [Errno 2] No such file or directory: 'data/rates.json'",
        "Error: Cannot find module './slug'",
    ],
)
def test_a_failure_that_may_need_a_new_file_keeps_every_path_open(output: str) -> None:
    assert edit_targets(lambda: FILES, is_test_path, output) is None


def test_no_limit_when_the_tests_pass_or_nothing_is_a_test_or_everything_is() -> None:
    assert edit_targets(lambda: FILES, is_test_path, None) is None
    assert edit_targets(lambda: ["calc.py", "README.md"], is_test_path, FAILING) is None
    assert edit_targets(lambda: ["tests/test_calc.py"], is_test_path, FAILING) is None


def test_no_limit_for_a_project_too_large_to_list() -> None:
    many = [f"m{n}.py" for n in range(MAX_PATHS + 1)] + ["tests/test_m.py"]
    assert edit_targets(lambda: many, is_test_path, FAILING) is None
    assert edit_targets(lambda: [*many[:MAX_PATHS], "tests/test_m.py"], is_test_path, FAILING) is not None
    long = [f"{'d' * 60}/m{n}.py" for n in range(MAX_CHARS // 60)] + ["tests/test_m.py"]
    assert len(long) <= MAX_PATHS and edit_targets(lambda: long, is_test_path, FAILING) is None


# -- the schema ------------------------------------------------------------------------------------------


def test_the_narrowed_schema_takes_edits_of_the_listed_files_only() -> None:
    schema = with_edit_paths(strict_planner_schema(), ["calc.py", "pkg/util.py"])

    jsonschema.validate(plan(edit("calc.py"), {"tool": "read_file", "path": "tests/test_calc.py"}), schema)
    jsonschema.validate(plan({"tool": "apply_diff", "path": "pkg/util.py", "diff": "x"}), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(plan(edit("tests/test_calc.py")), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(plan({"tool": "apply_diff", "path": "new.py", "diff": "x"}), schema)
    # Every other tool's path is free, and the shared strict schema is left as it was.
    jsonschema.validate(plan({"tool": "git_diff", "path": "tests/test_calc.py"}), schema)
    jsonschema.validate(plan(edit("tests/test_calc.py")), strict_planner_schema())


def test_a_schema_of_another_shape_is_returned_unchanged() -> None:
    other = {"type": "object", "properties": {"answer": {"type": "string"}}}
    assert with_edit_paths(other, ["calc.py"]) == other


# -- the planner's requests -----------------------------------------------------------------------------

ASK = [ChatMessage(role="user", content="fix it")]
REPLY = json.dumps(plan({"tool": "read_file", "path": "calc.py"}))


def _ok(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={"choices": [{"message": {"content": REPLY}, "finish_reason": "stop"}]})


def _edit_path_schema(body: dict) -> list[dict]:
    variants = body["response_format"]["json_schema"]["schema"]["properties"]["actions"]["items"]["anyOf"]
    return [v["properties"]["path"] for v in variants if v["properties"]["tool"]["const"] == "apply_diff"]


def test_the_planner_sends_the_list_until_it_is_lifted() -> None:
    bodies: list[dict] = []

    def server(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return _ok(request)

    planner = mock_planner(server, schema=strict_planner_schema(), formats=("json_schema",), stream=False)
    assert isinstance(planner, EditTargetingPlanner)
    planner.plan(ASK)
    planner.limit_edit_paths(["calc.py"])
    planner.plan(ASK)
    planner.limit_edit_paths(None)
    planner.plan(ASK)

    paths = [_edit_path_schema(body) for body in bodies]
    assert [p[0].get("enum") for p in paths] == [None, ["calc.py"], None]
    assert all(len(p) == 3 and p[0] == p[1] == p[2] for p in paths)  # `content`, `edits`, `diff` alike


def test_a_server_that_refuses_the_list_gets_the_plain_strict_schema_not_a_weaker_format() -> None:
    bodies: list[dict] = []

    def server(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        bodies.append(body)
        if "enum" in json.dumps(body.get("response_format", {})):
            return httpx.Response(400, json={"error": {"message": "response_format: enum is not supported"}})
        return _ok(request)

    planner = mock_planner(
        server, schema=strict_planner_schema(), formats=("json_schema", "json_object"), stream=False
    )
    planner.limit_edit_paths(["calc.py"])
    first = planner.plan(ASK)
    second = planner.plan(ASK)

    assert [b["response_format"]["type"] for b in bodies] == ["json_schema"] * 3
    assert [p[0].get("enum") for p in map(_edit_path_schema, bodies)] == [["calc.py"], None, None]
    assert first.response_format == second.response_format == "json_schema"
    assert first.response_format_refused[0]["next"] == "json_schema without the list of edit paths"


# -- whole runs ------------------------------------------------------------------------------------------

PYTEST = f"{shlex.quote(sys.executable)} -m pytest -q -p no:cacheprovider"
CALC = "def double(n):\n    return n * 3 + 1\n"
TESTS = "from calc import double\n\n\ndef test_double():\n    assert double(2) == 4\n"
FIX = {
    "tool": "apply_diff",
    "path": "calc.py",
    "edits": [{"search": ["    return n * 3 + 1"], "replace": ["    return n * 2"]}],
}


class TargetedScripted(ScriptedPlanner):
    """A scripted planner that keeps the paths it was limited to before each request."""

    def __init__(self, replies: Sequence[object]) -> None:
        super().__init__(replies)  # type: ignore[arg-type]
        self.limit: list[str] | None = None
        self.limits: list[list[str] | None] = []

    def limit_edit_paths(self, paths: Sequence[str] | None) -> None:
        self.limit = list(paths) if paths is not None else None

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        self.limits.append(self.limit)
        return super().plan(messages)


@pytest.fixture
def calc(tmp_path: Path) -> Path:
    root = tmp_path / "calc"
    (root / "tests").mkdir(parents=True)
    (root / "calc.py").write_text(CALC, encoding="utf-8")
    (root / "notes.txt").write_text("double doubles\n", encoding="utf-8")
    (root / "tests" / "test_calc.py").write_text(TESTS, encoding="utf-8")
    return root


def run_task(project: Path, planner: ScriptedPlanner, description: str) -> tuple[bool, list[dict]]:
    """Whether the task succeeded, and its `edit_paths` audit records."""
    result, _, audit = run_scripted(
        project, [], test_command=PYTEST, description=description, planner=planner
    )
    return result.success, [r for r in audit if r["event"] == "edit_paths"]


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_a_run_limits_edits_to_the_code_while_the_tests_fail_and_records_it(
    calc: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    planner = TargetedScripted([plan({"tool": "read_file", "path": "calc.py"}), plan(FIX)])

    success, records = run_task(calc, planner, "double(n) should double n")

    assert success
    assert planner.limits == [["calc.py", "notes.txt"], ["calc.py", "notes.txt"]]
    assert [(r["iteration"], r["paths"]) for r in records] == [(1, ["calc.py", "notes.txt"])]
    assert main(["audit", "show", "t", "-C", str(calc)]) == 0
    assert "apply_diff held to 2 non-test file(s) while the tests fail" in capsys.readouterr().out


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_a_task_that_asks_for_test_changes_keeps_every_path_open(calc: Path) -> None:
    planner = TargetedScripted([plan(FIX)])

    success, records = run_task(calc, planner, "double(n) should double n; update the tests too")

    assert success and planner.limits == [None] and records == []


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_a_missing_module_keeps_every_path_open(calc: Path) -> None:
    (calc / "calc.py").unlink()
    create = {
        "tool": "apply_diff",
        "path": "calc.py",
        "edits": [{"search": [], "replace": CALC.replace("* 3 + 1", "* 2").splitlines()}],
    }
    planner = TargetedScripted([plan(create)])

    success, records = run_task(calc, planner, "write calc.py so the tests pass")

    assert success and planner.limits == [None] and records == []
