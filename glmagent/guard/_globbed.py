"""Words that are globs (`/home/*/.*hist*`, `/etc/shad*`): the sensitive paths of the path rules they may
expand to when the shell or the program expands them.

A path rule reads a word literally, so a glob that names a credential file only once expanded would pass.
Each path glob of the rules is kept as components; a glob word naming a home directory or an absolute place
is compared with them component by component, and each one it may reach comes back as a concrete path (the
word's own components where they are literal, a sample of the rule's where they are wild), which the rules'
own expressions then judge. Words in the project (`src/*.py`) are not expanded: what they reach is the
project's."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from fnmatch import fnmatchcase, translate

from ._lazy import lazy_re

_SET = lazy_re(r"\[!?+\]?+[^\]]*+\]")
"""A bracket set as fnmatch reads one: a `!` and then a `]` first are part of it, it ends at the next `]`."""


def closed_sets(glob: str) -> str:
    """`glob` as fnmatch reads it, spelled so fnmatch reads it in one pass: a `[` no `]` closes is a literal
    `[` to fnmatch, which looks to the end of the glob for each one (20 kB of `A[` took seconds to
    translate); each is written `[[]`, a set of `[` alone, which matches the same and closes at once."""
    if "[" not in glob:
        return glob
    pieces: list[str] = []
    done = 0
    # (a set ends at a `]`: none is looked for past the last one, so each unclosed `[` costs a step)
    for m in _SET.finditer(glob, 0, glob.rfind("]") + 1):
        pieces += (glob[done : m.start()].replace("[", "[[]"), m[0])
        done = m.end()
    pieces.append(glob[done:].replace("[", "[[]"))
    return "".join(pieces)


def glob_units(glob: str) -> int:
    """How many characters a name must have for `glob` to match it: each literal, `?` and set takes one, a
    `*` none (a `*` in a set is one of the set; an unclosed `[` is a literal)."""
    if "[" not in glob:
        return len(glob) - glob.count("*")
    end = glob.rfind("]") + 1  # (no set goes past it: each unclosed `[` before it costs a step)
    head = _SET.sub("?", glob[:end])
    return len(head) - head.count("*") + len(glob) - end - glob.count("*", end)


def glob_match(name: str, glob: str) -> bool:
    """`fnmatchcase(name, glob)` for a glob written in a command line (see `closed_sets`). A glob needing
    more characters than the name has is not made into an expression to find out: 100 kB of one took a
    second to translate and compile."""
    if len(glob) - glob.count("*") > len(name) and glob_units(glob) > len(name):
        return False
    return fnmatchcase(name, closed_sets(glob))


def glob_regex_source(glob: str) -> str:
    """`fnmatch.translate(glob)` for a glob written in a command line (see `closed_sets`)."""
    return translate(closed_sets(glob))


_WILD = frozenset("*?[")

_HOME_PREFIX = lazy_re(
    r"(?is)(~[^/]*|\$\{?home\}?|\$env:(?:home|userprofile)|%(?:home|userprofile)%|/root|/var/root"
    r"|/home/[^/]+|/users/[^/]+|[a-z]:/users/[^/]+)((?:/+[^/]*)*)"
)
"""A word starting in a home directory, however spelled, and the rest of it."""

_ABSOLUTE = lazy_re(r"(?is)(?:/|[a-z]:/)")

NAME_MAX = 255
"""The longest file name the file systems allow."""
_PATH_MAX = 4096
"""The longest path Linux opens."""
_ASKED = 1024
"""Wild components whose candidate rules are remembered (words come from untrusted text: bounded)."""
_MAX_PARTS = 64
"""Components a glob word may hold (a deeper glob is too large to check: each is compared with many rules)."""

MAX_GLOB_WORDS = 32
"""Glob words a line may hold that are compared with the rules' paths (each is compared with hundreds of
them); past it the line is too large to check."""


def maybe_glob(texts: str) -> bool:
    """Whether some word of `texts` may be a glob (a cheap screen before `is_glob_path`)."""
    return "*" in texts or "?" in texts or "[" in texts


def is_glob_path(text: str, posix: bool = False) -> bool:
    """Whether `text` is a glob in a home directory or from the root, the words `instances` expands. To a
    POSIX shell a single leading backslash escapes the next character (`'\\w*-\\(\\w*\\)'`, a regular
    expression): no root."""
    if not _WILD.intersection(text):
        return False
    if posix and text[:1] == "\\" and text[1:2] != "\\":
        return False
    head = text[:3].replace("\\", "/")
    if head[:1] == "/" or _ABSOLUTE.match(head) is not None:
        return True
    return head[:1] in ("~", "$", "%") and _HOME_PREFIX.fullmatch(text.replace("\\", "/")) is not None


def is_named_glob(text: str) -> bool:
    """Whether `text` is a glob of names in the project that starts with what it names (`.env*`,
    `apps/*/.en?`), which `instances` expands too: a secret file it reaches is read as if named. (`*.json`,
    `src/*.py` and `src/.*` say nothing of the names they reach; `[` is as often an index, `a[0]`.)"""
    name = text.replace("\\", "/").rpartition("/")[2]
    start = name[1:2] if name[:1] == "." else name[:1]
    return (
        start not in _WILD
        and start != ""
        and ("*" in name or "?" in name)
        and "[" not in name
        and " " not in text
        and text[:1] not in ("/", "~", "$", "%")
        and _ABSOLUTE.match(text) is None
    )


def _anchors(word: str) -> bool:
    """Whether a word's component says something of the name it matches: a literal character beyond a
    leading dot (`*.kdbx`, `shad*`) or a dot starting it (`.*`: hidden files). `*` alone says nothing, so
    `/usr/lib/*` is not taken for every credential file name a rule lists."""
    return word[:1] == "." or any(c not in "*?" for c in word)


def _sample(component: str) -> str:
    """One name a rule's glob component matches (`.*_history` -> `.x_history`)."""
    return component.replace("**", "x").replace("*", "x").replace("?", "x")


def _component_may_match(word: str, rule: str, hides_dots: bool) -> bool:
    """Whether the word's component and the rule's may name one file: a literal word component against the
    rule's glob, a wild one against a sample of the rule's (a shell's `*` skips names starting with `.`)."""
    if not _WILD.intersection(word):
        return fnmatchcase(word, rule)
    sample = _sample(rule)
    if hides_dots and sample[:1] == "." and word[:1] != ".":
        return False
    return glob_match(sample, word)


class _Keyed:
    """Rule globs (as components) found by their key: the last component that is not `**`. Each component
    of a word asks only for the rules whose key may name it, so a word is compared with a handful of rules,
    not hundreds."""

    __slots__ = ("asked", "at", "literal", "longest", "rules", "samples", "wild", "wild_screen")

    def __init__(self, rules: set[tuple[str, ...]]) -> None:
        self.rules = sorted(rules)
        self.literal: dict[str, list[int]] = {}
        self.wild: list[tuple[str, int]] = []
        by_sample: dict[str, list[int]] = {}
        for n, rule in enumerate(self.rules):
            key = next(c for c in reversed(rule) if c != "**")
            if _WILD.intersection(key):
                self.wild.append((key, n))
            else:
                self.literal.setdefault(key, []).append(n)
            by_sample.setdefault(_sample(key), []).append(n)
        self.wild_screen = re.compile("|".join(translate(k) for k, _ in self.wild) or "(?!)")
        """Matches a literal name that some wild key matches (most names: none)."""
        self.samples = "\n".join(by_sample)
        """One name each key matches, a line each: what a wild word component's expression searches."""
        self.longest = max(map(len, by_sample), default=0)
        """The longest of them: a component needing more characters matches none (see `glob_units`)."""
        self.at: dict[int, list[int]] = {}
        """Where each sample starts in `samples` -> the rules of its key."""
        offset = 0
        for sample, rules in by_sample.items():
            self.at[offset] = rules
            offset += len(sample) + 1
        self.asked: dict[tuple[str, bool], list[int]] = {}
        """Memory of `candidates` (a line's globs repeat their components); bounded by `_ASKED`."""

    def candidates(self, part: str, hides_dots: bool) -> list[int]:
        """The rules whose key may name the same file as the word component `part`."""
        if not _WILD.intersection(part):
            found = self.literal.get(part, [])
            if self.wild_screen.fullmatch(part):
                found = found + [n for key, n in self.wild if fnmatchcase(part, key)]
            return found
        known = self.asked.get((part, hides_dots))
        if known is None:
            known = self._search(part, hides_dots)
            if len(self.asked) >= _ASKED:
                self.asked.clear()
            self.asked[(part, hides_dots)] = known
        return known

    def _search(self, part: str, hides_dots: bool) -> list[int]:
        if glob_units(part) > self.longest:
            return []  # no sample is long enough: no expression is made of it (a long one takes long)
        # fnmatch's expression without its DOTALL flag never crosses a line of `samples`; a `[!x]` set
        # could, so a component holding one is tried sample by sample
        hidden = r"(?!\.)" if hides_dots and part[:1] != "." else ""
        if "[" in part:
            match = re.compile(hidden + glob_regex_source(part)).match
            return [n for at, rules in self.at.items() if match(self._line(at)) for n in rules]
        body = glob_regex_source(part).removeprefix("(?s:").removesuffix(r"\Z")
        line = re.compile(f"(?m)^{hidden}(?:{body}$")
        return [n for m in line.finditer(self.samples) for n in self.at[m.start()]]

    def _line(self, at: int) -> str:
        end = self.samples.find("\n", at)
        return self.samples[at:] if end < 0 else self.samples[at:end]


class GlobPaths:
    """The path globs of the path rules, split into components: those under a home directory (`~/x`) and
    those that match at any depth."""

    __slots__ = ("anywhere", "home")

    def __init__(self, paths: list[str]) -> None:
        home: set[tuple[str, ...]] = set()
        anywhere: set[tuple[str, ...]] = set()
        for path in paths:
            path = path.lower()
            if path.startswith("~/"):
                home.add(tuple(c for c in path[2:].split("/") if c))
            else:
                anywhere.add(tuple(c for c in path.split("/") if c))
        self.home = _Keyed(home)
        self.anywhere = _Keyed(anywhere)

    def instances(self, text: str, hides_dots: bool) -> list[str] | None:
        """Concrete paths `text` (a glob word, see `is_glob_path`) may expand to that the rules name; None
        when it is too long to be a path (`_PATH_MAX`), too deep to compare (`_MAX_PARTS`) or holds a
        component too long to be a name."""
        word = text.replace("\\", "/").lower()
        split = word.split("/")
        if len(word) > _PATH_MAX or len(split) > _MAX_PARTS or any(len(part) > NAME_MAX for part in split):
            return None
        found: list[str] = []
        home = _HOME_PREFIX.fullmatch(word)
        if home is not None:
            rest = [c for c in home.group(2).split("/") if c]
            for rule, _ in _aligned(self.home, rest, hides_dots, from_start=True):
                names = _reach(rest, rule, hides_dots)
                if names is not None:
                    found.append("/".join([home.group(1), *names]))
        if word[:1] in ("~", "$", "%"):
            return found  # what follows a home directory was compared with every rule above
        parts = [c for c in word.split("/") if c]
        if word[:1] != "/" and _ABSOLUTE.match(word) is None:
            parts.insert(0, "project")  # a name in the project lies in a folder (`**/.env` names `.env`)
        for rule, starts in _aligned(self.anywhere, parts, hides_dots, from_start=False):
            for start in starts:
                names = _reach(parts[start:], rule, hides_dots)
                if names is not None:
                    found.append("/" + "/".join([*parts[:start], *names]))
                    break
        return found


def _aligned(
    keyed: _Keyed, parts: list[str], hides_dots: bool, from_start: bool
) -> Iterator[tuple[tuple[str, ...], Iterable[int]]]:
    """Each rule one of whose keys may name a component of the word where the key would stand, with where
    in the word the rule would start: the key is the last component for a rule ending in a name, and the
    one before the `**` for a rule ending in one. `from_start`: the rules start at the word's start."""
    last = len(parts) - 1
    seen: set[int] = set()
    for i, part in enumerate(parts):
        for n in keyed.candidates(part, hides_dots):
            rule = keyed.rules[n]
            if n in seen:
                continue
            if rule[-1] == "**":
                start = i - (len(rule) - 2)
                if i == last or start < 0 or (from_start and start != 0):
                    continue
                starts: Iterable[int] = (start,)
            elif i != last:
                continue
            elif "**" in rule:
                starts = (0,) if from_start else range(len(parts) - len(rule), -1, -1)
            else:
                start = len(parts) - len(rule)
                if start < 0 or (from_start and start != 0):
                    continue
                starts = (start,)
            seen.add(n)
            yield rule, starts


def _reach(parts: list[str], rule: tuple[str, ...], hides_dots: bool) -> list[str] | None:
    """The word's components `parts` as the names the rule's components would give them, or None when they
    cannot name one file or when no component says something of the name it matches (see `_anchors`:
    `/usr/lib/*` names no credential file in particular); a rule's `**` takes one or more components."""
    n = len(parts)
    if "**" in rule:
        at = rule.index("**")
        if n < len(rule):
            return None
        aligned: Iterable[int] = [*range(at), *range(n - (len(rule) - at - 1), n)]
        globs = rule[:at] + rule[at + 1 :]
    elif n != len(rule):
        return None
    else:
        aligned, globs = range(n), rule
    out = ["x" if _WILD.intersection(p) else p for p in parts]  # what `**` takes keeps the word's names
    anchored = False
    for i, glob in zip(aligned, globs, strict=True):
        word = parts[i]
        if not _component_may_match(word, glob, hides_dots):
            return None
        anchored = anchored or (glob.strip("*?") != "" and _anchors(word))
        if _WILD.intersection(word):
            out[i] = _sample(glob)
    return out if anchored else None
