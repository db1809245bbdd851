"""Typed shapes of the policy: the public `Decision` and `Rule`, and the TOML schema they are read from.

They are `Shape`s (frozen records, see `_shape`), so a policy loaded from the cache and checking a command
never imports pydantic. Pydantic validates a policy file into these same classes when `Policy.load`
compiles it: `Check` and `Tagged` in the annotations carry the constraints it applies, `__post_init__` the
rules it cannot express.

A rule is a set of *clauses* ("when" tables); a command is denied when any clause of any rule matches it.
Each clause says what it looks at with `on`:

    on = "command"   a simple command: names, subcommands, flags/switches/parameters, argument globs
    on = "redirect"  a redirection operator and its target (truncating writes)
    on = "variable"  a variable expansion by name ($env:X, secret-looking $NAMES, ${!prefix*})
    on = "payload"   the program text given to an interpreter (python -c, node -e, awk, ...)
    on = "dotnet"    a .NET type (and optionally member) used from PowerShell
    on = "argument"  any argument or redirection target of any command (e.g. /dev/tcp/*, /proc/*/environ)
    on = "locator"   an argument naming another machine (URL, UNC path, user@host:path, host:port)
    on = "engine"    a fail-closed condition raised by the engine itself (parse error, dynamic name, ...)
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, get_args

from ._shape import Check, Fresh, Shape, Tagged, many, table

ShellKind = Literal["posix", "powershell"]
"""The two shell backends a command can be checked for."""

Dialect = Literal["posix", "powershell", "cmd"]
"""Syntaxes the engine understands; `cmd` only appears nested (``cmd /c ...``)."""

Category = Literal["destructive", "network", "env", "containment", "unverifiable", "allowlist"]
"""`allowlist`: a command no `[[allow]]` entry matches while the policy runs in allowlist mode."""

EngineEvent = Literal[
    "parse-error",
    "dynamic-command",
    "dynamic-arguments",
    "dynamic-script",
    "unknown-stdin",
    "depth-exceeded",
    "dynamic-alias",
    "fork-bomb",
    "write-outside-project",
    "write-protected-dir",
    "write-login-keys",
    "write-agent-settings",
    "write-unknown-target",
    "proc-environ",
    "too-large",
    "terminal-program",
    "outside-program",
    "code-file",
    "launched-program",
    "credential-variable",
    "package-source-variable",
    "listen-option",
    "hidden-window",
    "editor-command",
    "disk-fill",
]
ENGINE_EVENTS: tuple[str, ...] = get_args(EngineEvent)
"""Every fail-closed condition of the engine; each needs a rule that explains it."""


POWERSHELL_PROMPT = "PS> "
"""An example written `PS> command` is checked on the powershell backend."""


def example_backend(example: str, default: ShellKind) -> tuple[str, ShellKind]:
    """Split a rule example into (command, backend)."""
    if example.startswith(POWERSHELL_PROMPT):
        return example[len(POWERSHELL_PROMPT) :], "powershell"
    return example, default


class CommandMatch(Shape):
    """How a simple command is called: its name and words. Every field given must hold."""

    commands: Annotated[list[str], Check(min_length=1)]
    """Normalised command names (lower case, no extension, aliases resolved); `*` globs allowed."""
    subcommands: list[str] = many()
    """First positional words (space-separated for several, e.g. "pip install"); any one must match. A `*`
    word after the first stands for any one word (`with-profile * deps`: the profile's name)."""
    subcommands_none: list[str] = many()
    """Operands that spare the command when they are all it has, written like `subcommands`; a `*` word
    stands for any one word (`* status`: `service ssh status` reads the state, `service ssh status stop` may
    not), and a last `**` for any words after (`create **`)."""
    flags_any: list[str] = many()
    """POSIX-style flags (`-r` also inside clusters like `-rf`; `--recursive` also as a prefix `--rec`)."""
    flags_none: list[str] = many()
    short_flags: str = ""
    """Every short option letter the program accepts (`rm`: "dfiIPrRvWx"). A word holding any other letter
    makes the program stop with a usage error before it acts, so then the clause does not match: `-Force`
    is not a cluster of `-r` when `rm` is PowerShell's alias or a native rm that rejects `-o`."""
    switches_any: list[str] = many()
    """Windows-style switches, case-insensitive, written `/s`; `-s` and `/s/q` clusters also count."""
    params_any: list[str] = many()
    """PowerShell parameter names (`Recurse`); any unambiguous prefix or `-Name:$true` counts."""
    params_none: list[str] = many()
    args_any: list[str] = many()
    """Globs tested against every argument (case-insensitive), e.g. `of=*`, `-delete`, `env:*`."""
    args_parts: bool = False
    """A wildcard search for part of a name, an argument written `*PART*` (four characters or more), also
    matches where PART is part of a word `args_any` names as `*WORD*`: `-like '*sysm*'` finds `*sysmon*`."""
    args_none: list[str] = many()
    """Globs no argument may match (`set` lists variables unless given `NAME=value`). In a deny rule a plain
    word (`status`) names a subcommand: it spares the command only as the operand right after `subcommands`
    (or the first), not as a value elsewhere (`ufw allow 22 comment status`); write it as a glob (`[s]how`)
    to spare it wherever it stands."""
    args_none_alone: bool = False
    """For programs that act on every option they are given: an `args_none` word spares the command only when
    no other option stands beside it (`spctl -a x.app` reads, `spctl --master-disable -a` still changes)."""
    args_except: list[str] = many()
    """Globs of words that never count for `args_any` (`.env.example` is no `.env.*`). Unlike `args_none`
    they spare nothing: a word beside them still counts (`cat .env .env.example`)."""
    values_except: list[str] = many()
    """Globs of programs an option may run (`tar -I pigz`): the value of a `flags_any` short option (`-I
    VALUE`, `-IVALUE`), or of an `args_any` option (`--use-compress-program=VALUE`, or the next word), does
    not count when its first word is one of them and every further word a plain option or a number, naming no
    file (`zstd -19 -T0`, `pigz --processes 8`; not `zstd -o x`, `--output=x`, a pipe or a run-time word)."""
    destination_last: list[str] = many()
    """Programs (of `commands`) whose last of two or more operands is where they write (`cp .env.example
    .env`): `args_any` does not test it, unless an option names the destination instead (`cp -t dir .env`,
    `Copy-Item .env -Destination x`)."""
    pattern_first: list[str] = many()
    """Programs (of `commands`) whose first operand is the pattern they search for, not a file they read
    (`grep -q .env .gitignore` reads `.gitignore`): `args_any` does not test it, unless an option gives the
    pattern (`-e`, `-f`, `--regexp`, `--file`, `Select-String -Pattern`, findstr's `/c:`), when every operand
    is a file."""
    operands_any: list[str] = many()
    """Globs tested against operands: words after the options, `--` respected, option values skipped as the
    `[syntax]` table says (`kill -9 -1`: `-1` is a process id). A word known only at run time never matches
    (`kill $pid` stays allowed: the policy cannot know the number)."""
    first_operand_only: bool = False
    """`operands_any` and `operand_not_in` test only the operand right after the `subcommands` words (`npx
    pkg@1 a@b`: the package npx fetches, not the words given to the tool it runs); every entry of
    `subcommands` then has the same number of words."""
    operand_paths: list[str] = many()
    """Paths tested against operands as a `path` clause reads them (`*` stays within one component, `/`
    is either separator), a trailing separator allowed: `/home/*` names a user's home folder itself, not a
    file deep inside it. An operand matching these or `operands_any` matches."""
    operand_not_in: list[str] | None = None
    """Only when some operand matches none of these globs (`tee out.txt`, not `tee /dev/null`); an operand
    known only at run time may be anything, so it makes the match unknown (a fail-closed block). With
    `first_operand_only` only that operand counts, and a run-time one whose written start matches is in
    (`git clone "file://$PWD"`)."""
    no_operands: bool = False
    """Only when there is no operand at all (`pkill -u bob` names no process: it kills all of them); operands
    known only at run time may be empty, so they make the match unknown (a fail-closed block)."""
    no_args: bool = False
    """Only when the command has no arguments at all (`set`)."""
    only_flags: bool = False
    """Only when every argument is a flag (`export -p`, `declare -x`)."""
    no_command: bool = False
    """Only when a wrapper (`env`) is given no command to run (so it prints the environment)."""
    global_options: bool = False
    """`flags_*` and `args_*` look only at the words before the first operand: the program's own options,
    not its subcommand's (`git --config-env=… log`, never the message of `git commit -m "$msg"`); with
    `subcommands` (all of one length), the words before the first operand after them: the subcommand's own
    options, not those of the program it runs (`perf record -a -- sleep 5`, not `perf stat make -C build`);
    `subcommands` still names that operand itself (`adb -s SERIAL shell`, not `adb shell am start -a X`)."""
    needs_operand: bool = False
    """The clause only matters when the command names something to act on (`rm -r` with nothing to delete
    does nothing), so a lone word only known at run time is the operand or a flag, never both: `rm -f "$f"`
    is no recursive delete, `rm -f "$f" build` may be."""
    size_over: str = ""
    """Only when some word gives a size larger than this (`1G`; binary multiples, `-l100G` and `--length=100G`
    read too): what `fallocate -l 100G f` or `fsutil file createnew f 100000000000` makes at once. A word
    known only at run time may be any size, so it makes the match unknown (a fail-closed block)."""

    def __post_init__(self) -> None:
        if self.first_operand_only and len({len(entry.split()) for entry in self.subcommands}) > 1:
            raise ValueError("first_operand_only needs subcommands of one length")
        for flag in (*self.flags_any, *self.flags_none):
            if not re.fullmatch(r"-[^-]|--[^-].*", flag):
                raise ValueError(f"flag {flag!r} must look like -x or --long (use args_any for -delete)")
        for glob in (*self.args_any, *self.args_none):
            if glob in ("-?", "/?"):
                # As a glob, `-?` is any two-character flag: the help switch it means must be `-[?]`.
                raise ValueError(f"{glob!r} matches any one-letter switch; the help switch is {glob[0]}[?]")


class CommandClause(CommandMatch):
    """Matches a simple command by name and by how it is called. Every field given must hold."""

    on: Literal["command"]
    fed_by: list[CommandMatch] = many()
    """Only when the command's operands or pipeline input come from the output of a command matching one of
    these: a pipe (`gci -r | ri`, through `xargs`, `while read`, or commands in the `pass_through` list),
    `find -exec`, or a substitution in its arguments (`rm $(find .)`)."""
    fed_through: bool = True
    """Whether `fed_by` also looks upstream through `pass_through` filters (`find . | grep x | xargs rm`);
    false when a filter changes the meaning (`Get-Process | Where-Object ... | Stop-Process` stops a few)."""
    shells: list[Dialect] = many("posix", "powershell", "cmd")
    script_names: bool = False
    """The programs also ship as scripts, so each name matches with a script's extension too (`winpeas.ps1`,
    `lazagne.py`), and such a script handed to its interpreter or imported as a module is the program
    (`python3 lazagne.py all`, `Import-Module .\\PowerView.ps1`)."""
    verbs: list[str] = many()
    """PowerShell verbs: the clause names cmdlets by their nouns, each of `commands` written `*-NOUN` (a
    glob), and matches one only under these verbs (`Set-FileShare`, `Grant-FileShareAccess`, never
    `Get-FileShare`), so a module's changing verbs are listed once for all of its nouns."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.verbs and not all(c.startswith("*-") and len(c) > 2 for c in self.commands):
            raise ValueError("a clause with verbs names its cmdlets by noun: every command is written *-NOUN")


class RedirectClause(Shape):
    """Matches an output redirection (`>`, `>|`, `&>` ...) whose target is not in `allow_targets`."""

    on: Literal["redirect"]
    operators: Annotated[list[str], Check(min_length=1)]
    allow_targets: list[str] = many()
    """Globs (case-insensitive) of harmless targets such as /dev/null or $null."""
    shells: list[Dialect] = many("posix", "powershell", "cmd")


SECRET_NAME = "<secret-name>"
"""A `variable` clause name standing for the shared secret-name rule (`glmagent.secrets`)."""


class VariableClause(Shape):
    """Matches a variable read by name (regular expression, case-insensitive, full match).

    The name `<secret-name>` (alone, or inside a longer expression such as `env:<secret-name>`) stands for
    `glmagent.secrets.SECRET_NAME_PATTERN`, the rule that also decides which variables commands never see and
    which values logs redact, so the three cannot drift apart.
    """

    on: Literal["variable"]
    names: Annotated[list[str], Check(min_length=1)]
    printed_by: list[str] = many()
    """Programs (lower-case names) that, given the value as an argument word, only print it or the attributes
    of the file it names (`echo "$HISTFILE"`, `ls -l $HISTFILE`): for a variable holding a path they read
    nothing of the file. A redirection to it, or the word given to any other program, still counts (POSIX)."""
    shells: list[Dialect] = many("posix", "powershell", "cmd")

    def __post_init__(self) -> None:
        if any(SECRET_NAME in n for n in self.names):
            from glmagent.secrets import SECRET_NAME_PATTERN

            names = [
                SECRET_NAME_PATTERN
                if n == SECRET_NAME
                else n.replace(SECRET_NAME, f"(?:{SECRET_NAME_PATTERN})")
                for n in self.names
            ]
            object.__setattr__(self, "names", names)


class PayloadClause(Shape):
    """Matches interpreter program text (regular expressions searched in the payload)."""

    on: Literal["payload"]
    languages: Annotated[list[str], Check(min_length=1)]
    patterns: Annotated[list[str], Check(min_length=1)]
    literals_are_commands: bool = False
    """The APIs matched run shell commands: string literals in the payload are checked as POSIX commands."""


class DotnetClause(Shape):
    """Matches a .NET type (`Net.WebClient`, leading `System.` optional) and optionally its members."""

    on: Literal["dotnet"]
    types: Annotated[list[str], Check(min_length=1)]
    """Type names; `*` is any object's instance member (`$d.Delete()`), `*.Program` a type of that last
    name in any namespace (`[Rubeus.Program]::Main(...)`), `NtApiDotNet.*` any type whose namespace starts
    with that name (`[NtApiDotNet.NtKey]`), and `**` any type (`[X]::Main(...)`)."""
    members: list[str] = many()
    """Member globs (`GetEnvironmentVariable*`); empty means any use of the type. A glob ending in `()`
    (`Run()`) counts only where an instance member is called (`$shell.Run(...)`, not `$config.Run.Path`)."""


class PathClause(Shape):
    """Matches a path to a sensitive file given as any argument or redirection (`cat ~/.aws/credentials`).

    Paths are globs in which `/` also matches `\\`, `*` stays within one path component, and case is
    ignored. A path written `~/x` matches `x` in a home directory however it is spelled: `~`, `~user`, a
    variable (`$HOME`, `${HOME}`, `$env:USERPROFILE`: any variable may hold the home directory), `/root`,
    `/home/NAME`, `/Users/NAME`, `C:\\Users\\NAME`, or a `..` climb. Any other path matches at any depth,
    relative paths included (`.aws/credentials`, `../../.aws/credentials`, `/root/.aws/credentials`).
    A word with spaces only counts when it starts like a path, so a phrase mentioning the file is not one.
    """

    on: Literal["path"]
    paths: Annotated[list[str], Check(min_length=1)]
    except_paths: list[str] = many()
    """Paths that `paths` would match but that are harmless (`~/.ssh/*.pub`)."""
    outside_project: bool = False
    """Only a path outside the project counts: the folder may hold the project itself (`/root/app`)."""
    shells: list[Dialect] = many("posix", "powershell", "cmd")


class ArgumentClause(Shape):
    """Matches any argument or redirection target of any command against path globs."""

    on: Literal["argument"]
    globs: Annotated[list[str], Check(min_length=1)]
    shells: list[Dialect] = many("posix", "powershell", "cmd")


LocatorKind = Literal[
    "url", "unc", "unc-slash", "scp", "host-port", "user-host", "address", "stream", "variable", "connection"
]


class LocatorClause(Shape):
    """Matches an argument (or redirection target) that points where the policy cannot look, given to any
    program but the `except_commands`: another machine — a URL (`scheme://…`, also inside `rest:http://…`
    or `/format:https://…`), a UNC path (`\\\\host\\share`), an scp-style `user@host:path`, a `host:port`,
    a login at a host (`user@10.0.0.1`, `corp/user:password@dc01.corp.local`), an IP address of another
    machine (`address`; not loopback, `0.0.0.0` or a dotted version), an option whose value names a machine
    (`machine_options`, `host_options`, `machine_parameters`), a word known only at run time whose variable
    is named for a machine (`variable`: `$TARGET_IP`, `${DC_HOST}`, `$URL`), a keyword connection string
    naming a server by its address or a name with a top-level domain (`connection`:
    `"Server=tcp:db.example.com;Database=app"`, `"host=db.example.com dbname=app"`)
    — or an NTFS alternate data stream (`file.txt:hidden.exe`). A word holding blanks is text (a message, a
    script), not a locator."""

    on: Literal["locator"]
    kinds: Annotated[list[LocatorKind], Check(min_length=1)]
    machine_options: list[str] = many()
    """Options whose value names a machine, whatever it is unless this machine's own (`-ComputerName`,
    `--dc-ip`, `/node:`); a value only known at run time counts."""
    host_options: list[str] = many()
    """Options whose value names a machine only when it can be nothing but a host: an address or a name with
    a top-level domain (`--host db.corp.local`, never `--target x86_64-unknown-linux-gnu`)."""
    machine_parameters: list[str] = many()
    """Like `machine_options`, but only written one way: `-CimSession` as a PowerShell parameter (`-Session
    $s`), `/node` as a Windows switch (`wmic /node:srv`); the first character says which."""
    local_schemes: list[str] = many("file", "unix", "npipe")
    """URL schemes that stay on this machine."""
    naming_options: list[str] = many()
    """Long options whose value only names an address, the one a site will be served at, which the program
    never connects to (`hugo --baseURL https://example.org/`, `--site-url`); compared without case. A locator
    given there (as the next word or after `=`) is no machine the command reaches. An entry `PROGRAM OPTION`
    holds for that program only (`hugo -b`, `zola --base-url`: for API clients `--base-url` is the server)."""
    except_commands: list[str] = many()
    """Programs that read their words as text or local files only (`echo`, `grep`, `git commit -m`)."""
    service_schemes: list[str] = many()
    """URL schemes of servers (databases, caches, queues: `postgres`, `jdbc:mysql`'s `mysql`, `redis`) whose
    URL names no other machine when its host is this machine (`localhost`, loopback) or a service's one-label
    name on a CI or compose network (`postgres`, `db`): `postgres://u:pw@localhost:5432/app`,
    `-Dflyway.url=jdbc:postgresql://db:5432/app`. A driver's suffix (`postgresql+asyncpg`) is left out."""
    local_commands: list[str] = many()
    """Programs that only wait for a server to answer (`wait-on`, `start-server-and-test`): an address of
    this machine given to them (`http://localhost:3000`, `http-get://127.0.0.1:5000`, `tcp:localhost:3000`)
    is no other machine; any other host still is."""
    commands: list[str] = many()
    """Only these programs (normalised names), for options whose meaning is theirs alone (`sqlcmd -S`,
    `certutil -config`); empty: any program."""
    shells: list[Dialect] = many("posix", "powershell", "cmd")


class EngineClause(Shape):
    """Names the fail-closed condition of the engine this rule explains."""

    on: Literal["engine"]
    event: EngineEvent


Clause = Annotated[
    CommandClause
    | RedirectClause
    | VariableClause
    | PayloadClause
    | DotnetClause
    | ArgumentClause
    | PathClause
    | LocatorClause
    | EngineClause,
    Tagged("on"),
]


class Rule(Shape):
    """One deny rule: what it matches (`when`), why (`justification`), and the examples proving it."""

    id: Annotated[str, Check(pattern=r"^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$")]
    category: Category
    description: Annotated[str, Check(min_length=3)]
    """What a match means, phrased to follow the command: "is a recursive delete"."""
    justification: Annotated[str, Check(min_length=10)]
    """Why it is denied and what to do instead; shown to the planner."""
    when: Annotated[list[Clause], Check(min_length=1)]
    match: Annotated[list[str], Check(min_length=1)]
    """Commands this rule must deny (`PS> ` prefix: on the powershell backend)."""
    not_match: list[str] = many()
    """Commands this rule must not deny (they may still be denied by another rule)."""
    shells: list[ShellKind] = many()
    """Backends the rule is written for; the first one runs the examples without a `PS> ` prefix."""
    outranked: bool = False
    """The rule blocks, but a later deny in the same line explains the block better, so the walk goes on
    (`find / -print0 | xargs -0 rm -rf` is a recursive delete before it is a walk of the machine)."""

    def __post_init__(self) -> None:
        if not self.shells:
            dialects = {s for c in self.when for s in getattr(c, "shells", ("posix", "powershell"))}
            shells: list[ShellKind] = ["posix", "powershell"] if "posix" in dialects else ["powershell"]
            object.__setattr__(self, "shells", shells)

    def examples(self) -> list[tuple[str, ShellKind, bool]]:
        """Every example as (command, backend, must_match)."""
        default = self.shells[0]
        out = [(*example_backend(e, default), True) for e in self.match]
        out += [(*example_backend(e, default), False) for e in self.not_match]
        return out


class WrapperSpec(Shape):
    """A command that runs another command given in its arguments (`sudo`, `timeout 5`, `uv run`)."""

    names: Annotated[list[str], Check(min_length=1)]
    subcommand: str | None = None
    """Word(s) that must follow the name for it to wrap (`run` for `uv run`, `netns exec` for `ip netns`)."""
    runs_bins: list[str] = many()
    """For a wrapper without `subcommand`: it wraps only when its first word is one of these programs, which
    it runs by name from the project's installed packages (`yarn wrangler deploy`). A script name is the
    project's own (`yarn format`: never Windows' format), so only programs whose rules matter are listed."""
    value_options: list[str] = many()
    """Options that consume the next word (or an attached value)."""
    flag_options: list[str] = many()
    """Options that take no value, so the word after them is never theirs (`uv run --locked ruff`); any other
    unknown option just before the command is read both ways."""
    positionals: int = 0
    """Words to skip after the options before the command (`timeout DURATION`, `chroot DIR`)."""
    leading_positionals: int = 0
    """Words to skip before the options, when the first word is no option (`setarch ARCH -R cmd`, while
    `setarch -R cmd` names no architecture)."""
    leading_count: bool = False
    """A first word of digits is a count, not the command, and may be left out (`travis_wait 30 make`,
    `travis_wait make`)."""
    assignments: bool = False
    """NAME=VALUE words may precede the command (`env`)."""
    shell_options: list[str] = many()
    """Options whose value is a shell command line (`su -c CMD`); short ones may end a cluster (`-lc`)."""
    attached_shell_options: list[str] = many()
    """Options whose value, attached by `=` wherever the option stands, is a shell command line, while the
    option alone is a switch (`latexmk -pdflatex="pdflatex -interaction=nonstopmode"`; `-pdflatex` picks
    the engine)."""
    windows_program: bool = False
    """A Windows program: the command line it starts is at most `WINDOWS_MAX_LINE` characters long
    (`forfiles /c`, `schtasks /tr`), so a longer one is too large before it is parsed."""
    reruns_self: bool = False
    """What it wraps is the same program given the rest of the words: a package manager's workspace
    selector (`yarn workspace app exec x` runs `yarn exec x` in that workspace)."""
    split_options: list[str] = many()
    """Options whose value is split into words that start the command (`env -S 'rm -rf x'`)."""
    stop_at: list[str] = many()
    """Words that end the wrapped command (`:::` for parallel)."""
    pair_options: list[str] = many()
    """Long options that consume the next two words (`bwrap --bind SRC DEST cmd`)."""
    locates: bool = False
    """Its words are screened for other machines as any program's are (`mpirun --host h cmd`,
    `daemonize -o h:80 cmd`): a wrapper that may reach one by its own options."""
    skip_words: list[str] = many()
    """Words that may stand among the options, before the command (Windows Terminal's `new-tab`, `sp`)."""
    operand_lines: bool = False
    """Every operand is a shell command line of its own (`concurrently "tsc -w" "vite"`)."""
    command_after: str | None = None
    """A word after which the command starts, wherever it stands (`--` in `distrobox enter NAME -- CMD`,
    `doppler run -- CMD`): what follows it is read as a command besides the usual reading."""
    feeds_arguments: bool = False
    """The wrapped command receives extra arguments from stdin (`xargs`)."""
    no_run_flags: list[str] = many()
    """Flags that make the wrapper only inspect, not run (`command -v`)."""
    shell_when_empty: bool = False
    """Given no command, it starts the user's shell, which reads the terminal (`chroot DIR`, `unshare -r`,
    `ip netns exec NS`)."""
    shell_always: bool = False
    """It always starts a shell (`su USER`, `script FILE`, `newgrp GROUP`); its operands feed that shell."""
    operands_run_nothing: bool = False
    """Its operands are no command (`script LOGFILE`, `newgrp GROUP`)."""
    own_stdin: bool = False
    """It reads stdin itself, so the command it runs reads nothing there (`xargs` gives it /dev/null)."""
    tty_flags: list[str] = many()
    """Flags that give the command it runs the terminal as stdin (`xargs -o`)."""
    arg_file_options: list[str] = many()
    """Options naming the file the extra arguments come from instead of stdin (`xargs -a FILE`)."""
    directory_options: list[str] = many()
    """Value options naming the folder the command runs in (`env -C DIR`, `uv run --directory DIR`): its
    relative paths are judged from there."""
    environment_prefix: bool = False
    """The command's first word may name the environment it runs in before a colon (`hatch run test:cov`
    runs `cov` in the `test` environment): the command is what follows the colon."""
    joined_line: bool = False
    """It joins its command's words by blanks into one line a shell runs (`npm explore PKG -- CMD`): the
    command is judged as that line besides as the words, and a `--` before it only ends its options."""
    package_bins: bool = False
    """The program word is an npm package whose command is named otherwise (`npx eas-cli build` runs `eas`,
    `npx @railway/cli up` runs `railway`): the command is also judged by that name."""


class ShellSpec(Shape):
    """An interpreter of a shell language and how it receives a script."""

    names: Annotated[list[str], Check(min_length=1)]
    dialect: Dialect
    value_options: list[str] = many()
    joined: bool = False
    """The words after the options form one command line for the shell (`wsl rm -rf x`)."""


class ExecutorSpec(Shape):
    """A language interpreter whose inline program (`-c`, `-e` ...) is scanned as a payload."""

    names: Annotated[list[str], Check(min_length=1)]
    language: str
    inline: list[str] = many()
    """Flags whose value is the program; short ones may end a cluster (`perl -ne`)."""
    value_options: list[str] = many()
    module: list[str] = many()
    """Flags naming a module that runs as if it were a command (`python -m http.server`)."""
    program_is_first_operand: bool = False
    """The first operand is the program text (`awk '{...}' file`, `sed 's/a/b/' f`)."""
    suffix_options: list[str] = many()
    """With `program_is_first_operand`, flags that take the next word as their value in one dialect and only
    a glued one in another (`sed -i '' 's/a/b/w x' f`: BSD sed's backup suffix, GNU sed's program): when
    that word looks like a backup suffix (`''`, `.bak`), the next one is read as the program too."""
    file_flags: list[str] = many()
    """Flags that name a program file, after which there is no inline program (`awk -f x.awk`)."""
    init_flags: list[str] = many()
    """Flags that name a file run first, after which the program still comes from an operand, stdin or the
    terminal (`sqlite3 -init x.sql db` then opens its shell)."""
    reads_stdin: bool = True
    """With neither inline program nor script operand, the program comes from stdin."""
    operands_before_program: int = 0
    """With `program_is_first_operand`, operands that come before the program (`sqlite3 DB 'SQL'`: one)."""
    script_operand: bool = True
    """The first operand is a script file (`python x.py`); false when operands are data (`psql DBNAME`)."""
    script_after_inline: bool = False
    """A script operand still runs after the inline program (`gnuplot -e 'set term png' plot.gp`)."""
    no_program_flags: list[str] = many()
    """Flags with which it reads no program at all (`psql -l` lists the databases)."""
    finds_programs_flags: list[str] = many()
    """Flags with which, given no script, it runs files it finds itself instead of reading a program from
    stdin or the terminal (`node --test` runs the project's test files); a script given is still judged."""
    interactive_flags: list[str] = many()
    """Flags that make it read the terminal after its program (`python -i x.py`)."""
    tool_words: list[str] = many()
    """First operands that name one of its own tools, not a script (`R CMD check`)."""
    script_tools: list[str] = many()
    """Those of its tools that run the script given as their first operand (`R CMD BATCH x.R`)."""
    own_tools: list[str] = many()
    """Every tool of its own a tool word names (`R CMD check`); any other word there is a program it runs
    with the words after it (`R CMD rm -rf x` runs `rm -rf x`), judged as that command."""
    setting_options: list[str] = many()
    """Long options whose attached value is a setting, never code or a file it runs (`julia --project=DIR`):
    a value only known at run time there keeps the option's meaning."""
    subcommand: str = ""
    """Only this subcommand runs an inline program, the first operand after it (`deno eval CODE`); the
    program's other subcommands run no inline program (`deno run x.ts`, `deno test`)."""
    cmdlet: bool = False
    """A PowerShell command: a parameter matches its listed name in any case and by any unique prefix (`-qu
    $q` is `-Query $q`), and `-Name:value` is `-Name value`."""
    switches: list[str] = many()
    """A cmdlet's parameters that take no value: listed so that prefixes are matched among all its names."""


class SyntaxSpec(Shape):
    """Global options of a command that consume a value, so subcommands and operands are found after them."""

    names: Annotated[list[str], Check(min_length=1)]
    value_options: list[str] = many()
    option_words: int | None = None
    """At most this many leading words are options; later dash-words are operands (`kill -9 -1`)."""
    option_signs: str = ""
    """Signs besides `-` that start an option word (`+`: the toolchain of `cargo +nightly install x`)."""
    run_time_values: list[str] = many()
    """Option prefixes after which a part known only at run time is the option's value, so the word stays an
    option, never a subcommand or task (sbt's `-Dsbt.version=$V`, `-J-Xmx$MEM`, `++$SCALA_VERSION`). The
    prefix itself must be literal."""


class PolicyFile(Shape):
    """The built-in policy file (`policy/default.toml`)."""

    version: Literal[1]
    rule: Annotated[list[Rule], Check(min_length=1)]
    wrappers: dict[str, WrapperSpec] = table()
    shells: dict[str, ShellSpec] = table()
    executors: dict[str, ExecutorSpec] = table()
    syntax: dict[str, SyntaxSpec] = table()
    powershell_aliases: dict[str, str] = table()
    command_valued_variables: list[str] = many()
    """Environment variables whose value a program runs as a command (GIT_PAGER, GIT_SSH_COMMAND ...);
    `*` globs allowed (`*_COMMAND`)."""
    code_loading_variables: list[str] = many()
    """Environment variables that make programs load code the policy cannot read (`LD_PRELOAD`,
    `PERL5DB`): setting one to anything but an empty value is unverifiable."""
    credential_variables: list[str] = many()
    """Environment variables that point programs at a credential (`KRB5CCNAME`, `SSH_AUTH_SOCK`): setting one
    to anything but an empty value makes later commands act as whoever that credential belongs to."""
    package_source_variables: list[str] = many()
    """Environment variables that choose where packages, toolchains and downloads come from, or whether they
    are checked (`GOPROXY`, `PIP_INDEX_URL`, `GOSUMDB`, `NODE_TLS_REJECT_UNAUTHORIZED`): setting one to
    anything but an empty value or one of `package_source_defaults` is a network choice."""
    package_source_defaults: list[str] = many()
    """`NAME=value` settings of those variables that keep the usual source and checks (`GOPROXY=off`)."""
    search_path_variables: list[str] = many()
    """Environment variables naming the folders programs, libraries or modules are looked up in (`PATH`,
    `PYTHONPATH`): a literal folder put first, outside the project and the program folders, blocks."""
    program_variables: list[str] = many()
    """Environment variables naming the program a build tool runs (`CC`, `RUSTC_WRAPPER`): a literal value
    is checked as a command."""
    options_variables: dict[str, str] = table()
    """Environment variables whose value a program takes as its own options (`MAVEN_ARGS`: `mvn`), by
    name: a literal value is checked as that command line."""
    connection_variables: list[str] = many()
    """Environment variables naming the server a program connects to (`DATABASE_URL`, `REDIS_URL`, `PGHOST`;
    `*` globs allowed): a literal value is judged as a word handed to that program (`--host VALUE` for a
    name ending in `HOST` or `SERVER`), so another machine there is network as on its command line."""
    command_options: list[str] = many()
    """Option globs (`--*-command`, `--rsh`) whose value any program not described elsewhere runs as a
    command line: a literal value is checked as one, a value known only at run time blocks."""
    text_tools: list[str] = many()
    """Programs that only print, filter or store the words they are given: their words are never read
    as `command_options` (`echo --editor=vim`, `git commit -m "--pager"`)."""
    file_tools: list[str] = many()
    """Programs that only read, list, inspect, copy or pack the files they are named: a program, library
    or script among their words is data to them (`file /bin/sh`, `cp x.dll dist/`, `sha256sum app.exe`)."""
    code_host_files: list[str] = many()
    """Globs of files only a code host runs (scriptlets, HTML applications, control-panel items, driver
    INFs): handing one to a program that is not a file tool is unverifiable wherever the file is."""
    code_files: list[str] = many()
    """Globs of programs, libraries, scripts, sources and build projects (`*.exe`, `*.so`, `*.ps1`, `*.c`,
    `*.csproj`): handing one from outside the project and the program folders to a program that is not a
    file tool runs or builds code nobody reviewed."""
    program_files: list[str] = many()
    """Globs of Windows programs and installers (`*.exe`, `*.msi`, `*.bat`): one handed to a program on
    Windows (not a file tool, and not as an output) is what that program launches, which the policy cannot
    follow."""
    windows_programs: list[str] = many()
    """Programs that exist only on Windows (`reg`, `vssadmin`, `rundll32`): written in a POSIX shell (Git
    Bash, MSYS2, Cygwin, WSL interop) they are still those programs, so clauses written for cmd apply to them
    there too; so they do to any command word ending in `.exe`. Names with a POSIX namesake (`net`,
    `certutil`, `expand`) count only with `.exe`."""
    library_options: list[str] = many()
    """Option globs whose value is a library or plugin the program loads (`--default-auth`, `--plugin-dir`):
    a value from outside the project is unverifiable, like a program from there."""
    service_scripts: list[str] = many()
    """Folders of the scripts that start and stop services (`/etc/init.d`): a program run from one is that
    service driven as `service NAME ACTION` drives it (`/etc/init.d/ssh stop`), so the service rules judge
    it."""
    pass_through: list[str] = many()
    """Commands that pass on what they read (`grep`, `sort`, `Where-Object`): a command fed through them is
    fed by whatever feeds them (`find . | grep log | xargs rm`)."""
    max_depth: Annotated[int, Check(ge=1, le=64)] = 8


PolicyMode = Literal["deny", "allowlist"]
"""`deny`: every command runs unless a deny rule matches it; `allowlist`: only commands an `[[allow]]` entry
matches run, and the deny rules still apply on top."""


class PolicySection(Shape):
    """The `[policy]` table of a user or repository policy file."""

    mode: PolicyMode = "deny"


class AllowEntry(CommandMatch):
    """One `[[allow]]` entry: a program and how it may be called, with examples proven when the policy loads.

    The fields of `CommandMatch` mean what they mean in a deny rule's `on = "command"` clause; a command is
    on the allowlist when every field given holds (a word only known at run time never counts as a hold).
    """

    id: Annotated[str, Check(pattern=r"^[a-z0-9][a-z0-9._-]*$")]
    description: str = ""
    """What the entry allows, for people reading the policy and `policy explain`."""
    prefix: list[str] = many()
    """Globs (case-insensitive) the first arguments must match in order: `["-m", "pytest"]` for
    `python -m pytest`. Unlike `subcommands`, options are not skipped: position 1 is the first word."""
    shells: list[Dialect] = many("posix", "powershell", "cmd")
    """Syntaxes the entry applies to; examples run on the first of posix/powershell it lists."""
    match: Annotated[list[str], Check(min_length=1)]
    """Commands this entry must allow (`PS> ` prefix: on the powershell backend): every simple command
    written in an example matches the entry (what those run in turn, `sudo X`, needs entries of its own)."""
    not_match: list[str] = many()
    """Commands this entry must not allow (some simple command in the example misses it)."""

    def backend_of(self, example: str) -> tuple[str, ShellKind]:
        """An example split into (command, backend): `PS> `, or an entry just for PowerShell: powershell."""
        default: ShellKind = "posix" if "posix" in self.shells or "cmd" in self.shells else "powershell"
        return example_backend(example, default)

    def examples(self) -> list[tuple[str, ShellKind, bool]]:
        """Every example as (command, backend, must_match)."""
        out = [(*self.backend_of(e), True) for e in self.match]
        out += [(*self.backend_of(e), False) for e in self.not_match]
        return out


class UserPolicyFile(Shape):
    """A user or repository policy file: it may add deny rules and, in allowlist mode, allow entries."""

    version: Literal[1] = 1
    rule: list[Rule] = many()
    policy: PolicySection = Fresh(PolicySection)
    allow: list[AllowEntry] = many()

    def __post_init__(self) -> None:
        if not self.rule and self.policy.mode == "deny":
            raise ValueError('add at least one [[rule]], or set [policy] mode = "allowlist"')
        if self.allow and self.policy.mode != "allowlist":
            raise ValueError(
                '[[allow]] entries only take effect with [policy] mode = "allowlist"; a file in the '
                "default deny mode may only add [[rule]] deny rules"
            )
        ids = [entry.id for entry in self.allow]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"allow entry id {', '.join(twice)} is used twice")


class Decision(Shape):
    """The verdict on one command; JSON-friendly for `policy check --json` and the audit log."""

    allowed: bool
    command: str
    backend: ShellKind
    rule_id: str | None = None
    category: str | None = None
    justification: str | None = None
    reason: str
    argv: list[str] = many()
    parse_status: str = "ok"

    @classmethod
    def allow(cls, command: str, backend: ShellKind, reason: str, parse_status: str) -> Decision:
        """`command` may run: `reason` says why."""
        return cls._made(True, command, backend, None, None, None, reason, [], parse_status)

    @classmethod
    def block(
        cls, command: str, backend: ShellKind, rule: Rule, reason: str, argv: list[str], parse_status: str
    ) -> Decision:
        """`command` is denied by `rule`; `reason` says where, `argv` is the simple command it matched."""
        return cls._made(
            False, command, backend, rule.id, rule.category, rule.justification, reason, argv, parse_status
        )

    @classmethod
    def _made(
        cls,
        allowed: bool,
        command: str,
        backend: ShellKind,
        rule_id: str | None,
        category: str | None,
        justification: str | None,
        reason: str,
        argv: list[str],
        parse_status: str,
    ) -> Decision:
        # Every check makes one: every field given in order, without the keyword checks of `Shape`, whose
        # generic loop costs about a tenth of checking a short command.
        decision = cls.__new__(cls)
        object.__setattr__(
            decision,
            "__dict__",
            {
                "allowed": allowed,
                "command": command,
                "backend": backend,
                "rule_id": rule_id,
                "category": category,
                "justification": justification,
                "reason": reason,
                "argv": argv,
                "parse_status": parse_status,
            },
        )
        return decision

    def planner_message(self) -> str:
        """Short text telling the planner what was blocked, why, and what to do instead."""
        if self.allowed:
            return f"Allowed: {self.reason}"
        return (
            f"Blocked by policy rule {self.rule_id} ({self.category}): {self.reason}. "
            f"{self.justification or ''}"
        ).strip()
