"""Spot a model that sends again an edit it has sent before, so the next request samples differently.

At temperature 0 a model shown nearly the same prompt writes nearly the same reply: the live bench's 1.5B
model sent one refused `apply_diff` up to eight times in a task, each refused again (`repeated`) however
the refusal was worded. An identical edit is never progress (it was applied already, or refused, and
nothing the model wrote changed), so after one the planner samples the next `WARM_REQUESTS` requests at
`STUCK_TEMPERATURE` instead (counted again from each repeat), then goes back to the configured temperature.
The window is several requests, not one: a model sampled warm once and cold again went straight back to
the edit it had repeated. Reads, test runs and other commands may rightly repeat; only edits count.

An edit whose every search/replace pair keeps its lines as they are is the same signal in another form: the
model has no change left to offer. In the live bench such a reply came at temperature 0 in four tasks
(progress_clamp twice), each followed by more of the same.
"""

from __future__ import annotations

import json

STUCK_TEMPERATURE = 0.7
"""Temperature of the request after a reply that repeated an earlier edit (Qwen2.5-Coder's own sampling
default; a configured temperature above it is kept)."""

WARM_REQUESTS = 3
"""Requests sampled at `STUCK_TEMPERATURE` after a reply that repeated an edit."""

_REMEMBERED = 64
"""Edits remembered (the most recent), so a planner serving many tasks does not grow without bound."""


class EditMemory:
    """The `apply_diff` actions of earlier replies, to tell whether a reply sends one of them again."""

    def __init__(self, limit: int = _REMEMBERED) -> None:
        self.limit = limit
        self._seen: dict[str, None] = {}  # insertion-ordered: the oldest is dropped first

    def repeats(self, reply_text: str) -> bool:
        """Whether `reply_text` (a planner reply, valid or not) holds an `apply_diff` action identical to
        one of an earlier reply, or one that changes no line; its edits are remembered either way."""
        actions = _edits_in(reply_text)
        edits = [json.dumps(action, sort_keys=True) for action in actions]
        repeated = any(edit in self._seen for edit in edits) or any(map(_changes_nothing, actions))
        for edit in edits:
            self._seen.pop(edit, None)
            self._seen[edit] = None
        while len(self._seen) > self.limit:
            del self._seen[next(iter(self._seen))]
        return repeated


def _changes_nothing(action: dict) -> bool:
    """Whether an `apply_diff` in the edits form gives each of its edits the same lines to search and to put
    back (trailing spaces aside)."""
    edits = action.get("edits")
    if not isinstance(edits, list) or not edits:
        return False
    for edit in edits:
        search = edit.get("search") if isinstance(edit, dict) else None
        replace = edit.get("replace") if isinstance(edit, dict) else None
        if not isinstance(search, list) or not isinstance(replace, list) or not search:
            return False
        if [str(line).rstrip() for line in search] != [str(line).rstrip() for line in replace]:
            return False
    return True


def _edits_in(reply_text: str) -> list[dict]:
    """The reply's `apply_diff` actions, or none when it is not JSON."""
    try:
        reply = json.loads(reply_text)
    except ValueError:
        return []
    actions = reply.get("actions") if isinstance(reply, dict) else None
    if not isinstance(actions, list):
        return []
    return [action for action in actions if isinstance(action, dict) and action.get("tool") == "apply_diff"]
