"""Tiered, indexed search for a hunk's old lines in the file.

A tier is a way to compare lines; looser tiers are tried only when stricter ones find nothing, and every
tier counts all places a hunk matches so ambiguity is always seen. Search is anchored on the rarest line
of the pattern (via a content -> positions index) so it scales to large files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import compress
from typing import Literal

Tier = Literal["exact", "trailing_ws", "unicode", "indent", "quotes"]
TIERS: tuple[Tier, ...] = ("exact", "trailing_ws", "unicode", "indent")
# For languages where '...' and "..." are the same kind of string (Python, JavaScript/TypeScript), a model
# that writes the file's lines in its own favourite quote style still means those lines.
QUOTE_BLIND_TIERS: tuple[Tier, ...] = (*TIERS, "quotes")

# Typographic characters that chat pipelines substitute for ASCII ones. Mapped to what a programmer types;
# zero-width characters vanish.
_PUNCT: dict[str, str] = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u201f": '"',
    "\u2033": '"',
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2015": "-",
    "\u2212": "-",
    "\u2026": "...",
    "\u00a0": " ",
    "\u2002": " ",
    "\u2003": " ",
    "\u2007": " ",
    "\u2008": " ",
    "\u2009": " ",
    "\u200a": " ",
    "\u202f": " ",
    "\u3000": " ",
    "\u200b": "",
    "\u200c": "",
    "\u200d": "",
    "\u2060": "",
    "\ufeff": "",
}
PUNCT_CHARS = frozenset(_PUNCT)
_PUNCT_TABLE = str.maketrans(_PUNCT)


def normalise_punct(line: str) -> str:
    """Replace typographic quotes, dashes, ellipses and odd spaces by their ASCII counterparts."""
    return line.translate(_PUNCT_TABLE)


def _key_unicode(line: str) -> str:
    return line.translate(_PUNCT_TABLE).rstrip()


def _key_indent(line: str) -> str:
    return line.translate(_PUNCT_TABLE).strip()


def _key_quotes(line: str) -> str:
    return line.translate(_PUNCT_TABLE).strip().replace('"', "'")


KEY: dict[Tier, Callable[[str], str]] = {
    "exact": str,
    "trailing_ws": str.rstrip,
    "unicode": _key_unicode,
    "indent": _key_indent,
    "quotes": _key_quotes,
}


def keyed(tier: Tier, lines: Iterable[str]) -> list[str]:
    """The comparison keys of `lines` under `tier`."""
    if tier == "exact":
        return list(lines)
    return list(map(KEY[tier], lines))


class LineIndex:
    """The file's lines under each tier, with a lazily built content -> positions index."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self._keys: dict[Tier, list[str]] = {"exact": lines}
        self._positions: dict[Tier, dict[str, list[int]]] = {}

    def __len__(self) -> int:
        return len(self.lines)

    def keys(self, tier: Tier) -> list[str]:
        """All file lines under `tier` (computed once per tier)."""
        found = self._keys.get(tier)
        if found is None:
            found = self._keys[tier] = keyed(tier, self.lines)
        return found

    def prefetch(self, tier: Tier, wanted: Iterable[str]) -> None:
        """Index the positions of every key in `wanted` in one C-speed pass over the file."""
        cache = self._positions.setdefault(tier, {})
        todo = {key for key in wanted if key not in cache}
        if not todo:
            return
        keys = self.keys(tier)
        for key in todo:
            cache[key] = []
        for i in compress(range(len(keys)), map(todo.__contains__, keys)):
            cache[keys[i]].append(i)

    def positions(self, tier: Tier, key: str) -> list[int]:
        """0-based positions of lines whose key under `tier` equals `key`."""
        cache = self._positions.setdefault(tier, {})
        found = cache.get(key)
        if found is None:
            self.prefetch(tier, (key,))
            found = cache[key]
        return found

    def find(self, pattern: Sequence[str | None], tier: Tier) -> list[int]:
        """All 0-based starts where the file matches `pattern` (keys under `tier`; None matches any line).

        The pattern must hold at least one non-None key.
        """
        pattern = list(pattern)  # list == list compares in C below
        keys = self.keys(tier)
        size = len(pattern)
        anchors = [(j, key) for j, key in enumerate(pattern) if key is not None]
        # Rarest non-blank key first: blank lines are everywhere and make poor anchors.
        informative = [(j, key) for j, key in anchors if key.strip()] or anchors
        j, anchor = min(informative, key=lambda item: len(self.positions(tier, item[1])))
        wildcard = len(anchors) != size
        starts: list[int] = []
        limit = len(keys) - size
        for position in self.positions(tier, anchor):
            start = position - j
            if start < 0 or start > limit:
                continue
            if wildcard:
                if all(p is None or p == keys[start + k] for k, p in enumerate(pattern)):
                    starts.append(start)
            elif keys[start : start + size] == pattern:
                starts.append(start)
        return starts
