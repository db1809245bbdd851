"""What justfile, Taskfile, cargo-make, invoke and Earthfile recipes run: release and deploy steps block.

Task runners' recipes hold the same lines a Makefile does. Their build, test and lint steps stay allowed;
those that leave the project are blocked by what they do: a smart-contract project's local chain node
(`anvil`, `npx hardhat node`) is a server, its dependencies fetched from git (`forge install`, `soldeer
install`) are a package install, and its transactions sent to a chain (`forge script … --broadcast`, `forge
create`, `cast send`, `npx hardhat deploy`) and WebAssembly packages sent to a registry (`wkg publish`,
`wasm-pack publish`) are a publish, as is `earthly --push`. A recipe's scratch clone (`rm -rf temp_clone`,
`tmp-build`) is a scratch folder, as `*-tmp` already was.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

from glmagent.guard._project import is_output_folder

SERVER = "network.local-server"
PUBLISH = "network.publish"
INSTALL = "network.package-install"

# Each blocked line with its allowed twin beside it.
PAIRS = [
    ("posix", "anvil --port 8546 --block-time 2", SERVER, "anvil --version"),
    ("posix", "ganache-cli --deterministic -p 7545", SERVER, "ganache-cli --help"),
    ("posix", "npx hardhat node --hostname 0.0.0.0", SERVER, "npx hardhat compile"),
    ("posix", "yarn hardhat node", SERVER, "yarn hardhat test --network hardhat"),
    ("posix", "forge install foundry-rs/forge-std --no-commit", INSTALL, "forge build --sizes"),
    ("posix", "forge update lib/solmate", INSTALL, "forge fmt --check"),
    ("posix", "forge soldeer install @openzeppelin-contracts~5.0.2", INSTALL, "forge snapshot --check"),
    ("posix", "soldeer update", INSTALL, "forge test --match-contract VaultTest -vvv"),
    ("posix", "wkg wit fetch", INSTALL, "wkg wit build -o out/app.wasm"),
    (
        "posix",
        "forge script script/Deploy.s.sol:Deploy --rpc-url $SEPOLIA_RPC --broadcast --verify -vvvv",
        PUBLISH,
        'forge script script/Deploy.s.sol:Deploy --sig "run(uint256)" 42 -vvvv',
    ),
    ("posix", "forge create src/Counter.sol:Counter --private-key $PK", PUBLISH, "forge inspect Counter abi"),
    ("posix", "forge verify-contract 0x5FbDB2 src/Token.sol:Token --chain sepolia", PUBLISH, "forge doc"),
    ("posix", 'cast send $ADDR "mint(address)" $ME --rpc-url $RPC', PUBLISH, 'cast call $ADDR "name()"'),
    ("posix", "npx hardhat deploy --network goerli --tags Token", PUBLISH, "npx hardhat test --parallel"),
    (
        "posix",
        "npx hardhat ignition deploy ignition/modules/Token.ts --network mainnet",
        PUBLISH,
        "npx hardhat ignition visualize ignition/modules/Token.ts",
    ),
    ("posix", "wkg publish dist/component.wasm --package=acme:calc@0.2.0", PUBLISH, "wkg --help"),
    ("posix", "wasm-pack publish --access public", PUBLISH, "wasm-pack build --release --target nodejs"),
    ("posix", "earthly --ci --push +image", "network", "earthly --ci +image"),
    ("powershell", "forge install OpenZeppelin/openzeppelin-contracts", INSTALL, "forge test"),
    ("powershell", "wasm-pack publish", PUBLISH, "wasm-pack test --node"),
]


@pytest.mark.parametrize(("shell", "command", "expected", "twin"), PAIRS)
def test_recipe_steps_leaving_the_project_block(shell: str, command: str, expected: str, twin: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command", "expected", "twin"), PAIRS)
def test_their_local_twins_stay_allowed(shell: str, command: str, expected: str, twin: str) -> None:
    guard_allows(shell, twin)


SCRATCH = ["temp_clone", "tmp-build", "tmp_wheels", "temp-checkout"]
NOT_SCRATCH = ["template", "templates", "temporal", "tmpl", "src"]


@pytest.mark.parametrize("name", SCRATCH)
def test_scratch_folders_named_first_are_output(name: str) -> None:
    assert is_output_folder(name)
    guard_allows("posix", f"rm -rf {name}")


@pytest.mark.parametrize("name", NOT_SCRATCH)
def test_names_only_starting_alike_are_not(name: str) -> None:
    assert not is_output_folder(name)
    guard_blocks("posix", f"rm -rf {name}", "destructive.recursive-delete")


def test_a_scratch_clone_beside_home_still_blocks() -> None:
    guard_blocks("posix", "rm -rf temp_clone ~/work", "destructive.recursive-delete")


@pytest.mark.parametrize(
    ("command", "twin"),
    [
        ("cargo-release release patch --execute --no-confirm", "cargo-release release patch"),
        ("cargo-release -x minor", "cargo-release --help"),
    ],
)
def test_cargo_release_run_by_its_own_name_publishes_when_executed(command: str, twin: str) -> None:
    guard_blocks("posix", command, PUBLISH)
    guard_allows("posix", twin)
