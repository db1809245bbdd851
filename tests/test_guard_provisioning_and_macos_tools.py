"""Provisioning steps, macOS tooling and build-runner spellings, by what they do to the machine.

- A package manager runs an installed program by its bare name (`pnpm playwright install`, `yarn cypress
  install`): the browser downloads, tunnels and process managers so run are judged as through `npx`.
  minideb's `install_packages x` is `apt-get install`.
- macOS: security software looked for by its display name (`grep Little\\ Snitch`), a password hunt through
  property lists or every app's settings (`plutil -p ~/Library/Preferences/*.plist | grep -i password`), the
  privacy database's third-party editors (`tccutil.py`, `tccutil-rs`), Xcode's platform downloads and
  first-launch setup, Tuist's and Idris pack's dependency installs, and a terminal application handed a script
  (`open -a Terminal serve.sh`), which runs it outside the sandbox.
- rustup's toolchain and self updates and opam's system-package installs (`opam depext`) download.
Everyday twins: `spctl -at exec -vv x.app` (assessment with its short options together), `cargo update
--offline` (resolves from what is downloaded), a clean step spelling compiled names in any order
(`find . -iname "*.py[ocd]" -delete`), bpftrace's formatter, and file and malware analysers given a
sample (`exiftool Install.lnk`). Also blocked: cpulimit pointed at a process by name or id, node-process-hider
(`ph add x`), `go run PKG@$V` (a module at a version only known at run time is still fetched), and a make
install target told to copy outside the project (`make install PREFIX=/usr/local`), and Laravel Sail's
`sail up`/`build`, which are docker compose's.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "pnpm playwright install ffmpeg", "network.package-install"),
    ("posix", "pnpm playwright install --with-deps", "network.package-install"),
    ("posix", "yarn cypress install", "network.package-install"),
    ("posix", "pnpm puppeteer browsers install chrome", "network.package-install"),
    ("posix", "yarn ngrok http 3000", "network.socket"),
    ("posix", "bun pm2 start app.js", "destructive.machine-state"),
    ("posix", "install_packages libssl-dev", "network.package-install"),
    ("posix", "ps -ef | grep Little\\ Snitch | grep -v grep", "env.machine-discovery"),
    ("posix", "ps aux | grep CbOsxSensorService", "env.machine-discovery"),
    ("posix", "ps -ef | grep LuLu | grep -v grep", "env.machine-discovery"),
    ("posix", "plutil -p ~/Library/Preferences/*.plist | grep -i password", "env.credential-dump"),
    ("posix", "defaults read | grep -i password", "env.credential-dump"),
    ("posix", "tccutil-rs list --compact", "destructive.machine-state"),
    ("posix", "python3 tccutil.py -i /usr/bin/osascript -u dev", "destructive.machine-state"),
    ("posix", "xcodebuild -downloadPlatform iOS", "network.package-install"),
    ("posix", "xcodebuild -downloadAllPlatforms", "network.package-install"),
    ("posix", "xcodebuild -runFirstLaunch", "destructive.machine-state"),
    ("posix", "xcodebuild -license accept", "destructive.machine-state"),
    ("posix", "xcodes install 15.0", "network.package-install"),
    ("posix", "tuist install", "network.package-install"),
    ("posix", "tuist fetch", "network.package-install"),
    ("posix", "pack install pack", "network.package-install"),
    ("posix", "rustup toolchain update nightly", "network.package-install"),
    ("posix", "rustup self update", "network.package-install"),
    ("posix", "opam depext -yt qcheck", "network.package-install"),
    ("posix", "open -a Terminal serve.sh", "unverifiable.launched-program"),
    ("posix", "open -a iTerm ./run_api.sh", "unverifiable.launched-program"),
    ("posix", "open start.command", "unverifiable.launched-program"),
    ("posix", "spctl -avv --master-disable", "destructive.machine-state"),
    ("posix", "cargo update -p half", "network.package-install"),
    ("posix", "find . -name '*.py[cx]' -delete", "destructive.find-delete"),
    ("posix", "cpulimit -e xmrig -l 50 -b", "destructive.machine-state"),
    ("posix", "cpulimit -l 100 -e sgr1 &", "destructive.machine-state"),
    ("posix", "cpulimit -p 1234 -l 10", "destructive.machine-state"),
    ("posix", "ph add sgr1", "destructive.hide-or-backdate"),
    (
        "posix",
        "go run github.com/mfridman/tparse@${TPARSE_VERSION} -all -format markdown",
        "network.package-install",
    ),
    ("posix", 'go run "golang.org/x/tools/cmd/stringer@$VER" -type=Kind', "network.package-install"),
    ("posix", "mshta payload.hta", "network.http-client"),
    ("posix", "make install PREFIX=/usr/local", "containment.write-outside-project"),
    ("posix", "make DESTDIR=/ install", "containment.write-outside-project"),
    ("posix", "make -j4 install prefix=$HOME/.local", "containment.write-outside-project"),
    ("posix", "./vendor/bin/sail up -d", "network.remote-service"),
    ("posix", "sail build --no-cache", "network.remote-service"),
]

ALLOWED = [
    ("posix", "pnpm playwright test"),
    ("posix", "yarn cypress run"),
    ("posix", "pnpm puppeteer browsers list"),
    ("posix", "pnpm tsc"),
    ("posix", "yarn pm2 list"),
    ("posix", "grep -rn lulu src"),
    ("posix", "ps aux | grep node"),
    ("posix", "plutil -p App/Info.plist | grep -i pass"),
    ("posix", "defaults read com.example.app | grep -i version"),
    ("posix", "tccutil --help"),
    ("posix", "grep -rn tccutil docs"),
    ("posix", 'xcodebuild -scheme App -destination "platform=iOS Simulator,name=iPhone 15" test'),
    ("posix", "xcodebuild -showsdks"),
    ("posix", "xcodes list"),
    ("posix", "tuist generate"),
    ("posix", "pack build"),
    ("posix", "rustup toolchain list"),
    ("posix", "open -a Xcode ."),
    ("posix", "open -a Preview docs/x.pdf"),
    ("posix", "open README.md"),
    ("posix", "spctl -at exec -vv target/temporary-app-image/LogoRRR.app/"),
    ("posix", "spctl -avv target/x.app"),
    ("posix", "cargo update --offline -p half"),
    ("posix", "cargo fetch --frozen"),
    ("posix", 'find . -iname "*.py[ocd]" -delete'),
    ("posix", 'find . -name "*.py[cdo]" -delete'),
    ("posix", 'find . -name "*.pyd" -delete'),
    ("posix", "find src tests tools -name '*.bt' -exec build/src/bpftrace --fmt {} -o {} \\;"),
    ("posix", "cpulimit -l 50 -- make"),
    ("posix", "cpulimit -l 50 make test"),
    ("posix", "ph list"),
    ("posix", "go run ./cmd/$TOOL"),
    ("posix", "exiftool Install.lnk"),
    ("posix", "lnkparse trick_or_treat.lnk"),
    ("posix", "yara rules.yar Install.lnk"),
    ("posix", "capa Install.lnk"),
    ("posix", "js-beautify payload.hta"),
    ("posix", "make install"),
    ("posix", "make install PREFIX=build/prefix"),
    ("posix", "make install DESTDIR=$PWD/stage"),
    ("posix", "make PREFIX=/usr/local"),
    ("posix", "./vendor/bin/sail test"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_what_the_step_does_to_the_machine_or_network_blocks(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_same_tools_used_in_the_project_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
