"""Publishing from the project, handing files to a transfer service and probing a named host are network.

A package, extension, release or site published, a deployment, or a file sent with a transfer tool leaves the
machine and cannot be taken back; a reachability probe (`psping host`, `tcping host 443`) reaches another
machine. Building the artifact locally, listing it, and asking a probe for its usage stay fine.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "vsce publish"),
    ("posix", "vsce publish minor --pat $VSCE_PAT"),
    ("posix", "npx @vscode/vsce publish --packagePath x.vsix"),
    ("posix", "ovsx publish x.vsix -p $OVSX_PAT"),
    ("posix", "mike deploy --push --update-aliases 1.2 latest"),
    ("posix", "mike deploy -p 1.2"),
    ("posix", "mike set-default --push latest"),
    ("posix", "mkdocs gh-deploy --force"),
    ("posix", "ghp-import -n -p -f site"),
    ("posix", "npx gh-pages -d dist"),
    ("posix", "twine upload dist/*"),
    ("posix", "npm publish --access public"),
    ("posix", "gh release create v1.0 dist/*"),
    ("posix", "cargo publish"),
    ("posix", "flit publish"),
    ("posix", "lerna publish from-package --yes"),
    ("posix", "npx changeset publish"),
    ("posix", "npx semantic-release"),
    ("posix", "release-it --ci"),
    ("posix", "fly deploy --remote-only"),
    ("posix", "pod trunk push x.podspec"),
    ("posix", "anaconda upload dist/x.tar.bz2"),
    ("posix", "jsr publish"),
    ("posix", "croc send dist/app.zip"),
    ("posix", "croc"),
    ("posix", "wormhole send report.pdf"),
    ("posix", "ffsend upload build.tar.gz"),
    ("powershell", "octo push --package app.1.0.0.nupkg --server https://octopus.example"),
    ("powershell", "vsce publish"),
    ("powershell", "psping hostname"),
    ("powershell", "psping hostname:443 -n 5"),
    ("posix", "tcping example.com 443"),
    ("posix", "tcping build7"),
    ("posix", "paping example.com -p 80 -c 4"),
    ("posix", "httping -c 3 example.com"),
    ("powershell", "Test-NetConnection build7 -Port 443"),
]

ALLOWED = [
    ("posix", "vsce package"),
    ("posix", "vsce ls"),
    ("posix", "mike deploy 1.2 latest"),
    ("posix", "mike list"),
    ("posix", "mkdocs build --strict"),
    ("posix", "ghp-import -n site"),
    ("posix", "twine check dist/*"),
    ("posix", "python -m build"),
    ("posix", "npm pack"),
    ("posix", "lerna run test"),
    ("posix", "changeset version"),
    ("posix", "pod lib lint"),
    ("posix", "croc --help"),
    ("posix", "semantic-release --help"),
    ("posix", "./scripts/publish --dry-run"),
    ("posix", "echo 'next: vsce publish'"),
    ("posix", "git commit -m 'release: croc send the artifacts'"),
    ("powershell", "octo pack --id App --version 1.0.0"),
    ("powershell", "psping /?"),
    ("posix", "tcping --help"),
    ("powershell", "dotnet publish -c Release -o out"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_publishing_transfers_and_probes_are_network(shell: str, command: str) -> None:
    guard_blocks(shell, command, "network")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_building_listing_and_asking_for_usage_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
