"""The public surface of glmagent.planners, and that importing it stays cheap."""

from __future__ import annotations

import subprocess
import sys

import glmagent.planners as planners


def test_all_lists_exactly_the_public_names() -> None:
    assert sorted(planners.__all__) == sorted(
        [
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
    )
    for name in planners.__all__:
        assert getattr(planners, name) is not None
    public = {name for name in vars(planners) if not name.startswith("_")}
    assert public - set(planners.__all__) <= {
        "annotations",
        "base",
        "openai_compat",
        "providers",
        "scripted",
        "failures",
        "retry",
        "runaway",
        "stuck",
        "pricing",
    }


def test_importing_planners_does_not_import_httpx() -> None:
    code = "import sys, glmagent.planners; print('httpx' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)

    assert result.stdout.strip() == "False"
