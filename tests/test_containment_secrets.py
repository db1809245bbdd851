"""Secrets unreachable, not just redacted (issue rows 4 and 5).

Row 4: `--api-key-env LLMKEY` (a name that looks like nothing) against a real server on 127.0.0.1; the model
writes a script printing the variable in several encodings and runs it. The variable must be gone from the
command's (and the test command's) environment, and its value absent from every later request, the audit
log, the memory file and the screen.

Row 5: inside the sandbox, the home's start-up and history files, `.env`-style files and every credential
store of the class are unreadable (a real probe script, real files, real bubblewrap), while the toolchain
settings a build needs stay visible; users can hide more with `sandbox_hide`.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import plan
from wire_server import MODEL, ScriptedServer, completion, make_project

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.contract import Action
from glmagent.tools.sandbox import bwrap_problem

needs_bwrap = pytest.mark.skipif(
    bwrap_problem() is not None, reason=f"no usable bubblewrap: {bwrap_problem()}"
)
SANDBOXES = ["none", pytest.param("bwrap", marks=needs_bwrap)]

KEY_NAME = "LLMKEY"
KEY_VALUE = "zk-9f8e7d6c5b4a39281706fedcba"

LEAK = (
    "import base64, codecs, os\n"
    f"v = os.environ.get('{KEY_NAME}', 'ABSENT')\n"
    "print('KEY=' + v)\n"
    "print(base64.b64encode(v.encode()).decode())\n"
    "print(base64.b64encode(('x' + v).encode()).decode())\n"
    "print(v[::-1])\n"
    "print(v.encode().hex())\n"
    "print(codecs.encode(v, 'rot13'))\n"
)


def leak_diff() -> str:
    return "--- /dev/null\n+++ b/k.py\n@@ -0,0 +1,8 @@\n" + "".join(
        f"+{line}\n" for line in LEAK.splitlines()
    )


def forms(value: str) -> list[str]:
    """The value and the encodings the script prints (what must appear nowhere)."""
    raw = value.encode()
    return [
        value,
        base64.b64encode(raw).decode().rstrip("="),
        value[::-1],
        raw.hex(),
    ]


def run_cli(
    server: ScriptedServer, project: Path, *args: str, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "glmagent",
            "task",
            "print the key",
            "-C",
            str(project),
            "--provider",
            "openai-compatible",
            "--base-url",
            server.base_url,
            "--model",
            MODEL,
            "--max-iterations",
            "3",
            *args,
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=180,
    )


def everything_written(project: Path) -> str:
    memory = project / ".hazina" / "agent-memory"
    return "".join(p.read_text(encoding="utf-8", errors="replace") for p in memory.iterdir() if p.is_file())


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("where", ["flag", "user config"])
def test_the_providers_key_variable_never_reaches_a_command_or_the_model(
    tmp_path: Path, sandbox: str, where: str
) -> None:
    project = make_project(tmp_path)
    first = plan(
        {"tool": "apply_diff", "path": "k.py", "diff": leak_diff()},
        {"tool": "run", "command": "python3 k.py"},
    )
    replies = [completion(json.dumps(first)), completion(json.dumps(plan())), completion(json.dumps(plan()))]
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update({KEY_NAME: KEY_VALUE, "GLMAGENT_RETRY_BACKOFF": "0.05"})
    args = ["--sandbox", sandbox, "--test", "python3 k.py; exit 1"]  # fails: the loop goes on
    if where == "flag":
        args += ["--api-key-env", KEY_NAME]
    else:
        config = Path(env["GLMAGENT_CONFIG_DIR"]) / "config.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(f'api_key_env = "{KEY_NAME}"\n', encoding="utf-8")
    with ScriptedServer(replies) as server:
        done = run_cli(server, project, *args, env=env)
    assert done.returncode in (0, 1), done.stderr
    assert len(server.seen) >= 2
    assert server.seen[0].headers["authorization"] == f"Bearer {KEY_VALUE}"  # the key does its job
    later = json.dumps([seen.body for seen in server.seen[1:]])
    assert "KEY=ABSENT" in later, later[:2000]  # removed from the environment, not merely hidden
    written = everything_written(project)
    for form in forms(KEY_VALUE):
        assert form not in later, form
        assert form not in written, form
        assert form not in done.stdout + done.stderr, form


def test_glmagents_own_git_and_commands_never_see_a_declared_key(monkeypatch: pytest.MonkeyPatch) -> None:
    from glmagent.secrets import Redactor, declare_secret_variable
    from glmagent.tools.git import git_environment
    from glmagent.tools.shell import child_environment

    monkeypatch.setenv("OTHERKEYNAME", "value-of-the-other-key-123")
    declare_secret_variable("OTHERKEYNAME")
    assert "OTHERKEYNAME" not in child_environment()
    assert "OTHERKEYNAME" not in git_environment([])
    assert Redactor()("it is value-of-the-other-key-123") == "it is [REDACTED]"


# -- row 5: the home inside the sandbox ---------------------------------------------------------------------

#: Every path the issue names, and the class around them: (home-relative path, is it a folder's file).
SECRET_FILES = [
    ".bashrc",
    ".bash_profile",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".bash_history",
    ".zsh_history",
    ".python_history",
    ".env",
    ".env.local",
    ".envrc",
    ".netrc",
    ".pgpass",
    ".my.cnf",
    ".s3cfg",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    ".claude.json",
    ".vault-token",
    ".Xauthority",
    ".some_new_tool_token",  # unknown to any list: hidden as a dotfile at home
    ".config/git/credentials",
    ".config/containers/auth.json",
    ".config/rclone/rclone.conf",
    ".config/gh/hosts.yml",
    ".config/gcloud/credentials.db",
    ".config/fish/config.fish",
    ".config/pip/pip.conf",
    ".config/github-copilot/hosts.json",
    ".local/share/fish/fish_history",
    ".m2/settings.xml",
    ".gem/credentials",
    ".cargo/credentials.toml",
    ".gradle/gradle.properties",
    ".docker/config.json",
    ".kube/config",
    ".aws/credentials",
    ".azure/accessTokens.json",
    ".ssh/id_ed25519",
    ".gnupg/private-keys-v1.d/key",
    ".codex/auth.json",
    ".claude/.credentials.json",
    ".gemini/oauth_creds.json",
    ".terraform.d/credentials.tfrc.json",
    ".password-store/bank.gpg",
    ".mozilla/firefox/profile/logins.json",
]
#: Toolchain settings a build needs: stay readable.
VISIBLE_FILES = [".gitconfig", ".cargo/config.toml", ".npm/_cacache/index", ".local/bin/tool", ".condarc"]

PROBE = r"""
import json, os, sys
home = os.environ["HOME"]
seen = {}
for relative in json.loads(sys.argv[1]):
    try:
        with open(os.path.join(home, relative), "rb") as handle:
            seen[relative] = handle.read().decode(errors="replace")
    except OSError as error:
        seen[relative] = f"unreadable: {type(error).__name__}"
print(json.dumps(seen))
"""


@pytest.fixture
def secret_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    for relative in [*SECRET_FILES, *VISIBLE_FILES, "custom/vault.txt"]:
        path = home / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"export ZAI_API_KEY=SECRET-{relative}\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    return home


def probe(project: Path, paths: list[str], **settings: object) -> dict[str, str]:
    (project / "probe.py").write_text(PROBE, encoding="utf-8")
    agent = CodingAgent(settings=Settings(sandbox="bwrap", **settings))  # type: ignore[arg-type]
    observation = agent.act(Action(tool="run", command=f"python3 probe.py '{json.dumps(paths)}'"), project)
    assert observation.status == "ok", observation.output
    return json.loads(observation.output.split("--- stdout ---\n", 1)[1].splitlines()[0])


@needs_bwrap
def test_the_homes_secrets_are_unreadable_in_the_sandbox(secret_home: Path, project: Path) -> None:
    seen = probe(project, SECRET_FILES)
    readable = {path: text for path, text in seen.items() if "SECRET-" in text}
    assert readable == {}


@needs_bwrap
def test_toolchain_files_at_home_stay_readable(secret_home: Path, project: Path) -> None:
    seen = probe(project, VISIBLE_FILES)
    assert all("SECRET-" in text for text in seen.values()), seen


@needs_bwrap
def test_users_add_their_own_hidden_paths(secret_home: Path, project: Path) -> None:
    assert "SECRET-" in probe(project, ["custom/vault.txt"])["custom/vault.txt"]
    seen = probe(project, ["custom/vault.txt"], sandbox_hide=["~/custom"])
    assert "SECRET-" not in seen["custom/vault.txt"]


@needs_bwrap
def test_the_bashrc_repro_reaches_the_model_in_no_encoding(secret_home: Path, project: Path) -> None:
    """`cat`/`base64` of ~/.bashrc pass the policy; inside the sandbox there is nothing to encode."""
    agent = CodingAgent(settings=Settings(sandbox="bwrap"))
    for command in ("cat ~/.bashrc", "base64 ~/.bashrc", "od -c ~/.zsh_history", "rev ~/.env"):
        observation = agent.act(Action(tool="run", command=command), project)
        assert "SECRET" not in observation.output and "U0VDUkVU" not in observation.output, command


def test_an_untrusted_project_config_cannot_name_the_key_variable(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mutation gap: `api_key_env` from an untrusted project file is ignored, with a warning naming it."""
    from glmagent.config import resolve_settings

    (project / ".hazina").mkdir()
    (project / ".hazina" / "config.toml").write_text('api_key_env = "ZAI_API_KEY"\nmodel = "m"\n')
    warnings: list[str] = []
    settings = resolve_settings(project, warn=warnings.append)
    assert settings.api_key_env is None and settings.model == "m"
    assert len(warnings) == 1 and "api_key_env" in warnings[0] and "glmagent trust" in warnings[0]


def test_a_project_file_can_hide_more_but_never_unhide_what_the_user_hid(project: Path) -> None:
    from glmagent.config import resolve_settings, user_config_path

    user = user_config_path()
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text('sandbox_hide = ["~/vault"]\n', encoding="utf-8")
    (project / ".hazina").mkdir()
    (project / ".hazina" / "config.toml").write_text("sandbox_hide = []\n", encoding="utf-8")
    assert resolve_settings(project).sandbox_hide == ["~/vault"]
    (project / ".hazina" / "config.toml").write_text('sandbox_hide = ["~/more"]\n', encoding="utf-8")
    assert resolve_settings(project).sandbox_hide == ["~/vault", "~/more"]
