"""Databases named by keyword connection strings and by a framework's named environment: a server at
another machine, or a production environment's migrations and seeds, are blocked; the same command at this
machine, a service's one-label name, a file, or the test environment stays allowed. Also Laravel's console
and Travis CI's `travis_wait`, whose command is judged."""

from __future__ import annotations

import pytest

from glmagent.guard import Policy

BLOCKED = [
    # keyword connection strings naming another machine's server (ADO.NET, ODBC, libpq)
    (
        'dotnet ef database update --connection "Server=tcp:shop.database.windows.net,1433;Database=Shop;"',
        "network.locator",
    ),
    (
        'dotnet ef database update --connection "Host=pg.internal.example.org;Database=app;Username=u"',
        "network.locator",
    ),
    (
        'dotnet ef dbcontext scaffold "Data Source=10.1.2.3;Initial Catalog=Crm;User Id=sa" '
        "Microsoft.EntityFrameworkCore.SqlServer",
        "network.locator",
    ),
    ('psql "host=reports.corp.example dbname=stats user=ro" -f q.sql', "network.locator"),
    ('psql "host=$REPORT_DB_HOST dbname=stats sslmode=require" -c "select 1"', "network.locator"),
    (
        "sqlpackage /Action:Publish /SourceFile:db.dacpac "
        '/TargetConnectionString:"Server=tcp:x.database.windows.net;Database=x;"',
        "network.locator",
    ),
    ('isql -v -k "Driver={ODBC Driver 18};Server=sql.example.net;Uid=u;Pwd=p"', "network.locator"),
    ("liquibase --url=jdbc:oracle:thin:@ora.corp.example:1521/ORCL update", "network.locator"),
    # a production environment's migrations, seeds and data loads
    ("RAILS_ENV=production bin/rake db:migrate", "network.remote-service"),
    ("RACK_ENV=production bundle exec rake db:seed", "network.remote-service"),
    ("bundle exec rails db:create RAILS_ENV=production", "network.remote-service"),
    ("MIX_ENV=prod mix ecto.create", "network.remote-service"),
    ("MIX_ENV=prod mix run priv/repo/seeds.exs", "network.remote-service"),
    ("python3 manage.py loaddata fixtures.json --database=production", "network.remote-service"),
    ("python manage.py migrate --database production", "network.remote-service"),
    ("django-admin migrate --settings=site.settings.production", "network.remote-service"),
    ("DJANGO_SETTINGS_MODULE=site.settings_production python manage.py migrate", "network.remote-service"),
    # Laravel's console reads the terminal
    ("php artisan tinker", "unverifiable.terminal-program"),
    ("php ./artisan tinker", "unverifiable.terminal-program"),
    # `travis_wait [MINUTES] CMD` runs CMD
    ("travis_wait 45 curl -fsSL https://example.com/x.sh -o x.sh", "network.http-client"),
    ("travis_wait rm -rf ~/.cache", "destructive.recursive-delete"),
]

ALLOWED = [
    'dotnet ef database update --connection "Server=localhost,1433;Database=Shop;User Id=sa;Password=x"',
    'dotnet ef database update --connection "Host=postgres;Database=app;Username=u;Password=p"',
    'dotnet ef dbcontext scaffold "Data Source=crm.db" Microsoft.EntityFrameworkCore.Sqlite',
    'dotnet ef database update --connection "Server=(localdb)\\mssqllocaldb;Database=Crm"',
    'psql "host=localhost dbname=stats user=ro" -f q.sql',
    'psql "host=/var/run/postgresql dbname=stats" -c "select 1"',
    'sqlpackage /Action:Publish /SourceFile:db.dacpac /TargetConnectionString:"Server=127.0.0.1;Database=x;"',
    'isql -v -k "Driver={ODBC Driver 18 for SQL Server};Server=mssql;Uid=sa;Pwd=p" < check.sql',
    "liquibase --url=jdbc:oracle:thin:@localhost:1521/XEPDB1 update",
    "flyway -url=jdbc:oracle:thin:app/pw@oracle:1521:FREE migrate",
    "RAILS_ENV=test bin/rake db:migrate",
    "RAILS_ENV=production bundle exec rake assets:precompile",
    "bundle exec rails db:migrate",
    "bin/rails db:migrate RAILS_ENV=$RAILS_ENV",
    "MIX_ENV=test mix ecto.create",
    "MIX_ENV=prod mix compile",
    "python3 manage.py loaddata fixtures.json --database=reporting",
    "python manage.py migrate --settings=site.settings.test",
    "./manage.py migrate --settings=$(DJANGO_SETTINGS_MODULE)",
    "DJANGO_SETTINGS_MODULE=site.settings.ci python -m pytest",
    "php artisan test",
    "php artisan make:model Tinker",
    "php artisan tinker --help",
    "travis_wait 45 make check",
    "travis_wait pytest -x tests",
]


@pytest.mark.parametrize(("command", "rule"), BLOCKED)
def test_blocked(command: str, rule: str) -> None:
    decision = Policy.default().check(command, "posix")
    assert decision.rule_id == rule, decision.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_allowed(command: str) -> None:
    decision = Policy.default().check(command, "posix")
    assert decision.allowed, decision.reason


def test_connection_string_on_powershell() -> None:
    policy = Policy.default()
    update = "dotnet ef database update --connection"
    blocked = policy.check(f'{update} "Data Source=sql.corp.example;Initial Catalog=app"', "powershell")
    assert blocked.rule_id == "network.locator", blocked.reason
    allowed = policy.check(f'{update} "Data Source=.;Initial Catalog=app"', "powershell")
    assert allowed.allowed, allowed.reason


@pytest.mark.parametrize(
    "command", ["rm -rf tmp/cache", "cp config/database.yml.ci config/database.yml", "ls -la log"]
)
def test_an_environment_selector_is_a_word_of_the_task_runners_only(command: str) -> None:
    """`RAILS_ENV=test` before any other program is that program's environment, not one of its words: the
    command is judged as written (`rm -rf tmp/cache` deletes build output, not also a file named so)."""
    policy = Policy.default()
    plain = policy.check(command, "posix")
    for selector in ("RAILS_ENV=test", "MIX_ENV=prod", "DJANGO_SETTINGS_MODULE=app.settings.production"):
        decision = policy.check(f"{selector} {command}", "posix")
        assert (decision.allowed, decision.rule_id) == (plain.allowed, plain.rule_id), (selector, decision)
        assert selector not in " ".join(decision.argv), decision.argv
