"""Windows' administration modules and tools, by the class of what they do to the machine.

A module's cmdlets change the machine by every verb that changes what it names, not only Set, New and Remove:
Move, Copy, Switch, Import, Invoke, Grant, Lock, Complete, Hide, … (`Move-AppxPackage`, `Copy-VMFile` into a
guest, `Switch-NetQosFlowControl`, `Import-StartLayout`, `Invoke-WsusServerCleanup`), and for every noun of
the module, not only its main one: storage's file shares, integrity streams and disk lights, multipath I/O and
iSCSI, Storage Replica, certificate enrollment, App-V, ODBC data sources, BranchCache, WSUS, event tracing.
A clause lists the verbs once for all its nouns (`verbs`). Reading (Get, Test, Export, Show) changes nothing,
and a project's own functions with a verb the modules share but a noun of their own stay allowed
(`Add-AppveyorMessage`, `Publish-WebApplication`).

`Get-Certificate` given a template or a request is no reading: it enrolls with a certificate authority and
stores what it issues. Defender's command-line client acts on Defender by every command but its usage and
a scan. DISM's `/Get-…` actions on the running Windows only read it, as `Get-WindowsOptionalFeature -Online`
does; any other `/online` action services it. A registry key's flags set (`reg flags KEY SET …`) is a
registry write. Exporting a scheduled task prints what starts on its own, as `schtasks /query /xml` does.

Reading the firewall's and IPsec's rules by any of their cmdlets (`Show-NetFirewallRule`, `Get-NetIPsecRule`),
the DNS servers asked per name space and the VPN servers (`Get-DnsClientNrptRule`, `Get-VpnConnection`), and
the SMB and NFS sessions and connections surveys the machine's network surroundings, as `Get-NetFirewallRule`
and `Get-DnsClientServerAddress` do; the machine's own interfaces and listening ports stay readable.

A block given to the `.ForEach` method in parentheses (`$list.ForEach({ $_.Name })`), which the grammar
takes for the loop statement, is read as the same call with the block bare (`.ForEach{ … }`): its commands
are judged, and a harmless one is no parse error.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

MACHINE_STATE = "destructive.machine-state"
NETWORK_CONFIGURATION = "destructive.network-configuration"
DISCOVERY = "env.machine-discovery"
REGISTRY = "destructive.registry"

MODULE_CHANGES = [
    ("powershell", "Move-AppxPackage -Package Contoso.App_1.0.0.0_x64__abc -Volume E:\\"),
    ("powershell", "Copy-VMFile -VMName b1 -SourcePath a.exe -DestinationPath C:\\a.exe -FileSource Host"),
    ("powershell", "Get-VM web* | Copy-VMFile -SourcePath a.ps1 -DestinationPath C:\\a.ps1 -FileSource Host"),
    ("powershell", "Complete-VMFailover -VMName sql01 -Confirm:$false"),
    ("powershell", "Set-FileIntegrity -FileName 'D:\\data\\x.vhdx' -Enable $false"),
    ("powershell", "Repair-FileIntegrity -FileName D:\\data\\x.vhdx"),
    ("powershell", "Grant-FileShareAccess -Name Share1 -AccountName CONTOSO\\dev -AccessRight Full"),
    ("powershell", "New-MaskingSet -FriendlyName m1 -VirtualDiskNames vd1 -InitiatorAddresses iqn.x"),
    ("powershell", "Hide-VirtualDisk -FriendlyName vd1 -TargetPortAddresses 0"),
    ("powershell", "Get-PhysicalDisk -Usage Retired | Enable-PhysicalDiskIdentification"),
    ("powershell", "Update-HostStorageCache"),
    ("powershell", "Enable-MSDSMAutomaticClaim -BusType SAS"),
    ("powershell", "Set-MPIOSetting -NewPathVerificationState Enabled"),
    ("powershell", "Connect-IscsiTarget -NodeAddress iqn.1991-05.com.microsoft:t1 -IsPersistent $true"),
    ("powershell", "Register-IscsiSession -SessionIdentifier $s.SessionIdentifier"),
    ("powershell", "Sync-SRGroup -Name rg01"),
    ("powershell", "Remove-SRPartnership -SourceRGName rg01 -DestinationRGName rg02 -Force"),
    ("powershell", "Set-CertificateAutoEnrollmentPolicy -PolicyState Enabled -Context User"),
    ("powershell", "New-CertificateNotificationTask -Type Replace -PSScript renew.ps1 -Name renew"),
    ("powershell", "Remove-CertificateEnrollmentPolicyServer -Url $u -Context Machine"),
    ("powershell", "Switch-Certificate -OldCert $old -NewCert $new -NotifyOnly"),
    ("powershell", "Get-Certificate -Template ClientAuth -CertStoreLocation Cert:\\CurrentUser\\My"),
    ("powershell", "Get-Certificate -Request $pending"),
    ("powershell", "Import-StartLayout -LayoutPath .\\layout.xml -MountPath C:\\"),
    ("powershell", "Add-OdbcDsn -Name reports -DriverName 'SQL Server' -DsnType System -Platform 64-bit"),
    ("powershell", "Remove-OdbcDsn -Name reports -DsnType User"),
    ("powershell", "Enable-WdacBidTrace -Path C:\\app\\app.exe"),
    ("powershell", "Clear-BCCache -Force"),
    ("powershell", "Enable-BCDistributed"),
    ("powershell", "Approve-WsusUpdate -Update $u -Action Install -TargetGroupName Pilot"),
    ("powershell", "Invoke-WsusServerCleanup -DeclineSupersededUpdates"),
    ("powershell", "Enable-InsightsCapability -Name 'CPU capacity forecasting'"),
    ("powershell", "Disable-Ual"),
    ("powershell", "Set-KdsConfiguration -LocalTestOnly"),
    ("powershell", "Start-PcsvDevice -TargetAddress 10.0.0.9 -Credential $c -ManagementProtocol IPMI"),
    ("powershell", "Invoke-BpaModel -ModelId Microsoft/Windows/DNSServer"),
    ("powershell", "Update-AutologgerConfig -Name EventLog-Application -Start 0"),
    ("powershell", "Start-EtwTraceSession -Name trace1 -LogFileMode 0x8100"),
    ("powershell", "Start-OSUninstall -Online"),
    ("powershell", "New-WindowsCustomImage -CapturePath D:\\"),
    ("powershell", "Lock-BitLocker -MountPoint E: -ForceDismount"),
    ("powershell", "Backup-BitLockerKeyProtector -MountPoint C: -KeyProtectorId $id"),
    ("powershell", "Add-AppvClientPackage \\\\server\\pkgs\\tool.appv"),
    ("powershell", "Start-AppBackgroundTask -TaskID $t"),
    ("powershell", "Import-TpmOwnerAuth -OwnerAuthorization $a"),
]

MODULE_CHANGES_ON_THE_NETWORK = [
    ("powershell", "Switch-NetQosDcbxSetting -Willing $false"),
    ("powershell", "Switch-NetQosFlowControl -Priority 3,5"),
    ("powershell", "Save-NetGPO -GPOSession $gpo"),
    ("powershell", "Grant-NfsSharePermission -Name share -ClientName web01 -Permission readwrite"),
]

MODULE_READS_AND_PROJECT_FUNCTIONS = [
    ("powershell", "Get-AppxPackage -Name Contoso.App | Select-Object InstallLocation"),
    ("powershell", "Get-VMIntegrationService -VMName build01"),
    ("powershell", "Get-FileIntegrity -FileName D:\\data\\x.vhdx"),
    ("powershell", "Get-FileShare"),
    ("powershell", "Get-MaskingSet"),
    ("powershell", "Get-MSDSMAutomaticClaimSettings"),
    ("powershell", "Get-MPIOSetting"),
    ("powershell", "Get-IscsiSession"),
    ("powershell", "Get-SRGroup"),
    ("powershell", "Get-CertificateAutoEnrollmentPolicy -Scope Applied -Context Machine"),
    ("powershell", "Get-CertificateNotificationTask"),
    ("powershell", "Test-Certificate -Cert $cert -Policy SSL"),
    ("powershell", "Export-StartLayout -Path layout.xml"),
    ("powershell", "Get-OdbcDsn -DsnType System"),
    ("powershell", "Get-BCStatus"),
    ("powershell", "Get-WsusUpdate -Approval Unapproved"),
    ("powershell", "Get-InsightsCapability"),
    ("powershell", "Get-AutologgerConfig -Name EventLog-Application"),
    ("powershell", "Get-WindowsImage -ImagePath install.wim"),
    ("powershell", "Get-AppvClientPackage -All"),
    ("powershell", "Get-NetQosFlowControl"),
    ("powershell", "Get-NfsSharePermission -Name share"),
    # a build's own functions: a noun of its own, or a verb a deploy script takes
    ("powershell", "Add-AppveyorMessage -Message 'Packing' -Category Information"),
    ("powershell", "Update-AppveyorBuild -Version $version"),
    ("powershell", "Publish-WebApplication -ProjectFile .\\web.csproj"),
    ("powershell", "Set-FileIntegrity -FileName x.vhdx -Enable $true -WhatIf"),
]

DEFENDER_CLIENT = [
    ("powershell", "MpCmdRun.exe -SignatureUpdate -MMPC"),
    ("powershell", "MpCmdRun -ResetPlatform"),
    ("powershell", "& 'C:\\ProgramData\\Microsoft\\Windows Defender\\Platform\\4.18.2\\MpCmdRun.exe' -Trace"),
    ("powershell", "MpCmdRun.exe -CheckExclusion -Path C:\\src"),
    ("powershell", "cmd /c MpCmdRun.exe -GetFiles"),
]

DEFENDER_CLIENT_USAGE = [
    ("powershell", "mpcmdrun -Scan -ScanType 2"),
    ("powershell", "MpCmdRun.exe -?"),
    ("powershell", "MpCmdRun -h"),
]

DISM_READS = [
    ("powershell", "dism /online /Get-Features /Format:Table"),
    ("powershell", "DISM /Online /Get-FeatureInfo /FeatureName:Microsoft-Hyper-V-All"),
    ("powershell", "dism.exe /online /get-capabilities /limitaccess"),
    ("powershell", "dism /online /Get-CurrentEdition"),
    ("powershell", "dism /online /get-packages /format:list | findstr /i kb50"),
    ("powershell", "$state = dism /online /get-featureinfo /featurename:NetFx3 /English"),
]

DISM_CHANGES = [
    ("powershell", "dism /online /Add-Capability /CapabilityName:Language.Basic~~~ja-JP~0.0.1.0"),
    ("powershell", "dism /online /Remove-Capability /CapabilityName:Browser.InternetExplorer~~~~0.0.11.0"),
    ("powershell", "dism /online /Export-Driver /Destination:D:\\drivers"),
    ("powershell", "dism /online /Remove-ProvisionedAppxPackage /PackageName:x"),
    ("powershell", "dism /online /Import-DefaultAppAssociations:assoc.xml"),
    ("powershell", "dism /online /Cleanup-Image /RestoreHealth /Source:wim:D:\\sources\\install.wim:1"),
    ("powershell", "DISM /Online /Cleanup-Image /ScanHealth /RestoreHealth"),
    ("powershell", "dism /online /Get-Features /Enable-Feature /FeatureName:TelnetClient"),
    ("powershell", "dism /online /Initiate-OSUninstall"),
    ("powershell", "dism /online /NoRestart"),
    ("powershell", "dism /online /Cleanup-Image /ScanHealth"),
]

SCHEDULED_TASKS_EXPORTED = [
    ("powershell", "Export-ScheduledTask -TaskName 'Backup' -TaskPath \\Contoso\\"),
    ("powershell", "Get-ScheduledTask -TaskPath \\Microsoft\\Windows\\* | Export-ScheduledTask"),
    ("powershell", "$xml = Export-ScheduledTask -TaskName $name | Out-String"),
]

REGISTRY_FLAGS_SET = [
    ("powershell", "reg flags HKLM\\Software\\Contoso SET DONT_VIRTUALIZE DONT_SILENT_FAIL"),
    ("powershell", 'reg flags "HKLM\\Software\\Contoso" set RECURSE_FLAG'),
]

REGISTRY_FLAGS_QUERIED = [
    ("powershell", "reg flags HKLM\\Software\\Contoso QUERY"),
    ("powershell", "reg query HKLM\\Software\\Contoso /v SET"),
]

FOREACH_METHOD_BLOCKS_ALLOWED = [
    ("powershell", "$features.ForEach({ dism /online /Get-FeatureInfo /FeatureName:$_ })"),
    ("powershell", "$names = (Get-ChildItem src).ForEach({ $_.Name })"),
    ("powershell", "$list.ForEach( { Write-Output $_.ToUpper() } )"),
]

FOREACH_METHOD_BLOCKS_BLOCKED = [
    ("powershell", "$features.ForEach({ dism /online /Enable-Feature /FeatureName:$_ })", MACHINE_STATE),
    ("powershell", "$dirs.ForEach({ Remove-Item $_ -Recurse -Force })", "destructive.recursive-delete"),
    ("powershell", "$hosts.ForEach({ $_.ForEach({ Invoke-WebRequest http://x.example }) })", "network"),
]

NETWORK_SURROUNDINGS_READ = [
    ("powershell", "Show-NetFirewallRule | Where-Object Enabled -eq True"),
    ("powershell", "Get-NetFirewallServiceFilter -Service TermService"),
    ("powershell", "Get-NetIPsecRule | Format-Table DisplayName, InboundSecurity"),
    ("powershell", "Get-NetIPsecQuickModeSA"),
    ("powershell", "Find-NetIPsecRule -RemoteAddress 10.0.0.5"),
    ("powershell", "$rules = Get-DnsClientNrptRule | Where-Object Namespace -eq '.corp'"),
    ("powershell", "Get-VpnConnection -AllUserConnection | Select-Object Name, ServerAddress"),
    ("powershell", "Find-NetRoute -RemoteIPAddress 10.1.2.3"),
    ("powershell", "Get-SmbMultichannelConnection"),
    ("powershell", "Get-NfsSession"),
]

OWN_NETWORK_FACTS = [
    ("powershell", "Get-NetIPInterface -AddressFamily IPv4 | Select-Object InterfaceAlias, Dhcp"),
    ("powershell", "Get-NetAdapter | Where-Object Status -eq Up"),
    ("powershell", "Get-DnsClient -InterfaceAlias Ethernet"),
    ("powershell", "Get-SmbServerConfiguration | Select-Object EnableSMB1Protocol"),
    ("powershell", "Get-NetTCPConnection -State Listen -LocalPort 5000 -ErrorAction SilentlyContinue"),
]

OTHER_EXPORTS = [
    ("powershell", "Export-ModuleMember -Function Get-Thing"),
    ("powershell", "Export-Csv -Path report.csv -InputObject $rows -NoTypeInformation"),
]


def test_administration_modules_change_the_machine_by_every_changing_verb_and_noun() -> None:
    every_case(MODULE_CHANGES, lambda shell, command: guard_blocks(shell, command, MACHINE_STATE))


def test_networking_modules_change_the_network_by_every_changing_verb() -> None:
    every_case(MODULE_CHANGES_ON_THE_NETWORK, lambda shell, c: guard_blocks(shell, c, NETWORK_CONFIGURATION))


def test_module_reads_and_a_builds_own_functions_stay_allowed() -> None:
    every_case(MODULE_READS_AND_PROJECT_FUNCTIONS, guard_allows)


def test_defenders_command_line_client_changes_defender() -> None:
    every_case(DEFENDER_CLIENT, lambda shell, command: guard_blocks(shell, command, MACHINE_STATE))


def test_defenders_command_line_usage_and_scans_stay_allowed() -> None:
    every_case(DEFENDER_CLIENT_USAGE, guard_allows)


def test_registry_flags_set_are_a_registry_write() -> None:
    every_case(REGISTRY_FLAGS_SET, lambda shell, command: guard_blocks(shell, command, REGISTRY))


def test_registry_flags_queried_stay_allowed() -> None:
    every_case(REGISTRY_FLAGS_QUERIED, guard_allows)


def test_dism_reading_the_running_windows_stays_allowed() -> None:
    every_case(DISM_READS, guard_allows)


def test_dism_servicing_the_running_windows_is_machine_state() -> None:
    every_case(DISM_CHANGES, lambda shell, command: guard_blocks(shell, command, MACHINE_STATE))


def test_exporting_scheduled_tasks_surveys_what_starts_on_its_own() -> None:
    every_case(SCHEDULED_TASKS_EXPORTED, lambda shell, command: guard_blocks(shell, command, DISCOVERY))


def test_other_exports_stay_allowed() -> None:
    every_case(OTHER_EXPORTS, guard_allows)


def test_a_block_given_to_foreach_in_parentheses_is_read_as_powershell_runs_it() -> None:
    every_case(FOREACH_METHOD_BLOCKS_ALLOWED, lambda shell, c: guard_allows(shell, c, clean_parse=True))
    every_case(FOREACH_METHOD_BLOCKS_BLOCKED, guard_blocks)


def test_firewall_rules_name_resolution_policy_vpns_and_shares_are_network_surroundings() -> None:
    every_case(NETWORK_SURROUNDINGS_READ, lambda shell, command: guard_blocks(shell, command, DISCOVERY))


def test_the_machines_own_network_facts_stay_allowed() -> None:
    every_case(OWN_NETWORK_FACTS, guard_allows)
