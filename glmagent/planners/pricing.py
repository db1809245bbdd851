"""Prices per million tokens, turning a reply's usage into money. An unknown price is `None`, never an error.

Configured in `config.toml` (the user's own, or a project's) as a table per model:

    [prices."glm-5"]
    input = 1.00          # USD per million prompt tokens
    output = 3.20         # USD per million completion tokens (reasoning tokens included)
    cached_input = 0.20   # optional: USD per million prompt tokens served from the provider's cache
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field

from glmagent.planners.base import TokenUsage


class Price(BaseModel):
    """USD per million tokens for one model."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached_input: float | None = Field(default=None, ge=0)


def price_for(prices: Mapping[str, Price], model: str | None) -> Price | None:
    """The price of `model`: exact name first, then without a `provider/` prefix, case-insensitively."""
    if not model or not prices:
        return None
    folded = {name.casefold(): price for name, price in prices.items()}
    for candidate in (model, model.rsplit("/", 1)[-1]):
        found = prices.get(candidate) or folded.get(candidate.casefold())
        if found is not None:
            return found
    return None


def cost_usd(usage: TokenUsage | None, price: Price | None) -> float | None:
    """What `usage` cost at `price`, rounded to a millionth of a dollar; None when either is unknown."""
    if usage is None or price is None:
        return None
    cached = min(usage.cached_tokens, usage.prompt_tokens)
    cached_rate = price.cached_input if price.cached_input is not None else price.input
    total = (usage.prompt_tokens - cached) * price.input + cached * cached_rate
    total += usage.completion_tokens * price.output
    return round(total / 1_000_000, 6)
