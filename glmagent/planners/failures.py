"""What a provider's error means for the agent: retry, stop, shrink the prompt, step down, or skip.

Decided from the error body as well as the status: GLM sends string codes (`{"error": {"code": "1302"}}`),
and one HTTP 429 covers both a rate limit (retry) and an empty balance (stop at once).

=====================  ==========================================================  =========================
kind                   when                                                        the agent
=====================  ==========================================================  =========================
retry                  GLM 1302/1303/1305/1312, HTTP 408/409/425/429/5xx,          backs off (Retry-After
                       connection errors, timeouts                                 honoured) and tries again
stop                   auth (GLM 1000-1004, HTTP 401/403), empty balance (1113),   ends the task, exit 3,
                       account/plan (1110-1121, 1304, 1308-1311, 1313), unknown    with the provider's
                       model (1211, HTTP 404), other 4xx                           message and a hint
context                GLM 1261, `exceed_context_size_error`, context-length 400s  shrinks the prompt, once
filtered               GLM 1301 (content filter)                                   fails the iteration
step_down              HTTP 400/422 about `response_format` / JSON schema          next structured format
=====================  ==========================================================  =========================
"""

from __future__ import annotations

import re
from typing import Any, Literal, NamedTuple

FailureKind = Literal["retry", "stop", "context", "filtered", "step_down"]

_RATE_LIMIT_CODES = frozenset({"1302", "1303", "1305", "1312"})
_AUTH_CODES = frozenset({"1000", "1001", "1002", "1003", "1004"})
_ACCOUNT_CODES = frozenset(
    {str(c) for c in range(1110, 1122)} | {"1304", "1308", "1309", "1310", "1311", "1313"}
)
_CONTEXT_TEXT = re.compile(
    r"exceed_context_size|context[_ ]length|context window|maximum context|too many tokens|prompt is too long"
    r"|input is too long|reduce the length|context_length_exceeded|tokens? exceed",
    re.IGNORECASE,
)
_FORMAT_TEXT = re.compile(
    r"response_format|json_schema|json schema|\bschema\b|grammar|structured output", re.I
)


class Failure(NamedTuple):
    """A classified provider error."""

    kind: FailureKind
    detail: str
    """The provider's own message (or an excerpt of the body)."""
    hint: str
    """What the user can do, for `stop` failures."""


def error_code_and_message(data: Any) -> tuple[str | None, str | None]:
    """The `code` and human `message` of the error shapes providers use (OpenAI, GLM, Ollama, FastAPI)."""
    if not isinstance(data, dict):
        return None, None
    error = data.get("error")
    if isinstance(error, dict):
        code = error.get("code", error.get("type"))
        message = error.get("message")
        return (None if code in (None, "") else str(code)), (message if isinstance(message, str) else None)
    if isinstance(error, str) and error:
        return None, error
    for key in ("message", "detail", "msg"):
        value = data.get(key)
        if isinstance(value, str) and value:
            return None, value
    return None, None


def classify(status: int, data: Any, text: str) -> Failure:
    """Classify an unsuccessful HTTP reply (`data` is the decoded JSON body, or None)."""
    code, message = error_code_and_message(data)
    detail = message or " ".join(text.split())[:300] or "(empty body)"
    if code is not None and message:
        detail = f"{message} (code {code})"
    said = f"{code or ''} {message or text}"
    if code == "1113":
        return Failure("stop", detail, "your account balance is empty; top it up and run again")
    if code in _AUTH_CODES or status in (401, 403):
        return Failure(
            "stop", detail, "the API key was rejected; check your key and that it fits this base URL"
        )
    if code == "1211" or status == 404:
        return Failure("stop", detail, "check the model name and the base URL")
    if code in _ACCOUNT_CODES:
        return Failure(
            "stop", detail, "your account or plan does not allow this request now; see the message"
        )
    if code == "1301":
        return Failure("filtered", detail, "the provider's content filter blocked this request")
    if code == "1261" or (status in (400, 413, 422) and _CONTEXT_TEXT.search(said)):
        return Failure("context", detail, "the prompt is longer than the model's context window")
    if status >= 500:
        return Failure("retry", detail, "the provider had an internal error; try again later")
    if code in _RATE_LIMIT_CODES or status in (408, 409, 425, 429):
        return Failure("retry", detail, "rate limited or busy; wait, or check your plan and balance")
    if status in (400, 422) and _FORMAT_TEXT.search(said):
        return Failure("step_down", detail, "the server does not support this structured-output format")
    return Failure("stop", detail, "the provider rejected the request; check the model name and parameters")
