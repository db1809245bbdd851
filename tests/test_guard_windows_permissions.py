"""Permission grants and ownership on Windows: granting Everyone (or Users, Authenticated Users, `*S-1-1-0`)
rights on a file outside the project, any account full, modify or write rights there, or taking ownership of
one (`takeown`, `icacls /setowner`, `Set-Acl`, `subinacl`), opens a system file to tampering. A path written
absolute, under a variable or climbing out is outside; the project's own files may be shared and reading
permissions stays allowed. A file the user owns needs no taking over: `takeown` blocks wherever it points."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("powershell", "icacls.exe %temp%\\x /grant Everyone:F"),
    ("powershell", "icacls C:\\Windows\\System32\\x.dll /grant:r Everyone:(F)"),
    ("powershell", 'icacls "C:\\Program Files\\App" /grant "Users:(OI)(CI)F"'),
    ("powershell", "icacls C:\\x /grant *S-1-1-0:F"),
    ("powershell", "icacls ..\\..\\shared /grant Everyone:M"),
    ("powershell", "icacls C:\\Windows\\x.exe /setowner Administrators"),
    ("powershell", "cacls C:\\Windows\\x.exe /e /g Everyone:F"),
    ("powershell", "xcacls C:\\x /G Everyone:F /Y"),
    ("powershell", "takeown /f C:\\Windows\\System32\\sethc.exe"),
    ("powershell", "takeown.exe /F %windir%\\x.exe /A"),
    ("powershell", "takeown /f build\\x.txt"),
    ("powershell", "subinacl.exe /file C:\\x /grant=Everyone=F"),
    ("powershell", "subinacl /service Spooler /grant=Everyone=F"),
    ("powershell", "Set-Acl -Path C:\\Windows\\x -AclObject $acl"),
    ("powershell", "$acl = Get-Acl C:\\x; $acl.SetAccessRule($rule); Set-Acl C:\\x $acl"),
    ("powershell", "cmd /c icacls C:\\x /grant Everyone:F"),
    # any account given full, modify, write or permission-changing rights
    ("powershell", 'icacls "C:\\backups\\wwwroot\\web.config" /grant svc-web:F'),
    ("powershell", 'icacls C:\\inetpub\\x.aspx /grant "bob:(OI)(CI)M"'),
    ("powershell", 'icacls C:\\Services\\app.exe /grant "DOMAIN\\bob:(WDAC)"'),
    ("powershell", "cacls C:\\x /e /g bob:C"),
    ("powershell", "icacls %ProgramData%\\x /grant bob:W"),
    ("posix", "icacls.exe C:\\\\x /grant Everyone:F"),
    ("posix", "takeown /f C:\\\\Windows\\\\System32\\\\sethc.exe"),
    (
        "powershell",
        'SetACL.exe -on "HKCR\\Directory\\shell\\cmd" -ot reg -actn ace -ace "n:Administrators;p:full"',
    ),
    ("powershell", "SetACL -on C:\\Windows\\x.exe -ot file -actn setowner -ownr n:Administrators"),
    ("powershell", "SetACL -on C:\\x -ot file -actn frobnicate"),  # an action it does not know is not a read
]

ALLOWED = [
    ("powershell", "icacls build /grant Users:R"),
    ("powershell", 'icacls .\\dist /grant "Everyone:(RX)"'),
    ("powershell", "icacls C:\\src\\x /grant bob:R"),
    ("powershell", 'icacls C:\\src\\x /grant "bob:(OI)(CI)(RX)"'),
    ("powershell", "icacls src\\app.py /grant bob:F"),
    ("powershell", "icacls C:\\x /save acl.txt"),
    ("powershell", "icacls.exe C:\\x"),
    ("powershell", "cacls x.txt"),
    ("powershell", "takeown /?"),
    ("powershell", "Get-Acl C:\\x"),
    ("powershell", "subinacl /help"),
    ("powershell", "Set-Acl -Path .\\build\\x -AclObject (Get-Acl .\\src\\x)"),
    ("posix", "icacls dist /grant Everyone:RX"),
    ("powershell", "SetACL.exe -on C:\\x -ot file -actn list"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_opening_or_taking_over_files_outside_the_project_is_blocked(shell: str, command: str) -> None:
    guard_blocks(shell, command, "destructive.windows-permissions")


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_project_grants_and_reading_permissions_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
