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
import re
import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import structlog
from pydantic import SecretStr

from glmagent.errors import ConfigError, ContentFilteredError, ContextTooLongError, PlannerError
from glmagent.planners.base import ChatMessage, PlannerReply, TokenUsage
from glmagent.planners.failures import Failure, classify
from glmagent.planners.pricing import Price, cost_usd
from glmagent.planners.retry import RateLimiter, RetryPolicy, parse_retry_after

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
    from provider docs; a query (``?api-version=...``) is kept, to follow the path. Raises `ConfigError` for
    anything that is not an absolute http(s) URL with a valid port.
    """
    parts = urlsplit(base_url.strip())
    path = parts.path.rstrip("/")
    if path.endswith("/chat/completions"):
        path = path[: -len("/chat/completions")].rstrip("/")
    problem = None
    try:
        parts.port  # noqa: B018 - raises ValueError for a port out of range or not a number
    except ValueError as error:
        problem = f"bad port ({error})"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        problem = "expected an absolute http(s) URL such as https://api.z.ai/api/paas/v4"
    if problem:
        raise ConfigError(f"invalid base URL {redact_url(base_url)!r}: {problem}")
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


_SECRET_QUERY = re.compile(r"key|token|secret|password|passwd|sig|signature|auth|credential|code", re.I)


def redact_url(url: str) -> str:
    """Return `url` safe for messages and logs: no user-info (``user:pass@``), no fragment, and a query whose
    secret-looking values (``api-key=``, ``sig=``, ``token=``) are masked while the rest stays visible."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if ":" in host:  # IPv6 literal
            host = f"[{host}]"
        netloc = f"{host}:{parts.port}" if parts.port else host
    except ValueError:  # malformed port etc.: show only what precedes the authority
        return url.split("//", 1)[0] + "//…"
    query = urlencode(
        [
            (k, "***" if _SECRET_QUERY.search(k) else v)
            for k, v in parse_qsl(parts.query, keep_blank_values=True)
        ],
        safe="*",
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


ResponseFormat = Literal["json_schema", "json_object", "none"]

#: The structured-output ladder: the strictest form the server accepts is used, stepping down on a 400/422
#: that names the response format.
FORMAT_LADDER: tuple[ResponseFormat, ...] = ("json_schema", "json_object", "none")

DEFAULT_MAX_TOKENS = 4096
"""Completion tokens asked for at most: plans are short, and uncapped small models pad up to the timeout."""

DEFAULT_REQUEST_TIMEOUT_S = 120.0

_WORKING_FORMAT: dict[tuple[str, str], ResponseFormat] = {}
"""What worked per (base URL, model) in this run, so a step-down happens once, not every iteration."""


class OpenAICompatiblePlanner:
    """Plans by calling ``POST {base_url}/chat/completions`` and returning ``choices[0].message.content``.

    Each `plan()` retries what is worth retrying (rate limits, server errors, dropped connections, timeouts:
    see `glmagent.planners.failures`) with backoff, within `retry.total_deadline_s`; every single request has
    an overall deadline of `timeout` seconds, however slowly the server trickles its answer. Structured output
    is asked for in the strictest form the server takes (`formats`, stepping down on a 400/422 about it), and
    `max_tokens` is always sent. Reasoning fields (``reasoning_content``) are not part of the plan: ignored,
    but their tokens are counted when the provider reports them.
    """

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None,
        name: str | None = None,
        timeout: float = DEFAULT_REQUEST_TIMEOUT_S,
        temperature: float = 0.0,
        json_mode: bool = True,
        transport: httpx.BaseTransport | None = None,
        max_tokens: int | None = DEFAULT_MAX_TOKENS,
        formats: Sequence[ResponseFormat] | None = None,
        retry: RetryPolicy | None = None,
        requests_per_minute: float | None = None,
        thinking: bool | None = None,
        price: Price | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:

        if not model.strip():
            raise ConfigError("a model name is required for an OpenAI-compatible provider")
        if timeout <= 0:
            raise ConfigError(f"timeout must be positive, got {timeout}")
        if max_tokens is not None and max_tokens <= 0:
            raise ConfigError(f"max_tokens must be positive, got {max_tokens}")
        self.base_url = normalise_base_url(base_url)
        self.model = model
        self.name = name or f"openai-compatible:{model}"
        self.timeout = timeout
        self.temperature = temperature
        self.max_tokens = max_tokens
        if formats is None:
            formats = ("json_object", "none") if json_mode else ("none",)
        self.formats: tuple[ResponseFormat, ...] = tuple(formats) or ("none",)
        self.retry = retry or RetryPolicy()
        self.thinking = thinking
        self.price = price
        self._sleep = sleep
        self._limiter = RateLimiter(requests_per_minute, sleep=sleep)
        self.url = endpoint_url(self.base_url, "chat/completions")
        self._api_key = SecretStr(api_key) if api_key else None
        self._transport = transport
        self._client = self._new_client()
        self._pool: Any = None

    @property
    def json_mode(self) -> bool:
        """True when some structured-output format is asked for."""
        return self.formats[0] != "none"

    def _new_client(self) -> httpx.Client:
        import httpx

        return httpx.Client(
            # The read timeout bounds silence between bytes; `_send` bounds the whole request.
            timeout=httpx.Timeout(self.timeout, connect=min(self.timeout, _CONNECT_TIMEOUT_S)),
            transport=self._transport,
            auth=_BearerAuth(self._api_key) if self._api_key else None,
            headers={"Accept": "application/json", "User-Agent": "glmagent"},
        )

    # -- public API --------------------------------------------------------------------------------------

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        """Send the conversation and return the model's reply.

        Raises `PlannerError` when no reply could be had (after retries), `ContextTooLongError` when the
        prompt is too long for the model, `ContentFilteredError` when the provider's filter blocked it.
        """
        wire_messages = [ChatMessage.model_validate(m).model_dump() for m in messages]
        where = redact_url(self.url)
        started = time.monotonic()
        deadline = started + self.retry.total_deadline_s
        attempts = 0
        retries = 0
        key = (self.base_url, self.model)
        formats = list(self.formats)
        if key in _WORKING_FORMAT and _WORKING_FORMAT[key] in formats:
            formats = formats[formats.index(_WORKING_FORMAT[key]) :]
        while True:
            fmt = formats[0]
            body = self._body(wire_messages, fmt)
            self._limiter.wait()
            attempts += 1
            log.info(
                "planner.request",
                planner=self.name,
                url=where,
                model=self.model,
                messages=len(wire_messages),
                prompt_chars=sum(len(m["content"]) for m in wire_messages),
                response_format=fmt,
                attempt=attempts,
            )
            sent = time.monotonic()
            try:
                response = self._send(body, where)
            except _Retryable as problem:
                retries += 1
                if not self._may_retry(retries, deadline, None):
                    raise self._fail(f"{problem.message}{self._after(attempts)}") from None
                self._backoff(retries, None, problem.message)
                continue
            if response.is_success:
                reply = self._parse(response, where, time.monotonic() - sent)
                _WORKING_FORMAT[key] = fmt
                return reply.model_copy(update={"response_format": fmt, "attempts": attempts})
            data = _json_or_none(response)
            failure = classify(response.status_code, data, response.text)
            message = self._status_message(response, where, failure)
            if failure.kind == "step_down" and len(formats) > 1:
                log.warning("planner.format_rejected", planner=self.name, response_format=fmt, error=message)
                formats = formats[1:]
                continue
            if failure.kind == "retry":
                retries += 1
                retry_after = parse_retry_after(response.headers.get("retry-after"))
                if self._may_retry(retries, deadline, retry_after):
                    self._backoff(retries, retry_after, message)
                    continue
                raise self._fail(f"{message}{self._after(attempts)}")
            if failure.kind == "context":
                raise self._fail(message, ContextTooLongError)
            if failure.kind == "filtered":
                raise self._fail(message, ContentFilteredError)
            raise self._fail(message)

    def close(self) -> None:
        """Release the HTTP connection pool."""
        self._client.close()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

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

    def _body(self, wire_messages: list[dict[str, Any]], fmt: ResponseFormat) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": wire_messages,
            "temperature": self.temperature,
            # Explicit: some compatible servers and proxies stream unless told otherwise.
            "stream": False,
        }
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if fmt == "json_schema":
            from glmagent.strict_schema import strict_planner_schema

            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "planner_output", "strict": True, "schema": strict_planner_schema()},
            }
        elif fmt == "json_object":
            body["response_format"] = {"type": "json_object"}
        if self.thinking is not None:
            body["thinking"] = {"type": "enabled" if self.thinking else "disabled"}
        return body

    def _send(self, body: dict[str, Any], where: str) -> httpx.Response:
        """POST with an overall deadline: a worker thread does the request, this thread waits at most
        `timeout` seconds (a server trickling a byte at a time cannot hold the task), and Ctrl-C while
        waiting stops at once."""
        import concurrent.futures

        import httpx

        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="planner")
        client = self._client
        future = self._pool.submit(client.post, self.url, json=body)
        try:
            return future.result(timeout=self.timeout)
        except concurrent.futures.TimeoutError:
            # Abandon the request: close its client (the worker gives up with an error nobody reads) and
            # start a fresh one, with a fresh worker, for the next attempt.
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            client.close()
            self._client = self._new_client()
            raise _Retryable(
                f"no reply from {where} within {self.timeout:g}s (overall deadline); the provider may be "
                "overloaded, or the model too slow for this timeout (--request-timeout)"
            ) from None
        except httpx.ConnectTimeout:
            connect_s = min(self.timeout, _CONNECT_TIMEOUT_S)
            raise _Retryable(self._unreachable_text(where, f"no answer within {connect_s:g}s")) from None
        except httpx.TimeoutException as exc:
            raise _Retryable(
                f"no reply from {where} within {self.timeout:g}s ({type(exc).__name__}); the provider may be "
                "overloaded, or the model too slow for this timeout (--request-timeout)"
            ) from None
        except httpx.ConnectError as exc:
            raise _Retryable(
                self._unreachable_text(where, self._scrub(str(exc)) or type(exc).__name__)
            ) from None
        except httpx.HTTPError as exc:
            raise _Retryable(
                f"request to {where} failed: {type(exc).__name__}: {self._scrub(str(exc))}"
            ) from None

    def _may_retry(self, retries: int, deadline: float, retry_after: float | None) -> bool:
        if retries > self.retry.max_retries:
            return False
        wait = self.retry.delay(retries, retry_after) if retry_after is not None else 0.0
        return time.monotonic() + wait < deadline

    def _backoff(self, retries: int, retry_after: float | None, why: str) -> None:
        delay = self.retry.delay(retries, retry_after)
        log.warning("planner.retry", planner=self.name, retry=retries, wait_s=round(delay, 2), error=why)
        self._sleep(delay)

    @staticmethod
    def _after(attempts: int) -> str:
        return f" (gave up after {attempts} attempts)" if attempts > 1 else ""

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
        return PlannerReply(
            text=content,
            usage=usage,
            model=model,
            latency_s=latency,
            finish_reason=finish_reason if isinstance(finish_reason, str) else None,
            cost_usd=cost_usd(usage, self.price),
        )

    def _status_message(self, response: httpx.Response, where: str, failure: Failure) -> str:
        status = response.status_code
        detail = self._scrub(failure.detail)
        if len(detail) > _EXCERPT_CHARS:
            detail = self._excerpt(detail)
        reason = f" {response.reason_phrase}" if response.reason_phrase else ""
        hint = failure.hint
        if 300 <= status < 400:
            hint = f"redirected to {redact_url(response.headers.get('location', '?'))}; check the base URL"
        message = f"HTTP {status}{reason} from {where}: {detail}"
        return f"{message} ({hint})" if hint else message

    @staticmethod
    def _unreachable_text(where: str, reason: str) -> str:
        return (
            f"cannot connect to {where}: the server is unreachable ({reason}); "
            "check the base URL, your network, and that the server is running"
        )

    def _fail(self, message: str, kind: type[PlannerError] = PlannerError) -> PlannerError:
        error = kind(f"{self.name}: {self._scrub(message)}")
        # Info, not warning: the error reaches the user once, as the task's result (or the CLI's message).
        log.info("planner.error", planner=self.name, error=str(error))
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

    def count(block: object, key: str) -> int:
        value = block.get(key) if isinstance(block, dict) else None
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0

    prompt, completion = count(raw, "prompt_tokens"), count(raw, "completion_tokens")
    total = count(raw, "total_tokens")
    # OpenAI-style details; some servers put the counts at the top level instead.
    reasoning = count(raw.get("completion_tokens_details"), "reasoning_tokens") or count(
        raw, "reasoning_tokens"
    )
    cached = count(raw.get("prompt_tokens_details"), "cached_tokens") or count(raw, "cached_tokens")
    return TokenUsage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=total or prompt + completion,
        reasoning_tokens=min(reasoning, completion) if completion else reasoning,
        cached_tokens=min(cached, prompt) if prompt else cached,
    )


class _Retryable(Exception):
    """A transport-level failure worth another attempt (the message is already scrubbed)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _json_or_none(response: httpx.Response) -> Any:
    try:
        return response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None


def endpoint_url(base_url: str, path: str) -> str:
    """`base_url` + `/path`, keeping a query (`...?api-version=...`, as Azure uses) after the new path."""
    parts = urlsplit(base_url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + "/" + path, parts.query, ""))
