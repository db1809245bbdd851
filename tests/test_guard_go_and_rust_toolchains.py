"""Go and Rust projects' own tooling, as their Makefiles, justfiles and CI steps run it.

- rustup takes the toolchain before its subcommand as cargo does (`rustup +nightly component add rust-src`
  adds a component, as `rustup component add` does); a toolchain named at run time (`cargo +$TOOLCHAIN
  test`, `rustup +$T show`) is that option's value, never the subcommand.
- ko builds locally when told `-L`, also inside a cluster of short options (`ko publish -BL .`); without it
  the image is pushed.
- wasm-pack reads its `--out-dir`/`-d` from the crate's folder, its path operand (`wasm-pack build ./app
  --out-dir ../public/wasm` writes `./public/wasm`), so a folder that climbs out from there still blocks.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "rustup +nightly component add rust-src", "network.package-install"),
    ("posix", "rustup +nightly-2024-05-19 component add rust-src miri", "network.package-install"),
    ("posix", "rustup +stable target add wasm32-unknown-unknown", "network.package-install"),
    ("posix", "rustup +beta update", "network.package-install"),
    ("posix", "rustup +$TOOLCHAIN target add $TARGET", "network.package-install"),
    ("powershell", "rustup +nightly target add x86_64-pc-windows-gnu", "network.package-install"),
    ("posix", "cargo +$TOOLCHAIN install cargo-udeps", "network.package-install"),
    ("posix", "cargo +$TOOLCHAIN publish --locked", "network.publish"),
    ("posix", "ko build -B ./cmd/server", "network.remote-service"),
    ("posix", "ko publish -BP -t latest ./cmd/app", "network.remote-service"),
    ("posix", "ko resolve -Bf config/ > release.yaml", "network.remote-service"),
    ("posix", "wasm-pack build --target web --out-dir ../pkg", "containment.write-outside-project"),
    ("posix", "wasm-pack build crates/web -d ../../../www/pkg", "containment.write-outside-project"),
    ("posix", "wasm-pack build ./app --out-dir=~/.cache/pkg", "containment.write-outside-project"),
    ("posix", "wasm-pack build -d ~/www/pkg --release", "containment.write-outside-project"),
]

ALLOWED = [
    ("posix", "rustup +nightly component list --installed"),
    ("posix", "rustup +stable target list --installed"),
    ("posix", "rustup +nightly show active-toolchain"),
    ("posix", "rustup +$TOOLCHAIN show"),
    ("posix", "cargo +$TOOLCHAIN test --workspace"),
    ("posix", 'cargo +"$RUST_NIGHTLY" fmt --all -- --check'),
    ("posix", "cargo +${MSRV} check --locked --all-features"),
    ("posix", "ko build -L ./cmd/server"),
    ("posix", "ko publish -BL ."),
    ("posix", "ko build -PL --platform=linux/amd64 ./cmd/app"),
    ("powershell", "ko build -LB .\\cmd\\app"),
    ("posix", "wasm-pack build ./app --target web --out-name app --out-dir ../public/wasm"),
    ("posix", "wasm-pack build crates/web -d ../../www/pkg --release"),
    ("posix", "wasm-pack build game --out-dir=../site/pkg"),
    ("posix", "wasm-pack build --target web -d webapp/pkg . --features wasm"),
    ("powershell", "wasm-pack build .\\crates\\web --target web --out-dir ..\\..\\www\\pkg"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_installs_pushes_and_outside_writes_block(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_projects_own_go_and_rust_steps_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
