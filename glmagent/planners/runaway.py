"""Spot a streamed reply that has fallen into a loop, so it can be cut off instead of read to max_tokens.

Small local models sometimes repeat one stretch of text until the token limit (the live bench saw a 1.5B
model cycle through the same run of `\\u00A1\\u00A2...` escapes for ten minutes). Such a reply is invalid
however it ends, so reading it to the end only costs the user's time.

A cut-off reply is retried, and a frequency penalty alone did not always keep the retry out of the same
loop: the bench saw a 1.5B model write the same whole action dozens of times, or a list of `"\\n"` lines
past any file's length. So the retry's schema, where the server enforces one, also bounds how many actions,
edits and plan steps a reply holds and how many items any list holds (`capped_schema`): a loop then has to
end where the list does.

The test is exact repetition: the reply's last characters are one unit written at least `MIN_COPIES`
times in a row over at least `MIN_SPAN` characters. Two copies are not enough, because a SEARCH/REPLACE
reply legitimately repeats its SEARCH lines in REPLACE. A short unit is a loop sooner: `SHORT_COPIES`
copies of it (over `MIN_SHORT_SPAN` characters at least) are already far more than any code holds; the
commonest runaway, a diff's `\\n` escape written until the token limit, is cut after 200 characters
instead of 1,500 (a minute and a half of a small local model's output).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

RUNAWAY = "repetition"
"""`PlannerReply.finish_reason` of a streamed reply cut off because it kept repeating itself."""

MIN_COPIES = 3
MIN_SPAN = 1500
"""Characters the repetition must cover: a line repeated a few dozen times is not yet a loop."""
SHORT_COPIES = 100
"""Copies of a short unit that make a loop even when they cover fewer than `MIN_SPAN` characters."""
MIN_SHORT_SPAN = 200
"""Characters a loop covers at the least (a ruler of `=` or `#` in a docstring stays below it)."""
MAX_UNIT = 1000
"""Longest repeating unit looked for, in characters."""


def span_needed(unit: int) -> int:
    """Characters that copies of a `unit`-character stretch must cover to count as a loop."""
    return max(MIN_COPIES * unit, min(MIN_SPAN, SHORT_COPIES * unit), MIN_SHORT_SPAN)


def repeated_unit(text: str) -> str | None:
    """The unit `text` ends with `MIN_COPIES` or more copies of (covering `MIN_SPAN` characters or more),
    or None (`span_needed`). The shortest such unit is returned."""
    for unit in range(1, MAX_UNIT + 1):
        span = span_needed(unit)
        if span > len(text):
            break
        if text[-1] != text[-1 - unit]:
            continue  # cheap: most periods fail on the last character
        # The last `span` characters repeat with period `unit` exactly when they equal themselves shifted.
        tail = text[-span:]
        if tail[unit:] == tail[:-unit]:
            return text[-unit:]
    return None


RUNAWAY_MAX_ACTIONS = 4
"""Actions a reply may hold in the request after a runaway (a batch of edits, a read and a run fit)."""
RUNAWAY_MAX_EDITS = 8
"""Places one `apply_diff` may change then. Eight copies of one edit stay under the span that marks a loop,
so a retry that falls into writing the same edit again (the live bench saw one do so twice, which ended
its task at the first iteration) has to close the list and finish its reply instead."""
RUNAWAY_MAX_STEPS = 12
"""Plan steps then (a plan of `"read_file — ok"` forty times was another loop)."""
RUNAWAY_MAX_ITEMS = 200
"""Items any other list may hold then: more lines than a file sent whole may have (150)."""
_CAPS = {"actions": RUNAWAY_MAX_ACTIONS, "edits": RUNAWAY_MAX_EDITS, "plan": RUNAWAY_MAX_STEPS}


def capped_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a planner schema whose `actions`, `edits` and `plan` lists hold at most
    `RUNAWAY_MAX_ACTIONS`, `RUNAWAY_MAX_EDITS` and `RUNAWAY_MAX_STEPS` items and every other list at most
    `RUNAWAY_MAX_ITEMS` (a smaller bound already there is kept)."""
    return _capped(schema, None)


def _capped(node: Any, name: str | None) -> Any:
    """`node` copied with its lists bounded; `name` is the property it is the schema of, if any."""
    if isinstance(node, list):
        return [_capped(item, name) for item in node]
    if not isinstance(node, Mapping):
        return node
    copy: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties" and isinstance(value, Mapping):
            copy[key] = {prop: _capped(sub, prop) for prop, sub in value.items()}
        else:
            copy[key] = _capped(value, name)  # `items`, `anyOf` ... describe the same property
    if copy.get("type") == "array":
        cap = _CAPS.get(name or "", RUNAWAY_MAX_ITEMS)
        copy["maxItems"] = min(cap, copy.get("maxItems", cap))
    return copy
