"""Later unseen samples' classes, with allowed twins.

- A disk or partition read below its file system (`strings /dev/sdb`, `cat /dev/nvme0n1p2`); listing block
  devices or their properties is fine.
- A tracer attached to a running process (`strace -p PID`); tracing a program the line starts is debugging.
- The DPAPI and credential folders listed whole, an X display's cookie file.
- Every user's home walked at once (`find /home -name …`); the CI runner's workspace below it is a folder.
- Installed software's own uninstallers and cloud hosts' security agents; the login window put over the
  session; rsh's trust files (`hosts.equiv`, `.rhosts`); kdigger; every process's command line listed; file
  wipers; packet sniffers; process injectors; the MS16-032 family without its dash; MFASweep, TokenTactics'
  refresh functions, PowerUp's and Invoke-ACLPwn's, MailSniper's inbox finder.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "strings /dev/sdb", "env.credential-dump"),
    # a disk spun down, its timers and caches set, a sector written
    ("posix", "hdparm -y /dev/sda", "destructive.disk-format"),
    ("posix", "hdparm -S 120 /dev/sda", "destructive.disk-format"),
    ("posix", "hdparm --write-sector 5 --yes-i-know-what-i-am-doing /dev/sda", "destructive.disk-format"),
    ("posix", "cat /dev/nvme0n1p2 | grep -a password", "env.credential-dump"),
    ("posix", "photorec /dev/sda1", "env.credential-dump"),
    ("posix", "strace -o trace.txt -ff -p 1337", "env.credential-dump"),
    ("posix", "ltrace -p 4242", "env.credential-dump"),
    ("powershell", "dir /S /AS C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Protect", "env.secret-files"),
    ("powershell", "Get-ChildItem $env:APPDATA\\Microsoft\\Credentials -Force", "env.secret-files"),
    ("posix", "cp /home/bob/.Xauthority ./xa", "env.secret-files"),
    ("posix", "find /home -name .sudo_as_admin_successful 2>/dev/null", "env.machine-search"),
    ("posix", "find /Users -iname '*.plan' -exec cat {} \\;", "env"),
    ("posix", "/usr/local/aegis/uninstall.sh", "destructive.machine-state"),
    ("powershell", "& 'C:\\Program Files\\Agent\\unins000.exe' /SILENT", "destructive.machine-state"),
    ("posix", "driftnet -i wlan0", "network"),
    ("posix", "arpspoof -i eth0 -t 10.0.0.5 10.0.0.1", "network"),
    ("posix", "./cymothoa -p 2270 -s 1 -y 7777", "containment.privilege-elevation"),
    ("powershell", "Invoke-MS16032 -Command whoami", "containment.privilege-elevation"),
    ("powershell", "Invoke-MFASweep -Username a@corp.example -Password Winter2024", "network"),
    ("powershell", "Invoke-RefreshToMSGraphToken -domain corp.example", "env.credential-dump"),
    ("powershell", "Get-Service | Add-ServiceDacl", "env.machine-discovery"),
    ("powershell", "./Invoke-ACL.ps1 -SharpHoundLocation .\\sharphound.exe", "env"),
    ("posix", "/usr/local/aegis/AliNet/AliNet --stopdriver", "destructive.machine-state"),
    (
        "posix",
        "'/System/Library/CoreServices/Menu Extras/User.menu/Contents/Resources/CGSession' -suspend",
        "destructive",
    ),
    ("posix", "kdigger dig", "env.machine-discovery"),
    ("posix", "wiper wipe -i 64 ~/Documents", "destructive"),
    ("powershell", "wmic process list full", "env.machine-discovery"),
    ("powershell", "Get-WmiObject win32_process | select Name, CommandLine | fl", "env.machine-discovery"),
    ("powershell", "Get-Process | Select-Object Id, CommandLine", "env.machine-discovery"),
    ("posix", "cat /etc/hosts.equiv", "env.secret-files"),
    ("posix", "cat ~/.rhosts", "env.secret-files"),
]

ALLOWED = [
    ("posix", "lsblk /dev/sda"),
    ("posix", "hdparm -I /dev/sda"),
    ("posix", "hdparm -tT /dev/sda"),
    ("posix", "cat /dev/null"),
    ("posix", "head -c 16 /dev/urandom | xxd"),
    ("posix", "strace -f -o build.trace ./build.sh"),
    ("posix", "strace -c python -m pytest -q"),
    ("powershell", "Get-ChildItem .\\docs\\Microsoft"),
    ("posix", "find /home/runner/work/app -name '*.log'"),
    ("posix", "find ~ -maxdepth 1 -name '.npmrc' -newer package.json"),
    ("posix", "pip uninstall -y requests"),
    ("posix", "npm uninstall left-pad"),
    ("posix", "grep -rn uninstall docs"),
    ("posix", "grep -rn rhosts docs"),
    ("posix", "cat docs/rhosts-migration.md"),
    ("posix", "cat /etc/hosts"),
    ("powershell", "wmic process list brief"),
    ("powershell", "Get-Process | Select-Object Name, CPU | Sort-Object CPU"),
    ("powershell", "Get-ChildItem tests | Select-Object Name, Length"),
    ("powershell", "Invoke-Build -Task Test"),
    ("powershell", "Invoke-Pester -Path tests"),
]


@pytest.mark.parametrize(("shell", "command", "rule"), BLOCKED)
def test_disks_tracers_and_toolkits_are_blocked(shell: str, command: str, rule: str) -> None:
    guard_blocks(shell, command, rule)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_their_everyday_twins_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
