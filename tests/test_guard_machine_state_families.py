"""Each machine-state tool is judged by its whole family of changing subcommands, on Linux and macOS alike.

A tool that changes the machine usually has a few well-known verbs and many rarer ones: systemd's unit
dependencies and SysV-era aliases (`systemctl add-wants`, `force-reload`), launchd's restarts and umask
(`launchctl reboot userspace`), AppArmor's profile generators (`aa-genprof`, `aa-logprof`), disk quotas,
systemd's machine manager, LVM's shell, SELinux's policy store, dnf's module streams, a Raspberry Pi's device
tree and firmware, Time Machine, diskutil and the kext caches, PAM and crypto policies, TPM-bound disk keys,
the console's and the screen's settings. Every changing verb blocks; the same tools' listings, status and
help stay allowed (`semanage port -l`, `machinectl list`, `pacman -Dk`, `dseditgroup -o checkmember`,
`dtoverlay -l`), and the system logs stay unread even through a tool that reads them for another purpose
(`audit2allow -a`).
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    # systemd: every changing verb, also the ones kept for SysV scripts and the manager's own settings
    ("posix", "systemctl add-wants graphical.target backup.service", "destructive.machine-state"),
    ("posix", "systemctl --user add-requires default.target sync.service", "destructive.machine-state"),
    ("posix", "systemctl force-reload postfix", "destructive.machine-state"),
    ("posix", "systemctl condrestart httpd", "destructive.machine-state"),
    ("posix", "systemctl reload-or-try-restart sshd", "destructive.machine-state"),
    ("posix", "systemctl log-level debug", "destructive.machine-state"),
    ("posix", "systemctl service-log-level cron.service warning", "destructive.machine-state"),
    ("posix", "timedatectl ntp-servers enp1s0 time.example.org", "destructive.machine-state"),
    ("posix", "timedatectl timezone Europe/Berlin", "destructive.machine-state"),
    ("posix", "hostnamectl chassis server", "destructive.machine-state"),
    ("posix", "hostnamectl location 'rack 4'", "destructive.machine-state"),
    ("posix", "machinectl poweroff build01", "destructive.machine-state"),
    ("posix", "machinectl clone base web2", "destructive.machine-state"),
    ("posix", "machinectl enable web2", "destructive.machine-state"),
    # launchd's restarts, umask and debugging hooks
    ("posix", "launchctl reboot logout", "destructive.system-power"),
    ("posix", "/bin/launchctl reboot apps", "destructive.system-power"),
    ("posix", "launchctl umask 027", "destructive.machine-state"),
    ("posix", "launchctl bsexec 88 /usr/bin/open x.app", "unverifiable.scheduled-job"),
    # AppArmor's profile tools, quotas, SELinux's store, LVM's shell
    ("posix", "aa-logprof -f /var/log/syslog", "destructive.machine-state"),
    ("posix", "aa-autodep /usr/sbin/dnsmasq", "destructive.machine-state"),
    ("posix", "aa-audit /etc/apparmor.d/usr.sbin.cupsd", "destructive.machine-state"),
    ("posix", "aa-remove-unknown", "destructive.machine-state"),
    ("posix", "quotaoff -a", "destructive.machine-state"),
    ("posix", "quotacheck -cugm /srv", "destructive.machine-state"),
    ("posix", "edquota -p alice bob", "destructive.machine-state"),
    ("posix", "setquota -g devs 0 500000 0 0 -a", "destructive.machine-state"),
    ("posix", "xfs_quota -x -c 'disable -up' /data", "destructive.machine-state"),
    ("posix", "semanage boolean -m --on httpd_can_sendmail", "destructive.machine-state"),
    ("posix", "semanage fcontext -a -t public_content_t '/srv/ftp(/.*)?'", "destructive.machine-state"),
    ("posix", "semanage import -f local.txt", "destructive.machine-state"),
    ("posix", "lvm lvextend -r -L +10G vg0/home", "destructive.machine-state"),
    ("posix", "lvm vgremove -f vgdata", "destructive.machine-state"),
    # package state: module streams, database edits, snapshots of snaps
    ("posix", "dnf module disable -y postgresql", "network.package-install"),
    ("posix", "yum module enable php:8.1", "network.package-install"),
    ("posix", "pacman -D --asexplicit linux-lts", "destructive.machine-state"),
    ("posix", "pacman -Dk --asdeps python-pip", "destructive.machine-state"),
    ("posix", "snap save lxd", "destructive.machine-state"),
    ("posix", "snap forget 7", "destructive.machine-state"),
    # a Raspberry Pi's device tree, pins and bootloader
    ("posix", "dtoverlay -r w1-gpio", "destructive.machine-state"),
    ("posix", "dtparam audio=off", "destructive.machine-state"),
    ("posix", "raspi-gpio set 4 op dl", "destructive.machine-state"),
    ("posix", "rpi-eeprom-update -d -a", "destructive.machine-state"),
    ("posix", "rpi-eeprom-config --edit", "destructive.machine-state"),
    # macOS: Time Machine, volumes, kext caches, share points, groups
    ("posix", "tmutil setquota /Volumes/TM 500", "destructive.machine-state"),
    ("posix", "diskutil renameVolume /Volumes/Untitled Data", "destructive.machine-state"),
    ("posix", "diskutil unmountDisk force /dev/disk4", "destructive.machine-state"),
    ("posix", "kextcache --clear-staging", "destructive.machine-state"),
    ("posix", "kextutil /Library/Extensions/Foo.kext", "destructive.machine-state"),
    ("posix", "sharing -r Public", "destructive.machine-state"),
    ("posix", "nisdomainname lab", "destructive.machine-state"),
    ("posix", "dseditgroup -o delete -t group devs", "env.accounts"),
    ("posix", "dseditgroup -o create -n . -r Builders builders", "env.accounts"),
    ("posix", 'dseditgroup -o "$action" -a ci -t user admin', "env.accounts"),
    # login, crypto and account-cache configuration, TPM-bound disk keys, control groups
    ("posix", "authselect enable-feature with-mkhomedir", "destructive.machine-state"),
    ("posix", "authconfig --enablesssd --enablesssdauth --updateall", "destructive.machine-state"),
    ("posix", "update-crypto-policies --set DEFAULT:SHA1", "destructive.machine-state"),
    ("posix", "fips-mode-setup --disable", "destructive.machine-state"),
    ("posix", "sss_cache -U", "destructive.machine-state"),
    ("posix", "nscd --invalidate=hosts", "destructive.machine-state"),
    ("posix", "systemd-cryptenroll --wipe-slot=tpm2 /dev/nvme0n1p3", "destructive.machine-state"),
    ("posix", "clevis luks unbind -d /dev/sdb1 -s 1", "destructive.machine-state"),
    ("posix", "tpm2_evictcontrol -C o -c 0x81000001", "destructive.machine-state"),
    ("posix", "cgdelete cpu:/batch", "destructive.machine-state"),
    ("posix", "chgpasswd -e < groups.txt", "env.accounts"),
    ("posix", "grpunconv", "env.accounts"),
    ("posix", "lslogins --output=USER,UID,LAST-LOGIN", "env.accounts"),
    ("posix", "lid -g wheel", "env.accounts"),
    # the session's and console's display settings, other users' processes reprioritised
    ("posix", "brightnessctl -d intel_backlight set 10%-", "destructive.machine-state"),
    ("posix", "xbacklight -inc 10", "destructive.machine-state"),
    ("posix", "ddcutil setvcp 60 0x0f", "destructive.machine-state"),
    ("posix", "light -U 20", "destructive.machine-state"),
    ("posix", "setterm --powersave off", "destructive.machine-state"),
    ("posix", "chvt 1", "destructive.machine-state"),
    ("posix", "renice +10 -u www-data", "destructive.machine-state"),
    # network plumbing beside ip: bridge ports and tables, IPVS services
    ("posix", "bridge vlan add dev veth0 vid 10", "destructive.network-configuration"),
    ("posix", "bridge fdb del 52:54:00:12:34:56 dev br0", "destructive.network-configuration"),
    ("posix", "ipvsadm -a -t 10.0.0.1:80 -r 10.0.0.11:80 -m", "destructive.network-configuration"),
    ("posix", "networkctl reconfigure enp3s0", "destructive.network-configuration"),
    ("posix", "networkctl forcerenew wlan0", "destructive.network-configuration"),
    ("posix", "nmtui-connect", "destructive.network-configuration"),
    ("posix", "mii-tool --restart eth1", "destructive.network-configuration"),
    ("posix", "ipsec rereadsecrets", "destructive.network-configuration"),
    ("posix", "swanctl --initiate --child net-net", "destructive.network-configuration"),
    # what starts later, listed: at's queue and a queued job's script, like `crontab -l`
    ("posix", "atq", "env.machine-discovery"),
    ("posix", "at -c 12", "env.machine-discovery"),
    ("posix", "networkctl lldp", "env.machine-discovery"),
    # a recursive listing of every file's ACLs or attributes from the root, or of every home
    ("posix", "getfacl -R -p / > acl.txt", "env.machine-search"),
    ("posix", "lsattr -Ra /", "env.machine-search"),
    ("posix", "getfattr -R -d -m - /home", "env.machine-search"),
    # the system logs, read to write rules or through a snap
    ("posix", "audit2allow -a -M mylocal", "env.system-logs"),
    ("posix", "audit2why --boot", "env.system-logs"),
    ("posix", "snap logs -n 50 multipass", "env.system-logs"),
]

ALLOWED = [
    ("posix", "systemctl log-level"),
    ("posix", "systemctl service-log-level cron.service"),
    ("posix", "systemctl is-enabled backup.service"),
    ("posix", "timedatectl timezone"),
    ("posix", "hostnamectl chassis"),
    ("posix", "hostnamectl hostname"),
    ("posix", "machinectl list-images"),
    ("posix", "machinectl status build01"),
    ("posix", "launchctl umask"),
    ("posix", "launchctl version"),
    ("posix", "quota -s -u ci"),
    ("posix", "xfs_quota -c 'quota -h' /data"),
    ("posix", "semanage boolean -l | grep httpd"),
    ("posix", "semanage fcontext --list -C"),
    ("posix", "semanage export"),
    ("posix", "lvm lvs --units g"),
    ("posix", "lvm version"),
    ("posix", "dnf module list --enabled"),
    ("posix", "yum module info php"),
    ("posix", "pacman -Dkk"),
    ("posix", "snap changes"),
    ("posix", "dtoverlay -a"),
    ("posix", "dtparam -h"),
    ("posix", "raspi-gpio get 4"),
    ("posix", "rpi-eeprom-update"),
    ("posix", "rpi-eeprom-config"),
    ("posix", "tmutil isexcluded build"),
    ("posix", "diskutil info -plist /"),
    ("posix", "kextutil -n -t build/Foo.kext"),
    ("posix", "sharing -l"),
    ("posix", "nisdomainname"),
    ("posix", 'dseditgroup -o checkmember -m "$USER" admin'),
    ("posix", "dseditgroup -o read staff"),
    ("posix", "audit2allow -i denials.log -M mylocal"),
    ("posix", "caffeinate -dimsu -w $$"),
    ("posix", "caffeinate -t 600 make test"),
    ("posix", "authselect current --raw"),
    ("posix", "update-crypto-policies --check"),
    ("posix", "fips-mode-setup --is-enabled"),
    ("posix", "clevis luks list -d /dev/sdb1"),
    ("posix", "nscd --statistics"),
    ("posix", "brightnessctl -m info"),
    ("posix", "xbacklight -get"),
    ("posix", "ddcutil detect"),
    ("posix", "light -G"),
    ("posix", "renice -n 5 -p 4242"),
    ("posix", "bridge -d link show"),
    ("posix", "ipvsadm -L -n --stats"),
    ("posix", "getfacl -R src"),
    ("posix", "lsattr -R build"),
    ("posix", "xattr -r build/App.app"),
    ("posix", "networkctl status enp3s0"),
    ("posix", "mii-tool -v eth1"),
    ("posix", "ipsec statusall"),
    ("posix", "swanctl --list-conns"),
]


def test_every_changing_verb_of_a_machine_tool_is_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_the_same_tools_listings_status_and_help_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)
