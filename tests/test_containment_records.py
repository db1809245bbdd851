"""glmagent's own files never follow links out of the project (issue row 3), and memory lines are data.

A cloned repository can commit `.hazina -> /elsewhere`, `.hazina/agent-memory -> /elsewhere` or file links
for the memory file, the audit log, the lock, `act.jsonl` and `.gitignore`. Each must stop the run with one
clear error naming the link (exit 2) before anything is written anywhere — there, in the project, or by
the action `glmagent act` was asked to run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import plan

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.errors import RecordPathError
from glmagent.memory import AgentSummaryStore, format_iteration
from glmagent.planners.scripted import ScriptedPlanner

TASK = "t1"


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` (links not followed) with its bytes."""
    found: dict[str, bytes] = {}
    for current, _, files in os.walk(folder):
        for name in files:
            path = Path(current) / name
            found[str(path.relative_to(folder))] = b"<link>" if path.is_symlink() else path.read_bytes()
    return found


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return subprocess.run(
        [sys.executable, "-m", "glmagent", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**env, "GLMAGENT_CONFIG_DIR": os.environ["GLMAGENT_CONFIG_DIR"]},
        check=False,
        timeout=120,
    )


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A folder outside the project with a file that must stay as it is."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "victim.txt").write_text("# the user's file\n", encoding="utf-8")
    return folder


def link(project: Path, relative: str, target: Path) -> None:
    path = project / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target, target_is_directory=target.is_dir())


LINKS = {
    ".hazina": lambda e: e,
    ".hazina/agent-memory": lambda e: e,
    f".hazina/agent-memory/{TASK}.txt": lambda e: e / "victim.txt",
    f".hazina/agent-memory/{TASK}.jsonl": lambda e: e / "victim.txt",
    f".hazina/agent-memory/{TASK}.lock": lambda e: e / "victim.txt",
    ".hazina/agent-memory/.gitignore": lambda e: e / "victim.txt",
    f".hazina/agent-memory/{TASK}.txt ": lambda e: e / "missing.txt",  # a dangling link: would be created
}


@pytest.mark.parametrize(
    "relative",
    list(LINKS),
    ids=lambda r: r.strip().replace("/", "|") + ("(dangling)" if r.endswith(" ") else ""),
)
def test_a_task_refuses_every_linked_record_path(
    project: Path, elsewhere: Path, tmp_path: Path, relative: str
) -> None:
    link(project, relative.strip(), LINKS[relative](elsewhere))
    before_elsewhere, before_project = tree(elsewhere), tree(project)
    replay = tmp_path / "replay.jsonl"
    create = {
        "tool": "apply_diff",
        "path": "new.py",
        "diff": "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x = 1\n",
    }
    replay.write_text(json.dumps(plan(create)) + "\n" + json.dumps(plan()) + "\n", encoding="utf-8")
    done = cli("task", "go", "--replay", str(replay), "--task-id", TASK, "-C", str(project), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "link" in done.stderr and str(project / relative.strip()) in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert tree(elsewhere) == before_elsewhere
    assert tree(project) == before_project  # not even the model's file: nothing ran
    assert not (elsewhere / "missing.txt").exists()


@pytest.mark.parametrize("relative", [".hazina", ".hazina/agent-memory", ".hazina/agent-memory/act.jsonl"])
def test_act_refuses_a_linked_record_path_before_the_action_runs(
    project: Path, elsewhere: Path, tmp_path: Path, relative: str
) -> None:
    target = elsewhere / "victim.txt" if relative.endswith(".jsonl") else elsewhere
    link(project, relative, target)
    before = tree(elsewhere)
    action = {
        "tool": "apply_diff",
        "path": "new.py",
        "diff": "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x = 1\n",
    }
    done = cli("act", json.dumps(action), "-C", str(project), cwd=tmp_path)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert str(project / relative) in done.stderr.replace("\n", "") and "link" in done.stderr
    assert not (project / "new.py").exists()
    assert tree(elsewhere) == before


def test_a_memory_file_linked_to_the_shell_start_up_file_is_never_written(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's chain: `<id>.txt -> ~/.bashrc` plus a model-chosen file name that reads as commands."""
    home = tmp_path / "home"
    home.mkdir()
    bashrc = home / ".bashrc"
    bashrc.write_text("# start-up\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    link(project, f".hazina/agent-memory/{TASK}.txt", bashrc)
    name = "a;touch PWNED;#.py"
    planner = ScriptedPlanner(
        [
            plan(
                {
                    "tool": "apply_diff",
                    "path": name,
                    "diff": f"--- /dev/null\n+++ b/{name}\n@@ -0,0 +1 @@\n+x\n",
                }
            )
        ]
    )
    agent = CodingAgent(planner=planner, settings=Settings(sandbox="none"))
    with pytest.raises(RecordPathError, match=r"\.bashrc"):
        agent.run(CodingAgent.create_task("go", project, task_id=TASK))
    assert bashrc.read_text(encoding="utf-8") == "# start-up\n"
    assert not (project / name).exists()


def test_a_linked_anchor_file_is_refused_before_the_run(project: Path, elsewhere: Path) -> None:
    """The anchor file in the user's state folder: a link there stops the run before anything is written."""
    from glmagent.audit import default_anchor_file

    anchor = default_anchor_file()
    anchor.parent.mkdir(parents=True, exist_ok=True)
    anchor.symlink_to(elsewhere / "victim.txt")
    store = AgentSummaryStore(project, TASK)
    with pytest.raises(RecordPathError, match="audit-anchors"):
        store.start_run(description="x")
    assert not (project / ".hazina").exists()
    assert (elsewhere / "victim.txt").read_text(encoding="utf-8") == "# the user's file\n"


def test_a_hard_linked_record_file_is_refused(project: Path, elsewhere: Path) -> None:
    memory = project / ".hazina" / "agent-memory"
    memory.mkdir(parents=True)
    os.link(elsewhere / "victim.txt", memory / f"{TASK}.jsonl")
    store = AgentSummaryStore(project, TASK)
    with pytest.raises(RecordPathError, match="hard links"):
        store.start_run(description="x")
    assert (elsewhere / "victim.txt").read_text(encoding="utf-8") == "# the user's file\n"


def test_a_fifo_planted_as_a_record_file_fails_at_once(project: Path) -> None:
    memory = project / ".hazina" / "agent-memory"
    memory.mkdir(parents=True)
    os.mkfifo(memory / f"{TASK}.lock")
    with pytest.raises(RecordPathError, match="not a regular file"):
        AgentSummaryStore(project, TASK, lock_wait=0).start_run(description="x")


def test_a_link_made_during_a_run_is_refused_at_the_next_write(project: Path, elsewhere: Path) -> None:
    """Each write walks the path again: a link swapped in mid-run (a script without the sandbox) is caught."""
    store = AgentSummaryStore(project, TASK)
    store.start_run(description="x")
    summary = project / ".hazina" / "agent-memory" / f"{TASK}.txt"
    summary.unlink()
    summary.symlink_to(elsewhere / "victim.txt")
    with pytest.raises(RecordPathError):
        store.append_iteration(1, ["Modified app.py"])
    store.close()
    assert (elsewhere / "victim.txt").read_text(encoding="utf-8") == "# the user's file\n"


def test_a_project_reached_through_a_link_still_works(tmp_path: Path) -> None:
    """Links above the project (the user's own choice of path) are followed as before."""
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "via").symlink_to(real, target_is_directory=True)
    agent = CodingAgent(planner=ScriptedPlanner([plan({"tool": "git_status"}), plan()]))
    result = agent.run(CodingAgent.create_task("go", tmp_path / "via", task_id=TASK))
    assert (real / ".hazina" / "agent-memory" / f"{TASK}.jsonl").is_file()
    assert result.iterations >= 1


# -- memory lines are data ----------------------------------------------------------------------------------

UNSAFE = "x\ntouch PWNED\ny\r\x1b]52;c;cHduZWQ=\x07\x9b2J\u202e\u2028z\x85w\x00"


def test_names_and_thoughts_never_start_a_line_of_their_own(project: Path, tmp_path: Path) -> None:
    name = "n\ntouch PWNED\n.py"
    planner = ScriptedPlanner(
        [
            plan(
                {
                    "tool": "apply_diff",
                    "path": name,
                    "diff": f"--- /dev/null\n+++ b/{name}\n@@ -0,0 +1 @@\n+x\n",
                }
            ),
            plan(thought=UNSAFE),
        ]
    )
    agent = CodingAgent(planner=planner, settings=Settings(sandbox="none"))
    result = agent.run(CodingAgent.create_task(f"task {UNSAFE}", project, task_id=TASK, test_command=None))
    text = result.memory_file.read_text(encoding="utf-8")
    for line in text.splitlines():
        assert line == "" or line.startswith(("# ", "Iteration ", "- ")), repr(line)
        assert line.isprintable(), repr(line)
    assert "touch PWNED" in text  # the text is kept, as data
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    subprocess.run(["sh", str(result.memory_file)], cwd=scratch, capture_output=True, check=False, timeout=30)
    assert not (scratch / "PWNED").exists()


def test_format_iteration_escapes_every_control_character() -> None:
    block = format_iteration(1, [UNSAFE])
    body = block.splitlines()
    assert len(body) == 2 and body[0] == "Iteration 1:"
    assert body[1].isprintable() and "\\x1b" in body[1] and "\\u202e" in body[1] and "\\x00" in body[1]
