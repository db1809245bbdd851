"""Find the command, script or program that a wrapper, shell or interpreter invocation will run.

Each function reads one invocation's argument list the way that program's option parser would, and says
what runs next. Where the reading is ambiguous (an unknown option that may take a value, a word only known
at run time) it returns every plausible reading, so the engine checks them all.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from functools import cache

from ._lazy import lazy_re
from ._models import ExecutorSpec, ShellSpec, WrapperSpec
from ._paths import unique_prefix_table
from ._shape import many, record
from ._syntax import DYN, Arg, lit

_ASSIGNMENT = lazy_re(r"[A-Za-z_][A-Za-z0-9_]*=")
_SCRIPT_SHORTCUT = lazy_re(r"(npm|yarn|pnpm|bun):([^\s']+)")
"""`concurrently "npm:watch-*"`: the package manager's `run` of the scripts so named (a pattern of names,
quoted: `npm:lint:*(!fix)` is no shell syntax); the rest of the line runs as written (`npm:x && y`)."""

_ENVIRONMENT_PREFIX = lazy_re(r"[A-Za-z0-9_.+-]+:(?=[^\s:])")
"""`test:` in `hatch run test:cov`: the environment a command runs in, named before the command."""


@record()
class Wrapped:
    """What a wrapper runs: candidate argv readings, shell command lines, and whether it runs anything."""

    candidates: list[list[Arg]] = many()
    shell_lines: list[Arg] = many()
    has_command: bool | None = False
    stdin: str = "inherit"
    """What the command it runs reads: "inherit" (the wrapper's stdin), "none" (/dev/null), "terminal"."""
    windows_program: bool = False
    """The wrapper is a Windows program (see `WrapperSpec.windows_program`)."""
    reruns_self: bool = False
    """Each candidate is the wrapper's own program given those words (see `WrapperSpec.reruns_self`)."""
    directories: list[Arg] = many()
    """The folders it is told to run the command in, in order (see `WrapperSpec.directory_options`)."""


def split_words(text: str) -> list[Arg]:
    """Split a literal command line the way `sh` would for simple cases (falls back to whitespace)."""
    try:
        words = shlex.split(text, posix=True)
    except ValueError:
        words = text.split()
    return [lit(w) for w in words]


def matching_wrapper(specs: tuple[WrapperSpec, ...], args: list[Arg]) -> WrapperSpec | None:
    """The spec that reads `args` as a wrapped command (`uv run ...`), if any: one without a subcommand (and,
    if it lists the programs it runs by name, given one of them first: `yarn wrangler`), or one whose
    subcommand words the arguments start with (`ip netns exec`)."""
    first: str | None = None
    for spec in specs:
        if spec.subcommand is None:
            if spec.runs_bins and (not args or args[0].text.lower() not in spec.runs_bins):
                continue
            return spec
        words = _subcommand_words(spec.subcommand)
        if len(args) < len(words):
            continue
        if first is None:
            first = args[0].text.lower()
        if (first == words[0] or (words[0][-1] == "=" and first.startswith(words[0]))) and all(
            a.text.lower() == w for a, w in zip(args[1:], words[1:], strict=False)
        ):
            return spec  # (a subcommand word ending in `=` takes its value glued: `--filter=app`)
    return None


_SUBCOMMAND_WORDS: dict[str, tuple[str, ...]] = {}
"""Each wrapper subcommand (from the policy, a few dozen) as its words, split once."""


def _subcommand_words(subcommand: str) -> tuple[str, ...]:
    words = _SUBCOMMAND_WORDS.get(subcommand)
    if words is None:
        words = _SUBCOMMAND_WORDS[subcommand] = tuple(subcommand.lower().split())
    return words


def wrapper_reading(
    specs: tuple[WrapperSpec, ...], args: list[Arg], value_options: frozenset[str]
) -> tuple[WrapperSpec | None, list[Arg]]:
    """`matching_wrapper`, also past the program's own options before or between its subcommand words
    (`docker compose -f ci.yml exec web sh`, `docker --log-level warn exec web sh`, given docker's
    `value_options`): the spec and the words it reads, the options left out (the program's rules still see
    them in the command's own words)."""
    spec = matching_wrapper(specs, args)
    if spec is not None or not value_options or not any(a.text[:1] == "-" for a in args):
        return spec, args
    for spec in specs:
        if spec.subcommand is None:
            continue
        read = _past_options(_subcommand_words(spec.subcommand), args, value_options)
        if read is not None:
            return spec, read
    return None, args


def _past_options(words: tuple[str, ...], args: list[Arg], value_options: frozenset[str]) -> list[Arg] | None:
    """`args` as the subcommand `words` and what follows the last of them, when they spell those words with
    options (and the values of `value_options`) before or between them; None when they do not, or need no
    option left out to (that reading is `matching_wrapper`'s)."""
    kept: list[Arg] = []
    i = 0
    n = len(args)
    for word in words:
        while i < n and args[i].text[:1] == "-" and len(args[i].text) > 1:
            if args[i].text == "--":
                return None
            i += 2 if args[i].text in value_options else 1
        if i >= n or args[i].text.lower() != word:
            return None
        kept.append(args[i])
        i += 1
    if len(kept) == i:
        return None
    return kept + args[i:]


_PACKAGE = lazy_re(r"(?:@([a-z0-9][\w.-]*)/)?([a-z0-9][\w.-]*?)(?:@[^/\s]+)?")


def _package_bin(word: str) -> str | None:
    """The command an npm package named for its CLI installs, when not its own name: `eas-cli` -> `eas`,
    `@railway/cli` -> `railway`, `@vercel/cli@33` -> `vercel`; None for any other word."""
    m = _PACKAGE.fullmatch(word.lower())
    if m is None:
        return None
    scope, name = m.group(1), m.group(2)
    if scope is not None and name in ("cli", "cli-tool"):
        return scope
    if name.endswith("-cli") and len(name) > 4:
        return name[:-4]
    return None


def unwrap(spec: WrapperSpec, args: list[Arg], stdin_words: list[Arg] | None) -> Wrapped:
    """Read `sudo -u x cmd ...`, `timeout 5 cmd`, `env A=1 cmd`, `xargs -0 cmd`, `uv run cmd` ..."""
    out = Wrapped(windows_program=spec.windows_program, reruns_self=spec.reruns_self)
    if spec.tty_flags and any(_has_flag(a.text, spec.tty_flags) for a in args):
        out.stdin = "terminal"  # `xargs -o`: the command reads the terminal
    elif spec.own_stdin:
        out.stdin = "none"
    value_opts = spec.value_options
    shell_opts = spec.shell_options
    prefix: list[Arg] = []
    i = 0
    n = len(args)
    if spec.subcommand is not None:
        i = len(spec.subcommand.split())  # the caller checked the args start with the subcommand
    if spec.leading_positionals and i < n and args[i].text[:1] != "-":
        i = min(n, i + spec.leading_positionals)
    if spec.leading_count and i < n and args[i].text.isdigit():
        i += 1
    if spec.command_after is not None:
        after = next((k for k in range(i, n) if args[k].text == spec.command_after), None)
        if after is not None and after + 1 < n:
            # `distrobox enter box -- rm -rf x`: whatever the words before it are, the command follows it;
            # read the usual way too (`watchexec rm -- -rf x` runs `rm`, whose own `--` that is).
            out.candidates.append(list(args[after + 1 :]))
    ambiguous_at: int | None = None
    replace: str | None = None
    arg_file: str | None = None
    assigned: list[str] = []
    spelled: list[str] = []
    while i < n:
        a = args[i]
        t = a.text
        if t == "--":
            i += 1
            break
        if spec.attached_shell_options and "=" in t and t.partition("=")[0] in spec.attached_shell_options:
            value = t.partition("=")[2]
            out.shell_lines.append(Arg(value, value))  # `latexmk -pdflatex="pdflatex %O %S"`
            i += 1
            continue
        attached = t[:2] == "--" and "=" in t and DYN not in t.partition("=")[0]
        if DYN in t and a.may_be_flag and not attached:
            # `sudo $OPTS rm -rf /`: the word may be options or the command itself; check both readings.
            # (`--python="$V"` is an option whatever `$V` holds: its value is attached.) Where only an
            # attached value is a command line (`latexmk $OPTS x.tex`), the words after it are no command.
            if not (spec.attached_shell_options and not shell_opts):
                out.candidates.append(args[i + 1 :])
            ambiguous_at = None
            break
        if t == "-" and "-" in spec.flag_options:
            i += 1  # `env - cmd`: env's old spelling of `-i`, no command name
            continue
        if t[:1] == "-" and len(t) > 1:
            name, eq, attached = t.partition("=") if t.startswith("--") else (t, "", "")
            if t.startswith("--"):
                if name in spec.pair_options:
                    i += 3  # `bwrap --bind / / cmd`: both words are the option's
                    continue
                if name in shell_opts or name in spec.split_options or name in value_opts:
                    value = attached if eq else (args[i + 1].text if i + 1 < n else "")
                    raw = attached if eq else (args[i + 1].raw if i + 1 < n else "")
                    if name in shell_opts:
                        out.shell_lines.append(Arg(value, raw))
                    elif name in spec.split_options:
                        prefix.extend(split_words(value) if DYN not in value else [Arg(DYN, raw)])
                    if name in ("--replace", "--replace-str") and spec.feeds_arguments:
                        replace = value or "{}"
                    if name in spec.arg_file_options:
                        arg_file = value
                    if name in spec.directory_options:
                        out.directories.append(Arg(value, raw))
                    i += 1 if eq else 2
                    continue
                if name in spec.no_run_flags:
                    out.has_command = False
                    return out
                if not eq and name not in spec.flag_options:
                    ambiguous_at = i  # an unknown `--opt` may take the next word; `--opt=value` cannot
                i += 1
                continue
            if len(t) > 2 and t in value_opts and t not in shell_opts:
                i += 2  # a single-dash long option that takes a value (`mpirun -np 4 cmd`)
                continue
            consumed = False
            for j in range(1, len(t)):
                opt = "-" + t[j]
                if opt in spec.no_run_flags:
                    out.has_command = False
                    return out
                if opt in shell_opts or opt in spec.split_options or opt in value_opts:
                    rest = t[j + 1 :]
                    value_arg = Arg(rest, rest) if rest else (args[i + 1] if i + 1 < n else Arg("", ""))
                    consumed = not rest
                    if opt in shell_opts:
                        out.shell_lines.append(value_arg)
                    elif opt in spec.split_options:
                        literal = DYN not in value_arg.text
                        prefix.extend(split_words(value_arg.text) if literal else [value_arg])
                    if opt in ("-I", "-i") and spec.feeds_arguments:
                        replace = value_arg.text or "{}"
                    if opt in spec.arg_file_options:
                        arg_file = value_arg.text
                    if opt in spec.directory_options:
                        out.directories.append(value_arg)
                    break
            else:
                if not all("-" + ch in spec.flag_options for ch in t[1:]):
                    ambiguous_at = i
            i += 2 if consumed else 1
            continue
        if spec.assignments and _ASSIGNMENT.match(t):
            if DYN not in t:
                assigned.append(t)
            elif _ASSIGNMENT.match(a.raw.lstrip('"')):
                # `env PATH=/tmp:$PATH make`, `env "PATH=/tmp:$PATH" make`: read again as the shell spelled it
                raw = a.raw
                if raw[:1] == '"':
                    name, _, value = raw[1:].partition("=")
                    raw = f'{name}="{value}'
                spelled.append(raw)
            i += 1
            continue
        if spec.skip_words and (
            t.lower() in spec.skip_words or (t[:1] == ":" and ":*" in spec.skip_words and i == 0)
        ):
            # `wt -w 0 new-tab -p x cmd`: a subcommand of its own, then more of its options; `call :run cmd`:
            # a batch file's subroutine handed a command line
            i += 1
            continue
        break
    else:
        i = n
    if arg_file is not None:
        # `xargs -a FILE`: the words come from FILE, not stdin (none from /dev/null), and the command it runs
        # reads xargs' own stdin.
        stdin_words = [] if arg_file == "/dev/null" else None
        if out.stdin == "none":
            out.stdin = "inherit"
    i += spec.positionals
    if i > n:
        i = n
    rest = list(args[i:])
    if spec.joined_line and rest and rest[0].text == "--":
        rest = rest[1:]  # `npm explore PKG -- CMD`: the `--` ends npm's options
    if spec.stop_at:
        for k, a in enumerate(rest):
            if a.text in spec.stop_at:
                rest, inputs = rest[:k], rest[k:]
                break
        else:
            inputs = []
        if not rest and not out.shell_lines:
            # `parallel ::: 'rm -rf x'`, `echo 'rm -rf x' | parallel`: with no command, every input line is
            # itself a command line (inputs from files, `::::`, are unknown here).
            _inputs_as_commands(out, inputs, stdin_words, spec.stop_at)
        if any(a.text in ("--pipe", "--pipepart") for a in args[:i]):
            stdin_words = None  # the input goes to the command's stdin in blocks, not into its arguments
    if (shell_opts or spec.attached_shell_options) and not out.shell_lines:
        # GNU tools accept options after operands (`flock FILE -c CMD`): look for the command line anywhere.
        for k, a in enumerate(args):
            t = a.text
            if "=" in t and t.partition("=")[0] in spec.attached_shell_options:
                out.shell_lines.append(Arg(t.partition("=")[2], t.partition("=")[2]))
            elif t in shell_opts and k + 1 < n:
                out.shell_lines.append(args[k + 1])
            elif t.startswith("--") and t.split("=", 1)[0] in shell_opts and "=" in t:
                out.shell_lines.append(Arg(t.split("=", 1)[1], a.raw))
    while spec.assignments and prefix and _ASSIGNMENT.match(prefix[0].text) and DYN not in prefix[0].text:
        assigned.append(prefix.pop(0).text)  # `env -S 'EDITOR=x git commit'`
    if spec.operand_lines:
        # `concurrently "tsc -w" "rm -rf x"`: each operand is a command line of its own.
        for a in rest:
            if a.text[:1] != "-":
                text = _SCRIPT_SHORTCUT.sub(r"\1 run '\2'", a.text, count=1) if DYN not in a.text else a.text
                out.shell_lines.append(a if text == a.text else Arg(text, a.raw))
        rest = []
    if spec.operands_run_nothing:
        rest = []  # `script LOGFILE`, `newgrp GROUP`: the operands are no command
    if spec.environment_prefix and rest:
        named = _ENVIRONMENT_PREFIX.match(rest[0].text)
        if named is not None:
            rest[0] = lit(rest[0].text[named.end() :])  # `hatch run test:cov`: `cov`, in environment `test`
    readings = [prefix + rest]
    if ambiguous_at is not None and ambiguous_at + 1 == i - spec.positionals and len(rest) > 1:
        # The last unknown option might have taken the next word as its value; then a `--` after that word
        # ends the options (`xargs -Z file -- x` runs `x`), and is no program of its own.
        readings.append(rest[2:] if rest[1].text == "--" else rest[1:])
    if spec.package_bins:
        readings += [[lit(name), *r[1:]] for r in readings if r and (name := _package_bin(r[0].text))]
    whole_input = spec.feeds_arguments and replace is None and stdin_words and _delimited(args[:i])
    for reading in readings:
        if not reading:
            continue
        if whole_input and stdin_words:
            # `xargs -0` / `-d '\n'`: blanks do not split the input, so `echo 'rm -rf x' | xargs -0 sh -c`
            # gives sh one argument, the whole line.
            joined = " ".join(a.text for a in stdin_words)
            out.candidates.append([*reading, Arg(joined, joined)])
        if spec.feeds_arguments:
            reading = _feed(reading, stdin_words, replace)
        out.candidates.append(reading)
    if spec.joined_line:
        # `npm explore x -- sh -c "cat ~/.ssh/id_rsa"`: npm runs `sh -c cat ~/.ssh/id_rsa` with the shell
        for reading in out.candidates:
            out.shell_lines.append(Arg(" ".join(a.text for a in reading), " ".join(a.raw for a in reading)))
    if not out.shell_lines and _starts_shell(spec, args, bool(out.candidates)):
        # `echo 'rm -rf x' | sudo -s`, `su root <<EOF`: a login shell reads its commands from stdin.
        out.candidates.append([lit("sh")])
    if out.candidates or out.shell_lines:
        out.has_command = True
    elif any(DYN in a.text for a in args):
        out.has_command = None
    for t in assigned:
        # `env EDITOR='rm -rf x' git commit`: the value is checked as the shell checks `NAME=value cmd`
        # (programs run some values as commands). Added after `has_command`: `env A=1` alone runs nothing.
        name, _, value = t.partition("=")
        line = f"{name}={shlex.quote(value)} :"
        out.shell_lines.append(Arg(line, line))
    for raw in spelled:
        line = f"{raw} :"
        out.shell_lines.append(Arg(line, line))
    return out


# ... or when a flag asks for the shell: `sudo -s`, `sudo -i`, `doas -s`.
_SHELL_FLAGS = {"sudo": frozenset("si"), "doas": frozenset("s")}
_SHELL_LONG_FLAGS = frozenset({"--shell", "--login"})


def _has_flag(word: str, flags: list[str]) -> bool:
    """`word` is one of `flags`, or a cluster of short options holding one (`-ot` holds `-o`)."""
    if word in flags:
        return True
    if word[:1] != "-" or word[:2] == "--":
        return False
    return any(len(f) == 2 and f[1] in word[1:] for f in flags if f[:2] != "--")


def _starts_shell(spec: WrapperSpec, args: list[Arg], has_command: bool) -> bool:
    """Does the wrapper start the user's shell (which reads its commands from stdin)? Always for `su USER`,
    `script FILE`, `newgrp GROUP`; with no command for `chroot DIR`, `unshare -r`; or when a flag asks for it
    (`sudo -s`, `sudo -i`, `doas -s`)."""
    if spec.shell_always:
        return True
    if has_command:
        return False
    if spec.shell_when_empty:
        return True
    letters = _SHELL_FLAGS.get(spec.names[0])
    if letters is None:
        return False
    skip = False
    for a in args:
        t = a.text
        if skip:
            skip = False
            continue
        if t == "--" or t[:1] != "-":
            break
        if t in spec.value_options:
            skip = True
        elif t in _SHELL_LONG_FLAGS or (t[1:2] != "-" and not letters.isdisjoint(t[1:])):
            return True
    return False


def _inputs_as_commands(
    out: Wrapped, inputs: list[Arg], stdin_words: list[Arg] | None, stops: list[str]
) -> None:
    files = False
    for a in inputs:
        if a.text in stops:
            files = a.text.startswith("::::")
        elif files or DYN in a.text:
            out.candidates.append([Arg(DYN, a.raw)])
        else:
            out.shell_lines.append(a)
    if not inputs:
        if stdin_words is not None:
            text = " ".join(a.text for a in stdin_words)
            out.shell_lines.append(Arg(text, text))
        else:
            out.candidates.append([Arg(DYN, "<stdin>")])  # lines read at run time


def _delimited(options: list[Arg]) -> bool:
    """Do xargs options make it split its input on NULs or a delimiter instead of blanks?"""
    for a in options:
        t = a.text
        if t in ("--null", "-0") or t.startswith(("--delimiter", "-d")):
            return True
        if t[:1] == "-" and t[1:2] != "-" and "0" in t:
            return True  # `-0r`, `-r0`
    return False


FED_WORDS = Arg(DYN, "<words from stdin>")
"""What `xargs` adds to its command when the pipe is not a literal: words read from stdin."""


def _feed(argv: list[Arg], stdin_words: list[Arg] | None, replace: str | None) -> list[Arg]:
    """`xargs`: the command also gets words read from stdin (unknown unless the pipe is a literal)."""
    if replace is not None:
        return [FED_WORDS if a.text == replace else a for a in argv]
    return argv + (stdin_words if stdin_words is not None else [FED_WORDS])


def find_exec(args: list[Arg]) -> list[list[Arg]]:
    """The commands of `find ... -exec CMD ;` / `-execdir` / `-ok` / `-okdir` (terminated by `;` or `+`)."""
    found: list[list[Arg]] = []
    i = 0
    while i < len(args):
        if args[i].text in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(args) and args[j].text not in (";", "+"):
                j += 1
            if j > i + 1:
                found.append(args[i + 1 : j])
            i = j
        i += 1
    return found


@record()
class ShellRun:
    """How a shell invocation gets its script."""

    inline: Arg | None = None
    """The `-c` command line."""
    reads_stdin: bool = False
    script_file: bool = False
    script: Arg | None = None
    """The script operand (`bash x.sh`, `bash <(...)`), when the script comes from a file."""
    dynamic: Arg | None = None
    """A word known only at run time where an option or the script could be (`bash $x`, `sh -$f`)."""
    init: list[Arg] = many()
    """Commands run before the script (`fish -C CMD`, `fish --init-command=CMD`)."""
    rcfiles: list[Arg] = many()
    """Start-up files named on the command line (`bash --rcfile F`, `--init-file F`)."""
    params: list[Arg] = many()
    """The words after the `-c` command line: `$0`, `$1` ... of that script."""
    noexec: bool = False
    """`-n` (`-o noexec`) without `-i`: the shell reads its script for syntax errors and runs none of it
    (`bash -n x.sh`). An interactive shell ignores `-n`."""


_STDIN_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/proc/thread-self/fd/0"})
_DESCRIPTOR_FILE = lazy_re(r"/dev/fd/[^/]*|/proc/[^/]*/fd/[^/]*|/dev/std(?:in|out|err)")
_PROC_STDIN = lazy_re(r"/proc/[^/]*/fd/0")


def script_source(script: Arg) -> str:
    """Where a script file named by `script` really comes from: "stdin", "dynamic" or "file".

    `/dev/stdin`, `/dev/fd/0` and `/proc/*/fd/0` are standard input; any other descriptor file, a process
    substitution, or a name only known at run time whose value may be anything (`$x`, `"$(...)"`) cannot be
    read in advance. A quoted name that is only partly dynamic (`"$DIR/build.sh"`) is a file like any other.
    """
    text = script.text
    if text in _STDIN_FILES or _PROC_STDIN.fullmatch(text.replace(DYN, "x")):
        return "stdin"
    if DYN not in text:
        return "dynamic" if _DESCRIPTOR_FILE.fullmatch(text) else "file"
    if not text.replace(DYN, "") or script.raw.startswith(("<(", ">(")):
        return "dynamic"  # `$x`, `"$x"`, `$(...)`, `<(...)`: all of it is decided at run time
    if text.startswith(DYN) and not script.raw.startswith('"'):
        return "dynamic"  # unquoted `$x/y` splits into words, the first of which may be an option
    if _DESCRIPTOR_FILE.fullmatch(text.replace(DYN, "x")):
        return "dynamic"
    return "file"


_FISH_INIT = frozenset({"-C", "--init-command"})


_GIT_COMMAND_KEYS = frozenset({"core.pager", "core.editor", "sequence.editor", "diff.external"})
"""git settings whose value is a command line git runs with `sh -c` (with its own words appended)."""
_GIT_GLOBAL_VALUES = frozenset(
    {"-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"}
)


def git_command_settings(args: list[Arg]) -> tuple[list[Arg], list[tuple[str, Arg]], Arg | None]:
    """`git -c core.pager=cat log`: git's words without the `-c` settings whose command line can be read
    (a pager, an editor, an external diff, an alias), and those settings as (key, the line git runs). An
    alias without `!` runs git itself (`alias.st=status`: `git status`). Settings known only at run time,
    and every other key, stay among the words for the rules to judge. Last, the first setting whose key is
    only known at run time (`git -c "$KV" status`: any key, `core.pager` or an alias among them)."""
    kept: list[Arg] = []
    lines: list[tuple[str, Arg]] = []
    unknown: Arg | None = None
    i, n = 0, len(args)
    while i < n:
        t = args[i].text
        if t == "-c" and i + 1 < n:
            value = args[i + 1]
            key, eq, line = value.text.partition("=")
            if unknown is None and DYN in key:
                unknown = value
            key = key.lower()
            if (
                eq
                and DYN not in value.text
                and (key in _GIT_COMMAND_KEYS or key.startswith(("pager.", "alias.")))
            ):
                if key.startswith("alias.") and line[:1] != "!":
                    line = f"git {line}"
                lines.append((key, Arg(line.removeprefix("!"), value.raw)))
            else:
                kept += args[i : i + 2]
            i += 2
            continue
        if t[:1] != "-" or DYN in t:
            break  # the subcommand: what follows is its own
        kept.append(args[i])
        if t in _GIT_GLOBAL_VALUES and i + 1 < n:
            kept.append(args[i + 1])
            i += 1
        i += 1
    return kept + args[i:], lines, unknown


def posix_shell(spec: ShellSpec, args: list[Arg], name: str = "") -> ShellRun:
    """Read `sh`/`bash`/`zsh` options: a short cluster holding `c` (`-lc`, `-xec`) takes the command line.

    A word known only at run time before the script (`bash $x`, `bash $opts x.sh`, `sh -$f`) may be `-c`
    with a command line, or the script itself: it is reported as `dynamic` and nothing else is guessed.
    """
    run = ShellRun()
    wants_inline = False
    forced_stdin = False
    interactive = False
    fish = name == "fish"
    i = 0
    n = len(args)
    while i < n:
        a = args[i]
        t = a.text
        if t in ("--", "-"):
            i += 1
            if t == "-":
                forced_stdin = True
            break
        if DYN in t and (t[:1] in ("-", "+", DYN)):
            if t[:1] == DYN and script_source(a) == "file":
                break  # `"$DIR/x.sh"`: a script path, partly named at run time
            if wants_inline and a.raw[:1] == '"':
                break  # `sh -c "$(...)"`: one word, the command line (checked when its value is known)
            run.dynamic = a
            return run
        if t[:1] in ("-", "+") and len(t) > 1:
            if t.startswith("--"):
                long_name, eq, attached = t.partition("=")
                if long_name == "--command":
                    wants_inline = True  # fish
                    if eq:
                        run.inline = Arg(attached, a.raw)
                        return run
                elif fish and long_name in _FISH_INIT:
                    value = Arg(attached, a.raw) if eq else (args[i + 1] if i + 1 < n else Arg("", ""))
                    run.init.append(value)
                    i += 1 if eq else 2
                    continue
                elif long_name in spec.value_options:
                    if long_name in ("--rcfile", "--init-file"):
                        value = Arg(attached, a.raw) if eq else (args[i + 1] if i + 1 < n else Arg("", ""))
                        run.rcfiles.append(value)
                    if not eq:
                        i += 1
                i += 1
                continue
            letters = t[1:]
            if fish and t[0] == "-" and "C" in letters:
                rest = letters[letters.index("C") + 1 :]
                value = Arg(rest, rest) if rest else (args[i + 1] if i + 1 < n else Arg("", ""))
                run.init.append(value)
                i += 1 if rest else 2
                continue
            if "c" in letters and t[0] == "-":
                wants_inline = True
            if "s" in letters and t[0] == "-":
                forced_stdin = True
            if "i" in letters and t[0] == "-":
                interactive = True
            if ("n" in letters and not fish) or interactive:
                run.noexec = t[0] == "-" and not interactive  # `+n` turns it off again
            if any(("-" + ch) in spec.value_options for ch in letters):
                if i + 1 < n and letters[-1:] == "o" and args[i + 1].text == "noexec":
                    run.noexec = t[0] == "-" and not interactive
                i += 1  # `-o pipefail`, `-O extglob`
            i += 1
            continue
        break
    if wants_inline:
        run.inline = args[i] if i < n else Arg("", "")
        run.params = list(args[i + 1 :])
    elif forced_stdin or i >= n:
        run.reads_stdin = True
    else:
        script = args[i]
        source = script_source(script)
        if source == "stdin":
            run.reads_stdin = True
        elif source == "dynamic":
            run.dynamic = script
        else:
            run.script_file = True
            run.script = script
    return run


def joined_command(spec: ShellSpec, args: list[Arg]) -> list[Arg]:
    """`wsl [-d distro] [-e] cmd args`: the words after the options (run as argv, or as one line)."""
    i = 0
    while i < len(args):
        t = args[i].text
        if t == "--":
            i += 1
            break
        if t[:1] != "-" or DYN in t:
            break
        i += 2 if t in spec.value_options else 1
    return args[i:]


_PS_PARAMS = (
    "command",
    "encodedcommand",
    "file",
    "executionpolicy",
    "noprofile",
    "noninteractive",
    "nologo",
    "noexit",
    "windowstyle",
    "version",
    "inputformat",
    "outputformat",
    "configurationname",
    "workingdirectory",
    "commandwithargs",
    "custompipename",
    "login",
    "mta",
    "sta",
    "settingsfile",
    "psconsolefile",
    "encodedarguments",
    "help",
)
_PS_ALIASES = {
    "c": "command",
    "e": "encodedcommand",
    "ec": "encodedcommand",
    "enc": "encodedcommand",
    "ea": "encodedarguments",
    "ep": "executionpolicy",
    "ex": "executionpolicy",
    "exec": "executionpolicy",
    "f": "file",
    "nop": "noprofile",
    "noni": "noninteractive",
    "nol": "nologo",
    "w": "windowstyle",
    "wd": "workingdirectory",
    "cwa": "commandwithargs",
    "v": "version",
    "if": "inputformat",
    "of": "outputformat",
    "l": "login",
}
_PS_VALUED = frozenset(
    {
        "executionpolicy",
        "windowstyle",
        "version",
        "inputformat",
        "outputformat",
        "configurationname",
        "workingdirectory",
        "custompipename",
        "settingsfile",
        "psconsolefile",
        "encodedarguments",
    }
)


def powershell_param(word: str) -> str | None:
    """Resolve a `powershell.exe` parameter (`-enc`, `/C`, `-Comm`) to its full lower-case name."""
    if len(word) < 2 or word[0] not in "-/\u2013\u2014":
        return None
    name = word[1:].lstrip("-").split(":", 1)[0].lower()
    if not name:
        return None
    if name in _PS_ALIASES:
        return _PS_ALIASES[name]
    # `-Command` wins any tie: reading too much as a script only makes the check stricter.
    if "command".startswith(name):
        return "command"
    return next((p for p in _PS_PARAMS if p.startswith(name)), None)


@record()
class PowerShellRun:
    """How a `powershell`/`pwsh` invocation gets its script."""

    inline: list[Arg] = many()
    encoded: Arg | None = None
    reads_stdin: bool = False
    script_file: bool = False
    file: Arg | None = None
    """The `-File` operand."""
    window_style: Arg | None = None
    """The `-WindowStyle` value (`Hidden`, `-w h`)."""
    working_directory: Arg | None = None
    """The `-WorkingDirectory` value: where the script starts."""
    no_exit: bool = False
    """`-NoExit`: the shell stays open, reading the terminal, once its script is done."""


def powershell_exe(args: list[Arg]) -> PowerShellRun:
    """Read `powershell -NoProfile -c ...`, `pwsh -EncodedCommand <b64>`, `powershell -File x.ps1`."""
    run = PowerShellRun()
    i = 0
    n = len(args)
    while i < n:
        a = args[i]
        param = powershell_param(a.text) if DYN not in a.text else None
        if param is None:
            if a.text == "-":
                run.reads_stdin = True
                return run
            # powershell.exe treats leftover words as -Command; pwsh as a file. Check as a command.
            run.inline = args[i:]
            return run
        if param in ("command", "commandwithargs"):
            attached = a.text.split(":", 1)[1] if ":" in a.text else ""
            rest = ([Arg(attached, attached)] if attached else []) + list(args[i + 1 :])
            if len(rest) == 1 and rest[0].text == "-":
                run.reads_stdin = True
            else:
                run.inline = rest
            return run
        if param == "noexit":
            run.no_exit = True
        if param == "encodedcommand":
            run.encoded = args[i + 1] if i + 1 < n else Arg("", "")
            return run
        if param == "file":
            run.script_file = True
            run.file = args[i + 1] if i + 1 < n else None
            if i + 1 < n and args[i + 1].text == "-":
                run.reads_stdin = True
                run.script_file = False
            return run
        # A value that is itself a parameter (`-w -enc <b64>`) is read as that parameter: powershell.exe
        # rejects the pair, and reading the parameter is the stricter of the two ways.
        valued = param in _PS_VALUED and ":" not in a.text
        if valued and i + 1 < n and DYN not in args[i + 1].text and powershell_param(args[i + 1].text):
            valued = False
        if param == "windowstyle" or param == "workingdirectory":
            attached = a.text.split(":", 1)[1] if ":" in a.text else None
            if attached is not None:
                value: Arg | None = Arg(attached, attached)
            else:
                value = args[i + 1] if valued and i + 1 < n else None
            if param == "windowstyle":
                run.window_style = value or run.window_style
            else:
                # a value that is itself a parameter leaves the place unknown
                run.working_directory = value or Arg(DYN, a.raw)
        i += 2 if valued else 1
    run.reads_stdin = True
    return run


_HIDDEN = frozenset({"hidden", "1", "[diagnostics.processwindowstyle]::hidden"})


def hides_window(style: Arg) -> bool | None:
    """Does a `-WindowStyle` value hide the window? `Hidden` in any case, any prefix of it (`-w h`, `-win
    hid`: the launchers read abbreviations), or `1` (its number); None when only known at run time."""
    value = style.text.strip("'\" ").lower()
    if DYN in value:
        return None
    value = value.replace("system.", "").strip("()")
    return value in _HIDDEN or (len(value) >= 1 and "hidden".startswith(value))


def _cmd_word(a: Arg, powershell: bool = False) -> str:
    """One argument as it appears on the command line `cmd` reads: a word holding blanks is quoted.
    PowerShell (5.1, and 7.3+ for cmd.exe, its "legacy" exception) quotes it without escaping the quotes
    inside: `cmd /c 'dir | find "x"'` hands cmd `"dir | find "x""`."""
    t = a.text
    if t and '"' not in t and " " not in t and "\t" not in t:
        return t
    if '"' in t:
        if " " not in t and "\t" not in t:
            return t
        if powershell:
            return f'"{t}"'
        # The launcher quotes the word and escapes its quotes for the program's C runtime (and cmd's own
        # reading of the same text is checked as well: see `CmdScript.program_readings`).
        return '"' + _ESCAPED_QUOTE.sub(lambda m: m.group(1) * 2 + '\\"', t) + '"'
    return f'"{t}"'


_ESCAPED_QUOTE = lazy_re(r'(\\*)"')


_MSYS_SWITCH = lazy_re(r"//[A-Za-z?](?:[:/][^/\\\s]*)?")
"""`//c`, `//s`, `//v:on`: how a Git Bash (MSYS) command line spells a Windows switch (it passes `/c`)."""


def _msys(a: Arg) -> Arg:
    return Arg(a.text[1:], a.raw) if a.text[:2] == "//" and _MSYS_SWITCH.fullmatch(a.text) else a


CMD_LINE_SWITCHES = frozenset({"/c", "/k", "/r", "-c", "-k", "-r"})
"""cmd's switches after which the rest of the words are the command line it runs."""


def cmd_exe(args: list[Arg], powershell: bool = False) -> tuple[str | None, bool, bool]:
    """`cmd /c LINE` -> (LINE, literal?, reads stdin?); switches ignore case and may be glued (`/c"x"`).
    `powershell`: PowerShell starts cmd (see `_cmd_word`).

    The words after `/c` are joined the way the process's command line carries them (a word with blanks is
    quoted, so `cmd /c echo "a & b"` stays one `echo`), then cmd's own rule strips one pair of outer quotes.
    A word known only at run time where a switch could be (`cmd $a`) may be `/c` with a command line: the
    line is then unknown (None's second element False).
    """
    if any(a.text[:2] == "//" for a in args):
        args = [_msys(a) for a in args]
    for i, a in enumerate(args):
        t = a.text
        low = t.lower()
        if DYN in t and (low[:1] in ("/", "-", DYN)):
            return " ".join(x.raw for x in args[i:]), False, False
        if low[:2] in CMD_LINE_SWITCHES and (len(low) == 2 or low[0] == "/" or not low[2].isalpha()):
            # No other cmd switch starts with c, k or r: `/crd /s /q x` is `/c rd /s /q x`.
            glued = t[2:].lstrip() if len(t) > 2 else ""
            parts = ([glued] if glued else []) + [_cmd_word(x, powershell) for x in args[i + 1 :]]
            line = " ".join(parts).strip()
            literal = DYN not in line
            if line[:1] == '"':
                # cmd strips the first quote and the last one (`cmd /c "rd /s /q x"` runs `rd /s /q x`).
                last = line.rfind('"')
                line = line[1:last] + line[last + 1 :] if last > 0 else line[1:]
            return line, literal, False
        if not t.startswith(("/", "-")):
            break
    return None, True, True


_PS_ARRAY_ITEM = lazy_re(r"""\s*(?:'((?:[^']|'')*)'|"([^"$`]*)"|([^\s,'"$`()@{};]+))\s*(?:,|$)""")


def powershell_array(raw: str) -> list[Arg] | None:
    """The items of a literal PowerShell array argument (`@('/c','rd /s /q x')`, `('a','b')`), else None.

    PowerShell passes each item of an array to a native program as its own argument; an array holding
    anything but literal strings and bare words is only known at run time.
    """
    body = raw.strip()
    if body.startswith("@(") and body.endswith(")"):
        body = body[2:-1]
    elif body.startswith("(") and body.endswith(")"):
        body = body[1:-1]
    else:
        return None
    body = body.strip()
    if not body:
        return []
    items: list[Arg] = []
    pos = 0
    while pos < len(body):
        m = _PS_ARRAY_ITEM.match(body, pos)
        if m is None or m.end() == pos:
            return None
        if m.group(1) is not None:
            items.append(Arg(m.group(1).replace("''", "'"), m.group(0).strip().rstrip(",").strip()))
        elif m.group(2) is not None:
            items.append(Arg(m.group(2), m.group(0).strip().rstrip(",").strip()))
        else:
            items.append(lit(m.group(3)))
        pos = m.end()
    return items


def powershell_arrays(args: list[Arg]) -> list[Arg]:
    """PowerShell passes each item of an array argument on its own: unpack literal `@('/c','x')` arrays
    (anything else in one stays a word only known at run time)."""
    if not any(DYN in a.text and a.raw[:1] in ("@", "(") for a in args):
        return args
    out: list[Arg] = []
    for a in args:
        items = powershell_array(a.raw) if DYN in a.text and a.raw[:1] in ("@", "(") else None
        out.extend(items if items is not None else (a,))
    return out


@record()
class ExecutorRun:
    """What an interpreter invocation runs."""

    payloads: list[Arg] = many()
    module_argv: list[Arg] | None = None
    tool_argv: list[Arg] | None = None
    """The command one of its tool words runs when no tool of its own follows (`R CMD rm -rf x`)."""
    reads_stdin: bool = False
    script: Arg | None = None
    """The program file it runs (`python x.py`), when named by a literal path."""
    interactive: bool = False
    """A flag makes it read the terminal once its program ends (`python -i x.py`)."""
    program_files: list[Arg] = many()
    """Program files named by an option (`awk -f x.awk`, `sed -f x.sed`), judged where they lie."""


def _program_file(run: ExecutorRun, value: Arg) -> None:
    """`awk -f FILE`, `sed -f FILE`: a program file that is standard input (`-`, `/dev/stdin`) is read like
    `python -`; one only known at run time (`<(...)`, `$f`, `/dev/fd/3`) cannot be read in advance; any
    other is a program file like `python x.py`'s."""
    source = "stdin" if value.text == "-" else script_source(value)
    if source == "stdin":
        run.reads_stdin = True
    elif source == "dynamic":
        run.payloads.append(Arg(DYN, value.raw))
    elif value.text:
        run.program_files.append(value)


def _first_operand(args: list[Arg], value_options: list[str]) -> int | None:
    """Where the first word that is neither an option nor an option's value is (`deno -q eval`: 1)."""
    i = 0
    while i < len(args):
        t = args[i].text
        if t[:1] != "-" or len(t) == 1:
            return i
        i += 2 if t in value_options else 1
    return None


_CLUSTER_SCAN = 32
"""Option clusters up to this long are read letter by letter; longer ones by their distinct letters."""


def _cluster_letters(word: str) -> Sequence[int]:
    """Where each letter of an option cluster (`-vc`) first stands, in order: a letter met again decides
    nothing its first place did not (`-VVVV…` of 100 kB: a look per letter, not per character)."""
    if len(word) <= _CLUSTER_SCAN:
        return range(1, len(word))
    return sorted(word.find(letter, 1) for letter in set(word[1:]))


def _asks_for_terminal(word: str, spec: ExecutorSpec) -> bool:
    """Is this option word (one of the interpreter's own, before its program) an interactive flag, alone or
    in a cluster before a letter that takes a value (`-i`, `-im mod`; not `-Wi`, whose `i` is -W's value)?"""
    if word in spec.interactive_flags:
        return True
    if word[1:2] == "-":
        return False
    for j in _cluster_letters(word):
        opt = "-" + word[j]
        if opt in spec.interactive_flags:
            return True
        if opt in spec.inline or opt in spec.module or opt in spec.file_flags or opt in spec.value_options:
            return False
    return False


_SUFFIX = lazy_re(r"(?:\.[\w.~-]*)?")
"""A backup suffix (`''`, `.bak`, `.orig`): the word after BSD sed's `-i`, which GNU sed would run as its
program (and fail on)."""


@cache
def _cmdlet_parameters(names: tuple[str, ...]) -> dict[str, str | None]:
    """Each lower-case prefix (without its dash) of a cmdlet's parameter `names` -> the name as listed, or
    None when it begins several (`unique_prefix_table`)."""
    spelled = {name[1:].lower(): name for name in names}
    table = unique_prefix_table(tuple(spelled))
    return {prefix: spelled[name] if name is not None else None for prefix, name in table.items()}


def _cmdlet_words(spec: ExecutorSpec, args: list[Arg]) -> list[Arg]:
    """A cmdlet's parameters spelled as its spec lists them, as PowerShell binds them: in any case, by any
    unique prefix (`-qu $q` is `-Query $q`), `-Name:value` as `-Name value`. A word that is no parameter
    name, or a prefix of several, is left as written (PowerShell refuses the line then)."""
    table = _cmdlet_parameters((*spec.inline, *spec.file_flags, *spec.value_options, *spec.switches))
    words: list[Arg] = []
    for a in args:
        name, colon, value = a.text.partition(":")
        if a.text[:1] == "-" and len(name) > 1 and DYN not in name:
            hit = table.get(name[1:].lower())
            if hit is not None:
                words.append(Arg(hit, hit, param=True))
                if colon:
                    words.append(_bound_value(a.raw.partition(":")[2] or value))
                continue
        words.append(a)
    return words


def _bound_value(raw: str) -> Arg:
    """The value of `-Name:value` as PowerShell reads it (the parser hands the token on whole): a variable,
    a subexpression or an expandable string holding one is only known at run time; quotes are removed."""
    if raw[:1] in ("$", "(", "@") or (raw[:1] == '"' and ("$" in raw or "`" in raw)):
        return Arg(DYN, raw)
    if len(raw) > 1 and raw[0] in ("'", '"') and raw[-1] == raw[0]:
        return Arg(raw[1:-1], raw)
    return Arg(raw, raw)


def executor(spec: ExecutorSpec, args: list[Arg]) -> ExecutorRun:
    """Find the inline program(s) of `python -c`, `perl -ne`, `node --eval=`, `awk '{...}'`, or `-m mod`."""
    run = ExecutorRun()
    if spec.cmdlet:
        args = _cmdlet_words(spec, args)
    inline = spec.inline
    own = args
    if spec.script_operand and not spec.program_is_first_operand:
        # Words after the script are the script's own (`php vendor/bin/php-coveralls -v`, `python3 x.py -h`):
        # only the interpreter's options before it can make it print and read no program.
        at = _first_operand(args, spec.value_options)
        own = args if at is None else args[:at]
    if (
        spec.no_program_flags
        and any(a.text in spec.no_program_flags for a in own)
        and not any(a.text[:2] in inline or a.text.partition("=")[0] in inline for a in args)
    ):
        return run  # `psql -l`, `php -m`: it lists or prints, and reads no program (unless given one too)
    if spec.subcommand:
        at = _first_operand(args, spec.value_options)
        if at is None or args[at].text != spec.subcommand:
            return run  # `deno run x.ts`: another subcommand, no inline program
        args = args[at + 1 :]
    file_given = False
    operand: int | None = None
    operands_seen = 0
    i = 0
    n = len(args)
    while i < n:
        a = args[i]
        t = a.text
        if t == "--":
            operand = i + 1 if i + 1 < n else None
            break
        if t == "-":
            operand = i
            break
        if t[:1] == "-" and len(t) > 1 and DYN not in t:
            if spec.interactive_flags and _asks_for_terminal(t, spec):
                run.interactive = True
            if t.startswith("--"):
                name, eq, attached = t.partition("=")
                value = Arg(attached, attached) if eq else (args[i + 1] if i + 1 < n else Arg("", ""))
                step = 1 if eq else 2
                if name in inline:
                    run.payloads.append(value)
                elif name in spec.module:
                    run.module_argv = [value, *args[i + step :]]
                    return run
                elif name in spec.file_flags:
                    file_given = True
                    _program_file(run, value)
                elif name in spec.init_flags:
                    _program_file(run, value)
                elif name not in spec.value_options:
                    step = 1
                i += step
                continue
            if len(t) > 2 and (
                t in spec.value_options or t in inline or t in spec.file_flags or t in spec.init_flags
            ):
                # A long option written with one dash (`-cp DIR`, `sqlite3 -cmd SQL`), not a cluster.
                value = args[i + 1] if i + 1 < n else Arg("", "")
                if t in inline:
                    run.payloads.append(value)
                elif t in spec.file_flags:
                    file_given = True
                    _program_file(run, value)
                elif t in spec.init_flags:
                    _program_file(run, value)  # `sqlite3 -init x.sql db`: the shell still opens after it
                i += 2
                continue
            step = 1
            for j in _cluster_letters(t):
                opt = "-" + t[j]
                if opt in inline or opt in spec.module or opt in spec.file_flags or opt in spec.value_options:
                    rest = t[j + 1 :]
                    value = Arg(rest, rest) if rest else (args[i + 1] if i + 1 < n else Arg("", ""))
                    step = 1 if rest else 2
                    if opt in inline:
                        run.payloads.append(value)
                    elif opt in spec.module:
                        run.module_argv = [value, *args[i + step :]]
                        return run
                    elif opt in spec.file_flags:
                        file_given = True
                        _program_file(run, value)
                    break
            i += step
            if run.payloads and spec.language == "python":
                return run  # everything after `-c CODE` is the program's own argv
            continue
        if t[:2] == "--" and t.partition("=")[0] in spec.setting_options and "=" in t:
            i += 1  # `julia --project=$DIR x.jl`: whatever `$DIR` holds, it names the environment
            continue
        if DYN in t and a.may_be_flag and not run.payloads and not file_given and spec.language != "make":
            # `python $FLAGS`: could be `-c <code>`; the program cannot be known (make takes it as a target).
            run.payloads.append(Arg(DYN, a.raw))
            return run
        if operands_seen < spec.operands_before_program:
            operands_seen += 1  # `sqlite3 DB 'SQL'`: the database comes before the program
            i += 1
            continue
        if not spec.script_operand:
            i += 1  # `psql mydb -c SQL`: operands are data, and options may follow them
            continue
        operand = i
        break
    if run.payloads or file_given:
        script = args[operand] if operand is not None and operand < n and not file_given else None
        if spec.script_after_inline and script is not None and script_source(script) == "file":
            run.script = script
        return run
    if spec.program_is_first_operand and operand is not None:
        run.payloads.append(args[operand])
        suffix = operand > 0 and args[operand - 1].text in spec.suffix_options
        if suffix and _SUFFIX.fullmatch(args[operand].text):
            # `sed -i '' [-E] PROGRAM f`, `sed -i '' -e A -e B f`: BSD sed's reading, where the options and
            # the program follow the suffix
            bsd = executor(spec, args[operand + 1 :])
            run.payloads.extend(bsd.payloads)
            run.program_files.extend(bsd.program_files)
            run.reads_stdin = run.reads_stdin or bsd.reads_stdin
        return run
    if not spec.script_operand:
        operand = None  # `psql DBNAME`: operands are data; the program comes from stdin
    elif operand is not None and operand < n and args[operand].text in spec.tool_words:
        # `R CMD build .`: one of its own tools, which runs no program unless it is one that runs a script
        tool = operand + 1
        if tool < n and args[tool].text in spec.script_tools:
            script = next((a for a in args[tool + 1 :] if a.text[:1] != "-" or DYN in a.text), None)
            if script is not None:
                _program_file(run, script)
        elif (
            tool < n
            and spec.own_tools
            and args[tool].text not in spec.own_tools
            and (args[tool].text[:1] != "-" or DYN in args[tool].text)
        ):
            run.tool_argv = list(args[tool:])  # `R CMD rm -rf x`: no tool of R's, a program it runs
        return run
    source = script_source(args[operand]) if operand is not None and operand < n else "stdin"
    finds = spec.finds_programs_flags
    if operand is None and finds and any(a.text in finds for a in args):
        return run  # `node --test`: it runs the test files it finds, and reads no program
    if source == "stdin":
        # `python`, `python -`, `python /dev/stdin`, `perl /dev/fd/0`: the program is read from stdin.
        run.reads_stdin = spec.reads_stdin
    elif source == "dynamic" and DYN not in args[operand].text:
        run.payloads.append(Arg(DYN, args[operand].raw))  # `python /dev/fd/3`: another descriptor
    elif source == "file" and operand is not None and spec.language != "make":
        run.script = args[operand]
    return run


def windows_split(line: str) -> list[Arg]:
    """Split a Windows command line as a program's C runtime does (`CommandLineToArgvW`): double quotes
    group, `""` inside quotes is a quote, and backslashes are literal except before a quote, where each
    pair gives one backslash and an odd one escapes the quote (`\\"*.py\\"` is `"*.py"`)."""
    words: list[str] = []
    current: list[str] = []
    quoted = False
    started = False
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch == "\\":
            j = i
            while j < n and line[j] == "\\":
                j += 1
            count = j - i
            if j < n and line[j] == '"':
                current.append("\\" * (count // 2))
                if count % 2:
                    current.append('"')
                    i = j + 1
                else:
                    i = j  # the quote toggles below
                started = True
                continue
            current.append("\\" * count)
            started = True
            i = j
            continue
        if ch == '"':
            if quoted and i + 1 < n and line[i + 1] == '"':
                current.append('"')
                i += 2
                started = True
                continue
            quoted = not quoted
            started = True
        elif ch in " \t" and not quoted:
            if started:
                words.append("".join(current))
                current = []
                started = False
        else:
            current.append(ch)
            started = True
        i += 1
    if started:
        words.append("".join(current))
    return [lit(w) for w in words]
