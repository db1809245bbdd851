"""A planner that answers from a fixed script: a list in tests, a replay file on the command line.

It is a real `Planner`, not a mock: the loop cannot tell it from a model, which is what makes offline demos
and end-to-end tests honest.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from glmagent._log import get_logger
from glmagent.errors import ConfigError
from glmagent.planners.base import NO_REPLY_LEFT, ChatMessage, PlannerReply

log = get_logger(__name__)

EXHAUSTED_REPLY = '{"thought": "No scripted replies left.", "plan": [], "actions": []}'
"""Returned once the script is used up: a valid plan with no actions, so the loop stops cleanly."""


class ScriptedPlanner:
    """Replays prepared replies in order and records every request it receives.

    Mapping replies are serialised with `json.dumps`; string replies are returned verbatim, so a test or a
    replay file can feed the loop malformed output (prose, code fences, broken JSON) exactly as a model would.
    """

    def __init__(self, replies: Iterable[str | Mapping[str, Any]], *, name: str = "replay") -> None:
        self.name = name
        self._replies: list[str] = [_reply_text(reply, index) for index, reply in enumerate(replies)]
        self._next = 0
        self.requests: list[list[ChatMessage]] = []
        """Every conversation received, copied so later mutation by the caller cannot rewrite history."""

    @classmethod
    def from_replay_file(cls, path: Path) -> ScriptedPlanner:
        """Load a replay file: JSON Lines, one reply per line, each a JSON object or a JSON string.

        A JSON string holds the raw text the model sent, so malformed replies can be replayed. Blank lines
        are ignored. Anything else raises `ConfigError` naming the file and line number.
        """
        path = Path(path)
        try:
            content = path.read_text(encoding="utf-8-sig")  # -sig: tolerate a BOM from Windows editors
        except FileNotFoundError:
            raise ConfigError(f"replay file not found: {path}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"cannot read replay file {path}: {exc}") from None

        replies: list[str | Mapping[str, Any]] = []
        # split("\n"), not splitlines(): JSON strings may legally hold U+2028 and other characters that
        # splitlines() treats as line breaks. A trailing "\r" is JSON whitespace, so CRLF files parse too.
        for number, line in enumerate(content.split("\n"), start=1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ConfigError(
                    f"{path}:{number}:{exc.colno}: not valid JSON ({exc.msg}); each line of a replay file "
                    "must be a JSON object (the reply) or a JSON string (the raw reply text)"
                ) from None
            except RecursionError:
                raise ConfigError(
                    f"{path}:{number}: the JSON is nested too deeply to be a reply; to replay such a reply, "
                    "store the raw text as a JSON string"
                ) from None
            if not isinstance(value, dict | str):
                raise ConfigError(
                    f"{path}:{number}: expected a JSON object or a JSON string, got {type(value).__name__}"
                )
            replies.append(value)
        log.debug("replay.loaded", path=str(path), replies=len(replies))
        return cls(replies)

    @property
    def remaining(self) -> int:
        """How many scripted replies have not been used yet."""
        return len(self._replies) - self._next

    def plan(self, messages: Sequence[ChatMessage]) -> PlannerReply:
        """Record the request and return the next scripted reply (or the no-actions reply once exhausted)."""
        started = time.perf_counter()
        self.requests.append([ChatMessage.model_validate(m).model_copy() for m in messages])
        if self._next < len(self._replies):
            text = self._replies[self._next]
            self._next += 1
        else:
            log.info("replay.exhausted", planner=self.name, requests=len(self.requests))
            return PlannerReply(
                text=EXHAUSTED_REPLY,
                model=self.name,
                latency_s=time.perf_counter() - started,
                finish_reason=NO_REPLY_LEFT,
            )
        return PlannerReply(text=text, model=self.name, latency_s=time.perf_counter() - started)

    def __repr__(self) -> str:
        return f"ScriptedPlanner(name={self.name!r}, replies={len(self._replies)}, used={self._next})"


def _reply_text(reply: str | Mapping[str, Any], index: int) -> str:
    if isinstance(reply, str):
        return reply
    if isinstance(reply, Mapping):
        return json.dumps(dict(reply))
    raise TypeError(f"scripted reply {index} must be a str or a mapping, not {type(reply).__name__}")
