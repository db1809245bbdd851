"""The prompt's memory part stays bounded: recent summaries in full, older ones condensed, under a cap."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO_ROOT, plan, python_check

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.planners.scripted import ScriptedPlanner
from glmagent.prompt import CONDENSED_CAP, CONDENSED_LINE_CAP, MEMORY_CAP, RECENT_ITERATIONS, ContextBuilder


def _memory_part(summary: str, **caps: int) -> str:
    messages = ContextBuilder(**caps).build(  # type: ignore[arg-type]
        task="t",
        test_command=None,
        memory_summary=summary,
        last=None,
        tests=None,
        iteration=9,
        max_iterations=99,
    )
    user = messages[-1].content
    return user[user.index("# Summary of earlier iterations\n") :].split("\n\nReply with one JSON object.")[0]


def _blocks(count: int) -> str:
    return "\n".join(
        f"Iteration {i}:\n- Modified notes.txt (+1 -0)\n- Ran `wc -l notes.txt` (exit 0)\n- python failed\n"
        f"- Planner used 2,{i:03d} tokens (2,000 in, {i} out)\n"
        for i in range(1, count + 1)
    )


def test_recent_summaries_stay_whole_and_older_ones_become_one_line_each() -> None:
    part = _memory_part(_blocks(12))
    for number in range(12 - RECENT_ITERATIONS + 1, 13):
        assert f"Iteration {number}:\n- Modified notes.txt (+1 -0)\n" in part
    assert "Iteration 9: Modified notes.txt (+1 -0); Ran `wc -l notes.txt` (exit 0); python failed" in part
    assert "Iteration 9: " in part and "Iteration 9:\n" not in part
    condensed = [line for line in part.splitlines() if re.match(r"Iteration \d+: ", line)]
    assert all(len(line) <= CONDENSED_LINE_CAP for line in condensed)
    assert not any("Planner used" in line for line in condensed), "token counts are noise once condensed"


def test_the_oldest_iterations_are_named_as_omitted_within_the_cap() -> None:
    part = _memory_part(_blocks(200))
    condensed = [line for line in part.splitlines() if re.match(r"Iteration \d+: ", line)]
    assert sum(len(line) + 1 for line in condensed) <= CONDENSED_CAP
    first_kept = int(re.match(r"Iteration (\d+):", condensed[0]).group(1))  # type: ignore[union-attr]
    assert (
        f"[... earlier iterations omitted: iterations 1-{first_kept - 1}; the memory file keeps them ...]"
        in part
    )
    assert condensed[-1].startswith(f"Iteration {200 - RECENT_ITERATIONS}: ")
    assert len(part) <= MEMORY_CAP + 100


def test_summaries_of_other_shapes_still_fit_the_cap() -> None:
    part = _memory_part("free text without iteration blocks " * 1_000)
    assert len(part) <= MEMORY_CAP + 200 and "earlier iterations omitted" in part


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_a_40_iteration_tasks_last_prompt_is_at_most_1_3_times_its_second(project: Path) -> None:
    def step(i: int) -> dict:
        diff = (
            "--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1 @@\n+step 1\n"
            if i == 1
            else f"--- a/notes.txt\n+++ b/notes.txt\n@@\n step {i - 1}\n+step {i}\n"
        )
        return plan(
            {"tool": "apply_diff", "path": "notes.txt", "diff": diff},
            {"tool": "run", "command": "wc -l notes.txt"},
            thought=f"add line {i}",
        )

    planner = ScriptedPlanner([step(i) for i in range(1, 41)])
    agent = CodingAgent(planner=planner, settings=Settings(provider="replay", shell="posix", sandbox="none"))
    check = python_check("len(open('notes.txt').read().split()) >= 80")
    result = agent.run(CodingAgent.create_task("write notes", project, 40, check, task_id="long"))
    assert result.iterations == 40 and result.success
    sizes = [
        sum(len(m.text()) for m in request) for request in planner.requests
    ]  # as a json_object server gets it
    assert sizes[-1] <= 1.3 * sizes[1], f"iteration 2: {sizes[1]} chars, iteration 40: {sizes[-1]}"


def test_prompt_bench_prints_the_ratio_at_the_wire_and_the_baseline() -> None:
    run = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / "prompt_bench.py"), "--iterations", "5"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    bounded = r"bounded memory \(glmagent\): +iteration 2: +[\d,]+ chars .* iteration 5: +[\d,]+ chars"
    assert re.search(
        bounded + r" .*last/second: [\d.]+x chars, [\d.]+x body +target <= 1.3x body", run.stdout
    )
    assert re.search(r"every summary in full \(before\): .*last/second: [\d.]+x chars", run.stdout)
    assert re.search(
        r"audit log of the bounded run: +[\d.,]+ KB, \d+ records; .* would be [\d.,]+ KB", run.stdout
    )
