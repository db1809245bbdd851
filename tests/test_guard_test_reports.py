"""Reports that test runners, coverage and benchmark tools write, named by their own options (`--outputFile`,
`--results-directory`, `--cov-report=xml:FILE`, `-coverprofile`, `lcov -o`): inside the project or the temp
folder they are generated output and fine; outside it (the home, a sibling folder) or into `.git` they are
writes the containment rule blocks. A value only known at run time is a CI script's own report folder."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

OUTSIDE = "containment.write-outside-project"

BLOCKED = [
    ("posix", "npx jest --ci --json --outputFile=~/results.json", OUTSIDE),
    ("posix", "vitest run --reporter=junit --outputFile ../junit.xml", OUTSIDE),
    ("posix", "npx jest --coverage --coverageDirectory=../coverage", OUTSIDE),
    ("posix", "nyc report --reporter=lcov --report-dir ~/coverage", OUTSIDE),
    ("posix", "c8 --reports-dir=../c8-out node --test", OUTSIDE),
    ("posix", "dotnet test --logger trx --results-directory ~/TestResults", OUTSIDE),
    ("posix", "cargo llvm-cov --lcov --output-path ../lcov.info", OUTSIDE),
    ("posix", "pytest --benchmark-json=~/bench.json", OUTSIDE),
    ("posix", "pytest --cov=app --cov-report=xml:../coverage.xml", OUTSIDE),
    ("posix", "pytest --cov=app --cov-report html:$HOME/htmlcov", OUTSIDE),
    ("posix", "gotestsum --junitfile ~/unit.xml -- ./...", OUTSIDE),
    ("posix", "go test -coverprofile=../cover.out ./...", OUTSIDE),
    ("posix", "go test -bench . -cpuprofile ~/cpu.prof", OUTSIDE),
    ("posix", "phpunit --log-junit ../junit.xml --coverage-clover ../clover.xml", OUTSIDE),
    ("posix", "ctest --output-junit ~/ctest.xml", OUTSIDE),
    ("posix", "hyperfine --export-json ../bench.json 'make -s'", OUTSIDE),
    ("posix", "lcov --capture --directory . -o ../coverage.info", OUTSIDE),
    ("posix", "genhtml coverage.info -o ~/public_html/cov", OUTSIDE),
    ("posix", "gcovr -r . --xml -o ../coverage.xml", OUTSIDE),
    ("posix", "grcov . -t lcov -o ~/lcov.info", OUTSIDE),
    ("posix", "llvm-profdata merge -sparse default.profraw -o ../default.profdata", OUTSIDE),
    ("posix", "llvm-cov show ./app -instr-profile=d.profdata -format=html -output-dir=../cov", OUTSIDE),
    ("posix", "reportgenerator -reports:coverage.xml -targetdir:../coverage-report", OUTSIDE),
    ("posix", "flutter test --coverage --coverage-path=../lcov.info", OUTSIDE),
    ("posix", "lcov -c -d . -o .git/coverage.info", "containment"),
    ("powershell", "dotnet test --results-directory $env:USERPROFILE\\TestResults", OUTSIDE),
    ("powershell", "npx vitest run --reporter=junit --outputFile=..\\junit.xml", OUTSIDE),
]

ALLOWED = [
    ("posix", "npx jest --ci --json --outputFile=reports/results.json"),
    ("posix", "vitest run --reporter=junit --outputFile junit.xml"),
    ("posix", "npx jest --coverage --coverageDirectory=coverage/unit"),
    ("posix", "nyc report --reporter=lcov --report-dir coverage"),
    ("posix", "c8 --reports-dir=c8-out node --test"),
    ("posix", "dotnet test --logger trx --results-directory TestResults"),
    ("posix", "cargo llvm-cov --lcov --output-path lcov.info"),
    ("posix", "pytest --benchmark-json=bench.json"),
    ("posix", "pytest --cov=app --cov-report=xml:coverage.xml"),
    ("posix", "pytest --cov=app --cov-report term-missing"),
    ("posix", "pytest --cov=app --cov-report html:htmlcov"),
    ("posix", "gotestsum --junitfile unit.xml -- ./..."),
    ("posix", "go test -coverprofile=cover.out ./..."),
    ("posix", 'go test -coverprofile="$COVER_FILE" ./...'),  # a CI script's own report, named at run time
    ("posix", "gotestsum --junitfile $(ARTIFACTS)/junit.xml -- ./..."),
    ("posix", "go test -bench . -cpuprofile cpu.prof"),
    ("posix", "go test -coverprofile=/tmp/cover.out ./..."),  # the temp folder is scratch space
    ("posix", "phpunit --log-junit build/junit.xml --coverage-clover build/clover.xml"),
    ("posix", "ctest --output-junit ctest.xml"),
    ("posix", "hyperfine --export-json bench.json 'make -s'"),
    ("posix", "lcov --capture --directory . -o coverage.info"),
    ("posix", 'lcov -r coverage.info "*/test/*" -o "$OUT/filtered.info"'),
    ("posix", "genhtml coverage.info -o coverage/html"),
    ("posix", "gcovr -r . --xml -o coverage.xml"),
    ("posix", "grcov . -t lcov -o lcov.info"),
    ("posix", "llvm-profdata merge -sparse default.profraw -o default.profdata"),
    ("posix", "llvm-cov show ./app -instr-profile=d.profdata -format=html -output-dir=cov"),
    ("posix", "reportgenerator -reports:coverage.xml -targetdir:coverage-report"),
    ("posix", "flutter test --coverage --coverage-path=coverage/lcov.info"),
    ("powershell", "dotnet test --results-directory .\\TestResults"),
    ("powershell", "npx vitest run --reporter=junit --outputFile=reports\\junit.xml"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_reports_written_outside_the_project_are_blocked(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_reports_written_inside_the_project_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
