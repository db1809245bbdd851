"""Remember what a change the loop undid made of its file, so that the same result is not written again.

The loop undoes an iteration's edits when they left the tests worse (`AgentLoop._undo_iteration`). A
small model told so often sends the same change again in other words (its search lines indented
differently, say): in the live bench it re-made an undone change in two tasks of fourteen, three iterations
lost in all, once building further edits on top of it. Text-level repeat checks miss it; the file's content
does not. So the content an undone change produced is remembered (by digest) and an edit that produces it
again is refused with what it broke the first time.

Only an undone iteration that changed one file is remembered: with several, which file's change did the
harm is unknown, and a good half of the change must stay possible.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class UndoneChange:
    """An undone change: the iteration that made it and what it broke."""

    iteration: int
    why: str


class UndoneChanges:
    """Per file, the contents earlier undone changes produced."""

    def __init__(self) -> None:
        self._by_path: dict[str, dict[str, UndoneChange]] = {}

    def remember(self, path: str, content: bytes | None, change: UndoneChange) -> None:
        """Record that a change made `path` hold `content` (None: deleted it) and was undone."""
        self._by_path.setdefault(path, {}).setdefault(_digest(content), change)

    def watches(self, path: str) -> bool:
        """Whether some undone change of `path` is remembered (only then is its content worth reading)."""
        return path in self._by_path

    def produced(self, path: str, content: bytes | None) -> UndoneChange | None:
        """The undone change that left `path` holding exactly `content`, if any."""
        return self._by_path.get(path, {}).get(_digest(content))


def _digest(content: bytes | None) -> str:
    return "deleted" if content is None else hashlib.sha256(content).hexdigest()
