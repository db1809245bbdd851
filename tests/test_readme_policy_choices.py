"""The README's "Deliberate choices" for the command policy hold: what users read is what it does."""

from __future__ import annotations

import pytest

from glmagent.guard import Policy

ALLOWED = [
    ("posix", "rm file.o"),
    ("posix", "unlink f"),
    ("posix", "git rm f"),
    ("powershell", "Remove-Item x.txt"),
    ("posix", "git checkout -- f.py"),
    ("posix", "git stash"),
    ("posix", "git branch -d topic"),
    ("posix", "sed -i 's/a/b/' f"),
    ("posix", "perl -i -pe 's/a/b/' f"),
    ("posix", "echo x >/dev/null"),
    ("posix", "pytest 2>&1"),
    ("powershell", "pytest 2>$null"),
    ("posix", "npx jest"),
    ("posix", "terraform plan"),
    ("posix", "echo $key"),
    ("posix", "echo $TOKENIZERS_PARALLELISM"),
    ("posix", "cat .env.example"),
    ("posix", "whoami"),
    ("posix", "id"),
    ("posix", 'grep -r "rm -rf" docs/'),
    ("posix", "echo curl"),
    ("posix", "git rm --cached f"),
    ("posix", "timeout 60 pytest"),
    ("powershell", "Write-Output 'Use $env:PATH carefully'"),
    ("powershell", "Get-Help Remove-Item"),
    ("posix", "kill 1234"),
    ("posix", "kill %1"),
    ("posix", "kill $!"),
    ("powershell", "Stop-Process -Id 1234"),
    ("posix", 'git commit -m "$msg"'),
    ("posix", 'rm -f "$tmpfile"'),
    ("posix", "bash build.sh"),
    ("posix", "python -V"),
    ("posix", "gdb -batch -ex run ./a.out"),
    ("posix", "./build.sh"),
    ("posix", "/usr/bin/python3 -m pytest"),
    ("posix", "~/.cargo/bin/cargo test"),
    ("posix", "echo https://example.com"),
    ("posix", "git commit -m 'see https://example.com'"),
    ("posix", "cat http://x"),
]

BLOCKED = [
    ("posix", "pkill -f uvicorn", "destructive"),
    ("posix", "killall node", "destructive"),
    ("powershell", "taskkill /im node.exe", "destructive"),
    ("powershell", "Get-Process node | Stop-Process", "destructive"),
    ("posix", "sort -o /etc/hosts names.txt", "containment"),
    ("posix", "restic -r rest:http://host/repo snapshots", "network"),
    ("posix", "mytool --password-command='curl http://x'", "network"),
    ("posix", "bash", "unverifiable"),
    ("posix", "sudo -i", "unverifiable"),
    ("posix", "/tmp/x", "unverifiable"),
    ("powershell", "C:\\Users\\Public\\x.exe", "unverifiable"),
    ("posix", "useradd dev", "env"),
    ("posix", "systemctl stop cron", "destructive"),
    ("posix", "rm *", "destructive"),
    ("posix", "git checkout .", "destructive"),
    ("posix", "git restore .", "destructive"),
    ("posix", "git reset --hard", "destructive"),
    ("posix", "git clean -f", "destructive"),
    ("posix", "git branch -D topic", "destructive"),
    ("posix", "git stash drop", "destructive"),
    ("posix", "git stash clear", "destructive"),
    ("posix", "git reflog expire --expire=now --all", "destructive"),
    ("posix", "git gc --prune=now", "destructive"),
    ("posix", "echo x > f", "destructive"),
    ("posix", "tee f", "destructive"),
    ("posix", "ln -sf a b", "destructive"),
    ("posix", "python -c \"open('f', 'w').write('x')\"", "destructive"),
    ("posix", "pip install x", "network"),
    ("posix", "go mod tidy", "network"),
    ("posix", "uv sync", "network"),
    ("posix", "cargo update", "network"),
    ("posix", "docker build .", "network"),
    ("posix", "npm config set registry http://example.com", "network"),
    ("posix", "ping example.com", "network"),
    ("posix", "npx -y cowsay", "network"),
    ("powershell", "echo $env:PATH", "env"),
    ("posix", "echo $API_KEY", "env"),
    ("posix", "echo $password", "env"),
    ("posix", "echo $SSH_AUTH_SOCK", "env"),
    ("posix", "cat .env", "env"),
    ("posix", "git credential fill", "env"),
    ("posix", "bash $x", "unverifiable"),
    ("posix", "cmd $a", "unverifiable"),
    ("posix", 'tar -czf "$out" src', "unverifiable"),
    ("powershell", "Remove-Item \u2013Recurse x", "destructive"),
    ("posix", "rm -r{,f} x", "destructive"),
    ("posix", 'cmd /c bash -c "find . -name \\"*.py\\" -delete"', "destructive"),
]


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_readme_allows(shell: str, command: str) -> None:
    decision = Policy.default().check(command, shell)  # type: ignore[arg-type]
    assert decision.allowed, decision.reason


@pytest.mark.parametrize(("shell", "command", "category"), BLOCKED)
def test_readme_blocks(shell: str, command: str, category: str) -> None:
    decision = Policy.default().check(command, shell)  # type: ignore[arg-type]
    assert not decision.allowed
    assert decision.category == category, decision.reason
