"""Dependency auditors and scanners that reach an advisory service, and their offline twins.

pip-audit, safety, cargo audit, cargo deny's advisories check, govulncheck, nancy, osv-scanner, bundler-audit
updating its database, `dotnet list package --vulnerable`, `composer audit`, retire.js and OWASP's
dependency-check ask a service or download its database on every run, as `trivy fs .` and `grype dir:.` do
(network by design). ggshield sends what it finds to GitGuardian. Each has a way to read only what is here
(`cargo audit --no-fetch`, `osv-scanner --offline`, `govulncheck -db=file://…`, `bundle-audit check`), and
cargo deny's other checks need no advisories. A tunnel tool under its release-asset name
(`ligolo_windows_amd64.exe`) is the tool.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "pip-audit -r src/requirements.txt", "network.package-install"),
    ("posix", "pip-audit --strict --desc -r requirements.txt", "network.package-install"),
    ("posix", "poetry run safety check --full-report", "network.package-install"),
    ("posix", "safety check --full-report | cat", "network.package-install"),
    ("posix", "cargo audit", "network.package-install"),
    ("posix", "time cargo audit --ignore RUSTSEC-2021-0119", "network.package-install"),
    ("posix", "cargo deny check", "network.package-install"),
    ("posix", "cargo deny check advisories bans", "network.package-install"),
    ("posix", "cargo deny --all-features check", "network.package-install"),
    ("posix", "govulncheck ./...", "network.package-install"),
    ("posix", "govulncheck -mode binary -show verbose bin/app", "network.package-install"),
    ("posix", "go list -json -deps ./... | nancy sleuth --loud", "network.package-install"),
    ("posix", "osv-scanner --config=./osv-scanner.toml --recursive .", "network.package-install"),
    ("posix", "bundle-audit check --update", "network.package-install"),
    ("posix", "bin/bundler-audit --update", "network.package-install"),
    ("posix", "dotnet list package --vulnerable --include-transitive", "network.package-install"),
    ("powershell", "dotnet list package --deprecated", "network.package-install"),
    ("posix", "composer audit", "network.package-install"),
    ("posix", "retire --path src", "network.package-install"),
    ("posix", "mvn org.owasp:dependency-check-maven:check", "network.package-install"),
    ("posix", "./gradlew dependencyCheckAnalyze", "network.package-install"),
    ("posix", "ggshield secret scan repo .", "network.package-install"),
    ("powershell", "ligolo_windows_amd64.exe -relayserver LOCALRELAYSERVER:5555", "network.socket"),
]

ALLOWED = [
    ("posix", "pip-audit --help"),
    ("posix", "safety --version"),
    ("posix", "cargo audit --no-fetch"),
    ("posix", "cargo deny check bans licenses"),
    ("posix", "cargo deny check --disable-fetch"),
    ("posix", "govulncheck -db=file:///work/vulndb ./..."),
    ("posix", "osv-scanner --offline --recursive ."),
    ("posix", "bundle-audit check"),
    ("posix", "dotnet list package"),
    ("posix", "bandit -r src"),
    ("posix", "grep -rn pip-audit docs"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_an_auditor_that_asks_an_advisory_service_blocks(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_same_auditors_reading_only_what_is_here_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
