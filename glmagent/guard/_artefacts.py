"""Whether a `find` selects nothing but files a build makes again: the clean step's sweep.

`find . -name '*.pyc' -delete`, `find . -name __pycache__ -exec rm -rf {} +` and
`find . -name '*.o' | xargs rm` delete compiled or cached files wherever they lie in the project. Each such
file is made again by the next build or test run, so the sweep loses nothing, while the same line with
`-name '*.py'` deletes the sources. Only names nobody writes by hand count (below), and only a selection
that cannot reach anything else: start paths inside the project, tests that are names (grouped with `-o`
only inside parentheses) and an optional `-type` or `-empty`, every action after the tests; a negated name
or path (`-not -name keep.gcov`) only leaves files out. A path or a regular expression that says nothing
but such a name, in any folder or below it (`-path '*/__pycache__/*'`, `-regex '.*\\.py[co]'`), selects what
`-name` of it does. Any other negation, path or expression, `-prune`, `-L` and any other test or option
keep the line to the destructive rules. A find that starts only in trees named as build
output (`find build -type f -empty -delete`) deletes no more than `rm -rf build` would, and is judged so.
A plain listing filtered by `grep` to such names (`find . | grep -E "(__pycache__|\\.pyc)" | xargs rm -rf`)
is the same sweep when the pattern says nothing but those names.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from ._lazy import lazy_re
from ._paths import PROTECTED, cmd_delete_words
from ._project import is_output_folder, names_output
from ._syntax import DYN, Arg

ARTEFACT_NAMES = frozenset(
    {
        "*.pyc", "*.pyo", "*.py[co]", "*.py[cod]", "*$py.class", "__pycache__", ".pytest_cache",
        ".mypy_cache", ".ruff_cache", "*.egg-info", "*.o", "*.obj", "*.class", "*.gcda", "*.gcno", "*.gcov",
        "*.lo", "*.elc", "*.beam", "*.hi", "*.hie", "*.dyn_hi", "*.dyn_o", "*.p_hi", "*.p_o",
        "*.tsbuildinfo", ".ds_store", "thumbs.db", ".coverage",
        ".coverage.*", ".nyc_output", "*.a", "*.la", "*.so", ".dirstamp", "ctesttestfile.cmake",
        "cmake_install.cmake", "node_modules", "*.binlog", "*.pch", "*.ilk", "*.idb", "coverage.out",
        "cover.out", "*.coverprofile", "*.profraw", "*.rbc", ".yardoc", "*.egg", ".cache", "*.ds_store",
        "*.pyd", "blib", "cover_db", "pm_to_blib", "*.tdy", "*.whl",
    }
)  # fmt: skip
"""`-name` patterns (lower case) of compiled, cached, installed or system-made files: no one's work is in
them (`node_modules`: what the package manager installs, made again by an install, as `rm -rf node_modules`
is spared; `*.pch`, `*.ilk`, `*.idb`: MSVC's precompiled headers and incremental-link state; `coverage.out`,
`*.coverprofile`, `*.profraw`: the coverage profiles Go's and LLVM's test runs write; `*.rbc`: Rubinius's
compiled Ruby; `.yardoc`: YARD's parse cache; `.cache`: tools' caches; `*.hie`, `*.dyn_o`, `*.p_hi`: GHC's
extended interfaces and its dynamic and profiling objects; `*.pyd`: a compiled extension module on
Windows, as `*.so` is elsewhere; `blib`, `pm_to_blib`: what a Perl build stages; `cover_db`: Devel::Cover's
data; `*.tdy`: perltidy's output beside the file it tidied; `*.whl`: the wheels `python -m build` and
`pip wheel` write). Editors' backups (`*~`) and what a merge
leaves (`*.orig`) are not among them: they hold the user's earlier text."""

_ONE_CLASS = lazy_re(r"([^\[\]]*)\[([a-z0-9]+)\]([^\[\]]*)")


def is_artefact_name(name: str) -> bool:
    """Is the pattern `name` (lower case) one of `ARTEFACT_NAMES`, or one class of letters standing for
    several of them in any order (`*.py[ocd]` is `*.pyo`, `*.pyc` and `*.pyd`)?"""
    if name in ARTEFACT_NAMES:
        return True
    spelled = _ONE_CLASS.fullmatch(name)
    return spelled is not None and all(
        spelled[1] + letter + spelled[3] in ARTEFACT_NAMES for letter in spelled[2]
    )


FINDS = frozenset({"find", "gfind"})
_ACTIONS = frozenset({"-delete", "-print", "-print0", "-ls"})
_EXECS = frozenset({"-exec", "-execdir"})
_POSITIONLESS = frozenset(
    {"-depth", "-d", "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-nowarn", "-prune"}
)
"""Words that select nothing: options, and `-prune` (true, it only stops the descent into what it matched;
before an `-o` it leaves that side without an action, which no sweep is)."""
_VALUED_OPTIONS = frozenset({"-maxdepth", "-mindepth"})
_TYPES = frozenset({"f", "d", "f,d", "d,f"})
_PATH_TESTS = frozenset({"-path", "-ipath", "-wholename", "-iwholename"})
_REGEX_TESTS = frozenset({"-regex", "-iregex"})
_REGEX_PATH = lazy_re(r"\^?\.\*((?:[A-Za-z0-9_/-]|\\\.|\[[A-Za-z0-9]+\])+?)(/\.\*)?\$?")
"""A regular expression for a whole path that any path glob says as well (`.*/__pycache__`, `.*\\.py[co]`,
`.*/\\.mypy_cache/.*`): `.*`, then letters, `_`, `-`, `/`, escaped dots and classes of letters, then `/.*`."""


def regex_path_glob(regex: str) -> str | None:
    """The path glob that selects what `find -regex REGEX` does (`.*/__pycache__` is `*/__pycache__`,
    `.*\\.pyc` is `*.pyc`; find's `*` crosses `/` as `.*` does), for the expressions `_REGEX_PATH` reads;
    None for any other."""
    said = _REGEX_PATH.fullmatch(regex)
    if said is None:
        return None
    return "*" + said[1].replace("\\.", ".") + ("/*" if said[2] else "")


def selects_artefacts(test: str, value: str) -> bool:
    """Does `find TEST VALUE` (`-path`, `-wholename`, `-regex` or their case-blind forms) select only what
    `-name NAME` of one of `ARTEFACT_NAMES` selects, or what lies below such a folder: `*/NAME` or `./NAME`,
    with `/*` after it for the folder's contents (`-path '*/__pycache__/*'`: every file a `__pycache__`
    holds), a name's ending alone (`-path '*.pyc'`), or the same said as a regular expression (`-regex
    '.*/__pycache__'`, `.*\\.py[co]`)? A `*` also crosses `/`, which only reaches further below such a name
    (`*/.coverage.*`)."""
    pattern = value.lower() if test in _PATH_TESTS else regex_path_glob(value.lower())
    if pattern is None:
        return False
    if pattern[:1] == "*" and "/" not in pattern:
        return is_artefact_name(pattern)  # `*.pyc`: any path so ending is a name so ending
    if pattern[:2] not in ("*/", "./"):
        return False
    name = pattern[2:].removesuffix("/*")
    return bool(name) and "/" not in name and is_artefact_name(name)


def find_start_words(args: list[Arg]) -> list[Arg]:
    """The start paths of `find ARGS` (the words before its first test, option or group); `.` when none."""
    i = 0
    while i < len(args) and args[i].text in ("-H", "-L", "-P"):
        i += 1
    starts: list[Arg] = []
    while i < len(args) and args[i].text[:1] not in ("-", "(", "!", ")", ","):
        starts.append(args[i])
        i += 1
    return starts or [Arg(".", ".")]


def plainly_inside(a: Arg) -> bool:
    """Is the path `a` written so it lies inside the working directory (relative, no `..`, no glob, nothing
    known only at run time, not `.git`)?"""
    text = a.text.replace("\\", "/")
    if DYN in text or not text or text[0] in "/~-" or any(c in text for c in "*?[$`"):
        return False
    parts = [p.lower() for p in text.split("/") if p]
    return ".." not in parts and not any(name in parts for name in PROTECTED)


def globstar_sweep(text: str) -> tuple[str, str] | None:
    """(folder, name) when the path `text` is a literal folder inside the project, `**`, then one name
    (`**/bin`, `./**/__pycache__`, `tests/**/.pytest_cache`): what it names in any folder below is what
    `find FOLDER -name NAME` selects, or less (no `**` to the shell without globstar, no hidden folders to
    globbing libraries). A tree named as build output may be followed by plain names inside it
    (`**/node_modules/.cache/jiti`): that is less than the output trees themselves. None for any other
    path."""
    parts = text.replace("\\", "/").rstrip("/").split("/")
    if "**" in parts[:-2] and DYN not in text:
        at = len(parts) - 1 - parts[::-1].index("**")
        inner = parts[at + 2 :]
        if is_output_folder(parts[at + 1].lower()) and all(
            p and p not in (".", "..") and not any(c in p for c in "*?[{$`") for p in inner
        ):
            parts = parts[: at + 2]  # `**/node_modules/.cache`: in the sweep of every `node_modules`
    if len(parts) < 2 or parts[-2] != "**" or DYN in text:
        return None
    name, folder = parts[-1], "/".join(parts[:-2]) or "."
    if not name or any(c in name for c in "/[{$`") or not plainly_inside(Arg(folder, folder)):
        return None
    return folder, name


def find_starts(argv: list[Arg]) -> list[Arg] | None:
    """The start paths of `find START… EXPR` when each is a literal folder of the project named as build
    output (`find build -type f -empty -delete`) and find follows no links; else None. Whatever it selects
    there, it deletes no more than `rm -rf START…` would."""
    starts: list[Arg] = []
    for a in argv[1:]:
        if a.text == "-P":
            continue
        if a.text[:1] in ("-", "(", "!", ")", ","):
            break
        if not plainly_inside(a) or not names_output([argv[0], a]):
            return None
        starts.append(a)
    if not starts or any(a.text in _FOLLOWING for a in argv):
        return None
    return starts


def del_sweeps_artefacts(names: tuple[str, ...], args: list[Arg], dialect: str) -> bool:
    """Is cmd's `del /s /q *.pyc *.obj` (also written in a PowerShell line) a sweep of compiled files: each
    name, in every folder of the project (with `/s`) or in the current one, one of `ARTEFACT_NAMES`, as
    `find . -name '*.pyc' -delete` is?"""
    cmd = cmd_delete_words(names, args, dialect)
    if cmd is None:
        return False
    name, switches, operands = cmd
    return (
        name in ("del", "erase")
        and switches <= {"/s", "/q", "/f"}
        and bool(operands)
        and all(is_artefact_name(a.text.lower()) for a in operands)
    )


def lister_sweeps_artefacts(paths: list[Arg], patterns: list[str]) -> bool:
    """Is `Get-ChildItem [PATH…] -Recurse -Filter '*.binlog'` (or `-Include *.pyc, *.pyo`), given what it
    lists (`listed_selection`), a sweep of compiled files as `find . -name '*.pyc'` is: only names in
    `ARTEFACT_NAMES`, under paths inside the project?"""
    return bool(patterns) and all(map(is_artefact_name, patterns)) and all(map(plainly_inside, paths))


def lister_swept_output(paths: list[Arg], patterns: list[str]) -> list[str] | None:
    """The same for names build tools write their output under (`-Include bin, obj`, `-Filter dist`): those
    names (compiled files' left out), whose trees are judged as `find_swept_output`'s are; else None."""
    if not patterns or not all(map(swept_name, patterns)) or not all(map(plainly_inside, paths)):
        return None
    return [p for p in patterns if not is_artefact_name(p)]


_FOLLOWING = frozenset({"-L", "-H", "-follow"})
"""Options that make find follow links, out of the start trees too."""


_EXCLUDING = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename"})
"""Tests whose negation, joined to the rest by `-a`, leaves files out of a selection."""


def find_sweeps_artefacts(args: list[Arg]) -> bool:
    """Does `find ARGS` select only files named in `ARTEFACT_NAMES`, under start paths inside the project,
    with every action (`-delete`, `-exec CMD {} +`) applied to that selection? `args`: the words after
    `find`. Alternatives (`-name '*.pyc' -delete -o -name __pycache__ -delete`) must each be such a sweep,
    with an action of its own."""
    return _find_sweeps(args, is_artefact_name)


def find_swept_output(args: list[Arg]) -> tuple[list[Arg], list[str], bool] | None:
    """(start paths, names, any `-iname`) when `find ARGS` is such a sweep of names build tools write their
    output under (`find packages -name dist -type d -prune -exec rm -rf {} +`): each tree so named is
    deleted, which loses no more than `rm -rf` of each would, when git neither tracks nor keeps anything
    under those names (see `_project`). None for any other selection."""
    if not _find_sweeps(args, swept_name):
        return None
    names: list[str] = []
    icase = False
    for before, (word, value) in zip([Arg("", ""), *args], pairwise(args), strict=False):
        # (compiled files are swept whatever git says; an excluded name only narrows the selection)
        named = word.text in ("-name", "-iname") and before.text not in ("-not", "!")
        if named and not is_artefact_name(value.text.lower()):
            names.append(value.text)
            icase = icase or word.text == "-iname"
    return find_start_words(args), names, icase


def swept_name(name: str) -> bool:
    """Is `name` (lower case) one of compiled or cached files, or of a tree build output goes to?"""
    return is_artefact_name(name) or is_output_folder(name)


def _find_sweeps(args: list[Arg], accepts: Callable[[str], bool]) -> bool:
    starts = 0
    while starts < len(args) and args[starts].text[:1] not in ("-", "(", "!", ")", ","):
        starts += 1
    cuts = []
    in_exec = False  # `-exec gcc -o x {} +`: the command's words, to its `;` or `+`
    for i in range(starts, len(args)):
        text = args[i].text
        if in_exec:
            in_exec = text not in (";", "+")
        elif text in _EXECS:
            in_exec = True
        elif text in ("-o", "-or"):
            cuts.append(i)
        elif text in ("(", ")"):
            return _sweeps(args, accepts)  # a group: `( -name a -o -name b ) -delete`
    if not cuts:
        return _sweeps(args, accepts)
    bounds = [starts - 1, *cuts, len(args)]
    # With no action at all, find prints whatever the whole expression selects (`-name a -o -name b` feeding
    # `xargs rm`): each alternative a selection of its own. Otherwise each needs its own action, as an
    # action binds tighter than `-o` (`-name a -o -name b -delete` deletes only b).
    acted = any(a.text in _ACTIONS or a.text in _EXECS for a in args[starts:])
    return all(
        (not acted or any(a.text in _ACTIONS or a.text in _EXECS for a in args[lo + 1 : hi]))
        and _sweeps([*args[:starts], *args[lo + 1 : hi]], accepts)
        for lo, hi in pairwise(bounds)
    )


def _sweeps(args: list[Arg], accepts: Callable[[str], bool]) -> bool:
    i, n = 0, len(args)
    while i < n and args[i].text in ("-H", "-P"):
        i += 1
    while i < n and args[i].text[:1] not in ("-", "(", "!", ")", ","):
        if not plainly_inside(args[i]):
            return False
        i += 1
    depth = 0
    named = False
    acting = False  # an action was seen: no test may follow it (`-delete -name x` deletes everything)
    group_names = 0
    while i < n:
        word = args[i].text
        if word in _POSITIONLESS:
            i += 1
        elif word in _VALUED_OPTIONS:
            if i + 1 >= n or not args[i + 1].text.isdigit():
                return False
            i += 2
        elif word in ("-name", "-iname"):
            if acting or i + 1 >= n or not accepts(args[i + 1].text.lower()):
                return False
            named = True
            group_names += depth > 0
            i += 2
        elif word in _PATH_TESTS or word in _REGEX_TESTS:
            # `-path '*/__pycache__/*'`: only what a compiled or cached name holds (see `selects_artefacts`)
            if acting or i + 1 >= n or not selects_artefacts(word, args[i + 1].text):
                return False
            named = True
            group_names += depth > 0
            i += 2
        elif word == "-type":
            if acting or depth or i + 1 >= n or args[i + 1].text not in _TYPES:
                return False
            i += 2
        elif word == "-empty":
            if acting:
                return False  # `-empty` only narrows what the names select
            i += 1
        elif word in ("-not", "!") and i + 2 < n and args[i + 1].text in _EXCLUDING:
            # `-not -name keep.gcov` beside the other tests only narrows the selection (never in a group,
            # where `-o` would make it the selection)
            if acting or depth:
                return False
            i += 3
        elif word in ("-o", "-or", "-a", "-and"):
            if depth == 0 and word in ("-o", "-or"):
                return False  # `-name '*.pyc' -o -delete` deletes everything else
            i += 1
        elif word == "(":
            if acting or depth:
                return False
            depth, group_names = 1, 0
            i += 1
        elif word == ")":
            if depth != 1 or not group_names:
                return False
            depth = 0
            i += 1
        elif word in _ACTIONS and depth == 0:
            acting = True
            i += 1
        elif word in _EXECS and depth == 0:
            acting = True
            i += 1
            while i < n and args[i].text not in (";", "+"):
                i += 1
            i += 1
        else:
            return False
    return named and depth == 0


_GREPS = frozenset({"grep", "egrep", "ggrep"})
_BRANCHES_MAX = 32
"""Distinct alternatives a grep sweep's pattern may have (a clean step names a handful)."""
_ANCHORLESS_MIN = 4
"""Characters a file-name ending must have to count without `$` (`\\.pyc`, `__pycache__`): a shorter one
(`\\.o`, `\\.so`) is part of too many other names (`x.old`, `.sources`) to stand for compiled files."""


def grep_sweeps_artefacts(chain: list[tuple[tuple[str, ...], list[Arg]]]) -> bool:
    """Does `find START… [-type f|d] | grep -E 'PATTERN'` (the producers feeding a delete, nearest first, as
    `(names, words)`) print only paths of compiled and cached files, as `find -name` of them would? The clean
    step `find . | grep -E "(__pycache__|\\.pyc|\\.pyo$)" | xargs rm -rf`: find lists every path under
    starts inside the project, and grep keeps those containing one of the alternatives, each a name in
    `ARTEFACT_NAMES` with its dots escaped (unescaped, `.pytest_cache` keeps `tests/test_pytest_cache.py`).
    Without `$`, an ending counts only when long enough (see `_ANCHORLESS_MIN`): `\\.pyc` also keeps a
    `x.pycfg`, a name nobody gives a file they keep."""
    if len(chain) != 2 or _GREPS.isdisjoint(chain[0][0]) or FINDS.isdisjoint(chain[1][0]):
        return False
    pattern = _grep_pattern(chain[0][0], chain[0][1][1:])
    return pattern is not None and _lists_everything(chain[1][1][1:]) and _names_artefacts(*pattern)


def _grep_pattern(names: tuple[str, ...], args: list[Arg]) -> tuple[str, bool] | None:
    """(the one pattern, extended?) of `grep -E PATTERN` or `egrep PATTERN` with no other option (`-v` keeps
    everything else); None otherwise."""
    extended = "egrep" in names
    pattern = None
    for a in args:
        if DYN in a.text:
            return None
        if a.text in ("-E", "--extended-regexp"):
            extended = True
        elif a.text[:1] == "-" or pattern is not None:
            return None
        else:
            pattern = a.text
    return None if pattern is None else (pattern, extended)


def _names_artefacts(pattern: str, extended: bool) -> bool:
    bar, group = ("|", ("(", ")")) if extended else ("\\|", ("\\(", "\\)"))
    if pattern.startswith(group[0]) and pattern.endswith(group[1]):
        pattern = pattern[len(group[0]) : -len(group[1])]
    branches = set(pattern.split(bar))
    if len(branches) > _BRANCHES_MAX:
        return False  # more alternatives than there are such names, in any spelling a clean step uses
    for branch in branches:
        anchored = branch.endswith("$")
        body = branch[:-1] if anchored else branch
        text = body.replace("\\.", "\0")
        if not text or not all(c.isalnum() or c in "_-\0" for c in text):
            return False  # an unescaped `.`, a class, a star: more than the names
        name = text.replace("\0", ".").lower()
        if not anchored and len(name) < _ANCHORLESS_MIN:
            return False
        if name not in ARTEFACT_NAMES and not (name[:1] == "." and "*" + name in ARTEFACT_NAMES):
            return False
    return True


def _lists_everything(args: list[Arg]) -> bool:
    """Is `find ARGS` a plain listing of start paths inside the project (`find .`, `find src -type f`)?"""
    i, n = 0, len(args)
    while i < n and args[i].text[:1] not in ("-", "(", "!", ")", ","):
        if not plainly_inside(args[i]):
            return False
        i += 1
    while i < n:
        word = args[i].text
        if word in ("-type", *_VALUED_OPTIONS) and i + 1 < n:
            if (word == "-type" and args[i + 1].text not in _TYPES) or (
                word != "-type" and not args[i + 1].text.isdigit()
            ):
                return False
            i += 2
        elif word in ("-print", "-xdev", "-mount", "-depth"):
            i += 1
        else:
            return False
    return True


def fed_operands_only(args: list[Arg]) -> bool:
    """Are the operands of a delete's `args` only what a feed hands it: `{}` (from `find -exec`) or a single
    word known at run time (`xargs rm`, `rm -rf $(find …)`)?"""
    operands: list[str] = []
    options = True
    for a in args:
        text = a.text
        if options and text == "--":
            options = False
        elif options and text[:1] == "-" and len(text) > 1:
            continue
        else:
            operands.append(text)
    if not operands:
        return False
    if all(t == "{}" for t in operands):
        return True
    return operands == [DYN]
