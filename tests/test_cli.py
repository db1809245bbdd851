"""The `glmagent` command line: exit codes, JSON output, batch policy checks and clear errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_helpers import closed_port, run_glmagent
from conftest import CORPUS, plan, python_check

from glmagent.cli import main
from glmagent.contract import planner_schema

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")


def test_help_teaches_commands_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    out = capsys.readouterr().out
    assert exited.value.code == 0
    for needle in ("glmagent demo", "policy check", "exit codes", "3 planner/provider failure"):
        assert needle in out


def test_schema_prints_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == planner_schema()


def test_policy_check_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["policy", "check", "ls -la"]) == 0
    assert main(["policy", "check", "rm -fr ~"]) == 1
    out = capsys.readouterr().out
    assert "allowed" in out and "BLOCKED" in out


def test_policy_check_json_names_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["policy", "check", "--shell", "powershell", "--json", "Remove-Item -Recurse C:\\src"]) == 1
    decision = json.loads(capsys.readouterr().out)
    assert decision["allowed"] is False and decision["category"] == "destructive" and decision["rule_id"]
    assert decision["backend"] == "powershell"


def _corpus(backend: str) -> list[tuple[str, str]]:
    rows = []
    for line in (CORPUS / "policy.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        shell, expected, _category, command = line.split("\t", 3)
        if shell == backend:
            rows.append((expected, command))
    return rows


@pytest.mark.parametrize("backend", ["posix", "powershell"])
def test_sample_policy_corpus_through_the_batch_cli(backend: str) -> None:
    rows = _corpus(backend)
    done = run_glmagent(
        "policy", "check", "--shell", backend, "-", stdin="\n".join(c for _, c in rows) + "\n"
    )
    decisions = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(decisions) == len(rows)
    wrong = [
        (expected, command)
        for (expected, command), decision in zip(rows, decisions, strict=True)
        if decision["allowed"] != (expected == "allow")
    ]
    assert wrong == []
    assert done.returncode == 1, "the corpus has blocked lines, so the batch exits 1"


def test_policy_rules_lists_rules_with_justifications(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["policy", "rules", "--json"]) == 0
    rules = json.loads(capsys.readouterr().out)
    assert len(rules) >= 10 and all(rule["justification"] for rule in rules)


def test_act_runs_one_action_and_prints_the_observation(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["act", '{"tool": "read_file", "path": "app.py"}', "-C", str(project)]) == 0
    assert json.loads(capsys.readouterr().out)["summary"] == "Read app.py (2 lines)"
    assert (
        main(["act", '{"tool": "run", "command": "rm -rf ."}', "-C", str(project), "--shell", "posix"]) == 1
    )
    assert json.loads(capsys.readouterr().out)["status"] == "rejected"
    assert main(["act", '{"tool": "format_disk"}', "-C", str(project)]) == 2
    assert "at action/tool" in json.loads(capsys.readouterr().out)["error"]


def test_task_with_replay_succeeds_and_prints_json(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = project.parent / "replies.jsonl"
    replay.write_text(json.dumps(plan({"tool": "run", "command": "touch fixed"})) + "\n")
    code = main(
        [
            "task",
            "create the marker",
            "-C",
            str(project),
            "--replay",
            str(replay),
            "--shell",
            "posix",
            "--test",
            python_check("__import__('os').path.exists('fixed')"),
            "--json",
            "--task-id",
            "cli",
        ]
    )
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert code == 0 and result["success"] and result["stop_reason"] == "tests_passed"
    assert "iteration 1" in captured.err, "progress goes to stderr in --json mode"
    assert (project / ".hazina" / "agent-memory" / "cli.txt").is_file()


def test_task_not_done_exits_1(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = project.parent / "replies.jsonl"
    replay.write_text(json.dumps(plan()) + "\n")
    code = main(
        ["task", "x", "-C", str(project), "--replay", str(replay), "--test", "exit 1", "--shell", "posix"]
    )
    assert code == 1 and "NOT DONE" in capsys.readouterr().out


def test_missing_api_key_says_which_variable_and_how_to_run_offline(project: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(project)}
    done = run_glmagent("task", "x", "-C", str(project), "--provider", "glm", env=env)
    assert done.returncode == 2
    assert "ZAI_API_KEY" in done.stderr and "glmagent demo" in done.stderr and "Traceback" not in done.stderr


def test_unreachable_provider_exits_3(project: Path) -> None:
    port = closed_port()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(project), "OPENAI_API_KEY": "sk-test-not-real"}
    env["GLMAGENT_RETRY_BACKOFF"] = "0.01"  # the retries still happen; the test need not sit through them
    done = run_glmagent(
        "task",
        "x",
        "-C",
        str(project),
        "--provider",
        "openai",
        "--base-url",
        f"http://127.0.0.1:{port}/v1",
        env=env,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert "unreachable" in done.stdout.lower() + done.stderr.lower()
    assert "sk-test-not-real" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["task", "x", "-C", "/definitely/not/here", "--replay", "r.jsonl"],
        ["task", "x", "--replay", "/definitely/not/here.jsonl"],
        ["task", "x", "--replay", "r.jsonl", "--task-id", "../escape"],
    ],
)
def test_bad_usage_exits_2_without_traceback(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("glmagent: ") and "Traceback" not in err


def test_bad_config_file_exits_2(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".hazina").mkdir()
    (project / ".hazina" / "config.toml").write_text("max_iterations = 'many'\n")
    assert main(["task", "x", "-C", str(project), "--provider", "ollama"]) == 2
    assert "max_iterations" in capsys.readouterr().err


def test_policy_check_shows_the_command_inert(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["policy", "check", "rm -rf / \x1b]0;owned\x07"]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\\x1b]0" in out


def test_task_help_states_the_success_rule_the_description_sources_and_ctrl_c(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["task", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "at least one iteration in which every action succeeded" in out
    assert "--task-file FILE" in out and "- to read it from stdin" in out
    assert "the first lets the running action finish" in out
    assert "1-100" in out


DIFF_TO_HI = (
    "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n def greet(name):\n"
    "-    return 'hello ' + name\n+    return 'hi ' + name\n"
)


@pytest.mark.parametrize("output", ["progress", "--json"])
def test_a_closed_output_pipe_exits_141_after_the_task_ran_to_its_end(project: Path, output: str) -> None:
    """`glmagent task … | head -c1`: the reader leaves; the task still makes its edit and records its end."""
    import os
    import subprocess

    replies = project.parent / "replies.jsonl"
    edit = plan({"tool": "apply_diff", "path": "app.py", "diff": DIFF_TO_HI})
    replies.write_text(json.dumps(edit) + "\n" + json.dumps(plan(thought="done")) + "\n", encoding="utf-8")
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first byte: every write meets a closed pipe
    try:
        args = ["task", "say hi", "-C", str(project), "--replay", str(replies), "--sandbox", "none"]
        done = subprocess.run(
            [sys.executable, "-m", "glmagent", *args, *(["--json"] if output == "--json" else [])],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)

    assert done.returncode == 141, done.stderr
    assert "Traceback" not in done.stderr and "output pipe was closed" in done.stderr
    assert "'hi ' + name" in (project / "app.py").read_text()
    log = project / ".hazina" / "agent-memory"
    (audit,) = log.glob("*.jsonl")
    events = [json.loads(line)["event"] for line in audit.read_text(encoding="utf-8").splitlines()]
    assert events[-1] == "task_end"
