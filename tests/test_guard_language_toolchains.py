"""The build tools of the less common language ecosystems, as their CI files, Makefiles and justfiles write
them: Haskell, OCaml, Nim, Zig, Dart and Flutter, Swift, Crystal, D, Fortran, Erlang, Julia, Gleam, Elm,
PureScript, Racket and Common Lisp.

- Uploads are publishing, under each tool's own word: `nimble publish` alone (Nimble's other words run the
  tasks the project's `.nimble` file defines: `nimble release` builds), `dart pub publish` and the old
  standalone `pub publish` unless told only to validate (`--dry-run`, `-n`, as `npm publish --dry-run`),
  `fpm publish` unless it only shows what it would send, Gleam's documentation and Hex commands (`gleam docs
  publish`, `gleam hex retire`), PureScript's `spago publish` and `pulp publish`.
- Installs under other words: PureScript's `spago install` and `psc-package install`, Roswell's and qlot's
  (`ros install x`, `qlot install`), `fpm update`, the old standalone `pub get`, treeform's `nimby install`,
  elm-review's rules fetched from GitHub (`elm-review --template o/r/example`), a registry package dub builds
  or runs (`dub run dfmt -- -i source`, as `dub fetch dfmt`; `dub build -b release` builds), and the compiler
  installers `zigup 0.11.0`, `zvm install master` and `choosenim stable`.
- Consoles and servers: `swift repl`, a bare `idris2`, Lustre's development server (`gleam run -m lustre/dev
  start`).
- Makefile recipes: make's `$(V)` (`V := @` unless `VERBOSE=1`) and MakeMaker's `$(NOECHO)` hide the echo as
  `$(Q)` does (`$(V)$(NIMBLE) test`); a program variable followed by a word bash reserves (`$(REBAR3) do
  eunit, cover`, `$(LEIN) do clean, test`) runs, to bash, a program named `do` that no system has, and to
  make the build tool's own `do`.
- Each task of a build tool's `do` chain is the tool given it alone (`mix do compile, cmd rm -rf ~` runs
  `mix cmd rm -rf ~`; `rebar3 do compile, hex publish`, `lein do clean, deploy clojars`), and SBCL's inline
  code that only ends the run after the files it loaded (`sbcl --load run-tests.lisp --eval '(quit)'`) runs
  nothing else.
- A clean step deletes these ecosystems' build output and installed dependencies when git ignores them and
  tracks nothing in them: PureScript's `output`, `.spago`, `.psci_modules` and `output-es`, D's `.dub`,
  CocoaPods' `Pods`, Erlang's `ebin`, bisect_ppx's `_coverage`, the `htmldocs` of `nim doc`.
- Programs that `dart pub global activate`, opam, Roswell or juliaup installed run from their folders in the
  home (`"$HOME/.pub-cache/bin/format_coverage"`, `~/.opam/default/bin/dune build`), as `~/.cargo/bin/x` does.

Beside each, the same tools building, testing, formatting and running the project stay allowed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import TEST_GIT, decide_in, guard_allows, guard_blocks

BLOCKED = [
    # uploads under each tool's own word
    ("posix", "nimble publish", "network.publish"),
    ("posix", "nimble -y publish", "network.publish"),
    ("posix", "dart pub publish", "network.publish"),
    ("posix", "dart pub publish --force", "network.publish"),
    ("posix", "flutter pub publish -f", "network.publish"),
    ("posix", "flutter packages pub publish", "network.publish"),
    ("posix", "echo y | pub publish", "network.publish"),
    ("posix", "pub lish", "network.publish"),
    ("posix", "fpm publish --token $FPM_TOKEN", "network.publish"),
    ("posix", "gleam docs publish --version 1.2.0", "network.publish"),
    ("posix", "gleam hex retire mylib 1.0.0 security", "network.publish"),
    ("posix", "gleam hex revert --package mylib --version 1.0.1", "network.publish"),
    ("posix", "spago publish", "network.publish"),
    ("posix", "pulp publish --no-push", "network.publish"),
    # installs under other words
    ("posix", "spago install", "network.package-install"),
    ("posix", "spago install aff argonaut", "network.package-install"),
    ("posix", "psc-package install", "network.package-install"),
    ("posix", "ros install fukamachi/rove", "network.package-install"),
    ("posix", "qlot install", "network.package-install"),
    ("posix", "qlot add mito", "network.package-install"),
    ("posix", "fpm update", "network.package-install"),
    ("posix", "pub get", "network.package-install"),
    ("posix", "pub global activate dartdoc", "network.package-install"),
    ("posix", "cd .. && nimby install -g pixie/pixie.nimble", "network.package-install"),
    ("posix", "zigup 0.13.0", "network.package-install"),
    ("posix", "zigup fetch master", "network.package-install"),
    ("posix", "zvm install 0.12.0", "network.package-install"),
    ("posix", "choosenim stable", "network.package-install"),
    ("posix", "choosenim update devel", "network.package-install"),
    ("posix", "npx elm-review --template jfmengels/elm-review-unused/example --no-details", "network"),
    ("posix", "dub run dfmt --compiler=ldc2 -- --inplace source", "network.package-install"),
    ("posix", "dub run doveralls", "network.package-install"),
    ("posix", "dub build dpp@0.5.0 -b release", "network.package-install"),
    ("posix", "dub test -b unittest mir-algorithm", "network.package-install"),
    ("posix", "elm-review --template=jfmengels/elm-review-simplify/example", "network"),
    # consoles and development servers
    ("posix", "swift repl", "unverifiable.terminal-program"),
    ("posix", "idris2", "unverifiable.terminal-program"),
    ("posix", "gleam run -m lustre/dev start", "network.local-server"),
    ("posix", "cd client && gleam run -m lustre/dev start --port=1234", "network.local-server"),
    # a quiet mark is no cover for what follows it; make's `do` reading is still the tool's
    ("posix", "$(V)rm -rf ~", "destructive.recursive-delete"),
    ("posix", "$(NOECHO) rm -rf ~", "destructive.recursive-delete"),
    ("posix", "$(MIX) do deps.get, compile", "network.package-install"),
    # each task of a build tool's `do` chain is the tool given it alone
    ("posix", "mix do compile, cmd rm -rf ~", "destructive.recursive-delete"),
    ("posix", "mix do compile + cmd rm -rf ~", "destructive.recursive-delete"),
    ("posix", "mix do deps.compile, hex.publish --yes", "network"),
    ("posix", "rebar3 do compile, hex publish", "network.publish"),
    ("posix", "rebar3 as test do xref,coveralls send", "network.remote-service"),
    ("posix", "lein do clean, deploy clojars", "network"),
    ("posix", "$(MIX) do cmd rm -rf ~, compile", "destructive.recursive-delete"),
    # SBCL's inline code beyond ending the run
    ("posix", "sbcl --load run.lisp --eval '(quit)' --eval '(run-program \"/bin/sh\" nil)'", "unverifiable"),
    ("posix", "sbcl --non-interactive --eval '(ql:quickload :x)'", "unverifiable"),
    # a program in the home that no tool manager installs stays outside
    ("posix", "~/.pub-cache/hosted/x/run.sh", "unverifiable.outside-program"),
    ("posix", "/tmp/.opam/default/bin/x", "unverifiable.outside-program"),
]

ALLOWED = [
    # Nimble's own tasks, and validating a package before its upload
    ("posix", "nimble release"),
    ("posix", "nimble -y release"),
    ("posix", "nimble deploy"),
    ("posix", "nimble test"),
    ("posix", "dart pub publish --dry-run"),
    ("posix", "flutter pub publish --dry-run || exit 1"),
    ("posix", "dart pub publish -n"),
    ("posix", "pub publish --dry-run"),
    ("posix", "fpm publish --dry-run"),
    ("posix", "fpm publish --show-package-version"),
    ("posix", "gleam docs build"),
    ("posix", "gleam docs publish --help"),
    ("posix", "spago build"),
    ("posix", "spago test"),
    ("posix", "pulp build"),
    # building and running with what is there
    ("posix", "spago bundle-app"),
    ("posix", "psc-package build"),
    ("posix", "ros run -- --version"),
    ("posix", "qlot exec rove tests.asd"),
    ("posix", "fpm build --profile release"),
    ("posix", "fpm test"),
    ("posix", "pub run test"),
    ("posix", "zigup list"),
    ("posix", "choosenim show"),
    ("posix", "zig build test --summary all"),
    ("posix", "npx elm-review --fix-all"),
    ("posix", "dub run"),
    ("posix", "dub build -b release --compiler ldc2"),
    ("posix", "dub run -- serve --port 8080"),
    ("posix", "dub run :example"),
    ("posix", "dub run --single scripts/gen.d"),
    ("posix", "dub test -c unittest -b unittest-cov"),
    ("posix", "elm-review --config review --ignore-dirs generated"),
    ("posix", "nim c -d:release -o:bin/x src/x.nim"),
    # the same tools building, testing, serving nothing
    ("posix", "swift build -c release"),
    ("posix", "swift test --parallel"),
    ("posix", "idris2 --build x.ipkg"),
    ("posix", "gleam run -m lustre/dev build"),
    ("posix", "gleam run -m birdie"),
    ("posix", "gleam test"),
    # Makefile recipes as make and bash run them
    ("posix", "$(V)$(NIM) check --styleCheck=hint src/x.nim"),
    ("posix", "$(V)$(NIMBLE) test"),
    ("posix", "$(NOECHO) $(RM_F) pm_to_blib"),
    ("posix", "$(VERBOSE)$(CC) -c x.c"),
    ("posix", "@$(REBAR3) do eunit -cv, cover -v"),
    ("posix", "$(REBAR) do clean, compile"),
    ("posix", "$(LEIN) do clean, test"),
    ("posix", "$(MIX) do compile, test"),
    # a `do` chain of build and test tasks
    ("posix", "mix do compile --warnings-as-errors, test"),
    ("posix", "mix do format --check-formatted + credo --strict"),
    ("posix", "MIX_ENV=test mix do compile, test"),
    ("posix", "lein with-profile +test do clean, test"),
    ("posix", "rebar3 as test do xref,eunit,cover"),
    ("posix", "rebar3 do clean, compile"),
    # SBCL loading the project's file and ending the run
    ("posix", "sbcl --noinform --load run-tests.lisp --eval '(quit)'"),
    ("posix", "sbcl --non-interactive --load tests/run.lisp --eval '(sb-ext:exit)'"),
    ("posix", "sbcl --load build.lisp --eval '(uiop:quit)'"),
    # tools installed into the home by the language's tool managers
    ("posix", '"$HOME/.pub-cache/bin/format_coverage" --lcov --in=coverage --out=coverage.lcov'),
    ("posix", "~/.pub-cache/bin/melos run test"),
    ("posix", "~/.opam/default/bin/dune build @install"),
    ("posix", "$HOME/.roswell/bin/rove tests.asd"),
    ("posix", "~/.juliaup/bin/julia --project=. test/runtests.jl"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_uploads_installs_and_consoles_of_language_tools_are_blocked(
    shell: str, command: str, expected: str
) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_same_tools_building_and_testing_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


OUTPUT = [".spago", ".psci_modules", "output-es", ".dub", "Pods", "ebin", "_coverage", "htmldocs"]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git project whose ignored build output and installed dependencies are there, beside tracked work."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path_factory.mktemp("langs")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".gitignore").write_text("".join(f"{name}/\n" for name in OUTPUT))
    (root / "src").mkdir()
    (root / "src" / "Main.purs").write_text("module Main where\n")
    (root / "app" / "ebin").mkdir(parents=True)
    (root / "app" / "ebin" / "app.app").write_text("{application, app, []}.\n")
    subprocess.run([*TEST_GIT, "add", ".gitignore", "src"], cwd=root, check=True)
    subprocess.run([*TEST_GIT, "add", "-f", "app/ebin/app.app"], cwd=root, check=True)  # committed output
    subprocess.run([*TEST_GIT, "commit", "-qm", "init"], cwd=root, check=True)
    for name in OUTPUT:
        (root / name / "x").mkdir(parents=True)
        (root / name / "x" / "made").write_text("generated\n")
    return root


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf .spago output-es",
        "rm -rf .psci_modules",
        "rm -rf .dub",
        "rm -rf Pods",
        "rm -rf ebin",
        "rm -rf _coverage htmldocs",
    ],
)
def test_deleting_these_ecosystems_build_output_is_a_clean_step(project: Path, command: str) -> None:
    decision = decide_in(command, project)
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize("command", ["rm -rf app/ebin", "rm -rf src", "rm -rf .spago src"])
def test_tracked_work_named_so_stays_blocked(project: Path, command: str) -> None:
    decision = decide_in(command, project)
    assert not decision.allowed, command
    assert decision.rule_id == "destructive.recursive-delete"
