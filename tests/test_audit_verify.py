"""`verify` on a real completed task: intact logs pass; every kind of tampering is detected and named."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
from audit_support import finished_task

from glmagent.audit import AnchorBook, VerifyReport, verify_log
from glmagent.cli import main

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")


@pytest.fixture
def task(project: Path) -> Path:
    return finished_task(project)


def lines(log: Path) -> list[bytes]:
    return log.read_bytes().split(b"\n")[:-1]


def write(log: Path, content: list[bytes]) -> None:
    log.write_bytes(b"".join(line + b"\n" for line in content))


def rechain(content: list[bytes]) -> list[bytes]:
    """What a forger does: fix every `prev` so the chain is consistent again."""
    previous = "0" * 64
    out = []
    for line in content:
        record = json.loads(line)
        record["prev"] = previous
        encoded = json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode()
        out.append(encoded)
        previous = hashlib.sha256(encoded).hexdigest()
    return out


def verify(log: Path) -> VerifyReport:
    return verify_log(log, summary=log.with_suffix(".txt"))


def index_of(log: Path, event: str, nth: int = 0) -> int:
    matches = [i for i, line in enumerate(lines(log)) if json.loads(line)["event"] == event]
    return matches[nth]


def first_problem(report: VerifyReport) -> tuple[str, int | None]:
    assert not report.ok, "tampering went unnoticed"
    return report.problems[0].kind, report.problems[0].line


def test_a_completed_task_verifies(task: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = verify(task)
    assert report.ok, report.problems
    assert [check.status for check in report.runs] == ["verified"]
    assert report.records == len(lines(task)) and report.notes == []
    assert main(["audit", "verify", "t", "-C", str(task.parents[2])]) == 0
    assert (
        "OK: the chain, the stored replies, the memory file and the anchors agree" in capsys.readouterr().out
    )


def test_an_edited_record_is_named(task: Path) -> None:
    content = lines(task)
    k = index_of(task, "action", 1)  # the blocked command
    content[k] = content[k].replace(b"rm -rf /", b"rm -rf .", 1)
    write(task, content)
    assert first_problem(verify(task)) == ("modified", k + 1)


def test_an_edit_that_breaks_the_json_is_named_damaged(task: Path) -> None:
    content = lines(task)
    k = index_of(task, "validation")
    content[k] = content[k][:-3] + b"#" + content[k][-2:]
    write(task, content)
    report = verify(task)
    assert first_problem(report) == ("damaged", k + 1)
    assert {p.kind for p in report.problems} == {"damaged"}, "one edit, one finding"


def test_flipping_any_byte_is_detected(task: Path) -> None:
    original = task.read_bytes()
    positions = sorted({0, len(original) - 1, *range(0, len(original), max(1, len(original) // 120))})
    missed = []
    for position in positions:
        flipped = bytearray(original)
        flipped[position] ^= 0x01
        task.write_bytes(bytes(flipped))
        if verify(task).ok:
            missed.append(position)
    task.write_bytes(original)
    assert missed == [], f"flips at {missed} went unnoticed"
    assert verify(task).ok


def test_a_deleted_record_is_named(task: Path) -> None:
    content = lines(task)
    k = index_of(task, "action", 1)
    del content[k]
    write(task, content)
    kind, line = first_problem(verify(task))
    assert (kind, line) == ("removed", k + 1)
    assert "1 record(s)" in verify(task).problems[0].message


def test_swapped_records_are_named(task: Path) -> None:
    content = lines(task)
    k = index_of(task, "action", 1)
    content[k], content[k + 1] = content[k + 1], content[k]
    write(task, content)
    report = verify(task)
    assert first_problem(report) == ("reordered", k + 1)
    assert len([p for p in report.problems if p.kind != "summary"]) == 1


def test_an_inserted_record_is_named(task: Path) -> None:
    content = lines(task)
    k = index_of(task, "action", 1)
    content.insert(k + 1, content[k])
    write(task, content)
    kinds = [p.kind for p in verify(task).problems]
    assert "inserted" in kinds or "reordered" in kinds


def test_removing_the_first_or_the_last_record_is_detected(task: Path) -> None:
    content = lines(task)
    write(task, content[1:])
    assert first_problem(verify(task)) == ("removed", 1)
    write(task, content[:-1])
    report = verify(task)
    assert "removed" in {p.kind for p in report.problems}, report.problems
    assert any("anchored as the run's end" in p.message for p in report.problems)


def test_a_rewritten_log_with_a_recomputed_chain_is_detected(task: Path) -> None:
    content = [json.loads(line) for line in lines(task)]
    blocked = next(r for r in content if r["event"] == "action" and r["status"] == "rejected")
    blocked["status"], blocked["summary"] = "ok", "Ran `rm -rf /` (exit 0)"
    forged = rechain([json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode() for r in content])
    write(task, forged)
    report = verify(task)
    assert "rewritten" in {p.kind for p in report.problems}
    rewritten = next(p for p in report.problems if p.kind == "rewritten")
    assert "rewritten after that run finished" in rewritten.message and rewritten.line == len(forged)


def test_without_its_anchor_a_finished_run_is_not_called_intact(task: Path) -> None:
    write(task, rechain(lines(task)))  # a consistent chain, as a forger would leave it
    AnchorBook().path.unlink()
    report = verify(task)
    assert not report.ok and [p.kind for p in report.problems] == ["unanchored"]
    assert report.runs[0].status == "unanchored"


def test_a_forged_reply_is_caught_by_its_recorded_verdict(task: Path) -> None:
    content = [json.loads(line) for line in lines(task)]
    reply = next(r for r in content if r["event"] == "planner_reply")
    reply["text"] = '{"thought": "x", "plan": [], "actions": [{"tool": "format_disk"}]}'
    write(task, rechain([json.dumps(r, separators=(",", ":")).encode() for r in content]))
    kinds = {p.kind for p in verify(task).problems}
    assert {"reply", "rewritten"} <= kinds


def test_an_edited_memory_file_is_named(task: Path) -> None:
    summary = task.with_suffix(".txt")
    text = summary.read_text()
    summary.write_text(text.replace("Blocked `rm -rf /`", "Ran `ls`"))
    problem = verify(task).problems[0]
    assert problem.kind == "summary" and "differs from what the audit log recorded" in problem.message
    number = next(i for i, line in enumerate(text.splitlines(), 1) if "Blocked `rm -rf /`" in line)
    assert f"t.txt line {number} " in problem.message


def test_a_torn_tail_is_reported_as_such_not_as_tampering(task: Path) -> None:
    with task.open("ab") as handle:
        handle.write(b'{"v":1,"run":"2026')
    report = verify(task)
    assert report.ok, report.problems
    assert [f.kind for f in report.notes] == ["torn_tail"]
    assert "torn tail" in report.notes[0].message and report.notes[0].line == len(lines(task)) + 1


def test_cli_names_the_first_bad_record_and_exits_1(task: Path, capsys: pytest.CaptureFixture[str]) -> None:
    content = lines(task)
    k = index_of(task, "tests", 1)
    del content[k]
    write(task, content)
    assert main(["audit", "verify", "t", "-C", str(task.parents[2])]) == 1
    out = capsys.readouterr().out
    assert "PROBLEM removed: 1 record(s) of run" in out and "FAILED: " in out
    assert main(["audit", "verify", "t", "-C", str(task.parents[2]), "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["ok"] is False and document["problems"][0]["line"] == k + 1


def test_verify_of_an_unknown_task_is_a_usage_error(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", "verify", "nope", "-C", str(project)]) == 2
    assert "no audit log for task 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize("removed", ["a middle record", "the run's first records"])
def test_records_removed_from_a_rechained_log_without_its_anchor_show_as_a_sequence_gap(
    task: Path, removed: str
) -> None:
    # A forger who deletes records, recomputes every link and drops the anchor leaves a consistent chain;
    # only the run's own numbering (seq from 1, up by one) still tells.
    content = lines(task)
    k = index_of(task, "action", 1)
    kept = content[:k] + content[k + 1 :] if removed == "a middle record" else content[2:]
    write(task, rechain(kept))
    AnchorBook().path.unlink()

    report = verify(task)

    gaps = [p for p in report.problems if p.kind == "sequence"]
    assert len(gaps) == 1, report.problems
    if removed == "a middle record":
        assert gaps[0].line == k + 1 and f"jumps from seq {k} to {k + 2}" in gaps[0].message
    else:
        assert gaps[0].line == 1 and "starts at seq 3, not 1" in gaps[0].message
    assert report.runs[0].status == "TAMPERED OR DAMAGED"
