"""Compile rule clauses into fast matchers and index them by what they look at.

Matching a command is three-valued: MATCH, NO, or UNKNOWN when a word that decides it (a flag, a
subcommand) is only known at run time. The engine turns UNKNOWN into a fail-closed block.
"""

from __future__ import annotations

import fnmatch
import itertools
import re
from collections import Counter
from collections.abc import Callable

from ._disk_fill import size_in_bytes
from ._globbed import GlobPaths
from ._lazy import compile_once, lazy_re
from ._locators import LocatorMatcher, locator_regex
from ._models import (
    ArgumentClause,
    CommandClause,
    CommandMatch,
    Dialect,
    DotnetClause,
    LocatorClause,
    PathClause,
    PayloadClause,
    RedirectClause,
    Rule,
    SyntaxSpec,
    VariableClause,
)
from ._paths import climbed
from ._screens import AnyScreen, CaselessScreen, PatternList, trie_alternation
from ._shape import many, record, table
from ._syntax import DYN, Arg


class Tri:
    """Three-valued match results, ordered so that `min` combines them. Plain ints, not an Enum: the
    matcher compares them on every clause of every command, and Enum member access costs ~100 ns."""

    NO = 0
    UNKNOWN = 1
    MATCH = 2


NO, UNKNOWN, MATCH = Tri.NO, Tri.UNKNOWN, Tri.MATCH
_NO = (NO, "")
_MATCH = (MATCH, "")


def _alternatives(globs: list[str]) -> str:
    """The regex source matching any of `globs` whole (nothing when there are none)."""
    return "|".join(f"(?:{fnmatch.translate(g)})" for g in globs) or "(?!)"


def glob_regex(globs: list[str], *, fold: bool = True) -> re.Pattern[str]:
    """One regex for a list of shell globs (`*` also spans `/` and the DYN marker)."""
    return compile_once(_alternatives(globs), re.IGNORECASE | re.DOTALL if fold else re.DOTALL)


_BARE_WORD = lazy_re(r"[A-Za-z][A-Za-z0-9_.-]*")
_VALUE_OPTION = lazy_re(
    r"-[A-Za-np-z0-9]+|--(?!o|rm\b|trace|filelist|patch)[a-z][a-z0-9-]*(?:=[A-Za-z0-9.,:-]+)?|\d+"
)
"""A word after the program an option runs that names no file: short options but `-o FILE`, long ones but
`--output…`, `--rm`, `--trace`, `--filelist`, `--patch-from`, with a plain value, or a number (`-p 8`)."""
"""An `args_none` entry that is a plain word, neither an option nor a glob (`status`, `plan.out`)."""

_PART_SEARCH = lazy_re(r"\*([^*?\[\]\\/]{4,})\*")
"""A wildcard search for part of a name (`*sysm*`): what `CommandMatch.args_parts` compares."""

_LONE_SWITCHES = frozenset({"-v", "-V", "-h", "-H"})
"""Short switches that ask a program only for its version or usage when nothing else is given, and may mean
something else beside other words (`-v` verbose, `-h` a host): see `CompiledCommand.args_none_lone`."""


def globs_except(globs: list[str], excepted: list[str]) -> re.Pattern[str]:
    """`glob_regex(globs)` for words that match none of `excepted`."""
    if not excepted:
        return glob_regex(globs)
    return compile_once(f"(?!{_alternatives(excepted)})(?:{_alternatives(globs)})", re.IGNORECASE | re.DOTALL)


def glob_screen(globs: list[str]) -> CaselessScreen | None:
    """A screen finding, in any case, a literal that every word one of `globs` (as `glob_regex` matches
    them) matches holds; None when a glob has no literal, or one beyond ASCII (whose case folding
    `CaselessScreen` reads only in non-ASCII text)."""
    needles = [_needle(g) for g in globs]
    if not needles or not all(n and n.isascii() for n in needles):
        return None
    return CaselessScreen.of(needles)


_GLOB_WILDCARD = lazy_re(r"\[!?\]?[^\]]*\]|[*?]+")
"""A glob's wildcards: `*`, `?` and a `[...]` set (one character, whatever its members)."""


def glob_literals(glob: str) -> tuple[str, str, tuple[str, ...]]:
    """What every name `glob` matches holds literally: its start, its end and the pieces between the
    wildcards (`invoke-*hunter`: "invoke-", "hunter"; `[!g]*-nfs*`: "-nfs"), so an ASCII name (case-folded,
    as names are) is ruled out without compiling the glob's regex. Nothing for a glob with an unclosed `[`
    or a letter that is not lower-case ASCII, which IGNORECASE may match in other ways."""
    if not glob.isascii() or glob.lower() != glob:
        return "", "", ()
    parts = _GLOB_WILDCARD.split(glob)
    if any("[" in p for p in parts):  # fnmatch reads an unclosed `[` as itself: keep no literal
        return "", "", ()
    return parts[0], parts[-1], tuple(p for p in parts if p)


# -- sensitive paths --
_SEP = r"[/\\]+(?:\.[/\\]+)*"
"""One path separator, either slash, repeated or with `./` steps (`~//.ssh`, `~/./.ssh`)."""
_SEP_POSSESSIVE = r"[/\\]++(?:\.[/\\]++)*+"
_HOME = (
    r"(?:~[^/\\]*|\x00[^/\\]*|\$\{?[\w:]+\}?|%\w+%|/root|/var/root"
    r"|(?:.*[/\\])?(?:home|users)[/\\]+[^/\\]+|(?:.*[/\\])?\.\.)"
)
"""Spellings of a home directory: `~`, `~user`, any variable (DYN in the text; `$HOME`, `${HOME}`,
`$env:USERPROFILE`, `%USERPROFILE%` in the raw word), `/root`, `/home/NAME`, `C:\\Users\\NAME`, `..`."""
_HOME_EARLIEST = (
    r"(?:~[^/\\]*|\x00[^/\\]*|\$\{?[\w:]+\}?|%\w+%|/root|/var/root"
    r"|(?:.*?[/\\])??(?:(?:home|users)[/\\]+[^/\\]+|\.\.))"
)
"""`_HOME` where it starts earliest in a word: a spelling at its start, else the first `home/NAME` or `..`."""
_PATH_LIKE = r"""(?=["']?[/~.\\\x00$%]|["']?[a-z]:|\S*$)"""
"""A word that can be a path: no whitespace, or it starts like one (a quoted `C:\\Users\\John Smith\\...`)."""


_GLOB_TOKENS = lazy_re(r"(\*\*|\*|\?|/)")
_ATOMIC_NAMES = itertools.count()


def _path_glob(path: str) -> str:
    """A path glob as a regex: `/` is any separator, `*` stays in a component, `**` spans components.

    A `*` followed in its component by a piece and another `*` (`*lsass*.dmp`) takes the piece's first
    occurrence, once: the leftmost one is always the best for what follows in the component, and trying
    every occurrence made a long word cost its length squared (a 100 kB `lsasslsass…` took seconds)."""
    tokens = [t for t in _GLOB_TOKENS.split(path) if t]
    out: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token == "**" and tokens[i : i + 1] == ["/"]:
            out.append(f"(?:.+{_SEP})?")  # `**/` is any number of folders, none too (`~/**/x` names `~/x`)
            i += 1
        elif token == "**":
            out.append(".+")
        elif token == "/":
            out.append(_SEP)
        elif token == "?":
            out.append(r"[^/\\]")
        elif token != "*":
            out.append(re.escape(token))
        else:
            end = i
            while end < len(tokens) and tokens[end] not in ("*", "**", "/"):
                end += 1
            if end > i and end < len(tokens) and tokens[end] == "*":
                piece = "".join(r"[^/\\]" if t == "?" else re.escape(t) for t in tokens[i:end])
                name = f"_a{next(_ATOMIC_NAMES)}"
                out.append(rf"(?=(?P<{name}>[^/\\]*?{piece}))(?P={name})")
                i = end
            else:
                out.append(r"[^/\\]*")
    return "".join(out)


_MACOS_PRIVATE = ("/etc/", "/var/", "/tmp/")
"""Folders macOS keeps under `/private` (`/etc` links to `/private/etc`): a path in one is named there too."""


def _path_alternatives(paths: list[str]) -> str:
    # `~/.gnupg/`, `~/.gnupg/.` name the directory too. Possessive: a run of slashes split among the
    # repetitions in every way was tried again and again before a word that goes on failed (`/etc/passwd`,
    # 28 slashes and an `x`, took 19 s); taken whole it fails at once, and matches the same words.
    end = r"""(?:[/\\]++\.?)*+["']?$"""
    globs = [*paths, *("/private" + p for p in paths if p.lower().startswith(_MACOS_PRIVATE))]
    heads = {p: _deep_head(p) for p in globs}
    home = [_path_glob(p[2:]) for p in globs if p.startswith("~/") and heads[p] is None]
    anywhere = [_path_glob(p) for p in globs if not p.startswith("~/") and heads[p] is None]
    parts = []
    if home:
        parts.append(rf"""["']?{_HOME}{_SEP}(?:{"|".join(home)}){end}""")
    if anywhere:
        # `--file=/etc/passwd`: an option's value glued to it names the file as a word of its own does. An
        # opening quote is the quote (possessive): a raw `".env"` is `.env`, not a `?*.env` whose `?` is `"`.
        # What an option leaves out is not read (`tar --exclude=.env`, `grep --exclude=.env`).
        parts.append(
            rf"""(?!["']?+--?(?:exclude|ignore)[\w-]*=)["']?+(?:.*[/\\]|--?[a-z][\w-]*=)?"""
            rf"""(?:{"|".join(anywhere)}){end}"""
        )
    parts += [_deep_alternative(h, p[len(h) + 1 :], end) for p, h in heads.items() if h is not None]
    return "|".join(f"(?:{p})" for p in parts)


def _deep_head(glob: str) -> str | None:
    """The folders before a glob's first `/**/` (`~`, `~/.config`, `inetpub`), when it has one with more after
    it (`~/**/*.ovpn`, `inetpub/**/web.config`) and something before it; else None."""
    head, found, _ = glob.partition("/**/")
    return head if found and head and "**" not in head else None


def _deep_alternative(head: str, rest: str, end: str) -> str:
    """`_path_alternatives`' regex of a glob with a `/**/`: `head` (see `_deep_head`), a `/`, then `rest`.

    A word may start the glob at many places (each `..` or `home/NAME` may be the home; any separator may
    start a path named anywhere), and from each the `**` spans the rest of the word: tried from every
    place, `../` 900 times and `config/x.xml` took 2.4 s. The earliest place where the part before the
    `**` fits leaves the `**` the most to span, so the word matches from there if it matches from any
    later one: the atomic group commits to it."""
    if head == "~":
        start = _HOME_EARLIEST
    elif head.startswith("~/"):
        start = _HOME_EARLIEST + _SEP + _path_glob(head[2:])
    else:
        start = rf"(?:--?[a-z][\w-]*=|.*?[/\\])??{_path_glob(head)}"
    return rf"""["']?(?>{start}(?=[/\\])){_SEP}{_path_glob(rest)}{end}"""


def _size_limit(text: str) -> int:
    """A clause's `size_over` in bytes (0: no limit)."""
    if not text:
        return 0
    size = size_in_bytes(text)
    if size is None:
        raise ValueError(f"size_over {text!r} is no size")
    return size


def _operands_regex(globs: list[str], paths: list[str]) -> re.Pattern[str] | None:
    """The matcher of a command clause's `operands_any` globs and `operand_paths` together (None: neither)."""
    if not paths:
        return glob_regex(globs) if globs else None
    body = [f"(?:{fnmatch.translate(g)})" for g in globs]
    # Possessive separators: a long run of slashes is one separator, never split between two quantifiers
    # (which took seconds on a word of 20,000 slashes and an `x`). A word longer than the longest path
    # Windows opens (32,767 characters; Linux's is 4,096) names no folder: it is not compared at all.
    alternatives = "|".join(_path_glob(p).replace(_SEP, _SEP_POSSESSIVE) for p in paths)
    body.append(rf"""(?=.{{0,32767}}\Z)(?:{alternatives})[/\\]*+\Z""")
    return compile_once("|".join(body), re.IGNORECASE | re.DOTALL)


_DOUBLED_SEPARATOR = lazy_re(r"([\\/])\1+")
_DOUBLED_BACKSLASH = lazy_re(r"(?<=[^\\\n])\\{2,}")
"""Backslashes doubled inside a word (`HKCU\\\\Software\\\\x`, copied from an escaped string); not those
starting it (a UNC path)."""


_SCREENED_WORD = 256
"""Words longer than this are searched for a clause's screen literals on their own before its glob regex
reads them (when the words together hold one): the regex costs tens of times the search on a long word,
more than the search costs on a short one."""


_TEXT_SEARCHES = frozenset(
    {"findstr", "find", "grep", "egrep", "fgrep", "ggrep", "rg", "ag", "select-string"}
)
"""Programs whose plain word is itself a search for any text holding it (`findstr antivir`)."""


def _reaches_part(text: str, words: tuple[str, ...], plain: bool) -> bool:
    """Does `text`, a wildcard search for part of a name (`*sysm*`), find one of `words` (`sysmon`)? With
    `plain`, a word of six letters or more searched as text (`findstr antivir`) is such a part too."""
    found = _PART_SEARCH.fullmatch(text)
    if found is not None:
        part = found[1].lower()
    elif plain and len(text) >= 6 and text.isalpha():
        part = text.lower()
    else:
        return False
    return any(part in word for word in words)


def _ruled_out(screen: CaselessScreen | None, text: str) -> bool:
    """Whether `screen` (a clause's `glob_screen`) shows that none of its globs can match the long `text`."""
    return screen is not None and len(text) > _SCREENED_WORD and screen.search(text) is None


def _tail_anywhere(text: str, match: Callable[[str], object]) -> bool:
    """Does a glob that starts with `*` name a word whose folder is only known at run time by the literal
    path after it (`$GITHUB_WORKSPACE/.git/config` is `*git/config` wherever the folder is)? A sample folder
    no literal glob names stands in for the unknown one, so only a glob free before the tail can match."""
    tail = text[text.rfind(DYN) + 1 :] if DYN in text else ""
    return len(tail) > 1 and tail[0] in "/\\" and match("\x01" + tail) is not None


def _head_anywhere(text: str, match: Callable[[str], object]) -> bool:
    """Does a glob that ends free match a word whose literal start already says what it is, whatever the
    run-time rest (`github.com/x/tparse@${V}` is a module at some version, `?*@?*`)? A sample character
    stands in for the unknown rest."""
    at = text.find(DYN)
    return at > 0 and match(text[:at] + "\x01") is not None


def _doubled_match(match: Callable[[str], object], text: str) -> bool:
    """Does an operand written with doubled separators (`c:\\\\`, `/etc//shadow`, as cheat sheets copied from
    escaped strings spell them; Windows and POSIX read them as one) match once they are single? (The caller
    looks for a doubled one first.)"""
    return bool(match(_DOUBLED_SEPARATOR.sub(r"\1", text)))


def _climbed_match(match: Callable[[str], object], text: str) -> bool:
    """Does an operand with `..` steps (`/tmp/../root`) match once they are taken (see `climbed`)?"""
    seen = climbed(text)
    return seen is not None and bool(match(seen))


_PATH_FLAGS = re.IGNORECASE | re.DOTALL
_GROUPED_PATHS = 32
"""A `path` clause of this many paths or more is matched by `GroupedPathPattern`."""


def path_regex(paths: list[str], except_paths: list[str], outside_project: bool = False) -> PathPattern:
    """The matcher of a `path` clause, applied with `match` to an argument's text and raw spelling."""
    if len(paths) < _GROUPED_PATHS or outside_project:
        return PathPattern(compile_once(_path_body(paths, except_paths), _PATH_FLAGS), outside_project)
    groups: dict[str, list[str]] = {}
    for path in paths:
        groups.setdefault(_path_needle(path).lower(), []).append(path)
    return GroupedPathPattern(
        lazy_re(_path_body(paths, except_paths), _PATH_FLAGS),
        {needle: lazy_re(_path_body(group, []), _PATH_FLAGS) for needle, group in groups.items()},
        lazy_re(_path_alternatives(except_paths), _PATH_FLAGS) if except_paths else None,
    )


def _path_body(paths: list[str], except_paths: list[str]) -> str:
    body = _PATH_LIKE
    if except_paths:
        body += f"(?!{_path_alternatives(except_paths)})"
    return body + f"(?:{_path_alternatives(paths)})"


_SEPARATOR_RUN = lazy_re(r"[/\\]{5,}")
_DOT_STEPS = lazy_re(r"(?:[/\\]\.)+(?=[/\\])")


class PathPattern:
    """A `path` clause's regex, shown each word with its `./` steps taken (`~/./.ssh` as `~/.ssh`) and its
    runs of five or more separators cut to four.

    Every OS reads `a/./b` as `a/b`, and such a run as one separator. The regex allows either, but a long
    run cost it more than the run: each place a path could start read the rest of a run of steps (`./`
    2,400 times: 360 ms), and a run of separators it split every way before a word went on to fail (`~`,
    1,000 slashes and `.sshx` took 42 s; `/var/mail`, 3,000 slashes and a `0`, 9 s); it never needs more
    than four separators in a row (a prefix's, a separator, a `**` and another separator). Taken, a step
    is no longer a folder a glob's `*` could stand for (`~/./x` is `~/x`, not `~/*/x`)."""

    __slots__ = ("outside_project", "pattern", "regex")

    def __init__(self, regex: re.Pattern[str], outside_project: bool = False) -> None:
        self.regex = regex
        self.pattern = regex.pattern
        self.outside_project = outside_project
        """The clause spares a path inside the project (see `PathClause.outside_project`)."""

    def match(self, text: str) -> re.Match[str] | None:
        return self.regex.match(_steps_taken(text))

    def __reduce__(self) -> tuple[type[PathPattern], tuple[object, ...]]:
        return PathPattern, (self.regex, self.outside_project)


def _steps_taken(text: str) -> str:
    """`text` with its `./` steps taken and its runs of separators cut to four (see `PathPattern`)."""
    if "/." in text or "\\." in text:
        text = _DOT_STEPS.sub("", text)
    if len(text) > 4 and _SEPARATOR_RUN.search(text) is not None:
        text = _SEPARATOR_RUN.sub(lambda run: run.group(0)[:4], text)
    return text


class GroupedPathPattern(PathPattern):
    """A long `path` clause's matcher: its paths grouped by the literal each contains (`_path_needle`), and
    only the groups whose literal a word holds tried on it.

    The whole clause's regex (hundreds of paths, tens of thousands of characters) fails a word holding one
    of its literals slowly: `config.yaml`, `.env.example`, `docs/windows.md` cost 35 to 60 us each, more
    than the rest of their check, while the one or two groups they name cost one or two. A word matches
    the whole regex exactly when it matches one group's: each is the same regex over fewer alternatives.
    Words beyond ASCII (which `re.IGNORECASE` may match to ASCII letters) and long words, where looking
    for the literals one place at a time would cost more than the regex, are read by the whole regex.
    The clause's `except` paths are looked for only in a word a group matches (searched first, as the
    whole regex does, they cost every word ten times what a group does). Every regex compiles on first
    use: a check needs a few groups, not the clause's hundreds."""

    __slots__ = ("always", "excepted", "groups", "needles", "within")

    def __init__(
        self,
        regex: re.Pattern[str],
        groups: dict[str, re.Pattern[str]],
        excepted: re.Pattern[str] | None,
        needles: re.Pattern[str] | None = None,
    ) -> None:
        super().__init__(regex)
        self.groups = groups
        self.excepted = excepted
        self.always = [p for needle, p in groups.items() if not needle or not needle.isascii()]
        """Groups whose literal is empty or beyond ASCII: tried on every word."""
        literals = [needle for needle in groups if needle and needle.isascii()]
        self.within = {
            needle: [groups[needle[:end]] for end in range(1, len(needle) + 1) if needle[:end] in groups]
            for needle in literals
        }
        """Per literal, the groups of it and of every literal it begins with."""
        if needles is None:  # (made once, when the policy is compiled: the load cache keeps it)
            needles = lazy_re(f"(?=({trie_alternation(literals) if literals else '(?!)'}))")
        self.needles = needles
        """Finds, at each place of a lower-cased word, the longest literal there (the rest begin it)."""

    def match(self, text: str) -> re.Match[str] | None:
        text = _steps_taken(text)
        if len(text) > _SCREENED_WORD or not text.isascii():
            return self.regex.match(text)
        tried = list(self.always)
        within = self.within
        for found in self.needles.finditer(text.lower()):
            tried += within[found.group(1)]
        for pattern in tried:
            hit = pattern.match(text)
            if hit is not None:
                return None if self.excepted is not None and self.excepted.match(text) else hit
        return None

    def __reduce__(self) -> tuple[type[PathPattern], tuple[object, ...]]:
        return GroupedPathPattern, (self.regex, self.groups, self.excepted, self.needles)


# -- commands --
_OFF_VALUES = frozenset({"$false", "0", "$null"})
_NONZERO = lazy_re(r"[1-9][0-9]*")
_HOME_SPELLED = lazy_re(
    r"""(["']?)(?:\$\{?HOME\}?|\$\{?env:(?:USERPROFILE|HOME)\}?|%USERPROFILE%)(?![\w:])(.*)\1""",
    re.IGNORECASE,
)


# The running script's own file, by each shell's name for it: `$0`, `${BASH_SOURCE[0]}`, cmd's `%0` and
# `%~f0` (`%~dpnx0`: any modifiers that keep the whole name), PowerShell's `$PSCommandPath` and
# `$MyInvocation.MyCommand.Path`.
_SCRIPT_SPELLED = lazy_re(
    r"""(["']?)(?:\$\{?0\}?|\$\{?BASH_SOURCE(?:\[0\])?\}?|%0|%~(?=[a-z]*f|[a-z]*n[a-z]*x)[a-z]+0"""
    r"""|\$PSCommandPath|(?:\$\()?\$MyInvocation\.MyCommand\.(?:Path|Definition|Source)\)?)\1""",
    re.IGNORECASE,
)
SCRIPT_ITSELF = "<running-script>"
"""The operand-pattern spelling of a word naming the running script (`spelled`)."""


def spelled(operand: Arg) -> str | None:
    """A word naming a well-known place by its variable, in the spelling operand patterns are written in:
    the home folder (`$HOME`, `"${HOME}/"`, `$env:USERPROFILE\\x`, `%USERPROFILE%`) as `~`, `~/`, `~\\x`, and
    the running script itself (`"$0"`, `%~f0`, `$PSCommandPath`) as `SCRIPT_ITSELF`; None for any other word.
    The variable is only known at run time, but in every shell it names that place."""
    if DYN not in operand.text:
        return None
    raw = operand.raw
    found = _HOME_SPELLED.fullmatch(raw)
    if found is not None:
        return "~" + found.group(2)
    return SCRIPT_ITSELF if _SCRIPT_SPELLED.fullmatch(raw) is not None else None


def _surely_given(value: str | None) -> bool:
    """Is a sparing parameter (`-WhatIf`, `-Append`, `-Variable name`) surely in force with this value?

    Bare, `:$true`, a nonzero integer or a plain word (`-Variable:procs`) are; `$false`, `0`, `0x0`, an
    empty string, or anything computed (`$x`, `(...)`, `"$x"`), which may turn a switch off, are not."""
    if value is None or value == "$true":
        return True
    if not value or value in _OFF_VALUES:
        return False
    head = value[0]
    if head.isdigit():
        return _NONZERO.fullmatch(value) is not None
    return head not in "$(@[{'\"-+.,"


@record(frozen=True)
class SyntaxInfo:
    """What decides where a command's operands start (`git -C dir clean`, `kill -9 -1`)."""

    value_options: frozenset[str] = frozenset()
    option_words: int | None = None
    option_signs: str = ""
    """Signs besides `-` that start an option word (`+`: `cargo +nightly install x`)."""
    run_time_values: tuple[str, ...] = ()
    """Option prefixes that keep a word an option when part of it is only known at run time (`-D`: sbt's
    `-Dv=$V`, `++`: `++$SCALA_VERSION`)."""


_NO_SYNTAX = SyntaxInfo()


def _run_time_value(text: str, prefixes: tuple[str, ...]) -> bool:
    """Is the one run-time part of this word the value of an option named by its literal prefix (`-Dv=$V`,
    `++$V`)? Not when more is written between them (`"++2.13; all $TESTS"` names tasks at run time)."""
    if not prefixes or text.count(DYN) != 1:
        return False
    head = text[: text.index(DYN)]
    for prefix in prefixes:
        if head.startswith(prefix):
            rest = head[len(prefix) :]
            return ";" not in rest and (prefix[0] == "-" or not rest.strip())
    return False


def negated_globs(args: list[Arg]) -> set[int]:
    """ripgrep's globs negated with `!` (`-g '!.env'`, `--glob=!*.pem`, `-g!.env`), by identity: they leave
    the files they match out of the search, so a secret file named there is never read."""
    found: set[int] = set()
    valued = False
    for a in args:
        t = a.text
        if valued:
            if t[:1] == "!":
                found.add(id(a))
            valued = False
        elif t in ("-g", "--glob", "--iglob"):
            valued = True
        elif t.startswith(("-g!", "--glob=!", "--iglob=!")):
            found.add(id(a))
    return found


_RG_VALUED_SHORT = "ABCEMTdgjmrt"
"""ripgrep's short options that take a value (`-g GLOB`, `-t TYPE`, `-r REPLACEMENT`, `-M NUM`, ...)."""
_SEARCHER_VALUED_LONG = frozenset(
    {
        "--glob", "--iglob", "--type", "--type-not", "--type-add", "--type-clear", "--max-count",
        "--max-depth", "--threads", "--replace", "--encoding", "--max-columns", "--context",
        "--after-context", "--before-context", "--sort", "--sortr", "--ignore-file", "--pre", "--pre-glob",
        "--colors", "--path-separator", "--max-filesize", "--engine", "--context-separator",
        "--field-match-separator", "--field-context-separator", "--include", "--exclude", "--exclude-dir",
        "--exclude-from", "--label", "--binary-files", "--devices", "--directories", "--group-separator",
        "--file-search-regex", "--ignore-dir", "--ignore-directory", "--depth",
    }
)  # fmt: skip
"""Long options of grep, ripgrep, ag and ack that take a value, given as the next word when not glued with
`=` (`rg --glob '*.py' TODO`, `grep --include '*.c' -r x .`)."""
_SEARCH_VALUED = (
    "path", "literalpath", "lp", "pspath", "include", "exclude", "context", "encoding", "culture",
    "inputobject",
)  # fmt: skip
"""Select-String's parameters that take a value (named by any prefix of these)."""


def _one_quoted(raw: str) -> bool:
    """Is a shell word one pair of double quotes around the rest (`"%OUT%\\x.obj"`)? Whatever is expanded in
    it, the program gets one word."""
    return len(raw) > 2 and raw[0] == raw[-1] == '"' and raw.count('"') == 2


class CommandView:
    """One simple command as the rules see it; flag tables are computed on first use.

    No `__slots__`: the rarely set attributes default on the class, so making a view stores five.
    """

    has_command: bool | None = None
    windows_program: bool = False
    """A Windows program written in a POSIX shell (`reg.exe`, `vssadmin`): clauses for cmd apply too."""
    producers_of: Callable[[], list[list[CommandView]]] | None = None
    """Set by the engine when something feeds this command (a pipe, `find -exec`, `$(...)`)."""
    fed_checks: dict[int, int] | None = None
    """What clauses asking what feeds a command (by identity) made of this view as a producer, asked once
    each: a line of many filters otherwise asks each producer again for every command downstream."""
    cut: bool = False
    """Stands for producers further up a chain of filters than the engine follows: any command may be one."""
    _posix: tuple[set[str], list[str], bool, list[str]] | None = None
    _switches: tuple[set[str], bool] | None = None
    _params: tuple[list[tuple[str, str | None]], bool] | None = None
    _params_cut: int | None = None
    """How many of `_params` come before a `--` word (None: no `--`)."""
    _positionals: list[Arg] | None = None
    _producers: list[list[CommandView]] | None = None
    _before: CommandView | None = None
    _texts: str | None = None
    _valued: set[int] | None = None
    _excluded: set[int] | None = None
    """The run-time words that are an option's value (by identity), made on first use."""

    def __init__(
        self, names: tuple[str, ...], argv: list[Arg], dialect: Dialect, syntax: SyntaxInfo = _NO_SYNTAX
    ) -> None:
        self.names = names
        self.argv = argv
        self.args = argv[1:]
        self.dialect = dialect
        self.syntax = syntax
        """Where the operands start for this command (from the policy's `[syntax]` tables)."""

    def texts(self) -> str:
        """The arguments' texts joined by newlines, for the clauses' literal screens."""
        texts = self._texts
        if texts is None:
            texts = self._texts = "\n".join([a.text for a in self.args])
        return texts

    def posix_flags(self) -> tuple[set[str], list[str], bool, list[str]]:
        """Short flag letters, long flag names, whether a run-time word could add flags (before `--`), and
        the short-option words themselves (without the dash)."""
        if self._posix is None:
            short: set[str] = set()
            long: list[str] = []
            clusters: list[str] = []
            dyn = False
            values = self.syntax.value_options
            value_next = False
            for a in self.args:
                t = a.text
                if t == "--":
                    break
                if DYN in t:
                    # The word after an option that takes a value (`ps -p "$pid"`) is that value, not a flag.
                    dyn = dyn or (a.may_be_flag and not value_next)
                    value_next = False
                    continue
                value_next = False
                if t.startswith("--"):
                    long.append(t.split("=", 1)[0])
                    value_next = "=" not in t and t in values
                elif len(t) > 1 and t[0] == "-":
                    short.update(t[1:])
                    clusters.append(t[1:])
                    value_next = t in values or "-" + t[-1] in values
            self._posix = (short, long, dyn, clusters)
        return self._posix

    def may_add_flag(self, word: Arg) -> bool:
        """Could the run-time `word` be read as an option? Not when it is one word, the value of the option
        before it (`git -C "$dir" status`, `tar -C "$D" -cf x.tar .`)."""
        if not word.may_be_flag:
            return False
        valued = self._valued
        if valued is None:
            valued = self._valued = set()
            values = self.syntax.value_options
            takes = False  # whether the word before takes the next as its value (`-C`, `-cf`)
            for a in self.args if values else ():
                t = a.text
                if DYN in t:
                    # (an unquoted POSIX `$x` may split into more words, an option among them)
                    if takes and (self.dialect != "posix" or (a.raw[:1] == '"' and "@" not in a.raw)):
                        valued.add(id(a))
                    takes = False
                    continue
                takes = t in values or (t[:1] == "-" and t[1:2] != "-" and "-" + t[-1] in values)
        return id(word) not in valued

    def switches(self) -> tuple[set[str], bool]:
        """Windows switches (`/s`, `/S/Q`, `-s`) lower-cased, and whether a run-time word could add one."""
        if self._switches is None:
            found: set[str] = set()
            dyn = False
            for a in self.args:
                t = a.text
                if DYN in t:
                    # a word in one pair of quotes with a literal tail (`"%OUT%\\x.obj"`, `"$OUT\\x.obj"`)
                    # stays one operand; a quoted variable alone (`"%FLAGS%"`) may still be a switch
                    operand = _one_quoted(a.raw) and t[-1:] != DYN
                    dyn = dyn or (t[:1] in ("/", "-", DYN) and not operand) or a.splat
                    continue
                if t[:1] == "/" and len(t) > 1:
                    for part in t.lower().split("/")[1:]:
                        if part:
                            found.add("/" + part.split(":", 1)[0])
                elif t[:1] == "-" and len(t) > 1 and not t.startswith("--"):
                    found.add("/" + t[1:].lower().split(":", 1)[0])
            self._switches = (found, dyn)
        return self._switches

    def params(self) -> tuple[list[tuple[str, str | None]], bool]:
        """PowerShell parameters as (lower-case name, value after ':'); and could splatting add more?"""
        if self._params is None:
            out: list[tuple[str, str | None]] = []
            dyn = False
            for a in self.args:
                if a.splat:
                    dyn = True
                elif a.text == "--" and self._params_cut is None:
                    self._params_cut = len(out)  # after `--` a cmdlet binds `-WhatIf` as a path
                elif a.param:
                    name, sep, value = a.text.lstrip("-\u2013\u2014\u2015").partition(":")
                    out.append((name.lower(), value.lower() if sep else None))
            self._params = (out, dyn)
        return self._params

    def written_operand(self) -> Arg | None:
        """The word naming where a copying program writes: the value of PowerShell's `-Destination`, else the
        last of two or more operands; None when an option names a destination folder instead (`cp -t dir a`,
        `--target-directory=dir`), so every operand is a source."""
        args = self.args
        for i, a in enumerate(args):
            t = a.text.lower()
            if t[:1] != "-" or t == "--":
                continue
            if t[1:2] == "-":
                if "--target-directory".startswith(t.partition("=")[0]):
                    return None
            elif self.dialect == "powershell" or a.param:
                if t[1:3] == "de":  # `-Destination` by any prefix PowerShell accepts, or `-Destination:x`
                    return a if ":" in t else args[i + 1] if i + 1 < len(args) else None
            elif "t" in a.text[1:]:  # `-t dir`; `-T` makes the last operand the file written
                return None
        operands = self.positionals()
        return operands[-1] if len(operands) >= 2 else None

    def excluded(self) -> set[int]:
        """Words (by identity) that name what the command leaves out: the value of `--exclude`,
        `--exclude-dir`, `--ignore` (`tar --exclude .env`, `rsync --exclude .env`), zip's `-x` patterns
        (every word up to the next option) and ripgrep's negated globs (`negated_globs`). What is left out
        is never read, so a secret file named there is not handed to the program."""
        if self._excluded is None:
            found: set[int] = set()
            texts = self.texts()
            if not any(o in texts for o in ("--exclude", "--ignore", "-x", "!")):
                self._excluded = found  # (asked by every clause that tests words: screened once a view)
                return found
            zip_ = "zip" in self.names
            if "rg" in self.names:
                found |= negated_globs(self.args)
            after: str | None = None
            for a in self.args:
                t = a.text
                if after == "value":
                    found.add(id(a))
                    after = None
                    continue
                if after == "zip" and t[:1] != "-":
                    found.add(id(a))
                    continue
                after = None
                if t in ("--exclude", "--exclude-dir", "--ignore", "--ignore-dir"):
                    after = "value"
                elif zip_ and t in ("-x", "--exclude"):
                    after = "zip"
            self._excluded = found
        return self._excluded

    def pattern_operand(self) -> Arg | None:
        """The word a searching program takes as its pattern: its first operand (`grep -q .env .gitignore`,
        `Select-String .env .gitignore`, `findstr .env .gitignore`); None when an option anywhere gives the
        pattern (`-e P`, `-f FILE`, `--regexp=P`, `-Pattern P`, `/c:P`, `/g:FILE`), so every operand is a
        file, or when a word known only at run time may be such an option."""
        names = self.names
        first: Arg | None = None
        skip = False
        options_done = False
        for a in self.args:
            t = a.text
            if skip:
                skip = False
                continue
            if DYN in t:
                if not options_done and a.may_be_flag:
                    return None
                first = first or a
                continue
            low = t.lower()
            if "select-string" in names:
                if not a.param:
                    first = first or a
                    continue
                name, glued, _ = low.lstrip("-").partition(":")
                if len(name) >= 3 and "pattern".startswith(name):
                    return None
                skip = not glued and len(name) > 1 and any(v.startswith(name) for v in _SEARCH_VALUED)
            elif "findstr" in names:
                if low[:1] == "/" and len(low) > 1:
                    if low[:3] in ("/c:", "/g:"):
                        return None
                    continue
                first = first or a
            elif options_done or t[:1] != "-" or t == "-":
                first = first or a
            elif t == "--":
                options_done = True
            elif t[:2] == "--":
                name, glued, _ = low.partition("=")
                if len(name) > 3 and any(o.startswith(name) for o in ("--regexp", "--file", "--match")):
                    return None
                skip = not glued and name in _SEARCHER_VALUED_LONG  # `rg --glob .env KEY`: KEY is the pattern
            else:
                valued = _RG_VALUED_SHORT if "rg" in names else "ABCm"
                for k, letter in enumerate(t[1:], 1):
                    if letter in "ef":
                        return None
                    if letter in valued:
                        skip = k == len(t) - 1  # `-A 3`, `rg -g .env KEY`; `-A3` holds its value
                        break
        return first

    def positionals(self) -> list[Arg]:
        """Operands after the command's options (whose values, and how many, its syntax table says)."""
        if self._positionals is None:
            self._positionals = self._operands(self.syntax.value_options, self.syntax.option_words)
        return self._positionals

    def _operands(self, value_options: frozenset[str], option_words: int | None) -> list[Arg]:
        out: list[Arg] = []
        skip = False
        options_done = False
        seen = 0
        for a in self.args:
            if skip:
                skip = False
                continue
            t = a.text
            if not options_done:
                if t == "--":
                    options_done = True
                    continue
                if t in value_options and t[:1] != "-":
                    skip = True  # a BSD-style option word and its value (`ps k size`, `ps o pid,comm`)
                    continue
                if a.param or (
                    len(t) > 1
                    and (
                        (t[0] == "-" or t[0] in self.syntax.option_signs)
                        if DYN not in t
                        else _run_time_value(t, self.syntax.run_time_values)
                        or ((t[0] == "-" or t[0] in self.syntax.option_signs) and _quoted_glued_value(a))
                    )
                ):
                    seen += 1
                    if "=" not in t and t in value_options:
                        skip = True
                    if option_words is not None and seen >= option_words:
                        options_done = True
                    continue
            out.append(a)
        return out

    def before_operands(self, skip: int = 0) -> CommandView:
        """The command with only the words before its first operand (its global options), or before the first
        one after `skip` subcommand words (that subcommand's options: `perf record -a -- sleep 5`, not the
        options of what it runs); made once per view without `skip`, as every clause testing global options
        asks for it."""
        before = None if skip else self._before
        if before is None:
            first = next((a for a in self.positionals()[skip:] if DYN not in a.text), None)
            if first is None:
                return self  # not remembered: a view holding itself would live until the cycle collector
            cut = next(i for i, a in enumerate(self.args) if a is first)
            before = CommandView(self.names, self.argv[: cut + 1], self.dialect, self.syntax)
            if not skip:
                self._before = before
        return before

    def lone_unknown_operand(self) -> bool:
        """Is the only possible operand one word known only at run time, which is therefore either that
        operand or an option, but not both?"""
        operands = self.positionals()
        # Only a quoted word is one word: an unquoted `$x` may split into `-rf` and `/`, and `"$@"` and
        # `"${a[@]}"` give a word per item.
        if len(operands) != 1:
            return False
        word = operands[0]
        return word.text[:1] == DYN and word.raw[:1] == '"' and "@" not in word.raw

    @classmethod
    def cut_off(cls, dialect: Dialect) -> CommandView:
        """The end of a chain of producers followed as far as the engine goes (see `cut`)."""
        view = cls(("",), [Arg(DYN, "<more filters>")], dialect)
        view.cut = True
        return view

    def producers(self) -> list[list[CommandView]]:
        """For each feed of this command, the commands feeding it: nearest first, then upstream of every
        pass-through filter (`find . | grep x | xargs rm`: grep, then find)."""
        if self._producers is None:
            self._producers = self.producers_of() if self.producers_of is not None else []
        return self._producers


def _quoted_glued_value(a: Arg) -> bool:
    """Is `a` a named option whose value, glued after `=` and quoted, is the only part known at run time
    (`-chdir="$dir"`, `--config="$CFG"`)? One word whatever the value holds, so an option, never an operand;
    unquoted (`-chdir=$d`) the value may split into further words."""
    t = a.text
    eq = t.find("=")
    if eq < 2 or DYN in t[:eq]:
        return False
    raw = a.raw
    at = raw.find("=")
    return raw.count('"') == 2 and raw[-1:] == '"' and (raw[:1] == '"' or raw[at + 1 : at + 2] == '"')


def _prefixes(params: list[str]) -> frozenset[str]:
    names = [p.lower().lstrip("-") for p in params]
    return frozenset(name[:i] for name in names for i in range(1, len(name) + 1))


def _index_first_word(subcommands: list[str]) -> dict[str, list[tuple[str, ...]]]:
    index: dict[str, list[tuple[str, ...]]] = {}
    for entry in subcommands:
        seq = tuple(entry.lower().split())
        index.setdefault(seq[0], []).append(seq)
    return index


def _shown_argv(argv: list[Arg]) -> str:
    text = " ".join(" ".join(a.raw for a in argv).split())
    return text if len(text) <= 60 else text[:59] + "…"


def _spared_value(value: str, programs: re.Pattern[str]) -> bool:
    """Is an option's `value` one of `programs` given plain options only (`CommandMatch.values_except`)?"""
    words = value.split() if DYN not in value else []
    return (
        bool(words)
        and programs.fullmatch(words[0]) is not None
        and all(_VALUE_OPTION.fullmatch(w) for w in words[1:])
    )


def _short_values_spared(args: list[Arg], letter: str, programs: re.Pattern[str]) -> bool:
    """Is every value the short option `letter` is given (`-I VALUE`, `-xIVALUE`) a spared program?"""
    for i, a in enumerate(args):
        t = a.text
        if t == "--":
            break
        if t[:1] != "-" or t[:2] == "--" or letter not in t[1:] or DYN in t:
            continue
        glued = t[t.index(letter, 1) + 1 :]
        value = glued or (args[i + 1].text if i + 1 < len(args) else "")
        if not _spared_value(value, programs):
            return False
    return True


def _long_value_spared(args: list[Arg], i: int, programs: re.Pattern[str]) -> bool:
    """Is the value of the long option `args[i]` (`--opt=VALUE`, or the next word) a spared program?"""
    name, eq, value = args[i].text.partition("=")
    if not name.startswith("--"):
        return False
    if not eq:
        value = args[i + 1].text if i + 1 < len(args) else ""
    return _spared_value(value, programs)


_ALL_DIALECTS: frozenset[str] = frozenset({"posix", "powershell", "cmd"})


@record()
class CompiledCommand:
    """A `on = "command"` clause (or one of its `fed_by` producers) ready to test against a `CommandView`."""

    rule: Rule
    commands: re.Pattern[str] | None
    """A `fed_by` producer's command names (a clause's own names select it through the index instead)."""
    shells: frozenset[str]
    short_any: tuple[str, ...]
    long_any: tuple[str, ...]
    short_none: frozenset[str]
    long_none: tuple[str, ...]
    short_valid: frozenset[str] | None
    switches_any: frozenset[str]
    params_any: tuple[tuple[str, str], ...]
    """(lower-case name, name as the rule spells it) pairs."""
    params_none: tuple[str, ...]
    args_any: re.Pattern[str] | None
    args_none: re.Pattern[str] | None
    args_none_exact: re.Pattern[str] | None
    """`args_none` in the case written: a POSIX program's `-L` is not its `-l` (`xfs_repair -L` zeroes the
    log, `-l` names it), so there a word spares a deny clause only as the rule spells it. None for an allow
    entry, whose `args_none` words refuse it in any case."""
    subcommand_none: frozenset[str]
    """A deny clause's bare `args_none` words (lower case): they spare it only as the subcommand, the operand
    right after the clause's `subcommands` words (or the first), never as a value anywhere else."""
    subcommand_at: int
    """How many operands the clause's longest `subcommands` entry spans: the sparing word is looked for up to
    just after them."""
    args_none_alone: bool
    """`args_none` spares only when no other option stands beside it (`CommandMatch.args_none_alone`)."""
    args_none_lone: frozenset[str]
    """The `args_none` words of a deny clause that spare it only as a command's one argument: `-v` is the
    version to some programs and verbose to others (`release-it -V --ci` publishes), `-h` help to most and a
    host to some (`httping -h example.com`)."""
    args_flaglike: bool
    destination_last: frozenset[str]
    pattern_first: frozenset[str]
    operands_any: re.Pattern[str] | None
    first_operand: int | None
    """With `first_operand_only`: how many operands (the subcommand's words) come before the one tested."""
    operand_not_in: re.Pattern[str] | None
    no_operands: bool
    no_args: bool
    only_flags: bool
    no_command: bool
    fed_by: tuple[CompiledCommand, ...]
    fed_through: bool
    global_options: bool
    needs_operand: bool
    size_over: int
    by_first_word: dict[str, list[tuple[str, ...]]] = table()
    sparing_words: tuple[tuple[str, ...], ...] = ()
    """`subcommands_none` as lower-case word sequences (`*` is any word)."""
    flags: bool = False
    """Any POSIX flag test at all (so the flag table is needed)."""
    operands: bool = False
    """Any operand test at all."""
    name_only: bool = False
    """No test beyond the command name (and backend)."""
    leading: bool = False
    """Any subcommand or whole-argument-list test (see `_leading`)."""
    params_any_prefixes: frozenset[str] = frozenset()
    params_none_prefixes: frozenset[str] = frozenset()
    """Every prefix of the parameter names: `-r`, `-Rec` and `-Recurse` all bind `-Recurse`."""
    windows: bool = False
    """Any switch or PowerShell parameter test."""
    script_names: bool = False
    """The clause's programs also ship as scripts (`CommandClause.script_names`)."""
    args_parts: tuple[str, ...] = ()
    """With `CommandMatch.args_parts`: the words `args_any` names as `*WORD*`, in lower case."""
    values_except: re.Pattern[str] | None = None
    """`CommandMatch.values_except`: the programs an option's value may name."""
    args_any_screen: CaselessScreen | None = None
    operands_any_screen: CaselessScreen | None = None
    args_none_screen: CaselessScreen | None = None
    """`glob_screen` of `args_any`, `operands_any` and `args_none`: a command none of whose words holds one
    of the globs' literals needs none of the three regexes (each tried word by word)."""

    @classmethod
    def build(cls, rule: Rule, clause: CommandMatch, *, deny: bool = True) -> CompiledCommand:
        # A deny clause's bare words (`status`, `version`) name a subcommand: they spare it only there, not as
        # a value (`ufw allow 22 comment status`, `restic forget --tag version`, `mysqladmin drop db status`).
        subcommand_words = (
            [g for g in clause.args_none if _BARE_WORD.fullmatch(g)]
            if deny and not clause.global_options
            else []
        )
        anywhere = [g for g in clause.args_none if g not in subcommand_words]

        def split(flags: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
            return tuple(f[1] for f in flags if len(f) == 2), tuple(f for f in flags if len(f) > 2)

        short_any, long_any = split(clause.flags_any)
        short_none, long_none = split(clause.flags_none)
        operand_not_in = None
        if clause.operand_not_in is not None:
            operand_not_in = glob_regex(clause.operand_not_in)
        shells = frozenset(clause.shells) if isinstance(clause, CommandClause) else _ALL_DIALECTS
        fed_by = ()
        if isinstance(clause, CommandClause):
            fed_by = tuple(cls.build(rule, spec, deny=deny) for spec in clause.fed_by)
        return cls(
            rule=rule,
            commands=None if isinstance(clause, CommandClause) else glob_regex(clause.commands),
            shells=shells,
            short_any=short_any,
            long_any=long_any,
            short_none=frozenset(short_none),
            long_none=long_none,
            short_valid=frozenset(clause.short_flags) if clause.short_flags else None,
            switches_any=frozenset(
                s.lower() if s.startswith("/") else "/" + s.lower().lstrip("-") for s in clause.switches_any
            ),
            params_any=tuple((p.lower().lstrip("-"), p.lstrip("-")) for p in clause.params_any),
            params_none=tuple(p.lower().lstrip("-") for p in clause.params_none),
            args_any=globs_except(clause.args_any, clause.args_except) if clause.args_any else None,
            values_except=glob_regex(clause.values_except) if clause.values_except else None,
            destination_last=frozenset(clause.destination_last),
            pattern_first=frozenset(clause.pattern_first),
            args_none=glob_regex(anywhere) if anywhere else None,
            args_none_exact=glob_regex(anywhere, fold=False) if deny and anywhere else None,
            subcommand_none=frozenset(w.lower() for w in subcommand_words),
            subcommand_at=max((len(e.split()) for e in clause.subcommands), default=0),
            args_none_lone=_LONE_SWITCHES.intersection(clause.args_none) if deny else frozenset(),
            args_none_alone=deny and clause.args_none_alone,
            args_flaglike=any(g.startswith("-") for g in clause.args_any),
            operands_any=_operands_regex(clause.operands_any, clause.operand_paths),
            first_operand=(len(clause.subcommands[0].split()) if clause.subcommands else 0)
            if clause.first_operand_only
            else None,
            operand_not_in=operand_not_in,
            no_operands=clause.no_operands,
            no_args=clause.no_args,
            only_flags=clause.only_flags,
            no_command=clause.no_command,
            fed_by=fed_by,
            fed_through=clause.fed_through if isinstance(clause, CommandClause) else True,
            script_names=isinstance(clause, CommandClause) and clause.script_names,
            global_options=clause.global_options,
            needs_operand=clause.needs_operand,
            size_over=_size_limit(clause.size_over),
            by_first_word=_index_first_word(clause.subcommands),
            sparing_words=tuple(tuple(entry.lower().split()) for entry in clause.subcommands_none),
            flags=bool(short_any or long_any or short_none or long_none or clause.short_flags),
            operands=bool(
                clause.operands_any
                or clause.operand_paths
                or clause.no_operands
                or operand_not_in is not None
            ),
            leading=bool(
                clause.subcommands
                or clause.subcommands_none
                or clause.args_none
                or clause.no_args
                or clause.only_flags
                or clause.no_command
            ),
            windows=bool(clause.switches_any or clause.params_any or clause.params_none),
            params_any_prefixes=_prefixes(clause.params_any),
            params_none_prefixes=_prefixes(clause.params_none),
            args_parts=tuple(
                g[1:-1].lower()
                for g in clause.args_any
                if len(g) > 2 and g[0] == g[-1] == "*" and not _GLOB_WILDCARD.search(g[1:-1])
            )
            if clause.args_parts
            else (),
            args_any_screen=glob_screen(clause.args_any),
            operands_any_screen=None if clause.operand_paths else glob_screen(clause.operands_any),
            args_none_screen=glob_screen(anywhere),
            name_only=not (
                clause.subcommands
                or clause.subcommands_none
                or clause.flags_any
                or clause.flags_none
                or clause.short_flags
                or clause.switches_any
                or clause.params_any
                or clause.params_none
                or clause.args_any
                or clause.args_none
                or clause.operands_any
                or clause.operand_paths
                or clause.operand_not_in is not None
                or clause.no_operands
                or clause.no_args
                or clause.only_flags
                or clause.no_command
                or clause.size_over
                or fed_by
            ),
        )

    def _feeds(self, producer: CommandView) -> int:
        """How well `producer` matches any of this clause's `fed_by` commands (a `Tri` value)."""
        best = NO
        for spec in self.fed_by:
            names = spec.commands
            if names is not None and any(names.match(n) for n in producer.names):
                best = max(best, spec.check(producer)[0])
                if best == MATCH:
                    break
        return best

    def check(self, view: CommandView) -> tuple[int, str]:
        """Three-valued match (a `Tri` value) plus a few words on what decided it."""
        if view.dialect not in self.shells and not (view.windows_program and "cmd" in self.shells):
            return _NO
        if self.fed_by and view.producers_of is None:
            return _NO
        if self.name_only:
            return _MATCH  # `curl`, `mkfs`, `shred`: the name alone decides
        full = view
        if self.global_options:
            view = view.before_operands(self.subcommand_at)
        state = MATCH
        detail: list[str] = []
        args = view.args
        # (`subcommands` still names the first operand itself: `adb -s SERIAL shell`)
        if self.leading and (state := self._leading(full if self.by_first_word else view, detail)) == NO:
            return _NO
        if self.flags:
            short, long, dyn, clusters = view.posix_flags()
            valid = self.short_valid
            if valid is not None:
                for cluster in clusters:
                    if not valid.issuperset(cluster):
                        return _NO  # the program rejects the word before it does anything
            if self.short_none and not self.short_none.isdisjoint(short):
                return _NO
            if long and self.long_none:
                for flag in self.long_none:
                    if self._long_hit(flag, long):
                        return _NO
            if self.short_any or self.long_any:
                hit = None
                for letter in self.short_any:
                    if letter in short and not (
                        self.values_except is not None
                        and _short_values_spared(args, letter, self.values_except)
                    ):
                        hit = "-" + letter
                        break
                if hit is None and long:
                    for flag in self.long_any:
                        if self._long_hit(flag, long):
                            hit = flag
                            break
                if hit is not None:
                    detail.append(hit)
                elif dyn and not (self.needs_operand and view.lone_unknown_operand()):
                    state = UNKNOWN
                else:
                    return _NO
        if self.windows:
            got = self._windows(view, detail)
            if got == NO:
                return _NO
            if got < state:
                state = got
        if self.operands:
            operands = view.positionals()
            if self.no_operands and operands:
                if any(DYN not in a.text for a in operands):
                    return _NO
                state = UNKNOWN  # `xargs pkill -u dev`: names may come, or may not
            if self.operands_any is not None:
                match = self.operands_any.match
                hit_operand = None
                tested = operands
                if self.first_operand is not None:
                    tested = operands[self.first_operand : self.first_operand + 1]
                screen = self.operands_any_screen
                # Without the screen's literal in any word, no literal operand can match.
                if screen is None or screen.search(view.texts()) is not None:
                    literal = (a.text for a in tested if DYN not in a.text)
                    hit_operand = next(
                        (
                            t
                            for t in literal
                            if (not _ruled_out(screen, t) and match(t))
                            or (("//" in t or "\\\\" in t) and _doubled_match(match, t))
                            or (".." in t and _climbed_match(match, t))
                        ),
                        None,
                    )
                if hit_operand is None and DYN in view.texts():  # only a run-time word can be `$HOME` or `$0`
                    hit_operand = next((h for h in map(spelled, tested) if h and match(h)), None)
                    if hit_operand is None:
                        hit_operand = next((a.raw for a in tested if _tail_anywhere(a.text, match)), None)
                    if hit_operand is None and self.first_operand is not None:
                        # the one word a launcher fetches (`go run pkg@$V`): its written start names it
                        hit_operand = next((a.raw for a in tested if _head_anywhere(a.text, match)), None)
                if hit_operand is None:
                    return _NO
                detail.append(hit_operand)
            if self.operand_not_in is not None:
                outside = None
                unknown = False
                first = self.first_operand
                for a in operands if first is None else operands[first : first + 1]:
                    if a.block or a.raw[:2] in (">(", "<("):
                        # a literal script block, or a process substitution (`tee >(cat 1>&2)`): a pipe to
                        # commands checked on their own, not a file
                        continue
                    if DYN in a.text:
                        # the one operand tested may be known by its written start (`"file://$PWD"`)
                        if first is None or not self.operand_not_in.match(a.text):
                            unknown = True
                    elif not self.operand_not_in.match(a.text):
                        outside = a.text
                        break
                if outside is not None:
                    detail.append(outside)
                elif unknown:
                    state = UNKNOWN
                else:
                    return _NO
        if self.args_any is not None:
            hit_arg = None
            dyn = False
            match = self.args_any.match
            screen = self.args_any_screen
            searched = args
            texts = view.texts()
            if "\\\\" in texts:
                texts = _DOUBLED_BACKSLASH.sub(r"\\", texts)
            if screen is not None and screen.search(texts) is None:
                # No word (nor a part of one) holds a literal every match needs: only a run-time word
                # that may be a flag can still be one.
                dyn = self.args_flaglike and any(DYN in a.text and view.may_add_flag(a) for a in args)
                args = []
            written = None
            if self.destination_last and not self.destination_last.isdisjoint(view.names):
                written = view.written_operand()
            elif self.pattern_first and not self.pattern_first.isdisjoint(view.names):
                written = view.pattern_operand()
            excluded = view.excluded()
            for i, a in enumerate(args):
                if a is written or id(a) in excluded:
                    # where a copy goes is not read (`cp .env.example .env`), nor a search's pattern, nor what
                    # the command leaves out (`tar --exclude .env`)
                    continue
                t = a.text
                if DYN not in t:
                    if "\\\\" in t:
                        # a key or path written with doubled backslashes (`HKCU\\Software\\x`) is read as
                        # Windows reads it: single
                        t = _DOUBLED_BACKSLASH.sub(r"\\", t)
                    if _ruled_out(screen, t):
                        continue  # (nor can its value after a `:`, a part of it)
                    if match(t) and not (
                        self.values_except is not None and _long_value_spared(args, i, self.values_except)
                    ):
                        hit_arg = t
                        break
                    if a.param and ":" in t and match(value := t.partition(":")[2]):
                        hit_arg = value  # `-Path:env:SECRET` passes `env:SECRET` like `-Path env:SECRET`
                        break
                elif (self.args_flaglike and view.may_add_flag(a)) or (
                    not _ruled_out(screen, t) and match(t)
                ):
                    # `*` spans the run-time part, so `core.pager="$x"` may well be `core.pager*`.
                    dyn = True
            if hit_arg is None and self.args_parts:
                # `Get-Service | ? DisplayName -like '*sysm*'` looks for Sysmon by part of its name
                plain = not _TEXT_SEARCHES.isdisjoint(view.names)
                hit_arg = next(
                    (
                        a.text
                        for a in searched
                        if DYN not in a.text and _reaches_part(a.text, self.args_parts, plain)
                    ),
                    None,
                )
            if hit_arg is not None:
                detail.append(hit_arg)
            elif dyn:
                state = UNKNOWN
            else:
                return _NO
        if self.size_over:
            sizes = [size_in_bytes(a.text) for a in view.args if DYN not in a.text]
            over = max((n for n in sizes if n is not None), default=0)
            if over > self.size_over:
                detail.append(f"{over / 2**30:.1f} GiB")
            elif any(DYN in a.text for a in view.args):
                state = UNKNOWN
            else:
                return _NO
        if self.fed_by:
            best_feed = NO
            feeder = ""
            for chain in view.producers():
                for producer in chain if self.fed_through else chain[:1]:
                    if producer.cut:  # an unseen producer may be any of them
                        if best_feed < UNKNOWN:
                            best_feed, feeder = UNKNOWN, "more filters than are followed"
                        continue
                    asked = producer.fed_checks
                    if asked is None:
                        asked = producer.fed_checks = {}
                    got = asked.get(id(self))
                    if got is None:
                        got = asked[id(self)] = self._feeds(producer)  # clauses live as long as the policy
                    if got > best_feed:
                        best_feed = got
                        feeder = _shown_argv(producer.argv)
                    if best_feed == MATCH:
                        break
                if best_feed == MATCH:
                    break
            if best_feed == NO:
                return _NO
            detail.append(f"fed by `{feeder}`")
            if best_feed < state:
                state = best_feed
        return state, ", ".join(detail)

    def _windows(self, view: CommandView, detail: list[str]) -> int:
        """Switch (`/s`) and PowerShell parameter (`-Recurse`) tests."""
        state = MATCH
        if self.switches_any:
            found, dyn = view.switches()
            hits = sorted(self.switches_any & found)
            if hits:
                detail.append(" ".join(hits))
            elif dyn:
                state = UNKNOWN
            else:
                return NO
        if self.params_any or self.params_none:
            params, dyn = view.params()
            # A given name binds every parameter it is a prefix of: look the names up among the prefixes.
            given = [name for name, value in params if name and value not in _OFF_VALUES]
            none = self.params_none_prefixes
            if none:
                # A switch that spares the command (`-WhatIf`) counts only when surely on: bare or `:$true`.
                # `-WhatIf:$false`, `-WhatIf:$x` and a `-WhatIf` after `--` (a path) spare nothing.
                cut = view._params_cut
                for name, value in params[:cut] if cut is not None else params:
                    if name in none and _surely_given(value):
                        return NO
            if self.params_any:
                hits = [name for name in given if name in self.params_any_prefixes]
                if hits:
                    shown = next(s for p, s in self.params_any if any(p.startswith(h) for h in hits))
                    detail.append("-" + shown)
                elif dyn:
                    state = UNKNOWN
                else:
                    return NO
        return state

    def _leading(self, view: CommandView, detail: list[str]) -> int:
        """Subcommand and whole-argument-list tests (`git clean`, `set` with no arguments, `env` alone)."""
        state = MATCH
        args = view.args
        if self.by_first_word:
            pos = view.positionals()
            if not pos:
                return NO
            first = pos[0].text
            if DYN in first:
                state = UNKNOWN
            else:
                best = NO
                for seq in self.by_first_word.get(first.lower(), ()):
                    got = self._subcommand(pos, seq)
                    if got > best:
                        best = got
                        if got == MATCH:
                            detail.append(" ".join(seq))
                            break
                if best == NO:
                    return NO
                state = best
        if self.sparing_words and self._spared(view.positionals()):
            return NO
        if (
            self.args_none is not None
            and (self.args_none_screen is None or self.args_none_screen.search(view.texts()) is not None)
            and self._spared_by_word(args, view)
        ):
            return NO
        if self.subcommand_none:
            for a in view.positionals()[: self.subcommand_at + 1]:
                if a.text.lower() in self.subcommand_none:
                    return NO
        if self.no_args and args:
            return NO
        if self.only_flags:
            for a in args:
                if DYN in a.text and a.may_be_flag:
                    state = UNKNOWN  # `export $OPTS` may be `export -p`; `export "X=$(…)"` is no flag
                elif not (a.text[:1] in ("-", "+") and len(a.text) > 1):
                    return NO
        if self.no_command:
            if view.has_command is True:
                return NO
            if view.has_command is None:
                state = UNKNOWN
        return state

    def _spared_by_word(self, args: list[Arg], view: CommandView) -> bool:
        """Does an `args_none` word spare the command? Not `-v`/`-h` beside other words (`args_none_lone`),
        not an option-like word after `--`, and with `args_none_alone` only when no other option stands
        beside the reading ones."""
        none = self.args_none.match  # type: ignore[union-attr]
        if self.args_none_exact is not None and view.dialect == "posix" and not view.windows_program:
            none = self.args_none_exact.match
        alone = self.args_none_alone
        switches = view.dialect != "posix" or view.windows_program
        options_done = False
        spared = False
        for a in args:
            t = a.text
            if t == "--" and not options_done and view.dialect != "cmd":
                options_done = True  # after it `--help` is a file, a URL or a word passed on
                continue
            option = t[:1] == "-" or (t[:1] == "/" and switches)
            if none(t) and not (options_done and option):
                if alone:
                    spared = True
                    continue
                if len(args) == 1 or t not in self.args_none_lone:
                    return True
            if alone and not options_done and option:
                return False  # another option beside the reading one may change something
        return spared

    def _spared(self, pos: list[Arg]) -> bool:
        """Do the operands spell one of `subcommands_none`, and nothing more (a last `**` takes any words
        after)? A word known only at run time spares nothing unless the entry takes any word there."""
        for seq in self.sparing_words:
            rest = seq[-1:] == ("**",)
            head = seq[:-1] if rest else seq
            if (len(pos) >= len(head) if rest else len(pos) == len(head)) and all(
                word == "*" or (DYN not in a.text and a.text.lower() == word)
                for a, word in zip(pos, head, strict=False)
            ):
                return True
        return False

    @staticmethod
    def _long_hit(flag: str, given: list[str]) -> bool:
        # getopt_long accepts any unambiguous prefix (`--rec`); treating every prefix as a hit fails closed.
        return any(g == flag or (len(g) >= 3 and flag.startswith(g)) for g in given)

    @staticmethod
    def _subcommand(pos: list[Arg], seq: tuple[str, ...]) -> int:
        if len(pos) < len(seq):
            return UNKNOWN if any(DYN in a.text for a in pos) else NO
        state = MATCH
        for a, word in zip(pos, seq, strict=False):
            if word == "*":
                continue  # any one word (`with-profile * deps`: the profile's name)
            if DYN in a.text:
                state = UNKNOWN
            elif a.text.lower() != word:
                return NO
        return state


@record()
class RuleIndex:
    """Every clause of every rule, indexed the way the engine asks for them."""

    by_name: dict[str, list[CompiledCommand]] = table()
    by_glob: list[tuple[tuple[str, str, tuple[str, ...]], re.Pattern[str], CompiledCommand]] = many()
    """Clauses naming commands by glob: (what every match holds literally, the glob, the clause)."""
    glob_keys: dict[str, tuple[int, ...]] = table()
    """Three letters of a literal every match of the glob holds -> the `by_glob` positions it screens, so a
    new command name is tried against the few globs sharing one of its trigrams, not all of them."""
    glob_always: tuple[int, ...] = ()
    """`by_glob` positions with no literal of three letters: tried for every name."""
    by_verb: dict[str, list[tuple[re.Pattern[str], CompiledCommand]]] = table()
    """Clauses naming cmdlets by noun under a list of verbs (`CommandClause.verbs`): a verb -> (the nouns'
    glob, the clause) of each, so a name is tried only against the clauses holding its verb."""
    redirects: list[tuple[Rule, RedirectClause, re.Pattern[str]]] = many()
    variables: dict[Dialect, list[tuple[Rule, re.Pattern[str], frozenset[str]]]] = table()
    payloads: dict[str, list[tuple[Rule, PayloadClause, PatternList]]] = table()
    """Per language, each clause's patterns behind their literal screens."""
    dotnet: dict[str, list[tuple[Rule, re.Pattern[str] | None]]] = table()
    arguments: dict[Dialect, list[tuple[Rule, re.Pattern[str], CaselessScreen | None]]] = table()
    """Argument globs and sensitive paths, tested against every argument and redirection target, each with
    the screen of its own literal fragments (a word passing `argument_screen` holds one rule's fragment,
    seldom every rule's: the few rules' patterns of thousands of characters are not worth trying on it)."""
    payload_screen: dict[str, AnyScreen | None] = table()
    """Per language, literal fragments one of which any payload a pattern matches contains."""
    argument_screen: dict[Dialect, CaselessScreen | None] = table()
    """Per dialect, literal fragments one of which any matching argument must contain (searched once in all
    of a command's words); None when some pattern has no literal part, so every argument is tried."""
    locators: dict[Dialect, list[tuple[Rule, LocatorMatcher, frozenset[str]]]] = table()
    """Per dialect, (rule, the locator expression, the programs it spares) for words naming a machine."""
    glob_paths: dict[Dialect, GlobPaths] = table()
    """Per dialect, the path rules' globs a glob word is expanded against (`/home/*/.*hist*`)."""
    engine: dict[str, Rule] = table()
    syntax: dict[str, SyntaxInfo] = table()
    """Per command name, what decides where its operands start."""

    def syntax_for(self, names: tuple[str, ...]) -> SyntaxInfo:
        """The syntax of a command known by several names (an alias and its target): options of both."""
        found = [self.syntax[n] for n in names if n in self.syntax]
        if not found:
            return _NO_SYNTAX
        if len(found) == 1:
            return found[0]
        counts = [s.option_words for s in found if s.option_words is not None]
        return SyntaxInfo(
            frozenset().union(*(s.value_options for s in found)),
            min(counts) if counts else None,
            "".join(sorted({c for s in found for c in s.option_signs})),
            tuple(sorted({p for s in found for p in s.run_time_values})),
        )

    def commands_for(self, names: tuple[str, ...]) -> list[CompiledCommand]:
        found: list[CompiledCommand] = []
        # A clause naming both an alias and its target (`rm`, `remove-item`) is checked once.
        for name in names:
            for compiled in self.by_name.get(name, ()):
                if not any(c is compiled for c in found):
                    found.append(compiled)
        if self.by_verb and not names[0].endswith(SCRIPT_EXTENSIONS):
            for name in names:
                verb, dash, noun = name.partition("-")
                for nouns, compiled in self.by_verb.get(verb, ()) if dash else ():
                    if nouns.match(noun) and not any(c is compiled for c in found):
                        found.append(compiled)
        if self.by_glob:
            # A script's file name matched by a glob (`Update-AzCommandsMetadata.ps1` by `*-az?*`) names the
            # project's script, not the program, unless the program ships as scripts (`script_names`).
            script = names[0].endswith(SCRIPT_EXTENSIONS)
            for position in self._glob_candidates(names):
                literals, pattern, compiled = self.by_glob[position]
                if script and not compiled.script_names:
                    continue
                # The literals rule out most names without the glob's regex (compiled on first use).
                if any(_may_match(literals, n) and pattern.match(n) for n in names) and not any(
                    c is compiled for c in found
                ):
                    found.append(compiled)
        return found

    def _glob_candidates(self, names: tuple[str, ...]) -> list[int]:
        """Positions in `by_glob` (in order) whose literals `names` may hold: every position for a name
        that is not ASCII (`_may_match` cannot rule it out), else those sharing a trigram with it."""
        if not all(n.isascii() for n in names):
            return list(range(len(self.by_glob)))
        keys = self.glob_keys
        found = set(self.glob_always)
        for name in names:
            for trigram in _trigrams(name.lower()):
                found.update(keys.get(trigram, ()))
        return sorted(found)


def _may_match(literals: tuple[str, str, tuple[str, ...]], name: str) -> bool:
    if not name.isascii():
        return True
    head, tail, pieces = literals
    name = name.lower()
    return name.startswith(head) and name.endswith(tail) and all(p in name for p in pieces)


SCRIPT_EXTENSIONS = (".py", ".ps1", ".psm1", ".psd1", ".sh", ".pl", ".rb")
"""Extensions of the scripts a tool may ship as (see `CommandClause.script_names`)."""


def dotnet_key(name: str) -> str:
    """`[System.Net.WebClient]` / `system.net.webclient` / `Net.WebClient` -> `net.webclient`."""
    key = name.strip().strip("[]").split("[", 1)[0].lower()
    return key.removeprefix("system.")


def build_index(rules: list[Rule], syntax: dict[str, SyntaxSpec]) -> RuleIndex:
    """Compile every clause; invalid regular expressions surface as `ValueError` naming the pattern."""
    tables: dict[str, SyntaxInfo] = {}
    for spec in syntax.values():
        for n in spec.names:
            tables[n] = SyntaxInfo(
                frozenset(spec.value_options),
                spec.option_words,
                spec.option_signs,
                tuple(spec.run_time_values),
            )
    index = RuleIndex(syntax=tables)
    literals: dict[Dialect, list[str]] = {}
    path_globs: dict[Dialect, list[str]] = {}
    payloads: dict[str, list[tuple[Rule, PayloadClause, list[re.Pattern[str]]]]] = {}
    for rule in rules:
        for clause in rule.when:
            if isinstance(clause, CommandClause):
                compiled = CompiledCommand.build(rule, clause)
                if clause.verbs:
                    nouns = glob_regex([name.lower()[2:] for name in clause.commands])
                    for verb in clause.verbs:
                        index.by_verb.setdefault(verb.lower(), []).append((nouns, compiled))
                    continue
                suffixes = ("", *SCRIPT_EXTENSIONS) if clause.script_names else ("",)
                for name in clause.commands:
                    for key in [name.lower() + suffix for suffix in suffixes]:
                        if any(ch in key for ch in "*?["):
                            index.by_glob.append((glob_literals(key), glob_regex([key]), compiled))
                        else:
                            index.by_name.setdefault(key, []).append(compiled)
            elif isinstance(clause, RedirectClause):
                index.redirects.append((rule, clause, glob_regex(clause.allow_targets)))
            elif isinstance(clause, VariableClause):
                pattern = compile_once("|".join(f"(?:{n})" for n in clause.names), re.IGNORECASE)
                printers = frozenset(p.lower() for p in clause.printed_by)
                for shell in clause.shells:
                    index.variables.setdefault(shell, []).append((rule, pattern, printers))
            elif isinstance(clause, PayloadClause):
                try:
                    patterns = [compile_once(p) for p in clause.patterns]
                except re.error as exc:
                    raise ValueError(f"rule {rule.id}: bad payload pattern: {exc}") from exc
                for language in clause.languages:
                    payloads.setdefault(language, []).append((rule, clause, patterns))
            elif isinstance(clause, DotnetClause):
                members = glob_regex(clause.members) if clause.members else None
                for type_name in clause.types:
                    index.dotnet.setdefault(dotnet_key(type_name), []).append((rule, members))
            elif isinstance(clause, ArgumentClause | PathClause):
                if isinstance(clause, ArgumentClause):
                    pattern = glob_regex(clause.globs)
                    needles = [_needle(g) for g in clause.globs]
                else:
                    pattern = path_regex(clause.paths, clause.except_paths, clause.outside_project)
                    needles = [_path_needle(p) for p in clause.paths]
                    for shell in clause.shells:
                        path_globs.setdefault(shell, []).extend(clause.paths)
                own = CaselessScreen.of(needles)
                for shell in clause.shells:
                    index.arguments.setdefault(shell, []).append((rule, pattern, own))
                    literals.setdefault(shell, []).extend(needles)
            elif isinstance(clause, LocatorClause):
                spared = frozenset(c.lower() for c in clause.except_commands)
                for shell in clause.shells:
                    pattern = locator_regex(
                        clause.kinds,
                        clause.local_schemes,
                        shell,
                        clause.machine_options,
                        clause.host_options,
                        clause.machine_parameters,
                    )
                    pattern.only = frozenset(c.lower() for c in clause.commands)
                    pattern.naming = frozenset(o.lower() for o in clause.naming_options)
                    pattern.local = frozenset(c.lower() for c in clause.local_commands)
                    pattern.services = frozenset(c.lower() for c in clause.service_schemes)
                    index.locators.setdefault(shell, []).append((rule, pattern, spared))
            else:
                index.engine[clause.event] = rule
    index.glob_keys, index.glob_always = _glob_screen(index.by_glob)
    for shell, found in literals.items():
        index.argument_screen[shell] = CaselessScreen.of(found)
    index.glob_paths = {shell: GlobPaths(paths) for shell, paths in path_globs.items()}
    tries: dict[tuple[tuple[str, ...], int], re.Pattern[str]] = {}
    for language, entries in payloads.items():
        index.payload_screen[language] = AnyScreen.build([p for _, _, patterns in entries for p in patterns])
        # A clause's verdict needs one match of any of its patterns: only those whose literals a payload
        # holds are searched, as one alternation where joining them cannot change the match.
        index.payloads[language] = [(r, c, PatternList.build(patterns, tries)) for r, c, patterns in entries]
    return index


def _glob_screen(
    by_glob: list[tuple[tuple[str, str, tuple[str, ...]], re.Pattern[str], CompiledCommand]],
) -> tuple[dict[str, tuple[int, ...]], tuple[int, ...]]:
    """Each glob under the rarest trigram of its longest literal (which every name it matches holds,
    case-folded), or among those tried always when it has none that long. The rarest, not the first:
    globs of one family share their first letters (`set-storage*`, `set-vm*`), and a key they all share
    would send every `set-…` name to all of them."""
    longest: list[str] = [max((head, tail, *pieces), key=len) for (head, tail, pieces), _, _ in by_glob]
    counts = Counter(t for literal in longest for t in set(_trigrams(literal)))
    keys: dict[str, list[int]] = {}
    always: list[int] = []
    for position, literal in enumerate(longest):
        if len(literal) < 3:
            always.append(position)
        else:
            rarest = min(_trigrams(literal), key=lambda t: (not t.isalnum(), counts[t]))
            keys.setdefault(rarest, []).append(position)
    return {k: tuple(v) for k, v in keys.items()}, tuple(always)


def _trigrams(text: str) -> list[str]:
    """Every run of three characters in `text`, in order."""
    return [text[i : i + 3] for i in range(len(text) - 2)]


def _needle(glob: str) -> str:
    """The longest literal run of a glob: every word the glob matches contains it (in any case)."""
    return max(re.split(r"\*+|\?|\[[^\]]*\]", glob), key=len)


def _path_needle(glob: str) -> str:
    """The longest literal run within one component of a path glob (`/` also matches `\\`, so a run
    never spans one): every path the glob matches contains it, however its home part is spelled."""
    return max((_needle(part) for part in glob.removeprefix("~/").split("/")), key=len)
