"""Ruby's, PHP's, Elixir's, Perl's and Lua's own tools, as their Rakefiles, composer scripts, mix aliases,
bin/setup scripts and CI steps run them.

Each ecosystem's web server started by its framework's command is a server (`rails s`, `mix phx.server`,
`php artisan serve`, `symfony serve`); its other installers and version managers install (`cpm install`,
`perlbrew install-cpanm`, `pie install`, `bin/importmap pin`); its coverage uploaders send the report away
(`luacov-coveralls`, `cover -report coveralls`); the gem-release plugin publishes (`gem release`); and the
frameworks' encrypted secret stores printed in the clear are credential reads (`rails credentials:show`,
`php artisan env:decrypt`); the Symfony CLI runs the project's console, PHP and Composer (`symfony console
doctrine:database:drop` drops the database); and removing what LuaRocks or perlbrew installed changes the
machine (`luarocks remove`). The same tools' tests, builds, routes, reports and version checks stay allowed,
and so do their clean steps: the build and install output they write (Bundler's gem `pkg`, MakeMaker's
`blib`, Devel::Cover's `cover_db`, Mix's `deps`, Composer's `vendor`, LuaRocks' `lua_modules`) is deleted
like `build` when git ignores it and tracks nothing in it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import TEST_GIT, decide_in, guard_allows, guard_blocks

SERVER = "network.local-server"
INSTALL = "network.package-install"
REMOTE = "network.remote-service"
PUBLISH = "network.publish"
SECRETS = "env.credential-store"
DATA = "destructive.data-store"
MACHINE = "destructive.machine-state"

# Each blocked line with an allowed twin of the same tool beside it.
PAIRS = [
    # web frameworks' servers
    ("bin/rails server -b 0.0.0.0", SERVER, "bin/rails test:system"),
    ("bundle exec rails s -p 3001", SERVER, "bundle exec rails routes"),
    ("bundle exec puma -C config/puma.rb", SERVER, "bundle exec puma --version"),
    ("rackup -p 9292 config.ru", SERVER, "bundle exec rake -T"),
    ("bundle exec thin start -p 4000", SERVER, "thin --help"),
    ("hanami server --port 2300", SERVER, "hanami db migrate"),
    ("bundle exec middleman server", SERVER, "bundle exec middleman build --verbose"),
    ("nanoc live", SERVER, "nanoc compile"),
    ("MIX_ENV=dev mix phx.server", SERVER, "mix phx.routes"),
    ("php artisan serve --host=0.0.0.0 --port=8080", SERVER, "php artisan route:list"),
    ("php artisan octane:start --watch", SERVER, "php artisan octane:status"),
    ("php bin/console server:run 127.0.0.1:8001", SERVER, "php bin/console debug:router"),
    ("symfony server:start --no-tls -d", SERVER, "symfony check:requirements"),
    ("wp server --host=0.0.0.0", SERVER, "wp core version"),
    ("lapis server development", SERVER, "lapis migrate"),
    ("drush runserver 127.0.0.1:8888", SERVER, "drush cache:rebuild"),
    # installers, version managers and index queries
    ("cpm install -g --cpanfile cpanfile", INSTALL, "cpm --version"),
    ("perlbrew install perl-5.40.0", INSTALL, "perlbrew list"),
    ("perlbrew install-cpanm", INSTALL, "perlbrew use perl-5.40.0"),
    ("plenv install-cpanm", INSTALL, "plenv versions"),
    ("cpan-outdated --exclude-core -p", INSTALL, "cpanfile-dump --requires"),
    ("ruby-build 3.3.6 ./rubies/3.3.6", INSTALL, "ruby-build --definitions"),
    ("ruby-install --no-reinstall ruby 3.4", INSTALL, "ruby --version"),
    ("pie install phpredis/phpredis", INSTALL, "pie --help"),
    ("phpbrew install 8.3 +default", INSTALL, "phpbrew list"),
    ("mix escript.install github elixir-lsp/elixir-ls", INSTALL, "mix escript.build"),
    ("mix local.phx --force", INSTALL, "mix local"),
    ("gem outdated", INSTALL, "gem list --local"),
    ("bin/importmap pin lodash --download", INSTALL, "bin/importmap json"),
    ("./bin/importmap outdated", INSTALL, "bin/importmap packages"),
    # coverage uploaders
    ("luacov-coveralls --exclude spec", REMOTE, "luacov"),
    ("cover -report coveralls", REMOTE, "cover -report html_basic"),
    ("carton exec -- cover -test -report codecov", REMOTE, "carton exec -- cover -test"),
    ("dzil cover -test -report coveralls", REMOTE, "dzil cover"),
    (
        "vendor/bin/ocular code-coverage:upload --format=php-clover build/clover.xml",
        REMOTE,
        "vendor/bin/phpcov merge --clover build/clover.xml build/cov",
    ),
    # publishing through the gem-release plugin
    ("gem release mygem.gemspec --tag", PUBLISH, "gem build mygem.gemspec"),
    ("gem bump --version minor --push", PUBLISH, "gem bump --version minor"),
    ("gem tag --push", PUBLISH, "gem tag"),
    # frameworks' secret stores in the clear
    ("bin/rails credentials:show", SECRETS, "bin/rails credentials:help"),
    ("EDITOR=nano rails credentials:edit --environment production", SECRETS, "rails db:migrate:status"),
    ("bundle exec rails encrypted:show config/api.yml.enc", SECRETS, "bundle exec rails zeitwerk:check"),
    ("php artisan env:decrypt --force", SECRETS, "php artisan env:encrypt"),
    ("php bin/console secrets:reveal STRIPE_KEY", SECRETS, "php bin/console secrets:list"),
    ("bin/console secrets:list --reveal", SECRETS, "bin/console secrets:set --random APP_SECRET"),
    # the Symfony CLI runs the project's console, PHP and Composer
    ("symfony console doctrine:database:drop --force", DATA, "symfony console doctrine:database:create"),
    ("symfony php bin/console doctrine:schema:drop --force", DATA, "symfony php bin/phpunit --testdox"),
    ("bin/console doctrine:schema:drop --force", DATA, "bin/console doctrine:schema:validate"),
    ("symfony composer require symfony/mailer", INSTALL, "symfony composer dump-autoload -o"),
    ("symfony new shop --webapp", INSTALL, "symfony console make:controller"),
    ("symfony check:security", INSTALL, "symfony check:requirements"),
    # removing what a language's package or version manager installed
    ("luarocks remove lpeg --force", MACHINE, "luarocks list"),
    ("luarocks purge --tree=/usr/local", MACHINE, "luarocks show busted"),
    ("perlbrew uninstall perl-5.38.0", MACHINE, "perlbrew info"),
    ("pm-uninstall Moose", MACHINE, "perldoc -l Moose"),
    # rolling back every migration, and installs and services of the same ecosystems
    ("MIX_ENV=test mix ecto.rollback --all", DATA, "mix ecto.rollback --step 1"),
    (
        "php bin/console doctrine:migrations:migrate first --no-interaction",
        DATA,
        "php bin/console doctrine:migrations:migrate -n",
    ),
    ("mix deps.audit", INSTALL, "mix deps.unlock --check-unused"),
    ("bundle exec appraisal install", INSTALL, "bundle exec appraisal rails-7 rspec"),
    ("bundle exec rbs collection update", INSTALL, "bundle exec rbs validate"),
    ("bundle exec danger --fail-on-errors=true", REMOTE, "bundle exec danger dry_run"),
    ("yarn danger ci", REMOTE, "yarn danger --version"),
    ("mix hex.user auth", INSTALL, "mix hex.build"),
    ("mix hex.organization auth acme --key $HEX_KEY", INSTALL, "mix hex.docs offline"),
    ("composer diagnose", INSTALL, "composer validate --strict"),
    ("perl -MCPAN -e 'install Moose'", INSTALL, "perl -MCPAN::Meta -e 'print CPAN::Meta->VERSION'"),
    ("luajit -e 'os.execute(\"id\")'", "unverifiable.payload-process", "luajit -bl src/parser.lua"),
    ("vendor/bin/psalm --shepherd --threads=4", REMOTE, "vendor/bin/psalm --output-format=github"),
    ("vendor/bin/security-checker security:check", REMOTE, "composer validate --no-check-publish"),
    ("phive install --trust-gpg-keys CF1A108D0E7AE720 phpstan", INSTALL, "phive list"),
    ("php artisan breeze:install blade --dark", INSTALL, "php artisan make:component Alert"),
    ("php artisan install:api", INSTALL, "php artisan route:cache"),
    # Elixir code given inline that reads the environment
    ("elixir -e 'IO.inspect System.get_env()'", "env.payload", "elixir -e 'IO.puts System.version()'"),
    ("elixir --eval 'IO.puts System.fetch_env!(\"SECRET_KEY_BASE\")'", "env.payload", "elixir --version"),
]


@pytest.mark.parametrize(("command", "expected", "twin"), PAIRS)
def test_ecosystem_tool_is_blocked(command: str, expected: str, twin: str) -> None:
    guard_blocks("posix", command, expected)


@pytest.mark.parametrize(("command", "expected", "twin"), PAIRS)
def test_its_everyday_twin_stays_allowed(command: str, expected: str, twin: str) -> None:
    guard_allows("posix", twin)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose ecosystems' output folders are ignored and untracked, beside tracked `doc` and `vendor`
    folders of the user's own."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path_factory.mktemp("proj")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".gitignore").write_text("pkg/\nblib/\ncover_db/\ndeps/\nlua_modules/\nnytprof/\napp/vendor/\n")
    for folder in ("doc", "vendor/theme", "lib"):
        (root / folder).mkdir(parents=True)
        (root / folder / "kept.md").write_text("the user's work\n")
    subprocess.run([*TEST_GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*TEST_GIT, "commit", "-qm", "init"], cwd=root, check=True)
    for folder in ("pkg", "blib/lib", "cover_db", "deps/jason", "lua_modules/lib", "nytprof", "app/vendor/x"):
        (root / folder).mkdir(parents=True)
        (root / folder / "out.txt").write_text("generated\n")
    return root


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf pkg && mkdir pkg",
        "rm -rf blib cover_db nytprof",
        "rm -rf deps _build",
        "rm -rf lua_modules",
        "rm -rf app/vendor",
        "find . -name blib -type d -exec rm -rf {} +",
        "find . -name '*.tdy' -delete",
    ],
)
def test_ecosystem_build_output_is_deleted_like_build(repo: Path, command: str) -> None:
    decision = decide_in(command, repo)
    assert decision.allowed, f"{command!r}: {decision.rule_id} ({decision.reason})"


@pytest.mark.parametrize(
    "command", ["rm -rf doc", "rm -rf vendor", "rm -rf lib", "find . -name '*.pm.bak' -delete"]
)
def test_tracked_folders_of_the_same_names_and_backups_stay_kept(repo: Path, command: str) -> None:
    assert not decide_in(command, repo).allowed


@pytest.mark.parametrize(
    "command",
    [
        "find src -name '*.php' -print0 | xargs -0 -n1 php -l",
        "git ls-files '*.php' | xargs -n1 php -l",
        'for f in $(find app tests -name "*.php"); do php -l "$f"; done',
        "find lib -name '*.rb' | xargs -n1 ruby -c",
    ],
)
def test_syntax_checks_of_files_only_known_at_run_time_stay_allowed(command: str) -> None:
    guard_allows("posix", command)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('php "$SCRIPT" --env=production', "dynamic.arguments"),
        ("php -l -S 0.0.0.0:8080", SERVER),
        ("php -l -r 'system(\"id\");'", "unverifiable.payload-process"),
    ],
)
def test_a_syntax_check_spares_no_other_run_time_or_written_word(command: str, expected: str) -> None:
    guard_blocks("posix", command, expected)


@pytest.mark.parametrize(
    ("shell", "command", "expected", "twin"),
    [
        # Rails' script run by ruby is Rails
        ("posix", "ruby bin/rails server -p 3000", SERVER, "ruby bin/rails test"),
        ("posix", "ruby bin/rails db:drop", DATA, "ruby bin/rails db:migrate"),
        ("posix", "ruby bin/rails credentials:show", SECRETS, "ruby bin/rails routes"),
        ("powershell", "ruby bin\\rails server", SERVER, "ruby bin\\rails test"),
        # RubyInstaller's MSYS2 set-up and the commands it runs there
        ("powershell", "ridk install 2 3", INSTALL, "ridk version"),
        ("powershell", "ridk exec pacman -S --noconfirm mingw-w64-x86_64-libxml2", INSTALL, "ridk exec make"),
    ],
)
def test_rails_scripts_and_rubyinstaller(shell: str, command: str, expected: str, twin: str) -> None:
    guard_blocks(shell, command, expected)
    guard_allows(shell, twin)
