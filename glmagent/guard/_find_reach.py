"""Whether a `find` (or a recursive `grep`) from the top of the project may list files in `.git` or `.hazina`.

`find . -type f -exec sed -i 's/a/b/' {} +` edits every file below `.`, git's own among them (its
configuration, its index, its packs) and glmagent's memory and audit records: a write into both, however
plainly inside the project its start lies. Such a find is judged again with each `{}` standing for a file
in those folders, so a command that writes what it is given is a write there (`sed -i` is, `grep` is not);
so are the words `xargs` reads from such a listing. The top is `.` however written (`./`, `src/..`), a
folder above it, the project's own path, or a start known only at run time (see `may_hold_top`).

Three things keep a folder out of the selection. A test on the name that none of the folder's files passes
(`-name '*.py'`: git and glmagent keep no such files; `-name config*` or `-name '*.txt'` reaches git's
configuration or glmagent's summaries). A test on the path that none of them passes (`-path './src/*'`, or
a regular expression a path glob says as well, `-regex '.*\\.py'`, or a choice of endings git and glmagent
keep no file with, `-regex '.*\\.\\(c\\|h\\)'`). An
exclusion of the folder itself (`-not -path './.git/*'`, `-path ./.git -prune -o …` first). With
alternatives (`-o`), each action acts on what the tests before it in its own alternative select (`-name
'*.pyc' -exec rm {} ; -o -name '*.pyo' -delete`); without an action, find prints what any alternative
selects. Branch and hook names are the user's: a branch named `fix.py` is not looked for.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from itertools import pairwise

from ._artefacts import FINDS, regex_path_glob
from ._globbed import glob_match, glob_units
from ._lazy import lazy_re
from ._normalise import command_key
from ._paths import PROTECTED, lists_hidden_trees
from ._syntax import DYN, Arg

_PACK = "pack-4b825dc642cb6eb9a060e54bf8d69288fbee4904"
_KEPT = {
    ".git": (
        "HEAD", "config", "description", "index", "packed-refs", "FETCH_HEAD", "ORIG_HEAD", "MERGE_HEAD",
        "MERGE_MSG", "COMMIT_EDITMSG", "AUTO_MERGE", "shallow", "config.worktree", "pre-commit.sample",
        "pre-commit", "commit-msg", "exclude", "attributes", "sparse-checkout", "main", "master",
        "gitk.cache", "index.lock", "git-rebase-todo", "commit-graph", "multi-pack-index", f"{_PACK}.pack",
        f"{_PACK}.idx", f"{_PACK}.rev", f"{_PACK}.keep", "825dc642cb6eb9a060e54bf8d69288fbee4904",
    ),
    ".hazina": (
        "config.toml", "policy.toml", "add-null-checks.txt", "add-null-checks.jsonl", "act.jsonl",
        ".gitignore",
    ),
}  # fmt: skip
"""Per protected folder, names its files have (git's own, glmagent's memory and audit files): a name test
that passes none of them keeps the folder out of a find's selection."""
_FOLDERS = {
    ".git": ("hooks", "refs/heads", "objects/4b", "objects/pack", "logs", "info", "modules/lib"),
    ".hazina": ("agent-memory",),
}
"""Folders within each, for path tests (`-path '*/hooks/*'`)."""
_KEPT_ENDINGS = frozenset(n.lower().rpartition(".")[2] for names in _KEPT.values() for n in names if "." in n)
"""The endings (after the last dot, in lower case) of the names kept there (see `_endings_glob`)."""
_LONGEST = max(
    len(f"./{folder}/{place}/{name}")
    for folder, names in _KEPT.items()
    for place in _FOLDERS[folder]
    for name in names
)
"""The longest path a test is tried on: a glob needing more characters passes none of them."""

_NAME_TESTS = {"-name": False, "-iname": True}
_PATH_TESTS = {"-path": False, "-wholename": False, "-ipath": True, "-iwholename": True}
_NOT = ("-not", "!")
_EXECS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_ACTIONS = _EXECS | {"-print", "-print0", "-printf", "-fprint", "-fprint0", "-fprintf", "-ls", "-fls"}
"""Actions: what the tests before them select is what they act on (`-delete` is judged as a delete)."""


def find_reaches_protected(args: list[Arg], root: str | None = None) -> list[str]:
    """Where in `.git` and `.hazina` the files `find ARGS` (the words after `find`) selects may lie: for each
    start that may be the top of the project or a folder above it (`.`, `./src/..`, `..`, an absolute
    path; none is `.`), the folders its expression does not keep out (see the module's docstring), as
    paths (`./.git`); `root`: the working directory, if known. Empty when no start is such a place or
    every folder is kept out."""
    starts = 0
    while starts < len(args) and args[starts].text in ("-H", "-L", "-P"):
        starts += 1
    first = starts
    while starts < len(args) and args[starts].text[:1] not in ("-", "(", "!", ")", ","):
        starts += 1
    tops = [a.text for a in args[first:starts] if may_hold_top(a.text, root)] if starts > first else ["."]
    if not tops:
        return []
    expression = args[starts:]
    folders = [folder for folder in PROTECTED if _may_select(expression, folder)]
    return _places(tops, folders)


def may_hold_top(path: str, root: str | None = None) -> bool:
    """May the folder `path` be the top of the project, where `.git` and `.hazina` lie, or one above it: `.`
    however written (`./`, `src/..`), `..` and beyond, the project's folder or one above it by its absolute
    path (`root`: the working directory; any absolute path when it is unknown), one from the home, or one
    whose last part is known only at run time?"""
    if not path or path[:1] == "~":
        return True
    normal = posixpath.normpath(path.replace("\\", "/"))
    if DYN in path:
        last = normal.rpartition("/")[2]
        return DYN in last or last in (".", "..")  # `"$PWD"`, `$X/..`; not `$DOCS/html`, a folder so named
    if normal[:1] == "/" or normal[1:2] == ":":
        if root is None:
            return True
        top = posixpath.normpath(root.replace("\\", "/"))
        if normal[1:2] == ":":
            normal, top = normal.lower(), top.lower()  # (Windows' drives: case does not matter)
        return top == normal or top.startswith(normal.rstrip("/") + "/")
    return normal in (".", "..") or normal.startswith("../")


def _places(tops: list[str], folders: list[str]) -> list[str]:
    """Each protected folder under each start (`./.git`); under a start known only at run time, the folder as
    if it were the top (the start's own placement already stands for the rest)."""
    return [folder if DYN in top else posixpath.join(top, folder) for top in tops for folder in folders]


def _not_kept_out(excluded: list[str], passes: Callable[[str], bool]) -> list[str]:
    """The protected folders no glob of `excluded` names (one known only at run time may name any), and of
    whose files `passes` lets some through: what a listing told to leave those out still lists."""
    return [f for f in PROTECTED if not any(DYN in g or glob_match(f, g) for g in excluded) and passes(f)]


_REGEX_TESTS = {"-regex": "-path", "-iregex": "-ipath"}
"""Regular-expression tests, read as the path test that says the same when one does (`-regex '.*\\.pyc'`)."""


_REGEX_ENDINGS = lazy_re(r"\^?\.\*\\\.\\?\(([A-Za-z0-9_+]+(?:\\?\|[A-Za-z0-9_+]+)*)\\?\)\$?")
"""A regular expression for names with one of several endings (`.*\\.\\(c\\|h\\)`, `.*\\.(cpp|hpp)$`)."""


def _endings_glob(regex: str) -> str | None:
    """For a regular expression of `_REGEX_ENDINGS`, a path glob of one of its endings when no kept file has
    any of them (so it keeps out what the regular expression keeps out); None otherwise."""
    if "(" not in regex:
        return None
    said = _REGEX_ENDINGS.fullmatch(regex)
    if said is None:
        return None
    endings = [e.lower() for e in said[1].replace("\\|", "|").split("|")]
    return None if _KEPT_ENDINGS.intersection(endings) else f"*.{endings[0]}"


def _as_globs(words: list[str]) -> list[str]:
    """The expression with each regular expression a path glob says as well (see `regex_path_glob`) written
    as that path test, a choice of endings none of the kept files has as one of them (see `_endings_glob`);
    any other stays, and narrows nothing."""
    out = list(words)
    for i, (word, value) in enumerate(pairwise(words)):
        glob = (regex_path_glob(value) or _endings_glob(value)) if word in _REGEX_TESTS else None
        if glob is not None:
            out[i : i + 2] = [_REGEX_TESTS[word], glob]
    return out


def _may_select(expression: list[Arg], folder: str) -> bool:
    words = _as_globs([a.text for a in expression])
    alternatives = _alternatives(words)
    if alternatives is None:
        return True
    if "-depth" not in words and "-d" not in words:
        # `-path ./.git -prune -o …`, `-name .git -prune -o …`: among the pruning alternatives that come first
        # (a later one may not be reached for the folder itself)
        for alternative in alternatives:
            if "-prune" not in alternative or any(w in _ACTIONS for w in alternative):
                break
            if _prunes(alternative, folder):
                return False
    acting = [alt for alt in alternatives if any(w in _ACTIONS for w in alt)]
    # Without an action find prints what the whole expression selects; otherwise each action acts on what
    # the tests before it in its own alternative select.
    return any(_reaches(alt, folder) for alt in acting or alternatives)


def _alternatives(words: list[str]) -> list[list[str]] | None:
    """The expression cut at its top-level `-o` (`,` too); None when its parentheses do not balance."""
    cut: list[list[str]] = [[]]
    depth = 0
    i = 0
    while i < len(words):
        word = words[i]
        if word in _EXECS:
            end = i + 1
            while end < len(words) and words[end] not in (";", "+"):
                end += 1
            cut[-1] += words[i : end + 1]
            i = end + 1
            continue
        depth += (word == "(") - (word == ")")
        if depth < 0:
            return None
        if depth == 0 and word in ("-o", "-or", ","):
            cut.append([])
        else:
            cut[-1].append(word)
        i += 1
    return cut if depth == 0 else None


def _prunes(alternative: list[str], folder: str) -> bool:
    """Is the pruning alternative `TEST FOLDER -prune` (a `-type d` beside it too) one that keeps find out of
    `folder`?"""
    named = False
    for word, value in pairwise(alternative):
        if word in _NAME_TESTS or word in _PATH_TESTS:
            if not _is_folder(word, value, folder):
                return False
            named = True
    return named


def _reaches(alternative: list[str], folder: str) -> bool:
    """May the alternative's tests select a file of `folder`: no test on the name or path that none of its
    files passes, and no negated path test that leaves all of them out (`-not -path './.git/*'`)?"""
    words = alternative
    i = 0
    while i < len(words):
        word = words[i]
        negated = i > 0 and words[i - 1] in _NOT
        if word == "(":
            end, passes = _group(words, i + 1, folder)
            if passes is False and not negated:
                return False  # `( -name '*.js' -o -name '*.ts' )`
            i = end
        elif word in _NAME_TESTS or word in _PATH_TESTS:
            if i + 1 >= len(words):
                return True
            value = words[i + 1]
            if negated and word in _PATH_TESTS and _covers(word, value, folder):
                return False  # `-not -path './.git/*'`
            if not negated and not _passes(word, value, folder):
                return False
            i += 1
        elif word in _EXECS or word in _ACTIONS:
            return True  # tests after an action do not narrow what it acted on
        i += 1
    return True


def _group(words: list[str], i: int, folder: str) -> tuple[int, bool | None]:
    """(where the group opened before `i` ends, whether a file of `folder` passes it) for a group of name
    or path tests joined by `-o` (`( -name '*.js' -o -name '*.ts' )`); None for any other group."""
    passes = False
    expect_test = True
    while i < len(words):
        word = words[i]
        if word == ")":
            return i, None if expect_test else passes
        if expect_test and (word in _NAME_TESTS or word in _PATH_TESTS) and i + 1 < len(words):
            passes = passes or _passes(word, words[i + 1], folder)
            expect_test = False
            i += 2
        elif not expect_test and word in ("-o", "-or"):
            expect_test = True
            i += 1
        else:
            depth = 1
            while i < len(words) and depth:  # skip to the group's end: what it selects is not known
                depth += (words[i] == "(") - (words[i] == ")")
                i += 1
            return i - 1, None
    return i, None


def _case_blind(test: str) -> bool:
    return _NAME_TESTS.get(test, _PATH_TESTS.get(test, False))


def _passes(test: str, value: str, folder: str) -> bool:
    """Does some file of `folder` pass the test `test value`? (Any may pass a pattern known at run time.)"""
    if DYN in value:
        return True
    if glob_units(value) > _LONGEST:
        return False  # (one count, not one per file: a 100 kB glob is no slower than a short one)
    fold = str.lower if _case_blind(test) else str
    glob = fold(value)
    names = [fold(n) for n in _KEPT[folder]]
    if test in _NAME_TESTS:
        return any(glob_match(n, glob) for n in names)
    places = [f"./{folder}", *(f"./{folder}/{p}" for p in _FOLDERS[folder])]
    return any(glob_match(fold(f"{place}/{n}"), glob) for place in places for n in names)


def _is_folder(test: str, value: str, folder: str) -> bool:
    """Does the test pass the folder itself (its name, or the path `./.git`), so `-prune` keeps find out?"""
    fold = str.lower if _case_blind(test) else str
    return glob_match(fold(folder if test in _NAME_TESTS else f"./{folder}"), fold(value))


def _covers(test: str, value: str, folder: str) -> bool:
    """Does the path test pass every path below the folder (`./.git/*`, `*/.git/*`), so its negation keeps
    all of it out?"""
    fold = str.lower if _case_blind(test) else str
    below = ("a", "hooks/a", "x.txt", "objects/4b/c")
    return all(glob_match(fold(f"./{folder}/{p}"), fold(value)) for p in below)


GREPS = frozenset({"grep", "egrep", "fgrep", "ggrep"})
GREP_VALUED_SHORT = frozenset("efmABCdD")
"""grep's short options that take a value (the rest of the word, or the next one)."""
GREP_VALUED_LONG = frozenset(
    {
        "--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context",
        "--directories", "--devices", "--label", "--include", "--exclude", "--exclude-dir", "--exclude-from",
        "--binary-files", "--group-separator",
    }
)  # fmt: skip


def only_touches(command: list[Arg]) -> bool:
    """Is `command` a `touch` of the files a listing found? It only sets their times: nothing is written."""
    return bool(command) and command_key(command[0].text) == "touch"


def lister_reaches_protected(args: list[Arg], root: str | None = None) -> list[str]:
    """Where in `.git` and `.hazina` the items `Get-ChildItem ARGS` lists may lie: only when it recurses
    into hidden folders (`-Recurse -Force`: see `lists_hidden_trees`), from a path at the top of the
    project (none is `.`), for the folders its `-Filter`/`-Include` patterns do not keep out."""
    read = lists_hidden_trees(args)
    if read is None:
        return []
    paths, patterns = read
    tops = [a.text for a in paths if may_hold_top(a.text, root)] if paths else ["."]
    folders = _not_kept_out([], lambda f: not patterns or any(_passes("-iname", g, f) for g in patterns))
    return _places(tops, folders)


def listing_reaches_protected(argv: list[Arg], root: str | None = None) -> list[str]:
    """Where in `.git` and `.hazina` the files the listing `argv` prints may lie, when fed to another
    command's arguments (`find . -type f | xargs sed -i …`, `grep -rl old . | xargs sed -i …`): a find's
    as for `find -exec`, a recursive grep's from the top of the project (see `may_hold_top`) unless
    `--exclude-dir` or `--include` keeps a folder's files out, fd's and ripgrep's when told to search hidden
    folders. Empty for any other command."""
    if not argv:
        return []
    name = command_key(argv[0].text)
    if name in FINDS:
        return find_reaches_protected(argv[1:], root)
    if name in GREPS:
        return _grep_reaches(argv[1:], root)
    if name in FDS:
        return fd_reaches_protected(argv[1:], root)
    if name in RGS:
        return _rg_reaches(argv[1:], root)
    return []


def _grep_reaches(args: list[Arg], root: str | None) -> list[str]:
    options, operands = getopt([a.text for a in args], GREP_VALUED_SHORT, GREP_VALUED_LONG)
    recursive = any(
        o in ("-r", "-R", "--recursive", "--dereference-recursive")
        or (o in ("-d", "--directories") and v == "recurse")
        for o, v in options
    )
    # The pattern given by -e or -f: every operand is a path.
    patterned = any(o in ("-e", "-f", "--regexp", "--file") for o, _ in options)
    excluded = [v for o, v in options if o == "--exclude-dir"]
    included = [v for o, v in options if o == "--include"]
    paths = operands if patterned else operands[1:]
    tops = [p for p in paths if may_hold_top(p, root)] if paths else ["."]
    if not recursive or not tops:
        return []
    folders = _not_kept_out(excluded, lambda f: not included or any(_passes("-name", g, f) for g in included))
    return _places(tops, folders)


FDS = frozenset({"fd", "fdfind"})
FD_VALUED = frozenset(
    {
        "-e", "--extension", "-E", "--exclude", "-t", "--type", "-d", "--max-depth", "--maxdepth",
        "--min-depth", "--exact-depth", "-S", "--size", "--changed-within", "--changed-before",
        "--change-newer-than", "--change-older-than", "-o", "--owner", "-c", "--color", "-j", "--threads",
        "--max-results", "--base-directory", "--search-path", "--path-separator", "--ignore-file", "--format",
        "--batch-size",
    }
)  # fmt: skip
FD_VALUED_SHORT = frozenset("eEtdSocj")
_FD_EXECS = frozenset({"-x", "-X", "--exec", "--exec-batch"})


def fd_reaches_protected(args: list[Arg], root: str | None = None) -> list[str]:
    """Where in `.git` and `.hazina` the files `fd ARGS` finds may lie: fd skips hidden folders unless told
    not to (`-H`, `--hidden`, `-u`), so only then, from a search path at the top of the project (none is
    `.`), for the folders no `--exclude` names and no `--extension` keeps out. (Its pattern is not read: a
    regular expression is not a name test.)"""
    words = [a.text for a in args]
    end = next((i for i, w in enumerate(words) if w in _FD_EXECS), len(words))  # the command fd runs follows
    options, positional = getopt(words[:end], FD_VALUED_SHORT, FD_VALUED)
    hidden = any(o in ("-H", "--hidden", "-u", "--unrestricted") for o, _ in options)
    excluded = [v for o, v in options if o in ("-E", "--exclude")]
    extensions = [v.lstrip(".").lower() for o, v in options if o in ("-e", "--extension")]
    searched = [v for o, v in options if o in ("--search-path", "--base-directory")]
    paths = searched or positional[1:]
    tops = [p for p in paths if may_hold_top(p, root)] if paths else ["."]
    if not hidden or not tops:
        return []
    folders = _not_kept_out(
        excluded,
        lambda f: not extensions or any(n.lower().endswith(f".{e}") for n in _KEPT[f] for e in extensions),
    )
    return _places(tops, folders)


RGS = frozenset({"rg", "ripgrep"})
RG_VALUED_SHORT = frozenset("efgtTmABCjMrEd")
RG_VALUED_LONG = frozenset(
    {
        "--regexp", "--file", "--glob", "--iglob", "--type", "--type-not", "--max-count", "--after-context",
        "--before-context", "--context", "--threads", "--max-columns", "--replace", "--encoding",
        "--max-depth", "--maxdepth", "--type-add", "--type-clear", "--color", "--colors", "--path-separator",
        "--sort", "--sortr", "--max-filesize", "--pre", "--pre-glob", "--engine", "--ignore-file",
        "--context-separator", "--field-match-separator", "--field-context-separator", "--dfa-size-limit",
        "--regex-size-limit",
    }
)  # fmt: skip
_RG_WIDE_TYPES = frozenset({"all", "txt", "toml", "json", "jsonl", "config"})
"""ripgrep's file types that name glmagent's or git's own files (`-t txt`): no narrowing."""


def _rg_reaches(args: list[Arg], root: str | None) -> list[str]:
    """ripgrep skips hidden folders unless told not to (`--hidden`, `-.`, `-uu`); then, from a path at the
    top of the project, the folders no negated `--glob` leaves out and no `--glob NAME` or `--type` keeps
    out (ripgrep searches `.git` too: its own guide says to add `-g '!.git'`)."""
    options, operands = getopt([a.text for a in args], RG_VALUED_SHORT, RG_VALUED_LONG)
    hidden = any(o in ("--hidden", "-.") for o, _ in options)
    unrestricted = sum(2 if o == "--unrestricted" else 1 for o, _ in options if o in ("-u", "--unrestricted"))
    patterned = any(o in ("-e", "-f", "--regexp", "--file", "--files") for o, _ in options)  # `--files`: none
    globs = [v for o, v in options if o in ("-g", "--glob", "--iglob")]
    types = [v for o, v in options if o in ("-t", "--type")]
    paths = operands if patterned else operands[1:]
    tops = [p for p in paths if may_hold_top(p, root)] if paths else ["."]
    if not (hidden or unrestricted >= 2) or not tops:
        return []
    if types and not _RG_WIDE_TYPES.intersection(types):
        return []
    kept = [g for g in globs if g[:1] != "!" and "/" not in g]
    negated = [g[1:].rstrip("/*") for g in globs if g[:1] == "!"]
    folders = _not_kept_out(negated, lambda f: not kept or any(_passes("-name", g, f) for g in kept))
    return _places(tops, folders)


def getopt(
    words: list[str], valued_short: frozenset[str], valued_long: frozenset[str]
) -> tuple[list[tuple[str, str]], list[str]]:
    """`words` as GNU getopt reads them: each option with its value ("" for a flag; a cluster `-rl` as `-r`
    and `-l`; a valued letter takes the rest of its word or the next word, a valued long option its `=`
    part or the next word), and the operands (all words after `--` too)."""
    options: list[tuple[str, str]] = []
    operands: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--":
            operands += words[i + 1 :]
            break
        if word[:2] == "--":
            key, eq, value = word.partition("=")
            if key in valued_long and not eq:
                value = words[i + 1] if i + 1 < len(words) else ""
                i += 1
            options.append((key, value))
        elif word[:1] == "-" and len(word) > 1:
            for k, letter in enumerate(word[1:], 1):
                if letter in valued_short:
                    value = word[k + 1 :]
                    if not value and i + 1 < len(words):
                        value = words[i + 1]
                        i += 1
                    options.append((f"-{letter}", value))
                    break
                options.append((f"-{letter}", ""))
        else:
            operands.append(word)
        i += 1
    return options, operands


_FILTER_PATTERN_MAX = 200
"""Characters of a filter's pattern read at most; a longer one may let anything through."""
_FILTER_QUANTIFIERS_MAX = 2
"""Repetitions in a filter's pattern at most: with no nesting and so few, matching it against a short path
cannot take long (`(a*)*b`, which can, is not read)."""


def filters_keep_out(filters: list[list[Arg]], place: str) -> bool:
    """Does a line filter between a listing and the command it feeds drop every file of the protected folder
    at `place` (`./.git`): `grep -v '\\.git/'` drops them, `grep '\\.py$'` lets none through; `sort`, `head`
    and a pattern too intricate to read drop nothing for sure."""
    folder = place.rpartition("/")[2]
    names = _KEPT.get(folder)
    if names is None:
        return False
    paths = [f"{place}/{n}" for n in names] + [
        f"{place}/{sub}/{n}" for sub in _FOLDERS[folder] for n in names
    ]
    for argv in filters:
        if not argv or command_key(argv[0].text) not in GREPS:
            continue
        read = _grep_filter(argv)
        if read is None:
            continue
        matches, inverted = read
        paths = [p for p in paths if bool(matches(p)) != inverted]
        if not paths:
            return True
    return False


def _grep_filter(argv: list[Arg]) -> tuple[Callable[[str], object], bool] | None:
    """(a test of one line, whether `-v` inverts it) for the grep `argv` reading a pipe; None when its
    patterns cannot be read with certainty."""
    options, operands = getopt([a.text for a in argv[1:]], GREP_VALUED_SHORT, GREP_VALUED_LONG)
    flags = {o for o, _ in options}
    patterns = [v for o, v in options if o in ("-e", "--regexp")]
    if any(o in ("-f", "--file") for o, _ in options):
        return None
    if not patterns:
        if not operands:
            return None
        patterns = operands[:1]
    if any(DYN in p or len(p) > _FILTER_PATTERN_MAX for p in patterns):
        return None
    name = command_key(argv[0].text)
    fixed = name == "fgrep" or not flags.isdisjoint({"-F", "--fixed-strings"})
    extended = name == "egrep" or not flags.isdisjoint({"-E", "--extended-regexp"})
    if not flags.isdisjoint({"-P", "--perl-regexp"}):
        return None
    sources = []
    for pattern in pattern_lines(patterns):
        source = re.escape(pattern) if fixed else _posix_regex(pattern, extended)
        if source is None:
            return None
        sources.append(source)
    joined = "|".join(f"(?:{s})" for s in sources)
    if not flags.isdisjoint({"-x", "--line-regexp"}):
        joined = f"^(?:{joined})$"
    elif not flags.isdisjoint({"-w", "--word-regexp"}):
        joined = rf"(?<!\w)(?:{joined})(?!\w)"
    case = re.IGNORECASE if not flags.isdisjoint({"-i", "--ignore-case", "-y"}) else 0
    try:
        compiled = re.compile(joined, case)
    except re.error:
        return None
    return compiled.search, not flags.isdisjoint({"-v", "--invert-match"})


def pattern_lines(patterns: list[str]) -> list[str]:
    """grep's patterns, one per line of each (`-e 'a\nb'` is two)."""
    return [line for p in patterns for line in p.split("\n")]


def _posix_regex(pattern: str, extended: bool) -> str | None:
    """A POSIX basic (or `extended`) regular expression as Python reads it, when it holds only literals,
    `.`, anchors, bracket lists, groups, alternation and a few repetitions, none of them of a group; else
    None."""
    out: list[str] = []
    quantifiers = 0
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        escaped = c == "\\" and i + 1 < n
        if escaped:
            i += 1
            c = pattern[i]
            if c.isalnum() or c in "{}<>`'":
                return None  # back-references, `\w`, `\<`, `\{m,n\}`: not read
        # ERE's operators are bare; BRE's are escaped (`\(`, `\|`), and its bare ones are literals.
        operator = c in "()|+?" and escaped != extended
        if c == "[" and not escaped:
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("]", "^") else i + 1)
            body = pattern[i + 1 : end]
            if end < 0 or any(t in body for t in ("[", "\\", "--", "&&", "~~", "||")):
                return None  # `[[:alpha:]]`, escapes in a list, what Python reads as set operations
            out.append(pattern[i : end + 1])
            i = end + 1
            continue
        if operator or (c == "*" and not escaped):
            if c in "*+?":
                if not out or out[-1] in ("(", "|", ")"):
                    return None  # a repeated group, or a repetition of nothing
                quantifiers += 1
            out.append(c)
        elif c == "{" and extended and not escaped:
            return None  # `{m,n}`: not read
        elif c == "." and not escaped:
            out.append(".")
        elif c == "^" and not escaped and (extended or not out or out[-1] in ("(", "|")):
            out.append("^")
        elif (
            c == "$" and not escaped and (extended or i == n - 1 or pattern[i + 1 : i + 3] in ("\\)", "\\|"))
        ):
            out.append("$")
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out) if quantifiers <= _FILTER_QUANTIFIERS_MAX else None
