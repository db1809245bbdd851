"""Checks stay bounded: a line too large to parse or walk in the time a check may take is blocked as
`size.exceeded` (never allowed, never a crash), and inputs that made parts of the policy blow up no longer do.
How fast is measured in bench/policy_bench.py; these tests only prove the behaviour."""

from __future__ import annotations

import itertools
import os
import random
import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

from glmagent.guard import Policy, _parse_posix, _parse_powershell, _syntax
from glmagent.guard._engine import CMD_MAX_LINE, WINDOWS_MAX_LINE
from glmagent.guard._syntax import (
    DISK_LOOKUP_WORK,
    FED_WRAPPER_WORK,
    MAX_WORK,
    PAYLOAD_CHARS_PER_UNIT,
    REDIRECT_WORK,
    SCRIPT_CHARS_PER_UNIT,
    SCRIPT_WORK,
)


@pytest.fixture
def untimed_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsing never runs out of time, so a test sees the deterministic budget whatever the machine's load."""
    monkeypatch.setattr(_syntax, "PARSE_BUDGET_S", 600.0)


def check(command: str, shell: str = "posix"):  # type: ignore[no-untyped-def]
    return Policy.default().check(command, shell)  # type: ignore[arg-type]


def assert_too_large(command: str, shell: str = "posix", *, says: str) -> None:
    decision = check(command, shell)
    assert not decision.allowed
    assert decision.rule_id == "size.exceeded", decision
    assert decision.category == "unverifiable"
    assert says in decision.reason, decision.reason
    assert "Split the work into smaller commands" in (decision.justification or "")


@pytest.mark.parametrize(
    ("command", "shell"),
    [
        ("ls; " * 10_000, "posix"),
        ("cat x && " * 3_000 + "cat", "posix"),
        ("rm a.o " + "b.o " * 8_000, "posix"),
        ("$x = 1; " * 5_000, "powershell"),
        ("gci | " * 3_000 + "gci", "powershell"),
    ],
)
@pytest.mark.usefixtures("untimed_parsing")
def test_a_line_with_too_many_commands_or_words_is_blocked(command: str, shell: str) -> None:
    assert_too_large(command, shell, says=f"more than {MAX_WORK:,} syntax nodes and words")


@pytest.mark.usefixtures("untimed_parsing")
def test_the_budget_counts_nested_scripts_too() -> None:
    inner = "ls; " * (MAX_WORK // 4)
    assert check(inner[: len(inner) // 3]).allowed
    assert_too_large(f"sh -c '{inner}'", says="syntax nodes and words")
    assert_too_large(f"bash <<'EOF'\n{inner}\nEOF", says="syntax nodes and words")


@pytest.mark.usefixtures("untimed_parsing")
def test_writes_judged_against_the_working_directory_cost_more_of_the_budget(tmp_path: Path) -> None:
    """Each new file written is judged where it lands (looked up on the disk in a known working directory,
    placed in a fresh checkout without one), which costs several syntax nodes' walk: a line of hundreds of
    them runs out of budget, where the same count of plain words would not."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    per_write = 10  # syntax nodes and words of `make > outN.txt;`
    many = MAX_WORK // (per_write + DISK_LOOKUP_WORK) + 20
    line = "".join(f"make > out{i}.txt; " for i in range(many))
    policy = Policy.default()
    in_project = policy.check(line, "posix", cwd=str(tmp_path))
    assert in_project.rule_id == "size.exceeded", in_project
    assert "syntax nodes and words" in in_project.reason
    assert policy.check(line, "posix").rule_id == "size.exceeded"  # a fresh checkout judges each place too
    assert many * per_write < MAX_WORK  # without the extra cost the line would fit
    few = "".join(f"make > out{i}.txt; " for i in range(100))
    assert policy.check(few, "posix", cwd=str(tmp_path)).allowed


@pytest.mark.usefixtures("untimed_parsing")
def test_redirections_cost_more_of_the_budget_than_their_syntax_nodes() -> None:
    """Judging a redirection's target takes as long as walking several nodes: a line of a thousand appends
    to different files runs out of budget, where the same count of plain words would not."""
    per_append = 3  # syntax nodes of ` >> lN`
    many = MAX_WORK // (per_append + REDIRECT_WORK) + 20
    assert many * per_append < MAX_WORK  # without the extra cost the line would fit
    line = "echo x" + "".join(f" >> log{i}" for i in range(many))
    decision = Policy.default().check(line, "posix")
    assert decision.rule_id == "size.exceeded", decision
    assert Policy.default().check("echo x" + "".join(f" >> log{i}" for i in range(100)), "posix").allowed


@pytest.mark.usefixtures("untimed_parsing")
def test_nested_scripts_cost_more_of_the_budget_than_their_syntax_nodes() -> None:
    """Each nested script is parsed and walked on its own: a line of hundreds of tiny ones (`sh -c 'ls';
    sh -c 'ls'; …`) runs out of budget; a few stay fine."""
    stage = "sh -c 'ls'; "
    assert Policy.default().check(stage * 20 + "ls", "posix").allowed
    # A stage walks about 14 units of nodes and words and holds one nested script: 250 stages fit the budget
    # by their nodes alone, and exceed it with each script's extra cost.
    many = MAX_WORK // 18
    assert many * 15 < MAX_WORK < many * (14 + SCRIPT_WORK)
    decision = Policy.default().check(stage * many + "ls", "posix")
    assert decision.rule_id == "size.exceeded", decision


@pytest.mark.usefixtures("untimed_parsing")
def test_a_pipe_feeding_a_wrapper_costs_more_of_the_budget() -> None:
    """`… | xargs CMD` works out what the pipe carries and judges CMD with it: hundreds of such stages run
    out of budget where the same stages without the feed would not."""
    fed = "echo x | xargs ls; "  # about 16 units of nodes and words, and the feed's extra cost
    assert Policy.default().check(fed * 20 + "ls", "posix").allowed
    many = MAX_WORK // 27
    assert many * 17 < MAX_WORK < many * (16 + FED_WRAPPER_WORK)
    decision = Policy.default().check(fed * many + "ls", "posix")
    assert decision.rule_id == "size.exceeded", decision
    assert Policy.default().check("echo x | ls; " * many + "ls", "posix").allowed


@pytest.mark.usefixtures("untimed_parsing")
def test_an_inline_program_costs_the_budget_by_its_length() -> None:
    """A language's patterns search an inline program at about a microsecond a character: one longer than
    the budget pays for is too large before it is searched; an everyday one costs little."""
    line = "x = 1 + 2; " * 200
    assert Policy.default().check(f"python -c '{line}'", "posix").allowed
    huge = "x = 1 + 2; " * ((MAX_WORK * PAYLOAD_CHARS_PER_UNIT) // 11 + 100)
    decision = Policy.default().check(f"python -c '{huge}'", "posix")
    assert decision.rule_id == "size.exceeded", decision


def test_a_parse_over_its_time_budget_is_blocked_and_the_parser_recovers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_syntax, "PARSE_BUDGET_S", 0.0)  # every timed parse runs out at once
    long_line = "git status && " * 300 + "ls"  # long enough to be timed
    assert_too_large(long_line, says="parsing the command takes longer than 0 ms")
    assert_too_large("Get-ChildItem; " * 300, "powershell", says="parsing the command takes longer")
    monkeypatch.setattr(_syntax, "PARSE_BUDGET_S", 30.0)
    # The stopped parser starts afresh: the same parsers read the next commands correctly.
    assert check(long_line).allowed
    assert check("rm -rf ~").rule_id == "destructive.recursive-delete"
    assert check("Remove-Item -Recurse x", "powershell").rule_id == "destructive.recursive-delete"


def test_short_commands_are_never_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_syntax, "PARSE_BUDGET_S", 0.0)
    assert check("git status && pytest -q").allowed
    assert check("rm -rf ~").rule_id == "destructive.recursive-delete"


@pytest.mark.usefixtures("untimed_parsing")
def test_a_cmd_line_longer_than_cmd_accepts_is_blocked() -> None:
    line = "dir & " * (CMD_MAX_LINE // 6 + 1)
    assert_too_large(f'cmd /c "{line}"', says="longer than cmd.exe accepts (8,191 characters)")
    assert check('cmd /c "dir & dir"').allowed


@pytest.mark.usefixtures("untimed_parsing")
def test_a_windows_launchers_command_line_longer_than_windows_starts_is_blocked() -> None:
    line = "x " * (WINDOWS_MAX_LINE // 2 + 1)
    assert_too_large(f'forfiles /p . /c "{line}"', shell="powershell", says="longer than Windows starts")
    assert check('forfiles /p . /m *.cs /c "cmd /c echo @file"', "powershell").allowed


@pytest.mark.usefixtures("untimed_parsing")
def test_brace_expansion_is_bounded_by_work_not_only_by_words() -> None:
    # A long word with braces would make 1,024 copies of itself.
    assert_too_large("echo " + "x" * 50_000 + "{a,b}" * 10, says="words with braces are too long")
    # Deeply nested braces stand for a word only known at run time instead of taking seconds.
    assert check("echo " + "{a," * 500 + "b" + "}" * 500).allowed
    assert check("rm -r" + "{a," * 500 + "b" + "}" * 500 + " x").rule_id is not None
    # Ordinary expansions are unchanged.
    assert check("rm -r{,f} x").rule_id == "destructive.recursive-delete"
    words = _parse_posix._expand_braces(_parse_posix._active("x{a,b}{c,d}"), _parse_posix.BRACE_LIMIT)
    assert words == ["xac", "xad", "xbc", "xbd"]


def test_respelling_powershell_quotes_cannot_grow_exponentially() -> None:
    glued = "echo " + "'a''b'\"c`\"d\"" * 40  # each glued string used to double the quotes before it
    assert _parse_powershell.repair(glued) is None
    assert not check(glued, "powershell").allowed  # the parse error stands: blocked, fail-closed
    assert _parse_powershell.repair("git log --grep='a b'") == "git log '--grep=a b'"


@pytest.mark.usefixtures("untimed_parsing")
def test_a_delete_of_many_files_is_judged_once_per_file() -> None:
    # Thousands of targets inside the budget: each is judged against the project, none is outside it.
    decision = check("rm " + " ".join(f"build/f{n}.o" for n in range(2_000)))
    assert decision.allowed, decision.reason
    decision = check("rm " + " ".join(f"build/f{n}.o" for n in range(2_000)) + " /etc/passwd")
    assert not decision.allowed


def test_a_bash_line_with_too_many_pipes_is_blocked_before_it_is_parsed() -> None:
    # The bash grammar's time grows with the square of a pipeline's length and cannot be interrupted.
    assert_too_large("a -c | " * 300 + "b", says="more than 256 pipes")
    assert_too_large("a |& " * 300 + "b", says="more than 256 pipes")
    # Quoted bars and `||` are not pipes.
    assert check("grep -E '" + "|".join(["x"] * 400) + "' f").allowed
    assert check("true || " * 300 + "true").allowed
    assert check("git log | head -5").allowed


def test_a_long_powershell_script_with_a_parse_error_is_not_respelled() -> None:
    # Respelling reads the script character by character: past REPAIR_MAX the parse error simply blocks.
    script = "Select-Object Name, Length\n" + "# comment\n" * 2_500
    decision = check(script, "powershell")
    assert not decision.allowed and decision.rule_id == "parse.error"
    assert check("Get-ChildItem | Select-Object Name, Length", "powershell").allowed


def test_explaining_a_line_too_large_to_parse_names_why(capsys: pytest.CaptureFixture[str]) -> None:
    from glmagent.cli import main

    line = "a -c | " * 300 + "b"
    assert main(["policy", "explain", "--tree", line]) == 1
    out = capsys.readouterr().out
    assert out.startswith("BLOCKED (posix, deny mode) by size.exceeded [unverifiable]")
    assert "syntax tree:\n(not shown: the command holds more than 256 pipes)" in out


class _CountingScreen:
    """Stands in for the argument-wide rules' screen, counting the texts it searches."""

    def __init__(self, screen) -> None:  # type: ignore[no-untyped-def]
        self.screen = screen
        self.longest = screen.longest
        self.searched: list[str] = []

    def search(self, text: str):  # type: ignore[no-untyped-def]
        self.searched.append(text)
        return self.screen.search(text)


@pytest.mark.parametrize(
    ("command", "allowed"),
    [
        # the word hides command lines: the walk still reads them
        ("tool '{word}'", False),
        # a wrapper hands a script on, whose command hands the word on again
        ('nix develop --command bash -c "tool {word}"', True),
        ("{word} | tool {word}", True),
    ],
)
@pytest.mark.usefixtures("untimed_parsing")
def test_a_long_word_is_screened_for_argument_rules_once(command: str, allowed: bool) -> None:
    """The fast path searches a command's words for argument-wide rules before it hands the line to the
    walk; the walk does not search the same texts again (a 100 kB word costs milliseconds a search), nor a
    long text found clean again for a nested or later command."""
    policy = Policy.default()
    compiled = policy._compiled
    entries, screen = compiled.argument_rules["posix"]
    counting = _CountingScreen(screen)
    compiled.argument_rules["posix"] = (entries, counting)
    word = "x; sh " * 2_000 if not allowed else "lib/Wallet.h" * 500
    try:
        decision = policy.check(command.format(word=word), "posix")
    finally:
        compiled.argument_rules["posix"] = (entries, screen)
    assert decision.allowed == allowed, decision
    assert len(counting.searched) == len(set(counting.searched)), [t[:20] for t in counting.searched]
    assert any(word in text for text in counting.searched)


@pytest.mark.usefixtures("untimed_parsing")
def test_words_handed_on_within_a_long_text_found_clean_are_not_searched_again() -> None:
    """The screen finds literal fragments, so what a wrapper hands on (`bash -c "…"`, then the script's
    words), joined anew, lies within a text already found clean and needs no search of its own."""
    policy = Policy.default()
    compiled = policy._compiled
    entries, screen = compiled.argument_rules["posix"]
    counting = _CountingScreen(screen)
    compiled.argument_rules["posix"] = (entries, counting)
    word = "lib/Wallet.h" * 500
    try:
        decision = policy.check(f'nix develop --command bash -c "hls {word}"', "posix")
    finally:
        compiled.argument_rules["posix"] = (entries, screen)
    assert decision.allowed, decision
    searched = counting.searched
    within = [t[:20] for i, t in enumerate(searched) if any(t in earlier for earlier in searched[:i])]
    assert not within, within
    # the walk still finds a fragment beside the long word
    assert not policy.check(
        f'nix develop --command bash -c "hls {word}; cat ~/.aws/credentials"', "posix"
    ).allowed


@pytest.mark.usefixtures("untimed_parsing")
def test_a_long_word_after_cd_is_searched_in_full_once() -> None:
    """After `cd` out of the project each word is also read as the path it names there (`/web/` + the word):
    what it adds to a word found clean is searched at the seam alone, and a word before the first fragment
    a text was found to hold is clean without a search of its own."""
    policy = Policy.default()
    compiled = policy._compiled
    entries, screen = compiled.argument_rules["posix"]
    counting = _CountingScreen(screen)
    compiled.argument_rules["posix"] = (entries, counting)
    word = "--dist" + "is" * 20_000 + "-dir"
    try:
        decision = policy.check(f"cd ../web && parcel {word} ../d --config ../b/.rc x", "posix")
    finally:
        compiled.argument_rules["posix"] = (entries, screen)
    assert decision.allowed, decision
    assert len([t for t in counting.searched if len(t) > len(word) // 2]) == 1, [
        len(t) for t in counting.searched
    ]


class _MeasuredOptions:
    """Stands in for one clause's machine options, recording how much text its screen reads."""

    def __init__(self, options, read: list[int]) -> None:  # type: ignore[no-untyped-def]
        self.options = options
        self.read = read

    def screen(self, texts: str) -> bool:
        self.read.append(len(texts))
        return self.options.screen(texts)


@pytest.mark.usefixtures("untimed_parsing")
def test_machine_option_screens_read_the_heads_of_long_words_only() -> None:
    """The screens for options whose value names a machine (`psql --host=…`) look for a name at the start
    of a word: a dozen of them each scanning a 100 kB word cost more than an everyday check. Past a few kB
    they read each option word's head only, and still find the option after the long word."""
    policy = Policy.default()
    compiled = policy._compiled
    saved = compiled._machine_options["posix"]
    read: list[int] = []
    compiled._machine_options["posix"] = [_MeasuredOptions(o, read) for o in saved]
    word = "a." * 6_000
    try:
        assert policy.check(f"psql -f schema.sql {word}", "posix").allowed
        found = policy.check(f"psql -f schema.sql {word} --host=db.prod.internal", "posix")
    finally:
        compiled._machine_options["posix"] = saved
    assert found.rule_id == "network.locator", found
    assert read and max(read) < 1_000, max(read)


def test_a_word_listing_more_items_than_the_budget_left_is_split_no_further() -> None:
    """`pieces` stops one item past what the walk can still afford (the walk then blocks the line as too
    large, as it would have after splitting all of it); a word within the budget is split whole."""
    from glmagent.guard._handed import pieces

    word = "x.dll," * 16_000
    assert len(pieces(word, windows=False, most=10)) == 1 + 11  # the word itself, then 11 items
    assert len(pieces(word, windows=False)) == 1 + 16_000
    assert [p.text for p in pieces("a.dll,b.dll", windows=False, most=10)] == [
        "a.dll,b.dll",
        "a.dll",
        "b.dll",
    ]


@pytest.mark.usefixtures("untimed_parsing")
def test_a_word_of_thousands_of_listed_libraries_is_blocked_as_too_large() -> None:
    assert_too_large("tool " + "x.dll," * 16_000, says="syntax nodes and words")


@pytest.mark.usefixtures("untimed_parsing")
def test_a_nested_script_costs_the_budget_by_its_length() -> None:
    """A nested script's parse and the scans over its text cost by its length, whatever its nodes: pagers
    whose values hold the next pager (`A_PAGER=B_PAGER=…`, each walked again one level down) run out of
    budget before the depth limit; one long nested script of few nodes still fits."""
    assert check('sh -c "echo ' + "a" * 80_000 + '"').allowed
    assert MAX_WORK < 2 * (80_000 // SCRIPT_CHARS_PER_UNIT)
    assert_too_large("sh -c \"sh -c 'echo " + "a" * 80_000 + "'\"", says="syntax nodes and words")
    pagers = "DVC_PAGER=mo" + "C_PAGER=mo" * 9_000 + "re dvc exp show"
    assert_too_large(pagers, says="syntax nodes and words")  # (depth.exceeded, nine levels down, before)
    assert check("PAGER=less git log").allowed


class _ScriptedParser:
    """A parser whose parse reads its source in as many pieces as it is handed, as tree-sitter's does
    (recovering from an error, bash's grammar reads on to the end at every step), and never calls the
    progress callback."""

    def __init__(self) -> None:
        self.reads: list[bytes] = []
        self.resets = 0

    def parse(self, read, progress_callback):  # type: ignore[no-untyped-def]
        offset = 0
        while chunk := read(offset, (0, 0)):
            self.reads.append(chunk)
            offset += len(chunk)
        return object()

    def reset(self) -> None:
        self.resets += 1


def test_a_parse_is_stopped_at_its_deadline_while_it_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock is read at every read of the source, not only at the progress calls (every hundred steps of
    the parser, 70 ms apart on a 100 kB bash line recovering from an error): past the deadline the source
    ends, and the parse is refused as too large."""
    source = b"x" * 100_000
    clock = iter(range(0, 10**6))
    monkeypatch.setattr(
        _syntax, "time", SimpleNamespace(perf_counter=lambda: next(clock) / 1000)
    )  # 1 ms a call
    monkeypatch.setattr(_syntax, "PARSE_BUDGET_S", 0.020)
    _syntax.start_check()
    parser = _ScriptedParser()
    with pytest.raises(_syntax.TooLarge, match="parsing the command takes longer"):
        _syntax.parse_within_budget(parser, source)
    assert sum(map(len, parser.reads)) < len(source)
    assert parser.resets == 1
    monkeypatch.setattr(_syntax, "PARSE_BUDGET_S", 600.0)
    _syntax.start_check()
    parser = _ScriptedParser()
    _syntax.parse_within_budget(parser, source)
    assert b"".join(parser.reads) == source
    assert parser.resets == 0


_QUADRATIC_WILDCARD_PATH = re.compile(r"^[^\[]*[\\/][^\\/]*[*?[]|^[^\[]*[*?][^\\/]*[\\/]")
"""`_WILDCARD_PATH` as first written: it tried every wildcard of a word against the rest of the word."""


def test_the_wildcard_path_test_reads_a_word_once_and_decides_as_before() -> None:
    """Every word of up to six characters from separators, wildcards, brackets and a letter is a wildcard
    path to both expressions or to neither; 14,000 wildcards with no separator take one pass (7 s before)."""
    from glmagent.guard._engine import _WILDCARD_PATH

    alphabet = "a/\\*?[]"
    for size in range(7):
        for letters in itertools.product(alphabet, repeat=size):
            word = "".join(letters)
            expected = _QUADRATIC_WILDCARD_PATH.search(word) is not None
            assert (_WILDCARD_PATH.search(word) is not None) == expected, word
    decision = check("FILES_PATTERN=${1:-" + "*Test.-" * 14_000 + "}", "powershell")
    assert decision.rule_id == "dynamic.command-name", decision
    assert check(r"C:\Win*\x.exe /c", "powershell").rule_id == "dynamic.command-name"


@pytest.mark.skipif(os.name != "posix", reason="the shortcut is taken on POSIX paths only")
def test_a_deep_path_is_resolved_as_realpath_resolves_it(tmp_path: Path) -> None:
    """`real_path` skips the lookups below the first missing folder when only plain names follow: on paths
    of 33 to 50 parts through folders, a file, links in, out, up, dangling and looping, missing names, `.`,
    `..` and empty parts, it gives what `os.path.realpath` gives, and looks up no more than the folders that
    exist on the way."""
    from glmagent.guard._project import real_path

    root = os.path.realpath(tmp_path)
    os.makedirs(f"{root}/a/b/c")
    os.makedirs(f"{root}/d")
    Path(f"{root}/a/f").write_text("x")
    for name, target in [("ld", f"{root}/d"), ("b/up", ".."), ("loop", "loop"), ("dang", "/nonexistent/x")]:
        os.symlink(target, f"{root}/a/{name}")
    os.symlink("/", f"{root}/a/top")
    names = ["a", "b", "c", "d", "f", "ld", "up", "loop", "dang", "top", "x", "y"]
    odd = ["", ".", ".."]
    rng = random.Random(5)
    shortcuts = 0
    for _ in range(3_000):
        parts = [rng.choice(odd if rng.random() < 0.05 else names) for _ in range(rng.randint(33, 50))]
        path = root + "/" + "/".join(parts)
        assert real_path(path) == os.path.realpath(path), path
        shortcuts += not os.path.lexists(path)
    assert shortcuts > 1_000, "most paths must reach a missing folder, or the comparison proves little"
    deep = f"{root}/a/" + "x/" * 30_000 + "y"
    looked: list[str] = []
    real_lexists = os.path.lexists
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os.path, "lexists", lambda p: looked.append(p) or real_lexists(p))
        assert real_path(deep) == deep
    assert looked[-1] == f"{root}/a/x"  # the first missing folder: none below it is looked up
    assert len(looked) == root.count("/") + 2
