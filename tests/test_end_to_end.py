"""`glmagent task` as a user runs it: a real process talking to an OpenAI-compatible server on 127.0.0.1.

Checks the whole path at once: wire protocol, token usage, the loop, real files, and that the API key
never reaches the memory file, the audit log, stdout/stderr, or the environment of commands.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from conftest import plan

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")

KEY = "sk-e2e-secret-key-0123456789"
DIFF = (
    "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,4 @@\n def greet(name):\n"
    "+    if name is None:\n+        name = 'world'\n     return 'hello ' + name\n"
)
REPLIES = [
    plan({"tool": "read_file", "path": "app.py"}, thought="look first"),
    # Models often wrap the JSON in a fence with a sentence before it.
    "Here you go:\n```json\n"
    + json.dumps(plan({"tool": "apply_diff", "path": "app.py", "diff": DIFF}, thought="default the name"))
    + "\n```",
]


class ScriptedProvider(BaseHTTPRequestHandler):
    replies: ClassVar[list[Any]] = []
    received: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        self.received.append({"headers": dict(self.headers), "body": body})
        reply = self.replies.pop(0) if self.replies else plan()
        content = reply if isinstance(reply, str) else json.dumps(reply)
        payload = json.dumps(
            {
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def provider() -> Iterator[str]:
    ScriptedProvider.replies = list(REPLIES)
    ScriptedProvider.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), ScriptedProvider)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_task_against_a_local_openai_compatible_server(project: Path, provider: str) -> None:
    check = "import app, sys; sys.exit(0 if app.greet(None) == 'hello world' else 1)"
    # The test command is the user's, so it runs unchecked: use it to dump what a command's environment holds.
    test_command = f'set > env-seen.txt; {sys.executable} -c "{check}"'
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env["OPENAI_API_KEY"] = KEY
    done = subprocess.run(
        [sys.executable, "-m", "glmagent", "task", "make greet accept None", "-C", str(project),
         "--provider", "openai", "--base-url", provider, "--model", "local-model", "--shell", "posix",
         "--test", test_command, "--task-id", "e2e", "--json"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["stop_reason"] == "tests_passed" and result["iterations"] == 2
    assert result["usage"] == {
        "prompt_tokens": 200,
        "completion_tokens": 20,
        "total_tokens": 220,
        "reasoning_tokens": 0,
        "cached_tokens": 0,
    }

    first = ScriptedProvider.received[0]
    assert first["headers"]["Authorization"] == f"Bearer {KEY}"
    assert first["body"]["model"] == "local-model"
    assert first["body"]["response_format"]["type"] == "json_schema"  # the strict form, enforceable
    assert first["body"]["response_format"]["json_schema"]["strict"] is True
    assert first["body"]["max_tokens"] == 4096

    memory_dir = project / ".hazina" / "agent-memory"
    for text in (
        done.stdout,
        done.stderr,
        (memory_dir / "e2e.txt").read_text(),
        (memory_dir / "e2e.jsonl").read_text(),
        (project / "env-seen.txt").read_text(),
    ):
        assert KEY not in text
    assert "OPENAI_API_KEY" not in (project / "env-seen.txt").read_text()
    events = [json.loads(line)["event"] for line in (memory_dir / "e2e.jsonl").read_text().splitlines()]
    assert events[0] == "task_start" and events[-1] == "task_end"
    assert {"planner_request", "planner_reply", "validation", "action", "tests", "iteration_summary"} <= set(
        events
    )
