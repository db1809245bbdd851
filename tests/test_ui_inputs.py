"""Bad input from the user or the model is a specific error, never `internal error` (exit 70).

Each case is a command line a user could type (or a file a model could make them point at); each must end
with a usage error (exit 2) or an ordinary outcome, with a message and without a traceback.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import clean_env, run_glmagent
from conftest import plan

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A project, a good replay file and a collection of bad files beside it."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "app.py").write_text("x = 1\n")
    (tmp_path / "good.jsonl").write_text(json.dumps(plan({"tool": "run", "command": "true"})) + "\n")
    (tmp_path / "binary.bin").write_bytes(b"\xff\xfe\x00garbage\x80")
    (tmp_path / "broken.jsonl").write_text("{not json\n")
    (tmp_path / "deep.jsonl").write_text("[" * 50_000 + "]" * 50_000 + "\n")
    (tmp_path / "number.jsonl").write_text("42\n")
    (tmp_path / "bad.toml").write_text("[[[\n")
    (tmp_path / "empty.md").write_text("  \n\n")
    (tmp_path / "dir").mkdir()
    return tmp_path


def _run(workspace: Path, argv: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_glmagent(*argv, stdin=stdin, cwd=workspace)


TASK = ["task", "x", "-C", "project", "--sandbox", "none"]
REPLAY = [*TASK, "--replay", "good.jsonl"]

USAGE_ERRORS: dict[str, tuple[list[str], str]] = {
    "empty description": (
        ["task", "", "--replay", "good.jsonl", "-C", "project"],
        "task description is empty",
    ),
    "undecodable description": (
        ["task", "fix \udcff it", "--replay", "good.jsonl", "-C", "project"],
        "not UTF-8 text (byte 0xff at character 4)",
    ),
    "blank description": (["task", " \n\t ", "--replay", "good.jsonl", "-C", "project"], "is empty"),
    "no description": (["task", "--replay", "good.jsonl", "-C", "project"], "no task description"),
    "blank stdin": (["task", "-", "--replay", "good.jsonl", "-C", "project"], "is empty"),
    "blank task file": (["task", "--task-file", "empty.md", "--replay", "good.jsonl"], "is empty"),
    "missing task file": (
        ["task", "--task-file", "nope.md", "--replay", "good.jsonl"],
        "task file not found",
    ),
    "task file is a dir": (["task", "--task-file", "dir", "--replay", "good.jsonl"], "is a directory"),
    "binary task file": (["task", "--task-file", "binary.bin", "--replay", "good.jsonl"], "not UTF-8"),
    "two descriptions": (["task", "x", "--task-file", "empty.md", "--replay", "good.jsonl"], "not both"),
    "zero iterations": ([*REPLAY, "--max-iterations", "0"], "max_iterations"),
    "101 iterations": ([*REPLAY, "--max-iterations", "101"], "max_iterations"),
    "nan timeout": ([*REPLAY, "--command-timeout", "nan"], "command_timeout"),
    "negative timeout": ([*REPLAY, "--test-timeout", "-1"], "test_timeout"),
    "infinite timeout": ([*REPLAY, "--command-timeout", "inf"], "command_timeout"),
    "zero max tokens": ([*REPLAY, "--max-tokens", "0"], "max_tokens"),
    "replay is a dir": ([*TASK, "--replay", "dir"], "replay"),
    "replay missing": ([*TASK, "--replay", "nope.jsonl"], "replay file not found"),
    "replay binary": ([*TASK, "--replay", "binary.bin"], "binary.bin"),
    "replay broken": ([*TASK, "--replay", "broken.jsonl"], "not valid JSON"),
    "replay deep": ([*TASK, "--replay", "deep.jsonl"], "nested too deeply"),
    "replay number": ([*TASK, "--replay", "number.jsonl"], "expected a JSON object"),
    "workdir is a file": (["task", "x", "-C", "good.jsonl", "--replay", "good.jsonl"], "does not exist"),
    "empty test command": ([*REPLAY, "--test", ""], "--test is empty"),
    "blank test command": ([*REPLAY, "--test", "  \t"], "--test is empty"),
    "config show empty test command": (["config", "show", "-C", "project", "--test", ""], "--test is empty"),
    "empty task id": ([*REPLAY, "--task-id", ""], "invalid task id"),
    "long task id": ([*REPLAY, "--task-id", "a" * 200], "invalid task id"),
    "policy missing": ([*REPLAY, "--policy", "nope.toml"], "nope.toml"),
    "policy broken": ([*REPLAY, "--policy", "bad.toml"], "bad.toml"),
    "policy binary": ([*REPLAY, "--policy", "binary.bin"], "binary.bin"),
    "compatible without url": (["task", "x", "-C", "project", "--provider", "openai-compatible"], "base-url"),
    "bad base url": (
        [*TASK, "--provider", "openai-compatible", "--base-url", "not a url", "--model", "m"],
        "URL",
    ),
    "act empty": (["act", "", "-C", "project"], "not valid JSON"),
    "act array": (["act", "[]", "-C", "project"], "JSON object"),
    "act deep": (["act", "[" * 20_000 + "]" * 20_000, "-C", "project"], "nested too deeply"),
    "act nul path": (["act", '{"tool": "read_file", "path": "a\\u0000b"}', "-C", "project"], "NUL"),
    "policy check policy file": (["policy", "check", "ls", "--policy", "bad.toml"], "bad.toml"),
    # a mistyped -C judged writes against a folder that is not there, as if in a fresh checkout
    "policy check missing dir": (["policy", "check", "ls", "-C", "nope"], "does not exist"),
    "policy check dir is a file": (["policy", "check", "ls", "-C", "good.jsonl"], "does not exist"),
    "policy explain missing dir": (["policy", "explain", "ls", "-C", "nope"], "does not exist"),
    "init into a file": (["init", "-C", "good.jsonl"], "does not exist"),
    "config show bad dir": (
        ["config", "show", "-C", "good.jsonl", "--max-iterations", "0"],
        "max_iterations",
    ),
}


def _main_in_process(
    workspace: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    """`glmagent ARGV` through `main()` in this process, from `workspace`, stdin empty: the exit code and
    everything shown. (A child process per case cost 40 interpreter starts; the two cases below keep it.)"""
    from glmagent.cli import main

    monkeypatch.chdir(workspace)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse ends a usage error this way; the console script turns it into 2
        code = stop.code if isinstance(stop.code, int) else 1
    shown = capsys.readouterr()
    return code, shown.out + shown.err


@pytest.mark.parametrize("case", list(USAGE_ERRORS), ids=list(USAGE_ERRORS))
def test_bad_input_is_a_usage_error_with_a_specific_message(
    workspace: Path, case: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, message = USAGE_ERRORS[case]
    code, shown = _main_in_process(workspace, argv, monkeypatch, capsys)
    assert code == 2, shown
    assert message in shown
    assert "Traceback" not in shown and "internal error" not in shown


@pytest.mark.parametrize("case", ["undecodable description", "blank stdin"])
def test_a_usage_error_from_a_child_process_is_the_same(workspace: Path, case: str) -> None:
    """End to end, as a user's shell runs it: the argument bytes and stdin come from outside the process."""
    argv, message = USAGE_ERRORS[case]
    done = _run(workspace, argv)
    shown = done.stdout + done.stderr
    assert done.returncode == 2, shown
    assert message in shown
    assert "Traceback" not in shown and "internal error" not in shown


@pytest.mark.parametrize(
    "command",
    ["", "\x00", "(" * 5000 + "ls" + ")" * 5000, "$(" * 3000 + "ls" + ")" * 3000, "x" * 200_000, "\udcff"],
    ids=["empty", "nul", "deep-subshells", "deep-substitutions", "huge", "surrogate-escape"],
)
def test_policy_check_answers_every_command_line(workspace: Path, command: str) -> None:
    done = _run(
        workspace,
        ["policy", "check", "-"],
        stdin=command.encode("utf-8", "surrogateescape").decode("utf-8", "replace") + "\n",
    )
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


@pytest.mark.parametrize(
    "reply",
    [
        "[" * 100_000 + "]" * 100_000,
        "{" * 3000,
        '{"thought": "' + "\\ud800" + '", "plan": [], "actions": []}',
        '{"thought": "x", "plan": [], "actions": [{"tool": "run", "command": "' + "a" * 1_000_000 + '"}]}',
        json.dumps(plan({"tool": "read_file", "path": "../../etc/passwd"})),
        json.dumps(
            plan({"tool": "apply_diff", "path": "app.py", "diff": "@@ -1 +1 @@\n-" + "\x00" * 3 + "\n+y\n"})
        ),
    ],
    ids=["deep-array", "open-braces", "lone-surrogate", "huge-command", "escape-path", "nul-diff"],
)
def test_hostile_model_replies_end_as_ordinary_outcomes(workspace: Path, reply: str) -> None:
    replies = workspace / "hostile.jsonl"
    replies.write_text((json.dumps(reply) + "\n") * 2, encoding="utf-8")
    done = _run(workspace, [*TASK, "--replay", "hostile.jsonl"])
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_a_secret_value_in_model_text_never_reaches_the_screen(workspace: Path) -> None:
    """The screen is held to the same rule as the memory file: a key the model echoes is shown redacted."""
    key = "sk-screen-7f3a9c1e"
    reply = plan({"tool": "read_file", "path": f"{key}.txt"})
    reply["thought"] = f"I will print the key {key} now"
    reply["plan"] = [f"show {key}"]
    (workspace / "leaky.jsonl").write_text(json.dumps(reply) + "\n")
    done = run_glmagent(
        *TASK, "--replay", "leaky.jsonl", cwd=workspace, env={**clean_env(), "SCREEN_API_KEY": key}
    )
    shown = done.stdout + done.stderr
    assert "I will print the key [REDACTED] now" in shown
    assert key not in shown
