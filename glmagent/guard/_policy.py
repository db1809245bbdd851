"""`Policy`: load the built-in rules plus user additions, prove each rule on its examples, check commands."""

from __future__ import annotations

import threading
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .._resources import data_dir
from ..errors import PolicyError
from ._engine import CompiledPolicy, Evaluation
from ._models import ENGINE_EVENTS, Decision, EngineClause, PolicyFile, Rule, ShellKind, UserPolicyFile

_DEFAULT: Policy | None = None
_DEFAULT_LOCK = threading.Lock()


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise PolicyError(f"policy file {path} does not exist") from exc
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PolicyError(f"policy file {path} cannot be read: {exc}") from exc


def _validation_message(path: Path, exc: ValidationError) -> str:
    lines = [f"policy file {path} is invalid:"]
    for err in exc.errors()[:8]:
        where = ".".join(str(p) for p in err["loc"])
        lines.append(f"  {where}: {err['msg']}")
    return "\n".join(lines)


class Policy:
    """A deny-list command policy: built-in rules plus rules added by user files; rules can only be added."""

    def __init__(self, base: PolicyFile, rules: list[Rule], sources: Sequence[Path]) -> None:
        self._compiled = CompiledPolicy(base, rules)
        self._rules = tuple(rules)
        self.sources = tuple(sources)
        """The files the rules came from, built-in first."""

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
    def load(cls, extra_files: Sequence[Path] = ()) -> Policy:
        """Built-in rules plus the deny rules of `extra_files` (e.g. `.hazina/policy.toml`, `--policy FILE`).

        Raises `PolicyError` when a file is unreadable or invalid, tries to change or drop a built-in rule
        (anything but `[[rule]]` tables, or a rule id already taken), or when a rule misses its own examples.
        """
        builtin_path = data_dir("policy") / "default.toml"
        raw = _read_toml(builtin_path)
        try:
            base = PolicyFile.model_validate(raw)
        except ValidationError as exc:
            raise PolicyError(_validation_message(builtin_path, exc)) from exc
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
        for path in extra_files:
            rules.extend(cls._user_rules(Path(path), seen))
        policy = cls(base, rules, [builtin_path, *extra_files])
        policy.self_check()
        return policy

    @staticmethod
    def _user_rules(path: Path, seen: dict[str, Path]) -> list[Rule]:
        raw = _read_toml(path)
        extra = sorted(set(raw) - {"version", "rule"})
        if extra:
            raise PolicyError(
                f"policy file {path} may only add [[rule]] deny rules; it also sets {', '.join(extra)}, "
                "which could weaken the built-in policy"
            )
        try:
            parsed = UserPolicyFile.model_validate(raw)
        except ValidationError as exc:
            raise PolicyError(_validation_message(path, exc)) from exc
        for rule in parsed.rule:
            if rule.id in seen:
                raise PolicyError(
                    f"policy file {path}: rule id {rule.id} is already defined in {seen[rule.id]}; "
                    "rules can be added but not replaced"
                )
            if any(isinstance(c, EngineClause) for c in rule.when):
                raise PolicyError(f"policy file {path}: rule {rule.id} may not redefine an engine rule")
            seen[rule.id] = path
        return list(parsed.rule)

    def self_check(self) -> None:
        """Prove every rule on its examples; raise `PolicyError` naming the first failing rule and example."""
        for rule in self._rules:
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

    def _finding_ids(self, command: str, shell: ShellKind) -> set[str]:
        evaluation = Evaluation(self._compiled, collect_all=True)
        evaluation.run(command, shell)
        return {f.rule.id for f in evaluation.findings}

    # -- use --
    @property
    def rules(self) -> Sequence[Rule]:
        """Every rule, built-in first, in evaluation order."""
        return self._rules

    def check(self, command: str, shell: ShellKind, *, cwd: Path | str | None = None) -> Decision:
        """Decide whether `command` may run on the `shell` backend ("posix" or "powershell") in the working
        directory `cwd`; writes are judged against it (without one, every absolute target is outside)."""
        if shell != "posix" and shell != "powershell":
            raise ValueError(f"unknown shell backend {shell!r}; expected 'posix' or 'powershell'")
        return self._compiled.check(command, shell, None if cwd is None else str(cwd))
