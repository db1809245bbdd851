"""Provider profiles and request settings: each profile's server, key and structured output; every limit
settable by flag, `GLMAGENT_*` variable or config file, and what the planner then sends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from glmagent.agent import planner_from_settings
from glmagent.config import resolve_settings
from glmagent.errors import ConfigError, MissingApiKeyError
from glmagent.planners import ChatMessage, OpenAICompatiblePlanner, build_planner, resolve_provider
from glmagent.planners.providers import RequestOptions
from glmagent.strict_schema import strict_planner_schema

MESSAGES = [ChatMessage(role="user", content="hi")]
REPLY = {"choices": [{"message": {"content": "{}"}, "finish_reason": "stop"}]}


# -- profiles -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("provider", "env", "url", "key_env", "first_format"),
    [
        ("glm", {"ZAI_API_KEY": "k"}, "https://api.z.ai/api/paas/v4", "ZAI_API_KEY", "json_object"),
        (
            "glm",
            {"ZHIPUAI_API_KEY": "k"},
            "https://open.bigmodel.cn/api/paas/v4",
            "ZHIPUAI_API_KEY",
            "json_object",
        ),
        ("openai", {"OPENAI_API_KEY": "k"}, "https://api.openai.com/v1", "OPENAI_API_KEY", "json_schema"),
        (
            "openai",
            {"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "https://gateway.example.test/openai/v1/"},
            "https://gateway.example.test/openai/v1",
            "OPENAI_API_KEY",
            "json_schema",
        ),
        ("ollama", {}, "http://localhost:11434/v1", None, "json_schema"),
        ("ollama", {"OLLAMA_HOST": "0.0.0.0:11500"}, "http://0.0.0.0:11500/v1", None, "json_schema"),
        ("ollama", {"OLLAMA_HOST": ":11600"}, "http://127.0.0.1:11600/v1", None, "json_schema"),
        (
            "ollama",
            {"OLLAMA_HOST": "https://gpu.example.test"},
            "https://gpu.example.test/v1",
            None,
            "json_schema",
        ),
    ],
)
def test_each_profile_has_its_server_key_and_structured_output(
    provider: str, env: dict[str, str], url: str, key_env: str | None, first_format: str
) -> None:
    config = resolve_provider(provider, env=env)
    assert (config.base_url, config.api_key_env, config.formats[0]) == (url, key_env, first_format)
    assert config.formats[-1] == "none"  # every ladder ends at the prompt alone


def test_glm_coding_plan_endpoint_is_a_base_url_away() -> None:
    config = resolve_provider("glm", base_url="https://api.z.ai/api/coding/paas/v4", env={"ZAI_API_KEY": "k"})
    assert config.base_url == "https://api.z.ai/api/coding/paas/v4" and config.model == "glm-5"


def test_openai_compatible_needs_a_base_url_and_a_model_and_reads_the_named_variable() -> None:
    with pytest.raises(ConfigError, match="--base-url"):
        resolve_provider("openai-compatible", model="m", env={})
    with pytest.raises(ConfigError, match="--model"):
        resolve_provider("openai-compatible", base_url="http://127.0.0.1:8080/v1", env={})

    remote = resolve_provider(
        "openai-compatible",
        base_url="https://openrouter.ai/api/v1",
        model="deepseek/deepseek-chat",
        api_key_env="OPENROUTER_API_KEY",
        env={"OPENROUTER_API_KEY": "or-key", "OPENAI_API_KEY": "not-this"},
    )
    assert remote.api_key is not None and remote.api_key.get_secret_value() == "or-key"
    assert remote.api_key_env == "OPENROUTER_API_KEY" and remote.formats[0] == "json_schema"

    with pytest.raises(MissingApiKeyError, match="OPENROUTER_API_KEY"):
        resolve_provider(
            "openai-compatible",
            base_url="https://openrouter.ai/api/v1",
            model="m",
            api_key_env="OPENROUTER_API_KEY",
            env={},
        )
    loopback = resolve_provider(
        "openai-compatible", base_url="http://127.0.0.1:8080/v1", model="m", api_key_env="UNSET_VAR", env={}
    )
    assert loopback.api_key is None  # a local server needs none
    with pytest.raises(ConfigError, match="not an environment variable name"):
        resolve_provider("openai-compatible", base_url="http://h/v1", model="m", api_key_env="A B", env={})


@pytest.mark.parametrize(
    ("choice", "ladder"),
    [
        ("auto", ("json_object", "none")),
        ("json_schema", ("json_schema", "json_object", "none")),
        ("json_object", ("json_object", "none")),
        ("none", ("none",)),
    ],
)
def test_the_response_format_setting_picks_the_first_rung(choice: Any, ladder: tuple[str, ...]) -> None:
    assert resolve_provider("glm", response_format=choice, env={"ZAI_API_KEY": "k"}).formats == ladder


# -- settings: flag > env > config --------------------------------------------------------------------------

REQUEST_SETTINGS = {
    # field: (flag value, env value, file value, parsed file value)
    "request_timeout": (30.0, "45", "60", 60.0),
    "max_tokens": (512, "1024", "2048", 2048),
    "max_retries": (1, "2", "3", 3),
    "retry_backoff": (0.1, "0.2", "0.3", 0.3),
    "retry_deadline": (30.0, "40", "50", 50.0),
    "requests_per_minute": (10.0, "20", "30", 30.0),
    "response_format": ("json_object", "none", '"json_schema"', "json_schema"),
    "thinking": (False, "on", "false", False),
    "prompt_budget": (8000, "9000", "10000", 10000),
}


@pytest.mark.parametrize("field", REQUEST_SETTINGS)
def test_every_request_setting_comes_from_flag_env_or_config(tmp_path: Path, field: str) -> None:
    from glmagent.config import ENV_VARS

    flag, env_value, file_value, parsed = REQUEST_SETTINGS[field]
    (tmp_path / ".hazina").mkdir()
    (tmp_path / ".hazina" / "config.toml").write_text(f"[glmagent]\n{field} = {file_value}\n")
    env = {ENV_VARS[field]: env_value}

    assert getattr(resolve_settings(tmp_path, {}, env={}), field) == parsed
    from_env = getattr(resolve_settings(tmp_path, {}, env=env), field)
    assert from_env != parsed
    assert getattr(resolve_settings(tmp_path, {field: flag}, env=env), field) == flag


def test_defaults_are_the_documented_ones(tmp_path: Path) -> None:
    settings = resolve_settings(tmp_path, {}, env={})
    got = (settings.request_timeout, settings.max_tokens, settings.max_retries, settings.retry_deadline)
    assert got == (600.0, 4096, 4, 300.0)
    assert (settings.requests_per_minute, settings.response_format, settings.prompt_budget) == (
        None,
        "auto",
        12000,
    )


def test_prices_come_from_a_config_table_beside_or_inside_glmagent(tmp_path: Path) -> None:
    (tmp_path / ".hazina").mkdir()
    config = tmp_path / ".hazina" / "config.toml"
    config.write_text('[glmagent]\nmax_iterations = 3\n\n[prices."glm-5"]\ninput = 1.0\noutput = 3.2\n')
    assert resolve_settings(tmp_path, {}, env={}).prices["glm-5"].output == 3.2

    config.write_text('[glmagent.prices."gpt-4o-mini"]\ninput = 0.15\noutput = 0.6\ncached_input = 0.075\n')
    assert resolve_settings(tmp_path, {}, env={}).prices["gpt-4o-mini"].cached_input == 0.075

    config.write_text('[prices."glm-5"]\ninput = 1.0\nouput = 3.2\n')
    with pytest.raises(ConfigError, match=r"prices\.glm-5"):
        resolve_settings(tmp_path, {}, env={})


@pytest.mark.parametrize(
    ("field", "value"), [("request_timeout", "0"), ("max_retries", "-1"), ("prompt_budget", "10")]
)
def test_out_of_range_request_settings_are_configuration_errors(
    tmp_path: Path, field: str, value: str
) -> None:
    from glmagent.config import ENV_VARS

    with pytest.raises(ConfigError, match=field):
        resolve_settings(tmp_path, {}, env={ENV_VARS[field]: value})


# -- what the planner built from the settings sends ---------------------------------------------------------


def _sent(settings_flags: dict[str, Any], tmp_path: Path, env: dict[str, str]) -> tuple[Any, dict[str, Any]]:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=REPLY)

    settings = resolve_settings(tmp_path, settings_flags, env={})
    planner = planner_from_settings(settings)
    assert isinstance(planner, OpenAICompatiblePlanner)
    planner._transport = httpx.MockTransport(handler)
    planner._client = planner._new_client()
    planner.plan(MESSAGES)
    return planner, json.loads(seen[0].content)


def test_the_planner_built_from_settings_uses_every_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZAI_API_KEY", "zk")
    flags = {
        "request_timeout": 33.0,
        "max_tokens": 321,
        "max_retries": 2,
        "retry_backoff": 0.5,
        "retry_deadline": 44.0,
        "requests_per_minute": 12.0,
        "thinking": False,
        "prices": {"glm-5": {"input": 1.0, "output": 2.0}},
    }
    planner, body = _sent(flags, tmp_path, {})

    assert planner.timeout == 33.0 and body["max_tokens"] == 321
    assert (planner.retry.max_retries, planner.retry.backoff_s, planner.retry.total_deadline_s) == (
        2,
        0.5,
        44.0,
    )
    assert planner._limiter.interval == pytest.approx(5.0)
    assert body["thinking"] == {"type": "disabled"}
    assert planner.price is not None and planner.price.output == 2.0
    assert planner.key_env == "ZAI_API_KEY"


def test_thinking_is_only_sent_to_glm_and_only_when_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ZAI_API_KEY", "zk")
    monkeypatch.setenv("OPENAI_API_KEY", "sk")
    assert _sent({"thinking": True}, tmp_path, {})[1]["thinking"] == {"type": "enabled"}
    assert "thinking" not in _sent({}, tmp_path, {})[1]
    assert "thinking" not in _sent({"provider": "openai", "thinking": True}, tmp_path, {})[1]


def test_the_strict_schema_is_what_the_settings_planner_asks_servers_to_enforce(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk")
    body = _sent({"provider": "openai"}, tmp_path, {})[1]
    assert body["response_format"]["json_schema"] == {
        "name": "planner_output",
        "strict": True,
        "schema": strict_planner_schema(),
    }


def test_build_planner_without_a_schema_never_asks_for_json_schema() -> None:
    config = resolve_provider("openai", env={"OPENAI_API_KEY": "sk"})
    planner = build_planner(config, options=RequestOptions())
    assert isinstance(planner, OpenAICompatiblePlanner) and planner.formats == ("json_object", "none")


def test_the_settings_defaults_are_the_planners_own() -> None:
    # config.py may not import planners/ (one floor), so the figures are written twice: keep them equal.
    from glmagent.config import Settings
    from glmagent.planners.openai_compat import DEFAULT_MAX_TOKENS, DEFAULT_REQUEST_TIMEOUT_S
    from glmagent.planners.retry import DEFAULT_BACKOFF_S, DEFAULT_MAX_RETRIES, DEFAULT_TOTAL_DEADLINE_S
    from glmagent.prompt import PROMPT_BUDGET_TOKENS

    fields = Settings.model_fields
    assert fields["max_tokens"].default == DEFAULT_MAX_TOKENS == RequestOptions().max_tokens
    assert fields["request_timeout"].default == DEFAULT_REQUEST_TIMEOUT_S
    assert fields["max_retries"].default == DEFAULT_MAX_RETRIES
    assert fields["retry_backoff"].default == DEFAULT_BACKOFF_S
    assert fields["retry_deadline"].default == DEFAULT_TOTAL_DEADLINE_S
    assert fields["prompt_budget"].default == PROMPT_BUDGET_TOKENS
