"""Programs whose job is to run other code (Windows proxy execution): script hosts, DLL and control-panel
loaders, installers, injectors, debuggers and launchers run code in forms the policy cannot read, so they are
unverifiable; where what they run is a literal command (`conhost CMD`, Electron's launcher options), that
command is checked like any other. Beside each, a harmless use of the same program stays allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("cscript //e:vbscript C:\\ads\\file.txt:script.vbs", "unverifiable"),
    ("wscript.exe payload.js", "unverifiable.windows-launcher"),
    ('mshta.exe vbscript:Close(Execute("x"))', "network"),
    ("rundll32.exe payload.dll,EntryPoint", "unverifiable.windows-launcher"),
    ("regsvr32 /s /u /i:payload.sct scrobj.dll", "unverifiable.windows-launcher"),
    ("msiexec /quiet /i payload.msi", "unverifiable.windows-launcher"),
    ("msiexec /y payload.dll", "unverifiable.windows-launcher"),
    ("control.exe payload.cpl", "unverifiable.windows-launcher"),
    ("mmc.exe -Embedding payload.msc", "unverifiable.windows-launcher"),
    ("InstallUtil.exe /logfile= /LogToConsole=false /U payload.dll", "unverifiable.windows-launcher"),
    ("mavinject.exe 1000 /INJECTRUNNING payload.dll", "unverifiable.windows-launcher"),
    ("pcalua.exe -a payload.exe", "unverifiable.windows-launcher"),
    ("msdt.exe -path C:\\x\\pcw.xml -af x.xml", "unverifiable.windows-launcher"),
    ("cdb.exe -cf x.wds -o notepad.exe", "unverifiable.windows-launcher"),
    ("vshadow.exe -nw -exec=payload.exe C:", "unverifiable.windows-launcher"),
    ('wsb start --config "<Configuration/>"', "unverifiable.windows-launcher"),
    ('SyncAppvPublishingServer.vbs "n;Start-Process calc"', "unverifiable.windows-launcher"),
    ("payload.hta", "unverifiable.windows-launcher"),
    ("csi.exe payload.cs", "unverifiable.windows-launcher"),
    ('sc create x binPath= "cmd /c payload.exe"', "destructive.machine-state"),
    ("sc config x binpath= payload.exe", "destructive.machine-state"),
    ("conhost.exe --headless cmd /c rd /s /q C:\\src", "destructive"),
    ('conhost.exe powershell -c "iwr http://x"', "network"),
    ('msedgewebview2.exe --utility-cmd-prefix="cmd /c rd /s /q C:\\src"', "destructive"),
    ('wmic process call create "cmd /c x"', "unverifiable"),
    ("wmic process list /FORMAT:evil.xsl", "unverifiable.windows-launcher"),
    ("type payload.exe >> note.txt:evil.exe", "unverifiable.alternate-stream"),
]

ALLOWED = [
    "msiexec /?",
    "cscript /?",
    "conhost.exe --headless dotnet test",
    "msedgewebview2.exe --version",
    "wmic process list brief",
    "wmic os get caption /format:list",
    "sc.exe query",
    "Get-Content notes.txt",
    "pytest tests/test_x.py::test_y",
]


@pytest.mark.parametrize(("command", "expected"), BLOCKED)
def test_a_program_that_runs_other_code_is_checked_or_unverifiable(command: str, expected: str) -> None:
    guard_blocks("powershell", command, expected)


@pytest.mark.parametrize("command", ALLOWED)
def test_harmless_uses_stay_allowed(command: str) -> None:
    guard_allows("powershell", command)
