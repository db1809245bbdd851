"""The useful tail of a command's output: its last lines, where errors and test summaries are."""

from __future__ import annotations

_SECTION_MARKERS = ("--- stdout ---", "--- stderr ---", "--- stdout: (empty) ---")


def useful_tail(output: str, lines: int) -> tuple[list[str], int]:
    """The last `lines` non-blank lines of a `run` observation's output, and how many came before them.

    The observation's own header (`$ command`, `[exit 1]`) and section markers are left out: the action line
    already says what ran and how it ended.
    """
    body = output.splitlines()
    if body and body[0].startswith("$ "):
        body = body[1:]
    if body and body[0].startswith("[") and body[0].endswith("]"):
        body = body[1:]
    kept = [line for line in body if line.strip() and line.strip() not in _SECTION_MARKERS]
    if lines <= 0:
        return [], len(kept)
    return kept[-lines:], max(len(kept) - lines, 0)
