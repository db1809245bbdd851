"""Windows drives, tools and cmd lines read as they run. A recursive search from any drive's root (`D:\\`,
`N:\\`, a name pattern glued to it: `C:\\*flag.txt`) walks a whole disk as one from `C:\\` does, and a
credential hunt there is one; a drive named alone (`D:`, the folder the shell is in on it), the project's own
folders and a bare pattern stay the project's. AD-enumeration and relay tools are the tools their names say
however they are started: adPEAS imported or dot-sourced as PowerView is, and an attack tool's assembly handed
to the .NET host (`dotnet Inveigh.dll`, `dotnet exec .\\SharpHound.dll`) as its `.exe` is; the project's own
assemblies and `dotnet build/test/run` stay allowed. certutil deleting the domain's certificate templates
changes the domain's PKI; listing them reads the directory. And two everyday readings: cmd's `set
PATH=%A%\\bin;%B%\\bin;%PATH%` is one assignment (its `;` separates folders, nothing runs), and a PowerShell
path of two variables side by side (`"$root\\$name\\x.txt"`) is no `\\\\host` share, which starts with two
separators written so."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    # a whole-drive search from any drive's root, not only C:
    ("powershell", "Get-ChildItem -Recurse -Path N:\\ -Include *cred* -File", "env.credential-dump"),
    ("powershell", 'Get-ChildItem -Recurse -Path N:\\ | Select-String "cred" -List', "env.machine-search"),
    ("powershell", "Get-ChildItem -Recurse D:\\", "env.machine-search"),
    ("powershell", "gci -r E:\\ | Select-String cred -List", "env.machine-search"),
    ("powershell", "dir /s D:\\", "env.machine-search"),
    ("powershell", "dir /s /b E:\\", "env.machine-search"),
    ("powershell", "where /r D:\\ nc.exe", "env.machine-search"),
    ("powershell", "Get-ChildItem D:/ -Recurse -Filter nc.exe", "env.machine-search"),
    ("powershell", "Get-ChildItem -Path D:\\ -Include *cred* -Recurse", "env.credential-dump"),
    # a name pattern searched for from a drive's root, or from every user's folder
    ("powershell", "dir /s /b C:\\*flag.txt", "env.machine-search"),
    ("powershell", "dir C:\\*flag.txt /s", "env.machine-search"),
    ("powershell", "dir /s /b C:\\Users\\*flag.txt", "env.machine-search"),
    ("powershell", "dir /s /b D:\\Users\\*proof*", "env.machine-search"),
    ("powershell", "Get-ChildItem -Recurse C:\\*flag.txt", "env.machine-search"),
    # adPEAS, PowerView's AD enumerator, however it is loaded
    ("powershell", "Import-Module .\\adPEAS.ps1", "network.windows-remote"),
    ("powershell", ". .\\adPEAS.ps1", "network.windows-remote"),
    ("powershell", "Invoke-adPEAS -Scope All", "network.windows-remote"),
    ("powershell", "Invoke-adPEAS", "network.windows-remote"),
    # an attack tool's assembly run by the .NET host
    ("powershell", "dotnet Inveigh.dll", "network.socket"),
    ("powershell", "dotnet SharpHound.dll -c All", "network.socket"),
    ("powershell", "dotnet .\\Seatbelt.dll -group=all", "env.machine-discovery"),
    ("powershell", "dotnet exec Inveigh.dll", "network.socket"),
    ("powershell", "dotnet exec --runtimeconfig x.json .\\Rubeus.dll kerberoast", "env.credential-dump"),
    ("posix", "dotnet ./SharpHound.dll -c All", "network.socket"),
    # certificate templates deleted from, or listed in, the domain
    ("powershell", 'certutil -deltemplate "VulnerableTemplate"', "destructive.machine-state"),
    ("powershell", "certutil /deltemplate x", "destructive.machine-state"),
    ("powershell", "certutil -setcatemplates +WebServer", "destructive.machine-state"),
    ("powershell", "certutil -dstemplate", "network.windows-remote"),
    ("powershell", "certutil -v -dstemplate VulnerableTemplate", "network.windows-remote"),
    ("powershell", "certutil -template", "network.windows-remote"),
    ("powershell", "certutil -catemplates", "network.windows-remote"),
    # a search path that puts a folder outside the project first (cmd's reading of the assignment)
    ("powershell", "set PATH=C:\\Users\\Public;%PATH%", "unverifiable.outside-program"),
]

ALLOWED = [
    # searches of the project, a bare pattern, a drive named alone, a listing that does not recurse
    ("powershell", "dir /s /b *.txt"),
    ("powershell", "gci -r .\\src"),
    ("powershell", "Get-ChildItem -Recurse -Filter *.csproj"),
    ("powershell", "Get-ChildItem -Recurse | Select-Object -ExpandProperty FullName | Sort-Object"),
    ("powershell", "dir /s D:"),
    ("powershell", "Get-ChildItem D:\\"),
    ("powershell", "Get-ChildItem -Recurse D:\\work\\app"),
    ("powershell", "dir /s /b D:\\work\\app\\*.cs"),
    ("powershell", "dir /s /b C:\\src\\*.txt"),
    ("powershell", "where /r . *.sln"),
    ("powershell", "dir /s/b *.log"),
    # the .NET host running the project's own assemblies, and dotnet's own commands
    ("powershell", "dotnet build"),
    ("powershell", "dotnet test"),
    ("powershell", "dotnet run"),
    ("powershell", "dotnet bin\\Debug\\App.dll"),
    ("powershell", "dotnet bin\\Debug\\net8.0\\MyApp.dll --port 5000"),
    ("powershell", "dotnet exec bin\\Debug\\App.dll"),
    ("powershell", "dotnet test bin\\Debug\\App.Tests.dll"),
    ("powershell", "dotnet publish -r linux-x64 -p:AssemblyName=inveigh"),
    ("posix", "dotnet ./bin/Release/net8.0/Tool.dll --help"),
    # the project's own modules, help about a tool's name
    ("powershell", "Import-Module .\\src\\MyModule.psd1"),
    ("powershell", "Import-Module PSScriptAnalyzer"),
    ("powershell", "Get-Command Invoke-adPEAS"),
    # certutil on local files
    ("powershell", "certutil -hashfile x.zip SHA256"),
    ("powershell", "certutil -dump cert.cer"),
    ("powershell", "certutil -?"),
    # cmd's folder lists: `;` separates folders
    ("powershell", "SET PATH=%POSTGRES_PATH%\\bin;%MYSQL_PATH%\\bin;%PATH%"),
    ("powershell", "set PATH=%VCPKG_INSTALLED%\\bin;%VCPKG_INSTALLED%\\tools;%PATH%"),
    ("powershell", 'set "PATH=%A%\\bin;%B%\\tools;%PATH%"'),
    ("powershell", "set INCLUDE=%A%\\include;%B%\\include;%INCLUDE%"),
    ("powershell", "SET PATH=%PG%\\bin;%PATH%"),
    ("powershell", "set PATH=C:\\Program Files\\PostgreSQL\\bin;%PATH%"),
    # two variables side by side in a path
    (
        "powershell",
        '$PublicFunctions = @( Get-ChildItem -Path "$env:BHBuildOutput/$env:BHProjectName/Public/*.ps1"'
        " -ErrorAction SilentlyContinue )",
    ),
    ("powershell", 'Get-ChildItem "$env:A\\$env:B\\Public\\*.ps1"'),
    ("powershell", 'Get-Content "$root\\$name\\x.txt"'),
    ("powershell", 'Get-ChildItem "$PSScriptRoot\\$Name\\Public"'),
    ("powershell", 'Test-Path "$a/$b/x"'),
]

STILL_BLOCKED = [
    # real shares, written with two separators
    ("powershell", "Get-ChildItem \\\\host\\c$", "network"),
    ("powershell", 'Get-Content "\\\\$server\\share\\x.txt"', "network"),
    ("powershell", "Get-ChildItem //host/x", "network"),
    ("powershell", "$s = '\\\\srv\\share'; Get-ChildItem \"$s\\x\"", "network"),
    ("powershell", 'Get-ChildItem "$prefix\\\\server\\share"', "network"),
    # a folder list PowerShell would cut into a program from elsewhere
    ("powershell", "set PATH=C:\\x;C:\\y;%PATH%", "unverifiable.outside-program"),
    ("powershell", "set PATH=%A%\\bin;C:\\x\\bin;%PATH%", "unverifiable.outside-program"),
    ("powershell", "set PATH=C:\\Users\\Public;%A%\\bin;%PATH%", "unverifiable.outside-program"),
    ("powershell", "set PATH=%A%\\bin;%B%\\..\\..\\x;%PATH%", "unverifiable.outside-program"),
    ("powershell", "set PATH=a(rm -r C:\\x);%A%\\bin;%PATH%", "destructive"),
    # the same searches from C:, and an event log emptied (machine state, not a disk wiped)
    ("powershell", "Get-ChildItem -Recurse C:\\", "env.machine-search"),
    ("powershell", "dir /s /b C:\\*.txt", "env"),
    ("powershell", "wevtutil cl Security", "destructive.machine-state"),
    ("powershell", "Clear-EventLog -LogName Security", "destructive.machine-state"),
    ("powershell", "dotnet add reference ../MyProject/MyProject.csproj", "unverifiable.outside-program"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED + STILL_BLOCKED)
def test_drive_searches_tools_and_templates_are_blocked(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_project_searches_builds_and_cmd_folder_lists_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
