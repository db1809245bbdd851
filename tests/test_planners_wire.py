"""OpenAICompatiblePlanner over a real socket: a local HTTP server on 127.0.0.1, and a closed port."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from glmagent.errors import PlannerError
from glmagent.planners import ChatMessage, OpenAICompatiblePlanner, TokenUsage
from glmagent.planners.retry import RetryPolicy

KEY = "wire-test-key-0123456789"
REPLY = '{"thought": "read first", "plan": ["read"], "actions": [{"tool": "read_file", "path": "a.py"}]}'


class FakeProvider(BaseHTTPRequestHandler):
    """Answers /v1/chat/completions like an OpenAI-compatible server; records what it received."""

    received: list[dict[str, Any]]
    delay_s = 0.0

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length))
        self.received.append({"path": self.path, "headers": dict(self.headers), "body": body})
        time.sleep(self.delay_s)
        payload = json.dumps(
            {
                "id": "chatcmpl-wire",
                "object": "chat.completion",
                "model": body["model"],
                "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": REPLY}, "finish_reason": "stop"}
                ],
                "usage": {"prompt_tokens": 11, "completion_tokens": 22, "total_tokens": 33},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        # The timeout test's client gives up before the delayed reply: what that test is there to show.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
        pass


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    # httpx honours proxy variables; a CI proxy must not intercept requests to 127.0.0.1.
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)


def serve(delay_s: float = 0.0) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    received: list[dict[str, Any]] = []
    handler = type("Handler", (FakeProvider,), {"received": received, "delay_s": delay_s})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    # A short poll interval keeps shutdown() (and so each test's teardown) fast.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", received
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def provider() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    yield from serve()


@pytest.fixture
def slow_provider() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    yield from serve(delay_s=1.0)


def test_chat_completion_over_a_real_socket(provider: tuple[str, list[dict[str, Any]]]) -> None:
    base_url, received = provider

    with OpenAICompatiblePlanner(base_url=base_url, model="qwen2.5-coder", api_key=KEY) as planner:
        reply = planner.plan([ChatMessage(role="user", content="Fix the crash")])

    assert reply.text == REPLY
    assert reply.usage == TokenUsage(prompt_tokens=11, completion_tokens=22, total_tokens=33)
    assert reply.model == "qwen2.5-coder"
    (request,) = received
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == f"Bearer {KEY}"
    assert request["body"]["response_format"] == {"type": "json_object"}
    assert request["body"]["messages"] == [{"role": "user", "content": "Fix the crash"}]


def test_slow_server_times_out_with_a_clear_message(
    slow_provider: tuple[str, list[dict[str, Any]]],
) -> None:
    base_url, _ = slow_provider

    with (
        OpenAICompatiblePlanner(
            base_url=base_url, model="m", api_key=KEY, timeout=0.2, retry=RetryPolicy(max_retries=0)
        ) as planner,
        pytest.raises(PlannerError, match=r"no reply from .* within 0\.2s"),
    ):
        planner.plan([ChatMessage(role="user", content="hi")])


def test_closed_port_is_reported_unreachable() -> None:
    with socket.socket() as probe:  # find a free port, then release it so nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    with (
        OpenAICompatiblePlanner(
            base_url=f"http://127.0.0.1:{port}/v1", model="m", api_key=KEY, retry=RetryPolicy(max_retries=0)
        ) as planner,
        pytest.raises(PlannerError) as caught,
    ):
        planner.plan([ChatMessage(role="user", content="hi")])

    message = str(caught.value)
    assert "unreachable" in message
    assert f"http://127.0.0.1:{port}/v1/chat/completions" in message
    assert KEY not in message
