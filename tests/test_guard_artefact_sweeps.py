"""A `find` sweep of compiled and cached files is a clean step, not a destructive delete.

`find . -name '*.pyc' -delete`, `find . -name __pycache__ -exec rm -rf {} +`, `find . -name '*.o' | xargs rm`
delete only files the next build makes again. The same lines selecting anything else (sources, everything
but the artefacts, a place outside the project), or with an action that runs before the selection, stay
blocked. Alternatives (`-delete -o -name __pycache__ -delete`) are sweeps when each one is. PowerShell's
`Get-ChildItem -Recurse -Filter '*.binlog' | Remove-Item` is the same sweep, and so is a plain `find`
listing that `grep` filters to those names (`find . | grep -E "(__pycache__|\\.pyc|\\.pyo$)" | xargs rm -rf`).
"""

from __future__ import annotations

import pytest

from glmagent.guard import Policy
from glmagent.guard._artefacts import fed_operands_only, find_sweeps_artefacts
from glmagent.guard._syntax import DYN, Arg

SWEEPS = [
    "find . -name '*.pyc' -delete",
    "find . -name '*.pyc' -exec rm -f {} +",
    "find . -name '*.pyo' -exec rm -f {} \\;",
    "find . -type d -name __pycache__ -exec rm -rf {} +",
    "find . -name __pycache__ -type d -delete",
    "find src tests -type f -name '*.o' -delete",
    "find . \\( -name '*.pyc' -o -name '*.pyo' \\) -delete",
    "find . -type f -name '*.py[co]' -delete -o -type d -name __pycache__ -delete",  # each a sweep
    "find . -name '*.pyc' -exec rm {} \\; -o -name '*.pyo' -delete",
    "find . -name 'node_modules' -type d -prune -exec rm -rf {} \\;",  # installed, made again by an install
    "find . -maxdepth 3 -iname '.DS_Store' -print -delete",
    "find . -name __pycache__ | xargs rm -r || true",
    "find . -name '*.pyc' -print0 | xargs -0 rm -f",
    "rm -rf `find . -name __pycache__`",
    "rm -f $(find . -type f -name '*.py[co]')",
    "make clean && find . -name '*.gcda' -delete && make test",
    # libraries, libtool and automake stamps, CMake's generated files
    "find . -name '*.a' | xargs rm -f",
    "find . -name '*.la' | xargs rm -f",
    "find . -name '.dirstamp' | xargs rm -f",
    "find . -name 'CTestTestfile.cmake' | xargs rm -f",
    'find . -type f -name "coverage.out" -delete',  # coverage profiles a test run writes
    "find . -name '*.profraw' -delete",
    'find . -name "*.rbc" | xargs rm',  # Rubinius's compiled Ruby
    "find . -name '*.egg' -exec rm -f {} +",  # built eggs
    'find . -type d -name ".cache" -exec rm -rf {} +',  # tools' caches
    # a make recipe's marked `find` is still the find that feeds the delete
    "-find . -type d -name __pycache__ | xargs rm -r",
    "@find . -name '*.pyc' | xargs rm -f",
    # everything find lists, kept by grep when it names such a file: the Python clean step's idiom
    'find . | grep -E "(__pycache__|\\.pyc|\\.pyo$)" | xargs rm -rf',
    'find src -type f | grep -E "\\.o$" | xargs rm -f',
    "find . | egrep '\\.pytest_cache|\\.mypy_cache' | xargs rm -rf",
    "find . | grep '__pycache__\\|\\.pyc$' | xargs rm -rf",  # basic syntax: `\|` alternates
]

NOT_SWEEPS = [
    ("find . -name '*.py' -delete", "destructive.find-delete"),  # the sources
    ("find . -name '*.pyc' -o -delete", "destructive.find-delete"),  # deletes everything else
    ("find . -name '*.pyc' -delete -o -name '*.py' -delete", "destructive.find-delete"),
    ("find . -name '*.pyc' -delete -o -delete", "destructive.find-delete"),
    ("find . -name '*.pyc' -o -name src -delete", "destructive.find-delete"),
    ("find . -name node_modules -prune -o -name '*.js' -delete", "destructive.find-delete"),  # the rest
    ("find . -name src -prune -exec rm -rf {} +", None),
    ("find . -delete -name '*.pyc'", "destructive.find-delete"),  # the action runs before the test
    ("find . ! -name '*.pyc' -delete", "destructive.find-delete"),
    ("find . -not -name '*.pyc' -delete", "destructive.find-delete"),
    ("find . -name '*.pyc' -path './src/*' -delete", "destructive.find-delete"),
    ("find . \\( -name '*.pyc' -o -type f \\) -delete", "destructive.find-delete"),
    ("find -L . -name '*.pyc' -delete", "destructive.find-delete"),  # links may lead out
    ("find / -name '*.pyc' -delete", None),
    ("find ~ -name '*.pyc' -delete", None),
    ("find .. -name '*.pyc' -delete", None),
    ("find .git -name '*.o' -delete", None),
    ("find $DIR -name '*.pyc' -delete", None),
    ('find . -name "$P" -delete', None),
    ("find . -name '*.pyc' -exec rm -rf {} ~ +", None),  # names more than what find hands it
    ("find . -name '*.pyc' -exec rm -rf {} + -o -exec rm -rf {} +", None),
    ("find . -name __pycache__ -exec sh -c 'rm -rf ~' \\;", None),
    ("find . -name '*.pyc' | sed s/c$// | xargs rm", None),  # a filter between may rewrite the names
    ("find . -name '*.pyc' | xargs rm -f src/app.py", None),
    ("rm -f $(find . -name '*.py')", None),
    ("rm -rf $(find . -name __pycache__) $HOME", None),
    ("find . -name '*.txt' | xargs rm -f", None),
    ("find . -name '*.po' | xargs rm -f", None),  # translations
    ("find . -name '*~' | xargs rm -f", None),  # editors' backups of the user's files
    ("find . -name 'CMakeLists.txt' | xargs rm -f", None),
    # a source renamed or copied to an artefact's name first is swept with them
    ("mv app.py app.pyc; find . -name '*.pyc' -delete", "destructive.find-delete"),
    ("cp app.py x.o && find . -name '*.o' | xargs rm", None),
    # a grep between a find and the delete: only names of such files, escaped, from inside the project
    ('find . | grep -vE "(__pycache__|\\.pyc)" | xargs rm -rf', None),  # everything else
    ('find . | grep -E ".pytest_cache" | xargs rm -rf', None),  # `.` is any character: test_pytest_cache.py
    ('find . | grep -E "(__pycache__|\\.py)" | xargs rm -rf', None),  # the sources
    ('find . | grep -E "(__pycache__|\\.o)" | xargs rm -rf', None),  # `x.old`: too short without `$`
    ('find . | grep -E "(__pycache__|.*)" | xargs rm -rf', None),
    ('find . | grep -iE "__pycache__" | xargs rm -rf', None),
    ('find / | grep -E "__pycache__" | xargs rm -rf', None),
    ('find .. | grep -E "__pycache__" | xargs rm -rf', None),
    ('find -L . | grep -E "__pycache__" | xargs rm -rf', None),
    ('find . -newer x | grep -E "__pycache__" | xargs rm -rf', None),
    ('find . | grep -E "__pycache__" | sed s/_// | xargs rm -rf', None),
    ('find . | grep -E "__pycache__" | xargs rm -rf src', None),
    ('cat list.txt | grep -E "__pycache__" | xargs rm -rf', None),
    ('find . | grep -E "$P" | xargs rm -rf', None),
]

# cmd's `del /s NAME` deletes that name in every folder below: a sweep when NAME is an artefact's
CMD_SWEEPS = [
    "del /s /q *.pyc",
    "del /s *.obj 2>nul",
    "del /q /f /s *.o *.obj",
    "cmd /c del /s /q *.pyc",
    "del *.pch /s",  # MSVC's precompiled headers
    "del /s /q *.ilk *.idb",
]

CMD_NOT_SWEEPS = [
    "del /s /q *.cs",  # the sources
    "del /q /f /s *~ 2>nul",  # editors' backups
    "del /p /s *.pyc",  # asks at the terminal
    "del /s /q *.pyc *.py",
    "del /s /q /tmp",
    "move app.py app.pyc & del /s /q *.pyc",
]


# PowerShell's: a recursive listing that selects only such names, piped straight into Remove-Item
POWERSHELL_SWEEPS = [
    "Get-ChildItem -Path . -Filter '*.binlog' -Recurse -ErrorAction SilentlyContinue | Remove-Item -Force",
    "gci -Recurse -Include *.pyc, *.pyo | Remove-Item",
    "Get-ChildItem src, tests -Recurse -Filter __pycache__ | Remove-Item -Recurse -Force",
]

POWERSHELL_NOT_SWEEPS = [
    "gci -Recurse -Include *.pyc, *.cs | Remove-Item",  # the sources among them
    "gci -Recurse -Filter *.cs | Remove-Item",
    "Get-ChildItem C:\\ -Recurse -Filter *.pyc | Remove-Item",  # outside the project
    "gci -Recurse | Remove-Item",
    "gci -Recurse -Filter *.pyc | Where-Object { $_ } | Remove-Item",  # a filter between them
    "Move-Item app.py app.pyc; gci -Recurse -Filter *.pyc | Remove-Item",  # a source renamed first
]


@pytest.mark.parametrize("command", CMD_SWEEPS + POWERSHELL_SWEEPS)
def test_cmds_and_powershells_sweeps_of_compiled_files_are_allowed(command: str) -> None:
    decision = Policy.default().check(command, "powershell")
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize("command", CMD_NOT_SWEEPS + POWERSHELL_NOT_SWEEPS)
def test_their_other_recursive_or_fed_deletes_stay_blocked(command: str) -> None:
    assert not Policy.default().check(command, "powershell").allowed, command


@pytest.mark.parametrize("command", SWEEPS)
def test_a_sweep_of_compiled_files_is_allowed(command: str) -> None:
    decision = Policy.default().check(command, "posix")
    assert decision.allowed, (command, decision.rule_id, decision.reason)


@pytest.mark.parametrize(("command", "rule"), NOT_SWEEPS)
def test_other_find_deletes_stay_blocked(command: str, rule: str | None) -> None:
    decision = Policy.default().check(command, "posix")
    assert not decision.allowed, command
    if rule is not None:
        assert decision.rule_id == rule, (command, decision.rule_id)


def _words(*texts: str) -> list[Arg]:
    return [Arg(t, t) for t in texts]


def test_the_selection_reader_wants_a_name_and_nothing_but_names() -> None:
    assert find_sweeps_artefacts(_words(".", "-name", "*.PYC", "-delete"))  # -name compared in lower case
    assert not find_sweeps_artefacts(_words(".", "-type", "f", "-delete"))  # no name: every file
    assert not find_sweeps_artefacts(_words(".", "-delete"))
    assert not find_sweeps_artefacts(_words(".", "(", ")", "-delete"))  # an empty group
    assert not find_sweeps_artefacts(_words(".", "(", "-name", "*.pyc", "-delete"))  # unclosed
    assert not find_sweeps_artefacts(_words(".", "-maxdepth", "x", "-name", "*.pyc"))


def test_only_placeholders_or_one_run_time_word_count_as_fed() -> None:
    assert fed_operands_only(_words("-rf", "{}"))
    assert fed_operands_only([*_words("-r"), Arg(DYN, "<words from stdin>")])
    assert not fed_operands_only(_words("-rf"))
    assert not fed_operands_only(_words("-rf", "{}", "src"))
    assert not fed_operands_only([Arg(DYN, "$a"), Arg(DYN, "$b")])
    assert not fed_operands_only(_words("--", "-rf"))  # after `--` a word is an operand
