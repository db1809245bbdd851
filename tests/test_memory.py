"""The memory file's exact format, its run header and footer, the audit log's records, redaction, the lock."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from glmagent.audit import AnchorBook, iter_records, verify_log
from glmagent.errors import ConfigError, TaskBusyError
from glmagent.memory import (
    TEST_OUTPUT_TAIL,
    AgentSummaryStore,
    Redactor,
    format_iteration,
    iteration_blocks,
    validate_task_id,
)
from glmagent.observation import Observation


def start(store: AgentSummaryStore, **details: object) -> str:
    fields = {"description": "fix the parser", "test_command": "pytest -q", "planner": "glm:glm-5"}
    return store.start_run(**{**fields, **details})


def records(store: AgentSummaryStore) -> list[dict]:
    return list(iter_records(store.audit_path))


def test_memory_file_has_the_exact_documented_shape(tmp_path: Path) -> None:
    store = AgentSummaryStore(tmp_path, "t1", redactor=Redactor({}))
    run = start(store)
    store.append_iteration(
        1,
        [
            "Read src/parser.py (120 lines)",
            "pytest failed: 1 failed in tests/test_parser.py::test_none_input",
        ],
    )
    store.append_iteration(2, ["Modified src/parser.py (+6 -1)", "pytest passed"])
    store.finish_run(success=True, stop_reason="tests_passed", iterations=2, usage={"total_tokens": 5210})
    written = records(store)
    first, last = written[0], written[-1]
    head = verify_log(store.audit_path).head
    assert (tmp_path / ".hazina" / "agent-memory" / "t1.txt").read_text() == (
        f"# run {run} started {first['ts']}\n"
        "# task: fix the parser\n"
        "# test command: pytest -q\n"
        "# planner: glm:glm-5\n"
        "\n"
        "Iteration 1:\n"
        "- Read src/parser.py (120 lines)\n"
        "- pytest failed: 1 failed in tests/test_parser.py::test_none_input\n"
        "\n"
        "Iteration 2:\n"
        "- Modified src/parser.py (+6 -1)\n"
        "- pytest passed\n"
        "\n"
        f"# run {run} ended {last['ts']}: SUCCESS (tests_passed), 2 iterations, 5,210 tokens, cost unknown\n"
        f"# chain head: {head} (record {last['seq']})\n"
    )
    # The seed's format is untouched: only `Iteration N:` blocks of `- ` bullets, once the `# ` lines go.
    assert "\n".join(block for _, block in iteration_blocks(store.summary_path.read_text())) == (
        "Iteration 1:\n- Read src/parser.py (120 lines)\n"
        "- pytest failed: 1 failed in tests/test_parser.py::test_none_input\n\n"
        "Iteration 2:\n- Modified src/parser.py (+6 -1)\n- pytest passed\n"
    )
    assert store.load_summary().startswith("Iteration 1:\n") and "# run" not in store.load_summary()


def test_every_record_carries_run_sequence_and_the_previous_records_hash(tmp_path: Path) -> None:
    store = AgentSummaryStore(tmp_path, "t1")
    run = start(store)
    store.record("validation", iteration=1, attempt=1, valid=True)
    store.append_iteration(1, ["did a thing"])
    store.finish_run(success=True, stop_reason="no_actions", iterations=1)
    lines = store.audit_path.read_bytes().splitlines()
    import hashlib

    previous = "0" * 64
    for seq, line in enumerate(lines, start=1):
        record = json.loads(line)
        assert record["v"] == 1 and record["run"] == run and record["seq"] == seq
        assert record["prev"] == previous and record["task_id"] == "t1"
        previous = hashlib.sha256(line).hexdigest()
    anchors = [json.loads(line) for line in AnchorBook().path.read_text().splitlines()]
    assert anchors == [
        {
            "log": str(store.audit_path.resolve()),
            "task_id": "t1",
            "run": run,
            "seq": len(lines),
            "head": previous,
            "size": store.audit_path.stat().st_size,
            "ts": anchors[0]["ts"],
        }
    ]


def test_summary_is_capped_near_500_tokens() -> None:
    block = format_iteration(
        1, [f"Ran `command number {i}` with a long description " * 3 for i in range(200)]
    )
    assert len(block) / 4 <= 500
    assert "more events not shown" in block


def test_multiline_events_stay_one_bullet_each() -> None:
    assert format_iteration(3, ["first\nsecond"]) == "Iteration 3:\n- first second\n"


def test_iteration_numbers_continue_across_runs(tmp_path: Path) -> None:
    store = AgentSummaryStore(tmp_path, "t1")
    assert store.next_iteration_number() == 1
    start(store)
    store.append_iteration(1, ["a"])
    store.append_iteration(2, ["b"])
    store.finish_run(success=False, stop_reason="max_iterations", iterations=2)
    again = AgentSummaryStore(tmp_path, "t1")
    assert again.next_iteration_number() == 3
    assert "Iteration 2:\n- b" in again.load_summary()


def test_api_key_values_are_redacted_from_memory_audit_and_anchor(tmp_path: Path) -> None:
    key = "zai-0123456789abcdef"
    store = AgentSummaryStore(tmp_path, "t1", redactor=Redactor({"ZAI_API_KEY": key}))
    start(store, description=f"use {key} please")
    store.append_iteration(1, [f"Ran `echo {key}` (exit 0)"])
    store.record("observation_note", output=f"key={key}", nested={"list": [f"x{key}y"], key: 1})
    store.finish_run(success=True, stop_reason="no_actions", iterations=1, error=key)
    for path in (store.summary_path, store.audit_path, AnchorBook().path):
        assert key not in path.read_text()
    action = next(r for r in records(store) if r["event"] == "observation_note")
    assert action["output"] == "key=[REDACTED]" and action["nested"] == {
        "list": ["x[REDACTED]y"],
        "[REDACTED]": 1,
    }
    assert "# task: use [REDACTED] please" in store.summary_path.read_text()
    assert verify_log(store.audit_path, summary=store.summary_path).ok


def test_text_no_file_can_hold_is_stored_escaped_and_still_verifies(tmp_path: Path) -> None:
    store = AgentSummaryStore(tmp_path, "t1")
    start(store, description="an argument with a stray byte \udcff in it")
    store.append_iteration(1, ["Planner output invalid: at thought: the text contains \ud800"])
    store.finish_run(success=False, stop_reason="invalid_output", iterations=1)
    assert "byte \\udcff in it" in store.summary_path.read_text(encoding="utf-8")
    assert next(iter_records(store.audit_path))["description"].endswith("\udcff in it")
    report = verify_log(store.audit_path, summary=store.summary_path)
    assert report.ok, report.problems


@pytest.mark.parametrize("task_id", ["../x", "a/b", "", ".hidden", "x" * 81, "a..b"])
def test_task_ids_that_are_not_plain_file_names_are_refused(task_id: str) -> None:
    with pytest.raises(ConfigError):
        validate_task_id(task_id)


def test_the_memory_folder_ignores_itself_so_git_status_stays_clean(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    store = AgentSummaryStore(tmp_path, "t1")
    start(store)
    store.append_iteration(1, ["a"])
    store.finish_run(success=True, stop_reason="no_actions", iterations=1)
    assert (tmp_path / ".hazina" / "agent-memory" / ".gitignore").read_text().splitlines()[-1] == "*"
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert status.stdout == ""


def test_static_prompt_parts_are_stored_once_and_referenced_by_hash(tmp_path: Path) -> None:
    store = AgentSummaryStore(tmp_path, "t1")
    start(store)
    system = {"role": "system", "content": "RULES " * 2_000}
    for iteration in (1, 2, 3):
        store.record_request(iteration, 1, [system, {"role": "user", "content": f"iteration {iteration}"}])
    store.finish_run(success=True, stop_reason="no_actions", iterations=3)
    written = records(store)
    parts = [r for r in written if r["event"] == "prompt_part"]
    requests = [r for r in written if r["event"] == "planner_request"]
    assert len(parts) == 1 and parts[0]["text"] == system["content"]
    assert [r["messages"][0] for r in requests] == [{"role": "system", "sha256": parts[0]["sha256"]}] * 3
    assert requests[2]["messages"][1] == {"role": "user", "content": "iteration 3"}
    assert store.audit_path.stat().st_size < 2 * len(system["content"])


def test_test_runs_and_commands_keep_a_bounded_tail_of_their_output(tmp_path: Path) -> None:
    store = AgentSummaryStore(tmp_path, "t1")
    start(store)
    output = "".join(f"line {i}\n" for i in range(10_000)) + "1 failed, 3 passed in 0.5s\n"
    store.record_tests("baseline", {"command": "pytest", "passed": False, "summary": "s", "output": output})
    store.record_action(
        {"tool": "run", "command": "make"},
        Observation(tool="run", status="failed", summary="Ran `make` (exit 2)", output=output),
    )
    store.record_action(
        {"tool": "read_file", "path": "a.py"},
        Observation(tool="read_file", status="ok", summary="Read a.py", output=output),
    )
    store.finish_run(success=False, stop_reason="no_actions", iterations=1)
    tests, run_action, read_action = (r for r in records(store) if r["event"] in ("tests", "action"))
    assert tests["output_tail"].endswith("1 failed, 3 passed in 0.5s\n")
    assert len(tests["output_tail"]) <= TEST_OUTPUT_TAIL + 50 and "characters cut" in tests["output_tail"]
    assert run_action["output_tail"].endswith("in 0.5s\n") and len(run_action["output_tail"]) < 2_100
    assert "output_tail" not in read_action, "a file's content is not copied into the log"
    assert run_action["action"]["command"] == "make"


def test_each_record_is_fsynced_as_it_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = os.fsync

    def counting(fd: int) -> None:
        synced.append(os.fstat(fd).st_size)
        real(fd)

    monkeypatch.setattr(os, "fsync", counting)
    store = AgentSummaryStore(tmp_path, "t1")
    start(store)
    store.record("validation", iteration=1, attempt=1, valid=True)
    sizes_after_two = store.audit_path.stat().st_size
    store.finish_run(success=True, stop_reason="no_actions", iterations=0)
    assert sizes_after_two in synced, "the second record was on disk before the third was written"
    assert store.audit_path.stat().st_size in synced


def test_a_second_run_of_the_same_task_waits_then_fails_naming_the_holder(tmp_path: Path) -> None:
    first = AgentSummaryStore(tmp_path, "busy")
    run = start(first)
    second = AgentSummaryStore(tmp_path, "busy", lock_wait=0.3)
    began = time.monotonic()
    with pytest.raises(TaskBusyError, match=rf"task busy is already running \(run {run}, pid {os.getpid()}"):
        start(second)
    assert time.monotonic() - began >= 0.25, "it gave up without waiting"  # a floor: load cannot break it
    assert [r["event"] for r in records(first)] == ["task_start"], "the refused run wrote nothing"
    first.finish_run(success=True, stop_reason="no_actions", iterations=0)
    start(second)  # free again
    second.finish_run(success=True, stop_reason="no_actions", iterations=0)


def test_a_waiting_run_starts_as_soon_as_the_first_one_ends(tmp_path: Path) -> None:
    first = AgentSummaryStore(tmp_path, "t")
    start(first)
    first.append_iteration(1, ["first run"])
    second = AgentSummaryStore(tmp_path, "t", lock_wait=30)
    done = threading.Event()

    def run_second() -> None:
        start(second)
        second.append_iteration(second.next_iteration_number(), ["second run"])
        second.finish_run(success=True, stop_reason="no_actions", iterations=1)
        done.set()

    thread = threading.Thread(target=run_second)
    thread.start()
    time.sleep(0.3)
    assert not done.is_set()
    first.finish_run(success=True, stop_reason="no_actions", iterations=1)
    thread.join(10)
    assert done.is_set()
    runs = [r["run"] for r in records(first)]
    boundary = runs.index(runs[-1])
    assert len(set(runs[:boundary])) == 1 and len(set(runs[boundary:])) == 1, "the runs do not interleave"
    assert "Iteration 2:\n- second run" in first.load_summary(), "numbering continued after the first run"
    assert verify_log(first.audit_path, summary=first.summary_path).ok


def test_a_torn_last_record_is_closed_and_acknowledged_by_the_next_run(tmp_path: Path) -> None:
    store = AgentSummaryStore(tmp_path, "t")
    start(store)
    store.record("validation", iteration=1, attempt=1, valid=True)
    torn_at = store.audit_path.stat().st_size
    store.close()  # the process "dies" while writing the next record:
    with store.audit_path.open("ab") as handle:
        handle.write(b'{"v":1,"run":"x","seq":3,"prev":"ab')
    resumed = AgentSummaryStore(tmp_path, "t")
    start(resumed)
    resumed.finish_run(success=True, stop_reason="no_actions", iterations=0)
    lines = resumed.audit_path.read_bytes().split(b"\n")
    assert lines[2] == b'{"v":1,"run":"x","seq":3,"prev":"ab', "the torn bytes stay as they were"
    acknowledged = json.loads(lines[3])
    assert acknowledged["event"] == "task_start" and acknowledged["torn"][0]["offset"] == torn_at
    report = verify_log(resumed.audit_path, summary=resumed.summary_path)
    assert report.ok, report.problems
    assert [f.kind for f in report.notes] == ["torn", "incomplete"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_a_write_waits_until_both_files_agree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import glmagent.audit._writer as writer

    store = AgentSummaryStore(tmp_path, "t")
    start(store)
    real = writer.write_durably

    def interrupted(fd: int, data: bytes) -> None:
        real(fd, data)
        os.kill(os.getpid(), signal.SIGINT)  # lands after the bytes, before the writer notes their hash

    monkeypatch.setattr(writer, "write_durably", interrupted)
    with pytest.raises(KeyboardInterrupt):
        store.append_iteration(1, ["Ran `make` (exit 0)"])
    # Only the patched writer goes back: `monkeypatch.undo()` would also drop the private user folders.
    monkeypatch.setattr(writer, "write_durably", real)
    assert "Iteration 1:\n- Ran `make` (exit 0)" in store.summary_path.read_text()
    store.append_iteration(2, ["Interrupted by the user"])
    store.finish_run(success=False, stop_reason="interrupted", iterations=2)
    report = verify_log(store.audit_path, summary=store.summary_path)
    assert report.ok, report.problems


def test_one_bullet_is_at_most_300_characters_and_a_block_at_most_500_tokens() -> None:
    # The caps are stated here as README states them, so an edit of either constant fails this test.
    (bullet,) = format_iteration(1, ["x" * 1_000]).splitlines()[1:]
    assert bullet == "- " + "x" * 299 + "…"

    block = format_iteration(2, [f"Ran `step {i}` " + "y" * 80 for i in range(50)])
    assert len(block) <= 500 * 4
    shown = block.splitlines()[1:-1]
    assert shown[0].startswith("- Ran `step 0` ") and len(shown) < 50
    assert block.splitlines()[-1] == f"- ({50 - len(shown)} more events not shown; see the audit log)"
