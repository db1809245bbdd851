"""The planner contract: what the loop sends (chat messages) and what it gets back (a reply with usage).

A planner turns a conversation into the raw text of the model's next answer. It does not parse or validate
that text: deciding whether the text is a valid plan is the loop's job, so a malformed answer becomes an
observation the model can recover from rather than an exception.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field


class ChatMessage(BaseModel):
    """One message of the conversation sent to the planner."""

    model_config = ConfigDict(extra="forbid")

    role: Literal["system", "user", "assistant"]
    """Who speaks: the system prompt, the loop (as user), or the model's earlier answers."""
    content: str
    """The message text, sent verbatim."""
    schema_text: str = ""
    """The reply schema written out for the model, sent after `content` only when the request does not
    enforce that schema itself: a server holding the model to a strict `json_schema` response format needs
    no copy of it in the prompt (some 600 tokens of every request)."""

    def text(self, schema_enforced: bool = False) -> str:
        """What is sent as this message's content."""
        return self.content if schema_enforced or not self.schema_text else self.content + self.schema_text


class TokenUsage(BaseModel):
    """Tokens a provider billed for one request (or, summed with `+`, for a whole task)."""

    model_config = ConfigDict(extra="forbid")

    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    total_tokens: int = Field(default=0, ge=0)
    reasoning_tokens: int = Field(default=0, ge=0)
    """Of the completion tokens, those spent thinking (`reasoning_content`; billed as output)."""
    cached_tokens: int = Field(default=0, ge=0)
    """Of the prompt tokens, those served from the provider's prompt cache (often billed lower)."""

    def __add__(self, other: object) -> TokenUsage:
        if not isinstance(other, TokenUsage):
            return NotImplemented
        return TokenUsage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            total_tokens=self.total_tokens + other.total_tokens,
            reasoning_tokens=self.reasoning_tokens + other.reasoning_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
        )


NO_REPLY_LEFT = "exhausted"
"""`PlannerReply.finish_reason` of the stand-in reply a scripted planner gives once its replies are used up:
no model said it, so it cannot stand for a retried reply either."""


class PlannerReply(BaseModel):
    """The raw answer of a planner, with what it cost."""

    model_config = ConfigDict(extra="forbid")

    text: str
    """The model's message content exactly as sent (may be invalid JSON: the loop judges it)."""
    usage: TokenUsage | None = None
    """Token usage reported by the provider; None when it reported none (scripted replies, some servers)."""
    model: str | None = None
    """The model that answered, as the provider names it."""
    latency_s: float | None = None
    """Wall-clock seconds the request took."""
    finish_reason: str | None = None
    """Why the model stopped (`stop`, `length` when cut off at `max_tokens`, ...), as the provider says;
    `exhausted` (`NO_REPLY_LEFT`): a scripted planner had no reply left and answered with an empty plan."""
    response_format: str | None = None
    """The structured-output mode the server accepted: `json_schema`, `json_object` or `none`."""
    response_format_refused: list[dict[str, str]] = Field(default_factory=list)
    """Structured-output modes the server refused during this request, each with its error (a step-down)."""
    attempts: int = Field(default=1, ge=1)
    """HTTP requests this reply took (retries after rate limits, server errors and timeouts included)."""
    cost_usd: float | None = None
    """What the request cost, from the configured price table; None when the model's price is unknown."""
    frequency_penalty: float | None = None
    """The `frequency_penalty` this request carried: sent only after the previous reply was cut off because it
    kept repeating itself (a model at temperature 0 writes the same loop again otherwise); None without."""
    temperature: float | None = None
    """The temperature this request was sampled at (higher than configured after a reply that sent an edit
    again, `glmagent.planners.stuck`); None when none was sent."""


@runtime_checkable
class Planner(Protocol):
    """Anything that can answer a conversation: a hosted model, a local one, or a scripted replay."""

    name: str
    """Short label for logs and audit records, e.g. ``"replay"`` or ``"glm:glm-5"``."""

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        """Return the next reply to `messages`; raise `PlannerError` if no reply could be obtained."""
        ...
