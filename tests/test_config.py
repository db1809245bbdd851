"""Settings layering: flags > GLMAGENT_* environment > .hazina/config.toml > the user's file > defaults.

Project files here are trusted first where they set trust-gated keys (see tests/test_trust.py for the gate).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from glmagent.config import resolve_settings
from glmagent.errors import ConfigError
from glmagent.trust import TrustStore


def _config(root: Path, text: str, *, trusted: bool = True) -> None:
    (root / ".hazina").mkdir(exist_ok=True)
    (root / ".hazina" / "config.toml").write_text(text)
    if trusted:
        TrustStore().trust(root / ".hazina" / "config.toml")


def test_defaults_without_any_source(tmp_path: Path) -> None:
    settings = resolve_settings(tmp_path, {}, env={})
    assert (settings.provider, settings.max_iterations, settings.shell, settings.test_command) == (
        "glm",
        5,
        "auto",
        None,
    )


def test_flags_beat_environment_beat_file(tmp_path: Path) -> None:
    _config(tmp_path, '[glmagent]\nmax_iterations = 7\nmodel = "from-file"\ntest_command = "pytest"\n')
    env = {"GLMAGENT_MAX_ITERATIONS": "9", "GLMAGENT_MODEL": "from-env"}
    settings = resolve_settings(tmp_path, {"model": "from-flag", "max_iterations": None}, env=env)
    assert settings.model == "from-flag"
    assert settings.max_iterations == 9
    assert settings.test_command == "pytest"


def test_the_shipped_sample_config_is_valid() -> None:
    root = Path(__file__).resolve().parent.parent
    TrustStore().trust(root / ".hazina" / "config.toml")  # the private user config folder of this test
    settings = resolve_settings(root, {}, env={})
    assert settings.provider == "glm" and settings.test_command


def test_api_keys_are_refused_in_config_files(tmp_path: Path) -> None:
    _config(tmp_path, 'api_key = "sk-123"\n')
    with pytest.raises(ConfigError, match="never go in config files"):
        resolve_settings(tmp_path, {}, env={})


def test_invalid_values_name_the_field(tmp_path: Path) -> None:
    _config(tmp_path, "max_iterations = 0\n")
    with pytest.raises(ConfigError, match="max_iterations"):
        resolve_settings(tmp_path, {}, env={})
    _config(tmp_path, "max_iterations = [\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        resolve_settings(tmp_path, {}, env={})


def test_rule_files_add_up_and_the_repository_policy_is_picked_up(tmp_path: Path) -> None:
    _config(tmp_path, 'policy_files = ["team.toml"]\nreplay = "replies.jsonl"\n')
    (tmp_path / ".hazina" / "policy.toml").write_text("")
    settings = resolve_settings(tmp_path, {"policy_files": [Path("/x/extra.toml")]}, env={})
    assert settings.policy_files == [
        tmp_path / ".hazina" / "policy.toml",
        tmp_path / ".hazina" / "team.toml",
        Path("/x/extra.toml"),
    ]
    assert settings.replay == tmp_path / ".hazina" / "replies.jsonl"
