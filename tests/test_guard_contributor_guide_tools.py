"""Tools that contributor guides tell developers to run, by what they do to the machine and the network.

- Burning firmware writes an image onto a disk: Nerves' `mix firmware.burn`, and `fwup` given a device.
  Building the firmware (`mix firmware`, `fwup -c`) writes only the project's file.
- Logging in to a package channel (`anaconda login`, `conda login`) and a lint runner installing its linters
  with pip (`lintrunner init`) reach the network; running the linters does not.
- prek, a pre-commit replacement, installs hooks into `.git/hooks` as `pre-commit install` does; running
  them directly is fine.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "mix firmware.burn", "destructive.raw-disk-write"),
    ("posix", "MIX_TARGET=rpi4 mix burn", "destructive.raw-disk-write"),
    (
        "posix",
        "fwup -a -d /dev/sdb -i _build/rpi4_dev/nerves/images/app.fw -t complete",
        "destructive.raw-disk-write",
    ),
    ("posix", "fwup -a -d /dev/mmcblk0 -i x.fw -t upgrade", "destructive.raw-disk-write"),
    ("posix", "anaconda login", "network.package-install"),
    ("posix", "conda login --username dev", "network.package-install"),
    ("posix", "lintrunner init", "network.package-install"),
    ("posix", "prek install -f", "unverifiable.git-config-exec"),
    ("posix", "prek install --hook-type pre-push", "unverifiable.git-config-exec"),
]

ALLOWED = [
    ("posix", "mix firmware"),
    ("posix", "MIX_TARGET=rpi4 mix deps.compile"),
    ("posix", "fwup -c -f fwup.conf -o _build/x.fw"),
    ("posix", "fwup -a -d _build/test.img -i x.fw -t complete"),
    ("posix", "conda list"),
    ("posix", "anaconda --version"),
    ("posix", "lintrunner -a"),
    ("posix", "lintrunner --take RUFF"),
    ("posix", "prek run --all-files"),
    ("posix", "prek --version"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_what_the_tool_does_to_the_machine_or_network_blocks(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_same_tools_used_in_the_project_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
