"""Package managers' read-only queries against their registry queries, the user's default toolchain, and a
container's configuration printed by field, as command references write them.

- A search of the index a package manager already downloaded reads what is here, as `apt-cache search`
  does: `apt search`, `aptitude search`, `apk search`, `opam search`, `flatpak search`, `vcpkg search`,
  `helm search repo`, pacman's sync-database queries (`-Ss`, `-Si`, `-Sl`, `-Sg`), and what is installed or
  defined locally (`cargo install --list`, `pyenv install --list`, `rbenv install -L`). The managers that
  ask their servers still block (`brew search`, `dnf search`, `snap find`, `helm search hub`, `yay -Ss`,
  `pacman -Sys`, `pacman -Syi`).
- What a registry knows, asked of it, is network: `winget show`, `choco info` (not `--local-only` or a
  folder source), `dotnet tool search`, `mamba repoquery search`, `npm cache add`, Composer's `show --all`
  and `--latest`, the version lists of version managers (`nvm ls-remote`, `fnm list-remote`, `asdf list
  all`, `mise ls-remote`, `sdk list`), `eslint --init` (it runs `npm init @eslint/config`), and nix given a
  flake from the registry or a forge (`nix search nixpkgs hello`, `nix flake show github:o/r`).
- A version manager's default for every project is written outside the project, as `pyenv global` is:
  `rustup default nightly`, `rustup set profile minimal`, `nvm alias default 20`, `fnm default 20`, `sdk
  default java 21-tem`, `juliaup default 1.10`, `gvm use go1.22 --default`, `uv python pin --global`; asking
  for the default and the project's own pin stay allowed.
- A package manager told to stay offline installs from what it has, as `cargo build --offline` does: `npm ci
  --offline`, `pnpm install --offline`, `yarn install --offline`, `pip install --no-index`, `uv sync
  --offline`, `bundle install --local`, `gem install --local x.gem`, `flutter pub get --offline`; a URL or a
  forge's repository given to it, and `--prefer-offline`, still reach out, and an install for every project of
  the user (`npm install -g x --offline`, `pip install --no-index --user x`) is still one.
- `docker inspect` prints a container's environment, unless a Go template picks other fields
  (`-f '{{.State.Health.Status}}'`); a template naming the environment, a whole object holding it or the
  template's own `.`, and `--format json`, still block.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

INSTALL = "network.package-install"
OUTSIDE = "containment.write-outside-project"
ENV = "env.print-environment"

BLOCKED = [
    # A. searches and installs that reach the servers
    ("posix", "brew search ripgrep", INSTALL),
    ("posix", "dnf search httpd", INSTALL),
    ("posix", "zypper search nginx", INSTALL),
    ("posix", "conda search scipy", INSTALL),
    ("powershell", "choco search nodejs", INSTALL),
    ("powershell", "winget search Microsoft.PowerToys", INSTALL),
    ("posix", "snap find hello", INSTALL),
    ("posix", "snap info core22", INSTALL),
    ("posix", "helm search hub prometheus", INSTALL),
    ("posix", "yay -Ss neovim", INSTALL),
    ("posix", "paru -Ss neovim", INSTALL),
    ("posix", "pacman -S base-devel", INSTALL),
    ("posix", "pacman -Syu --noconfirm", INSTALL),
    ("posix", "pacman -Sys neovim", INSTALL),
    ("posix", "pacman -Syi neovim", INSTALL),
    ("posix", "pacman -Sv neovim", INSTALL),
    ("posix", "pacman -Sw neovim", INSTALL),
    ("posix", "cargo install cargo-nextest --locked", INSTALL),
    ("posix", "pyenv install 3.11.9", INSTALL),
    ("posix", "rbenv install 3.3.1", INSTALL),
    # B. registry questions
    ("powershell", "winget show Microsoft.PowerShell", INSTALL),
    ("powershell", "choco info 7zip", INSTALL),
    ("powershell", "dotnet tool search dotnet-format", INSTALL),
    ("posix", "dotnet tool search --detail coverlet", INSTALL),
    ("posix", "mamba repoquery search xtensor", INSTALL),
    ("posix", "npm cache add react@18.2.0", INSTALL),
    ("posix", "composer show --all", INSTALL),
    ("posix", "composer show -l symfony/console", INSTALL),
    ("posix", "composer show --outdated", INSTALL),
    ("posix", "nvm ls-remote --lts", INSTALL),
    ("posix", "fnm list-remote", INSTALL),
    ("posix", "fnm ls-remote", INSTALL),
    ("posix", "asdf list all python", INSTALL),
    ("posix", "asdf list-all ruby", INSTALL),
    ("posix", "mise ls-remote python", INSTALL),
    ("posix", "sdk list gradle", INSTALL),
    ("posix", "eslint --init", INSTALL),
    ("posix", "npx eslint --init", INSTALL),
    ("posix", "nix search nixpkgs ripgrep", INSTALL),
    ("posix", "nix search github:nix-community/home-manager", INSTALL),
    ("posix", "nix flake show github:numtide/flake-utils", INSTALL),
    ("posix", "nix flake metadata nixpkgs", INSTALL),
    # C. the user's default toolchain
    ("posix", "rustup default stable", OUTSIDE),
    ("posix", "rustup default 1.78.0-x86_64-unknown-linux-gnu", OUTSIDE),
    ("posix", "rustup set profile default", OUTSIDE),
    ("posix", "rustup set auto-self-update disable", OUTSIDE),
    ("posix", "nvm alias default lts/iron", OUTSIDE),
    ("posix", "fnm default 22", OUTSIDE),
    ("posix", "sdk default maven 3.9.6", OUTSIDE),
    ("posix", "juliaup default release", OUTSIDE),
    ("posix", "elan default leanprover/lean4:stable", OUTSIDE),
    ("posix", "gvm use go1.21.5 --default", OUTSIDE),
    ("posix", "uv python pin --global 3.11", OUTSIDE),
    # D. online installs beside offline ones
    ("posix", "npm ci --prefer-offline", INSTALL),
    ("posix", "npm install --offline github:user/tool", INSTALL),
    ("posix", "npm install --offline user/tool", INSTALL),
    ("posix", "npm config set registry https://registry.example.com --offline", INSTALL),
    ("posix", "yarn upgrade --offline", INSTALL),
    ("posix", "npm install -g typescript --offline", INSTALL),
    ("posix", "pnpm add --global turbo --offline", INSTALL),
    ("posix", "npm install --location=global eslint --offline", INSTALL),
    ("posix", "pip install --no-index --user mypkg", INSTALL),
    ("posix", "pip install --no-index --find-links https://example.com/wheels mypkg", "network"),
    ("posix", "pip config set global.index-url https://example.com/simple --no-index", INSTALL),
    ("posix", "uv add httpx", INSTALL),
    ("posix", "bundle install --jobs 4", INSTALL),
    ("posix", "gem install rake", INSTALL),
    ("posix", "flutter pub get", INSTALL),
    # E. a container's configuration with its environment
    ("posix", "docker inspect api", ENV),
    ("posix", "docker container inspect api", ENV),
    ("posix", "podman inspect api", ENV),
    ("posix", "docker inspect --format '{{json .Config}}' api", ENV),
    ("posix", "docker inspect --format='{{json .}}' api", ENV),
    ("posix", "docker inspect -f '{{.}}' api", ENV),
    ("posix", "docker inspect -f '{{ .Config.Env }}' api", ENV),
    ("posix", "docker inspect -f '{{range .Config.Env}}{{println .}}{{end}}' api", ENV),
    ("posix", "docker inspect -f '{{with .Config}}{{.Hostname}}{{end}}' api", ENV),
    ("posix", "docker inspect -f '{{json $}}' api", ENV),
    ("posix", "docker inspect --format json api", ENV),
    ("posix", 'docker inspect --format="$FORMAT" api', ENV),
    ("powershell", "docker inspect api", ENV),
]

ALLOWED = [
    # A. the index that is here, and what is installed
    ("posix", "apt search libssl"),
    ("posix", "apt-cache search libssl"),
    ("posix", "aptitude search '~i python3'"),
    ("posix", "apk search -v openssl"),
    ("posix", "opam search ppx"),
    ("posix", "flatpak search gimp"),
    ("posix", "vcpkg search zlib"),
    ("posix", "helm search repo bitnami/postgresql"),
    ("posix", "pacman -Ss '^python-'"),
    ("posix", "pacman -Si linux"),
    ("posix", "pacman -Sl extra"),
    ("posix", "pacman -Sg base-devel"),
    ("posix", "pacman -Qu"),
    ("posix", "pacman -Qs python"),
    ("posix", "cargo install --list"),
    ("posix", "pyenv install --list"),
    ("posix", "pyenv install -l | grep -E '^ *3\\.12'"),
    ("posix", "rbenv install -L"),
    # B. what is here
    ("powershell", "winget show --help"),
    ("powershell", "winget list"),
    ("powershell", "choco info 7zip --local-only"),
    ("powershell", "choco info httpie -s ."),
    ("powershell", "dotnet tool list --local"),
    ("posix", "mamba repoquery depends --installed xtensor"),
    ("posix", "npm cache verify"),
    ("posix", "npm cache ls"),
    ("posix", "composer show"),
    ("posix", "composer show symfony/console"),
    ("posix", "nvm ls"),
    ("posix", "fnm list"),
    ("posix", "asdf list python"),
    ("posix", "mise ls"),
    ("posix", "sdk current java"),
    ("posix", "eslint --fix src"),
    ("posix", "npx eslint ."),
    ("posix", "nix search . ripgrep"),
    ("posix", "nix flake show"),
    ("posix", "nix flake show ."),
    ("posix", "nix flake check -L"),
    ("posix", "nix build .#default"),
    # C. asking for the default, and the project's own pin
    ("posix", "rustup default"),
    ("posix", "rustup show active-toolchain"),
    ("posix", "rustup override set 1.78.0"),
    ("posix", "rustup toolchain list"),
    ("posix", "nvm alias default"),
    ("posix", "nvm use 20"),
    ("posix", "fnm use 22"),
    ("posix", "sdk use maven 3.9.6"),
    ("posix", "gvm use go1.21.5"),
    ("posix", "uv python pin 3.11"),
    # D. offline installs
    ("posix", "npm ci --offline"),
    ("posix", "npm install --offline ../shared-lib"),
    ("posix", "pnpm install --offline --frozen-lockfile"),
    ("posix", "yarn install --offline --frozen-lockfile"),
    ("posix", "yarn --offline"),
    ("posix", "pip install --no-index --find-links dist mypkg"),
    ("posix", "python -m pip install --no-index --find-links=wheels -r requirements.txt"),
    ("posix", "pip wheel --no-deps --no-index --wheel-dir dist ."),
    ("posix", "uv sync --offline"),
    ("posix", "uv pip install --no-index -r requirements.txt"),
    ("posix", "bundle install --local"),
    ("posix", "gem install --local pkg/mygem-1.0.0.gem"),
    ("posix", "flutter pub get --offline"),
    ("posix", "dart pub get --offline"),
    # E. fields a template picks
    ("posix", "docker inspect -f '{{.State.Health.Status}}' db"),
    ("posix", "docker inspect --format='{{.State.Running}}' db"),
    ("posix", "docker container inspect -f '{{ .State.ExitCode }}' migrate"),
    ("posix", "podman inspect --format '{{.State.Status}}' db"),
    ("posix", "docker inspect -f '{{.Config.Image}}' api"),
    ("posix", "docker inspect -f '{{index .Config.Labels \"com.docker.compose.service\"}}' api"),
    ("posix", "docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' api"),
    ("posix", "docker inspect -f '{{.State.Health.Status}}' \"$CONTAINER\""),
    ("posix", "docker inspect -f '{{.Id}}' $(docker compose ps -q api)"),
    ("posix", "docker image inspect python:3.12-slim"),
    ("powershell", "docker inspect -f '{{.State.Health.Status}}' db"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_registry_questions_defaults_and_container_environment_block(
    shell: str, command: str, expected: str
) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_local_queries_pins_and_picked_fields_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
