"""The BSDs' administration and the virtual machines on a developer's host are the machine's own state.

FreeBSD and OpenBSD spell machine changes with their own tools: kernel modules (`kldload`), GEOM disk
tools (`gpart`, `geli`), ZFS datasets and pools changed in place (`zfs set`, `zpool import`), system file
flags only root may touch (`chflags noschg`), services (`rcctl enable`), jails and boot environments, and
base-system updaters that download what they install (`freebsd-update`, `syspatch`). Local VM managers
(Lima, Colima, Multipass, bhyve, vmctl, Proxmox) make, start and delete machines, or run a shell inside
one, where the sandbox does not reach. Every listing and status form stays allowed.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("kldload vmm", "destructive.machine-state"),
    ("kldunload pf", "destructive.machine-state"),
    ("mdconfig -a -t vnode -f disk.img", "destructive.machine-state"),
    ("gpart create -s gpt da0", "destructive.disk-format"),
    ("gpart add -t freebsd-zfs -a 1m da0", "destructive.disk-format"),
    ("geli attach -k /tmp/k.key /dev/ada0p4", "destructive.disk-format"),
    ("gmirror label -v gm0 /dev/ada1", "destructive.disk-format"),
    ("gpart recover da0", "destructive.disk-format"),
    ("zfs set compression=lz4 zroot/usr", "destructive.machine-state"),
    ("zfs create -o mountpoint=/jails zroot/jails", "destructive.machine-state"),
    ("zfs clone zroot/ROOT/default@new zroot/ROOT/new", "destructive.machine-state"),
    ("zpool import -f tank", "destructive.machine-state"),
    ("chflags -R noschg /usr/local/etc", "destructive.machine-state"),
    ("chflags -R nosappnd logs", "destructive.machine-state"),  # root-only, wherever the file is
    ("rcctl enable httpd", "destructive.machine-state"),
    ("rcctl set ntpd flags -s", "destructive.machine-state"),
    ("rcctl check sshd stop", "destructive.machine-state"),
    ("brew services start postgresql@16", "destructive.machine-state"),
    ("jail -c name=web path=/jails/web", "destructive.machine-state"),
    ("jexec web sh", "destructive.machine-state"),
    ("bastille create web 14.2-RELEASE 10.0.0.5", "destructive.machine-state"),
    ("iocage start web", "destructive.machine-state"),
    ("bectl activate upgrade-14", "destructive.machine-state"),
    ("vmctl start -c -m 1G -d disk.img obsd", "destructive.machine-state"),
    ("bhyvectl --destroy --vm=guest", "destructive.machine-state"),
    ("pvesm free local:100/vm-100-disk-0.raw", "destructive.machine-state"),
    ("pvesh create /pools --poolid p1", "destructive.machine-state"),
    ("limactl start --name=dev template://docker", "destructive.machine-state"),
    ("lima sudo systemctl start containerd", "destructive.machine-state"),
    ("colima ssh -- sudo fstrim -a", "destructive.machine-state"),
    ("colima delete --force", "destructive.machine-state"),
    ("multipass exec vm1 -- ls", "destructive.machine-state"),
    ("freebsd-update fetch install", "network.package-install"),
    ("syspatch", "network.package-install"),
    ("sysupgrade -s", "network.package-install"),
    ("fw_update", "network.package-install"),
    ("pkg bootstrap -f", "network.package-install"),
]

ALLOWED = [
    "gpart show",
    "gpart show -p da0",
    "geli list",
    "gmirror status",
    "zfs list -t snapshot",
    "zfs get all zroot",
    "zpool status -x",
    "chflags nouchg build/app",
    "chflags -R uchg dist",
    "rcctl check sshd",
    "rcctl ls started",
    "rcctl get ntpd flags",
    "brew services list",
    "jls",
    "bastille list",
    "limactl list",
    "colima status",
    "multipass info vm1",
    "pvesh get /nodes",
    "freebsd-update --help",
    "pkg info",
]


def test_bsd_administration_and_local_vms_are_blocked() -> None:
    every_case(BLOCKED, lambda command, expected: guard_blocks("posix", command, expected))


def test_their_listing_and_status_forms_stay_allowed() -> None:
    every_case(ALLOWED, lambda command: guard_allows("posix", command))
