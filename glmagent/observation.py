"""What executing one action produced, in the shape the loop, the prompt and the memory all share."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

ObservationStatus = Literal["ok", "failed", "rejected", "skipped"]

AROUND_CHANGES = "The file around each change now reads:"
"""Heads the numbered lines that end an applied edit's output: the file around each change."""


class Observation(BaseModel):
    """The outcome of one action.

    `rejected` means it was refused before anything ran (unknown tool, blocked command, path outside the
    workspace); `failed` means it ran and did not succeed (non-zero exit, diff did not apply); `skipped` means
    an earlier action in the same batch was rejected, so this one never ran.
    """

    tool: str
    status: ObservationStatus
    summary: str
    """One line for the iteration summary, e.g. `Modified src/app.py (+6 -1)`."""
    output: str = ""
    """The full text shown to the planner in the next iteration (capped by the prompt builder)."""
    details: dict[str, Any] = Field(default_factory=dict)
    """Structured facts for the audit log: exit code, policy decision, resulting diff, ..."""
    duration_s: float = 0.0

    @property
    def executed(self) -> bool:
        """True when the action actually ran (successfully or not)."""
        return self.status in ("ok", "failed")
