"""Where a command line writes, and whether it reads a process environment: paths the policy can see.

The engine reports every write target it can read — redirections, `tee`, `sed -i`, `cp`/`mv`/`ln`/`install`/
`touch`/`chmod`/`truncate`/`dd of=`, PowerShell `Set-Content`/`Out-File`/`Copy-Item`/`New-Item`/… — and every
`cd` in the line to a `PathScope`, which judges each target against the working directory:

- inside any `.git/` or `.hazina/` (any depth, any case): git hooks and config run code later, and the audit
  trail must not be edited by the task it records;
- an SSH folder or key list, or an editor's or coding agent's own settings, hooks or tool servers
  (`.vscode/settings.json`, `.claude/hooks/`, `.mcp.json`; see `glmagent.agent_settings`): each grants
  access or runs code later, outside any sandbox;
- outside the working directory (absolute paths, `~`, `$HOME`, `..` escapes, after following `cd`): the
  user's shell start-up files, other projects;
- named only at run time (`> "$f"`, `cd $DIR && echo x > y`): fail closed.

`/dev/null`, the standard streams, the temp directory and PowerShell's `$null` stay allowed. Any argument that
could name `/proc/<process>/environ` (globs, doubled slashes, `.` and `..`, run-time pieces, `cd /proc`)
is reported too: a process environment holds the user's secrets.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

from ..agent_settings import OBEYED_FILES, TOOL_FOLDERS, WORKSPACE_SUFFIX, obeyed_setting
from ._globbed import glob_match, glob_units
from ._handed import last_part
from ._lazy import lazy_re
from ._project import distinct, real_path
from ._syntax import DYN, Arg, TooLarge, in_made_temp

PROTECTED = (".git", ".hazina")

_OUTSIDE_HOME = "/\x00home"
"""Stands for the home directory: never inside the project, never the temp directory."""
_VIRTUAL_ROOT = "/\x00project"
"""The working directory when the caller did not say which it is: relative paths stay inside it."""
_DRIVES = "/\x00drive/"
"""Where a Windows drive's paths are kept (`C:\\x` is `/\\x00drive/c/x`)."""
_ON_PROVIDER = "/\x00provider"
_SOME_WORKSPACE = "\x00workspace"
"""The folder below the project's root where a workspace selector runs its command (`pnpm --filter app`):
one of the project's, which one unknown."""
"""The working directory after `Set-Location HKLM:\\…`: relative names there are registry keys, certificates
or remoting settings, never project files."""

_SAFE_DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero"})
_WINDOWS_DEVICES = frozenset({"nul", "nul:", "con", "con:", "$null"})
_TEMP_VARIABLES = lazy_re(r"^\"?\$\{?(?:TMPDIR|TMP|TEMP)\}?\"?(?:[/\\]|$)")
"""The temp directory as a POSIX shell names it (names keep their case: `$tmp` is any variable)."""
_PS_TEMP_VARIABLES = lazy_re(r"^\"?\$env:(?:TEMP|TMP)\"?(?:[/\\]|$)", re.IGNORECASE)
"""The temp directory as PowerShell names it: only on the `env:` drive (`$temp` is any variable)."""
_STEP_FILES = lazy_re(
    r"[\"']?(?:\$\{?|\$env:|%)(?:GITHUB_OUTPUT|GITHUB_STEP_SUMMARY)(?:\}|%)?[\"']?",
    re.IGNORECASE,
)
"""The files a CI runner gives a step for its outputs and its summary (`echo "v=1" >> "$GITHUB_OUTPUT"`):
where the runner reads what the step hands on, written as its documentation says. `GITHUB_ENV` and
`GITHUB_PATH`, which change what every later step runs with (`BASH_ENV=…`), stay unknown places."""


def is_step_file(raw: str) -> bool:
    """Is a written word one of the files a CI runner gives a step for its outputs (`"$GITHUB_OUTPUT"`,
    `$env:GITHUB_STEP_SUMMARY`, cmd's `%GITHUB_OUTPUT%`)? Emptying it loses only what the step wrote there."""
    return _STEP_FILES.fullmatch(raw) is not None


_HOME_VARIABLES = lazy_re(
    r"^\"?(?:\$\{?HOME\}?|\$env:(?:USERPROFILE|HOME|APPDATA|LOCALAPPDATA)|\$HOME"
    r"|\$PROFILE(?:\.(?:CurrentUser|AllUsers)(?:Current|All)Hosts)?)\"?(?:[/\\]|\"?$)",
    re.IGNORECASE,
)
"""Variables holding the user's home or a file in it (PowerShell's `$PROFILE` is the profile script every
session runs, in the user's documents)."""
_RUN_TIME = lazy_re(r"[$`]|<\(|>\(")
_ONE_NAME = lazy_re(
    r"\$\(\s*(?:basename\s[^()`]*|uname(?:\s+-[smrnpio]+)+|date\s+(['\"]?)\+(?:%[^Dxc/\s]|[\w.:-])+\1"
    r"|git\s+rev-parse(?:\s+--short(?:=[0-9]+)?)?\s+HEAD)\s*\)"
)
"""A command substitution printing one name without a `/`: `$(basename "$f" .c)`, `$(uname -m)`, `$(date
+%Y%m%d)` (not `%D`, `%x` or `%c`, which may print one), `$(git rev-parse --short HEAD)`."""


def one_name_pattern(word: Arg) -> bool:
    """Is the run-time part of `word` only substitutions that print one name without a `/` (`_ONE_NAME`),
    after a literal start and with no `..`: `"build/$(basename "$f" .c).o"`, `dist/app-$(uname -m)`? It
    then names what the pattern with `*` there names, inside its literal folder."""
    text, raw = word.text, word.raw
    return (
        text[:1] != DYN
        and "$(" in raw
        and ".." not in raw
        and _ONE_NAME.search(raw) is not None
        and not _RUN_TIME.search(_ONE_NAME.sub("", raw))
    )


def _run_time(word: Arg) -> bool:
    """Is any of a word only known at run time (`"$tmp"`; `$Script:Out\\x`, read as empty by PowerShell)?"""
    return DYN in word.text or _RUN_TIME.search(word.raw) is not None


def _judged_output(word: Arg) -> bool:
    """Whether an output a program the policy knows only by its options or operands names (`-OutFile F`, `dot
    -o F`, `qpdf IN OUT`) is judged: a literal path, or one under a variable every project lies outside of
    (`$HOME/x`, `$env:USERPROFILE\\x`, `%APPDATA%\\x`); any other run-time one is the script's own."""
    if in_home(word.raw) or _CMD_KNOWN_FOLDER.match(word.raw) is not None:
        return True
    return not _run_time(word) and _PERCENT_NAME.search(word.raw) is None


_PLAIN_PART = lazy_re(r"[\w.~:-]*")


def literal_folder(target: Arg) -> Arg | None:
    """The folder a path only partly known at run time lies in, as far as it is written out (`../app-$V.tgz`
    is in `..`, `dist\\app-%VERSION%.zip` in `dist`, `../$NAME/data` in `..`); None when it starts with a
    run-time part, or is in the working directory."""
    text, raw = target.text.replace("\\", "/"), target.raw.replace("\\", "/")
    parts, raw_parts = text.split("/")[:-1], raw.split("/")[:-1]
    spelled = len(parts) != len(raw_parts)
    if spelled:
        # PowerShell reads `"..\$n\x"` as one run-time word: the parts before the variable, as written
        parts = [p.lstrip("\"'") if i == 0 else p for i, p in enumerate(raw_parts)]
    known = 0
    while known < len(parts) and not (
        DYN in parts[known] or _RUN_TIME.search(raw_parts[known]) or _PERCENT_NAME.search(raw_parts[known])
    ):
        known += 1
    if known == 0 or (spelled and not all(_PLAIN_PART.fullmatch(p) for p in parts[:known])):
        return None
    head, raw_head = "/".join(parts[:known]) or "/", "/".join(raw_parts[:known]).lstrip("\"'") or "/"
    return Arg(head, raw_head)


_QUOTED_VARIABLE_HEAD = lazy_re(r'"\$(?:[A-Za-z_]\w*|\{[A-Za-z_]\w*\})(?:"/|/)|\$\([A-Z][A-Z0-9_]*\)/')
"""A folder a quoted shell variable names, or make's variable in a recipe line (`$(GOBIN)/golangci-lint`),
which make puts there as text."""
_MAKE_HOME = lazy_re(r"\$\((?:HOME|TMPDIR|TMP|TEMP)\)/")


def below_run_time_folder(word: Arg) -> tuple[Arg, bool] | None:
    """A POSIX program path whose only run-time part is its first folder, a quoted variable or make's
    (`"$ROOT"/hack/verify.sh`, `"${GOPATH}/bin/controller-gen"`, `$(BIN)/buf`): the path below it, as written
    (`hack/verify.sh`), and whether the folder is one every project lies outside of (the home, the temp
    folder); None for any other word (a run-time name, `"$d/$tool"`; a run-time part further down)."""
    text, raw = word.text, word.raw
    if text[:2] == "./":
        text, raw = text[2:], raw[2:]
    head, _, tail = text.partition("/")
    tail = tail.lstrip("/")
    if head != DYN or not tail or DYN in tail or tail[-1:] == "/" or ".." in tail.split("/"):
        return None  # (`${prefix}./svc.sh`: a word glued to the path, `sudo ` as like as a folder)
    if _QUOTED_VARIABLE_HEAD.match(raw) is None:
        return None  # unquoted, `$X` may split into words, another program first; `$(cmd)` prints anything
    outside = in_home(raw) or _TEMP_VARIABLES.match(raw) is not None or _MAKE_HOME.match(raw) is not None
    return Arg(tail, raw), outside


def in_home(raw: str) -> bool:
    """Does a word start at the user's home by its variable (`$HOME/x`, `$env:USERPROFILE\\x`, `$home\\x`)?
    Only known at run time, but known to lie outside every project."""
    return _HOME_VARIABLES.match(raw) is not None


_PERCENT_NAME = lazy_re(r"%[^%\s]+%")


_CMD_KNOWN_FOLDER = lazy_re(
    r"^\"?%(?:USERPROFILE|APPDATA|LOCALAPPDATA|HOMEDRIVE|HOMEPATH|PUBLIC|ALLUSERSPROFILE|PROGRAMDATA"
    r"|(?:COMMON)?PROGRAMFILES(?:\(X86\))?|SYSTEMROOT|WINDIR|SYSTEMDRIVE|ONEDRIVE)%",
    re.IGNORECASE,
)


def in_cmd_variable_folder(raw: str) -> bool:
    """Does a word start in a folder cmd names by a variable when it runs the line (`%APPDATA%\\x\\config`,
    not `%SOLUTION%` or `app-%VERSION%.sln`)?"""
    return _PERCENT_FOLDER.match(raw) is not None


_PERCENT_FOLDER = lazy_re(r"[\"']?%[^%\s]+%[/\\]")


def names_cmd_variable(raw: str) -> bool:
    """Is a word a name only known when cmd runs the line (`%zip%`, `dist\\app-%VERSION%.zip`), in no folder
    Windows names by a variable (`%APPDATA%\\x.zip` lies outside every project)?"""
    return _PERCENT_NAME.search(raw) is not None and _CMD_KNOWN_FOLDER.match(raw) is None


_PERCENT_TEMP = lazy_re(r"^\"?%(?:TEMP|TMP)%(?:[/\\]|\"?$)", re.IGNORECASE)
_DRIVE = lazy_re(r"^([A-Za-z]):[/\\]?")
_PROVIDER_DRIVE = lazy_re(
    r"^(?:microsoft\.powershell\.\w+\\)?(cert|hklm|hkcu|hkcr|hku|hkcc|wsman):"
    r"|^registry::",
    re.IGNORECASE,
)
"""A PowerShell drive of another provider than the file system that outlives the session: certificate stores,
registry hives, remoting settings. (`Env:`, `Function:`, `Alias:` and `Variable:` are the session's own.)"""
_GLOB = lazy_re(r"[*?\[]")

#: Sample process directories a glob under /proc is tried against.
_PROC_SAMPLES = tuple(
    f"/proc/{pid}/{tail}"
    for pid in ("1", "42", "12345", "self", "thread-self", "curproc")
    for tail in ("environ", "task/1/environ", "task/12345/environ")
)


_PROC_SAMPLE_PARTS = tuple(sample.split("/") for sample in _PROC_SAMPLES)
_PROC_SAMPLE_LENGTHS = frozenset(len(parts) for parts in _PROC_SAMPLE_PARTS)


def _may_expand_to_proc_sample(glob: str) -> bool:
    """Could the path glob `glob` expand to one of `_PROC_SAMPLES`? A `*` stays inside one path component,
    as in the shell and in glob libraries; a `**` component may span several, so such a glob is compared
    whole. The glob is split once, and one of another depth is no sample's."""
    parts = glob.split("/")
    if "**" in parts:
        return any(glob_match(sample, glob) for sample in _PROC_SAMPLES)
    if len(parts) not in _PROC_SAMPLE_LENGTHS:
        return False
    return any(
        len(names) == len(parts) and all(glob_match(n, p) for n, p in zip(names, parts, strict=True))
        for names in _PROC_SAMPLE_PARTS
    )


PATH_PARTS_MAX = 2048
"""Folders a written path may go down inside the project, each compared with the folders a write must not
reach (`.git`, `.hazina`): Linux opens paths of up to 4,096 bytes, so no deeper one names a file; thousands
of glob folders (`bin/*.n/*.n/…`) took 120 ms to compare."""


_INNER_BRACES = lazy_re(r"\{([^{}]*,[^{}]*)\}")
"""A brace list holding no other one (`{.git,src}`); `{x}` without a comma is no list."""
_BRACE_WORDS = 64
"""Words a component's brace lists may make before it counts as possibly naming anything."""


def _may_name(names: frozenset[str] | tuple[str, ...], part: str) -> bool:
    """Can the path component `part` (a literal or a glob) name one of `names` (`.git`, `settings.json`)? A
    glob starting with a wildcard does not match a leading dot, in the shell (without `dotglob`) nor in the
    glob libraries tools use (`prettier --write "**/*.js"`); one that spells the dot or a bracket may. A brace
    list is read as each word it makes (`{.git,src}` may, `*{.ts,.js}` may not); lists that make more than
    `_BRACE_WORDS` words may. (A glob is measured once for all the names: a line may write thousands.)"""
    if part in names:
        return True
    if "{" in part:
        words = _brace_words(part)
        return words is None or any(_may_name_word(names, w) for w in words)
    return _may_name_word(names, part)


def _may_name_word(names: frozenset[str] | tuple[str, ...], word: str) -> bool:
    if not _GLOB.search(word):
        return word in names
    units = glob_units(word)  # (a glob needing more characters than a name has is not compiled to find out)
    spells_dot = word[:1] in ".["
    return any(len(n) >= units and (spells_dot or n[:1] != ".") and glob_match(n, word) for n in names)


_SSH = (".ssh",)
_LOGIN_KEYS = ("authorized_keys", "authorized_keys2")
"""The files that list the keys let into an account without a password (OpenSSH's, and its older name)."""


def _names_login_keys(parts: list[str]) -> bool:
    """Do a path's components (lower case) name a `.ssh` folder or an `authorized_keys` file?"""
    last = parts[-1]
    if last in _LOGIN_KEYS or _may_be_login_keys(last):
        return True
    return any(_may_name(_SSH, p) for p in parts)


def _may_be_login_keys(glob: str) -> bool:
    """Can a glob that spells some of the name (`authorized_k*`, `*_keys`, not a folder's `*`) name one of
    `_LOGIN_KEYS`? One needing more characters than the longer name holds is not matched to find out."""
    return (
        _GLOB.search(glob) is not None
        and glob_units(glob) <= len(_LOGIN_KEYS[1])  # (first: a long word is ruled out in one pass)
        and sum(c.isalnum() or c == "_" for c in glob) >= 3
        and any(glob_match(k, glob) for k in _LOGIN_KEYS)
    )


_TOOL_NAME_MAX = max(map(len, (*TOOL_FOLDERS, *OBEYED_FILES)))


def _may_be_tool_dotname(part: str) -> bool:
    """Could a path component be a tool folder or `.mcp.json` at all (all start with a dot and are short)?
    The cheap test before `obeyed_setting`: most written names are ruled out at once."""
    if "{" in part:
        return True
    return part[:1] in ".[" and glob_units(part) <= _TOOL_NAME_MAX


def _brace_words(part: str) -> list[str] | None:
    """The words a component's brace lists make (`a{b,c}d{e,f}`: four), innermost lists first; braces that
    make no list (`{x}`, a lone `{`) are text, as the shell reads them. None past `_BRACE_WORDS` words."""
    words, done = [part], []
    while words:
        out: list[str] = []
        for w in words:
            m = _INNER_BRACES.search(w)
            if m is None:
                done.append(w)
                continue
            head, tail = w[: m.start()], w[m.end() :]
            out.extend(head + choice + tail for choice in m.group(1).split(","))
        if len(out) + len(done) > _BRACE_WORDS:
            return None
        words = out
    return done


class Judgement(NamedTuple):
    """Why a path is refused: the engine event and a sentence for the planner."""

    event: str
    detail: str


@cache
def _temp_dirs() -> tuple[str, ...]:
    import tempfile  # here, not at import: it costs a check that writes nothing as much as the check

    dirs = {"/tmp", "/var/tmp", "/dev/shm", posixpath.normpath(tempfile.gettempdir().replace("\\", "/"))}
    return tuple(sorted(dirs))


TEMP_LOOKUPS = 32
"""Writes into the temp folder one line may make whose links are looked up; later ones are unknown."""


def _linked(path: str, folder: str) -> str | None:
    """Where `path` (absolute, in `folder`) really lies when it is a link, or lies under one, that leads
    elsewhere than `folder`'s own files; None otherwise."""
    real = real_path(path)
    if real == path or real == os.path.join(os.path.realpath(folder), os.path.relpath(path, folder)):
        return None  # no link on the way (`/tmp` itself may be one: macOS's `/private/tmp`)
    return real


def _normal(path: str) -> str:
    """Collapse `//`, `/./` and `..` of an absolute POSIX path (`//proc` is `/proc` on Linux)."""
    return "/" + posixpath.normpath(path).lstrip("/") if path.startswith("/") else posixpath.normpath(path)


_CLIMB = lazy_re(r"(?:^|[/\\])\.\.(?:[/\\]|$)")
_NOT_ONE_PATH = lazy_re(r"(?![/~.\\\x00$%]|[A-Za-z]:).*\s", re.DOTALL)
"""Words with blanks that do not start like a path: text (`'cat ../x'` quoted as a message), not one path."""
_UNKNOWN_FOLDER = lazy_re(r"~[^/]*|\x00[^/]*|%\w+%")
"""A first path component naming a folder of unknown depth: `~`, `~user`, a variable (`$HOME`, `%TEMP%`)."""


def climbed(text: str) -> str | None:
    """The path a word with `..` steps names once they are taken: `/tmp/../etc/passwd` is `/etc/passwd`,
    `~/x/../.ssh/id_rsa` is `~/.ssh/id_rsa`. A path that climbs above where it starts (`~/../../etc/shadow`,
    `../../../etc/passwd`: from a folder of unknown depth) may reach the root, so what it names below is
    named as from there. None when the word takes no `..` step, taking them changes nothing, or they only
    climb (`..`, `~/../..`: which folder that is depends on the depth)."""
    if ".." not in text or _CLIMB.search(text) is None or _NOT_ONE_PATH.match(text):
        return None
    path = text.replace("\\", "/")
    if path.startswith("/"):
        found = _normal(path)
    else:
        head, _, rest = path.partition("/")
        anchor = head if _UNKNOWN_FOLDER.fullmatch(head) else ""
        found = posixpath.normpath(rest if anchor else path)
        if found == ".." or found.startswith("../"):
            parts = found.split("/")
            up = next((i for i, part in enumerate(parts) if part != ".."), len(parts))
            if up == len(parts):
                return None  # a folder above (`..`, `~/../..`): which one depends on the depth
            found = "/" + "/".join(parts[up:])  # above its start: as far up as the root
        elif anchor:
            found = anchor if found == "." else f"{anchor}/{found}"
    return found if found != path else None


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


_HOME_PREFIX = r"(?:/\x00home|/home/[^/]+|/users/[^/]+|/root|/var/root|/\x00drive/[a-z]/users/[^/]+)"
_PROGRAM_FOLDERS = lazy_re(
    r"(?:/usr|/bin|/sbin|/lib|/lib64|/libexec|/etc|/nix|/snap|/run/current-system|/applications|/system"
    r"|/library|/opt/(?:homebrew|local|hostedtoolcache|conda|miniconda3|anaconda3|rh|ros|python[^/]*|pypy[^/]*)"
    r"|/mingw32|/mingw64|/ucrt64|/clang64|/clangarm64"
    # (a Windows drive also as WSL names it, `/mnt/c/…`; Git Bash's `/c/Program Files/…`)
    r"|/[a-z]/program files(?: \(x86\))?"
    r"|(?:/\x00drive|/mnt)/[a-z]/(?:windows(?!/(?:temp|tasks|tracing|debug|system32/tasks)(?:/|$))"
    r"|program files|program files \(x86\)|programdata/chocolatey|hostedtoolcache|tools|msys64|msys32"
    r"|cygwin|cygwin64|strawberry|mingw|mingw32|mingw64|ruby\d[\w.-]*|python\d[\w.-]*|go)"
    rf"|{_HOME_PREFIX}/(?:\.local/bin|\.cargo|go/bin|\.dotnet|\.npm-global|\.nvm|\.pyenv|\.rbenv"
    r"|\.volta|\.bun/bin|\.deno/bin|\.rustup|\.sdkman|\.jenv|\.poetry/bin|\.conda|miniconda3|anaconda3"
    r"|bin|\.local/share/pnpm|\.yarn/bin|appdata/local/programs|appdata/roaming/npm|scoop/shims"
    r"|appdata/local/microsoft/windowsapps|\.ghcup/bin|\.cabal/bin|\.nimble/bin|\.pub-cache/bin|\.opam/[^/]+/bin"
    r"|\.roswell/bin|\.juliaup/bin|\.mix/escripts|\.elan/bin|\.zvm/bin"
    # (the embedded toolchains' managers: PlatformIO, ESP-IDF's installer, the Arduino CLI)
    r"|\.platformio/(?:penv|packages)|\.espressif/(?:tools|python_env)|\.arduino15/packages))(?:/|$)"
)
"""Folders the system and the usual tool managers (Homebrew, rustup, nvm, pyenv, Scoop, ghcup, opam, `dart pub
global activate`, Roswell, juliaup, PlatformIO…) install programs in: running one of their programs is running
an installed tool, like running it by name."""


_WINDOWS_INDIRECT = lazy_re(
    r"(?P<variable>%[^%\s]+%)|(?P<drive>[A-Za-z]:(?![/\\]|$))|(?P<uri>(?!https?:)[A-Za-z][A-Za-z0-9+.-]+:)"
)
"""A Windows program named where the policy cannot see: under a folder an environment variable names
(`%PROGRAMFILES%\\x\\x.exe`: any folder at all, as the variable is set), relative to the current folder of
another drive (`C:Program Files\\x.exe`), or by a URI Windows resolves to an application
(`shell:AppsFolder\\…!App`, `ms-settings:`)."""
_CMD_VARIABLE_FOLDER = lazy_re(r"%([A-Za-z_][\w()]*)%[\\/][^%]*")
"""A program below a folder a cmd variable names (`%ROOT%\\Build\\pack.bat`)."""
_WHO_AND_WHERE = lazy_re(
    r"(?i)PATH|PSMODULEPATH|USER\w*|HOME\w*|(?:LOCAL)?APPDATA|TEMP|TMP|TMPDIR|PUBLIC|PROGRAM[\w()]*"
    r"|ALLUSERSPROFILE|SYSTEMROOT|WINDIR|SYSTEMDRIVE|COMMONPROGRAM[\w()]*|DRIVERDATA|ONEDRIVE\w*|COMSPEC|CD|COMPUTERNAME"
    r"|LOGONSERVER|CLIENTNAME|SESSIONNAME|HOSTNAME"
)
"""The folders (and names) Windows keeps who and where the user is under: the home, temp, program and system
folders, as the cmd variable clause of `env.powershell-environment` lists them."""


_INSTALL_FOLDER = lazy_re(
    r"(?i)(?:env:)?(?:(?:COMMON)?PROGRAMFILES(?:\(X86\))?|(?:COMMON)?PROGRAMW6432|SYSTEMROOT|WINDIR)"
)
"""The folders Windows installs programs in, by the variables that name them (`%ProgramFiles(x86)%`,
`$env:ProgramFiles`, `$env:SystemRoot`): a program below one is an installed tool, as one named by its
literal path (`C:\\Program Files\\7-Zip\\7z.exe`) is."""


_TOOLCHAIN_FOLDER = lazy_re(
    r"(?i)[\\/]+(?:microsoft visual studio[^\\/]*|msbuild|windows kits|microsoft sdks|microsoft\.net|dotnet"
    r"|reference assemblies|inno setup[^\\/]*|nsis|wix toolset[^\\/]*|7-zip|winrar|git|cmake|llvm|java|nodejs"
    r"|html help workshop|doxygen|system32|syswow64|windowspowershell|powershell"
    r"|[^\\/]*\bsdks?\b[^\\/]*)(?:[\\/]|$)"
)
"""The folders below those Windows installs programs in where the toolchains a build runs live (Visual
Studio, MSBuild, the Windows SDK and any other SDK's (`Microsoft DirectX SDK (June 2010)`), .NET, Inno
Setup, NSIS, WiX, 7-Zip, WinRAR, Git, CMake, LLVM, Java, Node.js) and Windows' own programs, which the rules
know by name; not any program installed there (a remote-control or disk-encryption tool's folder)."""


def install_folder_variable(name: str, rest: str) -> bool:
    """Is `name` (`ProgramFiles(x86)`, `env:windir`) a variable naming a folder programs are installed in,
    with a toolchain's folder next in the path (`rest`, what follows the variable: `\\Windows Kits\\…`)?"""
    return _INSTALL_FOLDER.fullmatch(name) is not None and _TOOLCHAIN_FOLDER.match(rest) is not None


_INSTALL_FOLDER_PATH = lazy_re(r"(?i)[a-z]:\\program files(?: \(x86\))?(?=[\\/])")
_RELATIVE_PROGRAM = lazy_re(r"(?![a-z]:|[\\/])(?!.*(?:^|[\\/])\.\.(?:[\\/]|$))[^:]*", re.IGNORECASE)


def toolchain_program(path: str) -> bool:
    """Is `path`, written literally, a program of a build toolchain installed where Windows installs programs
    (`C:\\Program Files (x86)\\Windows Kits\\10\\bin\\x64\\signtool`, see `_TOOLCHAIN_FOLDER`) or one below
    the working directory (`.\\tools\\nuget.exe`)? Not Windows' own programs, nor any other installed one."""
    found = _INSTALL_FOLDER_PATH.match(path)
    if found is None:
        return _RELATIVE_PROGRAM.fullmatch(path) is not None
    rest = path[found.end() :]
    return _TOOLCHAIN_FOLDER.match(rest) is not None and not _WINDOWS_OWN.match(rest)


_WINDOWS_OWN = lazy_re(r"(?i)[\\/]+(?:system32|syswow64|windowspowershell)(?:[\\/]|$)")


def _outside_variable(name: str, rest: str) -> bool:
    """Is a folder named by the variable `name` one every project lies outside of: the user's or the
    system's (`TEMP`, `USERPROFILE`, `APPDATA`), though not a toolchain's folder below one programs are
    installed in (`rest`: what follows the variable)?"""
    return _WHO_AND_WHERE.fullmatch(name) is not None and not install_folder_variable(name, rest)


_PS_VARIABLE_FOLDER = lazy_re(
    r"(?P<q>\"?)\$(?:\{(?P<braced>(?i:env:)?[A-Za-z_][\w()]*)\}|(?P<plain>(?i:env:)?[A-Za-z_]\w*))[\\/]"
    r"(?P<tail>[^\"'`$;&|<>@*?\[\]{}]+)(?P=q)"
)
"""A PowerShell program path below a folder one variable names (`"$PSScriptRoot\\tools\\nuget.exe"`,
`$env:ProgramFiles\\7-Zip\\7z.exe`, `"${env:ProgramFiles(x86)}\\…\\vswhere.exe"`)."""


_UNQUOTED_BREAK = lazy_re(r"[\s(),]")


_PS_BOUND = frozenset({"_", "psitem", "args", "input", "matches", "this", "sender", "event", "eventargs"})
"""PowerShell's automatic variables a pipeline, a call or an event binds to something else each time."""
_PS_SETS_VARIABLE = lazy_re(
    r"(?i)-variable\b|\b[sn]v\b|-(?:out|pipeline|error|warning|information)?variable\b|-[oepwi]v\b"
    r"|\bforeach\b|\bparam\s*\(|\[ref\]|setenvironmentvariable|(?<![${])env:"
)
"""What else may give a variable its value in a line: the variable cmdlets, common parameters that store
output, loops, a script's parameters, references, the env: drive."""


def below_powershell_variable_folder(word: Arg, line: str) -> tuple[Arg, bool] | None:
    """A PowerShell program path whose only run-time part is its first folder, one variable the `line` gives
    no value (`& "$PSScriptRoot\\tools\\nuget.exe"`, `& "${env:ProgramFiles(x86)}\\…\\vswhere.exe"`): the
    path below it, as written, and whether the folder is one every project lies outside of (the home, the
    temp folder and the other folders Windows keeps the user's files in; not those it installs programs in);
    None for any other word."""
    found = _PS_VARIABLE_FOLDER.fullmatch(word.raw)
    if found is None:
        return None
    name = found["braced"] or found["plain"]
    if name.lower() in _PS_BOUND or _PS_SETS_VARIABLE.search(line) is not None:
        return None
    assigned = re.search(rf"\$\{{?{re.escape(name)}\}}?\s*[-+*/%]?=(?!=)", line, re.IGNORECASE)
    if assigned is not None:
        return None  # `$d = 'C:\\Users\\Public'; & "$d\\x.exe"`
    tail = found["tail"].lstrip("\\/")
    if not tail or tail[-1:] in ("\\", "/") or ".." in tail.replace("\\", "/").split("/"):
        return None
    if not found["q"] and _UNQUOTED_BREAK.search(tail) is not None:
        return None  # (unquoted, a blank, parenthesis or comma ends the word)
    bare = name[4:] if name[:4].lower() == "env:" else name
    outside = in_home(word.raw.lstrip('"')) or _outside_variable(bare, "\\" + tail)
    return Arg(tail, word.raw), outside


def below_cmd_variable_folder(word: Arg) -> tuple[Arg, bool] | None:
    """cmd's program path whose only run-time part is its first folder, a variable (`%ROOT%\\Build\\x.bat`):
    the path below it, as written, and whether the folder is the user's or the system's (`%TEMP%`,
    `%USERPROFILE%`: see `_WHO_AND_WHERE`); None for any other word."""
    raw = word.raw.lstrip("@")  # (cmd's `@` hiding the echo)
    if raw[:1] == '"' and raw[-1:] == '"' and len(raw) > 1:
        raw = raw[1:-1]
    found = _CMD_VARIABLE_FOLDER.fullmatch(raw)
    if found is None or ".." in raw or '"' in raw:
        return None
    tail = raw[found.end(1) + 2 :].lstrip("\\/")
    if not tail or tail[-1:] in ("\\", "/"):
        return None
    return Arg(tail, word.raw), _outside_variable(found[1], "\\" + tail)


def _below_project_variable(text: str) -> bool:
    """Is a Windows program below a folder a cmd variable names that is none of the user's or the system's
    (`%ROOT%\\Build\\pack.bat`, `%QT_PATH%\\bin\\windeployqt.exe`)? It is judged by its name, the folder left
    to the sandbox, as a POSIX `"$ROOT"/hack/verify.sh` is."""
    found = _CMD_VARIABLE_FOLDER.fullmatch(text)
    return (
        found is not None and ".." not in text and not _outside_variable(found[1], text[found.end(1) + 1 :])
    )


_INDIRECT_REASONS = {
    "variable": "is in a folder an environment variable names, only known at run time",
    "drive": "is relative to the current folder of a drive, only known at run time",
    "uri": "names an application by a URI, which Windows resolves to a program the policy cannot see",
}


_ENVIRONMENT_TOOL = lazy_re(
    r"/(?:bin|Scripts)/(?:python[0-9.]*|pypy[0-9.]*|pip[0-9.]*|pytest|py\.test|tox|nox|coverage|ruff|mypy|black|"
    r"isort|flake8|pylint|uv|poetry|pdm|hatch|ipython|jupyter|node|npm|npx|yarn|pnpm|ruby|gem|bundle|rake|"
    r"rspec|perl|php|composer|java|javac|mvn|gradle|go|cargo|rustc|dotnet)(?:\.exe)?$",
    re.IGNORECASE,
)
"""An interpreter or tool in the `bin`/`Scripts` folder of an environment (a virtualenv in `~/.virtualenvs`,
a conda or Poetry environment, a toolchain): the same program as when run by name from that environment."""


class PathScope:
    """The working directory of one command line, followed through its `cd`s."""

    __slots__ = ("cwd", "dialect", "lookups", "root")

    def __init__(self, root: str | None, dialect: str) -> None:
        self.lookups = 0
        """Writes into the temp folder followed through links on the disk so far (see `TEMP_LOOKUPS`)."""
        self.dialect = dialect  # (first: a drive's root below is resolved by the dialect's rules)
        self.root = _normal(root.replace("\\", "/")) if root else _VIRTUAL_ROOT
        if _DRIVE.match(self.root.lstrip("/")):
            self.root = self._absolute(self.root.lstrip("/")) or self.root
        self.cwd: str | None = self.root

    # -- resolving --
    def _absolute(self, text: str) -> str | None:
        """The absolute, normalised form of `text` from the current directory; None when not knowable."""
        if self.dialect != "posix":
            text = text.replace("\\", "/")
        drive = _DRIVE.match(text)
        if drive:
            return _normal(f"/\x00drive/{drive.group(1).lower()}/{text[drive.end() :]}")
        if text == "~" or text.startswith("~/") or text.startswith("~\\"):
            return _normal(_OUTSIDE_HOME + text[1:])
        if text.startswith("~"):
            return _normal(f"{_OUTSIDE_HOME}/../{text[1:]}")  # `~user/...`: another user's home
        if text.startswith("/"):
            return _normal(text)
        if self.cwd is None:
            return None
        return _normal(f"{self.cwd}/{text}")

    def is_absolute(self, text: str) -> bool:
        """Whether `text` names a place whatever the current directory is (`/x`, `~/x`, `C:\\x`)."""
        return text[:1] in ("/", "~") or _DRIVE.match(text.replace("\\", "/")) is not None

    def change_directory(self, target: Arg | None) -> None:
        """Follow `cd TARGET` (`cd` alone goes home; a run-time target, or the previous or next location,
        `cd -`/`Set-Location +`, makes later relative paths unknown)."""
        if target is None:
            self.cwd = _OUTSIDE_HOME
        elif (
            DYN in target.text or target.text == "-" or (target.text == "+" and self.dialect == "powershell")
        ):
            raw = target.raw.strip("\"'")
            self.cwd = _OUTSIDE_HOME if raw in ("$HOME", "${HOME}", "$env:USERPROFILE", "$env:HOME") else None
        elif self.dialect == "powershell" and _PROVIDER_DRIVE.match(target.text.lstrip("\"'")):
            self.cwd = _ON_PROVIDER  # `cd HKLM:\SOFTWARE; New-Item x` makes a registry key
        else:
            self.cwd = self._absolute(target.text)

    def enter_workspace(self) -> None:
        """Follow a workspace selector (`pnpm --filter app`, `yarn workspace app`) into one of the project's
        folders: its relative paths stay in the project (a climb out, `../../x`, counts from the root)."""
        self.cwd = f"{self.root.rstrip('/')}/{_SOME_WORKSPACE}"

    def in_some_workspace(self) -> bool:
        """Has a workspace selector moved the line into one of the project's folders, which one unknown?"""
        return self.cwd is not None and _SOME_WORKSPACE in self.cwd

    # -- judging --
    def judge_write(self, target: Arg) -> Judgement | None:
        """None when writing `target` stays inside the project (outside `.git`/`.hazina`) or is harmless."""
        text, raw = target.text, target.raw
        if DYN in text and not _RUN_TIME.search(raw):
            # Only brace expansion or globbing made it dynamic (`touch f{1..3}.txt`): judge it as a pattern.
            text = text.replace(DYN, "*")
        elif DYN in text and one_name_pattern(target):
            # `-o "build/$(basename "$f" .c).o"`, `dist/app-$(uname -s)`: judged as the pattern `build/*.o`
            text = text.replace(DYN, "*")
        if text in _SAFE_DEVICES or text.startswith("/dev/fd/") or raw.lower() in _WINDOWS_DEVICES:
            return None
        if self.dialect == "powershell" and (
            _PROVIDER_DRIVE.match(text.lstrip("\"'"))
            or (self.cwd == _ON_PROVIDER and not self.is_absolute(text))
        ):
            # `Move-Item $c.PSPath Cert:\LocalMachine\Root` plants a trusted certificate: no project file.
            return Judgement(
                "write-outside-project", f"`{raw}` is on a PowerShell drive outside the file system"
            )
        if self.dialect != "posix" and _PERCENT_NAME.search(raw):
            if is_step_file(raw):
                return None  # `echo v=1>> %GITHUB_OUTPUT%`: the step's output file, as `$env:GITHUB_OUTPUT`
            if _PERCENT_TEMP.match(raw) and ".." not in raw:
                return None  # `%TEMP%\x`: the temp folder, like `$env:TEMP\x`
            # `%APPDATA%\x.exe`: a folder cmd fills in at run time (and a literal name to PowerShell, which
            # a cmd line run there never meant).
            return Judgement("write-unknown-target", f"`{raw}` is in a folder named by a cmd variable")
        if DYN in text:
            temp = _TEMP_VARIABLES if self.dialect == "posix" else _PS_TEMP_VARIABLES
            if (temp.match(raw) and ".." not in raw) or in_made_temp(text):
                return None
            if is_step_file(raw):
                return None
            if raw.strip("\"'").lower() in _WINDOWS_DEVICES:
                return None
            if in_home(raw):
                return Judgement("write-outside-project", f"`{raw}` is in the home directory")
            return Judgement("write-unknown-target", f"`{raw}` names a file only known at run time")
        path = self._absolute(text)
        if path is None:
            return Judgement(
                "write-unknown-target", f"`{raw}` is relative to a directory only known at run time"
            )
        if in_made_temp(path):
            return None  # what `mktemp -d` made for the line (`tmp=$(mktemp -d); cp -r dist "$tmp/"`)
        if _inside(path, self.root):
            parts = [p.lower() for p in path[len(self.root) :].split("/") if p]
            if len(parts) > PATH_PARTS_MAX:
                raise TooLarge(f"a path written to goes more than {PATH_PARTS_MAX:,} folders deep")
            for part in parts:
                if _may_name(PROTECTED, part):
                    return Judgement("write-protected-dir", f"`{raw}` is inside {part}/")
            if parts and _names_login_keys(parts):
                return Judgement("write-login-keys", f"`{raw}` is SSH's: who may log in, or where to")
            setting = (
                obeyed_setting(parts, _may_name)
                if parts and (any(map(_may_be_tool_dotname, parts)) or parts[-1].endswith(WORKSPACE_SUFFIX))
                else None
            )
            if setting is not None:
                spelled = raw.strip("\"'").lower().replace("\\", "/")
                named = "" if spelled.endswith(setting) else f" ({setting})"
                return Judgement(
                    "write-agent-settings",
                    f"`{raw}`{named} is an editor's or coding agent's own settings, obeyed unasked",
                )
            return None
        temp = next((t for t in _temp_dirs() if _inside(path, t)), None)
        if temp is not None and not self._beside_project_in(temp, path):
            real = None
            if self.root != _VIRTUAL_ROOT:
                self.lookups += 1
                if self.lookups > TEMP_LOOKUPS:
                    return Judgement(
                        "write-unknown-target",
                        f"`{raw}`: more than {TEMP_LOOKUPS} writes into the temp folder in one line are not "
                        "followed through links",
                    )
                real = _linked(path, temp)
            if real is not None:
                # `ln -s /etc/x /tmp/x; cp a /tmp/x`: a write through a link lands where the link leads.
                verdict = self.judge_write(Arg(real, raw))
                if verdict is not None:
                    detail = f"`{raw}` leads through a link to {real}: {verdict.detail}"
                    return Judgement(verdict.event, detail)
            return None
        if self.cwd is not None and not _inside(self.cwd, self.root) and text[:1] not in "/~$%\\":
            # `cd /etc && tar -xf x.tar`: say where the relative word led
            shown = _shown_path(path)
            return Judgement("write-outside-project", f"`{raw}` ({shown}) is outside the working directory")
        return Judgement("write-outside-project", f"`{raw}` is outside the working directory")

    def moved_outside(self) -> str | None:
        """Where the line's `cd`s took it, as a user writes it (`/tmp`, `~/x`, `C:/x`), when that is a known
        place outside the project; else None."""
        cwd = self.cwd
        if cwd is None or _inside(cwd, self.root):
            return None
        return _shown_path(cwd)

    def beyond_project(self, text: str) -> str | None:
        """A relative path seen from a folder a `cd` in this line moved to outside the project (`cd ~ && cat
        .bashrc` reads `~/.bashrc`, `cd /etc && cat shadow` reads `/etc/shadow`): the path it names, the home
        folder written `~`; None while the line stays in the project, or for a word that is no relative
        path."""
        cwd = self.cwd
        if cwd is None or _inside(cwd, self.root) or not text or DYN in text:
            return None
        if text[0] in "/~$%\\" or _DRIVE.match(text):
            return None
        path = self._absolute(text)
        if path is None:
            return None
        if path.startswith(_OUTSIDE_HOME):
            return "~" + path[len(_OUTSIDE_HOME) :]
        return path.replace("\x00", "")

    def replaceable_place(self, target: Arg, whole: bool = False) -> str | None:
        """Where a literal write target lies in the working directory (the virtual one too, when the caller
        did not say which): its path relative to it, outside `.git`/`.hazina`; None anywhere else (the temp
        folder too: it is every program's, so a file there may be anyone's), or when the place is only known
        at run time. `whole`: the working directory itself is a place too ("")."""
        if DYN in target.text:
            return None
        path = self._absolute(target.text)
        if path is None:
            return None
        if whole and path == self.root:
            return ""
        if _inside(path, self.root) and path != self.root:
            relative = path[len(self.root) :].strip("/")
            if any(_may_name(PROTECTED, part) for part in distinct(relative.lower().split("/"))):
                return None
            return None if _SOME_WORKSPACE in relative else relative  # (which workspace is unknown)
        return None

    def holds(self, text: str) -> bool:
        """Is `text` a path inside the project (followed through the line's `cd`s)?"""
        if DYN in text:
            return False
        path = self._absolute(text)
        return path is not None and _inside(path, self.root)

    def judge_program(self, program: Arg, script: bool = False) -> Judgement | None:
        """None when `program` is a bare name (found on PATH), inside the project, or in a folder where
        the system and the user's tool managers install programs; a program anywhere else (`/tmp/x`,
        `C:\\Users\\Public\\x.exe`, `../other/x.sh`) is code the policy has never seen. A `script` an
        interpreter opens is a file even as a bare name, in the working directory (`cd /tmp && python x`)."""
        text = program.text
        if DYN not in text and (self.dialect != "posix" or text[-4:].lower() == ".exe"):
            named = _WINDOWS_INDIRECT.match(text)
            if named is not None and named.lastgroup is not None and not _below_project_variable(text):
                return Judgement("outside-program", f"`{program.raw}` {_INDIRECT_REASONS[named.lastgroup]}")
        if script and "/" not in text and "\\" not in text and DYN not in text and text[:1] != "-":
            text = "./" + text
        if DYN in text or ("/" not in text and "\\" not in text):
            return None  # a name found on PATH, or decided at run time (the engine blocks those itself)
        if (
            self.dialect != "posix"
            and not script
            and text[:1] == "/"
            and "/" not in text[1:]
            and "\\" not in text
        ):
            # `/query`: a Windows switch where a wrapper's command was looked for (a script is a file:
            # `pwsh -File /x.ps1` runs it from the drive's root)
            return None
        path = self._absolute(text)
        if path is None:
            return Judgement("outside-program", f"`{program.raw}` is in a directory only known at run time")
        if _inside(path, self.root) or _PROGRAM_FOLDERS.match(path.lower()) or _ENVIRONMENT_TOOL.search(path):
            return None
        return Judgement("outside-program", f"`{program.raw}` is outside the project and the program folders")

    def _beside_project_in(self, temp: str, path: str) -> bool:
        """A project inside the temp directory: its neighbours (`../x`) are not scratch space."""
        if not _inside(self.root, temp) or self.root == temp:
            return False
        top = temp.rstrip("/") + "/" + self.root[len(temp) :].lstrip("/").split("/", 1)[0]
        return _inside(path, top)

    def mentions_proc_and_environ(self, args: list[Arg], posix: bool = False) -> bool:
        """Words that together could read one: a path under /proc and a name that could be `environ`
        (`find /proc -name environ`, or a word the parser split in two).

        A POSIX word quoted whole reaches the program as written, unexpanded: `'/*/include/*'` is a
        pattern (lcov's `--remove`, gcovr's `--exclude`), and no program opens a folder literally named `*`.
        """
        texts = [a.text.replace(DYN, "*") if DYN in a.text else a.text for a in args]
        if not any(_may_name_environ(text) for text in texts):  # first the cheap half
            return False
        names = [i for i, text in enumerate(texts) if _may_name_environ(text)]
        for i, text in enumerate(texts):
            if "proc" in text.lower() or _GLOB.search(text):
                path = self._absolute(text)
                first = path[1:].split("/", 1)[0] if path else ""
                if first == "proc" or (
                    _GLOB.search(first)
                    and glob_match("proc", first)
                    and not (posix and quoted_whole(args[i]))
                ):
                    # PowerShell's `cat $d/* $x` is also checked as `cat /* $x` (`$d` empty): a root that only
                    # an emptied variable made names /proc no more than `$d/*` does, so a name known only at
                    # run time is no reason there; `$d/* environ` still is.
                    emptied = first != "proc" and args[i].raw.lstrip("\"'")[:1] == "$"
                    others = [j for j in names if j != i and not (emptied and not args[j].text.strip(DYN))]
                    if others or path is None or _GLOB.search(path) is None:
                        return True  # another word may be the name (`find /proc -name environ`)
                    if i in names and _may_expand_to_proc_sample(path):
                        return True  # one glob word that may itself be the file (`/*/*/env*`)
        return False

    def reads_process_environment(self, arg: Arg) -> bool:
        """Could `arg` name `/proc/<process>/environ`? Globs and run-time pieces count as wildcards."""
        text = arg.text.replace(DYN, "*") if DYN in arg.text else arg.text
        lowered = text.lower()
        if "env" not in lowered and _GLOB.search(text) is None:
            return False
        path = self._absolute(text)
        if path is None or arg.text[:1] == DYN:
            # Relative to a directory only known at run time: any name that could be `environ` counts,
            # unless a folder on the way is a plain name no folder of /proc has (`./packages/**/*`, where a
            # filter ran the command in each workspace) and nothing after it climbs back out (`..`):
            # wherever that path starts, it stays out of /proc. (`root/proc/1` does not: a process's `root`
            # leads to `/`, and `proc` from there into /proc, so `proc` itself keeps nothing out.)
            # A path that starts with a run-time word (`$dir/environ`) may start anywhere too, but only a
            # file spelled `environ` counts there (`cat $f` names that file no more than any other).
            parts = lowered.replace("\\", "/").rstrip("/").split("/")
            last = parts[-1]
            if _run_time_name(arg.text):
                # `cd $d && cat $f` is `cat $d/$f`: a name only known at run time names `environ` no more
                # than any other file, wherever it is looked up (a glob, `cd $d && cat *`, still may).
                return False
            if path is not None:
                if last != "environ":
                    return False
            elif not ("environ" in last or glob_match("environ", last)):
                return False
            folders = parts[:-1]
            anchor = next((i for i in range(len(folders) - 1, -1, -1) if _outside_proc(folders[i])), None)
            return anchor is None or any(map(_may_climb, folders[anchor + 1 :]))
        first = path[1:].split("/", 1)[0]
        if first != "proc" and not (_GLOB.search(first) and glob_match("proc", first)):
            return False
        if _GLOB.search(path) is None:
            return path.endswith("/environ")
        return _may_expand_to_proc_sample(path)


_PROC_FOLDERS = frozenset({"self", "thread-self", "curproc", "task", "cwd", "root", "fd", "map_files", "ns"})
"""Names under /proc that are, or lead to, a process's folder (`cwd` and `root` lead anywhere)."""


def _outside_proc(part: str) -> bool:
    """Is the path component `part` a plain name that leads away from every process's folder (and, from the
    root a process's `root` link leads to, not into /proc)?"""
    return (
        part not in ("", ".", "..", "proc")
        and not part.isdigit()
        and part not in _PROC_FOLDERS
        and _GLOB.search(part) is None
    )


def _copies_as_links(args: list[Arg]) -> bool:
    """Does `cp` make links instead of copies (`-s`, `-l`, in a cluster too: `-al`; `--symbolic-link`,
    `--link`, or a prefix getopt takes for them)?"""
    for a in args:
        t = a.text
        if t == "--":
            return False
        if t[:2] == "--":
            if (len(t) >= 3 and "--link".startswith(t)) or (len(t) >= 4 and "--symbolic-link".startswith(t)):
                return True
        elif t[:1] == "-" and len(t) > 1:
            for letter in t[1:]:
                if letter in "sl":
                    return True
                if letter in "St":
                    break  # the rest is that option's value (`-Sbak`, `-tdist`)
    return False


def _run_time_name(text: str) -> bool:
    """Is the last component of the word `text` wholly a run-time part (`$f`, `./${name}`)?"""
    last = text.replace("\\", "/").rstrip("/").rpartition("/")[2]
    return bool(last) and not last.strip(DYN)


def _may_climb(part: str) -> bool:
    """Could the path component `part` be `..`? A wildcard matches a name starting with a dot only where the
    pattern starts with one (`.*`), as the shells' and PowerShell's globbing do."""
    return part == ".." or (part[:1] == "." and _GLOB.search(part) is not None and glob_match("..", part))


def quoted_whole(arg: Arg) -> bool:
    """A shell word in one pair of quotes with nothing expanded in it: the program gets these characters."""
    raw = arg.raw
    return len(raw) > 1 and raw[0] == raw[-1] and raw[0] in "'\"" and DYN not in arg.text


def _may_name_environ(text: str) -> bool:
    """Could the last component of `text` be the name `environ`?"""
    last = text.rstrip("/").rsplit("/", 1)[-1].lower()
    return bool(last) and (
        "environ" in last or (_GLOB.search(last) is not None and glob_match("environ", last))
    )


# -- which operands a program writes --------------------------------------------------------------------

_ALL = frozenset(
    {
        "tee", "sponge", "touch", "mkdir", "rm", "rmdir", "unlink", "shred", "mkfifo", "mknod", "script",
        "del", "erase", "rd", "md", "setfattr",
    }
)  # fmt: skip
# (`del`, `erase`, `rd` and `md` are cmd's own: `cmd /c del C:\Users\me\x.js`; PowerShell's are Remove-Item
# and mkdir.)
_LAST = frozenset(
    {
        "cp", "mv", "install", "ln", "rsync", "scp", "xcopy", "xxd", "robocopy", "replace", "expand",
        "makecab", "copy", "move", "ditto", "convert", "magick",
    }
)  # fmt: skip
_CONVERTERS = frozenset(
    {
        "qpdf", "sox", "lame", "pngcrush", "opusenc", "heif-convert", "avifdec", "cjxl", "djxl", "lessc",
        "sassc", "objcopy", "pdfunite", "wkhtmltopdf", "wkhtmltoimage", "ps2pdf", "pdf2ps", "dvipdf",
        "pdfcrop", "ebook-convert", "rst2html", "rst2html5", "rst2latex", "rst2man", "rst2odt", "rst2xml",
        "rst2s5", "rst2html.py", "rst2html5.py", "rst2latex.py", "rst2man.py",
    }
)  # fmt: skip
"""Converters writing their last operand, given more than one (`qpdf IN OUT`, `sox IN… OUT`, `rst2html IN
OUT`); only a literal one is judged, as `_GENERATORS`' `-o`."""
# (`copy` and `move` are cmd's own: `cmd /c "copy /y cmd.exe C:\\Windows\\System32\\sethc.exe"`; `ditto` is
# macOS's copier and archiver: `ditto -x -k app.zip /Applications`; ImageMagick's `convert`/`magick IN OUT`.)
#: Windows programs that name what they write with a switch (`print /D:FILE`, `esentutl /y SRC /d DEST`).
_SWITCH_TARGETS = {"print": "/d", "esentutl": "/d"}
_WINDOWS_SWITCH = lazy_re(r"^/[A-Za-z?][\w?-]*(?::.*)?$", re.DOTALL)
_SWITCH_CLUSTER = lazy_re(r"(?:/[A-Za-z?]){2,}")
"""One-letter switches written together (`xcopy a b /E/H/C/I/Y`): no path has only one-letter folders."""
_AFTER_FIRST = frozenset({"chmod", "chown", "chgrp", "setfacl"})
_WRITTEN_OPERANDS: dict[str, tuple[slice, frozenset[str], frozenset[str]]] = {
    # program: (its operands that it writes, options whose value it writes, options taking another value)
    "patch": (
        slice(0, 1),  # `patch FILE < x.patch`: FILE is patched
        frozenset({"-d", "--directory", "-r", "--reject-file", "-o", "--output"}),
        frozenset({"-i", "--input", "-p", "--strip", "-B", "--prefix", "-z", "--suffix", "-F", "--fuzz", "-D",
                   "--ifdef", "-V", "--version-control", "-Y", "--basename-prefix", "-g", "--get"}),
    ),
    "uniq": (
        slice(1, 2),  # `uniq IN OUT`
        frozenset(),
        frozenset({"-f", "--skip-fields", "-s", "--skip-chars", "-w", "--check-chars"}),
    ),
    "split": (
        slice(1, 2),  # `split FILE PREFIX`: PREFIXaa, PREFIXab, …
        frozenset(),
        frozenset({"-a", "--suffix-length", "-b", "--bytes", "-C", "--line-bytes", "-l", "--lines", "-n",
                   "--number", "-t", "--separator", "--additional-suffix", "--filter"}),
    ),
    "csplit": (
        slice(0, 0),  # `csplit -f PREFIX FILE PATTERN…`
        frozenset({"-f", "--prefix"}),
        frozenset({"-b", "--suffix-format", "-n", "--digits"}),
    ),
    "mktemp": (slice(0, 1), frozenset({"-p", "--tmpdir"}), frozenset({"--suffix"})),
    "mogrify": (slice(None), frozenset(), frozenset()),  # ImageMagick's in-place convert: every file named
    "fallocate": (slice(None), frozenset(), frozenset({"-l", "--length", "-o", "--offset"})),  # `-l 1G F`
    "mkfile": (slice(1, None), frozenset(), frozenset()),  # macOS: `mkfile 1g F…`
}  # fmt: skip
"""Programs that write a file named by an operand at a known place or by an option's value."""
_UNPACKERS = {"dpkg-deb": ("-Z", "-z", "-S", "--path-exclude"), "pkgutil": ("--volume",)}
"""Package tools that unpack a package into, or build one at, their second operand, with their options that
take a value."""
_IN_PLACE_FLAG = lazy_re(r"-[0-9a-hj-zA-HJ-Z]*i")
"""perl's and ruby's `-i` (`-i.bak`), alone or after flags (`-pi`, `-lpi`)."""
_CODE_FLAG = lazy_re(r"-[0-9a-zA-Z]*[eE]")
"""An option whose value is the program (`-e CODE`, `-pe CODE`, `-lnE CODE`)."""
_MOVERS = frozenset({"mv", "move"})
"""Programs that write their last operand and remove the others (`mv /etc/hosts ./x` empties /etc/hosts)."""
_DASH_MODE = lazy_re(r"-[rwxXst]+")
"""A symbolic mode that takes permissions away, written like an option (`chmod -x f`, `chmod -rw f`): chmod
has no option of those letters (`-R` is upper case)."""
ARCHIVERS = frozenset({"tar", "gtar", "bsdtar", "zip", "unzip", "7z", "7za", "7zz", "7zr", "jar"})
"""Programs that write an archive, or unpack one into a folder (`tar czf F`, `unzip x.zip -d DIR`)."""
_LINKS = frozenset({"mklink", "junction"})
"""cmd's `mklink` and Sysinternals' `junction [-d] LINK [TARGET]`: the link and its target are written."""
"""Windows links and junctions (`mklink [/d|/h|/j] LINK TARGET`): the link is written, and the target is what
the link opens to writes made through it, so both must be inside the project."""
_VALUE_OPTIONS = {
    "truncate": ("-s", "--size", "-r", "--reference"),
    "install": ("-m", "--mode", "-o", "--owner", "-g", "--group"),
    "cp": ("-S", "--suffix"),
    "mv": ("-S", "--suffix"),
    "ln": ("-S", "--suffix"),
    "mkdir": ("-m", "--mode"),
    "mkfifo": ("-m", "--mode"),
    "mknod": ("-m", "--mode"),
    "tee": (),
    "touch": ("-d", "--date", "-t", "-r", "--reference"),
    "sed": ("-e", "--expression", "-f", "--file", "-l", "--line-length", "-s"),
    "setfacl": (
        "-m",
        "--modify",
        "-M",
        "--modify-file",
        "-x",
        "--remove",
        "-X",
        "--remove-file",
        "--set",
        "--set-file",
    ),
    "setfattr": ("-n", "--name", "-v", "--value", "-x", "--remove"),
    "xxd": ("-c", "-g", "-l", "-o", "-s", "-cols", "-len", "-seek"),
    "script": (
        "-c",
        "--command",
        "-t",
        "--timing",
        "-I",
        "-O",
        "-B",
        "-T",
        "-E",
        "--echo",
        "-m",
        "--logging-format",
    ),
}
_TARGET_DIRECTORY = ("-t", "--target-directory")

#: PowerShell cmdlets that write: the parameters naming what they write, and which positional operand does.
_PS_WRITERS: dict[str, tuple[tuple[str, ...], int | None]] = {
    "set-content": (("path", "literalpath"), 0),
    "add-content": (("path", "literalpath"), 0),
    "clear-content": (("path", "literalpath"), 0),
    "out-file": (("filepath", "literalpath", "path"), 0),
    "tee-object": (("filepath", "literalpath", "path"), 0),
    "export-csv": (("path", "literalpath"), 0),
    "export-clixml": (("path", "literalpath"), 0),
    "export-alias": (("path", "literalpath"), 0),
    "export-formatdata": (("path", "literalpath"), None),
    "new-item": (("path", "name"), 0),
    "remove-item": (("path", "literalpath"), 0),
    "rename-item": (("path", "literalpath", "newname"), 0),
    "copy-item": (("destination",), 1),
    "move-item": (("destination", "path", "literalpath"), 0),
    "set-itemproperty": (("path", "literalpath"), 0),
    "set-acl": (("path", "literalpath"), 0),
    "new-itemproperty": (("path", "literalpath"), 0),
    "compress-archive": (("destinationpath",), 1),
    "expand-archive": (("destinationpath",), 1),
    "start-transcript": (("path", "literalpath", "outputdirectory"), 0),
    "export-certificate": (("filepath",), None),
    "start-process": (("redirectstandardoutput", "redirectstandarderror"), None),
    # manifests, script headers, session files and signatures PowerShell's module tools write
    "new-modulemanifest": (("path",), 0),
    "update-modulemanifest": (("path",), 0),
    "new-scriptfileinfo": (("path",), 0),
    "update-scriptfileinfo": (("path", "literalpath"), 0),
    "new-pssessionconfigurationfile": (("path",), 0),
    "new-psrolecapabilityfile": (("path",), 0),
    "new-filecatalog": (("catalogfilepath",), None),
    "set-authenticodesignature": (("filepath", "literalpath"), None),
    "export-console": (("path",), 0),
    "export-pssession": (("outputmodule",), None),
}
_PS_SWITCHES = frozenset(
    {
        "force",
        "recurse",
        "append",
        "nonewline",
        "passthru",
        "whatif",
        "confirm",
        "noclobber",
        "container",
        "wait",
        "nonewwindow",
        "usenewenvironment",
        "loaduserprofile",
        "includeinvocationheader",
        "asbytestream",
        "verbose",
        "debug",
    }
)
_PS_SWITCH_PREFIXES = frozenset(name[:i] for name in _PS_SWITCHES for i in range(len(name) + 1))
"""Every prefix of a switch name (the empty one too): `-Fo`, `-Rec` bind `-Force`, `-Recurse`."""


def _prefix_table(parameters: tuple[str, ...]) -> dict[str, str]:
    """Each non-empty prefix of `parameters` -> the first parameter it begins (`-Pa` binds `-Path`)."""
    table: dict[str, str] = {}
    for name in parameters:
        for i in range(1, len(name) + 1):
            table.setdefault(name[:i], name)
    return table


_PS_POSITIONS: dict[str, tuple[str, ...]] = {
    "set-content": ("path", "value"),
    "add-content": ("path", "value"),
    "out-file": ("path", "encoding"),
    "export-csv": ("path", "delimiter"),
    "export-alias": ("path", "name"),
    "rename-item": ("path", "newname"),
    "copy-item": ("path", "destination"),
    "move-item": ("path", "destination"),
    "set-itemproperty": ("path", "name", "value"),
    "set-acl": ("path", "aclobject"),
    "new-itemproperty": ("path", "name"),
    "compress-archive": ("path", "destinationpath"),
    "expand-archive": ("path", "destinationpath"),
}
"""The positional parameters of the writers taking more than one, in order (the others take one, at the
position `_PS_WRITERS` gives). Words without a name fill the ones not given by name, in order: in
`Copy-Item -Path a ../x` the one word is the destination, in `Set-Content -Path f x` the value."""
_PS_SAME_SLOT = {"literalpath": "path", "filepath": "path"}
"""Parameters that stand where `path` does (another parameter set, or the name Out-File gives it): the
slot they fill."""
_PS_WRITER_PREFIXES = {
    name: _prefix_table(
        parameters + tuple(p for p in (*_PS_POSITIONS.get(name, ()), "literalpath") if p not in parameters)
        if name in _PS_POSITIONS
        else parameters
    )
    for name, (parameters, _) in _PS_WRITERS.items()
}
"""Each writer's parameters by prefix: the ones naming what it writes, and for the writers of several
positional parameters those too (and `-LiteralPath`, which fills `-Path`'s place), so that a word after
them is known as their value."""


def unique_prefix_table(parameters: tuple[str, ...]) -> dict[str, str | None]:
    """Each non-empty prefix of `parameters` -> the parameter it binds, or None when it begins several and
    names none (PowerShell refuses an ambiguous prefix: Remove-Item's `-f` is `-Filter` or `-Force`)."""
    table: dict[str, str | None] = {}
    for name in parameters:
        for i in range(1, len(name) + 1):
            prefix = name[:i]
            table[prefix] = prefix if prefix in parameters else (name if prefix not in table else None)
    return table


#: Deleting programs: their literal targets are judged (`rm ../x`, `rm .git/hooks/x`); run-time names are
#: left to the destructive rules, which know when a computed delete is dangerous.
CMD_DELETERS = frozenset({"del", "erase", "rd"})
DELETERS = frozenset({"rm", "rmdir", "unlink", "shred", "remove-item", *CMD_DELETERS})

CHANGE_DIRECTORY = frozenset({"cd", "chdir", "pushd", "set-location", "sl", "push-location"})

DOTNET_WRITERS = frozenset(
    f"[{namespace}{kind}]::{member}"
    for namespace in ("system.io.", "io.")
    for kind, members in (
        ("file", ("appendalltext", "appendalllines", "appendtext", "writealltext", "writealllines",
                  "writeallbytes", "create", "createtext", "createsymboliclink")),
        ("directory", ("createdirectory", "createsymboliclink")),
    )
    for member in members
)  # fmt: skip
DOTNET_OVERWRITERS = frozenset(
    f"[{namespace}file]::{member}"
    for namespace in ("system.io.", "io.")
    for member in ("writealltext", "writealllines", "writeallbytes", "create", "createtext")
)
"""Those of them that replace the whole file their first argument names."""
DOTNET_ARCHIVERS = frozenset(
    f"[{namespace}compression.zipfile]::{member}"
    for namespace in ("system.io.", "io.")
    for member in ("createfromdirectory", "extracttodirectory")
)
"""`[IO.Compression.ZipFile]::CreateFromDirectory(DIR, ZIP)` and `ExtractToDirectory(ZIP, DIR)`: the second
argument is what they write."""
DOTNET_WRITERS |= DOTNET_ARCHIVERS
"""Static .NET calls (as the PowerShell reader hands them on: `[IO.File]::AppendAllText PATH TEXT`) that
write the file or folder their first argument names (a zip file's methods, their second);
`CreateSymbolicLink(LINK, TARGET)` writes both, as `mklink` does."""


#: Options naming the file a program writes its result to, whatever the program: `--output FILE`,
#: `--output=FILE`, openssl's `-out FILE`, and `-o FILE` for programs where `-o` is that (for `ls -o`,
#: `grep -o` or `ps -o` it is something else).
_OUTPUT_LONG = frozenset(
    {
        "--output", "--output-file", "--out", "--outfile", "--out-file", "--output-document", "--log-file",
        "--logfile", "--junit-xml", "--junitxml", "--write", "-out", "-outfile", "--outdir", "--out-dir",
        "--output-dir", "--output-directory", "--outputdir", "--dump-bin", "-logfile", "/out", "/output",
    }
)  # fmt: skip
_REPORT_OPTIONS = frozenset(
    {
        "--outputfile", "--coveragedirectory", "--report-dir", "--reports-dir", "--results-directory",
        "--output-path", "--benchmark-json", "--junitfile", "--jsonfile", "--log-junit", "--coverage-clover",
        "--coverage-cobertura", "--coverage-html", "--coverage-xml", "--output-junit", "--output-log",
        "--export-json", "--export-csv", "--export-markdown", "--coverage-path", "-output-dir",
        "-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "--cov-report",
    }
)  # fmt: skip
"""Options naming the report a test runner, coverage or benchmark tool writes, whatever the program: jest's
and vitest's `--outputFile`, jest's `--coverageDirectory`, nyc's and c8's `--report-dir`/`--reports-dir`,
`dotnet test --results-directory`, `cargo llvm-cov --output-path`, pytest-benchmark's `--benchmark-json`,
gotestsum's `--junitfile`, phpunit's logs and coverage, ctest's, hyperfine's exports, llvm-cov's
`-output-dir`, `go test -coverprofile` and its other profiles, pytest-cov's `--cov-report=xml:FILE` (the file
after the kind). As a generator's `-o`, only a literal value is judged: CI scripts name their report folders
by variables (`-coverprofile="$COVER"`, `--junitfile $(ARTIFACTS)/junit.xml`)."""
_OUTPUT_SHORT = frozenset(
    {
        "gcc", "g++", "cc", "c++", "clang", "clang++", "gfortran", "go", "rustc", "tcc", "ld", "as", "nasm",
        "sort", "shuf", "dos2unix", "unix2dos", "iconv", "pdftotext", "convert", "magick", "ffmpeg",
        "xz", "zstd", "lz4", "base64", "openssl", "gpg", "gpg2", "protoc", "cython", "nuitka", "pyinstaller",
        "gzip", "bzip2", "varnishncsa", "tcpdump", "tshark", "exiftool", "strace", "ltrace", "gtester",
        "winget", "dotnet", "cookiecutter", "docker", "podman", "nerdctl",
    }
)  # fmt: skip
_GENERATORS = frozenset(
    {
        "gs", "gswin64c", "gswin32c", "msgfmt", "msgmerge", "msgcat", "xgettext", "xsltproc", "cwebp",
        "dwebp", "gifsicle", "svgo", "rsvg-convert", "inkscape", "dot", "neato", "mmdc", "asciidoctor",
        "asciidoctor-pdf", "uglifyjs", "rollup", "browserify", "swc", "flatc", "swig", "bison", "flex",
        "yacc", "re2c", "strip", "upx", "shiv", "pex", "wasm-opt", "emcc", "em++", "llc", "opt", "nvcc",
        "glslc", "img2pdf", "flac", "oggdec", "avifenc", "lilypond", "cpp", "windres", "moc", "uic", "rcc",
        "pandoc", "rst2pdf", "jupytext", "lcov", "geninfo", "genhtml", "gcovr", "grcov", "llvm-profdata",
    }
)  # fmt: skip
"""Document, image and code generators whose `-o` names the file they write (`gs -o F`, `dot -o F`, `bison -o
F`, `pandoc -o F`). Only a literal value is judged: their run-time outputs are a Makefile's (`dot -Tsvg $< -o
$@`), which the policy did not judge before it knew them either."""
_DOCUMENT_CONVERTERS = frozenset(
    {"pandoc", "jupytext", "quarto", "jupyter-nbconvert", "rst2pdf", "asciidoctor"}
)
"""Document and notebook converters whose `--output` is, as a generator's `-o`, only judged when literal:
not a Makefile's `pandoc --output $@ $<`, `quarto render $< --output $@`, `jupyter nbconvert --output $@`."""
_SHORT_OUTPUT_OPTIONS = ("-o", "-w")
_OUTPUT_PARAMETERS = frozenset(
    {
        "-outfile", "-outputpath", "-outputfile", "-outputdirectory", "-outputfolder", "-outputdir",
        "-outpath", "-destinationpath", "-exportpath", "-targetdir",
    }
)  # fmt: skip
r"""PowerShell's (and Windows tools') parameters naming the file or folder a command writes, whatever the
command (`Invoke-Pester -OutputFile F`, `New-ExternalHelp -OutputPath D`, `nuget pack -OutputDirectory D`).
Only a literal value is judged: build scripts name their output folders by variables everywhere
(`-OutputPath $ModuleOutDir\en-US`), and what a command unknown to the policy does with one is not known
either (the cmdlets known to write judge every value)."""


_SAVING_VERBS = ("export-", "save-")
_SAVED_PATHS = frozenset({"-path", "-filepath", "-literalpath"})
"""A cmdlet that exports or saves (`Export-Counter -Path F`, `Export-StartLayout -Path F`) writes its path."""


_WASM_PACK_VALUED = frozenset(
    {"-t", "--target", "-d", "--out-dir", "--out-name", "-s", "--scope", "-m", "--mode", "--log-level",
     "--profile", "--features", "--target-dir", "--pkg-dir"}
)  # fmt: skip


def _wasm_pack_targets(args: list[Arg]) -> list[Arg]:
    """wasm-pack's `--out-dir`/`-d`, which it reads from the crate's folder, its path operand (`wasm-pack
    build ./app --out-dir ../public/wasm` writes `./public/wasm`); cargo's options after `--` are not its."""
    crate: Arg | None = None
    out: Arg | None = None
    skip = False
    for i, a in enumerate(args):
        t = a.text
        if skip:
            skip = False
        elif t == "--":
            break
        elif t in ("-d", "--out-dir"):
            out = args[i + 1] if i + 1 < len(args) else None
            skip = True
        elif t.startswith("--out-dir="):
            out = Arg(t[10:], a.raw.partition("=")[2] or t[10:])
        elif t in _WASM_PACK_VALUED:
            skip = True
        elif t[:1] != "-" and i and crate is None:
            crate = a  # (the first word is the subcommand: `build`, `test`, `pack`)
    if out is None:
        return []
    if crate is None or out.text[:1] in ("/", "~", "\\") or ":" in out.text[:3]:
        return [out]
    return [Arg(f"{crate.text.rstrip('/')}/{out.text}", f"{crate.raw.rstrip('/')}/{out.raw}")]


def output_targets(name: str, args: list[Arg]) -> list[Arg]:
    """Files a program writes its result to, named by an output option (`sort -o F`, `--output=F`)."""
    if name == "wasm-pack":
        return _wasm_pack_targets(args)
    found: list[Arg] = []
    generator = name in _GENERATORS
    converter = name in _DOCUMENT_CONVERTERS or (
        name == "jupyter" and bool(args) and args[0].text == "nbconvert"
    )
    short = (
        generator or name in _OUTPUT_SHORT or (name == "git" and _git_subcommand(args) in _GIT_SHORT_OUTPUT)
    )
    for i, a in enumerate(args):
        t = a.text
        if t[:1] == "-" and len(t) > 4:
            key, colon, value = t.partition(":")
            key = key.lower()
            if key in _OUTPUT_PARAMETERS or (key in _SAVED_PATHS and name.startswith(_SAVING_VERBS)):
                named = Arg(value, a.raw.partition(":")[2] or value) if colon else None
                if named is None and i + 1 < len(args) and not args[i + 1].param:
                    named = args[i + 1]
                if named is not None and _judged_output(named):
                    found.append(named)  # (a run-time folder is the script's own: see `_OUTPUT_PARAMETERS`)
                continue
        # PowerShell reads `-o` as a parameter whatever the program: for the programs known to write with it
        # (`gcc -o F`, `winget export -o F`) it is still theirs.
        if t[:1] not in "-/" or (a.param and ":" not in t and not short):
            continue
        key, eq, value = t.partition("=")
        key = key.lower()
        if not eq and (t[:1] == "/" or t[:4].lower() == "-out"):
            key, eq, value = t.partition(":")  # `/out:FILE`, `-out:FILE` (csc, vbc)
            key = key.lower()
            if not eq and t[:1] == "/":
                continue  # a path, not a switch
        if key in _REPORT_OPTIONS:
            named = Arg(value, a.raw.partition("=")[2] or value) if eq else None
            if named is None and i + 1 < len(args):
                named = args[i + 1]
            if named is not None and key == "--cov-report":
                _kind, colon, path = named.text.partition(":")  # `xml:out/cov.xml`; `term-missing` names none
                named = Arg(path, named.raw.partition(":")[2] or path) if colon and path else None
            if named is not None and _judged_output(named):
                found.append(named)  # not a CI script's `-coverprofile="$COVER"` (see `_REPORT_OPTIONS`)
            continue
        if key in _OUTPUT_LONG or (
            short and key in _SHORT_OUTPUT_OPTIONS and (key != "-w" or name in _W_WRITES)
        ):
            if generator and key not in _OUTPUT_LONG and not eq and i + 1 < len(args):
                if _judged_output(args[i + 1]):
                    found.append(args[i + 1])  # `dot -o F`; not a Makefile's `-o $@` (see `_GENERATORS`)
                continue
            if converter and key in _OUTPUT_LONG:
                if eq:
                    named = Arg(value, a.raw.partition("=")[2] or value)
                elif i + 1 < len(args):
                    named = args[i + 1]
                else:
                    continue
                if _judged_output(named):
                    found.append(named)  # not a Makefile's `--output $@` (see `_DOCUMENT_CONVERTERS`)
                continue
            if eq:
                raw = a.raw
                if len(raw) > 1 and raw[0] in "'\"" and raw[-1] == raw[0]:
                    raw = raw[1:-1]  # PowerShell's native option quoted whole (`'--junitxml=C:\x.xml'`)
                found.append(Arg(value, raw.partition("=")[2] or value))
            elif i + 1 < len(args):
                found.append(args[i + 1])
        elif short and t[:2] == "-o" and len(t) > 2 and name in _GLUED_O:
            found.append(Arg(t[2:], a.raw[2:]))  # `gcc -oout x.c`
    return found


_GIT_SHORT_OUTPUT = frozenset({"archive", "format-patch"})
"""git commands whose `-o` names the file (`git archive -o x.tar`) or folder (`format-patch -o dir`) they
write; elsewhere in git `-o` is something else (`git grep -o`: only the matching part)."""


GIT_VALUE_OPTIONS = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"}
)
"""git's own options that take the next word as their value (`git -C dir`, `git -c key=value`)."""


def _git_subcommand(args: list[Arg]) -> str | None:
    """The first word of git's arguments that is no global option nor its value (`git -C x archive`)."""
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a.text in GIT_VALUE_OPTIONS:
            skip = True
        elif a.text[:1] != "-":
            return a.text
    return None


_W_WRITES = frozenset({"varnishncsa", "tcpdump", "tshark", "exiftool"})
_GLUED_O = frozenset({"gcc", "g++", "cc", "c++", "clang", "clang++", "gfortran", "tcc", "ld"})


def _operands(args: list[Arg], value_options: tuple[str, ...]) -> tuple[list[Arg], list[Arg]]:
    """(operands, values of --target-directory) of a POSIX command's arguments."""
    operands: list[Arg] = []
    targets: list[Arg] = []
    skip_next = False
    want_target = False
    ended = False
    for a in args:
        text = a.text
        if want_target:
            targets.append(a)
            want_target = False
            continue
        if skip_next:
            skip_next = False
            continue
        if ended or not text.startswith("-") or text == "-":
            operands.append(a)
            continue
        if text == "--":
            ended = True
        elif text in _TARGET_DIRECTORY:
            want_target = True
        elif text.startswith("--target-directory="):
            targets.append(Arg(text.split("=", 1)[1], a.raw.split("=", 1)[-1]))
        elif text in value_options:
            skip_next = True
    return operands, targets


def write_targets(name: str, args: list[Arg], dialect: str, through_links: bool = True) -> list[Arg]:
    """The words of `name ARGS` that name files or folders it writes, as far as the words tell;
    `through_links`: with where a link New-Item makes leads (what writes through the link reach), not only
    the link itself."""
    if name in DOTNET_WRITERS:
        if name in DOTNET_ARCHIVERS:
            return args[1:2]
        return _link_targets(args[:2], []) if name.endswith("::createsymboliclink") else args[:1]
    if name == "new-item" and through_links:
        return _powershell_targets(name, args) + _new_item_link_targets(args)
    if name in _PS_WRITERS:
        return _powershell_targets(name, args)
    if name in MAKERS:
        # What they build (`cargo build --out-dir ../x`, `dotnet publish -o /opt/x`) is a write too.
        return _OWN_TARGETS[name](args) + output_targets(name, args)
    if name in _OWN_TARGETS:
        return _OWN_TARGETS[name](args)
    if name in _WRITTEN_OPERANDS:
        return _written_operands(name, args)
    if name in _UNPACKERS:
        # `dpkg-deb -x x.deb DIR`, `dpkg-deb -b DIR OUT`, `pkgutil --expand-full x.pkg DIR`: the second
        # operand (`dpkg-deb -f x.deb Package` names a field, a word in the project); one known only at run
        # time is the script's own, as a converter's output is
        second = _operands(args, _UNPACKERS[name])[0][1:2]
        return [a for a in second if _judged_output(a)]
    if name in _SWITCH_TARGETS:
        return _switch_targets(_SWITCH_TARGETS[name], args)
    if name == "reg":
        # `reg export KEY FILE`, `reg save KEY FILE`: the file it writes (`reg import FILE` reads one)
        words = [a for a in args if a.text[:1] not in "/-"]
        return words[2:3] if words and words[0].text.lower() in ("export", "save") else []
    if name == "regedit":
        # `regedit /e FILE [KEY]` (`/a`: the same, in ANSI) exports; `regedit /s FILE` imports
        at = next((i for i, a in enumerate(args) if a.text.lower() in ("/e", "/a", "-e", "-a")), None)
        return args[at + 1 : at + 2] if at is not None else []
    if name == "makeappx":
        # `makeappx pack /d IN /p OUT.msix` writes the package; `unpack /p IN.msix /d OUT` fills the folder.
        verb = args[0].text.lower() if args else ""
        return _switch_targets("/d" if verb in ("unpack", "unbundle") else "/p", args[1:])
    if name == "compact":
        # `compact /c /s:C:\\x`, `compact /u C:\\x\\*`: compresses or expands files in place, the folder `/s:`
        # names and below; without `/c` or `/u` it only shows their state
        switches = [a.text.lower() for a in args if a.text[:1] == "/"]
        if "/c" not in switches and "/u" not in switches:
            return []
        folders = [Arg(a.text[3:], a.raw[3:]) for a in args if a.text[:3].lower() == "/s:" and a.text[3:]]
        return folders + [a for a in args if a.text[:1] != "/"]
    given = args
    if dialect != "posix" or name in _LINKS:
        # `xcopy src dst /E /I`, `/E/H/Y`: a Windows switch is no file.
        args = [
            a
            for a in args
            if not (_WINDOWS_SWITCH.match(a.text) and "/" not in a.text[1:] and "\\" not in a.text)
            and not _SWITCH_CLUSTER.fullmatch(a.text)
        ]
    operands, targets = _operands(args, _VALUE_OPTIONS.get(name, ()))
    if name in _LINKS:
        # (a junction's target is taken as written, as `mklink /j` takes it)
        return operands if name == "junction" else _link_targets(operands, given)
    if name == "dd":
        return [Arg(a.text[3:], a.raw[3:]) for a in args if a.text.startswith("of=")]
    if name == "attrib":
        # `attrib -h +s C:\\x`: the attributes set or cleared are no files
        return [a for a in operands if a.text[:1] not in "+-"]
    if name == "plutil":
        return _plutil_targets(args)
    if name == "plistbuddy":
        return _plistbuddy_targets(args)
    if name in ARCHIVERS:
        return _archive_targets(name, args)
    if name == "sed":
        if not any(_SED_IN_PLACE.match(a.text) for a in args if a.literal):
            return []
        scripted = any(a.text in ("-e", "--expression", "-f", "--file") for a in args)
        if operands and not operands[0].text and operands[0].literal and _after_in_place(args, operands[0]):
            operands = operands[1:]  # `sed -i '' …`: BSD's empty suffix (GNU's empty program edits nothing)
        return operands if scripted else operands[1:]
    if name == "ln" and dialect == "posix":
        return targets + _ln_targets(operands, targets, args)
    if name == "robocopy":
        # `robocopy SOURCE DESTINATION [FILE…]`: the files named after the folders are what it copies
        return operands[1:2]
    if name in ("ren", "rename"):
        # `ren C:\\x\\a.doc a.locked`: cmd renames the file where it is, its new name beside it; POSIX's
        # `rename 's/a/b/' FILES` renames every file it names (one known only at run time is the line's own
        # file, as a move's source is)
        return operands[:1] if dialect == "cmd" else [a for a in operands if not _run_time(a)]
    if name in _MOVERS and len(operands) > 1:
        # A move takes its sources away as it writes its destination: a source named outside the project is
        # written there too (one known only at run time is the line's own file, as a copy's source is).
        return targets + [a for a in operands[:-1] if not _run_time(a)] + operands[-1:]
    if name == "install" and any(
        a.text == "--directory" or (a.text[:2] != "--" and _INSTALL_DIRECTORY.match(a.text)) for a in args
    ):
        return operands  # `install -d DIR…`, `install -dm755 DIR…` makes each folder
    if name == "cp" and dialect == "posix" and _copies_as_links(args):
        # `cp -s /etc/hosts x`, `cp -al /srv/app copy`: links to the sources, so writes through them reach
        # the sources (one known only at run time is the line's own file, as a move's source is).
        sources = operands if targets else operands[:-1]
        return targets + [a for a in sources if not _run_time(a)] + (operands[-1:] if not targets else [])
    if name in _LAST:
        return targets + (operands[-1:] if len(operands) > 1 else [])
    if name in _CONVERTERS:
        last = operands[-1] if len(operands) > 1 else None
        return [last] if last is not None and _judged_output(last) else []
    if name in _AFTER_FIRST:
        if name == "setfacl" or any(a.text.startswith("--reference") for a in args):
            return operands
        if name == "chmod" and any(_DASH_MODE.fullmatch(a.text) for a in args):
            return operands  # `chmod -x /usr/bin/x`: the mode was the dash word, every operand is a file
        return operands[1:]
    return operands


_INSTALL_DIRECTORY = lazy_re(r"-[bcCDpsvTZ]*d")
"""install's `-d` (make folders), alone or bundled after flags that take no value (`-dm755`, `-vdm 0755`)."""


_SED_IN_PLACE = lazy_re(r"--in-place|-[nErsuzab]*[iI]")
"""sed's in-place option, alone or after the flags that take no value (`-i`, `-i.bak`, `-Ei`, `-nE -i`)."""


def _after_in_place(args: list[Arg], word: Arg) -> bool:
    """Does `word` come right after sed's separate `-i` (or `-I`)?"""
    at = next(i for i, a in enumerate(args) if a is word)
    return at > 0 and args[at - 1].text in ("-i", "-I") and args[at - 1].literal


_TAR_VALUED = frozenset("fCbTXLNKgVH")
"""tar's letters that take a value (`f` the archive, `C` the folder), in a bundle taken in order."""
_TAR_WRITES = frozenset("cruA")
_ZIP_VALUED = frozenset({"-b", "-n", "-t", "-tt", "-P", "-Z", "-s", "-O", "--out", "-x", "-i"})


WORKING_FOLDER = Arg(".", ".")
"""The folder an unpacker fills when none is named (`tar -xf x`, `unzip x.zip`, `7z x x.7z`): the working
directory, wherever an earlier `cd` took the line."""


def _archive_targets(name: str, args: list[Arg]) -> list[Arg]:
    """The archive a packer writes (`tar -czf F`, `zip F files`, `7z a F`), or the folder an unpacker fills
    (`tar -xf x -C DIR`, `unzip x -d DIR`, `7z x x -oDIR`; without one, the working directory)."""
    if name in ("zip", "unzip"):
        return _zip_targets(name, args)
    if name.startswith("7z"):
        words = [a for a in args if not a.text.startswith("-")]
        glued = [Arg(a.text[2:], a.raw[2:]) for a in args if a.text[:2] == "-o" and len(a.text) > 2]
        if words and words[0].text in ("a", "u", "d", "rn") and len(words) > 1:
            return [words[1], *glued]
        if words and words[0].text in ("x", "e") and not glued and not any(a.text == "-so" for a in args):
            return [WORKING_FOLDER]
        return glued
    archive: list[Arg] = []
    folder: list[Arg] = []
    values = {"f": archive, "C": folder}  # the values of the other valued letters are no target
    modes = ""
    pending: list[str] = []
    for i, a in enumerate(args):
        t = a.text
        if pending:
            values.get(pending.pop(0), []).append(a)
            continue
        if t.startswith("--"):
            key, eq, value = t.partition("=")
            if key in ("--file", "--directory"):
                target = archive if key == "--file" else folder
                if eq:
                    target.append(Arg(value, a.raw.partition("=")[2] or value))
                else:
                    pending.append("f" if key == "--file" else "C")
            elif key in ("--create", "--append", "--update", "--concatenate", "--catenate"):
                modes += "c"
            elif key in ("--extract", "--get"):
                modes += "x"
            elif key == "--absolute-names":
                modes += "P"
            elif key in ("--to-stdout", "--to-command"):
                modes += "O"
            continue
        bundle = t[1:] if t.startswith("-") else (t if i == 0 else "")
        for k, letter in enumerate(bundle):
            if letter in _TAR_VALUED:
                rest = bundle[k + 1 :]
                if t.startswith("-") and rest:  # `-fFILE`, `-CDIR`: the value is glued
                    values.get(letter, []).append(Arg(rest, a.raw[len(a.raw) - len(rest) :]))
                    break
                pending.append(letter)
            else:
                modes += letter
    # `-C DIR` is where an extraction writes, and where packing only reads from; `-P` (`--absolute-names`)
    # keeps the archive's `/` and `..` names, so an extraction writes wherever they lead.
    unpacked = folder if "x" in modes else []
    if "x" in modes and not folder and "O" not in modes:  # (`-O`: the files go to standard output)
        unpacked = [WORKING_FOLDER]
    if "x" in modes and "P" in modes:
        unpacked = [*unpacked, Arg("/", "/ (where the archive's absolute names lead, kept by P)")]
    return (archive if any(m in _TAR_WRITES for m in modes) else []) + unpacked


_UNZIP_CLUSTER = lazy_re(r"-[A-Za-z^:]+")
"""unzip's one-letter options written together (`-o:`, `-:o`); `-d` takes a folder (`-dC:\\out`)."""


def _zip_targets(name: str, args: list[Arg]) -> list[Arg]:
    found: list[Arg] = []
    operands: list[Arg] = []
    skip = False
    for i, a in enumerate(args):
        t = a.text
        if skip:
            skip = False
            continue
        if name == "unzip" and ":" in t and t[:2] != "-d" and _UNZIP_CLUSTER.fullmatch(t):
            # `-:` keeps the entries' `../` names, so they land outside the folder unpacked into
            found.append(Arg("..", "../ (where the archive's names lead, kept by -:)"))
        if name == "unzip" and t[:2] == "-d":
            if len(t) > 2:
                found.append(Arg(t[2:], a.raw[2:]))
            elif i + 1 < len(args):
                found.append(args[i + 1])
                skip = True
        elif name == "zip" and t in _ZIP_VALUED:
            if t in ("-O", "--out") and i + 1 < len(args):
                found.append(args[i + 1])
            if t in ("-x", "-i"):
                break  # a list of names to the end (or to the next option): no archive after it
            skip = True
        elif not t.startswith("-"):
            operands.append(a)
        elif name == "unzip" and not t.startswith("--") and _UNZIP_NO_FILES.intersection(t[1:]):
            return found  # it lists, tests or prints the entries: nothing is written
    if name == "zip" and operands:
        found.append(operands[0])
    if name == "unzip" and not found and operands:
        found.append(WORKING_FOLDER)
    return found


_UNZIP_NO_FILES = frozenset("lvtpcZz")
"""unzip's letters that list (`-l`, `-v`, `-Z`), test (`-t`), print (`-p`, `-c`) or show the note (`-z`)."""


_TREE_DELETERS = frozenset({"rm", "grm", "rimraf", "del-cli", "remove-item", "rd", "rmdir"})
_NODE_DELETERS = frozenset({"rimraf", "del-cli"})
"""Node's deleters: their words read alike in every shell."""
_REMOVE_ITEM_VALUES = (
    "path", "literalpath", "erroraction", "warningaction", "informationaction", "progressaction",
    "errorvariable", "warningvariable", "informationvariable", "outvariable", "outbuffer", "pipelinevariable",
)  # fmt: skip
_REMOVE_ITEM_SWITCHES = ("recurse", "force", "confirm", "verbose", "debug")
_REMOVE_ITEM_OTHERS = ("filter", "include", "exclude", "credential", "stream", "deletekey", "whatif")
"""Parameters that select what is deleted or only pretend to delete: the words no longer tell what goes."""
_COMMON_ALIASES = {
    "ea": "erroraction", "wa": "warningaction", "infa": "informationaction", "proga": "progressaction",
    "ev": "errorvariable", "wv": "warningvariable", "iv": "informationvariable", "ov": "outvariable",
    "ob": "outbuffer", "pv": "pipelinevariable", "vb": "verbose", "db": "debug", "cf": "confirm",
    "wi": "whatif",
}  # fmt: skip
_REMOVE_ITEM_PREFIXES = {
    **unique_prefix_table((*_REMOVE_ITEM_VALUES, *_REMOVE_ITEM_SWITCHES, *_REMOVE_ITEM_OTHERS)),
    **_COMMON_ALIASES,
}


_CMD_DELETES = frozenset({"del", "erase", "rd", "rmdir"})
_CMD_SWITCH = lazy_re(r"/(?:[sqfp]|a(?::?-?[rhsail])*)", re.IGNORECASE)
"""A switch of cmd's `del`/`rd`: `/s`, `/q`, `/f`, `/p`, `/a`, `/a:h`, `/a-r`."""
_CMD_SWITCHES = lazy_re(rf"(?:{_CMD_SWITCH.pattern})+", re.IGNORECASE)
"""One or more such switches, written together as cmd reads them apart too (`rd /s/q x`)."""


def cmd_delete_words(
    names: tuple[str, ...], args: list[Arg], dialect: str
) -> tuple[str, frozenset[str], list[Arg]] | None:
    """cmd's `del`/`erase`/`rd`/`rmdir` read as cmd reads them: (its name, its switches in lower case with
    `/a…` as `/a`, its operands); None for any other command or an unknown switch. A PowerShell line that
    writes cmd's switches (`rmdir /s /q dist`, `del /q build\\*.obj`) means cmd's command (in PowerShell,
    where these names are Remove-Item, the extra words fail before anything is deleted)."""
    name = names[0] if names else ""
    if name not in _CMD_DELETES or dialect == "posix":
        return None
    switches: set[str] = set()
    operands: list[Arg] = []
    for a in args:
        text = a.text
        if text[:1] != "/":
            operands.append(a)
        elif _CMD_SWITCHES.fullmatch(text):
            switches.update(m.group(0)[:2].lower() for m in _CMD_SWITCH.finditer(text))
        else:
            return None  # `/tmp`, `/x`: not a switch this reading knows
    if dialect == "powershell" and not switches:
        return None  # Remove-Item's own words
    return name, frozenset(switches), operands


def tree_delete_targets(names: tuple[str, ...], args: list[Arg], dialect: str) -> list[Arg] | None:
    """The files and folders a recursive delete (`rm -rf A B`, `rimraf A`, `Remove-Item A -Recurse`, cmd's
    `rd /s /q A` and `del /s /q build\\*.obj`, which deletes in `build`'s whole tree, `cmake -E
    remove_directory A`) removes, each named by a word; None when its words select more than they name
    (`-Include`, `-Filter`, `del /s *.o` anywhere, an option this reading does not know) or the program is no
    such delete."""
    cmd = cmd_delete_words(names, args, dialect)
    if cmd is not None:
        name, switches, operands = cmd
        if name in ("rd", "rmdir"):
            return operands if switches <= {"/s", "/q"} else None
        if not switches <= {"/s", "/q", "/f", "/a"}:
            return None  # `/p` asks before each file
        if "/s" not in switches:
            return operands
        folders = []
        for a in operands:
            folder, sep, _ = a.text.replace("\\", "/").rpartition("/")
            if not sep or not folder:
                return None  # `del /s *.o`: that name in every folder of the project
            folders.append(Arg(folder, a.raw))  # the files it names there and in every folder below
        return folders
    if "cmake" in names:
        # `cmake -E remove_directory build out`: each folder it is given (on any shell)
        if len(args) > 2 and args[0].text == "-E" and args[1].text == "remove_directory":
            return args[2:] if all(a.literal for a in args[2:]) else None
        return None
    if names[:1] == ("git",):
        return _git_clean_targets(args)
    if dialect == "powershell" and "remove-item" in names:
        return _remove_item_targets(args)  # (an alias, `ri`, `rd`, `rm`, is Remove-Item)
    name = next((n for n in names if n in _TREE_DELETERS), None)
    if name is None or name == "remove-item" or (dialect != "posix" and name not in _NODE_DELETERS):
        return None  # (a native rm on Windows takes POSIX words, left alone; rimraf reads alike anywhere)
    operands, _ = _operands(args, ())
    if name == "del-cli":
        # `del-cli 'lib/*.js' '!lib/index.js'`: a `!` pattern keeps what it names
        operands = [a for a in operands if not a.text.startswith("!")]
    return operands


_GIT_CLEAN_LETTERS = frozenset("dfxXq")
_GIT_PATHSPEC_SIGNS = frozenset("*?[:\\")


def _git_clean_targets(args: list[Arg]) -> list[Arg] | None:
    """The folders and files `git clean -xdf node_modules dist` deletes untracked (and ignored) files in: its
    pathspecs, when it names some and its options only say how hard to clean. None for a clean of the whole
    tree, an exclude (`-e`), an interactive clean, a pathspec with a glob (git's match folders at any depth,
    not as a shell's do) or magic (`:(exclude)`), or a word known only at run time."""
    if not args or args[0].text != "clean":
        return None
    found: list[Arg] = []
    ended = False
    for a in args[1:]:
        text = a.text
        if DYN in text:
            return None
        if not ended and text[:1] == "-" and text != "-":
            if text == "--":
                ended = True
            elif text not in ("--force", "--quiet") and (
                text[:2] == "--" or not _GIT_CLEAN_LETTERS.issuperset(text[1:])
            ):
                return None
            continue
        if not text or not _GIT_PATHSPEC_SIGNS.isdisjoint(text):
            return None
        found.append(a)
    return found or None


def _remove_item_targets(args: list[Arg]) -> list[Arg] | None:
    found: list[Arg] = []
    pending: str | None = None
    for a in args:
        if pending is not None:
            if pending in ("path", "literalpath"):
                found.append(a)
            pending = None
            continue
        if not (a.param or (a.text.startswith("-") and len(a.text) > 1 and a.literal)):
            found.append(a)
            continue
        key, colon, _ = a.text[1:].partition(":")
        key = key.lower()
        if key in ("rf", "fr") and not colon:
            continue  # POSIX's `rm -rf dist` typed in PowerShell: no parameter, so it deletes nothing at all
        full = _REMOVE_ITEM_PREFIXES.get(key)
        if full is None or full in _REMOVE_ITEM_OTHERS:
            return None  # `-Include`, `-Filter`, `-WhatIf`, an ambiguous prefix (`-f`: Filter or Force)
        if full in _REMOVE_ITEM_VALUES and not colon:
            pending = full
        elif full in ("path", "literalpath"):
            return None  # `-Path:x`: rare enough to leave to the rule
    return None if pending is not None else found


_LISTER_VALUES = ("path", "literalpath", "filter", "include", "exclude", "depth", "attributes")
_LISTER_SWITCHES = (
    "recurse", "force", "directory", "file", "hidden", "readonly", "system", "verbose", "debug",
)  # fmt: skip
_LISTER_OTHERS = ("name", "followsymlink", "credential", "stream")
"""Get-ChildItem's words that print something other than the items under its paths: bare names (which
Remove-Item resolves against the working directory), items reached through links, other sources."""
_LISTER_PREFIXES = {
    **unique_prefix_table((*_LISTER_VALUES, *_LISTER_SWITCHES, *_LISTER_OTHERS, *_REMOVE_ITEM_VALUES[2:])),
    **_COMMON_ALIASES,
    "s": "recurse", "ad": "directory", "af": "file", "ah": "hidden", "ar": "readonly", "as": "system",
    "lp": "literalpath", "pspath": "literalpath",
}  # fmt: skip


def _read_listing(args: list[Arg], exact: bool) -> tuple[list[Arg], list[str]] | None:
    """The paths a Get-ChildItem/Get-Item names and the name patterns it selects by (`-Filter`, `-Include`);
    None when, `exact`, a word prints anything else (`-Name`, `-FollowSymlink`, an ambiguous prefix) or a
    value is missing; without `exact` such words are passed over. A later element of an array (`bin, obj`,
    `-Include *.pyc, *.pyo`) goes where the element before it went, as in `_powershell_targets`."""
    paths: list[Arg] = []
    selecting: list[Arg] = []
    pending: str | None = None
    last: list[Arg] | None = None
    """Where the word before went: the next element of the same array goes there too."""
    for a in args:
        if a.follows and last is not None:
            last.append(a)
            continue
        last = None
        if pending is not None:
            if pending in ("path", "literalpath"):
                last = paths
            elif pending in ("filter", "include"):
                last = selecting
            else:
                last = []  # another parameter's value: neither a path nor a pattern
            last.append(a)
            pending = None
            continue
        if not (a.param or (a.text.startswith("-") and len(a.text) > 1 and a.literal)):
            last = paths
            paths.append(a)
            continue
        key, colon, _ = a.text[1:].partition(":")
        full = _LISTER_PREFIXES.get(key.lower())
        if (
            full is None
            or full in _LISTER_OTHERS
            or (colon and full in ("path", "literalpath", "filter", "include"))
        ):
            if exact:
                return None
            continue
        if not colon and full not in _LISTER_SWITCHES:
            pending = full
    if pending is not None and exact:
        return None
    return paths, [a.text.lower() for a in selecting]


PIPED_PATH_WRITERS = frozenset(
    {
        "remove-item", "move-item", "rename-item", "set-acl", "set-itemproperty", "new-itemproperty",
        "remove-itemproperty", "clear-itemproperty", "clear-content", "set-content", "add-content",
        "set-item", "clear-item",
    }
)  # fmt: skip
"""PowerShell cmdlets that change the items piped to them when they name none themselves (`gci C:\\Windows |
Set-Acl -AclObject $a`, `$old | Remove-Item`): their `-Path` binds from the pipeline."""


def names_own_path(args: list[Arg]) -> bool:
    """Does a `PIPED_PATH_WRITERS` cmdlet name the item it changes itself: a `-Path`, `-LiteralPath` (`-LP`,
    `-PSPath`), or a word in the first position, which is the path for all of them?"""
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        text = a.text
        if text[:1] != "-" or len(text) == 1 or DYN in text[:2]:
            return True
        name, colon, _ = text[1:].lower().partition(":")
        if name in ("lp", "pspath") or (name and "literalpath".startswith(name)):
            return True
        if len(name) > 1 and "path".startswith(name):  # `-p` alone could be `-PassThru`
            return True
        skip = not colon and name not in _PS_SWITCH_PREFIXES
    return False


def listed_trees(args: list[Arg]) -> list[Arg]:
    """The folders `Get-ChildItem A B …` (or `Get-Item`) prints items from, each named by a word, whatever
    else it is told: what a `| Remove-Item` after it deletes lies in them (none named: the working
    directory)."""
    read = _read_listing(args, False)
    return read[0] if read is not None else []


def lists_hidden_trees(args: list[Arg]) -> tuple[list[Arg], list[str]] | None:
    """(its paths, none for the working directory; its `-Filter`/`-Include` patterns) when `Get-ChildItem
    ARGS` recurses into hidden folders too (`-Recurse` with `-Force`, `-Hidden` or `-Attributes Hidden`):
    from the top of a project it lists the files of `.git`. None when it does not."""
    recurse = hidden = False
    attributes = False
    for a in args:
        if attributes:
            hidden = hidden or ("hidden" in a.text.lower() and "!hidden" not in a.text.lower())
            attributes = False
            continue
        if not (a.param or (a.text.startswith("-") and len(a.text) > 1 and a.literal)):
            continue
        key, colon, value = a.text[1:].partition(":")
        key = key.lower()
        full = _LISTER_PREFIXES.get(key)
        # (A prefix that could be either counts, as some PowerShell reads it: `-r`, `-fo`.)
        recurse = recurse or full in ("recurse", "depth") or (key != "" and "recurse".startswith(key))
        hidden = hidden or full in ("force", "hidden") or (len(key) > 1 and "force".startswith(key))
        if full == "attributes":
            if colon:
                hidden = hidden or ("hidden" in value.lower() and "!hidden" not in value.lower())
            else:
                attributes = True
    if not (recurse and hidden):
        return None
    read = _read_listing(args, False)
    return read if read is not None else ([], [])


def listed_selection(args: list[Arg]) -> tuple[list[Arg], list[str]] | None:
    """What `Get-ChildItem [PATH…] -Filter P` / `-Include P, Q` lists, read exactly: (its paths, none for the
    working directory; the name patterns it selects by), or None (see `_read_listing`)."""
    return _read_listing(args, True)


_PLUTIL_EDITS = frozenset({"-insert", "-replace", "-remove", "-append", "-convert", "-create"})
_PLUTIL_VALUES = (
    "-o", "-e", "-type", "-bool", "-integer", "-float", "-string", "-date", "-data", "-xml", "-json",
    "-dictionary", "-array",
)  # fmt: skip


def _plutil_targets(args: list[Arg]) -> list[Arg]:
    """`plutil -insert KEY … FILE…`, `-convert FORMAT FILE…`: the property lists after the key path or format,
    each edited in place (or rewritten beside itself with `-e EXT`), or the `-o` file written instead;
    printing, checking and extracting (`-p`, `-lint`, `-extract … -o -`) write nothing but the `-o` file."""
    output = [args[i + 1] for i, a in enumerate(args[:-1]) if a.text == "-o" and args[i + 1].text != "-"]
    if output or not any(a.text in _PLUTIL_EDITS for a in args):
        return output
    operands, _ = _operands(args, _PLUTIL_VALUES)
    return operands[1:]


_PLISTBUDDY_EDITS = frozenset({"set", "add", "delete", "clear", "merge", "import", "copy", "save"})


def _plistbuddy_targets(args: list[Arg]) -> list[Arg]:
    """`PlistBuddy -c "Set :Key value" FILE`: the property list, when a command given with `-c` changes it
    (or is filled in at run time); `-c Print` only reads."""
    commands = [args[i + 1].text for i, a in enumerate(args[:-1]) if a.text == "-c"]
    if not any(DYN in c or c.split()[0].lower() in _PLISTBUDDY_EDITS for c in commands if c.strip()):
        return []
    files = [a for i, a in enumerate(args) if a.text[:1] != "-" and not (i and args[i - 1].text == "-c")]
    return files[-1:]


def named_from_here(text: str) -> bool:
    """Is a path word named from the working directory: not from the root (`/`, `\\`), the home folder, a
    variable (`$X`, `%X%`) or a drive, and not only known at run time?"""
    return not (text[:1] in "/\\~$%" or _DRIVE.match(text) or DYN in text)


def _link_targets(operands: list[Arg], args: list[Arg]) -> list[Arg]:
    """`mklink [/d] LINK TARGET`: the link, and its target as a symbolic link resolves it (relative to the
    link's folder); a junction or hard link (`/j`, `/h`) takes the target as given."""
    if len(operands) != 2:
        return operands
    link, target = operands
    switches = {a.text.lower() for a in args if a.text[:1] == "/"}
    text = target.text.replace("\\", "/")
    folder = link.text.replace("\\", "/").rpartition("/")[0]
    if named_from_here(text) and folder and not switches & {"/j", "/h"}:
        target = Arg(f"{folder}/{text}", target.raw)
    return [link, target]


def _ln_targets(operands: list[Arg], into: list[Arg], args: list[Arg]) -> list[Arg]:
    """`ln [-s] TARGET… [LINK|FOLDER]` (or `-t FOLDER TARGET…`): the link, and each target, which the link
    opens to writes made through it (`ln -s /Library/LaunchDaemons x` makes `x/y.plist` a write there), so
    both must be inside the project, as `mklink`'s. A symbolic link's relative target counts from the link's
    folder."""
    if into or len(operands) < 2:
        links, sources = [], operands
        folder = into[0].text if into else ""
    else:
        links, sources = operands[-1:], operands[:-1]
        link = links[0].text
        folder = link if link[-1:] == "/" or link == "." or len(sources) > 1 else link.rpartition("/")[0]
    clusters = "".join(a.text for a in args if _SHORT_CLUSTER.fullmatch(a.text))
    words = {a.text for a in args}
    # `-r` (`--relative`) takes the target as named from here and writes it relative to the link
    from_link = ("s" in clusters or "--symbolic" in words) and not ("r" in clusters or "--relative" in words)
    out = list(links)
    for source in sources:
        text = source.text
        if from_link and folder and named_from_here(text):
            source = Arg(f"{folder.rstrip('/')}/{text}", source.raw)
        out.append(source)
    return out


def ln_links(args: list[Arg]) -> list[Arg] | None:
    """The link names `ln ARGS` makes (what `-f` replaces): the last operand (`ln -sf src/x.py x.py`), the
    source's name here (`ln -sf packaging/debian`) or in the `-t` folder. None when the words do not say
    (a folder given as the link, several sources, any run-time word)."""
    operands, into = _operands(args, _VALUE_OPTIONS.get("ln", ()))
    if any(not a.literal for a in [*operands, *into]) or len(into) > 1 or not operands:
        return None
    if into:
        folder = into[0].text.rstrip("/")
        return [Arg(f"{folder}/{last_part(a.text)}", a.raw) for a in operands]
    if len(operands) == 1:
        name = last_part(operands[0].text.rstrip("/"))
        return [Arg(name, name)] if name not in ("", ".", "..") else None
    if len(operands) > 2 or operands[-1].text[-1:] == "/" or operands[-1].text in (".", ".."):
        return None
    return operands[-1:]


_SHORT_CLUSTER = lazy_re(r"-[a-zA-Z]+")
"""One-letter options written together (`-s`, `-sf`, `-snr`)."""


def _switch_targets(switch: str, args: list[Arg]) -> list[Arg]:
    """The value of a Windows switch naming the output (`/D:FILE` or `/d FILE`)."""
    found: list[Arg] = []
    for i, a in enumerate(args):
        key, colon, value = a.text.partition(":")
        if key.lower() != switch:
            continue
        if colon:
            found.append(Arg(value, a.raw.partition(":")[2] or value))
        elif i + 1 < len(args):
            found.append(args[i + 1])
    return found


def _bind_powershell(
    args: list[Arg], prefixes: dict[str, str]
) -> tuple[dict[str, list[Arg]], list[list[Arg]]]:
    """How a cmdlet binds `args`: the values of the parameters `prefixes` resolves (by full name), and the
    positional operands in order. A later element of an array written as one argument (`x.txt,C:\\y.ini`,
    `-Path a, b`) binds where the element before it does; a switch (or a prefix only switches begin) takes no
    value; any other parameter's value is thrown away."""
    positional: list[list[Arg]] = []
    named: dict[str, list[Arg]] = {}
    pending: bool | None = None
    """After a parameter that takes a value: whether that value is one of `prefixes`'."""
    pending_name = ""
    last: list[Arg] | None = None
    """Where the word before went (a parameter's values, a positional slot, or a list that is thrown away):
    the next element of the same array goes there too."""
    for a in args:
        if a.follows and last is not None:
            last.append(a)
            continue
        last = None
        if pending is False and a.param and a.text[1:2].isalpha():
            pending = None  # `-Update -DestinationPath x`: a switch the table does not list, not a value
        if pending is not None:
            if pending:
                last = named.setdefault(pending_name, [])
                last.append(a)
            else:
                last = []  # another parameter's value (`-Encoding utf8`)
            pending = None
            continue
        if a.param or (a.text.startswith("-") and len(a.text) > 1 and a.literal):
            key, _, glued = a.text[1:].partition(":")
            key = key.lower()
            full = prefixes.get(key)
            if glued:
                last = named.setdefault(full, []) if full else []
                last.append(Arg(glued, glued))
            elif key in _PS_SWITCHES or (key in _PS_SWITCH_PREFIXES and full is None):
                continue
            else:
                pending = full is not None
                pending_name = full or ""
            continue
        last = [a]
        positional.append(last)
    return named, positional


def _powershell_targets(name: str, args: list[Arg]) -> list[Arg]:
    """The files a PowerShell writer names: its target parameters' values and its target position. A later
    element of an array written as one argument (`Set-Content x.txt,C:\\y.ini`, `-Path a, b`) binds where
    the element before it does, so every element of a target array is a target."""
    parameters, position = _PS_WRITERS[name]
    # the values by the parameter that gave them (`-Name` of New-Item is joined to its `-Path`)
    named, positional = _bind_powershell(args, _PS_WRITER_PREFIXES[name])
    slots = _PS_POSITIONS.get(name, ("path",) if position == 0 else ())
    given = {_PS_SAME_SLOT.get(p, p) for p in named}
    for slot, words in zip([s for s in slots if s not in given], positional, strict=False):
        named.setdefault(slot, []).extend(words)
    found = [a for parameter, values in named.items() if parameter in parameters for a in values]
    if name == "move-item":
        # `Move-Item SOURCE DEST`: the source is taken away, the destination written; a source known only at
        # run time is the line's own file, as a copy's source is.
        found = [a for a in found if not (_run_time(a) and a in named.get("path", ()))]
    if name == "expand-archive" and not named.get("destinationpath"):
        found.append(WORKING_FOLDER)  # (its default: the working directory)
    leaves = named.get("name")
    if name == "new-item" and leaves and all(leaf.literal and ":" not in leaf.text for leaf in leaves):
        folders: list[Arg | None] = list(named.get("path") or [None])
        return [_joined_name(folder, leaf) for folder in folders for leaf in leaves]
    return found  # a drive or a run-time word in the name: each word is judged where it may lead


_CONTENT_PREFIXES = _prefix_table(("path", "literalpath", "value"))


def written_value(args: list[Arg]) -> str | None:
    """The text `Set-Content F -Value TEXT` (or `Set-Content F TEXT`, `Add-Content -Path F TEXT`) writes,
    when literal: one word, or the lines of an array written as one argument (`-Value 'a', 'b'`). Bound as
    `_powershell_targets` binds the path: a positional word is the value once the path is bound."""
    named, positional = _bind_powershell(args, _CONTENT_PREFIXES)
    value = named.get("value")
    if value is None:
        unbound = positional if ("path" in named or "literalpath" in named) else positional[1:]
        value = unbound[0] if unbound else None
    if not value or any(DYN in a.text for a in value):
        return None
    return "\n".join(a.text for a in value) + "\n"


_NEW_ITEM_KINDS = ("directory", "container", "file", "symboliclink", "junction", "hardlink")
"""New-Item's file-system item types, in the order PowerShell tries a given type against them: the first
one the type begins (`-ItemType sym` is SymbolicLink, `d` Directory)."""


def _new_item_link_targets(args: list[Arg]) -> list[Arg]:
    """Where a link `New-Item -ItemType SymbolicLink|Junction|HardLink -Path LINK -Value TARGET` (`-Target`)
    makes leads: writes made through the link land there, so, as `mklink`'s target, it is written. A type
    known only at run time may be a link; a file's or folder's value is its content, no place."""
    kinds: list[Arg] = []
    values: list[Arg] = []
    into: tuple[list[Arg], ...] = ()
    """Where the next word goes: the value of the parameter before it (`-t` may be `-Type` or `-Target`)."""
    last: tuple[list[Arg], ...] = ()
    for a in args:
        if a.follows and last:
            for bound in last:
                bound.append(a)  # `-Value a,b`
            continue
        last = ()
        if into:
            for bound in into:
                bound.append(a)
            into, last = (), into
            continue
        if a.param or (a.text.startswith("-") and len(a.text) > 1 and a.literal):
            key, _, glued = a.text[1:].partition(":")
            key = key.lower()
            into = tuple(
                bound
                for bound, names in ((kinds, ("itemtype", "type")), (values, ("value", "target")))
                if any(name.startswith(key) for name in names)
            )
            if glued:
                for bound in into:
                    bound.append(Arg(glued, glued))
                into, last = (), into
    link = any(
        not kind.literal
        or next((k for k in _NEW_ITEM_KINDS if k.startswith(kind.text.lower())), "") in _NEW_ITEM_KINDS[3:]
        for kind in kinds
    )
    if not link:
        return []
    # A symbolic link's relative target counts from the link's folder, a junction's or hard link's from
    # here: both places are judged, whatever the type.
    joined = [
        _link_targets([path, value], [])[1]
        for path in _powershell_targets("new-item", args)
        for value in values
    ]
    return values + [t for t in joined if t not in values]


def _written_operands(name: str, args: list[Arg]) -> list[Arg]:
    """What a `_WRITTEN_OPERANDS` program writes."""
    return _option_writes(args, *_WRITTEN_OPERANDS[name])


def _option_writes(args: list[Arg], at: slice, writing: frozenset[str], valued: frozenset[str]) -> list[Arg]:
    """The values of the options in `writing` (`patch -d DIR`, also `--directory=DIR` and `-dDIR`) and the
    operands at `at`, skipping the values of those in `valued`. A long option matches in any case (`nuget
    -OutputDirectory`, tsc's `--declarationDir`): the tables list them in lower case."""
    operands: list[Arg] = []
    found: list[Arg] = []
    take: bool | None = None
    """After an option that takes a value: whether that value is written."""
    ended = False
    for a in args:
        text = a.text
        if take is not None:
            if take:
                found.append(a)
            take = None
        elif ended or text[:1] != "-" or text == "-":
            operands.append(a)
        elif text == "--":
            ended = True
        else:
            key, eq, value = text.partition("=")
            if len(key) > 2:
                key = key.lower()
            if key in writing:
                if eq:
                    found.append(Arg(value, a.raw.partition("=")[2] or value))
                else:
                    take = True
            elif key in valued:
                take = None if eq else False
            elif text[1:2] != "-" and text[:2] in writing:
                found.append(Arg(text[2:], a.raw[2:]))  # `-d/etc`
    return found + operands[at]


def _edited_in_place(args: list[Arg]) -> list[Arg]:
    """The files `perl -i` or `ruby -i` rewrites: the operands after the program (given by `-e`, or else
    the first operand, the script). Only the interpreter's own options count: they end at the first
    operand (`perl texcount.pl -inc x.tex` gives `-inc` to the script)."""
    files: list[Arg] = []
    in_place = coded = skip = ended = False
    for a in args:
        text = a.text
        if skip:
            skip = False
        elif ended or files or text[:1] != "-" or text == "-":
            files.append(a)
        elif text == "--":
            ended = True
        elif _IN_PLACE_FLAG.match(text) and a.literal:
            in_place = True
        elif _CODE_FLAG.fullmatch(text):
            coded = skip = True
    if not in_place:
        return []
    return files if coded else files[1:]


def _rewritten(
    switches: tuple[str, ...] = (),
    *,
    always: bool = False,
    spared: tuple[str, ...] = (),
    last: bool = False,
    valued: tuple[str, ...] = (),
    after: int = 0,
    first: bool = False,
) -> Callable[[list[Arg]], list[Arg]]:
    """The files a formatter or converter rewrites in place: its operands (`last`: only the last, after
    the edits it is given; `first`: only the first; `after`: those after the first `after`, the pattern
    and its replacement of `sd FIND REPLACE FILE…`), once one of `switches` asks for the rewrite (`yq -i`,
    `codespell -w`) or `always`, unless one of `spared` only checks or prints (`terraform fmt -check`).
    `valued`: options whose value is the next word, not an operand (`uncrustify -c CFG`)."""

    def targets(args: list[Arg]) -> list[Arg]:
        texts = [a.text for a in args]
        asked = always or any(t in switches or t.split("=", 1)[0] in switches for t in texts)
        if not asked or any(t in spared or t.split("=", 1)[0] in spared for t in texts):
            return []
        operands = []
        skip = False
        for a in args:
            if skip:
                skip = False
            elif a.text[:1] == "-":
                skip = a.text in valued
            else:
                operands.append(a)
        operands = operands[after:]
        return operands[-1:] if last else operands[:1] if first else operands

    return targets


_COMPRESS_READ_ONLY = frozenset({"--stdout", "--to-stdout", "--test", "--list", "--help", "--version"})
_COMPRESS_VALUED = frozenset(
    {"-S", "--suffix", "-T", "--threads", "-F", "--format", "-D", "-b", "-p", "--processes"}
)


def _compressed(args: list[Arg]) -> list[Arg]:
    """A compressor (or its undoing, `gzip -d`) replaces each file it is given with one beside it (`gzip
    ../x.log` leaves `../x.log.gz`; `zstd`, `lz4` and `brotli` keep the original unless `--rm`), and
    writes to standard output instead with `-c`, alone or among other letters (`-dc`); `-t` and `-l` only
    read."""
    operands = []
    skip = False
    for a in args:
        t = a.text
        if skip:
            skip = False
        elif t in _COMPRESS_READ_ONLY or (t[:1] == "-" and t[1:2] != "-" and any(c in t for c in "ctlhV")):
            return []
        elif t[:1] == "-":
            skip = t in _COMPRESS_VALUED
        else:
            operands.append(a)
    return operands


def _converted(args: list[Arg]) -> list[Arg]:
    """`dos2unix FILE…` rewrites each file; with `-n IN OUT…` it writes each OUT; `-i` only reports."""
    texts = [a.text for a in args]
    if "-i" in texts or "--info" in texts or any(t.startswith("--info=") for t in texts):
        return []
    operands = [a for a in args if a.text[:1] != "-"]
    return operands[1::2] if "-n" in texts or "--newfile" in texts else operands


_EXIF_WRITES = lazy_re(r"-[\w:*#?-]+[-+^]?(?:=|<)", re.DOTALL)
"""An exiftool tag set, shifted, deleted or copied in (`-All=`, `-Comment=x`, `-AllDates+=1:0:0`,
`'-FileName<CreateDate'`)."""
_EXIF_OPTIONS = frozenset(
    {"-tagsfromfile", "-geotag", "-delete_original", "-delete_original!", "-restore_original"}
)
_EXIF_VALUED = frozenset(
    {"-ext", "-extension", "-d", "-dateformat", "-if", "-p", "-printformat", "-w", "-textout", "-charset",
     "-api", "-config", "-x", "-exclude", "-tagsfromfile", "-srcfile", "-fileorder", "-lang", "-sep",
     "-separator", "-c", "-coordformat", "-geotag", "-userparam", "-globaltimeshift", "-i", "-ignore", "-o",
     "-out", "-@"}
)  # fmt: skip


def _exiftool_targets(args: list[Arg]) -> list[Arg]:
    """exiftool rewrites the files and folders it is given when it sets, shifts, deletes or copies in a tag
    (`exiftool -All= x.jpg`, `-overwrite_original`, `-TagsFromFile @`, `'-FileName<CreateDate' DIR`), or
    writes the file `-o OUT` names instead; reading tags (`exiftool x.jpg`, `-json`) writes nothing."""
    writes = False
    operands: list[Arg] = []
    out: list[Arg] = []
    skip = False
    for i, a in enumerate(args):
        t = a.text
        if skip:
            skip = False
            continue
        if t[:1] == "-" and len(t) > 1:
            low = t.lower()
            if low in ("-o", "-out"):
                out.extend(args[i + 1 : i + 2])
            if low in _EXIF_OPTIONS or low.startswith("-overwrite_original") or _EXIF_WRITES.match(t):
                writes = True
            skip = low in _EXIF_VALUED
        else:
            operands.append(a)
    if out:
        return out
    return operands if writes else []


def _yq_targets(args: list[Arg]) -> list[Arg]:
    """`yq [eval] -i EXPRESSION FILE…`: the files after the expression, when `-i` rewrites them."""
    if not any(a.text in ("-i", "--inplace") or a.text.startswith("--inplace=") for a in args):
        return []
    operands = [a for a in args if a.text[:1] != "-"]
    if operands and operands[0].text in ("e", "eval", "ea", "eval-all"):
        operands = operands[1:]
    return operands[1:] if len(operands) > 1 else operands


_IN_PLACE: dict[str, Callable[[list[Arg]], list[Arg]]] = {
    "dos2unix": _converted,
    "unix2dos": _converted,
    "mac2unix": _converted,
    "unix2mac": _converted,
    "yq": _yq_targets,
    "exiftool": _exiftool_targets,
    # Image and metadata optimisers that rewrite (pngquant and mat2: write beside) the files they are given.
    "optipng": _rewritten(always=True, spared=("-simulate",), valued=("-out", "-dir", "-log", "-i", "-f")),
    "jpegoptim": _rewritten(
        always=True,
        spared=("-n", "--noaction", "--stdout"),
        valued=("-d", "--dest", "-m", "--max", "-S", "--size", "-T", "--threshold"),
    ),
    "pngquant": _rewritten(
        always=True, valued=("-o", "--output", "--ext", "-s", "--speed", "--quality", "--map")
    ),
    "mat2": _rewritten(always=True, spared=("-s", "--show", "-l", "--list", "--check-dependencies")),
    "svgo": _rewritten(always=True, spared=("-o", "--output", "-s", "--string", "--show-plugins")),
    "xmlstarlet": _rewritten(("-L", "--inplace"), last=True),
    "codespell": _rewritten(("-w", "--write-changes")),
    "markdownlint": _rewritten(("--fix",)),
    "markdownlint-cli2": _rewritten(("--fix",)),
    "nixfmt": _rewritten(always=True, spared=("-c", "--check")),
    "taplo": _rewritten(("fmt", "format"), spared=("--check",)),
    "zig": _rewritten(("fmt",), spared=("--check",)),
    "mix": _rewritten(("format",), spared=("--check-formatted", "--dry-run")),
    "terraform": _rewritten(("fmt",), spared=("-check", "--check", "-write=false")),
    "tofu": _rewritten(("fmt",), spared=("-check", "--check", "-write=false")),
    "buf": _rewritten(("-w", "--write")),
    # Code formatters that rewrite the files they are given once told to (black, `ruff format`: always).
    "clang-format": _rewritten(("-i",), valued=("--assume-filename", "--files")),
    "shfmt": _rewritten(("-w", "--write"), valued=("-i", "--indent", "-ln", "--language-dialect")),
    "gofmt": _rewritten(("-w",), valued=("-r",)),
    "cmake-format": _rewritten(
        ("-i", "--in-place"), valued=("-c", "--config-file", "--config-files", "-o", "--outfile-path")
    ),
    "stylelint": _rewritten(
        ("--fix",),
        valued=(
            "-c",
            "--config",
            "--config-basedir",
            "-i",
            "--ignore-path",
            "--ip",
            "--ignore-pattern",
            "--custom-syntax",
            "--cache-location",
            "-f",
            "--formatter",
            "-o",
            "--output-file",
        ),
    ),
    "black": _rewritten(
        always=True,
        spared=("--check", "--diff", "-c", "--code", "-h", "--help", "--version"),
        valued=(
            "-l",
            "--line-length",
            "-t",
            "--target-version",
            "--config",
            "--include",
            "--exclude",
            "--extend-exclude",
            "--force-exclude",
            "--required-version",
            "-W",
            "--workers",
            "--stdin-filename",
        ),
    ),
    "ruff": _rewritten(
        ("format", "--fix"),
        spared=("--check", "--diff", "--no-fix", "-h", "--help"),
        valued=(
            "--config",
            "--select",
            "--ignore",
            "--extend-select",
            "--line-length",
            "--target-version",
            "--output-format",
            "--exclude",
            "--extend-exclude",
            "--cache-dir",
            "-o",
            "--output-file",
            "--stdin-filename",
            "--fixable",
            "--unfixable",
            "--per-file-ignores",
        ),
    ),
    **dict.fromkeys(
        (
            "gzip",
            "gunzip",
            "bzip2",
            "bunzip2",
            "xz",
            "unxz",
            "lzma",
            "unlzma",
            "lzip",
            "pigz",
            "unpigz",
            "pbzip2",
            "compress",
            "uncompress",
            "zstd",
            "unzstd",
            "lz4",
            "unlz4",
            "brotli",
            "lzop",
        ),
        _compressed,
    ),
    # Search-and-replace tools that edit the files they are given (after the pattern and its replacement).
    "sd": _rewritten(always=True, spared=("-p", "--preview"), valued=("-f", "--flags", "-n"), after=2),
    "rpl": _rewritten(always=True, valued=("-x", "--encoding"), after=2),
    "fastmod": _rewritten(
        ("--accept-all",), valued=("-e", "--extensions", "-g", "--glob", "--iglob"), after=2
    ),
    "ruplacer": _rewritten(("--go",), valued=("-t", "--type", "-T", "--type-not", "-g", "--glob"), after=2),
    "comby": _rewritten(
        ("-in-place", "-i"), valued=("-matcher", "-m", "-f", "-file-paths", "-rule"), after=2
    ),
    "typos": _rewritten(
        ("-w", "--write-changes"), valued=("--config", "-c", "--exclude", "--type", "--format")
    ),
    "tidy": _rewritten(("-m", "-modify", "--modify"), valued=("-config", "-o", "-output", "-f", "-file")),
    "uncrustify": _rewritten(
        ("--replace", "--no-backup"),
        valued=("-c", "-l", "-f", "-o", "-F", "--prefix", "--suffix", "--set", "-p"),
    ),
    "ambr": _rewritten(always=True, valued=("--key", "--regex"), after=2),
    "reuse": _rewritten(
        ("annotate", "addheader"),
        valued=("--license", "-l", "--copyright", "-c", "--year", "-y", "--style", "-s", "--template", "-t"),
        after=1,
    ),
    "msgmerge": _rewritten(("-U", "--update"), valued=("-D", "-C", "--compendium", "-o"), first=True),
}
"""Formatters and converters that rewrite the files they are given (`dos2unix ../x.txt`, `yq -i … ../x.yaml`):
a file outside the project is written as `sed -i` writes it."""
REWRITERS = frozenset(
    {*_IN_PLACE, "update-modulemanifest", "update-scriptfileinfo", "set-authenticodesignature"}
)
"""Programs whose rewrite keeps a file's content in another form (formatters, converters, PowerShell's
manifest and signature updates): a file named at run time is judged by its literal folder, as an archive's
is."""


def _container_targets(args: list[Arg]) -> list[Arg]:
    """`docker save -o F`, `docker export -o F`, and `docker cp CONTAINER:SRC DEST`: a destination on this
    machine (not `CONTAINER:PATH`; a one-letter name before the colon is a drive) is written."""
    operands = [a for a in args if a.text[:1] != "-"]
    verbs = [a.text for a in operands[:2]]
    if verbs[:1] in (["image"], ["container"]):
        verbs = verbs[1:]
    # (only these write with `-o`: a command run inside, `docker exec c gcc -o x`, writes in the container)
    found = output_targets("docker", args) if verbs[:1] in (["save"], ["export"]) else []
    if len(operands) < 3 or operands[0].text != "cp":
        return found
    destination = operands[-1]
    container, colon, _ = destination.text.partition(":")
    inside = colon and len(container) > 1 and "/" not in container and "\\" not in container
    return found if inside or destination.text == "-" else [*found, destination]


def _python_archive_targets(args: list[Arg]) -> list[Arg]:
    """`python -m zipfile -e ZIP DIR` (and `tarfile`) unpacks into DIR; `-c OUT FILE…` writes OUT."""
    for i, a in enumerate(args):
        if a.text in ("-e", "--extract"):
            return args[i + 2 : i + 3]
        if a.text in ("-c", "--create"):
            return args[i + 1 : i + 2]
    return []


def _ffmpeg_targets(args: list[Arg]) -> list[Arg]:
    """`ffmpeg -i IN … OUT`: the last word, unless it is an input or an option."""
    if not args or args[-1].text[:1] == "-" or (len(args) > 1 and args[-2].text == "-i"):
        return []
    return args[-1:]


_SSH_KEYGEN_READING = frozenset({"-l", "-y", "-F", "-e", "-D", "-L", "-Q", "-B", "-E", "-H", "-G", "-T"})
"""ssh-keygen's options that only read the key `-f` names (a fingerprint, the public half, a lookup)."""


def _ssh_keygen_targets(args: list[Arg]) -> list[Arg]:
    """`ssh-keygen -f FILE`: the key it makes (FILE and FILE.pub) or changes (`-p`, `-R`)."""
    if any(a.text in _SSH_KEYGEN_READING for a in args):
        return []
    return [args[i + 1] for i, a in enumerate(args[:-1]) if a.text == "-f"]


_CODESIGN_VALUED = (
    "-s", "--sign", "-i", "--identifier", "-r", "--requirements", "--entitlements", "--options", "-o",
    "--keychain", "--prefix", "--timestamp",
)  # fmt: skip


def _codesign_targets(args: list[Arg]) -> list[Arg]:
    """`codesign -s ID FILE…` and `--remove-signature FILE…` rewrite each file (`--verify`, `--display`
    only read)."""
    if not any(a.text in ("-s", "--sign", "--remove-signature") for a in args):
        return []
    return _operands(args, _CODESIGN_VALUED)[0]


def _cpio_targets(args: list[Arg]) -> list[Arg]:
    """`cpio -pdm DIR`: copies the files listed on its input into DIR; `-i` unpacks into the working
    directory, or into the folder `-D DIR` (`--directory=DIR`) names (`cpio -idv -D / < x.cpio`); `-o`
    writes its output."""
    found: list[Arg] = []
    for i, a in enumerate(args):
        t = a.text
        if t.startswith("--directory="):
            found.append(Arg(t.partition("=")[2], a.raw.partition("=")[2]))
        elif t == "--directory" or (_SHORT_CLUSTER.fullmatch(t) and t.endswith("D")):
            found.extend(args[i + 1 : i + 2])
        elif t[:1] == "-" and t[1:2] != "-" and "D" in t and _SHORT_CLUSTER.fullmatch(t[: t.index("D") + 1]):
            found.append(Arg(t[t.index("D") + 1 :], a.raw[a.raw.index("D") + 1 :] if "D" in a.raw else a.raw))
    if any(_SHORT_CLUSTER.fullmatch(a.text) and "p" in a.text for a in args):
        found.extend(_operands(args, ("-D", "--directory"))[0][-1:])
    return found


_SQLITE_VALUED = (
    "-separator", "-nullvalue", "-newline", "-mmap", "-vfs", "-lookaside", "-pagecache", "-heap", "-maxsize",
    "-cmd", "-init", "-c", "-s",
)  # fmt: skip
_SQL_CHANGES = lazy_re(
    r"(?i)\b(?:insert|update|delete|drop|create|alter|replace|vacuum|reindex|truncate|attach)\b"
    r"|(?:^|;)\s*\.(?:import|restore|recover|load)\b"
)
"""SQL (or a sqlite shell's dot-command) that writes the database it runs on."""


def _sqlite_targets(args: list[Arg]) -> list[Arg]:
    """`sqlite3 DB 'UPDATE …'`, `duckdb DB -c 'DROP …'`: the database file, when the statements given on the
    line change it (`sqlite3 ~/Library/…/desktoppicture.db "UPDATE data …"`); one only read (`SELECT`, a
    `-readonly` open) or fed its statements on stdin is not named."""
    if any(a.text.lstrip("-") == "readonly" for a in args):
        return []
    operands: list[Arg] = []
    statements: list[str] = []
    taking = ""
    for a in args:
        if taking:
            if taking in ("-cmd", "-c", "-s"):
                statements.append(a.text)
            taking = ""
        elif a.text[:1] == "-" and len(a.text) > 1:
            option = "-" + a.text.lstrip("-")
            if option in _SQLITE_VALUED:
                taking = option
        else:
            operands.append(a)
    statements += [a.text for a in operands[1:]]
    if operands and any(_SQL_CHANGES.search(text) for text in statements):
        return operands[:1]
    return []


def _fsutil_targets(args: list[Arg]) -> list[Arg]:
    """`fsutil hardlink create NEW EXISTING` (writes through NEW reach EXISTING) and `fsutil file createnew
    FILE SIZE`: the files each makes or opens to writes; fsutil's other commands are the policy's rules."""
    verb = " ".join(a.text.lower() for a in args[:2])
    if verb == "hardlink create":
        return args[2:4]
    if verb == "file createnew":
        return args[2:3]
    return []


def _made_folder(forms: str, options: str = "", outputs: str = "") -> Callable[[list[Arg]], list[Arg]]:
    """The folder a project or environment maker creates, its first operand after the words of one of
    `forms`, split by "|" ("" for none: `venv DIR`; "new|init": `cargo new DIR`; "new site": `hugo new site
    DIR`); `options`: those taking a value (an interpreter, a name, a template), whose word is no folder;
    `outputs`: those naming where it builds (`hugo -d DIR`, `cargo build --target-dir DIR`), in any of its
    commands."""
    verbs = [tuple(form.split()) for form in forms.split("|")]
    valued = tuple(options.split())
    built = _written_by(outputs) if outputs else None

    def targets(args: list[Arg]) -> list[Arg]:
        found = built(args) if built is not None else []
        for verb in verbs:
            if tuple(a.text.lower() for a in args[: len(verb)]) == verb:
                operands, _ = _operands(args[len(verb) :], valued)
                return operands[:1] + found
        return found

    return targets


def _written_by(outputs: str, at: slice = slice(0, 0), options: str = "") -> Callable[[list[Arg]], list[Arg]]:
    """What a program writes, named by the options `outputs` (`javac -d DIR`, also `-dDIR` and `--x=DIR`) and
    its operands at `at`, those of `options` taking a value."""
    spec = (at, frozenset(outputs.split()), frozenset(options.split()))
    return lambda args: _option_writes(args, *spec)


_PROTOC_OUTPUT = lazy_re(r"--[\w-]+_out(?:=|$)")
"""protoc's output options, one per generator (`--python_out=DIR`, `--grpc-gateway_out=PARAMS:DIR`,
`--descriptor_set_out=FILE`)."""


def _protoc_targets(args: list[Arg]) -> list[Arg]:
    """Where protoc writes: each `--LANG_out` value's folder, after the generator's parameters and a colon
    (`--go_out=paths=source_relative:gen`); a drive letter's colon is part of the folder (`C:\\gen`)."""
    found: list[Arg] = []
    for i, a in enumerate(args):
        match = _PROTOC_OUTPUT.match(a.text)
        if match is None:
            continue
        if a.text[match.end() - 1] == "=":
            text, raw = a.text[match.end() :], a.raw.partition("=")[2].strip("'\"")
        elif i + 1 < len(args):
            text, raw = args[i + 1].text, args[i + 1].raw
        else:
            continue
        found.append(Arg(_after_parameters(text), _after_parameters(raw)))
    return found


def _after_parameters(value: str) -> str:
    """`PARAMS:DIR` -> DIR, keeping a drive letter (`PARAMS:C:\\x` -> `C:\\x`, `C:\\x` as it is)."""
    colon = value.rfind(":")
    if colon > 0 and value[colon - 1].isalpha() and (colon == 1 or value[colon - 2] == ":"):
        colon = value.rfind(":", 0, colon - 1)  # the drive's colon: the parameters end before it
    return value[colon + 1 :]


def _output_only(args: list[Arg]) -> list[Arg]:
    """A maker whose folder is named by its output option (`dotnet new console -o DIR`): no operand."""
    return []


def _django_targets(args: list[Arg]) -> list[Arg]:
    """`django-admin startproject NAME [DIR]`: DIR when given, else the folder NAME made where it runs."""
    if not args or args[0].text.lower() not in ("startproject", "startapp"):
        return []
    operands, _ = _operands(args[1:], ("--template", "-e", "--extension", "-n", "--name", "--exclude", "-x"))
    return operands[1:2] or operands[:1]


_MESON_COMMANDS = frozenset(
    {"configure", "dist", "install", "introspect", "init", "test", "wrap", "subprojects", "rewrite",
     "compile", "devenv", "env2mfile", "format", "fmt", "help", "reprotest"}
)  # fmt: skip
"""meson's commands other than `setup`, which its bare form (`meson BUILDDIR`) also is."""
_MESON_OPTIONS = (
    "--prefix", "--bindir", "--datadir", "--includedir", "--infodir", "--libdir", "--libexecdir",
    "--localedir", "--localstatedir", "--mandir", "--sbindir", "--sharedstatedir", "--sysconfdir",
    "--backend", "--buildtype", "--cross-file", "--native-file", "--default-library", "--wrap-mode",
    "--layout", "--optimization", "--warnlevel", "--unity", "--pkg-config-path", "--cmake-prefix-path",
    "--force-fallback-for", "-D",
)  # fmt: skip
"""`meson setup`'s options that take the next word as their value (`--backend vs`, `-D opt=value`)."""


def _meson_targets(args: list[Arg]) -> list[Arg]:
    """`meson setup BUILDDIR` (also the older `meson BUILDDIR`): the build folder it makes; meson's other
    commands work in one that is there. Given one folder, meson reads it as the source when it holds a
    `meson.build`: a parent only (`..`) is taken so, the usual spelling run in the build folder."""
    if args and args[0].text.lower() == "setup":
        args = args[1:]
    elif args and args[0].text.lower() in _MESON_COMMANDS:
        return []
    operands, _ = _operands(args, _MESON_OPTIONS)
    if len(operands) == 1 and not operands[0].text.replace("\\", "/").replace("..", "").strip("/"):
        return []  # `cd build && meson ..`: one folder holding meson.build is the source, built where it runs
    return operands[:1]


def _cmake_targets(args: list[Arg]) -> list[Arg]:
    """`cmake -B BUILD` (the build folder it makes, also glued: `-Bbuild`) and `cmake --install BUILD
    --prefix DIR` (where it installs)."""
    found: list[Arg] = []
    installs = any(a.text == "--install" for a in args)
    for i, a in enumerate(args):
        text = a.text
        if text == "-B" or (installs and text == "--prefix"):
            found += args[i + 1 : i + 2]
        elif text[:2] == "-B" and len(text) > 2:
            found.append(Arg(text[2:], a.raw[2:]))
        elif installs and text.startswith("--prefix="):
            found.append(Arg(text.partition("=")[2], a.raw.partition("=")[2] or text.partition("=")[2]))
    return found


_ENVIRONMENT_MAKERS: dict[str, Callable[[list[Arg]], list[Arg]]] = {
    "venv": _made_folder("", "--prompt"),
    "virtualenv": _made_folder(
        "", "-p --python --prompt --activators --seeder --app-data --creator --discovery --extra-search-dir"
    ),
    "uv": _made_folder(
        "venv|init", "-p --python --prompt --name --vcs --build-backend --author-from -i --index", "-o"
    ),
    "cargo": _made_folder(
        "new|init",
        "--name --vcs --edition --registry --color --config -Z",
        "--target-dir --artifact-dir --root",
    ),
    "poetry": _made_folder("new", "--name --readme --description --author --python --license", "-o"),
    "rails": _made_folder("new", "-d --database -j --javascript -c --css -m --template -r --ruby -a -b"),
    "hugo": _made_folder("new site", "-f --format --config", "-d --destination --cachedir"),
    "mix": _made_folder("new", "--app --module"),
    "jekyll": _made_folder("new", outputs="-d --destination"),
    "mkdocs": _made_folder("new", outputs="-d --site-dir"),
    "mdbook": _made_folder("init", "--title --ignore", "-d --dest-dir"),
    "zola": _made_folder("init", outputs="-o --output-dir"),
    "sphinx-quickstart": _made_folder(
        "", "-p --project -a --author -v -r --release -l --language --suffix --master --dot --extensions -d"
    ),
    "dotnet": _output_only,
    "django-admin": _django_targets,
    "meson": _meson_targets,
    "cmake": _cmake_targets,
}
"""A virtual environment, a new package or site, or a build folder made in a folder (`python -m venv
../venv`, `cargo new /opt/x`, `hugo new site ../site`, `cmake -B /tmp/build`); with what their output
options name (`dotnet publish -o DIR`, `hugo -d DIR`), the folders these programs write."""
_CREATEREPO_VALUED = (
    "-u --baseurl -g --groupfile -x --excludes -i --pkglist -n --includepkg -s --checksum --distro --content"
    " --repo --revision --workers --changelog-limit --compress-type --general-compress-type --retain-old-md"
    " --update-md-path --read-pkgs-list --num-deltas --oldpackagedirs --max-delta-rpm-size --location-prefix"
    " --zck-dict-dir"
)
"""createrepo's options that take the next word as their value (not the folder it indexes)."""
_BUILT: dict[str, Callable[[list[Arg]], list[Arg]]] = {
    "javac": _written_by("-d -s -h"),  # classes, generated sources, native headers
    "javadoc": _written_by("-d"),
    "kotlinc": _written_by("-d"),
    "scalac": _written_by("-d"),
    "groovyc": _written_by("-d"),
    "sphinx-build": _written_by(
        "-d --doctree-dir -w --warning-file",
        slice(1, 2),  # `sphinx-build [-M BUILDER] SOURCE OUTPUT`
        "-b --builder -M -c --conf-dir -D --define -A --html-define -t --tag -j --jobs",
    ),
    "sphinx-apidoc": _written_by("-o --output-dir"),
    "pdoc": _written_by("-o --output-dir"),
    "pdoc3": _written_by("-o --output-dir"),
    "jsdoc": _written_by("-d --destination"),
    "pyinstaller": _written_by("--distpath --workpath --specpath"),
    "webpack": _written_by("-o --output-path"),
    "webpack-cli": _written_by("-o --output-path"),
    "rollup": _written_by("-o --file -d --dir"),
    "parcel": _written_by("-d --dist-dir --cache-dir"),
    "babel": _written_by("-d -o"),
    "swc": _written_by("-d -o"),
    "terser": _written_by("-o"),
    "uglifyjs": _written_by("-o"),
    "cleancss": _written_by("-o"),
    "postcss": _written_by("-o -d --dir"),
    "svgo": _written_by("-o"),
    "tsc": _written_by("--declarationdir --tsbuildinfofile"),
    "esbuild": _written_by("--metafile"),
    "ng": _written_by("--output-path"),
    "npm": _written_by("--pack-destination"),
    "pnpm": _written_by("--pack-destination"),
    "pip-compile": _written_by("-o"),
    "coverage": _written_by("-d --directory -o"),
    "pytest": _written_by("--basetemp --html --report-log --result-log"),  # pytest empties its basetemp
    "py.test": _written_by("--basetemp --html --report-log --result-log"),
    "helm": _written_by("-d --destination"),
    "protoc": _protoc_targets,
    "buf": _written_by("-o"),
    "flatc": _written_by("-o"),
    "thrift": _written_by("-o"),
    "emcc": _written_by("-o"),
    "em++": _written_by("-o"),
    "rustdoc": _written_by("-o"),
    "wix": _written_by("-o"),
    "nuget": _written_by("-outputdirectory"),
    "zig": _written_by("-p --prefix --prefix-exe-dir --prefix-lib-dir --cache-dir --global-cache-dir"),
    # package repositories built from packages: Debian's reprepro in its base folder, createrepo in its
    # operand (the `repodata` it adds)
    "reprepro": _written_by("-b --basedir --outdir --distdir --dbdir --listdir --logdir --morguedir"),
    "createrepo": _written_by("-o --outputdir -c --cachedir", slice(0, 1), _CREATEREPO_VALUED),
    "createrepo_c": _written_by("-o --outputdir -c --cachedir", slice(0, 1), _CREATEREPO_VALUED),
}
"""Compilers, bundlers, documentation and package builders, and test runners, by the options naming where
they put what they make (`javac -d DIR`, `mkdocs build -d DIR`'s kin, `pytest --basetemp DIR`), and
sphinx-build by its output operand; their other output options (`--output`, `--outDir`) are
`output_targets`'."""
MAKERS = frozenset({*_ENVIRONMENT_MAKERS, *_BUILT})
"""Programs that make a folder or what they build in one: a run-time folder of theirs is judged by its literal
folder, as an archive's is (`_words`)."""


def _pdftk_targets(args: list[Arg]) -> list[Arg]:
    """`pdftk IN… cat 1-3 output OUT`: the word after the `output` keyword."""
    return [args[i + 1] for i in range(len(args) - 1) if args[i].text.lower() == "output"]


_INSTALL_FOLDERS = frozenset(
    {"prefix", "destdir", "install_prefix", "exec_prefix", "bindir", "sbindir", "libdir", "includedir",
     "datadir", "mandir", "sysconfdir", "install_root", "installdir", "pkgconfigdir"}
)  # fmt: skip
"""make variables naming where an `install` target copies the build (GNU's directory variables, any case)."""


def _make_install_targets(args: list[Arg]) -> list[Arg]:
    """`make install PREFIX=/usr/local`, `make DESTDIR=/ install`: the folders an install target is told to
    copy into, when written out or in the home (`prefix=$HOME/.local`; another run-time one,
    `DESTDIR="$STAGE"`, is the build's own business). Without an install target the variables only build."""
    if not any(a.text.lower().startswith("install") for a in args if "=" not in a.text and a.text[:1] != "-"):
        return []
    found: list[Arg] = []
    for a in args:
        name, eq, value = a.text.partition("=")
        raw = a.raw.partition("=")[2] or value
        if eq and value and name.lower() in _INSTALL_FOLDERS and (DYN not in value or in_home(raw)):
            found.append(Arg(value, raw))
    return found


_CONFIGURE_FOLDERS = frozenset(
    {"--prefix", "--exec-prefix", "--bindir", "--sbindir", "--libdir", "--libexecdir", "--includedir",
     "--datadir", "--datarootdir", "--sysconfdir", "--localstatedir", "--mandir", "--docdir"}
)  # fmt: skip
"""Autotools' options naming where a later `make install` copies the build (also `autogen.sh`'s and CMake's
`bootstrap`, which hand them on)."""
_CONFIGURERS = frozenset({"configure", "autogen.sh", "bootstrap", "cmake", "meson"})
_STAGED = ("destdir=", "prefix=", "--destdir", "--prefix", "--install-prefix")


def _prefix_option(name: str, option: str) -> bool:
    """Is `option` (its `=value` cut off) one by which the configuring program `name` names an install
    folder?"""
    if name == "cmake":
        return option.removeprefix("-D").partition(":")[0].upper() == "CMAKE_INSTALL_PREFIX" or option in (
            "--install-prefix",
        )
    if name == "meson":
        return option in ("--prefix", "-Dprefix")
    return option.lower() in _CONFIGURE_FOLDERS


def configured_prefixes(seen: list[list[Arg]]) -> list[Arg]:
    """The install folders earlier commands of a line configured (`./configure --prefix=/usr`, `cmake
    -DCMAKE_INSTALL_PREFIX=/opt/x ..`, `meson setup build --prefix /usr`), when written out or in the home:
    a later `make install` copies the build there. A run-time one (`--prefix="$PREFIX"`) is the build's own
    business, as `make install PREFIX="$STAGE"` is."""
    if any(a.text.startswith("DESTDIR=") for argv in seen for a in argv):
        return []  # `env DESTDIR=pkg ninja install`: staged inside the folder it names
    found: list[Arg] = []
    for argv in seen:
        name = last_part(argv[0].text).lower() if argv else ""
        if name not in _CONFIGURERS:
            continue
        args = argv[1:]
        for i, a in enumerate(args):
            option, eq, value = a.text.partition("=")
            raw = a.raw.partition("=")[2] or value
            if name == "cmake" and a.text == "-D" and i + 1 < len(args):
                continue  # `-D CMAKE_INSTALL_PREFIX=/usr`: read with the next word
            if name == "cmake" and i > 0 and args[i - 1].text == "-D":
                option = "-D" + option
            if not eq and i + 1 < len(args) and _prefix_option(name, option) and option[:2] == "--":
                value, raw = args[i + 1].text, args[i + 1].raw  # `--prefix /usr`
            elif not eq or not _prefix_option(name, option):
                continue
            if value and (DYN not in value or in_home(raw)):
                found.append(Arg(value, raw))
    return found


def installs_configured(name: str, args: list[Arg]) -> bool:
    """Does `name ARGS` install a build where its configure step chose (`make install`, `ninja -C build
    install`, `meson install -C build`, `cmake --install build`, `cmake --build b --target install`), not
    staged elsewhere (`DESTDIR=…`, `--destdir`) or given a folder of its own (`PREFIX=…`, `--prefix`)?"""
    texts = [a.text for a in args]
    if any(t.lower().startswith(_STAGED) for t in texts):
        return False
    if name in ("make", "gmake", "ninja", "samu"):
        return any(t.lower().startswith("install") and "=" not in t for t in texts)
    if name == "meson":
        return bool(texts) and texts[0].lower() == "install"
    if name == "cmake":
        return "--install" in texts or any(
            (t in ("--target", "-t") and texts[i + 1 : i + 2] == ["install"]) or t == "--target=install"
            for i, t in enumerate(texts)
        )
    return False


_OWN_TARGETS: dict[str, Callable[[list[Arg]], list[Arg]]] = {
    "make": _make_install_targets,
    "gmake": _make_install_targets,
    # (their install steps are judged with the folders the line configured: `installs_configured`)
    "ninja": lambda args: [],
    "samu": lambda args: [],
    **_ENVIRONMENT_MAKERS,
    **_BUILT,
    "pdftk": _pdftk_targets,
    "fsutil": _fsutil_targets,
    "perl": _edited_in_place,
    "ruby": _edited_in_place,
    "ffmpeg": _ffmpeg_targets,
    "ssh-keygen": _ssh_keygen_targets,
    "codesign": _codesign_targets,
    "cpio": _cpio_targets,
    "sqlite3": _sqlite_targets,
    "sqlite": _sqlite_targets,
    "duckdb": _sqlite_targets,
    "zipfile": _python_archive_targets,
    "tarfile": _python_archive_targets,
    "docker": _container_targets,
    "podman": _container_targets,
    "nerdctl": _container_targets,
}
"""Programs whose write targets their own reader names."""


_Targets = Callable[[list[Arg]], list[Arg]]


def _both(made: _Targets, rewritten: _Targets) -> _Targets:
    """The targets of a program that both makes and rewrites, by what its words ask."""
    return lambda args: made(args) + rewritten(args)


# A maker that also formats (`mix new ../app`, `mix format ../x.ex`; `zig build -p`, `zig fmt`): both count.
_OWN_TARGETS.update(
    {name: rewritten if name not in _OWN_TARGETS else _both(_OWN_TARGETS[name], rewritten)
     for name, rewritten in _IN_PLACE.items()}
)  # fmt: skip

WRITERS = (
    DOTNET_WRITERS
    | _ALL
    | _LAST
    | _CONVERTERS
    | _AFTER_FIRST
    | _LINKS
    | ARCHIVERS
    | frozenset(
        {"truncate", "dd", "sed", "plutil", "plistbuddy", "makeappx", "attrib", "compact", "ren", "rename"}
    )
    | frozenset({"reg", "regedit"})
    | frozenset({*_WRITTEN_OPERANDS, *_OWN_TARGETS, *_UNPACKERS})
    | frozenset({*_PS_WRITERS, *_SWITCH_TARGETS})
)
"""Programs whose write targets `write_targets` can name."""


def _joined_name(folder: Arg | None, leaf: Arg) -> Arg:
    """New-Item's `-Name` inside its `-Path` (the current folder without one): PowerShell joins them, so a
    leading separator of the name stays inside (`-Path . -Name \\bin\\stage` is `.\\bin\\stage`)."""
    base = folder.text if folder is not None else "."
    raw = folder.raw if folder is not None else "."
    return Arg(base.rstrip("\\/") + "\\" + leaf.text.lstrip("\\/"), raw + "\\" + leaf.raw)


def _shown_path(path: str) -> str:
    """A path as `_absolute` keeps it, as the user writes it: `~/x` for the home, `C:/x` for a drive."""
    if path.startswith(_OUTSIDE_HOME):
        return "~" + path[len(_OUTSIDE_HOME) :]
    if path.startswith(_DRIVES) and len(path) > len(_DRIVES):
        return path[len(_DRIVES)].upper() + ":/" + path[len(_DRIVES) + 2 :]
    return path.replace("\x00", "")
