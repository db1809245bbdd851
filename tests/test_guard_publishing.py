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
    # other indexes' and platforms' own upload, publish, release and deploy commands
    ("posix", "fastly compute deploy"),
    ("posix", "spin deploy"),
    ("posix", "cabal upload --publish dist-newstyle/sdist/x-1.0.tar.gz"),
    ("posix", "stack upload ."),
    ("posix", "dzil release"),
    ("posix", "minil release"),
    ("posix", "cpan-upload X-1.0.tar.gz"),
    ("posix", "conan upload '*' -r remote --confirm"),
    ("posix", "luarocks upload x-1.0-1.rockspec --api-key=$KEY"),
    ("posix", "deno publish"),
    ("posix", "deno deploy"),
    ("posix", "deployctl deploy --project=x main.ts"),
    ("posix", "rebar3 hex publish"),
    ("posix", "swift package-registry publish x 1.0.0"),
    ("posix", "cachix push mycache ./result"),
    ("posix", "pio pkg publish"),
    ("posix", "surge ./dist x.surge.sh"),
    ("posix", "kamal deploy"),
    ("posix", "cargo shuttle deploy"),
    ("posix", "fastlane pilot upload"),
    ("posix", "bundle exec fastlane deliver --force"),
    ("posix", "./gradlew jib --image=registry.example/app"),
    ("posix", "mvn compile jib:build"),
    ("posix", 'Rscript -e "devtools::release()"'),
    # hosting platforms' clients and cluster deploy tools act there
    ("posix", "cf push myapp"),
    ("posix", "dokku apps:create x"),
    ("posix", "eas build --platform ios"),
    ("posix", "amplify push"),
    ("posix", "skaffold run"),
    ("posix", "tilt up"),
    ("posix", "werf converge"),
    ("posix", "sst deploy --stage prod"),
    ("posix", "ko build ./cmd/app"),
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
    ("posix", "fastly compute build"),
    ("posix", "spin build"),
    ("posix", "cabal build all"),
    ("posix", "dzil test"),
    ("posix", "conan create ."),
    ("posix", "luarocks make"),
    ("posix", "deno test -A"),
    ("posix", "rebar3 release"),
    ("posix", "kamal init"),
    ("posix", "cargo shuttle run"),
    ("posix", "fastlane test"),
    ("posix", "mvn jib:dockerBuild"),
    ("posix", 'Rscript -e "devtools::check()"'),
    ("posix", "skaffold render"),
    ("posix", "sst build"),
    ("posix", "ko build -L ./cmd/app"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_publishing_transfers_and_probes_are_network(shell: str, command: str) -> None:
    guard_blocks(shell, command, "network")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_building_listing_and_asking_for_usage_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
