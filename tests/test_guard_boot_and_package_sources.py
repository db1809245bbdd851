"""What the machine boots and where its packages come from are the machine's, not the project's.

Secure Boot keys and signed images (`sbctl`), kernel modules built into the running system (`dkms install`),
an initramfs or boot menu remade (`mkinitfs`, `generate-zbm`, `plymouth-set-default-theme -R`) are machine
state. Gentoo's and Void's installers name packages with no subcommand (`emerge --ask x`, `xbps-install
-Su`), and a repository added or switched on (`add-apt-repository ppa:…`, `dnf copr enable`, `zypper ar`)
changes what every later install takes: both download. PowerShell's `Get-PackageProvider -Force` installs
the provider it lacks. Status, listings, searches and dry runs stay allowed.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", "sbctl create-keys", "destructive.machine-state"),
    ("posix", "sbctl enroll-keys --microsoft", "destructive.machine-state"),
    ("posix", "sbctl sign -s /boot/vmlinuz-linux", "destructive.machine-state"),
    ("posix", "dkms install -m nvidia -v 550.54", "destructive.machine-state"),
    ("posix", "dkms generate_mok", "destructive.machine-state"),
    ("posix", "mkinitfs -c /etc/mkinitfs/mkinitfs.conf 6.6.8-0-lts", "destructive.machine-state"),
    ("posix", "generate-zbm --debug", "destructive.machine-state"),
    ("posix", "zgenhostid -f 0x00bab10c", "destructive.machine-state"),
    ("posix", "kernel-install add 6.8.0 /boot/vmlinuz-6.8.0", "destructive.machine-state"),
    ("posix", "plymouth-set-default-theme -R spinner", "destructive.machine-state"),
    ("posix", "emerge --ask app-crypt/sbctl", "network.package-install"),
    ("posix", "emerge -uDN @world", "network.package-install"),
    ("posix", "xbps-install -Syu", "network.package-install"),
    ("posix", "add-apt-repository -y ppa:deadsnakes/ppa", "network.package-install"),
    ("posix", "apt-add-repository --remove ppa:ansible/ansible", "network.package-install"),
    ("posix", "dnf copr enable chenxiaolong/sbctl", "network.package-install"),
    ("posix", "dnf config-manager --set-enabled crb", "network.package-install"),
    ("posix", "zypper addrepo -f obs://devel:languages:python python", "network.package-install"),
    ("powershell", "Get-PackageProvider -Name NuGet -ForceBootstrap", "network.package-install"),
    ("powershell", "Get-PackageProvider NuGet -Force | Out-Null", "network.package-install"),
    # PowerShell's profile script lives in the user's documents, among the start-up files that hold keys;
    # like `~/.bashrc`, any word naming it counts (asking only whether it is there does not: below)
    ("powershell", "Remove-Item $PROFILE", "env.secret-files"),
    ("powershell", "Add-Content -Path $PROFILE.CurrentUserAllHosts -Value x", "env.secret-files"),
    ("powershell", "Get-Content $PROFILE", "env.secret-files"),
]

ALLOWED = [
    ("posix", "sbctl status"),
    ("posix", "sbctl verify"),
    ("posix", "dkms status"),
    ("posix", "plymouth-set-default-theme --list"),
    ("posix", "emerge --search sbctl"),
    ("posix", "emerge -pv app-crypt/sbctl"),
    ("posix", "xbps-install -n xbps"),
    ("posix", "add-apt-repository --list"),
    ("posix", "dnf copr list"),
    ("posix", "zypper lr"),
    ("powershell", "Get-PackageProvider -ListAvailable"),
    ("powershell", "Test-Path $ProfileDir"),  # another variable
    ("powershell", "Test-Path -Path $PROFILE -PathType Leaf"),  # whether it is there, as `[ -f ~/.bashrc ]`
]


def test_boot_changes_and_package_sources_are_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_status_listings_and_dry_runs_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)


CLUSTERS_AND_DRIVERS = [
    ("posix", "microk8s enable dashboard dns registry", "network.remote-service"),
    ("posix", "microk8s kubectl get pods -A", "network.remote-service"),
    ("posix", "bzip2 -cd image.tar.bz2 | k3s ctr -n k8s.io images import -", "network.remote-service"),
    ("posix", "kubeadm token create --print-join-command", "destructive.machine-state"),
    ("powershell", 'pnputil.exe /add-driver "C:\\Program Files (x86)\\V\\x.inf" /install', "destructive"),
    ("powershell", "pnputil -i -a driver\\x.inf", "destructive.machine-state"),
    ("powershell", ".\\nefconc.exe --create-device-node --hardware-id Root\\x", "destructive"),
    ("powershell", "devcon install driver\\x.inf Root\\x", "destructive.machine-state"),
]

CLUSTERS_AND_DRIVERS_READ = [
    ("posix", "microk8s status --wait-ready"),
    ("posix", "k3s --version"),
    ("posix", "kubeadm config print init-defaults"),
    ("powershell", "pnputil /enum-drivers"),
    ("powershell", "devcon find *"),
]


def test_node_distributions_and_driver_installs_are_blocked() -> None:
    every_case(CLUSTERS_AND_DRIVERS, guard_blocks)


def test_their_status_and_listings_stay_allowed() -> None:
    every_case(CLUSTERS_AND_DRIVERS_READ, guard_allows)
