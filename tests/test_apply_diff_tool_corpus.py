"""The sample diff corpus through the real `apply_diff` tool: real files, confinement, atomic writes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import CORPUS

from glmagent.contract import Action
from glmagent.guard import Policy
from glmagent.tools.executor import ToolExecutor
from glmagent.tools.shell import PosixShell
from glmagent.workspace import Workspace

CASES = sorted(p for p in (CORPUS / "diffs").iterdir() if p.is_dir())


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_corpus_case_through_the_tool(case: Path, tmp_path: Path) -> None:
    relative = (case / "path.txt").read_text(encoding="utf-8").strip()
    target = tmp_path / relative
    before = (case / "before").read_bytes() if (case / "before").exists() else None
    if before is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(before)
    diff = (case / "patch.diff").read_bytes().decode("utf-8")
    executor = ToolExecutor(Workspace(tmp_path), PosixShell(), Policy.default())

    observation = executor.execute(Action(tool="apply_diff", path=relative, diff=diff))

    if (case / "expect_deleted").exists():
        assert observation.status == "ok" and not target.exists()
    elif (case / "after").exists():
        assert observation.status == "ok", observation.output
        assert target.read_bytes() == (case / "after").read_bytes()
    else:
        assert observation.status == "failed" and "NOT applied" in observation.output
        assert (target.read_bytes() if target.exists() else None) == before
    leftovers = [p.name for p in tmp_path.rglob("*.glmagent.tmp")]
    assert leftovers == [], "no temporary files are left behind"
