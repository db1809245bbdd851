"""Planners: where the agent's next move comes from.

`Planner` is the protocol the loop calls. `ScriptedPlanner` replays prepared replies (tests, the demo,
``--provider replay``); `OpenAICompatiblePlanner` calls GLM, OpenAI or Ollama over HTTP. `resolve_provider`
and `build_planner` turn command-line settings into one of them.

Importing this package does not import httpx: the HTTP planner imports it on first use, which keeps
``glmagent --help`` fast.
"""

from __future__ import annotations

from glmagent.planners.base import ChatMessage, Planner, PlannerReply, TokenUsage
from glmagent.planners.openai_compat import OpenAICompatiblePlanner
from glmagent.planners.providers import (
    API_KEY_ENV_VARS,
    PROVIDERS,
    ProviderConfig,
    build_planner,
    resolve_provider,
)
from glmagent.planners.scripted import EXHAUSTED_REPLY, ScriptedPlanner

__all__ = [
    "API_KEY_ENV_VARS",
    "EXHAUSTED_REPLY",
    "PROVIDERS",
    "ChatMessage",
    "OpenAICompatiblePlanner",
    "Planner",
    "PlannerReply",
    "ProviderConfig",
    "ScriptedPlanner",
    "TokenUsage",
    "build_planner",
    "resolve_provider",
]
