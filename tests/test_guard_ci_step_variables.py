"""CI steps' own files and variables: what a step hands on, and a secret variable given back its own value.

- The files a runner gives a step for its outputs and summary (`$GITHUB_OUTPUT`, `$GITHUB_STEP_SUMMARY`) are
  the runner's, not the project's: emptying one with `>` loses only what the step wrote there, and cmd's
  `%GITHUB_OUTPUT%` is the same file as `$env:GITHUB_OUTPUT`. `$GITHUB_ENV`, `$GITHUB_PATH` and a path
  built on the output file stay unknown places. Written whole by a cmdlet (`Out-File -FilePath
  $env:GITHUB_STEP_SUMMARY`), the step file is spared as `>` into it is.
- Spack's `build-env SPEC -- CMD` runs CMD in the package's build environment: CMD is judged (`printenv`
  there dumps the environment as anywhere).
- The shell's history searched for a credential word (`history | grep -i pass`) is a credential hunt, as
  every process's command line searched so is; other searches of it stay fine.
- A variable set from only its own value or a literal default (`TOKEN="${TOKEN:-}"`, `export
  API_KEY="${API_KEY:-sk-test}"`) reads nothing out and prints nothing: the line is judged as setting the
  default. Copied into another variable, given a default that runs or reads something, or glued to more
  text, the value is still read.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    # Step files: only the output and summary files themselves.
    ("posix", "echo tag=$(git describe --tags) > $GITHUB_ENV", "unverifiable"),
    ("posix", 'echo "x" > "$GITHUB_PATH"', "unverifiable"),
    ("posix", "echo v=1 > $GITHUB_OUTPUT/../hooks/pre-commit", "unverifiable"),
    ("posix", "printf 'v=1' > ${GITHUB_OUTPUT}.bak", "unverifiable"),
    ("powershell", "echo CC=clang>> %GITHUB_ENV%", "containment.write-unknown-target"),
    ("powershell", "echo x>> %GITHUB_OUTPUT%\\..\\run.cmd", "containment.write-unknown-target"),
    ("powershell", "echo x>> %GITHUB_PATH%", "containment.write-unknown-target"),
    ("powershell", "$r | Out-File -FilePath $env:GITHUB_ENV -Encoding utf8", "destructive.truncating-write"),
    ("powershell", "$x | Out-File $env:GITHUB_OUTPUT\\..\\x.ps1", "destructive.truncating-write"),
    ("posix", "spack build-env zlib -- printenv", "env.print-environment"),
    ("posix", "spack build-env --dirty hdf5 -- env | sort > build.env", "env.print-environment"),
    ("posix", "spack build-env zlib -- rm -rf ~/.spack", "destructive"),
    ("posix", "history | grep -i password", "env.credential-dump"),
    ("posix", "history | grep -iE 'api_key|secret'", "env.credential-dump"),
    ("posix", "fc -l 1 | grep token", "env.credential-dump"),
    ("powershell", "Get-History | Select-String -Pattern 'token|pass'", "env.credential-dump"),
    # A secret variable's value copied, extended, or defaulted to something that runs.
    ("posix", 'DEPLOY_KEY="${NPM_TOKEN:-}"', "env"),
    ("posix", 'NPM_TOKEN="${NPM_TOKEN}:extra"', "env"),
    ("posix", 'export API_KEY="${API_KEY:-$(cat ~/.config/key)}"', "env"),
    ("posix", "export SECRET_KEY=${SECRET_KEY:-a}b", "env"),
    ("posix", 'SECRET_KEY="${SECRET_KEY:-x}"; echo "$SECRET_KEY"', "env.secret-variable"),
    ("posix", 'export GH_TOKEN="${GH_TOKEN:-placeholder}"', "env.credential-variable"),
    ("posix", 'export KRB5CCNAME="${KRB5CCNAME:-/tmp/krb5cc_0}"', "env.credential-variable"),
    ("posix", 'export BASH_ENV="${BASH_ENV:-/tmp/hook.sh}"', "unverifiable"),
]

ALLOWED = [
    ("posix", "echo version=$(git describe --tags --abbrev=0) > $GITHUB_OUTPUT"),
    ("posix", 'echo "matrix=$(jq -c . targets.json)" > "$GITHUB_OUTPUT"'),
    ("posix", 'echo "## Coverage" > "${GITHUB_STEP_SUMMARY}"'),
    ("posix", "cat report.md >$GITHUB_STEP_SUMMARY"),
    ("powershell", "echo version=%VERSION%>> %GITHUB_OUTPUT%"),
    ("powershell", "echo sha=%GITHUB_SHA%> %GITHUB_OUTPUT%"),
    ("powershell", "type summary.md >> %GITHUB_STEP_SUMMARY%"),
    ("powershell", '"version=$v" > $env:GITHUB_OUTPUT'),
    ("powershell", "$md | Out-File -FilePath $env:GITHUB_STEP_SUMMARY -Encoding utf8"),
    ("powershell", 'Set-Content -Path $env:GITHUB_OUTPUT -Value "version=$v"'),
    ("posix", "spack build-env zlib -- make -j4"),
    ("posix", "spack build-env hdf5 -- cmake --build build"),
    ("posix", "history | grep pytest"),
    ("posix", "fc -l 1 | tail -5"),
    ("powershell", "Get-History | Select-String -Pattern 'dotnet test'"),
    ("posix", "grep -n password docs/config.md"),
    ("posix", 'NPM_TOKEN="${NPM_TOKEN:-}"'),
    ("posix", "export PYPI_API_TOKEN=${PYPI_API_TOKEN-}"),
    ("posix", 'export ANTHROPIC_API_KEY="${ANTHROPIC_API_KEY:-sk-test}"'),
    ("posix", 'DB_PASSWORD="${DB_PASSWORD:-postgres}"'),
    ("posix", 'export SENTRY_AUTH_TOKEN="$SENTRY_AUTH_TOKEN"'),
    ("posix", "export STRIPE_SECRET=${STRIPE_SECRET}"),
    ("posix", 'readonly JWT_SECRET="${JWT_SECRET:-dev-secret}"'),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_other_ci_files_and_copied_secrets_are_blocked(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_step_outputs_and_self_defaulted_secrets_are_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
