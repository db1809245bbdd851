"""Settings for a run, layered: command-line flags > `GLMAGENT_*` environment variables >
`{workdir}/.hazina/config.toml` > defaults.

API keys are never read from config files: they come from the environment only (see
`glmagent.planners.providers`), so a checked-in config cannot leak one.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from glmagent.errors import ConfigError

CONFIG_FILE = Path(".hazina") / "config.toml"
USER_POLICY_FILE = Path(".hazina") / "policy.toml"

#: Environment variables that can set a field, by field name.
ENV_VARS: Mapping[str, str] = {
    "provider": "GLMAGENT_PROVIDER",
    "model": "GLMAGENT_MODEL",
    "base_url": "GLMAGENT_BASE_URL",
    "max_iterations": "GLMAGENT_MAX_ITERATIONS",
    "test_command": "GLMAGENT_TEST",
    "shell": "GLMAGENT_SHELL",
    "command_timeout": "GLMAGENT_COMMAND_TIMEOUT",
    "test_timeout": "GLMAGENT_TEST_TIMEOUT",
    "sandbox": "GLMAGENT_SANDBOX",
    "allow_network": "GLMAGENT_ALLOW_NETWORK",
}


class Settings(BaseModel):
    """Everything a run can be configured with (besides the task description and API keys)."""

    model_config = ConfigDict(extra="forbid")

    provider: Literal["glm", "openai", "ollama", "replay"] = "glm"
    """Where plans come from: the GLM API, any OpenAI-compatible API, a local Ollama, or a replay file."""
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


def load_config_file(workdir: Path) -> dict[str, Any]:
    """The `[glmagent]` table (or top level) of `.hazina/config.toml`, or `{}` when absent."""
    path = workdir / CONFIG_FILE
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    table = data.get("glmagent", data)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [glmagent] must be a table")
    for key in ("api_key", "key", "token"):
        if key in table:
            raise ConfigError(
                f"{path}: API keys never go in config files; set the environment variable instead"
            )
    if "policy_files" in table:
        table["policy_files"] = [(path.parent / p) for p in table["policy_files"]]
    if "replay" in table:
        table["replay"] = path.parent / table["replay"]
    return table


def resolve_settings(
    workdir: Path, flags: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None
) -> Settings:
    """Layer flags over environment over config file over defaults; `None` flags count as not given."""
    environ = os.environ if env is None else env
    merged: dict[str, Any] = dict(load_config_file(workdir))
    for field, var in ENV_VARS.items():
        value = environ.get(var, "").strip()
        if value:
            merged[field] = value
    policy_files = list(merged.pop("policy_files", []))
    for field, value in (flags or {}).items():
        if field == "policy_files":
            # Rule files add up: a flag never silently drops the repository's own deny rules.
            policy_files += list(value or [])
        elif value is not None:
            merged[field] = value
    user_policy = workdir / USER_POLICY_FILE
    if user_policy.is_file() and user_policy not in policy_files:
        policy_files.insert(0, user_policy)
    merged["policy_files"] = policy_files
    try:
        return Settings.model_validate(merged)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors(include_url=False)
        )
        raise ConfigError(f"invalid settings: {problems}") from None
