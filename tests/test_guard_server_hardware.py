"""The machine below and beside the operating system: power, firmware, controllers, disks and clocks.

Baseboard management controllers, hardware RAID controllers, SCSI and NVMe commands that format or overwrite
a device, iSCSI logins, system containers and Xen guests, and the NIC's link-layer and clock agents all act
on the machine, never on the project. Reading a disk's health or listing containers changes nothing.

A POSIX program's switches differ by case (`xfs_repair -n` only checks, `-L` zeroes the log), so a word
that spares a command spares it only as the rule spells it; PowerShell's parameters and cmd's switches
keep comparing in any case.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

MACHINE = "destructive.machine-state"
DISK = "destructive.disk-format"

BLOCKED = [
    ("posix", "ipmitool chassis power cycle", MACHINE),
    ("posix", "ipmitool user set password 2 secret", MACHINE),
    ("posix", "ipmitool raw 0x30 0x30 0x02 0xff 0x10", MACHINE),
    ("posix", "ipmitool sdr list", MACHINE),
    ("posix", "ipmi-power --off", MACHINE),
    ("posix", "bmc-device --cold-reset", MACHINE),
    ("posix", "racadm serveraction powercycle", MACHINE),
    ("posix", "hponcfg -w out.xml", MACHINE),
    ("posix", "storcli /c0/v0 del force", MACHINE),
    ("posix", "MegaCli64 -CfgLdDel -L0 -a0", MACHINE),
    ("posix", "ssacli ctrl slot=0 ld 1 delete forced", MACHINE),
    ("posix", "xe host-reboot", MACHINE),
    ("posix", "lxc-attach -n c1 -- sh", MACHINE),
    ("posix", "lldptool -T -i eth0 -V sysName enableTx=yes", MACHINE),
    ("posix", "lldptool set-lldp -i eth0 adminStatus=rxtx", MACHINE),
    ("posix", "dcbtool sc eth0 dcb on", MACHINE),
    ("posix", "phc_ctl /dev/ptp0 set", MACHINE),
    ("posix", "phc_ctl /dev/ptp0 get set", MACHINE),
    ("posix", "irqbalance --oneshot", MACHINE),
    ("posix", "smartctl -t long /dev/sda", DISK),
    ("posix", "smartctl --test=short /dev/sda", DISK),
    ("posix", "smartctl -s off /dev/sda", DISK),
    ("posix", "sg_sanitize --crypto /dev/sg2", DISK),
    ("posix", "sg_format --format /dev/sg1", DISK),
    ("posix", "multipath -F", DISK),
    ("posix", "fstrim -av", DISK),
    ("posix", "nvme create-ns /dev/nvme0 -s 100", DISK),
    ("posix", "nvme fw-download /dev/nvme0 -f fw.bin", DISK),
    ("posix", "iscsiadm -m node --login", DISK),
    ("posix", "targetcli /backstores/block create d1 /dev/sdb", DISK),
    ("posix", "xfs_repair -L /dev/sdb1", DISK),
    ("posix", "lxc delete web --force", "network.remote-service"),
    ("posix", "lxc exec c1 -- bash", "network.remote-service"),
    ("posix", "incus stop c1", "network.remote-service"),
]

ALLOWED = [
    ("posix", "ipmitool -V"),
    ("posix", "smartctl -a /dev/sda"),
    ("posix", "smartctl -x /dev/sda"),
    ("posix", "smartctl -H /dev/sda"),
    ("posix", "sg_inq /dev/sg0"),
    ("posix", "multipath -ll"),
    ("posix", "nvme list"),
    ("posix", "nvme smart-log /dev/nvme0"),
    ("posix", "lldptool -t -n -i eth0"),
    ("posix", "dcbtool gc eth0 dcb"),
    ("posix", "phc_ctl /dev/ptp0 get"),
    ("posix", "xfs_repair -n /dev/sdb1"),
    ("posix", "lxc list"),
    ("posix", "lxc ls --format csv"),
    ("posix", "incus info c1"),
    ("posix", "lxc config show c1"),
    ("posix", "grep -rn ipmitool docs"),
]


def test_hardware_controllers_containers_and_clocks_are_blocked() -> None:
    every_case(BLOCKED, lambda shell, command, rule: guard_blocks(shell, command, rule))


def test_reading_health_and_listing_is_allowed() -> None:
    every_case(ALLOWED, guard_allows)


def test_a_posix_switch_spares_only_in_the_case_written() -> None:
    guard_blocks("posix", "xfs_repair -L /dev/sdb1", DISK)
    guard_allows("posix", "xfs_repair -n /dev/sdb1")
    # PowerShell parameters and cmd switches are the same word in any case
    guard_allows("powershell", "powercfg /LIST")
    guard_allows("powershell", "powercfg /list")
