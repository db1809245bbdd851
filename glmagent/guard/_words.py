"""What the words of any command give away: a process environment, argument-wide rules, another machine or a
hidden stream (`_locators`), an option whose value runs as a command, an output file, the files a command
writes and the program it runs, judged against the working directory (`_paths`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from . import _locators, _parse_posix
from ._compiled import HANDED_AS_ANY, NameInfo
from ._findings import shown_args
from ._globbed import MAX_GLOB_WORDS, is_glob_path, is_named_glob, maybe_glob
from ._handed import first_word, in_program_folder, is_path, last_part, pieces
from ._lazy import lazy_re
from ._listed import listing, under
from ._models import Dialect, ExecutorSpec, Rule, WrapperSpec
from ._normalise import command_key
from ._paths import (
    ARCHIVERS,
    CMD_DELETERS,
    DELETERS,
    DOTNET_ARCHIVERS,
    GIT_VALUE_OPTIONS,
    MAKERS,
    REWRITERS,
    WRITERS,
    PathScope,
    below_powershell_variable_folder,
    climbed,
    cmd_delete_words,
    configured_prefixes,
    in_home,
    installs_configured,
    literal_folder,
    named_from_here,
    names_cmd_variable,
    output_targets,
    quoted_whole,
    write_targets,
)
from ._rules import _RG_VALUED_SHORT, _SEARCHER_VALUED_LONG, negated_globs
from ._runners import run_places
from ._screens import CaselessScreen, CleanTexts
from ._syntax import DYN, MAX_WORK, NAME_SCRIPT_WORK, PIECE_WORK, Arg, Feed, Frame, TooLarge
from ._unwrap import executor, wrapper_reading

_NAMES_ONLY = frozenset(
    {
        "dirname",
        "basename",
        "echo",
        "printf",
        "realpath",
        "readlink",
        "cd",
        "chdir",
        "pushd",
        "set-location",
        "push-location",
        "test-path",
    }
)
"""Programs that print, resolve or test the names they are given without opening them: `dirname "$0"` after a
`cd` to a run-time folder reads no process environment, whatever `$0` is; nor does a change of folder
itself (a folder is no environment file; what is read there later is judged from there)."""
_MAKES = frozenset({"make", "gmake", "bmake", "pmake", "nmake", "jom", "remake"})
_EXPORTERS = frozenset({"reg", "regedit"})
"""Programs that write a file of code they would otherwise run (`reg export KEY out.reg`): it is output."""
_MAKEFILE_OPTIONS = frozenset({"-f", "/f", "--file", "--makefile"})
"""`make -f Makefile.msc`: the makefile a make program reads in its own language (`.msc` is also an MMC
snap-in's suffix, which only a code host runs)."""
_WINDOWS_LAUNCHERS = frozenset(
    {
        "rundll32",
        "mshta",
        "regsvr32",
        "cmstp",
        "pcalua",
        "forfiles",
        "installutil",
        "regasm",
        "regsvcs",
        "odbcconf",
    }
)
"""Windows programs whose work is to start other code (`lpe.exe "rundll32.exe C:\\x\\k.dll,Run"`): a
command line in a word starting with one, by name, is checked like one starting with a shell."""
_CONSOLE_WORDS = frozenset({"shell", "console", "repl"})
"""A first operand that opens an interactive console (`poetry shell`, `flask shell`, `ansible-test shell`)."""
_TOPIC_READERS = frozenset({"man", "info", "whatis", "apropos", "tldr", "get-help", "help"})
"""Programs whose first operand names a manual page or help topic (`man console`, `Get-Help console`)."""
_LABEL_BUILDERS = frozenset({"bazel", "bazelisk", "blaze", "buck", "buck2", "pants", "plz", "please"})
"""Build tools whose operands are targets named by label (`//cmd:app`, `@repo//go:x`, `//...`), not files."""
_LABEL = lazy_re(r"(?:@[\w.~+-]*)?//(?:[^/]|$)|:[\w.+-]")
"""A build label: `//pkg:target`, `//pkg/...`, `@repo//pkg`, `//:target`, `:target`."""

_NOT_LAUNCHERS = {
    "dotnet": ("test", "vstest"),
    "vstest.console": (),
    "certutil": ("-hashfile", "/hashfile"),
    **dict.fromkeys(("ninja", "samu", "nmake", "jom", "mingw32-make", *_MAKES), ()),
    "cmake": ("--build",),
    "meson": ("compile",),
    "mklink": (),
    "junction": (),
}
"""Programs handed programs under these subcommands (any, when none are named) that launch nothing foreign:
test runners (`dotnet test --test-modules "bin/**/*Tests.exe"`), a checksum (`certutil -hashfile app.exe`) and
build tools, whose operands are targets to build (`ninja -C build mpv.exe`), and cmd's links (`mklink /H luvi
luvi.exe` makes a link, whose both ends are judged as written). Where the program lies is still judged
(`dotnet test C:\\Users\\Public\\x.exe` runs a program from outside the project)."""


def _launches_nothing(name: str, args: list[Arg]) -> bool:
    """`name` is one of `_NOT_LAUNCHERS`, under one of its subcommands."""
    subcommands = _NOT_LAUNCHERS.get(name)
    if subcommands is None:
        return False
    return not subcommands or (bool(args) and args[0].text.lower() in subcommands)


_OUTPUT_SWITCHES = frozenset(
    {"out", "output", "o", "outfile", "outputfile", "outdir", "outputpath", "destinationpath", "destination"}
)
"""Switch names whose value is what a program builds, not what it runs (`csc -out:x.exe`)."""

_VERSION_OPTION = lazy_re(r"[-/]{0,2}[\w-]*version", re.IGNORECASE)
_DOTTED_NUMBER = lazy_re(r"\d+(?:\.\d+){3}")
_NAMED_WITH_SUFFIX = lazy_re(r"(\$[A-Za-z_]\w*|\$\{[A-Za-z_]\w*\})((?=[\w.+-]*[A-Za-z0-9])[\w.+-]+)")
"""A loop's variable with a name added (`$f.orig`, `${f}.sha256`): beside the listed path. Never dots
alone (`"$f."` of `.` is `..`)."""
"""`-Version 1.2.3.4`, `--set-version 2.0.1.7`, `npm version 1.2.3.4`: the word after such an option or
subcommand is a version, not an address."""

_SEPARATED = lazy_re(r"(?:[;|`]|&&|\$\()\s*([^\s;|&`()]+)")

_LISTEN_OPTION = lazy_re(r"(?is)--?listen(?:[-_](?:addr|address|port|host|on)\w*)?(?:[=:].*)?")
"""An option that makes a program accept connections (`fzf --listen=12345`, `--listen-address=:9090`)."""

_EXCLUDING = lazy_re(r"(?i)--?(?:exclude|ignore|omit|skip)(?:[-_](?:dirs?|globs?|patterns?))?")
"""Options whose value is a pattern of files to leave out (`--exclude-from FILE`, `--ignore-path FILE` read
one, so they are not among them)."""
_SSH_COMMAND_SETTING = lazy_re(r"(?is)(?:proxy|local|knownhosts)command(?:\s*=\s*|\s+)(.*)")
"""An ssh-style `-o` setting whose value runs locally as a command line (`-o "ProxyCommand sh -i"`,
`-oLocalCommand=CMD`); OpenSSH and the tools that pass `-o` on to it accept `key value` and `key=value`."""


def _names_installed(text: str, copied: set[str]) -> bool:
    """Can a path handed to a program name an installed program: anything but a relative path into the project
    (`go test ./cmd`, Go's package folder named like cmd.exe), unless this line copied a program there."""
    return not named_from_here(text) or path_key(text) in copied


_TEXT_LANGUAGES = frozenset({"sed", "awk"})
"""Languages whose program reads its input files as text: a source file there is data, not code it runs."""


def _input_start(spec: ExecutorSpec, args: list[Arg]) -> int:
    """Where the input files of a `sed` or `awk` program begin: after its program, given inline or as a
    file (`len(args)` when it is not found among the words: then every word counts as a program)."""
    run = executor(spec, args)
    marks = {id(m) for m in (*run.payloads, *run.program_files)}
    options = (*spec.inline, *spec.file_flags)

    def holds_program(word: Arg) -> bool:
        # the program's own word, or an option with the program glued on (`--expression=1p`, `-e1p`)
        t = word.text
        return id(word) in marks or t.partition("=")[0] in options or (len(t) > 2 and t[:2] in options)

    return max((j + 1 for j, w in enumerate(args) if holds_program(w)), default=len(args))


def _joined_path(args: list[Arg]) -> list[Arg]:
    """`Join-Path A B C…` (or `-Path A -ChildPath B`): the one path it prints, its pieces joined by `/`."""
    pieces = [a for a in args if not a.param and not a.block]
    if not pieces:
        return args
    return [Arg("/".join(a.text for a in pieces), "/".join(a.raw for a in pieces))]


def _after_separators(text: str) -> Iterator[str]:
    """Words that start a command after a separator in a word (`x; /bin/sh`, `$(id)`), found one at a
    time: the first runner among them decides, and a long word may hold thousands."""
    return (m.group(1).strip("\"'") for m in _SEPARATED.finditer(text))


def _listen_option(word: str) -> bool:
    """`--listen=12345`, `--listen-address=:9090`, `-listen`: the program accepts connections."""
    return word[:7].lower() in ("--liste", "-listen") and _LISTEN_OPTION.fullmatch(word) is not None


def _ssh_command_setting(args: list[Arg], i: int) -> Arg | None:
    """The command line of the ssh-style setting `args[i]` gives, if it is one (`-o "ProxyCommand CMD"`,
    `-oLocalCommand=CMD`); None otherwise."""
    t = args[i].text
    if t[:2] != "-o":
        return None
    if t == "-o":
        if i + 1 >= len(args):
            return None
        text, raw = args[i + 1].text, args[i + 1].raw
    else:
        text, raw = t[2:], args[i].raw[2:]
    found = _SSH_COMMAND_SETTING.fullmatch(text)
    if found is None:
        return None
    shown = _SSH_COMMAND_SETTING.search(raw)
    return Arg(found.group(1), shown.group(1) if shown is not None else found.group(1))


def listens_or_runs_setting(args: list[Arg], texts: str) -> bool:
    """Does a word make the program listen for connections, or hand it an ssh-style `-o` setting that runs
    a command? (The fast path steps aside for these; `WordChecks._command_options` judges them.) `texts`:
    the words joined, searched first so that nearly every command is ruled out at once."""
    if "-o" not in texts and "isten" not in texts and "ISTEN" not in texts:
        return False
    return any(_listen_option(a.text) or _ssh_command_setting(args, i) for i, a in enumerate(args))


_PS_VARIABLE = lazy_re(r"\$(?:\{[^}]*\}|\([^()$]*\)|[\w:?^]+)")
_PS_PLAIN = lazy_re(r"\$(?:\([^()$]*\)|[\w:?^]+)")


def _ps_variables_replaced(raw: str, replace: str | Callable[[str], str]) -> str:
    """`raw` with each variable (`${any name}`, `$env:X`) and plain subexpression (`$(pwd)`) replaced by
    `replace` (a `re.sub` template), or by `replace` of its spelling. Where no `}` follows, the
    expression looked for one from each `${` through the rest of the word (`${${${…` of 10 kB took
    120 ms): from the first such `${` on, no match can reach back, and only the other kinds are looked
    for."""
    replaced = replace if isinstance(replace, str) else lambda m: replace(m.group(0))

    cut = raw.find("${", raw.rfind("}") + 1)
    if cut == -1:
        return _PS_VARIABLE.sub(replaced, raw)
    return _PS_VARIABLE.sub(replaced, raw[:cut]) + _PS_PLAIN.sub(replaced, raw[cut:])


def _ps_spelled(word: Arg, dialect: str) -> Arg:
    """PowerShell reads a word holding a variable as one run-time value; where it may point still shows in
    its literal pieces (`$d/*/environ`), as a shell's word keeps them: the word with each variable a
    run-time piece (unchanged when anything else is computed in it)."""
    if dialect == "posix" or word.text != DYN:
        return word
    raw = word.raw
    if len(raw) > 1 and raw[0] == raw[-1] == '"':
        raw = raw[1:-1]
    elif raw[:1] in ("'", "@", "(", "{", "["):
        return word
    text = _ps_variables_replaced(raw, DYN)
    return word if text == DYN or "$" in text or "`" in text else Arg(text, word.raw)


_PS_PLUS = lazy_re(r"\s*\+\s*")


OWN_VALUE = "\x01"
"""Where a variable's new value keeps its old one (`$env:Path` in `"C:\\x;$env:Path"`)."""


_PS_HOME_VARIABLES = frozenset(
    {"$home", "${home}", "$env:userprofile", "${env:userprofile}", "$env:home", "${env:home}"}
)


def ps_pieces(raw: str, own: str = "") -> str:
    """A PowerShell value joined from strings and variables (`"C:\\x;$env:Path"`, `'C:\\x;' + $env:Path`)
    as text with each variable a run-time piece, the variable `env:own` itself `OWN_VALUE` and the home
    folder's `~`; any other part (a command, a subexpression) is a run-time piece too."""
    mine = {f"$env:{own}".lower(), f"${{env:{own}}}".lower()} if own else set()

    def known(variable: str) -> str:
        spelled = variable.lower()
        if spelled in mine:
            return OWN_VALUE
        return "~" if spelled in _PS_HOME_VARIABLES else DYN  # run-time words, but always the home folder

    out = []
    for piece in _PS_PLUS.split(raw.strip()):
        if piece.lower() in mine:
            out.append(OWN_VALUE)
            continue
        if len(piece) > 1 and piece[0] == piece[-1] == "'":
            out.append(piece[1:-1])
            continue
        if len(piece) > 1 and piece[0] == piece[-1] == '"':
            piece = _ps_variables_replaced(piece[1:-1], known)
            if "$" not in piece and "`" not in piece:
                out.append(piece)
                continue
        out.append(DYN)
    return "".join(out)


_GIT_CHANGING = frozenset(
    {
        "add",
        "am",
        "apply",
        "checkout",
        "cherry-pick",
        "clean",
        "commit",
        "merge",
        "mv",
        "pull",
        "rebase",
        "reset",
        "restore",
        "revert",
        "rm",
        "stash",
        "switch",
        "init",
        "gc",
        "prune",
        "update-index",
        "update-ref",
        "worktree",
        "submodule",
        "notes",
        "fetch",
        "tag",
        "branch",
        "config",
        "remote",
        "filter-branch",
        "filter-repo",
        "replace",
        "lfs",
        "sparse-checkout",
        "maintenance",
        "repack",
        "checkout-index",
        "read-tree",
        "symbolic-ref",
        "pack-refs",
        "bisect",
        "reflog",
    }
)
"""git commands that may change a repository's files, its index or its history."""
_GIT_LOOKS = {
    "stash": frozenset({"list", "show"}),
    "worktree": frozenset({"list"}),
    "submodule": frozenset({"status", "summary"}),
    "notes": frozenset({"list", "show"}),
    "lfs": frozenset({"ls-files", "env", "status", "version", "track"}),
    "sparse-checkout": frozenset({"list"}),
    "bisect": frozenset({"log", "visualize", "view"}),
    "remote": frozenset({"-v", "--verbose", "show", "get-url"}),
    "reflog": frozenset({"show"}),
}
"""Forms of those that only look: their first word."""
_GIT_LISTING = frozenset(
    {
        "-l",
        "--list",
        "-a",
        "--all",
        "-r",
        "--remotes",
        "-v",
        "-vv",
        "--verbose",
        "--show-current",
        "--contains",
        "--merged",
        "--no-merged",
        "--points-at",
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "--check",
        "--stat",
        "--numstat",
        "--summary",
        "-n",
    }
)
"""Options that make `git branch`, `tag`, `config` or `apply` only list or check."""


def git_names_folder(argv: list[Arg]) -> bool:
    """Whether a git command names the repository it works in (`-C`, `--git-dir`, `--work-tree`), a folder
    it makes (`git init DIR`) or another file it writes (`git config -f F`)."""
    if any(a.text[:2] == "-C" or a.text.startswith(("--git-dir", "--work-tree")) for a in argv[1:]):
        return True
    folder, at = _git_repository(argv)
    return folder is not None and bool(
        git_made_folders(argv, at) or git_removed_folders(argv, at) or git_written_files(argv, at)
    )


_GIT_PACKERS = frozenset({"archive", "format-patch"})
"""git commands whose output option names an archive or a folder of patches they make."""


def git_subcommand_at(argv: list[Arg]) -> int:
    """Where the subcommand of a git command stands, past git's own options and their values (`git -C sub -c
    k=v crypt unlock`); 0 when the line has none or a word only known at run time comes first."""
    i, n = 1, len(argv)
    while i < n:
        t = argv[i].text
        if DYN in t:
            return 0
        if t[:1] != "-":
            return i
        i += 2 if t in GIT_VALUE_OPTIONS else 1
    return 0


def _git_repository(argv: list[Arg]) -> tuple[str | None, int]:
    """The folder a git command works in, relative to the working directory (`-C`, `--work-tree`,
    `--git-dir`), and where its command word stands; None when the folder is only known at run time or the
    line has no command word."""
    folder = "."
    tree: str | None = None
    i = 1
    while i < len(argv):
        t = argv[i].text
        name, eq, value = t.partition("=")
        if name in GIT_VALUE_OPTIONS:
            if not eq:
                i += 1
                value = argv[i].text if i < len(argv) else ""
            if DYN in value:
                return None, 0
            if name == "-C" and value:
                folder = value if value[:1] in ("/", "~") or value[1:2] == ":" else f"{folder}/{value}"
            elif name == "--work-tree" or (name == "--git-dir" and tree is None):
                tree = value
        elif not t.startswith("-"):
            return (tree if tree else folder), i
        i += 1
    return None, 0


_GIT_FOLDER_MAKERS: dict[str, tuple[int, frozenset[str]]] = {
    # git command: (which of its operands is the folder it makes, its options taking the next word)
    "init": (0, frozenset({"--template", "--separate-git-dir", "-b", "--initial-branch", "--object-format",
                           "--ref-format"})),
    "clone": (1, frozenset({"-o", "--origin", "-b", "--branch", "-u", "--upload-pack", "--reference",
                            "--reference-if-able", "--separate-git-dir", "--depth", "--shallow-since",
                            "--shallow-exclude", "-c", "--config", "--template", "--filter", "-j", "--jobs",
                            "--server-option", "--bundle-uri", "--ref-format", "--revision"})),
    "worktree add": (0, frozenset({"-b", "-B", "--reason"})),
    "worktree move": (1, frozenset()),
    "bundle create": (0, frozenset({"--version"})),  # a file, not a folder: `git bundle create F --all`
}  # fmt: skip
_GIT_FOLDER_REMOVERS: dict[str, tuple[int, frozenset[str]]] = {
    # a worktree removed or moved away is a folder deleted, with what git ignores in it
    "worktree remove": (0, frozenset()),
    "worktree move": (0, frozenset()),
}


def git_made_folders(argv: list[Arg], at: int) -> list[Arg]:
    """The folders a git command makes (`git init DIR`, `git clone SRC DIR`, `git worktree add DIR`, and
    `--separate-git-dir DIR`) or the file of `git bundle create F`, as written; `at`: where its command word
    stands."""
    return _git_folders(argv, at, _GIT_FOLDER_MAKERS)


def git_removed_folders(argv: list[Arg], at: int) -> list[Arg]:
    """The folders a git command deletes (`git worktree remove DIR`, the source of `git worktree move`), as
    written; `at`: where its command word stands."""
    return _git_folders(argv, at, _GIT_FOLDER_REMOVERS)


def _git_folders(argv: list[Arg], at: int, table: dict[str, tuple[int, frozenset[str]]]) -> list[Arg]:
    sub, rest = argv[at].text, argv[at + 1 :]
    if sub in ("worktree", "bundle"):
        if not rest:
            return []
        sub, rest = f"{sub} {rest[0].text}", rest[1:]
    spec = table.get(sub)
    if spec is None:
        return []
    index, valued = spec
    made: list[Arg] = []
    operands: list[Arg] = []
    i = 0
    while i < len(rest):
        a = rest[i]
        name, eq, value = a.text.partition("=")
        if a.text == "--":
            operands += rest[i + 1 :]
            break
        if a.text[:1] != "-" or a.text == "-":
            operands.append(a)
        elif name == "--separate-git-dir" and eq:
            made.append(Arg(value, a.raw.partition("=")[2] or value))
        elif name in valued and not eq:
            if name == "--separate-git-dir":
                made += rest[i + 1 : i + 2]
            i += 1
        i += 1
    return made + operands[index : index + 1]


_GIT_CONFIG_READS = _GIT_LISTING | {
    "--get-color", "--get-colorbool", "get", "list", "--show-origin", "--show-scope", "-e", "--edit", "edit",
}  # fmt: skip
"""`git config` words that only read the file it is given (the listing options `_git_changes` reads, and
the subcommand forms), or open it in an editor, which the editor rules judge."""
_GIT_CONFIG_WRITES = frozenset(
    {"--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section", "set",
     "unset", "rename-section", "remove-section"}
)  # fmt: skip
"""`git config` words that change the file whatever else is given (`--unset key`)."""


def git_written_files(argv: list[Arg], at: int) -> list[Arg]:
    """Files a git command writes besides its repository: the file `git config -f F key value` sets (not one
    it only reads), and the folder `git apply --directory=D` puts the patched paths under."""
    sub, rest = argv[at].text, argv[at + 1 :]
    if sub not in ("config", "apply"):
        return []
    written: list[Arg] = []
    words = 0  # the words that are no option nor its value: `key value` sets, `key` alone reads
    skip = False
    for i, a in enumerate(rest):
        name, eq, value = a.text.partition("=")
        if skip:
            skip = False
        elif (sub == "config" and name in ("-f", "--file")) or (sub == "apply" and name == "--directory"):
            if eq:
                written.append(Arg(value, a.raw.partition("=")[2] or value))
            elif i + 1 < len(rest):
                written.append(rest[i + 1])
                skip = True
        elif sub == "config" and a.text[:2] == "-f" and len(a.text) > 2:
            written.append(Arg(a.text[2:], a.raw[2:]))  # `-f~/.gitconfig`
        elif a.text[:1] != "-":
            words += 1
    if sub == "config":
        texts = {a.text for a in rest}
        if not texts.isdisjoint(_GIT_CONFIG_READS) or (words < 2 and texts.isdisjoint(_GIT_CONFIG_WRITES)):
            return []
    return written


def _git_changes(sub: str, rest: list[str]) -> bool:
    """Whether git command `sub`, given the words `rest` after it, may change its repository."""
    if sub not in _GIT_CHANGING:
        return False
    looks = _GIT_LOOKS.get(sub)
    if sub == "remote":
        return bool(rest) and rest[0] not in _GIT_LOOKS["remote"]  # a bare `git remote` lists
    if looks is not None:
        return not (rest and rest[0] in looks)
    if sub in ("branch", "tag", "config", "apply"):
        operands = [w for w in rest if not w.startswith("-")]
        if not _GIT_LISTING.isdisjoint(rest) or (sub in ("branch", "tag") and not operands):
            return False
        return not (sub == "config" and len(operands) == 1)
    return True


def maybe_environ(text: str) -> bool:
    """A cheap screen: only words mentioning `env`, holding a glob or a run-time piece can name one."""
    return "env" in text or "ENV" in text or "*" in text or "?" in text or "[" in text or DYN in text


_PARAMETER_VALUE = lazy_re(r"([^=:]+)[=:](.*)", re.DOTALL)
"""A parameter word with its value glued on (`-javaagent:C:\\x.jar`, `--plugin-dir=C:\\x`)."""
_SETTING_KEY = lazy_re(r"[A-Za-z_][\w.-]*")
"""The key of a `KEY=VALUE` word (`action=…`, `core.editor=…`)."""
_DISPLAY_NAME = lazy_re(r"(?:[\w.+-]+/)*[A-Z][a-z]*[A-Za-z0-9.+]*(?: [A-Z0-9][\w.+()-]*)+")
"""A title written with blanks (`MySQL Log Viewer`, `dist/Python Launcher.app`, `Node Tools 2.0`): each word
capitalised, no option, separator or variable; relative to the project when it holds a folder."""
_COMMAND_IN_NAME = lazy_re(r"[;|`\n]|\$\(|&&")
"""Command separators and substitutions: in a file name, a command line waiting for an unquoted reader."""
_GLOB_ALTERNATIVE = r"[^()|`$;&\s]*[*?\[][^()|`$;&\s]*"
_EXTGLOB_GROUP = lazy_re(rf"[@+*?!]\([^()`$;&\n]*\)|\((?:{_GLOB_ALTERNATIVE}\|)+{_GLOB_ALTERNATIVE}\)")
"""A pattern list of an extended glob (`**/*.@(ts|js)`), or a bare group of patterns that tools' own globbing
reads as one (prettier's `src/**/(*.ts|*.tsx)`, each alternative a glob without blanks): its `|` separates
patterns, not commands."""
_PATH_MAX = 4096
"""Longer file names cannot be created (Linux's PATH_MAX; a name's own part may hold 255 bytes): no name
that long waits for a reader."""
_MODE_CHANGERS = frozenset({"chmod", "chown", "chgrp", "chattr", "setfacl", "chflags", "setfattr", "attrib"})
"""Writers that change a file that is there: they name no new file."""
_NAMED_BY_FOLDER = (
    DELETERS | ARCHIVERS | DOTNET_ARCHIVERS | REWRITERS | {"mktemp", "compress-archive", "zipfile", "tarfile"}
)
"""Writers whose target named at run time is judged by its literal folder, else left alone (`_paths`).
Compress-Archive only ever writes a `.zip` (it adds the extension); Expand-Archive, which may plant any file
in a run-time folder, is not among them."""
_CMD_NAMED_FILE = lazy_re(r"^\"%[A-Za-z_][\w()]*%[^%*?\"]*[\\/][^\\/%*?\"]*\.[A-Za-z0-9]+\"$")
"""A file named below a folder a cmd variable names (`"%OUT%\\x.obj"`): deleting it is deleting that one
file, as `rm -f "$OUT/x.o"` is, unless the folder is one Windows names (`%APPDATA%\\x`, see
`names_cmd_variable`)."""
_FOLDER_TYPE = lazy_re(r"(?i)-[it][a-z]*(?::(.*))?")
"""New-Item's `-ItemType` (its only parameter starting with I, by any prefix) or its alias `-Type`."""
_MODE_OPTION = lazy_re(r"-m|--mode\b|-[a-z]*m")
"""mkdir's mode, alone or after other flags (`-pm 700`)."""


def _makes_folder(name: str, args: list[Arg]) -> bool:
    """Does the command only make folders: `mkdir` without a mode, `New-Item -ItemType Directory` without a
    value?"""
    if name == "mkdir":
        return not any(_MODE_OPTION.match(a.text) for a in args)
    if name == "md":
        return True  # cmd's own, which takes no mode
    if name.endswith("directory]::createdirectory"):
        return len(args) == 1  # `[IO.Directory]::CreateDirectory($dir)`, without an access control list
    if name != "new-item":
        return False
    kind = None
    for at, a in enumerate(args):
        if a.text[:2].lower() == "-v":
            return False  # `-Value`: a file's text
        found = _FOLDER_TYPE.fullmatch(a.text)
        if found is not None:
            given = found.group(1)
            kind = given if given is not None else args[at + 1].text if at + 1 < len(args) else ""
    return kind is not None and kind.lower().startswith("dir")


def path_key(path: str) -> str:
    """Compare file names loosely: `./x.sh`, `x.sh` and `.\\x.sh` are the same file."""
    key = path.replace("\\", "/")
    # (cutting one `./` at a time copied the rest of the word for each; stepping over them one at a time
    # cost a call each, 50,000 in a word of `./`)
    return key[_DOT_STEPS.match(key).end() :].lower()  # type: ignore[union-attr]


_DOT_STEPS = lazy_re(r"(?:\./)*")


_NAME_MAX = 255
"""The longest file name ext4, NTFS and APFS allow (255 bytes or UTF-16 units): a longer last part of a path
names no file a program could open."""

_EXISTENCE_PROBES = frozenset({"test", "test-path"})
"""Commands that only ask whether a path is there (as `[ -f F ]` does): a credential file they name is not
read. (Get-Item and ls show more: a file's size and times.)"""

_PRINTERS = frozenset({"echo", "printf", "print", "write-output", "write-host", "add-content", "set-content"})
"""Commands whose words are text they print or write (`echo "*.env" >> .gitignore`, `Add-Content .gitignore
".env"`): a bare file name among them (no folder, no home) is a name that nothing reads; a path with a
folder or in a home (`echo ~/.ssh/id_rsa`, `echo config/.env`) still counts, as a path named anywhere does."""


def _bare_name(text: str) -> bool:
    """Is `text` a file name with no folder, no home and no run-time part (`.env`, `*.env`, `!.env`)?"""
    return DYN not in text and "/" not in text and "\\" not in text and text[:1] != "~"


_SEARCHERS = frozenset(
    {"grep", "egrep", "fgrep", "ggrep", "zgrep", "zegrep", "rg", "ag", "ack", "pcregrep", "pcre2grep"}
)
"""Programs whose pattern (the first operand, or the value of `-e`) is a regular expression, not a path."""


def _quoted_patterns(args: list[Arg], rg: bool) -> frozenset[str]:
    """The quoted patterns a searcher is handed: the values of `-e`/`--regexp` or, with none, its first
    operand (`grep -v '/.*/' x`). Quoted, the shell expands none of them: they are regular expressions."""
    found: list[Arg] = []
    first: Arg | None = None
    given = want = skip = done = False
    valued = _RG_VALUED_SHORT if rg else "ABCm"
    for a in args:
        t = a.text
        if want or skip:
            if want:
                found.append(a)
            want = skip = False
            continue
        if not done and t == "--":
            done = True
        elif not done and t[:1] == "-" and len(t) > 1:
            if t[:2] == "--":
                name, eq, _ = t.partition("=")
                given = given or name in ("--regexp", "--file")
                want = not eq and name == "--regexp"
                skip = not eq and (name == "--file" or name in _SEARCHER_VALUED_LONG)
                continue
            for k, letter in enumerate(t[1:], 1):
                if letter in "ef" or letter in valued:
                    given = given or letter in "ef"
                    want = k == len(t) - 1 and letter == "e"
                    skip = k == len(t) - 1 and letter != "e"
                    break
        elif first is None:
            first = a
    if not given and first is not None:
        found.append(first)
    quoted = {a.text for a in found if a.raw[:1] in ("'", '"')}
    # (a word of the same text elsewhere is still a path: `grep '/root/.*' /root/.*`)
    return frozenset(quoted.difference(a.text for a in args if not any(a is f for f in found)))


MAX_MATCHED = 8192
"""Characters of the words one line may have matched against the argument-wide rules, counting only words
that hold a fragment one of the rules needs (twice the longest path Linux opens): their path expressions
cost about 4 us a character, so a line of long words holding a path fragment (`lsass`, `/.aws/`) would
otherwise take hundreds of milliseconds. Everyday words hold none, or a few short ones."""


def _match_cost(word: str) -> int:
    """What matching `word` against the argument-wide rules counts towards `MAX_MATCHED`: its length, twice
    over when it opens with a quote, since their path expressions read it both with and without it."""
    return 2 * len(word) if word[:1] in ("'", '"') else len(word)


_LONG_TEXT = 1024
"""Texts at least this long that the argument rules' screen finds clean are remembered for the line."""


class WordChecks:
    """The word-level checks of an `Evaluation` (a mixin: it reads the evaluation's policy, scope and
    findings, and reports through its `event` and `_rule_finding`)."""

    __slots__ = ()

    def _arguments(
        self,
        args: list[Arg],
        argv: list[Arg],
        info: NameInfo,
        frame: Frame,
        wrapper: WrapperSpec | None = None,
        looked_up: bool = False,
    ) -> None:
        """What any word of any command can give away: a process environment, argument-wide rules
        (`/dev/tcp/*`, credential files), another machine or a hidden stream (`_locators`), an option whose
        value the program runs as a command (`--rsh CMD`), and an output file (`-o FILE`). `wrapper`: the
        program's wrapper spec that reads `args`, when the caller `looked_up` which one does."""
        names = info.names
        texts = "\n".join([a.text for a in args])
        code: frozenset[str] = frozenset()
        if info.executor is not None and maybe_glob(texts):
            # An inline program is text in its own language (`sed -i '/^version/ s/.*/version 2/' x`): its `/`
            # and `*` are an address and a pattern, not a glob from the root.
            code = frozenset(p.text for p in executor(info.executor, args).payloads)
        elif names[-1] in _SEARCHERS and maybe_glob(texts):
            code = _quoted_patterns(args, names[-1] == "rg")  # `grep -v '/.*/' x`: a regex, not a glob
        self._argument_rules(args, argv, names, frame, texts, code)
        spec = (
            wrapper
            if looked_up
            else wrapper_reading(info.wrappers, args, info.syntax.value_options)[0]
            if info.wrappers
            else None
        )
        p = self.p
        if info.shell or spec is not None:
            if info.wrappers and ("-" in texts or ":" in texts):
                self._output_targets(args, argv, info, frame)  # `strace -o FILE`, `screen -Logfile FILE`
            if (
                spec is not None
                and spec.locates
                and p.locators[frame.dialect]
                and (_locators.screen(texts) or p.machine_options(frame.dialect, texts))
            ):
                self._locators(args, argv, info, frame)  # `mpirun --host 10.0.0.5 cmd`
            return  # what they run is checked as a command of its own, with its own words
        if self._may_name_machines(texts, frame.dialect):
            self._locators(args, argv, info, frame)
        if frame.dialect == "posix" and "\\" in texts and p.locators["posix"]:
            spelled = _locators.bash_unc(args)
            if spelled:
                self._locators(spelled, argv, info, frame)
        if (
            (info.special is None or info.special[0] in HANDED_AS_ANY)
            and p.file_tools.isdisjoint(names)
            and p.handed_screen.search(texts, self.changed_directory())
        ):
            self._handed_code(args, argv, info, frame)
        if "-" not in texts and ":" not in texts:
            return  # no option at all (`-x`, `/x:v`): neither a command option nor an output file
        if p.command_options is not None and info.executor is None and p.text_tools.isdisjoint(names):
            self._command_options(args, argv, names, frame)
        self._output_targets(args, argv, info, frame)

    def _output_targets(self, args: list[Arg], argv: list[Arg], info: NameInfo, frame: Frame) -> None:
        """Files named by an output option (`-o FILE`, `--output=FILE`, `/out:FILE`), judged as writes. The
        archive `git archive -o` packs and the folder `git format-patch -o` fills, named at run time, are
        judged by their literal folder as a packer's archive is (`-o "dist/$PKG.tar.gz"` is in `dist`)."""
        if info.paths != "write":
            targets = output_targets(info.names[-1], args)
            if targets:
                words = self._argv(argv, info.names)
                packs = info.names[-1] == "git" and argv[git_subcommand_at(argv)].text in _GIT_PACKERS
                cmd_named = frame.dialect != "posix"  # `-o dist\app-%VERSION%.zip`: named later by cmd
                for target in self._listed_below(targets, frame.feeds) if frame.feeds else targets:
                    if (
                        packs
                        and (DYN in target.text or (cmd_named and names_cmd_variable(target.raw)))
                        and not in_home(target.raw)
                    ):
                        folder = literal_folder(target)
                        if folder is None:
                            continue  # `-o "$OUT"`: left to the sandbox, as `tar czf "$OUT" .` is
                        target = folder
                    self._judge_write(self.scope(frame), target, frame, words)

    def _may_name_machines(self, texts: str, dialect: Dialect) -> bool:
        """The locator rules' cheap screen: could words whose texts are `texts` (joined) name another
        machine, or be a run-time word that might?"""
        p = self.p
        return bool(p.locators[dialect]) and bool(
            _locators.screen(texts) or DYN in texts or p.machine_options(dialect, texts)
        )

    def _locators(self, args: list[Arg], argv: list[Arg], info: NameInfo, frame: Frame) -> None:
        """A word naming another machine (`http://…`, `\\\\host\\share`, `user@host:path`, `host:port`, an
        address), or an option whose value names one (`-ComputerName dc01`, `--dc-ip 10.0.0.1`)."""
        candidates = [
            (i, a)
            for i, a in enumerate(args)
            if (_locators.screen(a.text) or (DYN in a.text and "$" in a.raw))
            and not (i and _DOTTED_NUMBER.fullmatch(a.text) and _VERSION_OPTION.fullmatch(args[i - 1].text))
        ]
        if candidates and info.executor is not None:
            # An inline program is text in its own language (`sed 's|http://a|https://b|'`): its network
            # calls are the payload rules' to find.
            programs = [p.text for p in executor(info.executor, args).payloads]
            candidates = [(i, a) for i, a in candidates if not any(p and p in a.text for p in programs)]
        names = info.names
        texts: list[str] | None = None
        for rule, pattern, spared in self.p.locators[frame.dialect]:
            if names[0] in spared or (len(names) > 1 and names[1] in spared):
                continue
            if pattern.only and pattern.only.isdisjoint(names):
                continue
            for i, a in candidates:
                if pattern.names_only(args, i, names[0]):
                    continue  # `--baseURL https://example.org/`: where the site will be served, not a peer
                if pattern.this_machine(a.text, names):
                    continue  # `wait-on http://localhost:3000`: waits for a server on this machine
                if pattern.local_service(a.text):
                    continue  # `migrate -database postgres://localhost:5432/app`: a database on this machine
                if pattern.match(a.text) or (
                    a.raw is not a.text and DYN in a.text and pattern.match_raw(a.raw)
                ):
                    self._rule_finding(rule, argv, names, frame, a.text if DYN not in a.text else a.raw)
            options = pattern.options
            if options is not None:
                if texts is None:
                    texts = [a.text for a in args]
                shown = options.hit(texts, [a.param for a in args], DYN)
                if shown is not None:
                    self._rule_finding(rule, argv, names, frame, shown)

    def _handed_code(self, args: list[Arg], argv: list[Arg], info: NameInfo, frame: Frame) -> None:
        """Words that hand the program code to run (see `_handed`).

        - a command line starting with a shell, an interpreter, a wrapper or an installed program (`--filter=
          '/bin/sh -i'`), or one hidden after a separator (`'}; /bin/sh #'`), is checked as a command line;
        - a shell given by its path (`multitime /bin/sh`), a program by its installed path followed by its
          arguments (`ip netns exec ns /usr/bin/id`), or any path after `--`, is checked as the command made;
        - a first operand `shell`, `console` or `repl` opens an interactive console (`poetry shell`);
        - a file only a code host runs (`x.sct`, `x.inf`) is unverifiable;
        - a program, script, source, library or plugin from outside the project is judged like a program run
          from there.
        Interpreters (`info.executor`) get only the last two, and the first for the words after the script
        they run (`python3 exploit.py --exec 'bash -c "…"'`): the rest of their words are their program's."""
        p = self.p
        names = info.names
        windows = frame.dialect != "posix"
        name = names[-1]
        launches = info.executor is None
        script_at: int | None = None  # where the words an interpreter hands its script begin, once looked up
        data_at: int | None = None  # where a text language's input files begin (`sed -n 5p FILE`), likewise
        outputs: list[Arg] | None = None
        before = len(self.findings)
        if (
            launches
            and args
            and args[0].text.lower() in _CONSOLE_WORDS
            and all(a.text[:1] == "-" for a in args[1:])
            and _TOPIC_READERS.isdisjoint(names)
        ):
            self.event(
                "terminal-program",
                frame,
                f"`{shown_args(argv)}` opens an interactive console",
                self._argv(argv, names),
            )
        for i, a in enumerate(args):
            if len(self.findings) > before:
                return  # the command is blocked already; one reason is enough (and keeps this linear)
            t = a.text
            if a.param and p.library_options is not None and DYN not in t:
                # PowerShell hands a native program's `-javaagent:LIB` (or `--plugin LIB`) on as a parameter
                match = _PARAMETER_VALUE.match(t)
                option = match.group(1) if match else t
                if option.lower().startswith(p.handed_screen.option_prefixes) and p.library_options.fullmatch(
                    option
                ):
                    value = match.group(2) if match else args[i + 1].text if i + 1 < len(args) else ""
                    self._outside_code(value, argv, names, frame)
                continue
            if not t or DYN in t or a.param:
                continue
            if name in _LABEL_BUILDERS and _LABEL.match(t.partition("=")[2] or t):
                continue  # `bazel build //cmd`, `--platforms=@rules_go//go/toolchain:x`: a target, not a file
            if p.library_options is not None and p.library_options.fullmatch(t) and i + 1 < len(args):
                self._outside_code(args[i + 1].text, argv, names, frame)  # `--default-auth LIB`
                continue
            if (
                launches
                and t == "--"
                and i + 1 < len(args)
                and args[i + 1].text[:1] != "-"
                and is_path(args[i + 1].text)
                and not _launches_nothing(name, args)  # `cmake --build b -- /p:x`: the build tool's switches
            ):
                # `openvt -- /path/to/cmd`: what follows the end of the options is the command it runs (an
                # option after it is passed on: `rake compile -- --with-x-dir=$DIR/x`, no program's name).
                self.command(args[i + 1 :], frame.wrapped(f"`{name} --`"), None)
                return
            parts = pieces(t, windows, (MAX_WORK - self.work) // PIECE_WORK)
            # A word listing thousands of items costs like thousands of words, each judged as a file.
            self._spend(PIECE_WORK * (len(parts) - 1))
            for piece in parts:
                text = piece.text
                if not text or len(self.findings) > before:
                    continue
                if (
                    piece.option
                    and p.library_options is not None
                    and p.library_options.fullmatch(piece.option)
                ):
                    self._outside_code(text, argv, names, frame)
                    continue
                if " " in text or "\t" in text:
                    if info.executor is not None and script_at is None:
                        script = executor(info.executor, args).script
                        script_at = next((j + 1 for j, w in enumerate(args) if w is script), len(args))
                    if launches or (script_at is not None and i >= script_at):
                        self._command_line(text, a, argv, name, frame)
                    continue
                file_name = last_part(text)
                # No file list matches it without the mark; and no file system names a file longer than
                # `_NAME_MAX` (its globs would read every character of a 100 kB word, `*.ps1` each again).
                files = (p.file_mark is None or p.file_mark in file_name) and len(file_name) <= _NAME_MAX
                if (
                    files
                    and p.code_host_files is not None
                    and p.code_host_files.fullmatch(file_name)
                    and not (i and name in _MAKES and args[i - 1].text.lower() in _MAKEFILE_OPTIONS)
                    and not (
                        name in _EXPORTERS and any(w is a for w in write_targets(name, args, frame.dialect))
                    )
                ):
                    self.event(
                        "code-file",
                        frame,
                        f"`{shown_args(argv)}` hands `{name}` `{text}`, a file only a code host runs",
                        self._argv(argv, names),
                    )
                    continue
                if "://" in text:
                    continue  # a URL: the locator rules judge it
                if (
                    files
                    and (is_path(text) or piece.bare)
                    and p.code_files is not None
                    and p.code_files.fullmatch(file_name)
                    and (is_path(text) or self.scope(frame).beyond_project(text) is not None)
                ):
                    if info.executor is not None and info.executor.language in _TEXT_LANGUAGES:
                        if data_at is None:
                            data_at = _input_start(info.executor, args)
                        if i >= data_at:
                            continue  # `sed -n '1,20p' /opt/x/t.c`: text it reads, not code it runs
                    # (a bare name is a file where a `cd` outside the project took the line: `cd /tmp &&
                    # pytest x.py`)
                    # (and a parameter's value is a file, `-File /x.build.ps1`, where a word alone may be a
                    # Windows switch, `cl /FeApp.dll`)
                    file = not is_path(text) or (i > 0 and args[i - 1].param)
                    below = self._below_variable_folder(a, frame) if text == a.text else None
                    self._outside_code(text if below is None else below.text, argv, names, frame, script=file)
                program = files and p.program_files is not None and p.program_files.fullmatch(file_name)
                if program and windows and launches and name != "call":
                    # (cmd's `call x.cmd` runs the batch file itself, judged below as any program by path)
                    # `mpiexec x.exe`: a launcher of the program, unless it is what the command builds.
                    if outputs is None:
                        outputs = output_targets(name, args)
                    option = piece.option or (args[i - 1].text if i and piece.bare else "")
                    built = option.lower().lstrip("-/").partition("=")[0] in _OUTPUT_SWITCHES
                    if _launches_nothing(name, args):
                        built = True  # a test program or a checksum, judged where it lies like any program
                    if (
                        not built
                        and all(o is not a for o in outputs)
                        # the project's own program by its path (`.\initrun.ps1 .\build.cmd`; a bare name
                        # may be found on PATH), unless the line made it
                        and (
                            self.written
                            or self.copied
                            or ("/" not in text and "\\" not in text and not self._project_batch(argv, frame))
                            or not self.scope(frame).holds(text)
                        )
                    ):
                        self.event(
                            "launched-program",
                            frame,
                            f"`{shown_args(argv)}` hands `{name}` the program `{text}`",
                            self._argv(argv, names),
                        )
                if not launches or not is_path(text):
                    continue
                if command_key(text) in p.shells and _names_installed(text, self.copied):
                    # `agetty -l /bin/sh`, `multitime /bin/sh -i`: the shell alone, and with what follows it.
                    self.command([Arg(text, a.raw)], frame.wrapped(f"`{name}`"), None)
                    if piece.bare and i + 1 < len(args):
                        self.command([Arg(text, a.raw), *args[i + 1 :]], frame.wrapped(f"`{name}`"), None)
                    if piece.bare:
                        return
                elif (
                    piece.bare
                    and in_program_folder(text)
                    and i + 1 < len(args)
                    and not (i and args[i - 1].text.lower().lstrip("-/") in _OUTPUT_SWITCHES)
                ):
                    # `ip netns exec ns /usr/bin/id -u`: the words from here on are the command it runs (not
                    # what it builds: `go build -o bin/aws ./cmd/aws`).
                    self.command([Arg(text, a.raw), *args[i + 1 :]], frame.wrapped(f"`{name}`"), None)
                    return

    def _command_line(self, text: str, word: Arg, argv: list[Arg], name: str, frame: Frame) -> None:
        """A word holding blanks is a command line when it starts with a runner or an installed program, or
        when one follows a command separator in it (`'}; /bin/sh #'`): check it as one."""
        p = self.p
        start = first_word(text)
        if _DISPLAY_NAME.fullmatch(text) and not start.isupper() and not in_program_folder(start):
            return  # `hdiutil create -volname "MySQL Log Viewer"`: an application's or a volume's name
        if "=" in start:
            # `action="sudo yabai --load-sa"`, `hook=bash x.sh`: a setting whose value is a command line
            key, _, value = text.partition("=")
            program = first_word(value)
            if _SETTING_KEY.fullmatch(key) and (p.is_runner(program) or in_program_folder(program)):
                text, start = value, program
        hidden = next((w for w in _after_separators(text) if p.is_runner(w) or in_program_folder(w)), None)
        launcher = frame.dialect != "posix" and command_key(start) in _WINDOWS_LAUNCHERS if start else False
        if (start and (p.is_runner(start) or in_program_folder(start) or launcher)) or hidden is not None:
            dialect: Dialect = "posix" if frame.dialect == "posix" else "cmd"
            shown_start = start if hidden is None else hidden
            self._inline(
                Arg(text, word.raw), dialect, frame.nested(f"`{name}` given `{shown_start} …`"), argv
            )

    def _runner_places(self, names: tuple[str, ...], argv: list[Arg], frame: Frame) -> None:
        """A build or test runner runs the code of the folders and build files it is given (`make -C DIR`,
        `pytest DIR`), or of the working directory: each is judged like a program run from there, the
        working directory only when a `cd` took the line to a known place outside the project."""
        places = run_places(names[-1], argv[1:])
        if places is None:
            return
        scope = self.scope(frame)
        if not places:
            moved = scope.moved_outside() if self.changed_directory() else None
            if moved is None:
                return
            places = [Arg(".", moved)]
        for place in places:
            verdict = scope.judge_program(place, script=True)
            if verdict is not None:
                self.event(
                    "outside-program",
                    frame,
                    f"`{shown_args(argv)}` runs the code of `{place.raw}`: {verdict.detail}",
                    self._argv(argv, names),
                )
                return

    def _outside_code(
        self, text: str, argv: list[Arg], names: tuple[str, ...], frame: Frame, script: bool = False
    ) -> None:
        """A program, library or plugin handed to `names` is judged where it is, like a program run there
        (`script`: a code file, in the working directory when named bare)."""
        if not text or DYN in text:
            return
        verdict = self.scope(frame).judge_program(Arg(text, text), script)
        if verdict is not None:
            self.event(
                "outside-program",
                frame,
                f"`{shown_args(argv)}` hands `{names[-1]}` code from outside the project: {verdict.detail}",
                self._argv(argv, names),
            )

    def _command_options(
        self, args: list[Arg], argv: list[Arg], names: tuple[str, ...], frame: Frame
    ) -> None:
        """`--password-command CMD`, `--rsh=CMD`, `--gpu-launcher=CMD`: the value runs as a command line,
        checked like one (in the syntax a Windows program's command line has); a run-time value blocks."""
        matcher = self.p.command_options
        assert matcher is not None
        dialect: Dialect = "posix" if frame.dialect == "posix" else "cmd"
        for i, a in enumerate(args):
            t = a.text
            if ("isten" in t or "ISTEN" in t) and _listen_option(t):
                self.event(
                    "listen-option",
                    frame,
                    f"`{shown_args(argv)}` listens for connections (`{t}`)",
                    self._argv(argv, names),
                )
            setting = _ssh_command_setting(args, i) if t[:2] == "-o" else None
            if setting is not None:
                self._inline(setting, dialect, frame.nested(f"`{names[-1]} -o`"), argv)
            if t[:1] != "-" or len(t) < 3:
                continue
            name, eq, value = t.partition("=")
            if matcher.fullmatch(name) is None:
                continue
            if eq:
                line = Arg(value, a.raw.partition("=")[2] or value)
            elif i + 1 < len(args):
                line = args[i + 1]
            else:
                continue
            self._inline(line, dialect, frame.nested(f"`{names[-1]} {name}`"), argv)

    def _screen_finds(self, screen: CaselessScreen, dialect: str, text: str, found: dict[str, bool]) -> bool:
        """Does the argument rules' `screen` (of `dialect`) find a fragment in `text`? Kept in `found` for
        the command's other words, and a long text through the line's `CleanTexts`: a nested command
        (`nix develop --command bash -c "…"`, then the script's own words) hands the same words on, and a
        100 kB word costs milliseconds a search."""
        hit = found.get(text)
        if hit is None:
            if len(text) >= _LONG_TEXT:
                kept = self.clean_long_texts  # type: ignore[attr-defined]
                clean = kept.get(dialect)
                if clean is None:
                    clean = kept[dialect] = CleanTexts(screen)
                hit = clean.finds(text)
            else:
                hit = screen.search(text) is not None
            found[text] = hit
        return hit

    def _argument_rules(
        self,
        args: list[Arg],
        argv: list[Arg],
        names: tuple[str, ...],
        frame: Frame,
        texts: str,
        code: frozenset[str] = frozenset(),
    ) -> None:
        """Argument-wide rules (`/dev/tcp/*`, credential files) on every word of a command.

        One search for the rules' literal fragments in all the words together rules out nearly every
        command; the raw spelling counts too: `$HOME/.aws/credentials` keeps the path its text loses to DYN.
        """
        named = args
        if names[-1] == "join-path" and maybe_environ(texts):
            # `Join-Path $PSScriptRoot '..'` prints one path, its pieces joined: that path is what a caller
            # may read (`Get-Content (Join-Path /proc/1 environ)`), not each piece on its own.
            named = _joined_path(args)
        screened = (
            [_ps_spelled(a, frame.dialect) for a in named if maybe_environ(a.text)]
            if maybe_environ(texts) and names[-1] not in _NAMES_ONLY
            else None
        )
        if screened:
            scope = self.scope(frame)
            hit = next((a for a in screened if scope.reads_process_environment(a)), None)
            posix = frame.dialect == "posix"
            if hit is not None or (len(named) > 1 and scope.mentions_proc_and_environ(named, posix)):
                shown = hit.raw if hit is not None else " ".join(a.raw for a in args)
                self.event(
                    "proc-environ",
                    frame,
                    f"`{shown}` may name a process environment under /proc",
                    self._argv(argv, names),
                )
        entries, screen = self.p.argument_rules[frame.dialect]
        if not entries:
            return
        if maybe_glob(texts):
            globbed = [a for a in args if a.text not in code] if code else args
            self._glob_words(globbed, argv, names, frame, entries)
        if ".." in texts:
            self._derived_paths(args, argv, names, frame, entries, screen, _climbed_path)
        if frame.dialect == "posix" and DYN in texts:
            self._derived_paths(args, argv, names, frame, entries, screen, _rooted_path)
        found: dict[str, bool] = {}  # (a lone word is the words joined: searched once)
        if screen is not None:
            # The fast path may have searched these very texts already.
            clean = self.clean_words
            searched = clean[1:] if clean and clean[0] == frame.dialect else ()
            dialect = frame.dialect
            found[texts] = texts not in searched and self._screen_finds(screen, dialect, texts, found)
            if not found[texts]:
                raws = "\n".join([a.raw for a in args])
                if raws == texts or raws in searched or not self._screen_finds(screen, dialect, raws, found):
                    return
        judged: set[tuple[str, str]] = set()
        probe = names[-1] in _EXISTENCE_PROBES
        printer = names[-1] in _PRINTERS
        left_out = negated_globs(args) if names[-1] == "rg" and "!" in texts else ()
        for a in args:
            if id(a) in left_out:
                continue  # `rg -g '!.env' KEY`: what the search leaves out is not read
            if (
                screen is not None
                and not self._screen_finds(screen, frame.dialect, a.text, found)
                and (a.raw is a.text or not self._screen_finds(screen, frame.dialect, a.raw, found))
            ):
                continue  # no fragment any of the rules needs: no rule can match this word
            self._spend_matching(a.text, a.raw)
            if (a.text, a.raw) in judged:
                continue  # the same word again: the same findings (its size still counts)
            judged.add((a.text, a.raw))
            text, raw = a.text, a.raw
            spelled = raw != text
            lowered = text.lower() if text.isascii() else None
            raw_lowered = raw.lower() if spelled and raw.isascii() else None
            name_only = printer and _bare_name(text)
            for rule, pattern, own in entries:
                if (probe or name_only) and rule.category == "env":
                    continue  # `test -f ~/.netrc`: whether it is there, not what it holds; `echo .env`
                if (
                    own is not None
                    and not own.found(text, lowered)
                    and not (spelled and own.found(raw, raw_lowered))
                ):
                    continue  # none of this rule's fragments: its pattern cannot match
                if (pattern.match(text) or (spelled and pattern.match(raw))) and not (
                    getattr(pattern, "outside_project", False) and self.scope(frame).holds(text)
                ):
                    self._rule_finding(rule, argv, names, frame, text if DYN not in text else raw)
        scope = self._scope
        if scope is not None and scope.cwd is not scope.root:
            for a in args:
                seen = scope.beyond_project(a.text)
                if seen is None or (
                    screen is not None and not self._screen_finds(screen, frame.dialect, seen, found)
                ):
                    continue  # (screened and counted as the words are: each rule reads the whole path)
                self._spend_matched(_match_cost(seen))
                self._rules_on_path(seen, a.text, argv, names, frame, entries)

    def _derived_paths(
        self,
        args: list[Arg],
        argv: list[Arg],
        names: tuple[str, ...],
        frame: Frame,
        entries: list[tuple[Rule, re.Pattern[str], CaselessScreen | None]],
        screen: CaselessScreen | None,
        derive: Callable[[Arg], tuple[str, str] | None],
    ) -> None:
        """Argument-wide rules on the paths words lead to once read another way: `derive` gives a word's path
        and how to show the word, or None. `screen`: the rules' literal fragments, as for the words."""
        judged: set[str] = set()
        for a in args:
            derived = derive(a)
            if derived is None:
                continue
            seen, shown = derived
            if seen in judged or (screen is not None and screen.search(seen) is None):
                continue
            judged.add(seen)
            self._spend_matched(len(seen))
            self._rules_on_path(seen, shown, argv, names, frame, entries)

    def _rules_on_path(
        self,
        seen: str,
        shown: str,
        argv: list[Arg],
        names: tuple[str, ...],
        frame: Frame,
        entries: list[tuple[Rule, re.Pattern[str], CaselessScreen | None]],
    ) -> None:
        """Argument-wide rules on `seen`, the path a word (`shown`) leads to: its `..` steps taken, or read
        from the project after a `cd`. Each rule whose fragments it holds is matched; a match is a finding."""
        for rule, pattern, own in entries:
            if (own is None or own.search(seen) is not None) and pattern.match(seen):
                self._rule_finding(rule, argv, names, frame, f"{shown}, that is {seen}")

    def _glob_words(
        self,
        args: list[Arg],
        argv: list[Arg],
        names: tuple[str, ...],
        frame: Frame,
        entries: list[tuple[Rule, re.Pattern[str], CaselessScreen | None]],
    ) -> None:
        """Argument-wide rules on the credential files a glob word may expand to (`/home/*/.*hist*`, and an
        unquoted `.env*`)."""
        globs = self.p.glob_paths.get(frame.dialect)
        if globs is None:
            return
        posix = frame.dialect == "posix"
        probe = names[-1] in _EXISTENCE_PROBES
        printer = names[-1] in _PRINTERS
        for i, a in enumerate(args):
            if not is_glob_path(a.text, posix) and not (
                # (quoted or escaped, it reaches the program as a pattern: `grep -o 'x.*'`, `zip -x .git\\*`)
                is_named_glob(a.text) and "'" not in a.raw and '"' not in a.raw and "\\" not in a.raw
            ):
                continue
            if i and _EXCLUDING.fullmatch(args[i - 1].text) and (not posix or quoted_whole(a)):
                # A pattern to leave out (`--ignore "/*/.cargo/*"`, `--exclude '/home/*/.ssh/*'`) keeps files
                # from being read; quoted, the shell hands it over as it is instead of expanding it.
                continue
            self.glob_words += 1
            if self.glob_words > MAX_GLOB_WORDS:
                raise TooLarge(f"more than {MAX_GLOB_WORDS} words are globs from the root or a home folder")
            paths = globs.instances(a.text, hides_dots=frame.dialect == "posix")
            if paths is None:
                raise TooLarge(f"`{a.text[:40]}…` is a glob too long or deep to compare with paths")
            found: set[str] = set()  # one finding a rule per word, naming the first path it reaches
            name_only = printer and _bare_name(a.text)
            for path in paths:
                for rule, pattern, _ in entries:
                    if (probe or name_only) and rule.category == "env":
                        continue  # `test -f .env*`: whether one is there
                    if rule.id not in found and pattern.match(path):
                        found.add(rule.id)
                        self._rule_finding(rule, argv, names, frame, f"{a.text}, which may expand to {path}")
                        break

    def _spend_matching(self, text: str, raw: str) -> None:
        """Count a word's text and, when it differs, its raw spelling towards `MAX_MATCHED`, before the
        argument-wide rules are matched against them."""
        self._spend_matched(_match_cost(text) + (_match_cost(raw) if raw != text else 0))

    def _spend_matched(self, characters: int) -> None:
        """Count the characters of words the argument-wide rules are matched against (their path expressions
        cost time in proportion); past `MAX_MATCHED` the line is too large to check."""
        self.matched += characters
        if self.matched > MAX_MATCHED:
            raise TooLarge(
                f"the words that may name credential files or devices hold more than {MAX_MATCHED:,} "
                "characters"
            )

    def changed_directory(self) -> bool:
        """Has the line left its working directory so far (a `cd`, to anywhere or to a place only known at
        run time)? Relative paths then may lie outside the project."""
        scope = self._scope
        return scope is not None and scope.cwd is not scope.root

    def scope(self, frame: Frame) -> PathScope:
        """The working directory of this command line, followed through its `cd`s (made on first use)."""
        if self._scope is None:
            self._scope = PathScope(self.root, frame.dialect)
        return self._scope

    def _paths(self, info: NameInfo, argv: list[Arg], frame: Frame) -> None:
        """Follow a `cd`, or judge the files a writing command names against the working directory."""
        scope = self.scope(frame)
        args = argv[1:]
        if info.paths == "cd":
            operands = [a for a in args if not a.text.startswith("-") or a.text == "-"]
            scope.change_directory(operands[0] if operands else None)
            return
        dialect = frame.dialect
        if dialect == "powershell" and cmd_delete_words(info.names, args, dialect) is not None:
            dialect = "cmd"  # `del /q build\*.obj` in a PowerShell line: cmd's switches, so cmd's command
        # `del`, `erase`, `rd` are cmd's own in cmd, Remove-Item in PowerShell
        skip = CMD_DELETERS if dialect == "powershell" else ()
        name = next((n for n in info.names if n in WRITERS and n not in skip), info.names[0])
        # A target of a delete, an archive or mktemp named at run time is judged by its folder when that is
        # literal (`tar czf ../app-$V.tgz .` writes beside the project); otherwise deletes are left to the
        # destructive rules, and archives, whose names carry versions (`tar czf "dist/app-$(git
        # describe).tgz"`), mktemp, which only ever makes a new file, and formatters, which keep what a file
        # holds in another form (`dos2unix "$f"`), to nothing. One in the home by its
        # variable is judged as such (`rm $HOME/notes.txt`, `Remove-Item $home\x.lnk`).
        # So is a new environment's folder (`python -m venv "$VENV"`), unless `--clear` empties it first, and
        # where a build puts its output (`mdbook build -d "$dest"`).
        lenient = name in _NAMED_BY_FOLDER or (name in MAKERS and not any(a.text == "--clear" for a in args))
        # So is a folder made by `mkdir` or `New-Item -ItemType Directory` (`mkdir -p "$OUT_DIR"`): it is
        # new and empty, and nothing that exists changes; a mode given with it is judged as it stands.
        folder_only = not lenient and _makes_folder(name, args)
        lenient = lenient or folder_only
        named_later = lenient and name not in DELETERS and dialect != "posix"  # cmd's `%zip%` too
        creates = name not in DELETERS and name not in _MODE_CHANGERS
        words = None  # made once, not once per target: `rm` with thousands of files stays linear
        judged: set[tuple[str, str]] = set()
        targets = write_targets(name, args, dialect)
        if not self.staged and installs_configured(name, args):
            targets = [*targets, *configured_prefixes(self.seen)]
        if frame.feeds:
            targets = self._listed_below(targets, frame.feeds)
        for target in targets:
            if (
                lenient
                and (
                    (DYN in target.text and not folder_only)
                    or "$" in target.raw
                    or (named_later and names_cmd_variable(target.raw))
                    or (
                        name in DELETERS
                        and dialect != "posix"
                        and _CMD_NAMED_FILE.search(target.raw)
                        and names_cmd_variable(target.raw)
                    )
                )
                and not in_home(target.raw)
            ):
                folder = literal_folder(target)
                if folder is None:
                    continue
                target = folder  # `tar czf ../app-$V.tgz .`: the name is unknown, the folder is not
            if target.raw[:2] == ">(":
                continue  # `tee >(cat 1>&2)`: a pipe to commands checked on their own, not a file
            spelled = (target.text, target.raw)
            if spelled in judged:
                continue  # `rm f.o f.o`: the same place, judged already
            judged.add(spelled)
            if words is None:
                words = self._argv(argv, info.names)
            self._judge_write(scope, target, frame, words, creates)

    def _listed_below(self, targets: Iterable[Arg], feeds: tuple[Feed, ...]) -> Iterator[Arg]:
        """`targets`, with a word made by a listing's substitution (`sed -i … $(grep -rl old src)`) standing
        for a path below each of the listing's starts (`src/{}`), and for one in `.git` or `.hazina` where
        the listing reaches them (see `_listed` and `_find_reach`)."""
        by_source: dict[str, Feed] | None = None
        for target in targets:
            raw = target.raw
            if DYN in target.text and (raw[-1:] in (")", "`", '"') or raw[:1] == "$"):
                if by_source is None:  # (once: a line of thousands of substitutions stays linear)
                    by_source = {f.source: f for f in feeds if f.source is not None}
                key = raw[1:-1] if raw[:1] == '"' == raw[-1:] and len(raw) > 1 else raw
                if key[:2] == "${" and key[-1:] == "}":
                    key = "$" + key[2:-1]  # `"${f}"`: a loop's variable over a listing (`_unrolled_loop`)
                feed = by_source.get(key)
                suffix = ""
                if feed is None and key[:1] == "$":
                    named = _NAMED_WITH_SUFFIX.fullmatch(key)  # `"$f.orig"`: beside the listed path
                    if named is not None:
                        name, suffix = named.groups()
                        feed = by_source.get("$" + name[2:-1] if name[:2] == "${" else name)
                listed = listing(feed) if feed is not None else None
                if listed is not None:
                    if suffix:
                        for start in map(under, listed.starts):
                            yield Arg(start.text + suffix, start.raw + suffix)
                    else:
                        yield from map(under, listed.starts)
                    for place in listed.reaches_protected(self.root):
                        yield Arg(f"{place}/{{}}", f"{place}/{{}}")
                    continue
            yield target

    def _judge_program(self, program: Arg, frame: Frame, argv: list[Arg], script: bool = False) -> None:
        """A program or script named by a path: fine in the project or where programs are installed; one on
        another machine (`\\\\host\\share\\x.bat`, also as a POSIX shell spells it) is network. A `script`
        an interpreter opens is judged as a file even when named bare (see `judge_program`)."""
        if frame.dialect == "posix" and program.text[:1] == "\\":
            names = (command_key(program.text),)
            for word in (program, *_locators.bash_unc([program])):
                for rule, pattern, _ in self.p.locators["posix"]:
                    if pattern.match(word.text):
                        self._rule_finding(rule, argv, names, frame, word.text)
        program = self._below_variable_folder(program, frame) or program
        verdict = self.scope(frame).judge_program(program, script)
        if verdict is not None:
            self.event(verdict.event, frame, verdict.detail, self._argv(argv))  # type: ignore[arg-type]

    def _below_variable_folder(self, word: Arg, frame: Frame) -> Arg | None:
        """A PowerShell script or module by its path below a folder one variable names, which the line gives
        no value (`Import-Module "$PSScriptRoot\\x.psd1"`, `-File $PSScriptRoot\\x.build.ps1`): the path below
        it, judged by its name as `"$ROOT"/hack/verify.sh` is; None for any other word, or a folder every
        project lies outside of (`$env:TEMP\\x.ps1`, whose reading with the variable empty stands)."""
        if frame.dialect != "powershell" or frame.depth:
            return None
        below = below_powershell_variable_folder(word, self.line)  # type: ignore[attr-defined]
        return None if below is None or below[1] else below[0]

    def git_elsewhere(self, argv: list[Arg], frame: Frame) -> None:
        """`cd /usr/local && git stash -u`, `git -C ~/dotfiles commit -am x`: a git command that changes a
        repository writes that repository's files, so one outside the working directory writes there. A
        repository only known at run time (`cd "$REPO" && git add .`) is left to the sandbox."""
        folder, at = _git_repository(argv)
        if folder is None:
            return
        made = git_made_folders(argv, at) + git_written_files(argv, at)
        if made:
            self._judge_git_folders(made, folder, argv, frame)
        removed = git_removed_folders(argv, at)
        if removed:
            self._judge_git_folders(removed, folder, argv, frame, new=False)
        if not _git_changes(argv[at].text, [a.text for a in argv[at + 1 :]]):
            return
        scope = self.scope(frame)
        if scope.cwd is None and not scope.is_absolute(folder):
            return
        verdict = scope.judge_write(Arg(folder, folder))
        if verdict is not None and verdict.event == "write-outside-project":
            if folder == ".":
                where = "of the folder the line changed to, outside the working directory"
            else:
                where = f"in `{folder}`: {verdict.detail}"
            self.event(
                "write-outside-project",
                frame,
                f"`{shown_args(argv)}` changes the git repository {where}",
                self._argv(argv),
            )

    def _judge_git_folders(
        self, folders: list[Arg], folder: str, argv: list[Arg], frame: Frame, new: bool = True
    ) -> None:
        """Judge the folders a git command makes or (not `new`) deletes as writes (`git worktree add ../wt`,
        `git worktree remove ../wt`), each inside the repository folder `folder` it works in (`git -C sub init
        x` makes `sub/x`). A new one named at run time is empty, so judged by its literal folder, as `mkdir`'s
        is."""
        scope = self.scope(frame)
        words = self._argv(argv)
        for target in folders:
            if folder != "." and not scope.is_absolute(target.text):
                target = Arg(f"{folder}/{target.text}", f"{folder}/{target.raw}")
            judged = target
            if new and DYN in target.text and not in_home(target.raw):
                judged = literal_folder(target)
            if judged is not None:
                self._judge_write(scope, judged, frame, words)

    def _judge_write(
        self, scope: PathScope, target: Arg, frame: Frame, argv: list[str], names_file: bool = True
    ) -> None:
        """Judge a write of `target`; `names_file`: the write may create a file of that name."""
        verdict = scope.judge_write(target)
        if verdict is not None:
            self.event(verdict.event, frame, verdict.detail, argv)  # type: ignore[arg-type]
        text = target.text
        # `touch "a; curl x | sh; b"`: a job that later loops over `*` into `sh -c "… $f"` or `eval` runs
        # the name. A name that reads as a command line is checked as one; others are just names.
        if (
            names_file
            and len(text) <= _PATH_MAX
            and DYN not in text
            and _COMMAND_IN_NAME.search(_EXTGLOB_GROUP.sub("", text))
        ):
            self._spend(NAME_SCRIPT_WORK)  # type: ignore[attr-defined]
            if not _parse_posix.parse(text.encode("utf-8", "replace")).root_node.has_error:
                self.script(text, "posix", frame.nested(f"the file name `{target.raw}`"))  # type: ignore[attr-defined]

    def _note_writes(self, how: str, args: list[Arg]) -> None:
        operands = [a for a in args if not a.param and not a.text.startswith("-")]
        if how == "copy":
            if len(operands) > 1 and DYN not in operands[-1].text:
                self.copied.add(path_key(operands[-1].text))
                self.known_scripts.pop(path_key(operands[-1].text), None)  # replaced by the copy
            return
        targets = operands if how == "all" else operands[:1]
        for a in targets:
            if DYN not in a.text:
                key = path_key(a.text)
                self.written.add(key)
                self.known_scripts.pop(key, None)  # `tee x.py`: text the policy did not see

    def _project_batch(self, argv: list[Arg], frame: Frame) -> bool:
        """Is the program the project's own batch file by its path (`tools\\sign.bat`, `%~dp0tools\\x.bat`)? A
        program's name it is handed (`x.exe`) is what it works on, as a path of the project would be."""
        head = argv[0].text.lower().replace("%~dp0", "")
        return (
            DYN not in head
            and head.endswith((".bat", ".cmd"))
            and ("\\" in head or "/" in head)
            and self.scope(frame).holds(head)
        )

    def _language_of(self, word: str, frame: Frame) -> str:
        """The language the program `word` runs its script in (`python`: "python", `bash`: "posix"); "" for
        a program that is no interpreter."""
        info = self.p.word_info(word, frame.dialect, frame.aliases)
        if info.executor is not None:
            return info.executor.language
        return info.shell.dialect if info.shell is not None else ""

    def _check_runs_written(self, argv: list[Arg], frame: Frame) -> None:
        if self.copied and DYN not in argv[0].text and path_key(argv[0].text) in self.copied:
            self.event(
                "dynamic-command",
                frame,
                f"`{shown_args(argv)}` runs `{argv[0].raw}`, a copy of a file made in this command line",
                self._argv(argv),
            )
            return
        runs_as: str | None = None
        for i, a in enumerate(argv):
            if DYN not in a.text and (key := path_key(a.text)) in self.written:
                known = self.known_scripts.get(key) if i else None
                if known is not None:
                    if runs_as is None:
                        runs_as = self._language_of(argv[0].text, frame)
                    if runs_as == known[0]:
                        # `python x.py` after `cat > x.py <<'EOF'`: it runs that text, judged here once
                        if known[1] is not None:
                            self.known_scripts[key] = (known[0], None)
                            inner = frame.nested(f"the script `{a.raw}` this line writes")
                            self._judge_script(known[1], known[0], inner, argv)  # type: ignore[attr-defined]
                        continue
                self.event(
                    "dynamic-script",
                    frame,
                    f"`{shown_args(argv)}` runs `{a.raw}`, which this same command line writes",
                    self._argv(argv),
                )
                return


def _climbed_path(a: Arg) -> tuple[str, str] | None:
    """The path a word names once its `..` steps are taken (`/tmp/../etc/passwd`, `~/../../etc/passwd`; see
    `climbed`)."""
    seen = climbed(a.text)
    if seen is None:
        return None
    return seen, a.text if DYN not in a.text else a.raw


def _rooted_path(a: Arg) -> tuple[str, str] | None:
    """The path from the root a word may name whose run-time start is glued to a folder's name
    (`${X}etc/shadow`, `$(pwd | cut -c1)etc/shadow`): that start may be `/` or end in one."""
    text = a.text
    if len(text) < 3 or text[0] != DYN or text[1] in "/\\" or DYN in text[1:] or "/" not in text:
        return None
    return "/" + text[1:], a.raw
