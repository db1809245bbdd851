"""Running `glmagent` as a user does — a child process with a clean environment — and answering it as an
OpenAI-compatible server on 127.0.0.1 would."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

#: Variables that would change what a child glmagent shows or whom it asks.
_OUTSIDE = ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "ZAI_API_KEY", "ZHIPUAI_API_KEY", "OPENAI_API_KEY")


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without colour switches or provider keys, plus `extra`."""
    env = {key: value for key, value in os.environ.items() if key not in _OUTSIDE}
    env.update(extra)
    return env


def run_glmagent(
    *args: str,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """`glmagent ARGS` in a child process, output captured (so: not a terminal)."""
    return subprocess.run(
        [sys.executable, "-m", "glmagent", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env if env is not None else clean_env(),
        cwd=cwd,
        timeout=timeout,
    )


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (it was free a moment ago)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def send_json(handler: BaseHTTPRequestHandler, document: Any) -> None:
    payload = json.dumps(document).encode()
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(payload)))
    handler.end_headers()
    handler.wfile.write(payload)


def send_chat_reply(
    handler: BaseHTTPRequestHandler, content: str, prompt_tokens: int, completion_tokens: int
) -> None:
    """Answer a `/chat/completions` request with `content` and the token usage given."""
    send_json(
        handler,
        {
            "id": "loopback",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        },
    )
