"""What a new user ran into, each as the exact command line that showed it.

Every test here failed before the behaviour it checks was fixed: model text printed raw, input errors ending
as `internal error` (exit 70), runs that did nothing reported as SUCCESS, long task descriptions that could
not be given, a planner error printed twice, test results named after the first word of `--test`, and `-vv`
without debug lines.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import clean_env, closed_port, run_glmagent
from conftest import REPO_ROOT, plan

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")

ESC_THOUGHT = "harmless\x1b[2K\r\x1b[1A\x1b[2KSUCCESS"
OSC_THOUGHT = (
    "title\x1b]0;pwned\x07 link \x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\ bell\x07 c1\x9b31m"
)


def glmagent(
    *args: str, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the real command line in a child process, as a user would (piped: not a terminal)."""
    return run_glmagent(*args, stdin=stdin, env=clean_env(**(env or {})))


def replay_file(tmp_path: Path, *replies: object, name: str = "replies.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(reply) + "\n" for reply in replies), encoding="utf-8")
    return path


# --- model-written text is shown inert -------------------------------------------------------------------


@pytest.mark.parametrize("thought", [ESC_THOUGHT, OSC_THOUGHT], ids=["csi-erase-lines", "osc-title-link"])
def test_escape_sequences_in_a_thought_are_shown_not_obeyed(
    project: Path, tmp_path: Path, thought: str
) -> None:
    replies = replay_file(tmp_path, plan({"tool": "read_file", "path": "app.py"}, thought=thought), plan())
    done = glmagent("task", "look", "-C", str(project), "--replay", str(replies), "--sandbox", "none")
    shown = done.stdout + done.stderr
    for control in ("\x1b", "\x07", "\r", "\x9b"):
        assert control not in shown, f"{control!r} reached the terminal"
    line = next(line for line in done.stdout.splitlines() if "harmless" in line or "title" in line)
    assert "\\x1b" in line, "the escape is shown as text, on the same line as the rest of the thought"
    if thought == ESC_THOUGHT:
        assert "SUCCESS" in line and "\\r" in line


# --- input errors are usage errors, never internal errors ---------------------------------------------------


def test_an_empty_task_description_is_a_usage_error(project: Path, tmp_path: Path) -> None:
    replies = replay_file(tmp_path, plan())
    done = glmagent("task", "", "-C", str(project), "--replay", str(replies))
    assert done.returncode == 2, done.stderr
    assert "task description is empty" in done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


def test_a_very_deeply_nested_action_is_a_usage_error(project: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    done = glmagent("act", "-", "-C", str(project), stdin=deep)
    assert done.returncode == 2, done.stderr
    assert "nested too deeply" in done.stdout + done.stderr
    assert "internal error" not in done.stderr and "RecursionError" not in done.stderr


def test_a_very_deeply_nested_model_reply_is_invalid_output_not_a_crash(
    project: Path, tmp_path: Path
) -> None:
    replies = tmp_path / "deep.jsonl"
    # JSON strings holding the raw text the model sent: 100k nested arrays, twice (the retry too).
    replies.write_text((json.dumps("[" * 100_000 + "]" * 100_000) + "\n") * 2, encoding="utf-8")
    done = glmagent("task", "x", "-C", str(project), "--replay", str(replies), "--sandbox", "none")
    assert done.returncode == 1, done.stderr
    assert "invalid_output" in done.stdout and "internal error" not in done.stderr


def test_a_schema_invalid_reply_with_none_left_to_retry_is_invalid_output_never_done(
    project: Path, tmp_path: Path
) -> None:
    """`{"foo": 1}` and nothing after it: the replay has no reply for the retry, so the outcome is the
    invalid reply and why, on screen, in --json and in the audit record; not "the planner declared done"."""
    replies = replay_file(tmp_path, {"foo": 1})
    args = ("task", "x", "-C", str(project), "--replay", str(replies), "--sandbox", "none")
    done = glmagent(*args)
    assert done.returncode == 1, done.stderr
    assert "invalid_output" in done.stdout and "declared the task done" not in done.stdout
    assert "'foo' was unexpected" in done.stdout and "'actions' is a required property" in done.stdout
    document = json.loads(glmagent(*args, "--json", "-q").stdout)
    assert document["stop_reason"] == "invalid_output" and "'foo' was unexpected" in document["error"]
    log = Path(document["audit_file"]).read_text(encoding="utf-8").splitlines()
    end = json.loads(log[-1])
    assert end["event"] == "task_end" and end["stop_reason"] == "invalid_output"
    assert "'foo' was unexpected" in end["error"]


# --- one iteration numbering -------------------------------------------------------------------------------


def test_a_resumed_task_numbers_its_iterations_alike_on_screen_in_the_summary_memory_and_audit(
    project: Path, tmp_path: Path
) -> None:
    read = plan({"tool": "read_file", "path": "app.py"})
    replies = replay_file(tmp_path, read, read, read, read)
    common = ("-C", str(project), "--replay", str(replies), "--sandbox", "none")
    first = glmagent("task", "look", *common, "--max-iterations", "1", "--task-id", "t")
    assert "iterations  1 of 1" in first.stdout
    resumed = glmagent("task", "--resume", "t", *common, "--max-iterations", "3")
    asked = [line.split(" · ")[0] for line in resumed.stdout.splitlines() if line.startswith("iteration ")]
    assert asked == ["iteration 2 of 4", "iteration 3 of 4", "iteration 4 of 4"], resumed.stdout
    assert "iterations  4 of 4 (2-4 in this run)" in resumed.stdout
    memory = (project / ".hazina" / "agent-memory" / "t.txt").read_text(encoding="utf-8")
    assert [line for line in memory.splitlines() if line.startswith("Iteration ")] == [
        "Iteration 1:", "Iteration 2:", "Iteration 3:", "Iteration 4:"
    ]  # fmt: skip
    records = [json.loads(line) for line in (project / ".hazina" / "agent-memory" / "t.jsonl").open()]
    summaries = [r["iteration"] for r in records if r["event"] == "iteration_summary"]
    assert summaries == [1, 2, 3, 4]
    end = [r for r in records if r["event"] == "task_end"][-1]
    assert (end["first_iteration"], end["iterations"]) == (2, 3)
    again = json.loads(
        glmagent("task", "--resume", "t", *common, "--max-iterations", "1", "--json", "-q").stdout
    )
    assert (again["first_iteration"], again["iterations"]) == (5, 1)
    assert again["summary"].startswith("Iteration 5:")


# --- doing nothing is not success ---------------------------------------------------------------------------


def test_an_empty_replay_is_not_success(project: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    done = glmagent("task", "x", "-C", str(project), "--replay", str(empty), "--sandbox", "none")
    assert done.returncode == 1, done.stdout
    assert "SUCCESS" not in done.stdout and "NOT DONE" in done.stdout


def test_a_batch_of_failed_actions_without_a_test_command_is_not_success(
    project: Path, tmp_path: Path
) -> None:
    replies = replay_file(
        tmp_path,
        plan({"tool": "read_file", "path": "missing.py"}, {"tool": "run", "command": "exit 3"}),
        plan(thought="all done"),
    )
    done = glmagent("task", "x", "-C", str(project), "--replay", str(replies), "--sandbox", "none", "--json")
    result = json.loads(done.stdout)
    assert done.returncode == 1 and result["success"] is False and result["stop_reason"] == "no_actions"
    assert "no iteration" in result["error"]


# --- long task descriptions ---------------------------------------------------------------------------------


def _described(project: Path) -> str:
    audit = next((project / ".hazina" / "agent-memory").glob("*.jsonl"))
    start = json.loads(audit.read_text(encoding="utf-8").splitlines()[0])
    return start["description"]


def test_a_description_longer_than_the_argument_limit_comes_from_a_file(
    project: Path, tmp_path: Path
) -> None:
    # Linux refuses any single argument over 128 KiB (MAX_ARG_STRLEN); other systems have limits too.
    description = "Refactor carefully.\n" + "x" * 200_000
    if sys.platform.startswith("linux"):
        with pytest.raises(OSError):
            subprocess.run(["true", description], check=False)
    task_file = tmp_path / "task.md"
    task_file.write_text(description + "\n", encoding="utf-8")
    replies = replay_file(tmp_path, plan())
    done = glmagent(
        "task",
        "--task-file",
        str(task_file),
        "-C",
        str(project),
        "--replay",
        str(replies),
        "--sandbox",
        "none",
    )
    assert done.returncode in (0, 1), done.stderr
    assert _described(project) == description


def test_a_dash_reads_the_description_from_stdin(project: Path, tmp_path: Path) -> None:
    replies = replay_file(tmp_path, plan())
    done = glmagent(
        "task",
        "-",
        "-C",
        str(project),
        "--replay",
        str(replies),
        "--sandbox",
        "none",
        stdin="fix it\nplease\n",
    )
    assert done.returncode in (0, 1), done.stderr
    assert _described(project) == "fix it\nplease"


# --- a planner error is printed once ---------------------------------------------------------------------


def test_a_planner_error_is_printed_once(project: Path) -> None:
    port = closed_port()
    done = glmagent(
        "task",
        "x",
        "-C",
        str(project),
        "--provider",
        "openai",
        "--base-url",
        f"http://127.0.0.1:{port}/v1",
        env={"OPENAI_API_KEY": "sk-not-real", "GLMAGENT_MAX_RETRIES": "0"},
    )
    assert done.returncode == 3
    assert (done.stdout + done.stderr).count("server is unreachable") == 1, done.stdout + done.stderr


# --- the README documents the flags users need ----------------------------------------------------------


def test_the_readme_documents_every_task_option_and_the_iteration_range() -> None:
    from glmagent.cli import build_parser

    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    parser = build_parser()
    task = parser._subparsers._group_actions[0].choices["task"]  # type: ignore[union-attr]
    options = {o for action in task._actions for o in action.option_strings if o.startswith("--")}
    missing = sorted(o for o in options - {"--help"} if o not in readme)
    assert missing == []
    assert re.search(r"--max-iterations[^\n]*1[–-]100", readme), "the 1–100 range is stated"


# --- the test result's label ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "label"),
    [
        ("sleep 5", "tests"),
        ("env CI=1 ./check.sh", "tests"),
        ("pytest -q", "pytest"),
        ("python -m pytest -x", "pytest"),
        (f"{sys.executable} -m pytest -q", "pytest"),
        ("timeout 60 pytest", "pytest"),
        ("npm test", "npm test"),
        ("cargo test --all", "cargo test"),
        ("go test ./...", "go test"),
        ("make check", "make check"),
    ],
)
def test_the_test_result_is_named_after_the_test_runner_not_the_first_word(command: str, label: str) -> None:
    from glmagent.testing import summarise_test_run

    assert summarise_test_run(command, True, "") == f"{label} passed"
    assert summarise_test_run(command, False, "boom") == f"{label} failed: boom"


# --- -vv shows debug lines --------------------------------------------------------------------------------


def test_double_verbose_prints_debug_lines_after_the_subcommand_too(project: Path, tmp_path: Path) -> None:
    replies = replay_file(tmp_path, plan({"tool": "read_file", "path": "app.py"}), plan())
    done = glmagent("task", "x", "-C", str(project), "--replay", str(replies), "--sandbox", "none", "-vv")
    assert done.returncode in (0, 1), done.stderr
    debug = [line for line in done.stderr.splitlines() if "debug" in line]
    events = " ".join(debug)
    for event in ("settings", "planner.request", "action.start"):
        assert event in events, done.stderr
