"""The machine's own state: stopping or reconfiguring services, killing processes the agent did not start
(by name, by filter, through pgrep), installing system packages, kernel parameters and modules, driver
filters, backups and shadow copies, boot and time settings, mounts, registry writes, security agents and
the shell's history, and the machines a hypervisor hosts. Stopping what the agent started, by its id, and
every read-only form stay allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    # A hypervisor's own management tools: the machines it hosts, their power, snapshots and its firewall.
    ("posix", "esxcli network firewall set --enabled false", "destructive.machine-state"),
    ("posix", "esxcli --formatter=csv vm process list", "destructive.machine-state"),
    ("posix", "vim-cmd vmsvc/snapshot.removeall 12", "destructive.machine-state"),
    (
        "posix",
        "for i in $(vim-cmd vmsvc/getallvms | awk '{print $1}'); do vim-cmd vmsvc/power.off $i; done",
        "destructive.machine-state",
    ),
    ("posix", "esxcfg-advcfg -s 32768 /BufferCache/MaxCapacity", "destructive.machine-state"),
    ("posix", "vmkfstools -c 10M disk.vmdk", "destructive.machine-state"),
    ("powershell", ".\\VBoxManage.exe modifyvm $name --memory 1024", "destructive.machine-state"),
    ("posix", "virsh destroy web1", "destructive.machine-state"),
    # Removing or downgrading the system's packages, and asking the repositories what they offer.
    ("posix", "sudo apt-get purge -y nginx", "destructive.machine-state"),
    ("posix", "yum remove httpd", "destructive.machine-state"),
    ("posix", "dnf history undo 3", "destructive.machine-state"),
    ("posix", "brew uninstall wget", "destructive.machine-state"),
    ("powershell", "choco uninstall git -y", "destructive.machine-state"),
    ("posix", "yum check-update", "network.package-install"),
    ("posix", "dnf list available", "network.package-install"),
    ("posix", "brew cask install firefox", "network.package-install"),
    # Security agents told to stand down.
    ("powershell", "cytool.exe protect disable", "destructive.machine-state"),
    (
        "powershell",
        '& "C:\\Program Files\\Windows Defender\\MpCmdRun.exe" -RemoveDefinitions -All',
        "destructive",
    ),
    ("powershell", ".\\elastic-agent.exe uninstall", "destructive.machine-state"),
    # Code that runs later: WMI's permanent event subscriptions and the parts of a scheduled task.
    (
        "powershell",
        "New-CimInstance -Namespace root/subscription -ClassName __EventFilter -Property $p",
        "unverifiable",
    ),
    (
        "powershell",
        "Get-WmiObject -Namespace root\\subscription -Class CommandLineEventConsumer",
        "unverifiable",
    ),
    ("powershell", "$t = New-ScheduledTaskTrigger -Daily -At 9am", "unverifiable"),
    (
        "powershell",
        "$p = New-ScheduledTaskPrincipal 'NT AUTHORITY\\SYSTEM' -RunLevel Highest",
        "unverifiable",
    ),
    ("posix", "hdiutil attach payload.dmg", "destructive.machine-state"),
    ("posix", "udisksctl mount -b /dev/sdb1", "destructive.machine-state"),
    ("posix", "export HISTCONTROL=ignoreboth", "destructive.machine-state"),
    # Set-user-ID bits and capabilities, remote management, trust stores, disk images.
    ("posix", "chmod u+s /tmp/evilBinary", "destructive.machine-state"),
    ("posix", "chmod g+xs ./helper", "destructive.machine-state"),
    ("posix", "chmod 4755 ./helper", "destructive.machine-state"),
    ("powershell", "Enable-PSRemoting -Force", "destructive.machine-state"),
    ("powershell", "Set-Item WSMan:\\localhost\\Client\\TrustedHosts *", "destructive.machine-state"),
    ("powershell", "certutil -addstore root rootCA.cer", "destructive.machine-state"),
    (
        "powershell",
        "Import-Certificate -FilePath rootCA.cer -CertStoreLocation Cert:\\LocalMachine\\Root",
        "destructive.machine-state",
    ),
    ("powershell", "Mount-DiskImage -ImagePath payload.iso", "destructive.machine-state"),
    (
        "posix",
        "security add-trusted-cert -d -r trustRoot -k login.keychain x.cer",
        "destructive.machine-state",
    ),
    ("posix", "sudo update-ca-certificates", "destructive.machine-state"),
    ("powershell", "pnputil.exe /add-driver C:\\Windows\\INF\\usbstor.inf", "unverifiable.code-file"),
    ("posix", "systemctl stop cron", "destructive.machine-state"),
    ("posix", "sudo systemctl disable --now sshd", "destructive.machine-state"),
    ("posix", "systemctl --user restart app", "destructive.machine-state"),
    ("posix", "service cron stop", "destructive.machine-state"),
    ("powershell", "sc.exe stop WinDefend", "destructive.machine-state"),
    ("powershell", "net stop spooler", "destructive.machine-state"),
    ("powershell", "net start spooler", "destructive.machine-state"),
    ("powershell", "Stop-Service -Name Spooler -Force", "destructive.machine-state"),
    ("posix", "killall node", "destructive.machine-state"),
    ("posix", "pkill -f uvicorn", "destructive.machine-state"),
    ("posix", "kill -9 $(pgrep cron)", "destructive.machine-state"),
    ("posix", "pidof nginx | xargs kill", "destructive.machine-state"),
    ("powershell", "taskkill /f /im spoolsv.exe", "destructive.machine-state"),
    ("powershell", "Stop-Process -Name notepad", "destructive.machine-state"),
    ("powershell", "Get-Process node | Stop-Process", "destructive.machine-state"),
    (
        "powershell",
        "Get-Process | Where-Object { $_.Name -eq 'node' } | Stop-Process",
        "destructive.machine-state",
    ),
    ("posix", "dpkg -i tool.deb", "destructive.machine-state"),
    ("posix", "rpm -ivh tool.rpm", "destructive.machine-state"),
    ("posix", "sysctl -w kernel.core_pattern=x", "destructive.machine-state"),
    ("posix", "sysctl 'kernel.core_pattern=|/tmp/x'", "destructive.machine-state"),
    ("posix", "modprobe -r snd", "destructive.machine-state"),
    ("posix", "insmod x.ko", "destructive.machine-state"),
    ("powershell", "fltMC.exe unload SysmonDrv", "destructive.machine-state"),
    ("powershell", "vssadmin delete shadows /all /quiet", "destructive"),
    ("powershell", "wbadmin delete catalog -quiet", "destructive"),
    ("powershell", "diskshadow /s script.txt", "destructive.machine-state"),
    ("posix", "tmutil deletelocalsnapshots /", "destructive.machine-state"),
    ("powershell", "fsutil usn deletejournal /d c:", "destructive.machine-state"),
    ("powershell", "bcdedit /set {default} recoveryenabled no", "destructive"),
    ("posix", "mount -o bind /bin/sh /bin/mount", "destructive.machine-state"),
    ("posix", "date -s '1 JAN 2020'", "destructive.machine-state"),
    ("posix", "timedatectl set-time '2020-01-01'", "destructive.machine-state"),
    ("posix", "auditctl -a always,exit -F arch=b64 -S execve -k x", "destructive.machine-state"),
    ("powershell", "wevtutil cl Security", "destructive"),
    ("powershell", "Set-MpPreference -DisableRealtimeMonitoring $true", "destructive.machine-state"),
    ("powershell", "reg add HKCU\\Software\\X /v Y /d 1", "destructive.registry"),
    ("powershell", "regedit /s settings.reg", "destructive.registry"),
    ("powershell", "Set-ItemProperty -Path 'HKLM:\\SYSTEM\\X' -Name Y -Value 1", "destructive.registry"),
    ("powershell", "New-ItemProperty -Path HKCU:\\Software\\X -Name Y -Value 1", "destructive.registry"),
    (
        "powershell",
        "[Environment]::SetEnvironmentVariable('Path', 'C:\\x', 'User')",
        "destructive.machine-state",
    ),
    ("posix", "crontab jobs.txt", "destructive"),
    ("posix", "history -c", "destructive.machine-state"),
    ("posix", "unset HISTFILE", "destructive.machine-state"),
    ("powershell", "Clear-History", "destructive.machine-state"),
    ("powershell", "Set-PSReadLineOption -HistorySaveStyle SaveNothing", "destructive.machine-state"),
]

ALLOWED = [
    ("posix", "esxcli --help"),
    ("posix", "VBoxManage --version"),
    ("posix", "grep -rn esxcli docs"),
    ("posix", "qemu-img info disk.qcow2"),
    ("posix", "yum list installed"),
    ("posix", "apt list --installed"),
    ("posix", "brew list"),
    ("posix", "npm uninstall lodash"),
    ("posix", "pip uninstall -y requests"),
    ("posix", "cargo remove serde"),
    ("powershell", "MpCmdRun.exe -Scan -ScanType 1"),
    ("posix", "elastic-agent status"),
    ("powershell", "Get-CimInstance -Namespace root/cimv2 -ClassName Win32_Process"),
    ("powershell", "Get-ScheduledTask"),
    ("posix", "hdiutil create -size 10m -fs APFS build/app.dmg"),
    ("posix", "diskutil list"),
    ("posix", "export HISTSIZE=5000"),
    ("posix", "chmod +x build.sh"),
    ("posix", "chmod 755 build.sh"),
    ("posix", "chmod a+rX docs"),
    ("posix", "chmod u+rwx,go+rx tool"),
    ("powershell", "Get-Item WSMan:\\localhost"),
    ("powershell", "certutil -hashfile app.zip SHA256"),
    ("posix", "security list-keychains"),
    ("powershell", "pnputil /enum-drivers"),
    ("posix", "systemctl status nginx"),
    ("posix", "systemctl list-units --failed"),
    ("posix", "service --status-all"),
    ("powershell", "sc.exe query"),
    ("powershell", "net start"),
    ("powershell", "Get-Service"),
    ("posix", "kill 1234"),
    ("posix", "kill %1"),
    ("posix", "kill $!"),
    ("posix", "kill -HUP $(cat server.pid)"),
    ("posix", "pgrep -f uvicorn"),
    ("powershell", "Stop-Process -Id 1234"),
    ("powershell", "taskkill /pid 1234"),
    ("posix", "dpkg -l"),
    ("posix", "rpm -qa"),
    ("posix", "sysctl vm.swappiness"),
    ("posix", "lsmod"),
    ("posix", "mount"),
    ("posix", "date +%s"),
    ("posix", "auditctl -l"),
    ("powershell", "vssadmin list shadows"),
    ("powershell", "wevtutil qe Application /c:5"),
    ("powershell", "Get-MpPreference"),
    ("powershell", "reg query HKCU\\Software\\X"),
    ("powershell", "Set-ItemProperty .\\notes.txt -Name IsReadOnly -Value $true"),
    ("posix", "crontab -l"),
    ("posix", "history"),
    ("posix", "set -euo pipefail"),
    ("posix", "export HISTSIZE=5000"),
    ("powershell", "Set-PSReadLineOption -EditMode Emacs"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_changes_to_the_machine_are_blocked(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_reading_the_machine_and_stopping_own_processes_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
