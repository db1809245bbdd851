"""What `audit verify` says about logs built record by record: which run a problem belongs to, the chain head
it reports, and the less common kinds of damage (a record missing its event's fields, a request naming a
prompt part that was never stored, a broken last line)."""

from __future__ import annotations

import json
from pathlib import Path

from glmagent.audit import AnchorBook, AuditWriter, new_run_id, sha256_hex, text_hash, verify_log


def write_run(log: Path, book: AnchorBook, *, actions: int = 2, end: dict | None = None) -> str:
    """One finished, anchored run of task `log.stem`, as the memory layer writes it; returns its run id."""
    writer = AuditWriter(log, log.stem, new_run_id())
    writer.append("task_start", {"description": "say hi"})
    for _ in range(actions):
        writer.append("action", {"action": {"tool": "git_status"}, "status": "ok"})
    writer.append("task_end", end or {"success": True, "stop_reason": "done", "iterations": 1})
    book.append(log, log.stem, writer.run_id, writer.seq, writer.head, writer.size)
    writer.close()
    return writer.run_id


def edit_line(log: Path, number: int, **changes: object) -> None:
    content = log.read_bytes().split(b"\n")
    record = json.loads(content[number - 1])
    record.update(changes)
    content[number - 1] = json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode()
    log.write_bytes(b"\n".join(content))


def test_tampering_in_one_run_leaves_the_other_run_verified(tmp_path: Path) -> None:
    log, book = tmp_path / "t.jsonl", AnchorBook(tmp_path / "anchors.jsonl")
    first, second = write_run(log, book), write_run(log, book)
    edit_line(log, 6, status="failed")  # the second run's first action

    report = verify_log(log, anchors=book)

    assert not report.ok
    assert report.run_status(first) == "verified"
    assert report.run_status(second) == "TAMPERED OR DAMAGED"


def test_a_problem_names_the_run_and_seq_of_the_record_it_is_about(tmp_path: Path) -> None:
    log, book = tmp_path / "t.jsonl", AnchorBook(tmp_path / "anchors.jsonl")
    run = write_run(log, book, actions=3)
    edit_line(log, 3, status="failed")  # seq 3: the next record holds a different hash of it

    report = verify_log(log, anchors=book)

    modified = [f for f in report.problems if f.kind == "modified"]
    assert [(f.line, f.run, f.seq, f.event) for f in modified] == [(3, run, 3, "action")]
    stored = report.to_json()["problems"][0]
    assert {"line": 3, "run": run, "seq": 3, "event": "action"}.items() <= stored.items()


def test_the_reported_head_is_the_hash_of_the_logs_last_record(tmp_path: Path) -> None:
    log, book = tmp_path / "t.jsonl", AnchorBook(tmp_path / "anchors.jsonl")
    write_run(log, book)
    write_run(log, book)

    report = verify_log(log, anchors=book)

    last = log.read_bytes().split(b"\n")[-2]
    assert report.ok, report.problems
    assert report.head == sha256_hex(last) == report.to_json()["head"]
    assert report.runs[-1].head == report.head


def test_a_record_without_its_events_fields_is_named_a_schema_problem(tmp_path: Path) -> None:
    log, book = tmp_path / "t.jsonl", AnchorBook(tmp_path / "anchors.jsonl")
    write_run(log, book, end={"success": True, "stop_reason": "done"})  # task_end without `iterations`

    report = verify_log(log, anchors=book)

    assert [(f.kind, f.line) for f in report.problems] == [("schema", 4)]
    assert "task_end" in report.problems[0].message and "iterations" in report.problems[0].message


def test_a_request_naming_a_prompt_part_the_run_never_stored_is_a_problem(tmp_path: Path) -> None:
    log, book = tmp_path / "t.jsonl", AnchorBook(tmp_path / "anchors.jsonl")
    text = "You answer with one JSON object."
    stored, missing = text_hash(text), "b" * 64
    writer = AuditWriter(log, "t", new_run_id())
    writer.append("task_start", {"description": "say hi"})
    writer.append("prompt_part", {"sha256": stored, "text": text})
    messages = [{"role": "system", "sha256": stored}, {"role": "system", "sha256": missing}]
    writer.append("planner_request", {"iteration": 1, "attempt": 1, "messages": messages})
    writer.append("task_end", {"success": False, "stop_reason": "stopped", "iterations": 1})
    book.append(log, "t", writer.run_id, writer.seq, writer.head, writer.size)
    writer.close()

    report = verify_log(log, anchors=book)

    assert [(f.kind, f.line) for f in report.problems] == [("schema", 3)]
    assert missing[:12] in report.problems[0].message and "never stored" in report.problems[0].message
    assert stored[:12] not in report.problems[0].message


def test_a_broken_last_line_with_its_newline_is_a_cut_short_write_not_tampering(tmp_path: Path) -> None:
    log, book = tmp_path / "t.jsonl", AnchorBook(tmp_path / "anchors.jsonl")
    write_run(log, book)
    with log.open("ab") as handle:
        handle.write(b'{"v":1,"run":"2026\n')

    report = verify_log(log, anchors=book)

    assert report.ok, report.problems
    assert [(f.kind, f.line) for f in report.notes] == [("torn_tail", 5)]
