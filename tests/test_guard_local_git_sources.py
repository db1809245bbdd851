"""git clone, fetch and pull from a folder on this machine (`git clone . build/copy`, `git fetch ../upstream
main`, `git clone "file://$PWD" tmp/repo`) reach no network: the destination is checked as any write is. Each
beside its twin that does: a URL, `host:path`, the ext transport, a remote's name or none (the configured
remote), a source known only at run time, an option that runs a command, and a copy written outside the
project or into `.git`."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

GIT = "network.git-remote"

# (blocked line, rule or category, allowed twin)
PAIRS = [
    ("git clone https://gitlab.com/team/tool.git build/tool", GIT, "git clone ../tool build/tool"),
    ("git clone --depth=1 git@github.com:team/app.git out/app", "network", "git clone --depth=1 . out/app"),
    ("git clone ssh://git@example.org/r.git tmp/r", GIT, "git clone file:///srv/git/r.git tmp/r"),
    ("git clone git://example.org/r.git tmp/r", GIT, "git clone /srv/git/r.git tmp/r"),
    ("git clone ci-host:repos/app.git work/app", GIT, "git clone ./repos/app.git work/app"),
    ("git clone 'ext::sh -c id% >&2' work/x", "network", "git clone ./work/seed work/x"),
    (
        "git clone --upload-pack='sh -c id' ../seed work/x",
        GIT,
        "git clone --no-hardlinks ../seed work/x",
    ),
    ("git clone -u 'sh -c id' . work/x", GIT, "git clone -q . work/x"),
    ("git clone -c core.sshCommand='sh -c id' . work/x", "network", "git clone -b main . work/x"),
    ("git -c core.sshCommand='sh -c id' pull ../fork main", "network", "git pull ../fork main"),
    ("git clone --recurse-submodules . work/full", GIT, "git clone --no-checkout . work/full"),
    ('git clone "$UPSTREAM" work/up', "unverifiable", 'git clone "file://$PWD" work/up'),
    ('git fetch "$REMOTE_NAME" main', "unverifiable", 'git fetch "./$SUBDIR" main'),
    ("git fetch upstream", GIT, "git fetch ../upstream"),
    ("git fetch --depth 50 origin main", GIT, "git fetch --depth 50 ../mirror main"),
    ("git pull", GIT, "git pull . topic"),
    ("git pull --rebase origin main", GIT, "git pull --rebase ./vendor/lib main"),
    ("git fetch --prune", GIT, "git fetch --prune /srv/git/app.git"),
    ("git clone . ../side-copy", "containment", "git clone . build/side-copy"),
    ("git clone --bare . ~/app.git", "containment", "git clone --bare . /tmp/app.git"),
    ("git clone ../seed .git/hooks/x", "containment", "git clone ../seed test/fixtures/x"),
    # a relative submodule URL is relative to the remote the superproject came from
    ("git submodule add ../lib.git vendor/lib", GIT, "git submodule status vendor/lib"),
]


@pytest.mark.parametrize(("command", "expected", "twin"), PAIRS)
def test_a_remote_source_is_blocked(command: str, expected: str, twin: str) -> None:
    guard_blocks("posix", command, expected)


@pytest.mark.parametrize(("command", "expected", "twin"), PAIRS)
def test_its_twin_from_a_local_folder_stays_allowed(command: str, expected: str, twin: str) -> None:
    guard_allows("posix", twin)
