"""The small intermediate form the parsers hand to the engine: words, stdin sources and the nesting frame."""

from __future__ import annotations

import re
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from ._lazy import lazy_re
from ._models import Dialect

DYN = "\x00"
"""Stands for a part of a word whose value is only known when the shell runs (`$x`, `$(...)`)."""


class Arg(NamedTuple):
    """One word of a simple command after quote removal.

    `text` is the literal value with `DYN` where an expansion sits; `param` marks a PowerShell `-Name` token
    (a quoted '-Name' is a value, not a parameter); `block` marks a script block the parser walks itself;
    `follows` marks a later element of a PowerShell array written as one argument (`a,b`), which binds to
    the parameter or position the element before it does. A named tuple, because parsers make one per word
    and tuples are the cheapest immutable objects.
    """

    text: str
    raw: str
    param: bool = False
    block: bool = False
    splat: bool = False
    follows: bool = False

    @property
    def literal(self) -> bool:
        return DYN not in self.text

    @property
    def may_be_flag(self) -> bool:
        """Could this word be read as an option by the program (POSIX getopt or PowerShell binding)?"""
        return self.text[:1] in ("-", DYN) or self.splat


def lit(text: str) -> Arg:
    """A literal word (from a decoded or split string) whose raw form is its value."""
    return Arg(text, text)


class Feed:
    """A command whose output another one consumes as operands or pipeline input, found only if asked.

    `producer()` gives that command's words and the feed of its own input (`find . | grep x | xargs rm`:
    grep's feed is find), or None when the producer is not a simple command. `source`: the text of the
    command substitution it is (`$(find src)`), so the word it makes can be told apart from others.
    """

    __slots__ = ("_compute", "_done", "_value", "source")

    def __init__(self, compute: Callable[[], tuple[list[Arg], Feed | None] | None]) -> None:
        self._compute = compute
        self._done = False
        self._value: tuple[list[Arg], Feed | None] | None = None
        self.source: str | None = None

    @property
    def computed(self) -> bool:
        """Has the producer been read already (so asking again costs nothing)?"""
        return self._done

    def producer(self) -> tuple[list[Arg], Feed | None] | None:
        if not self._done:
            self._done = True
            self._value = self._compute()
        return self._value


class Stdin:
    """What a command reads on standard input, computed only if a consumer asks for it."""

    __slots__ = ("_compute", "_done", "_text", "feed", "origin", "path")

    def __init__(
        self,
        origin: str,
        text: str | None = None,
        compute: Callable[[], str | None] | None = None,
        feed: Feed | None = None,
        path: Arg | None = None,
    ):
        self.origin = origin
        self._text = text
        self._compute = compute
        self._done = compute is None
        self.feed = feed
        """The command writing into the pipe, when the input is a pipe."""
        self.path = path
        """The file named by the redirection, when the input is a file (`sh < x.sh`)."""

    def text(self) -> str | None:
        """The literal text, or None when it cannot be known before running."""
        if not self._done:
            self._done = True
            assert self._compute is not None
            self._text = self._compute()
        return self._text

    @property
    def is_file(self) -> bool:
        return self.origin == "file"


class Frame:
    """Where a script sits: nesting depth, the wrappers around it, and what the script itself defined.

    A plain class rather than a dataclass: one is made per check and per nested script, and the
    generated `__init__` calls a factory for each default dict.
    """

    __slots__ = ("aliases", "constants", "depth", "dialect", "feeds", "variables", "via")

    def __init__(
        self,
        dialect: Dialect,
        depth: int = 0,
        via: tuple[str, ...] = (),
        variables: dict[str, str] | None = None,
        aliases: dict[str, str] | None = None,
        feeds: tuple[Feed, ...] = (),
    ) -> None:
        self.dialect = dialect
        self.depth = depth
        self.via = via
        self.variables = {} if variables is None else variables
        """Variables assigned a literal value earlier in the same script (only used to explain names)."""
        self.aliases = {} if aliases is None else aliases
        self.feeds = feeds
        """What feeds the command that runs this script (`find . -exec sh -c 'rm "$1"' _ {} ;`)."""
        self.constants: dict[str, str] | None = None
        """The walking script's constants (see `PosixWalker.constants`), for the `trap` body it sets."""

    def nested(self, how: str, dialect: Dialect | None = None) -> Frame:
        """A frame for a script or command run by a wrapper; definitions do not leak across processes."""
        return Frame(dialect or self.dialect, self.depth + 1, (*self.via, how), feeds=self.feeds)

    def wrapped(self, how: str) -> Frame:
        """Same script, one wrapper deeper (shares definitions)."""
        return Frame(self.dialect, self.depth + 1, (*self.via, how), self.variables, self.aliases, self.feeds)

    def fed(self, feeds: tuple[Feed, ...]) -> Frame:
        """The same frame, for what a fed command runs in turn (shares definitions)."""
        return Frame(self.dialect, self.depth, self.via, self.variables, self.aliases, feeds)

    def where(self) -> str:
        if not self.via:
            return ""
        return " (inside " + " → ".join(self.via) + ")"


MADE_TEMP = "/tmp/tmp.\x01mktemp"
"""What a variable the line set once from `$(mktemp -d)` reads as: a new name in the temp folder, spelled so
that no typed word names it."""


def in_made_temp(text: str) -> bool:
    """Is `text` the folder or file `mktemp` made for the line, or a path inside it that `..` cannot leave?"""
    return text.startswith(MADE_TEMP) and (
        len(text) == len(MADE_TEMP) or (text[len(MADE_TEMP)] == "/" and ".." not in text)
    )


def new_parser(grammar: str) -> Any:
    """A tree-sitter parser for `grammar` ("bash", "powershell"); imported late to keep start-up cheap."""
    import tree_sitter

    return tree_sitter.Parser(tree_sitter.Language(_grammar_binding(f"tree_sitter_{grammar}").language()))


def _grammar_binding(package: str) -> Any:
    """The compiled grammar of `package` (its `_binding` extension, which holds `language()`).

    The package's `__init__` only re-exports it, after importing `importlib.resources` for highlighting
    queries nobody here reads, which costs a `policy check` as much as parsing and checking together; so
    the extension is loaded from the package's folder by its own name, and through the package only when
    it is not found there."""
    import importlib
    import importlib.machinery
    import importlib.util
    import os

    name = f"{package}._binding"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(package)
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "_binding" + suffix)
            if os.path.isfile(path):
                loader = importlib.machinery.ExtensionFileLoader(name, path)
                binding_spec = importlib.util.spec_from_file_location(name, path, loader=loader)
                if binding_spec is None:
                    break
                module = importlib.util.module_from_spec(binding_spec)
                loader.exec_module(module)
                sys.modules[name] = module
                return module
    return importlib.import_module(name)


PARSE_BUDGET_S = 0.020
"""Seconds the parses of one check may take together (the line and every script nested in it). Some
grammars take seconds on some large inputs; a check must answer within 50 ms, and a line that hands a long
command line on (`forfiles /c "…"` of 30 kB) is parsed twice before its words are walked."""
_READ_CHUNK = 4096
"""Bytes handed to the parser per read of a timed parse (each read looks at the clock)."""
_TIMED_FROM = 512
"""Shorter sources parse within a few milliseconds, so they skip the timed path and its cost (a few percent
of a parse). Longer ones may not: PowerShell's grammar takes the square of the length to recover from a
stray `}` before many words (`x } /b- /b- …`: 6 ms at 420 bytes, 90 ms at 2 kB)."""


MAX_WORK = 4500
"""Syntax nodes parsed plus words of simple commands, summed over a line and everything nested in it (and
the extra units of steps that cost more: disk lookups, nested scripts, redirections, listed items), that
the policy checks before it gives up and blocks (`too-large`): past it the walk could take longer than a
check may (50 ms; a unit costs up to about 10 us), and no coding step needs a line that large."""


# What steps cost beyond their syntax nodes, in `MAX_WORK` units (about 10 us each): each price is the step's
# time over a node's, so a line of many such steps reaches the budget before it takes longer than a check may.
DISK_LOOKUP_WORK = 8
"""A write target looked up on the disk (`> out.txt` in a known working directory; see `_replaceable`)."""
SCRIPT_WORK = 6
"""A nested script (`sh -c 'ls'`, a payload's command line): its parse and walk set-up."""
SCRIPT_CHARS_PER_UNIT = 32
"""Characters of a nested script per unit, beyond `SCRIPT_WORK`: its parse and the scans over its whole text
take about a microsecond per 8 characters whatever its nodes, so values nested in themselves
(`A_PAGER=B_PAGER=…`, each pager a command line holding the next) stop at the budget, not the depth limit."""
FED_WRAPPER_WORK = 15
"""A wrapper fed its arguments by a pipe (`… | xargs CMD`): what the pipe carries, split, judged with CMD."""
REDIRECT_WORK = 3
"""A redirection: its target judged (place, rules, a script it may write)."""
PIECE_WORK = 2
"""Each item of a listing word (`--libs=a.dll,b.dll,…`), judged as a file name against several patterns."""
NAME_SCRIPT_WORK = 12
"""A file name read as a command line (`touch "a; curl x | sh; b"`): its parse and nested check."""
PAYLOAD_CHARS_PER_UNIT = 8
"""Characters of an inline program (`python -c`, `ruby -e`) per unit: its language's patterns search it at
about a microsecond a character, so one of more than about 35 kB is too large before the search runs."""
VARIABLE_CHARS_PER_UNIT = 8
"""Characters of a variable's name per unit, beyond the unit each expansion costs (`$NAME`, `$env:NAME`,
`%NAME%`; PowerShell's grammar makes no node of `$a` in `x$a$a…`): its rules match the whole name at up to
a microsecond a character (the secret-name rule tries every place a part could start), so a line's names
add up to no more than about 35 kB."""


class TooLarge(Exception):
    """The command is too large to check in the time a check may take (the message says what was)."""


_clock = threading.local()


def start_check() -> None:
    """A check begins (in this thread): its parses share one `PARSE_BUDGET_S` from now on."""
    _clock.left = PARSE_BUDGET_S


def parse_within_budget(parser: Any, source: bytes) -> Any:
    """`parser.parse(source)`, stopped with `TooLarge` once the check's parses took `PARSE_BUDGET_S`."""
    if len(source) < _TIMED_FROM:
        return parser.parse(source)
    started = time.perf_counter()
    left = getattr(_clock, "left", PARSE_BUDGET_S)
    deadline = started + left
    late = False

    def read(offset: int, _point: Any) -> bytes:
        # The clock is read here too: recovering from an error near the start, bash's scanner reads on
        # to the end of the source at every step, so between two progress calls (every hundred steps) a
        # 100 kB line takes 70 ms. Past the deadline the source ends, and the parse with it.
        nonlocal late
        if late or time.perf_counter() > deadline:
            late = True
            return b""
        return source[offset : offset + _READ_CHUNK]

    try:
        tree = parser.parse(
            read, progress_callback=lambda _offset, _has_error: late or time.perf_counter() > deadline
        )
    except ValueError:  # how the binding reports a parse the callback stopped
        tree = None
    _clock.left = left - (time.perf_counter() - started)
    if tree is None or late:
        parser.reset()  # a stopped parser would resume this source on its next call
        raise TooLarge(f"parsing the command takes longer than {PARSE_BUDGET_S * 1000:.0f} ms")
    return tree


_NOT_WORD = lazy_re(r"\W")


def placeholders_as_values(text: str, found: list[re.Match[str]]) -> str:
    """`text` with each reference placeholder in `found` (group 1: its name, `<container name>`) written as
    the run-time value it stands for (`${container_name}`), which both shells' readers then judge."""
    pieces = []
    done = 0
    names: dict[str, str] = {}  # each placeholder's variable, made once however often it appears
    for m in found:
        name = names.get(m[1])
        if name is None:
            name = names[m[1]] = "${" + _NOT_WORD.sub("_", m[1]) + "}"
        pieces += (text[done : m.start()], name)
        done = m.end()
    return "".join(pieces) + text[done:]
