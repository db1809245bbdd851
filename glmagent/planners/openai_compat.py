"""A planner for any server speaking the OpenAI Chat Completions API: GLM (Z.ai / ZhipuAI), OpenAI, Ollama.

One request per `plan()` call, one attempt: every failure (HTTP status, network, timeout, a body that is not
a chat completion) becomes a `PlannerError` whose message says what happened and where, without secrets.
Retries and rate-limit handling belong to a later layer.

httpx is imported inside the functions that need it, so importing this module (and `glmagent --help`)
stays fast.

The API key never leaves this object except in the ``Authorization`` header: it is kept as a `SecretStr`,
attached by an `httpx.Auth` whose repr hides it, scrubbed from every error message, and error chains from
httpx are cut (``from None``) because their frames hold the raw request headers.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import structlog
from pydantic import SecretStr

from glmagent.errors import ConfigError, PlannerError
from glmagent.planners.base import ChatMessage, PlannerReply, TokenUsage

if TYPE_CHECKING:
    import httpx

log = structlog.get_logger(__name__)

_CONNECT_TIMEOUT_S = 10.0
"""Connecting never needs long; capping it makes a wrong host or a stopped local server fail fast."""

_EXCERPT_CHARS = 300
"""How much of a provider's error body to quote: enough for its message, not a whole HTML page."""


def normalise_base_url(base_url: str) -> str:
    """Validate an http(s) base URL and return it without a trailing slash.

    A pasted full endpoint (``.../chat/completions``) is trimmed back to its base, a common slip when copying
    from provider docs. Raises `ConfigError` for anything that is not an absolute http(s) URL.
    """
    url = base_url.strip().rstrip("/")
    if url.endswith("/chat/completions"):
        url = url[: -len("/chat/completions")].rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            f"invalid base URL {redact_url(base_url)!r}: expected an absolute http(s) URL such as "
            "https://api.z.ai/api/paas/v4"
        )
    return url


def redact_url(url: str) -> str:
    """Return `url` safe for messages and logs: no user-info (``user:pass@``), no query, no fragment."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if ":" in host:  # IPv6 literal
            host = f"[{host}]"
        netloc = f"{host}:{parts.port}" if parts.port else host
    except ValueError:  # malformed port etc.: show only what precedes the authority
        return url.split("//", 1)[0] + "//…"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


class OpenAICompatiblePlanner:
    """Plans by calling ``POST {base_url}/chat/completions`` and returning ``choices[0].message.content``.

    Only the message content is read: reasoning fields some providers add (``reasoning_content``) are
    ignored, they are not part of the plan.
    """

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None,
        name: str | None = None,
        timeout: float = 120.0,
        temperature: float = 0.0,
        json_mode: bool = True,
        transport: httpx.BaseTransport | None = None,
        max_tokens: int | None = None,
    ) -> None:
        import httpx

        if not model.strip():
            raise ConfigError("a model name is required for an OpenAI-compatible provider")
        if timeout <= 0:
            raise ConfigError(f"timeout must be positive, got {timeout}")
        self.base_url = normalise_base_url(base_url)
        self.model = model
        self.name = name or f"openai-compatible:{model}"
        self.timeout = timeout
        self.temperature = temperature
        self.json_mode = json_mode
        self.max_tokens = max_tokens
        self.url = f"{self.base_url}/chat/completions"
        self._api_key = SecretStr(api_key) if api_key else None
        self._client = httpx.Client(
            # `timeout` bounds reading the reply, which slow reasoning models need room for.
            timeout=httpx.Timeout(timeout, connect=min(timeout, _CONNECT_TIMEOUT_S)),
            transport=transport,
            auth=_BearerAuth(self._api_key) if self._api_key else None,
            headers={"Accept": "application/json", "User-Agent": "glmagent"},
        )

    # -- public API --------------------------------------------------------------------------------------

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        """Send the conversation and return the model's reply; raise `PlannerError` on any failure."""
        import httpx

        wire_messages = [ChatMessage.model_validate(m).model_dump() for m in messages]
        body: dict[str, Any] = {
            "model": self.model,
            "messages": wire_messages,
            "temperature": self.temperature,
            # Explicit: some compatible servers and proxies stream unless told otherwise.
            "stream": False,
        }
        if self.json_mode:
            body["response_format"] = {"type": "json_object"}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens

        where = redact_url(self.url)
        log.info(
            "planner.request",
            planner=self.name,
            url=where,
            model=self.model,
            messages=len(wire_messages),
            prompt_chars=sum(len(m["content"]) for m in wire_messages),
        )
        started = time.perf_counter()
        # Every handler raises `from None`: httpx/httpcore frames hold the raw request headers, key included.
        try:
            response = self._client.post(self.url, json=body)
        except httpx.ConnectTimeout:
            connect_s = min(self.timeout, _CONNECT_TIMEOUT_S)
            raise self._unreachable(where, f"no answer within {connect_s:g}s") from None
        except httpx.TimeoutException as exc:
            raise self._fail(
                f"no reply from {where} within {self.timeout:g}s ({type(exc).__name__}); the provider may be "
                "overloaded, or the model too slow for this timeout"
            ) from None
        except httpx.ConnectError as exc:
            raise self._unreachable(where, self._scrub(str(exc)) or type(exc).__name__) from None
        except httpx.HTTPError as exc:
            raise self._fail(
                f"request to {where} failed: {type(exc).__name__}: {self._scrub(str(exc))}"
            ) from None
        latency = time.perf_counter() - started

        if not response.is_success:
            raise self._fail(self._status_message(response, where))
        return self._parse(response, where, latency)

    def close(self) -> None:
        """Release the HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> OpenAICompatiblePlanner:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        key = "'**********'" if self._api_key else "None"
        return (
            f"OpenAICompatiblePlanner(name={self.name!r}, base_url={redact_url(self.base_url)!r}, "
            f"model={self.model!r}, api_key={key})"
        )

    # -- internals ---------------------------------------------------------------------------------------

    def _parse(self, response: httpx.Response, where: str, latency: float) -> PlannerReply:
        try:
            data = response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            content_type = response.headers.get("content-type", "unknown")
            raise self._fail(
                f"{where} answered HTTP {response.status_code} with a body that is not JSON "
                f"(content-type {content_type}): {self._excerpt(response.text)!r}; is the base URL an "
                "OpenAI-compatible API (usually ending in /v1 or /v4)?"
            ) from None
        if not isinstance(data, dict):
            raise self._fail(
                f"{where} answered with JSON that is not an object: {self._excerpt(response.text)!r}"
            )

        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            # Some providers report errors with HTTP 200 and an `error` member instead of choices.
            problem = _provider_error(data)
            detail = f": {problem}" if problem else f"; body: {self._excerpt(response.text)!r}"
            raise self._fail(f"reply from {where} has no choices{self._scrub(detail)}")
        choice = choices[0]
        message = choice.get("message")
        finish_reason = choice.get("finish_reason")
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            # Content given as parts ([{"type": "text", "text": ...}]): still the message content.
            texts = [p.get("text") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
            content = "".join(texts) if texts else None
        if not isinstance(content, str):
            extra = ""
            if isinstance(message, dict) and message.get("tool_calls"):
                extra = " (it sent tool_calls instead of text)"
            elif isinstance(message, dict) and message.get("reasoning_content"):
                extra = " (only reasoning_content; the answer may have been cut off)"
            raise self._fail(
                f"reply from {where} has no message content{extra}; finish_reason={finish_reason!r}"
            )
        if finish_reason == "length":
            log.warning("planner.truncated", planner=self.name, finish_reason=finish_reason)

        usage = _usage(data.get("usage"))
        model = data.get("model") if isinstance(data.get("model"), str) else self.model
        log.info(
            "planner.reply",
            planner=self.name,
            status=response.status_code,
            model=model,
            latency_s=round(latency, 3),
            reply_chars=len(content),
            **(usage.model_dump() if usage else {}),
        )
        return PlannerReply(text=content, usage=usage, model=model, latency_s=latency)

    def _status_message(self, response: httpx.Response, where: str) -> str:
        status = response.status_code
        try:
            problem = _provider_error(response.json())
        except (json.JSONDecodeError, UnicodeDecodeError):
            problem = None
        detail = problem or self._excerpt(response.text) or "(empty body)"
        reason = f" {response.reason_phrase}" if response.reason_phrase else ""
        hint = _STATUS_HINTS.get(status, "")
        if not hint and status >= 500:
            hint = "the provider had an internal error; try again later"
        elif not hint and 300 <= status < 400:
            hint = f"redirected to {redact_url(response.headers.get('location', '?'))}; check the base URL"
        message = f"HTTP {status}{reason} from {where}: {detail}"
        return f"{message} ({hint})" if hint else message

    def _unreachable(self, where: str, reason: str) -> PlannerError:
        return self._fail(
            f"cannot connect to {where}: the server is unreachable ({reason}); "
            "check the base URL, your network, and that the server is running"
        )

    def _fail(self, message: str) -> PlannerError:
        error = PlannerError(f"{self.name}: {self._scrub(message)}")
        log.warning("planner.error", planner=self.name, error=str(error))
        return error

    def _excerpt(self, text: str) -> str:
        flat = " ".join(text.split())
        if len(flat) > _EXCERPT_CHARS:
            flat = flat[:_EXCERPT_CHARS] + "…"
        return self._scrub(flat)

    def _scrub(self, text: str) -> str:
        # Providers sometimes echo the key they rejected; never let it through.
        if self._api_key:
            secret = self._api_key.get_secret_value()
            if secret:
                text = text.replace(secret, "**********")
        return text


_STATUS_HINTS: dict[int, str] = {
    400: "the provider rejected the request; check the model name and parameters",
    401: "the API key was rejected; check that it is valid for this provider and base URL",
    403: "the API key is not allowed to use this model or endpoint",
    404: "check the base URL and the model name",
    408: "the provider timed out",
    413: "the prompt is too large for this provider",
    429: "rate limited or out of quota; wait, or check your plan and balance",
}


class _BearerAuth:
    """Adds ``Authorization: Bearer <key>`` at send time; its repr never shows the key.

    A callable rather than an `httpx.Auth` subclass, so that defining it does not import httpx.
    """

    def __init__(self, key: SecretStr) -> None:
        self._key = key

    def __call__(self, request: httpx.Request) -> httpx.Request:
        request.headers["Authorization"] = f"Bearer {self._key.get_secret_value()}"
        return request

    def __repr__(self) -> str:
        return "_BearerAuth(key='**********')"


def _provider_error(data: object) -> str | None:
    """Pull the human message out of the error shapes providers use, if any."""
    if not isinstance(data, dict):
        return None
    error = data.get("error")
    if isinstance(error, dict):  # OpenAI, Z.ai: {"error": {"message": ..., "code": ...}}
        message = error.get("message")
        code = error.get("code")
        if isinstance(message, str) and message:
            return f"{message} (code {code})" if code not in (None, "") else message
    if isinstance(error, str) and error:  # Ollama: {"error": "model 'x' not found"}
        return error
    for key in ("message", "detail", "msg"):
        value = data.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _usage(raw: object) -> TokenUsage | None:
    """Read the usage block tolerantly: missing or odd values must not lose a good reply."""
    if not isinstance(raw, dict):
        return None

    def count(key: str) -> int:
        value = raw.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0

    prompt, completion, total = count("prompt_tokens"), count("completion_tokens"), count("total_tokens")
    return TokenUsage(
        prompt_tokens=prompt, completion_tokens=completion, total_tokens=total or prompt + completion
    )
