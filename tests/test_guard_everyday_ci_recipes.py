"""Clean steps, release steps and installs from the recipes of mid-sized Python and JavaScript projects.

- A `find` sweep may say its compiled or cached name as a path or a regular expression: `-path
  '*/__pycache__/*'` selects what `__pycache__` folders hold, `-regex '.*\\.py[co]'` what `-name
  '*.py[co]'` does; `-empty` only narrows the names, and `-ls` only prints. A path or an expression that
  says anything else (`-path '*/src/*'`, `-regex '.*\\.py'`, `-path '*__pycache__*'`) stays a delete, and
  a start outside the project stays outside. A regular expression a path glob says as well also keeps
  `.git` out of what `find` hands a writer, as the path test does.
- Release tools that push or publish: changelogen told `--push` or `--publish`, changelogithub (the forge's
  release), bumpp (it pushes unless `--no-push`), zest.releaser's `fullrelease`, npm's staged publishing;
  their local steps and rehearsals stay fine, also run through the package manager.
- Installs under other words: `lerna bootstrap`/`add`, `rush install`/`update`, `ng update`/`add`, `nx
  migrate`; running, linking and building stay fine.
- Hook installers run as a module (`python -m pre_commit install`) as by name.
- In a project, a glob with a wildcard folder and more wildcards after it (`rimraf packages/*/*.tsbuildinfo`)
  deletes nothing when the wildcard folder names none; where it names one, what lies there is kept.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import TEST_GIT, decide_in, guard_allows, guard_blocks

BLOCKED = [
    # 1. sweeps whose path or expression reaches the sources, or that start outside the project
    ("posix", "find . -path '*/src/*' -delete", "destructive.find-delete"),
    ("posix", "find . -path '*lib*' -delete", "destructive.find-delete"),
    ("posix", "find . -path '*/__pycache__/*.py' -delete", "destructive.find-delete"),
    ("posix", "find . -path '*.py' -delete", "destructive.find-delete"),
    ("posix", "find . -path '*pyc' -delete", "destructive.find-delete"),
    ("posix", "find . -regex '.*\\.py' -delete", "destructive.find-delete"),
    ("posix", "find . -regex '.*/\\.git' -exec rm -rf {} +", "destructive.recursive-delete"),
    ("posix", "find . -regex '.*\\(pyc\\|py\\)' -delete", "destructive.find-delete"),
    ("posix", "find .. -path '*/.mypy_cache/*' -delete", "destructive.find-delete"),
    ("posix", "find ~ -regex '.*/__pycache__' -exec rm -rf {} +", "destructive"),
    ("posix", "find . -not -path '*/.pytest_cache/*' -delete", "destructive.find-delete"),
    ("posix", "find . -type d -empty -delete", "destructive.find-delete"),
    ("posix", "find . -name '*.tsx' -empty -delete", "destructive.find-delete"),
    ("posix", "find . -delete -path '*/__pycache__/*'", "destructive.find-delete"),
    ("posix", "find . -regex '.*/hooks/.*' -exec sed -i s/a/b/ {} +", "containment.write-git-dir"),
    # 2. release tools that push or publish
    ("posix", "changelogen --release --push", "network.publish"),
    ("posix", "npx changelogen --publish --publishTag next", "network.publish"),
    ("posix", "yarn changelogen --release --publish", "network.publish"),
    ("posix", "changelogen gh release v1.2.0", "network.publish"),
    ("posix", "changelogithub --draft", "network.publish"),
    ("posix", "pnpm changelogithub", "network.publish"),
    ("posix", "bumpp --commit --tag", "network.publish"),
    ("posix", "npx bumpp@latest minor && pnpm publish", "network"),
    ("posix", "fullrelease --no-input", "network.publish"),
    ("posix", "npm stage publish --tag beta", "network.publish"),
    ("powershell", "pnpm stage publish --access public", "network.publish"),
    ("posix", "npm stage approve 8c1d0e", "network.publish"),
    ("posix", "npm stage view 8c1d0e", "network.package-install"),
    # 3. installs under other words
    ("posix", "lerna bootstrap --hoist", "network.package-install"),
    ("posix", "npx lerna bootstrap", "network.package-install"),
    ("posix", "pnpm lerna add axios --scope=@acme/web", "network.package-install"),
    ("posix", "rush update --full", "network.package-install"),
    ("powershell", "rush install --bypass-policy", "network.package-install"),
    ("posix", "ng update @angular/cli @angular/core", "network.package-install"),
    ("posix", "yarn ng add @angular/pwa", "network.package-install"),
    ("posix", "npx nx@latest migrate latest", "network.package-install"),
    # 4. hooks installed through the module
    ("posix", "python -m pre_commit install --hook-type commit-msg", "unverifiable.git-config-exec"),
    ("posix", "python3 -m pre_commit autoupdate", "network.package-install"),
]

ALLOWED = [
    # 1. sweeps of compiled and cached files, by path or expression
    ("posix", "find . -path '*/__pycache__/*' -delete"),
    ("posix", "find src tests -type f -path '*/__pycache__/*' -delete"),
    ("posix", "find . -wholename '*/.mypy_cache/*' -delete"),
    ("posix", "find . -ipath '*/.PYTEST_CACHE' -prune -exec rm -rf {} +"),
    ("posix", "find . -path '*.egg-info' -exec rm -rf {} +"),
    ("posix", "find . -path '*/*.o' -delete"),
    ("posix", "find . \\( -path '*/__pycache__/*' -o -name '*.pyo' \\) -delete"),
    ("posix", "find . -regex '.*/__pycache__' -exec rm -rf {} +"),
    ("posix", "find . -regex '.*\\.py[co]' -delete"),
    ("posix", "find . -iregex '.*/\\.ruff_cache/.*' -delete"),
    ("posix", "find . -type d -name __pycache__ -empty -delete"),
    ("posix", "find . -type f -name '*.gcda' -ls -delete"),
    ("posix", "@find . -path './__pycache__/*' -delete"),
    ("posix", "find . -regex '.*\\.ts' -exec sed -i s/a/b/ {} +"),
    # 2. the release tools' local steps and rehearsals
    ("posix", "changelogen --release --prerelease"),
    ("posix", "changelogen --output CHANGELOG.md"),
    ("posix", "pnpm changelogen --bump"),
    ("posix", "changelogithub --dry"),
    ("posix", "bumpp --no-push"),
    ("posix", "npx bumpp --no-push --yes"),
    ("posix", "fullrelease --help"),
    ("posix", "npm stage publish --dry-run"),
    ("posix", "npm pack --dry-run"),
    # 3. running, linking and building in a monorepo
    ("posix", "lerna run build --stream"),
    ("posix", "yarn lerna run test --since main"),
    ("posix", "lerna link"),
    ("posix", "rush build --to @acme/web"),
    ("posix", "rush rebuild"),
    ("posix", "ng build --configuration production"),
    ("posix", "pnpm ng test --watch=false"),
    ("posix", "nx migrate --run-migrations"),
    ("posix", "pnpm nx affected -t lint test"),
    ("powershell", "npx nx run-many -t build"),
    # 4. the hooks' checks run through the module
    ("posix", "python -m pre_commit run --all-files --show-diff-on-failure"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_wider_sweeps_releases_and_installs_block(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_cache_sweeps_local_release_steps_and_monorepo_runs_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git project with tracked sources in `src/app/` and no `packages` folder."""
    root = tmp_path_factory.mktemp("recipes")
    (root / "src" / "app").mkdir(parents=True)
    (root / "src" / "app" / "main.py").write_text("print(1)\n")
    (root / "src" / "app" / "vendor.tgz").write_text("x\n")
    (root / ".gitignore").write_text("dist/\n")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        subprocess.run([*TEST_GIT, *args], cwd=root, check=True, capture_output=True)
    return root


@pytest.mark.parametrize(
    "command",
    ["rimraf packages/*/*.tsbuildinfo", "rm -rf ./packages/*/*.tgz", "rm -rf packages/*/lib/*.js"],
)
def test_a_deeper_glob_under_an_absent_folder_loses_nothing(project: Path, command: str) -> None:
    decision = decide_in(command, project, "posix")
    assert decision.allowed, (command, decision.rule_id, decision.reason)


# (`rimraf src/*/*.tgz` names files, deleted as `rm -f src/*/*.tgz` would: see test_guard_js_monorepo_scripts)
@pytest.mark.parametrize("command", ["rm -rf src/*/*.py", "rimraf src/*/vendor*", "rm -rf ./*/app/*"])
def test_a_deeper_glob_under_a_named_folder_keeps_what_is_there(project: Path, command: str) -> None:
    decision = decide_in(command, project, "posix")
    assert not decision.allowed, command
    assert decision.rule_id == "destructive.recursive-delete", (command, decision.rule_id)
