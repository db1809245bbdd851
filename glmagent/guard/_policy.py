"""`Policy`: load the built-in rules plus user additions, prove each example, check and explain commands."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from .._resources import data_dir
from ..errors import PolicyError
from . import _cache
from ._allowlist import NOT_ALLOWED_ID, Allowlist
from ._engine import CompiledPolicy, Evaluation
from ._models import (
    ENGINE_EVENTS,
    AllowEntry,
    Decision,
    EngineClause,
    PolicyFile,
    PolicyMode,
    Rule,
    ShellKind,
    UserPolicyFile,
)
from ._project import KeptFiles

if TYPE_CHECKING:
    from pydantic import ValidationError

    from ._explain import Explanation

_DEFAULT: Policy | None = None
_DEFAULT_LOCK = threading.Lock()
_PROVEN_BUILTIN: dict[bytes, frozenset[str]] = {}
"""The built-in rules' ids, by the sha256 of the built-in file whose policy alone was proven on its examples
(in this process, or before the load cache stored it)."""


def _remember_proven(builtin_data: bytes, policy: Policy) -> None:
    """`policy`, of the built-in file `builtin_data` alone, is proven: remember its rules' ids."""
    _PROVEN_BUILTIN[hashlib.sha256(builtin_data).digest()] = frozenset(r.id for r in policy.rules)


Role = Literal["builtin", "user", "project"]
_USER_KEYS = {"version", "rule", "policy", "allow"}


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError as exc:
        raise PolicyError(f"policy file {path} does not exist") from exc
    except OSError as exc:
        raise PolicyError(f"policy file {path} cannot be read: {exc}") from exc


def _parse_toml(path: Path, data: bytes) -> dict[str, Any]:
    import tomllib  # here: a policy loaded from the cache is never parsed

    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PolicyError(f"policy file {path} cannot be read: {exc}") from exc


_T = TypeVar("_T")


def _validated(shape: type[_T], path: Path, raw: dict[str, Any]) -> _T:
    """`raw` read into `shape`, checked by pydantic: imported here, since only compiling a policy file
    needs it (a policy loaded from the cache never does)."""
    from pydantic import TypeAdapter, ValidationError

    try:
        return TypeAdapter(shape).validate_python(raw)
    except ValidationError as exc:
        raise PolicyError(_validation_message(path, exc)) from exc


def _validation_message(path: Path, exc: ValidationError) -> str:
    lines = [f"policy file {path} is invalid:"]
    for err in exc.errors()[:8]:
        where = ".".join(str(p) for p in err["loc"])
        lines.append(f"  {where}: {err['msg']}" if where else f"  {err['msg']}")
    return "\n".join(lines)


class Policy:
    """The command policy: built-in deny rules plus rules added by user files (rules can only be added), and,
    when a file asks for it, an allowlist on top (see `glmagent.guard._allowlist`)."""

    def __init__(
        self,
        compiled: CompiledPolicy,
        rules: Sequence[Rule],
        sources: Sequence[Path],
        allowlist: Allowlist | None = None,
    ) -> None:
        self._compiled = compiled
        self._rules = tuple(rules)
        self._allowlist = allowlist
        self.sources = tuple(sources)
        """The files the rules came from, built-in first."""
        self._proven_elsewhere: frozenset[str] = frozenset()
        """Rules `self_check` need not prove again: the built-in ones, proven with the built-in file alone."""
        self.from_cache = False
        """Whether the compiled form came from the load cache (its examples were proven when it was made)."""

    # -- construction --
    @classmethod
    def default(cls) -> Policy:
        """The built-in policy, loaded and self-checked once per process."""
        global _DEFAULT
        if _DEFAULT is None:
            with _DEFAULT_LOCK:
                if _DEFAULT is None:
                    _DEFAULT = cls.load()
        return _DEFAULT

    @classmethod
    def load(
        cls,
        extra_files: Sequence[Path] = (),
        *,
        project_files: Sequence[Path] = (),
        use_cache: bool = True,
    ) -> Policy:
        """Built-in rules plus the user's `extra_files` (`--policy FILE`, the user's config folder) and the
        files a project supplies (`project_files`: `.hazina/policy.toml`, files its config names).

        Every file may add `[[rule]]` deny rules. A file may also set `[policy] mode = "allowlist"` with
        `[[allow]]` entries: the user's files together make one allowlist, and each project file's allowlist
        can only narrow what runs. Raises `PolicyError` when a file is unreadable or invalid, tries to
        change or drop a built-in rule, or when a rule or allow entry misses its own examples.

        The compiled result is cached per file content and glmagent build (`glmagent.guard._cache`).
        """
        builtin_path = data_dir("policy") / "default.toml"
        files: list[tuple[Role, Path, bytes]] = [("builtin", builtin_path, _read_bytes(builtin_path))]
        files += [("user", Path(p), _read_bytes(Path(p))) for p in extra_files]
        files += [("project", Path(p), _read_bytes(Path(p))) for p in project_files]
        sources = [path for _, path, _ in files]
        key = None
        if use_cache and _cache.enabled():
            try:
                key = _cache.cache_key((role, path.resolve(), data) for role, path, data in files)
            except OSError:
                key = None  # glmagent's own files cannot be read: build every time
        if key is not None:
            cached = _cache.load(key)
            if _is_compiled_form(cached):
                compiled, rules, allowlist = cached
                policy = cls(compiled, rules, sources, allowlist)
                policy.from_cache = True
                if len(files) == 1:
                    _remember_proven(files[0][2], policy)
                return policy
        policy = cls._build(files)
        body = _cache.dumps(policy._parts()) if key is not None else None
        if len(files) > 1:
            policy._proven_elsewhere = cls._proven_builtin_ids(files[0][2], use_cache)
        policy.self_check()
        if len(files) == 1:
            _remember_proven(files[0][2], policy)
        if key is not None and body is not None:
            _cache.store(key, body)
        return policy

    @classmethod
    def _proven_builtin_ids(cls, builtin_data: bytes, use_cache: bool) -> frozenset[str]:
        """The ids of the built-in rules in `builtin_data` once the built-in policy alone is proven (loaded
        here if need be, from the cache when it may be used); empty when it fails its proof (then proving
        the whole policy names the failure).

        Their proof need not be repeated beside a user's or a project's files: those only add deny rules
        and allow entries, a proof walks with every rule's findings collected, and the walk itself comes
        from the built-in file alone, so what a built-in rule finds in its examples cannot change.
        tests/test_policy_load.py checks that on files whose rules name the same programs."""
        digest = hashlib.sha256(builtin_data).digest()
        if digest not in _PROVEN_BUILTIN:
            try:
                cls.load(use_cache=use_cache)
            except PolicyError:
                return frozenset()
        return _PROVEN_BUILTIN.get(digest, frozenset())

    @classmethod
    def _build(cls, files: list[tuple[Role, Path, bytes]]) -> Policy:
        _, builtin_path, builtin_data = files[0]
        raw = _parse_toml(builtin_path, builtin_data)
        base = _validated(PolicyFile, builtin_path, raw)
        rules = list(base.rule)
        seen: dict[str, Path] = {}
        for rule in rules:
            if rule.id in seen:
                raise PolicyError(f"policy file {builtin_path}: rule id {rule.id} is defined twice")
            seen[rule.id] = builtin_path
        events = {c.event for r in rules for c in r.when if isinstance(c, EngineClause)}
        missing = sorted(set(ENGINE_EVENTS) - events)
        if missing:
            raise PolicyError(
                f"policy file {builtin_path} lacks rules for engine events: {', '.join(missing)}"
            )
        user_entries: list[AllowEntry] = []
        user_paths: list[Path] = []
        layers: list[tuple[str, list[AllowEntry]]] = []
        allow_seen: dict[str, Path] = {}
        for role, path, data in files[1:]:
            parsed = cls._user_file(path, _parse_toml(path, data), seen, allow_seen)
            rules.extend(parsed.rule)
            if parsed.policy.mode != "allowlist":
                continue
            if role == "user":
                user_entries.extend(parsed.allow)
                user_paths.append(path)
            else:
                layers.append((f"the project's allowlist ({path})", list(parsed.allow)))
        if user_paths:
            names = ", ".join(str(p) for p in user_paths)
            layers.insert(0, (f"your allowlist ({names})", user_entries))
        try:
            compiled = CompiledPolicy(base, rules)
        except ValueError as exc:
            raise PolicyError(str(exc)) from exc
        return cls(compiled, rules, [path for _, path, _ in files], Allowlist(layers) if layers else None)

    @staticmethod
    def _user_file(
        path: Path, raw: dict[str, Any], seen: dict[str, Path], allow_seen: dict[str, Path]
    ) -> UserPolicyFile:
        extra = sorted(set(raw) - _USER_KEYS)
        if extra:
            raise PolicyError(
                f"policy file {path} may only add [[rule]] deny rules (and, with [policy] mode = "
                f'"allowlist", [[allow]] entries); it also sets {", ".join(extra)}, which could weaken the '
                "built-in policy"
            )
        section = raw.get("policy")
        if "allow" in raw and not (isinstance(section, dict) and section.get("mode") == "allowlist"):
            raise PolicyError(
                f'policy file {path} has [[allow]] entries but no [policy] mode = "allowlist": a file in the '
                "default deny mode may only add [[rule]] deny rules"
            )
        parsed = _validated(UserPolicyFile, path, raw)
        for rule in parsed.rule:
            if rule.id in seen:
                raise PolicyError(
                    f"policy file {path}: rule id {rule.id} is already defined in {seen[rule.id]}; "
                    "rules can be added but not replaced"
                )
            if any(isinstance(c, EngineClause) for c in rule.when):
                raise PolicyError(f"policy file {path}: rule {rule.id} may not redefine an engine rule")
            seen[rule.id] = path
        for entry in parsed.allow:
            if entry.id in allow_seen:
                raise PolicyError(
                    f"policy file {path}: allow entry {entry.id} is already defined in {allow_seen[entry.id]}"
                )
            allow_seen[entry.id] = path
        return parsed

    def _parts(self) -> tuple[CompiledPolicy, tuple[Rule, ...], Allowlist | None]:
        return self._compiled, self._rules, self._allowlist

    def self_check(self) -> None:
        """Prove every rule and allow entry on its examples; raise `PolicyError` naming the first failure.
        The built-in rules are left out when the built-in policy alone was proven (`_proven_builtin_ids`)."""
        for rule in self._rules:
            if rule.id in self._proven_elsewhere:
                continue
            for command, shell, must_match in rule.examples():
                ids = self._finding_ids(command, shell)
                if must_match and rule.id not in ids:
                    got = ", ".join(sorted(ids)) or "nothing"
                    raise PolicyError(
                        f"policy rule {rule.id} does not match its own example {command!r} "
                        f"on {shell} (matched: {got})"
                    )
                if not must_match and rule.id in ids:
                    raise PolicyError(
                        f"policy rule {rule.id} matches {command!r} on {shell}, "
                        "which it lists under not_match"
                    )
        if self._allowlist is not None:
            for layer in self._allowlist.layers:
                for compiled in layer.entries:
                    self._prove_allow_entry(compiled.entry, layer.source)

    def _prove_allow_entry(self, entry: AllowEntry, source: str) -> None:
        for command, shell, must_match in entry.examples():
            problem = allow_example_problem(self, entry, source, command, must_match, shell)
            if problem is not None:
                raise PolicyError(problem)

    def _finding_ids(self, command: str, shell: ShellKind) -> set[str]:
        evaluation = Evaluation(self._compiled, collect_all=True, files=KeptFiles())
        evaluation.run(command, shell)
        return {f.rule.id for f in evaluation.findings}

    # -- use --
    @property
    def rules(self) -> Sequence[Rule]:
        """Every deny rule, built-in first, in evaluation order."""
        return self._rules

    @property
    def mode(self) -> PolicyMode:
        """`allowlist` when any policy file asked for it, else `deny`."""
        return "deny" if self._allowlist is None else "allowlist"

    @property
    def allow_entries(self) -> list[AllowEntry]:
        """Every allow entry (empty in deny mode)."""
        return [] if self._allowlist is None else self._allowlist.entries()

    @property
    def not_allowed_rule(self) -> Rule | None:
        """The rule a command off the allowlist is blocked by (None in deny mode)."""
        return None if self._allowlist is None else self._allowlist.rule

    def check(self, command: str, shell: ShellKind, *, cwd: Path | str | None = None) -> Decision:
        """Decide whether `command` may run on the `shell` backend ("posix" or "powershell") in the working
        directory `cwd`; writes are judged against it. Without one, the line is judged as run at the top of a
        fresh checkout (see `_project.FreshCheckout`): a relative target is new, an absolute one outside."""
        _check_shell(shell)
        root = None if cwd is None else str(cwd)
        if self._allowlist is None:
            return self._compiled.check(command, shell, root)
        return self._compiled.check(command, shell, root, self._allowlist)

    def explain(
        self, command: str, shell: ShellKind, *, cwd: Path | str | None = None, tree: bool = False
    ) -> Explanation:
        """The decision on `command`, every simple command found in it with the layers around it (wrappers,
        nested shells, substitutions), each rule that matched, and (`tree`) the parser's syntax tree."""
        from ._explain import TracingEvaluation, explanation

        decision = self.check(command, shell, cwd=cwd)
        root = None if cwd is None else str(cwd)
        trace = TracingEvaluation(self._compiled, self._allowlist, collect_all=True, root=root)
        trace.check(command, shell)
        return explanation(trace, decision, self.mode, _syntax_tree(command, shell) if tree else None)


def allow_example_problem(
    policy: Policy,
    entry: AllowEntry,
    source: str,
    example: str,
    must_match: bool,
    shell: ShellKind | None = None,
) -> str | None:
    """What is wrong with one example of an allow entry, or None when the entry passes it.

    A `match` example must be allowed by the entry alone: every simple command written in it (not the
    commands those run in turn, `sudo X`, `python -m X`, which need entries of their own) matches it. A
    `not_match` example must hold a command the entry does not allow.
    """
    from ._explain import TracingEvaluation

    if shell is None:
        example, shell = entry.backend_of(example)
    alone = Allowlist([(source, [entry])])
    trace = TracingEvaluation(policy._compiled, alone, collect_all=True)
    trace.run(example, shell)
    written = [step for step in trace.steps if step.depth == 0]
    refused = [step for step in written if step.allowed_by is None]
    if must_match:
        if refused or not any(step.allowed_by == [entry.id] for step in written):
            missed = f"`{' '.join(refused[0].raw)}` misses it" if refused else "it runs no command"
            return (
                f"allow entry {entry.id} in {source} does not allow its own example {example!r} on {shell}: "
                f"{missed}"
            )
    elif not refused:
        return f"allow entry {entry.id} in {source} allows {example!r} on {shell}, listed under not_match"
    return None


def _check_shell(shell: str) -> None:
    if shell != "posix" and shell != "powershell":
        raise ValueError(f"unknown shell backend {shell!r}; expected 'posix' or 'powershell'")


def _syntax_tree(command: str, shell: ShellKind) -> str:
    from . import _parse_posix, _parse_powershell
    from ._syntax import TooLarge, start_check

    module = _parse_posix if shell == "posix" else _parse_powershell
    start_check()
    try:
        return str(module.parse(command.encode("utf-8", "replace")).root_node)
    except TooLarge as too_large:
        return f"(not shown: {too_large})"


def _is_compiled_form(value: object) -> bool:
    """Is an unpickled cache entry shaped like `Policy._parts()`?"""
    if not (isinstance(value, tuple) and len(value) == 3):
        return False
    compiled, rules, allowlist = value
    return (
        isinstance(compiled, CompiledPolicy)
        and isinstance(rules, tuple)
        and all(isinstance(r, Rule) for r in rules)
        and (allowlist is None or isinstance(allowlist, Allowlist))
    )


__all__ = ["NOT_ALLOWED_ID", "Policy"]
