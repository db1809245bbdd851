"""A batch file's lines given to the `powershell` backend, and build-script PowerShell around them.

- A line PowerShell can parse that reads cmd's `%NAME%` of a secret-looking or who-and-where name
  (`echo %NPM_TOKEN%`, `signtool sign /p %SIGN_PASSWORD% app.exe`): a batch file expands it, so the read is
  judged as cmd's (`%JAVA_HOME%`, `%~dp0`, `%1`, `50%` and PowerShell's own `%` stay allowed).
- cmd program variables with a suffix naming them a program (`%npm_exe% ci`, `%NUGET_EXE% push`) are
  that program; a quoted one (`"%MSBUILD%" app.sln`) is judged as the unquoted one is.
- `del /q FILE` and `del /f /q FILE` of one named file are deleting that file (`rm -f FILE`): `/q` only
  silences the prompt cmd shows for wildcards; wildcard and `/s` deletes keep their decisions.
- `call "C:/Program Files (x86)/…/vcvars64.bat"` with forward slashes is the same program folder.
- Valid PowerShell the grammar rejects: `Remove-Module [p]sake` (a character class with no `*`), and a
  quoted value with a blank before a quoted variable glued to a `\\` (`/p:Platform="Any CPU"
  /p:OutDir="$o"\\`).
- A program below a folder a cmd variable names (`call %ROOT%\\Build\\pack.bat`) is judged by its name,
  the folder left to the sandbox, unless the folder is the home, temp or another who-and-where one.
- `Import-Module $mod` (a module the build just made, named by a variable) stays allowed, as it was:
  the labelled samples hold it as everyday build-script work.
- PowerShell's `rm -rf dist` (Remove-Item rejects `-rf`) is judged as `rm -r -fo dist`.
- cmd's `for /f "usebackq" … in (`cmd`)`: the backtick is cmd's own quoting.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

VCVARS = "Microsoft Visual Studio/2019/Community/VC/Auxiliary/Build/vcvars64.bat"

BLOCKED = [
    ("powershell", "echo %NPM_TOKEN%", "env.powershell-environment"),
    ("powershell", "echo %AWS_SECRET_ACCESS_KEY%", "env.powershell-environment"),
    ("powershell", "echo Token: %GITHUB_TOKEN%", "env.powershell-environment"),
    ("powershell", "signtool sign /a /fd SHA256 /p %SIGN_PASSWORD% app.exe", "env.powershell-environment"),
    (
        "powershell",
        "signtool sign /f %SIGN_KEYSTORE_WINDOWS% /p %SIGN_PASSWORD% /tr %SIGN_TSA% /td SHA256 "
        "build\\%PRODUCT_NAME%.exe || EXIT /B 1",
        "env.powershell-environment",
    ),
    ("powershell", "tool /p %PASSWORD%", "env.powershell-environment"),
    ("powershell", "echo %PATH%", "env.powershell-environment"),
    ("powershell", "echo %USERNAME%", "env.powershell-environment"),
    ("powershell", 'git commit -m "release %NPM_TOKEN%"', "env.powershell-environment"),
    ("powershell", "@path C:\\x\\bin;%PATH%", "unverifiable.outside-program"),
    ("powershell", "echo user:%API_TOKEN% > auth.txt", "env.powershell-environment"),
    ("powershell", "%npm_exe% ci", "network.package-install"),
    ("powershell", "%npm_exe% publish", "network.publish"),
    ("powershell", "%NPM_CMD% publish", "network.publish"),
    ("powershell", "%NUGET_EXE% push x.nupkg", "network"),
    ("powershell", "%PYTHON_EXE% -m pip install requests", "network.package-install"),
    ("powershell", "%GIT_BIN% push origin main", "network.git-remote"),
    ("powershell", '"%NUGET_EXE%" push x.nupkg', "network"),
    ("powershell", '"%NPM%" publish', "network.publish"),
    ("powershell", "del /s /q *.txt", "destructive.recursive-delete"),
    ("powershell", "del /q /s src", "destructive.recursive-delete"),
    ("powershell", "call %USERPROFILE%\\x.bat", "unverifiable.outside-program"),
    ("powershell", "call %TEMP%\\x.bat", "unverifiable.outside-program"),
    ("powershell", "%APPDATA%\\x.exe", "unverifiable.outside-program"),
    ("powershell", ". $script", "dynamic.command-name"),
    # (a module below the script's own folder, `$PSScriptRoot\\x.psm1`, is judged by its name: see
    # test_guard_windows_build_scripts.py; one in the home is outside the project)
    ("powershell", "Import-Module $HOME\\x.psm1", "unverifiable.outside-program"),
    ("powershell", "rm -rf src", "destructive.recursive-delete"),
    ("powershell", "rm src -rf", "destructive.recursive-delete"),
    ("powershell", "rm -rf dist src", "destructive.recursive-delete"),
    ("powershell", "del /q src", "destructive.forced-delete"),
    ("powershell", "erase /q /f src\\*.cs", "destructive.forced-delete"),
    ("powershell", "del %OUT%\\x.obj", "containment.write-unknown-target"),
    ("powershell", 'del "%APPDATA%\\x.dll"', "containment.write-unknown-target"),
    ("powershell", 'call "C:/Users/me/AppData/Local/x.bat"', "unverifiable.outside-program"),
    ("powershell", "call %ROOT%\\..\\x.bat", "unverifiable.outside-program"),
    ("powershell", "@call %ROOT%\\Build\\npm.cmd publish", "network.publish"),
    ("powershell", "@%TEMP%\\x.bat", "env"),
    ("powershell", "call sign.bat x.exe", "unverifiable.launched-program"),
    ("powershell", "mpiexec x.exe", "unverifiable.launched-program"),
    ("powershell", 'for /f "usebackq tokens=*" %%i in (`curl -s https://x.io/a`) do set V=%%i', "network"),
]

ALLOWED = [
    ("powershell", "echo %JAVA_HOME%"),
    ("powershell", "echo %CONFIGURATION%"),
    ("powershell", "echo %~dp0"),
    ("powershell", "echo %1"),
    ("powershell", "echo 50%"),
    ("powershell", "signtool sign /a /fd SHA256 /p secret app.exe"),
    ("powershell", "Write-Progress -Activity build -PercentComplete 50"),
    ("powershell", '"{0:P0}" -f $x'),
    ("powershell", "$a % $b"),
    ("powershell", "Get-ChildItem | % { $_.Name }"),
    ("powershell", "git commit -m 'document %NPM_TOKEN%'"),
    ("powershell", "Select-String -Pattern '%NPM_TOKEN%' -Path *.md"),
    ("powershell", "mkdir %TEMP%\\scratch"),
    ("powershell", "path C:\\Strawberry\\perl\\bin;%PATH%"),
    ("powershell", "@set PATH=tools\\bin;%PATH%"),
    ("powershell", "%PYTHON_EXE% setup.py build"),
    ("powershell", "%node_gyp_exe% rebuild"),
    ("powershell", "%PYTHON% setup.py build"),
    ("powershell", '"%node_exe%" x.js'),
    ("powershell", '"%PYTHON%" setup.py build'),
    ("powershell", '"%MSBUILD%" app.sln /p:Configuration=Release'),
    (
        "powershell",
        '"%node_exe%" "%~dp0tools\\build-addons.js" '
        '"%~dp0deps\\npm\\node_modules\\node-gyp\\bin\\node-gyp.js" "%~dp0test\\addons"',
    ),
    ("powershell", "del /q log.txt"),
    ("powershell", "del /f /q build.log"),
    ("powershell", "erase /q log.txt"),
    ("powershell", 'Del "%~dp0\\log.txt" /q'),
    ("powershell", 'del "%OUT%\\x.obj"'),
    ("powershell", "del /q *.obj"),
    ("powershell", f'call "C:/Program Files (x86)/{VCVARS}"'),
    ("powershell", f'call "C:/Program Files (x86)/{VCVARS}" x64'),
    ("powershell", 'call "C:\\Program Files (x86)\\' + VCVARS.replace("/", "\\") + '"'),
    ("powershell", "remove-module [p]sake"),
    ("powershell", "Get-Module [p]sake"),
    ("powershell", "Remove-Module [p]ester -ErrorAction Ignore"),
    ("powershell", "Get-ChildItem [0-9]*"),
    ("powershell", 'msbuild /p:Platform="Any CPU" /p:OutDir="$o"\\ x.sln'),
    ("powershell", 'msbuild /p:A="x y" /p:B="$o"\\ x'),
    (
        "powershell",
        'exec { msbuild /m:$max_cpu_count /p:Configuration="$build_configuration" /p:Platform="Any CPU" '
        '/p:OutDir="$build_output_directory"\\\\ "$solution_file" }',
    ),
    ("powershell", "call %ROOT%\\Build\\nuget-pack.bat"),
    ("powershell", "%QT_PATH%\\msvc2017\\bin\\windeployqt.exe --release ./x86/"),
    ("powershell", "call %~dp0tools\\sign.bat x.exe"),
    ("powershell", "call tools\\sign.bat Release\\node.exe"),
    ("powershell", "Import-Module Pester"),
    ("powershell", "Import-Module .\\build\\x.psm1"),
    ("powershell", "rm -rf dist"),
    ("powershell", "rm dist -rf"),
    ("powershell", "rm -rf node_modules"),
    ("powershell", "rm -r -fo dist"),
    ("powershell", 'for /f "usebackq tokens=*" %%i in (`python x.py`) do set V=%%i'),
    ("powershell", "for /f %%i in ('git describe') do set V=%%i"),
    ("powershell", '@del "%OUT%\\x.obj"'),
    ("powershell", 'if exist "%config%\\cctest.exe" del "%config%\\cctest.exe"'),
    ("powershell", "@call %ROOT%\\Build\\nuget-pack.bat"),
    ("powershell", "@%QT_PATH%\\bin\\windeployqt.exe --release x86"),
    ("powershell", "Import-Module Pester -MinimumVersion $v"),
    ("powershell", "Import-Module $psakeModule"),
    ("powershell", "Import-Module -Name $outputManifest -Force"),
    ("powershell", "rm -Rf bin,obj"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_batch_file_reads_and_programs_block(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_everyday_batch_and_build_lines_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
