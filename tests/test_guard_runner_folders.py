"""Build and test runners run the code of the folder or build file they are given, or of the working
directory: `make -C DIR`, `npm --prefix DIR test`, `pytest DIR`, `Invoke-Pester DIR`, and `cd DIR && make`,
with DIR outside the project, run code nobody reviewed for this task, as `bash DIR/x.sh` does."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import decide_in

from glmagent.guard._runners import RUNNERS, run_places
from glmagent.guard._syntax import Arg

OUTSIDE = [
    ("posix", "make -C /tmp/x"),
    ("posix", "make --directory=../other test"),
    ("posix", "make -C~/src/other"),
    ("posix", "pytest /tmp/tests"),
    ("posix", "python -m pytest /tmp/tests -q"),
    ("posix", "pytest ../other/tests/test_x.py::test_a"),
    ("posix", "pytest -c /tmp/pytest.ini"),
    ("posix", "npm test --prefix /tmp/x"),
    ("posix", "npm --prefix ../other run build"),
    ("posix", "yarn --cwd /tmp/x test"),
    ("posix", "pnpm -C /tmp/x test"),
    ("posix", "cargo test --manifest-path /tmp/x/Cargo.toml"),
    ("posix", "go -C /tmp/x build ./..."),
    ("posix", "gradle -p /tmp/x build"),
    ("posix", "mvn -f /tmp/x/pom.xml test"),
    ("posix", "rake -f /tmp/Rakefile"),
    ("posix", "just --justfile /tmp/justfile test"),
    ("posix", "tox -c /tmp/x"),
    ("posix", "mocha /tmp/test"),
    ("posix", "pytest --lf /tmp/tests"),  # (a flag that takes no value)
    ("posix", "pytest -x --ff --no-header ../other/tests"),
    ("posix", "R CMD check /tmp/pkg_1.0.tar.gz"),
    ("posix", "R CMD BATCH /tmp/x.R"),  # runs the script as `R -f /tmp/x.R` does
    # with no folder named: the working directory a `cd` took the line to
    ("posix", "cd /tmp && make"),
    ("posix", "cd /tmp/x && npm test"),
    ("posix", "cd ~/other && cargo test"),
    ("posix", "cd /tmp && pytest tests/"),
    ("posix", "cd /tmp && just"),
    ("posix", "cd /tmp && R CMD build ."),
    ("powershell", "Invoke-Pester C:\\other"),
    ("powershell", "Invoke-Pester -Path C:\\other\\tests"),
    ("powershell", "cd C:\\other; Invoke-Pester"),
    ("powershell", "npm test --prefix C:\\x"),
    ("powershell", "Invoke-Pester -CI C:\\other"),
    ("powershell", "Invoke-Pester -PassThru C:\\other\\tests"),
]

INSIDE = [
    ("posix", "make"),
    ("posix", "make -C build"),
    ("posix", "make -C docs html"),
    ("posix", "pytest -q"),
    ("posix", "pytest tests/test_x.py::test_a -x"),
    ("posix", "pytest --junitxml /tmp/report.xml tests"),  # an option's value, not a test path
    ("posix", "npm --prefix packages/app test"),
    ("posix", "cargo test --manifest-path crates/a/Cargo.toml"),
    ("posix", "mocha test/"),
    ("posix", "just test"),
    ("posix", "R CMD build ."),
    ("posix", "R CMD check --no-manual pkg_1.0.tar.gz"),
    ("posix", "R CMD BATCH --vanilla scripts/report.R"),
    # (a value attached with a colon, .NET's way: the next word is an option again)
    ("posix", 'dotnet test -c Release --collect:"XPlat Code Coverage" --results-directory /tmp/coverage'),
    ("posix", "dotnet test -- --treenode-filter '/*/*/ReactiveCommandTest/*'"),  # the test program's
    ("posix", "cd build && make"),
    ("posix", "cd docs && make html"),
    ("posix", 'cd "$BUILD_DIR" && make'),  # a folder only known at run time: the sandbox's
    ("posix", "cd /tmp && npm --version"),  # asks, runs nothing
    ("posix", "cd /tmp && go version"),
    ("posix", "cd /tmp && cargo --version"),
    ("powershell", "Invoke-Pester ./tests"),
    ("powershell", "Invoke-Pester"),
    ("powershell", "Invoke-Pester -Path ./tests -Output Detailed"),
    # a folder named by a variable is only known at run time (the sandbox's), and a parameter's value is
    # no test path
    ("powershell", 'Invoke-Pester -Path $ProjectRoot\\Tests -PassThru -OutputFile "$ProjectRoot\\$TestFile"'),
    ("powershell", 'Invoke-Pester -PassThru -OutputFile "$BuildRoot\\TestResult.xml" -OutputFormat NUnitXml'),
    ("powershell", "Invoke-Pester -Script $PSScriptRoot\\Tests -Verbose -PassThru"),
    ("powershell", "Invoke-Pester ./tests C:\\x"),  # (the second position is a test's name)
    ("powershell", "Invoke-Pester -CI ./tests"),
    ("posix", "pytest --lf --basetemp /tmp/pt tests"),
]


@pytest.mark.parametrize(("shell", "command"), OUTSIDE)
def test_a_runner_given_a_folder_outside_the_project_is_blocked(shell: str, command: str) -> None:
    decision = decide_in(command, None, shell)
    assert decision.rule_id == "unverifiable.outside-program", f"{decision.rule_id}: {decision.reason}"


@pytest.mark.parametrize(("shell", "command"), INSIDE)
def test_a_runner_of_the_project_itself_stays_allowed(shell: str, command: str) -> None:
    decision = decide_in(command, None, shell)
    assert decision.allowed, f"{decision.rule_id}: {decision.reason}"


def test_inside_a_known_project_its_absolute_paths_are_its_own(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    assert decide_in(f"pytest {tmp_path}/tests", tmp_path).allowed
    assert decide_in(f"make -C {tmp_path}", tmp_path).allowed
    assert not decide_in(f"make -C {tmp_path.parent}", tmp_path).allowed


def test_the_block_names_the_place_run() -> None:
    reason = decide_in("cd /tmp/x && npm test", None).reason
    assert "`npm test` runs the code of `/tmp/x`" in reason


@pytest.mark.parametrize(
    ("name", "words", "places"),
    [
        ("make", ["-C", "/x", "-f", "../M"], ["/x", "../M"]),
        ("make", ["-C/x"], ["/x"]),
        ("make", ["--directory=/x"], ["/x"]),
        ("make", ["all"], []),
        ("pytest", ["/x/t.py::test_a", "tests"], ["/x/t.py::test_a"]),
        ("pytest", ["--basetemp", "/x", "tests"], []),
        ("npm", ["--version"], None),
        ("npm", ["view", "x"], None),
        ("cargo", ["fmt", "--manifest-path", "/x/Cargo.toml"], None),
        ("git", ["status"], None),
    ],
)
def test_the_places_a_runner_runs(name: str, words: list[str], places: list[str] | None) -> None:
    found = run_places(name, [Arg(w, w) for w in words])
    assert (None if found is None else [a.text for a in found]) == places


def test_every_runner_is_known_by_its_lower_case_name() -> None:
    assert all(name == name.lower() for name in RUNNERS)
    assert all(o == o.lower() for runner in RUNNERS.values() for o in (*runner.options, *runner.flags))
