"""Settings for a run, layered: command-line flags > `GLMAGENT_*` environment variables >
`{workdir}/.hazina/config.toml` (the project file) > the user's `config.toml` (in the user's config folder) >
defaults.

API keys are never read from config files: they come from the environment only (see
`glmagent.planners.providers`), so a checked-in config cannot leak one. Settings that could send the key
somewhere or run code (`TRUST_GATED_KEYS`) are taken from a project file only once the user trusted it
(`glmagent trust`); the user's own file and flags are always trusted.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from glmagent.errors import ConfigError

CONFIG_FILE = Path(".hazina") / "config.toml"
USER_CONFIG_FILE = "config.toml"

#: Project-file settings that can send the API key somewhere, run code, loosen containment or let the model
#: rewrite the tests that judge it: ignored until the user trusts the file. Any key naming an environment
#: variable (`*_env`) counts too.
TRUST_GATED_KEYS = (
    "provider",
    "base_url",
    "replay",
    "test_command",
    "test_edits",
    "sandbox",
    "allow_network",
)
USER_POLICY_FILE = Path(".hazina") / "policy.toml"
"""The project's own policy file (despite the name: the project's, not the user's)."""
OWN_POLICY_FILE = "policy.toml"
"""The user's own policy file, in the user's config folder (always trusted, like `config.toml` there)."""

#: Environment variables that can set a field, by field name.
ENV_VARS: Mapping[str, str] = {
    "provider": "GLMAGENT_PROVIDER",
    "model": "GLMAGENT_MODEL",
    "base_url": "GLMAGENT_BASE_URL",
    "max_iterations": "GLMAGENT_MAX_ITERATIONS",
    "fresh_start_after": "GLMAGENT_FRESH_START_AFTER",
    "test_command": "GLMAGENT_TEST",
    "shell": "GLMAGENT_SHELL",
    "command_timeout": "GLMAGENT_COMMAND_TIMEOUT",
    "test_timeout": "GLMAGENT_TEST_TIMEOUT",
    "test_edits": "GLMAGENT_TEST_EDITS",
    "sandbox": "GLMAGENT_SANDBOX",
    "allow_network": "GLMAGENT_ALLOW_NETWORK",
    "api_key_env": "GLMAGENT_API_KEY_ENV",
    "max_tokens": "GLMAGENT_MAX_TOKENS",
    "request_timeout": "GLMAGENT_REQUEST_TIMEOUT",
    "max_retries": "GLMAGENT_MAX_RETRIES",
    "retry_backoff": "GLMAGENT_RETRY_BACKOFF",
    "retry_deadline": "GLMAGENT_RETRY_DEADLINE",
    "requests_per_minute": "GLMAGENT_REQUESTS_PER_MINUTE",
    "response_format": "GLMAGENT_RESPONSE_FORMAT",
    "prompt_budget": "GLMAGENT_PROMPT_BUDGET",
    "thinking": "GLMAGENT_THINKING",
    "max_actions": "GLMAGENT_MAX_ACTIONS",
}


class PriceTable(BaseModel):
    """`[prices."MODEL"]` in a config file: USD per million tokens."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0)
    """Prompt tokens."""
    output: float = Field(ge=0)
    """Completion tokens, reasoning tokens included."""
    cached_input: float | None = Field(default=None, ge=0)
    """Prompt tokens served from the provider's cache (unset: the `input` price)."""


class Settings(BaseModel):
    """Everything a run can be configured with (besides the task description and API keys)."""

    # Infinity and NaN are no number of seconds or tokens: refused like any other invalid value. The
    # attribute docstrings are read by `setting_descriptions` when `glmagent init` needs them, not by pydantic
    # on every start (that reads and tokenizes this file's source: tens of milliseconds of each run).
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    provider: Literal["glm", "openai", "ollama", "openai-compatible", "replay"] = "glm"
    """Where plans come from: the GLM API, OpenAI, a local Ollama, any OpenAI-compatible server, a replay."""
    model: str | None = None
    """Model name; each provider has a documented default."""
    base_url: str | None = None
    """API root of an OpenAI-compatible provider (`/chat/completions` is appended)."""
    replay: Path | None = None
    """JSON Lines file of recorded planner replies (provider `replay`)."""
    max_iterations: int = Field(default=5, ge=1, le=100)
    """Plan → act → observe rounds before the loop stops."""
    test_command: str | None = None
    """Command the loop runs before iteration 1 and after every iteration that changed something."""
    fresh_start_after: int = Field(default=2, ge=0, le=100)
    """Iterations in a row that bring the tests no closer to passing before the next prompt starts afresh
    (without their history, sampled anew); 0: never."""
    test_edits: Literal["auto", "allow", "deny"] = "auto"
    """May the model change test files? `auto`: only if the task asks for test changes ("add a test for")."""
    shell: Literal["auto", "posix", "powershell"] = "auto"
    """Backend for `run` and the tests: `auto` is PowerShell on Windows, /bin/sh elsewhere."""
    command_timeout: float = Field(default=300.0, gt=0)
    """Seconds one `run` command may take before its process tree is killed."""
    test_timeout: float = Field(default=900.0, gt=0)
    """Seconds the test command may take."""
    policy_files: list[Path] = Field(default_factory=list)
    """Extra deny rules (TOML) on top of the built-in policy; they can only add denies."""
    sandbox: Literal["auto", "bwrap", "none"] = "auto"
    """OS sandbox for commands and tests: `auto` is bubblewrap on Linux (sandbox-exec on macOS) if usable."""
    allow_network: bool = False
    """Let sandboxed commands and tests use the network (off by default)."""
    sandbox_hide: list[str] = Field(default_factory=list)
    """More files or folders commands must not see in the sandbox (`~/` for the home; the list only adds)."""
    api_key_env: str | None = None
    """Name of the environment variable holding the provider's key (instead of the provider's usual one)."""
    max_tokens: int = Field(default=4096, ge=16, le=1_000_000)
    """Completion tokens asked for at most per planner call; a cut-off reply counts as invalid output."""
    request_timeout: float = Field(default=600.0, gt=0)
    """Seconds a planner request may stay silent: before the reply's first byte, and between two parts of a
    streamed reply (one that keeps arriving is never cut); a reply that is not streamed must arrive whole."""
    max_retries: int = Field(default=4, ge=0, le=20)
    """Retries of a planner request after rate limits, server errors, dropped connections and timeouts."""
    retry_backoff: float = Field(default=1.0, ge=0, le=60)
    """Seconds before the first retry; each next wait doubles (at most 30 s), with jitter."""
    retry_deadline: float = Field(default=300.0, gt=0)
    """Seconds after the start of a planner call in which retries may begin (a reply arriving is not cut)."""
    requests_per_minute: float | None = Field(default=None, gt=0)
    """Client-side cap on planner requests a minute (unset: no cap)."""
    response_format: Literal["auto", "json_schema", "json_object", "none"] = "auto"
    """Structured output to ask for first (`auto`: strict JSON schema, or `json_object` for GLM)."""
    max_actions: int = Field(default=20, ge=1, le=1_000)
    """Actions run from one planner reply; the rest are refused and the model is told to send them again."""
    read_max_bytes: int = Field(default=1_000_000, ge=1_000)
    """Bytes read_file reads from one file; a longer file is read in parts (`"lines": "START-END"`)."""
    diff_max_bytes: int = Field(default=1_000_000, ge=1_000)
    """Bytes of one diff apply_diff accepts."""
    edit_max_bytes: int = Field(default=10_000_000, ge=1_000)
    """Bytes of a file apply_diff edits at most."""
    observation_max_chars: int = Field(default=400_000, ge=10_000)
    """Characters of action output one iteration keeps in all; later outputs are cut to what is left."""
    prompt_budget: int = Field(default=12_000, ge=4_000, le=2_000_000)
    """Tokens (estimated high) the whole prompt may take; lower it for a model with a small context window."""
    thinking: bool | None = None
    """GLM thinking on or off for models that think by default (unset: the model's default)."""
    prices: dict[str, PriceTable] = Field(default_factory=dict)
    """USD per million tokens per model (`[prices."glm-5"] input = 1.0, output = 3.2`); unknown: no cost."""


def is_trust_gated(key: str) -> bool:
    """True for settings a project file may only set once trusted."""
    return key in TRUST_GATED_KEYS or key.endswith("_env")


def load_config_file(workdir: Path) -> dict[str, Any]:
    """The `[glmagent]` table (or top level) of `.hazina/config.toml`, or `{}` when absent."""
    return read_config_file(workdir / CONFIG_FILE)


def read_config_file(path: Path) -> dict[str, Any]:
    """The `[glmagent]` table (or top level) of a config file, or `{}` when absent."""
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    table = data.get("glmagent", data)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [glmagent] must be a table")
    if table is not data and "prices" in data and "prices" not in table:
        table["prices"] = data["prices"]  # `[prices."MODEL"]` reads naturally beside `[glmagent]` too
    for key in ("api_key", "key", "token"):
        if key in table:
            raise ConfigError(
                f"{path}: API keys never go in config files; set the environment variable instead"
            )
    unknown = [key for key in table if key not in Settings.model_fields]
    if unknown:
        raise ConfigError(f"{path}: {_unknown_keys_message(unknown)}")
    if "policy_files" in table:
        table["policy_files"] = [(path.parent / p) for p in table["policy_files"]]
    if "replay" in table:
        table["replay"] = path.parent / table["replay"]
    return table


def untrusted_project_keys(workdir: Path) -> list[str]:
    """The trust-gated keys the project file sets while it is not trusted (empty when trusted or absent)."""
    from glmagent.trust import TrustStore

    path = workdir / CONFIG_FILE
    gated = [key for key in read_config_file(path) if is_trust_gated(key)]
    if not gated or TrustStore().is_trusted(path):
        return []
    return gated


def project_layer(workdir: Path, warn: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The project file's settings, minus the trust-gated ones while it is untrusted (with a warning)."""
    table = load_config_file(workdir)
    ignored = untrusted_project_keys(workdir)
    if ignored:
        message = (
            f"ignoring {', '.join(ignored)} from {workdir / CONFIG_FILE}: the file is not trusted "
            f"(settings that can receive your API key or run code need `glmagent trust -C {workdir}`)"
        )
        (warn or _log_warning)(message)
    return {key: value for key, value in table.items() if key not in ignored}


def user_config_path() -> Path:
    """The user's own config file (always trusted)."""
    from glmagent.userdirs import config_dir

    return config_dir() / USER_CONFIG_FILE


def _log_warning(message: str) -> None:
    from glmagent._log import get_logger

    get_logger(__name__).warning(message)


def _unknown_keys_message(keys: list[str]) -> str:
    import difflib

    parts = []
    for key in keys:
        close = difflib.get_close_matches(key, list(Settings.model_fields), n=1)
        parts.append(f"unknown key {key!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
    return "; ".join(parts) + f"; the known keys are: {', '.join(Settings.model_fields)}"


@dataclass(frozen=True)
class Origin:
    """Where one setting's value came from."""

    kind: Literal["flag", "environment", "project file", "user file", "default"]
    detail: str = ""
    """The variable name, or the file's path; for a project file also whether it is trusted."""

    def __str__(self) -> str:
        return f"{self.kind} {self.detail}".strip()


DEFAULT = Origin("default")


@dataclass(frozen=True)
class ResolvedSettings:
    """The settings of a run, and where each value came from (`glmagent config show`)."""

    settings: Settings
    origins: dict[str, Origin]
    """Per field; `policy_files` has one origin per file in `policy_origins` instead."""
    policy_origins: list[Origin]
    ignored: dict[str, Any]
    """Trust-gated keys the project file sets but that were not used, because it is not trusted."""
    project_file: Path
    project_trusted: bool | None
    """None when there is no project file."""
    user_file: Path


def resolve_settings(
    workdir: Path,
    flags: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    *,
    warn: Callable[[str], None] | None = None,
) -> Settings:
    """Layer flags over environment over the project file over the user file over defaults; `None` flags
    count as not given. Trust-gated keys of an untrusted project file are dropped and reported to `warn`."""
    return resolve_settings_with_origins(workdir, flags, env, warn=warn).settings


def resolve_settings_with_origins(
    workdir: Path,
    flags: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    *,
    warn: Callable[[str], None] | None = None,
) -> ResolvedSettings:
    """`resolve_settings`, keeping where each value came from."""
    from glmagent.trust import TrustStore

    environ = os.environ if env is None else env
    user_path = user_config_path()
    project_path = workdir / CONFIG_FILE
    user = dict(read_config_file(user_path))
    whole_project = load_config_file(workdir)
    project = project_layer(workdir, warn)
    trusted = TrustStore().is_trusted(project_path) if project_path.is_file() else None
    ignored = {key: value for key, value in whole_project.items() if key not in project}
    project_origin = Origin("project file", f"{project_path} ({'trusted' if trusted else 'not trusted'})")
    user_origin = Origin("user file", str(user_path))
    # Rule files add up across layers: neither file silently drops the other's deny rules.
    policy_files: list[Path] = []
    policy_origins: list[Origin] = []
    own_policy = user_path.with_name(OWN_POLICY_FILE)
    if own_policy.is_file():
        policy_files.append(own_policy)
        policy_origins.append(Origin("user file", f"{own_policy} (picked up because it exists)"))
    merged: dict[str, Any] = {}
    origins: dict[str, Origin] = {}
    hidden: list[str] = []
    for layer, origin in ((user, user_origin), (project, project_origin)):
        for key, value in layer.items():
            if key == "policy_files":
                policy_files += list(value)
                policy_origins += [origin] * len(value)
            elif key == "sandbox_hide" and isinstance(value, list):
                # Paths to hide add up: a project file can hide more, never show what the user hid.
                hidden += [item for item in value if item not in hidden]
                merged[key], origins[key] = list(hidden), origin
            else:
                merged[key], origins[key] = value, origin
    for field, var in ENV_VARS.items():
        value = environ.get(var, "").strip()
        if value:
            merged[field], origins[field] = value, Origin("environment", var)
    for field, value in (flags or {}).items():
        if field == "policy_files":
            # Rule files add up: a flag never silently drops the repository's own deny rules.
            policy_files += list(value or [])
            policy_origins += [Origin("flag")] * len(value or [])
        elif value is not None:
            merged[field], origins[field] = value, Origin("flag")
    user_policy = workdir / USER_POLICY_FILE
    if user_policy.is_file() and user_policy not in policy_files:
        policy_files.insert(0, user_policy)
        policy_origins.insert(0, Origin("project file", f"{user_policy} (picked up because it exists)"))
    merged["policy_files"] = policy_files
    try:
        settings = Settings.model_validate(merged)
    except ValidationError as error:
        problems = []
        for problem in error.errors(include_url=False):
            field = ".".join(str(part) for part in problem["loc"])
            origin = origins.get(str(problem["loc"][0]) if problem["loc"] else "", DEFAULT)
            source = "" if origin is DEFAULT else f" (from {origin})"
            problems.append(f"{field}{source}: {problem['msg']}")
        raise ConfigError(f"invalid settings: {'; '.join(problems)}") from None
    return ResolvedSettings(
        settings=settings,
        origins={
            name: origins.get(name, DEFAULT) for name in Settings.model_fields if name != "policy_files"
        },
        policy_origins=policy_origins,
        ignored=ignored,
        project_file=project_path,
        project_trusted=trusted,
        user_file=user_path,
    )


def project_policy_files(workdir: Path) -> list[Path]:
    """The policy files the project itself supplies: `.hazina/policy.toml` and those its config names.

    They may add deny rules and narrow an allowlist, but never widen one (see `glmagent.guard.Policy.load`).
    """
    found = [Path(p) for p in load_config_file(workdir).get("policy_files", [])]
    own = workdir / USER_POLICY_FILE
    if own.is_file():
        found.insert(0, own)
    return found


def split_policy_files(workdir: Path, policy_files: list[Path]) -> tuple[list[Path], list[Path]]:
    """`policy_files` split into (the user's, the project's): a file the project supplies is the project's
    even when a flag names it too, so it can never widen an allowlist."""
    project = {_same_file_key(p) for p in project_policy_files(workdir)}
    mine = [p for p in policy_files if _same_file_key(p) not in project]
    theirs = [p for p in policy_files if _same_file_key(p) in project]
    return mine, theirs


def _same_file_key(path: Path) -> str:
    try:
        return str(path.resolve())
    except OSError:
        return str(path.absolute())


def setting_descriptions() -> dict[str, str]:
    """Each setting's docstring (the string literal under its field in `Settings`), whitespace folded."""
    import ast
    import inspect
    from itertools import pairwise

    tree = ast.parse(inspect.getsource(Settings))
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    found: dict[str, str] = {}
    for field, after in pairwise(body):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            found[field.target.id] = " ".join(after.value.value.split())
    return found
