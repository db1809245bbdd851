"""Windows machine state written in cmd or PowerShell form is blocked like its POSIX counterparts.

Boot configuration, drive letters and volumes, system file repair, power schemes, drivers, disk encryption and
write filters, store apps and Windows features for the machine, and package managers' machine-wide settings
change the whole machine. Reading that state, asking for help, and links made inside the project stay fine;
a link or junction with its link or its target outside the project is a write outside it.
"""

from __future__ import annotations

import pytest
from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    # a registry key piped into the writing cmdlet, and the boot's last-known-good marker
    (
        "powershell",
        "Get-Item -Path 'HKLM:\\Software\\MyCompany' | New-ItemProperty -Name NoOfLocations -Value 3",
        "destructive.registry",
    ),
    ("powershell", "Get-Item HKCU:\\Software\\X | Set-ItemProperty -Name a -Value 1", "destructive.registry"),
    # names relative to a registry hive or another lasting provider drive the line changed to
    ("powershell", "Set-Location HKLM:\\SOFTWARE; New-Item Contoso", "containment.write-outside-project"),
    ("powershell", "cd Registry::HKEY_CURRENT_USER; Remove-Item x", "containment.write-outside-project"),
    (
        "powershell",
        "Push-Location HKCU:\\Software\\X; Set-ItemProperty -Path . -Name a -Value 1",
        "containment.write-outside-project",
    ),
    ("powershell", "cd WSMan:\\localhost\\Client; New-Item x", "containment.write-outside-project"),
    # an installer a cmd script names by its variable, told the switches only installers take
    ("powershell", "%PROG% /VERYSILENT /NORESTART /ALLUSERS", "destructive.machine-state"),
    ("powershell", "%SETUP% /S /user=all", "destructive.machine-state"),
    ("powershell", "%REDIST% /install /quiet /norestart", "destructive.machine-state"),
    # cmd's command history emptied, as bash's `history -c`
    ("powershell", "& doskey /reinstall 2>$null", "destructive.machine-state"),
    ("powershell", "cmd /c doskey /reinstall", "destructive.machine-state"),
    ("powershell", "doskey /listsize=0", "destructive.machine-state"),
    # the mark of the web removed, as macOS's quarantine mark is
    ("powershell", "Get-ChildItem .\\ -Recurse | Unblock-File", "destructive.machine-state"),
    ("powershell", "Unblock-File -Path .\\tools\\x.ps1", "destructive.machine-state"),
    ("powershell", "Remove-Item x.exe -Stream Zone.Identifier", "destructive.machine-state"),
    ("powershell", ".\\streams.exe -s -d .", "destructive.machine-state"),
    # a script's own wrapper of the writing cmdlets, given a key
    (
        "powershell",
        'Set-ItemPropertyEx -Path "HKLM:\\Software\\Policies\\X" -Name Y -Type DWORD -Value 0x0 -Force',
        "destructive.registry",
    ),
    ("powershell", "New-RegKey HKCU:\\Software\\Classes\\x", "destructive.registry"),
    ("powershell", 'Remove-RegistryValue -Path "HKLM\\Software\\X" -Name Y', "destructive.registry"),
    ("powershell", "sc boot bad", "destructive.machine-state"),
    ("powershell", "New-VMSwitch -SwitchName NAT -SwitchType Internal", "destructive.network-configuration"),
    ("powershell", "Install-RemoteAccess -VpnType RoutingOnly", "destructive.network-configuration"),
    ("powershell", "netsh routing ip nat install", "destructive"),
    ("powershell", "bcdboot C:\\Windows /s S: /f UEFI", "destructive.machine-state"),
    # devices and adapters switched off: the PnP cmdlets and the WMI objects' methods
    ("powershell", "Disable-PnpDevice -InstanceId 'USB\\VID_1' -Confirm:$false", "destructive.machine-state"),
    ("powershell", "(Get-WmiObject Win32_NetworkAdapter).Disable()", "destructive.machine-state"),
    (
        "powershell",
        "$m = Get-WmiObject Win32_USBControllerDevice | %{[wmi]$_.dependent} | ?{$_.pnpclass -eq 'Mouse'}; "
        "$m.Disable()",
        "destructive.machine-state",
    ),
    ("powershell", "bcdboot C:\\Windows", "destructive.machine-state"),
    # the machine renamed, or moved into or out of a domain, through its WMI object
    (
        "powershell",
        '(Get-WmiObject Win32_ComputerSystem).Rename("MyMachineName") | Out-Null',
        "destructive.machine-state",
    ),
    (
        "powershell",
        "$cs = Get-WmiObject Win32_ComputerSystem; $cs.JoinDomainOrWorkgroup('CORP', $pw, $u, $null, 3)",
        "destructive.machine-state",
    ),
    (
        "powershell",
        "(Get-CimInstance Win32_ComputerSystem).UnjoinDomainOrWorkgroup($null, $null, 0)",
        "destructive.machine-state",
    ),
    ("powershell", "convert D: /fs:ntfs", "destructive.disk-format"),  # the drive's file system, in place
    ("powershell", "cmd /c convert C: /FS:NTFS /nosecurity", "destructive.disk-format"),
    ("powershell", "reagentc /disable", "destructive.machine-state"),
    ("powershell", "bootrec /fixmbr", "destructive"),
    ("powershell", "subst Z: C:\\Python27", "destructive.machine-state"),
    ("powershell", "subst Z: /d", "destructive.machine-state"),
    ("powershell", "cmd /c subst X: .", "destructive.machine-state"),
    ("powershell", "mountvol X: /d", "destructive"),
    ("powershell", "label C: SYSTEM", "destructive.machine-state"),
    ("powershell", "Set-Volume -DriveLetter D -NewFileSystemLabel Data", "destructive.machine-state"),
    (
        "powershell",
        "Get-Partition -DriveLetter E | Set-Partition -NewDriveLetter F",
        "destructive.machine-state",
    ),
    ("powershell", "Optimize-Volume -DriveLetter C -ReTrim", "destructive.machine-state"),
    ("powershell", "sfc /scannow", "destructive.machine-state"),
    # code integrity (WDAC) policies: the ConfigCI module's cmdlets author what the machine lets run
    ("powershell", "Set-RuleOption -FilePath .\\policy.xml -Option 3 -Delete", "destructive.machine-state"),
    (
        "powershell",
        "Merge-CIPolicy -PolicyPaths base.xml, deny.xml -OutputFilePath merged.xml",
        "destructive.machine-state",
    ),
    (
        "powershell",
        "ConvertFrom-CIPolicy -XmlFilePath base.xml -BinaryFilePath C:\\Policies\\base.p7b",
        "destructive.machine-state",
    ),
    ("powershell", "Set-HVCIOptions -Strict -FilePath $p", "destructive.machine-state"),
    ("powershell", "Add-SignerRule -FilePath $p -CertificatePath x.cer -User", "destructive.machine-state"),
    ("powershell", "Edit-CIPolicyRule -FilePath $p -Id ID_1 -FilePath2 x", "destructive.machine-state"),
    ("powershell", "sfc /scanfile=C:\\Windows\\System32\\kernel32.dll", "destructive.machine-state"),
    ("powershell", "chkdsk C: /f /r", "destructive.machine-state"),
    ("powershell", "defrag C: /O", "destructive.machine-state"),
    ("powershell", "compact /compactos:always", "destructive.machine-state"),
    # files compressed or expanded in place outside the project; a session disconnected or reset
    ("powershell", "compact /c /s:C:\\Users\\dev\\Documents", "containment.write-outside-project"),
    ("powershell", "compact /u C:\\Windows\\x.dll", "containment.write-outside-project"),
    ("powershell", "cmd /c compact /c /s:D:\\data *.*", "containment.write-outside-project"),
    ("powershell", "tsdiscon", "destructive.system-power"),
    ("powershell", "tsdiscon 2 /v", "destructive.system-power"),
    ("powershell", "rwinsta 2", "destructive.system-power"),
    ("powershell", "powercfg /setactive SCHEME_MIN", "destructive.machine-state"),
    ("powershell", "powercfg /x monitor-timeout-ac 10", "destructive.machine-state"),
    ("powershell", "powercfg -h off", "destructive.machine-state"),
    (
        "powershell",
        "powercfg /duplicatescheme 381b4222-f694-41f0-9685-ff5bb260df2e",
        "destructive.machine-state",
    ),
    ("powershell", "pnputil /export-driver * C:\\drivers", "destructive.machine-state"),
    ("powershell", "Export-WindowsDriver -Online -Destination C:\\drv", "destructive.machine-state"),
    ("powershell", "Set-DisplayResolution -Width 1920 -Height 1080", "destructive.machine-state"),
    # any Uninstall- cmdlet, and helpers named for the service cmdlets they wrap
    ("powershell", 'Uninstall-WPSOffice -RegistryPath "HKLM:\\SOFTWARE\\x"', "destructive.machine-state"),
    ("powershell", "Stop-ServiceAndDependencies -Name wuauserv", "destructive.machine-state"),
    ("powershell", "Set-ServiceStartMode -Name wuauserv -StartMode Automatic", "destructive.machine-state"),
    ("powershell", 'pnputil /disable-device "USB\\VID_1234"', "destructive.machine-state"),
    ("powershell", "pnputil /delete-driver oem12.inf /uninstall /force", "destructive.machine-state"),
    ("powershell", "Remove-AppxPackage -AllUsers -Package Microsoft.BingNews", "destructive.machine-state"),
    ("powershell", "Get-AppxPackage *xbox* | Remove-AppxPackage", "destructive.machine-state"),
    ("powershell", "Remove-AppxProvisionedPackage -Online -PackageName x", "destructive.machine-state"),
    ("powershell", "Install-WindowsUpdate -AcceptAll -AutoReboot", "destructive.machine-state"),
    ("powershell", "Get-WindowsUpdate -Install -AcceptAll", "destructive.machine-state"),
    ("powershell", "Get-WUInstall -AcceptAll", "destructive.machine-state"),
    # installers run unattended put software on the machine
    ("powershell", "setup.exe /S", "destructive.machine-state"),
    # an installer's file named for its version or its machine
    ("powershell", ".\\git-2.43.0-64-bit.exe /VERYSILENT /NORESTART", "destructive.machine-state"),
    ("powershell", "app_windows_x86_64.exe /S", "destructive.machine-state"),
    ("powershell", "SketchUpPro-2021-0.exe /silent", "destructive.machine-state"),
    # an installer told to remove what it installed, and a vendor's removal tool
    ("powershell", "C:\\Windows\\SysWOW64\\OneDriveSetup.exe /uninstall", "destructive.machine-state"),
    ("powershell", "setup.exe --uninstall", "destructive.machine-state"),
    ("powershell", "c:\\windows\\BEST_uninstallTool.exe /bdparams", "destructive.machine-state"),
    # a server installing itself as a Windows service
    ("powershell", "neo4j.bat install-service", "destructive.machine-state"),
    ("powershell", ".\\bin\\elasticsearch-service.bat install", "destructive.machine-state"),
    ("powershell", "winsw install", "destructive.machine-state"),
    # an installer given its answers in a file: unattended all the same
    (
        "powershell",
        'SETUP.EXE /configurationFile=ConfigurationFile.ini /sqlSvcPassword="pwd"',
        "destructive.machine-state",
    ),
    ("powershell", "setup.exe /configure configuration-Office365-x64.xml", "destructive.machine-state"),
    ("powershell", 'setup.exe /s /f1"C:\\temp\\setup.iss"', "destructive.machine-state"),
    ("powershell", "node-v18.1.0-x64.msi /quiet", "destructive.machine-state"),
    (
        "powershell",
        "python-3.12.0-amd64.exe /quiet InstallAllUsers=1 PrependPath=1",
        "destructive.machine-state",
    ),
    (
        "powershell",
        "Start-Process -Wait -FilePath .\\vc_redist.x64.exe -ArgumentList '/install','/quiet','/norestart'",
        "destructive.machine-state",
    ),
    (
        "powershell",
        "vs_buildtools.exe --quiet --wait --norestart --add Microsoft.VisualStudio.Workload.VCTools",
        "destructive.machine-state",
    ),
    ("powershell", "AutoHotkey110800_Install.exe /S /A32", "destructive.machine-state"),
    ("powershell", "Set-WUSettings -AutoUpdateOption Disabled", "destructive.machine-state"),
    ("powershell", "Reset-WUComponents", "destructive.machine-state"),
    ("powershell", "wmic recoveros set AutoReboot = False", "destructive.machine-state"),
    (
        "powershell",
        "cmd /c wmic pagefileset where name='C:\\pagefile.sys' set InitialSize=4096",
        "destructive.machine-state",
    ),
    ("powershell", "Uninstall-Module PSReadLine -AllVersions", "destructive.machine-state"),
    ("powershell", "Disable-BitLocker -MountPoint C:", "destructive.machine-state"),
    ("powershell", "manage-bde -off C:", "destructive.machine-state"),
    ("powershell", "repair-bde C: D: -RecoveryKey F:\\key.bek", "destructive.machine-state"),
    ("powershell", "uwfmgr filter disable", "destructive.machine-state"),
    ("powershell", "Clear-Tpm", "destructive.machine-state"),
    ("powershell", "Rename-Computer -NewName build01", "destructive.machine-state"),
    # Hyper-V's machines rolled back, their checkpoints deleted, an adapter let spoof; error reporting
    (
        "powershell",
        "Restore-VMCheckpoint -Name 'chk01' -VMName 'srv01' -Confirm:$false",
        "destructive.machine-state",
    ),
    ("powershell", "Get-VMSnapshot -VMName 'srv01' | Remove-VMSnapshot", "destructive.machine-state"),
    (
        "powershell",
        "Get-VMNetworkAdapter -VMName 'srv01' | Set-VMNetworkAdapter -MacAddressSpoofing On",
        "destructive.machine-state",
    ),
    ("powershell", "Disable-WindowsErrorReporting", "destructive.machine-state"),
    # a domain controller made, data deduplicated, a storage pool made, WinRM's certificate checks off
    ("powershell", "Install-ADDSForest -DomainName corp.example -Force", "destructive.machine-state"),
    ("powershell", "Uninstall-ADDSDomainController -DemoteOperationMasterRole", "destructive.machine-state"),
    ("powershell", "Start-DedupJob -Volume M: -Type Optimization -Memory 50", "destructive.machine-state"),
    ("powershell", "Enable-DedupVolume -Volume E: -UsageType Default", "destructive.machine-state"),
    ("powershell", "New-StoragePool -FriendlyName p1 -PhysicalDisks $disks", "destructive.machine-state"),
    ("powershell", "Disable-WSManCertVerification -All", "destructive.machine-state"),
    # Chocolatey package scripts' helpers and Boxstarter's settings: the machine's PATH, shims, shortcuts, UAC
    ("powershell", "Install-ChocolateyPath $installDir 'Machine'", "destructive.machine-state"),
    ("powershell", "Install-ChocolateyEnvironmentVariable X '1' 'Machine'", "destructive.machine-state"),
    ("powershell", "Uninstall-BinFile -Name $_.BaseName -Path $_.FullName", "destructive.machine-state"),
    ("powershell", "Install-ChocolateyShortcut $lnk $exe", "destructive.machine-state"),
    ("powershell", "Disable-UAC", "destructive.machine-state"),
    ("powershell", "Set-WindowsExplorerOptions -EnableShowFileExtensions", "destructive.machine-state"),
    ("powershell", "Get-ChocolateyWebFile @packageArgs", "network.package-install"),
    ("powershell", "Install-ChocolateyZipPackage $packageName $url $toolsDir", "network.package-install"),
    ("powershell", "Start-ChocolateyProcessAsAdmin $msiArgs 'msiexec'", "containment.privilege-elevation"),
    ("posix", "kanji-config-updmap-sys ipaex", "destructive.machine-state"),
    # Windows Update's orchestrator and Windows Installer's registrations
    ("powershell", "USOClient.exe StartScan", "destructive.machine-state"),
    ("powershell", "msizap.exe G!", "destructive.machine-state"),
    # Sysinternals' junction, as mklink /j: the link and its target are written
    ("powershell", 'junction c:\\Program-Files "c:\\Program Files"', "containment.write-outside-project"),
    ("powershell", "junction -d c:\\Program-Files", "containment.write-outside-project"),
    # .NET's registry API writes as reg.exe does
    (
        "powershell",
        "[Microsoft.Win32.Registry]::SetValue('HKEY_LOCAL_MACHINE\\Software\\Microsoft\\Windows\\CurrentVersion"
        "\\RunOnce', 'Setup', 'x.exe')",
        "destructive.registry",
    ),
    ("powershell", "choco feature enable -n allowGlobalConfirmation", "destructive.machine-state"),
    ("powershell", "choco config set cacheLocation C:\\temp", "destructive.machine-state"),
    ("powershell", "scoop bucket rm extras", "destructive.machine-state"),
    ("powershell", "scoop reset python", "destructive.machine-state"),
    ("powershell", "nvm use 20.11.0", "destructive.machine-state"),
    ("powershell", "nvm uninstall 18.0.0", "destructive.machine-state"),
    ("powershell", "bleachbit_console.exe --clean system.cache", "destructive.machine-state"),
    ("posix", "sfc.exe /scannow", "destructive.machine-state"),
    ("posix", "bcdboot C:\\\\Windows", "destructive.machine-state"),
    # the licence manager's key, activation and KMS host changes
    ("powershell", "slmgr -upk", "destructive.machine-state"),
    ("powershell", "slmgr /cpky", "destructive.machine-state"),
    ("powershell", "slmgr.exe /ipk XXXXX-XXXXX-XXXXX-XXXXX-XXXXX", "destructive.machine-state"),
    ("powershell", "slmgr /skms kms.example:1688", "destructive.machine-state"),
    ("powershell", "slmgr -rearm", "destructive.machine-state"),
    ("powershell", "cmd.exe /c iisreset.exe /stop", "destructive.machine-state"),
    ("powershell", "iisreset", "destructive.machine-state"),
    ("powershell", "iisreset /restart /timeout:30", "destructive.machine-state"),
    ("powershell", "mklink /d C:\\link C:\\Windows", "containment.write-outside-project"),
    ("powershell", "mklink /j link C:\\Windows", "containment.write-outside-project"),
    (
        "powershell",
        "mklink /h src\\hosts C:\\Windows\\System32\\drivers\\etc\\hosts",
        "containment.write-outside-project",
    ),
    ("powershell", "mklink /j docs\\api ..\\shared\\api", "containment.write-outside-project"),
    ("powershell", "mklink /d docs\\api ..\\..\\shared\\api", "containment.write-outside-project"),
    ("powershell", "cmd /c mklink /j link C:\\Users\\me\\Documents", "containment.write-outside-project"),
    ("posix", "cmd.exe /c mklink /d link C:\\\\Windows", "containment.write-outside-project"),
    # PowerShell's links, fsutil's hard links and .NET's symbolic links: where the link leads is written too
    (
        "powershell",
        "New-Item -ItemType Junction -Path lnk -Target C:\\Windows",
        "containment.write-outside-project",
    ),
    (
        "powershell",
        "New-Item -ItemType HardLink -Path h.txt -Value C:\\Windows\\win.ini",
        "containment.write-outside-project",
    ),
    ("powershell", "ni -it sym lnk -tar $env:USERPROFILE", "containment.write-outside-project"),
    ("powershell", "New-Item lnk -Type:Junction -Target:..\\other", "containment.write-outside-project"),
    (
        "powershell",
        "New-Item -ItemType $kind -Path lnk -Value C:\\Windows",
        "containment.write-outside-project",
    ),
    (
        "powershell",
        "New-Item -ItemType SymbolicLink -Path lnk -Target $target",
        "containment.write-unknown-target",
    ),
    # a relative target: from the link's folder (PowerShell 7) or from here (Windows PowerShell)
    (
        "powershell",
        "New-Item -ItemType SymbolicLink -Path docs\\api -Target ..\\shared\\api",
        "containment.write-outside-project",
    ),
    (
        "powershell",
        "New-Item -ItemType SymbolicLink -Path docs\\api -Target ..\\..\\shared",
        "containment.write-outside-project",
    ),
    ("powershell", "fsutil hardlink create h.txt C:\\Windows\\win.ini", "containment.write-outside-project"),
    ("powershell", "fsutil file createnew C:\\Windows\\x.bin 1000", "containment.write-outside-project"),
    (
        "powershell",
        "[IO.Directory]::CreateSymbolicLink('lnk', 'C:\\Windows')",
        "containment.write-outside-project",
    ),
    (
        "powershell",
        "[System.IO.File]::CreateSymbolicLink('sub\\x', '..\\..\\x')",
        "containment.write-outside-project",
    ),
    ("powershell", "[IO.File]::CreateSymbolicLink($link, $target)", "containment.write-unknown-target"),
    # Remote Desktop's WMI settings, and a DNS or DHCP server's configuration
    (
        "powershell",
        "(Get-WmiObject -Class Win32_TSGeneralSetting -Namespace root\\cimv2\\terminalservices)"
        ".SetUserAuthenticationRequired(0)",
        "destructive.machine-state",
    ),
    (
        "powershell",
        "(Get-WmiObject Win32_TerminalServiceSetting -Namespace root\\cimv2\\TerminalServices)"
        ".SetAllowTsConnections(1)",
        "destructive.machine-state",
    ),
    (
        "powershell",
        'Add-DnsServerPrimaryZone -Name "test.local" -ReplicationScope "Forest"',
        "destructive.machine-state",
    ),
    (
        "powershell",
        "Add-DhcpServerv4Scope -Name lab -StartRange 10.0.0.10 -EndRange 10.0.0.99",
        "destructive",
    ),
    # the administration modules by a changing verb, whichever cmdlet of the noun
    ("powershell", "Update-MpSignature", "destructive.machine-state"),
    ("powershell", "Start-MpScan -ScanType QuickScan", "destructive.machine-state"),
    ("powershell", "Update-StorageProviderCache", "destructive.machine-state"),
    ("powershell", "Set-WindowsSearchSetting -EnableWebResultsSetting $false", "destructive.machine-state"),
    ("powershell", "Set-MMAgent -MemoryCompression $false", "destructive.machine-state"),
    ("powershell", "Set-DODownloadMode -DownloadMode 0", "destructive.machine-state"),
    ("powershell", "Set-SecureBootUEFI -Name PK -ContentFilePath x", "destructive.machine-state"),
    ("powershell", "Unblock-Tpm", "destructive.machine-state"),
    ("powershell", "New-WebSite -Name x -Port 80 -PhysicalPath C:\\x", "destructive.machine-state"),
    ("powershell", "Stop-WebAppPool -Name DefaultAppPool", "destructive.machine-state"),
    ("powershell", "Set-RDSessionCollectionConfiguration -CollectionName x", "destructive.machine-state"),
    ("powershell", "Add-KdsRootKey -EffectiveImmediately", "destructive.machine-state"),
    ("powershell", "New-HnsNetwork -Type NAT", "destructive.machine-state"),
]

ALLOWED = [
    ("powershell", "%SPHINXBUILD% -M html source build"),  # a variable's program without installer switches
    ("powershell", "%PYTHON% -m pytest -q"),
    ("powershell", "%FINDSTR% /S /I todo *.txt"),  # `/S` alone is many programs' switch
    # reading a hive after changing to it; the session's own drives; the file system again
    ("powershell", "cd HKCU:\\Software; Get-ChildItem"),
    ("powershell", "Set-Location HKLM:\\SOFTWARE\\X; Get-ItemProperty ."),
    ("powershell", "cd Variable:; Remove-Item x"),
    ("powershell", "Set-Location HKCU:\\Software\\X; Get-ItemPropertyValue . -Name a"),
    ("powershell", "Get-ItemPropertyEx HKLM:\\Software\\X"),  # a wrapper that reads
    ("powershell", "Get-Content x.exe -Stream Zone.Identifier"),  # reading the mark
    ("powershell", "Unblock-File x.ps1 -WhatIf"),
    ("powershell", "streams -s ."),
    ("powershell", "doskey /history"),
    ("powershell", "doskey ll=dir /w"),
    ("powershell", "Set-Location HKLM:\\Software"),
    ("powershell", "Set-ItemPropertyEx -Path .\\build\\x.txt -Name IsReadOnly -Value $true"),  # a file
    ("powershell", "python setup.py build --configure"),
    ("powershell", "winsw status"),
    ("powershell", "my-service start --port 8080"),
    ("powershell", "Get-Content .\\setup\\ConfigurationFile.ini"),
    ("powershell", "(Get-WmiObject Win32_ComputerSystem).Name"),
    ("powershell", "Rename-Item old.txt new.txt"),
    ("powershell", "build-2021-01.ps1 -Configuration Release"),
    ("powershell", "python setup.py sdist bdist_wheel"),  # (installing is `network.package-install`)
    ("powershell", "Get-Item .\\build\\x.txt | Set-ItemProperty -Name IsReadOnly -Value $true"),
    ("powershell", "Get-PnpDevice -Class Mouse"),
    ("powershell", "Get-VMSwitch"),  # listing devices; SharePoint's PnP cmdlets stay cloud
    ("powershell", "Get-VM; Get-VMSnapshot -VMName 'srv01'"),
    ("powershell", "Get-DedupStatus; Get-DedupVolume"),
    ("powershell", "Get-StoragePool; Get-PhysicalDisk"),
    ("powershell", "Update-SessionEnvironment"),  # Chocolatey's refresh of the session's own variables
    ("posix", "updmap-sys --listmaps"),
    ("powershell", "junction build\\out out"),
    ("powershell", "$prop.SetValue($obj, 1)"),  # reflection's SetValue: no registry key
    ("powershell", "subst"),
    ("powershell", "mountvol"),
    ("powershell", "sfc /?"),
    ("powershell", "chkdsk C:"),
    ("powershell", "defrag C: /A"),
    ("powershell", "compact /c /s:build"),
    ("powershell", "powercfg /list"),
    ("powershell", "powercfg /getactivescheme"),
    ("powershell", "powercfg /batteryreport /output battery.html"),
    ("powershell", "pnputil /enum-drivers"),
    ("powershell", "Get-WindowsDriver -Online"),
    ("powershell", "Get-DisplayResolution"),
    ("powershell", "convert logo.png logo.jpg"),  # ImageMagick's
    ("powershell", "pnputil /enum-devices /connected"),
    ("powershell", "Get-AppxPackage -Name *terminal*"),
    ("powershell", "Get-Volume"),
    ("powershell", "Get-WindowsUpdate"),
    ("powershell", "Get-WUHistory"),
    ("powershell", "setup.exe /?"),
    ("powershell", ".\\tool-1.2.exe --version"),
    ("powershell", "x86_64-w64-mingw32-gcc -s -o app.exe main.c"),
    ("powershell", "python setup.py sdist"),
    ("powershell", "Get-ChildItem -Recurse -Filter setup*.exe"),
    ("powershell", "wmic os get caption, version"),
    ("powershell", "manage-bde -status"),
    ("powershell", "uwfmgr get-config"),
    ("powershell", "bcdboot /?"),
    ("powershell", "choco feature list"),
    ("powershell", "scoop bucket list"),
    ("powershell", "nvm list"),
    ("powershell", "bleachbit_console.exe --list-cleaners"),
    ("powershell", "slmgr /dli"),
    ("powershell", "slmgr -xpr"),
    ("powershell", "iisreset /status"),
    ("powershell", "mklink link.txt target.txt"),
    ("powershell", "mklink /d docs\\api ..\\shared\\api"),
    ("powershell", "mklink /j build\\current build\\v2"),
    ("powershell", "New-Item -ItemType SymbolicLink -Path lnk -Target src"),
    ("powershell", "New-Item -ItemType Junction -Path build\\current -Value build\\v2"),
    ("powershell", "New-Item -ItemType HardLink -Path copy.txt -Target README.md"),
    ("powershell", "New-Item -ItemType File -Path notes.txt -Value 'C:\\Windows is the system folder'"),
    ("powershell", "New-Item -ItemType Directory -Path out -Force"),
    ("powershell", "fsutil hardlink create copy.txt README.md"),
    ("powershell", "fsutil hardlink list README.md"),
    ("powershell", "fsutil file createnew build\\blank.bin 1024"),
    ("powershell", "[IO.Directory]::CreateSymbolicLink('lnk', 'src')"),
    ("powershell", "Write-Output 'run sfc /scannow as an administrator'"),
    ("posix", "nvm use 20"),
    ("posix", "grep -rn 'powercfg /setactive' docs/"),
    ("powershell", "Get-DhcpServerv4Scope"),
    ("powershell", '$sb = [Text.StringBuilder]::new(); $sb.Append("x")'),
    # a project's own functions name other nouns, and reading changes nothing
    ("powershell", "New-DiskCleanupReport"),
    ("powershell", "Set-WebHookSecret"),
    ("powershell", "Rename-windows-wheels"),
    ("powershell", "Get-StoragePool -FriendlyName x"),
    ("powershell", "Get-CIPolicy -FilePath policy.xml"),
    ("powershell", "Get-CIPolicyInfo"),
    ("powershell", "Get-Help Merge-CIPolicy"),
    ("powershell", "Set-RuleOptions -Name lint"),
    ("powershell", "Set-WindowsSearchSetting -WhatIf -EnableWebResultsSetting $false"),
    ("powershell", "compact /compactos:query"),
    ("powershell", "compact /s:C:\\x"),  # shows the state only
    ("powershell", "compact /c build\\*.log"),
]


def test_changing_windows_machine_state_is_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_reading_it_and_links_inside_the_project_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)


# cmd's file associations: listing them reads (`assoc`, `assoc .py`, `ftype Python.File`); `=` changes one,
# or deletes it when nothing follows. assoc and ftype read their own `name=value`, so `=` stays in the word.
@pytest.mark.parametrize(
    "command",
    [
        "cmd /c assoc .py=Python.File",
        "cmd /c assoc .py=",
        "cmd /c ftype Python.File=C:\\x.exe %1",
        "assoc .hta=txtfile",
    ],
)
def test_changing_a_file_association_is_machine_state(command: str) -> None:
    guard_blocks("powershell", command, "destructive.machine-state")


@pytest.mark.parametrize(
    "command", ["cmd /c assoc", "cmd /c assoc .py", "cmd /c ftype", "cmd /c ftype Python.File"]
)
def test_listing_file_associations_stays_allowed(command: str) -> None:
    guard_allows("powershell", command)


# A word cmd fills in when it runs (`%X%`) may hold the `=` that makes a listing a change.
@pytest.mark.parametrize("command", ["cmd /c assoc %X%", "cmd /c ftype %T%", "assoc $ext"])
def test_a_file_association_named_at_run_time_is_not_judged_a_listing(command: str) -> None:
    guard_blocks("powershell", command, "dynamic.arguments")
