"""Secret values never reach the model, the screen, the memory file or the audit log: each observation is
scrubbed at the executor boundary (and the test output in the loop), short values and common encodings too."""

from __future__ import annotations

import base64
import json
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
