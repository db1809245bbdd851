"""The evaluation of one command: parse, walk, unwrap, match, and pick the finding that explains the block."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fnmatch import fnmatch
from fnmatch import translate as fnmatch_translate
from typing import Any, NamedTuple

from . import _locators, _parse_cmd, _parse_posix, _parse_powershell
from ._models import (
    Decision,
    Dialect,
    EngineEvent,
    ExecutorSpec,
    PolicyFile,
    Rule,
    ShellKind,
    ShellSpec,
    WrapperSpec,
)
from ._normalise import command_key, fold_arg, ps_ascii
from ._paths import CHANGE_DIRECTORY, DELETERS, WRITERS, PathScope, output_targets, write_targets
from ._payloads import PREPARE, decode_powershell_b64, static_output, string_literals
from ._rules import (
    MATCH,
    CommandView,
    CompiledCommand,
    RuleIndex,
    SyntaxInfo,
    build_index,
    dotnet_key,
)
from ._syntax import DYN, Arg, Feed, Frame, Stdin
from ._unwrap import (
    Wrapped,
    cmd_exe,
    executor,
    find_exec,
    joined_command,
    posix_shell,
    powershell_arrays,
    powershell_exe,
    script_source,
    split_words,
    unwrap,
    windows_split,
)

_SHOWN_MAX = 160
_EXTENSION = re.compile(r"\.(?:exe|com|cmd|bat)$", re.IGNORECASE)
_QUOTED_WORD = re.compile("'[^']*'|\"[^\"$`]*\"")
_NO_ALIASES: dict[str, str] = {}
_ALLOWED = "no deny rule matches any command in it"


def _shown_args(argv: list[Arg]) -> str:
    return _shown(" ".join([a.raw for a in argv]))


def _shown(text: str) -> str:
    """A command line shown in a reason: one line, single spaces, cut at `_SHOWN_MAX` characters."""
    if "  " in text or not text.isprintable() or text[:1] == " " or text[-1:] == " ":
        text = " ".join(text.split())  # one line, single spaces: the words as the planner would type them
    return text if len(text) <= _SHOWN_MAX else text[: _SHOWN_MAX - 1] + "…"


class _Stop(Exception):
    """A concrete deny was found; nothing later can change the decision."""


def _finding(
    rule: Rule, argv: list[Arg], names: tuple[str, ...], where: str, detail: str
) -> tuple[list[str], str]:
    """The words (normalised, the program as the rules name it) and the sentence a rule finding reports."""
    shown = " ".join([a.raw for a in argv])
    if len(shown) > _SHOWN_MAX or _UNTIDY.search(shown):
        shown = _shown(shown)
    reason = f"`{shown}`{where} {rule.description}"
    out = [a.text for a in argv]
    if DYN in "".join(out):
        out = [a.text if DYN not in a.text else a.raw for a in argv]
    out[0] = names[-1]
    return out, f"{reason} ({detail})" if detail else reason


class Finding(NamedTuple):
    """A rule that matched, the words it matched (normalised), and the sentence that explains it."""

    rule: Rule
    argv: list[str]
    reason: str


_UNTIDY = re.compile(r"  |^ | $|[^ -~]")
"""What `_shown` would change: doubled or edge spaces, anything but printable ASCII."""


@dataclass(slots=True, frozen=True)
class NameInfo:
    """What a command name means to the policy: its rule clauses and how it runs other code."""

    names: tuple[str, ...]
    """The normalised command word and, on PowerShell, the cmdlet an alias stands for (rules name either)."""
    clauses: tuple[CompiledCommand, ...]
    wrappers: tuple[WrapperSpec, ...]
    shell: ShellSpec | None
    executor: ExecutorSpec | None
    special: tuple[str, str] | None
    writes_files: str
    """"all": every operand is a file it writes (`tee`); "first": the first one (`Set-Content`); "": none."""
    inert: bool
    """No rule names it and it runs nothing else, so only argument-wide rules apply (`ls`, `pytest`)."""
    syntax: SyntaxInfo
    """Where its operands start (value-taking global options, `kill`'s single option word)."""
    acts: bool
    """It wraps another command, writes files, or runs code (a shell, an interpreter, `eval` ...)."""
    paths: str = ""
    """"cd" when it changes the working directory, "write" when `_paths.write_targets` can name what it
    writes, "" otherwise: either way its words are judged against the working directory."""


_WRITERS = {
    # "copy": the last operand becomes a copy of another file, maybe a program (`cp /bin/rm ./x; ./x -rf y`).
    "cp": "copy",
    "mv": "copy",
    "ln": "copy",
    "install": "copy",
    "copy-item": "copy",
    "move-item": "copy",
    "tee": "all",
    "tee-object": "first",
    "out-file": "first",
    "set-content": "first",
    "add-content": "first",
}


def _maybe_environ(text: str) -> bool:
    """A cheap screen: only words mentioning `env`, holding a glob or a run-time piece can name one."""
    return "env" in text or "ENV" in text or "*" in text or "?" in text or "[" in text or DYN in text


def _path_key(path: str) -> str:
    """Compare file names loosely: `./x.sh`, `x.sh` and `.\\x.sh` are the same file."""
    key = path.replace("\\", "/")
    while key.startswith("./"):
        key = key[2:]
    return key.lower()


def _name_matcher(names: list[str]) -> re.Pattern[str]:
    """Variable names (`*` globs allowed) as one case-insensitive full-match expression."""
    body = "|".join(fnmatch_translate(n) for n in names) or "(?!)"
    return re.compile(body, re.IGNORECASE)


def _option_matcher(globs: list[str]) -> re.Pattern[str] | None:
    return re.compile("|".join(fnmatch_translate(g) for g in globs), re.IGNORECASE) if globs else None


def _clause_hits(
    clauses: tuple[CompiledCommand, ...], view: CommandView
) -> tuple[tuple[CompiledCommand, int, str], ...]:
    """The clauses that match `view` or may match it, in rule order, with their verdicts."""
    hits = []
    for compiled in clauses:
        state, detail = compiled.check(view)
        if state:
            hits.append((compiled, state, detail))
    return tuple(hits)


class CompiledPolicy:
    """Rules and command tables in the shape the evaluation needs (built once per `Policy`)."""

    def __init__(self, data: PolicyFile, rules: list[Rule]) -> None:
        self.rules = rules
        self.index: RuleIndex = build_index(rules, data.syntax)
        self.max_depth = data.max_depth
        self.aliases = {k.lower(): v.lower() for k, v in data.powershell_aliases.items()}
        self.command_valued = _name_matcher(data.command_valued_variables)
        self.code_loading = _name_matcher(data.code_loading_variables)
        self.command_options = _option_matcher(data.command_options)
        """Options whose value a program runs as a command line (`--rsh`, `--*-cmd-prefix`), or None."""
        self.text_tools = frozenset(v.lower() for v in data.text_tools)
        self.locators = {
            d: [
                (rule, regex, spared | self.text_tools)
                for rule, regex, spared in self.index.locators.get(d, ())
            ]
            for d in _DIALECTS
        }
        """Per dialect, the locator rules with the programs each spares (its own list and the text tools)."""
        self.pass_through = frozenset(v.lower() for v in data.pass_through)
        self.argument_rules = {
            d: (self.index.arguments.get(d, []), self.index.argument_screen.get(d))
            for d in ("posix", "powershell", "cmd")
        }
        """Per dialect, the argument-wide rules and the screen their literal fragments make."""
        self.wrappers: dict[str, list[WrapperSpec]] = {}
        for spec in data.wrappers.values():
            for name in spec.names:
                self.wrappers.setdefault(name.lower(), []).append(spec)
        self._info: dict[tuple[str, ...], NameInfo] = {}
        self.memo_limit = 4096
        """Bound on `clause_results` (words come from untrusted text); 0 turns the memo off."""
        self.clause_results: dict[tuple[object, ...], tuple[tuple[CompiledCommand, int, str], ...]] = {}
        """(dialect, names, *argv) of a command that no wrapper, pipe or `-exec` touches -> the clauses it
        hits. A clause sees only its `CommandView` (names, words, dialect and the names' syntax), so with
        nothing else set on the view its verdict is a pure function of this key; findings, events and the
        rest of the walk still run for every command."""
        self.words: dict[str, dict[str, NameInfo]] = {"posix": {}, "powershell": {}, "cmd": {}}
        """Command word as written -> its `NameInfo`, per dialect: the hot path's single lookup."""
        self.shells: dict[str, ShellSpec] = {n.lower(): s for s in data.shells.values() for n in s.names}
        self.executors: dict[str, ExecutorSpec] = {}
        self.executor_globs: list[tuple[str, ExecutorSpec]] = []
        for spec in data.executors.values():
            for name in spec.names:
                if any(ch in name for ch in "*?["):
                    self.executor_globs.append((name.lower(), spec))
                else:
                    self.executors[name.lower()] = spec

    def word_info(self, word: str, dialect: Dialect, aliases: dict[str, str]) -> NameInfo:
        """`NameInfo` of a literal command word; `aliases` are the script's own `Set-Alias` definitions."""
        if aliases and dialect == "powershell":
            name = command_key(word)
            target = None if _EXTENSION.search(word) else aliases.get(name) or self.aliases.get(name)
            return self.info((name, target) if target else (name,))
        cache = self.words[dialect]
        found = cache.get(word)
        if found is None:
            name = command_key(word)
            # `sc.exe` names the program; only a bare `sc` is PowerShell's alias of Set-Content.
            aliased = dialect == "powershell" and not _EXTENSION.search(word)
            target = self.aliases.get(name) if aliased else None
            found = self.info((name, target) if target else (name,))
            if len(cache) < 65536:  # bounded: words come from untrusted text
                cache[word] = found
        return found

    def info(self, names: tuple[str, ...]) -> NameInfo:
        """Everything the policy knows about a command name (and its alias target), computed once per name."""
        found = self._info.get(names)
        if found is None:
            special = next(((n, _SPECIAL[n]) for n in names if n in _SPECIAL), None)
            clauses = tuple(self.index.commands_for(names))
            wrappers = tuple(spec for n in names for spec in self.wrappers.get(n, ()))
            shell = self.shells.get(names[0])
            executor = self.executor_for(names[0])
            writes = next((_WRITERS[n] for n in names if n in _WRITERS), "")
            paths = next(
                (
                    "cd" if n in CHANGE_DIRECTORY else "write"
                    for n in names
                    if n in CHANGE_DIRECTORY or n in WRITERS
                ),
                "",
            )
            found = NameInfo(
                names=names,
                clauses=clauses,
                wrappers=wrappers,
                shell=shell,
                executor=executor,
                special=special,
                writes_files=writes,
                inert=not (clauses or wrappers or shell or executor or special or writes or paths),
                syntax=self.index.syntax_for(names),
                acts=bool(wrappers or shell or executor or special or writes or paths),
                paths=paths,
            )
            if len(self._info) < 65536:  # bounded: names come from untrusted text
                self._info[names] = found
        return found

    def clause_hits(
        self, dialect: Dialect, info: NameInfo, argv: list[Arg]
    ) -> tuple[tuple[CompiledCommand, int, str], ...]:
        """The clauses `argv` hits when nothing but its words decides them (see `clause_results`)."""
        key = (dialect, info.names, *argv)
        hits = self.clause_results.get(key)
        if hits is None:
            hits = _clause_hits(info.clauses, CommandView(info.names, argv, dialect, info.syntax))
            if len(self.clause_results) < self.memo_limit:
                self.clause_results[key] = hits
        return hits

    def check(self, command: str, shell: ShellKind, cwd: str | None = None) -> Decision:
        """Decide `command` run in `cwd` (the working directory write targets are judged against; None:
        unknown, so every absolute target counts as outside). A script that is one command of literal
        words, run by a program that runs nothing else, is decided here from its words; everything else
        takes the whole `Evaluation`. tests/test_guard_fast_path.py proves both give the same decision."""
        if not command or command.isspace():
            return Evaluation(self, root=cwd).check(command, shell)
        module = _parse_posix if shell == "posix" else _parse_powershell
        text = command if shell == "posix" or command.isascii() else ps_ascii(command)
        src = text.encode("utf-8", "replace")
        root = module.parse(src).root_node
        argv = None
        if not root.has_error:
            argv = module.simple_command(text, root)
            if argv is not None and DYN not in command:
                decision = self._literal(command, shell, argv)
                if decision is not None:
                    return decision
        return Evaluation(self, root=cwd).check(command, shell, (src, root, argv))

    def _literal(self, command: str, shell: ShellKind, argv: list[Arg]) -> Decision | None:
        """What `Evaluation.command` decides for a top-level command of literal words whose program
        wraps, writes and runs nothing; None when anything beyond its own clauses could matter."""
        word = argv[0][0]
        if "/" in word or "\\" in word:
            return None  # a program named by a path: the walk judges where it is
        info = self.words[shell].get(word)
        if info is None:
            info = self.word_info(word, shell, _NO_ALIASES)
        if info.acts or not info.names[0]:
            return None
        if info.clauses:
            hits = self.clause_hits(shell, info, argv)
            if hits:
                compiled, state, detail = hits[0]
                rule = compiled.rule
                if state != MATCH or rule.category == "unverifiable":
                    return None  # the walk goes on past these: let it
                out, reason = _finding(rule, argv, info.names, "", detail)
                return Decision._trusted_block(command, shell, rule, reason, out, "ok")
        if len(argv) > 1:
            args = argv[1:]
            texts = "\n".join([a.text for a in args])
            if _maybe_environ(texts):
                return None  # a path that could be a process environment: the walk judges it
            entries, screen = self.argument_rules[shell]
            if entries:
                if screen is None:
                    return None
                if screen.search(texts) is not None:
                    return None
                raws = "\n".join([a.raw for a in args])
                if raws != texts and screen.search(raws) is not None:
                    return None
            if self.locators[shell] and _locators.screen(texts):
                return None  # a word that may name another machine: the walk judges it
            if "-" in texts:
                options = self.command_options
                if options is not None and any(
                    a.text[:1] == "-" and options.fullmatch(a.text.partition("=")[0]) for a in args
                ):
                    return None  # an option whose value may be a command line
                if output_targets(info.names[-1], args):
                    return None  # an output file: the walk judges where it is
        return Decision._trusted_allow(command, shell, _ALLOWED, "ok")

    def executor_for(self, name: str) -> ExecutorSpec | None:
        spec = self.executors.get(name)
        if spec is None and self.executor_globs:
            spec = next((s for pattern, s in self.executor_globs if fnmatch(name, pattern)), None)
        return spec


_SPECIAL = {
    "eval": "_eval",
    "source": "_source",
    ".": "_source",
    "alias": "_alias",
    "trap": "_trap",
    "find": "_find",
    "coproc": "_coproc",
    "invoke-expression": "_invoke_expression",
    "start-process": "_start_process",
    "set-alias": "_set_alias",
    "new-alias": "_set_alias",
    "new-object": "_new_object",
    "import-module": "_import_module",
}
# PowerShell cmdlet handlers do not apply to POSIX programs that happen to share the name.
_POWERSHELL_ONLY = frozenset(
    {"invoke-expression", "start-process", "set-alias", "new-alias", "new-object", "import-module"}
)


_FED = "__GLMAGENT_STDIN__"
_DIALECTS: tuple[Dialect, ...] = ("posix", "powershell", "cmd")
_INFO_FLAGS = frozenset({"-V", "-h", "-?", "/?"})
_VERSION_V = frozenset({"node", "perl", "ruby", "php", "lua", "r", "julia", "elixir"})
"""Languages whose interpreter prints its version for `-v` (python and the shells turn on verbose mode)."""
_VERSION_V_FLAGS = _INFO_FLAGS | {"-v"}
_INFO_WORDS = frozenset({"--version", "--help", "-help", "-version", "--usage", "-?", "/?"})
"""Options with which a shell or interpreter prints its version or usage and exits, reading nothing."""


class Evaluation:
    """Checks one command (and everything nested in it); implements the parsers' `Sink`."""

    __slots__ = (
        "_scope",
        "collect_all",
        "copied",
        "findings",
        "index",
        "p",
        "parse_status",
        "root",
        "written",
    )

    def __init__(self, policy: CompiledPolicy, *, collect_all: bool = False, root: str | None = None) -> None:
        self.root = root
        """The working directory write targets are judged against (None: not known)."""
        self._scope: PathScope | None = None
        self.p = policy
        self.index = policy.index
        self.collect_all = collect_all
        self.findings: list[Finding] = []
        self.parse_status = "ok"
        self.written: set[str] = set()
        """Files this command line writes; running one of them runs text the policy never saw."""
        self.copied: set[str] = set()
        """Copies or links of other files this command line makes; running one runs an unknown program."""

    # -- entry points --
    def run(self, text: str, shell: ShellKind) -> None:
        try:
            self.script(text, shell, Frame(shell))
        except _Stop:
            pass  # a concrete deny was found; nothing later can change the decision
        except RecursionError:
            self._too_deep()

    def _too_deep(self) -> None:
        # Thousands of nested `$(` exhaust the walker's stack: still a decision, never a crash.
        self.findings.clear()
        rule = self.index.engine["depth-exceeded"]
        self.findings.append(Finding(rule, [], f"the command nests too deeply to walk: {rule.description}"))

    def check(
        self, command: str, shell: ShellKind, parsed: tuple[bytes, Any, list[Arg] | None] | None = None
    ) -> Decision:
        """Run the whole evaluation of `command` and decide; `parsed` is its source, tree and (when the tree
        has no error) `simple_command` words, when the caller has them already."""
        if command and not command.isspace():
            try:
                self._parse_and_walk(command, shell, Frame(shell), parsed)
            except _Stop:
                pass
            except RecursionError:
                self._too_deep()
        findings = self.findings
        if not findings:
            return Decision._trusted_allow(command, shell, _ALLOWED, self.parse_status)
        # A concrete deny explains the block better than an unverifiable word found before it.
        chosen = findings[-1]  # without collect_all, the first concrete deny stops the walk: it is the last
        if chosen.rule.category == "unverifiable" or self.collect_all:
            chosen = next((f for f in findings if f.rule.category != "unverifiable"), findings[0])
        return Decision._trusted_block(
            command, shell, chosen.rule, chosen.reason, chosen.argv, self.parse_status
        )

    def _add(self, rule: Rule, argv: list[str], reason: str) -> None:
        self.findings.append(Finding(rule, argv, reason))
        if not self.collect_all and rule.category != "unverifiable":
            raise _Stop

    def _rule_finding(
        self, rule: Rule, argv: list[Arg], names: tuple[str, ...], frame: Frame, detail: str
    ) -> None:
        out, reason = _finding(rule, argv, names, frame.where() if frame.via else "", detail)
        self.findings.append(Finding(rule, out, reason))
        if not self.collect_all and rule.category != "unverifiable":
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
        parsed: tuple[bytes, Any, list[Arg] | None] | None = None,
    ) -> None:
        module = _parse_posix if dialect == "posix" else _parse_powershell
        if dialect == "powershell" and not text.isascii():
            text = ps_ascii(text)  # the same spelling `CompiledPolicy.check` parsed
        if parsed is None:
            src = text.encode("utf-8", "replace")
            root = module.parse(src).root_node
            argv = None if root.has_error else module.simple_command(text, root)
        else:
            src, root, argv = parsed
        if root.has_error:
            # Only a failed parse pays for the respelling and the second parse.
            repaired = module.repair(text)
            if repaired == "":
                return  # comments only: nothing runs
            if repaired is not None:
                src2 = repaired.encode("utf-8", "replace")
                root2 = module.parse(src2).root_node
                if not root2.has_error:
                    text, src, root = repaired, src2, root2
                    argv = module.simple_command(text, root)
        if not root.has_error:
            if argv is not None:
                self.command(argv, frame, None)  # what the walk would report, without walking
            else:
                module.walk(self, frame, src, root, text)
            return
        if frame.depth == 0:
            self.parse_status = "error"
        elif self.parse_status == "ok":
            self.parse_status = "nested-error"
        module.walk(self, frame, src, root, text)
        self.event("parse-error", frame, f"the {dialect} parser cannot read `{_shown(text)}`")

    def _cmd_script(self, text: str, frame: Frame) -> None:
        parsed = _parse_cmd.parse_cmd(text)
        for name in parsed.variables:
            self.variable(name, frame, f"%{name}%")
        for argv in parsed.program_readings:  # first: for a program the C runtime's reading is exact
            self.command(argv, frame, None)
        previous: list[Arg] | None = None
        for command in parsed.commands:
            stdin = None
            if command.piped and previous is not None:
                before = previous
                stdin = Stdin("pipe", compute=lambda b=before: static_output(b, None, "cmd"))
            for op, target in command.redirects:
                self.redirect(op, target, frame)
            self.command(command.argv, frame, stdin)
            previous = command.argv

    def _stdin_script(
        self, stdin: Stdin | None, target: str, frame: Frame, who: str, argv: list[Arg]
    ) -> None:
        """A shell or interpreter reads its program from stdin: check it if the text is known, else block.
        With nothing on stdin it reads the terminal: whatever would be typed there is unknown (and an
        unattended agent has nobody to type), unless it only prints its version or help."""
        if stdin is None:
            info = _VERSION_V_FLAGS if target in _VERSION_V else _INFO_FLAGS  # `bash -v` is verbose
            if not any(a.text in info or a.text.lower() in _INFO_WORDS for a in argv[1:]):
                self.event(
                    "terminal-program",
                    frame,
                    f"`{_shown_args(argv)}` runs what is typed at the terminal",
                    self._argv(argv),
                )
            return
        if stdin.is_file:
            return
        text = stdin.text()
        if text is None:
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
        head = argv[0]
        word = head[0]
        if head[3]:  # `& { ... }`: the walker checks the block's own commands
            return
        if DYN in word:
            self._dynamic_name(argv, frame, stdin, resolved_name, feeds)
            return
        p = self.p
        dialect = frame.dialect
        info = None if frame.aliases else p.words[dialect].get(word)
        if info is None:
            info = p.word_info(word, dialect, frame.aliases)
        names = info.names
        if not names[0]:
            return
        if frame.depth > p.max_depth:
            self.event("depth-exceeded", frame, f"nesting deeper than {p.max_depth} levels", self._argv(argv))
            return
        if "/" in word or "\\" in word:
            self._judge_program(head, frame, argv)
        args = argv[1:]
        if info.inert:
            # No rule names this program and it runs nothing else: only argument-wide rules, and a file
            # written earlier in the line, can matter.
            if args:
                self._arguments(args, argv, info, frame)
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
        if info.wrappers:
            wrapper = self._wrapper(info.wrappers, args)
            if wrapper is not None:
                stdin_words = None
                if wrapper.feeds_arguments and stdin is not None and not stdin.is_file:
                    piped = stdin.text()
                    stdin_words = split_words(piped) if piped is not None else None
                    if stdin.feed is not None:
                        # `find . | xargs rm`: the operands of rm come from find.
                        inner_feeds = (*feeds, stdin.feed)
                wrapped = unwrap(wrapper, args, stdin_words)
        if info.clauses:
            if wrapped is None and not feeds:
                hits = p.clause_hits(dialect, info, argv)  # nothing but the words decides the clauses
            else:
                view = CommandView(names, argv, dialect, info.syntax)
                if wrapped is not None:
                    view.has_command = wrapped.has_command
                if feeds:
                    view.producers_of = lambda: self._producers(feeds, dialect)
                hits = _clause_hits(info.clauses, view)
            for compiled, state, detail in hits:
                if state == MATCH:
                    self._rule_finding(compiled.rule, argv, names, frame, detail)
                else:
                    rule = compiled.rule
                    self.event(
                        "dynamic-arguments",
                        frame,
                        f"`{_shown_args(argv)}` has words only known at run time, so it may be a case "
                        f"of {rule.id} (which {rule.description})",
                        self._argv(argv, names),
                    )
        if args:
            self._arguments(args, argv, info, frame)
        if info.acts:
            self._acts(info, argv, frame, stdin, wrapped, inner_feeds)
        elif (self.written or self.copied) and ("/" in word or "\\" in word):
            self._check_runs_written(argv, frame)

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
            for candidate in wrapped.candidates:
                self.command(candidate, inner, stdin, None, inner_feeds)
                first = candidate[0].text if candidate else ""
                if any(ch in first for ch in " \t;|&<>()$`\n") and DYN not in first:
                    # A "command name" with spaces or operators only makes sense to a shell (`watch 'a; b'`).
                    self.script(" ".join(a.text for a in candidate), "posix", frame.nested(f"`{name}`"))
            for line in wrapped.shell_lines:
                self._inline(line, "posix", frame.nested(f"`{name} -c`"), argv)
        if info.paths:
            self._paths(info, argv, frame)
        if info.writes_files:
            self._note_writes(info.writes_files, argv[1:])
        if (self.written or self.copied) and (
            info.shell or info.executor or info.special or "/" in word or "\\" in word
        ):
            self._check_runs_written(argv, frame)
        if info.special is not None and (dialect != "posix" or info.special[0] not in _POWERSHELL_ONLY):
            special_name, method = info.special
            getattr(self, method)(special_name, argv, frame, stdin)
        if info.shell is not None:
            self._shell(names[0], info.shell, argv, frame, stdin)
        if info.executor is not None:
            self._executor(names[0], info.executor, argv, frame, stdin)

    def _producers(self, feeds: tuple[Feed, ...], dialect: Dialect) -> list[list[CommandView]]:
        """Per feed, the commands feeding a command: nearest first, then upstream through filters."""
        out: list[list[CommandView]] = []
        for feed in feeds:
            chain: list[CommandView] = []
            current: Feed | None = feed
            for _ in range(self.p.max_depth):
                got = current.producer() if current is not None else None
                if got is None:
                    break
                argv, current = got
                if not argv or argv[0].block or DYN in argv[0].text:
                    break  # a producer named at run time is not a simple command the rules can read
                producer = self.p.word_info(argv[0].text, dialect, {})
                names = producer.names
                chain.append(CommandView(names, argv, dialect, producer.syntax))
                if self.p.pass_through.isdisjoint(names):
                    break
            if chain:
                out.append(chain)
        return out

    def _arguments(self, args: list[Arg], argv: list[Arg], info: NameInfo, frame: Frame) -> None:
        """What any word of any command can give away: a process environment, argument-wide rules
        (`/dev/tcp/*`, credential files), another machine (`_locators`), and an option whose value the
        program runs as a command (`--rsh CMD`)."""
        names = info.names
        texts = "\n".join([a.text for a in args])
        self._argument_rules(args, argv, names, frame, texts)
        if info.shell or info.wrappers:
            return  # what they run is checked as a command of its own, with its own words
        p = self.p
        if p.locators[frame.dialect] and _locators.screen(texts):
            self._locators(args, argv, info, frame)
        if "-" not in texts:
            return  # no option at all: neither a command option nor an output file
        if p.command_options is not None and info.executor is None and p.text_tools.isdisjoint(names):
            self._command_options(args, argv, names, frame)
        if info.paths != "write":
            for target in output_targets(names[-1], args):
                self._judge_write(self.scope(frame), target, frame, self._argv(argv, names))

    def _locators(self, args: list[Arg], argv: list[Arg], info: NameInfo, frame: Frame) -> None:
        """A word naming another machine (`http://…`, `\\\\host\\share`, `user@host:path`, `host:port`)."""
        candidates = [a for a in args if _locators.screen(a.text)]
        if not candidates:
            return
        if info.executor is not None:
            # An inline program is text in its own language (`sed 's|http://a|https://b|'`): its network
            # calls are the payload rules' to find.
            programs = [p.text for p in executor(info.executor, args).payloads]
            candidates = [a for a in candidates if not any(p and p in a.text for p in programs)]
        names = info.names
        for rule, pattern, spared in self.p.locators[frame.dialect]:
            if names[0] in spared or (len(names) > 1 and names[1] in spared):
                continue
            for a in candidates:
                if pattern.match(a.text) or (a.raw is not a.text and DYN in a.text and pattern.match(a.raw)):
                    self._rule_finding(rule, argv, names, frame, a.text if DYN not in a.text else a.raw)

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

    def _argument_rules(
        self, args: list[Arg], argv: list[Arg], names: tuple[str, ...], frame: Frame, texts: str
    ) -> None:
        """Argument-wide rules (`/dev/tcp/*`, credential files) on every word of a command.

        One search for the rules' literal fragments in all the words together rules out nearly every
        command; the raw spelling counts too: `$HOME/.aws/credentials` keeps the path its text loses to DYN.
        """
        screened = [a for a in args if _maybe_environ(a.text)]
        if screened:
            scope = self.scope(frame)
            hit = next((a for a in screened if scope.reads_process_environment(a)), None)
            if hit is not None or (len(args) > 1 and scope.mentions_proc_and_environ(args)):
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
        if screen is not None and screen.search(texts) is None:
            raws = "\n".join([a.raw for a in args])
            if raws == texts or screen.search(raws) is None:
                return
        for a in args:
            for rule, pattern in entries:
                if pattern.match(a.text) or (a.raw is not a.text and pattern.match(a.raw)):
                    self._rule_finding(rule, argv, names, frame, a.text if DYN not in a.text else a.raw)

    @staticmethod
    def _wrapper(specs: tuple[WrapperSpec, ...], args: list[Arg]) -> WrapperSpec | None:
        for spec in specs:
            if spec.subcommand is None or (args and args[0].text.lower() == spec.subcommand):
                return spec
        return None

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
        name = next((n for n in info.names if n in WRITERS), info.names[0])
        lenient = name in DELETERS
        for target in write_targets(name, args, frame.dialect):
            if lenient and (DYN in target.text or "$" in target.raw):
                continue
            self._judge_write(scope, target, frame, self._argv(argv, info.names))

    def _judge_program(self, program: Arg, frame: Frame, argv: list[Arg]) -> None:
        """A program or script named by a path: fine in the project or where programs are installed."""
        verdict = self.scope(frame).judge_program(program)
        if verdict is not None:
            self.event(verdict.event, frame, verdict.detail, self._argv(argv))  # type: ignore[arg-type]

    def _judge_write(self, scope: PathScope, target: Arg, frame: Frame, argv: list[str]) -> None:
        verdict = scope.judge_write(target)
        if verdict is not None:
            self.event(verdict.event, frame, verdict.detail, argv)  # type: ignore[arg-type]

    def _note_writes(self, how: str, args: list[Arg]) -> None:
        operands = [a for a in args if not a.param and not a.text.startswith("-")]
        if how == "copy":
            if len(operands) > 1 and DYN not in operands[-1].text:
                self.copied.add(_path_key(operands[-1].text))
            return
        targets = operands if how == "all" else operands[:1]
        for a in targets:
            if DYN not in a.text:
                self.written.add(_path_key(a.text))

    def _check_runs_written(self, argv: list[Arg], frame: Frame) -> None:
        if self.copied and DYN not in argv[0].text and _path_key(argv[0].text) in self.copied:
            self.event(
                "dynamic-command",
                frame,
                f"`{_shown_args(argv)}` runs `{argv[0].raw}`, a copy of a file made in this command line",
                self._argv(argv),
            )
            return
        for a in argv:
            if DYN not in a.text and _path_key(a.text) in self.written:
                self.event(
                    "dynamic-script",
                    frame,
                    f"`{_shown_args(argv)}` runs `{a.raw}`, which this same command line writes",
                    self._argv(argv),
                )
                return

    def assignment(self, name: str, value: Arg, frame: Frame) -> None:
        if self.p.command_valued.fullmatch(name):
            # Programs run these values as commands (`GIT_PAGER='rm -rf ~' git log`).
            self._inline(value, "posix", frame.nested(f"`{name}=`"), [Arg(f"{name}={value.text}", value.raw)])
        elif value.text and self.p.code_loading.fullmatch(name):
            self.event(
                "dynamic-script",
                frame,
                f"`{name}={_shown(value.raw)}` makes programs load code the policy cannot read",
                [f"{name}={value.raw}"],
            )

    def redirect(self, op: str, target: Arg, frame: Frame) -> None:
        base = op.lstrip("0123456789")
        if ">" in base and DYN not in target.text and not base.endswith("&"):
            self.written.add(_path_key(target.text))
        dialect = frame.dialect
        for rule, clause, allow in self.index.redirects:
            if dialect not in clause.shells or base not in clause.operators:
                continue
            text = target.text
            if base.endswith("&") and (text.isdigit() or text == "-"):
                continue  # descriptor duplication (`>&2`), not a file
            if allow.match(text) or allow.match(target.raw):
                continue
            shown = f"{op} {target.raw}"
            if DYN in text:
                self.event(
                    "dynamic-arguments",
                    frame,
                    f"`{shown}` writes to a file named only at run time, so it may be a case of {rule.id}",
                    [op, target.raw],
                )
            else:
                self._add(rule, [op, text], f"`{shown}`{frame.where()} {rule.description}")
        arg_rules = self.index.arguments.get(dialect)
        screen = self.index.argument_screen.get(dialect)
        if arg_rules and (screen is None or screen.search(f"{target.text}\n{target.raw}")):
            for rule, pattern in arg_rules:
                if pattern.match(target.text) or pattern.match(target.raw):
                    self._add(
                        rule, [op, target.text], f"`{op} {target.raw}`{frame.where()} {rule.description}"
                    )
        for rule, pattern, _ in self.p.locators[dialect]:
            if _locators.screen(target.text) and pattern.match(target.text):
                self._add(rule, [op, target.text], f"`{op} {target.raw}`{frame.where()} {rule.description}")
        if ">" in base and not (base.endswith("&") and (target.text.isdigit() or target.text == "-")):
            self._judge_write(self.scope(frame), target, frame, [op, target.raw])
        elif (
            "<" in base
            and _maybe_environ(target.text)
            and self.scope(frame).reads_process_environment(target)
        ):
            self.event("proc-environ", frame, f"`{op} {target.raw}` may read a process environment", [op])

    def variable(self, name: str, frame: Frame, raw: str) -> None:
        for rule, pattern in self.index.variables.get(frame.dialect, ()):
            if pattern.fullmatch(name):
                self._add(rule, [raw], f"`{raw}`{frame.where()} {rule.description}")
                return

    def dotnet(self, type_name: str, member: str | None, frame: Frame, raw: str) -> None:
        entries = self.index.dotnet.get(dotnet_key(type_name))
        if not entries:
            return
        for rule, members in entries:
            if members is None or (member is not None and members.match(member)):
                if type_name == "*":
                    shown = f"{raw}.{member}"  # an instance member: `$d.Delete`
                elif member and not raw.startswith("New-Object "):
                    shown = f"{raw}::{member}"
                else:
                    shown = raw
                self._add(rule, [shown], f"`{shown}`{frame.where()} {rule.description}")

    def static_output(self, argv: list[Arg], stdin: Stdin | None, dialect: Dialect) -> str | None:
        return static_output(argv, stdin, dialect)

    # -- payloads --
    def payload(self, language: str, text: str, frame: Frame, argv: list[Arg]) -> None:
        prepare = PREPARE.get(language)
        if prepare is not None:
            text = prepare(text)
        screen = self.index.payload_screen.get(language)
        if screen is not None and screen.search(text) is None:
            return  # not one fragment any pattern needs: no pattern can match
        for rule, clause, patterns in self.index.payloads.get(language, ()):
            for pattern in patterns:
                m = pattern.search(text)
                if m is None:
                    continue
                if clause.literals_are_commands:
                    inner = frame.nested(f"a `{language}` payload")
                    for literal in string_literals(text):
                        self.script(literal, "posix", inner)
                hit = " ".join(m.group(0).split())
                self._add(
                    rule,
                    self._argv(argv),
                    f"`{_shown_args(argv)}`{frame.where()} {rule.description} (`{hit}`)",
                )
                break

    # -- shells and interpreters --
    def _shell(self, name: str, spec: ShellSpec, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        args = argv[1:]
        if spec.dialect == "posix":
            if spec.joined:
                words = joined_command(spec, args)
                if words:
                    # `wsl -e cmd args` runs the words as argv; `wsl cmd args` passes them to a shell.
                    inner = frame.nested(f"`{name}`")
                    self.command(words, Frame("posix", inner.depth, inner.via), stdin)
                    line = Arg(" ".join(a.text for a in words), " ".join(a.raw for a in words))
                    self._inline(line, "posix", inner, argv)
                return
            if frame.dialect == "powershell":
                args = powershell_arrays(args)
            run = posix_shell(spec, args, name)
            for init in run.init:
                self._inline(init, "posix", frame.nested(f"`{name} --init-command`"), argv)
            for rcfile in run.rcfiles:
                source = script_source(rcfile)
                if source == "stdin":
                    self._stdin_script(stdin, "posix", frame, name, argv)
                elif source == "dynamic":
                    self._script_file(name, rcfile, argv, frame, stdin)
            if run.script is not None:
                self._judge_program(run.script, frame, argv)
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
            if ps.inline:
                words = [a for a in ps.inline if not a.block]
                if any(DYN in a.text for a in words):
                    self.event(
                        "dynamic-script",
                        frame,
                        f"the script `{_shown_args(ps.inline)}` is only known at run time",
                        self._argv(argv),
                    )
                elif words:
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
                self._judge_program(ps.file, frame, argv)
        else:
            if frame.dialect == "powershell":
                args = powershell_arrays(args)
            line, literal, reads_stdin = cmd_exe(args)
            if line is not None:
                if literal:
                    script = Arg(line, line)
                elif DYN in line:
                    script = Arg(line, line.replace(DYN, "%?%"))  # words only known at run time
                else:
                    script = Arg(DYN, line)  # a switch only known at run time: the whole line is unknown
                self._inline(script, "cmd", frame.nested(f"`{name} /c`"), argv)
            elif reads_stdin:
                self._stdin_script(stdin, "cmd", frame, name, argv)

    def _executor(
        self, name: str, spec: ExecutorSpec, argv: list[Arg], frame: Frame, stdin: Stdin | None
    ) -> None:
        run = executor(spec, argv[1:])
        for payload in run.payloads:
            if DYN in payload.text:
                self.event(
                    "dynamic-script",
                    frame,
                    f"the `{name}` program `{payload.raw}` is only known at run time",
                    self._argv(argv),
                )
            else:
                self.payload(spec.language, payload.text, frame, argv)
        if run.module_argv:
            self.command(run.module_argv, frame.wrapped(f"`{name} -m`"), stdin)
        if run.script is not None:
            self._judge_program(run.script, frame, argv)
        if run.reads_stdin:
            self._stdin_script(stdin, spec.language, frame, name, argv)

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
            self._judge_program(script, frame, argv)

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
            self.script(text, dialect, frame.nested(f"`{name}` reading `{_shown(script.raw)}`"))
            return
        self.event(
            "dynamic-script",
            frame,
            f"`{_shown_args(argv)}` runs a script, or takes options, given by `{_shown(script.raw)}`, "
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
            self._inline(args[0], "posix", frame.nested("`trap`"), argv)

    def _coproc(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        # `coproc NAME { cmd; }` reaches us as words; the body after `{` is a command of its own.
        words = [a.text for a in argv[1:]]
        if "{" in words:
            body = argv[1 + words.index("{") + 1 :]
            self.command([a for a in body if a.text not in (";", "}")], frame.wrapped("`coproc`"), None)

    def _find(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        inner = frame.wrapped("`find -exec`")
        feed = Feed(lambda: (argv, None))  # every command find runs gets what find found
        for command in find_exec(argv[1:]):
            self.command(command, inner, None, None, (feed,))

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
        valued = ("filepath", "argumentlist", "args", "workingdirectory", "verb", "windowstyle", "credential")
        named, positional = self._ps_bind(argv[1:], valued)
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

    def _set_alias(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        named, positional = self._ps_bind(argv[1:], ("name", "value", "scope", "option", "description"))
        words = (named.get("name") or positional[:1]) + (named.get("value") or positional[1:2])
        if len(words) >= 2 and DYN not in words[0].text and DYN not in words[1].text:
            target = command_key(words[1].text)
            # An alias of an alias names its final command: `sal zz ri` makes `zz` Remove-Item.
            target = frame.aliases.get(target) or self.p.aliases.get(target) or target
            frame.aliases[command_key(words[0].text)] = target
        self.event(
            "dynamic-alias",
            frame,
            f"`{_shown_args(argv)}` renames a command for the rest of the script",
            self._argv(argv),
        )

    def _import_module(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        """`Import-Module C:\\x\\evil.psm1` runs the module's code: a module named by a path is a script."""
        named, positional = self._ps_bind(argv[1:], ("name", "fullyqualifiedname", "prefix", "scope"))
        for module in named.get("name", []) + positional[:1]:
            self._judge_program(module, frame, argv)

    def _new_object(self, name: str, argv: list[Arg], frame: Frame, stdin: Stdin | None) -> None:
        named, positional = self._ps_bind(argv[1:], ("typename", "comobject", "argumentlist", "property"))
        types = named.get("typename") or ([] if "comobject" in named else positional[:1])
        for a in types + named.get("comobject", []):
            if DYN in a.text or (a.raw != a.text and not _QUOTED_WORD.fullmatch(a.raw)):
                # `('Net.' + 'WebClient')` is computed, however literal its parts
                self.event(
                    "dynamic-arguments",
                    frame,
                    f"`{_shown_args(argv)}` creates an object whose type is only known at run time",
                    self._argv(argv),
                )
            else:
                self.dotnet(a.text, "new", frame, f"New-Object {a.raw}")  # as `[T]::new()` would
