"""`glmagent policy suggest`: allow entries for the `run` commands of the last tasks, generalised to programs
and subcommands, printed as a policy file that loads (its examples proven) and allows what the tasks ran."""

from __future__ import annotations

import json
import os
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import plan

from glmagent.cli import main
from glmagent.guard import Policy
from glmagent.guard._suggest import allow_entries_toml, suggest_allow_entries
from glmagent.recent_commands import recent_run_commands, run_command

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")


def action(command: str, status: str = "ok", backend: str = "posix", tool: str = "run") -> dict:
    return {
        "ts": "2026-01-01T00:00:00.000+00:00",
        "task_id": "t",
        "event": "action",
        "iteration": 1,
        "index": 0,
        "action": {"tool": tool, "command": command} if tool == "run" else {"tool": tool, "path": "x"},
        "status": status,
        "details": {"command": command, "policy": {"allowed": status != "rejected", "backend": backend}},
    }


def write_log(project: Path, task_id: str, records: list[dict | str], mtime: int | None = None) -> Path:
    folder = project / ".hazina" / "agent-memory"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{task_id}.jsonl"
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def suggest(project: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = main(["policy", "suggest", "-C", str(project), *extra])
    return code, capsys.readouterr().out


def test_entries_generalise_to_programs_and_subcommands(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_log(
        project,
        "task-a",
        [
            {"event": "task_start", "description": "x"},
            action("git status"),
            action("git diff HEAD~1 -- app.py"),
            action("git -C sub log --oneline"),
            action("python -m pytest -q tests/test_app.py", status="failed"),
            action("ls -la && grep -rn greet .", status="ok"),
            action("curl http://example.com", status="rejected"),  # blocked: it never ran
            action("make build", status="skipped"),  # never tried
            action("", tool="read_file"),
        ],
    )
    code, out = suggest(project, capsys)
    assert code == 0
    document = tomllib.loads(out)
    assert document["policy"] == {"mode": "allowlist"}
    entries = {entry["id"]: entry for entry in document["allow"]}
    assert entries["git"]["subcommands"] == ["diff", "log", "status"]
    assert entries["git"]["commands"] == ["git"]
    assert entries["python-m-pytest"]["prefix"] == ["-m", "pytest"]
    assert "pytest" in entries  # what `python -m pytest` runs in turn
    assert {"ls", "grep"} <= set(entries)
    assert not {"curl", "make"} & set(entries)
    # generalised: no entry pins a whole literal line
    for entry in document["allow"]:
        assert set(entry) <= {
            "id",
            "description",
            "commands",
            "subcommands",
            "prefix",
            "only_flags",
            "shells",
            "match",
        }


def test_the_output_is_a_policy_file_that_allows_what_the_tasks_ran(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ran = [
        "git status",
        "git --version",
        "python -m pytest -q",
        "python scripts/check.py",
        "nice make test",
        "cd src && ls | head -3",
        "echo \"a 'quoted' \\\\ thing\" | wc -l",
    ]
    write_log(project, "task-a", [action(c) for c in ran])
    write_log(
        project, "task-b", [action("Get-ChildItem -Recurse | Select-String greet", backend="powershell")]
    )
    code, out = suggest(project, capsys)
    assert code == 0
    saved = tmp_path / "suggested.toml"
    saved.write_text(out, encoding="utf-8")
    policy = Policy.load([saved])  # every example is proven again on load
    assert policy.mode == "allowlist"
    for command in ran:
        assert policy.check(command, "posix").allowed, command
    assert policy.check("Get-ChildItem -Recurse | Select-String greet", "powershell").allowed
    assert policy.check("gci", "powershell").allowed  # the alias of a listed cmdlet
    for unlisted in ("git commit -m x", "rm app.py", "python -m http.server", "make install"):
        assert not policy.check(unlisted, "posix").allowed, unlisted
    # Round trip: suggesting from the suggestion's own examples gives the same entries.
    again = suggest_allow_entries(
        policy, [entry.backend_of(e) for entry in policy.allow_entries for e in entry.match]
    )
    assert {e.id for e in again.entries} <= {e.id for e in policy.allow_entries}


def test_only_the_last_tasks_are_read(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_log(project, "old", [action("make lint")], mtime=1_000_000)
    write_log(project, "new", [action("pytest -q")], mtime=2_000_000)
    code, out = suggest(project, capsys, "--tasks", "1")
    assert code == 0
    ids = {entry["id"] for entry in tomllib.loads(out)["allow"]}
    assert ids == {"pytest"}
    _, out = suggest(project, capsys, "--tasks", "2")
    assert {entry["id"] for entry in tomllib.loads(out)["allow"]} == {"pytest", "make"}


def test_commands_that_cannot_be_listed_are_named(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_log(project, "t", [action("$TOOL --check"), action("npm $script"), action("pytest")])
    code, out = suggest(project, capsys)
    assert code == 0
    assert "# Not covered" in out
    assert "#   $TOOL --check  (the program is only known at run time)" in out
    assert "#   npm $script  (its subcommand is only known at run time)" in out
    assert [e["id"] for e in tomllib.loads(out)["allow"]] == ["pytest"]


def test_damaged_log_lines_are_skipped(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_log(project, "t", ["{not json", "[1, 2]", json.dumps(action("pytest -x")), '{"event": "action"}'])
    code, out = suggest(project, capsys)
    assert code == 0 and [e["id"] for e in tomllib.loads(out)["allow"]] == ["pytest"]


def test_nothing_to_suggest_exits_1_and_says_why(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["policy", "suggest", "-C", str(project)]) == 1
    assert "no task logs" in capsys.readouterr().err
    write_log(project, "t", [action("curl x", status="rejected")])
    assert main(["policy", "suggest", "-C", str(project)]) == 1
    assert "1 task log(s)" in capsys.readouterr().err
    assert main(["policy", "suggest", "-C", str(project), "--tasks", "0"]) == 2


def test_run_command_reads_one_record() -> None:
    assert run_command(action("ls", backend="powershell")) == ("ls", "powershell")
    assert run_command(action("ls", status="failed")) == ("ls", "posix")
    assert run_command(action("ls", status="rejected")) is None
    assert run_command({"event": "action", "status": "ok", "action": {"tool": "run", "command": 3}}) is None
    assert run_command({"event": "action", "status": "ok", "action": {"tool": "run", "command": "ls"}}) == (
        "ls",
        "posix",
    )


def test_records_the_real_loop_writes_are_read(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = project.parent / "replies.jsonl"
    replay.write_text(
        json.dumps(plan({"tool": "run", "command": "git --version"}, {"tool": "run", "command": "ls -a"}))
        + "\n"
    )
    main(
        [
            "task",
            "look around",
            "-C",
            str(project),
            "--replay",
            str(replay),
            "--shell",
            "posix",
            "--task-id",
            "look",
        ]
    )
    capsys.readouterr()
    assert [(c.command, c.backend, c.task_id) for c in recent_run_commands(project)] == [
        ("git --version", "posix", "look"),
        ("ls -a", "posix", "look"),
    ]
    code, out = suggest(project, capsys)
    assert code == 0 and {e["id"] for e in tomllib.loads(out)["allow"]} == {"git-options", "ls"}


def test_toml_strings_survive_quotes_and_control_characters(tmp_path: Path) -> None:
    odd = "printf 'a\"b\\\\c\\t'"
    suggestion = suggest_allow_entries(Policy.default(), [(odd, "posix")])
    text = allow_entries_toml(suggestion.entries, ['header with "quotes"'])
    assert tomllib.loads(text)["allow"][0]["match"] == [odd]


def _blocked_run_task(project: Path, capsys: pytest.CaptureFixture[str], *commands: str) -> None:
    replay = project.parent / "blocked.jsonl"
    replay.write_text(
        json.dumps(plan(*({"tool": "run", "command": c} for c in commands)))
        + "\n"
        + json.dumps(plan())
        + "\n"
    )
    argv = ["task", "x", "-C", str(project), "--replay", str(replay), "--shell", "posix", "--sandbox", "none"]
    main([*argv, "-q"])
    capsys.readouterr()


def test_commands_the_allowlist_blocked_are_suggested_too(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """After a task stopped by the allowlist, that is when the entries are needed."""
    hazina = project / ".hazina"
    hazina.mkdir(exist_ok=True)
    (hazina / "policy.toml").write_text(
        'version = 1\n[policy]\nmode = "allowlist"\n[[allow]]\nid = "ls"\ncommands = ["ls"]\nmatch = ["ls"]\n'
    )
    _blocked_run_task(project, capsys, "ls", "git status")
    assert [(c.command, c.blocked_by) for c in recent_run_commands(project, blocked=True)] == [
        ("ls", None),
        ("git status", "allowlist.not-allowed"),
    ]
    code, out = suggest(project, capsys)
    assert code == 0
    assert "1 of them blocked by your allowlist" in out
    suggested = project.parent / "suggested.toml"
    suggested.write_text(out)
    mine = Policy.load([suggested])
    assert mine.mode == "allowlist"
    assert mine.check("git status", "posix").allowed and mine.check("ls", "posix").allowed


def test_with_only_denied_commands_the_message_says_what_it_found(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _blocked_run_task(project, capsys, "rm -rf /")
    assert main(["policy", "suggest", "-C", str(project)]) == 1
    err = capsys.readouterr().err
    assert "1 task log(s)" in err and "1 `run` command(s): 0 ran, 1 blocked by deny rules" in err
    assert "`rm -rf /` (destructive.recursive-delete)" in err and "no allow entry can allow them" in err


def test_denied_commands_are_listed_beside_the_suggestions(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    denied = action("rm -rf /", status="rejected")
    denied["details"]["policy"]["rule_id"] = "destructive.recursive-delete"
    write_log(project, "t", [action("pytest -q"), denied])
    code, out = suggest(project, capsys)
    assert code == 0 and [e["id"] for e in tomllib.loads(out)["allow"]] == ["pytest"]
    assert "#   rm -rf /  (destructive.recursive-delete)" in out
