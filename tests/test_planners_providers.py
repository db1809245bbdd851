"""resolve_provider / build_planner: defaults, key lookup, error messages."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from glmagent.errors import ConfigError, MissingApiKeyError
from glmagent.planners import (
    API_KEY_ENV_VARS,
    ChatMessage,
    OpenAICompatiblePlanner,
    ProviderConfig,
    ScriptedPlanner,
    build_planner,
    resolve_provider,
)

ZAI_KEY = "zai-key.0123456789"
ZHIPU_KEY = "zhipu-key.9876543210"


def test_glm_defaults_to_zai_endpoint_and_glm_5() -> None:
    config = resolve_provider("glm", env={"ZAI_API_KEY": ZAI_KEY})

    assert config.provider == "glm"
    assert config.base_url == "https://api.z.ai/api/paas/v4"
    assert config.model == "glm-5"
    assert config.api_key is not None and config.api_key.get_secret_value() == ZAI_KEY
    assert config.api_key_env == "ZAI_API_KEY"
    assert config.label == "glm:glm-5"


def test_zhipuai_key_alone_selects_the_bigmodel_endpoint() -> None:
    config = resolve_provider("glm", env={"ZHIPUAI_API_KEY": ZHIPU_KEY})

    assert config.base_url == "https://open.bigmodel.cn/api/paas/v4"
    assert config.api_key is not None and config.api_key.get_secret_value() == ZHIPU_KEY
    assert config.api_key_env == "ZHIPUAI_API_KEY"


def test_zai_key_wins_over_zhipuai_and_blank_values_count_as_unset() -> None:
    both = resolve_provider("glm", env={"ZAI_API_KEY": ZAI_KEY, "ZHIPUAI_API_KEY": ZHIPU_KEY})
    blank = resolve_provider("glm", env={"ZAI_API_KEY": "  ", "ZHIPUAI_API_KEY": ZHIPU_KEY})

    assert (both.api_key_env, both.base_url) == ("ZAI_API_KEY", "https://api.z.ai/api/paas/v4")
    assert blank.api_key_env == "ZHIPUAI_API_KEY"


def test_explicit_model_and_base_url_win_over_defaults() -> None:
    config = resolve_provider(
        "GLM",
        model=" glm-4.5-air ",
        base_url="https://api.z.ai/api/coding/paas/v4/",
        env={"ZHIPUAI_API_KEY": ZHIPU_KEY},
    )

    assert config.model == "glm-4.5-air"
    assert config.base_url == "https://api.z.ai/api/coding/paas/v4"


def test_key_whitespace_is_stripped() -> None:
    config = resolve_provider("glm", env={"ZAI_API_KEY": f"  {ZAI_KEY}\n"})

    assert config.api_key is not None and config.api_key.get_secret_value() == ZAI_KEY


def test_missing_glm_key_names_the_variables_and_the_offline_options() -> None:
    with pytest.raises(MissingApiKeyError) as caught:
        resolve_provider("glm", env={"OPENAI_API_KEY": "sk-other"})

    message = str(caught.value)
    assert isinstance(caught.value, ConfigError)
    assert "ZAI_API_KEY" in message
    assert "ZHIPUAI_API_KEY" in message
    assert "--provider replay --replay FILE" in message
    assert "glmagent demo" in message
    assert "sk-other" not in message


def test_openai_defaults_and_missing_key() -> None:
    config = resolve_provider("openai", env={"OPENAI_API_KEY": "sk-test"})
    assert (config.base_url, config.model) == ("https://api.openai.com/v1", "gpt-4o-mini")
    assert config.api_key_env == "OPENAI_API_KEY"

    with pytest.raises(MissingApiKeyError, match="OPENAI_API_KEY") as caught:
        resolve_provider("openai", base_url="https://llm.example.test/v1", env={"ZAI_API_KEY": ZAI_KEY})
    assert "glmagent demo" in str(caught.value)


@pytest.mark.parametrize(
    "url", ["http://localhost:8080/v1", "http://127.0.0.1:8000/v1", "http://[::1]:1234/v1"]
)
def test_openai_compatible_server_on_loopback_needs_no_key(url: str) -> None:
    config = resolve_provider("openai", base_url=url, model="local-model", env={})

    assert config.api_key is None
    assert config.base_url == url


def test_ollama_needs_no_key_but_uses_one_if_set() -> None:
    local = resolve_provider("ollama", env={})
    hosted = resolve_provider("ollama", base_url="https://ollama.com/v1", env={"OLLAMA_API_KEY": "ol-key"})

    assert (local.base_url, local.model, local.api_key) == (
        "http://localhost:11434/v1",
        "qwen2.5-coder",
        None,
    )
    assert hosted.api_key is not None and hosted.api_key.get_secret_value() == "ol-key"


def test_every_key_source_is_listed_for_scrubbing() -> None:
    assert {"ZAI_API_KEY", "ZHIPUAI_API_KEY", "OPENAI_API_KEY"} <= set(API_KEY_ENV_VARS)
    env = dict.fromkeys(API_KEY_ENV_VARS, "k")
    for provider in ("glm", "openai", "ollama"):
        assert resolve_provider(provider, env=env).api_key_env in API_KEY_ENV_VARS
    # Without the listed variables no provider finds a key, whatever else the environment holds.
    other = {"GLMAGENT_API_KEY": "k", "API_KEY": "k", "ANTHROPIC_API_KEY": "k"}
    assert resolve_provider("ollama", env=other).api_key is None
    with pytest.raises(MissingApiKeyError):
        resolve_provider("glm", env=other)


def test_reads_os_environ_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in API_KEY_ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ZHIPUAI_API_KEY", ZHIPU_KEY)

    assert resolve_provider("glm").api_key_env == "ZHIPUAI_API_KEY"


def test_key_with_characters_invalid_in_a_header_is_rejected_without_echoing_it() -> None:
    bad = "abc def\x01ghi"

    with pytest.raises(ConfigError, match="ZAI_API_KEY contains characters") as caught:
        resolve_provider("glm", env={"ZAI_API_KEY": bad})
    assert bad not in str(caught.value)
    assert "def" not in str(caught.value)


def test_config_never_prints_the_key() -> None:
    config = resolve_provider("glm", env={"ZAI_API_KEY": ZAI_KEY})

    for rendered in (
        repr(config),
        str(config),
        config.model_dump_json(),
        json.dumps(config.model_dump(mode="json")),
    ):
        assert ZAI_KEY not in rendered


def test_unknown_provider_lists_the_known_ones() -> None:
    with pytest.raises(
        ConfigError, match=r"unknown provider 'anthropic'.*glm, openai, ollama, openai-compatible, replay"
    ):
        resolve_provider("anthropic", env={})


def test_invalid_base_url_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="base URL"):
        resolve_provider("ollama", base_url="localhost:11434", env={})


def test_replay_needs_an_existing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--replay FILE"):
        resolve_provider("replay", env={})
    with pytest.raises(ConfigError, match="not found"):
        resolve_provider("replay", replay_file=tmp_path / "missing.jsonl", env={})


def test_replay_needs_no_key_and_builds_a_scripted_planner(tmp_path: Path) -> None:
    path = tmp_path / "replies.jsonl"
    path.write_text('{"thought": "t", "plan": [], "actions": []}\n"raw text"\n', encoding="utf-8")

    config = resolve_provider("replay", replay_file=path, model="ignored", env={})
    planner = build_planner(config)

    assert config == ProviderConfig(provider="replay", replay_file=path)
    assert config.label == "replay"
    assert isinstance(planner, ScriptedPlanner)
    assert planner.name == "replay"
    assert [planner.plan([]).text for _ in range(2)][1] == "raw text"


def test_build_planner_sends_the_resolved_settings() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"choices": [{"message": {"content": "{}"}}]})

    config = resolve_provider("glm", model="glm-4.5", env={"ZHIPUAI_API_KEY": ZHIPU_KEY})
    planner = build_planner(config, transport=httpx.MockTransport(handler))

    assert isinstance(planner, OpenAICompatiblePlanner)
    assert planner.name == "glm:glm-4.5"
    assert planner.plan([ChatMessage(role="user", content="hi")]).text == "{}"
    assert str(seen[0].url) == "https://open.bigmodel.cn/api/paas/v4/chat/completions"
    assert seen[0].headers["authorization"] == f"Bearer {ZHIPU_KEY}"
    assert json.loads(seen[0].content)["model"] == "glm-4.5"
    assert ZHIPU_KEY not in repr(planner)
