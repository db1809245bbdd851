"""Allowlist mode: only commands an `[[allow]]` entry matches may run, and the deny rules still apply on top.

Every simple command the evaluation finds counts — each command of a chain or pipeline, each substitution,
and each command a wrapper runs (`sudo X` needs `sudo` and `X` on the allowlist, `sh -c 'X'` needs `sh` and
`X`). `:`, `true` and `false` do nothing, so they need no entry.

Entries come in *layers*. The user's own files (`--policy FILE`, the user's config folder) make one layer
together: their entries add up. Each file a project supplies (`.hazina/policy.toml`, files its config names)
that sets allowlist mode is a layer of its own, and a command must be on every layer, so a project can only
narrow what runs, never widen it.
"""

from __future__ import annotations

import re
from typing import Any

from ._engine import CompiledPolicy, Evaluation
from ._findings import Finding
from ._models import AllowEntry, Decision, Rule, ShellKind
from ._normalise import hidden_program
from ._rules import MATCH, CommandView, CompiledCommand, glob_regex
from ._shape import record
from ._syntax import DYN, Arg, Feed, Frame, Stdin

IMPLICITLY_ALLOWED = frozenset({":", "true", "false"})
"""Commands that do nothing: on every allowlist without an entry (the engine also checks `NAME=value :`)."""

NOT_ALLOWED_ID = "allowlist.not-allowed"
ALLOWED_REASON = "every command in it is on the allowlist and no deny rule matches it"
_SUMMARY_MAX = 600
_REASONS_SHOWN = 5


@record(frozen=True)
class CompiledAllow:
    """One allow entry, ready to test against a `CommandView`."""

    entry: AllowEntry
    names: re.Pattern[str]
    matcher: CompiledCommand
    prefix: tuple[re.Pattern[str], ...]
    dialects: frozenset[str]

    @classmethod
    def build(cls, entry: AllowEntry, rule: Rule) -> CompiledAllow:
        return cls(
            entry=entry,
            names=glob_regex([c.lower() for c in entry.commands]),
            matcher=CompiledCommand.build(rule, entry, deny=False),
            prefix=tuple(glob_regex([p]) for p in entry.prefix),
            dialects=frozenset(entry.shells),
        )

    def allows(self, view: CommandView, named: bool = False) -> bool:
        """Does the entry surely match? A word only known at run time that decides it means no. `named`: one
        of the view's names is one the entry lists literally, so its name test passes without the regex."""
        if view.dialect not in self.dialects:
            return False
        if not named and not any(self.names.match(n) for n in view.names):
            return False
        if self.prefix:
            args = view.args
            if len(args) < len(self.prefix):
                return False
            for arg, pattern in zip(args, self.prefix, strict=False):
                if DYN in arg.text or pattern.match(arg.text) is None:
                    return False
        return self.matcher.check(view)[0] == MATCH


class AllowLayer:
    """The entries of one layer, and where they come from (for the reason a command is refused)."""

    __slots__ = ("by_name", "candidates", "entries", "globbed", "source")

    def __init__(self, source: str, entries: tuple[CompiledAllow, ...]) -> None:
        self.source = source
        """"your allowlist (FILES)" or "the project's allowlist (FILE)"."""
        self.entries = entries
        self.by_name: dict[str, list[int]] = {}
        """Program name -> the positions of the entries naming it (so a check tries only those)."""
        globbed = []
        for position, compiled in enumerate(entries):
            for name in compiled.entry.commands:
                if any(ch in name for ch in "*?["):
                    globbed.append(position)
                else:
                    self.by_name.setdefault(name.lower(), []).append(position)
        self.globbed = tuple(dict.fromkeys(globbed))
        self.candidates: dict[tuple[str, ...], tuple[tuple[CompiledAllow, bool], ...]] = {}
        """Command names -> the entries worth trying for them, in file order, each with whether it names one
        of them literally: worked out once per program rather than once per command."""

    def entry_for(self, view: CommandView) -> AllowEntry | None:
        """The first entry (in file order) that allows `view`, or None."""
        candidates = self.candidates.get(view.names)
        if candidates is None:
            candidates = self._candidates_for(view.names)
        for compiled, named in candidates:
            if compiled.allows(view, named):
                return compiled.entry
        return None

    def _candidates_for(self, names: tuple[str, ...]) -> tuple[tuple[CompiledAllow, bool], ...]:
        named = {p for name in names for p in self.by_name.get(name, ())}
        positions = sorted(named.union(self.globbed))
        found = tuple((self.entries[p], p in named) for p in positions)
        if len(self.candidates) < 4096:  # bounded: names come from untrusted text
            self.candidates[names] = found
        return found

    def summary(self) -> str:
        """The programs this layer allows, briefly: `git status|diff, pytest, python -m pytest`."""
        return _summary([compiled.entry for compiled in self.entries])


def _summary(entries: list[AllowEntry]) -> str:
    parts: list[str] = []
    for entry in entries:
        extra = " ".join(entry.prefix) or "|".join(entry.subcommands)
        parts.append(f"{'|'.join(entry.commands)} {extra}".strip())
    text = ", ".join(dict.fromkeys(parts)) or "nothing"
    return text if len(text) <= _SUMMARY_MAX else text[: _SUMMARY_MAX - 1] + "…"


class Allowlist:
    """Every layer of allow entries; a simple command runs only when each layer has an entry for it."""

    def __init__(self, layers: list[tuple[str, list[AllowEntry]]]) -> None:
        allowed = "; ".join(f"{source} allows {_summary(entries)}" for source, entries in layers)
        self.rule = _not_allowed_rule(
            "The policy runs in allowlist mode: only commands on the allowlist run, and the deny rules still "
            f"apply to them ({allowed}). Reach the goal with allowed commands only (read files with "
            "read_file, change them with apply_diff), or stop and say which command the user should allow."
        )
        self.layers = tuple(
            AllowLayer(source, tuple(CompiledAllow.build(e, self.rule) for e in entries))
            for source, entries in layers
        )

    def entries(self) -> list[AllowEntry]:
        """Every entry of every layer, in order."""
        return [compiled.entry for layer in self.layers for compiled in layer.entries]

    def judge(
        self, policy: CompiledPolicy, argv: list[Arg], frame: Frame
    ) -> tuple[list[AllowEntry], Finding | None]:
        """Hold one simple command of the line against the allowlist: the entries that allow it, and the
        finding that refuses it (None: allowed)."""
        info = policy.word_info(argv[0].text, frame.dialect, frame.aliases)
        names = info.names
        if not names[0] or names[0] in IMPLICITLY_ALLOWED:
            return [], None
        if hidden_program(argv[0].text):
            entries, missing = [], self.layers[0]  # `.rclone`: no entry allows a copy under a hidden name
        else:
            entries, missing = self.decide(CommandView(names, argv, frame.dialect, info.syntax))
        if missing is None:
            return entries, None
        words = [a.text if DYN not in a.text else a.raw for a in argv]
        words[0] = names[-1]
        reason = f"`{_shown(argv)}`{frame.where()} is not on {missing.source}"
        return entries, Finding(self.rule, words, reason)

    def evaluation(self, policy: CompiledPolicy, root: str | None) -> AllowlistEvaluation:
        """The whole evaluation of a line in allowlist mode (see `LiteralGate`)."""
        return AllowlistEvaluation(policy, self, root=root)

    def literal(self, policy: CompiledPolicy, decision: Decision, argv: list[Arg]) -> Decision:
        """The decision on a line of one command of literal words the deny rules alone decided (see
        `LiteralGate`): what `AllowlistEvaluation` decides for it, without walking it again."""
        if not decision.allowed:
            return decision  # a concrete deny explains the block better than a missing entry, as in the walk
        _, refused = self.judge(policy, argv, Frame(decision.backend))
        if refused is None:
            return Decision.allow(decision.command, decision.backend, ALLOWED_REASON, decision.parse_status)
        return Decision.block(
            decision.command, decision.backend, self.rule, refused.reason, refused.argv, decision.parse_status
        )

    def decide(self, view: CommandView) -> tuple[list[AllowEntry], AllowLayer | None]:
        """The entry allowing `view` on each layer, and the first layer with none (None: allowed)."""
        found: list[AllowEntry] = []
        for layer in self.layers:
            entry = layer.entry_for(view)
            if entry is None:
                return found, layer
            found.append(entry)
        return found, None


def _not_allowed_rule(justification: str) -> Rule:
    # A rule of the engine's own making: it has no clauses or examples to prove.
    return Rule(
        id=NOT_ALLOWED_ID,
        category="allowlist",
        description="is not on the allowlist",
        justification=justification,
        when=[],
        match=[],
        not_match=[],
        shells=["posix", "powershell"],
    )


def _shown(argv: list[Arg]) -> str:
    text = " ".join(" ".join(a.raw for a in argv).split())
    return text if len(text) <= 160 else text[:159] + "…"


class AllowlistEvaluation(Evaluation):
    """The whole evaluation of one command, with each simple command also held against the allowlist.

    A command missing from the allowlist is a finding that does not stop the walk, so a deny rule found
    later in the line still explains the block (it says why the command is dangerous, not just unlisted).
    """

    __slots__ = ("allowlist",)

    def __init__(
        self,
        policy: CompiledPolicy,
        allowlist: Allowlist | None,
        *,
        collect_all: bool = False,
        root: str | None = None,
    ) -> None:
        super().__init__(policy, collect_all=collect_all, root=root)
        self.allowlist = allowlist

    def check(self, command: str, shell: ShellKind, parsed: Any = None) -> Decision:
        decision = super().check(command, shell, parsed)
        if self.allowlist is None:
            return decision
        if decision.allowed:
            return Decision.allow(command, shell, ALLOWED_REASON, decision.parse_status)
        if decision.rule_id == NOT_ALLOWED_ID:
            # Name every unlisted command at once, in the order they appear, so one reply can fix them all.
            unlisted = [f for f in self.findings if f.rule is self.allowlist.rule]
            reasons = list(dict.fromkeys(f.reason for f in unlisted))
            reason = "; ".join(reasons[:_REASONS_SHOWN])
            if len(reasons) > _REASONS_SHOWN:
                reason += f"; and {len(reasons) - _REASONS_SHOWN} more"
            argv = unlisted[0].argv
            return Decision.block(command, shell, self.allowlist.rule, reason, argv, decision.parse_status)
        return decision

    def command(
        self,
        argv: list[Arg],
        frame: Frame,
        stdin: Stdin | None,
        resolved_name: str | None = None,
        feeds: tuple[Feed, ...] = (),
    ) -> None:
        if (
            self.allowlist is not None
            and argv
            and not argv[0].block
            and DYN not in argv[0].text
            and not self.guessing
        ):
            self.gate(argv, frame)  # a name known only at run time is blocked by the engine itself
        super().command(argv, frame, stdin, resolved_name, feeds)

    def gate(self, argv: list[Arg], frame: Frame) -> list[AllowEntry] | None:
        """Hold one simple command against the allowlist; the entries that allow it, or None (refused)."""
        assert self.allowlist is not None
        entries, refused = self.allowlist.judge(self.p, argv, frame)
        if refused is not None:
            self.findings.append(refused)
            return None
        return entries
