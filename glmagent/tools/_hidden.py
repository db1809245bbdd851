"""What the OS sandbox hides from commands: the user's secrets at home, and the doors into the user's session.

A command inside the sandbox sees the home read-only, because toolchains live there (`~/.cargo`, `~/.pyenv`,
`~/.npm`, virtual environments). What it must not see:

- every dotfile directly in the home (`~/.bashrc`, `~/.zsh_history`, `~/.env`, `~/.netrc`, `~/.pgpass`,
  `~/.my.cnf`, `~/.s3cfg`, `~/.npmrc`, ...): start-up files hold `export KEY=...` lines, history files hold
  typed secrets, and most credential files of command-line tools live there — except the few toolchain
  settings in `VISIBLE_HOME_DOTFILES`, which hold no secrets;
- the folders and files in `HIDDEN_HOME_PATHS`: credential stores of cloud CLIs, package registries, git,
  containers, other coding agents, password managers, browsers, shell configuration and history folders;
- the sockets and runtime folders of the user's session (`RUNTIME_PATHS`, and those the environment names:
  `$XDG_RUNTIME_DIR`, `$SSH_AUTH_SOCK`'s folder, tmux's and screen's folders).

Users add their own paths with `sandbox_hide` in a config file. tests/test_containment_home.py plants each
entry and checks it is unreadable inside the sandbox.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

#: Dotfiles directly in the home that stay visible: toolchain settings without secrets.
VISIBLE_HOME_DOTFILES = frozenset(
    {
        ".gitconfig",  # identity for `git commit`; credentials live in the hidden stores below
        ".gitignore_global",
        ".gitattributes",
        ".editorconfig",
        ".condarc",
        ".tool-versions",
        ".python-version",
        ".node-version",
        ".nvmrc",
        ".ruby-version",
        ".sdkmanrc",
        ".clang-format",
        ".clang-tidy",
        ".inputrc",
        ".vimrc",
        ".gemrc",
        ".Rprofile",
    }
)

#: Folders and files under the home that commands never see, by kind (home-relative, POSIX separators).
HIDDEN_HOME_PATHS: Mapping[str, tuple[str, ...]] = {
    "ssh and signing keys": (".ssh", ".gnupg", ".pki", ".config/sops", ".config/age"),
    "git credentials": (
        ".git-credentials",
        ".config/git/credentials",
        ".config/gh",
        ".config/hub",
        ".config/glab-cli",
        ".config/git-credential-manager",
        ".gcm",
    ),
    "cloud command-line tools": (
        ".aws",
        ".azure",
        ".config/gcloud",
        ".oci",
        ".config/doctl",
        ".config/hcloud",
        ".config/linode-cli",
        ".config/scaleway",
        ".aliyun",
        ".bluemix",
        ".config/yandex-cloud",
        ".kube",
        ".config/helm",
        ".terraform.d",
        ".vault-token",
        ".config/rclone",
        ".config/configstore",
        ".config/netlify",
        ".netlify",
        ".vercel",
        ".local/share/com.vercel.cli",
        ".wrangler",
        ".config/.wrangler",
        ".fly",
        ".railway",
        ".supabase",
        ".config/heroku",
        ".databrickscfg",
        ".snowflake",
        ".config/snowflake",
        ".dbt",
        ".mc",
        ".ngrok2",
        ".config/ngrok",
        ".config/jfrog",
        ".config/op",
        ".config/Bitwarden CLI",
    ),
    "containers": (".docker", ".config/containers", ".local/share/containers/auth.json"),
    "package registries": (
        ".cargo/credentials",
        ".cargo/credentials.toml",
        ".config/pip",
        ".pip",
        ".config/pypoetry/auth.toml",
        ".local/share/python_keyring",
        ".m2/settings.xml",
        ".m2/settings-security.xml",
        ".gradle/gradle.properties",
        ".gem/credentials",
        ".local/share/gem/credentials",
        ".config/composer/auth.json",
        ".composer/auth.json",
        ".nuget/NuGet/NuGet.Config",
        ".config/NuGet/NuGet.Config",
        ".bundle/config",
        ".config/yarn",
        ".local/share/pnpm/rc",
        ".config/pnpm/rc",
        ".config/hex",
        ".hex",
        ".stack/config.yaml",
    ),
    "other coding agents and model providers": (
        ".codex",
        ".claude",
        ".config/claude",
        ".gemini",
        ".config/gemini",
        ".continue",
        ".cursor",
        ".aider",
        ".config/aider",
        ".openhands",
        ".config/openai",
        ".config/anthropic",
        ".config/github-copilot",
        ".config/goose",
        ".local/share/opencode",
        ".config/opencode",
        ".codeium",
        ".config/zed",
        ".ollama/id_ed25519",
    ),
    "password stores and keyrings": (
        ".password-store",
        ".local/share/keyrings",
        ".local/share/kwalletd",
        ".mozilla",
        ".thunderbird",
        ".config/google-chrome",
        ".config/chromium",
        ".config/BraveSoftware",
        ".config/microsoft-edge",
    ),
    "shell configuration and history folders": (
        ".config/fish",
        ".local/share/fish",
        ".config/zsh",
        ".zsh",
        ".oh-my-zsh/custom",
        ".config/bash",
        ".local/share/bash",
        ".config/nushell",
        ".local/share/nushell",
        ".config/direnv",
        ".local/share/direnv",
        ".config/environment.d",
        ".config/psql",
        ".local/share/psql",
        ".screen",
    ),
}

#: Dotfiles at home every user is likely to have, named for sandboxes that cannot hide "every dotfile" by a
#: rule of their own (macOS Seatbelt profiles list paths).
KNOWN_HOME_DOTFILES = (
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".bash_history",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".zsh_history",
    ".zhistory",
    ".history",
    ".sh_history",
    ".kshrc",
    ".cshrc",
    ".tcshrc",
    ".python_history",
    ".node_repl_history",
    ".psql_history",
    ".mysql_history",
    ".sqlite_history",
    ".rediscli_history",
    ".lesshst",
    ".viminfo",
    ".env",
    ".envrc",
    ".secrets",
    ".netrc",
    ".pgpass",
    ".my.cnf",
    ".mylogin.cnf",
    ".s3cfg",
    ".boto",
    ".pypirc",
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".curlrc",
    ".wgetrc",
    ".vault-token",
    ".claude.json",
    ".aider.conf.yml",
    ".Xauthority",
    ".ICEauthority",
)

#: Socket files and runtime folders of the user's session (and of system daemons) hidden from commands.
RUNTIME_PATHS = (
    "/run/user",
    "/var/run/user",
    "/run/docker.sock",
    "/var/run/docker.sock",
    "/run/podman",
    "/run/containerd",
    "/run/dbus",
    "/var/run/dbus",
    "/run/screen",
    "/var/run/screen",
    "/run/snapd.socket",
    "/run/snapd-snap.socket",
    "/run/systemd/private",
    "/run/systemd/journal",
    "/run/systemd/userdb",
)

#: Environment variables naming a session socket or runtime folder; the folder holding it is hidden.
SOCKET_VARIABLES = ("SSH_AUTH_SOCK", "GPG_AGENT_INFO", "TMUX", "DBUS_SESSION_BUS_ADDRESS", "SCREENDIR")


#: Every hidden path, home-relative, in one tuple (the order of `HIDDEN_HOME_PATHS`).
_ALL_HIDDEN = tuple(path for paths in HIDDEN_HOME_PATHS.values() for path in paths)


def hidden_home_paths(home: Path) -> Iterator[str]:
    """Every hidden path under `home` that exists (links included: the caller decides what to mask).

    Plain strings and `os.path`: this runs for every command, and pathlib would cost milliseconds.
    """
    base = str(home)
    lexists = os.path.lexists
    for relative in _ALL_HIDDEN:
        path = f"{base}/{relative}"
        if lexists(path):
            yield path
    try:
        entries = list(os.scandir(base))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(".") or entry.name in VISIBLE_HOME_DOTFILES:
            continue
        try:
            is_folder = entry.is_dir(follow_symlinks=True)
        except OSError:
            continue
        if not is_folder:
            yield entry.path


def runtime_paths(environ: Mapping[str, str], home: Path) -> Iterator[Path]:
    """Session sockets and runtime folders: the fixed ones that exist, and those the environment names."""
    for fixed in RUNTIME_PATHS:
        if os.path.lexists(fixed):
            yield Path(fixed)
    runtime = environ.get("XDG_RUNTIME_DIR", "").strip()
    if runtime:
        yield Path(runtime)
    uid = os.getuid() if hasattr(os, "getuid") else 0
    tmux_base = environ.get("TMUX_TMPDIR", "").strip() or "/tmp"
    yield Path(tmux_base) / f"tmux-{uid}"
    for name in SOCKET_VARIABLES:
        value = environ.get(name, "").strip()
        if not value:
            continue
        if name == "DBUS_SESSION_BUS_ADDRESS":
            # unix:path=/run/user/1000/bus,guid=...; abstract addresses live in the network namespace.
            found = [p.split("=", 1)[1] for p in value.split(",") if p.startswith(("unix:path=", "path="))]
            value = found[0] if found else ""
        elif name in ("TMUX", "GPG_AGENT_INFO"):
            value = value.split(",")[0].split(":")[0]  # socket,pid,session / socket:pid:1
        if not value.startswith("/"):
            continue
        path = Path(value)
        yield path
        if name != "SCREENDIR":
            yield path.parent  # the caller never hides a folder that holds the home or the project
    yield home / ".screen"
