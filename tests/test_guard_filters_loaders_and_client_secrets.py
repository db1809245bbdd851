"""Classes from later unseen samples, each with allowed twins.

- A `Where-Object` script block filters on the strings it compares with, as the simplified syntax does
  (`? { $_.Name -like '*falcon*' }` is `? Name -like '*falcon*'`).
- Mimikatz's commands quoted together inside one word, as a wrapper's `-Command` takes them.
- The kubelet's and k3s/RKE2's kubeconfigs and tokens; remote-access and file-transfer clients' saved
  sessions (AnyDesk, FileZilla, WinSCP, mRemoteNG, MobaXterm, Remmina).
- The programs Windows starts from the sign-in screen (`sethc.exe`, `utilman.exe`, …) moved, copied or
  replaced; Spotlight's index switched off; loaders built to slip past endpoint protection.
- A DNS server's zones and records dumped.
- `${HOME:0:1}` is `/`.
- JupyterLab's build and path reports exit; `jupyter lab` itself serves.
- age: decrypting uses a private key, encrypting with a passphrase stages data; encrypting for a recipient's
  public key is fine, as `gpg -e -r` is.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("powershell", "Get-Service | Where-Object{$_.DisplayName -like '*sentinel*'}", "env.machine-discovery"),
    ("powershell", "Get-Process | ? { $_.ProcessName -match 'MsMpEng' }", "env.machine-discovery"),
    ("powershell", "gps | where {$_.Name -eq 'CSFalconService'} | select Id", "env.machine-discovery"),
    ("powershell", 'Invoke-Mimi -Command \'"privilege::debug" "sekurlsa::logonpasswords"\'', "env"),
    ("powershell", 'Invoke-Katz -Command \'"token::elevate" "vault::cred /patch"\'', "env.credential-dump"),
    ("posix", "cat /var/lib/kubelet/kubeconfig", "env.secret-files"),
    ("posix", "cp /etc/rancher/k3s/k3s.yaml ./kc", "env.secret-files"),
    ("posix", "cat /var/lib/rancher/k3s/server/node-token", "env.secret-files"),
    ("powershell", "type $env:APPDATA\\FileZilla\\sitemanager.xml", "env.secret-files"),
    ("powershell", 'Get-Content "$env:ProgramData\\AnyDesk\\service.conf"', "env.secret-files"),
    ("powershell", "Select-String -Path $env:APPDATA\\mRemoteNG\\confCons.xml -Pattern Password", "env"),
    ("posix", "cat ~/.local/share/remmina/group_rdp_srv.remmina", "env.secret-files"),
    ("powershell", "move C:\\Windows\\System32\\sethc.exe sethc.bak", "destructive.machine-state"),
    ("powershell", "copy /y cmd.exe utilman.exe", "destructive.machine-state"),
    ("powershell", "Copy-Item C:\\Windows\\System32\\cmd.exe osk.exe", "destructive.machine-state"),
    ("posix", "sudo mdutil -a -i off", "destructive"),
    ("posix", "mdutil -E /", "destructive.machine-state"),
    ("posix", "./ScareCrow -I stager.bin -Loader binary -domain www.example.com", "destructive"),
    ("powershell", ".\\Nimcrypt.exe -f beacon.exe -t csharp -o out.exe", "destructive.machine-state"),
    ("powershell", "Get-DnsServerResourceRecord -ZoneName corp.local -ComputerName localhost", "env"),
    ("powershell", "dnscmd /zoneprint corp.local", "env.machine-discovery"),
    ("posix", "cat ${HOME:0:1}etc${HOME:0:1}shadow", "env.secret-files"),
    ("posix", "tail ${PWD:0:1}etc${PWD:0:1}passwd", "env.accounts"),
    ("posix", "age -d -i ~/.age/key.txt secrets.age", "env.credential-store"),
    ("posix", "age --decrypt --identity key.txt x.age > x", "env.credential-store"),
    ("posix", "age -p -o notes.age notes.txt", "env.data-staging"),
    ("posix", "jupyter lab --ip 0.0.0.0", "network.local-server"),
]

ALLOWED = [
    ("powershell", "Get-Process | Where-Object { $_.CPU -gt 100 }"),
    ("powershell", "Get-ChildItem -Recurse | ? { $_.Extension -eq '.cs' } | % FullName"),
    ("powershell", "Get-Service | Where-Object { $_.Status -eq 'Running' } | Select-Object Name"),
    ("powershell", "Get-Content notes.md | Where-Object { $_ -like '*sentinel value*' }"),
    ("powershell", "Get-ChildItem -Recurse | Where-Object { $_.DirectoryName -notmatch '\\\\obj\\\\' }"),
    ("posix", "cargo test token::elevate_tests"),
    ("posix", "echo 'use crate::token::list;'"),
    ("powershell", "Select-String -Pattern 'mimikatz \"lsadump::sam\"' -Path docs\\*.md"),
    ("powershell", 'Invoke-Build -Task \'"test" "lint"\''),
    ("posix", "cat k8s/kubeconfig.example"),
    ("posix", "cat deploy/k3s/values.yaml"),
    ("powershell", "Get-Content .\\docs\\filezilla.md"),
    ("powershell", "Copy-Item .\\bin\\Release\\app.exe dist\\app.exe"),
    ("posix", "mdutil -s /"),
    ("posix", "jupyter lab build --debug --minimize=False"),
    ("powershell", "jupyter lab path"),
    ("posix", "jupyter notebook list"),
    ("posix", "jupyter lab --version"),
    ("posix", "echo ${GITHUB_SHA:0:7}"),
    ("posix", "tar -czf dist/app-${GITHUB_SHA:0:7}.tgz build"),
    ("posix", "age -r age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p -o x.age x"),
    ("posix", "age -R recipients.txt example.jpg > example.jpg.age"),
    ("posix", "age-keygen -o key.txt"),
]


@pytest.mark.parametrize(("shell", "command", "rule"), BLOCKED)
def test_later_sample_classes_are_blocked(shell: str, command: str, rule: str) -> None:
    guard_blocks(shell, command, rule)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_their_everyday_twins_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
