"""Compile rule clauses into fast matchers and index them by what they look at.

Matching a command is three-valued: MATCH, NO, or UNKNOWN when a word that decides it (a flag, a
subcommand) is only known at run time. The engine turns UNKNOWN into a fail-closed block.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from enum import IntEnum

from ._models import (
    ArgumentClause,
    CommandClause,
    Dialect,
    DotnetClause,
    PayloadClause,
    RedirectClause,
    Rule,
    SyntaxSpec,
    VariableClause,
)
from ._syntax import DYN, Arg


class Tri(IntEnum):
    NO = 0
    UNKNOWN = 1
    MATCH = 2


def glob_regex(globs: list[str], *, fold: bool = True) -> re.Pattern[str]:
    """One regex for a list of shell globs (`*` also spans `/` and the DYN marker)."""
    body = "|".join(f"(?:{fnmatch.translate(g)})" for g in globs) or "(?!)"
    return re.compile(body, re.IGNORECASE | re.DOTALL if fold else re.DOTALL)


_OFF_VALUES = frozenset({"$false", "0", "$null"})


class CommandView:
    """One simple command as the rules see it; flag tables are computed on first use."""

    __slots__ = (
        "_params",
        "_positionals",
        "_posix",
        "_switches",
        "args",
        "argv",
        "dialect",
        "has_command",
        "names",
    )

    def __init__(self, names: tuple[str, ...], argv: list[Arg], dialect: Dialect) -> None:
        self.names = names
        self.argv = argv
        self.args = argv[1:]
        self.dialect = dialect
        self.has_command: bool | None = None
        self._posix: tuple[set[str], list[str], bool] | None = None
        self._switches: tuple[set[str], bool] | None = None
        self._params: tuple[list[tuple[str, str | None]], bool] | None = None
        self._positionals: list[Arg] | None = None

    def posix_flags(self) -> tuple[set[str], list[str], bool]:
        """Short flag letters, long flag names and whether a run-time word could add flags (before `--`)."""
        if self._posix is None:
            short: set[str] = set()
            long: list[str] = []
            dyn = False
            for a in self.args:
                t = a.text
                if t == "--":
                    break
                if DYN in t:
                    dyn = dyn or a.may_be_flag
                    continue
                if t.startswith("--"):
                    long.append(t.split("=", 1)[0])
                elif len(t) > 1 and t[0] == "-":
                    short.update(t[1:])
            self._posix = (short, long, dyn)
        return self._posix

    def switches(self) -> tuple[set[str], bool]:
        """Windows switches (`/s`, `/S/Q`, `-s`) lower-cased, and whether a run-time word could add one."""
        if self._switches is None:
            found: set[str] = set()
            dyn = False
            for a in self.args:
                t = a.text
                if DYN in t:
                    dyn = dyn or t[:1] in ("/", "-", DYN) or a.splat
                    continue
                if t[:1] == "/" and len(t) > 1:
                    for part in t.lower().split("/")[1:]:
                        if part:
                            found.add("/" + part.split(":", 1)[0])
                elif t[:1] == "-" and len(t) > 1 and not t.startswith("--"):
                    found.add("/" + t[1:].lower().split(":", 1)[0])
            self._switches = (found, dyn)
        return self._switches

    def params(self) -> tuple[list[tuple[str, str | None]], bool]:
        """PowerShell parameters as (lower-case name, value after ':'); and could splatting add more?"""
        if self._params is None:
            out: list[tuple[str, str | None]] = []
            dyn = False
            for a in self.args:
                if a.splat:
                    dyn = True
                elif a.param:
                    name, sep, value = a.text.lstrip("-\u2013\u2014\u2015").partition(":")
                    out.append((name.lower(), value.lower() if sep else None))
            self._params = (out, dyn)
        return self._params

    def positionals(self, syntax: dict[str, frozenset[str]]) -> list[Arg]:
        """Operands after the command's global options (whose values `syntax` lists per command name)."""
        if self._positionals is None:
            value_options: frozenset[str] = frozenset()
            for name in self.names:
                value_options = value_options | syntax.get(name, frozenset())
            self._positionals = self._operands(value_options)
        return self._positionals

    def _operands(self, value_options: frozenset[str]) -> list[Arg]:
        out: list[Arg] = []
        skip = False
        options_done = False
        for a in self.args:
            if skip:
                skip = False
                continue
            t = a.text
            if not options_done:
                if t == "--":
                    options_done = True
                    continue
                if a.param or (len(t) > 1 and t[0] == "-" and DYN not in t):
                    if "=" not in t and t in value_options:
                        skip = True
                    continue
            out.append(a)
        return out


def _index_first_word(subcommands: list[str]) -> dict[str, list[tuple[str, ...]]]:
    index: dict[str, list[tuple[str, ...]]] = {}
    for entry in subcommands:
        seq = tuple(entry.lower().split())
        index.setdefault(seq[0], []).append(seq)
    return index


@dataclass(slots=True)
class CompiledCommand:
    """A `on = "command"` clause ready to test against a `CommandView`."""

    rule: Rule
    clause: CommandClause
    short_any: set[str]
    long_any: list[str]
    short_none: set[str]
    long_none: list[str]
    switches_any: set[str]
    params_any: list[str]
    params_none: list[str]
    args_any: re.Pattern[str] | None
    args_none: re.Pattern[str] | None
    args_flaglike: bool
    syntax: dict[str, frozenset[str]] = field(default_factory=dict)
    by_first_word: dict[str, list[tuple[str, ...]]] = field(default_factory=dict)

    @classmethod
    def build(cls, rule: Rule, clause: CommandClause, syntax: dict[str, frozenset[str]]) -> CompiledCommand:
        def split(flags: list[str]) -> tuple[set[str], list[str]]:
            return {f[1] for f in flags if len(f) == 2}, [f for f in flags if len(f) > 2]

        short_any, long_any = split(clause.flags_any)
        short_none, long_none = split(clause.flags_none)
        return cls(
            rule=rule,
            clause=clause,
            short_any=short_any,
            long_any=long_any,
            short_none=short_none,
            long_none=long_none,
            switches_any={
                s.lower() if s.startswith("/") else "/" + s.lower().lstrip("-") for s in clause.switches_any
            },
            params_any=[p.lower().lstrip("-") for p in clause.params_any],
            params_none=[p.lower().lstrip("-") for p in clause.params_none],
            args_any=glob_regex(clause.args_any) if clause.args_any else None,
            args_none=glob_regex(clause.args_none) if clause.args_none else None,
            args_flaglike=any(g.startswith("-") for g in clause.args_any),
            syntax=syntax,
            by_first_word=_index_first_word(clause.subcommands),
        )

    def check(self, view: CommandView) -> tuple[Tri, str]:
        """Three-valued match plus a few words on what decided it."""
        c = self.clause
        state = Tri.MATCH
        detail: list[str] = []
        if view.dialect not in c.shells:
            return Tri.NO, ""
        if self.by_first_word:
            pos = view.positionals(self.syntax)
            if not pos:
                return Tri.NO, ""
            first = pos[0].text
            if DYN in first:
                state = Tri.UNKNOWN
            else:
                best = Tri.NO
                for seq in self.by_first_word.get(first.lower(), ()):
                    got = self._subcommand(pos, seq)
                    if got > best:
                        best = got
                        if got is Tri.MATCH:
                            detail.append(" ".join(seq))
                            break
                if best is Tri.NO:
                    return Tri.NO, ""
                state = min(state, best)
        if self.args_none is not None and any(self.args_none.match(a.text) for a in view.args):
            return Tri.NO, ""
        if c.no_args and view.args:
            return Tri.NO, ""
        if c.only_flags:
            for a in view.args:
                if DYN in a.text:
                    state = min(state, Tri.UNKNOWN)
                elif not (a.text[:1] in ("-", "+") and len(a.text) > 1):
                    return Tri.NO, ""
        if c.no_command:
            if view.has_command is True:
                return Tri.NO, ""
            if view.has_command is None:
                state = min(state, Tri.UNKNOWN)
        if self.short_any or self.long_any or self.short_none or self.long_none:
            short, long, dyn = view.posix_flags()
            if self.short_none & short or any(self._long_hit(f, long) for f in self.long_none):
                return Tri.NO, ""
            if self.short_any or self.long_any:
                hit = next((f"-{s}" for s in self.short_any if s in short), None) or next(
                    (f for f in self.long_any if self._long_hit(f, long)), None
                )
                if hit:
                    detail.append(hit)
                elif dyn:
                    state = min(state, Tri.UNKNOWN)
                else:
                    return Tri.NO, ""
        if self.switches_any:
            found, dyn = view.switches()
            hits = sorted(self.switches_any & found)
            if hits:
                detail.append(" ".join(hits))
            elif dyn:
                state = min(state, Tri.UNKNOWN)
            else:
                return Tri.NO, ""
        if self.params_any or self.params_none:
            params, dyn = view.params()
            if any(self._param_hit(p, params) for p in self.params_none):
                return Tri.NO, ""
            if self.params_any:
                hit = next((p for p in self.params_any if self._param_hit(p, params)), None)
                if hit:
                    detail.append(
                        "-" + next(x for x in c.params_any if x.lower().lstrip("-") == hit).lstrip("-")
                    )
                elif dyn:
                    state = min(state, Tri.UNKNOWN)
                else:
                    return Tri.NO, ""
        if self.args_any is not None:
            hit_arg = None
            dyn = False
            for a in view.args:
                if DYN not in a.text:
                    if self.args_any.match(a.text):
                        hit_arg = a.text
                        break
                elif self.args_flaglike and a.may_be_flag:
                    dyn = True
            if hit_arg is not None:
                detail.append(hit_arg)
            elif dyn:
                state = min(state, Tri.UNKNOWN)
            else:
                return Tri.NO, ""
        return state, ", ".join(detail)

    @staticmethod
    def _long_hit(flag: str, given: list[str]) -> bool:
        # getopt_long accepts any unambiguous prefix (`--rec`); treating every prefix as a hit fails closed.
        return any(g == flag or (len(g) >= 3 and flag.startswith(g)) for g in given)

    @staticmethod
    def _param_hit(param: str, given: list[tuple[str, str | None]]) -> bool:
        return any(name and param.startswith(name) and value not in _OFF_VALUES for name, value in given)

    @staticmethod
    def _subcommand(pos: list[Arg], seq: tuple[str, ...]) -> Tri:
        if len(pos) < len(seq):
            return Tri.UNKNOWN if any(DYN in a.text for a in pos) else Tri.NO
        state = Tri.MATCH
        for a, word in zip(pos, seq, strict=False):
            if DYN in a.text:
                state = Tri.UNKNOWN
            elif a.text.lower() != word:
                return Tri.NO
        return state


@dataclass(slots=True)
class RuleIndex:
    """Every clause of every rule, indexed the way the engine asks for them."""

    by_name: dict[str, list[CompiledCommand]] = field(default_factory=dict)
    by_glob: list[tuple[re.Pattern[str], CompiledCommand]] = field(default_factory=list)
    redirects: list[tuple[Rule, RedirectClause, re.Pattern[str]]] = field(default_factory=list)
    variables: dict[Dialect, list[tuple[Rule, re.Pattern[str]]]] = field(default_factory=dict)
    payloads: dict[str, list[tuple[Rule, PayloadClause, list[re.Pattern[str]]]]] = field(default_factory=dict)
    dotnet: dict[str, list[tuple[Rule, re.Pattern[str] | None]]] = field(default_factory=dict)
    arguments: dict[Dialect, list[tuple[Rule, re.Pattern[str]]]] = field(default_factory=dict)
    argument_screen: dict[Dialect, re.Pattern[str]] = field(default_factory=dict)
    """One regex per dialect that any argument must match before the individual globs are tried."""
    engine: dict[str, Rule] = field(default_factory=dict)

    def commands_for(self, names: tuple[str, ...]) -> list[CompiledCommand]:
        found: list[CompiledCommand] = []
        for name in names:
            found.extend(self.by_name.get(name, ()))
        if self.by_glob:
            for pattern, compiled in self.by_glob:
                if any(pattern.match(n) for n in names) and compiled not in found:
                    found.append(compiled)
        return found


def dotnet_key(name: str) -> str:
    """`[System.Net.WebClient]` / `system.net.webclient` / `Net.WebClient` -> `net.webclient`."""
    key = name.strip().strip("[]").split("[", 1)[0].lower()
    return key.removeprefix("system.")


def build_index(rules: list[Rule], syntax: dict[str, SyntaxSpec]) -> RuleIndex:
    """Compile every clause; invalid regular expressions surface as `ValueError` naming the pattern."""
    value_opts: dict[str, frozenset[str]] = {}
    for spec in syntax.values():
        for n in spec.names:
            value_opts[n] = frozenset(spec.value_options)
    index = RuleIndex()
    for rule in rules:
        for clause in rule.when:
            if isinstance(clause, CommandClause):
                compiled = CompiledCommand.build(rule, clause, value_opts)
                for name in clause.commands:
                    key = name.lower()
                    if any(ch in key for ch in "*?["):
                        index.by_glob.append((glob_regex([key]), compiled))
                    else:
                        index.by_name.setdefault(key, []).append(compiled)
            elif isinstance(clause, RedirectClause):
                index.redirects.append((rule, clause, glob_regex(clause.allow_targets)))
            elif isinstance(clause, VariableClause):
                pattern = re.compile("|".join(f"(?:{n})" for n in clause.names), re.IGNORECASE)
                for shell in clause.shells:
                    index.variables.setdefault(shell, []).append((rule, pattern))
            elif isinstance(clause, PayloadClause):
                try:
                    patterns = [re.compile(p) for p in clause.patterns]
                except re.error as exc:
                    raise ValueError(f"rule {rule.id}: bad payload pattern: {exc}") from exc
                for language in clause.languages:
                    index.payloads.setdefault(language, []).append((rule, clause, patterns))
            elif isinstance(clause, DotnetClause):
                members = glob_regex(clause.members) if clause.members else None
                for type_name in clause.types:
                    index.dotnet.setdefault(dotnet_key(type_name), []).append((rule, members))
            elif isinstance(clause, ArgumentClause):
                pattern = glob_regex(clause.globs)
                for shell in clause.shells:
                    index.arguments.setdefault(shell, []).append((rule, pattern))
            else:
                index.engine[clause.event] = rule
    for shell, entries in index.arguments.items():
        index.argument_screen[shell] = re.compile(
            "|".join(f"(?:{p.pattern})" for _, p in entries), re.IGNORECASE | re.DOTALL
        )
    return index
