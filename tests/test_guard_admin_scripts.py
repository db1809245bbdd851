"""What public administration scripts run that changes the machine or the user's home, beside the forms of the
same tools that only show.

Image-based and unattended system updates (rpm-ostree, bootc, ostree, transactional-update,
do-release-upgrade, unattended-upgrade, systemd-sysext, cloud-init) replace or reconfigure the running system:
machine state. Their status, diff and query forms stay allowed. So are macOS's launchd limits set, a disk
image attached by `hdid`, pf enabled or released by token (`pfctl -E`, `-X`: the firewall) and dummynet's
pipes configured (network configuration); printing the limits, pf's rules and dummynet's pipes is fine.

Dotfile managers (stow, chezmoi, mackup, yadm, rcm, dotbot, homeshick, dotter, dotdrop) write the home
folder's start-up files: a write outside the project. Their simulations, diffs and listings stay allowed.
So does a package linked into the global prefix (`npm link`, `yarn link`, `bun link`, `pnpm link -g`), which
puts the project's code on every shell's PATH; linking into the project's own dependencies stays allowed.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

MACHINE_STATE = "destructive.machine-state"

SYSTEM_UPDATES = [
    ("posix", "rpm-ostree upgrade"),
    ("posix", "rpm-ostree update --reboot"),
    ("posix", "rpm-ostree install htop tmux"),
    ("posix", "rpm-ostree install --apply-live -y podman-compose"),
    ("posix", "rpm-ostree uninstall htop"),
    ("posix", "rpm-ostree rebase ostree-unverified-registry:ghcr.io/ublue-os/bazzite:stable"),
    ("posix", "rpm-ostree kargs --append=mitigations=off"),
    ("posix", "rpm-ostree kargs --delete quiet --append-if-missing=rd.luks=0"),
    ("posix", "rpm-ostree override remove firefox firefox-langpacks"),
    ("posix", "rpm-ostree override reset --all"),
    ("posix", "rpm-ostree reset"),
    ("posix", "rpm-ostree reload"),
    ("posix", "rpm-ostree deploy 39.20240101.0"),
    ("posix", "rpm-ostree rollback -r"),
    ("posix", "rpm-ostree cleanup -m"),
    ("posix", "rpm-ostree initramfs --enable"),
    ("posix", "rpm-ostree apply-live"),
    ("posix", "bootc upgrade --apply"),
    ("posix", "bootc switch quay.io/fedora/fedora-bootc:40"),
    ("posix", "bootc rollback"),
    ("posix", "ostree admin deploy fedora:fedora/40/x86_64/silverblue"),
    ("posix", "ostree admin pin 0"),
    ("posix", "transactional-update"),
    ("posix", "transactional-update dup"),
    ("posix", "transactional-update pkg install vim"),
    ("posix", "transactional-update --non-interactive up"),
    ("posix", "tukit execute zypper -n in vim"),
    ("posix", "do-release-upgrade"),
    ("posix", "do-release-upgrade -f DistUpgradeViewNonInteractive"),
    ("posix", "unattended-upgrade -d"),
    ("posix", "unattended-upgrades --dry-run --debug"),
    ("posix", "systemd-sysext merge"),
    ("posix", "systemd-sysext refresh --force"),
    ("posix", "systemd-sysext unmerge"),
    ("posix", "systemd-confext refresh"),
    ("posix", "cloud-init clean --logs --reboot"),
    ("posix", "cloud-init clean --machine-id --seed"),
    ("posix", "cloud-init init --local"),
    ("posix", "cloud-init modules --mode=final"),
    ("posix", "cloud-init single --name cc_timezone"),
]

SYSTEM_UPDATES_SHOWN = [
    ("posix", "rpm-ostree status"),
    ("posix", "rpm-ostree status -v --json"),
    ("posix", "rpm-ostree db diff"),
    ("posix", "rpm-ostree db list"),
    ("posix", "rpm-ostree kargs"),
    ("posix", "rpm-ostree initramfs"),
    ("posix", "rpm-ostree upgrade --check"),
    ("posix", "rpm-ostree upgrade --preview"),
    ("posix", "rpm-ostree --help"),
    ("posix", "rpm-ostree --version"),
    ("posix", "bootc status"),
    ("posix", "bootc status --json"),
    ("posix", "ostree admin status"),
    ("posix", "transactional-update --help"),
    ("posix", "do-release-upgrade --help"),
    ("posix", "unattended-upgrade --help"),
    ("posix", "systemd-sysext"),
    ("posix", "systemd-sysext status"),
    ("posix", "systemd-sysext list"),
    ("posix", "cloud-init status --wait"),
    ("posix", "cloud-init status --long"),
    ("posix", "cloud-init query v1.region"),
    ("posix", "cloud-init analyze show"),
    ("posix", "cloud-init schema --config-file user-data.yaml"),
]


def test_image_based_and_unattended_system_updates_are_machine_state() -> None:
    every_case(SYSTEM_UPDATES, lambda shell, command: guard_blocks(shell, command, MACHINE_STATE))


def test_showing_system_update_state_stays_allowed() -> None:
    every_case(SYSTEM_UPDATES_SHOWN, guard_allows)


MACOS_MACHINE_STATE = [
    ("posix", "launchctl limit maxfiles 65536 200000", MACHINE_STATE),
    ("posix", "sudo launchctl limit maxproc 2048 2048", "containment.privilege-elevation"),
    ("posix", "launchctl limit maxfiles 524288 unlimited", MACHINE_STATE),
    ("posix", "hdid x.dmg", MACHINE_STATE),
    ("posix", "hdid -nomount ~/Downloads/installer.dmg", MACHINE_STATE),
    ("posix", "pfctl -E", "destructive.firewall"),
    ("posix", "pfctl -E -f /etc/pf.anchors/throttle", "destructive.firewall"),
    ("posix", "pfctl -X 14012357089382781123", "destructive.firewall"),
    ("posix", "pfctl -d", "destructive.firewall"),
    ("posix", "pfctl -F all", "destructive.firewall"),
    ("posix", "dnctl pipe 1 config bw 1Mbit/s delay 100 plr 0.01", "destructive.network-configuration"),
    ("posix", "dnctl pipe delete 1", "destructive.network-configuration"),
    ("posix", "dnctl -q flush", "destructive.network-configuration"),
    ("posix", "dnctl queue 2 config pipe 1 weight 10", "destructive.network-configuration"),
]

MACOS_MACHINE_STATE_SHOWN = [
    ("posix", "launchctl limit"),
    ("posix", "launchctl limit maxfiles"),
    ("posix", "hdiutil info"),
    ("posix", "pfctl -s rules"),
    ("posix", "pfctl -sr"),
    ("posix", "pfctl -si"),
    ("posix", "pfctl -a com.apple -s rules"),
    ("posix", "pfctl -vnf pf.conf"),
    ("posix", "dnctl list"),
    ("posix", "dnctl show"),
    ("posix", "dnctl pipe show"),
    ("posix", "dnctl pipe list 1"),
]


def test_macos_limits_images_packet_filter_and_dummynet_changes_are_blocked() -> None:
    every_case(MACOS_MACHINE_STATE, guard_blocks)


def test_showing_macos_limits_packet_filter_and_dummynet_stays_allowed() -> None:
    every_case(MACOS_MACHINE_STATE_SHOWN, guard_allows)


WRITE_OUTSIDE = "containment.write-outside-project"

DOTFILE_MANAGERS = [
    ("posix", "stow zsh"),
    ("posix", "stow -t ~ zsh git tmux"),
    ("posix", "stow --target=$HOME git"),
    ("posix", "stow -v -R -t ~ */"),
    ("posix", "stow --dotfiles --adopt bash"),
    ("posix", "stow -D vim"),
    ("posix", "cd ~/dotfiles && stow nvim"),
    ("posix", "chezmoi init --apply user"),
    ("posix", "chezmoi init https://github.com/user/dotfiles.git"),
    ("posix", "chezmoi apply"),
    ("posix", "chezmoi apply -v --force"),
    ("posix", "chezmoi update"),
    ("posix", "chezmoi re-add"),
    ("posix", "chezmoi add ~/.zshrc"),
    ("posix", "chezmoi edit --apply ~/.bashrc"),
    ("posix", "chezmoi import --strip-components 1 --destination ~/.oh-my-zsh oh-my-zsh.tar.gz"),
    ("posix", "chezmoi merge ~/.bashrc"),
    ("posix", "chezmoi purge --force"),
    ("posix", "chezmoi forget ~/.vimrc"),
    ("posix", "chezmoi state delete-bucket --bucket=scriptState"),
    ("posix", "chezmoi git pull -- --rebase"),
    ("posix", "mackup restore"),
    ("posix", "mackup backup --force"),
    ("posix", "mackup link install"),
    ("posix", "mackup uninstall"),
    ("posix", "yadm pull"),
    ("posix", "yadm add ~/.bashrc"),
    ("posix", "yadm commit -m x"),
    ("posix", "yadm checkout ~"),
    ("posix", "yadm bootstrap"),
    ("posix", "yadm alt"),
    ("posix", "rcup"),
    ("posix", "rcup -v -d ~/dotfiles"),
    ("posix", "rcdn"),
    ("posix", "mkrc ~/.tmux.conf"),
    ("posix", "dotbot -c install.conf.yaml"),
    ("posix", "homeshick link"),
    ("posix", "homeshick clone user/dotfiles"),
    ("posix", "dotter deploy"),
    ("posix", "dotter"),
    ("posix", "dotdrop install -p laptop"),
]

DOTFILE_MANAGERS_SHOWN = [
    ("posix", "stow -n zsh"),
    ("posix", "stow --no -t ~ zsh"),
    ("posix", "stow --simulate -v git"),
    ("posix", "stow -nvt ~ zsh"),
    ("posix", "stow --help"),
    ("posix", "chezmoi diff"),
    ("posix", "chezmoi apply --dry-run"),
    ("posix", "chezmoi apply -n -v"),
    ("posix", "chezmoi status"),
    ("posix", "chezmoi doctor"),
    ("posix", "chezmoi data"),
    ("posix", "chezmoi managed"),
    ("posix", "chezmoi git status"),
    ("posix", "chezmoi --help"),
    ("posix", "mackup list"),
    ("posix", "mackup -n restore"),
    ("posix", "yadm status"),
    ("posix", "yadm diff"),
    ("posix", "yadm log --oneline -5"),
    ("posix", "yadm ls-files"),
    ("posix", "lsrc"),
    ("posix", "rcup -g"),
    ("posix", "homeshick list"),
    ("posix", "dotter init"),
    ("posix", "dotter --dry-run"),
    ("posix", "dotdrop compare"),
    ("posix", "ls ~/dotfiles"),
]


def test_dotfile_managers_write_the_home_folders_start_up_files() -> None:
    every_case(DOTFILE_MANAGERS, lambda shell, command: guard_blocks(shell, command, WRITE_OUTSIDE))


def test_simulating_and_showing_dotfiles_stays_allowed() -> None:
    every_case(DOTFILE_MANAGERS_SHOWN, guard_allows)


GLOBAL_LINKS = [
    ("posix", "npm link"),
    ("posix", "npm link ../shared-lib"),
    ("posix", "npm link my-cli"),
    ("posix", "npm ln"),
    ("posix", "cd packages/cli && npm link"),
    ("posix", "npm unlink"),
    ("posix", "yarn link"),
    ("posix", "yarn unlink"),
    ("posix", "pnpm link --global"),
    ("posix", "pnpm link -g"),
    ("posix", "pnpm link"),
    ("posix", "bun link"),
    ("posix", "bun unlink"),
]

PROJECT_LINKS = [
    ("posix", "yarn link my-lib"),
    ("posix", "yarn unlink my-lib"),
    ("posix", "pnpm link ../lib"),
    ("posix", "bun link my-lib"),
    ("posix", "npm unlink my-lib"),
    ("posix", "npm link --help"),
    ("posix", "npm run link"),
]


def test_linking_a_package_into_the_global_prefix_writes_outside_the_project() -> None:
    every_case(GLOBAL_LINKS, lambda shell, command: guard_blocks(shell, command, WRITE_OUTSIDE))


def test_linking_into_the_projects_own_dependencies_stays_allowed() -> None:
    every_case(PROJECT_LINKS, guard_allows)
