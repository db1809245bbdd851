"""Commands that run other code: shells (`sh -c`, `pwsh -Command`, `cmd /c`), interpreters (`python -c`),
and the commands that run text or other commands (`eval`, `source`, `alias`, `trap`, `find -exec`,
`Invoke-Expression`, `Start-Process`, `Set-Alias`, `New-Object`, `Import-Module`, vim's start-up commands,
ruby's `-run -e VERB`). Each finds what runs and hands it back to the evaluation as a script, a command or a
payload; what cannot be known blocks."""

from __future__ import annotations

import shlex

from . import _parse_posix
from ._artefacts import find_start_words, plainly_inside
from ._editors import edited_files, editor_inputs, ex_mode, ex_reading, reads_terminal, runtime_option
from ._find_reach import fd_reaches_protected, find_reaches_protected, only_touches
from ._findings import shown, shown_args
from ._handed import in_program_folder
from ._lazy import lazy_re
from ._listed import listing_starts, under
from ._models import Dialect, ExecutorSpec, ShellSpec
from ._normalise import command_key
from ._paths import named_from_here
from ._payloads import dated, decode_powershell_b64
from ._rules import MATCH, CommandView
from ._syntax import DYN, MADE_TEMP, PAYLOAD_CHARS_PER_UNIT, PIECE_WORK, Arg, Feed, Frame, Stdin
from ._unwrap import (
    CMD_LINE_SWITCHES,
    cmd_exe,
    executor,
    find_exec,
    hides_window,
    joined_command,
    posix_shell,
    powershell_arrays,
    powershell_exe,
    script_source,
    windows_split,
)

_QUOTED_WORD = lazy_re("'[^']*'|\"[^\"$`]*\"")
_PLAIN_NAME = lazy_re(r"[a-z][a-z0-9_.-]*")
"""A command named by a bare word (folded), not a path, a drive or a URI."""

_FED = "__GLMAGENT_STDIN__"
_MADE_NAME = "__GLMAGENT_MKTEMP__"
"""The name a `trap` body expanded when set reads `mktemp`'s folder by."""

_MODULE_PROGRAMS = {
    "sphinx": "sphinx-build",
    "torch.distributed.run": "torchrun",
    "torch.distributed.launch": "torchrun",
}
"""Modules run with `python -m` that are a program the policy knows under its own name: `python -m sphinx
SRC OUT` is `sphinx-build SRC OUT`, `python -m torch.distributed.run` is `torchrun` (its old
`torch.distributed.launch` takes the same options)."""


def _window_styles(args: list[Arg]) -> list[Arg]:
    """`Start-Process`'s `-WindowStyle` values, also under a prefix PowerShell finds ambiguous (`-w h`: then
    nothing starts, so reading it as the window style costs nothing)."""
    out = []
    for i, a in enumerate(args):
        if a.param:
            key, sep, value = a.text.lstrip("-\u2013\u2014\u2015").partition(":")
            if key and "windowstyle".startswith(key.lower()):
                if sep:
                    out.append(Arg(value, a.raw))
                elif i + 1 < len(args):
                    out.append(args[i + 1])
    return out


_DOTNET_HOST_VALUES = frozenset({
    "--additionalprobingpath", "--additional-deps", "--depsfile", "--runtimeconfig", "--fx-version",
    "--roll-forward", "--roll-forward-on-no-candidate-fx",
})  # fmt: skip
"""The .NET host's options (`dotnet [exec] OPTIONS x.dll`) that take a value."""

_FD_EXEC = frozenset({"-x", "-X", "--exec", "--exec-batch"})
"""fd's options after which the rest of the words (to a `;`) are a command it runs on what it finds."""
_QUERY_READS = lazy_re(
    r"""\bload(?:_str|_props|_xml|_base64|_yaml|_json|_csv|_tsv|_toml|_ini)?\s*\(\s*"(?P<path>[^"]+)"\s*\)"""
    r"""|\b(?:import|include)\s+"(?P<module>[^"]+)"|\b(?:str)?env\s*\(\s*"?(?P<name>[A-Za-z_]\w*)"?\s*\)"""
)
"""What a yq or jq expression reads besides its input: a file `load("PATH")` and its kin read (yq), a module
file (jq's `import "PATH" as x;`, read from the library path too), a variable `strenv(NAME)` reads (yq)."""

_INFO_FLAGS = frozenset({"-V", "-h", "-?", "/?"})


_NO_INPUT = frozenset({"/dev/null", "nul", "NUL"})
"""Input redirected from nothing: the program reads no script (`sh < /dev/null`)."""
_VERSION_V = frozenset({"node", "perl", "ruby", "php", "lua", "r", "julia", "elixir"})
"""Languages whose interpreter prints its version for `-v` (python and the shells turn on verbose mode)."""
_VERSION_V_SHELLS = frozenset({"pwsh", "pwsh-preview"})
"""Shells that print their version for `-v` (PowerShell 7's short `-Version`; Windows PowerShell's
`-Version 2` starts that version's shell instead)."""

_VERSION_V_FLAGS = _INFO_FLAGS | {"-v"}

_INFO_WORDS = frozenset({"--version", "--help", "-help", "-version", "--usage", "-?", "/?"})
"""Options with which a shell or interpreter prints its version or usage and exits, reading nothing."""


def _only_value_options(args: list[Arg], value_options: list[str]) -> bool:
    """Every word is an option that takes a value, or that value (`-d Ubuntu -u root`), or there is none."""
    i = 0
    while i < len(args):
        if args[i].text not in value_options:
            return False
        i += 2
    return True


_SOURCING = frozenset({".", "source"})
"""Builtins that read a file into the running shell (`_named_script`)."""


_SQL_LANGUAGES = frozenset({"sql", "sql-file"})
"""Database consoles, whose program piped from files of the project is judged as those files redirected in."""


def _catted_files(stdin: Stdin) -> list[Arg] | None:
    """The files `cat` prints into this pipe, when it is handed nothing but literal file names (`cat a.sql
    b.sql | psql`); None for anything else (options, stdin, words known only at run time, other programs)."""
    produced = stdin.feed.producer() if stdin.feed is not None else None
    if produced is None or command_key(produced[0][0].text) != "cat":
        return None
    files = produced[0][1:]
    if not files or any(DYN in a.text or a.text[:1] == "-" for a in files):
        return None
    return files


_TASK_PROFILE_WORDS = frozenset({"as", "with-profile", "with-profiles"})
"""rebar3's and Leiningen's words that run what follows them under a profile (`rebar3 as test do x`)."""


_DUB_BUILDS = frozenset({"run", "build", "test"})
_DUB_VALUED = frozenset(
    {
        "-b", "--build", "-c", "--config", "--compiler", "-a", "--arch", "--root", "--registry", "--debug",
        "--d-version", "--override-config", "--build-mode", "--filter", "--main-file", "--cache", "--color",
        "--skip-registry", "--recipe",
    }
)  # fmt: skip
"""dub's options that take the next word as their value (`dub build -b release`)."""
_DUB_PACKAGE = lazy_re(r"[a-z0-9][a-z0-9_-]*(?::[a-z0-9_-]+)?(?:@[\w.~^<>=*+-]+)?")
"""A package's name as the registry spells it, maybe a sub-package's and a version (`dfmt`, `dpp@0.5.0`)."""


class RunsOtherCode:
    """How an `Evaluation` follows a command into the code it runs (a mixin: it calls back the
    evaluation's `script`, `command`, `payload` and `event`)."""

    __slots__ = ()

    def _stdin_script(
        self,
        stdin: Stdin | None,
        target: str,
        frame: Frame,
        who: str,
        argv: list[Arg],
        info_words: bool = True,
    ) -> None:
        """A shell or interpreter reads its program from stdin: check it if the text is known, else block.
        With nothing on stdin it reads the terminal: whatever would be typed there is unknown (and an
        unattended agent has nobody to type), unless it only prints its version or help."""
        if stdin is None:
            # `bash -v` is verbose
            versions = target in _VERSION_V or command_key(argv[0].text) in _VERSION_V_SHELLS
            info = _VERSION_V_FLAGS if versions else _INFO_FLAGS
            # A program that names its own help and version flags has them read already (`redis-cli -h`
            # is a host); for the rest, the usual ones count.
            if not info_words or not any(a.text in info or a.text.lower() in _INFO_WORDS for a in argv[1:]):
                self.event(
                    "terminal-program",
                    frame,
                    f"`{shown_args(argv)}` is given no script, file or piped text",
                    self._argv(argv),
                )
            return
        if stdin.is_file:
            # `sh < /opt/x.sh`, `mysql < "$F"`: the file is the program, judged as `sh FILE` or `psql -f FILE`
            path = stdin.path
            if path is not None and path.text not in _NO_INPUT:
                if DYN in path.text:
                    self._script_file(who, path, argv, frame, None)
                else:
                    self._judge_program(path, frame, argv)
            return
        text = stdin.text()
        files = _catted_files(stdin) if text is None and target in _SQL_LANGUAGES else None
        if files is not None:
            # `cat sql/*.sql | duckdb x.db`: the files are the program, judged as `duckdb x.db < a.sql`'s is
            for path in files:
                self._judge_program(path, frame, argv)
        elif text is None:
            self.event(
                "unknown-stdin", frame, f"`{who}` runs a script read from a {stdin.origin}", self._argv(argv)
            )
        elif target in ("posix", "powershell", "cmd"):
            self.script(text, target, frame.nested(f"`{who}` reading stdin"))  # type: ignore[arg-type]
        else:
            self.payload(target, text, frame.nested(f"`{who}` reading stdin"), argv)

    def _inline(self, line: Arg, dialect: Dialect, frame: Frame, argv: list[Arg]) -> None:
        if DYN in line.text:
            if frame.dialect == "posix" and line.text == DYN:
                # `sh -c "$(echo ...)"`, `eval "$(printf ...)"`: the line is what the substitution prints.
                text = _parse_posix.substitution_output(self, line.raw)
                if text is not None:
                    self.script(text.rstrip("\n"), dialect, frame)
                    return
            if line.text.replace(DYN, "").strip():
                # `sh -c "rm -rf $d"`: the literal part may already be a concrete deny, which explains the
                # block better; the run-time part stands in as a plain word. Either way it blocks below.
                self.script(line.text.replace(DYN, "_"), dialect, frame)
            self.event(
                "dynamic-script",
                frame,
                f"the script `{line.raw}` is only known at run time",
                self._argv(argv),
            )
        else:
            self.script(line.text, dialect, frame)

    def _script_locators(self, script: Arg, argv: list[Arg], frame: Frame) -> None:
        """The words after a script a shell runs are the script's own, as `./x.sh ARGS` gives them: another
        machine among them (`bash linper.sh --rhost 10.0.0.5`, `sh x.sh host:4444`) is judged as there. The
        shell's own words are not searched again (what it runs is checked as a command of its own)."""
        at = next((i for i, a in enumerate(argv) if a is script), len(argv) - 1)
        rest = argv[at + 1 :]
        if rest and self._may_name_machines("\n".join(a.text for a in rest), frame.dialect):
            info = self.p.word_info(script.text, frame.dialect, frame.aliases)
            self._locators(rest, [script, *rest], info, frame)

    def _named_script(
        self, script: Arg, argv: list[Arg], frame: Frame, who: str, module: bool = False
    ) -> None:
        """A script handed to its interpreter, or imported as a module, is the program it is: `python3
        lazagne.py all` runs as `./lazagne.py all` does, so the rules that know a tool by its name (those
        whose programs also ship as scripts) judge it so. Only a name with an extension counts, a module's,
        or one written as a path (`python3 ./Pcredz`, which `./Pcredz` runs too)."""
        text = script.text
        if not text or DYN in text:
            return
        at = next((i for i, a in enumerate(argv) if a is script), len(argv) - 1)
        if (
            not module
            and not named_from_here(text)
            and (in_program_folder(text) or (who not in _SOURCING and not self.scope(frame).holds(text)))
        ):
            # `python3 /usr/bin/pip install x`, `sh /usr/local/qcloud/agent/uninstall.sh`: the interpreter
            # runs an installed program's own script (or one from anywhere else outside the project), which
            # does what the program run by its path does. (A sourced file, `. /etc/init.d/functions`, is a
            # library of definitions, not that program run.)
            self.command([script, *argv[at + 1 :]], frame.wrapped(f"`{who}`"), None)
            return
        if "." not in command_key(text) and not module and "/" not in text and "\\" not in text:
            return
        info = self.p.word_info(text, frame.dialect, frame.aliases)
        clauses = tuple(c for c in info.clauses if c.script_names)
        if not clauses:
            return
        words = [script, *argv[at + 1 :]]
        inner = frame.wrapped(f"`{who}`")
        for compiled in clauses:
            state, detail = compiled.check(CommandView(info.names, words, frame.dialect, info.syntax))
            if state == MATCH:
                self._rule_finding(compiled.rule, words, info.names, inner, detail)

    # -- shells and interpreters --
    def _shell(self, name: str, spec: ShellSpec, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        args = argv[1:]
        if spec.dialect == "posix":
            if spec.joined:
                words = joined_command(spec, args)
                if not words and _only_value_options(args, spec.value_options):
                    # `wsl`, `wsl -d Ubuntu`: the distribution's shell starts, reading the terminal.
                    self._stdin_script(stdin, "posix", frame, name, argv)
                    return
                if words:
                    # `wsl -e cmd args` runs the words as argv; `wsl cmd args` passes them to a shell.
                    if not any(a.text.startswith("--cd") for a in args):
                        self._hand_on(argv, words)  # (`wsl --cd DIR` runs them elsewhere)
                    inner = frame.nested(f"`{name}`")
                    self.command(words, Frame("posix", inner.depth, inner.via), stdin)
                    line = Arg(" ".join(a.text for a in words), " ".join(a.raw for a in words))
                    self._inline(line, "posix", inner, argv)
                return
            if frame.dialect == "powershell":
                args = powershell_arrays(args)
            run = posix_shell(spec, args, name)
            if run.noexec and not (run.reads_stdin and stdin is None):
                # `bash -n x.sh`, `for f in *.sh; do sh -n "$f"; done`: the shell only reads the script
                # for syntax errors; nothing of it runs. A script named by its path is still judged.
                if run.script is not None:
                    self._judge_program(run.script, frame, argv, script=True)
                    self._named_script(run.script, argv, frame, name)
                return
            for init in run.init:
                self._inline(init, "posix", frame.nested(f"`{name} --init-command`"), argv)
            for rcfile in run.rcfiles:
                source = script_source(rcfile)
                if source == "stdin":
                    self._stdin_script(stdin, "posix", frame, name, argv)
                elif source == "dynamic":
                    self._script_file(name, rcfile, argv, frame, stdin)
            if run.script is not None:
                self._judge_program(run.script, frame, argv, script=True)
                self._named_script(run.script, argv, frame, name)
                self._script_locators(run.script, argv, frame)
                if self.p.service_folders and self.p.service_script(run.script.text) is not None:
                    # `sh /etc/init.d/ssh stop` drives the service as running the script by its path does.
                    at = next(i for i, a in enumerate(args) if a is run.script)
                    self.command(args[at:], frame.wrapped(f"`{name}`"), stdin)
            if run.dynamic is not None:
                self._script_file(name, run.dynamic, argv, frame, stdin)
            elif run.inline is not None:
                inner = frame.nested(f"`{name} -c`")
                for k, param in enumerate(run.params[:10]):
                    if DYN not in param.text:
                        inner.variables[str(k)] = param.text  # `sh -c '$0 -rf x' rm` names rm
                line = run.inline
                if stdin is not None and not stdin.is_file and DYN not in line.text:
                    # `echo 'rm -rf x' | sh -c 'sh'`: the line's commands read what the shell reads.
                    text = stdin.text()
                    feed = "<&3" if text is None else f"<<'{_FED}'\n{text}\n{_FED}"
                    line = Arg(f"{{ {line.text}\n}} {feed}", line.raw)
                self._inline(line, "posix", inner, argv)
            elif run.reads_stdin:
                self._stdin_script(stdin, "posix", frame, name, argv)
        elif spec.dialect == "powershell":
            if frame.dialect == "powershell":
                args = powershell_arrays(args)
            ps = powershell_exe(args)
            if ps.window_style is not None:
                self._hidden_window(ps.window_style, name, argv, frame)
            if ps.working_directory is not None:
                self.scope(frame).change_directory(ps.working_directory)  # as `cd DIR` before the script
            if ps.inline:
                words = [a for a in ps.inline if not a.block]
                if any(DYN in a.text for a in words):
                    self.event(
                        "dynamic-script",
                        frame,
                        f"the script `{shown_args(ps.inline)}` is only known at run time",
                        self._argv(argv),
                    )
                elif words:
                    self._hand_on(argv, words)
                    self.script(
                        " ".join(a.text for a in words), "powershell", frame.nested(f"`{name} -Command`")
                    )
            elif ps.encoded is not None:
                decoded = decode_powershell_b64(ps.encoded.text) if DYN not in ps.encoded.text else None
                if decoded is None:
                    self.event(
                        "dynamic-script",
                        frame,
                        f"`{name} -EncodedCommand` carries text that does not decode as UTF-16LE base64",
                        self._argv(argv),
                    )
                else:
                    self.script(decoded, "powershell", frame.nested(f"`{name} -EncodedCommand`"))
            elif ps.reads_stdin or (ps.file is not None and script_source(ps.file) == "stdin"):
                self._stdin_script(stdin, "powershell", frame, name, argv)
            elif ps.file is not None and (ps.file.text[:1] == DYN or ps.file.raw.startswith("<(")):
                self._script_file(name, ps.file, argv, frame, stdin, "powershell")
            elif ps.file is not None:
                self._judge_program(ps.file, frame, argv, script=True)
                self._named_script(ps.file, argv, frame, name)
                self._script_locators(ps.file, argv, frame)
            if stdin is None and ps.no_exit:
                self._stays_open(name, argv, frame)  # `pwsh -NoExit -Command x`
        else:
            if frame.dialect == "powershell":
                args = powershell_arrays(args)
            line, literal, reads_stdin = cmd_exe(args, frame.dialect == "powershell")
            if line is not None:
                at = next((i for i, a in enumerate(args) if a.text.lower() in CMD_LINE_SWITCHES), None)
                if at is not None:
                    self._hand_on(argv, args[at + 1 :])  # `cmd /c rd /s /q dist`: the line's own words
                if literal:
                    script = Arg(line, line)
                elif DYN in line:
                    script = Arg(line, line.replace(DYN, "%?%"))  # words only known at run time
                else:
                    script = Arg(DYN, line)  # a switch only known at run time: the whole line is unknown
                self._inline(script, "cmd", frame.nested(f"`{name} /c`"), argv)
                if at is not None and args[at].text.lower() in ("/k", "-k") and stdin is None:
                    self._stays_open(name, argv, frame)  # `cmd /k dir`
            elif reads_stdin:
                self._stdin_script(stdin, "cmd", frame, name, argv)

    def _stays_open(self, name: str, argv: list[Arg], frame: Frame) -> None:
        """A shell told to stay open once its command is done reads the terminal then, as one given none."""
        self.event(
            "terminal-program",
            frame,
            f"`{shown_args(argv)}` keeps `{name}` open for what is typed once its command is done",
            self._argv(argv),
        )

    def _executor(
        self, name: str, spec: ExecutorSpec, argv: list[Arg], frame: Frame, stdin: Stdin | None
    ) -> None:
        run = executor(spec, argv[1:])
        words: list[str] | None = None  # the command's words as a finding shows them, made once
        for payload in run.payloads:
            if spec.language == "sed" and DYN in payload.text and (stamped := dated(payload)) is not None:
                payload = Arg(stamped, payload.raw)  # `sed "s/<date>/$(date +%F)/"`: digits, whatever the day
            if DYN in payload.text:
                if words is None:
                    words = self._argv(argv)
                self.event(
                    "dynamic-script",
                    frame,
                    f"the `{name}` program `{payload.raw}` is only known at run time",
                    words,
                )
            else:
                self.payload(spec.language, payload.text, frame, argv)
        if run.module_argv:
            module = run.module_argv[0]
            if module.text in _MODULE_PROGRAMS:
                run.module_argv[0] = Arg(_MODULE_PROGRAMS[module.text], module.raw)
            self.command(run.module_argv, frame.wrapped(f"`{name} -m`"), stdin)
        if run.tool_argv:
            self.command(run.tool_argv, frame.wrapped(f"`{name}` runs `{run.tool_argv[0].raw}`"), stdin)
        if spec.language == "ruby":
            self._ruby_un(argv, frame)
        if run.script is not None:
            self._judge_program(run.script, frame, argv, script=True)
            self._named_script(run.script, argv, frame, name)
        for program in run.program_files:
            self._judge_program(program, frame, argv)
        if run.reads_stdin:
            self._stdin_script(stdin, spec.language, frame, name, argv, not spec.no_program_flags)
        elif run.interactive:
            self.event(
                "terminal-program",
                frame,
                f"`{shown_args(argv)}` reads the terminal once its program ends",
                self._argv(argv),
            )

    # -- commands that run text --
    def _eval(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        words = argv[1:]
        if words and words[0].text == "--":
            words = words[1:]
        if words:
            line = Arg(" ".join(a.text for a in words), " ".join(a.raw for a in words))
            self._inline(line, "posix", frame.nested("`eval`"), argv)

    def _source(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        args = argv[1:]
        if args and args[0].text == "--":
            args = args[1:]
        if not args:
            return
        script = args[0]
        if script.text[:1] == DYN and script.raw[:1] != '"' and script.text.replace(DYN, ""):
            # `source $VENV/bin/activate`: `source` reads no options, so a split word is still a file name.
            script = Arg(script.text, f'"{script.raw}"')
        source = script_source(script)
        if source == "stdin":
            self._stdin_script(stdin, "posix", frame, name, argv)
        elif source == "dynamic":
            self._script_file(name, args[0], argv, frame, stdin)
        else:
            self._judge_program(script, frame, argv, script=True)
            self._named_script(script, argv, frame, name)

    def _script_file(
        self,
        name: str,
        script: Arg,
        argv: list[Arg],
        frame: Frame,
        stdin: Stdin | None,
        dialect: Dialect = "posix",
    ) -> None:
        """A shell runs a script whose file (or options) is only known at run time: check the text when it is
        the known output of a process substitution (`bash <(echo ...)`), else block."""
        text = None
        if script.raw.startswith("<(") and frame.dialect == "posix":
            text = _parse_posix.substitution_output(self, script.raw)
        if text is not None:
            self.script(text, dialect, frame.nested(f"`{name}` reading `{shown(script.raw)}`"))
            return
        self.event(
            "dynamic-script",
            frame,
            f"`{shown_args(argv)}` runs a script, or takes options, given by `{shown(script.raw)}`, "
            "which is only known at run time",
            self._argv(argv),
        )

    def _alias(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        for a in argv[1:]:
            if "=" in a.text:
                _, value = a.text.split("=", 1)
                if DYN in value or not value.strip():
                    self._inline(Arg(value, a.raw), "posix", frame.nested("`alias`"), argv)
                else:
                    # Using the alias runs its value followed by the words after it (`alias x=rm; x -rf y`),
                    # which are not known here: they stand as a run-time word.
                    self.script(f'{value} "$@"', "posix", frame.nested("`alias`"))

    def _trap(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        args = [a for a in argv[1:] if a.text != "--"]
        if len(args) >= 2 and not args[0].text.startswith("-"):
            inner = frame.nested("`trap`")
            body = args[0]
            if frame.constants:
                inner.constants = dict(
                    frame.constants
                )  # the body sees the line's constants (see PosixWalker)
                if MADE_TEMP in body.text:
                    # `trap "rm -rf $tmp" EXIT`: expanded when set, to the name `mktemp` made, which stays it
                    inner.constants[_MADE_NAME] = MADE_TEMP
                    body = Arg(body.text.replace(MADE_TEMP, "${" + _MADE_NAME + "}"), body.raw)
            self._inline(body, "posix", inner, argv)

    def _coproc(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        # `coproc NAME { cmd; }` reaches us as words; the body after `{` is a command of its own.
        words = [a.text for a in argv[1:]]
        if "{" in words:
            body = argv[1 + words.index("{") + 1 :]
            self.command([a for a in body if a.text not in (";", "}")], frame.wrapped("`coproc`"), None)

    def _find(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        inner = frame.wrapped("`find -exec`")
        feed = Feed(lambda: (argv, None))  # every command find runs gets what find found
        commands = find_exec(argv[1:])
        for command in commands:
            self.command(command, inner, None, None, (feed,))
        # `{}` is a path under a start: from a start that may lie outside the project (`find /var/www -exec
        # cp x.html {} ;`), the command is judged again with `{}` placed there, so what it writes is judged
        # where it lands. Starts plainly inside keep `{}` as it is (a sweep's `rm -rf {} +` stays one).
        placed = [c for c in commands if any("{}" in a.text for a in c)]
        if placed:
            starts = [s for s in find_start_words(argv[1:]) if not plainly_inside(s)]
            for start in starts:
                for command in placed:
                    self.command(_placed(command, start), inner, None, None, (feed,))
            # From the top of the project, `{}` may also be a file of `.git` or `.hazina` (see `_find_reach`).
            places = find_reaches_protected(argv[1:], self.root)
            for command in placed if places else ():
                if not only_touches(command):
                    for place in places:
                        there = inner.wrapped(f"`{{}}` standing for a file in {place}, which `find` reaches")
                        self.command(_placed(command, Arg(place, place)), there, None, None, (feed,))

    def _fd(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        """`fd PATTERN -x CMD ARGS…` (`-X`, `--exec`, `--exec-batch`) runs CMD, up to a `;` or the end, on
        every path fd finds, as `find -exec` does: the command is checked like any other, fed by what fd
        found."""
        args = argv[1:]
        feed = Feed(lambda: (argv, None))
        places: list[tuple[Arg, str, bool]] | None = None  # (path, what it is, whether a reader counts too)
        for i, a in enumerate(args):
            if a.text not in _FD_EXEC:
                continue
            command: list[Arg] = []
            for b in args[i + 1 :]:
                if b.text == ";":
                    break
                command.append(b)
            if command:
                inner = frame.wrapped(f"`{name} {a.text}`")
                self.command(command, inner, None, None, (feed,))
                # The path lies below a search path, which may be outside the project (`fd . ../lib -x …`),
                # and with hidden folders searched it may be a file of `.git` or `.hazina` (`_find_reach`).
                if not only_touches(command):
                    if places is None:
                        starts = listing_starts([argv[0], *args[:i]]) or []
                        outside = [s for s in starts if not plainly_inside(s)]
                        places = [(under(s), f"a path below {s.raw}", False) for s in outside]
                        for place in fd_reaches_protected(args, self.root):
                            places.append((Arg(f"{place}/x", f"{place}/x"), f"a file in {place}", True))
                    for path, what, always in places:
                        placed = _fd_placed(command, path)
                        if always or self._writes_words(placed, frame, path):
                            there = inner.wrapped(f"the path of {what}, which `{name}` finds")
                            self.command(placed, there, None, None, (feed,))

    def _json_query(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        """A `yq` expression reads files and variables of its own (`load("PATH")`, `load_str`, `strenv(NAME)`,
        `env(NAME)`; jq's `import`/`include` of a module file): each is judged as `cat PATH` and as reading
        `$NAME` in the shell are. (jq's `env` and `$ENV` are the rules' business.)"""
        inner = frame.nested(f"a `{name}` expression")
        for a in argv[1:]:
            if DYN in a.text:
                continue
            for found in _QUERY_READS.finditer(a.text):
                path, variable = found.group("path") or found.group("module"), found.group("name")
                if path is not None:
                    self.script(f"cat -- {shlex.quote(path)}", "posix", inner)
                elif variable is not None:
                    self.script(f'printf %s "${variable}"', "posix", inner)

    def _printenv(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        """`printenv NAME…` prints those variables: each is judged as reading it (`$NAME`, `$env:NAME`) is,
        so a secret's name blocks and a tool's setting does not. (Bare `printenv`, which prints every
        variable, and a name only known at run time are the rule's business.)"""
        prefix = "env:" if frame.dialect == "powershell" else ""
        for a in argv[1:]:
            if a.text[:1] != "-" and a.literal:
                self.variable(prefix + a.text, frame, a.raw)  # type: ignore[attr-defined]

    def _editor(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        """vim and Neovim run the Ex command lines and the files their options give (`-c`, `--cmd`, `+CMD`,
        `-u`, `-S`, `-s`, `nvim -l`): a file is judged where it lies, as a script run from there would be; a
        command line is read by `ex_reading`, and one that may run what the policy cannot see blocks."""
        lines, files = editor_inputs(argv[1:], name)
        # each command read and each path judged costs like a listed item (`-c 'set x|set x|…'`), and the
        # text twice what an inline program's does (a `:lua` chunk is read by several expressions)
        self._spend(
            sum(
                PIECE_WORK * (line.text.count("|") + 1) + 2 * len(line.text) // PAYLOAD_CHARS_PER_UNIT
                for line in lines
            )
        )
        readings = [ex_reading(line.text) for line in lines]
        self._spend(PIECE_WORK * sum(len(r.paths) for r in readings))
        for script in files:
            self._judge_program(script, frame, argv)
        for line, reading in zip(lines, readings, strict=True):
            if reading.unsafe is not None:
                self.event(
                    "editor-command",
                    frame,
                    f"`{shown_args(argv)}` runs the Ex command line `{shown(line.raw)}`: {reading.unsafe}",
                    self._argv(argv),
                )
                continue
            for path in reading.paths:
                # a bare name is a file in the folder the editor starts in, not a program on the PATH
                written = path if path[:1] in "/.~" else f"./{path}"
                self._judge_program(Arg(written, path), frame, argv)
        if any(r.unsafe is None and (r.writes or r.written) for r in readings):
            # a batch edit (`-c '%s/a/b/g' -c wq f`) writes the files it edits and those its commands name
            edited = edited_files(name, argv[1:])
            if edited is None:
                self.event(
                    "editor-command",
                    frame,
                    f"`{shown_args(argv)}` writes a file it opens by a tag, an error list or a swap file",
                    self._argv(argv),
                )
            else:
                named = [Arg(w, w) for r in readings if r.unsafe is None for w in r.written]
                opened = edited if any(r.writes for r in readings) else []
                for target in [*opened, *named]:
                    self._judge_write(self.scope(frame), target, frame, self._argv(argv))  # type: ignore[attr-defined]
        if runtime_option(argv[1:]):
            self.event(
                "editor-command",
                frame,
                f"`{shown_args(argv)}` has a word known only at run time: an Ex command, option or script",
                self._argv(argv),
            )
        elif ex_mode(name, argv[1:]) and not any(r.ends for r in readings):
            self.event(
                "editor-command",
                frame,
                f"`{shown_args(argv)}` reads Ex commands from its input once its own are done",
                self._argv(argv),
            )
        elif reads_terminal(argv[1:], readings):
            self.event(
                "terminal-program",
                frame,
                f"`{shown_args(argv)}` is an editor waiting for someone at the terminal",
                self._argv(argv),
            )

    def _ruby_un(self, argv: list[Arg], frame: Frame) -> None:
        """`ruby -run -e VERB -- ARGS…` runs un.rb's VERB on ARGS with the options its coreutils namesake
        takes (`ruby -run -e mkdir -- -p tmp`, `ruby -run -e rm -- -rf build`, `ruby -run -e httpd . -p 8000`
        serves the folder): judged as that command, `--` dropped since un.rb reads the options after it.
        (`-r un` and `-ehttpd` are the same words written apart or together.)"""
        words = [a.text for a in argv[1:]]
        loads_un = "-run" in words or any(
            w == "-r" and i + 1 < len(words) and words[i + 1] == "un" for i, w in enumerate(words)
        )
        if not loads_un:
            return
        for i, a in enumerate(argv[1:], start=1):
            if a.text == "-e" and i + 1 < len(argv):
                verb, args = argv[i + 1], argv[i + 2 :]
            elif a.text.startswith("-e") and len(a.text) > 2:
                verb, args = Arg(a.text[2:], a.raw), argv[i + 1 :]
            else:
                continue
            if args and args[0].text == "--":
                args = args[1:]
            self.command([verb, *args], frame.wrapped("`ruby -run`"), None)
            return

    def _ps_bind(self, args: list[Arg], valued: tuple[str, ...]) -> tuple[dict[str, list[Arg]], list[Arg]]:
        """Bind PowerShell arguments: `-Name value` / `-Name:value` / positionals (prefixes resolved)."""
        named: dict[str, list[Arg]] = {}
        positional: list[Arg] = []
        current: str | None = None
        for a in args:
            if a.param:
                word = a.text.lstrip("-\u2013\u2014\u2015")
                key, sep, value = word.partition(":")
                key = key.lower()
                full = next((v for v in valued if v.startswith(key)), None) if key else None
                if full is None:
                    current = None
                    continue
                if sep:
                    named.setdefault(full, []).append(Arg(value, a.raw))
                    current = None
                else:
                    named.setdefault(full, [])
                    current = full
                continue
            if current is not None:
                named[current].append(a)
                if current != "argumentlist":
                    current = None
            else:
                positional.append(a)
        return named, positional

    def _invoke_expression(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        named, positional = self._ps_bind(argv[1:], ("command",))
        words = named.get("command", []) + positional
        if words:
            line = Arg(" ".join(a.text for a in words), " ".join(a.raw for a in words))
            self._inline(line, "powershell", frame.nested("`Invoke-Expression`"), argv)
        else:
            self._stdin_script(stdin, "powershell", frame, "Invoke-Expression", argv)

    def _start_process(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        # (and Scoop's Invoke-ExternalCommand: the same program and argument list, with its own parameters)
        valued = ("filepath", "argumentlist", "args", "workingdirectory", "verb", "windowstyle", "credential")
        valued += ("activity", "continueexitcodes", "logpath")
        named, positional = self._ps_bind(argv[1:], valued)
        for style in _window_styles(argv[1:]):
            self._hidden_window(style, name, argv, frame)
        files = named.get("filepath") or positional[:1]
        rest = (
            named.get("argumentlist", [])
            + named.get("args", [])
            + positional[1 if not named.get("filepath") else 0 :]
        )
        if not files:
            return
        target = files[0]
        items = powershell_arrays(rest)
        words: list[Arg] = [target]
        for a in items:
            if DYN in a.text:
                words.append(a)
            else:
                words.extend(windows_split(a.text))
        self.command(words, frame.wrapped("`Start-Process`"), None)
        if len(items) > 1 and any(" " in a.text for a in items):
            # The items are joined with blanks (`'-c','rm -rf x'` gives `-c rm -rf x`, and the quotes inside
            # an item are the program's to read); an item written with blanks was meant as one argument, so
            # that reading is checked too.
            self.command([target, *items], frame.wrapped("`Start-Process`"), None)

    def _hidden_window(self, style: Arg, name: str, argv: list[Arg], frame: Frame) -> None:
        """A program started in a window the user never sees (`-WindowStyle Hidden`, `-w h`)."""
        hidden = hides_window(style)
        if hidden is None or hidden:
            how = "hidden" if hidden else "only known at run time, so maybe hidden"
            self.event(
                "hidden-window",
                frame,
                f"`{shown_args(argv)}` starts a window that is {how} (`{name} -WindowStyle {style.raw}`)",
                self._argv(argv),
            )

    def _set_alias(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        named, positional = self._ps_bind(argv[1:], ("name", "value", "scope", "option", "description"))
        words = (named.get("name") or positional[:1]) + (named.get("value") or positional[1:2])
        if len(words) >= 2 and DYN not in words[0].text and DYN not in words[1].text:
            target = command_key(words[1].text)
            # An alias of an alias names its final command: `sal zz ri` makes `zz` Remove-Item.
            target = frame.aliases.get(target) or self.p.aliases.get(target) or target
            frame.aliases[command_key(words[0].text)] = target
            if _PLAIN_NAME.fullmatch(words[1].text.lower()):
                fine = True
            else:
                # A script or program by its path (`Set-Alias build .\build.ps1`) is fine where running it
                # would be: in the project or where programs are installed.
                fine = self.scope(frame).judge_program(words[1]) is None
            if fine and _PLAIN_NAME.fullmatch(target) and self.p.word_info(target, "powershell", {}).inert:
                # `Set-Alias ib Invoke-Build`: a command no rule reads and that runs nothing else. A use the
                # walk cannot tie to the alias (in a loop, a function) is judged as such a command anyway.
                return
        self.event(
            "dynamic-alias",
            frame,
            f"`{shown_args(argv)}` renames a command for the rest of the script",
            self._argv(argv),
        )

    def _import_module(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        """`Import-Module C:\\x\\evil.psm1` runs the module's code: a module named by a path is a script. A
        list of modules (`Import-Module Az, .\\x.psm1`) reaches here as words of their own: each is judged."""
        named, positional = self._ps_bind(
            argv[1:],
            (
                "name", "fullyqualifiedname", "prefix", "scope", "argumentlist", "minimumversion",
                "maximumversion", "requiredversion", "pssession", "cimsession", "cimresourceuri",
                "cimnamespace",
            ),
        )  # fmt: skip
        for module in named.get("name", []) + positional:
            self._judge_program(module, frame, argv)
            self._named_script(module, argv, frame, name, module=True)

    def _dotnet(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        """`dotnet Inveigh.dll`, `dotnet exec .\\SharpHound.dll -c All`: the .NET host runs the assembly's
        program, which is the tool its name says, as `.\\Inveigh.exe` or `python3 lazagne.py` is. The rules
        that know a tool by its name (those whose programs also ship as scripts) judge it so; an assembly of
        another name (`dotnet bin\\Debug\\App.dll`) is the project's."""
        args = argv[1:]
        i = 0
        while i < len(args):
            word = args[i].text
            if word[:2] == "--" and "=" not in word and word.lower() in _DOTNET_HOST_VALUES:
                i += 2  # `--depsfile x.deps.json`: an option of the host with its value
            elif word[:1] == "-" or (i == 0 and word.lower() == "exec"):
                i += 1
            else:
                break
        if i >= len(args):
            return
        assembly = args[i]
        text = assembly.text
        if DYN in text or not text.lower().endswith(".dll") or len(text) <= 4:
            return
        program = Arg(text[:-4], assembly.raw)
        self._named_script(program, [argv[0], program, *args[i + 1 :]], frame, name, module=True)

    def _task_chain(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        """`mix do deps.get, compile`, `mix do compile + hex.publish`, `lein do clean, test`, `rebar3 do
        eunit,cover` (also under a profile: `rebar3 as test do …`, `lein with-profile +x do …`): the build
        tool runs each task of the chain in turn, each judged as the tool given it alone (`mix do cmd rm -rf
        ~, compile` runs `mix cmd rm -rf ~`). Commas end a task wherever they stand, as rebar3 reads them."""
        args = argv[1:]
        start = 2 if len(args) > 2 and args[0].text in _TASK_PROFILE_WORDS else 0
        if len(args) <= start + 1 or args[start].text != "do" or frame.depth >= self.p.max_depth:
            return
        tasks: list[list[Arg]] = [[]]
        for a in args[start + 1 :]:
            text = a.text
            if text == "+":
                tasks.append([])
            elif "," in text and DYN not in text:
                pieces = text.split(",")
                for i, piece in enumerate(pieces):
                    if i:
                        tasks.append([])
                    if piece:
                        tasks[-1].append(Arg(piece, piece))
            else:
                tasks[-1].append(a)
        there = frame.wrapped(f"a task of `{name} do`")
        for task in tasks:
            if task:
                self.command([argv[0], *args[:start], *task], there, stdin)

    def _dub(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        """`dub run dfmt -- -i source`, `dub run doveralls`, `dub build dpp@0.5.0`: given a package's name
        before `--`, dub's build commands fetch it from the registry first, as `dub fetch dfmt` does (`dub
        run`, `dub build -b release`, `dub run :example` and `dub run --single app.d` build the project's)."""
        args = argv[1:]
        if not args or args[0].text not in _DUB_BUILDS or frame.depth >= self.p.max_depth:
            return
        skip = False
        for a in args[1:]:
            text = a.text
            if skip:
                skip = False
            elif text == "--" or DYN in text:
                return
            elif text[:1] == "-":
                skip = "=" not in text and text in _DUB_VALUED
            else:
                if _DUB_PACKAGE.fullmatch(text):
                    fetch = [argv[0], Arg("fetch", "fetch"), a]
                    self.command(fetch, frame.wrapped(f"`dub {args[0].text} {text}` fetches it"), stdin)
                return

    def _new_object(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        named, positional = self._ps_bind(argv[1:], ("typename", "comobject", "argumentlist", "property"))
        types = named.get("typename") or ([] if "comobject" in named else positional[:1])
        for a in types + named.get("comobject", []):
            if DYN in a.text or (a.raw != a.text and not _QUOTED_WORD.fullmatch(a.raw)):
                # `('Net.' + 'WebClient')` is computed, however literal its parts
                self.event(
                    "dynamic-arguments",
                    frame,
                    f"`{shown_args(argv)}` creates an object whose type is only known at run time",
                    self._argv(argv),
                )
            else:
                self.dotnet(a.text, "new", frame, f"New-Object {a.raw}")  # as `[T]::new()` would


_FD_PLACEHOLDERS = lazy_re(r"\{(?:/|//|\.|/\.)?\}")
"""fd's placeholders for the path it found (`{}`, `{/}`, `{//}`, `{.}`, `{/.}`)."""


def _fd_placed(command: list[Arg], path: Arg) -> list[Arg]:
    """`command` as fd runs it on the file `path`: each placeholder that path, or, with none, the path
    added at the end as fd does."""
    if not any(_FD_PLACEHOLDERS.search(a.text) for a in command):
        return [*command, path]
    # Functions, not strings: a `\1` in the path is the path's, not a group's.
    text, raw = (lambda _: path.text), (lambda _: path.raw)
    return [
        Arg(_FD_PLACEHOLDERS.sub(text, a.text), _FD_PLACEHOLDERS.sub(raw, a.raw)) if "{" in a.text else a
        for a in command
    ]


def _placed(command: list[Arg], start: Arg) -> list[Arg]:
    """`command` with each `{}` standing for a path under `start` (`cp x {}` from `/var/www`: `cp x
    /var/www/{}`); a start known only at run time leaves a run-time word."""
    if DYN in start.text:
        return [Arg(DYN, a.raw) if "{}" in a.text else a for a in command]
    path = under(start).text
    return [
        Arg(a.text.replace("{}", path), a.raw.replace("{}", path)) if "{}" in a.text else a for a in command
    ]
