"""Reading the home folder's shell start-up, history and credential files is environment inspection.

Any reader or encoder (`cat`, `head`, `base64`, `xxd`, `grep`, `sed -n`, `awk`, `tr <`, an interpreter's
`open()`, `Get-Content`, `type`) of `~/.bashrc`, `~/.zshrc`, `~/.profile`, a shell history, a `.env` in the
home folder, a credential store (container registries, other agents' logins, `~/.config/**/credentials*`) is
blocked however the home folder is spelled (`~`, `$HOME`, `/home/NAME`, `/root`, `C:\\Users\\NAME`,
`$env:USERPROFILE`, `%USERPROFILE%`) and also when a `cd` in the line moved there first. The project's own
files with the same names (a dotfiles repository, `.env.example`) and listing the home folder stay fine.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

RULE = "env.secret-files"

BLOCKED = [
    ("posix", "cat ~/.bashrc"),
    ("posix", "head -n 20 ~/.zshrc"),
    ("posix", "base64 ~/.zsh_history"),
    ("posix", "xxd ~/.bash_profile"),
    ("posix", "od -c $HOME/.profile"),
    ("posix", "strings ${HOME}/.zshenv"),
    ("posix", "grep -n export ~/.bashrc"),
    ("posix", "sed -n '1,40p' ~/.bashrc"),
    ("posix", "awk '/TOKEN/' ~/.zprofile"),
    ("posix", "tr -d x < ~/.bashrc"),
    ("posix", "rev ~/.bash_history"),
    ("posix", "fold -w 80 /home/dev/.bashrc"),
    ("posix", "less /root/.bashrc"),
    ("posix", "cat ~/.config/fish/config.fish"),
    ("posix", "cat ~/.local/share/fish/fish_history"),
    ("posix", "cat ~/.node_repl_history"),
    ("posix", "cat ~/.env"),
    ("posix", "cat ~/.config/containers/auth.json"),
    ("posix", "cat ~/.config/acme-cli/credentials.json"),
    ("posix", "cat ~/.git-credentials"),
    ("posix", "cat ~/.pgpass"),
    ("posix", "cat ~/.m2/settings.xml"),
    ("posix", "cat ~/.gem/credentials"),
    ("posix", "cat ~/.s3cfg"),
    ("posix", "cat ~/.my.cnf"),
    ("posix", "cat ~/.config/rclone/rclone.conf"),
    ("posix", "cat ~/.netrc"),
    ("posix", "cat ~/.docker/config.json"),
    ("posix", "cat ~/.kube/config"),
    ("posix", "cat ~/.codex/auth.json"),
    ("posix", "cat ~/.claude/.credentials.json"),
    ("posix", "jq . ~/.gemini/oauth_creds.json"),
    ("posix", "cd ~ && cat .bashrc"),
    ("posix", "cd && grep -i key .zshrc"),
    ("posix", "cd ~/.config && cat gh/hosts.yml"),
    ("posix", "cd /root; cat .bash_history"),
    ("posix", "python3 -c \"print(open('/root/.bashrc').read())\""),
    ("posix", "python3 -c \"import os; print(open(os.path.expanduser('~/.zshrc')).read())\""),
    (
        "posix",
        "node -e \"console.log(require('fs').readFileSync(require('os').homedir() + '/.bashrc', 'utf8'))\"",
    ),
    ("powershell", "Get-Content ~\\.bashrc"),
    ("powershell", "Get-Content $HOME\\.zshrc"),
    ("powershell", 'gc "$env:USERPROFILE\\.git-credentials"'),
    ("powershell", "type C:\\Users\\dev\\.bashrc"),
    ("powershell", "cmd /c type %USERPROFILE%\\.bashrc"),
    ("powershell", "Get-Content $env:USERPROFILE\\Documents\\PowerShell\\Microsoft.PowerShell_profile.ps1"),
    ("powershell", "Get-Content $PROFILE"),  # the same file, named by PowerShell's variable
    ("powershell", "Select-String -Path $PROFILE.CurrentUserAllHosts -Pattern API_KEY"),
    ("powershell", "Get-Content C:\\Users\\dev\\.codex\\auth.json"),
    ("powershell", "Select-String -Path ~\\.bash_history -Pattern token"),
    # a template beside the secret spares only itself
    ("posix", "diff .env .env.example"),
    ("posix", "cat .env .env.example"),
    ("posix", "grep -h KEY .env.local foo.secrets.baseline"),
    ("posix", "cp .env .env.example /tmp/"),
    ("posix", "cp -t /tmp .env.example .env"),  # the destination is -t's: both are copied from
    ("powershell", "Get-Content .env, .env.example"),
    ("powershell", "Copy-Item .env -Destination .env.example.bak"),
    # anything in the superuser's home folder
    ("posix", "cat /root/flag.txt"),
    ("posix", "plutil -p /private/var/root/Library/Preferences/com.apple.bluetoothd.plist"),
    ("posix", "cat ~/Library/Application\\ Support/Bitwarden\\ CLI/data.json | jq"),  # a vault, on macOS
    ("posix", "grep -Irn tunnel ~/.cloudflared/"),  # a tunnel's credentials
    ("powershell", "FoxAdminPro -d C:\\Users\\x\\AppData\\Roaming\\Mozilla\\Firefox\\Profiles\\a.default"),
    ("posix", "cp -r ~/Library/Application\\ Support/Firefox/Profiles /tmp/x"),
]

ALLOWED = [
    ("powershell", "Get-Content ./profile.ps1"),
    ("powershell", "Get-Content $ProfilePath"),  # another variable
    ("posix", "cat .bashrc"),
    ("posix", "cat ./.zshrc"),
    ("posix", "diff dotfiles/.bashrc dotfiles/.bashrc.orig"),
    ("posix", "cd docs && cat .profile"),
    ("posix", "cat .env.example"),
    ("posix", "cp .env.example .env"),
    ("posix", "cp env.example .env"),  # a template named without the dot
    ("powershell", "Copy-Item env.TEMPLATE .env"),
    ("posix", "diff .env.example .env.test.example"),
    ("posix", "install -m 600 .env.example .env"),
    ("posix", "cp -T .env.example .env"),  # -T: the last operand is the file written
    ("powershell", "Copy-Item -Path .env.sample -Destination .env"),
    ("powershell", "Move-Item .env.sample .env -Force"),
    ("posix", "ls ~"),
    ("posix", "ls -la ~/.config"),
    ("posix", "echo 'add it to ~/.bashrc'"),
    ("posix", "grep -rn bashrc docs/"),
    ("posix", "python3 -c \"print(open('.bashrc').read())\""),
    ("posix", "cat config/credentials.example.json"),
    ("posix", "cat root/notes.txt"),  # the project's folder named root
    ("posix", "ls /rootfs"),
    ("powershell", "Get-Content .\\.bashrc"),
    ("powershell", "Get-ChildItem ~"),
]


@pytest.mark.parametrize(("shell", "command"), BLOCKED)
def test_reading_the_homes_dotfiles_and_credentials_is_blocked(shell: str, command: str) -> None:
    guard_blocks(shell, command, RULE)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_projects_files_of_the_same_names_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
