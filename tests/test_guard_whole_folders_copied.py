"""Copying or archiving a whole home folder, every user's home folders, `/etc` or a drive reads every key,
token and shell history in it: `tar czf home.tgz ~`, `cp -r /home/dev backup`, `rsync -a /Users/dev/ x`,
`Compress-Archive -Path C:\\Users`, `robocopy C:\\Users\\dev out /E`, however the home folder is spelled.
A folder inside a home (`cp -r ~/templates/app .`), the project's own folders, and tar's `-C` (the folder it
works from, not what it packs) stay fine. Text and table files searched for from a home or a drive by
pattern (`-Include *.txt,*.csv`) are documents gathered, as `*.docx` already is.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "tar czf home.tgz ~", "env.secret-files"),
    ("posix", "tar -pczf idk.tar /etc/ /home/", "env.secret-files"),
    ("posix", "tar -cf x.tar $HOME", "env.secret-files"),
    ("posix", 'tar czf x.tgz "${HOME}/"', "env.secret-files"),
    ("posix", "cp -r /home/dev backup", "env.secret-files"),
    ("posix", "cp -a ~bob/ loot", "env.secret-files"),
    ("posix", "cp -r / mirror", "env.secret-files"),
    ("posix", "rsync -a /Users/dev/ mirror/", "env.secret-files"),
    ("posix", "rsync -av /root/ r/", "env.secret-files"),
    ("posix", "zip -r x.zip /home", "env.secret-files"),
    ("posix", "7z a etc.7z /etc", "env.secret-files"),
    ("posix", "ditto ~ backup", "env.secret-files"),
    ("powershell", "Compress-Archive -Path C:\\Users -DestinationPath x.zip", "env.secret-files"),
    ("powershell", "Copy-Item $env:USERPROFILE -Destination loot -Recurse", "env.secret-files"),
    ("powershell", "Copy-Item C:\\Users\\bob -Recurse -Destination x", "env.secret-files"),
    ("powershell", "robocopy C:\\Users\\dev out /E", "env.secret-files"),
    ("powershell", "xcopy C:\\Users out /s /i", "env.secret-files"),
    # text and table files gathered from a home or a drive
    (
        "powershell",
        "Get-ChildItem -Path C:\\Users -Include *.txt,*.csv -Recurse -ErrorAction SilentlyContinue",
        "env.data-staging",
    ),
    ("posix", "find /home -name '*.txt'", "env.data-staging"),
    ("posix", "find / -iname '*.csv' 2>/dev/null", "env.data-staging"),
]

ALLOWED = [
    ("posix", "tar czf src.tgz src"),
    ("posix", "tar czf dist.tgz -C build ."),
    ("posix", "tar -C ~ -czf x.tgz projects/app"),  # packs ~/projects/app
    ("posix", "tar tzf home.tgz"),
    ("posix", "cp -r ~/templates/app ."),
    ("posix", "cp ~/.gitconfig.example ."),
    ("posix", "cp -r ../lib vendor/"),
    ("posix", "rsync -a /home/dev/app/src/ vendor/app/"),
    ("posix", "zip -r x.zip /home/dev/proj/docs"),
    ("posix", "zip -r dist/app.zip build"),
    ("powershell", "Copy-Item C:\\Users\\dev\\proj\\docs -Destination docs -Recurse"),
    ("powershell", "Compress-Archive -Path . -DestinationPath x.zip"),
    ("powershell", "robocopy src out /E"),
    ("posix", "find . -name '*.csv'"),
    ("posix", "find . -name requirements.txt"),
    ("powershell", "Get-ChildItem -Recurse -Include *.txt,*.csv"),
    ("posix", "ls ~/notes.txt"),
]


@pytest.mark.parametrize(("shell", "command", "rule"), BLOCKED)
def test_a_whole_home_or_system_folder_copied_or_archived_reads_its_secrets(
    shell: str, command: str, rule: str
) -> None:
    guard_blocks(shell, command, rule)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_folders_inside_a_home_and_the_projects_own_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
