"""A planner for any server speaking the OpenAI Chat Completions API: GLM (Z.ai / ZhipuAI), OpenAI, Ollama,
llama.cpp, vLLM, LM Studio, OpenRouter and the like.

Each `plan()` call survives what real servers do: it retries rate limits, server errors, dropped connections,
timeouts and garbled bodies with backoff (see `glmagent.planners.failures` for the whole error map), streams
the reply so that only silence, never length, times a request out (a slow local model's reply that is
still arriving is not a dead server; a server that went silent is retried once, not handed copy after copy
of the prompt), asks for the strictest structured output the server takes and steps down when it refuses,
and fixes a parameter the model does not take (``max_tokens`` → ``max_completion_tokens``,
``temperature``, the streaming options, ``frequency_penalty``) once. A reply cut off because it kept
repeating itself makes the next request carry ``frequency_penalty`` (`RUNAWAY_FREQUENCY_PENALTY`) and, where
the server enforces the schema, bounds on its lists (`glmagent.planners.runaway`), and samples it at the
warm temperature (`STUCK_TEMPERATURE`): at temperature 0 the same prompt otherwise brings the same loop back,
character for character (the penalty weighs only on what is already written). For the same reason a reply
that sends an edit again makes the next request sample at a higher temperature (`glmagent.planners.stuck`).
What cannot be had ends as one `PlannerError` whose message says what happened, where, and what to do,
without secrets.

httpx is imported inside the functions that need it, so importing this module (and `glmagent --help`)
stays fast.

The API key never leaves this object except in the ``Authorization`` header: it is kept as a `SecretStr`,
attached by an auth callable whose repr hides it, scrubbed from every error message, and error chains from
httpx are cut (``from None``) because their frames hold the raw request headers.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from pydantic import SecretStr

from glmagent._log import get_logger
from glmagent.errors import ConfigError, ContentFilteredError, ContextTooLongError, PlannerError
from glmagent.planners.base import ChatMessage, PlannerReply, TokenUsage
from glmagent.planners.failures import HINT_AUTH, HINT_CONTEXT, Failure, classify
from glmagent.planners.pricing import Price, cost_usd
from glmagent.planners.retry import RateLimiter, RetryPolicy, parse_retry_after
from glmagent.planners.runaway import RUNAWAY, capped_schema, repeated_unit
from glmagent.planners.stuck import STUCK_TEMPERATURE, WARM_REQUESTS, EditMemory
from glmagent.strict_schema import with_edit_paths

if TYPE_CHECKING:
    import httpx

log = get_logger(__name__)

_CONNECT_TIMEOUT_S = 10.0
"""Connecting never needs long; capping it makes a wrong host or a stopped local server fail fast."""

_EXCERPT_CHARS = 300
"""How much of a provider's error body to quote: enough for its message, not a whole HTML page."""


def normalise_base_url(base_url: str) -> str:
    """Validate an http(s) base URL and return it without a trailing slash.

    A pasted full endpoint (``.../chat/completions``) is trimmed back to its base, a common slip when copying
    from provider docs; a query (``?api-version=...``) is kept, to follow the path. Raises `ConfigError` for
    anything that is not an absolute http(s) URL with a valid host and port.
    """
    text = base_url.strip()
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError for a port out of range or not a number
    except ValueError as error:
        raise ConfigError(f"invalid base URL {_shown(text)!r}: {error}") from None
    path = parts.path.rstrip("/")
    if path.endswith("/chat/completions"):
        path = path[: -len("/chat/completions")].rstrip("/")
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not host:
        raise ConfigError(
            f"invalid base URL {_shown(text)!r}: expected an absolute http(s) URL such as "
            "https://api.z.ai/api/paas/v4"
        )
    if any(ch.isspace() or ord(ch) < 0x21 for ch in text) or not _HOST.fullmatch(host):
        raise ConfigError(f"invalid base URL {_shown(text)!r}: the host or path has characters a URL cannot")
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


_HOST = re.compile(r"[\w.-]+|[0-9a-fA-F:.]+(%\w+)?")
"""A host name (letters of any script, digits, dots, hyphens) or an IP address; anything else is a typo."""


def _shown(url: str) -> str:
    """`url`, which failed validation, fit for the message saying so: without a `user:password@` part or a
    fragment, and with secret-looking query values masked (the rest, such as `api-version`, stays)."""
    shown = re.sub(r"//[^/?#]*@", "//", url.split("#", 1)[0], count=1)
    return re.sub(rf"([?&][^=&]*(?:{_SECRET_QUERY.pattern})[^=&]*=)[^&]*", r"\1***", shown, flags=re.I)


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

DEFAULT_REQUEST_TIMEOUT_S = 600.0
"""Seconds a request may stay silent: until the first byte of the reply (a slow local model may spend
minutes reading a long prompt), and between two parts of a streamed reply. A reply that keeps arriving is
never cut by it; a reply that is not streamed must arrive whole within it."""

STREAM_CAP_S = 3600.0
"""Seconds one streamed reply may take in all, however steadily it arrives (a server that never ends)."""

SILENT_RETRIES = 1
"""Retries after a request went silent. A silent server is often a busy one still reading the prompt: each
retry hands it another copy, so one is allowed, and rate limits and server errors keep the full count."""

_POLL_S = 0.25
"""How often the waiting thread checks the silence clocks (Ctrl-C is felt at once regardless)."""

_LENGTH_KEYWORDS = re.compile(r"\b(minLength|maxLength)\b")
"""Schema keywords some strict modes refuse (OpenAI's, Azure's): dropped before leaving `json_schema`."""

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""Text UTF-8 cannot carry (e.g. undecodable bytes of a file name): sent as U+FFFD, never as a crash."""

_FILTERED_FINISH = frozenset({"content_filter", "sensitive"})
"""`finish_reason` values meaning the provider's filter stopped the reply (OpenAI, GLM)."""


def _wire(messages: list[ChatMessage], *, schema_enforced: bool) -> list[dict[str, Any]]:
    """The messages as sent: their schema text only where the request does not enforce the schema, and
    lone surrogates (which no JSON encoder sends) replaced."""
    return [
        {"role": m.role, "content": _LONE_SURROGATE.sub("\ufffd", m.text(schema_enforced))} for m in messages
    ]


class OpenAICompatiblePlanner:
    """Plans by calling ``POST {base_url}/chat/completions`` and returning ``choices[0].message.content``.

    Each `plan()` retries what is worth retrying (rate limits, server errors, dropped connections, timeouts,
    garbled bodies: see `glmagent.planners.failures`) with backoff, starting no retry after
    `retry.total_deadline_s`. Replies are streamed (`stream`): a request is given up when the server stays
    silent for `timeout` seconds, before its first byte or between two events, and retried once at most
    after that; a reply that is not streamed must arrive whole within `timeout`. Ctrl-C while waiting
    stops at once. Structured output is asked for in the strictest form the
    server takes (`formats`, stepping down on a 400/422 about it); what worked is remembered for the rest of
    the run (this planner's lifetime, which belongs to one base URL and model) and every reply says which
    form it used and which were refused. `max_tokens` is always sent. Reasoning fields
    (``reasoning_content``) are not part of the plan: ignored, but their tokens are counted when the provider
    reports them.
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
        key_env: str | None = None,
        schema: Mapping[str, Any] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        stream: bool = True,
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
        self.temperature: float | None = temperature
        self.max_tokens = max_tokens
        if formats is None:
            formats = ("json_object", "none") if json_mode else ("none",)
        if schema is None:
            formats = [f for f in formats if f != "json_schema"]  # nothing to enforce without a schema
        self.formats: tuple[ResponseFormat, ...] = tuple(formats) or ("none",)
        self.schema = schema
        """The JSON schema asked for in `json_schema` mode (glmagent passes the strict planner schema)."""
        self.retry = retry or RetryPolicy()
        self.thinking = thinking
        self.price = price
        self.key_env = key_env
        self._sleep = sleep
        # Deadlines and waits are measured on `clock`; tests hand in a clock that `sleep` advances.
        self._clock = clock
        self._limiter = RateLimiter(requests_per_minute, clock=clock, sleep=sleep)
        self.url = endpoint_url(self.base_url, "chat/completions")
        self._api_key = SecretStr(api_key) if api_key else None
        self._transport = transport
        self._client = self._new_client()
        # Learned from this server during the run: where on the ladder to start, whether the strict schema
        # may carry length bounds, and what the completion limit is called.
        self._start: ResponseFormat = self.formats[0]
        self._schema_lengths = True
        self._tokens_field = "max_tokens"
        self.stream = stream
        """Ask for a streamed reply (server-sent events): its silence, not its length, decides a timeout."""
        self._stream_usage = True
        self._after_runaway = False
        """The last reply was cut off as a runaway: the next request carries a frequency penalty."""
        self._penalty_taken = True
        """False once the server refused `frequency_penalty`: never sent to it again."""
        self._edits = EditMemory()
        self._warm_left = 0
        """Requests still to sample at `STUCK_TEMPERATURE` since a reply sent an edit again."""
        self._edit_paths: tuple[str, ...] | None = None
        """The paths `apply_diff` may name in the strict schema (`glmagent.edit_targets`); None: any."""
        self._edit_paths_taken = True
        """False once the server refused a schema listing them: the plain strict schema from then on."""

    @property
    def json_mode(self) -> bool:
        """True when some structured-output format is asked for."""
        return self.formats[0] != "none"

    @property
    def response_format(self) -> ResponseFormat:
        """The structured-output form the next request will ask for (after any step-down so far)."""
        return self._start

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

    def explore(self) -> None:
        """Sample the next requests warm, as after a repeated edit (`glmagent.fresh_start`): the loop
        starts afresh, and at the configured temperature 0 the model would write its first reply again."""
        self._warm_left = WARM_REQUESTS

    def limit_edit_paths(self, paths: Sequence[str] | None) -> None:
        """From the next request on, the strict schema lets `apply_diff` name only `paths` (None: any path);
        the other structured-output forms cannot say it, and the loop refuses what it must anyway."""
        self._edit_paths = tuple(paths) if paths else None

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        """Send the conversation and return the model's reply.

        Raises `PlannerError` when no reply could be had (after retries), `ContextTooLongError` when the
        prompt is too long for the model, `ContentFilteredError` when the provider's filter blocked it.
        """
        checked = [ChatMessage.model_validate(m) for m in messages]
        where = redact_url(self.url)
        deadline = self._clock() + self.retry.total_deadline_s
        attempts = retries = silent = 0
        refused: list[dict[str, str]] = []
        while True:
            fmt = self._start
            wire_messages = _wire(checked, schema_enforced=fmt == "json_schema" and self.schema is not None)
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
            sent = self._clock()
            try:
                # Silence before the first byte counts against the retry deadline too; a reply that is
                # arriving is never cut by it.
                first = min(self.timeout, max(0.1, deadline - sent))
                response = self._send(body, where, self.timeout, first_byte=first)
                reply = self._read(response, where, self._clock() - sent)
            except _FailedAttempt as failed:
                failure, message = failed.failure, failed.message
                if failed.silent:
                    silent += 1
                    if silent > SILENT_RETRIES:
                        raise self._fail(
                            f"{message} (it went silent {silent} times; not sent again, so that a busy "
                            "server is not handed yet another copy of the prompt)"
                        ) from None
                if failure.kind == "retry":
                    retries += 1
                    wait = self._wait_before(retries, failed.retry_after, deadline)
                    if wait is None:
                        raise self._fail(
                            message + self._gave_up(attempts, failed.retry_after, deadline)
                        ) from None
                    log.warning(
                        "planner.retry",
                        planner=self.name,
                        retry=retries,
                        wait_s=round(wait, 2),
                        error=message,
                    )
                    self._sleep(wait)
                    continue
                if failure.kind == "step_down" and self._step_down(fmt, failure.detail):
                    refused.append({"response_format": fmt, "error": message, "next": self._next_form()})
                    log.warning(
                        "planner.format_refused", planner=self.name, response_format=fmt, error=message
                    )
                    continue
                if failure.kind == "adjust" and self._adjust(failure.param):
                    log.warning("planner.parameter_adjusted", planner=self.name, param=failure.param)
                    continue
                if failure.kind == "context":
                    raise self._fail(message, ContextTooLongError) from None
                if failure.kind == "filtered":
                    raise self._fail(message, ContentFilteredError) from None
                raise self._fail(message) from None
            # A reply read to max_tokens that ends in a loop (a server that does not stream) counts too.
            self._after_runaway = reply.finish_reason == RUNAWAY or (
                reply.finish_reason == "length" and repeated_unit(reply.text) is not None
            )
            if self._edits.repeats(reply.text):
                self._warm_left = WARM_REQUESTS
            elif self._warm_left:
                self._warm_left -= 1
            if self._after_runaway:
                # The penalty only weighs on tokens already written: at temperature 0 the retry wrote the
                # same start and the same loop (2 of the 3 tasks the live bench lost to invalid replies).
                self._warm_left = max(self._warm_left, 1)
            return reply.model_copy(
                update={
                    "response_format": fmt,
                    "attempts": attempts,
                    "response_format_refused": refused,
                    "frequency_penalty": body.get("frequency_penalty"),
                    "temperature": body.get("temperature"),
                }
            )

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

    def _body(self, wire_messages: list[dict[str, Any]], fmt: ResponseFormat) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": wire_messages,
            # Explicit either way: some compatible servers and proxies stream unless told otherwise.
            "stream": self.stream,
        }
        if self.stream and self._stream_usage:
            body["stream_options"] = {"include_usage": True}
        if self.temperature is not None:
            body["temperature"] = (
                max(self.temperature, STUCK_TEMPERATURE) if self._warm_left else self.temperature
            )
        if self.max_tokens is not None:
            body[self._tokens_field] = self.max_tokens
        if fmt == "json_schema" and self.schema is not None:
            schema = self.schema
            if self._edit_paths and self._edit_paths_taken:
                schema = with_edit_paths(schema, self._edit_paths)
            if not self._schema_lengths:
                schema = _without_length_keywords(schema)
            if self._after_runaway:
                schema = capped_schema(schema)
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "planner_output", "strict": True, "schema": schema},
            }
        elif fmt == "json_object":
            body["response_format"] = {"type": "json_object"}
        if self.thinking is not None:
            body["thinking"] = {"type": "enabled" if self.thinking else "disabled"}
        if self._after_runaway and self._penalty_taken:
            body["frequency_penalty"] = RUNAWAY_FREQUENCY_PENALTY
        return body

    def _step_down(self, fmt: ResponseFormat, detail: str) -> bool:
        """Move to the next structured-output form after the server refused `fmt`; False at the bottom."""
        if fmt == "json_schema" and self._schema_lengths and _LENGTH_KEYWORDS.search(detail):
            self._schema_lengths = False  # the same strict schema without string length bounds first
            return True
        if fmt == "json_schema" and self._edit_paths and self._edit_paths_taken:
            self._edit_paths_taken = False  # then without the list of paths, before leaving the schema
            return True
        ladder = self.formats[self.formats.index(fmt) :] if fmt in self.formats else (fmt,)
        if len(ladder) < 2:
            return False
        self._start = ladder[1]
        return True

    def _next_form(self) -> str:
        if self._start != "json_schema":
            return self._start
        dropped = [
            what
            for what, gone in (
                ("minLength/maxLength", not self._schema_lengths),
                ("the list of edit paths", bool(self._edit_paths) and not self._edit_paths_taken),
            )
            if gone
        ]
        return f"json_schema without {' and '.join(dropped)}" if dropped else "json_schema"

    def _adjust(self, param: str | None) -> bool:
        """Change the request the way the model asked for; False when that was done already."""
        if param == "max_tokens" and self._tokens_field == "max_tokens":
            self._tokens_field = "max_completion_tokens"
            return True
        if param == "temperature" and self.temperature is not None:
            self.temperature = None  # the model's default: the only value reasoning models take
            return True
        if param == "stream_options" and self.stream and self._stream_usage:
            self._stream_usage = False
            return True
        if param == "stream" and self.stream:
            self.stream = False
            return True
        if param == "frequency_penalty" and self._penalty_taken:
            self._penalty_taken = False
            return True
        return False

    def _send(
        self, body: dict[str, Any], where: str, timeout: float, *, first_byte: float | None = None
    ) -> httpx.Response:
        """POST and wait for the reply on a daemon thread, so that Ctrl-C while waiting stops at once (the
        abandoned request cannot hold the process's exit either).

        A streamed reply (server-sent events) is given up only when it falls silent for `timeout` seconds,
        before its first event or between two (or after `STREAM_CAP_S` in all), and is returned assembled
        as the JSON body a plain reply would have had. A plain reply must arrive whole within `timeout`
        seconds, so that a server trickling a byte at a time cannot hold the task."""
        import httpx

        client = self._client
        outcome: dict[str, Any] = {}
        heard = [time.monotonic()]  # when the stream last said something; the worker moves it on
        finished = threading.Event()

        def request() -> None:
            try:
                with client.stream("POST", self.url, json=body) as response:
                    kind = response.headers.get("content-type", "")
                    if response.is_success and "text/event-stream" in kind:
                        outcome["streaming"] = True
                        heard[0] = time.monotonic()
                        outcome["response"] = _assemble_stream(response, heard)
                    else:
                        response.read()
                        outcome["response"] = response
            except BaseException as exc:  # handed to the waiting thread, which raises or maps it
                outcome["error"] = exc
            finally:
                finished.set()

        threading.Thread(target=request, name="glmagent-planner-request", daemon=True).start()
        started = time.monotonic()
        try:
            while not finished.wait(min(_POLL_S, timeout)):
                now = time.monotonic()
                if outcome.get("streaming"):
                    if now - heard[0] > timeout:
                        self._abandon(client)
                        raise _FailedAttempt.went_silent(
                            f"the streamed reply from {where} stopped arriving: nothing for {timeout:g}s "
                            "(--request-timeout); the server may be stuck or overloaded"
                        )
                    if now - started > STREAM_CAP_S:
                        self._abandon(client)
                        raise _FailedAttempt.stop(
                            f"the streamed reply from {where} was still arriving after {STREAM_CAP_S:g}s; "
                            "lower --max-tokens"
                        )
                elif now - started > (limit := timeout if first_byte is None else first_byte):
                    self._abandon(client)
                    raise _FailedAttempt.went_silent(
                        f"no reply from {where} within {limit:g}s (--request-timeout: the longest a "
                        "request may stay silent, or a reply that is not streamed may take); the provider "
                        "may be overloaded, or the model too slow for this timeout"
                    )
        except BaseException:
            if not finished.is_set():
                self._abandon(client)
            raise
        error = outcome.get("error")
        if error is None:
            response: httpx.Response = outcome["response"]
            return response
        if isinstance(error, _StreamBroken):
            raise _FailedAttempt.retry(
                f"the streamed reply from {where} broke off: {self._scrub(str(error))}"
            )
        if isinstance(error, httpx.ConnectTimeout):
            connect_s = min(self.timeout, _CONNECT_TIMEOUT_S)
            raise _FailedAttempt.retry(self._unreachable_text(where, f"no answer within {connect_s:g}s"))
        if isinstance(error, httpx.TimeoutException) and outcome.get("streaming"):
            raise _FailedAttempt.went_silent(
                f"the streamed reply from {where} stopped arriving: nothing for {timeout:g}s "
                "(--request-timeout); the server may be stuck or overloaded"
            )
        if isinstance(error, httpx.TimeoutException):
            raise _FailedAttempt.went_silent(
                f"no reply from {where} within {self.timeout:g}s ({type(error).__name__}); the provider may "
                "be overloaded, or the model too slow for this timeout (--request-timeout)"
            )
        if isinstance(error, httpx.ConnectError):
            reason = self._scrub(str(error)) or type(error).__name__
            raise _FailedAttempt.retry(self._unreachable_text(where, reason))
        if isinstance(error, httpx.HTTPError):
            raise _FailedAttempt.retry(
                f"request to {where} failed: {type(error).__name__}: {self._scrub(str(error))}"
            )
        if isinstance(error, (httpx.InvalidURL, httpx.UnsupportedProtocol)):
            reason = self._scrub(str(error))
            raise _FailedAttempt.stop(f"cannot send to {where}: {reason}; check the base URL")
        raise error

    def _abandon(self, client: httpx.Client) -> None:
        """Give up on the request in flight: close its client (the worker then fails with an error nobody
        reads) and start a fresh one for the next attempt."""
        self._client = self._new_client()
        with contextlib.suppress(Exception):  # closing a pool mid-request may complain; it is dropped anyway
            client.close()

    def _wait_before(self, retries: int, retry_after: float | None, deadline: float) -> float | None:
        """Seconds to wait before retry number `retries`, or None when no retry is left or it would end
        past the deadline."""
        if retries > self.retry.max_retries:
            return None
        wait = self.retry.delay(retries, retry_after)
        return wait if self._clock() + wait < deadline else None

    def _gave_up(self, attempts: int, retry_after: float | None, deadline: float) -> str:
        left = deadline - self._clock()
        if retry_after is not None and retry_after >= left:
            return (
                f" (the provider asked to wait {retry_after:g}s, past the {self.retry.total_deadline_s:g}s "
                "retry deadline; try again later)"
            )
        return f" (gave up after {attempts} attempts)" if attempts > 1 else ""

    def _read(self, response: httpx.Response, where: str, latency: float) -> PlannerReply:
        """The reply in `response`, or `_FailedAttempt` saying what went wrong and what that means."""
        retry_after = parse_retry_after(response.headers.get("retry-after"))
        if not response.is_success:
            data = _json_or_none(response)
            failure = classify(response.status_code, data, response.text)
            message = self._status_message(response, where, failure, retry_after)
            raise _FailedAttempt(failure, message, retry_after)
        try:
            data = response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            content_type = response.headers.get("content-type", "unknown")
            raise _FailedAttempt.retry(
                f"{where} answered HTTP {response.status_code} with a body that is not JSON "
                f"(content-type {content_type}): {self._excerpt(response.text)!r}; is the base URL an "
                "OpenAI-compatible API (usually ending in /v1 or /v4)?"
            ) from None
        if not isinstance(data, dict):
            raise _FailedAttempt.stop(
                f"{where} answered with JSON that is not an object: {self._excerpt(response.text)!r}; is "
                "the base URL an OpenAI-compatible API?"
            )

        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            if data.get("error") is not None:
                # Some providers report errors with HTTP 200 and an `error` member instead of choices.
                failure = classify(response.status_code, data, response.text)
                message = f"reply from {where} has no choices: {self._scrub(failure.detail)} ({failure.hint})"
                raise _FailedAttempt(failure, message, retry_after)
            raise _FailedAttempt.stop(
                f"reply from {where} has no choices; body: {self._excerpt(response.text)!r}"
            )
        choice = choices[0]
        message = choice.get("message")
        finish_reason = choice.get("finish_reason")
        finish = finish_reason if isinstance(finish_reason, str) else None
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            # Content given as parts ([{"type": "text", "text": ...}]): still the message content.
            texts = [p.get("text") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
            content = "".join(texts) if texts else None
        if finish in _FILTERED_FINISH:
            raise _FailedAttempt(
                Failure("filtered", finish, "the provider's content filter blocked this reply"),
                f"{where} stopped the reply: finish_reason={finish!r} (the provider's content filter)",
            )
        if finish == "model_context_window_exceeded":
            raise _FailedAttempt(
                Failure("context", finish, HINT_CONTEXT),
                f"{where} stopped the reply: finish_reason={finish!r} ({HINT_CONTEXT})",
            )
        if finish == "network_error":
            raise _FailedAttempt.retry(f"{where} stopped the reply: finish_reason={finish!r}")
        if not isinstance(content, str):
            if finish == "length":
                content = ""  # all the budget went to reasoning: the loop tells the model it was cut off
            else:
                extra = ""
                if isinstance(message, dict) and message.get("tool_calls"):
                    extra = " (it sent tool_calls instead of text)"
                elif isinstance(message, dict) and message.get("reasoning_content"):
                    extra = " (only reasoning_content; the answer may have been cut off)"
                raise _FailedAttempt.stop(
                    f"reply from {where} has no message content{extra}; finish_reason={finish_reason!r}"
                )
        if finish in ("length", RUNAWAY):
            log.warning("planner.truncated", planner=self.name, finish_reason=finish)

        usage = _usage(data.get("usage"))
        model = data.get("model") if isinstance(data.get("model"), str) else self.model
        log.info(
            "planner.reply",
            planner=self.name,
            status=response.status_code,
            model=model,
            latency_s=round(latency, 3),
            reply_chars=len(content),
            finish_reason=finish,
            **(usage.model_dump() if usage else {}),
        )
        return PlannerReply(
            text=content,
            usage=usage,
            model=model,
            latency_s=latency,
            finish_reason=finish,
            cost_usd=cost_usd(usage, self.price),
        )

    def _status_message(
        self, response: httpx.Response, where: str, failure: Failure, retry_after: float | None
    ) -> str:
        status = response.status_code
        detail = self._scrub(failure.detail)
        if len(detail) > _EXCERPT_CHARS:
            detail = self._excerpt(detail)
        reason = f" {response.reason_phrase}" if response.reason_phrase else ""
        hint = failure.hint
        if 300 <= status < 400:
            hint = f"redirected to {redact_url(response.headers.get('location', '?'))}; check the base URL"
        elif hint == HINT_AUTH:
            hint = (
                f"{hint} (the key came from {self.key_env})"
                if self.key_env and self._api_key
                else hint
                if self._api_key
                else "no API key was sent; name the variable holding it with --api-key-env NAME"
            )
        if failure.kind == "stop" and retry_after is not None:
            hint += f"; the provider says to try again in {retry_after:g}s"
        return f"HTTP {status}{reason} from {where}: {detail} ({hint})"

    @staticmethod
    def _unreachable_text(where: str, reason: str) -> str:
        return (
            f"cannot connect to {where}: the server is unreachable ({reason}); "
            "check the base URL, your network, and that the server is running"
        )

    def _fail(self, message: str, kind: type[PlannerError] = PlannerError) -> PlannerError:
        error = kind(f"{self.name}: {self._scrub(message)}")
        log.info("planner.error", planner=self.name, error=str(error))  # the result reports it
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


class _FailedAttempt(Exception):
    """One request that gave no reply: what the failure means, the message to show, and any Retry-After."""

    def __init__(
        self, failure: Failure, message: str, retry_after: float | None = None, *, silent: bool = False
    ) -> None:
        super().__init__(message)
        self.failure = failure
        self.message = message
        self.retry_after = retry_after
        self.silent = silent
        """The server said nothing for too long: retried at most `SILENT_RETRIES` times."""

    @classmethod
    def retry(cls, message: str) -> _FailedAttempt:
        return cls(Failure("retry", message, ""), message)

    @classmethod
    def stop(cls, message: str) -> _FailedAttempt:
        return cls(Failure("stop", message, ""), message)

    @classmethod
    def went_silent(cls, message: str) -> _FailedAttempt:
        return cls(Failure("retry", message, ""), message, silent=True)


class _StreamBroken(Exception):
    """A streamed reply ended before it was complete (no finish reason, no `[DONE]`)."""


RUNAWAY_FREQUENCY_PENALTY = 0.5
"""Sent after a runaway reply. Every sampler that takes it (OpenAI, llama.cpp, vLLM, Ollama) lowers a token by
this much for each time it was written lately, so a loop cannot hold for long. Replaying two of the live
bench's `\\n` loops of the 1.5B model on llama-server, both retries completed their reply with it (the
retry without it came back unchanged); a presence penalty of 1.0, which lowers a token once, broke one."""

_RUNAWAY_CHECK_CHARS = 256
"""How often (in characters received) a streamed reply is looked at for a runaway repetition."""


def _assemble_stream(response: httpx.Response, heard: list[float]) -> httpx.Response:
    """Read a server-sent-events reply to its end and return the JSON body a plain reply would have had:
    the content joined, the last finish reason, usage and model. Every event moves `heard[0]` on (the
    waiting thread's silence clock). An error event (sent inside an HTTP 200 once streaming began) is
    returned as such, for the usual error map; a stream that stops before it is complete raises
    `_StreamBroken`. A reply that keeps repeating itself is cut off there, with the finish reason
    `repetition` (`glmagent.planners.runaway`)."""
    import httpx

    parts: list[str] = []
    finish: object = None
    usage: object = None
    model: object = None
    saw_content = done = False
    unchecked = 0  # characters received since the last look for a runaway repetition
    for line in response.iter_lines():
        heard[0] = time.monotonic()
        if not line.startswith("data:"):
            continue  # blank separators, `event:` names and `: keep-alive` comments
        data = line[5:].strip()
        if data == "[DONE]":
            done = True
            break
        try:
            chunk = json.loads(data)
        except json.JSONDecodeError:
            raise _StreamBroken(f"an event that is not JSON: {data[:200]!r}") from None
        if not isinstance(chunk, dict):
            continue
        if chunk.get("error") is not None:
            return httpx.Response(200, json=chunk, headers={"content-type": "application/json"})
        model = chunk.get("model", model)
        if chunk.get("usage"):
            usage = chunk["usage"]
        choices = chunk.get("choices")
        if isinstance(choices, list) and choices and isinstance(choices[0], dict):
            choice = choices[0]
            delta = choice.get("delta") or choice.get("message") or {}
            content = delta.get("content") if isinstance(delta, dict) else None
            if isinstance(content, str):
                parts.append(content)
                saw_content = True
                unchecked += len(content)
                if unchecked >= _RUNAWAY_CHECK_CHARS:
                    unchecked = 0
                    if repeated_unit("".join(parts)) is not None:
                        # Leaving the stream closes the connection, which also stops the server generating.
                        finish, done = RUNAWAY, True
                        break
            if choice.get("finish_reason"):
                finish = choice["finish_reason"]
    if finish is None and not done:
        raise _StreamBroken("the connection closed before the reply was complete")
    message = {"role": "assistant", "content": "".join(parts) if saw_content else None}
    body = {"model": model, "choices": [{"index": 0, "message": message, "finish_reason": finish}]}
    if usage is not None:
        body["usage"] = usage
    return httpx.Response(200, json=body, headers={"content-type": "application/json"})


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
    reasoning = count(raw.get("completion_tokens_details"), "reasoning_tokens")
    reasoning = reasoning or count(raw, "reasoning_tokens")
    cached = count(raw.get("prompt_tokens_details"), "cached_tokens") or count(raw, "cached_tokens")
    return TokenUsage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=total or prompt + completion,
        reasoning_tokens=min(reasoning, completion) if completion else reasoning,
        cached_tokens=min(cached, prompt) if prompt else cached,
    )


def _without_length_keywords(schema: Any) -> Any:
    """`schema` without `minLength`/`maxLength` anywhere (a copy; the caller's schema is left alone)."""
    if isinstance(schema, Mapping):
        dropped = ("minLength", "maxLength")
        return {k: _without_length_keywords(v) for k, v in schema.items() if k not in dropped}
    if isinstance(schema, list):
        return [_without_length_keywords(item) for item in schema]
    return schema


def _json_or_none(response: httpx.Response) -> Any:
    try:
        return response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None


def endpoint_url(base_url: str, path: str) -> str:
    """`base_url` + `/path`, keeping a query (`...?api-version=...`, as Azure uses) after the new path."""
    parts = urlsplit(base_url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + "/" + path, parts.query, ""))
