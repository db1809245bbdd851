"""glmagent's own git runs no program a repository names (issue rows 1 and 2).

Every driver kind git knows is planted as a script that leaves a witness file in a folder outside the
project; a real `glmagent task` (and each git-using part alone) then runs, and the witness folder must stay
empty. A control shows the same plants do fire under plain git, so the tests can fail. Row 2: the model
builds a repository out of ordinary files (`HEAD`, `objects/`, `refs/`, a root `config`) in a project
that has none; glmagent's git must never discover it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import plan

from glmagent.agent import CodingAgent, start_state
from glmagent.config import Settings
from glmagent.planners.scripted import ScriptedPlanner
from glmagent.project_map import project_map
from glmagent.tools import git as glmagent_git
from glmagent.tools.sandbox import bwrap_problem

SANDBOXES = [
    "none",
    pytest.param("bwrap", marks=pytest.mark.skipif(bwrap_problem() is not None, reason=f"{bwrap_problem()}")),
]
COMMIT = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"]

#: Every kind of program a repository's config can name, as `key = script name`.
DRIVER_KEYS = {
    "filter.evil.clean": "filter-clean",
    "filter.evil.smudge": "filter-smudge",
    "filter.proc.process": "filter-process",
    "filter.inc.clean": None,  # defined through include.path below
    "diff.evil.textconv": "diff-textconv",
    "diff.evil.command": "diff-command",
    "diff.external": "diff-external",
    "merge.evil.driver": "merge-driver",
    "core.fsmonitor": "fsmonitor",
    "core.pager": "core-pager",
    "pager.status": "pager-status",
    "pager.diff": "pager-diff",
    "core.sshCommand": "ssh-command",
    "core.askPass": "askpass",
    "core.editor": "editor",
    "core.gitProxy": "git-proxy",
    "core.alternateRefsCommand": "alternate-refs",
    "credential.helper": "credential-helper",
    "gpg.program": "gpg-program",
    "sequence.editor": "sequence-editor",
    "remote.origin.vcs": "remote-vcs",
    "uploadpack.packObjectsHook": "pack-objects-hook",
    "hook.evil.command": "config-hook",
}
HOOKS = (
    "post-index-change",
    "pre-commit",
    "post-checkout",
    "reference-transaction",
    "pre-auto-gc",
    "fsmonitor-watchman",
    "post-rewrite",
)


def script(bin_dir: Path, witness: Path, name: str) -> str:
    """A program that records that it ran, then behaves like a harmless filter (copies stdin)."""
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\ntouch '{witness / name}'\ncat\n", encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False, env=env)


@pytest.fixture
def witness(tmp_path: Path) -> Path:
    folder = tmp_path / "witness"
    folder.mkdir()
    return folder


def plant(repo: Path, witness: Path) -> Path:
    """Plant every driver kind, hooks (both places) and config includes in `repo`; returns the bin dir."""
    bin_dir = repo.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    for key, name in DRIVER_KEYS.items():
        if name:
            git(repo, "config", key, script(bin_dir, witness, name))
    git(repo, "config", "filter.evil.required", "true")
    hooks = repo.parent / "hooks"
    hooks.mkdir(exist_ok=True)
    for hook in HOOKS:
        script(hooks, witness, f"hook-{hook}")
        default = repo / ".git" / "hooks" / hook
        default.write_text(f"#!/bin/sh\ntouch '{witness / ('default-hook-' + hook)}'\n", encoding="utf-8")
        default.chmod(0o755)
    git(repo, "config", "core.hooksPath", str(hooks))
    included = repo.parent / "included.cfg"
    included.write_text(
        f'[filter "inc"]\n\tclean = {script(bin_dir, witness, "included-filter")}\n'
        f'[diff "inc"]\n\ttextconv = {script(bin_dir, witness, "included-textconv")}\n',
        encoding="utf-8",
    )
    git(repo, "config", "include.path", str(included))
    conditional = repo.parent / "conditional.cfg"
    conditional.write_text(
        f'[diff "cond"]\n\ttextconv = {script(bin_dir, witness, "includeif-textconv")}\n'
        f'[filter "cond"]\n\tclean = {script(bin_dir, witness, "includeif-filter")}\n',
        encoding="utf-8",
    )
    git(repo, "config", f"includeIf.gitdir:{repo}/.git.path", str(conditional))
    (repo / ".gitattributes").write_text(
        "a.txt filter=evil diff=evil merge=evil\nb.txt filter=inc diff=inc\nc.txt filter=cond diff=cond\n"
        "*.bin filter=proc\n",
        encoding="utf-8",
    )
    return bin_dir


@pytest.fixture
def planted(git_project: Path, witness: Path) -> Path:
    """A committed repository with every driver planted and its tracked files touched since."""
    for name in ("a.txt", "b.txt", "c.txt", "d.bin"):
        (git_project / name).write_text(f"{name}\n", encoding="utf-8")
    clean_env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1"}
    git(git_project, "add", "-A", env=clean_env)
    git(git_project, *COMMIT, "commit", "-qm", "files", env=clean_env)
    plant(git_project, witness)
    for name in ("a.txt", "b.txt", "c.txt", "d.bin"):
        (git_project / name).write_text(f"{name} changed\n", encoding="utf-8")
    return git_project


def ran(witness: Path) -> list[str]:
    return sorted(p.name for p in witness.iterdir())


def test_the_plants_fire_under_plain_git(planted: Path, witness: Path) -> None:
    """The control: plain git runs the planted programs, so an empty witness folder means something."""
    git(planted, "status", "--short")
    git(planted, "diff", "HEAD")
    fired = ran(witness)
    for expected in ("filter-clean", "included-filter", "includeif-filter", "fsmonitor", "diff-external"):
        assert expected in fired, fired


def test_a_hook_fires_on_plain_git_status_but_not_on_glmagents(tmp_path: Path, witness: Path) -> None:
    """`post-index-change` runs on a plain `git status` that refreshes the index; glmagent's writes none."""
    repo = tmp_path / "hooked"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "f.txt").write_text("f\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, *COMMIT, "commit", "-qm", "f")
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    script(hooks, witness, "post-index-change")
    git(repo, "config", "core.hooksPath", str(hooks))
    os.utime(repo / "f.txt", (1, 1))
    glmagent_git.GitRunner(repo).status()
    assert ran(witness) == []
    git(repo, "status")
    assert ran(witness) == ["post-index-change"]


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_task_in_a_hostile_clone_runs_none_of_its_programs(
    planted: Path, witness: Path, sandbox: str
) -> None:
    """Row 1: start of task (project map, start state), git_status, an edit, git_diff of all and of a file."""
    planner = ScriptedPlanner(
        [
            plan({"tool": "git_status"}, {"tool": "git_diff"}, {"tool": "git_diff", "path": "a.txt"}),
            plan(
                {
                    "tool": "apply_diff",
                    "path": "b.txt",
                    "diff": "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b.txt changed\n+b.txt edited\n",
                },
                {"tool": "git_diff"},
                {"tool": "git_status"},
            ),
            plan(),
        ]
    )
    agent = CodingAgent(planner=planner, settings=Settings(sandbox=sandbox))  # type: ignore[arg-type]
    result = agent.run(CodingAgent.create_task("look around", planted, max_iterations=3))
    assert ran(witness) == []
    records = [json.loads(line) for line in result.audit_file.read_text(encoding="utf-8").splitlines()]
    outputs = [r["output_tail"] for r in records if r["event"] == "action" and "output_tail" in r]
    diffs = [r for r in records if r["event"] == "action" and r["action"]["tool"] == "git_diff"]
    assert all(r["status"] == "ok" for r in diffs), diffs
    assert any("+a.txt changed" in text for text in outputs), outputs  # git still works, uncontaminated
    assert any("## " in text and "M a.txt" in text for text in outputs), outputs
    start = next(r for r in records if r["event"] == "task_start")
    assert start["start_state"]["git_head"]


def test_the_cli_task_runs_none_of_the_clones_programs(planted: Path, witness: Path, tmp_path: Path) -> None:
    """Row 1 as the issue ran it: `glmagent task` with a replay file, and `glmagent act` for git_diff."""
    replay = tmp_path / "replay.jsonl"
    replay.write_text(json.dumps(plan({"tool": "git_status"})) + "\n" + json.dumps(plan()) + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    done = subprocess.run(
        [sys.executable, "-m", "glmagent", "task", "look", "--replay", str(replay), "-C", str(planted)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr
    act = subprocess.run(
        [sys.executable, "-m", "glmagent", "act", '{"tool": "git_diff"}', "-C", str(planted)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert act.returncode == 0, act.stderr
    assert ran(witness) == []


def test_each_part_of_glmagent_that_runs_git_is_contained(planted: Path, witness: Path) -> None:
    runner = glmagent_git.GitRunner(planted)
    assert runner.status().exit_code == 0
    assert runner.diff().exit_code == 0 and runner.diff("c.txt").exit_code == 0
    assert "a.txt" in project_map(planted, git=runner)
    assert start_state(planted, runner)["git_clean"] is False
    assert ran(witness) == []


def test_the_users_git_environment_cannot_steer_glmagents_git(
    planted: Path, witness: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GIT_* variables in the user's environment (a config injection, another repository) are dropped."""
    bin_dir = tmp_path / "bin"
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'core.fsmonitor'='{script(bin_dir, witness, 'env-fsmon')}'")
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", script(bin_dir, witness, "env-external-diff"))
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere"))
    runner = glmagent_git.GitRunner(planted)
    assert runner.repository is not None and runner.repository.work_tree == planted
    assert runner.diff().exit_code == 0
    assert ran(witness) == []


def test_every_program_naming_key_is_switched_off() -> None:
    keys = [
        *DRIVER_KEYS,
        "filter.evil.required",
        "diff.x.cachetextconv",
        "alias.st",
        "credential.https://h.helper",
    ]
    overrides = dict(glmagent_git.neutral_overrides(keys))
    for key in DRIVER_KEYS:
        assert key in overrides, key
    assert overrides["filter.evil.required"] == "false" and overrides["core.fsmonitor"] == "false"
    assert overrides["pager.status"] == "false" and overrides["credential.https://h.helper"] == ""
    assert "diff.x.cachetextconv" not in overrides  # a switch, not a program
    assert (
        glmagent_git.neutral_overrides(["user.name", "core.bare", "submodule.x.path", "include.path"]) == []
    )


# -- row 2: the model builds a repository out of ordinary files ---------------------------------------------

#: The model's repository plants a driver of each kind that fires on status or diff, all at one witness.
MODEL_CONFIG = (
    '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n[filter "x"]\n\tclean = {clean}\n'
    '\tsmudge = {clean}\n\tprocess = {clean}\n[diff "x"]\n\ttextconv = {clean}\n\tcommand = {clean}\n'
    "[diff]\n\texternal = {clean}\n[core]\n\tfsmonitor = {clean}\n\thooksPath = hooks\n\tpager = {clean}\n"
)


def model_repository_actions(clean: str) -> list[dict[str, str]]:
    def create(path: str, text: str) -> dict[str, str]:
        lines = text.splitlines()
        body = "".join(f"+{line}\n" for line in lines)
        return {
            "tool": "apply_diff",
            "path": path,
            "diff": f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n{body}",
        }

    return [
        create("HEAD", "ref: refs/heads/keep"),
        create("objects/info/keep", "keep"),
        create("refs/heads/keep", "keep"),
        create("config", MODEL_CONFIG.format(clean=clean)),
        create(".gitattributes", "a.txt filter=x diff=x"),
        create("hooks/post-index-change", f"#!/bin/sh\n{clean}"),
        create("a.txt", "one"),
    ]


def edit_a() -> dict[str, str]:
    return {
        "tool": "apply_diff",
        "path": "a.txt",
        "diff": "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n",
    }


@pytest.mark.skipif(bwrap_problem() is not None, reason=f"{bwrap_problem()}")
@pytest.mark.parametrize("layout", ["plain folder", "subfolder of a repository"])
def test_a_repository_the_model_builds_is_never_used_by_glmagents_git(
    tmp_path: Path, witness: Path, layout: str
) -> None:
    """Row 2 as reproduced: files, one allowed `git add`, then git_diff; inside bubblewrap."""
    if layout == "plain folder":
        project = tmp_path / "plain"
        project.mkdir()
    else:
        outer = tmp_path / "outer"
        outer.mkdir()
        git(outer, "init", "-q")
        (outer / "README").write_text("outer\n", encoding="utf-8")
        git(outer, "add", "-A")
        git(outer, *COMMIT, "commit", "-qm", "outer")
        project = outer / "sub"
        project.mkdir()
    clean = script(tmp_path, witness, "model-filter")
    planner = ScriptedPlanner(
        [
            plan(*model_repository_actions(clean)),
            plan(
                {"tool": "run", "command": "git add a.txt"},
                edit_a(),
                {"tool": "git_diff"},
                {"tool": "git_status"},
            ),
            plan(),
        ]
    )
    agent = CodingAgent(planner=planner, settings=Settings(sandbox="bwrap"))
    agent.run(CodingAgent.create_task("build it", project, max_iterations=3))
    assert ran(witness) == []


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_repository_written_after_the_start_is_not_discovered(
    tmp_path: Path, witness: Path, sandbox: str
) -> None:
    """Row 2 without the sandbox's help: an index made by a project script (with the filter bypassed), then
    a changed file that git would hash through the model's filter."""
    project = tmp_path / "plain"
    project.mkdir()
    clean = script(tmp_path, witness, "model-filter")
    maker = (
        "import subprocess\n"
        "off = ['filter.x.clean=cat', 'filter.x.process=', 'core.fsmonitor=false',"
        " 'core.hooksPath=/dev/null', 'safe.bareRepository=all']\n"
        "subprocess.run(['git', *[a for o in off for a in ('-c', o)], 'add', 'a.txt'], check=True)\n"
    )
    make_index = {
        "tool": "apply_diff",
        "path": "mk.py",
        "diff": "--- /dev/null\n+++ b/mk.py\n@@ -0,0 +1,3 @@\n"
        + "".join(f"+{line}\n" for line in maker.splitlines()),
    }
    planner = ScriptedPlanner(
        [
            plan(*model_repository_actions(clean), make_index),
            plan({"tool": "run", "command": "python3 mk.py"}),
            plan(edit_a(), {"tool": "git_diff"}, {"tool": "git_status"}),
            plan(),
        ]
    )
    agent = CodingAgent(planner=planner, settings=Settings(sandbox=sandbox))  # type: ignore[arg-type]
    result = agent.run(CodingAgent.create_task("build it", project, max_iterations=4))
    assert ran(witness) == []
    records = [json.loads(line) for line in result.audit_file.read_text(encoding="utf-8").splitlines()]
    diff = next(r for r in records if r["event"] == "action" and r["action"]["tool"] == "git_diff")
    assert diff["status"] == "failed" and "not a git repository" in diff["summary"]


def test_an_implicit_bare_repository_present_at_the_start_is_refused(tmp_path: Path, witness: Path) -> None:
    """A cloned tarball whose root is itself a bare repository: git is not pointed at it even at the start."""
    project = tmp_path / "tarball"
    project.mkdir()
    (project / "objects" / "info").mkdir(parents=True)
    (project / "refs" / "heads").mkdir(parents=True)
    (project / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (project / "config").write_text(
        MODEL_CONFIG.format(clean=script(tmp_path, witness, "f")), encoding="utf-8"
    )
    assert glmagent_git.GitRunner(project).repository is None
