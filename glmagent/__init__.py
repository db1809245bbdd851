"""glmagent: a plan → act → observe coding agent with a fail-closed command policy.

The public API is what `__all__` lists; everything else is internal and may change.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing alone slows `glmagent --help` measurably

__version__ = "0.1.0"

__all__ = [
    "Action",
    "CodingAgent",
    "ConfigError",
    "GlmAgentError",
    "MissingApiKeyError",
    "Observation",
    "PatchRejected",
    "PlannerError",
    "PlannerOutput",
    "PolicyError",
    "ScriptedPlanner",
    "Settings",
    "StopReason",
    "Task",
    "TaskResult",
    "__version__",
]

# Imported lazily so `glmagent --help` does not pay for pydantic models, jsonschema or tree-sitter.
_LAZY = {
    "Action": "glmagent.contract",
    "PlannerOutput": "glmagent.contract",
    "CodingAgent": "glmagent.agent",
    "Settings": "glmagent.config",
    "Observation": "glmagent.observation",
    "ScriptedPlanner": "glmagent.planners.scripted",
    "StopReason": "glmagent.loop",
    "Task": "glmagent.loop",
    "TaskResult": "glmagent.loop",
}

from glmagent.errors import (  # noqa: E402 - errors are tiny and always needed
    ConfigError,
    GlmAgentError,
    MissingApiKeyError,
    PatchRejected,
    PlannerError,
    PolicyError,
)

if TYPE_CHECKING:
    from glmagent.agent import CodingAgent
    from glmagent.config import Settings
    from glmagent.contract import Action, PlannerOutput
    from glmagent.loop import StopReason, Task, TaskResult
    from glmagent.observation import Observation
    from glmagent.planners.scripted import ScriptedPlanner


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'glmagent' has no attribute {name!r}")
