"""What an applied diff did: the new bytes plus an observation the next planning step can read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Action = Literal["create", "modify", "delete"]
_SUMMARY_WIDTH = 300


@dataclass(frozen=True, slots=True)
class HunkReport:
    """How one hunk of the diff was applied.

    `index` is the hunk's 1-based position in the diff; `old_start`/`new_start` are 1-based lines in the
    original and in the result; `tier` names the comparison that located it ("exact", "trailing_ws",
    "unicode", "indent", "quotes", or "create"/"delete" for whole-file diffs).
    """

    index: int
    tier: str
    old_start: int
    new_start: int
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class PatchResult:
    """The outcome of `apply_patch`: write `content` (or delete the file when `action == "delete"`)."""

    action: Action
    content: bytes | None
    added: int
    removed: int
    diff: str
    hunks: list[HunkReport]
    context: str
    path: str = ""  # the target as the caller named it, for summary()

    def summary(self) -> str:
        """One line, e.g. "Modified src/app.py (+6 -1), 2 hunks (exact, indent)"."""
        name = self.path or "the file"
        if self.action == "delete":
            return f"Deleted {name} (-{self.removed})"
        verb = "Created" if self.action == "create" else "Modified"
        line = f"{verb} {name} (+{self.added} -{self.removed})"
        if self.action == "modify":
            count = len(self.hunks)
            tiers = ", ".join(h.tier for h in self.hunks)
            line += f", {count} hunk{'s' if count != 1 else ''} ({tiers})"
        notes = [note for h in self.hunks for note in h.notes]
        if notes:
            line += f"; {len(notes)} note{'s' if len(notes) != 1 else ''}: " + "; ".join(notes)
        return line if len(line) <= _SUMMARY_WIDTH else line[: _SUMMARY_WIDTH - 3] + "..."
