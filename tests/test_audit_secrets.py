"""No key in any stored file: memory, audit log, act log, lock, anchors, the HTML export."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from audit_support import run_glmagent
from conftest import plan

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")

KEY = "zai-audit-secret-0123456789abcdef"


def test_no_key_reaches_any_file_glmagent_stores(project: Path, tmp_path: Path) -> None:
    env = {**os.environ, "ZAI_API_KEY": KEY, "DEPLOY_TOKEN": KEY[::-1]}
    (project / "settings.cfg").write_text(f"token = {KEY}\nother = {KEY[::-1]}\n", encoding="utf-8")
    replies = tmp_path / "replies.jsonl"
    replies.write_text(
        "\n".join(
            json.dumps(reply)
            for reply in (
                plan({"tool": "read_file", "path": "settings.cfg"}, thought=f"the key is {KEY}"),
                plan({"tool": "run", "command": "cat settings.cfg; echo done"}),
                f"not json, but it quotes {KEY}",
                plan(),
            )
        )
        + "\n",
        encoding="utf-8",
    )

    def glmagent(*args: str) -> subprocess.CompletedProcess[str]:
        return run_glmagent(*args, cwd=project, env=env)

    task = glmagent(
        "task",
        f"tidy the config ({KEY})",
        "--replay",
        str(replies),
        "--task-id",
        "s",
        "--test",
        "cat settings.cfg",
    )
    assert task.returncode in (0, 1), task.stderr
    act = glmagent("act", json.dumps({"tool": "run", "command": f"echo {KEY}"}), "--sandbox", "none")
    assert act.returncode == 0, act.stderr
    page = tmp_path / "s.html"
    assert glmagent("audit", "export", "s", "--html", str(page)).returncode == 0
    shown = glmagent("audit", "show", "s")
    assert shown.returncode == 0 and "[REDACTED]" in shown.stdout

    state = Path(os.environ["GLMAGENT_STATE_DIR"])
    stored = [*sorted((project / ".hazina").rglob("*")), *sorted(state.rglob("*")), page]
    files = [path for path in stored if path.is_file()]
    assert {path.name for path in files} >= {"s.txt", "s.jsonl", "s.lock", "act.jsonl", "audit-anchors.jsonl"}
    for path in files:
        data = path.read_bytes()
        for secret in (KEY, KEY[::-1]):
            assert secret.encode() not in data, f"{secret[:8]}… in {path}"
    for output in (act.stdout, shown.stdout):
        assert KEY not in output
