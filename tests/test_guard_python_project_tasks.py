"""Python projects' task lines (tox `commands`, nox sessions, Makefile and hatch/poe scripts) judged by class.

A clean step sweeps the wheels `python -m build` wrote (`find . -name '*.whl' -delete`) as it sweeps
`*.pyc`, and deletes a scratch folder named `tmp_*` or `tmp-*` (`rm -rf tmp_sphinx`) as it deletes `*_tmp`;
sources, paths outside the project and tracked work stay blocked. Installing the hooks'
environments (`pre-commit install-hooks`) and the package with its dependencies (`flit install`) are installs;
`pre-commit run` and `flit build` are not.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import TEST_GIT, decide_in, every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", "pre-commit install-hooks", "network.package-install"),
    ("posix", "prek install-hooks", "network.package-install"),
    ("posix", "flit install --symlink", "network.package-install"),
    ("posix", "python -m flit install --deps develop", "network.package-install"),
    ("posix", "find . -name '*.py' -exec rm -f {} +", "destructive"),
    ("posix", "find ~ -name '*.whl' -delete", "destructive"),
    ("posix", "find . -name '*.whl' -o -name '*.toml' -delete", "destructive"),
    ("posix", "rm -rf templates", "destructive"),
    ("posix", "rm -rf tmpl", "destructive"),
    ("posix", "rm -rf ~/tmp_build", "destructive"),
    ("posix", "rm -rf /srv/tmp-docs", "destructive"),
]

ALLOWED = [
    ("posix", "sphinx-build -b html docs docs/_build/html"),
    ("posix", "sphinx-build -b dirhtml -W --keep-going . _build/dirhtml"),
    ("posix", "python -m sphinx -b html docs _build/html"),
    ("posix", "pre-commit run --all-files --show-diff-on-failure"),
    ("posix", "pre-commit gc"),
    ("posix", "flit build --format wheel"),
    ("posix", "find . -name '*.whl' -exec rm -f {} +"),
    ("posix", "find . -name '*.whl' -delete"),
    ("posix", "find dist wheelhouse -name '*.whl' -type f -delete"),
    ("posix", "rm -rf tmp_sphinx"),
    ("posix", "rm -rf tmp-docs build dist *.egg-info"),
    ("posix", "rm -rf ./tmp_wheels/"),
]


def test_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_allowed() -> None:
    every_case(ALLOWED, guard_allows)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_scratch_folder_in_a_project(tmp_path: Path) -> None:
    """An ignored `tmp_*` folder holding nothing tracked goes; one holding tracked work stays."""
    root = tmp_path / "proj"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".gitignore").write_text("tmp_*/\n")
    (root / "tmp_fixtures").mkdir()
    (root / "tmp_fixtures" / "case.json").write_text("{}\n")
    subprocess.run([*TEST_GIT, "add", ".gitignore"], cwd=root, check=True)
    subprocess.run([*TEST_GIT, "add", "-f", "tmp_fixtures/case.json"], cwd=root, check=True)
    subprocess.run([*TEST_GIT, "commit", "-qm", "init"], cwd=root, check=True)
    (root / "tmp_sphinx").mkdir()
    (root / "tmp_sphinx" / "index.html").write_text("generated\n")
    assert decide_in("rm -rf tmp_sphinx", root).allowed
    assert not decide_in("rm -rf tmp_fixtures", root).allowed
