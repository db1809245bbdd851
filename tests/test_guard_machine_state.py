"""The machine's own state: stopping or reconfiguring services, killing processes the agent did not start
(by name, by filter, through pgrep), installing system packages, kernel parameters and modules, driver
filters, backups and shadow copies, boot and time settings, mounts, registry writes, security agents and
the shell's history, and the machines a hypervisor hosts. Stopping what the agent started, by its id, and
every read-only form stay allowed."""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

from glmagent.guard import Policy
from glmagent.guard._engine import FEED_FILTERS

BLOCKED = [
    # volumes and file systems grown, shrunk or retuned in place; swap given a priority; packages held back;
    # the integrity database rebased; downloaded signature databases updated
    ("posix", "lvresize /dev/VolGroup00/LogVol01 -L +2G", "destructive.disk-format"),
    ("posix", "vgextend vg0 /dev/sdc", "destructive.disk-format"),
    ("posix", "resize2fs /dev/mapper/vg0-root", "destructive.disk-format"),
    ("posix", "tune2fs -c 0 -i 0 /dev/sda1", "destructive.disk-format"),
    ("posix", "e2fsck -fy /dev/sdb1", "destructive.disk-format"),
    ("posix", "swapon -p 1 /dev/sdd1", "destructive.machine-state"),
    ("posix", "apt-mark hold linux-image-generic", "destructive.machine-state"),
    ("posix", "yum versionlock add nginx", "destructive.machine-state"),
    ("posix", "aide --init", "destructive.machine-state"),
    ("posix", "aide -u", "destructive.machine-state"),
    ("posix", "freshclam", "network.http-client"),
    ("posix", "geoipupdate -d /usr/share/GeoIP", "network.http-client"),
    # the user's kernel keyrings changed; a command handed to the service manager runs outside the sandbox
    ("posix", "keyctl clear @us", "destructive.machine-state"),
    ("posix", "keyctl unlink 123456 @u", "destructive.machine-state"),
    # a GPU's clocks and power limit reset or set; login records rewritten
    ("posix", "nvidia-smi -rac", "destructive.machine-state"),
    ("posix", "nvidia-smi -i 0 -pl 200", "destructive.machine-state"),
    ("posix", 'wtmpclean -t "2013.12.*" alice', "destructive.machine-state"),
    ("posix", "TRUST_STORES=system mkcert -install", "destructive.machine-state"),  # a CA the machine trusts
    ("posix", "systemd-run --service-type=oneshot echo hello", "containment.service-unit"),
    ("posix", "systemd-run --user --unit build make", "containment.service-unit"),
    # boot loaders and the initial ramdisk under every distribution's name
    ("posix", "grub2-install /dev/sda", "destructive.machine-state"),
    ("posix", "grub2-editenv - set saved_entry=1", "destructive.machine-state"),
    ("posix", "grubby --set-default /boot/vmlinuz-6.1", "destructive.machine-state"),
    ("posix", "update-initramfs -u -k all", "destructive.machine-state"),
    ("posix", "dracut -f", "destructive.machine-state"),
    # a short option is not asking for help (`-?` is one word, not a pattern)
    ("posix", "mokutil -d", "destructive.machine-state"),
    ("posix", "losetup -d /dev/loop0", "destructive.machine-state"),
    # Mount helpers, disk encryption, other root file systems, secure boot and firmware, volume repair.
    ("posix", "systemd-mount /dev/sdb1 /mnt", "destructive.machine-state"),
    ("posix", "grub-mount /dev/sdXY /mnt", "destructive.machine-state"),
    ("posix", "systemd-cryptsetup attach data /dev/sdb2", "destructive.machine-state"),
    ("posix", "arch-chroot /mnt", "destructive.machine-state"),
    ("posix", "schroot --chroot bookworm make", "destructive.machine-state"),
    ("posix", "mokutil --disable-validation", "destructive.machine-state"),
    ("posix", "efibootmgr -o 0001,0002", "destructive.machine-state"),
    ("posix", "bless --mount /Volumes/Mac_OS --setBoot", "destructive.machine-state"),
    ("posix", "diskutil repairVolume /dev/disk2", "destructive.machine-state"),
    ("posix", "rauc install update.raucb", "destructive.machine-state"),
    ("posix", "firewall-cmd --permanent --zone block --change-interface enp1s0", "destructive.firewall"),
    ("posix", "gio trash --empty", "destructive.recursive-delete"),
    # A hypervisor's own management tools: the machines it hosts, their power, snapshots and its firewall.
    ("posix", "esxcli network firewall set --enabled false", "destructive.machine-state"),
    ("posix", "esxcli --formatter=csv vm process list", "destructive.machine-state"),
    ("posix", "vim-cmd vmsvc/snapshot.removeall 12", "destructive.machine-state"),
    (
        "posix",
        "for i in $(vim-cmd vmsvc/getallvms | awk '{print $1}'); do vim-cmd vmsvc/power.off $i; done",
        "destructive.machine-state",
    ),
    ("posix", "esxcfg-advcfg -s 32768 /BufferCache/MaxCapacity", "destructive.machine-state"),
    ("posix", "vmkfstools -c 10M disk.vmdk", "destructive.machine-state"),
    ("powershell", ".\\VBoxManage.exe modifyvm $name --memory 1024", "destructive.machine-state"),
    ("posix", "virsh destroy web1", "destructive.machine-state"),
    # Removing or downgrading the system's packages, and asking the repositories what they offer.
    ("posix", "sudo apt-get purge -y nginx", "destructive.machine-state"),
    ("posix", "yum remove httpd", "destructive.machine-state"),
    ("posix", "dnf history undo 3", "destructive.machine-state"),
    ("posix", "brew uninstall wget", "destructive.machine-state"),
    ("powershell", "choco uninstall git -y", "destructive.machine-state"),
    ("posix", "yum check-update", "network.package-install"),
    ("posix", "dnf list available", "network.package-install"),
    ("posix", "brew cask install firefox", "network.package-install"),
    # WSL's own administration, macOS privacy grants, device management and firmware switches, udev.
    ("powershell", "wsl --unregister Ubuntu", "destructive.machine-state"),
    ("powershell", "wsl --set-default-version 2", "destructive.machine-state"),
    ("posix", "tccutil reset AppleEvents", "destructive.machine-state"),
    ("posix", "sudo jamf policy -id 0", "destructive.machine-state"),
    ("posix", "sfltool resetbtm", "destructive.machine-state"),
    ("posix", "csrutil disable", "destructive.machine-state"),
    ("posix", 'nvram boot-args="-v"', "destructive.machine-state"),
    ("posix", "sudo safaridriver --enable", "destructive.machine-state"),
    ("posix", "sudo udevadm control --reload-rules", "destructive.machine-state"),
    # Security agents told to stand down.
    ("powershell", "cytool.exe protect disable", "destructive.machine-state"),
    (
        "powershell",
        '& "C:\\Program Files\\Windows Defender\\MpCmdRun.exe" -RemoveDefinitions -All',
        "destructive",
    ),
    ("powershell", ".\\elastic-agent.exe uninstall", "destructive.machine-state"),
    # Code that runs later: WMI's permanent event subscriptions and the parts of a scheduled task.
    (
        "powershell",
        "New-CimInstance -Namespace root/subscription -ClassName __EventFilter -Property $p",
        "unverifiable",
    ),
    (
        "powershell",
        "Get-WmiObject -Namespace root\\subscription -Class CommandLineEventConsumer",
        "unverifiable",
    ),
    ("powershell", "$t = New-ScheduledTaskTrigger -Daily -At 9am", "unverifiable"),
    (
        "powershell",
        "$p = New-ScheduledTaskPrincipal 'NT AUTHORITY\\SYSTEM' -RunLevel Highest",
        "unverifiable",
    ),
    ("posix", "hdiutil attach payload.dmg", "destructive.machine-state"),
    ("posix", "udisksctl mount -b /dev/sdb1", "destructive.machine-state"),
    ("posix", "export HISTCONTROL=ignoreboth", "destructive.machine-state"),
    # Set-user-ID bits and capabilities, remote management, trust stores, disk images.
    ("posix", "chmod u+s /tmp/evilBinary", "destructive.machine-state"),
    ("posix", "chmod g+xs ./helper", "destructive.machine-state"),
    ("posix", "chmod 4755 ./helper", "destructive.machine-state"),
    ("powershell", "Enable-PSRemoting -Force", "destructive.machine-state"),
    ("powershell", "Set-Item WSMan:\\localhost\\Client\\TrustedHosts *", "destructive.machine-state"),
    ("powershell", "certutil -addstore root rootCA.cer", "destructive.machine-state"),
    (
        "powershell",
        "Import-Certificate -FilePath rootCA.cer -CertStoreLocation Cert:\\LocalMachine\\Root",
        "destructive.machine-state",
    ),
    ("powershell", "Mount-DiskImage -ImagePath payload.iso", "destructive.machine-state"),
    (
        "posix",
        "security add-trusted-cert -d -r trustRoot -k login.keychain x.cer",
        "destructive.machine-state",
    ),
    ("posix", "sudo update-ca-certificates", "destructive.machine-state"),
    ("powershell", "pnputil.exe /add-driver C:\\Windows\\INF\\usbstor.inf", "destructive.machine-state"),
    ("posix", "systemctl stop cron", "destructive.machine-state"),
    ("posix", "sudo systemctl disable --now sshd", "destructive.machine-state"),
    ("posix", "systemctl --user restart app", "destructive.machine-state"),
    ("posix", "service cron stop", "destructive.machine-state"),
    ("powershell", "sc.exe stop WinDefend", "destructive.machine-state"),
    ("powershell", "net stop spooler", "destructive.machine-state"),
    ("powershell", "net start spooler", "destructive.machine-state"),
    ("powershell", "Stop-Service -Name Spooler -Force", "destructive.machine-state"),
    ("posix", "killall node", "destructive.machine-state"),
    ("posix", "pkill -f uvicorn", "destructive.machine-state"),
    ("posix", "kill -9 $(pgrep cron)", "destructive.machine-state"),
    ("posix", "pidof nginx | xargs kill", "destructive.machine-state"),
    # the user's saved passwords removed or added
    ("posix", 'security delete-internet-password -s "github.com"', "destructive.machine-state"),
    ("posix", 'security delete-generic-password -s "npm"', "destructive.machine-state"),
    ("posix", "security add-generic-password -a dev -s svc -w pass", "destructive.machine-state"),
    (
        "posix",
        "netstat -anp | grep :3389 | awk '{print $7}' | awk -F'[/]' '{print $1}' | xargs -I % kill -9 %",
        "destructive.machine-state",
    ),
    ("posix", "ss -ltnp | grep 8080 | awk '{print $6}' | xargs kill", "destructive.machine-state"),
    ("posix", "flashrom -p internal -w bios.bin", "destructive.machine-state"),  # the firmware flash
    ("powershell", "fondue.exe /enable-feature:NetFx3", "destructive.machine-state"),  # Features on Demand
    (
        "posix",
        "cat /proc/mounts | awk '{print $2}' | grep -Po '\\d+' | xargs -I % kill -9 %",
        "destructive.machine-state",
    ),
    ("posix", "ls /proc | grep -E '^[0-9]+$' | xargs kill", "destructive.machine-state"),
    # the process list however many filters pick the victims (a miner's cleanup of its rivals)
    (
        "posix",
        "ps aux | grep -v grep | grep -v root | grep -v a | grep -v b | grep -v c | grep -v d | grep -v e"
        " | grep -v f | awk '$3>10.0{print $2}' | xargs kill -9",
        "destructive.machine-state",
    ),
    ("powershell", "taskkill /f /im spoolsv.exe", "destructive.machine-state"),
    ("powershell", "Stop-Process -Name notepad", "destructive.machine-state"),
    ("powershell", "Get-Process node | Stop-Process", "destructive.machine-state"),
    (
        "powershell",
        "Get-Process | Where-Object { $_.Name -eq 'node' } | Stop-Process",
        "destructive.machine-state",
    ),
    ("posix", "dpkg -i tool.deb", "destructive.machine-state"),
    ("posix", "rpm -ivh tool.rpm", "destructive.machine-state"),
    ("posix", "dpkg --configure -a", "destructive.machine-state"),
    ("posix", "rpm -Uvh tool.rpm", "destructive.machine-state"),
    ("posix", "sysctl -w kernel.core_pattern=x", "destructive.machine-state"),
    ("posix", "sysctl 'kernel.core_pattern=|/tmp/x'", "destructive.machine-state"),
    ("posix", "modprobe -r snd", "destructive.machine-state"),
    ("posix", "insmod x.ko", "destructive.machine-state"),
    ("powershell", "fltMC.exe unload SysmonDrv", "destructive.machine-state"),
    ("powershell", "vssadmin delete shadows /all /quiet", "destructive"),
    ("powershell", "wbadmin delete catalog -quiet", "destructive"),
    ("powershell", "diskshadow /s script.txt", "destructive.machine-state"),
    ("posix", "tmutil deletelocalsnapshots /", "destructive.machine-state"),
    ("powershell", "fsutil usn deletejournal /d c:", "destructive.machine-state"),
    ("powershell", "bcdedit /set {default} recoveryenabled no", "destructive"),
    ("posix", "mount -o bind /bin/sh /bin/mount", "destructive.machine-state"),
    ("posix", "date -s '1 JAN 2020'", "destructive.machine-state"),
    ("posix", "timedatectl set-time '2020-01-01'", "destructive.machine-state"),
    ("posix", "auditctl -a always,exit -F arch=b64 -S execve -k x", "destructive.machine-state"),
    ("powershell", "wevtutil cl Security", "destructive"),
    ("powershell", "Set-MpPreference -DisableRealtimeMonitoring $true", "destructive.machine-state"),
    ("powershell", "reg add HKCU\\Software\\X /v Y /d 1", "destructive.registry"),
    ("powershell", "regedit /s settings.reg", "destructive.registry"),
    ("powershell", "Set-ItemProperty -Path 'HKLM:\\SYSTEM\\X' -Name Y -Value 1", "destructive.registry"),
    ("powershell", "New-ItemProperty -Path HKCU:\\Software\\X -Name Y -Value 1", "destructive.registry"),
    (
        "powershell",
        "[Environment]::SetEnvironmentVariable('Path', 'C:\\x', 'User')",
        "destructive.machine-state",
    ),
    ("powershell", "[Environment]::SetEnvironmentVariable('CI', '1', $scope)", "destructive.machine-state"),
    ("powershell", "[Environment]::SetEnvironmentVariable($name, '1')", "destructive.machine-state"),
    # the process's own variables, judged as `$env:NAME = value` is
    ("powershell", "[Environment]::SetEnvironmentVariable('COR_PROFILER_PATH', 'x.dll')", "dynamic.script"),
    ("powershell", "[Environment]::SetEnvironmentVariable('PATH', 'C:\\Users\\Public;' + $env:PATH)", "env"),
    ("posix", "crontab jobs.txt", "destructive"),
    # a router's configuration and flash, a host's network plumbing, a netsh script
    ("posix", "uci set dropbear.@dropbear[0].PasswordAuth=off", "destructive.machine-state"),
    ("posix", "uci commit firewall", "destructive.machine-state"),
    ("posix", "mtd -r write /tmp/openwrt.trx linux", "destructive.machine-state"),
    ("posix", "ipkg install kmod-ipv6", "network.package-install"),
    ("posix", "pipework br1 $CONTAINERID 192.168.1.2/24", "destructive.machine-state"),
    ("posix", "comcast --device=eth0 --latency=250 --packet-loss=10%", "destructive.machine-state"),
    ("powershell", "netsh -f c:\\netcfg.txt", "destructive.firewall"),
    ("posix", "snap connect lxd:lxd-support", "destructive.machine-state"),
    ("posix", "snap start lxd", "destructive.machine-state"),
    ("posix", "lxd init --auto --storage-backend dir", "destructive.machine-state"),
    ("posix", "resolvconf -d tun0", "destructive.machine-state"),
    # the desktop's settings and default applications
    ("posix", "gsettings set org.gnome.desktop.screensaver lock-enabled false", "destructive.machine-state"),
    ("posix", "dconf load /org/gnome/terminal/ < terminal.dconf", "destructive.machine-state"),
    ("posix", "xdg-settings set default-web-browser chromium.desktop", "destructive.machine-state"),
    ("posix", "xdg-mime default thunar.desktop inode/directory", "destructive.machine-state"),
    (
        "posix",
        "kwriteconfig5 --file kwinrc --group Windows --key BorderlessMaximizedWindows true",
        "destructive",
    ),
    ("posix", "xfconf-query -c xsettings -p /Net/ThemeName -s Adwaita-dark", "destructive.machine-state"),
    ("posix", "gnome-extensions enable blur-my-shell@aunetx", "destructive.machine-state"),
    ("posix", "history -c", "destructive.machine-state"),
    ("posix", "unset HISTFILE", "destructive.machine-state"),
    ("powershell", "Clear-History", "destructive.machine-state"),
    ("powershell", "Set-PSReadLineOption -HistorySaveStyle SaveNothing", "destructive.machine-state"),
    ("powershell", "fsutil usn createjournal m=1000 a=100 C:", "destructive.machine-state"),
    ("powershell", "fsutil 8dot3name set 1", "destructive.machine-state"),
    ("powershell", "fsutil volume dismount D:", "destructive.machine-state"),
    ("powershell", "Contig64.exe C:\\$Mft", "destructive.machine-state"),
    ("posix", "pcs property set stonith-enabled=false", "destructive.machine-state"),
    ("posix", "pcs resource create VIP ocf:heartbeat:IPaddr2 ip=10.0.0.5", "destructive.machine-state"),
    ("posix", "crm configure property no-quorum-policy=ignore", "destructive.machine-state"),
]

ALLOWED = [
    ("posix", "lvs"),
    ("posix", "vgdisplay vg0"),
    ("posix", "lvcreate --help"),
    ("posix", "tune2fs -l /dev/sda1"),
    ("posix", "e2fsck -n /dev/sdb1"),
    ("posix", "swapon --show"),
    ("posix", "apt-mark showhold"),
    ("posix", "dnf versionlock list"),
    ("posix", "gsettings get org.gnome.desktop.interface color-scheme"),
    ("posix", "uci show network"),
    ("posix", "snap list --all"),
    ("posix", "snap services lxd"),
    ("posix", "dconf dump /org/gnome/terminal/"),
    ("posix", "xdg-mime query filetype README.md"),
    ("posix", "xfconf-query -c xsettings -l"),
    ("powershell", "[Environment]::SetEnvironmentVariable('DOTNET_CLI_TELEMETRY_OPTOUT', '1')"),
    ("powershell", "[System.Environment]::SetEnvironmentVariable('CI', 'true', 'Process')"),
    ("powershell", "[Environment]::SetEnvironmentVariable('CI', '1', [EnvironmentVariableTarget]::Process)"),
    ("posix", "aide --check"),
    ("posix", "freshclam --version"),
    ("posix", "systemd-run --user --scope make test"),  # run in the foreground, only grouped
    ("posix", "nvidia-smi --query-gpu=name,memory.used --format=csv"),
    ("posix", "nvidia-smi -q -d MEMORY"),
    ("posix", "mkcert localhost 127.0.0.1"),  # a certificate for the project, signed by the existing CA
    # a package file's information and contents, read (dpkg's `-I` is not `-i`; rpm's `-i` in a query is info)
    ("posix", "dpkg -I dist/tool.deb"),
    ("posix", "dpkg -c dist/tool.deb"),
    ("posix", "rpm -qip dist/tool.rpm"),
    ("posix", "rpm -qlp dist/tool.rpm"),
    ("posix", "grub2-editenv list"),
    ("posix", "grubby --info=ALL"),
    ("posix", "dracut --list-modules"),
    ("posix", "mokutil -?"),
    ("posix", "losetup -?"),
    ("posix", "netstat -tlnp | grep 8080"),  # looking is fine
    ("posix", "security verify-cert -c build/app.pem"),
    ("posix", "systemd-mount --list"),
    ("posix", "mokutil --sb-state"),
    ("posix", "bless --info"),
    ("posix", "diskutil list"),
    ("posix", "gio trash build/old.log"),
    ("posix", "esxcli --help"),
    ("posix", "VBoxManage --version"),
    ("posix", "grep -rn esxcli docs"),
    ("posix", "qemu-img info disk.qcow2"),
    ("posix", "yum list installed"),
    ("posix", "apt list --installed"),
    ("posix", "brew list"),
    ("posix", "npm uninstall lodash"),
    ("posix", "pip uninstall -y requests"),
    ("posix", "cargo remove serde"),
    ("powershell", "MpCmdRun.exe -Scan -ScanType 1"),
    ("posix", "elastic-agent status"),
    ("powershell", "Get-CimInstance -Namespace root/cimv2 -ClassName Win32_Process"),
    ("powershell", "wsl -l -v"),
    ("powershell", "wsl ls -t"),
    ("posix", "csrutil status"),
    ("posix", "nvram -p"),
    ("posix", "udevadm info /dev/sda"),
    ("posix", "hdiutil create -size 10m -fs APFS build/app.dmg"),
    ("posix", "export HISTSIZE=5000"),
    ("posix", "chmod +x build.sh"),
    ("posix", "chmod 755 build.sh"),
    ("posix", "chmod a+rX docs"),
    ("posix", "chmod u+rwx,go+rx tool"),
    ("powershell", "Get-Item WSMan:\\localhost"),
    ("powershell", "certutil -hashfile app.zip SHA256"),
    ("posix", "security list-keychains"),
    ("powershell", "pnputil /enum-drivers"),
    ("posix", "systemctl status nginx"),
    ("posix", "systemctl list-units --failed"),
    ("posix", "service --status-all"),
    ("powershell", "sc.exe query"),
    ("powershell", "net start"),
    ("powershell", "Get-Service"),
    ("posix", "kill 1234"),
    ("posix", "kill %1"),
    ("posix", "kill $!"),
    ("posix", "kill -HUP $(cat server.pid)"),
    ("posix", "cat server.pid | grep -v x | grep -v y | grep -v z | sort | uniq | head -1 | xargs kill"),
    ("posix", "pgrep -f uvicorn"),
    ("powershell", "Stop-Process -Id 1234"),
    ("powershell", "taskkill /pid 1234"),
    ("posix", "dpkg -l"),
    ("posix", "flashrom --version"),
    ("posix", "rpm -qa"),
    ("posix", "sysctl vm.swappiness"),
    ("posix", "lsmod"),
    ("posix", "mount"),
    ("posix", "date +%s"),
    ("posix", "auditctl -l"),
    ("powershell", "wevtutil /?"),
    ("powershell", "reg query HKCU\\Software\\X"),
    ("powershell", "Set-ItemProperty .\\notes.txt -Name IsReadOnly -Value $true"),
    ("posix", "history"),
    ("posix", "set -euo pipefail"),
    ("powershell", "Set-PSReadLineOption -EditMode Emacs"),
    ("powershell", "fsutil usn queryjournal C:"),
    ("powershell", "fsutil 8dot3name query C:"),
    ("powershell", "contig -a C:\\data\\big.db"),
    ("posix", "pcs status"),
    ("posix", "pcs --version"),
    ("posix", "crm configure show"),
]


def test_changes_to_the_machine_are_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_reading_the_machine_and_stopping_own_processes_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)


def test_a_producer_beyond_the_filters_followed_counts_as_unseen() -> None:
    """Past the filters the engine follows up a pipeline, whatever feeds the command may be what a rule asks
    about: `ps aux` behind them is not let through, and neither is anything else (fail-closed)."""
    filters = " | ".join(["grep -v x"] * (FEED_FILTERS + 2))
    for producer in ("ps aux", "cat server.pid"):
        decision = Policy.default().check(f"{producer} | {filters} | xargs kill -9", "posix")
        assert not decision.allowed, producer
    listing = " | ".join(["Where-Object { $_ }"] * (FEED_FILTERS + 2))
    decision = Policy.default().check(f"Get-ChildItem C:\\Windows | {listing} | Remove-Item", "powershell")
    assert not decision.allowed
    assert Policy.default().check(f"cat server.pid | {filters} | cat", "posix").allowed  # asked by no rule
