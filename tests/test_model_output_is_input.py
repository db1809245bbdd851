"""Nothing a planner can put in a schema-valid action crashes or hangs the agent.

NUL bytes and lone surrogates are invalid output; file tools refuse FIFOs, sockets and devices without opening
them; writes into a nested repository's `.git/` are refused; git tools stay inside the working directory; and
a fuzz test throws random schema-valid actions at the real executor.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import plan
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from glmagent.agent import CodingAgent
from glmagent.cli import main
from glmagent.config import Settings
from glmagent.contract import Action, InvalidPlannerOutput, parse_action, parse_planner_output
from glmagent.loop import StopReason
from glmagent.planners.scripted import ScriptedPlanner

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file types and shell")


@pytest.mark.parametrize(
    "action",
    [
        '{"tool":"run","command":"echo a\\u0000b"}',
        '{"tool":"read_file","path":"a\\ud800b"}',
        '{"tool":"apply_diff","path":"x.py",'
        '"diff":"--- a/x.py\\n+++ b/x.py\\n@@ -1 +1 @@\\n-a\\n+\\udfff\\n"}',
    ],
)
def test_act_refuses_unusable_text_with_exit_2(
    action: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["act", action, "-C", str(tmp_path), "--sandbox", "none"])
    document = json.loads(capsys.readouterr().out)
    assert code == 2
    assert document["status"] == "rejected" and "not usable text" in document["error"]


def test_unusable_text_anywhere_in_a_reply_is_invalid_output() -> None:
    with pytest.raises(InvalidPlannerOutput, match=r"at thought: .*lone surrogate"):
        parse_planner_output('{"thought": "hm\\udc80", "plan": [], "actions": []}')
    with pytest.raises(InvalidPlannerOutput, match=r"at plan/0: .*NUL byte"):
        parse_planner_output('{"thought": "", "plan": ["a\\u0000"], "actions": []}')


def test_a_task_whose_planner_keeps_sending_surrogates_ends_cleanly(project: Path) -> None:
    bad = '{"thought": "\\ud800", "plan": [], "actions": [{"tool": "read_file", "path": "a\\ud800"}]}'
    agent = CodingAgent(planner=ScriptedPlanner([bad, bad]), settings=Settings(sandbox="none"))
    result = agent.run(CodingAgent.create_task("x", project, task_id="surrogates"))
    assert result.stop_reason is StopReason.INVALID_OUTPUT
    records = [json.loads(line) for line in result.audit_file.read_text(encoding="utf-8").splitlines()]
    assert records[-1]["event"] == "task_end"
    assert "Planner output invalid twice" in result.memory_file.read_text(encoding="utf-8")


@posix_only
@pytest.mark.parametrize("tool", ["read_file", "apply_diff"])
def test_file_tools_refuse_a_fifo_without_opening_it(project: Path, tmp_path: Path, tool: str) -> None:
    replay = tmp_path / "replies.jsonl"
    second = {"tool": tool, "path": "notes.txt"}
    if tool == "apply_diff":
        second["diff"] = "--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-a\n+b\n"
    replay.write_text(
        "\n".join(json.dumps(r) for r in (plan({"tool": "run", "command": "mkfifo notes.txt"}), plan(second)))
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "glmagent",
            "task",
            "x",
            "--replay",
            str(replay),
            "--sandbox",
            "none",
            "--json",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
    )
    result = json.loads(done.stdout)
    assert "named pipe (FIFO)" in result["summary"], done.stderr
    assert done.returncode in (0, 1, 2, 3)


@pytest.mark.parametrize(
    "path",
    ["vendor/lib/.git/hooks/pre-commit", "a/b/.HAZINA/agent-memory/x.jsonl", "sub/.Git/config"],
)
def test_apply_diff_refuses_protected_folders_at_any_depth(project: Path, path: str) -> None:
    diff = f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+echo HOOK-RAN\n"
    observation = CodingAgent(settings=Settings(sandbox="none")).act(
        Action(tool="apply_diff", path=path, diff=diff), project
    )
    assert observation.status == "rejected" and "never writes" in observation.output
    assert not (project / path).exists()


def test_git_tools_stay_inside_a_subfolder_working_directory(git_project: Path) -> None:
    (git_project / "sub").mkdir()
    (git_project / "sub" / "inside.py").write_text("x = 1\n", encoding="utf-8")
    (git_project / "secret.cfg").write_text("password = hunter2\n", encoding="utf-8")
    env_args = ["-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run(["git", "add", "-A"], cwd=git_project, check=True)
    subprocess.run(["git", *env_args, "commit", "-qm", "more"], cwd=git_project, check=True)
    (git_project / "secret.cfg").write_text("password = changed\n", encoding="utf-8")
    (git_project / "sub" / "inside.py").write_text("x = 2\n", encoding="utf-8")
    (git_project / "outside-new.txt").write_text("new\n", encoding="utf-8")
    agent = CodingAgent(settings=Settings(sandbox="none"))
    diff = agent.act(Action(tool="git_diff"), git_project / "sub")
    status = agent.act(Action(tool="git_status"), git_project / "sub")
    assert "inside.py" in diff.output and "x = 2" in diff.output
    assert "secret" not in diff.output and "changed" not in diff.output
    assert "inside.py" in status.output
    assert "secret.cfg" not in status.output and "outside-new" not in status.output


# --- fuzz: random schema-valid actions against the real executor -------------------------------------------

_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1, max_size=40
)
_CONTROL = st.text(alphabet=st.sampled_from("\x1b[2K\r\x07\x08\t\n\u202e\u200b"), min_size=1, max_size=8)
_PATHS = st.one_of(
    _TEXT,
    st.sampled_from(
        [
            "../x",
            "/etc/passwd",
            ".git/config",
            "a/.hazina/b",
            "~/x",
            "app.py",
            "new/dir/f.txt",
            ".",
            "//",
            "C:\\x",
        ]
    ),
    st.builds(lambda a, b: a + b, st.sampled_from(["app.py", "x/", "../"]), _CONTROL),
)
_COMMANDS = st.one_of(
    st.sampled_from(
        [
            "echo hi",
            "ls -la",
            "cat app.py",
            "rm -rf /",
            "curl http://x.invalid",
            "echo x >> ../o.txt",
            "cat /proc/self/environ",
            "true",
            "exit 3",
        ]
    ),
    st.builds(lambda a, b: f"echo {a}{b}", _CONTROL, _TEXT),
)
_DIFFS = st.one_of(
    _TEXT,
    st.builds(lambda p, t: f"--- a/{p}\n+++ b/{p}\n@@ -1 +1 @@\n-x\n+{t}\n", _TEXT, _TEXT),
    st.builds(lambda t: f"--- /dev/null\n+++ b/f.txt\n@@ -0,0 +1 @@\n+{t}\n", _TEXT),
)
_ACTIONS = st.one_of(
    st.builds(lambda p: {"tool": "read_file", "path": p}, _PATHS),
    st.builds(lambda p, d: {"tool": "apply_diff", "path": p, "diff": d}, _PATHS, _DIFFS),
    st.builds(lambda c: {"tool": "run", "command": c}, _COMMANDS),
    st.just({"tool": "git_status"}),
    st.builds(lambda p: {"tool": "git_diff", "path": p}, _PATHS),
)


@pytest.fixture(scope="module")
def fuzz_area(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("fuzz")
    project = base / "project"
    project.mkdir()
    (project / "app.py").write_text("x\n", encoding="utf-8")
    (base / "sentinel.txt").write_text("outside\n", encoding="utf-8")
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    return project


def _outside_state(project: Path) -> dict[str, object]:
    base = project.parent
    return {
        "siblings": sorted(p.name for p in base.iterdir()),
        "sentinel": (base / "sentinel.txt").read_text(encoding="utf-8"),
        "git": sorted(
            (str(p.relative_to(project)), p.stat().st_size)
            for p in (project / ".git").rglob("*")
            if p.is_file()
        )
        if (project / ".git").exists()
        else [],
    }


@posix_only
@settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(document=_ACTIONS)
def test_fuzzed_actions_never_crash_and_never_touch_anything_outside(fuzz_area: Path, document: dict) -> None:
    before = _outside_state(fuzz_area)
    try:
        action = parse_action(json.dumps(document))
    except InvalidPlannerOutput:
        return  # refused at validation: told to the model, nothing ran
    agent = CodingAgent(settings=Settings(sandbox="auto", command_timeout=10))
    observation = agent.act(action, fuzz_area)
    assert observation.status in ("ok", "failed", "rejected")
    assert observation.summary and "Traceback" not in observation.output
    assert _outside_state(fuzz_area) == before
    assert os.path.isdir(fuzz_area)


@posix_only
@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(document=_ACTIONS)
def test_fuzzed_actions_through_the_cli_end_with_a_documented_exit_code(
    fuzz_area: Path, document: dict
) -> None:
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    before = _outside_state(fuzz_area)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["act", json.dumps(document), "-C", str(fuzz_area), "--command-timeout", "10"])
    assert code in (0, 1, 2, 3), err.getvalue()
    assert "Traceback" not in out.getvalue() + err.getvalue()
    json.loads(out.getvalue())  # one JSON document, whatever happened
    assert _outside_state(fuzz_area) == before
