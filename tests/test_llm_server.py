"""A handful of tasks through the real CLI against a real peer nobody here wrote: llama.cpp's `llama-server`
with its tiny random model (see bench/llm_server_bench.py for the 100-task run and the numbers).

Skipped, with the reason, when the server is not built: compiling llama.cpp takes minutes, so CI does not.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.llm_server_bench import SAMPLES, find_model, run_task, served, server_binary

needs_server = pytest.mark.skipif(
    server_binary() is None or find_model("tiny") is None,
    reason="llama-server is not built (build it with ../shared/llmserver/setup.sh, about 7 minutes, or set "
    "LLMSERVER_DIR); CI does not compile llama.cpp",
)


@needs_server
def test_tasks_against_llama_server_end_with_exit_0_to_3_and_strict_replies_validate(tmp_path: Path) -> None:
    with served("tiny", context=16384) as server:
        runs = []
        # One task per reply format: each is a real generation on the CPU, and a second round of the same
        # two formats runs the same code again (bench/llm_server_bench.py runs a hundred).
        for index, fmt in enumerate(["json_schema", "json_object"]):
            workdir = tmp_path / f"t{index}" / "project"
            workdir.mkdir(parents=True)
            sample = SAMPLES[index % len(SAMPLES)]
            runs.append(
                (
                    fmt,
                    run_task(
                        server.base_url,
                        "tiny",
                        fmt,
                        sample,
                        workdir,
                        max_tokens=512,
                        request_timeout=60,
                        max_iterations=2,
                    ),
                )
            )

    for fmt, run in runs:
        assert run.exit_code in (0, 1, 2, 3), run.stderr_tail
        assert not run.traceback, run.stderr_tail
        assert run.replies, run.stderr_tail
        # The server took the strict schema as it is: no step-down to a weaker format.
        assert {r["response_format"] for r in run.replies} == {fmt}
        if fmt == "json_schema":
            completed = [r for r in run.replies if r["finish_reason"] == "stop"]
            assert completed and all(r["valid"] for r in completed)


@needs_server
def test_a_prompt_beyond_the_servers_context_ends_with_the_context_hint(tmp_path: Path) -> None:
    workdir = tmp_path / "project"
    workdir.mkdir()
    with served("tiny", context=1024) as server:  # the system prompt alone is longer
        run = run_task(
            server.base_url,
            "tiny",
            "json_schema",
            SAMPLES[0],
            workdir,
            max_tokens=64,
            request_timeout=60,
            max_iterations=1,
        )

    assert run.exit_code == 3 and not run.traceback, run.stderr_tail
    (log,) = (workdir / ".hazina" / "agent-memory").glob("*.jsonl")
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [r["event"] for r in records].count("context_shrunk") == 1
    end = records[-1]
    assert end["stop_reason"] == "planner_error" and "context window" in end["error"]


@needs_server
def test_the_bench_prints_exit_codes_tracebacks_and_both_invalid_rates() -> None:
    bench = Path(__file__).resolve().parent.parent / "bench" / "llm_server_bench.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--model", "tiny", "--tasks", "2"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"exit codes: (\d: \d+(, )?)+", done.stdout)
    assert "exit codes outside 0-3: 0; tracebacks: 0" in done.stdout
    for fmt in ("json_object", "json_schema"):
        assert re.search(rf"{fmt} *: invalid replies \d+/\d+ \(.*\); of completed replies", done.stdout)


def test_without_a_built_server_the_bench_says_so_and_measures_nothing(tmp_path: Path) -> None:
    bench = Path(__file__).resolve().parent.parent / "bench" / "llm_server_bench.py"
    env = {**os.environ, "LLMSERVER_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, str(bench)], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0
    assert "llama-server not found" in done.stdout and "nothing measured" in done.stdout
