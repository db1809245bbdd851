"""Where the paths a listing prints lie: below the places it was told to list.

`find ../site -name '*.html' | xargs sed -i …`, `sed -i … $(grep -rl old src)`, `fd -e py . ../lib -x …`:
the writer is handed what a listing printed, and every path it prints begins with one of its starts as
written (`../site/…`, `src/…`), so what the writer writes is judged as a file below each start. A listing
is a program that prints paths and nothing else: `find` (without `-printf`, `-ls` or a command of its
own), `grep` and ripgrep told to print file names (`-l`, `-L`, `--files`), `fd`, `git ls-files`, `git
diff --name-only`, `git grep -l`, and a short `ls`. Line filters between it and the writer (`grep -v
test`, `sort`, `head`) pass its lines on unchanged. Anything else prints what it likes (`cat list.txt`).
"""

from __future__ import annotations

from typing import NamedTuple

from ._artefacts import FINDS, find_start_words
from ._find_reach import (
    FD_VALUED,
    FD_VALUED_SHORT,
    FDS,
    GREP_VALUED_LONG,
    GREP_VALUED_SHORT,
    GREPS,
    RG_VALUED_LONG,
    RG_VALUED_SHORT,
    RGS,
    filters_keep_out,
    getopt,
    listing_reaches_protected,
)
from ._normalise import command_key
from ._paths import GIT_VALUE_OPTIONS
from ._syntax import DYN, Arg, Feed
from ._unwrap import find_exec

_FILTER_DEPTH = 8
"""Line filters followed back through a pipeline, at most (`… | grep -v a | grep -v b | sort | head`)."""

_FIND_FREE_OUTPUT = frozenset({"-printf", "-fprintf", "-ls", "-fls"})
"""find's actions that print more than its paths (`-printf '/etc/%f'`)."""
_NAMES_ONLY_GREP = frozenset({"-l", "-L", "--files-with-matches", "--files-without-match"})
_QUIET_GREP = _NAMES_ONLY_GREP | {"-q", "--quiet", "--silent"}
_NAMES_ONLY_RG = _NAMES_ONLY_GREP | {"--files"}
_GREP_CHANGES_LINES = frozenset({"-o", "--only-matching", "-b", "--byte-offset", "-c", "--count"})
"""grep's options that print something other than the lines it read (a part of a path is no path below
the start: `grep -o '/etc.*'`)."""
_PASSING = frozenset({"sort", "uniq", "head", "tail", "tac", "cat"})
"""Filters that pass lines on as they are, when they read the pipe (no file operand)."""
_PASSING_VALUED = frozenset({"-n", "-c", "-k", "-t", "-S", "-T", "-f", "-s", "-w", "--lines", "--bytes"})
_FD_FREE_OUTPUT = frozenset({"-x", "-X", "--exec", "--exec-batch", "-l", "--list-details", "--format"})
_GIT_LS_FREE = frozenset(
    {"-s", "--stage", "-u", "--unmerged", "-t", "-v", "-f", "--debug", "--format", "--eol", "--resolve-undo"}
)
"""`git ls-files` options that print more than paths (modes, object names, tags)."""
_GIT_GREP_VALUED = frozenset({"-e", "-f", "-A", "-B", "-C", "-m", "--max-depth", "--threads", "--max-count"})


class Listing(NamedTuple):
    """A listing that feeds a command: its words, its starts as written, and the line filters between."""

    argv: list[Arg]
    starts: list[Arg]
    filters: list[list[Arg]]

    def reaches_protected(self, root: str | None) -> list[str]:
        """Where in `.git` and `.hazina` what it hands on may lie (`listing_reaches_protected`), less the
        folders a filter drops (`find . -type f | grep -v '\\.git/' | xargs sed -i …`)."""
        places = listing_reaches_protected(self.argv, root)
        return [p for p in places if not filters_keep_out(self.filters, p)] if self.filters else places


def listing(feed: Feed) -> Listing | None:
    """The listing whose paths `feed` hands on, followed back through line filters; None when what it
    prints may be anything."""
    filters: list[list[Arg]] = []
    for _ in range(_FILTER_DEPTH):
        produced = feed.producer()
        if produced is None:
            return None
        argv, upstream = produced
        starts = listing_starts(argv)
        if starts is not None:
            return Listing(argv, starts, filters)
        if upstream is None or not _passes_lines(argv):
            return None
        filters.append(argv)
        feed = upstream
    return None


def listing_starts(argv: list[Arg]) -> list[Arg] | None:
    """The places below which every path the command `argv` prints lies (`.` for the working directory),
    or None when it is no listing (see the module's docstring)."""
    if not argv or DYN in argv[0].text:
        return None
    name = command_key(argv[0].text)
    args = argv[1:]
    if name in FINDS:
        if any(a.text in _FIND_FREE_OUTPUT for a in args) or not all(map(_quiet, find_exec(args))):
            return None
        return find_start_words(args)
    if name in GREPS:
        return _searched(args, GREP_VALUED_SHORT, GREP_VALUED_LONG, _NAMES_ONLY_GREP)
    if name in RGS:
        return _searched(args, RG_VALUED_SHORT, RG_VALUED_LONG, _NAMES_ONLY_RG)
    if name in FDS:
        return _fd_starts(args)
    if name == "git":
        return _git_starts(argv)
    if name == "ls":
        return _ls_starts(args)
    return None


def _quiet(command: list[Arg]) -> bool:
    """Does a command find runs print nothing, or only the path it is given (`-exec grep -q x {} ;` as a
    test, `-exec grep -l x {} +`)? What it prints is part of what find prints."""
    name = command_key(command[0].text) if DYN not in command[0].text else ""
    if name in ("test", "["):
        return True
    if name not in GREPS:
        return False
    options, _ = getopt([a.text for a in command[1:]], GREP_VALUED_SHORT, GREP_VALUED_LONG)
    return any(o in _QUIET_GREP for o, _ in options)


def _searched(
    args: list[Arg], valued_short: frozenset[str], valued_long: frozenset[str], names_only: frozenset[str]
) -> list[Arg] | None:
    """A grep's or ripgrep's paths when it prints only file names: its path operands, or `.`."""
    by_text = {a.text: a for a in args}
    options, operands = getopt([a.text for a in args], valued_short, valued_long)
    flags = {o for o, _ in options}
    if flags.isdisjoint(names_only) or not flags.isdisjoint(_GREP_CHANGES_LINES):
        return None
    patterned = not flags.isdisjoint({"-e", "-f", "--regexp", "--file", "--files"})
    paths = operands if patterned else operands[1:]
    return [by_text[p] for p in paths] or [Arg(".", ".")]


def _fd_starts(args: list[Arg]) -> list[Arg] | None:
    by_text = {a.text: a for a in args}
    options, positional = getopt([a.text for a in args], FD_VALUED_SHORT, FD_VALUED)
    if any(o in _FD_FREE_OUTPUT for o, _ in options):
        return None
    searched = [Arg(v, v) for o, v in options if o in ("--search-path", "--base-directory")]
    return searched or [by_text[p] for p in positional[1:]] or [Arg(".", ".")]


def _git_starts(argv: list[Arg]) -> list[Arg] | None:
    """`git ls-files`, `git diff --name-only`, `git grep -l`: paths relative to where git works, with `..`
    only when a pathspec asks for it, so each pathspec is a start (`.` without one); a pathspec from the
    top of the repository (`:/`, `:(top)`) may lie above the working directory."""
    i = 1
    while i < len(argv) and argv[i].text.startswith("-"):
        i += 1 + (argv[i].text in GIT_VALUE_OPTIONS)
    if i >= len(argv):
        return None
    command, rest = argv[i].text, argv[i + 1 :]
    words = [a.text for a in rest]
    if command == "ls-files":
        if any(w.partition("=")[0] in _GIT_LS_FREE for w in words):
            return None
        specs = [a for a in rest if not a.text.startswith("-")]
    elif command == "diff":
        # (paths from the top of the repository, never with `..`; `--output` prints nothing)
        writes_out = "--output" in {w.partition("=")[0] for w in words}
        return [Arg(".", ".")] if "--name-only" in words and not writes_out else None
    elif command == "grep":
        if not any(w in _NAMES_ONLY_GREP or w == "--name-only" for w in words):
            return None
        options, operands = getopt(words, frozenset("efABCm"), _GIT_GREP_VALUED)
        patterned = any(o in ("-e", "-f") for o, _ in options)
        operands = operands if patterned else operands[1:]
        by_text = {a.text: a for a in rest}
        specs = [by_text[o] for o in operands]
    else:
        return None
    if any(a.text.startswith(":") or DYN in a.text for a in specs):
        return [Arg(DYN, "$(git rev-parse --show-toplevel)")]  # (the top: a folder above, for all it says)
    return specs or [Arg(".", ".")]


def _ls_starts(args: list[Arg]) -> list[Arg] | None:
    """`ls` prints the names in a folder bare (relative to the working directory, as the writer reads
    them) and other operands as written: both count. A long listing prints more than names."""
    operands = []
    for a in args:
        t = a.text
        if t.startswith("--") or (t.startswith("-") and any(c in t for c in "lgonL")):
            return None
        if not t.startswith("-"):
            operands.append(a)
    return [Arg(".", "."), *operands]


def _passes_lines(argv: list[Arg]) -> bool:
    """Does `argv`, reading a pipe, print only (some of) the lines it reads, unchanged?"""
    name = command_key(argv[0].text) if DYN not in argv[0].text else ""
    args = [a.text for a in argv[1:]]
    if name in GREPS:
        options, operands = getopt(args, GREP_VALUED_SHORT, GREP_VALUED_LONG)
        patterned = any(o in ("-e", "-f", "--regexp", "--file") for o, _ in options)
        flags = {o for o, _ in options}
        return len(operands) == (0 if patterned else 1) and flags.isdisjoint(
            _GREP_CHANGES_LINES | {"-r", "-R", "--recursive", "-n", "--line-number", "-H", "--with-filename"}
        )
    if name in _PASSING:
        if name == "sort" and any(a.startswith(("-o", "--output")) for a in args):
            return False
        i = 0
        while i < len(args):
            a = args[i]
            if not a.startswith("-") or a == "-":
                return False  # a file operand: what it prints is that file
            i += 1 + (a in _PASSING_VALUED)
        return True
    return False


def under(start: Arg) -> Arg:
    """A stand-in for a path below `start` (`src` → `src/{}`); below a start known only at run time, a word
    known only at run time too."""
    if DYN in start.text:
        return Arg(DYN, f"{start.raw}/{{}}")
    base = start.text.rstrip("/") or "/"
    path = f"{base}/{{}}" if base != "/" else "/{}"
    return Arg(path, path)
