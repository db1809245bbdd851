"""The fast paths must report exactly what the tree walk reports, or step aside.

A script that is one command of literal words is read from its text (`simple_command`), a cmd.exe line
without operators is split without the character loop, and PowerShell jumps over chains of expression
levels. Each is checked here against the slow path on generated inputs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from glmagent.guard import Policy, _parse_cmd, _parse_posix, _parse_powershell
from glmagent.guard._engine import Evaluation
from glmagent.guard._syntax import Arg, Frame


class Recorder:
    """A sink that records everything a walk reports."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def command(
        self, argv: list[Arg], frame: Frame, stdin: Any, resolved_name: Any = None, feeds: Any = ()
    ) -> None:
        self.calls.append(("command", tuple(argv), stdin is None, resolved_name, len(feeds)))

    def assignment(self, name: str, value: Arg, frame: Frame) -> None:
        self.calls.append(("assignment", name, value))

    def redirect(
        self, op: str, target: Arg, frame: Frame, empty: bool = False, writer: list[Arg] | None = None
    ) -> None:
        self.calls.append(("redirect", op, target, empty, writer))

    def variable(self, name: str, frame: Frame, raw: str) -> None:
        self.calls.append(("variable", name, raw))

    def dotnet(
        self, type_name: str, member: str | None, frame: Frame, raw: str, called: bool = False
    ) -> None:
        self.calls.append(("dotnet", type_name, member))

    def event(self, event: str, frame: Frame, detail: str, argv: list[str] | None = None) -> None:
        self.calls.append(("event", event))

    def script(self, text: str, dialect: str, frame: Frame) -> None:
        self.calls.append(("script", text, dialect))

    def static_output(self, argv: list[Arg], stdin: Any, dialect: str) -> None:
        return None


POSIX_WORDS = st.one_of(
    st.from_regex(r"[a-z][a-z0-9_.-]{0,6}", fullmatch=True),
    st.from_regex(r"-{1,2}[a-zA-Z][a-z=]{0,5}", fullmatch=True),
    st.from_regex(r"[0-9]{1,3}", fullmatch=True),
    st.from_regex(r"[~./][a-z/.*?]{0,6}", fullmatch=True),
    st.from_regex(r"'[a-z $;|&(){}`\\\"]{0,6}'", fullmatch=True),
    st.from_regex(r'"[a-z ;|&(){}\']{0,6}"', fullmatch=True),
    st.from_regex(r"[a-z]{1,3}('[a-z ]{0,3}'|\"[a-z ]{0,3}\")[a-z]{0,2}", fullmatch=True),
    st.sampled_from(["if", "then", "time", "export", "a=b", "x=", "{a,b}", "[", "!", "#c", "%1", "@x", "^y"]),
)
PS_WORDS = st.one_of(
    st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{0,8}", fullmatch=True),
    st.from_regex(r"-[A-Za-z][A-Za-z]{0,6}(:[a-z]{1,3})?", fullmatch=True),
    st.from_regex(r"-?[0-9]{1,3}(\.[0-9])?", fullmatch=True),
    st.from_regex(r"0x[0-9a-f]{1,2}|[0-9]kb", fullmatch=True),
    st.from_regex(r"[.~][\\/][A-Za-z*?]{0,6}", fullmatch=True),
    st.from_regex(r"'([a-z $;|&(){}`\"]|''){0,6}'", fullmatch=True),
    st.from_regex(r'"[a-z ;|&(){}\']{0,6}"', fullmatch=True),
    st.sampled_from(["if", "foreach", "function", "exit", "param", "--", "-", "+3", "a=b", "C:\\x", "env:"]),
)


def _walked(module: Any, text: str, dialect: str) -> list[tuple[Any, ...]]:
    root = module.parse(text.encode()).root_node
    recorder = Recorder()
    module.walk(recorder, Frame(dialect), text.encode(), root, text)  # type: ignore[arg-type]
    return recorder.calls


def _assert_same(module: Any, text: str, dialect: str) -> None:
    root = module.parse(text.encode()).root_node
    if root.has_error:
        return  # the engine never takes the fast path for a failed parse
    fast = module.simple_command(text, root)
    if fast is None:
        return  # stepping aside is always allowed
    assert _walked(module, text, dialect) == [("command", tuple(fast), True, None, 0)], text


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(POSIX_WORDS, min_size=1, max_size=5))
def test_posix_fast_path_reports_what_the_walk_reports(words: list[str]) -> None:
    _assert_same(_parse_posix, " ".join(words), "posix")


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(PS_WORDS, min_size=1, max_size=5))
def test_powershell_fast_path_reports_what_the_walk_reports(words: list[str]) -> None:
    _assert_same(_parse_powershell, " ".join(words), "powershell")


@pytest.mark.parametrize(
    ("text", "dialect"),
    [
        ("rm -rf build", "posix"),
        ("sed -n '1,80p' src/app.py", "posix"),
        ("pytest -q tests/test_x.py", "posix"),  # a source by a plain relative path
        ('git log --oneline --grep="fix"', "posix"),
        ("r''m -rf x", "posix"),
        ("Remove-Item -Recurse -Force C:\\src", "powershell"),
        ("git log -n 5 --oneline", "powershell"),
        ("Select-String -Path src\\*.cs -Pattern 'Remove-Item'", "powershell"),
    ],
)
def test_common_commands_take_the_fast_path(text: str, dialect: str) -> None:
    module = _parse_posix if dialect == "posix" else _parse_powershell
    root = module.parse(text.encode()).root_node
    assert module.simple_command(text, root) is not None
    _assert_same(module, text, dialect)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.from_regex(r"[A-Za-z0-9/:.\\*%_!-]{1,6}", fullmatch=True), min_size=1, max_size=5))
def test_cmd_lines_without_operators_split_like_the_character_loop(words: list[str]) -> None:
    line = "  ".join(words) if len(words) % 2 else "\t".join(words)
    fast = _parse_cmd.parse_cmd(line)
    slow = _parse_cmd.parse_cmd(line + "&")  # an operator sends the line through the character loop
    assert [(c.argv, c.redirects, c.piped) for c in fast.commands] == [
        (c.argv, c.redirects, c.piped) for c in slow.commands
    ]


def _powershell_commands() -> list[str]:
    commands = [
        c for rule in Policy.default().rules for c, shell, _ in rule.examples() if shell == "powershell"
    ]
    return [
        *commands,
        "$c = 'Remove-Item'; & $c -Recurse x",
        "Write-Output ((1 + 2) * $env:X)",
        "$x = [IO.File]::ReadAllText('a'); $x",
        "Compare-Object (Get-Content a.txt) (Get-Content b.txt)",
        "Write-Output (-not $true) ('a' + \"b$c\") @(1, 2) @{a = 1}",
        "$a = $b = 3; [int]$n = '4'",
    ]


def test_expression_shortcuts_report_what_stepping_reports(monkeypatch: pytest.MonkeyPatch) -> None:
    # Skipping literal expressions and jumping over single-operand levels must not lose a variable, type
    # or command: walk every PowerShell example both ways and compare everything reported.
    commands = _powershell_commands()
    fast = [_walked(_parse_powershell, c, "powershell") for c in commands]
    monkeypatch.setattr(_parse_powershell, "_SAME_SPAN", frozenset())
    monkeypatch.setattr(_parse_powershell, "_EXPRESSIONS", frozenset())
    slow = [_walked(_parse_powershell, c, "powershell") for c in commands]
    for command, a, b in zip(commands, fast, slow, strict=True):
        assert a == b, command


class _NoMemory(dict):  # type: ignore[type-arg]
    """A clause-verdict table that never remembers: every command's clauses are evaluated afresh."""

    def get(self, key: Any, default: Any = None) -> Any:
        return default

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def _corpus_rows() -> list[tuple[str, str]]:
    path = Path(__file__).parent / "corpus" / "policy.tsv"
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            backend, _expected, _category, command = line.split("\t", 3)
            rows.append((backend, command))
    rows += [(shell, c) for rule in Policy.default().rules for c, shell, _ in rule.examples()]
    return rows


def test_remembered_clause_verdicts_decide_what_fresh_ones_decide() -> None:
    # Clause verdicts are kept per (dialect, names, words) for commands nothing feeds or wraps: deciding
    # every corpus command and rule example twice with them (the second time from memory) must give the
    # same decisions as evaluating every clause every time.
    rows = _corpus_rows()
    remembering = Policy.load()
    first = [remembering.check(c, b) for b, c in rows]  # type: ignore[arg-type]
    second = [remembering.check(c, b) for b, c in rows]  # type: ignore[arg-type]
    assert remembering._compiled.clause_results  # the table was used
    fresh = Policy.load()
    fresh._compiled.clause_results = _NoMemory()
    for (backend, command), a, b in zip(rows, first, second, strict=True):
        expected = fresh.check(command, backend)  # type: ignore[arg-type]
        assert a == expected, (backend, command)
        assert b == expected, (backend, command)


def _full_walk(policy: Policy, command: str, backend: str) -> Any:
    """The decision of the whole evaluation, without the policy's literal-command shortcut."""
    return Evaluation(policy._compiled).check(command, backend)  # type: ignore[arg-type]


def test_literal_shortcut_decides_what_the_whole_evaluation_decides() -> None:
    rows = _corpus_rows()
    policy = Policy.load()
    shortcut_taken = 0
    for backend, command in rows:
        decision = policy.check(command, backend)  # type: ignore[arg-type]
        assert decision == _full_walk(policy, command, backend), (backend, command)
        shortcut_taken += _takes_shortcut(policy, command, backend)
    assert shortcut_taken > 100  # the comparison covered the shortcut, not only the fallback


def test_literal_shortcut_in_allowlist_mode_decides_what_the_allowlist_walk_decides(tmp_path: Path) -> None:
    # Allowlist mode takes the shortcut too, then holds the one command against the allowlist: an allowlist
    # naming the programs of every other corpus line refuses some lines and allows others, and each decision
    # (rule, reason, words) must be what the whole allowlist evaluation makes of the line.
    from glmagent.guard._allowlist import AllowlistEvaluation
    from glmagent.guard._suggest import allow_entries_toml, suggest_allow_entries

    rows = _corpus_rows()
    suggested = suggest_allow_entries(Policy.default(), [(c, b) for b, c in rows[::2]])  # type: ignore[misc]
    path = tmp_path / "allow.toml"
    path.write_text(allow_entries_toml(suggested.entries), encoding="utf-8")
    policy = Policy.load([path])
    outcomes: set[tuple[bool, str | None]] = set()
    for backend, command in rows:
        decision = policy.check(command, backend)  # type: ignore[arg-type]
        whole = AllowlistEvaluation(policy._compiled, policy._allowlist).check(command, backend)  # type: ignore[arg-type]
        assert decision == whole, (backend, command)
        if _takes_shortcut(policy, command, backend):
            outcomes.add((decision.allowed, decision.rule_id))
    # the shortcut allowed lines, refused unlisted ones and denied dangerous ones
    assert (True, None) in outcomes
    assert (False, "allowlist.not-allowed") in outcomes
    assert any(not allowed and rule != "allowlist.not-allowed" for allowed, rule in outcomes)


def _takes_shortcut(policy: Policy, command: str, backend: str) -> bool:
    module = _parse_posix if backend == "posix" else _parse_powershell
    root = module.parse(command.encode()).root_node
    argv = None if root.has_error else module.simple_command(command, root)
    return argv is not None and policy._compiled._literal(command, backend, argv) is not None  # type: ignore[arg-type]


PROGRAMS = st.sampled_from(
    ["rm", "git", "curl", "chmod", "find", "env", "kill", "ls", "cat", "dd", "pip", "printenv", "/bin/rm"]
)
PS_PROGRAMS = st.sampled_from(
    ["Remove-Item", "ri", "del", "rm", "git", "iwr", "Get-ChildItem", "gci", "Get-Content", "Format-Volume"]
)


@settings(max_examples=examples(200), deadline=None)
@given(PROGRAMS, st.lists(POSIX_WORDS, max_size=4))
def test_literal_shortcut_agrees_on_generated_posix_commands(program: str, words: list[str]) -> None:
    command = " ".join([program, *words])
    assert Policy.default().check(command, "posix") == _full_walk(Policy.default(), command, "posix"), command


@settings(max_examples=examples(200), deadline=None)
@given(PS_PROGRAMS, st.lists(PS_WORDS, max_size=4))
def test_literal_shortcut_agrees_on_generated_powershell_commands(program: str, words: list[str]) -> None:
    command = " ".join([program, *words])
    policy = Policy.default()
    assert policy.check(command, "powershell") == _full_walk(policy, command, "powershell"), command


GIT_LOG_RULE = """
version = 1

[[rule]]
id = "custom.git-log"
category = "destructive"
description = "reads history this project keeps private"
justification = "Ask for the history you need."
match = ["git log"]
not_match = ["git status"]

[[rule.when]]
on = "command"
commands = ["git"]
subcommands = ["log"]
"""


def test_literal_shortcut_defers_when_an_unverifiable_rule_hits_first(tmp_path: Path) -> None:
    # Built-in "unverifiable" findings do not end the walk: a user's concrete rule later in the order
    # explains the block better, and the shortcut must not answer with the unverifiable one.
    path = tmp_path / "policy.toml"
    path.write_text(GIT_LOG_RULE, encoding="utf-8")
    policy = Policy.load([path])
    command = "git -c core.pager=less log"
    decision = policy.check(command, "posix")
    assert decision == _full_walk(policy, command, "posix")
    assert decision.rule_id == "custom.git-log"


def test_the_policys_memories_keep_no_long_command_line() -> None:
    # Their keys are the words themselves: a few thousand long lines from a model would otherwise be kept
    # whole, each up to the policy's input limit.
    from glmagent.guard._compiled import MEMO_WORDS_CHARS

    policy = Policy.load()
    long_line = "echo " + " ".join(["word"] * (MEMO_WORDS_CHARS // 4))
    policy.check(long_line, "posix")
    policy.check("echo short", "posix")

    compiled = policy._compiled
    kept = [*compiled.clause_results, *compiled.word_screens]
    assert kept and all(sum(len(w.raw) for w in key[2:]) <= MEMO_WORDS_CHARS for key in kept)


def test_a_remembered_syntax_tree_decides_what_a_fresh_parse_decides() -> None:
    # The tree of a short line is kept per thread; the walk and every rule still run on each check.
    from glmagent.guard import _engine

    corpus = Path(__file__).parent / "corpus" / "policy.tsv"
    rows = [line.split("\t") for line in corpus.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    policy = Policy.load()
    _engine._PARSES.lines = {}  # (proving a policy's examples may have filled it: it would start again)
    fresh = [policy.check(command, backend) for backend, _, _, command in rows]  # parsed, then kept
    kept = _engine._PARSES.lines
    assert any(key[1] == rows[0][3] for key in kept)
    again = [policy.check(command, backend) for backend, _, _, command in rows]  # from the kept trees
    assert again == fresh
    policy._compiled.memo_limit = 0  # first sight: nothing kept is read
    assert [policy.check(command, backend) for backend, _, _, command in rows] == fresh


def test_the_kept_syntax_trees_are_short_lines_and_bounded() -> None:
    from glmagent.guard import _engine

    policy = Policy.load()
    long_line = "echo " + "x" * _engine.PARSE_MEMO_TEXT
    policy.check(long_line, "posix")
    assert all(len(text) <= _engine.PARSE_MEMO_TEXT for _, text in _engine._PARSES.lines)
    for i in range(_engine.PARSE_MEMO_LINES + 10):
        policy.check(f"echo {i}", "posix")
    assert 0 < len(_engine._PARSES.lines) <= _engine.PARSE_MEMO_LINES


def test_each_thread_parses_its_own_lines() -> None:
    # A syntax tree may be read by one thread at a time: another thread parses the line again.
    import threading

    from glmagent.guard import _engine

    policy = Policy.load()
    policy.check("git status --short", "posix")
    seen: list[object] = []

    def other() -> None:
        policy.check("git status --short", "posix")
        seen.append(_engine._PARSES.lines[("posix", "git status --short")][0])

    thread = threading.Thread(target=other)
    thread.start()
    thread.join()
    assert seen and seen[0] is not _engine._PARSES.lines[("posix", "git status --short")][0]


@pytest.mark.parametrize("program", ["ls", "echo", "Get-ChildItem"])
def test_literal_shortcut_does_not_allow_a_line_too_large_to_walk(program: str) -> None:
    # Its syntax nodes and words together exceed the walk's work budget: the walk blocks it as too large to
    # check, and the shortcut, which counts no work, must not allow it instead.
    backend = "powershell" if "-" in program else "posix"
    command = program + " " + " ".join(["a"] * 3500)
    policy = Policy.load()
    decision = policy.check(command, backend)  # type: ignore[arg-type]
    assert decision == _full_walk(policy, command, backend)
    assert not decision.allowed and decision.rule_id == "size.exceeded"
