"""Provider settings: turn ``--provider/--model/--base-url/--api-key-env/--replay`` and the environment into
a planner.

Defaults (checked against the providers' documentation, late 2026):

=================  ========================================  =============  =================================
provider           base URL                                  model          API key
=================  ========================================  =============  =================================
glm                https://api.z.ai/api/paas/v4 (Z.ai), or   glm-5          ``ZAI_API_KEY``, else
                   https://open.bigmodel.cn/api/paas/v4                     ``ZHIPUAI_API_KEY`` (required)
                   when only ``ZHIPUAI_API_KEY`` is set
openai             ``OPENAI_BASE_URL`` or                    gpt-4o-mini    ``OPENAI_API_KEY`` (not needed
                   https://api.openai.com/v1                                for a loopback base URL)
ollama             ``OLLAMA_HOST`` + /v1, or                 qwen2.5-coder  ``OLLAMA_API_KEY`` (optional:
                   http://localhost:11434/v1                                ollama.com's hosted API only)
openai-compatible  ``--base-url`` (required: vLLM,           (required)     ``--api-key-env NAME`` (not
                   llama.cpp, LM Studio, OpenRouter, ...)                   needed for a loopback base URL)
replay             (none: reads ``--replay FILE``)           (none)         (none)
=================  ========================================  =============  =================================

Structured output: OpenAI, Ollama and OpenAI-compatible servers are asked for the strict JSON schema first
(`response_format: json_schema`, strict; Ollama ≥ 0.5 turns it into its `format`), stepping down to
`json_object` and then to the prompt alone when a server rejects it; GLM starts at `json_object`, the form
its chat API documents for every model (`response_format = "json_schema"` in the settings starts higher).
GLM Coding Plan subscribers pass their endpoint (``https://api.z.ai/api/coding/paas/v4``) with
``--base-url``; ``--thinking on|off`` switches GLM's thinking for models that think by default (GLM-4.7 and
GLM-5 do).

Only explicit arguments and the key variables are read here. Layering flags over ``GLMAGENT_*`` variables over
config files is `glmagent.config`'s job: it passes the winning values in as arguments, so this module adds no
second, competing precedence order.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, SecretStr

from glmagent.errors import ConfigError, MissingApiKeyError
from glmagent.planners.base import Planner
from glmagent.planners.openai_compat import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_REQUEST_TIMEOUT_S,
    FORMAT_LADDER,
    ResponseFormat,
    normalise_base_url,
)
from glmagent.planners.pricing import Price, price_for
from glmagent.planners.retry import (
    DEFAULT_BACKOFF_S,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TOTAL_DEADLINE_S,
    RetryPolicy,
)

if TYPE_CHECKING:
    import httpx

ProviderName = Literal["glm", "openai", "ollama", "openai-compatible", "replay"]
PROVIDERS: tuple[str, ...] = get_args(ProviderName)

ZAI_BASE_URL = "https://api.z.ai/api/paas/v4"
ZHIPUAI_BASE_URL = "https://open.bigmodel.cn/api/paas/v4"
OPENAI_BASE_URL = "https://api.openai.com/v1"
OLLAMA_BASE_URL = "http://localhost:11434/v1"

DEFAULT_MODELS: Mapping[str, str] = {"glm": "glm-5", "openai": "gpt-4o-mini", "ollama": "qwen2.5-coder"}
DEFAULT_BASE_URLS: Mapping[str, str] = {
    "glm": ZAI_BASE_URL,
    "openai": OPENAI_BASE_URL,
    "ollama": OLLAMA_BASE_URL,
}

#: The structured-output ladder each provider starts from (see `OpenAICompatiblePlanner`).
FORMATS: Mapping[str, tuple[ResponseFormat, ...]] = {
    "glm": ("json_object", "none"),
    "openai": FORMAT_LADDER,
    "ollama": FORMAT_LADDER,
    "openai-compatible": FORMAT_LADDER,
}
ResponseFormatChoice = Literal["auto", "json_schema", "json_object", "none"]

GLM_KEY_ENV_VARS: tuple[str, ...] = ("ZAI_API_KEY", "ZHIPUAI_API_KEY")
"""Checked in this order; the first non-empty one wins."""

API_KEY_ENV_VARS: tuple[str, ...] = (*GLM_KEY_ENV_VARS, "OPENAI_API_KEY", "OLLAMA_API_KEY")
"""Every variable glmagent may read a provider key from; scrub these from child process environments."""

_OFFLINE_HINT = (
    "To run without a key: `glmagent demo` (offline demo with a recorded planner), "
    '`glmagent task "..." --provider replay --replay FILE` (replay recorded replies), '
    "or `--provider ollama` (a local model, no key needed)."
)


class ProviderConfig(BaseModel):
    """Resolved settings for one planner provider; `build_planner` turns it into a `Planner`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: ProviderName
    """Which kind of planner: an OpenAI-compatible API (glm, openai, ollama) or a replay file."""
    base_url: str | None = None
    """API root; ``/chat/completions`` is appended. None for replay."""
    model: str | None = None
    """Model name sent to the provider. None for replay."""
    api_key: SecretStr | None = None
    """The key, hidden from repr, str and logs; None when the provider needs none."""
    api_key_env: str | None = None
    """Name of the variable the key came from, so messages can say which one to fix."""
    replay_file: Path | None = None
    """JSON Lines file of recorded replies (replay only)."""
    formats: tuple[ResponseFormat, ...] = ("none",)
    """Structured-output forms to try, strictest first."""

    @property
    def label(self) -> str:
        """Planner name for logs and audit records: ``"glm:glm-5"``, or ``"replay"``."""
        return f"{self.provider}:{self.model}" if self.model else self.provider


def resolve_provider(
    provider: str,
    *,
    model: str | None = None,
    base_url: str | None = None,
    replay_file: Path | None = None,
    api_key_env: str | None = None,
    response_format: ResponseFormatChoice = "auto",
    env: Mapping[str, str] | None = None,
) -> ProviderConfig:
    """Apply defaults and find the API key for `provider`.

    `response_format` chooses the structured-output form to start from (`auto`: the provider's own, see
    `FORMATS`); a server that refuses it still steps down from there.

    `env` defaults to `os.environ` (tests pass a dict). Blank values count as unset, and a key's surrounding
    whitespace is stripped (a trailing newline from ``$(cat keyfile)`` would otherwise break the header).

    Raises `MissingApiKeyError` naming the variables to set and the offline alternatives, and `ConfigError`
    for an unknown provider, a replay without a readable file, or an invalid base URL.
    """
    environ: Mapping[str, str] = os.environ if env is None else env
    name = provider.strip().lower()
    if name not in PROVIDERS:
        raise ConfigError(f"unknown provider {provider!r}; choose one of: {', '.join(PROVIDERS)}")

    if name == "replay":
        if replay_file is None:
            raise ConfigError(
                "--provider replay needs --replay FILE: a JSON Lines file with one recorded planner reply "
                "per line (a JSON object, or a JSON string holding the raw reply text)"
            )
        path = Path(replay_file)
        if not path.is_file():
            raise ConfigError(f"replay file not found: {path}")
        return ProviderConfig(provider="replay", replay_file=path)

    chosen_model = (model or "").strip() or DEFAULT_MODELS.get(name, "")
    explicit_url = normalise_base_url(base_url) if base_url and base_url.strip() else None
    custom_key = (api_key_env or "").strip() or None
    if custom_key is not None and not custom_key.replace("_", "").isalnum():
        raise ConfigError(f"--api-key-env {custom_key!r} is not an environment variable name")

    if name == "glm":
        found = _first_key(environ, (custom_key,) if custom_key else GLM_KEY_ENV_VARS)
        if found is None:
            where = (
                f"Set {custom_key}"
                if custom_key
                else (
                    "Set ZAI_API_KEY (a key from https://z.ai, international) or ZHIPUAI_API_KEY (a key from "
                    "https://open.bigmodel.cn, mainland China)"
                )
            )
            raise MissingApiKeyError(
                f"--provider glm needs an API key and none is set. {where}, e.g. "
                f"`export {custom_key or 'ZAI_API_KEY'}=<your key>`. {_OFFLINE_HINT}"
            )
        key_env, key = found
        default_url = ZHIPUAI_BASE_URL if key_env == "ZHIPUAI_API_KEY" else ZAI_BASE_URL
        url = explicit_url or default_url
    elif name == "openai":
        from_env = (environ.get("OPENAI_BASE_URL") or "").strip()
        url = explicit_url or (normalise_base_url(from_env) if from_env else OPENAI_BASE_URL)
        variable = custom_key or "OPENAI_API_KEY"
        found = _first_key(environ, (variable,))
        # Local OpenAI-compatible servers (llama.cpp, vLLM, LM Studio) usually need no key.
        if found is None and not is_loopback_url(url):
            raise MissingApiKeyError(
                f"--provider openai needs an API key for {url} and none is set. Set {variable}, e.g. "
                f"`export {variable}=<your key>`. {_OFFLINE_HINT}"
            )
        key_env, key = found or (None, None)
    elif name == "ollama":
        url = explicit_url or _ollama_url(environ.get("OLLAMA_HOST"))
        found = _first_key(environ, (custom_key or "OLLAMA_API_KEY",))
        key_env, key = found or (None, None)
    else:  # openai-compatible
        if explicit_url is None:
            raise ConfigError(
                "--provider openai-compatible needs --base-url URL (the server's API root, e.g. "
                "http://127.0.0.1:8080/v1 for llama.cpp's llama-server)"
            )
        if not chosen_model:
            raise ConfigError("--provider openai-compatible needs --model NAME (the model the server serves)")
        url = explicit_url
        found = _first_key(environ, (custom_key,)) if custom_key else None
        if custom_key and found is None and not is_loopback_url(url):
            raise MissingApiKeyError(
                f"--api-key-env {custom_key} names a variable that is not set; "
                f"`export {custom_key}=<your key>`"
            )
        key_env, key = found or (None, None)

    return ProviderConfig(
        provider=name,  # type: ignore[arg-type]  # checked against PROVIDERS above
        base_url=url,
        model=chosen_model,
        api_key=SecretStr(key) if key else None,
        api_key_env=key_env,
        formats=FORMATS[name] if response_format == "auto" else _ladder_from(response_format),
    )


def _ladder_from(start: ResponseFormat) -> tuple[ResponseFormat, ...]:
    if start not in FORMAT_LADDER:
        raise ConfigError(f"unknown response format {start!r}; choose auto, {', '.join(FORMAT_LADDER)}")
    return FORMAT_LADDER[FORMAT_LADDER.index(start) :]


class RequestOptions(BaseModel):
    """How requests are made: limits, deadlines, retries, thinking and prices (from the settings)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_tokens: int = DEFAULT_MAX_TOKENS
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT_S
    max_retries: int = DEFAULT_MAX_RETRIES
    retry_backoff: float = DEFAULT_BACKOFF_S
    retry_deadline: float = DEFAULT_TOTAL_DEADLINE_S
    requests_per_minute: float | None = None
    thinking: bool | None = None
    prices: Mapping[str, Price] = {}


def build_planner(
    config: ProviderConfig,
    *,
    transport: httpx.BaseTransport | None = None,
    options: RequestOptions | None = None,
    schema: Mapping[str, Any] | None = None,
) -> Planner:
    """Create the planner `config` describes; `schema` is the JSON schema servers are asked to enforce
    (`glmagent.strict_schema.strict_planner_schema()`; without it no `json_schema` is asked for), and
    `transport` lets tests answer HTTP requests in-process."""
    if config.provider == "replay":
        from glmagent.planners.scripted import ScriptedPlanner

        if config.replay_file is None:
            raise ConfigError("--provider replay needs --replay FILE")
        return ScriptedPlanner.from_replay_file(config.replay_file)

    from glmagent.planners.openai_compat import OpenAICompatiblePlanner

    options = options or RequestOptions()
    model = config.model or DEFAULT_MODELS[config.provider]
    return OpenAICompatiblePlanner(
        base_url=config.base_url or DEFAULT_BASE_URLS[config.provider],
        model=model,
        api_key=config.api_key.get_secret_value() if config.api_key else None,
        name=f"{config.provider}:{model}",
        transport=transport,
        formats=config.formats,
        max_tokens=options.max_tokens,
        timeout=options.request_timeout,
        retry=RetryPolicy(
            max_retries=options.max_retries,
            backoff_s=options.retry_backoff,
            total_deadline_s=options.retry_deadline,
        ),
        requests_per_minute=options.requests_per_minute,
        thinking=options.thinking if config.provider == "glm" else None,
        price=price_for(options.prices, model),
        key_env=config.api_key_env,
        schema=schema,
    )


def _ollama_url(host: str | None) -> str:
    """`OLLAMA_HOST` (`host:port`, `:port` or a URL) as the OpenAI-compatible API root."""
    value = (host or "").strip()
    if not value:
        return OLLAMA_BASE_URL
    if "://" not in value:
        value = "http://" + ("127.0.0.1" + value if value.startswith(":") else value)
    return normalise_base_url(value.rstrip("/") + "/v1")


def _first_key(environ: Mapping[str, str], names: tuple[str, ...]) -> tuple[str, str] | None:
    for var in names:
        value = (environ.get(var) or "").strip()
        if value:
            # Checked here so the failure names the variable, instead of surfacing as an obscure
            # "invalid header value" from httpx at request time.
            if not all(0x21 <= ord(ch) <= 0x7E for ch in value):
                raise ConfigError(
                    f"{var} contains characters that cannot be sent in an HTTP header (spaces, control "
                    "characters or non-ASCII); check how the variable was set"
                )
            return var, value
    return None


def is_loopback_url(url: str) -> bool:
    """Does `url` point at this machine (`localhost`, `*.localhost`, any loopback address)?"""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
