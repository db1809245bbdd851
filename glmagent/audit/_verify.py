"""What `glmagent audit verify` checks, and how it names what it finds.

1. **The chain.** Every line is a record with the envelope (`v`, `run`, `seq`, `prev`, `ts`, `task_id`,
   `event`), and each record's `prev` is the SHA-256 of the line before it. A break is named by what explains
   it: a record *modified* (the next record holds a different hash of it), records *removed* (a gap in `seq`),
   records *reordered* (a record names a later line as its predecessor) or *inserted*.
2. **Runs.** Each run starts with `task_start` at `seq` 1 and counts up by one; runs never interleave.
3. **Torn writes versus tampering.** A last line without its newline is a write cut short by a crash: a
   *torn tail*, reported and not counted as tampering. A broken line inside the log is accepted only when the
   next run's first record lists it (offset and hash) in `torn`, as the writer does when it resumes after a
   crash; any other broken line is *damaged*. A run without `task_end` is *incomplete* (stopped or killed).
4. **Stored replies.** Every planner reply still gets the verdict recorded for it: a reply recorded as valid
   must validate against the planner schema, one recorded as invalid must not. Prompt parts hash to the hash
   they are stored under, and every request's reference resolves.
5. **Anchors.** Every finished run's head was appended to the anchor file in the user's state folder; the
   record at that run and `seq` must still hash to it. A log rewritten with a recomputed chain fails here
   (*rewritten*), as does a removed run (*missing*); a finished run with no anchor is *unanchored*.
6. **The memory file.** The `.txt` is rebuilt from the records (header, iteration blocks, footer with the
   chain head) and must match; an incomplete run's section may end early.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from glmagent.audit._anchors import Anchor, AnchorBook
from glmagent.audit._facts import planner_schema_sha256
from glmagent.audit._records import GENESIS, LogLine, read_lines, text_hash
from glmagent.audit._runs import Run, load_runs
from glmagent.audit._summary import render_footer, render_header, split_runs
from glmagent.planners.runaway import RUNAWAY

#: Fields (and their types) each known event must carry besides the envelope.
REQUIRED_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "task_start": {"description": str},
    "prompt_part": {"sha256": str, "text": str},
    "planner_request": {"iteration": int, "attempt": int, "messages": list},
    "planner_reply": {"iteration": int, "attempt": int, "text": str},
    "validation": {"iteration": int, "attempt": int, "valid": bool},
    "action": {"action": dict, "status": str},
    "tests": {"passed": bool, "summary": str},
    "iteration_summary": {"iteration": int, "summary": str},
    "task_end": {"success": bool, "stop_reason": str, "iterations": int},
}
_ENVELOPE_TYPES: dict[str, type | tuple[type, ...]] = {
    "v": int,
    "run": str,
    "seq": int,
    "prev": str,
    "ts": str,
    "task_id": str,
    "event": str,
}


@dataclass(frozen=True)
class Finding:
    """One thing `verify` found: a problem (tampering or damage) or a note (a crash, a changed schema)."""

    kind: str
    problem: bool
    message: str
    line: int | None = None
    run: str | None = None
    seq: int | None = None
    event: str | None = None


@dataclass
class RunCheck:
    """How one run fared."""

    run: str
    first_line: int
    last_line: int
    records: int
    finished: bool
    head: str
    anchor: str = "none"
    """`matches`, `mismatch`, `missing` or `none`."""
    anchored_at: str | None = None
    problems: int = 0

    @property
    def status(self) -> str:
        if self.problems:
            return "TAMPERED OR DAMAGED"
        if not self.finished:
            return "incomplete"
        return "verified" if self.anchor == "matches" else "unanchored"


@dataclass
class VerifyReport:
    """The outcome of verifying one task's audit log (and its memory file)."""

    log: Path
    task_id: str
    lines: int = 0
    records: int = 0
    head: str | None = None
    runs: list[RunCheck] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    anchor_file: Path | None = None

    @property
    def ok(self) -> bool:
        return not any(f.problem for f in self.findings)

    @property
    def problems(self) -> list[Finding]:
        return [f for f in self.findings if f.problem]

    @property
    def notes(self) -> list[Finding]:
        return [f for f in self.findings if not f.problem]

    def run_status(self, run_id: str) -> str:
        for check in self.runs:
            if check.run == run_id:
                return check.status
        return "unknown"

    def to_json(self) -> dict[str, Any]:
        return {
            "log": str(self.log),
            "task_id": self.task_id,
            "ok": self.ok,
            "lines": self.lines,
            "records": self.records,
            "head": self.head,
            "anchor_file": str(self.anchor_file) if self.anchor_file else None,
            "runs": [{**asdict(check), "status": check.status} for check in self.runs],
            "problems": [asdict(f) for f in self.problems],
            "notes": [asdict(f) for f in self.notes],
        }


def verify_log(log: Path, *, summary: Path | None = None, anchors: AnchorBook | None = None) -> VerifyReport:
    """Verify one audit log, its anchors and (when given and present) its memory file."""
    book = anchors or AnchorBook()
    report = VerifyReport(log=log, task_id=log.stem, anchor_file=book.path)
    lines = read_lines(log)
    report.lines = len(lines)
    checker = _ChainChecker(report, lines)
    checker.walk()
    runs = load_runs(log)
    _check_runs(report, runs, lines)
    _check_anchors(report, runs, lines, book)
    if summary is not None and summary.is_file():
        _check_summary(report, runs, lines, summary)
    for check in report.runs:
        check.problems = sum(1 for f in report.problems if f.run == check.run and f.kind != "unanchored")
    return report


class _ChainChecker:
    """Walks the lines once: envelope, chain, sequence, torn and damaged lines."""

    def __init__(self, report: VerifyReport, lines: list[LogLine]) -> None:
        self.report = report
        self.lines = lines
        self.by_hash = {line.hash: line.number for line in lines}

    def add(self, kind: str, message: str, line: LogLine | None = None, *, problem: bool = True) -> None:
        record = line.record if line is not None and line.record is not None else {}
        self.report.findings.append(
            Finding(
                kind=kind,
                problem=problem,
                message=message,
                line=line.number if line else None,
                run=record.get("run") if isinstance(record.get("run"), str) else None,
                seq=record.get("seq") if isinstance(record.get("seq"), int) else None,
                event=record.get("event") if isinstance(record.get("event"), str) else None,
            )
        )

    def walk(self) -> None:
        expected = GENESIS
        previous: LogLine | None = None  # the last JSON-object line
        pending: list[LogLine] = []  # broken lines since then
        legacy = 0
        chained = False
        breaks: list[tuple[LogLine, LogLine | None]] = []
        current_run: str | None = None
        current_seq = 0
        seen_runs: set[str] = set()
        for line in self.lines:
            if not line.terminated:
                self.add(
                    "torn_tail",
                    f"line {line.number} is a torn tail: {len(line.raw):,} bytes without a newline, a "
                    "write cut "
                    "short when the process stopped; every record before it is checked",
                    line,
                    problem=False,
                )
                continue
            if line.record is None:
                pending.append(line)
                continue
            if not line.chained:
                if chained:
                    self.add(
                        "damaged",
                        f"line {line.number} is a JSON object without the record envelope (v, run, seq, "
                        "prev): "
                        "it was inserted or edited",
                        line,
                    )
                else:
                    legacy += 1
                previous, expected = line, line.hash
                continue
            chained = True
            record = line.record
            self.report.records += 1
            if not self._envelope_ok(line):
                previous, expected = line, line.hash
                continue
            damaged = self._settle_pending(pending, line)
            pending = []
            # A break right after a damaged line is that damage, already named.
            if record["prev"] != expected and not damaged:
                breaks.append((line, previous))
            run, seq = record["run"], record["seq"]
            if run == current_run:
                if seq != current_seq + 1 and record["prev"] == expected:
                    self.add(
                        "sequence",
                        f"line {line.number}: run {run} jumps from seq {current_seq} to {seq}",
                        line,
                    )
            else:
                if run in seen_runs:
                    self.add(
                        "interleaved",
                        f"line {line.number}: run {run} continues after another run began: records were "
                        "moved",
                        line,
                    )
                elif seq != 1 and record["prev"] == expected:
                    self.add("sequence", f"line {line.number}: run {run} starts at seq {seq}, not 1", line)
                seen_runs.add(run)
            current_run, current_seq = run, seq
            previous, expected = line, line.hash
        for line in pending:
            self.add(
                "torn_tail",
                f"line {line.number} is not a record ({len(line.raw):,} bytes) and nothing follows it: a "
                "write "
                "cut short when the process stopped",
                line,
                problem=False,
            )
        if legacy:
            self.add(
                "legacy",
                f"the first {legacy} record(s) predate the hash chain (written by an older glmagent): not "
                "checked",
                None,
                problem=False,
            )
        self._name_breaks(breaks)
        self.report.head = previous.hash if previous is not None else None

    def _envelope_ok(self, line: LogLine) -> bool:
        record = line.record or {}
        wrong = [key for key, kind in _ENVELOPE_TYPES.items() if not isinstance(record.get(key), kind)]
        if isinstance(record.get("prev"), str) and len(record["prev"]) != 64:
            wrong.append("prev")
        if wrong:
            self.add(
                "damaged", f"line {line.number}: envelope field(s) {', '.join(wrong)} are malformed", line
            )
            return False
        if record["task_id"] != self.report.task_id:
            self.add(
                "foreign",
                f"line {line.number} belongs to task {record['task_id']!r}, not {self.report.task_id!r}: "
                "it was copied in from another log",
                line,
            )
        required = REQUIRED_FIELDS.get(record["event"], {})
        missing = [key for key, kind in required.items() if not isinstance(record.get(key), kind)]
        if missing:
            self.add(
                "schema",
                f"line {line.number} ({record['event']}) lacks or mistypes {', '.join(missing)}",
                line,
            )
        return True

    def _settle_pending(self, pending: list[LogLine], line: LogLine) -> bool:
        """Name each broken line before `line` torn (acknowledged) or damaged; True if any was damaged."""
        record = line.record or {}
        listed = (
            record.get("torn") if record.get("event") == "task_start" and record.get("seq") == 1 else None
        )
        acknowledged = {
            (item.get("offset"), item.get("sha256")) for item in listed or [] if isinstance(item, dict)
        }
        damaged = False
        for broken in pending:
            if (broken.offset, broken.hash) in acknowledged:
                self.add(
                    "torn",
                    f"line {broken.number} is a record cut short by a crash ({len(broken.raw):,} bytes), "
                    f"acknowledged by run {record.get('run')} when it resumed the log",
                    broken,
                    problem=False,
                )
            else:
                damaged = True
                self.add(
                    "damaged",
                    f"line {broken.number} is not a valid record ({len(broken.raw):,} bytes): it was edited "
                    "or damaged",
                    broken,
                )
        return damaged

    def _name_breaks(self, breaks: list[tuple[LogLine, LogLine | None]]) -> None:
        explained: set[int] = set()
        for line, previous in breaks:
            if line.number in explained:
                continue
            record = line.record or {}
            target = self.by_hash.get(record["prev"])
            prev_record = previous.record if previous is not None else None
            consecutive = (
                prev_record is not None
                and prev_record.get("run") == record["run"]
                and prev_record.get("seq") == record["seq"] - 1
            )
            where = _where(line.number, record)
            if target is not None and target > line.number:
                self.add(
                    "reordered",
                    f"{where} is out of order: its predecessor is line {target}, which comes after it "
                    "(records were swapped or moved)",
                    line,
                )
                explained.update((target, target + 1))
            elif target is not None:
                self.add(
                    "inserted",
                    f"{where} follows line {target} in the chain: line(s) {target + 1}-{line.number - 1} "
                    "were inserted or moved there",
                    line,
                )
            elif consecutive and previous is not None and prev_record is not None:
                # Either line i-1 changed or line i's link to it did; content edits are the usual case.
                self.add(
                    "modified",
                    f"{_where(previous.number, prev_record)} was modified after it was written: "
                    f"{where} holds a different hash of it (or that link was edited)",
                    previous,
                )
            elif prev_record is not None and prev_record.get("run") == record["run"]:
                gap = record["seq"] - int(prev_record.get("seq", 0)) - 1
                self.add(
                    "removed",
                    f"{gap} record(s) of run {record['run']} were removed before {where} "
                    f"(seq {prev_record.get('seq')} → {record['seq']})",
                    line,
                )
            elif previous is None:
                self.add("removed", f"records were removed from the start of the log, before {where}", line)
            elif record["seq"] == 1:
                self.add(
                    "modified",
                    f"line {previous.number}, the end of run "
                    f"{prev_record.get('run') if prev_record else '?'}, "
                    f"was modified or records after it were removed: {where} does not follow it",
                    previous,
                )
            else:
                self.add(
                    "removed",
                    f"records were removed before {where}: seq 1-{record['seq'] - 1} of its run are missing",
                    line,
                )


def _where(number: int, record: dict[str, Any]) -> str:
    """`line 7 (action, seq 7 of run …c5b1c9ed)`: enough to find the record, short enough to read."""
    run = str(record.get("run"))[-8:]
    return f"line {number} ({record.get('event')}, seq {record.get('seq')} of run …{run})"


def _check_runs(report: VerifyReport, runs: list[Run], lines: list[LogLine]) -> None:
    hashes = {line.number: line.hash for line in lines}
    current_schema = planner_schema_sha256()
    for run in runs:
        if not run.records:
            continue
        report.runs.append(
            RunCheck(
                run=run.run_id,
                first_line=run.lines[0],
                last_line=run.lines[-1],
                records=len(run.records),
                finished=run.finished,
                head=hashes[run.lines[-1]],
            )
        )
        if not run.finished:
            report.findings.append(
                Finding(
                    "incomplete",
                    False,
                    f"run {run.run_id} has no task_end: it was stopped or killed after line {run.lines[-1]}; "
                    "its records verify as far as they go",
                    run=run.run_id,
                )
            )
        used = run.start.get("planner_schema_sha256")
        if used and current_schema and used != current_schema:
            report.findings.append(
                Finding(
                    "schema_changed",
                    False,
                    f"run {run.run_id} used planner schema {used[:12]}…; its replies were checked against "
                    "the "
                    f"current one ({current_schema[:12]}…)",
                    run=run.run_id,
                )
            )
        _check_prompt_parts(report, run)
        _check_replies(report, run)


def _check_prompt_parts(report: VerifyReport, run: Run) -> None:
    known: set[str] = set()
    for record, number in zip(run.records, run.lines, strict=True):
        event = record.get("event")
        if event == "prompt_part":
            digest, text = record.get("sha256"), record.get("text")
            if isinstance(text, str) and text_hash(text) != digest:
                report.findings.append(
                    Finding(
                        "modified",
                        True,
                        f"line {number}: the prompt part's text no longer hashes to its sha256",
                        number,
                        run.run_id,
                        record.get("seq"),
                        event,
                    )
                )
            known.add(str(digest))
        elif event == "planner_request":
            for message in record.get("messages") or []:
                if isinstance(message, dict) and "sha256" in message and message["sha256"] not in known:
                    report.findings.append(
                        Finding(
                            "schema",
                            True,
                            f"line {number}: the request refers to prompt part "
                            f"{str(message['sha256'])[:12]}…, which the run never stored",
                            number,
                            run.run_id,
                            record.get("seq"),
                            event,
                        )
                    )


def _check_replies(report: VerifyReport, run: Run) -> None:
    from glmagent.contract import InvalidPlannerOutput, parse_planner_output

    replies: dict[tuple[Any, Any], tuple[dict[str, Any], int]] = {}
    for record, number in zip(run.records, run.lines, strict=True):
        key = (record.get("iteration"), record.get("attempt"))
        if record.get("event") == "planner_reply":
            replies[key] = (record, number)
        elif record.get("event") == "validation" and key in replies and isinstance(record.get("valid"), bool):
            reply, line = replies.pop(key)
            if reply.get("finish_reason") in ("length", RUNAWAY):
                continue  # a cut-off reply is invalid whatever its text says
            try:
                parse_planner_output(str(reply.get("text", "")))
                valid, why = True, ""
            except InvalidPlannerOutput as invalid:
                valid, why = False, str(invalid)
            if valid != record["valid"]:
                verdict = "valid" if record["valid"] else "invalid"
                detail = f": {why[:160]}" if why else ""
                report.findings.append(
                    Finding(
                        "reply",
                        True,
                        f"line {line}: the planner reply (iteration {key[0]}, attempt {key[1]}) is "
                        "recorded as "
                        f"{verdict} but no longer is{detail}",
                        line,
                        run.run_id,
                        reply.get("seq"),
                        "planner_reply",
                    )
                )


def _check_anchors(report: VerifyReport, runs: list[Run], lines: list[LogLine], book: AnchorBook) -> None:
    by_position = {
        (line.record.get("run"), line.record.get("seq")): line
        for line in lines
        if line.record is not None and line.terminated
    }
    known_runs = {run.run_id for run in runs}
    checks = {check.run: check for check in report.runs}
    anchors: list[Anchor] = book.for_log(report.log, known_runs)
    for anchor in anchors:
        line = by_position.get((anchor.run, anchor.seq))
        check = checks.get(anchor.run)
        if line is None:
            if anchor.run in known_runs:
                message = (
                    f"run {anchor.run}: its record seq {anchor.seq}, anchored as the run's end at "
                    f"{anchor.ts}, "
                    "is missing or no longer a valid record: the end of the run was removed or damaged"
                )
            else:
                message = (
                    f"run {anchor.run} finished at {anchor.ts} (anchor file line {anchor.line}) but is "
                    "missing "
                    "from the log: the run was removed or the log replaced"
                )
            report.findings.append(Finding("removed", True, message, run=anchor.run, seq=anchor.seq))
            if check is not None:
                check.anchor = "missing"
            continue
        if line.hash != anchor.head:
            report.findings.append(
                Finding(
                    "rewritten",
                    True,
                    f"line {line.number} (run {anchor.run}, seq {anchor.seq}) does not match the head "
                    "anchored "
                    f"when the run finished ({anchor.ts}): the log was rewritten after that run finished "
                    f"(anchored {anchor.head[:12]}…, {anchor.size:,} bytes; found {line.hash[:12]}…)",
                    line.number,
                    anchor.run,
                    anchor.seq,
                )
            )
            if check is not None:
                check.anchor = "mismatch"
        elif check is not None and check.anchor == "none":
            check.anchor, check.anchored_at = "matches", anchor.ts
    for check in report.runs:
        if check.finished and check.anchor == "none":
            report.findings.append(
                Finding(
                    "unanchored",
                    True,
                    f"run {check.run} finished but {book.path} holds no anchor for it: a log from another "
                    "machine or user, or one whose anchor was lost, cannot be checked against a rewrite",
                    check.last_line,
                    check.run,
                )
            )


def _check_summary(report: VerifyReport, runs: list[Run], lines: list[LogLine], summary: Path) -> None:
    text = summary.read_text(encoding="utf-8", errors="replace")
    before, sections = split_runs(text)
    if before.strip():
        report.findings.append(
            Finding(
                "legacy",
                False,
                f"{summary.name} starts with {before.count(chr(10))} line(s) written before run headers "
                "existed: "
                "not checked",
            )
        )
    hashes = {line.number: line.hash for line in lines}
    expected_by_run = {
        run.run_id: (_expected_section(run, hashes), run.finished)
        for run in runs
        if run.mode == "task" and run.start
    }
    found = dict.fromkeys(expected_by_run, False)
    line_of_section = 1 + before.count("\n")
    for run_id, actual in sections:
        start_line = line_of_section
        line_of_section += actual.count("\n")
        if run_id not in expected_by_run:
            report.findings.append(
                Finding(
                    "summary",
                    True,
                    f"{summary.name} line {start_line}: run {run_id} is not in the audit log",
                    run=run_id,
                )
            )
            continue
        found[run_id] = True
        expected, finished = expected_by_run[run_id]
        got, want = actual.rstrip("\n"), expected.rstrip("\n")
        if got == want:
            continue
        if not finished and want.startswith(got):
            report.findings.append(
                Finding(
                    "incomplete",
                    False,
                    f"{summary.name}: the section of run {run_id} ends early "
                    "(the process stopped while writing it)",
                    run=run_id,
                )
            )
            continue
        offset = _first_difference(got.split("\n"), want.split("\n"))
        shown = got.split("\n")[offset] if offset < got.count("\n") + 1 else "(end of section)"
        wanted = want.split("\n")[offset] if offset < want.count("\n") + 1 else "(end of section)"
        report.findings.append(
            Finding(
                "summary",
                True,
                f"{summary.name} line {start_line + offset} differs from what the audit log recorded for run "
                f"{run_id}: found {shown[:100]!r}, recorded {wanted[:100]!r}",
                run=run_id,
            )
        )
    for run_id, present in found.items():
        if not present:
            report.findings.append(
                Finding(
                    "summary",
                    True,
                    f"{summary.name} has no section for run {run_id}: it was removed",
                    run=run_id,
                )
            )


def _expected_section(run: Run, hashes: dict[int, str]) -> str:
    pieces = [render_header(run.start)]
    pieces += [str(r.get("summary", "")) for r in run.events("iteration_summary")]
    if run.end is not None:
        pieces.append(render_footer(run.end, hashes[run.lines[-1]]))
    # The memory file stores text the way the writer encodes it: lone surrogates as `\udcff` escapes.
    return "\n".join(pieces).encode("utf-8", "backslashreplace").decode("utf-8")


def _first_difference(got: list[str], want: list[str]) -> int:
    for index, (a, b) in enumerate(zip(got, want, strict=False)):
        if a != b:
            return index
    return min(len(got), len(want))
