"""What an action's audit record keeps of its output: what a command printed (an auditor needs it), but not
the content of a file the model read into its action record (the file is the file; what the model was shown
is in the prompt records)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from audit_support import finished_task

from glmagent.audit import iter_records

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")


def test_a_commands_output_is_kept_and_a_read_files_content_is_not(project: Path) -> None:
    with (project / "app.py").open("a") as handle:
        handle.write("\n\nGREETING = 'SENTINEL-7731'\n")
    log = finished_task(project)
    actions = [record for record in iter_records(log) if record["event"] == "action"]

    read = next(r for r in actions if r["action"]["tool"] == "read_file")
    assert read["status"] == "ok"
    assert "output_tail" not in read and "SENTINEL-7731" not in str(read)

    command = next(r for r in actions if r["action"].get("command") == "echo changed")
    assert command["status"] == "ok" and "changed" in command["output_tail"]
