"""`glmagent trust`: let a project's `.hazina/config.toml` choose the provider, server and test command."""

from __future__ import annotations

import argparse

from glmagent.cli._common import add_directory
from glmagent.cli._exit import EXIT_NOT_DONE, EXIT_SUCCESS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_EPILOG = """\
A repository you clone could name a server that receives your API key, or a test command that runs before
the model does anything. Until you trust its .hazina/config.toml, glmagent ignores these keys there (with a
warning): provider, base_url, replay, test_command, sandbox, allow_network and any *_env key. Trust records
the file's path and SHA-256 in your own config folder; editing the file makes it untrusted again.
Your own config file and command-line flags are always trusted.

examples:
  glmagent trust -C ~/src/project        trust the project's config as it is now
  glmagent trust --list                  every trusted file, and whether it changed since
  glmagent trust --revoke -C ~/src/project
"""


def register(commands: Any) -> None:
    trust = commands.add_parser(
        "trust",
        help="trust a project's .hazina/config.toml (provider, base_url, test_command)",
        description="Trust the project's .hazina/config.toml as it is now.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_directory(trust)
    mode = trust.add_mutually_exclusive_group()
    mode.add_argument("--list", action="store_true", help="list trusted files")
    mode.add_argument("--revoke", action="store_true", help="stop trusting the project's file")
    trust.add_argument("--json", action="store_true", help="print the result as JSON")
    trust.set_defaults(handler=run_trust)


def run_trust(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from glmagent.config import CONFIG_FILE, untrusted_project_keys
    from glmagent.trust import TrustStore, file_digest
    from glmagent.ui import inert

    store = TrustStore()
    if args.list:
        rows = []
        for entry in store.entries():
            path = Path(entry.path)
            current = file_digest(path) if path.is_file() else None
            state = "trusted" if current == entry.sha256 else "missing" if current is None else "changed"
            rows.append({**entry.model_dump(), "state": state})
        if args.json:
            print(json.dumps(rows, indent=2))
        elif not rows:
            print("no trusted project config files")
        for row in [] if args.json else rows:
            print(
                f"{row['state']:8} {inert(row['path'])}  (sha256 {row['sha256'][:12]}…, {row['trusted_at']})"
            )
        return EXIT_SUCCESS
    workdir = args.directory.expanduser().resolve()
    config = workdir / CONFIG_FILE
    if args.revoke:
        removed = store.revoke(config)
        print(
            json.dumps({"revoked": removed, "path": str(config)})
            if args.json
            else (f"no longer trusted: {config}" if removed else f"was not trusted: {config}")
        )
        return EXIT_SUCCESS if removed else EXIT_NOT_DONE
    gated = untrusted_project_keys(workdir)
    entry = store.trust(config)
    if args.json:
        print(json.dumps({**entry.model_dump(), "unlocked": gated}, indent=2))
    else:
        print(f"trusted {inert(str(config))} (sha256 {entry.sha256[:12]}…)")
        if gated:
            print(f"its {', '.join(gated)} will now be used; editing the file makes it untrusted again")
    return EXIT_SUCCESS
