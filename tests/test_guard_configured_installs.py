"""Install steps that copy a build where an earlier command of the line configured it, and virtual
environments named like a secret file.

- `./configure --prefix=/usr && make && make install`, `cmake -DCMAKE_INSTALL_PREFIX=/opt/x .. && make
  install`, `meson setup build --prefix /usr && ninja -C build install`: the install step writes into the
  folder the configure step named, outside the project, as `make install PREFIX=/usr` does. A folder in the
  project, a run-time one (`--prefix="$PREFIX"`) and an install staged elsewhere (`DESTDIR=pkg`,
  `--destdir`, its own `--prefix`) stay allowed, and so does a configure step with no install after it.
- `python -m venv .env` makes an environment in a folder of that name, as `virtualenv .env` does; handing
  `.env` to a script or another module (`python -m base64 .env`) still reads the secret file.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

OUTSIDE = "containment.write-outside-project"

BLOCKED = [
    ("posix", "./configure --prefix=/usr --sysconfdir=/etc/ssh --with-pam && make && make install", OUTSIDE),
    ("posix", "./configure --sysconfdir=/etc && make && make install", OUTSIDE),
    ("posix", "./configure --prefix $HOME/.local && make install", OUTSIDE),
    ("posix", "./autogen.sh --prefix=/usr/local && make -j4 && make install", OUTSIDE),
    ("posix", "cd build && cmake -DCMAKE_INSTALL_PREFIX=/usr .. && make -j8 && make install", OUTSIDE),
    ("posix", "cmake -B b -DCMAKE_INSTALL_PREFIX:PATH=/opt/x && cmake --build b --target install", OUTSIDE),
    ("posix", "cmake -B b -D CMAKE_INSTALL_PREFIX=/opt/x && cmake --build b -t install", OUTSIDE),
    ("posix", "cmake -S . -B b --install-prefix /opt/x && cmake --build b && cmake --install b", OUTSIDE),
    ("posix", "meson setup build --prefix /usr && ninja -C build install", OUTSIDE),
    ("posix", "meson setup build --prefix=/usr && meson install -C build", OUTSIDE),
    ("powershell", "cmake -B b -DCMAKE_INSTALL_PREFIX=C:/Tools/x; cmake --install b", OUTSIDE),
    ("posix", "python -m base64 .env", "env.secret-files"),
    ("posix", "python3 leak.py .env", "env.secret-files"),
    ("posix", "python3.11 x.py .env", "env.secret-files"),
    ("posix", "python -m venv venv && python x.py .env", "env.secret-files"),
    ("posix", "cat venv .env", "env.secret-files"),
]

ALLOWED = [
    ("posix", "./configure --prefix=/usr && make && make check"),
    ("posix", "./configure && make && make install"),
    ("posix", './configure --prefix="$PREFIX" && make && make install'),
    ("posix", "./configure --prefix=/usr && make && make install DESTDIR=$PWD/pkg"),
    (
        "posix",
        "cmake -B build -DCMAKE_INSTALL_PREFIX=build/install && cmake --build build && cmake --install build",
    ),
    ("posix", "cmake -B build -DCMAKE_INSTALL_PREFIX=/usr && cmake --install build --prefix stage"),
    ("posix", "meson setup build --prefix=/usr && meson install -C build --destdir pkg"),
    ("posix", "meson setup build --prefix=/usr && DESTDIR=pkg ninja -C build install"),
    ("posix", "meson setup build --prefix=/usr && env DESTDIR=pkg ninja -C build install"),
    ("posix", "meson setup build --prefix=/usr && ninja -C build"),
    ("posix", "ninja -C build install"),
    ("posix", "python -m venv .env"),
    ("posix", "python3 -m venv .env --prompt app && . .env/bin/activate"),
    ("posix", "python -m virtualenv .env"),
    ("posix", "python3.12 -m venv .env"),
    ("powershell", "py -3 -m venv .env"),
    ("posix", "python3 x.py .env.example"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_installs_into_configured_folders_and_secret_reads_block(
    shell: str, command: str, expected: str
) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_staged_installs_and_environments_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
