"""Network by subcommand or option: what a program does with the network is named by how it is called, not
by its name. Package-manager subcommands that fetch from the distribution's servers (`apt-get changelog`,
`apt download`, `apt-get source`), any program told to listen for connections (`--listen[=][host:]port`,
`--listen-address`, `-listen`), configuration-management and orchestration clients (`knife`, `salt`,
`pdsh`), and packet-capture programs (`wireshark`, `tshark`, `dumpcap`) are network. Beside them, the same
programs used locally stay allowed: listing what is installed, filtering text, a word that only mentions the
option."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    # database, cache, queue and web servers started (their own short options say which only print)
    ("posix", "redis-server --daemonize yes", "network.local-server"),
    ("posix", "mongod --dbpath ./db --fork --logpath ./db/log", "network.local-server"),
    ("posix", "pg_ctl -D ./db -l ./db/log start", "network.local-server"),
    ("posix", "memcached -t 4 -d", "network.local-server"),
    ("posix", "mitmproxy", "network.local-server"),
    ("posix", "mitmdump -w flows.out", "network.local-server"),
    ("posix", "nginx -c ./nginx.conf", "network.local-server"),
    ("posix", "RABBITMQ_NODE_PORT=5673 rabbitmq-server -detached", "network.local-server"),
    ("posix", "caddy file-server --root ./site", "network.local-server"),
    ("posix", "ollama serve", "network.local-server"),
    ("posix", "mlflow ui --port 5001", "network.local-server"),
    # Argo CD's and Flux's clients act on the cluster; a local cluster's machine entered or exposed
    ("posix", "argocd app sync sample-app --prune", "network.remote-service"),
    ("posix", "flux reconcile kustomization flux-system -n flux-system", "network.remote-service"),
    ("posix", "minikube ssh", "network.remote-service"),
    ("posix", "minikube tunnel", "network.remote-service"),
    (
        "posix",
        "minikube kubectl -- -n awx get secret admin -o jsonpath={.data.password}",
        "network.remote-service",
    ),
    # a program the project installed, run by the package manager by its bare name
    ("posix", "yarn wrangler d1 execute dev-db --remote --file=./sql/schema.sql", "network.remote-service"),
    ("posix", "pnpm vercel --prod", "network.remote-service"),
    ("posix", "bun netlify deploy --prod", "network.remote-service"),
    ("posix", "yarn prisma migrate reset --force", "destructive.data-store"),
    ("posix", "pnpm serve -s dist", "network.local-server"),
    # a browser started at all loads pages; Chromium's launcher options run programs of their own
    ("posix", "firefox", "network.browser"),
    ("posix", "google-chrome --renderer-cmd-prefix='sh -c id'", "network.browser"),
    # Terraform and OpenTofu call the providers' cloud APIs to plan, and change real infrastructure to apply
    ("posix", "terraform apply", "network.remote-service"),
    ("posix", "terraform plan -out=tfplan", "network.remote-service"),
    ("posix", "terraform destroy -auto-approve", "network.remote-service"),
    ("posix", "tofu apply -auto-approve", "network.remote-service"),
    ("posix", "terraform -chdir=infra apply", "network.remote-service"),
    ("posix", "terraform import aws_s3_bucket.b my-bucket", "network.remote-service"),
    ("posix", "terraform state pull", "network.remote-service"),
    ("posix", "terragrunt run-all plan", "network.remote-service"),
    ("posix", "stratus detonate aws.persistence.iam-backdoor-user", "network.remote-service"),
    ("posix", "apt-get changelog apt", "network.package-install"),
    # a flake from anywhere but the project
    ("posix", "nix run nixpkgs#hello", "network.package-install"),
    ("posix", "nix shell github:owner/repo", "network.package-install"),
    ("posix", "nix run https://example.com/flake.tar.gz", "network.package-install"),
    ("posix", "nix build --expr '(import <nixpkgs> {}).hello'", "network.package-install"),
    ("posix", "nix build .#x --override-input nixpkgs github:o/r", "network.package-install"),
    ("posix", "nix profile install .#tool", "network.package-install"),
    ("posix", "dart pub global activate coverage", "network.package-install"),
    ("posix", "aptitude changelog aptitude", "network.package-install"),
    ("posix", "sudo apt changelog curl", "network.package-install"),
    ("posix", "apt download curl", "network.package-install"),
    ("posix", "apt-get source curl", "network.package-install"),
    ("posix", "fzf --listen=12345", "network.local-server"),
    ("posix", "fzf --listen", "network.local-server"),
    ("posix", "mytool --listen-address=:9090", "network.local-server"),
    ("posix", "env X=1 mytool -listen :8080", "network.local-server"),
    ("posix", "mytool --listen 0.0.0.0:9000", "network"),
    ("powershell", "mytool.exe -Listen 8080", "network.local-server"),
    ("posix", "knife node list", "network.remote-service"),
    ("posix", "knife ssh 'name:*' uptime", "network.remote-service"),
    ("posix", "salt '*' cmd.run id", "network.remote-service"),
    ("posix", "pdsh -w 'node[1-4]' uptime", "network.remote-service"),
    ("posix", "wireshark", "network.socket"),
    ("posix", "/usr/bin/wireshark -k -i any", "network.socket"),
    ("posix", "dumpcap -i any -w cap.pcapng", "network.socket"),
    ("posix", "termshark -i eth0", "network.socket"),
    ("posix", "ptftpd -p 69 tap0 .", "network.socket"),  # a TFTP server of the folder
    # Sphinx's link checker requests every address the documentation links to
    ("posix", "sphinx-build -b linkcheck docs docs/_build/linkcheck", "network.http-client"),
    ("posix", "sphinx-build -M linkcheck docs build", "network.http-client"),
    ("posix", "lychee docs", "network.http-client"),
    ("posix", "markdown-link-check README.md", "network.http-client"),
    ("posix", "htmlproofer ./_site", "network.http-client"),
    # updaters asking a registry or a forge for the newest versions
    ("posix", "pre-commit autoupdate -j4", "network.package-install"),
    ("posix", "taze major -I", "network.package-install"),
    ("posix", "pinact run -u", "network.package-install"),
    ("posix", "gha-update", "network.package-install"),
    # models, corpora and extensions fetched by the tools that use them; Gitpod's apt wrappers
    ("posix", "python -m spacy download en_core_web_sm", "network.package-install"),
    ("posix", "python -m nltk.downloader punkt", "network.package-install"),
    ("posix", "python -c \"import nltk; nltk.download('punkt')\"", "network.payload"),
    ("posix", "jupyter labextension install @jupyter-widgets/jupyterlab-manager", "network.package-install"),
    ("posix", "install-packages ripgrep", "network.package-install"),
    ("posix", "sdk env install", "network.package-install"),
    ("posix", "softwareupdate -l", "network.http-client"),  # asks Apple's servers
    # rustup's toolchain named before cargo's subcommand
    ("posix", "cargo +nightly install ripgrep", "network.package-install"),
    ("posix", "cargo +nightly generate-lockfile -Z minimal-versions", "network.package-install"),
    ("posix", "cargo +stable publish --allow-dirty", "network.publish"),
    ("powershell", "cargo +1.80 fetch", "network.package-install"),
    # the index asked for newer releases; a gem's program fetched and run
    ("posix", "pip list --outdated", "network.package-install"),
    ("posix", "cargo outdated --workspace --exit-code 1", "network.package-install"),
    ("posix", "gem exec sigstore-cli sign pkg/x.gem", "network.package-install"),
]

ALLOWED = [
    ("posix", "sphinx-build -b html docs docs/_build/html"),
    ("posix", 'sphinx-build -b "$BUILDER" docs "$BUILDDIR"'),  # a builder only known at run time: a build
    ("posix", "pear package-validate package.xml"),  # PEAR's checks of the project's own package
    ("posix", "pear run-tests tests"),
    ("posix", "lychee --offline docs"),
    ("posix", "htmlproofer ./_site --disable-external"),
    ("posix", "pre-commit run --all-files"),
    ("posix", "jupyter labextension list"),
    ("posix", "python -m spacy validate"),
    ("posix", "python -c 'import nltk; print(nltk.__version__)'"),
    ("posix", "cargo +nightly fmt --all"),
    ("posix", "cargo +nightly test --workspace"),
    ("posix", "pip list --format=json"),
    ("posix", "gem list"),
    ("posix", "redis-server --version"),
    ("posix", "nginx -t"),
    ("posix", "memcached --version"),
    ("posix", "mitmproxy --version"),
    ("posix", "mysqld --initialize-insecure --datadir=./db"),
    ("posix", "pg_ctl -D ./db status"),
    ("posix", "caddy fmt --overwrite Caddyfile"),
    ("posix", "ray status"),
    ("posix", "sshd -t"),
    ("posix", "chromium --version"),
    ("posix", "argocd completion bash"),
    # any other first word is the project's own script (or the manager's own command)
    ("posix", "yarn format"),
    ("posix", "yarn bundle"),
    ("posix", "yarn lint:fix"),
    ("posix", "pnpm prisma generate"),
    ("posix", "yarn tsx scripts/gen.ts"),
    ("posix", "flux envsubst --strict"),
    ("posix", "minikube status"),
    ("posix", "terraform fmt -check -recursive"),
    ("posix", "terraform validate -no-color"),
    ("posix", "tofu fmt"),
    ("posix", "terraform version"),
    ("posix", "terraform graph"),
    # the project's own flake is its build, as `cargo build` is
    ("posix", "nix build -L --keep-going .#ci"),
    ("posix", "nix run .#format && git diff --exit-code"),
    ("posix", "nix build"),
    ("posix", "nix run ./tools#gen"),
    # a tool activated before runs from the machine
    ("posix", "dart pub global run coverage:format_coverage --lcov --in=coverage --out=coverage/lcov.info"),
    ("posix", "dart pub global list"),
    ("posix", "apt list --installed"),
    ("posix", "apt-cache show curl"),
    ("posix", "dpkg -l"),
    ("posix", "fzf --filter main"),
    ("posix", "mytool --listener-name ci"),
    ("posix", "echo --listen"),
    ("posix", "grep -rn -- --listen docs/"),
    ("posix", "git commit -m 'add --listen option'"),
    ("posix", "chef exec rspec"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_network_named_by_subcommand_or_option_is_blocked(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_same_programs_used_locally_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
