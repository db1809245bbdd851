"""Globs that name what a line writes or deletes are judged by the files they name.

A loop over a glob (`for f in dist/*.whl; do sha256sum $f > $f.sha256; done`) reads `$f` as the glob itself,
as if written in place: `$f.sha256` names what `dist/*.whl.sha256` names, and `cat $f` over `~/.ssh/*` reads
what that glob names. A glob write target (`> build/*.sha256`) or delete target (`rm -rf *.egg-info`) loses
what the files it names now would lose, and nothing when it names none; with the working directory unknown
(a fresh checkout) only a glob of build output is known to name nothing. Asking whether a path exists
(`test -d build`, `Test-Path dist`) changes nothing, so it does not make a later delete of it suspect. These
tests use a real git repository in a temporary folder.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import TEST_GIT, decide_in

if shutil.which("git") is None:
    pytest.skip("git is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Tracked sources, ignored build output (a file in `build/`, an egg-info tree, packages in `dist/`)."""
    root = tmp_path_factory.mktemp("globs")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("print('hi')\n")
    (root / "src" / "util.py").write_text("X = 1\n")
    (root / "README.md").write_text("# demo\n")
    (root / ".gitignore").write_text("build/\ndist/\n*.egg-info/\n")
    subprocess.run([*TEST_GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*TEST_GIT, "commit", "-qm", "init"], cwd=root, check=True)
    (root / "dist").mkdir()
    (root / "dist" / "pkg-1.0.tar.gz").write_text("archive\n")
    (root / "build").mkdir()
    (root / "build" / "pkg.sha256").write_text("abc  pkg\n")
    (root / "pkg.egg-info").mkdir()
    (root / "pkg.egg-info" / "PKG-INFO").write_text("Name: pkg\n")
    (root / "many").mkdir()
    for i in range(12):
        (root / "many" / f"part{i}.sha256").write_text("")
    return root


ALLOWED = [
    ("posix", 'for f in dist/*.tar.gz; do sha256sum "$f" > "$f.sha256"; done'),  # new files beside each
    ("posix", "for f in dist/*; do sha256sum $f > $f.sha256; done"),
    ("posix", "sha256sum dist/pkg-1.0.tar.gz > build/*.sha256"),  # names ignored output
    ("posix", "sha256sum README.md > out/*.sha256"),  # names nothing
    ("posix", "rm -rf *.egg-info"),  # ignored build output
    ("posix", "rm -rf build *.egg-info"),
    ("posix", "rm -rf perf.data*"),  # names nothing now
    ("posix", "test -d build && rm -rf build"),
    ("posix", "if [ -d dist ]; then rm -rf dist; fi"),
    ("powershell", "if (Test-Path dist) { Remove-Item dist -Recurse -Force }"),
    ("powershell", "if(Test-Path .\\build) { Remove-Item .\\build -Force -Recurse }"),
]

BLOCKED = [
    ("posix", 'for f in src/*.py; do echo x > "$f"; done'),  # tracked sources
    ("posix", "sha256sum README.md > src/*.py"),
    ("posix", "sha256sum README.md > *.md"),
    ("posix", "rm -rf *.md"),  # a tracked file, not build output
    ("posix", "rm -rf s*"),  # the sources
    ("posix", "rm -rf build/*/lib/../../src"),  # `..` past a glob lands where links lead
    ("posix", "for f in ../*; do echo > $f; done"),  # outside the project
    ("posix", "for f in ~/.ssh/*; do cat $f; done"),
    ("posix", "for f in /etc/*.conf; do cat $f; done"),
    ("posix", "test -d build && mv src build && rm -rf build"),  # the sources moved in first
    ("powershell", "if (Test-Path src) { Remove-Item src -Recurse -Force }"),
    ("posix", "echo x > many/*.sha256"),  # more files than are judged: every one is kept
]


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_globs_naming_nothing_to_lose_are_allowed(repo: Path, shell: str, command: str) -> None:
    decision = decide_in(command, repo, shell)
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_globs_naming_what_holds_work_are_blocked(repo: Path, shell: str, command: str) -> None:
    assert not decide_in(command, repo, shell).allowed, command


@pytest.mark.parametrize(
    "command",
    [
        'for f in dist/*.tar.gz; do sha256sum "$f" > "$f.sha256"; done',
        "rm -rf *.egg-info",
        "test -d build && rm -rf build",
    ],
)
def test_without_a_working_directory_globs_of_build_output_name_nothing(command: str) -> None:
    decision = decide_in(command, None)
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(
    "command",
    [
        "for f in src/*.py; do sha256sum $f > $f.sha256; done",  # a checkout holds sources a glob names
        "rm -rf perf.data*",
        "echo x > *.txt",
    ],
)
def test_without_a_working_directory_other_globs_name_the_checkout(command: str) -> None:
    assert not decide_in(command, None).allowed, command


@pytest.mark.parametrize(
    ("command", "allowed"),
    [
        ("find . -name '*.gcov' -and -not -name 'keep.gcov' -exec rm {} +", True),
        ("find . -name '*.pyc' ! -path './vendor/*' -delete", True),
        ("find . -not -name '*.pyc' -delete", False),  # the negation is the whole selection
        ("find . \\( -name '*.pyc' -o -not -name x \\) -delete", False),  # or-ed: everything but x
        ("find . -name '*.pyc' -delete -not -name x", False),  # the test after the action
    ],
)
def test_a_find_sweep_may_leave_files_out(command: str, allowed: bool) -> None:
    assert decide_in(command, None).allowed is allowed, command


@pytest.mark.parametrize(
    ("command", "allowed"),
    [
        ("find build -type f -empty -delete -print", True),  # inside build output: as much as rm -rf build
        ("find build dist -name '*.tmp' -delete", True),
        ("find node_modules/.cache -delete", True),
        ("find build src -delete", False),  # the sources too
        ("find -L build -delete", False),  # follows links out of the tree
        ("find build/../src -delete", False),
        ("mv src build; find build -delete", False),  # the sources moved in first
    ],
)
def test_a_find_that_deletes_inside_build_output_only_is_judged_as_deleting_it(
    command: str, allowed: bool
) -> None:
    assert decide_in(command, None).allowed is allowed, command


def test_a_find_in_an_output_folder_holding_tracked_files_is_blocked(repo: Path) -> None:
    # `many/` is not ignored and is not named as output; `build/` is ignored and tracks nothing.
    assert decide_in("find build -name '*.sha256' -delete", repo).allowed
    assert not decide_in("find many -name '*.sha256' -delete", repo).allowed


@pytest.mark.parametrize(
    ("command", "allowed"),
    [
        # a binding builtin's name as another command's word binds nothing: the loop is still followed
        ("for f in ~/.ssh/*; do cat $f; done; echo read", False),
        ("for f in new.a new.b; do echo x > $f; done; echo local", True),
        ("for f in new.a new.b; do echo x > $f; done; echo --read-only", True),
        # where a command starts it may set the loop's name: `$f` is unknown again
        ("for f in new.a new.b; do read f; echo x > $f; done", False),
        ("for f in new.a new.b; do echo x > $f; done; x=1 read y", False),
        ('for f in new.a new.b; do echo x > $f; done; echo "$(read y)"', False),
        ("for f in new.a new.b; do echo x > $f; done; if read y; then :; fi", False),
    ],
)
def test_a_loop_is_followed_unless_a_command_may_rebind_its_name(command: str, allowed: bool) -> None:
    assert decide_in(command, None).allowed is allowed, command
