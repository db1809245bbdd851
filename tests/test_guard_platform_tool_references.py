"""Platform tools as command references show them (Linux, macOS and Windows pages): the everyday use on the
project's files is allowed, the same page's example that reaches the machine, its sessions or another host
is blocked.

- xsel copies into the clipboard with `-i`, also leading a cluster (`xsel -ib`); printing the clipboard
  (`-o`, also clustered: `xsel -bo`) is a capture of what the user copied.
- attrib walks a tree with `/s`, but only a `+x` or `-x` changes anything: `attrib /s /d *.txt` lists.
- A file handler opens a written path as a file (`xdg-open docs/diagram`, `open -R build/app`); an address
  with a scheme (`myapp://callback`) is a URL handler's, whatever the scheme.
- systemd's tools given `-H`/`--host` run on that host over ssh; `loginctl` and its `list-sessions` and
  `list-users` list who is logged in, as `who` does.
- A package's contents, signature and choices read (`pkgutil --check-signature`, `installer -pkginfo`);
  unpacking one writes the folder it is given (`dpkg-deb -x x.deb DIR`, `pkgutil --expand-full x.pkg DIR`).
- `date` given digits sets the clock, but not the digits of `-r` (BSD: the time of those seconds) nor with
  BSD's `-j`; a registry client printing its shell completion script reaches no registry.
- Chocolatey's and winget's lists of pins and sources are read; adding one changes the machine.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

# each blocked line, with its allowed twin
PAIRS = [
    ("posix", "xsel --clipboard --output > notes.txt", "env.user-capture", "xsel -bi < notes.txt"),
    ("posix", "xsel -bo | grep token", "env.user-capture", "git rev-parse HEAD | xsel -ib"),
    ("posix", "xsel -po", "env.user-capture", "printf '%s' v1.2.3 | xsel -ip"),
    ("powershell", "attrib +h /s /d src\\*", "destructive.recursive-permissions", "attrib /s /d src\\*"),
    ("powershell", "attrib -R /S *.cs", "destructive.recursive-permissions", "attrib /S *.cs"),
    (
        "powershell",
        "cmd /c attrib -a /s build\\*",
        "destructive.recursive-permissions",
        "cmd /c attrib /s build\\*",
    ),
    ("posix", "xdg-open myapp://oauth/callback", "network.url-open", "xdg-open docs/architecture"),
    ("posix", "open slack://channel/general", "network.url-open", "open -R build/Release/App"),
    ("posix", "gio open zoommtg://join/123", "network.url-open", "gio open docs/diagram"),
    ("posix", "systemctl -H deploy@web1 status nginx", "network.locator", "systemctl status nginx"),
    ("posix", "timedatectl --host=db1 show", "network.locator", "systemctl -M devbox is-active app"),
    ("posix", "loginctl -H admin@10.0.0.7 show-user dev", "network.locator", "loginctl show-user dev"),
    ("posix", "loginctl list-sessions --no-legend", "env.machine-discovery", "loginctl --help"),
    ("posix", "loginctl", "env.machine-discovery", "loginctl session-status"),
    ("posix", "loginctl list-users", "env.machine-discovery", "loginctl show-session self -p Type"),
    (
        "posix",
        "installer -pkg dist/App.pkg -target /",
        "destructive.machine-state",
        "installer -pkginfo -pkg dist/App.pkg",
    ),
    (
        "posix",
        "pkgutil --forget com.example.app",
        "destructive.machine-state",
        "pkgutil --check-signature dist/App.pkg",
    ),
    (
        "posix",
        "pkgutil --expand-full dist/App.pkg /Applications/App",
        "containment.write-outside-project",
        "pkgutil --expand-full dist/App.pkg build/expanded",
    ),
    (
        "posix",
        "dpkg-deb -x build/app.deb /",
        "containment.write-outside-project",
        "dpkg-deb -x build/app.deb build/unpacked",
    ),
    (
        "posix",
        "dpkg-deb -R dist/app.deb /etc/app",
        "containment.write-outside-project",
        "dpkg-deb --build pkgroot dist/app_1.0_amd64.deb",
    ),
    ("posix", "date 0612153026", "destructive.machine-state", "date -r 1733500000"),
    ("posix", "date -u 010100002030.00", "destructive.machine-state", "date -u -r 1700000000 +%Y-%m-%d"),
    ("posix", "gdate --set='2030-01-01 00:00'", "destructive.machine-state", "date -j -f %s 1700000000 +%F"),
    (
        "posix",
        "crane copy ghcr.io/acme/app:1 ghcr.io/acme/app:latest",
        "network",
        "crane completion zsh > build/_crane",
    ),
    ("posix", "gcrane ls gcr.io/acme", "network", "gcrane completion bash --no-descriptions"),
    ("powershell", "choco pin add -n=nodejs", "destructive.machine-state", "choco pin list"),
    ("powershell", "winget source add corp https://pkgs.example.com", "network", "winget source list"),
    (
        "powershell",
        "choco source add -n=corp -s=https://pkgs.example.com",
        "destructive.machine-state",
        "choco source list --limit-output",
    ),
]

ALSO_ALLOWED = [
    ("posix", "installer -pkg dist/App.pkg -showChoicesXML"),
    ("posix", "installer -volinfo -pkg dist/App.pkg"),
    ("posix", "pkgutil --payload-files dist/App.pkg"),
    ("posix", "pkgutil --volume / --pkgs"),
    ("posix", "dpkg-deb -f dist/app.deb Version"),
    ("posix", 'fakeroot dpkg-deb --build "$PKG_DIR" "$OUT_DEB"'),  # the script's own paths
    ("posix", "xsel --clear --clipboard"),
    ("posix", "open file:///Users/dev/app/coverage/index.html"),
    ("powershell", "attrib /s /d *.txt | findstr R"),
]


def test_the_machine_side_of_each_page_is_blocked() -> None:
    every_case([(shell, blocked, rule) for shell, blocked, rule, _ in PAIRS], guard_blocks)


def test_the_project_side_of_each_page_is_allowed() -> None:
    every_case([(shell, allowed) for shell, _, _, allowed in PAIRS] + ALSO_ALLOWED, guard_allows)
