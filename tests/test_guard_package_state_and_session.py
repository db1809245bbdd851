"""The machine's package managers, clock, keyboard, displays and desktop session are not the project.

Homebrew's links, clean-ups and settings, Flatpak's remotes, permissions and overrides, Nix's profiles,
generations and store and the system rebuilds of NixOS, nix-darwin and Home Manager change what the whole
machine runs; chrony stepping the clock, a new keyboard layout or console keymap, a display turned off and a
window manager told to exit change the user's session. Capture covers the remaining screen, camera,
microphone and phone readers (ImageMagick's `import`, `xev`, Termux's readers, ffmpeg's other capture
devices). Reading each of them stays allowed, and so do a project's own Nix builds.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

MACHINE_STATE = [
    ("posix", "brew cleanup --prune=all"),
    ("posix", "brew unlink python@3.12 && brew link --overwrite python@3.13"),
    ("posix", "brew analytics off"),
    ("posix", "brew untap homebrew/cask-fonts"),
    ("posix", "brew bundle dump --global --force"),
    ("posix", "flatpak override --user --filesystem=home com.visualstudio.code"),
    ("posix", "flatpak remote-delete --force flathub-beta"),
    ("posix", "flatpak permission-reset org.gnome.Builder"),
    ("posix", "flatpak config --set languages 'de;en'"),
    ("posix", "nix-collect-garbage --delete-older-than 14d"),
    ("posix", "nix-env --delete-generations +5"),
    ("posix", "nix-env -e hello"),
    ("posix", "nix-store --optimise"),
    ("posix", "nix profile remove hello"),
    ("posix", "nix profile rollback --to 12"),
    ("posix", "nix store gc --max 1G"),
    ("posix", "sudo nixos-rebuild switch --flake .#laptop"),
    ("posix", "home-manager switch --flake .#me"),
    ("posix", "darwin-rebuild switch --flake ~/.config/nix-darwin"),
    ("posix", "./nix-installer uninstall --no-confirm"),
    ("posix", "xcode-select --switch /Applications/Xcode-beta.app"),
    ("posix", "chronyc -a makestep"),
    ("posix", "chronyc add server time.example.org iburst"),
    ("posix", "setxkbmap -layout de -variant nodeadkeys"),
    ("posix", "loadkeys de-latin1"),
    ("posix", "setfont ter-132n"),
    ("posix", "xmodmap -e 'clear lock'"),
    ("posix", "xset -dpms"),
    ("posix", "xrandr --output eDP-1 --mode 1920x1080 --rate 60"),
    ("powershell", "Install-Language de-DE -CopyToSettings"),
    ("powershell", "Set-WinHomeLocation -GeoId 94"),
    ("powershell", "Set-SystemPreferredUILanguage -Language fr-FR"),
    ("powershell", "fsutil usn enablerangetracking c=4096 s=1048576 D:"),
]

FETCHES = [
    ("posix", "xcode-select --install"),
    ("posix", "nix profile add nixpkgs#ripgrep"),
    ("posix", "nix --extra-experimental-features 'nix-command flakes' run github:owner/tool"),
    ("posix", "flatpak remote-add --if-not-exists flathub https://flathub.example/repo/flathub.flatpakrepo"),
    ("posix", "sudo debootstrap --variant=minbase bookworm ./rootfs"),
    ("posix", "mmdebstrap --variant=apt trixie rootfs.tar"),
    ("posix", "am -i --sandbox obsidian"),
    ("posix", "appman -u"),
]

SESSION_ENDS = [
    ("posix", "i3-msg exit"),
    ("posix", "swaymsg exit"),
    ("posix", "hyprctl dispatch exit"),
    ("posix", "bspc quit"),
]

CAPTURE = [
    ("posix", "import -window root -crop 640x480+0+0 shot.png"),
    ("posix", "import region.png"),
    ("posix", "xev -event keyboard"),
    ("posix", "termux-clipboard-get > clip.txt"),
    ("posix", "termux-microphone-record -l 30 -f rec.m4a"),
    ("posix", "termux-sms-list -l 50"),
    ("posix", "videosnap -t 5 clip.mov"),
    ("posix", "ffmpeg -f sndio -i snd/0 out.wav"),
    ("posix", "ffmpeg -f jack -i ffmpeg -t 10 out.flac"),
    ("powershell", "CommandCam /devnum 1 /filename cam.bmp"),
]

ALLOWED = [
    ("posix", "brew list --versions"),
    ("posix", "brew analytics"),
    ("posix", "brew bundle dump --file=build/Brewfile"),
    ("posix", "brew bundle check"),
    ("posix", "flatpak list --app"),
    ("posix", "flatpak override --show com.visualstudio.code"),
    ("posix", "flatpak config"),
    ("posix", "flatpak-builder --user build-dir org.example.App.yml"),
    ("posix", "nix-env -qaP hello"),
    ("posix", "nix-store -q --references ./result"),
    ("posix", "nix profile list"),
    ("posix", "nix --extra-experimental-features 'nix-command flakes' build .#default"),
    ("posix", "nix build --log-format bar-with-logs .#checks"),
    ("posix", "nixos-rebuild build --flake .#laptop"),
    ("posix", "xcode-select -p"),
    ("posix", "chronyc tracking"),
    ("posix", "chronyc sources -v"),
    ("posix", "setxkbmap -query"),
    ("posix", "xmodmap -pke > build/keymap.txt"),
    ("posix", "xset q"),
    ("posix", "xrandr --listmonitors"),
    ("posix", "i3-msg -t get_workspaces"),
    ("posix", "hyprctl monitors"),
    ("posix", "adb shell am instrument -w com.example.test/androidx.test.runner.AndroidJUnitRunner"),
    ("posix", "python -c 'import numpy'"),
    ("posix", "ffmpeg -i tests/data/in.wav -ar 16000 build/out.wav"),
    ("posix", "import -help"),
    ("powershell", "Get-InstalledLanguage"),
    ("powershell", "Get-WinHomeLocation"),
    ("powershell", "fsutil usn queryjournal C:"),
]


def test_package_manager_state_clock_keyboard_and_displays_are_machine_state() -> None:
    every_case(MACHINE_STATE, lambda shell, cmd: guard_blocks(shell, cmd, "destructive.machine-state"))


def test_system_installs_and_package_sources_fetch() -> None:
    every_case(FETCHES, lambda shell, command: guard_blocks(shell, command, "network.package-install"))


def test_a_window_manager_told_to_exit_ends_the_session() -> None:
    every_case(SESSION_ENDS, lambda shell, command: guard_blocks(shell, command, "destructive.system-power"))


def test_screen_camera_microphone_and_phone_readers_are_capture() -> None:
    every_case(CAPTURE, lambda shell, command: guard_blocks(shell, command, "env.user-capture"))


def test_brew_gist_logs_uploads() -> None:
    guard_blocks("posix", "brew gist-logs --new-issue openssl@3", "network.publish")


def test_reading_package_state_and_session_settings_stays_allowed() -> None:
    every_case(ALLOWED, guard_allows)
