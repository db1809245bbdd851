"""Bounds on what one planner reply can make glmagent do: how many actions run, how much a file read or a
diff may weigh, and how much observation text one iteration produces.

Without them one reply of 10,000 actions ran every one, a `read_file` of a 300 MB file read it whole, and a
40 MB diff took half a gigabyte. Each bound refuses what is over it with a message that tells the model what
to send instead; all are settings (`glmagent.config.Settings`), documented in the README.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from glmagent.observation import Observation

#: Actions run from one reply; the rest are refused and the model is told.
MAX_ACTIONS = 20
#: Bytes `read_file` reads from one file at most; a longer file is read in parts with `lines`.
READ_MAX_BYTES = 1_000_000
#: Bytes of one diff `apply_diff` accepts.
DIFF_MAX_BYTES = 1_000_000
#: Bytes of a file `apply_diff` edits at most (it is read whole to apply the diff).
EDIT_MAX_BYTES = 10_000_000
#: Characters of observation output one iteration keeps in all.
OBSERVATION_MAX_CHARS = 400_000
#: Characters every observation keeps however little of the budget is left (its first lines say what
#: happened).
_FLOOR = 600


class Limits(BaseModel):
    """The bounds one run works within."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_actions: int = Field(default=MAX_ACTIONS, ge=1)
    read_max_bytes: int = Field(default=READ_MAX_BYTES, ge=1_000)
    diff_max_bytes: int = Field(default=DIFF_MAX_BYTES, ge=1_000)
    edit_max_bytes: int = Field(default=EDIT_MAX_BYTES, ge=1_000)
    observation_max_chars: int = Field(default=OBSERVATION_MAX_CHARS, ge=10_000)


class ObservationBudget:
    """Cuts observation output once one iteration's observations together pass the budget."""

    def __init__(self, total: int = OBSERVATION_MAX_CHARS) -> None:
        self.left = total

    def fit(self, observation: Observation) -> Observation:
        """`observation`, its output cut to what is left of the budget (never below a short floor)."""
        room = max(self.left, _FLOOR)
        output = observation.output
        if len(output) > room:
            note = (
                f"\n[... {len(output) - room:,} characters cut: this reply's observations reached the "
                "iteration's limit; ask for less at a time (a line range, a narrower command) ...]"
            )
            output = output[: max(0, room - len(note))] + note
            observation = observation.model_copy(update={"output": output})
        self.left -= len(output)
        return observation


def refused_actions(count: int, limit: int, first_tool: str) -> Observation:
    """The one observation standing for the actions of a reply beyond `limit`."""
    return Observation(
        tool=first_tool,
        status="rejected",
        summary=f"Refused {count:,} action(s) beyond the limit of {limit} per reply",
        output=(
            f"REFUSED: a reply may carry at most {limit} actions; the first {limit} were handled and the "
            f"other {count:,} were NOT run. Send the ones still needed in your next reply."
        ),
    )
