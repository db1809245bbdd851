"""The live bench's task set and verdict, and one task run by a real local model when one is at hand.

Every task of `bench/live_tasks/` must fail as shipped and pass with its reference solution; the bench's
verdict must run the tests as they were at the start, whatever the agent did to them. The live test runs
`glmagent task` against llama.cpp's `llama-server` with a real GGUF model: only when asked
(`GLMAGENT_LIVE=1`), since one planner call of a 1.5B model takes about a minute on two cores, and skipped
with the reason otherwise.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import live_bench  # noqa: E402

TASKS = live_bench.load_tasks()
DEFAULT_MODEL = Path("/tmp/llmserver/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")


def test_the_task_set_is_large_and_varied() -> None:
    assert len(TASKS) >= 12
    assert len({t.kind for t in TASKS}) >= 8
    for task in TASKS:
        assert task.description and task.test_files, task.name
        assert all(live_bench.is_test(Path(p)) for p in task.test_files)


def outcomes_in_process(project: Path) -> dict[str, bool]:
    """Every test function of a task's project, run here (its tests are plain functions: no fixtures),
    passed or not; a pytest process per task would cost seconds each on a busy machine."""
    names = {p.stem for p in project.rglob("*.py")} | {p.name for p in project.iterdir() if p.is_dir()}
    results: dict[str, bool] = {}
    sys.path.insert(0, str(project))
    sys.dont_write_bytecode, writes = True, sys.dont_write_bytecode  # no __pycache__ in the task set
    try:
        _forget(names, project)
        for test_file in sorted(project.rglob("test_*.py")):
            spec = importlib.util.spec_from_file_location(f"live_task_{test_file.stem}", test_file)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except Exception:  # e.g. it imports a name the task is to create
                results[f"import {test_file.name}"] = False
                continue
            for name, function in vars(module).items():
                if name.startswith("test_") and callable(function):
                    try:
                        function()
                        results[name] = True
                    except Exception:
                        results[name] = False
    finally:
        sys.dont_write_bytecode = writes
        sys.path.remove(str(project))
        _forget(names, project)
    return results


def _forget(names: set[str], project: Path) -> None:
    """Drop the task's own modules (found in `project`) so that the next project imports its own."""
    for name, module in list(sys.modules.items()):
        where = getattr(module, "__file__", None) or ""
        if name.split(".", 1)[0] in names and where.startswith(str(project)):
            del sys.modules[name]


@pytest.mark.parametrize("task", TASKS, ids=[t.name for t in TASKS])
def test_each_task_fails_as_shipped_and_passes_with_its_solution(
    task: live_bench.LiveTask, tmp_path: Path
) -> None:
    shipped = outcomes_in_process(task.project)
    assert shipped and not all(shipped.values()), shipped

    fixed = tmp_path / "fixed"
    shutil.copytree(task.project, fixed)
    shutil.copytree(task.solution, fixed, dirs_exist_ok=True)
    solved = outcomes_in_process(fixed)
    assert len(solved) >= len(shipped) and all(solved.values()), solved


def test_the_verdict_needs_the_original_tests_passing(tmp_path: Path) -> None:
    task = next(t for t in TASKS if t.name == "stats_empty")
    fixed = tmp_path / "fixed"
    shutil.copytree(task.project, fixed)
    assert live_bench.judge(task, fixed, tmp_path / "judged") == (False, [])
    shutil.copytree(task.solution, fixed, dirs_exist_ok=True)
    assert live_bench.judge(task, fixed, tmp_path / "judged") == (True, [])


def test_the_verdict_runs_the_tests_as_they_were_at_the_start(tmp_path: Path) -> None:
    task = next(t for t in TASKS if t.name == "stats_empty")
    gamed = tmp_path / "gamed"
    shutil.copytree(task.project, gamed)
    (gamed / "tests" / "test_stats.py").write_text("def test_nothing():\n    pass\n")
    (gamed / "tests" / "test_extra.py").write_text("def test_more():\n    pass\n")

    solved, changed = live_bench.judge(task, gamed, tmp_path / "judged")

    assert not solved and changed == ["tests/test_extra.py", "tests/test_stats.py"]


def _live_model() -> Path:
    if os.environ.get("GLMAGENT_LIVE") != "1":
        pytest.skip("a real model runs only with GLMAGENT_LIVE=1 (one planner call is about a minute)")
    binary = live_bench.server_binary()
    if binary is None:
        pytest.skip(f"llama-server not found under {live_bench.server_dir()} (../shared/llmserver/setup.sh)")
    model = Path(os.environ.get("GLMAGENT_LIVE_MODEL") or DEFAULT_MODEL)
    if not model.is_file():
        pytest.skip(f"model {model} not found (../shared/llmserver/fetch_models.sh, or GLMAGENT_LIVE_MODEL)")
    return model


def test_a_real_model_runs_one_task_through_glmagent(tmp_path: Path) -> None:
    model = _live_model()
    task = next(t for t in TASKS if t.name == "stats_empty")
    args = argparse.Namespace(max_iterations=3, glmagent_arg=[])

    with live_bench.LlamaServer(live_bench.server_binary(), model, alias="live", threads=2) as server:  # type: ignore[arg-type]
        outcome = live_bench.run_glmagent(task, tmp_path, server.base_url, "live", args)

    assert outcome.exit_code in (0, 1, 3) and not outcome.traceback, outcome.note
    assert outcome.calls >= 1 and outcome.prompt_tokens > 0
    # The bench's own verdict and the agent's agree: success (exit 0) only when the original tests pass.
    assert (outcome.exit_code == 0) == outcome.solved


class _StandIn(BaseHTTPRequestHandler):
    """A chat-completions server whose model fixes `stats_empty` at once, then has nothing left to do."""

    protocol_version = "HTTP/1.1"
    replies: ClassVar[list[dict[str, object]]] = [
        {
            "thought": "return 0.0 for an empty list",
            "plan": [],
            "actions": [
                {
                    "tool": "apply_diff",
                    "path": "stats.py",
                    "diff": "<<<<<<< SEARCH\n    return sum(values) / len(values)\n=======\n"
                    "    if not values:\n        return 0.0\n    return sum(values) / len(values)\n"
                    ">>>>>>> REPLACE\n",
                }
            ],
        }
    ]

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.answer(json.dumps(self.replies[0]), prompt_tokens=1000, completion_tokens=50)

    def answer(self, content: str, *, prompt_tokens: int, completion_tokens: int) -> None:
        """A chat completion holding `content`, with the usage given."""
        body = json.dumps(
            {
                "model": "stand-in",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def _bench_against(handler: type[BaseHTTPRequestHandler], *args: str) -> subprocess.CompletedProcess[str]:
    """The bench run on the task stats_empty against a stand-in server answering with `handler`."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        return subprocess.run(
            [
                sys.executable,
                str(BENCH / "live_bench.py"),
                *("--base-url", f"http://127.0.0.1:{server.server_address[1]}/v1", "--alias", "stand-in"),
                *("--tasks", "stats_empty", *args),
            ],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    finally:
        server.shutdown()
        server.server_close()


def test_the_bench_prints_a_row_per_task_and_agent_and_totals(tmp_path: Path) -> None:
    done = _bench_against(
        _StandIn,
        *("--agents", "glmagent,mini", "--mini", str(tmp_path / "no-mini")),
        *("--max-iterations", "2", "--keep", str(tmp_path / "runs")),
    )

    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert f"mini-swe-agent column skipped: --mini {tmp_path / 'no-mini'} does not exist" in lines
    row = next(line for line in lines if line.startswith("stats_empty") and " glmagent " in line)
    assert row.split()[:7] == ["stats_empty", "glmagent", "yes", "0", "1", "1", "1000"]
    assert any(line.startswith("stats_empty") and line.split()[1:3] == ["mini", "-"] for line in lines)
    assert "glmagent: solved 1/1 (100%); 1 model calls, 1,000 prompt + 50 completion tokens" in done.stdout
    # The agent's own record of the run is kept, with the fix in the project.
    assert (
        "if not values:"
        in (tmp_path / "runs" / "stats_empty" / "glmagent" / "project" / "stats.py").read_text()
    )


@pytest.mark.skipif(sys.platform == "win32", reason="the stand-in interpreter is a shell script")
def test_an_interpreter_without_pytest_stops_the_bench_before_any_model_call(tmp_path: Path) -> None:
    """Seen once: a fresh venv without pytest made every task fail at its baseline, for an hour."""
    python = tmp_path / "python"
    python.write_text("#!/bin/sh\necho 'python: No module named pytest' >&2\nexit 1\n", encoding="utf-8")
    python.chmod(0o755)
    reason = live_bench.tests_cannot_run(str(python))
    assert reason is not None
    assert "No module named pytest" in reason and "pip install pytest" in reason
    assert live_bench.tests_cannot_run(sys.executable) is None  # this interpreter runs the suite


class _MarkdownStandIn(_StandIn):
    """Answers like a chat model asked for whole files: the fix, and a block aimed outside the project."""

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        _MarkdownStandIn.asked.append(request["messages"][-1]["content"])
        fixed = (BENCH / "live_tasks" / "stats_empty" / "solution" / "stats.py").read_text(encoding="utf-8")
        content = f"### stats.py\n```python\n{fixed}```\n\n### ../escaped.py\n```python\nx = 1\n```\n"
        self.answer(content, prompt_tokens=400, completion_tokens=40)

    asked: ClassVar[list[str]] = []


def test_the_oneshot_column_sends_one_request_and_writes_the_files_it_gets(tmp_path: Path) -> None:
    done = _bench_against(_MarkdownStandIn, "--agents", "oneshot", "--keep", str(tmp_path / "runs"))

    assert done.returncode == 0, done.stdout + done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("stats_empty"))
    assert row.split()[:8] == ["stats_empty", "oneshot", "yes", "0", "1", "1", "400", "40"]
    assert "oneshot: solved 1/1 (100%); 1 model calls" in done.stdout
    [prompt] = _MarkdownStandIn.asked
    assert '### stats.py\n```python\n"""Small statistics helpers.' in prompt
    assert "Running `pytest -q` fails:" in prompt
    assert not (tmp_path / "runs" / "stats_empty" / "oneshot" / "escaped.py").exists()
    assert not (tmp_path / "runs" / "stats_empty" / "escaped.py").exists()
