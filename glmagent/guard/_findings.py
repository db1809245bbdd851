"""How a finding is worded: the rule, the words it matched, and one sentence a planner can act on."""

from __future__ import annotations

from typing import NamedTuple

from ._models import Rule
from ._syntax import DYN, Arg

SHOWN_MAX = 160


def _tidy(line: str) -> bool:
    """Would `shown` leave `line` as it is (no doubled or edge spaces, printable ASCII only)? String tests
    rather than a regex search: every finding asks."""
    return line.isascii() and line.isprintable() and "  " not in line and line[:1] != " " and line[-1:] != " "


class Finding(NamedTuple):
    """A rule that matched, the words it matched (normalised), and the sentence that explains it."""

    rule: Rule
    argv: list[str]
    reason: str


def shown_args(argv: list[Arg]) -> str:
    """The words of a command as the planner wrote them, for a reason."""
    return shown(" ".join([a.raw for a in argv]))


def shown(text: str) -> str:
    """A command line shown in a reason: one line, single spaces, cut at `SHOWN_MAX` characters."""
    if "  " in text or not text.isprintable() or text[:1] == " " or text[-1:] == " ":
        text = " ".join(text.split())  # one line, single spaces: the words as the planner would type them
    return text if len(text) <= SHOWN_MAX else text[: SHOWN_MAX - 1] + "…"


def finding_words(
    rule: Rule, argv: list[Arg], names: tuple[str, ...], where: str, detail: str
) -> tuple[list[str], str]:
    """The words (normalised, the program as the rules name it) and the sentence a rule finding reports."""
    line = " ".join([a.raw for a in argv])
    if len(line) > SHOWN_MAX or not _tidy(line):
        line = shown(line)
    reason = f"`{line}`{where} {rule.description}"
    out = [a.text for a in argv]
    if DYN in "".join(out):
        out = [a.text if DYN not in a.text else a.raw for a in argv]
    out[0] = names[-1]
    return out, f"{reason} ({detail})" if detail else reason
