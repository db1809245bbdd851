"""OpenAICompatiblePlanner against httpx.MockTransport: request shape, reply parsing, every failure mode."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from structlog.testing import capture_logs

from glmagent.errors import ConfigError, PlannerError
from glmagent.planners.base import ChatMessage, Planner, TokenUsage
from glmagent.planners.openai_compat import OpenAICompatiblePlanner, normalise_base_url, redact_url
from glmagent.planners.retry import RetryPolicy

KEY = "zk-4f1c9d2e7a.S3cr3tT0ken"
BASE = "https://api.example.test/api/paas/v4"
MESSAGES = [
    ChatMessage(role="system", content="Reply with JSON."),
    ChatMessage(role="user", content="Fix it"),
]
PLAN_TEXT = '{"thought": "t", "plan": [], "actions": []}'

Handler = Callable[[httpx.Request], httpx.Response]


def completion(content: Any = PLAN_TEXT, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "glm-4.6",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150},
    }
    body.update(extra)
    return body


def make(handler: Handler, **kwargs: Any) -> OpenAICompatiblePlanner:
    """One attempt per call (retries have tests of their own, in test_planners_failing_well.py)."""
    options: dict[str, Any] = {
        "base_url": BASE,
        "model": "glm-4.6",
        "api_key": KEY,
        "name": "glm:glm-4.6",
        "retry": RetryPolicy(max_retries=0),
    }
    options.update(kwargs)
    return OpenAICompatiblePlanner(transport=httpx.MockTransport(handler), **options)


def failure(handler: Handler, **kwargs: Any) -> str:
    """Run one plan() that must fail; return its message after checking no secret leaked anywhere."""
    planner = make(handler, **kwargs)
    with capture_logs() as logs, pytest.raises(PlannerError) as caught:
        planner.plan(MESSAGES)
    message = str(caught.value)
    assert KEY not in message
    assert KEY not in repr(caught.value)
    assert KEY not in repr(planner)
    assert KEY not in json.dumps(logs, default=str)
    # The httpx chain is cut: its frames hold the raw Authorization header.
    assert caught.value.__cause__ is None
    assert caught.value.__context__ is None or caught.value.__suppress_context__
    assert message.startswith("glm:glm-4.6: ")
    return message


# -- request shape -------------------------------------------------------------------------------------------


def test_posts_chat_completion_request_with_bearer_key_and_json_mode() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=completion())

    make(handler, base_url=BASE + "/").plan(MESSAGES)

    (request,) = seen
    assert request.method == "POST"
    assert str(request.url) == f"{BASE}/chat/completions"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.headers["content-type"] == "application/json"
    body = json.loads(request.content)
    assert body == {
        "model": "glm-4.6",
        "messages": [
            {"role": "system", "content": "Reply with JSON."},
            {"role": "user", "content": "Fix it"},
        ],
        "temperature": 0.0,
        # Streamed, so that only silence times a request out; usage comes in the last event.
        "stream": True,
        "stream_options": {"include_usage": True},
        "response_format": {"type": "json_object"},
        "max_tokens": 4096,  # always sent: without it a small model can pad its reply until the timeout
    }


def test_without_key_or_json_mode_sends_neither_and_passes_max_tokens() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=completion())

    make(handler, api_key=None, json_mode=False, max_tokens=512, temperature=0.2).plan(MESSAGES)

    assert "authorization" not in seen[0].headers
    body = json.loads(seen[0].content)
    assert "response_format" not in body
    assert body["max_tokens"] == 512
    assert body["temperature"] == 0.2


# -- replies -------------------------------------------------------------------------------------------------


def test_reads_only_message_content_and_records_usage_and_model() -> None:
    body = completion("RIGHT", model="glm-4.6-0930")
    body["choices"][0]["message"]["reasoning_content"] = "WRONG: thinking out loud"
    planner = make(lambda request: httpx.Response(200, json=body))

    reply = planner.plan(MESSAGES)

    assert reply.text == "RIGHT"
    assert reply.usage == TokenUsage(prompt_tokens=120, completion_tokens=30, total_tokens=150)
    assert reply.model == "glm-4.6-0930"
    assert reply.latency_s is not None and reply.latency_s >= 0
    assert isinstance(planner, Planner)


def test_usage_is_optional_and_total_is_derived_when_missing() -> None:
    without = make(lambda r: httpx.Response(200, json=completion(usage=None))).plan(MESSAGES)
    partial = make(
        lambda r: httpx.Response(200, json=completion(usage={"prompt_tokens": 7, "completion_tokens": 3}))
    ).plan(MESSAGES)

    assert without.usage is None
    assert partial.usage == TokenUsage(prompt_tokens=7, completion_tokens=3, total_tokens=10)


def test_content_given_as_text_parts_is_joined() -> None:
    parts = [{"type": "text", "text": '{"thought": "a",'}, {"type": "text", "text": ' "plan": []}'}]

    reply = make(lambda r: httpx.Response(200, json=completion(parts))).plan(MESSAGES)

    assert reply.text == '{"thought": "a", "plan": []}'


def test_empty_content_string_is_returned_for_the_loop_to_judge() -> None:
    assert make(lambda r: httpx.Response(200, json=completion(""))).plan(MESSAGES).text == ""


# -- failures ------------------------------------------------------------------------------------------------


def test_401_quotes_the_provider_error_and_never_the_key() -> None:
    error = {"error": {"code": "1000", "message": f"Authentication failed for key {KEY}"}}

    message = failure(lambda r: httpx.Response(401, json=error))

    assert "HTTP 401 Unauthorized" in message
    assert f"{BASE}/chat/completions" in message
    assert "Authentication failed for key **********" in message
    assert "code 1000" in message
    assert "API key" in message


def test_500_with_plain_text_body() -> None:
    message = failure(lambda r: httpx.Response(500, text="upstream exploded\n\n  at line 3"))

    assert "HTTP 500" in message
    assert "try again later" in message
    assert "try again later" in message


def test_429_says_rate_limited() -> None:
    body = {"error": {"message": "Rate limit reached for requests", "type": "requests", "code": None}}

    message = failure(lambda r: httpx.Response(429, json=body))

    assert "HTTP 429" in message
    assert "Rate limit reached for requests (" in message
    assert "code" not in message
    assert "rate limited" in message


def test_404_with_ollama_style_error() -> None:
    message = failure(lambda r: httpx.Response(404, json={"error": "model 'qwen9' not found"}))

    assert "model 'qwen9' not found" in message
    assert "base URL" in message


def test_long_html_error_bodies_are_cut_to_an_excerpt() -> None:
    message = failure(lambda r: httpx.Response(502, html="<html>" + "x" * 5000 + "</html>"))

    assert "HTTP 502" in message
    assert len(message) < 700


def test_non_json_success_body() -> None:
    message = failure(lambda r: httpx.Response(200, html="<html><body>Welcome to nginx!</body></html>"))

    assert "not JSON" in message
    assert "Welcome to nginx!" in message
    assert "text/html" in message


@pytest.mark.parametrize(
    "body",
    [{"id": "x", "object": "chat.completion"}, {"choices": []}, {"choices": "nope"}, {"choices": [None]}],
    ids=["missing", "empty", "not-a-list", "not-an-object"],
)
def test_missing_choices(body: dict[str, Any]) -> None:
    assert "no choices" in failure(lambda r: httpx.Response(200, json=body))


def test_error_reported_with_status_200() -> None:
    body = {"error": {"message": "model glm-9 does not exist", "code": "1211"}}

    message = failure(lambda r: httpx.Response(200, json=body))

    assert "no choices" in message
    assert "model glm-9 does not exist" in message


def test_json_that_is_not_an_object() -> None:
    assert "not an object" in failure(lambda r: httpx.Response(200, json=["a"]))


def test_null_content_names_the_finish_reason() -> None:
    body = completion(None)
    body["choices"][0]["finish_reason"] = "stop"
    body["choices"][0]["message"]["reasoning_content"] = "long thoughts..."

    message = failure(lambda r: httpx.Response(200, json=body))

    assert "no message content" in message
    assert "'stop'" in message
    assert "reasoning_content" in message


def test_reasoning_that_used_up_max_tokens_is_a_cut_off_reply_for_the_loop_to_judge() -> None:
    body = completion(None)
    body["choices"][0]["finish_reason"] = "length"
    body["choices"][0]["message"]["reasoning_content"] = "long thoughts..."

    reply = make(lambda r: httpx.Response(200, json=body)).plan(MESSAGES)

    assert (reply.text, reply.finish_reason) == ("", "length")


def test_tool_calls_instead_of_content() -> None:
    body = completion(None)
    body["choices"][0]["message"]["tool_calls"] = [{"id": "c1", "type": "function"}]

    assert "tool_calls" in failure(lambda r: httpx.Response(200, json=body))


def test_missing_message() -> None:
    body = completion()
    del body["choices"][0]["message"]

    assert "no message content" in failure(lambda r: httpx.Response(200, json=body))


def test_timeout() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    message = failure(handler, timeout=7.5)

    assert "within 7.5s" in message
    assert "ReadTimeout" in message


def test_connect_error_says_unreachable() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    message = failure(handler)

    assert "unreachable" in message
    assert "Connection refused" in message
    assert f"{BASE}/chat/completions" in message


def test_connect_timeout_says_unreachable() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectTimeout("timed out", request=request)

    message = failure(handler, timeout=60)

    assert "unreachable" in message
    assert "within 10s" in message


def test_other_transport_errors() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.RemoteProtocolError(f"peer closed connection; sent {KEY}", request=request)

    message = failure(handler)

    assert "RemoteProtocolError" in message
    assert "**********" in message


def test_url_credentials_and_query_never_appear_in_messages() -> None:
    message = failure(
        lambda r: httpx.Response(403, json={"error": {"message": "forbidden"}}),
        base_url="https://user:hunter2@proxy.example.test:8443/v1",
    )

    assert "hunter2" not in message
    assert "https://proxy.example.test:8443/v1/chat/completions" in message


# -- construction -------------------------------------------------------------------------------------------


def test_repr_hides_the_key_and_context_manager_closes_the_client() -> None:
    with make(lambda r: httpx.Response(200, json=completion())) as planner:
        assert KEY not in repr(planner)
        assert KEY not in repr(vars(planner))
        assert "**********" in repr(planner)
    assert planner._client.is_closed


@pytest.mark.parametrize("url", ["api.z.ai/api/paas/v4", "ftp://example.test/v1", "", "https://"])
def test_invalid_base_url_is_a_config_error(url: str) -> None:
    with pytest.raises(ConfigError, match="base URL"):
        make(lambda r: httpx.Response(200), base_url=url)


def test_base_url_normalisation_and_redaction() -> None:
    assert normalise_base_url(" https://api.z.ai/api/paas/v4/ ") == "https://api.z.ai/api/paas/v4"
    assert normalise_base_url("http://localhost:11434/v1/chat/completions") == "http://localhost:11434/v1"
    assert redact_url("https://u:p@h.test:1/v1?key=s#f") == "https://h.test:1/v1?key=***"
    assert (
        redact_url("https://h.test/v1?api-version=2024-06-01") == "https://h.test/v1?api-version=2024-06-01"
    )
    assert redact_url("http://[::1]:8080/v1") == "http://[::1]:8080/v1"


def test_default_name_mentions_the_model() -> None:
    planner = OpenAICompatiblePlanner(base_url=BASE, model="m1", api_key=None)
    try:
        assert planner.name == "openai-compatible:m1"
    finally:
        planner.close()
