"""`glmagent init`: write a commented `.hazina/config.toml` listing every setting with its default."""

from __future__ import annotations

import argparse

from glmagent.cli._common import add_directory
from glmagent.cli._exit import EXIT_SUCCESS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

_HEADER = """\
# glmagent settings for this project (written by `glmagent init`; uncomment a line to change a setting).
#
# Precedence: command-line flags > GLMAGENT_* environment variables > this file > your own config.toml >
# built-in defaults. `glmagent config show` prints every setting and where its value came from.
# Keys marked [trust] are used from this file only after `glmagent trust` recorded it (editing the file makes
# it untrusted again): a cloned repository must not choose where your API key goes or what runs first.
# API keys never go here: set ZAI_API_KEY (or ZHIPUAI_API_KEY / OPENAI_API_KEY) in the environment.
# Paths in this file are relative to this .hazina/ folder.

[glmagent]
"""

#: Example values for settings without a default, so each commented line is ready to uncomment.
_EXAMPLES: dict[str, object] = {
    "model": "glm-5",
    "base_url": "https://api.z.ai/api/paas/v4",
    "replay": "replies.jsonl",
    "test_command": "python -m pytest -q",
    "api_key_env": "MY_PROVIDER_API_KEY",
    "requests_per_minute": 30,
    "thinking": True,
}


def register(commands: Any) -> None:
    init = commands.add_parser(
        "init",
        help="write a commented .hazina/config.toml with every setting",
        description="Write DIR/.hazina/config.toml: every setting, commented out at its default, with a line "
        "saying what it does. Refuses to overwrite an existing file unless --force.",
    )
    add_directory(init)
    init.add_argument("--force", action="store_true", help="overwrite an existing config file")
    init.set_defaults(handler=run_init)


def config_template() -> str:
    """The commented config file, generated from the `Settings` model so it lists every setting there is."""
    from glmagent.config import Settings, is_trust_gated, setting_descriptions

    descriptions = setting_descriptions()
    lines = [_HEADER]
    for name, field in Settings.model_fields.items():
        if name == "prices":
            continue
        about = descriptions.get(name, "")
        gate = " [trust]" if is_trust_gated(name) else ""
        lines.append(f"# {about}{gate}")
        default = field.get_default(call_default_factory=True)
        value = default if default not in (None, [], {}) else _EXAMPLES.get(name, default)
        if name == "policy_files":
            value = ["extra-policy.toml"]
        lines.append(f"# {name} = {_toml(value)}")
        lines.append("")
    about = descriptions.get("prices", "")
    lines += [
        f"# {about}",
        '# [glmagent.prices."glm-5"]',
        "# input = 1.0",
        "# output = 3.2",
        "",
    ]
    return "\n".join(lines)


def _toml(value: object) -> str:
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if value is None:
        return '""'
    return json.dumps(str(value), ensure_ascii=False)  # a TOML basic string


def run_init(args: argparse.Namespace) -> int:
    from glmagent.config import CONFIG_FILE
    from glmagent.errors import ConfigError
    from glmagent.ui import inert

    workdir: Path = args.directory.expanduser().resolve()
    if not workdir.is_dir():
        raise ConfigError(f"project directory does not exist: {workdir}")
    target = workdir / CONFIG_FILE
    if target.exists() and not args.force:
        raise ConfigError(f"{target} already exists; edit it, or pass --force to replace it")
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(target.name + ".tmp")
    temporary.write_text(config_template(), encoding="utf-8")
    temporary.replace(target)
    print(f"wrote {inert(str(target))}")
    print(
        "next: uncomment what you want to change, then `glmagent config show` to see what a task would use;"
    )
    print(f"keys marked [trust] apply once you run `glmagent trust -C {inert(str(workdir))}`")
    return EXIT_SUCCESS
