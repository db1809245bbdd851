"""Logs: structlog lines on stderr — warnings by default, info with -v, debug with -vv, JSON lines with
--log-format json — never on stdout, and with control characters made visible like everything else."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import plan

from glmagent.cli._output import configure_logging

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")


def _task(project: Path, tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    replies = tmp_path / "replies.jsonl"
    replies.write_text(
        json.dumps(plan({"tool": "read_file", "path": "app.py"})) + "\n" + json.dumps(plan()) + "\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    argv = ["task", "x", "-C", str(project), "--replay", str(replies), "--sandbox", "none", *options]
    return subprocess.run(
        [sys.executable, "-m", "glmagent", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def _levels(stderr: str) -> set[str]:
    return {level for level in ("debug", "info", "warning") if f"[{level}" in stderr}


def test_no_flag_shows_no_operational_logs(project: Path, tmp_path: Path) -> None:
    done = _task(project, tmp_path)
    assert done.returncode == 0 and _levels(done.stderr) == set(), done.stderr


def test_one_v_shows_info_and_two_show_debug(project: Path, tmp_path: Path) -> None:
    info = _task(project, tmp_path, "-v")
    assert _levels(info.stderr) == {"info"}, info.stderr
    debug = _task(project, tmp_path, "-vv")
    assert {"debug", "info"} <= _levels(debug.stderr)
    assert "[info" not in debug.stdout and "[debug" not in debug.stdout, "logs never go to stdout"


def test_log_format_json_writes_one_json_object_per_line(project: Path, tmp_path: Path) -> None:
    done = _task(project, tmp_path, "-vv", "--log-format", "json", "--json", "-q")
    assert done.returncode == 0
    assert json.loads(done.stdout)["success"] is True
    records = [json.loads(line) for line in done.stderr.splitlines() if line.strip()]
    assert records and all({"event", "level", "timestamp"} <= set(r) for r in records)
    assert {"planner.request", "action.start", "action.done", "settings"} <= {r["event"] for r in records}


def test_log_values_have_their_control_characters_made_visible(capsys: pytest.CaptureFixture[str]) -> None:
    import structlog

    configure_logging(1, "console", colour=False)
    structlog.get_logger("test").warning("server.said", body="ok\x1b]0;pwned\x07\x1b[2J")
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert "ok\\x1b]0;pwned\\x07\\x1b[2J" in err
