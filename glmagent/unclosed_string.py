"""A reply that ran away after leaving its last string open: the object it meant, read with that string
closed where the object's closing brackets begin.

The live bench's 1.5B model ended an `apply_diff`'s `content` with `return 'unknown'}]}`, the closing quote
left out, and, its string still open to the grammar, went on writing ```` ```Python ```` and `Python` until
it was stopped as a loop; its retry, warm or not, wrote the same start (http_status_branch, in every run
since run 34: the task ended on two invalid replies). Everything up to the brackets is a whole reply. Used
only for a reply that is lost otherwise (stopped as a loop or at `max_tokens`); the reading must then pass
the schema like any reply, and the edit it holds every check an edit passes.
"""

from __future__ import annotations

import json
import re
from typing import Any

_CLOSING = re.compile(r"[}\]](?:\s*[}\]])+")
"""Two or more closing brackets in a row: where an object with a list of actions ends (`}]}`)."""

MAX_TRIES = 200
"""Closing runs tried at most (each a JSON parse of the text before it)."""


def closed_string_reading(text: str) -> dict[str, Any] | None:
    """The JSON object `text` holds when a string left open is closed right before the first run of
    closing brackets after which the text parses as one object (the rest of the text, the loop, dropped);
    None when no run does."""
    start = text.find("{")
    if start == -1:
        return None
    for tried, match in enumerate(_CLOSING.finditer(text, start)):
        if tried == MAX_TRIES:
            break
        candidate = text[start : match.start()] + '"' + match.group(0)
        try:
            value = json.loads(candidate)
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(value, dict):
            return value
    return None
