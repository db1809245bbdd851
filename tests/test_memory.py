"""The memory file's exact format, its size cap, redaction of keys and the audit log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from glmagent.errors import ConfigError
from glmagent.memory import AgentSummaryStore, Redactor, format_iteration, validate_task_id


def test_memory_file_has_the_exact_documented_shape(tmp_path: Path) -> None:
    store = AgentSummaryStore(tmp_path, "t1", redactor=Redactor({}))
    store.append_iteration(
        1,
        [
            "Read src/parser.py (120 lines)",
            "pytest failed: 1 failed in tests/test_parser.py::test_none_input",
        ],
    )
    store.append_iteration(2, ["Modified src/parser.py (+6 -1)", "pytest passed"])
    assert (tmp_path / ".hazina" / "agent-memory" / "t1.txt").read_text() == (
        "Iteration 1:\n"
        "- Read src/parser.py (120 lines)\n"
        "- pytest failed: 1 failed in tests/test_parser.py::test_none_input\n"
        "\n"
        "Iteration 2:\n"
        "- Modified src/parser.py (+6 -1)\n"
        "- pytest passed\n"
    )


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
    store.append_iteration(1, ["a"])
    store.append_iteration(2, ["b"])
    assert AgentSummaryStore(tmp_path, "t1").next_iteration_number() == 3
    assert "Iteration 2:\n- b" in AgentSummaryStore(tmp_path, "t1").load_summary()


def test_api_key_values_are_redacted_from_memory_and_audit(tmp_path: Path) -> None:
    store = AgentSummaryStore(tmp_path, "t1", redactor=Redactor({"ZAI_API_KEY": "zai-0123456789abcdef"}))
    store.append_iteration(1, ["Ran `echo zai-0123456789abcdef` (exit 0)"])
    store.record("action", output="key=zai-0123456789abcdef")
    assert "zai-0123456789abcdef" not in store.summary_path.read_text()
    record = json.loads(store.audit_path.read_text().splitlines()[0])
    assert record["output"] == "key=[REDACTED]" and record["event"] == "action" and record["task_id"] == "t1"


@pytest.mark.parametrize("task_id", ["../x", "a/b", "", ".hidden", "x" * 81, "a..b"])
def test_task_ids_that_are_not_plain_file_names_are_refused(task_id: str) -> None:
    with pytest.raises(ConfigError):
        validate_task_id(task_id)
