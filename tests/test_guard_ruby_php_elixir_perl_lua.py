"""Ruby's, PHP's, Elixir's, Perl's and Lua's own tools, as their Rakefiles, composer scripts, mix aliases,
bin/setup scripts and CI steps run them.

Each ecosystem's web server started by its framework's command is a server (`rails s`, `mix phx.server`,
`php artisan serve`, `symfony serve`); its other installers and version managers install (`cpm install`,
`perlbrew install-cpanm`, `pie install`, `bin/importmap pin`); its coverage uploaders send the report away
(`luacov-coveralls`, `cover -report coveralls`); the gem-release plugin publishes (`gem release`); and the
frameworks' encrypted secret stores printed in the clear are credential reads (`rails credentials:show`,
`php artisan env:decrypt`). The same tools' tests, builds, routes, reports and version checks stay allowed.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

SERVER = "network.local-server"
INSTALL = "network.package-install"
REMOTE = "network.remote-service"
PUBLISH = "network.publish"
SECRETS = "env.credential-store"

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
    ("overmind start -f Procfile.dev", SERVER, "foreman run bundle exec rake test"),
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
]


@pytest.mark.parametrize(("command", "expected", "twin"), PAIRS)
def test_ecosystem_tool_is_blocked(command: str, expected: str, twin: str) -> None:
    guard_blocks("posix", command, expected)


@pytest.mark.parametrize(("command", "expected", "twin"), PAIRS)
def test_its_everyday_twin_stays_allowed(command: str, expected: str, twin: str) -> None:
    guard_allows("posix", twin)
