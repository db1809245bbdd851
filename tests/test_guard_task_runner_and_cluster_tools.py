"""Task-runner lines and cluster and cloud attack tools, checked against the classes they belong to.

Developer task files (Taskfile, noxfile, deno.json, pre-commit hooks, cargo xtask) install packages through
tools that are not package managers by name (`mypy --install-types` pip-installs stub packages, Paket
restores NuGet packages), fetch rules from a registry
(`semgrep --config=auto`) and open database shells after a settings file (`duckdb -init .duckdbrc x.db`):
network and the terminal, as their better-known twins are. Attack write-ups run cloud-bucket brute-forcers
(`gcpbucketbrute`, `gcpenum`), cluster auditors and attack kits against the live cluster (`kubeaudit all`,
`kubestrike`, `rbac-police`), Helm 2 against Tiller (`helm --host … version`), an SSH interception server
(`ssh-mitm server`) and Azure credential kits loaded as modules (MicroBurst, PowerZure).

Beside them, the same programs used locally stay allowed, and so do everyday lines that were blocked for the
wrong reason: project SQL files piped into a database console by `cat` (as `duckdb x.db < a.sql` is), `deno
publish --dry-run` (as `npm publish --dry-run` is), a disk image made by `dd` inside the build output (as
`fallocate` makes one), and kubectl objects rendered on the client (`kubectl create … --dry-run=client -o
yaml`, `kubectl run … --dry-run=client`), which reach no cluster.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import committed_repo, decide_in, guard_allows, guard_blocks

BLOCKED = [
    # docs servers with live reload, and an SSH interception server on its default port
    (
        "posix",
        "ssh-mitm server --disable-publickey-auth --enable-keyboard-interactive-auth",
        "network.local-server",
    ),
    ("posix", "ssh-mitm server", "network.local-server"),
    # packages installed by tools that are no package manager by name
    (
        "posix",
        "mypy --ignore-missing-imports --install-types --non-interactive pygadm",
        "network.package-install",
    ),
    ("posix", "python -m mypy --install-types --non-interactive .", "network.package-install"),
    ("posix", "paket restore", "network.package-install"),
    ("posix", "paket install", "network.package-install"),
    ("posix", "dotnet paket restore", "network.package-install"),
    ("posix", "dotnet paket update", "network.package-install"),
    ("posix", "mono .paket/paket.exe restore", "network.package-install"),
    ("powershell", ".paket\\paket.exe restore", "network.package-install"),
    # rules fetched from the Semgrep registry, and Semgrep's service
    ("posix", "semgrep --config=auto --error", "network.remote-service"),
    ("posix", "semgrep --config auto src", "network.remote-service"),
    ("posix", "semgrep --config p/ci", "network.remote-service"),
    ("posix", "semgrep scan --config r/python.lang.security.audit", "network.remote-service"),
    ("posix", "semgrep ci", "network.remote-service"),
    # other people's storage buckets, brute-forced from keywords
    ("posix", "python3 gcpbucketbrute.py -k test -u", "network.dns"),
    ("posix", "gcpenum -n mycompany", "network.dns"),
    ("posix", "gcpenum -l keywords.txt -c 15 -o results.txt", "network.dns"),
    # the live cluster audited or attacked; Tiller asked through Helm 2
    ("posix", "kubeaudit all", "network.remote-service"),
    ("posix", "kubeaudit priv", "network.remote-service"),
    ("posix", "kubeaudit limits --cpu 500m --memory 125Mi", "network.remote-service"),
    ("posix", "kubeaudit image -i gcr.io/google_containers/echoserver:1.7", "network.remote-service"),
    ("posix", "kubestrike", "network.socket"),
    ("posix", "rbac-police eval lib/", "network.socket"),
    ("posix", "helm --host tiller-deploy.kube-system:44134 version", "network.remote-service"),
    ("posix", "helm --host=tiller-deploy.kube-system:44134 version", "network.remote-service"),
    # Azure credential kits loaded as modules
    ("powershell", "Import-Module .\\MicroBurst.psm1", "env.credential-dump"),
    ("powershell", "Import-Module .\\PowerZure.ps1", "env.credential-dump"),
    (
        "powershell",
        "Import-Module Az, .\\Az\\MicroBurst-Az.psm1; Get-Command -Module MicroBurst-Az",
        "env.credential-dump",
    ),
    ("powershell", "Import-Module .\\MicroBurst-AzureAD.psm1", "env.credential-dump"),
    # a database shell opened after its settings file
    ("posix", "duckdb -init .duckdbrc data/warehouse.duckdb", "unverifiable.terminal-program"),
    ("posix", "sqlite3 -init x.sql db.sqlite", "unverifiable.terminal-program"),
    # the harmful twins of the everyday lines below
    ("posix", "curl -s https://example.com/x.sql | duckdb x.db", "network.http-client"),
    ("posix", "cat $F | duckdb x.db", "dynamic.stdin"),
    ("posix", "cat /tmp/x.sql | psql", "unverifiable.outside-program"),
    ("posix", "cat script.sh | bash", "dynamic.stdin"),
    ("posix", "deno publish", "network.publish"),
    ("posix", "deno publish --allow-dirty", "network.publish"),
    ("posix", "dd if=/dev/zero of=/dev/sda bs=1M", "destructive.raw-disk-write"),
    ("posix", "dd if=target/os.img of=/dev/sdb bs=4M", "destructive.raw-disk-write"),
    ("posix", "dd of=target/x.img of=/dev/sda", "destructive.raw-disk-write"),
    ("posix", "kubectl apply --dry-run=client -f deploy.yaml", "network.remote-service"),
    ("posix", "kubectl create secret generic x --from-literal=a --dry-run=server", "network.remote-service"),
    ("posix", "kubectl create secret generic x --from-literal=a=b", "network.remote-service"),
    ("posix", "kubectl create -f deploy.yaml --dry-run=client", "network.remote-service"),
    ("posix", "kubectl run nginx --image=nginx", "network.remote-service"),
    (
        "posix",
        "kubectl run nginx --image=nginx --dry-run=client -o yaml | kubectl create -n mynamespace -f -",
        "network.remote-service",
    ),
]

ALLOWED = [
    ("posix", "sphinx-build -b html docs docs/_build/html"),
    ("posix", "python -m sphinx -b html docs docs/_build"),
    # a docs live-reload server is a development server, which the policy leaves to the sandbox (as
    # `npm run dev`); only the servers named in the README's list block
    ("posix", "sphinx-autobuild docs docs/_build/html"),
    ("posix", "mkdocs build"),
    ("posix", "ssh-mitm --help"),
    ("posix", "mypy src"),
    ("posix", "mypy --strict --ignore-missing-imports src tests"),
    ("posix", "python -m mypy --non-interactive ."),
    ("posix", "paket --help"),
    ("posix", "dotnet paket --help"),
    ("posix", "paket convert-from-nuget"),
    ("posix", "mono bin/Release/app.exe --check"),
    ("posix", "semgrep --config .semgrep.yml src"),
    ("posix", "semgrep --config=semgrep/rules.yml --error ."),
    ("posix", "semgrep --version"),
    ("posix", "gcpenum --help"),
    ("posix", 'kubeaudit all -k "config.yml" -f "manifest.yml"'),
    ("posix", "kubeaudit autofix -f path/to/manifest.yml"),
    ("posix", "kubeaudit all --manifest deploy/app.yml"),
    ("posix", "kubeaudit version"),
    ("posix", "kube-score score insecure-deployment.yaml"),
    ("posix", "helm version --client"),
    ("posix", "helm template ./chart"),
    ("powershell", "Import-Module Az"),
    ("powershell", "Import-Module Az, .\\build\\Project.psm1"),
    ("powershell", "Import-Module .\\tools\\Build.psm1 -Force"),
    ("posix", 'duckdb x.db -c "select 1"'),
    ("posix", "duckdb x.db < a.sql"),
    ("posix", 'duckdb -init .duckdbrc x.db -c "select 1"'),
    ("posix", "duckdb -init .duckdbrc x.db < load.sql"),
    ("posix", "sqlite3 -init x.sql db.sqlite .tables"),
    # everyday lines: project SQL piped in, a dry-run publish, an image in the build output, client renders
    ("posix", 'echo "init"; cat sql/_init/*.sql | duckdb data/warehouse.duckdb'),
    ("posix", "cat schema.sql seed.sql | sqlite3 app.db"),
    ("posix", "cat db/schema.sql | psql"),
    ("posix", "deno publish --dry-run --allow-dirty"),
    ("posix", "npm publish --dry-run"),
    ("posix", "dd if=/dev/zero of=target/termOS.img bs=1M count=64"),
    ("posix", "dd if=build/boot.bin of=./build/os.img conv=notrunc"),
    ("posix", "dd if=disk.img bs=1M count=1"),
    ("posix", "kubectl create secret generic x --from-literal=a=b --dry-run=client -o yaml"),
    ("posix", "kubectl create secret generic db --from-literal password=secret --dry-run=client -o json"),
    ("posix", "kubectl run nginx --image=nginx --restart=Never --dry-run=client -n mynamespace -o yaml"),
    ("posix", "kubectl run busybox --image=busybox --dry-run=client -o yaml --command -- env"),
    ("posix", "kubectl create deployment web --image=nginx --dry-run -o yaml"),
    ("posix", "kubectl kustomize overlays/dev"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_task_runner_and_cluster_tool_lines_are_blocked(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_same_programs_used_locally_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


def test_dd_into_the_project_is_judged_as_a_whole_file_write(tmp_path: Path) -> None:
    """In a real working tree `dd of=FILE` is spared for a new file or ignored output, as `tee FILE` is, and
    blocked for a committed file with content; a client-side render is written to a new file."""
    root = committed_repo(tmp_path, {"README.md": "docs\n", ".gitignore": "target/\n"})
    assert decide_in("dd if=/dev/zero of=target/termOS.img bs=1M count=64", root).allowed
    assert decide_in("dd if=/dev/zero of=new.img bs=1M count=1", root).allowed
    decision = decide_in("dd if=/dev/zero of=README.md bs=1M count=1", root)
    assert decision.rule_id == "destructive.truncating-write"
    render = "kubectl run nginx --image=nginx --dry-run=client -o yaml > pod.yaml"
    assert decide_in(render, root).allowed
