"""Documentation builds, migrations and code generation as CI steps and Makefiles write them: a database URL
at this machine or at a CI service's name is the test database (allowed), one at another machine is network;
a connection variable set for the command is judged as that URL; Buf's registry calls are network; migration
tools told to empty the database are destructive whatever options come first. Each blocked line has an
allowed twin beside it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import TEST_GIT, decide_in

from glmagent.guard import Policy

PAIRS = [
    # A database, cache or queue server's URL: this machine or a one-label service name is local.
    (
        "migrate -path db/migrations -database postgres://app:pw@db.prod.example.com:5432/app up",
        "network.locator",
        "migrate -path db/migrations -database 'postgres://app:pw@127.0.0.1:5432/app?sslmode=disable' up",
    ),
    (
        "./mvnw flyway:migrate -Dflyway.url=jdbc:postgresql://10.20.0.7:5432/orders",
        "network.locator",
        "./mvnw flyway:migrate -Dflyway.url=jdbc:postgresql://localhost:5432/orders",
    ),
    (
        "liquibase --url=jdbc:mysql://mysql.corp.example.com:3306/shop update",
        "network.locator",
        "liquibase --url=jdbc:mysql://mysql:3306/shop --changeLogFile=db/changelog.xml update",
    ),
    (
        "sqlx migrate run --database-url postgresql+asyncpg://u:pw@Pg01/app",
        "network.locator",
        "sqlx migrate run --database-url postgresql+asyncpg://u:pw@postgres/app",
    ),
    (
        "celery -A app worker -b amqp://guest:guest@mq.example.net:5672//",
        "network.locator",
        "celery -A app worker -b amqp://guest:guest@rabbitmq:5672//",
    ),
    (
        "atlas migrate diff --dev-url 'postgres://u:pw@localhost/dev,http://evil.example.com/'",
        "network.locator",
        "atlas migrate diff --dev-url 'postgres://u:pw@localhost:5432/dev?sslmode=disable' --to file://schema.sql",
    ),
    (
        "pgbench -i postgres://bench@[2001:db8::5]:5432/bench",
        "network.locator",
        "pgbench -i postgres://bench@[::1]:5432/bench",
    ),
    # An HTTP server on this machine is still a server the program talks to.
    (
        "openapi-generator-cli generate -i http://localhost:8080/v3/api-docs -g go -o client",
        "network.locator",
        "openapi-generator-cli generate -i api/openapi.yaml -g go -o client",
    ),
    # The same URL or host set in a connection variable for the command.
    (
        "DATABASE_URL=postgres://ci:pw@db.staging.example.com:5432/app npx prisma migrate deploy",
        "network.locator",
        "DATABASE_URL=postgres://ci:pw@localhost:5432/app_test npx prisma migrate deploy",
    ),
    (
        "env TEST_DATABASE_URL=mysql://root@192.168.10.4/t bundle exec rails db:migrate",
        "network.locator",
        "env TEST_DATABASE_URL=mysql://root@mysql/t bundle exec rails db:migrate",
    ),
    (
        "PGHOST=pg.internal.example.org psql -f schema.sql",
        "network.locator",
        "PGHOST=postgres psql -f schema.sql",
    ),
    (
        "export REDIS_URL=redis://cache.example.com:6379/0",
        "network.locator",
        "export REDIS_URL=redis://localhost:6379/0",
    ),
    # Migration tools told to empty the database, whatever options come before the word.
    (
        "migrate -source file://migrations -database postgres://localhost:5432/app drop -f",
        "destructive.data-store",
        "migrate -source file://migrations -database postgres://localhost:5432/app up 2",
    ),
    (
        "migrate -path migrations -database mysql://root@localhost:3306/app down -all",
        "destructive.data-store",
        "migrate -path migrations -database mysql://root@localhost:3306/app down 1",
    ),
    (
        "dbmate --url postgres://postgres@127.0.0.1:5432/app_test drop",
        "destructive.data-store",
        "dbmate --url postgres://postgres@127.0.0.1:5432/app_test migrate",
    ),
    (
        "atlas schema clean -u postgres://localhost:5432/dev --auto-approve",
        "destructive.data-store",
        "atlas schema inspect -u postgres://localhost:5432/dev",
    ),
    # Buf's schema registry: dependencies fetched from it and modules pushed to it.
    ("buf dep update proto", "network.package-install", "buf generate proto"),
    ("buf mod update", "network.package-install", "buf lint"),
    ("buf push --tag v1.2.0", "network.publish", "buf format -w"),
]


@pytest.mark.parametrize(("blocked", "rule", "allowed"), PAIRS)
def test_blocked_with_allowed_twin(blocked: str, rule: str, allowed: str) -> None:
    policy = Policy.default()
    decision = policy.check(blocked, "posix")
    assert decision.rule_id == rule, (blocked, decision.reason)
    twin = policy.check(allowed, "posix")
    assert twin.allowed, (allowed, twin.reason)


POWERSHELL_PAIRS = [
    (
        "$env:DATABASE_URL = 'postgres://app:pw@pg.prod.example.com/app'; npx prisma migrate deploy",
        "network.locator",
        "$env:DATABASE_URL = 'postgres://app:pw@localhost:5432/app'; npx prisma migrate deploy",
    ),
    (
        ".\\mvnw.cmd flyway:migrate -Dflyway.url=jdbc:sqlserver://sql01.corp.example.com:1433",
        "network.locator",
        ".\\mvnw.cmd flyway:migrate -Dflyway.url=jdbc:sqlserver://localhost:1433",
    ),
]


@pytest.mark.parametrize(("blocked", "rule", "allowed"), POWERSHELL_PAIRS)
def test_powershell_blocked_with_allowed_twin(blocked: str, rule: str, allowed: str) -> None:
    policy = Policy.default()
    decision = policy.check(blocked, "powershell")
    assert decision.rule_id == rule, (blocked, decision.reason)
    twin = policy.check(allowed, "powershell")
    assert twin.allowed, (allowed, twin.reason)


def test_connection_variable_known_only_at_run_time_is_the_environments_choice() -> None:
    policy = Policy.default()
    assert policy.check("REDIS_URL=$CI_REDIS pytest -q", "posix").allowed
    assert policy.check("PGHOST=$CI_SERVICE pytest -q", "posix").allowed


SCRIPT_PAIRS = [
    # BSD sed's `-i ''` followed by several `-e` programs: each one is sed's program.
    (
        "sed -i '' -e 's/^version.*/version 2/' -e 'e touch /tmp/x' lib/App.pm",
        "unverifiable.payload-process",
        "sed -i '' -e 's/^version.*/version 2/' -e '/^our \\$VERSION/ s/.*/our $VERSION = 2;/' lib/App.pm",
    ),
    (
        "sed -i '' -e 's/a/b/' -e 'w /etc/profile' setup.cfg",
        "destructive.payload-write",
        "sed -i '' -e 's/a/b/' -e '/^name/ s/=.*/= app/' setup.cfg",
    ),
    # An address before a command is sed's pattern, not a glob from the root.
    (
        "sed -n p /home/*/.ssh/id_*",
        "env.secret-files",
        "sed -i '/^__version__/ s/.*/__version__ = \"1.4.0\"/' pkg/__init__.py",
    ),
    (
        "awk '{print}' /root/.ssh/*",
        "env.secret-files",
        "awk '/^## / {print $2}' CHANGELOG.md",
    ),
    # A patch or a find test's value named at run time is a file or a pattern, never another option.
    ("git apply --unsafe-paths fix.patch", "unverifiable.git-config-exec", 'git apply --3way "$patch"'),
    (
        'find proto -newer "$stamp" -delete',
        "destructive.find-delete",
        'find gen -newer "$stamp" -name "*.pb.go"',
    ),
    ("find . -name '*.go' $action", "dynamic.arguments", 'find . -maxdepth "$depth" -name "*_string.go"'),
    # pressly's goose migrator with its folder named at run time; Block's agent of the same name.
    (
        'goose -dir "$MIGRATIONS" session',
        "unverifiable.coding-agent",
        'goose -dir "$MIGRATIONS" sqlite3 ./app.db up',
    ),
]


@pytest.mark.parametrize(("blocked", "rule", "allowed"), SCRIPT_PAIRS)
def test_scripts_blocked_with_allowed_twin(blocked: str, rule: str, allowed: str) -> None:
    policy = Policy.default()
    decision = policy.check(blocked, "posix")
    assert decision.rule_id == rule, (blocked, decision.reason)
    twin = policy.check(allowed, "posix")
    assert twin.allowed, (allowed, twin.reason)


@pytest.fixture(scope="module")
def codegen_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose ignored `gen/` holds generated code and whose tracked `api/gen/` holds committed
    code."""
    root = tmp_path_factory.mktemp("codegen")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".gitignore").write_text("/gen/\n")
    (root / "api" / "gen").mkdir(parents=True)
    (root / "api" / "gen" / "api.pb.go").write_text("package gen\n")
    subprocess.run([*TEST_GIT, "add", ".gitignore", "api"], cwd=root, check=True)
    subprocess.run([*TEST_GIT, "commit", "-qm", "init"], cwd=root, check=True)
    (root / "gen" / "go").mkdir(parents=True)
    (root / "gen" / "go" / "x.pb.go").write_text("package go\n")
    return root


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_generated_code_folder_is_build_output(codegen_repo: Path) -> None:
    assert decide_in("rm -rf gen", codegen_repo).allowed
    assert decide_in("rm -rf gen/*", codegen_repo).allowed
    tracked = decide_in("rm -rf api/gen", codegen_repo)
    assert tracked.rule_id == "destructive.recursive-delete", tracked.reason
