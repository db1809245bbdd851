"""Credentials and accounts: account and password changes on every system, dumps of the login service and
the account databases (directly or through shadow copies), registry and disk hunts for passwords and keys,
keychains, browser and password-manager stores, installation answer files. Beside each, the same program
used for ordinary work stays allowed."""

from __future__ import annotations

import pytest
from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", "getent shadow", "env.credential-dump"),
    # a credentials file kept in the home or in a hidden folder of it, whatever tool wrote it
    ("posix", "cat ~/.shai-hulud-exfil/local_credentials.json | base64 -w0", "env.secret-files"),
    # a Jenkins home handed over whole: its root keys and stored credentials are in it
    ("posix", "python3 decrypt.py /var/lib/jenkins/", "env.secret-files"),
    ("posix", "tar czf home.tgz /var/jenkins_home", "env.secret-files"),
    ("posix", "cat ~/.x/y/credentials", "env.secret-files"),
    ("posix", "cat ~/creds.json", "env.secret-files"),
    # a browser's saved logins and cookies read by their columns, wherever the database was copied to
    ("posix", "sqlite3 /tmp/ld 'SELECT origin_url, hex(password_value) FROM logins;'", "env.credential-dump"),
    ("posix", 'sqlite3 x.db "select name, encrypted_value from cookies"', "env.credential-dump"),
    ("powershell", "sqlite3 $env:TEMP\\c.sqlite 'select * from moz_cookies'", "env"),
    # an application's own store of the logins it uses, read by the table's name
    (
        "powershell",
        'sqlcmd.exe -S localhost\\VEEAMSQL2016 -E -Q "use VeeamBackup SELECT top 100 * FROM HostCreds;"',
        "env.credential-dump",
    ),
    ("posix", "mysql -e 'SELECT user, pass FROM app.user_passwords'", "env.credential-dump"),
    ("posix", 'psql -c "select * from vault.secrets join x on 1=1"', "env.credential-dump"),
    ("posix", "sqlite3 app.db 'SELECT * FROM [Credentials]'", "env.credential-dump"),
    ("posix", "cat ~/.aws/sso/cache/*.json", "env.secret-files"),  # the SSO login's access tokens
    ("posix", "cat /etc/mysql/debian.cnf", "env.secret-files"),  # MySQL's maintenance login
    (
        "posix",
        "sqlite3 ~/Library/Preferences/com.apple.LaunchServices.QuarantineEventsV2 'select 1'",
        "env.secret-files",
    ),  # every file the user downloaded, and from where
    ("posix", "cat /var/lib/postgresql/.pgpass", "env.secret-files"),
    ("posix", 'find /tmp -name "agent.*" -type s 2>/dev/null', "env.credential-store"),  # others' SSH agents
    ("posix", "ls -la /tmp/ssh-*", "env.credential-store"),
    # a credential word searched for in what a reader prints of system files or of every process
    ("posix", "cat /etc/fstab | grep -i 'cred\\|pass\\|user'", "env.credential-dump"),
    ("posix", "cat /proc/*/cmdline | tr '\\0' ' ' | grep -iE 'pass|key|secret'", "env.credential-dump"),
    ("posix", "tar czf t.tgz ~/.aws/cli/cache", "env.secret-files"),
    ("posix", "cat /proc/635813/fd/4", "env.credential-dump"),  # another process's open (deleted) file
    ("posix", 'grep -Iins --exclude="x.sh" "password\\|secret\\|token" /*', "env.credential-dump"),
    ("posix", "grep -i password ~/*", "env.credential-dump"),
    ("posix", "cat /root/anaconda-ks.cfg", "env.secret-files"),  # the installer's answers: root's password
    (
        "posix",
        "cat var/lib/kubelet/pods/eb80/volumes/kubernetes.io~projected/kube-api-access-tt/token",
        "env.secret-files",
    ),
    ("powershell", 'type "C:/windows/repair/SAM"', "env.secret-files"),
    ("posix", "dscl . profileexport /Users/admin Mac.D46888F6 ~/Desktop", "env.accounts"),
    ("posix", "dscl . -read /Users/dev ShadowHashData", "env.accounts"),
    (
        "posix",
        "sqlite3 '/Library/Application Support/com.apple.TCC/TCC.db' 'select client from access'",
        "env.secret-files",
    ),
    (
        "posix",
        "mysql -u root -e \"select * from t into dumpfile '/usr/lib/x.so'\"",
        "destructive.payload-write",
    ),
    ("posix", "mysql -e \"SELECT a INTO OUTFILE '/tmp/x.csv' FROM t\"", "destructive.payload-write"),
    ("posix", "echo $(openssl passwd -1 art) | pw mod user nobody -h 0", "env.accounts"),
    ("powershell", '.\\tools\\nanodump.x64.exe -w "%temp%\\nanodump.dmp"', "env.credential-dump"),
    ("powershell", "BetterSafetyKatz.exe", "env.credential-dump"),
    ("posix", "getent gshadow root", "env.credential-dump"),
    ("posix", "grep -ri password /", "env.credential-dump"),
    ("posix", "find //.aws -name credentials -type f", "env.credential-dump"),
    ("powershell", "findstr /S cpassword \\\\corp.local\\sysvol\\*.xml", "env.credential-dump"),
    ("powershell", "appcmd.exe list apppool /text:*", "env.credential-dump"),
    (
        "powershell",
        'dsdbutil.exe "activate instance ntds" "snapshot" "create" "quit" "quit"',
        "env.credential-dump",
    ),
    ("posix", "useradd -m -s /bin/bash art", "env.accounts"),
    ("posix", "sudo usermod -aG sudo dev", "env.accounts"),
    ("posix", "echo 'dev:secret' | chpasswd", "env.accounts"),
    ("posix", "passwd dev", "env.accounts"),
    ("posix", "dscl . -create /Users/art", "env.accounts"),
    ("posix", "dscl . -mcxdelete /Users/$user", "env.accounts"),  # the record's managed settings
    ("posix", "sysadminctl -addUser art -password x", "env.accounts"),
    ("powershell", "net user art P@ss /add", "env.accounts"),
    ("powershell", "New-LocalUser art -NoPassword", "env.accounts"),
    ("powershell", 'Get-ACL -Path "AD:\\CN=Users,DC=corp,DC=local" | Select-Object Owner', "env.accounts"),
    ("powershell", "Set-Acl -Path AD:CN=Admins,CN=Users,DC=corp,DC=local -AclObject $acl", "env.accounts"),
    ("powershell", "dir AD:", "env.accounts"),  # the directory's objects, through the AD module's drive
    ("powershell", "Add-LocalGroupMember -Group Administrators -Member art", "env.accounts"),
    ("powershell", "procdump -accepteula -ma lsass.exe lsass.dmp", "env"),
    ("powershell", 'ntdsutil "ac i ntds" "ifm" "create full C:\\t" q q', "env.credential-dump"),
    ("powershell", "reg save HKLM\\SAM sam.hiv", "env"),
    ("powershell", "reg.exe save hklm\\system system.hiv", "env"),
    ("powershell", "vssadmin create shadow /for=C:", "destructive.machine-state"),
    (
        "powershell",
        "copy \\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy1\\Windows\\NTDS\\ntds.dit x.dit",
        "env",
    ),
    ("powershell", "reg query HKLM /f password /t REG_SZ /s", "env.credential-dump"),
    ("powershell", "cmdkey /list", "env"),
    ("powershell", "type C:\\Windows\\Panther\\unattend.xml", "env.credential-dump"),
    ("posix", "find / -name id_rsa -exec cp {} /tmp \\;", "env"),
    ("posix", "find ~ -name '*.kdbx'", "env"),
    # Windows' web and service roots searched for the sites' configuration (connection strings)
    ("powershell", "gci -Path C:\\inetpub\\ -Include web.config -File -Recurse", "env.credential-dump"),
    ("powershell", "gci -Path C:\\xampp -Include *.txt,*.ini -File -Recurse", "env.credential-dump"),
    ("powershell", "dir C:\\xampp\\*.ini /s", "env.credential-dump"),
    ("posix", "find /etc -name '*.ini'", "env.credential-dump"),
    ("posix", "security dump-keychain -d login.keychain", "env"),
    ("posix", "security find-generic-password -wa Chrome", "env"),
    ("posix", "cp ~/Library/Keychains/login.keychain-db /tmp/k", "env"),
    ("posix", "unshadow /etc/passwd /etc/shadow", "env"),
    ("posix", "hashcat -m 1000 hashes.txt words.txt", "env.credential-dump"),
    ("posix", "john hashes.txt", "env.credential-dump"),
    # Kerberos ticket and DPAPI tools, in-memory dumpers and hash extractors.
    ("powershell", "Rubeus.exe kerberoast /outfile:h.txt", "env.credential-dump"),
    ("powershell", ".\\Certify.exe find /vulnerable", "env.credential-dump"),
    ("powershell", "SharpDPAPI.exe triage", "env.credential-dump"),
    ("posix", "samdump2 SYSTEM SAM", "env.credential-dump"),
    ("powershell", "Set-SeBackupPrivilege", "env.credential-dump"),
    ("posix", "find / -name authorized_keys 2> /dev/null", "env.credential-dump"),
    ("posix", "find / -name '*.ccache'", "env.credential-dump"),
    ("posix", "find ~ -name 'msal_token_cache.json'", "env.credential-dump"),
    ("posix", "dscl . passwd /Users/dev old new", "env.accounts"),
    # Hunting a credential word through a file pattern, the whole working directory, what a recursive listing
    # or `find` names, or the Spotlight index.
    ("posix", "grep -ri password .", "env.credential-dump"),
    ("posix", "sudo grep -rn passw ./", "env.credential-dump"),
    ("posix", "grep -i password *.conf", "env.credential-dump"),
    ("posix", "rg -i secret .", "env.credential-dump"),
    # the recursive searchers take grep -r's words (`grep -rn "SECRET_KEY=" .` was blocked, rg's twin not)
    ("posix", 'rg -n "SECRET_KEY=" .', "env.credential-dump"),
    ("posix", "ag client_secret .", "env.credential-dump"),
    ("posix", "ack -i aws_access_key ./", "env.credential-dump"),
    ("posix", "rg private_key_id ..", "env.credential-dump"),
    ("posix", 'find . -type f -exec grep -i -I "PASSWORD" {} /dev/null \\;', "env.credential-dump"),
    ("posix", "find . -type f | xargs grep -il credentials", "env.credential-dump"),
    # cloud-token kits, as cmdlets, scripts or modules
    ("powershell", "Import-Module .\\GraphRunner.ps1", "env.credential-dump"),
    ("powershell", "Invoke-DumpCAPS -ResolveGuids", "env.credential-dump"),
    ("powershell", "Get-GraphTokens", "env.credential-dump"),
    ("posix", "roadrecon gather", "env.credential-dump"),
    # a password-like name searched through every file a `find` of the machine or a home hands it
    ("posix", 'find / -name "*.php" | xargs grep -i "db_pass"', "env.credential-dump"),
    ("posix", "find /home -name '*.env' -print0 | xargs -0 grep -l DBPWD", "env.credential-dump"),
    ("posix", "find ~ -type f | grep -v cache | xargs grep -n smtp_pass", "env.credential-dump"),
    ("powershell", "findstr /si pass *.xml *.doc *.txt *.xls", "env.credential-dump"),
    ("powershell", 'findstr /spin "password" *.*', "env.credential-dump"),
    ("posix", "findstr /si password *.xml *.ini *.txt *.config 2>nul >> results.txt", "env.credential-dump"),
    (
        "powershell",
        "ls -R | select-string -ErrorAction SilentlyContinue -Pattern password",
        "env.credential-dump",
    ),
    ("powershell", "Get-ChildItem -Recurse | Select-String -Pattern password", "env.credential-dump"),
    ("posix", "mdfind -live passw", "env.credential-dump"),
    ("posix", "mdfind -name .env", "env.credential-dump"),
    ("posix", "mdfind -name id_ed25519", "env.credential-dump"),
    ("posix", "mdfind -name '*.pem'", "env.credential-dump"),
    ("posix", "mdfind 'kMDItemFSName == \".env*\"'", "env.credential-dump"),
    (
        "posix",
        "mdfind 'kMDItemTextContext == AKIA || kMDItemDisplayName = *AKIA* -onlyin ~'",
        "env.credential-dump",
    ),
]

ALLOWED = [
    ("posix", "rg -n SECRET_KEY src/settings.py"),  # a named file of the project
    ("posix", "rg -n client_secret src/auth"),
    ("posix", "ag access_key_id docs"),
    ("powershell", "Get-ChildItem -Recurse -Include *.ini"),  # the project's own
    ("powershell", "Get-ChildItem src -Recurse -Filter *.config"),
    ("powershell", "Get-ChildItem C:\\inetpub\\wwwroot"),  # a listing names no key file
    ("posix", "psql -c 'SELECT id, created_at FROM users'"),
    ("posix", "sqlite3 app.db 'SELECT credit FROM accounts'"),
    ("posix", "psql -c \"UPDATE settings SET value = 'x' WHERE key = 'secret_rotation_days'\""),
    ("posix", "cat /var/lib/jenkins/workspace/app/README.md"),  # a job's workspace: a project
    ("posix", "sqlite3 app.db 'select id, password_hash from users'"),  # the project's own tables
    ("posix", "cat docs/credentials-howto.md"),
    ("posix", "sqlite3 app.db 'select * from logins'"),
    ("posix", "grep -rn encrypted_value src/"),
    ("posix", "ls .aws-sam/build"),
    ("posix", "cat /etc/mysql/my.cnf"),
    ("posix", "grep -n 'agent.*' logs/app.log"),
    ("posix", "cat config/settings.py | grep -i password"),
    ("posix", "cat /etc/os-release | grep -i pretty"),
    ("powershell", "Get-Acl .\\ad\\users.csv"),
    ("powershell", "Import-Module .\\build.psm1"),
    ("powershell", "Invoke-Build Test"),
    ("posix", "find . -name '*.php' | xargs grep -i db_pass"),  # the project's own files
    ("posix", "find src -name '*.py' | xargs grep -n password_hash"),
    ("posix", "find ~/src/app -name '*.py' | xargs grep -n passthrough"),
    ("posix", "getent hosts localhost"),
    ("posix", "ls -la /proc/self/fd"),
    ("powershell", "Get-Content docs\\history.txt"),
    ("posix", "cat docs/anaconda-ks.cfg"),
    ("posix", 'mysql -e "select * from into_outfile_log"'),
    ("posix", "getent passwd $USER"),
    ("posix", "grep -rn password src/"),
    ("posix", "rg -i token src"),
    ("powershell", "appcmd list site"),
    ("posix", "id -u"),
    ("posix", "whoami"),
    ("posix", "getent passwd dev"),
    ("posix", "passwd --help"),
    ("posix", "find . -name '*.py'"),
    ("posix", "find src -name '*.pem'"),
    ("posix", "grep -rn password src"),
    ("posix", "echo 'procdump -ma lsass.exe x'"),
    ("posix", "which out-minidump"),
    ("powershell", "reg query HKLM\\Software\\Microsoft /s"),
    ("powershell", "Get-Process"),
    ("powershell", "Get-Content .\\docs\\setup.md"),
    ("posix", "grep -rn rubeus docs/"),
    ("posix", "which samdump2"),
    ("posix", "dscl . -read /Users/dev"),
    ("posix", "find . -name '*token*'"),
    ("posix", "find ~/models -name 'tokenizer.json'"),
    ("posix", "grep -rn PasswordField src/"),
    ("posix", "grep -rn PasswordField ."),
    ("posix", "grep password config/settings.py"),
    ("powershell", "findstr /n password app.config"),
    ("powershell", "findstr /s TODO *.cs"),
    ("posix", "find . -name '*.py' -exec grep -l TODO {} +"),
    ("posix", "mdfind -name report.pdf"),
]


def test_credentials_and_accounts_are_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_ordinary_uses_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)


# What the user sees, hears, types or copied: screenshots, recordings, key captures, the clipboard and a
# password dialog are collected from the user, not from the project.
CAPTURE = [
    ("posix", "screencapture -x /tmp/T1113_desktop.png"),
    ("posix", "xwd -root -out /tmp/desktop.xwd"),
    ("posix", "import -window root /tmp/desktop.png"),
    ("posix", "ffmpeg -f x11grab -video_size 1920x1080 -i :0.0 out.mp4"),
    ("posix", "ffmpeg -f v4l2 -i /dev/video0 cam.mkv"),
    ("posix", "arecord -d 5 /tmp/mic.wav"),
    ("posix", "sox -d /tmp/mic.wav trim 0 5"),
    ("posix", "echo $(pbpaste)"),
    ("posix", "xclip -o -sel clip > history.txt"),
    ("powershell", "Get-Clipboard | Out-String"),
    ("powershell", "$mic = Get-AudioDevice -Recording"),
    ("powershell", "$g = [Drawing.Graphics]::FromImage($bitmap); $g.CopyFromScreen(0, 0, 0, 0, $size)"),
    # programs and scripts named for logging keys or recording the webcam, however they are started
    ("posix", "nohup python3 keylogger.py &"),
    ("powershell", ".\\Invoke-WebCamAvi.ps1 -RecTime '20'"),
    ("powershell", "Start-KeyLogger -Path k.txt"),
    ("posix", "./webcam_snap --out /tmp/x.jpg"),
    ("posix", 'osascript -e \'display dialog "Password:" default answer "" with hidden answer\''),
    ("powershell", "$cred = Get-Credential -Message 'Windows Security Update'"),
    ("powershell", "$c = $host.UI.PromptForCredential('Windows Security Update', '', $user, $domain)"),
    ("powershell", "$p = Read-Host -AsSecureString 'Password'"),
    # A DEBUG trap or a zsh preexec hook sees every command line the shell runs: a keylogger of the shell.
    (
        "posix",
        'trap \'echo "$(date +"%d/%m/%y %H:%M:%S.%s") $USER $BASH_COMMAND" >> /tmp/.keyboard.log\' DEBUG',
    ),
    ("posix", "trap 'echo \"$BASH_COMMAND\" >> /tmp/art-fish.txt' DEBUG\nwhoami"),
    ("posix", 'bash -c "trap \'logger -t sh \\"\\$BASH_COMMAND\\"\' debug; make"'),
    ("posix", "add-zsh-hook preexec log_line"),
]

NOT_CAPTURE = [
    ("posix", "trap 'rm -f \"$tmp\"' EXIT"),
    ("powershell", "Get-Help Get-Credential"),
    ("powershell", "$name = Read-Host 'Project name'"),
    ("posix", "trap - DEBUG"),
    ("posix", "trap -p DEBUG"),
    ("posix", "add-zsh-hook chpwd update_title"),
    ("posix", "ffmpeg -i demo.mp4 -vf scale=640:-1 demo.webm"),
    ("posix", "echo done | pbcopy"),
    ("posix", "xclip -sel clip < notes.txt"),
    ("powershell", "Set-Clipboard -Value 'copied'"),
    ("posix", "osascript -e 'display notification \"tests passed\"'"),
    ("posix", "python -c 'import sys; print(sys.version)'"),
    ("posix", "./tools/test/generateWorldScreenshots.py"),
    ("posix", "./gradlew recordScreenshots"),
    ("posix", "python camera_calibration.py --images data/"),
]


def test_capturing_the_user_s_screen_devices_and_clipboard_is_blocked() -> None:
    every_case(CAPTURE, lambda shell, command: guard_blocks(shell, command, "env.user-capture"))


def test_the_same_programs_on_the_project_s_own_files_stay_allowed() -> None:
    every_case(NOT_CAPTURE, guard_allows)


# -- credentials used through the environment --
CREDENTIAL_VARIABLES = [
    ("posix", "export KRB5CCNAME=/tmp/administrator.ccache"),
    ("posix", "KRB5CCNAME=admin.ccache psexec.py -k -no-pass corp/admin@dc01"),
    ("posix", "export KRB5_KTNAME=/tmp/svc.keytab"),
    ("posix", "export SSH_AUTH_SOCK=/tmp/ssh-abc/agent.1234"),
    ("posix", "declare -x GOOGLE_APPLICATION_CREDENTIALS=/tmp/sa.json"),
    ("posix", "env AWS_SESSION_TOKEN=abc AWS_SECRET_ACCESS_KEY=def make deploy"),
    ("powershell", "$env:KRB5CCNAME = 'C:\\Users\\Public\\admin.ccache'"),
    ("powershell", "cmd /c set KRB5_CLIENT_KTNAME=C:\\Users\\Public\\svc"),
    ("powershell", 'cmd /c "set KRB5CCNAME=admin.ccache & klist"'),
    ("powershell", 'cmd /c set "VAULT_TOKEN=s.abc"'),
    # a package registry's or code forge's token or password, handed to every later command
    ("posix", "export POETRY_PYPI_TOKEN_FOO=my-token"),
    ("posix", "export POETRY_HTTP_BASIC_FOO_PASSWORD=s3cr3tP4ss"),
    ("posix", "TWINE_PASSWORD=x twine check dist/*"),
    ("posix", "export CARGO_REGISTRY_TOKEN=abc"),
    ("powershell", "$env:NODE_AUTH_TOKEN = 'npm_abc'"),
    ("posix", "GH_TOKEN=ghp_abc make docs"),
]

NOT_CREDENTIAL_VARIABLES = [
    ("posix", "export KRB5CCNAME="),
    ("posix", "unset KRB5CCNAME SSH_AUTH_SOCK"),
    ("posix", "export AWS_REGION=eu-west-1"),
    ("posix", "export CCACHE_DIR=$HOME/.ccache"),
    ("posix", "ccache -s"),
    ("powershell", "cmd /c set PYTHONPATH=src"),
    ("powershell", "cmd /c set /a n=1+1"),
    ("powershell", "$env:RUST_LOG = 'debug'"),
    # a test database's own password, made up for the test run
    ("posix", "DB_USER=app DB_PASSWORD=password DB_NAME=products go test ./..."),
    ("posix", "PGPASSWORD=postgres psql -h localhost -c 'select 1'"),
    ("posix", "export POETRY_VIRTUALENVS_IN_PROJECT=true"),
]

TICKET_CACHES = [
    ("posix", "cp user.ccache /tmp/krb5cc_1045"),
    ("posix", "base64 -w0 admin.ccache"),
    ("posix", "cat /tmp/krb5cc_1000"),
    ("powershell", "Copy-Item .\\ticket.kirbi C:\\Users\\Public\\"),
]


def test_pointing_commands_at_a_credential_by_a_variable_is_blocked() -> None:
    every_case(
        CREDENTIAL_VARIABLES, lambda shell, command: guard_blocks(shell, command, "env.credential-variable")
    )


@pytest.mark.parametrize(("shell", "command"), NOT_CREDENTIAL_VARIABLES)
def test_ordinary_variables_and_emptied_credentials_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)


@pytest.mark.parametrize(("shell", "command"), TICKET_CACHES)
def test_kerberos_ticket_caches_are_credential_files(shell: str, command: str) -> None:
    guard_blocks(shell, command, "env.secret-files")


# A logon credential made from a password the command holds, or decrypted with a key it holds: acting as
# another account. Only mentioning the cmdlets is not.
LOGON_CREDENTIALS = [
    "$p = ConvertTo-SecureString 'Winter2024!' -AsPlainText -Force",
    "$p = ConvertTo-SecureString -String $plain -AsPlainText -Force",
    "$s = ConvertTo-SecureString -String $exported -Key (1..16)",
    "$c = New-Object System.Management.Automation.PSCredential('corp\\svc', $p)",
    "$c = New-Object -TypeName PSCredential -ArgumentList 'svc', $p",
    "$c = [System.Management.Automation.PSCredential]::new('svc', $p)",
    "Start-Job -ScriptBlock { $p = ConvertTo-SecureString 'x' -AsPlainText -Force }",
    "[Net.NetworkCredential]::new('', $secure).Password",
]
NOT_LOGON_CREDENTIALS = [
    "Get-Help ConvertTo-SecureString",
    "$s | ConvertFrom-Json",
    "Write-Output 'ConvertTo-SecureString -AsPlainText is discouraged'",
    "Select-String -Pattern PSCredential -Path src\\*.ps1",
]


@pytest.mark.parametrize("command", LOGON_CREDENTIALS)
def test_building_a_logon_credential_from_a_held_password_is_blocked(command: str) -> None:
    guard_blocks("powershell", command, "env.logon-credential")


@pytest.mark.parametrize("command", NOT_LOGON_CREDENTIALS)
def test_prompting_for_or_mentioning_a_credential_stays_allowed(command: str) -> None:
    guard_allows("powershell", command)


@pytest.mark.parametrize(
    "command",
    [
        # Secrets a container platform mounts for the workload, and macOS's per-session shell history.
        "cat /var/run/secrets/kubernetes.io/serviceaccount/token",
        "cat /run/secrets/db_password",
        "cp /run/secrets/api_key /tmp/k",
        # a secrets volume, Vault's agent and the CSI secrets store, by their usual paths
        "cat /var/secrets/db-password",
        "cat /vault/secrets/config",
        "cat /mnt/secrets-store/api-key",
        "find ~/.bash_sessions -name '*' -exec cat {} \\;",
        "cat ~/.bash_sessions/1A2B.history",
    ],
)
def test_mounted_container_secrets_and_session_history_are_secret_files(command: str) -> None:
    guard_blocks("posix", command, "env.secret-files")


@pytest.mark.parametrize(
    "command", ["grep -rn run/secrets docs/", "cat docs/secrets.md", "ls /run", "cat secrets/README.md"]
)
def test_mentioning_where_secrets_are_mounted_stays_allowed(command: str) -> None:
    guard_allows("posix", command)


# Listing every account or group is blocked however it is asked for (`net user`, `Get-LocalUser`,
# `dscl . -list /Users`, `getent passwd`); one user's or group's own record is like `id`.
@pytest.mark.parametrize(
    ("shell", "command"),
    [
        ("posix", "getent passwd"),
        ("posix", "getent group"),
        ("posix", "dscl . -list /Users"),
        ("posix", "dscacheutil -q user"),
        ("powershell", "net user"),
        # the folder that holds every user's home: the accounts by name
        ("posix", "ls -lah /home"),
        ("posix", "ls /Users"),
        ("posix", "du -sh /home/*"),
        ("powershell", "Get-ChildItem C:\\Users -Force | select name"),
        ("powershell", "dir c:\\Users\\"),
        ("powershell", "cmd.exe /c dir /a c:\\users\\"),
    ],
)
def test_listing_every_account_or_group_is_blocked(shell: str, command: str) -> None:
    guard_blocks(shell, command, "env.accounts")


@pytest.mark.parametrize(
    "command",
    [
        "getent passwd dev",
        "getent group docker",
        "getent passwd $USER",
        "dscl . -read /Users/dev",
        "id -u",
        "getent hosts localhost",
        "ls ~",  # one user's own folder
        "ls /home/dev/src",
        "ls -la /usr/share",
    ],
)
def test_one_account_record_stays_allowed(command: str) -> None:
    guard_allows("posix", command)


@pytest.mark.parametrize(
    "command",
    [
        "npm config get //registry.npmjs.org/:_authToken",
        "pnpm config get '//npm.pkg.github.com/:_authToken'",
        "yarn config get npmAuthToken",
        "npm get _auth",
    ],
)
def test_a_package_managers_registry_token_is_a_credential(command: str) -> None:
    guard_blocks("posix", command, "env.credential-store")


@pytest.mark.parametrize(
    "command", ["npm config get registry", "pnpm config get store-dir", "yarn config get cacheFolder"]
)
def test_other_package_manager_settings_stay_readable(command: str) -> None:
    guard_allows("posix", command)
