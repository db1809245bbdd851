"""A scripted OpenAI-compatible server on 127.0.0.1 for wire-level tests, and how to run the real `glmagent`
command against it."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

KEY_VAR = "WIRE_LLM_KEY"
KEY = "sk-wire-5d1e0b7c9a.QmFzZTY0U2VjcmV0"
MODEL = "wire-model"
FIX = (
    "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n def greet(name):\n"
    "-    return 'hello ' + name\n+    return 'Hello ' + name\n"
)
GOOD = {
    "thought": "fix the greeting",
    "plan": [],
    "actions": [{"tool": "apply_diff", "path": "app.py", "diff": FIX}],
}
NO_PATH = {"thought": "read it", "plan": [], "actions": [{"tool": "read_file"}]}


class Seen:
    """One request the server received."""

    def __init__(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        self.at = time.monotonic()
        self.path = handler.path
        self.headers = {k.lower(): v for k, v in handler.headers.items()}
        self.body: dict[str, Any] = json.loads(body) if body else {}


Step = Callable[[BaseHTTPRequestHandler], None]


class ScriptedServer:
    """A chat-completions server answering request N with step N (the last step repeats)."""

    def __init__(self, steps: list[Step]) -> None:
        self.steps = steps
        self.seen: list[Seen] = []
        self.arrived = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                index = len(server.seen)
                server.seen.append(Seen(self, body))
                server.arrived.set()
                # A client that gives up on a trickle closes the socket: what it should do.
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    server.steps[min(index, len(server.steps) - 1)](self)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def send(
    handler: BaseHTTPRequestHandler, status: int, body: bytes, content_type: str, **headers: str
) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    for name, value in headers.items():
        handler.send_header(name.replace("_", "-"), value)
    handler.end_headers()
    handler.wfile.write(body)


def completion(content: str, prompt_tokens: int = 100, completion_tokens: int = 20) -> Step:
    def step(handler: BaseHTTPRequestHandler) -> None:
        payload = {
            "id": "chatcmpl-wire",
            "object": "chat.completion",
            "model": MODEL,
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
        send(handler, 200, json.dumps(payload).encode(), "application/json")

    return step


def error(status: int, payload: dict[str, Any], **headers: str) -> Step:
    return lambda handler: send(handler, status, json.dumps(payload).encode(), "application/json", **headers)


def drop(handler: BaseHTTPRequestHandler) -> None:
    handler.close_connection = True  # closes the socket without a word


def garbage(handler: BaseHTTPRequestHandler) -> None:
    send(handler, 200, b"<html><body>upstream hiccup</body></html>", "text/html")


def trickle(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", "100000")
    handler.end_headers()
    for _ in range(200):  # a byte every 0.2 s: each read succeeds, the whole never arrives in time
        handler.wfile.write(b" ")
        handler.wfile.flush()
        time.sleep(0.2)


def hang(handler: BaseHTTPRequestHandler) -> None:
    time.sleep(600)  # longer than any bound a test waits: a reply never comes


def make_project(tmp_path: Path) -> Path:
    """A two-file project whose greeting the tasks fix."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "app.py").write_text("def greet(name):\n    return 'hello ' + name\n", encoding="utf-8")
    (root / "README.md").write_text("greetings\n", encoding="utf-8")
    return root


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update({KEY_VAR: KEY, "GLMAGENT_RETRY_BACKOFF": "0.05", "PYTHONUNBUFFERED": "1"}, **extra)
    return env


def glmagent(base_url: str, project: Path, *args: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "glmagent",
        "task",
        "make greet say Hello",
        "-C",
        str(project),
        "--provider",
        "openai-compatible",
        "--base-url",
        base_url,
        "--model",
        MODEL,
        "--api-key-env",
        KEY_VAR,
        "--sandbox",
        "none",
        *args,
    ]


def audit_records(project: Path) -> list[dict[str, Any]]:
    (log,) = (project / ".hazina" / "agent-memory").glob("*.jsonl")
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
