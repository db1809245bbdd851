"""When to try a provider request again: exponential backoff with jitter, `Retry-After`, a retry count and a
total deadline; and an optional client-side request rate."""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

#: Defaults, documented in the README: 4 retries, waits from 1 s doubling to at most 30 s, 300 s in all.
DEFAULT_MAX_RETRIES = 4
DEFAULT_BACKOFF_S = 1.0
DEFAULT_BACKOFF_CAP_S = 30.0
DEFAULT_TOTAL_DEADLINE_S = 300.0


@dataclass
class RetryPolicy:
    """How many times, and how long, one `plan()` call may keep trying."""

    max_retries: int = DEFAULT_MAX_RETRIES
    backoff_s: float = DEFAULT_BACKOFF_S
    backoff_cap_s: float = DEFAULT_BACKOFF_CAP_S
    total_deadline_s: float = DEFAULT_TOTAL_DEADLINE_S
    jitter: Callable[[float, float], float] = field(default=random.uniform, repr=False)

    def delay(self, retry: int, retry_after: float | None) -> float:
        """Seconds to wait before retry number `retry` (1-based); the server's `Retry-After` wins."""
        if retry_after is not None:
            return max(0.0, retry_after) + self.jitter(0.0, 0.1 * max(retry_after, 0.1))
        ceiling = min(self.backoff_cap_s, self.backoff_s * 2 ** (retry - 1))
        return self.jitter(ceiling / 2, ceiling)  # "equal jitter": never zero, never in lockstep


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """`Retry-After` as seconds: a number, or an HTTP date; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class RateLimiter:
    """Spaces request starts to at most `per_minute` a minute (client side, across the whole run)."""

    def __init__(
        self,
        per_minute: float | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.interval = 60.0 / per_minute if per_minute else 0.0
        self._clock = clock
        self._sleep = sleep
        self._last: float | None = None

    def wait(self) -> None:
        if not self.interval:
            return
        now = self._clock()
        if self._last is not None and now - self._last < self.interval:
            self._sleep(self.interval - (now - self._last))
        self._last = self._clock()
