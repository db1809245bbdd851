"""Programs whose job is another machine, whatever their arguments: tunnels and relays that expose this
machine or reach through to another (ngrok-style, reverse SOCKS, DNS/ICMP tunnels), remote-execution and
relaying kits for Windows domains, the domain's directory (Active Directory and Group Policy cmdlets, LDAP
and Kerberos clients, macOS Directory Service nodes other than the local one), Windows tools told to act on
another machine (`/s HOST`, `netsh -r HOST`) and network scanners. Their local twins (the same program asking
for its help, the local directory node, the local machine's own report) stay allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    # Tunnels and relays.
    ("posix", "loclx tunnel http --port 8080"),
    ("posix", "devtunnel host -p 8080"),
    ("posix", "gs-netcat -s secret -i"),
    ("posix", "gsocket -s secret /usr/sbin/sshd -D"),
    ("posix", "./ligolo-agent -connect relay:11601"),
    ("posix", "iodine -f tunnel.example"),
    ("posix", "zrok share public 8080"),
    ("powershell", "powercat -l -p 443"),
    ("posix", "./stowaway admin -l 9999 -s 123"),
    ("posix", "python neoreg.py generate -k password"),  # the tunnel's server side, made to be dropped
    ("powershell", "npc.exe install -server=relay:8024 -vkey=x"),
    ("powershell", "npc-update.exe update"),
    ("posix", "suo5 -c suo5.yaml"),
    # Remote execution, relaying and coercion kits.
    ("posix", "nxc smb hosts.txt -u users.txt"),
    ("posix", "impacket-ntlmrelayx -tf targets.txt"),
    ("posix", "wmiexec.py -k corp/alice"),
    ("posix", "mitm6 -i eth0"),
    ("posix", "kerbrute userenum users.txt"),
    ("posix", "certipy find -vulnerable"),
    # The domain's directory.
    ("powershell", "Get-ADTrust -Filter *"),
    ("powershell", "Search-ADAccount -AccountInactive -TimeSpan 30"),
    ("powershell", "Get-GPOReport -All -ReportType Html -Path r.html"),
    ("powershell", "Get-DomainUser -Identity bob"),
    ("powershell", "Find-DomainShare"),
    ("powershell", "Invoke-Kerberoast"),
    ("powershell", "Invoke-ShareFinderThreaded -CheckAdmin -NoPing"),  # PowerView's threaded share hunt
    ("powershell", "Invoke-SDPropagator -showProgress -timeoutMinutes 1"),  # AdminSDHolder pushed out now
    ("posix", "winexe -U Administrator%Password //127.0.0.1 cmd.exe"),  # a remote Windows shell over SMB
    ("powershell", "$dsEntry.PsBase.CommitChanges()"),  # a directory object's changes saved to the domain
    ("powershell", "Invoke-ASREPRoast -Verbose"),
    ("powershell", "findstr /S cpassword %logonserver%\\sysvol\\*.xml"),
    ("powershell", "dir %LOGONSERVER%\\netlogon"),
    ("powershell", "New-MachineAccount -MachineAccount x -Password $pw"),
    ("powershell", "Get-SQLServerLinkCrawl -Instance sql01 -Verbose"),
    ("powershell", "Get-SQLInstanceDomain | Get-SQLConnectionTestThreaded"),
    ("posix", "kinit alice@CORP.LOCAL"),
    ("posix", "ldapmodify -f change.ldif"),
    ("posix", "ldapmodify -x -h ldap.corp.local -D cn=admin -w pw -f change.ldif"),  # -h is the server
    ("posix", "realm join corp.local"),
    ("posix", 'dscl "/Active Directory/CORP/All Domains" -list /Users'),
    ("posix", "dscl /LDAPv3/ldap.corp -read /Users/alice"),
    # Windows tools told to act on another machine.
    ("powershell", "gpresult /s srv01 /r"),
    ("powershell", "openfiles /query /s srv01"),
    ("powershell", "netsh -r srv01 advfirewall show allprofiles"),
    ("powershell", "logman query -s srv01"),
    # Scanners and discovery of other machines.
    ("posix", "onesixtyone -c community.txt hosts.txt"),
    ("posix", "dnsrecon -d corp.example"),
    ("posix", "gobuster dir -w words.txt"),
    ("posix", "nuclei -l targets.txt"),
    ("posix", "sublist3r -d corp.example"),
    ("posix", "smbserver.py share ./out"),
    ("posix", "sudo ./Responder.py -I eth0"),
    # AppleScript mounting a share or driving an application on another machine.
    ("posix", """osascript -e 'mount volume "smb://user:pw@10.0.0.1/share"'"""),
    (
        "posix",
        """osascript -e 'tell application "Finder" of machine "eppc://10.0.0.1" to get name of every disk'""",
    ),
]

ALLOWED = [
    ("powershell", "$ht.psbase.Keys | ForEach-Object { $_ }"),  # PowerShell's own view of any object
    ("posix", "kinit --help"),
    ("posix", "ldapmodify --help"),
    ("posix", "dscl . -read /Users/dev"),
    ("posix", "dscl . -read /Users/dev RealName"),
    ("posix", "python services.py"),
    ("posix", "python reg.py --check"),
    ("powershell", "netsh interface /?"),
    ("powershell", "Get-NetAdapter"),
    ("powershell", "Get-NetIPAddress"),
    ("powershell", "Test-Admin"),
    ("posix", "./services.sh --list"),
    ("powershell", "nltest /?"),
    ("powershell", "echo %BUILD_CONFIG%"),
    ("powershell", "dir %TEMP%\\build"),
    ("posix", "echo 'run ngrok http 8080 to share it'"),
    ("posix", "nps build"),  # Node Package Scripts, which shares a name with the tunnel's server
    ("posix", "stowaway --help"),
    ("posix", "grep -rn kerbrute docs"),
    ("posix", """osascript -e 'display notification "see https://example.com/build"'"""),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_programs_whose_job_is_another_machine_are_network(shell: str, command: str) -> None:
    guard_blocks(shell, command, "network")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_their_local_twins_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
