"""Windows lines from detection-engineering and incident-response notes (cmd and PowerShell spellings).

- Quotes inside a PowerShell command word are joined into its name, as PowerShell (and cmd) join them:
  `v"ssadmin" delete shadows`, `n"e"t user`, `ne''t user`, `c""m"d"` run vssadmin, net and cmd.
- `forfiles /s /p C:\\` walks the whole drive, as `dir C:\\ /s` does: machine search.
- The shadow-copy list read through WMI or CIM (`Get-WmiObject Win32_ShadowCopy`) is blocked as `vssadmin list
  shadows` is (its own rule, outranked by a remover later in the line).
- Listening ports asked through a `Where-Object` filter on `State` are `Get-NetTCPConnection -State Listen`.
- The event-trace providers registered on the machine (`logman query providers`) are inventory; trace
  sessions stay blocked.
- `$ExecutionContext.SessionState.LanguageMode` is a property read; `InvokeCommand` stays dynamic code.
- `reg export KEY out.reg` writes the .reg file (judged as a write: fine in the project); importing runs it.
- `jsc.exe` compiles as `csc.exe` does.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

_DOTNET = "c:\\windows\\Microsoft.NET\\Framework64\\v4.0.30319\\"
_DISCOVERY = "env.machine-discovery"
_DYNAMIC = "unverifiable.payload-dynamic"
_OUTSIDE = "containment.write-outside-project"

BLOCKED = [
    ("powershell", 'c""m"d"', "unverifiable.terminal-program"),
    ("powershell", 'n"e"t user', "env.accounts"),
    ("powershell", "ne''t user", "env.accounts"),
    ("powershell", 'w"h"oami /all', "env.accounts"),
    ("powershell", 'v"ssadmin" delete shadows /all /quiet', "destructive.disk-format"),
    ("powershell", 'vssadmin"" delete shadows /all /quiet', "destructive.disk-format"),
    ("powershell", 'c""m"d" /c net user', "env.accounts"),
    ("powershell", 'b"cdedit" /set {default} recoveryenabled no', "destructive.disk-format"),
    ("powershell", "s'c' stop WinDefend", "destructive.machine-state"),
    ("powershell", '& v"ssadmin" delete shadows /all /quiet', "destructive.disk-format"),
    ("powershell", 'Get-ChildItem | v"ssadmin" delete shadows', "destructive.disk-format"),
    ("powershell", 'forfiles /S /P C:\\ /m *.hive /d -10 /c "cmd /c echo @PATH"', "env.machine-search"),
    ("powershell", 'forfiles /S /P D:\\ /m *.txt /c "cmd /c echo @PATH"', "env.machine-search"),
    ("powershell", "forfiles /s /p \\ /m *.log", "env.machine-search"),
    ("powershell", 'forfiles /s /p . /m *.log /c "cmd /c del @path"', "destructive.forced-delete"),
    ("powershell", "Get-WmiObject Win32_ShadowCopy", "env.shadow-copies"),
    ("powershell", "Get-CimInstance Win32_ShadowCopy", "env.shadow-copies"),
    ("powershell", "gwmi win32_shadowcopy | select ID,InstallDate", "env.shadow-copies"),
    ("powershell", "gcim -ClassName Win32_ShadowCopy", "env.shadow-copies"),
    ("powershell", 'Get-CimInstance -Query "SELECT * FROM Win32_ShadowCopy"', "env.shadow-copies"),
    ("powershell", "vssadmin list shadows", _DISCOVERY),
    ("powershell", "Get-WmiObject Win32_ShadowCopy | Remove-WmiObject", "destructive"),
    ("powershell", "Get-NetTCPConnection | Where-Object {$_.State -eq 'Established'}", _DISCOVERY),
    ("powershell", "Get-NetTCPConnection | ? RemoteAddress -eq 10.0.0.1", _DISCOVERY),
    ("powershell", "Get-NetTCPConnection | Where-Object {$_.State -ne 'Listen'}", _DISCOVERY),
    (
        "powershell",
        "Get-NetTCPConnection | Where-Object {$_.State -eq 'Listen' -or $_.RemoteAddress -ne '0.0.0.0'}",
        _DISCOVERY,
    ),
    ("powershell", "Get-NetTCPConnection -State Established | ? State -eq Listen", _DISCOVERY),
    ("powershell", "logman query -ets", _DISCOVERY),
    ("powershell", "logman query", _DISCOVERY),
    ("powershell", "logman query providers -pid 1234", _DISCOVERY),
    ("powershell", "wevtutil gl Security", "env.system-logs"),
    ("powershell", "wevtutil qe Security /c:5", "env.system-logs"),
    # left blocked: the labelled samples hold these spellings as discovery (`getmac /v`, `wmic path
    # win32_logicaldisk …`, `wmic product get name,version,vendor`, `Get-EventLog -List`, `wevtutil.exe gli
    # Security`)
    ("powershell", "getmac", _DISCOVERY),
    ("powershell", 'cmd.exe /c "wmic path win32_logicaldisk get caption,freespace,size"', _DISCOVERY),
    ("powershell", "wmic product get name", _DISCOVERY),
    ("powershell", "Get-EventLog -List", "env.system-logs"),
    ("powershell", "wevtutil gli HardwareEvents", "env.system-logs"),
    ("powershell", "$ExecutionContext.InvokeCommand.InvokeScript('Get-Date')", _DYNAMIC),
    ("powershell", "$ExecutionContext.InvokeCommand.ExpandString($x)", _DYNAMIC),
    ("powershell", "$ExecutionContext.SessionState.LanguageMode = 'FullLanguage'", _DYNAMIC),
    ("powershell", "$ExecutionContext.SessionState.PSVariable.Get('x')", _DYNAMIC),
    ("powershell", "reg export HKCU\\Software\\MyApp C:\\Temp\\out.reg /y", _OUTSIDE),
    ("powershell", "reg save HKCU\\Software\\MyApp C:\\Temp\\out.hiv", _OUTSIDE),
    ("powershell", "reg export HKLM\\Software\\* hklm.reg", "env.credential-dump"),
    ("powershell", "reg export HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Run run.reg", "env"),
    ("powershell", "reg import x.reg", "destructive.registry"),
    ("powershell", "regedit /s x.reg", "destructive.registry"),
    ("powershell", "regedit /e out.reg HKEY_CURRENT_USER\\Software\\MyApp", "destructive.registry"),
    ("powershell", "jsc.exe C:\\Users\\Public\\x.js", "unverifiable.outside-program"),
    ("powershell", "jsc.exe /out:C:\\Windows\\Temp\\x.exe x.js", _OUTSIDE),
]

ALLOWED = [
    ("powershell", 'g"it" status'),
    ("powershell", "d'otnet' build"),
    ("powershell", '& "C:\\Program Files\\Git\\bin\\git.exe" status'),
    ("powershell", 'git commit -m "fix: quote"'),
    ("powershell", 'forfiles /s /p . /m *.log /c "cmd /c echo @path"'),
    ("powershell", 'forfiles /p C:\\ /m *.txt /c "cmd /c echo @path"'),
    ("powershell", 'forfiles /s /m *.cs /c "cmd /c echo @file"'),
    ("powershell", "dir /s /b *.csproj"),
    ("powershell", "Get-CimInstance Win32_ComputerSystem"),
    ("powershell", "Get-NetTCPConnection -State Listen"),
    ("powershell", "Get-NetTCPConnection | Where-Object {$_.State -eq 'Listen'}"),
    ("powershell", "Get-NetTCPConnection | ? State -eq Listen"),
    ("powershell", "Get-NetTCPConnection | Where-Object State -eq 'Listen'"),
    (
        "powershell",
        'Get-NetTCPConnection | Where-Object {$_.State -eq "Listen"} | Select-Object LocalAddress,LocalPort',
    ),
    ("powershell", "logman query providers"),
    ("powershell", "logman query providers Microsoft-Windows-Security-Auditing"),
    ("powershell", '$p = logman query providers; $p | ? { $_ -Like "*Security*" }'),
    ("powershell", "Get-PSDrive"),
    ("powershell", "Get-Volume"),
    ("powershell", "$ExecutionContext.SessionState.LanguageMode"),
    ("powershell", "if ($ExecutionContext.SessionState.LanguageMode -ne 'FullLanguage') { Write-Host x }"),
    ("powershell", "reg export HKCU\\SOFTWARE\\Microsoft\\accessibility cache\\out.reg /y"),
    ("powershell", "reg export HKCU\\Software\\MyApp settings.reg"),
    ("powershell", "reg save HKCU\\Software\\MyApp out.hiv"),
    ("powershell", _DOTNET + "jsc.exe /target:exe /out:cache\\file.exe inputs\\file.js"),
    ("powershell", _DOTNET + "csc.exe /target:exe /out:cache\\file.exe inputs\\file.cs"),
    ("powershell", "jsc.exe /out:build\\x.exe src\\x.js"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_obfuscated_names_drive_walks_and_inventories_block(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_listening_ports_language_mode_exports_and_compiles_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
