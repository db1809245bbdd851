"""Regular expressions compiled on first use.

Compiling is the largest cost of starting a check: the guard's modules hold over a hundred expressions
and a loaded policy several hundred more, while one check (`pytest -q`, `ls -la`) needs a handful. A
`LazyPattern` keeps the source until a method is first called, then answers with the compiled pattern's
own bound methods, so later calls cost what a compiled pattern's do.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, cast


class LazyPattern:
    """A regular expression that compiles on first use, then answers with the compiled pattern's methods."""

    __slots__ = ("findall", "finditer", "flags", "fullmatch", "match", "pattern", "search", "split", "sub")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = compile_once(self.pattern, self.flags)
        for method in ("findall", "finditer", "fullmatch", "match", "search", "split", "sub"):
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __reduce__(self) -> tuple[Any, tuple[str, int]]:
        # Stays lazy when pickled again; flags as a plain number, as a compiled pattern stores them.
        return LazyPattern, (self.pattern, int(self.flags))

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern[:40]!r})"


def lazy_re(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, deferred until the pattern is first used (typed as the pattern it
    stands for: it answers the same methods)."""
    return cast("re.Pattern[str]", LazyPattern(pattern, flags))


@lru_cache(maxsize=8192)
def compile_once(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, remembered for the life of the process. `re`'s own cache holds 512
    patterns and a policy compiles over 1,600, so without this a process that loads a policy again (another
    project's files, an edited file, a program embedding glmagent across projects) compiles every one again.
    Compiled patterns are immutable, so sharing one is safe."""
    return re.compile(pattern, flags)
