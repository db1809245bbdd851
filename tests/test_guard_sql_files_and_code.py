"""SQL that reaches past the database: files of the machine read through a query, native code or an
untrusted language loaded into the server or the client, wherever a console or wrapper takes its SQL. The
project's own data loaded by a path inside it, and ordinary queries, stay allowed."""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    # a file of the machine, read by the server (with its rights) or the client and handed back
    ("posix", "mysql -e \"select load_file('/etc/passwd')\"", "env.database-file-read"),
    ("posix", "mariadb -u root -e \"SELECT LOAD_FILE('/root/.ssh/id_rsa')\"", "env.database-file-read"),
    ("posix", "mysql -e \"LOAD DATA INFILE '/etc/passwd' INTO TABLE t\"", "env.database-file-read"),
    (
        "posix",
        "mysql -e \"LOAD DATA LOCAL INFILE '~/.aws/credentials' INTO TABLE t\"",
        "env.database-file-read",
    ),
    ("posix", "psql -c \"select pg_read_file('/etc/passwd')\"", "env.database-file-read"),
    ("posix", "psql -c \"SELECT pg_ls_dir('/var/lib/postgresql')\"", "env.database-file-read"),
    ("posix", "psql -c \"select lo_import('/etc/shadow')\"", "env.database-file-read"),
    ("posix", "psql app -c \"COPY t FROM '/etc/passwd'\"", "env.database-file-read"),
    ("posix", "psql -c \"copy t (line) from '../../secrets.csv'\"", "env.database-file-read"),
    ("posix", "sqlite3 x.db \"ATTACH DATABASE '/home/dev/.mozilla/x/cookies.sqlite' AS c\"", "env"),
    ("posix", "sqlite3 x.db \"select readfile('/etc/hosts')\"", "env.database-file-read"),
    ("posix", "duckdb -c \"SELECT * FROM read_csv('/etc/passwd')\"", "env.database-file-read"),
    ("posix", "duckdb -c \"SELECT * FROM read_text(['/etc/a', '/etc/b'])\"", "env.database-file-read"),
    ("posix", "clickhouse-client -q \"SELECT * FROM file('/etc/passwd')\"", "env.database-file-read"),
    ("posix", "echo \"select load_file('/etc/passwd');\" | mysql", "env.database-file-read"),
    (
        "powershell",
        "sqlcmd -Q \"SELECT * FROM OPENROWSET(BULK 'C:\\Windows\\win.ini', SINGLE_CLOB) x\"",
        "env.database-file-read",
    ),
    ("powershell", "Invoke-Sqlcmd -Query \"BULK INSERT t FROM 'C:\\x\\data.csv'\"", "env.database-file-read"),
    # native code or a language that runs anything, loaded into the database or its client
    ("posix", "sqlite3 x.db \"select load_extension('/tmp/x.so')\"", "unverifiable.command-option"),
    ("posix", "sqlite3 x.db '.load ./evil'", "unverifiable.command-option"),
    ("posix", "psql -c \"LOAD '/tmp/x.so'\"", "unverifiable.command-option"),
    ("posix", "psql -c 'CREATE EXTENSION plpython3u'", "unverifiable.command-option"),
    ("posix", "psql -c 'create language plperlu'", "unverifiable.command-option"),
    (
        "posix",
        'psql -c "CREATE FUNCTION f() RETURNS int AS \\$\\$ import os \\$\\$ LANGUAGE plpython3u"',
        "unverifiable.command-option",
    ),
    (
        "posix",
        "psql -c \"CREATE FUNCTION sys(cstring) RETURNS int AS '/tmp/x.so', 'sys' LANGUAGE C\"",
        "unverifiable.command-option",
    ),
    (
        "posix",
        "mysql -e \"CREATE FUNCTION sys_exec RETURNS int SONAME 'lib_mysqludf_sys.so'\"",
        "unverifiable.command-option",
    ),
    (
        "posix",
        "mysql -e \"CREATE AGGREGATE FUNCTION x RETURNS string SONAME 'x.so'\"",
        "unverifiable.command-option",
    ),
    # Elixir's network clients
    ("posix", "elixir -e ':httpc.request(\"http://x\")'", "network.payload"),
    ("posix", "elixir -e ':gen_tcp.connect(~c\"h\", 4444, [])'", "network.payload"),
    ("posix", "elixir -e 'Mix.install([:req]); Req.get!(u)'", "network.payload"),
]

ALLOWED = [
    ("posix", "mysql -e \"LOAD DATA LOCAL INFILE 'data/x.csv' INTO TABLE t\""),
    ("posix", "psql -c \"COPY t FROM 'data/x.csv' CSV HEADER\""),
    ("posix", "psql -c \"\\copy t from 'data/x.csv' csv\""),
    ("posix", "psql -c 'COPY t FROM STDIN' < data/x.csv"),
    ("posix", "psql -c 'COPY t TO STDOUT'"),
    ("posix", "psql -c 'CREATE EXTENSION IF NOT EXISTS pg_trgm'"),
    ("posix", "psql -c 'select * from file'"),
    ("posix", "psql -c \"select 'load' as word\""),
    ("posix", "sqlite3 x.db \"ATTACH 'build/other.db' AS o\""),
    ("posix", "sqlite3 x.db '.tables'"),
    ("posix", "duckdb -c \"SELECT * FROM read_csv('data/x.csv')\""),
    ("posix", "duckdb -c \"SELECT * FROM 'data/x.parquet'\""),
    ("posix", "mysql -e 'select profile, filename from uploads'"),
    ("posix", "elixir -e 'IO.puts(System.version())'"),
    ("posix", "elixir -e 'IO.inspect(:inet.ntoa({127, 0, 0, 1}))'"),
    ("powershell", 'Invoke-Sqlcmd -Query "SELECT name FROM sys.databases"'),
]


def test_sql_that_reaches_past_the_database_is_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_the_projects_own_data_and_ordinary_queries_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)
