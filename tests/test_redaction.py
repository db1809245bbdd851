"""Secret values never reach the model, the screen, the memory file or the audit log: each observation is
scrubbed at the executor boundary (and the test output in the loop), short values and common encodings too."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import plan

from glmagent.agent import CodingAgent
from glmagent.config import Settings
from glmagent.contract import Action
from glmagent.planners.base import ChatMessage, PlannerReply
from glmagent.secrets import Redactor, secret_values

LONG_KEY = "zai-0123456789abcdefXYZ"


def test_a_short_token_in_command_output_is_redacted_and_counted(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_x")
    (project / "leak.txt").write_text("token=ghp_x and again ghp_x\n", encoding="utf-8")
    observation = CodingAgent(settings=Settings(sandbox="none")).act(
        Action(tool="run", command="cat leak.txt"), project
    )
    assert "ghp_x" not in observation.output
    assert observation.output.count("[REDACTED]") == 2 and observation.details["redactions"] == 2


@pytest.mark.parametrize(
    "shown",
    [
        LONG_KEY,
        base64.b64encode(LONG_KEY.encode()).decode(),
        "zai%2F0123456789%2BabcdefXYZ",
    ],
)
def test_encoded_forms_of_a_key_are_redacted(shown: str) -> None:
    redactor = Redactor({"ZAI_API_KEY": LONG_KEY, "OTHER_TOKEN": "zai/0123456789+abcdefXYZ"})
    text, count = redactor.redact(f"Authorization: Basic {shown}")
    assert count >= 1 and "0123456789" not in text


def test_proxy_passwords_are_secrets_too() -> None:
    values = secret_values({"HTTPS_PROXY": "http://alice:s3cr%21t@proxy:3128", "PATH": "/usr/bin"})
    assert "s3cr!t" in values and "s3cr%21t" in values and "/usr/bin" not in values


def test_harmless_and_tiny_values_are_left_alone() -> None:
    redactor = Redactor({"AUTH_ENABLED": "true", "DB_PASS": "ab", "GITHUB_TOKEN": "ghp_x"})
    assert redactor("auth true, ab, ghp_x") == "auth true, ab, [REDACTED]"


class RecordingPlanner:
    """A planner that remembers every message it was sent."""

    name = "recording"

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.replies = [json.dumps(r) for r in replies]
        self.seen: list[str] = []

    def plan(self, messages: list[ChatMessage]) -> PlannerReply:
        self.seen += [m.content for m in messages]
        return PlannerReply(text=self.replies.pop(0) if self.replies else json.dumps(plan()))


def test_the_model_the_memory_and_the_audit_never_see_a_key_from_project_files(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZAI_API_KEY", LONG_KEY)
    (project / ".env").write_text(f"ZAI_API_KEY={LONG_KEY}\n", encoding="utf-8")
    (project / "test_env.py").write_text(
        f"def test_x():\n    assert open('.env').read() == 'nope {LONG_KEY}'\n", encoding="utf-8"
    )
    planner = RecordingPlanner(
        [plan({"tool": "read_file", "path": ".env"}, {"tool": "run", "command": "cat .env"})]
    )
    agent = CodingAgent(planner=planner, settings=Settings(sandbox="none"))
    task = CodingAgent.create_task(
        "x", project, max_iterations=2, test_command=f"{sys.executable} -m pytest -q -p no:cacheprovider"
    )
    result = agent.run(task)
    assert planner.seen and not any(LONG_KEY in text for text in planner.seen)
    assert any("[REDACTED]" in text for text in planner.seen)
    for stored in (result.memory_file, result.audit_file):
        assert LONG_KEY not in stored.read_text(encoding="utf-8")


CHECKOUT_TOKEN = "ghs_" + "A1b2C3d4E5f6G7h8I9j0" * 2  # the shape of a CI checkout's token
CHECKOUT_HEADER = base64.b64encode(f"x-access-token:{CHECKOUT_TOKEN}".encode()).decode()


@pytest.mark.parametrize(
    "command", ["cat .git/config", "git config --list --local", "git remote -v", "grep -rn ghs_ .git/config"]
)
def test_a_checkouts_token_in_git_config_never_reaches_the_model(git_project: Path, command: str) -> None:
    # actions/checkout keeps its token as an extraheader, and scripts put one in the remote's URL: no
    # variable of glmagent's environment holds it, so only its place gives it away.
    git = ["git", "-C", str(git_project), "config"]
    header = f"AUTHORIZATION: basic {CHECKOUT_HEADER}"
    subprocess.run([*git, "http.https://github.com/.extraheader", header], check=True)
    url = f"https://x-access-token:{CHECKOUT_TOKEN}@github.com/o/r.git"
    subprocess.run([*git, "remote.origin.url", url], check=True)
    observation = CodingAgent(settings=Settings(sandbox="none")).act(
        Action(tool="run", command=command), git_project
    )
    assert observation.status == "ok", observation.output
    assert CHECKOUT_TOKEN not in observation.output and CHECKOUT_HEADER not in observation.output
    assert "[REDACTED]" in observation.output and observation.details["redactions"] >= 1


@pytest.mark.parametrize(
    "text",
    [
        "DATABASE_URL=postgres://postgres:postgres@localhost:5432/test",  # a fixture's short password
        "git@github.com:o/r.git and https://git@github.com/o/r",
        "Authorization: Basic dXNlcjpwYXNz",
        "the ghost_variable and github_path_name",
    ],
)
def test_short_passwords_and_lookalikes_stay_readable(text: str) -> None:
    assert Redactor({}).redact(text) == (text, 0)


@pytest.mark.parametrize(
    "text",
    [
        f"origin https://{CHECKOUT_TOKEN}@github.com/o/r (fetch)",
        f"url = https://oauth2:{CHECKOUT_TOKEN}@gitlab.example.com/o/r.git",
        f"extraheader = AUTHORIZATION: basic {CHECKOUT_HEADER}",
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl",
        f"token={CHECKOUT_TOKEN}",
        "GITLAB=glpat-" + "x1Y2z3" * 4,
    ],
)
def test_credentials_are_hidden_by_where_they_stand(text: str) -> None:
    hidden, count = Redactor({}).redact(text)
    assert count == 1 and "[REDACTED]" in hidden
    assert CHECKOUT_TOKEN not in hidden and "eyJzdWIi" not in hidden and "x1Y2z3x1Y2z3" not in hidden


def test_a_diff_copying_a_redaction_mark_back_is_refused(project: Path) -> None:
    # The model saw `[REDACTED]` where the file holds a token: writing the mark would destroy the token.
    config = project / "deploy.cfg"
    config.write_text(f"name = app\npush = https://{CHECKOUT_TOKEN}@github.com/o/r\n", encoding="utf-8")
    agent = CodingAgent(settings=Settings(sandbox="none"))
    shown = agent.act(Action(tool="read_file", path="deploy.cfg"), project)
    assert CHECKOUT_TOKEN not in shown.output and "[REDACTED]" in shown.output
    rewrite = "name = web\npush = https://[REDACTED]@github.com/o/r\n"
    refused = agent.act(Action(tool="apply_diff", path="deploy.cfg", content=rewrite), project)
    assert refused.status == "failed" and "[REDACTED]" in refused.output
    assert CHECKOUT_TOKEN in config.read_text(encoding="utf-8")
    edit = [{"search": ["name = app"], "replace": ["name = web"]}]
    changed = agent.act(Action(tool="apply_diff", path="deploy.cfg", edits=edit), project)
    assert changed.status == "ok", changed.output
    assert (
        config.read_text(encoding="utf-8") == f"name = web\npush = https://{CHECKOUT_TOKEN}@github.com/o/r\n"
    )
