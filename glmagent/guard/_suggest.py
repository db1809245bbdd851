"""`policy suggest`: allow entries that cover commands a user's tasks ran, generalised to what a person would
write: a program (`pytest`), a program and its subcommands (`git status|diff|log`), or an interpreter and the
module it runs (`python -m pytest`), never a whole literal line. Each entry carries the commands it came from
as `match` examples, proven like any other entry's, so the output can be pasted into a policy file as is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._allowlist import IMPLICITLY_ALLOWED
from ._explain import ExplainedCommand, TracingEvaluation
from ._models import POWERSHELL_PROMPT, AllowEntry, ShellKind
from ._rules import CommandView
from ._syntax import DYN, Arg, Frame

if TYPE_CHECKING:
    from ._engine import CompiledPolicy
    from ._policy import Policy

_VERB_FIRST = """
    apt apt-get bazel brew bun bundle cabal cargo composer conda coverage deno django-admin docker dotnet
    flutter gem gh git glab go gradle hatch helm just kubectl lerna make mamba mix mvn ng nix npm nx pdm pip
    pip3 pipx pnpm podman poetry pre-commit rake ruff rustup stack swift terraform tofu turbo uv vitest yarn
"""
SUBCOMMAND_PROGRAMS = frozenset(_VERB_FIRST.split())
"""Programs whose first operand is a verb (`git status`, `npm test`, `make lint`): one entry lists them."""
MODULE_RUNNERS = frozenset({"python", "python3", "py", "pypy", "pypy3"})
"""Interpreters whose `-m MODULE` is suggested per module (`python -m pytest`)."""
_EXAMPLES = 3
_SUBCOMMAND = re.compile(r"[a-z0-9][a-z0-9:._-]*", re.IGNORECASE)


@dataclass
class _Uses:
    """The observed uses of one program, grouped by how an entry would generalise them."""

    program: str
    dialects: set[str] = field(default_factory=set)
    subcommands: dict[str, list[str]] = field(default_factory=dict)
    modules: dict[str, list[str]] = field(default_factory=dict)
    bare: list[str] = field(default_factory=list)
    """Uses with no subcommand (`git --version`), or any use of a program without subcommands."""
    other: list[str] = field(default_factory=list)
    """Uses of a module runner without `-m` (`python script.py`)."""


@dataclass
class Suggestion:
    """Allow entries for the commands given, and the commands no entry could cover (with why)."""

    entries: list[AllowEntry]
    skipped: list[str]


def suggest_allow_entries(policy: Policy, commands: Iterable[tuple[str, ShellKind]]) -> Suggestion:
    """Allow entries covering every simple command in `commands` (each a line and its backend), in the order
    their programs first appear. `policy` is the `Policy` whose parser reads the lines."""
    compiled = policy._compiled
    uses: dict[str, _Uses] = {}
    skipped: list[str] = []
    for line, shell in commands:
        trace = TracingEvaluation(compiled, None, collect_all=True)
        trace.run(line, shell)
        for (argv, frame), step in zip(trace.calls, trace.steps, strict=True):
            _observe(compiled, argv, frame, step, uses, skipped)
    entries: list[AllowEntry] = []
    taken: set[str] = set()
    for found in uses.values():
        for entry in _entries(found):
            entry = _proven(policy, entry)
            if entry is None:
                continue
            base, n = entry.id, 2
            while entry.id in taken:
                entry = entry.replace(id=f"{base}-{n}")
                n += 1
            taken.add(entry.id)
            entries.append(entry)
    return Suggestion(entries, list(dict.fromkeys(skipped)))


def _observe(
    compiled: CompiledPolicy,
    argv: list[Arg],
    frame: Frame,
    step: ExplainedCommand,
    uses: dict[str, _Uses],
    skipped: list[str],
) -> None:
    shown = " ".join(step.raw)
    try:
        shown.encode("utf-8")
    except UnicodeEncodeError:
        skipped.append(f"{shown!r}  (holds characters a policy file cannot hold)")
        return
    if DYN in argv[0].text:
        skipped.append(f"{shown}  (the program is only known at run time)")
        return
    info = compiled.word_info(argv[0].text, frame.dialect, frame.aliases)
    program = info.names[-1]
    if not program or program in IMPLICITLY_ALLOWED:
        return
    if frame.dialect == "cmd":
        # No backend reads a `cmd /c` line directly, so no example could prove an entry for it.
        skipped.append(f'{shown}  (run by `cmd /c`: write its entry by hand, with shells = ["cmd"])')
        return
    shell_example = shown if frame.dialect == "posix" else POWERSHELL_PROMPT + shown
    found = uses.setdefault(program, _Uses(program))
    found.dialects.add(frame.dialect)
    view = CommandView(info.names, argv, frame.dialect, info.syntax)
    args = view.args
    if program in MODULE_RUNNERS:
        if len(args) >= 2 and args[0].text == "-m" and _plain(args[1].text):
            found.modules.setdefault(args[1].text, []).append(shell_example)
        else:
            found.other.append(shell_example)
        return
    if program in SUBCOMMAND_PROGRAMS:
        positionals = view.positionals()
        if positionals:
            first = positionals[0].text
            if not _plain(first):
                skipped.append(f"{shown}  (its subcommand is only known at run time)")
                return
            found.subcommands.setdefault(first.lower(), []).append(shell_example)
            return
        if any(DYN in a.text for a in args):
            skipped.append(f"{shown}  (a word only known at run time may be its subcommand)")
            return
    found.bare.append(shell_example)


def _plain(word: str) -> bool:
    return DYN not in word and _SUBCOMMAND.fullmatch(word) is not None


def _examples(lines: Iterable[str]) -> list[str]:
    return [e for e in dict.fromkeys(lines) if e][:_EXAMPLES]


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "command"


def _entries(found: _Uses) -> list[AllowEntry]:
    program = found.program
    shells = sorted(found.dialects, key=["posix", "powershell", "cmd"].index)
    out: list[AllowEntry] = []

    def add(id_: str, description: str, examples: list[str], **match: Any) -> None:
        examples = _examples(examples)
        if examples:
            out.append(
                AllowEntry(
                    id=_slug(id_),
                    description=description,
                    commands=[program],
                    shells=shells,
                    match=examples,
                    **match,
                )
            )

    if found.subcommands:
        words = sorted(found.subcommands)
        every = [e for w in words for e in found.subcommands[w][:1]]
        add(program, f"{program} {', '.join(words)}", every, subcommands=words)
    for module in sorted(found.modules):
        add(f"{program}-m-{module}", f"{program} -m {module}", found.modules[module], prefix=["-m", module])
    if found.other:
        add(f"{program}-any", f"any {program} command (scripts and inline programs too)", found.other)
    if found.bare:
        if program in SUBCOMMAND_PROGRAMS:
            add(f"{program}-options", f"{program} with options only", found.bare, only_flags=True)
        else:
            add(program, f"{program}, any arguments", found.bare)
    return out


def _proven(policy: Policy, entry: AllowEntry) -> AllowEntry | None:
    """The entry keeping only the examples it provably allows (None when none is left)."""
    from ._policy import allow_example_problem

    kept = [
        example
        for example in entry.match
        if allow_example_problem(policy, entry, "suggested", example, True) is None
    ]
    if not kept:
        return None
    return entry.replace(match=kept)


def allow_entries_toml(entries: list[AllowEntry], header: list[str] | None = None) -> str:
    """A policy file in allowlist mode holding `entries`, with `header` lines as comments on top."""
    lines = [f"# {h}" if h else "#" for h in header or []]
    lines += ["version = 1", "", "[policy]", 'mode = "allowlist"']
    for entry in entries:
        lines += ["", "[[allow]]", f"id = {_toml_string(entry.id)}"]
        if entry.description:
            lines.append(f"description = {_toml_string(entry.description)}")
        lines.append(f"commands = {_toml_list(entry.commands)}")
        if entry.subcommands:
            lines.append(f"subcommands = {_toml_list(entry.subcommands)}")
        if entry.prefix:
            lines.append(f"prefix = {_toml_list(entry.prefix)}")
        if entry.only_flags:
            lines.append("only_flags = true")
        if sorted(entry.shells) != sorted(["posix", "powershell", "cmd"]):
            lines.append(f"shells = {_toml_list(list(entry.shells))}")
        lines.append(f"match = {_toml_list(entry.match)}")
    return "\n".join(lines) + "\n"


def _toml_list(items: list[str]) -> str:
    one_line = "[" + ", ".join(_toml_string(i) for i in items) + "]"
    if len(one_line) <= 100:
        return one_line
    return "[\n" + "".join(f"    {_toml_string(i)},\n" for i in items) + "]"


def _toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for ch in text:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch < " " or ch == "\x7f":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'
