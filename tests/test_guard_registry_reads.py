"""Reading the registry, decided by the class of key: what starts with the machine (Run, RunOnce, Winlogon,
services, debugger hooks), how it protects logons (LSA, security providers, UAC and group policies, Defender,
Remote Desktop) and saved sessions and VNC passwords are the machine's defences and secrets; a build never
reads them. The keys a build does read — where an SDK, Visual Studio or .NET is installed, the OS build,
long-path support — stay allowed, as do files and folders that happen to share a key's name."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    # Logon protection: LSA and its packages, security providers, UAC and group policies.
    "reg query HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa",
    "reg query HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Lsa /v RunAsPPL",
    "REG QUERY HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\System\\ /v EnableLUA",
    "reg query HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\PowerShell\\ScriptBlockLogging",
    "reg query HKLM\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders\\WDigest",
    "Get-ItemProperty 'HKLM:\\System\\CurrentControlSet\\Control\\Lsa' -Name LmCompatibilityLevel",
    "(Get-ItemProperty HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows\\System).EnableSmartScreen",
    # What starts with the machine: autostart keys, Winlogon, services, debugger hooks, scheduled tasks.
    'reg query "HKLM\\SOFTWARE\\Microsoft\\Active Setup\\Installed Components"',
    "reg query HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\ShellServiceObjectDelayLoad",
    'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Group Policy\\Scripts\\Startup"',
    "reg query HKLM\\SYSTEM\\CurrentControlSet\\Control\\SafeBoot",
    'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Windows"',
    'reg query "HKCU\\Software\\Microsoft\\Command Processor" /v AutoRun',
    'reg query "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager" /v BootExecute',
    "Get-ItemProperty 'HKCU:\\Software\\Classes\\ms-settings\\Shell\\Open\\command'",
    "reg query HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run",
    "reg query HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\RunOnce /s",
    'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\\" /v Userinit',
    "reg.exe query HKLM\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters",
    "Get-ChildItem HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Run",
    "gci REGISTRY::HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Services | select Name",
    "Get-Acl -Path REGISTRY::HKLM\\SYSTEM\\CurrentControlSet\\Services\\MySvc | Format-List",
    "gp 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Image File Execution Options\\x.exe'",
    "reg query HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Schedule\\TaskCache\\Tree",
    # Defender's settings and Remote Desktop.
    "Get-ChildItem 'HKLM:\\SOFTWARE\\Microsoft\\Windows Defender\\Exclusions\\Paths'",
    "Get-ItemPropertyValue 'HKLM:\\SYSTEM\\CurrentControlSet\\Control\\Terminal Server' fDenyTSConnections",
    'reg query "HKCU\\Software\\Microsoft\\Terminal Server Client\\Servers"',
    # Saved sessions and stored VNC passwords.
    "reg query HKCU\\Software\\ORL\\WinVNC3\\Password",
    "reg query HKLM\\SOFTWARE\\RealVNC\\WinVNC4 /v password",
    "reg query HKCU\\Software\\SimonTatham\\PuTTY\\SshHostKeys",
    'reg query "HKCU\\Software\\Martin Prikryl\\WinSCP 2\\Sessions" /s',  # WinSCP's saved logins
    'Get-ItemProperty "HKCU:\\Software\\Martin Prikryl\\WinSCP 2\\Sessions\\*"',
    "reg export HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate wu.reg",
    # A key's blanks left unquoted, as cheat sheets write them: the words up to the first option are one key.
    "reg query HKEY_CURRENT_USER\\Software\\Martin Prikryl\\WinSCP 2\\Sessions /s",
    "reg query HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Image File Execution Options /s",
    "reg query HKCU\\Software\\Microsoft\\Terminal Server Client\\Servers",
    "reg export HKLM\\SOFTWARE\\Microsoft\\Windows Defender\\Exclusions ex.reg",
    # The proxy every program goes through, the shims applied to programs, the USB drives ever attached.
    'REG QUERY "HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Internet Settings"',
    "gp 'HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Internet Settings' | Select ProxyServer",
    'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\AppCompatFlags\\InstalledSDB"',
    "reg query HKLM\\SYSTEM\\CurrentControlSet\\Enum\\USBSTOR /s /v FriendlyName",
    # Through cmd and on the other spelling of the provider.
    "cmd /c reg query HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa",
    "Get-Item -Path Microsoft.PowerShell.Core\\Registry::HKLM\\SYSTEM\\CurrentControlSet\\Services",
]

ALLOWED = [
    # Where the toolchain is installed, and what the OS is.
    "reg query HKLM\\SOFTWARE\\Microsoft\\Windows Kits\\Installed Roots /v KitsRoot10",  # blanks unquoted
    'reg query "HKLM\\SOFTWARE\\Microsoft\\Windows Kits\\Installed Roots" /v KitsRoot10',
    "reg query HKLM\\SOFTWARE\\WOW6432Node\\Microsoft\\VisualStudio\\SxS\\VS7",
    'reg query "HKLM\\SOFTWARE\\Microsoft\\NET Framework Setup\\NDP\\v4\\Full" /v Release',
    "reg query HKLM\\SYSTEM\\CurrentControlSet\\Control\\FileSystem /v LongPathsEnabled",
    "Get-ItemProperty 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion' -Name CurrentBuild",
    "Get-ItemProperty HKLM:\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\* | Select DisplayName",
    "vswhere -latest -products * -requires Microsoft.Component.MSBuild -find MSBuild\\**\\Bin\\MSBuild.exe",
    "vswhere -latest -property installationPath",
    # Files and folders that share a key's name are files.
    "Get-ChildItem .\\docs\\policies\\",
    "Get-Content src\\Services\\Run\\config.json",
    "Get-ChildItem -Recurse src\\Control\\Lsa",
    "Get-ChildItem '.\\docs\\Internet Settings'",
]


@pytest.mark.parametrize("command", BLOCKED)
def test_security_and_startup_keys_are_machine_inspection(command: str) -> None:
    guard_blocks("powershell", command, "env.registry-security-keys")


@pytest.mark.parametrize("command", ALLOWED)
def test_toolchain_keys_and_lookalike_files_stay_allowed(command: str) -> None:
    guard_allows("powershell", command)


def test_writing_a_startup_key_is_still_named_as_a_registry_write() -> None:
    command = "reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v x /d y"
    guard_blocks("powershell", command, "destructive")
