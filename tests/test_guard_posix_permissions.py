"""Permission grants and ownership on POSIX: making a file outside the project writable by everyone
(`chmod 777`, `o+w`, `a=rw`) or handing it to another user (`chown`, `chgrp`). Written absolute, from home or
climbing out is outside, the temp folder included; the project's own files may be shared, and modes that give
nobody else write (`chmod +x /tmp/x.sh`, `chmod 755 /tmp/dir`) stay allowed in the temp folder."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    "chmod 777 /tmp/x",
    "chmod 666 /tmp/x/y.yaml",
    "chmod 0777 /tmp/x",
    "chmod 1777 /var/tmp/shared",
    "chmod a+w /tmp/x",
    "chmod o+w /dev/shm/x",
    "chmod go+rwx /tmp/x",
    "chmod a=rw /tmp/x",
    "chmod u+x,o+w /tmp/x",
    "chmod -v 777 /tmp/x",
    "sudo chmod 666 /var/run/docker.sock",
    "/bin/chmod 777 /etc/sudoers",
    "env chmod 777 /tmp/x",
    "sh -c 'chmod 777 /tmp/x'",
    "chmod 'o+w' '/tmp/x'",
    "chmod 777 ~/bin/tool",
    "chmod 777 ../shared",
    "chmod 777 build/../../x",
    "chown root:root /tmp/x/y.yaml",
    "chown root /tmp/x",
    "chown nobody: /tmp/x",
    "sudo chown -h bob /usr/local/bin/x",
    "chown --from=me bob /tmp/x",
    "CHOWN root /tmp/x",
    "chgrp wheel /tmp/x",
    "chgrp -h staff ~/x",
    "chown bob ../x",
    "mkdir -m 777 /tmp/x",
    "mkdir -p -m777 /tmp/a/b",
    "mkdir --mode=1777 /var/tmp/x",
    "mkdir -m a+w ~/x",
    "install -m 0666 notes.txt /tmp/x",
    "install -d -m o+rwx /tmp/x",
]

ALLOWED = [
    "chmod +x /tmp/tool.sh",
    "chmod 755 /tmp/dir",
    "chmod 700 /tmp/x",
    "chmod 600 /tmp/key",
    "chmod u+w /tmp/x",
    "chmod go-w /tmp/x",
    "chmod a-w /tmp/x",
    "chmod 777 build/x",
    "chmod 666 src/x.txt",
    "chmod a+w docs/x",
    "chmod o+w ./out",
    "chown bob src/x",
    "chown root:root dist/app",
    "chgrp staff build",
    "mkdir -m 700 /tmp/x",
    "mkdir -p /tmp/x",
    "install -m 755 tool /tmp/bin/tool",
    "mkdir -m 777 build/cache",
    "install -m 666 a.txt dist/a.txt",
]


@pytest.mark.parametrize("command", BLOCKED)
def test_opening_or_handing_over_files_outside_the_project_is_blocked(command: str) -> None:
    guard_blocks("posix", command, "destructive.posix-permissions")


@pytest.mark.parametrize("command", ALLOWED)
def test_project_grants_and_private_temp_modes_stay_allowed(command: str) -> None:
    guard_allows("posix", command)
