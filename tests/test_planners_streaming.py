"""Streamed replies: a reply that keeps arriving is never cut, however long it takes; a server that goes
silent is given up and retried once, not handed copy after copy of the prompt; error events, broken
streams and servers that refuse the streaming options are handled like their plain-reply counterparts.

A real server on 127.0.0.1 (events really arrive over time) where timing is the point; httpx.MockTransport
elsewhere."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from conftest import mock_planner

from glmagent.errors import ContextTooLongError, PlannerError
from glmagent.planners.base import ChatMessage
from glmagent.planners.openai_compat import OpenAICompatiblePlanner
from glmagent.planners.retry import RetryPolicy

MESSAGES = [
    ChatMessage(role="system", content="Reply with JSON."),
    ChatMessage(role="user", content="Fix it"),
]
PLAN = '{"thought": "t", "plan": [], "actions": []}'


def event(data: object) -> bytes:
    return f"data: {json.dumps(data)}\n\n".encode()


def chunk(content: str | None = None, finish: str | None = None, **extra: Any) -> bytes:
    delta = {} if content is None else {"content": content}
    return event({"model": "m", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra})


ROLE = event(
    {"choices": [{"index": 0, "delta": {"role": "assistant", "content": None}, "finish_reason": None}]}
)
USAGE = event({"choices": [], "usage": {"prompt_tokens": 120, "completion_tokens": 7, "total_tokens": 127}})
DONE = b"data: [DONE]\n\n"


def whole_stream(text: str = PLAN, pieces: int = 4) -> list[bytes]:
    size = -(-len(text) // pieces)
    parts = [text[i : i + size] for i in range(0, len(text), size)]
    return [ROLE, *(chunk(p) for p in parts), chunk(finish="stop"), USAGE, DONE]


def sse(events: list[bytes]) -> httpx.Response:
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=iter(events))


# -- a real server whose events arrive over time ----------------------------------------------------------

Script = Callable[[BaseHTTPRequestHandler, int], None]
"""Writes one response; the int is the request's number (0-based)."""


class StreamingServer:
    def __init__(self, script: Script) -> None:
        self.requests: list[dict[str, Any]] = []
        self.release = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                number = len(server.requests)
                server.requests.append(json.loads(body))
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up
                    script(self, number)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> StreamingServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def stream_head(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Connection", "close")
    handler.end_headers()
    handler.close_connection = True


def send(handler: BaseHTTPRequestHandler, data: bytes) -> None:
    handler.wfile.write(data)
    handler.wfile.flush()


def real_planner(server: StreamingServer, timeout: float, **kwargs: Any) -> OpenAICompatiblePlanner:
    options: dict[str, Any] = {
        "retry": RetryPolicy(max_retries=4, backoff_s=0.0, jitter=lambda low, high: 0.0),
        "sleep": lambda seconds: None,
    }
    options.update(kwargs)
    return OpenAICompatiblePlanner(
        base_url=server.base_url, model="m", api_key=None, timeout=timeout, **options
    )


def test_a_streamed_reply_is_asked_for_and_assembled_with_its_usage_and_finish_reason() -> None:
    seen: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        return sse(whole_stream())

    reply = mock_planner(handler).plan(MESSAGES)

    assert reply.text == PLAN and reply.finish_reason == "stop" and reply.model == "m"
    assert reply.usage is not None and (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (120, 7)
    assert seen[0]["stream"] is True and seen[0]["stream_options"] == {"include_usage": True}


def test_a_reply_that_keeps_arriving_is_never_cut_however_long_it_takes() -> None:
    # The whole reply takes about 1.6 s, more than three times the timeout: only silence may end it.
    def script(handler: BaseHTTPRequestHandler, number: int) -> None:
        stream_head(handler)
        send(handler, ROLE)
        for _ in range(3):  # a slow server reading the prompt sends keep-alive comments, as llama-server does
            time.sleep(0.2)
            send(handler, b": \n\n")
        for piece in whole_stream(pieces=10)[1:]:
            time.sleep(0.1)
            send(handler, piece)

    with StreamingServer(script) as server:
        started = time.monotonic()
        reply = real_planner(server, timeout=0.5).plan(MESSAGES)

    assert reply.text == PLAN and time.monotonic() - started > 1.0
    assert len(server.requests) == 1 and reply.attempts == 1


def test_a_server_that_goes_silent_is_given_up_and_sent_the_prompt_once_more_only() -> None:
    def script(handler: BaseHTTPRequestHandler, number: int) -> None:
        stream_head(handler)
        send(handler, ROLE)
        server.release.wait(20)  # still "reading the prompt", without a sign of life

    with StreamingServer(script) as server:
        started = time.monotonic()
        with pytest.raises(PlannerError) as failed:
            real_planner(server, timeout=0.4).plan(MESSAGES)

    # Four retries were allowed, but a silent server is handed the prompt twice in all, not five times.
    assert len(server.requests) == 2
    assert time.monotonic() - started < 10
    message = str(failed.value)
    assert "nothing for 0.4s" in message and "went silent 2 times" in message and "not sent again" in message


def test_silence_before_the_first_byte_counts_too() -> None:
    def script(handler: BaseHTTPRequestHandler, number: int) -> None:
        server.release.wait(20)

    with StreamingServer(script) as server, pytest.raises(PlannerError) as failed:
        real_planner(server, timeout=0.3).plan(MESSAGES)

    assert len(server.requests) == 2 and "within 0.3s" in str(failed.value)


def test_server_errors_keep_their_full_retry_count() -> None:
    answers = [httpx.Response(503, json={"error": {"message": "loading model"}})] * 3 + [sse(whole_stream())]

    def handler(request: httpx.Request) -> httpx.Response:
        return answers.pop(0)

    reply = mock_planner(handler).plan(MESSAGES)

    assert reply.text == PLAN and reply.attempts == 4


def test_an_error_event_inside_a_stream_is_read_like_an_error_reply() -> None:
    error = {
        "error": {"code": 400, "message": "the request exceeds the available context size", "n_ctx": 4096}
    }
    error["error"]["type"] = "exceed_context_size_error"

    with pytest.raises(ContextTooLongError):
        mock_planner(lambda request: sse([ROLE, event(error)])).plan(MESSAGES)


def test_a_stream_that_breaks_off_before_its_end_is_retried() -> None:
    answers = [sse([ROLE, chunk('{"thought": ')]), sse(whole_stream())]

    def handler(request: httpx.Request) -> httpx.Response:
        return answers.pop(0)

    reply = mock_planner(handler).plan(MESSAGES)

    assert reply.text == PLAN and reply.attempts == 2


def test_a_reply_cut_at_max_tokens_says_so() -> None:
    reply = mock_planner(lambda request: sse([ROLE, chunk('{"tho'), chunk(finish="length"), DONE])).plan(
        MESSAGES
    )

    assert reply.text == '{"tho' and reply.finish_reason == "length"


def test_a_server_that_refuses_the_streaming_options_is_asked_again_without_them() -> None:
    bodies: list[dict[str, Any]] = []
    refusal = {"error": {"message": "Unrecognized request argument supplied: stream_options"}}
    answers = [httpx.Response(400, json=refusal), sse(whole_stream())]

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return answers.pop(0)

    subject = mock_planner(handler)
    assert subject.plan(MESSAGES).text == PLAN
    assert "stream_options" in bodies[0] and "stream_options" not in bodies[1] and bodies[1]["stream"] is True


def test_a_plain_reply_to_a_streamed_request_is_read_as_one() -> None:
    plain = {
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": PLAN}, "finish_reason": "stop"}],
    }

    reply = mock_planner(lambda request: httpx.Response(200, json=plain)).plan(MESSAGES)

    assert reply.text == PLAN


def test_a_plain_reply_trickling_forever_is_still_cut_at_the_timeout() -> None:
    def trickle() -> Iterator[bytes]:
        while True:
            time.sleep(0.05)
            yield b" "

    started = time.monotonic()
    with pytest.raises(PlannerError) as failed:
        mock_planner(
            lambda request: httpx.Response(200, content=trickle()),
            timeout=0.3,
            retry=RetryPolicy(max_retries=0),
        ).plan(MESSAGES)

    assert time.monotonic() - started < 5 and "within 0.3s" in str(failed.value)
