"""Surveying the machine and its network surroundings: neighbours, routes, DNS and proxy settings, shares,
Wi-Fi profiles, packet traces, firewall rules, Kerberos tickets, other users' sessions and login history, and
the machine's whole hardware and software inventory. A coding task needs none of them. The few facts a build
reads about the machine it runs on (architecture, CPU count, its own name and addresses, the ports the
project listens on) stay allowed, as do the same programs asked for help, and another machine's sessions
stay named as network."""

from __future__ import annotations

import pytest
from conftest import every_case, guard_allows, guard_blocks, guard_decision

BLOCKED = [
    # the cluster's API server, as Kubernetes tells every pod where it is
    ("posix", "echo $KUBERNETES_SERVICE_HOST"),
    ("posix", "printenv KUBERNETES_PORT_443_TCP_ADDR"),
    ("powershell", "Write-Output $env:KUBERNETES_SERVICE_HOST"),
    ("powershell", "netsh wfp capture start"),  # the filtering platform's packet capture, as `netsh trace`
    # a node's containers read from its runtime, by the CRI client or containerd's own
    ("posix", "crictl ps -a"),
    ("posix", "ctr -n moby container list"),
    ("posix", "ctr --namespace k8s.io images ls"),
    ("posix", "odutil show sessions"),  # Open Directory's sessions
    # Surveys for what could be turned into more rights (privilege-escalation enumeration).
    ("posix", "./linpeas.sh -a"),
    ("powershell", "winpeas.exe cmd > output.txt"),
    ("powershell", ".\\SharpUp.exe audit"),
    ("powershell", "autorunsc.exe -a l"),  # what starts with the machine or a logon
    ("posix", "mdmclient QueryDeviceInformation"),  # the managed device's inventory
    ("powershell", "Import-Module .\\PowerUp.ps1; Invoke-AllChecks"),
    # ... under any build or version of their family's name, and through any interpreter or launcher.
    ("posix", "sh linpeas.sh"),
    ("posix", "bash ./LinEnum.sh -t"),
    ("posix", "./linpeas_fat.sh"),
    ("posix", "perl linux-exploit-suggester-2.pl -k 3.2"),
    ("posix", "python3 linuxprivchecker.py -w"),
    ("posix", "./pspy64s -pf -i 1000"),
    ("posix", "sh lse.sh -l1"),
    ("powershell", ".\\winPEASx64_ofs.exe quiet"),
    ("powershell", "pwsh -NoProfile -File .\\winPEAS.ps1"),
    ("powershell", ". .\\PrivescCheck.ps1; Invoke-PrivescCheck -Extended"),
    ("powershell", "& .\\jaws-enum.ps1 -OutputFilename out.txt"),
    ("powershell", "python wesng\\wes.py systeminfo.txt"),
    ("powershell", "cmd /c winPEASany.exe log"),
    # Neighbours and routes.
    ("posix", "arp -an"),
    ("powershell", "arp -a"),
    ("posix", "ip -6 neigh show dev eth0"),
    ("posix", "ip route get 8.8.8.8"),
    ("posix", "ip ro list table main"),
    ("posix", "ip tcpm show"),
    ("posix", "sudo ip xfrm state"),
    ("posix", "route"),
    ("powershell", "cmd /c route PRINT -4"),
    ("posix", "netstat -nr"),
    ("posix", "netstat --route"),
    ("powershell", "netstat -anob"),
    # The machine's connections to other hosts, and every socket it has.
    ("powershell", "netstat -ano"),
    ("powershell", "netstat -ano | findstr :8080"),  # every socket listed, then filtered
    ("powershell", "netstat -n -o"),  # Windows' netstat lists connections unless told otherwise
    ("posix", "netstat -tunap"),
    ("posix", "netstat"),
    ("posix", "ss -anp || netstat -anp"),
    ("posix", "ss -tunp"),
    ("posix", "lsof -i"),
    ("posix", "lsof -nPi"),
    ("posix", "lsof -i :22"),
    ("posix", "lsof"),
    ("powershell", "Get-NetTCPConnection -State Established"),
    # macOS's defences and firmware: SIP, Gatekeeper, FileVault, firmware variables, boot and profiles.
    ("posix", "csrutil status 2>&1"),
    ("posix", "spctl --status"),
    ("posix", "fdesetup status"),
    ("posix", "nvram -p | grep boot-args"),
    ("posix", "efivar -l"),
    ("posix", "bless --info /"),
    ("posix", "profiles status -type enrollment"),
    ("posix", "profiles list"),
    ("posix", "systemextensionsctl list"),
    # Windows shares, sessions, the workstation's settings, netsh listings and packet traces.
    ("powershell", "net share"),
    ("powershell", "net sessions"),
    ("powershell", "NET CONFIG server"),
    ("powershell", "net file"),
    ("powershell", "netsh advfirewall firewall show rule name=all"),
    ("powershell", "netsh firewall show state"),
    ("powershell", "netsh interface ip show config"),
    ("powershell", "netsh winhttp show proxy"),
    ("powershell", "netsh trace start capture=yes tracefile=%TEMP%\\t.etl"),
    ("powershell", "netsh wlan export profile folder=."),
    ("powershell", "ipconfig /ALL"),
    ("powershell", "cmd /c ipconfig -displaydns"),
    ("powershell", "Get-SmbShare"),
    ("powershell", "Get-SmbSession"),
    ("powershell", "Get-NetRoute -AddressFamily IPv4"),
    ("powershell", "Get-DnsClientCache"),
    ("powershell", "Get-ComputerInfo -Property Os*"),
    ("powershell", "Get-HotFix"),
    ("powershell", "wmic share list"),
    ("powershell", "wmic /namespace:\\\\root\\securitycenter2 path antivirusproduct get displayname"),
    ("powershell", "Get-CimInstance -ClassName Win32_Share"),
    ("powershell", "Get-WmiObject -Query 'select * from Win32_NetworkAdapterConfiguration'"),
    ("powershell", "systeminfo | findstr /B OS"),
    ("powershell", "query session"),
    ("powershell", "qwinsta"),
    # macOS: network services, DNS and proxies, the hardware registry, notifications, the inventory.
    ("posix", "networksetup -listnetworkserviceorder"),
    ("posix", "networksetup -getwebproxy Wi-Fi"),
    ("posix", "scutil --nwi"),
    ("posix", "ioreg -l | grep -i serial"),
    ("posix", "notifyutil -p com.example.channel"),
    ("posix", "system_profiler SPUSBDataType SPNetworkDataType"),
    ("posix", "ipconfig getsummary en0"),
    # Tickets, sessions and login history; Wi-Fi scans; DNS resolver state.
    ("posix", "klist -e"),
    ("powershell", "klist sessions"),
    ("posix", "who"),
    ("posix", "w -h"),
    ("posix", "last -a"),
    ("posix", "sudo lastb"),
    ("posix", "lastlog -u dev"),
    ("posix", "sudo dmidecode -s system-serial-number"),
    ("posix", "smbstatus -S"),
    ("posix", "nmcli connection show"),
    ("posix", "resolvectl dns"),
    # Firewall rules and state.
    ("posix", "sudo iptables -S"),
    ("posix", "ip6tables --list -n"),
    ("posix", "sudo iptables-save"),
    ("posix", "nft list tables"),
    ("posix", "ufw status numbered"),
    ("posix", "firewall-cmd --get-active-zones"),
    ("posix", "/usr/libexec/ApplicationFirewall/socketfilterfw --listapps"),
    ("posix", "defaults read /Library/Preferences/com.apple.alf globalstate"),
    ("powershell", "Get-NetFirewallProfile"),
    # What runs on its own (jobs, tasks, services, timers, shadow copies) and the machine's defences.
    ("posix", "crontab -l"),
    ("posix", "sudo crontab -u root -l"),
    ("powershell", "schtasks /query /fo LIST /v"),
    ("powershell", "schtasks"),
    ("powershell", "Get-ScheduledTask | Where-Object State -eq Ready"),
    ("posix", "systemctl list-unit-files --state=enabled"),
    ("posix", "systemctl list-timers --all"),
    ("posix", "launchctl list | grep -v apple"),
    ("powershell", "vssadmin list shadows"),
    ("powershell", "sc.exe qc spooler"),
    ("powershell", "sc sdshow scmanager"),
    ("powershell", "logman query -ets"),
    ("powershell", "Get-AppLockerPolicy -Effective | Select -ExpandProperty RuleCollections"),
    ("powershell", "Get-MpComputerStatus"),
    ("powershell", "(Get-MpPreference).ExclusionPath"),
    # Hunting the disk for set-ID programs and files anyone may write.
    ("posix", "find / -perm -4000 -type f 2>/dev/null"),
    ("posix", "find /usr/bin -perm /6000"),
    ("posix", "find / -perm -g=s -type f"),
    ("posix", "find / -writable -perm -0002 -type d"),
    ("posix", "find /opt -type f -perm -o+w"),
    # Inside a wrapper or a script, it is the same survey.
    ("posix", "sudo sh -c 'arp -a; ip route'"),
    ("powershell", 'cmd /c "ipconfig /all & net share"'),
]

# The same programs used for what a build needs, asked for help, or mentioned as text.
ALLOWED = [
    ("posix", "echo $KUBECONFIG"),
    ("posix", "ctr --version"),
    ("posix", "docker ps -a"),
    # The project's own scripts and tests about the subject, and the kits named as text.
    ("posix", "python3 scripts/check_privesc.py"),
    ("posix", "pytest tests/test_privesc.py"),
    ("posix", "grep -rn linpeas docs"),
    ("powershell", "Get-Content .\\docs\\winpeas-notes.md"),
    ("posix", "hostname"),
    ("posix", "uname -srm"),
    ("posix", "nproc"),
    ("posix", "lscpu"),
    ("posix", "getconf _NPROCESSORS_ONLN"),
    ("posix", "sysctl -n hw.logicalcpu"),
    ("posix", "lsb_release -cs"),
    ("posix", "sw_vers -productVersion"),
    ("posix", "ip addr show"),
    ("posix", "ip -br link"),
    ("posix", "ifconfig lo0"),
    ("posix", "ss -tlnp"),  # the ports this machine listens on
    ("posix", "netstat -tlnp"),
    ("posix", "ss -s"),  # counters
    ("posix", "netstat -i"),
    ("posix", "lsof -iTCP -sTCP:LISTEN -P -n"),
    ("posix", "lsof -p 4242"),  # what one process holds
    ("posix", "lsof src/app.db"),
    ("powershell", "Get-NetTCPConnection -State Listen -LocalPort 8080"),
    ("posix", "spctl --assess --type execute -v build/App.app"),  # the project's own bundle, a release check
    ("posix", "fdesetup help"),
    ("powershell", "ipconfig"),
    ("posix", "ipconfig getifaddr en0"),
    ("posix", "scutil --get LocalHostName"),
    ("powershell", "net start"),
    ("powershell", "netsh advfirewall /?"),
    ("posix", "arp --help"),
    ("posix", "route --help"),
    ("posix", "klist --version"),
    ("posix", "networksetup -version"),
    ("posix", "iptables --version"),
    ("powershell", "wmic cpu get NumberOfCores"),
    ("powershell", "wmic logicaldisk get size,freespace"),
    ("powershell", "(Get-CimInstance Win32_ComputerSystem).NumberOfLogicalProcessors"),
    ("powershell", "Get-NetIPAddress -AddressFamily IPv4"),
    ("powershell", "tasklist"),
    ("posix", "whoami"),
    ("posix", "echo 'run arp -a to see neighbours'"),
    ("posix", "grep -rn 'ip route' docs/"),
    ("posix", "npm run route"),
    ("posix", "git log --grep=netstat"),
    ("posix", "defaults read com.apple.dock autohide"),
    # The services running now, like its processes; one the project uses; the script policy; help.
    ("posix", "systemctl list-units --failed"),
    ("posix", "service --status-all"),
    ("powershell", "Get-Service"),
    ("posix", "systemctl status postgresql"),
    ("posix", "systemctl is-active --quiet docker"),
    ("powershell", "Get-Service docker"),
    ("powershell", "Get-ExecutionPolicy -List"),
    ("powershell", "schtasks /?"),
    # The same search inside the project, and permissions that are not set-ID or world-writable.
    ("posix", "find . -perm -4000"),
    ("posix", "find dist -type f -perm -u+x"),
    ("posix", "find /opt/app -perm -0755"),
    ("posix", "find . -type f -perm -111 -name '*.sh'"),
]

# The same surveys of another machine are network, named by the network rules.
REMOTE = [
    ("powershell", "qwinsta /server:ts01.corp.local"),
    ("powershell", "query user /server:ts01"),
    ("powershell", "netsh -r srv01 interface show interface"),
    ("powershell", "systeminfo /s srv01"),
    ("powershell", "net view \\\\fileserver"),
]


def test_surveying_the_machine_and_its_network_is_blocked() -> None:
    every_case(BLOCKED, lambda shell, command: guard_blocks(shell, command, "env.machine-discovery"))


def test_facts_a_build_reads_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)


@pytest.mark.parametrize(("shell", "command"), REMOTE)
def test_surveying_another_machine_stays_network(shell: str, command: str) -> None:
    guard_blocks(shell, command, "network")


@pytest.mark.parametrize(
    ("shell", "command"),
    [
        ("posix", "cat /etc/machine-id"),
        ("posix", "cat /var/lib/dbus/machine-id"),
        ("posix", "sudo cat /sys/class/dmi/id/product_serial"),
        ("powershell", "REG QUERY HKLM\\SOFTWARE\\Microsoft\\Cryptography /v MachineGuid"),
        ("powershell", "(Get-ItemProperty HKLM:\\SOFTWARE\\Microsoft\\Cryptography).MachineGuid"),
        ("posix", "tcpping -h github.com -p 8080"),
        ("posix", "sysctl -a"),
        ("posix", "sysctl -a | grep net.ipv4"),
    ],
)
def test_the_machines_identity_and_probes_to_hosts_are_blocked(shell: str, command: str) -> None:
    d = guard_decision(shell, command)
    assert not d.allowed, command


@pytest.mark.parametrize(
    ("shell", "command"),
    [
        ("powershell", "Get-Content src\\Microsoft\\Cryptography\\Hash.cs"),
        ("posix", "cat etc/machine-id.example"),
        ("posix", "sysctl -n hw.ncpu"),
        ("powershell", 'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows Kits\\Installed Roots" /v KitsRoot10'),
    ],
)
def test_project_files_of_the_same_names_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("tasklist /svc", "env.process-owners"),
        ("tasklist /v /fo csv", "env.process-owners"),
        ("Get-ChildItem Cert:\\CurrentUser\\My", "env.credential-store"),
        ("Get-ChildItem -Path Cert:\\* -Recurse -CodeSigningCert", "env.credential-store"),
        ("Set-Location Cert:\\CurrentUser\\My; Get-ChildItem", "env.credential-store"),
        ("certutil -user -store My", "env.credential-store"),
        ("(Get-BitLockerVolume -MountPoint C).KeyProtector", "env.credential-store"),
    ],
)
def test_windows_services_per_process_certificate_stores_and_recovery_keys_are_blocked(
    command: str, expected: str
) -> None:
    guard_blocks("powershell", command, expected)


@pytest.mark.parametrize(
    "command",
    [
        "tasklist",
        'tasklist /fi "imagename eq node.exe"',
        "Get-ChildItem .\\certs",
        "certutil -hashfile dist\\app.zip SHA256",
    ],
)
def test_a_process_listing_and_project_certificates_stay_allowed(command: str) -> None:
    guard_allows("powershell", command)
