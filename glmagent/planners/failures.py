"""What a provider's error means for the agent: retry, stop, shrink the prompt, step down, adjust or skip.

Decided from the error body as well as the status: GLM sends string codes (`{"error": {"code": "1302"}}`),
and one HTTP 429 covers both a rate limit (retry) and an empty balance (stop at once).

==========  ===============================================================  ===============================
kind        when                                                             the agent
==========  ===============================================================  ===============================
retry       GLM 1302/1303/1305/1312, HTTP 408/409/425, other 429s, 5xx,      backs off (Retry-After
            connection errors, timeouts, a body that is not JSON             honoured) and tries again
stop        auth (GLM 1000-1004, HTTP 401/403), empty balance (GLM 1113,     ends the task, exit 3, with
            OpenAI `insufficient_quota`), account/plan (1110-1121, 1304,     the provider's message and
            1308-1311, 1313), unknown model (1211, HTTP 404), other 4xx      a hint
context     GLM 1261, `exceed_context_size_error`, context-length 400s       shrinks the prompt, once
filtered    GLM 1301 (content filter)                                        fails the iteration
step_down   HTTP 400/422 about `response_format` / JSON schema               next structured-output form
adjust      HTTP 400 naming a parameter this model does not take             drops or renames it, once
            (`max_tokens` → `max_completion_tokens`, `temperature`,
            `stream_options`, `stream`)
==========  ===============================================================  ===============================
"""

from __future__ import annotations

import re
from typing import Any, Literal, NamedTuple

FailureKind = Literal["retry", "stop", "context", "filtered", "step_down", "adjust"]

_RATE_LIMIT_CODES = frozenset({"1302", "1303", "1305", "1312"})
_AUTH_CODES = frozenset({"1000", "1001", "1002", "1003", "1004"})
_ACCOUNT_CODES = frozenset(
    {str(c) for c in range(1110, 1122)} | {"1304", "1308", "1309", "1310", "1311", "1313"}
)
_EMPTY_BALANCE_CODES = frozenset({"1113", "insufficient_quota"})
_CONTEXT_TEXT = re.compile(
    r"exceed_context_size|context[_ ]length|context (window|size)|maximum context|too many tokens"
    r"|prompt is too long|input is too long|reduce the length|tokens? exceed",
    re.IGNORECASE,
)
_FORMAT_TEXT = re.compile(
    r"response_format|json_schema|json schema|\bschema\b|grammar|structured output", re.I
)
_MAX_TOKENS_TEXT = re.compile(r"max_completion_tokens", re.I)
_STREAM_OPTIONS_TEXT = re.compile(r"stream_options|include_usage", re.I)
_STREAM_TEXT = re.compile(
    r"\bstream(ing)?\b.{0,80}(unsupported|not supported|not allowed|invalid)", re.I | re.S
)
_PENALTY_TEXT = re.compile(r"frequency_penalty|frequency penalty", re.I)
_TEMPERATURE_TEXT = re.compile(
    r"temperature.{0,80}(unsupported|not supported|does not support|only the default)", re.I | re.S
)

#: Hints, one per situation, so that the same cause reads the same way whatever the status said.
HINT_AUTH = "the API key was rejected; check your key and that it fits this base URL"
HINT_BALANCE = "your account balance or quota is empty; top it up and run again"
HINT_ACCOUNT = "your account or plan does not allow this request now; see the provider's message"
HINT_MODEL = "check the model name and the base URL"
HINT_CONTEXT = (
    "the prompt is longer than the model's context window; use a model with a larger context, or a shorter "
    "task and fewer files"
)
HINT_FILTERED = "the provider's content filter blocked this request"
HINT_SERVER = "the provider had an internal error; try again later"
HINT_BUSY = "rate limited or busy; wait, or check your plan and balance"
HINT_FORMAT = "the server does not support this structured-output format"
HINT_OTHER = "the provider rejected the request; see its message"


class Failure(NamedTuple):
    """A classified provider error."""

    kind: FailureKind
    detail: str
    """The provider's own message (or an excerpt of the body)."""
    hint: str
    """What the user can do."""
    param: str | None = None
    """For `adjust`: the parameter to change (`max_tokens`, `temperature`, `stream_options`, `stream`,
    `frequency_penalty`)."""


def error_fields(data: Any) -> tuple[str | None, str | None, str | None]:
    """The `code`, `type` and human `message` of the error shapes providers use (OpenAI, GLM, llama.cpp,
    Ollama, FastAPI); each None when absent."""
    if not isinstance(data, dict):
        return None, None, None
    error = data.get("error")
    if isinstance(error, dict):
        code, kind, message = error.get("code"), error.get("type"), error.get("message")
        return (
            None if code in (None, "") else str(code),
            kind if isinstance(kind, str) and kind else None,
            message if isinstance(message, str) and message else None,
        )
    if isinstance(error, str) and error:
        return None, None, error
    for key in ("message", "detail", "msg"):
        value = data.get(key)
        if isinstance(value, str) and value:
            return None, None, value
    return None, None, None


def classify(status: int, data: Any, text: str) -> Failure:
    """Classify an unsuccessful reply: `data` is the decoded JSON body (or None), `text` the raw body.

    `status` may be 2xx for a provider that reports an error inside an HTTP 200."""
    code, kind, message = error_fields(data)
    if status < 400 and code and code.isdigit() and 400 <= int(code) <= 599:
        status = int(code)  # an error inside an HTTP 200 that names its own status (llama.cpp's shape)
    detail = message or " ".join(text.split())[:300] or "(empty body)"
    if message and (code or kind):
        detail = f"{message} ({'code ' + code if code else kind})"
    said = f"{code or ''} {kind or ''} {message or text}"
    if code in _EMPTY_BALANCE_CODES or kind in _EMPTY_BALANCE_CODES:
        return Failure("stop", detail, HINT_BALANCE)
    if code in _AUTH_CODES or status in (401, 403):
        return Failure("stop", detail, HINT_AUTH)
    if code == "1211" or status == 404:
        return Failure("stop", detail, HINT_MODEL)
    if code in _ACCOUNT_CODES:
        return Failure("stop", detail, HINT_ACCOUNT)
    if code == "1301":
        return Failure("filtered", detail, HINT_FILTERED)
    if code == "1261" or (status in (400, 413, 422) and _CONTEXT_TEXT.search(said)):
        return Failure("context", detail, HINT_CONTEXT)
    if status >= 500:
        return Failure("retry", detail, HINT_SERVER)
    if code in _RATE_LIMIT_CODES or status in (408, 409, 425, 429):
        return Failure("retry", detail, HINT_BUSY)
    if status in (400, 422) and _MAX_TOKENS_TEXT.search(said):
        return Failure("adjust", detail, HINT_OTHER, param="max_tokens")
    if status in (400, 422) and _TEMPERATURE_TEXT.search(said):
        return Failure("adjust", detail, HINT_OTHER, param="temperature")
    if status in (400, 422) and _PENALTY_TEXT.search(said):
        return Failure("adjust", detail, HINT_OTHER, param="frequency_penalty")
    if status in (400, 422) and _STREAM_OPTIONS_TEXT.search(said):
        return Failure("adjust", detail, HINT_OTHER, param="stream_options")
    if status in (400, 422) and _STREAM_TEXT.search(said):
        return Failure("adjust", detail, HINT_OTHER, param="stream")
    if status in (400, 422) and _FORMAT_TEXT.search(said):
        return Failure("step_down", detail, HINT_FORMAT)
    return Failure("stop", detail, HINT_OTHER)
