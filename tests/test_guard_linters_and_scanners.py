"""Linters, formatters and security scanners as CI jobs and Makefiles run them.

Code formatters told to rewrite what they are given (`clang-format -i`, `shfmt -w`, `gofmt -w`, `black`,
`ruff format`, `ruff check --fix`, `cmake-format -i`, `stylelint --fix`) write those files: a file outside
the project is written as `sed -i` writes it, while checking (`--check`, `--dry-run`, `-d`) only reads.
Semgrep without a config runs the registry's recommended rules, syft handed an image by tag pulls it,
`vale sync` downloads style packages and `reuse download` fetches license texts; the project's own rules,
folders and files stay local.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

OUTSIDE = "containment.write-outside-project"
REMOTE = "network.remote-service"
GIT_DIR = "containment.write-git-dir"
FETCH = "network.package-install"

BLOCKED = [
    ("posix", "clang-format -i /usr/local/include/foo.hpp", OUTSIDE),
    ("posix", "clang-format -style=file -i /opt/vendor/src/main.cc", OUTSIDE),
    ("posix", "shfmt -w -i 4 /etc/profile.d/tools.sh", OUTSIDE),
    ("posix", "gofmt -w /usr/local/go/src/fmt/print.go", OUTSIDE),
    ("posix", "black -l 100 /opt/service/app.py", OUTSIDE),
    ("posix", "ruff format /srv/app", OUTSIDE),
    ("posix", "ruff check --fix --select I /srv/app/pkg", OUTSIDE),
    ("posix", "cmake-format -i /opt/lib/CMakeLists.txt", OUTSIDE),
    ("posix", "stylelint --fix /var/www/site/main.css", OUTSIDE),
    ("posix", "semgrep scan --sarif --sarif-output=semgrep.sarif", REMOTE),
    ("posix", "semgrep scan --exclude tests --error src/", REMOTE),
    ("posix", "semgrep --json -o out.json .", REMOTE),
    ("posix", "syft nginx:1.25 -o spdx-json=sbom.json", FETCH),
    ("posix", "syft scan ghcr.io/acme/api:v2.1.0 -o cyclonedx-json", FETCH),
    ("posix", "syft quay.io/org/img@sha256:0123abcd -o table", FETCH),
    ("posix", "vale sync", FETCH),
    ("posix", "vale --config=docs/.vale.ini sync", FETCH),
    ("posix", "reuse download Apache-2.0", FETCH),
    ("posix", "reuse download --all", FETCH),
    ("posix", "find . -regex '.*\\.\\(sample\\|sh\\)' -exec shfmt -w {} +", GIT_DIR),
    ("posix", "find . -regex '.*\\.\\(c\\|lock\\)' -print0 | xargs -0 clang-format -i", GIT_DIR),
]

ALLOWED = [
    ("posix", "clang-format -i src/foo.hpp include/bar.h"),
    ("posix", "clang-format --dry-run --Werror /usr/local/include/foo.hpp"),
    ("posix", "clang-format -i $(git ls-files '*.cc' '*.h')"),
    ("posix", "shfmt -w -i 4 scripts/tools.sh"),
    ("posix", "shfmt -d -i 4 /etc/profile.d/tools.sh"),
    ("posix", "gofmt -w ./cmd ./internal"),
    ("posix", "gofmt -l /usr/local/go/src/fmt"),
    ("posix", "black -l 100 src tests"),
    ("posix", "black --check --diff /opt/service"),
    ("posix", "ruff format ."),
    ("posix", "ruff format --check /srv/app"),
    ("posix", "ruff check --fix --select I src"),
    ("posix", "ruff check /srv/app/pkg"),
    ("posix", "cmake-format -i CMakeLists.txt cmake/deps.cmake"),
    ("posix", "stylelint --fix 'src/**/*.scss' --cache-location .cache/stylelint"),
    ("posix", "stylelint /var/www/site/main.css"),
    ("posix", "semgrep scan --config .semgrep/ --sarif --sarif-output=semgrep.sarif"),
    ("posix", "semgrep --config=rules/python.yml --error src/"),
    ("posix", "semgrep -e 'os.system(...)' --lang python src"),
    ("posix", "semgrep test rules/"),
    ("posix", "semgrep --version"),
    ("posix", "syft dir:. -o spdx-json=sbom.json"),
    ("posix", "syft scan . -o cyclonedx-json"),
    ("posix", "syft file:dist/app.tar -o table"),
    ("posix", "vale --config=docs/.vale.ini docs/"),
    ("posix", "reuse lint"),
    ("posix", "reuse --root . download --help"),
    ("posix", "vale $(DOCS_DIR)"),
    ("posix", "find . -regex '.*\\.\\(sh\\|bash\\)' -exec shfmt -w {} +"),
    ("posix", "find . -regex '.*\\.\\(c\\|cc\\|h\\|hpp\\)' -print0 | xargs -0 clang-format -i"),
    ("posix", "find src -regextype posix-extended -regex '.*\\.(c|h)$' -exec sed -i 's/a/b/' {} +"),
    ("posix", "reuse annotate --license Apache-2.0 --copyright 'Acme' src/a.py"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_formatters_outside_and_scanners_that_fetch_block(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_formatters_in_the_project_and_local_scans_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
