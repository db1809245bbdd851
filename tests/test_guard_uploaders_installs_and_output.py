"""Lines from public CI files, each blocked line with its allowed twin beside it.

Coverage and code-analysis uploaders send the project's report (its file names, often its sources) to their
service, whether run by name, as a script the project installed (`php vendor/bin/php-coveralls`) or as a
build tool's task or goal (`mix coveralls.github`, `mvn sonar:sonar`); the same tools' local reports stay
allowed. Installs under other words (`nimble install`, `stack setup`, `pod install`, browser drivers) are
installs, while the builds beside them stay builds, as `cargo build` is. Nim's, Xcode's, esy's, opam's and
Elixir's output folders are build output: spared when git ignores them and tracks nothing in them.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import TEST_GIT, assert_decided_as, decide_in, every_case
from conftest import guard_example as check

UPLOADERS = [
    # (blocked: sends the report, allowed twin: writes it locally or only prints)
    ("appveyor PushArtifact build/app.zip", "appveyor AddMessage built"),
    ("smokeshow upload htmlcov", "coverage html -d htmlcov"),
    ("mix coveralls.github", "mix coveralls"),
    ("mix coveralls.post --token x", "mix coveralls.html"),
    ("MIX_ENV=test mix coveralls.travis --pro", "MIX_ENV=test mix coveralls.json"),
    ("mix coveralls.gitlab", "mix coveralls.detail --filter lib/app.ex"),
    ("php vendor/bin/php-coveralls -v", "php vendor/bin/php-coveralls --dry-run"),
    ("vendor/bin/php-coveralls --coverage_clover=build/logs/clover.xml", "php vendor/bin/phpunit -v"),
    ("php vendor/bin/coveralls -v", "php vendor/bin/phpcs -v"),
    ("php-coveralls", "php-coveralls --help"),
    ("goveralls -coverprofile=covprofile -service=github", "go tool cover -html=covprofile"),
    ("bundle exec rake coveralls:push", "bundle exec rake spec"),
    ("cargo tarpaulin --ciserver github-ci --coveralls x", "cargo tarpaulin --out Html"),
    ("cargo tarpaulin --coveralls=x", "cargo tarpaulin --out Xml --output-dir coverage"),
    ("codecovcli upload-process -t x", "codecovcli --help"),
    ("codecovcli do-upload --report-type test_results", "codecovcli --version"),
    ("python -m coveralls", "python -m coverage xml"),
    ("mvn coveralls:report", "mvn jacoco:report"),
    ("mvn -B org.eluder.coveralls:coveralls-maven-plugin:report", "mvn -B verify"),
    ("./gradlew coveralls", "./gradlew test"),
    ("./gradlew jacocoTestReport coveralls", "./gradlew jacocoTestReport"),
    ("./gradlew coverallsJacoco", "./gradlew check"),
    ("sonar-scanner", "sonar-scanner --version"),
    ("sonar-scanner -Dsonar.projectKey=app", "sonar-scanner --help"),
    ("mvn sonar:sonar", "mvn clean verify"),
    ("mvn org.sonarsource.scanner.maven:sonar-maven-plugin:3.9.1.2184:sonar", "mvn -q package"),
    ("./gradlew sonar", "./gradlew build"),
    ("gradle sonarqube -Dsonar.host.url=x", "gradle assemble"),
    ("dotnet sonarscanner begin /k:app", "dotnet sonarscanner --help"),
    ("dotnet sonarscanner end", "dotnet build"),
    ("dotnet-sonarscanner begin /k:app", "dotnet test --no-build"),
]

INSTALLS = [
    # (blocked: downloads and installs, allowed twin: builds or runs what is there)
    ("nimble install", "nimble build"),
    ("nimble install -y", "nimble test"),
    ("nimble -y install --depsOnly", "nimble test2"),
    ("nimble develop", "nim c -r src/app.nim"),
    ("nimble refresh", "nimble tasks"),
    ("php artisan dusk:chrome-driver --detect", "php artisan dusk"),
    ("php artisan dusk:install", "php artisan test"),
    ("seleniumbase install chromedriver", "seleniumbase --version"),
    ("poetry run seleniumbase install chromedriver", "poetry run pytest"),
    ("python -m seleniumbase install chromedriver", "python -m pytest --browser=chrome"),
    ("sbase get chromedriver", "sbase --help"),
    ("stack setup", "stack build"),
    ("stack --resolver lts-22 setup", "stack --resolver lts-22 build"),
    ("stack unpack text", "stack test"),
    ("cabal v2-update", "cabal v2-build"),
    ("cabal new-update", "cabal new-build all"),
    ("cabal v2-install --lib hspec", "cabal v2-test"),
    ("pod install", "pod lib lint"),
    ("pod install --repo-update", "pod lib lint --fail-fast --allow-warnings"),
    ("bundle exec pod update", "bundle exec pod --version"),
    ("pod repo update", "pod --help"),
    ("carthage bootstrap", "carthage build --no-skip-current"),
    ("carthage update --use-xcframeworks", "carthage build --archive"),
    ("webdriver-manager update", "webdriver-manager --help"),
    ("node node_modules/protractor/bin/webdriver-manager update", "node node_modules/.bin/protractor"),
    # system packages for a workspace or a package's build, and other ecosystems' fetchers (admin scripts)
    ("rosdep install --from-paths src --ignore-src -y", "rosdep --help"),
    ("rosdep update", "rosdep check --from-paths src"),
    ("dnf builddep -y --nogpgcheck app.spec", "dnf repoquery --help"),
    ("yum-builddep app.spec", "rpmbuild -bb app.spec"),
    ("yes | mk-build-deps -i", "mk-build-deps debian/control"),
    ("pkcon install -y git", "pkcon --version"),
    ("west update", "west build -b native_sim app"),
    ("west init -m https://github.com/x/y", "west init -l app"),
    ("haxelib install hxcpp", "haxelib list"),
    ("shards install", "shards build"),
    ("mint bootstrap --link", "mint list"),
    ("Rscript -e 'renv::restore()'", "Rscript -e 'renv::status()'"),
    ("R -e 'renv::install(\"x\")'", "Rscript -e 'testthat::test_dir(\"tests\")'"),
    ("R CMD INSTALL pkg_1.0.tar.gz", "R CMD build ."),
    ("R CMD INSTALL --no-multiarch --with-keep.source .", "R CMD check --as-cran pkg_1.0.tar.gz"),
    # setuptools installing the project (and what it requires) into the interpreter's packages
    ("python setup.py install", "python setup.py build"),
    ("python3 setup.py develop", "python3 setup.py build_ext --inplace"),
    ("python setup.py develop easy_install app[test]", "python setup.py sdist bdist_wheel"),
    # a module fetched at a version and run, binaries fetched by a build tool's task
    ("go run golang.org/x/tools/cmd/stringer@v0.1.0 -type=Pill", "go run ./cmd/stringer -type=Pill"),
    ("go run github.com/golangci/golangci-lint/cmd/golangci-lint@v1.54.2 run", "go run . -email=a@b.c"),
    ("mix tailwind.install", "mix tailwind default"),
    ("mix esbuild.install --if-missing", "mix esbuild default --minify"),
    # Composer's installer, and Composer run as the archive it downloads
    ("php composer-setup.php --install-dir=/usr/local/bin", "php composer-setup.php --check"),
    ("php composer.phar install", "php composer.phar dump-autoload"),
    ("./composer.phar update", "php composer.phar validate"),
]


def _blocked_beside_allowed(cases: list[tuple[str, str]], rule: str) -> None:
    """Each case's first line blocked by `rule` (a rule id, or a category), its twin allowed."""

    def pair(blocked: str, allowed: str) -> None:
        assert_decided_as("posix", blocked, check(blocked), rule)
        decision = check(allowed)
        assert decision.allowed, f"{allowed!r}: {decision.rule_id} ({decision.reason})"

    every_case(cases, pair)


def test_uploaders_send_the_report_and_local_reports_stay_allowed() -> None:
    _blocked_beside_allowed(UPLOADERS, "network.remote-service")


def test_installs_under_other_words_are_installs_and_builds_stay_builds() -> None:
    _blocked_beside_allowed(INSTALLS, "network.package-install")


SCRIPT_WORDS = [
    # (blocked: the script's own words after it, allowed twin: the interpreter's print-and-exit flag)
    ("php tools/setup.py upload -v", "php -v"),
    ("python3 tools/setup.py upload --help", "python3 --help"),
    ("ruby vendor/bin/coveralls -c", "ruby -c tools/check.rb"),
]


def test_words_after_the_script_are_the_scripts_own() -> None:
    _blocked_beside_allowed(SCRIPT_WORDS, "network")


OUTPUT_NAMES = ["nimcache", "DerivedData", "_esy", "_opam", "cover", "_output", "built"]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Each output folder built and ignored, and a twin of each name holding tracked sources."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path_factory.mktemp("proj")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / ".gitignore").write_text("".join(f"/{name}/\n" for name in OUTPUT_NAMES))
    for name in OUTPUT_NAMES:
        (root / name).mkdir()
        (root / name / "out.o").write_text("generated\n")
        (root / "src" / name).mkdir(parents=True)
        (root / "src" / name / "main.nim").write_text("echo 1\n")  # sources in a folder of that name
    subprocess.run([*TEST_GIT, "add", ".gitignore", "src"], cwd=root, check=True)
    subprocess.run([*TEST_GIT, "commit", "-qm", "init"], cwd=root, check=True)
    return root


def test_these_output_folders_are_spared_and_their_tracked_namesakes_are_not(project: Path) -> None:
    def pair(name: str) -> None:
        spared = decide_in(f"rm -rf {name}", project, "posix")
        assert spared.allowed, (name, spared.rule_id, spared.reason)
        kept = decide_in(f"rm -rf src/{name}", project, "posix")
        assert not kept.allowed and kept.rule_id == "destructive.recursive-delete", name

    every_case(OUTPUT_NAMES, pair)
