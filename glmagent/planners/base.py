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


class TokenUsage(BaseModel):
    """Tokens a provider billed for one request (or, summed with `+`, for a whole task)."""

    model_config = ConfigDict(extra="forbid")

    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    total_tokens: int = Field(default=0, ge=0)

    def __add__(self, other: object) -> TokenUsage:
        if not isinstance(other, TokenUsage):
            return NotImplemented
        return TokenUsage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            total_tokens=self.total_tokens + other.total_tokens,
        )


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


@runtime_checkable
class Planner(Protocol):
    """Anything that can answer a conversation: a hosted model, a local one, or a scripted replay."""

    name: str
    """Short label for logs and audit records, e.g. ``"replay"`` or ``"glm:glm-4.6"``."""

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        """Return the next reply to `messages`; raise `PlannerError` if no reply could be obtained."""
        ...
