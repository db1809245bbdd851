"""Literal screens: what a regular expression needs in a text before it is worth running.

Python's `re` has no literal pre-filter for a pattern that opens with `\\b` or a group (most payload
patterns do), so a search tries every position of the text. Every match of a pattern contains certain
literal strings; finding one of them is a single pass of a trie-shaped expression (see `literal_screen`),
far cheaper than the pattern. `required_sets` reads those strings off the parsed pattern; `PatternList`
runs only the patterns whose required strings a text holds. A screen only ever rules a pattern out when
the pattern cannot match, so results are exactly those of running every pattern.
"""

from __future__ import annotations

import re
from functools import lru_cache
from re import _constants as re_constants  # type: ignore[attr-defined]
from re import _parser as re_parser  # type: ignore[attr-defined]
from typing import Any

from ._lazy import compile_once, lazy_re

COMMON_IN_CODE = frozenset({"import", "from", "print", "return", "self", "def", "os", "sys", "e", "s"})
"""Literals nearly every program contains: a screen needing them would pass almost everything."""
_BACKREFERENCE = lazy_re(r"\\[1-9]|\(\?P=")
_REPEATS = (re_constants.MAX_REPEAT, re_constants.MIN_REPEAT, re_constants.POSSESSIVE_REPEAT)
_FLAGS = re.IGNORECASE | re.ASCII
"""The flags that change what a literal matches (the others concern anchors and wildcards only)."""
_SETS_PER_PATTERN = 3
"""Required sets tested per pattern, most distinctive first (each costs a pass; later ones rarely help)."""


@lru_cache(maxsize=8192)
def required_sets(pattern: str, flags: int = 0) -> tuple[tuple[str, ...], ...]:
    """Sets of literal strings such that every match of `pattern` contains one string of each set
    (a conjunction of alternatives), most distinctive first; empty when none can be told. Remembered
    like the compiled patterns (`compile_once`): parsing a pattern again costs as much as compiling it."""
    try:
        parsed = re_parser.parse(pattern, flags)
    except (re.error, RecursionError):
        return ()
    found: list[tuple[str, ...]] = []
    _collect(parsed, found)
    unique = list(dict.fromkeys(tuple(sorted(set(s))) for s in found))
    unique.sort(key=_rank, reverse=True)
    return tuple(unique)


def _rank(needles: tuple[str, ...]) -> tuple[bool, int, int]:
    return (not any(n.lower() in COMMON_IN_CODE for n in needles), min(map(len, needles)), -len(needles))


def _collect(items: Any, out: list[tuple[str, ...]]) -> None:
    """Append to `out` the required sets of a sequence of parsed items (every item must match)."""
    run: list[str] = []
    for op, av in items:
        if op is re_constants.LITERAL:
            run.append(chr(av))
            continue
        if run:
            out.append(("".join(run),))
            run = []
        if op is re_constants.SUBPATTERN:
            _group, add_flags, del_flags, body = av
            if not add_flags and not del_flags:  # an inline flag may change how its literals match
                _collect(body, out)
        elif op is re_constants.ATOMIC_GROUP:
            _collect(av, out)
        elif op in _REPEATS and av[0] >= 1:
            _collect(av[2], out)
        elif op is re_constants.BRANCH:
            union: list[str] = []
            for alternative in av[1]:
                inner: list[tuple[str, ...]] = []
                _collect(alternative, inner)
                if not inner:
                    break  # one alternative needs nothing literal: the branch as a whole needs nothing
                union.extend(max(inner, key=_rank))
            else:
                out.append(tuple(union))
    if run:
        out.append(("".join(run),))


def literal_screen(needles: list[str], flags: int = 0) -> re.Pattern[str] | None:
    """One regex finding any of `needles`, shaped as a trie so a miss costs one pass over the text.

    Python's `re` tries every branch of a plain alternation at every position; sharing prefixes lets it
    rule most positions out on the first character. None when some needle is empty (it matches anything).
    """
    words = sorted(set(needles))
    if not words or "" in words:
        return None
    # Any needle is enough, so one that extends another adds nothing. Sorted, every word extending a
    # needle follows it directly, so comparing with the last needle kept finds them all in one pass.
    kept: list[str] = []
    for word in words:
        if not kept or not word.startswith(kept[-1]):
            kept.append(word)
    words = kept

    def branch(group: list[str]) -> str:
        heads: dict[str, list[str]] = {}
        for word in group:
            heads.setdefault(word[0], []).append(word[1:])
        parts = []
        for head, tails in heads.items():
            if "" in tails:
                parts.append(re.escape(head))
            elif len(tails) == 1:
                parts.append(re.escape(head + tails[0]))
            else:
                parts.append(re.escape(head) + branch(tails))
        return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"

    return compile_once(branch(words), flags)


def trie_alternation(words: list[str]) -> str:
    """A regex alternation of `words` (none empty) shaped as a trie, without an enclosing group: a word may
    extend another and each is kept, the longer tried first, so where several begin a text the longest
    matches."""
    heads: dict[str, list[str]] = {}
    for word in words:
        heads.setdefault(word[0], []).append(word[1:])
    parts = []
    for head, tails in heads.items():
        rest = [t for t in tails if t]
        if not rest:
            parts.append(re.escape(head))
            continue
        inner = trie_alternation(rest)
        parts.append(re.escape(head) + (f"(?:{inner})?" if "" in tails else f"(?:{inner})"))
    return "|".join(parts)


class CaselessScreen:
    """`literal_screen` of needles in any case. ASCII text is lower-cased and searched case-sensitively,
    several times faster than `re.IGNORECASE`. Other text is searched as its UTF-8 bytes when every needle
    is ASCII (no byte of another character can then be part of a match; the four characters `re.IGNORECASE`
    matches to ASCII letters, such as `ſ` for `s`, are written as those letters first), else with the
    IGNORECASE search."""

    __slots__ = ("ascii", "folding", "longest")

    def __init__(self, ascii: re.Pattern[str], folding: re.Pattern[str], longest: int) -> None:
        self.ascii = ascii
        self.folding = folding
        self.longest = longest
        """The longest needle's length: no match spans more characters."""

    @classmethod
    def of(cls, needles: list[str]) -> CaselessScreen | None:
        lowered = literal_screen([n.lower() for n in needles])
        folding = literal_screen(needles, re.IGNORECASE)
        if lowered is None or folding is None:
            return None
        return cls(lowered, folding, max(map(len, needles)))

    def search(self, text: str) -> re.Match[str] | re.Match[bytes] | None:
        if text.isascii():
            return self.ascii.search(text.lower())
        if self.ascii.pattern.isascii():
            return _utf8_screen(self.ascii.pattern).search(_ascii_folded(text))
        return self.folding.search(text)

    def found(self, text: str, lowered: str | None) -> bool:
        """`search(text)` finds something, given `lowered`: `text.lower()` when it is ASCII, else None (for
        many screens searched in one text, lowered once)."""
        return (self.search(text) if lowered is None else self.ascii.search(lowered)) is not None


class CleanTexts:
    """Long texts one `CaselessScreen` found no needle in, remembered for a line. It finds literal needles, so
    a text within a clean one is clean, a text that adds a few characters before or after a clean one needs
    only the seam searched, and a text it found a needle in is clean up to that needle: a long word handed
    on through wrappers and joined with other words again costs one full search, not one a level."""

    __slots__ = ("screen", "texts")

    SEAM = 4096
    """At most this many characters added to a clean text are searched at the seam alone."""
    KEPT = 16
    """Texts remembered at most (each later text is compared with each)."""

    def __init__(self, screen: CaselessScreen) -> None:
        self.screen = screen
        self.texts: list[str] = []

    def finds(self, text: str) -> bool:
        """`screen.search(text) is not None`, searching only what no remembered text covers."""
        reach = self.screen.longest - 1
        for clean in self.texts:
            added = len(text) - len(clean)
            if added <= 0:
                if text in clean:
                    if added < 0 and len(self.texts) < self.KEPT:
                        self.texts.append(text)  # (the seam of a text built on it is then found)
                    return False
            elif added <= self.SEAM:
                if text.endswith(clean):
                    return self._searched(text, text[: added + reach])
                if text.startswith(clean):
                    return self._searched(text, text[max(0, len(clean) - reach) :])
        return self._searched(text, text)

    def _searched(self, text: str, part: str) -> bool:
        found = self.screen.search(part)
        if len(self.texts) < self.KEPT:
            if found is None:
                self.texts.append(text)
            elif part is text and text.isascii() and found.start() >= self.SEAM:
                self.texts.append(text[: found.start()])  # no needle starts before the first one found
        return found is not None


_FOLDED_TO_ASCII = (("\u0130", "i"), ("\u0131", "i"), ("\u017f", "s"), ("\u212a", "k"))
"""The characters beyond ASCII that `re.IGNORECASE` matches to ASCII letters (`İ`, `ı`, `ſ`, Kelvin's `K`)."""


def _ascii_folded(text: str) -> bytes:
    """`text` as UTF-8 with ASCII letters lower-cased and the `_FOLDED_TO_ASCII` characters written as the
    letters they match: an ASCII needle is found in it wherever IGNORECASE finds it in `text`."""
    for odd, plain in _FOLDED_TO_ASCII:
        if odd in text:
            text = text.replace(odd, plain)
    return text.encode("utf-8", "surrogatepass").lower()


@lru_cache(maxsize=1024)
def _utf8_screen(pattern: str) -> re.Pattern[bytes]:
    """The ASCII screen `pattern` (escaped literals only) for UTF-8 bytes, compiled at its first such text."""
    return re.compile(pattern.encode("ascii"))


LONG_NAME = 256
"""Names at least this long are screened before a name pattern is matched (see `may_fullmatch`)."""


@lru_cache(maxsize=256)
def _caseless_required(pattern: re.Pattern[str]) -> tuple[CaselessScreen, ...]:
    return tuple(
        screen
        for needles in required_sets(pattern.pattern, pattern.flags)[:_SETS_PER_PATTERN]
        if (screen := CaselessScreen.of(list(needles))) is not None
    )


def may_fullmatch(pattern: re.Pattern[str], text: str) -> bool:
    """Could `pattern` match all of `text` (a long one: see `LONG_NAME`)? Each of the pattern's required
    sets must be found in it, in any case (a screen only ever finds more than the pattern would). A name
    pattern with boundaries between the parts of a name (`.*?(?<=[a-z])(?=[A-Z])…`) tries its alternatives
    at every place of the text: 30 kB of `aAaA…` cost about 40 ms, where the screens cost a few."""
    lowered = text.lower() if text.isascii() else None
    return all(screen.found(text, lowered) for screen in _caseless_required(pattern))


def joinable(patterns: list[re.Pattern[str]]) -> bool:
    """Whether one alternation of `patterns` finds what the first of them to match would (no global flags,
    named groups or back-references that would not carry over)."""
    return not any(
        p.flags != re.UNICODE or p.groupindex or _BACKREFERENCE.search(p.pattern) for p in patterns
    )


class AnyScreen:
    """Whether a text may hold a match of any of some patterns: one pass of a trie of the most distinctive
    required set of each (per case rule), plus the patterns that have no distinctive set themselves."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[re.Pattern[str]]) -> None:
        self.parts = parts

    @classmethod
    def build(cls, patterns: list[re.Pattern[str]]) -> AnyScreen | None:
        """None when some pattern can be screened neither way (then every text is searched in full)."""
        needles: dict[int, list[str]] = {}
        whole: list[re.Pattern[str]] = []
        for pattern in patterns:
            sets = required_sets(pattern.pattern, pattern.flags)
            if sets and _rank(sets[0])[0]:
                needles.setdefault(pattern.flags & _FLAGS, []).extend(sets[0])
            else:
                whole.append(pattern)
        parts = [t for flags, found in needles.items() if (t := literal_screen(found, flags)) is not None]
        if whole:
            if not joinable(whole):
                return None
            parts.append(compile_once("|".join(f"(?:{p.pattern})" for p in whole)))
        return cls(parts) if parts else None

    def search(self, text: str) -> bool:
        return any(part.search(text) is not None for part in self.parts)


SCREENED_FROM = 1024
"""Length from which a text is screened pattern by pattern: a shorter one is searched by all of a list's
patterns at once, which costs less than testing their screens one by one."""


class PatternList:
    """Patterns searched in order, where only the first match counts; each runs only when the text holds
    one string of each of its most distinctive required sets (tested once per text and set, shared
    between lists through `memo`). Patterns that may match are searched as one alternation when joining
    them cannot change the result (the leftmost match of the first pattern to match)."""

    __slots__ = ("_joined", "can_join", "patterns", "screens")

    def __init__(
        self, patterns: list[re.Pattern[str]], screens: list[tuple[re.Pattern[str], ...]], can_join: bool
    ) -> None:
        self.patterns = patterns
        self.screens = screens
        """Per pattern, tries of which each must find something in a text the pattern matches."""
        self.can_join = can_join
        self._joined: dict[tuple[int, ...], re.Pattern[str]] = {}

    @classmethod
    def build(
        cls, patterns: list[re.Pattern[str]], tries: dict[tuple[tuple[str, ...], int], re.Pattern[str]]
    ) -> PatternList:
        """`tries` interns the screens, so lists sharing a set share its pass over a text."""
        screens: list[tuple[re.Pattern[str], ...]] = []
        for pattern in patterns:
            flags = pattern.flags & _FLAGS
            chosen = []
            for needles in required_sets(pattern.pattern, pattern.flags)[:_SETS_PER_PATTERN]:
                key = (needles, flags)
                trie = tries.get(key)
                if trie is None:
                    trie = literal_screen(list(needles), flags)
                    if trie is None:
                        continue
                    tries[key] = trie
                chosen.append(trie)
            screens.append(tuple(chosen))
        return cls(patterns, screens, len(patterns) > 1 and joinable(patterns))

    def search(self, text: str, memo: dict[int, bool]) -> re.Match[str] | None:
        """The first pattern's match in `text` (the first pattern that matches, at its leftmost match)."""
        if len(text) < SCREENED_FROM:
            return self._search(tuple(range(len(self.patterns))), text)
        possible: list[int] = []
        for i, tries in enumerate(self.screens):
            for trie in tries:
                key = id(trie)
                found = memo.get(key)
                if found is None:
                    found = memo[key] = trie.search(text) is not None
                if not found:
                    break
            else:
                possible.append(i)
        return self._search(tuple(possible), text) if possible else None

    def _search(self, possible: tuple[int, ...], text: str) -> re.Match[str] | None:
        if len(possible) > 1 and self.can_join:
            joined = self._joined.get(possible)
            if joined is None:
                joined = self._joined[possible] = compile_once(
                    "|".join(f"(?:{self.patterns[i].pattern})" for i in possible)
                )
            return joined.search(text)
        for i in possible:
            m = self.patterns[i].search(text)
            if m is not None:
                return m
        return None
