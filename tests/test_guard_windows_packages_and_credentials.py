"""Windows package sources and Chocolatey's short commands, certutil's pings, and credential hunts.

Chocolatey's old commands take the package straight away (`cinst git`, `cup all -y`); PowerShell's resource
repositories trusted change where every later install comes from; `certutil -ping` contacts a
certificate server; a search for password words across a whole drive (`findstr /s pass C:\\*`), a LAPS
toolkit's reader, or IIS's configuration (sites' `web.config` under `inetpub`, `applicationHost.config`)
collects the machine's credentials; so does a credential word hidden among a regular expression's
alternatives (`-Pattern "password|login|cred"`). Help, hashing and searches in the project stay allowed.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("powershell", "cinst papercut", "destructive.machine-state"),
    ("powershell", "cup all -y", "destructive.machine-state"),
    ("powershell", "cuninst 7zip -y", "destructive.machine-state"),
    ("powershell", "Set-PSResourceRepository -Name PSGallery -Trusted -PassThru", "network.package-install"),
    ("powershell", "certutil.exe -ping attacker.example", "network.http-client"),
    ("powershell", 'findstr /R /S /I /P ".*pass.* .*pwd.*" C:\\\\* 2>nul', "env.credential-dump"),
    ("powershell", "findstr /s /i password D:\\a\\repo\\src\\*.cs", "env.credential-dump"),
    ("powershell", "Get-LAPSPasswords", "env.credential-dump"),
    # IIS's sites' connection strings and its app pools' passwords
    ("powershell", 'findstr "connectionString" C:\\inetpub\\wwwroot\\web.config', "env.credential-dump"),
    (
        "powershell",
        "Get-Content C:\\Windows\\System32\\inetsrv\\config\\applicationHost.config",
        "env.credential-dump",
    ),
    ("posix", "cat /mnt/c/inetpub/wwwroot/web.config", "env.credential-dump"),
    # a credential word among a regular expression's alternatives
    (
        "powershell",
        'Get-ChildItem -Recurse -Include *.txt,*.xml,*.config | Select-String -Pattern "password|login|cred"',
        "env.credential-dump",
    ),
    ("powershell", 'Select-String -Path *.config -Pattern "user|password"', "env.credential-dump"),
    ("posix", "grep -rniE 'password|secret' .", "env.credential-dump"),
    ("posix", "grep -rn 'pass\\|key' /etc", "env.credential-dump"),
    ("posix", "ps aux | grep -E 'pass|token'", "env.credential-dump"),
]

ALLOWED = [
    ("powershell", "cinst -?"),
    ("powershell", "certutil -hashfile dist\\app.zip SHA256"),
    ("powershell", "findstr /s /i PasswordField src\\*.cs"),
    ("powershell", "Get-PSResourceRepository"),
    ("powershell", "Get-Content src\\Web\\web.config"),  # the project's own
    ("powershell", 'Select-String -Path *.config -Pattern "user|password" -SimpleMatch'),  # one phrase
    ("powershell", 'Get-ChildItem -Recurse | Select-String "TODO|FIXME"'),
    ("posix", "grep -rnF 'pass|key' docs/"),
    ("posix", "grep -rnE 'PasswordField|Login' src/"),
    ("powershell", "Unregister-PSRepository -Name output -ErrorAction SilentlyContinue"),  # a build's own
]


def test_package_sources_pings_and_credential_hunts_are_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_help_hashes_and_project_searches_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)
