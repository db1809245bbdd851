"""Files in a project that an editor or a coding agent obeys by itself: its settings, hooks and tool servers.

VS Code runs a folder's tasks when it opens and lets `.vscode/settings.json` turn off the confirmation of its
agent's tool calls; Claude Code, Cursor, Gemini CLI and others start the hooks and tool (MCP) servers their
project folders name. Whoever writes such a file runs code later on the user's machine, outside any sandbox
and without anyone asking, so the agent never writes one, whether through `apply_diff` or a command.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

TOOL_FOLDERS = frozenset(
    {
        ".vscode", ".claude", ".cursor", ".gemini", ".codex", ".qwen", ".amazonq", ".windsurf", ".kiro",
        ".roo", ".continue", ".zed",
    }
)  # fmt: skip
"""Folders where an editor or coding agent keeps a project's own configuration."""
OBEYED_NAMES = frozenset(
    {
        "settings.json", "settings.local.json", "tasks.json", "mcp.json", "hooks.json", "hooks",
        "config.toml", "config.json", "config.yaml", "config.yml",
    }
)  # fmt: skip
"""Names inside those folders that say what the tool runs or lets run (a `hooks` folder: every file in it)."""
OBEYED_FILES = (".mcp.json",)
"""Files obeyed wherever they lie: Claude Code's project tool servers."""
WORKSPACE_SUFFIX = ".code-workspace"
"""A VS Code workspace file holds settings and tasks of its own."""


def _member(names: frozenset[str] | tuple[str, ...], part: str) -> bool:
    return part in names


def obeyed_setting(
    parts: Sequence[str], one_of: Callable[[frozenset[str] | tuple[str, ...], str], bool] = _member
) -> str | None:
    """The tool folder or file that a path's components (lower case) name, when writing the path writes
    (or replaces, or removes) what an editor or agent obeys; None otherwise. A tool folder itself counts:
    replacing or removing it replaces its settings. `one_of(names, part)` says whether a component may be
    one of some names (a caller reading globs passes its own)."""
    if not parts:
        return None
    last = parts[-1]
    if last.endswith(WORKSPACE_SUFFIX) or one_of(OBEYED_FILES, last):
        return last
    for index, part in enumerate(parts):
        if one_of(TOOL_FOLDERS, part):
            later = parts[index + 1 :]
            if not later or any(one_of(OBEYED_NAMES, name) for name in later):
                return "/".join(parts[index : index + 2])
    return None
