"""`glmagent config show`: every setting, its effective value, and where the value came from."""

from __future__ import annotations

import argparse

from glmagent.cli._common import add_json, warn
from glmagent.cli._exit import EXIT_SUCCESS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from glmagent.config import ResolvedSettings

_EPILOG = """\
Each setting comes from the first of: a flag (config show takes the flags of `task` that set a setting, to
preview a command line; not --task-file, --task-id or --resume, which choose the task, not how it runs), a
GLMAGENT_* environment variable, the project's .hazina/config.toml (its provider, base_url, replay,
test_command, sandbox, allow_network and *_env keys only once trusted: `glmagent trust`), your own
config.toml, the default. API keys are never shown: only whether the variable holding one is set.

examples:
  glmagent config show
  glmagent config show -C ~/src/app --provider openai --json
"""

#: Option string per settings field, filled in when the parser is built (`--max-iterations`, `--test`).
_FLAG_NAMES: dict[str, str] = {}


def register(commands: Any) -> None:
    from glmagent.cli._task import add_settings_arguments

    config = commands.add_parser("config", help="show the effective settings and where each came from")
    config_commands = config.add_subparsers(dest="config_command", metavar="SUBCOMMAND")
    config_commands.required = True
    show = config_commands.add_parser(
        "show",
        help="every setting, its value and where it came from (flag, env, project or user file, default)",
        description="Print the settings a `task` in DIR would run with, and where each value came from.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_settings_arguments(show)
    add_json(show, "print the settings and their origins as JSON")
    show.set_defaults(handler=run_show)
    for action in show._actions:
        long = [option for option in action.option_strings if option.startswith("--")]
        if long:
            _FLAG_NAMES[action.dest] = long[0]


def run_show(args: argparse.Namespace) -> int:
    import json

    from glmagent.cli._task import settings_flags
    from glmagent.config import resolve_settings_with_origins

    workdir = args.directory.expanduser().resolve()
    resolved = resolve_settings_with_origins(workdir, settings_flags(args), warn=warn)
    document = _document(resolved)
    if args.json:
        print(json.dumps(document, indent=2))
        return EXIT_SUCCESS
    _print_table(workdir, resolved, document)
    return EXIT_SUCCESS


def _document(resolved: ResolvedSettings) -> dict[str, Any]:
    settings = resolved.settings.model_dump(mode="json")
    rows: dict[str, Any] = {}
    for name, value in settings.items():
        if name == "policy_files":
            rows[name] = {
                "value": [
                    {"file": file, "from": _flag_origin(name, origin)}
                    for file, origin in zip(value, resolved.policy_origins, strict=False)
                ],
                "from": "combined: rule files add up across layers",
            }
            continue
        origin = resolved.origins[name]
        shown = mask_url(value) if name == "base_url" and isinstance(value, str) else value
        rows[name] = {"value": shown, "from": _flag_origin(name, origin)}
    return {
        "settings": rows,
        "ignored": {
            key: {"value": value, "from": str(resolved.project_file)}
            for key, value in resolved.ignored.items()
        },
        "files": {
            "project": {
                "path": str(resolved.project_file),
                "exists": resolved.project_trusted is not None,
                "trusted": bool(resolved.project_trusted),
            },
            "user": {"path": str(resolved.user_file), "exists": resolved.user_file.is_file()},
        },
        "api_key": api_key_status(resolved.settings),
    }


def _flag_origin(name: str, origin: Any) -> str:
    if origin.kind == "flag":
        return f"flag {_FLAG_NAMES.get(name, '--' + name.replace('_', '-'))}"
    return str(origin)


def api_key_status(settings: Any) -> dict[str, Any]:
    """Which environment variable the provider's key would come from, and whether it is set — never its
    value."""
    import os

    from glmagent.planners.providers import GLM_KEY_ENV_VARS

    if settings.api_key_env:
        names: tuple[str, ...] = (settings.api_key_env,)
    else:
        names = {
            "glm": GLM_KEY_ENV_VARS,
            "openai": ("OPENAI_API_KEY",),
            "ollama": ("OLLAMA_API_KEY",),
        }.get(settings.provider, ())
    needed = settings.provider == "glm" or (
        settings.provider == "openai" and not _loopback(settings.base_url)
    )
    found = next((name for name in names if os.environ.get(name, "").strip()), None)
    return {"variables": list(names), "set": found, "needed": needed}


def _loopback(url: str | None) -> bool:
    from glmagent.planners.providers import is_loopback_url

    return url is not None and is_loopback_url(url)


def mask_url(url: str) -> str:
    """A URL with any password and secret-looking query values replaced by `****`."""
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc
    if parts.password:
        netloc = netloc.replace(f":{parts.password}@", ":****@", 1)
    query = parts.query
    if query:
        pairs = [
            (
                key,
                "****"
                if any(word in key.lower() for word in ("key", "token", "secret", "password", "sig"))
                else value,
            )
            for key, value in parse_qsl(query, keep_blank_values=True)
        ]
        query = urlencode(pairs, safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _print_table(workdir: Any, resolved: ResolvedSettings, document: dict[str, Any]) -> None:
    import json

    from glmagent.ui import inert

    print(f"settings for a task in {inert(str(workdir))}")
    print()
    rows: list[tuple[str, str, str]] = []
    for name, row in document["settings"].items():
        if name == "policy_files":
            files = row["value"]
            if not files:
                rows.append((name, "(none)", "default"))
            for index, entry in enumerate(files):
                rows.append((name if index == 0 else "", entry["file"], entry["from"]))
            continue
        value = row["value"]
        text = "(not set)" if value is None else value if isinstance(value, str) else json.dumps(value)
        if name == "model" and value is None:
            text = "(not set: the provider's default)"
        rows.append((name, text, row["from"]))
    width = max(len(name) for name, _, _ in rows)
    value_width = min(max(len(inert(value)) for _, value, _ in rows), 48)
    for name, value, origin in rows:
        print(f"  {name:<{width}}  {inert(value):<{value_width}}  {inert(origin)}")
    if resolved.ignored:
        print()
        trust = f"glmagent trust -C {inert(str(workdir))}"
        print(f"ignored (the project file is not trusted; `{trust}` to use them):")
        for key, value in resolved.ignored.items():
            print(f"  {key} = {inert(json.dumps(value, default=str))}")
    key = document["api_key"]
    print()
    if key["set"]:
        print(f"API key: {key['set']} is set (its value is never shown)")
    elif key["variables"]:
        need = "needed" if key["needed"] else "optional"
        names = " or ".join(key["variables"])
        print(f"API key: {names} not set ({need} for provider {resolved.settings.provider})")
    else:
        print(f"API key: none needed for provider {resolved.settings.provider}")
    project = document["files"]["project"]
    state = "trusted" if project["trusted"] else "not trusted" if project["exists"] else "absent"
    user = document["files"]["user"]
    print(f"project file: {inert(project['path'])} ({state})")
    print(f"user file:    {inert(user['path'])} ({'present' if user['exists'] else 'absent'})")
