"""The sample policy corpus, line by line, through `Policy.default().check`."""

from __future__ import annotations

from pathlib import Path

import pytest

from glmagent.guard import Policy

CORPUS = Path(__file__).parent / "corpus" / "policy.tsv"


def _rows() -> list[tuple[str, str, str, str]]:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == ["backend", "expected", "category", "command"]
    rows = []
    for line in lines[1:]:
        if line.strip():
            backend, expected, category, command = line.split("\t", 3)
            rows.append((backend, expected, category, command))
    return rows


ROWS = _rows()


@pytest.mark.parametrize(("backend", "expected", "category", "command"), ROWS, ids=[r[3][:60] for r in ROWS])
def test_corpus_line(backend: str, expected: str, category: str, command: str) -> None:
    decision = Policy.default().check(command, backend)  # type: ignore[arg-type]
    if expected == "block":
        assert not decision.allowed, f"{command!r} must be blocked"
        assert decision.category == category, decision.reason
        assert decision.rule_id and decision.justification and decision.reason
    else:
        assert decision.allowed, f"{command!r} must be allowed, got {decision.rule_id}: {decision.reason}"
        assert decision.rule_id is None and decision.argv == []


def test_benign_corpus_lines_parse_cleanly() -> None:
    for backend, expected, _, command in ROWS:
        if expected == "allow":
            assert Policy.default().check(command, backend).parse_status == "ok", command  # type: ignore[arg-type]
