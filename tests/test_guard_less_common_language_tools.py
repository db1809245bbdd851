"""Build lines of Haskell, OCaml, Elixir, Erlang, Scala, Clojure, D, Lua, Perl, Racket and Dart projects.

- Installs under these tools' own words are network: opam pinning a package or creating a switch (it builds a
  compiler), esy's install (bare `esy` installs first), Leiningen's and the Clojure CLI's dependency
  downloads (`lein deps`, `clojure -P`, `clojure -X:deps prep`), `dub upgrade`/`fetch`, `luarocks make`,
  `raco pkg install`, Carton's install, Coursier's apps, `sbt update`, `gleam deps download`, `elm install`
  and `zig build --fetch`. Building, testing and listing stay allowed.
- Publishing tasks of sbt plugins named in camel case (`tlCiRelease`, `ciReleaseSonatype`, `githubRelease`,
  `docusaurusPublishGhpages`, `ghpagesPushSite`), rebar3_hex's `publish` alias and the coveralls plugin's
  upload, and `scala-cli publish`.
- Consoles that wait on the terminal (`iex -S mix`, bare `sbt`, `rebar3 shell --apps x`, `dune utop`, `perl
  -de0`, `nim secret`, `crystal i`, `scala-cli repl`, Mill's `console`), and PSGI servers (`plackup`,
  `starman`, `morbo`, `hypnotoad`) beside uvicorn.
- Registry queries for outdated or retired dependencies (`mix hex.audit`, `lein ancient`, `dart pub
  outdated`, `sbt dependencyUpdates`), as `npm outdated`.
- ghcup's local subcommands (`whereis`, `list`, `debug-info`) read nothing remote; cmd's `mklink` to an
  `.exe` inside the project launches nothing.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

INSTALL = "network.package-install"
PUBLISH = "network.publish"
TERMINAL = "unverifiable.terminal-program"
SERVER = "network.local-server"

BLOCKED = [
    # 1. installs under other words
    ("posix", "opam pin -y add re 1.13.2", INSTALL),
    ("posix", "opam pin add reason . -y", INSTALL),
    ("posix", "opam switch create utop-412 4.12.0", INSTALL),
    ("posix", "opam switch create . --no-install", INSTALL),
    ("posix", "esy install", INSTALL),
    ("posix", "esy", INSTALL),
    ("posix", "lein deps", INSTALL),
    ("posix", "lein with-profiles +cljs deps", INSTALL),
    ("posix", "clojure -P", INSTALL),
    ("posix", "clj -P", INSTALL),
    ("posix", "clojure -A:dev:test:build -P", INSTALL),
    ("posix", "clojure -X:deps prep", INSTALL),
    ("posix", "dub upgrade --missing-only", INSTALL),
    ("posix", "dub upgrade 2>&1 || true", INSTALL),
    ("posix", "dub fetch dfmt", INSTALL),
    ("posix", "luarocks make", INSTALL),
    ("posix", "luarocks make --only-deps", INSTALL),
    ("posix", "luarocks --lua-version=5.1 make --force --local lapis-dev-1.rockspec", INSTALL),
    ("posix", "raco pkg install --auto --batch deta-lib/ deta-doc/ deta-test/", INSTALL),
    ("posix", "carton install", INSTALL),
    ("posix", "carton install --deployment", INSTALL),
    ("posix", "carton", INSTALL),
    ("posix", "carton install && carton exec -- perl -Ilib script/build.pl", INSTALL),
    ("posix", "cs install bloop", INSTALL),
    ("posix", "cs install scala:3.2.2 scalac:3.2.2", INSTALL),
    ("posix", "cs setup", INSTALL),
    ("posix", "coursier install scalafmt", INSTALL),
    ("posix", "coursier fetch org.typelevel:cats-core_3:2.10.0", INSTALL),
    ("posix", "sbt update", INSTALL),
    ("posix", "nix develop .#temurin@11 -c sbt +update", INSTALL),
    ("posix", "gleam deps download", INSTALL),
    ("posix", "elm install elm/http", INSTALL),
    ("posix", "zig build --fetch", INSTALL),
    # 2. publishing tasks
    ("posix", "nix develop .#temurin@11 -c sbt tlCiRelease", PUBLISH),
    ("posix", "sbt tlRelease", PUBLISH),
    ("posix", "sbt ciReleaseSkipIfAlreadyReleased ciReleaseTagNextVersion ciReleaseSonatype", PUBLISH),
    (
        "posix",
        'sbt "frontend/updateHomebrewFormula; frontend/updateScoopFormula; frontend/githubRelease"',
        PUBLISH,
    ),
    ("posix", "sbt githubRelease", PUBLISH),
    ("posix", "sbt docs/docusaurusPublishGhpages", PUBLISH),
    ("posix", "sbt ghpagesPushSite", PUBLISH),
    ("posix", 'sbt "docs/mdoc; docs/ghpagesPushSite"', PUBLISH),
    ("posix", "rebar3 publish", PUBLISH),
    ("posix", "rebar3 as maintainer publish", PUBLISH),
    ("posix", "rebar3 coveralls send", "network.remote-service"),
    ("posix", "rebar3 do cover,coveralls send", "network.remote-service"),
    ("posix", "scala-cli publish .", PUBLISH),
    # 3. consoles and PSGI servers
    ("posix", "iex -S mix", TERMINAL),
    ("posix", "iex -S mix phx.server", TERMINAL),
    ("posix", "sbt", TERMINAL),
    ("posix", "sbt -Dfile.encoding=UTF-8", TERMINAL),
    ("posix", "rebar3 shell --apps x", TERMINAL),
    ("posix", "dune utop", TERMINAL),
    ("posix", "dune utop src -- -implicit-bindings", TERMINAL),
    ("posix", "perl -de0", TERMINAL),
    ("posix", "perl -d -e 0", TERMINAL),
    ("posix", "nim secret", TERMINAL),
    ("posix", "crystal i", TERMINAL),
    ("posix", "scala-cli repl .", TERMINAL),
    ("posix", "mill -i foo.console", TERMINAL),
    ("posix", "plackup -p 5000 app.psgi", SERVER),
    ("posix", "plackup", SERVER),
    ("posix", "starman --port 8080 app.psgi", SERVER),
    ("posix", "morbo script/app", SERVER),
    ("posix", "hypnotoad script/app", SERVER),
    ("posix", "carton exec -- plackup -R public/ -p 5555 --host localhost app.psgi", SERVER),
    # 4. registry queries
    ("posix", "mix hex.audit", INSTALL),
    ("posix", "mix hex.outdated", INSTALL),
    ("posix", "lein ancient", INSTALL),
    ("posix", "lein antq", INSTALL),
    ("posix", "if lein with-profile -user antq; then echo ok; fi", INSTALL),
    ("posix", "dart pub outdated", INSTALL),
    ("posix", "sbt dependencyUpdates", INSTALL),
    # 5. what stays blocked of ghcup and mklink
    ("posix", "ghcup install ghc 9.4.8", "network.remote-service"),
    ("posix", "ghcup upgrade", "network.remote-service"),
    ("posix", "ghcup set ghc 9.4.8", "network.remote-service"),
    ("posix", "ghcup tui", "network.remote-service"),
    ("posix", "ghcup nuke", "network.remote-service"),
    ("posix", '"$HOME/.ghcup/bin/ghcup" install cabal 3.16.0.0', "network.remote-service"),
    ("posix", "gleam publish", PUBLISH),
    ("posix", 'sbt "project core" update', INSTALL),
    ("powershell", "cmd /c mklink lit.exe C:\\Tools\\lit-1.exe", "containment.write-outside-project"),
]

ALLOWED = [
    ("posix", "opam pin list"),
    ("posix", "opam pin -yn ."),
    ("posix", "twiggy top -n 20 pkg/app_bg.wasm"),
    ("posix", "perl -d:NYTProf script.pl"),
    ("posix", "sbt ++2.13.12 test"),
    ("posix", "crystal i script.cr"),
    ("posix", "opam switch list"),
    ("posix", "opam switch show"),
    ("posix", "opam exec -- dune build"),
    ("posix", "esy build"),
    ("posix", "esy x dune test"),
    ("posix", "esy test"),
    ("posix", "lein test"),
    ("posix", "lein with-profiles +cljs test"),
    ("posix", "clojure -M:test"),
    ("posix", "clojure -X:test"),
    ("posix", "clojure -T:build jar"),
    ("posix", "dub build"),
    ("posix", "dub test"),
    ("posix", "luarocks test"),
    ("posix", "luarocks list"),
    ("posix", "raco test ."),
    ("posix", "raco make main.rkt"),
    ("posix", "raco pkg show"),
    ("posix", "carton exec -- perl -Ilib script/build.pl"),
    ("posix", "carton exec prove -l t"),
    ("posix", "cs version"),
    ("posix", "sbt compile"),
    ("posix", "sbt +test"),
    ("posix", "sbt releaseNotes"),
    ("posix", "sbt +publishLocal"),
    ("posix", "sbt scalafmtCheckAll"),
    ("posix", "sbt --version"),
    ("posix", "sbt -Dfile.encoding=UTF-8 test"),
    ("posix", "gleam build"),
    ("posix", "gleam test"),
    ("posix", "elm make src/Main.elm"),
    ("posix", "zig build"),
    ("posix", "zig build test"),
    ("posix", "rebar3 release"),
    ("posix", "rebar3 as prod release"),
    ("posix", "rebar3 do cover,eunit"),
    ("posix", "rebar3 cover"),
    ("posix", "rebar3 ct"),
    ("posix", "scala-cli test ."),
    ("posix", "scala-cli compile ."),
    ("posix", "mix test"),
    ("posix", "mix phx.routes"),  # (`mix phx.server` serves: network.local-server)
    ("posix", "iex --version"),
    ("posix", "dune build"),
    ("posix", "dune test"),
    ("posix", "perl -c script.pl"),
    ("posix", "perl -e 'print 1'"),
    ("posix", "nim c -r main.nim"),
    ("posix", "crystal spec"),
    ("posix", "mill -i foo.test"),
    ("posix", "mill foo.compile"),
    ("posix", "plackup --help"),
    ("posix", "mix hex.build"),
    ("posix", "mix deps.compile"),
    ("posix", "lein check"),
    ("posix", "dart pub deps"),
    ("posix", "dart test"),
    ("posix", "sbt dependencyTree"),
    ("posix", 'HC=$("$HOME/.ghcup/bin/ghcup" whereis ghc "$HCVER")'),
    ("posix", "ghcup whereis ghc 9.4.8"),
    ("posix", "ghcup list"),
    ("posix", "ghcup --version"),
    ("posix", "ghcup debug-info"),
    ("powershell", "IF NOT EXIST luvi CALL mklink /H luvi luvi.exe"),
    ("powershell", "cmd /c mklink lit.exe lit-1.exe"),
    ("powershell", "mklink /J build\\out out"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_installs_publishing_consoles_and_registry_queries_block(
    shell: str, command: str, expected: str
) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_builds_tests_and_local_reads_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
