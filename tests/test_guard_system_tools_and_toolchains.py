"""The machine's own configuration tools, firewall front ends, installs from a list, the user's toolchains
removed, and file attributes changed outside the project.

Distributions' configuration tools (`locale-gen`, `dpkg-divert --add`, `a2enmod`, `docker-php-ext-install`)
change the machine; firewall front ends (`ferm`, `shorewall`, `ipfw`, `csf`, `ipset`) load or clear its rules;
`brew bundle`, `winget import` and `pecl install` download and install; removing a toolchain or a global tool
(`pyenv uninstall`, `rustup toolchain uninstall`, `npm uninstall -g`) takes it from every other project;
`attrib` on a file outside the project writes there. Beside each, listing or asking stays allowed, and the
project's own dependencies and build output stay the project's.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", "locale-gen en_US.UTF-8", "destructive.machine-state"),
    ("posix", "update-locale LANG=en_US.UTF-8 LC_CTYPE=en_US.UTF-8", "destructive.machine-state"),
    ("posix", "localedef -i en_US -f UTF-8 en_US.UTF-8", "destructive.machine-state"),
    ("posix", "dpkg-reconfigure -f noninteractive tzdata", "destructive.machine-state"),
    ("posix", "echo 'tzdata tzdata/Areas select Etc' | debconf-set-selections", "destructive.machine-state"),
    ("posix", "dpkg-divert --local --rename --add /sbin/initctl", "destructive.machine-state"),
    ("posix", "dpkg-statoverride --add root root 4755 /usr/bin/x", "destructive.machine-state"),
    ("posix", "a2enmod rewrite", "destructive.machine-state"),
    ("posix", "phpenmod xdebug", "destructive.machine-state"),
    ("posix", "pam-auth-update --enable mkhomedir", "destructive.machine-state"),
    ("posix", "eselect python set 2", "destructive.machine-state"),
    ("posix", "docker-php-ext-install mysqli pdo pdo_mysql", "destructive.machine-state"),
    ("posix", "systemd-tmpfiles --create", "destructive.machine-state"),
    ("posix", "chcon -t httpd_sys_content_t /var/www/html", "destructive.machine-state"),
    ("posix", "semodule -i local.pp", "destructive.machine-state"),
    ("posix", "augenrules --load", "destructive.machine-state"),
    ("posix", "prelink -u -a", "destructive.machine-state"),
    ("posix", "kill -64 1", "destructive.machine-state"),  # the machine's init: no task started it
    ("posix", "kill -s HUP 1", "destructive.machine-state"),
    ("posix", "subscription-manager register --username x", "destructive.machine-state"),
    ("posix", "ferm --flush /etc/ferm/ferm.conf", "destructive.firewall"),
    ("posix", "shorewall restart", "destructive.firewall"),
    ("posix", "ipfw add deny ip from any to any", "destructive.firewall"),
    ("posix", "csf -x", "destructive.firewall"),
    ("posix", "ipset flush", "destructive.firewall"),
    ("posix", "netfilter-persistent reload", "destructive.firewall"),
    ("posix", "pfctl -d", "destructive.firewall"),
    ("posix", "pfctl -f /etc/pf.conf", "destructive.firewall"),
    # pfctl acts on every option: a listing beside a change does not undo it
    ("posix", "pfctl -d -s info", "destructive.firewall"),
    ("posix", "pfctl -F all -s rules", "destructive.firewall"),
    ("posix", "pfctl -t bad -T add 203.0.113.9", "destructive.firewall"),
    ("posix", "fail2ban-client unban --all", "destructive.firewall"),
    ("posix", "fail2ban-client set sshd unbanip 203.0.113.9", "destructive.firewall"),
    ("posix", "fail2ban-client stop", "destructive.firewall"),
    ("posix", "mdadm --stop /dev/md0", "destructive.disk-format"),
    ("posix", "mdadm -S /dev/md0", "destructive.disk-format"),
    ("posix", "mdadm /dev/md0 --fail /dev/sdb --remove /dev/sdb", "destructive.disk-format"),
    ("posix", "mdadm --grow /dev/md0 --raid-devices=3", "destructive.disk-format"),
    ("posix", "mdadm -As", "destructive.disk-format"),
    ("posix", "hdparm -Y /dev/sda", "destructive.disk-format"),
    ("posix", "hdparm --make-bad-sector 100 /dev/sda", "destructive.disk-format"),
    ("posix", "drbdadm down r0", "destructive.disk-format"),
    ("posix", "drbdadm primary --force r0", "destructive.disk-format"),
    ("posix", "rebar3 get-deps", "network.package-install"),
    ("posix", "dep ensure -update", "network.package-install"),
    ("posix", "rebar3 upgrade --all", "network.package-install"),
    ("posix", "rebar3 plugins upgrade rebar3_hex", "network.package-install"),
    ("posix", "brew bundle", "network.package-install"),
    ("posix", "brew bundle --file=Brewfile", "network.package-install"),
    ("posix", "pecl install xdebug", "network.package-install"),
    ("posix", "install-php-extensions gd", "network.package-install"),
    ("powershell", "winget import -i winget-np.json", "network.package-install"),
    ("powershell", "winget configure configuration.dsc.yaml", "network.package-install"),
    ("powershell", "scoop import scoopfile.json", "network.package-install"),
    ("posix", "pyenv uninstall -f 3.8.0", "destructive.machine-state"),
    ("posix", "nvm uninstall 14", "destructive.machine-state"),
    ("posix", "asdf uninstall nodejs 18.0.0", "destructive.machine-state"),
    ("posix", "kerl delete installation /home/user/erlang/26", "destructive.machine-state"),
    ("posix", "sdk uninstall java 17.0.2-tem", "destructive.machine-state"),
    ("posix", "rustup toolchain uninstall nightly", "destructive.machine-state"),
    ("posix", "rustup self uninstall -y", "destructive.machine-state"),
    ("posix", "uv tool uninstall ruff", "destructive.machine-state"),
    ("posix", "pipx uninstall black", "destructive.machine-state"),
    ("posix", "cargo uninstall ripgrep", "destructive.machine-state"),
    ("posix", "gem uninstall rails", "destructive.machine-state"),
    ("posix", "npm uninstall -g yarn", "destructive.machine-state"),
    ("posix", "yarn global remove typescript", "destructive.machine-state"),
    ("posix", "conda env remove -n old", "destructive.machine-state"),
    ("posix", "conda remove -n old --all", "destructive.machine-state"),
    ("powershell", "dotnet tool uninstall -g dotnet-ef", "destructive.machine-state"),
    ("powershell", "attrib -h C:\\Users\\Public\\MyStartUp.ps1", "containment.write-outside-project"),
    ("powershell", "attrib -h C:\\x.txt", "containment.write-outside-project"),
    ("powershell", "attrib +r /s build\\*", "destructive.recursive-permissions"),
]

ALLOWED = [
    ("posix", "dpkg-divert --list"),
    ("posix", "localedef --list-archive"),
    ("posix", "eselect python list"),
    ("posix", "systemd-tmpfiles --cat-config"),
    ("posix", "semodule -l"),
    ("posix", "kill -1 1234"),  # a signal number, then the process the task started
    ("posix", "augenrules --check"),
    ("posix", "subscription-manager status"),
    ("posix", "glib-compile-schemas schemas/"),
    ("posix", "ferm -n --lines /etc/ferm/ferm.conf"),
    ("posix", "shorewall status"),
    ("posix", "ipfw list"),
    ("posix", "ipset list"),
    ("posix", "pfctl -sr"),
    ("posix", "pfctl -s rules"),
    ("posix", "pfctl -nf /etc/pf.conf"),  # parsed only
    ("posix", "pfctl -t bad -T show"),
    ("posix", "fail2ban-client status sshd"),
    ("posix", "fail2ban-client get sshd bantime"),
    ("posix", "fail2ban-client banned"),
    ("posix", "mdadm --detail /dev/md0"),
    ("posix", "mdadm -Ds"),
    ("posix", "mdadm --examine --scan"),
    ("posix", "hdparm -I /dev/sda"),
    ("posix", "drbdadm status"),
    ("posix", "drbdadm dump all"),
    ("posix", "rebar3 compile"),
    ("posix", "rebar3 plugins list"),
    ("posix", "brew bundle check"),
    ("posix", "brew bundle dump --file=Brewfile.new"),
    ("posix", "pecl list"),
    ("posix", "npm uninstall left-pad"),
    ("posix", "yarn remove left-pad"),
    ("posix", "uv remove requests"),
    ("posix", "conda remove numpy"),
    ("powershell", "dotnet tool uninstall dotnet-ef"),
    ("posix", "pyenv versions"),
    ("posix", "rustup toolchain list"),
    ("posix", "go clean -cache"),
    ("powershell", "attrib -r src\\x.txt"),
    ("powershell", "attrib -s -h .\\x.txt"),  # `-s` clears the system attribute; only `/s` walks a tree
    ("posix", "rm -rf .cask"),
    ("posix", "rm -rf .eask .eldev"),
    ("posix", "rm -rf .deps"),
]


def test_machine_tools_firewalls_list_installs_and_toolchain_removal_block() -> None:
    every_case(BLOCKED, guard_blocks)


def test_listing_asking_and_the_projects_own_dependencies_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)
