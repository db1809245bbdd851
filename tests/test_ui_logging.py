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


def test_a_run_at_the_default_verbosity_never_imports_structlog(project: Path, tmp_path: Path) -> None:
    # Every info/debug call would be dropped by the level anyway; importing structlog (and rich's traceback
    # machinery with it) only to drop them cost each run a quarter of a second.
    replies = tmp_path / "replies.jsonl"
    replies.write_text(json.dumps(plan({"tool": "read_file", "path": "app.py"})) + "\n" + json.dumps(plan()))
    probe = (
        "import sys; from glmagent.cli import main; code = main(sys.argv[1:]); "
        "print('structlog imported:', 'structlog' in sys.modules, file=sys.stderr); sys.exit(code)"
    )
    argv = ["task", "x", "-C", str(project), "--replay", str(replies), "--sandbox", "none"]
    quiet = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=120)
    assert quiet.returncode == 0 and "structlog imported: False" in quiet.stderr, quiet.stderr
    argv.append("-v")
    loud = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=120)
    assert "structlog imported: True" in loud.stderr and "[info" in loud.stderr, loud.stderr


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


def _json_lines(stderr: str) -> list[dict[str, object]]:
    lines = [line for line in stderr.splitlines() if line.strip()]
    not_json = []
    records = []
    for line in lines:
        try:
            records.append(json.loads(line))
        except ValueError:
            not_json.append(line)
    assert not_json == [], f"{len(not_json)} of {len(lines)} stderr lines are not JSON: {not_json[:5]}"
    return records


def test_with_json_logs_stderr_carries_only_json_lines_also_without_quiet(
    project: Path, tmp_path: Path
) -> None:
    """The README's `glmagent -vv --log-format json task ... --json 2> log.jsonl`: progress that would go to
    stderr (stdout holds the result) is left out; the logs say what happened."""
    done = _task(project, tmp_path, "-vv", "--log-format", "json", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["success"] is True
    records = _json_lines(done.stderr)
    assert {"planner.request", "action.start", "action.done"} <= {r["event"] for r in records}


def test_with_json_logs_glmagents_own_messages_are_json_lines_too(project: Path, tmp_path: Path) -> None:
    bad = _task(project, tmp_path, "--log-format", "json", "--max-iterations", "0")
    assert bad.returncode == 2
    (error,) = _json_lines(bad.stderr)
    assert error["level"] == "error" and "max_iterations" in str(error["event"])
    usage = _task(project, tmp_path, "--bogus", "--log-format=json")
    assert usage.returncode == 2
    (error,) = _json_lines(usage.stderr)
    assert "unrecognized arguments: --bogus" in str(error["event"])
    progress_on_stdout = _task(project, tmp_path, "--log-format", "json")
    assert progress_on_stdout.returncode == 0 and "iteration 1" in progress_on_stdout.stdout
    assert _json_lines(progress_on_stdout.stderr) == []


_LIBRARY_RUN = """
import sys, tempfile
from pathlib import Path
{host}
from glmagent import CodingAgent, ScriptedPlanner, Settings

project = Path(tempfile.mkdtemp())
(project / "app.py").write_text("x = 1\\n")
planner = ScriptedPlanner([
    {{"thought": "look", "plan": [], "actions": [{{"tool": "read_file", "path": "app.py"}}]}},
    {{"thought": "done", "plan": [], "actions": []}},
])
task = CodingAgent.create_task("look", project)
result = CodingAgent(planner=planner, settings=Settings(provider="replay", shell="posix")).run(task)
print("RESULT", result.success, result.stop_reason)
"""

_HOST_LOGGING = (
    "import logging; "
    "logging.basicConfig(level=logging.INFO, stream=sys.stderr, format='%(name)s %(message)s')"
)
_HOST_STRUCTLOG = """
import structlog
seen = []
def keep(logger, name, event):
    seen.append(event["event"])
    raise structlog.DropEvent
structlog.configure(processors=[keep])
import atexit; atexit.register(lambda: print("HOST SAW", sorted(set(seen)), file=sys.stderr))
"""


def _library(host: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _LIBRARY_RUN.format(host=host)], capture_output=True, text=True, timeout=120
    )


def test_the_library_writes_nothing_on_stdout_and_nothing_at_all_unless_the_host_asks() -> None:
    done = _library("")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "RESULT True no_actions\n"
    assert done.stderr == ""


def test_the_library_logs_through_the_hosts_logging_or_structlog() -> None:
    through_logging = _library(_HOST_LOGGING)
    assert through_logging.stdout == "RESULT True no_actions\n"
    assert "glmagent.tools.executor event='action'" in through_logging.stderr
    through_structlog = _library(_HOST_STRUCTLOG)
    assert through_structlog.stdout == "RESULT True no_actions\n"
    assert "HOST SAW" in through_structlog.stderr and "'action'" in through_structlog.stderr
