"""Staging data to take away: archives packed under a password or encrypted, files encrypted for later, and
documents, mailboxes or other repositories searched for across the disk or the home folders. Packing build
outputs without a password, extracting or decrypting, signing releases, and searching inside the project stay
allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    # The user's own documents, desktop and browser profiles packed or encrypted into another folder.
    ("posix", "7z a home_backup.7z ~/Documents"),
    ("posix", "zip -r -s 50m docs.zip ~/Documents -x '*.iso'"),
    ("posix", "tar czf chrome.tgz -C ~/.config/google-chrome ."),  # named from tar's working folder
    ("posix", "rar a -v50M desktop.rar ~/Desktop"),
    ("posix", "tar czf ff.tgz ~/.mozilla/firefox"),
    ("posix", "gocryptfs --reverse ~/Documents /tmp/cipher"),
    ("powershell", "Compress-Archive -Path C:\\Users\\dev\\Desktop -DestinationPath d.zip"),
    # Archives with a password or encrypted headers.
    ("posix", "zip -P hunter2 out.zip report.txt"),
    ("posix", "zip -rP pw out.zip src"),
    ("posix", "zip -e -r out.zip notes"),
    ("posix", "zip --encrypt out.zip notes.txt"),
    ("posix", "7z a -phunter2 out.7z notes"),
    ("posix", "7za u -mhe=on -psecret out.7z notes"),
    ("powershell", '& "C:\\Program Files\\7-Zip\\7z.exe" a out.7z notes "-pPassw0rd"'),
    ("posix", "rar a -hpsecret out.rar notes"),
    ("powershell", "Compress-7Zip -Path notes -ArchiveFileName out.7z -Password p"),
    ("posix", "hdiutil create -encryption -stdinpass -srcfolder notes out.dmg"),
    # Text encoded twice: past a CI log's masking, which knows a secret and its single encoding.
    ("posix", "cat .git/config | base64 -w0 | base64 -w0"),
    ("posix", 'sh -c "cat ./.git/config | base64 -w0 | base64 -w0; echo ;"'),
    ("posix", "base64 -i token.txt | base64"),
    # Files encrypted with a passphrase or for a key, ready to leave.
    ("posix", "gpg -c notes.tar"),
    ("posix", "echo pw | gpg --batch --passphrase-fd 0 --symmetric notes.tar"),
    ("posix", "openssl enc -aes-256-cbc -pass pass:x -in notes.zip -out notes.enc"),
    ("posix", "openssl des3 -in notes.zip -out notes.enc"),
    ("posix", "ccencrypt notes.txt"),
    # Documents, mailboxes and repositories searched for across the disk or the home folders.
    ("posix", "find / -type f -name '*.pdf' 2>/dev/null | head"),
    ("posix", "find ~ -iname '*.xlsx' -exec cp {} stash \\;"),
    ("posix", "find ~/Documents -name '*.docx'"),
    ("posix", "find /Users -name '*.pst'"),
    ("posix", "find /home -maxdepth 3 -name .git -type d"),
    ("posix", "locate '*.docx'"),
    ("powershell", "Get-ChildItem C:\\Users -Recurse -Include *.pdf"),
    ("powershell", "gci -Path C:\\ -Recurse -Filter *.xlsx -ErrorAction SilentlyContinue"),
    ("powershell", "dir c:\\*.xlsx /s"),
    ("powershell", "cmd /c dir c:*.docx /s /b"),
    ("posix", "sudo sh -c \"find / -name '*.eml'\""),
    # Virtual machines' disks and memory on a hypervisor's datastores or anywhere on the disk.
    ("posix", "find /vmfs/volumes/ -type f -name '*.vmdk'"),
    ("posix", "find /vmfs/volumes -name '*.vmx' -o -name '*.vmem'"),
    ("posix", "find / -name '*.qcow2' 2>/dev/null"),
    ("posix", "find /var/lib/libvirt -name '*.vhdx'"),
]

ALLOWED = [
    ("posix", "base64 -w0 logo.png > logo.b64"),
    ("posix", "echo aGk= | base64 -d | base64"),
    ("posix", "base64 data.bin | base64 --decode > copy.bin"),
    ("posix", "tar czf dist.tgz -C build ."),
    ("posix", "zip -r app.zip ~/Documents/src/app/docs"),  # a project kept under the documents folder
    ("posix", "zip -r dist/app.zip build"),
    ("posix", "cd docs && zip -9r ../dist/docs.zip ."),
    ("posix", "tar -czf /tmp/docs.tgz -C docs ."),
    ("posix", "7z a dist/app.7z build"),
    ("posix", "7z x -pPASS vendor.7z"),
    ("posix", "unzip -P pw fixtures.zip"),
    ("posix", "rar x vendor.rar"),
    ("powershell", "Compress-Archive -Path dist -DestinationPath app.zip"),
    ("posix", "hdiutil create -srcfolder build/App.app -volname App dist/App.dmg"),
    ("posix", "gpg --detach-sign --armor dist/app.tar.gz"),
    ("posix", "gpg --verify dist/app.tar.gz.asc"),
    ("posix", "openssl enc -d -aes-256-cbc -in fixture.enc -out fixture.bin"),
    ("posix", "openssl dgst -sha256 dist/app.tar.gz"),
    ("posix", "openssl enc -base64 -in logo.png"),
    ("posix", "find . -name '*.pdf'"),
    ("posix", "find docs -name '*.docx' -newer build.stamp"),
    ("posix", "find /usr/lib -name libssl.so 2>/dev/null"),
    ("posix", "find . -name '*.vmdk'"),
    ("posix", "find tests/fixtures -name '*.vhdx'"),
    ("powershell", "Get-ChildItem -Recurse -Include *.docx"),
    ("powershell", "cmd /c dir docs\\*.pdf /s /b"),
    ("posix", "echo 'find / -name *.docx'"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_staging_data_to_take_away_is_blocked(shell: str, command: str) -> None:
    guard_blocks(shell, command, "env.data-staging")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_packing_and_searching_the_project_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


@pytest.mark.parametrize(
    ("shell", "command"),
    [
        ("posix", "/usr/bin/tar -czf /tmp/backup_site.tar.gz /var/www/html/config/"),
        ("posix", "tar -C /var/www -czf /tmp/x.tgz html"),
        ("posix", "zip -r /tmp/x.zip /srv/app"),
        ("posix", "tar czf /tmp/b.tgz /var/backups"),
        ("powershell", "Compress-Archive -Path C:\\inetpub\\wwwroot -DestinationPath out.zip"),
        ("posix", "ditto -c -k --sequesterRsrc --keepParent /var/www/html /tmp/d.zip"),  # macOS's packer
    ],
)
def test_packing_what_the_machine_serves_or_keeps_is_staging(shell: str, command: str) -> None:
    guard_blocks(shell, command, "env.data-staging")


@pytest.mark.parametrize(
    "command",
    [
        "tar czf dist/app.tgz build",
        "tar czf dist/www.tgz www",
        "tar czf dist/site.tgz public",
        "ditto -c -k --keepParent build/App.app dist/App.zip",
    ],
)
def test_packing_the_projects_own_folders_stays_allowed(command: str) -> None:
    guard_allows("posix", command)
