"""Recognise lazy placeholders ("// ... rest unchanged ...") that a model writes instead of real code.

Two strengths: a *strong* placeholder is a comment or ellipsis phrase that only ever means "code elided"
(`# ... existing code ...`, `// rest of the function unchanged`); a *weak* one is a bare `...`, which is
also valid code (Python's Ellipsis), so it only counts when the hunk drops real lines.
"""

from __future__ import annotations

import re

from glmagent.patching._match import normalise_punct

_COMMENT_OPEN = re.compile(r"^(?://+|#+|/\*+|\*+|<!--|--|;+|%+|'|\"\"\"|'''|\(\*|\{-|REM\b|rem\b)\s*")
_COMMENT_CLOSERS = ("-->", '"""', "'''", "*)", "-}")
_ELLIPSIS = re.compile(r"\.{3,}|…")
_LAZY_WORD = re.compile(
    r"\b(rest|remaining|remainder|existing|unchanged|same|previous|prior|other|others|omitted|elided|etc|"
    r"more|code|here|before|above|below|implementation|original|as is|everything|lines?|content|stuff)\b",
    re.IGNORECASE,
)
# Comments without an ellipsis that still only mean "elided": kept narrow, since real comments say
# "unchanged" too ("keep this value unchanged for old clients").
_LAZY_PHRASE = re.compile(
    r"^(?:the\s+)?(?:rest|remainder)\s+of\b.*"
    r"|^(?:all\s+)?(?:existing|remaining|other|previous|original|unchanged)\s+"
    r"(?:code|implementation|methods?|functions?|fields?|imports?|logic|content|lines|tests?|cases?|"
    r"properties|members|entries|items|keys|body|handlers?|routes?|config(?:uration)?|settings)"
    r"(?:\s+(?:is\s+|are\s+|remains?\s+|stays?\s+)?(?:unchanged|the same|as before|as is|omitted|here))?\.?$"
    r"|^(?:everything\s+else|rest|remainder|(?:the\s+)?code|(?:the\s+)?function|(?:the\s+)?method|"
    r"(?:the\s+)?class|(?:the\s+)?file|(?:the\s+)?body)\s+(?:is\s+|are\s+|remains?\s+|stays?\s+)?"
    r"(?:unchanged|the same|as before|as is|omitted(?: for brevity)?)\.?$"
    r"|^(?:code\s+)?omitted(?:\s+for\s+brevity)?\.?$"
    r"|^same\s+as\s+before\.?$",
    re.IGNORECASE,
)


def _comment_body(stripped: str) -> str | None:
    """The text of a one-line comment, or None when the line is not a comment."""
    opened = _COMMENT_OPEN.match(stripped)
    if not opened:
        return None
    body = stripped[opened.end() :].rstrip()
    # Written out rather than as a pattern ending in `$`: searched for, `\s*` before the closer was tried
    # from every blank of a long run, the run's length squared.
    for closer in _COMMENT_CLOSERS:
        if body.endswith(closer):
            return body[: -len(closer)].strip()
    if body.endswith("*/"):
        return body[:-1].rstrip("*").strip()
    return body.strip()


def _bracketed(stripped: str) -> str | None:
    r"""The text inside a line wrapped whole in one pair of brackets (`[ ... ]`, `<...>`), or None. (As a
    pattern, `\s*(.*?)\s*` split a long run of blanks every way: 1,000 of them took 1.6 s.)"""
    if len(stripped) >= 2 and stripped[0] in "[({<" and stripped[-1] in "])}>":
        return stripped[1:-1].strip()
    return None


def placeholder_strength(line: str) -> str | None:
    """'strong', 'weak' or None for one added or context line."""
    stripped = normalise_punct(line).strip()
    if not stripped:
        return None
    if _ELLIPSIS.fullmatch(stripped):
        return "weak"
    body = _comment_body(stripped)
    if body is not None:
        if not body or not body.strip("."):
            return "strong" if _ELLIPSIS.search(body) else None
        if _ELLIPSIS.search(body):
            rest = _ELLIPSIS.sub(" ", body).strip(" :-,;")
            if not rest or _LAZY_WORD.search(rest):
                return "strong"
            return None
        return "strong" if _LAZY_PHRASE.match(body) else None
    inside = _bracketed(stripped)
    bracketed = inside is not None
    text = inside if inside is not None else stripped
    if _ELLIPSIS.match(text) or (bracketed and _ELLIPSIS.search(text)):
        rest = _ELLIPSIS.sub(" ", text).strip(" :-,;")
        if not rest:
            return "strong" if bracketed else "weak"
        # A phrase, not code: "... existing code ..." yes; JS spread "...rest," or "...args)" no.
        phrase = bool(_ELLIPSIS.search(text[3:])) or len(rest.split()) >= 2
        if phrase and _LAZY_WORD.search(rest) and not re.search(r"[=();{}]", rest):
            return "strong"
    return None
