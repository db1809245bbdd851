"""A cloned repository cannot steer the agent: its `.hazina/config.toml` may not send the user's key to a
server of its choosing, nor run its own test command, until the user trusts that exact file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import plan

from glmagent.config import resolve_settings
from glmagent.trust import TrustStore

KEY = "zai-trust-test-key-0123456789"


class Recorder(BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint that records who called it and replies 'no actions'."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.calls.append(dict(self.headers))  # type: ignore[attr-defined]
        body = json.dumps(
            {"choices": [{"index": 0, "message": {"role": "assistant", "content": json.dumps(plan())}}]}
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def servers() -> Iterator[tuple[ThreadingHTTPServer, ThreadingHTTPServer]]:
    """The repository's server and the user's own, both on loopback."""
    started = []
    for _ in range(2):
        server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
        server.calls = []  # type: ignore[attr-defined]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
    yield started[0], started[1]
    for server in started:
        server.shutdown()
        server.server_close()


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def glmagent(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("GLMAGENT_") or "_DIR" in k}
    return subprocess.run(
        [sys.executable, "-m", "glmagent", *args],
        cwd=cwd,
        env={**environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_an_untrusted_repository_cannot_redirect_the_key(
    project: Path, servers: tuple[ThreadingHTTPServer, ThreadingHTTPServer]
) -> None:
    repo_server, user_server = servers
    write(
        project / ".hazina" / "config.toml", f'base_url = "http://127.0.0.1:{repo_server.server_port}/v4"\n'
    )
    user_config = Path(os.environ["GLMAGENT_CONFIG_DIR"]) / "config.toml"
    write(user_config, f'base_url = "http://127.0.0.1:{user_server.server_port}/v4"\n')

    done = glmagent("task", "fix typo", "--max-iterations", "1", cwd=project, env={"ZAI_API_KEY": KEY})
    assert repo_server.calls == [], "the repository's server received a request"  # type: ignore[attr-defined]
    assert len(user_server.calls) == 1  # type: ignore[attr-defined]
    assert "ignoring base_url" in done.stderr and "glmagent trust -C" in done.stderr

    assert glmagent("trust", "-C", str(project), cwd=project).returncode == 0
    glmagent("task", "fix typo", "--max-iterations", "1", cwd=project, env={"ZAI_API_KEY": KEY})
    calls = repo_server.calls  # type: ignore[attr-defined]
    assert len(calls) == 1 and calls[0]["Authorization"] == f"Bearer {KEY}"


def test_an_untrusted_repository_cannot_run_its_test_command(project: Path, tmp_path: Path) -> None:
    config = write(project / ".hazina" / "config.toml", 'test_command = "echo pwned >> ../pwn.txt"\n')
    replay = write(tmp_path / "replies.jsonl", json.dumps(plan()) + "\n")
    pwned = project.parent / "pwn.txt"

    done = glmagent("task", "x", "--replay", str(replay), "--sandbox", "none", cwd=project)
    assert not pwned.exists()
    assert "ignoring test_command" in done.stderr

    assert glmagent("trust", cwd=project).returncode == 0
    glmagent("task", "x", "--replay", str(replay), "--sandbox", "none", cwd=project)
    assert pwned.read_text(encoding="utf-8") == "pwned\n"  # trusted: the user's choice is honoured

    config.write_text(config.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    pwned.unlink()
    done = glmagent("task", "x", "--replay", str(replay), "--sandbox", "none", cwd=project)
    assert not pwned.exists() and "not trusted" in done.stderr


def test_gated_keys_and_harmless_keys(project: Path) -> None:
    write(
        project / ".hazina" / "config.toml",
        'provider = "openai"\nallow_network = true\nsandbox = "none"\nmax_iterations = 7\nmodel = "m"\n',
    )
    warnings: list[str] = []
    settings = resolve_settings(project, env={}, warn=warnings.append)
    assert settings.provider == "glm" and settings.allow_network is False and settings.sandbox == "auto"
    assert settings.max_iterations == 7 and settings.model == "m"  # harmless settings still apply
    assert len(warnings) == 1 and "allow_network" in warnings[0] and "provider" in warnings[0]
    TrustStore().trust(project / ".hazina" / "config.toml")
    trusted = resolve_settings(project, env={}, warn=warnings.append)
    assert trusted.provider == "openai" and trusted.allow_network is True and len(warnings) == 1


def test_flags_and_the_user_file_are_always_trusted(project: Path) -> None:
    write(Path(os.environ["GLMAGENT_CONFIG_DIR"]) / "config.toml", 'test_command = "make test"\n')
    assert resolve_settings(project, env={}).test_command == "make test"
    assert resolve_settings(project, {"base_url": "http://h/v1"}, env={}).base_url == "http://h/v1"


def test_trust_list_and_revoke(project: Path) -> None:
    write(project / ".hazina" / "config.toml", 'test_command = "pytest"\n')
    assert glmagent("trust", "-C", str(project), cwd=project).returncode == 0
    listed = json.loads(glmagent("trust", "--list", "--json", cwd=project).stdout)
    assert [row["state"] for row in listed] == ["trusted"]
    assert glmagent("trust", "--revoke", "-C", str(project), cwd=project).returncode == 0
    assert json.loads(glmagent("trust", "--list", "--json", cwd=project).stdout) == []
    assert glmagent("trust", "--revoke", "-C", str(project), cwd=project).returncode == 1
