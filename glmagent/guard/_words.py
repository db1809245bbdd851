"""What the words of any command give away: a process environment, argument-wide rules, another machine or a
hidden stream (`_locators`), an option whose value runs as a command, an output file, the files a command
writes and the program it runs, judged against the working directory (`_paths`)."""

from __future__ import annotations

from . import _locators
from ._compiled import NameInfo
from ._findings import shown_args
from ._models import Dialect
from ._paths import DELETERS, WRITERS, PathScope, output_targets, write_targets
from ._syntax import DYN, Arg, Frame
from ._unwrap import executor


def maybe_environ(text: str) -> bool:
    """A cheap screen: only words mentioning `env`, holding a glob or a run-time piece can name one."""
    return "env" in text or "ENV" in text or "*" in text or "?" in text or "[" in text or DYN in text


def path_key(path: str) -> str:
    """Compare file names loosely: `./x.sh`, `x.sh` and `.\\x.sh` are the same file."""
    key = path.replace("\\", "/")
    while key.startswith("./"):
        key = key[2:]
    return key.lower()


class WordChecks:
    """The word-level checks of an `Evaluation` (a mixin: it reads the evaluation's policy, scope and
    findings, and reports through its `event` and `_rule_finding`)."""

    __slots__ = ()

    def _arguments(self, args: list[Arg], argv: list[Arg], info: NameInfo, frame: Frame) -> None:
        """What any word of any command can give away: a process environment, argument-wide rules
        (`/dev/tcp/*`, credential files), another machine or a hidden stream (`_locators`), an option whose
        value the program runs as a command (`--rsh CMD`), and an output file (`-o FILE`)."""
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
            targets = output_targets(names[-1], args)
            if targets:
                words = self._argv(argv, names)
                for target in targets:
                    self._judge_write(self.scope(frame), target, frame, words)

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
        screened = [a for a in args if maybe_environ(a.text)]
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
        words = None  # made once, not once per target: `rm` with thousands of files stays linear
        for target in write_targets(name, args, frame.dialect):
            if lenient and (DYN in target.text or "$" in target.raw):
                continue
            if words is None:
                words = self._argv(argv, info.names)
            self._judge_write(scope, target, frame, words)

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
                self.copied.add(path_key(operands[-1].text))
            return
        targets = operands if how == "all" else operands[:1]
        for a in targets:
            if DYN not in a.text:
                self.written.add(path_key(a.text))

    def _check_runs_written(self, argv: list[Arg], frame: Frame) -> None:
        if self.copied and DYN not in argv[0].text and path_key(argv[0].text) in self.copied:
            self.event(
                "dynamic-command",
                frame,
                f"`{shown_args(argv)}` runs `{argv[0].raw}`, a copy of a file made in this command line",
                self._argv(argv),
            )
            return
        for a in argv:
            if DYN not in a.text and path_key(a.text) in self.written:
                self.event(
                    "dynamic-script",
                    frame,
                    f"`{shown_args(argv)}` runs `{a.raw}`, which this same command line writes",
                    self._argv(argv),
                )
                return
