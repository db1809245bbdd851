"""Literal screens and clause tables only ever skip work that could not change a decision.

`_screens.required_sets` reads off a pattern the strings every match contains; `PatternList` runs only the
patterns whose strings a long payload holds; `clause_table` tries only the clauses whose subcommand test
the first operand can pass. Each must give exactly what running everything gives.
"""

from __future__ import annotations

import itertools
import re

import pytest

from glmagent.guard import Policy
from glmagent.guard._compiled import clause_table, matching_clauses
from glmagent.guard._models import Decision, PayloadClause
from glmagent.guard._rules import SCRIPT_EXTENSIONS, CommandView
from glmagent.guard._screens import SCREENED_FROM, CaselessScreen, PatternList, literal_screen, required_sets
from glmagent.guard._syntax import DYN, Arg


def _lit(text: str) -> Arg:
    return Arg(text, text)


@pytest.fixture(scope="module")
def policy() -> Policy:
    return Policy.default()


def _payload_rules(policy: Policy) -> list[tuple[list[re.Pattern[str]], list[str]]]:
    """Per rule with payload clauses: its patterns, and its example lines (payloads written inside them)."""
    found = []
    for rule in policy.rules:
        patterns = [
            re.compile(p)
            for clause in rule.when
            if isinstance(clause, PayloadClause)
            for p in clause.patterns
        ]
        if patterns:
            found.append((patterns, [e.removeprefix("PS> ") for e in [*rule.match, *rule.not_match]]))
    return found


def _holds(needles: tuple[str, ...], text: str, flags: int) -> bool:
    return any(re.search(re.escape(n), text, flags & (re.IGNORECASE | re.ASCII)) for n in needles)


def test_every_match_holds_one_string_of_each_required_set(policy: Policy) -> None:
    """Soundness on every payload pattern of the default policy, against every example line of its rule
    in its own case and upper-cased."""
    checked = 0
    for patterns, examples in _payload_rules(policy):
        texts = examples + [t.upper() for t in examples]
        for pattern in patterns:
            sets = required_sets(pattern.pattern, pattern.flags)
            for text in texts:
                if pattern.search(text) is None:
                    continue
                checked += 1
                for needles in sets:
                    assert _holds(needles, text, pattern.flags), (pattern.pattern, needles, text)
    assert checked > 200  # the examples exercise the patterns


@pytest.mark.parametrize(
    ("pattern", "flags", "expected"),
    [
        (r"\bfrom\s+(os|shutil)\s+import\b[^;\n]{0,300}\b(remove|unlink)\b", 0, ("remove", "unlink")),
        (r"(?i)\bcopy\b[^;]*\bprogram\b", 0, ("program",)),
        (r"\brmtree\b", 0, ("rmtree",)),
        (r"(?:ab)+c", 0, ("ab",)),
    ],
)
def test_required_sets_read_the_strings_a_match_needs(
    pattern: str, flags: int, expected: tuple[str, ...]
) -> None:
    assert expected in required_sets(pattern, flags)


@pytest.mark.parametrize(
    "pattern",
    [r"(?:ab)*c?", r"a|\d", r"(?i:abc)", r"[abc]+", r"x{0,3}"],
)
def test_an_optional_or_flagged_part_requires_nothing(pattern: str) -> None:
    """Nothing is required from what may be absent (`*`, `?`, an alternative without literals) or from a
    part under an inline flag (its literals may match differently)."""
    assert required_sets(pattern) == ()


def test_a_case_insensitive_pattern_is_screened_without_case() -> None:
    patterns = [re.compile(r"(?i)\bcopy\b[^;]*\bprogram\b")]
    listed = PatternList.build(patterns, {})
    text = "x " * SCREENED_FROM + "COPY t FROM PROGRAM 'id'"
    found = listed.search(text, {})
    assert found is not None and found.group(0) == "COPY t FROM PROGRAM"


def test_long_payloads_find_what_every_pattern_in_order_finds(policy: Policy) -> None:
    """Each clause's patterns behind their screens give the first pattern's leftmost match, as searching
    them all in order does, on long payloads (where the screens are used)."""
    index = policy._compiled.index
    padding = "value = compute(1, 2)\n" * (SCREENED_FROM // 20 + 1)
    examples = [e for _, found in _payload_rules(policy) for e in found]
    texts = [padding + e + "\n" + padding for e in examples[::8]]
    compared = 0
    for entries in index.payloads.values():
        for _rule, _clause, listed in entries:
            for text in texts:
                memo: dict[int, bool] = {}
                got = listed.search(text, memo)
                want = next((m for p in listed.patterns if (m := p.search(text)) is not None), None)
                if want is None:
                    assert got is None, (listed.patterns, text)
                    continue
                compared += 1
                assert got is not None, (listed.patterns, text)
                if listed.can_join:  # one alternation: the leftmost match of any pattern
                    want = re.compile("|".join(f"(?:{p.pattern})" for p in listed.patterns)).search(text)
                    assert want is not None
                assert (got.span(), got.group(0)) == (want.span(), want.group(0))
    assert compared > 100


def test_a_long_import_list_skips_the_pattern_it_cannot_match(policy: Policy) -> None:
    """`from os import a, a, …` holds no delete function: the from-import delete pattern (which would try
    every `from` start against 300 characters) is never run."""
    text = "from os import a, " * 3000
    entries = policy._compiled.index.payloads["python"]
    rule, _, listed = next(e for e in entries if e[0].id == "destructive.payload-delete")
    at = next(i for i, p in enumerate(listed.patterns) if "import" in p.pattern)
    memo: dict[int, bool] = {}
    assert listed.search(text, memo) is None
    assert any(memo.get(id(trie)) is False for trie in listed.screens[at])
    decision = policy.check(f"python -c '{text}'", "posix")
    assert decision.rule_id != rule.id


def test_a_payload_screened_out_is_still_judged_by_the_rest(policy: Policy) -> None:
    text = "x = 1\n" * 400 + "import shutil; shutil.rmtree('/home')"
    decision = policy.check(f'python -c "{text}"', "posix")
    assert decision.rule_id == "destructive.payload-delete"


_GIT = [
    ["git", "status"],
    ["git", "clean", "-fdx"],
    ["git", "CLEAN", "-fdx"],
    ["git", "-C", "x", "clean", "-fdx"],
    ["git", "push", "--force"],
    ["git", "config", "core.pager", "less"],
    ["git", "submodule", "foreach", "rm -rf x"],
    ["git"],
    ["git", "--version"],
    ["git", DYN, "-fdx"],
    ["git", "remote", "add", "o", "https://example.com/x.git"],
    ["git", "rm", "-r", "--cached", "build/"],
]


@pytest.mark.parametrize("words", _GIT, ids=" ".join)
@pytest.mark.parametrize("dialect", ["posix", "powershell"])
def test_the_clause_table_tries_every_clause_that_may_match(
    policy: Policy, words: list[str], dialect: str
) -> None:
    compiled = policy._compiled
    info = compiled.word_info("git", dialect, {})  # type: ignore[arg-type]
    table = clause_table(info.clauses)
    assert table is not None and info.clause_table is not None
    argv = [_lit(w) for w in words]
    view = CommandView(info.names, argv, dialect, info.syntax)  # type: ignore[arg-type]
    every = matching_clauses(info.clauses, view)
    view = CommandView(info.names, argv, dialect, info.syntax)  # type: ignore[arg-type]
    assert matching_clauses(info.clauses, view, table) == every


def test_a_clause_table_skips_the_subcommand_clauses_of_another_subcommand(policy: Policy) -> None:
    info = policy._compiled.word_info("git", "posix", {})
    assert info.clause_table is not None
    tried = info.clause_table.get("status", info.clause_table[""])
    assert len(tried) < len(info.clauses) / 2


def test_decisions_hold_their_fields_in_declared_order() -> None:
    """`Decision.allow`/`block` build the record directly: the same fields, in the same order, as the
    keyword constructor (what `model_dump` and the JSON output list)."""
    allowed = Decision.allow("ls", "posix", "fine", "ok")
    assert list(allowed.__dict__) == list(Decision._fields)
    assert Decision(**allowed.model_dump()) == allowed
    policy = Policy.default()
    blocked = policy.check("rm -rf /", "posix")
    assert list(blocked.__dict__) == list(Decision._fields)
    assert Decision(**blocked.model_dump()) == blocked


def _every_glob(index: object, names: tuple[str, ...]) -> list[object]:
    """What `commands_for` gives when every glob is tried: the reference the trigram screen must equal."""
    found: list[object] = []
    for name in names:
        for compiled in index.by_name.get(name, ()):  # type: ignore[attr-defined]
            if not any(c is compiled for c in found):
                found.append(compiled)
    script = names[0].endswith(SCRIPT_EXTENSIONS)  # a script file: only tools that ship as scripts
    for name in () if script else names:  # cmdlets named by noun under their verbs (`CommandClause.verbs`)
        verb, dash, noun = name.partition("-")
        for nouns, compiled in index.by_verb.get(verb, ()) if dash else ():  # type: ignore[attr-defined]
            if nouns.match(noun) and not any(c is compiled for c in found):
                found.append(compiled)
    for _, pattern, compiled in index.by_glob:  # type: ignore[attr-defined]
        if script and not compiled.script_names:  # type: ignore[attr-defined]
            continue
        if any(pattern.match(n) for n in names) and not any(c is compiled for c in found):
            found.append(compiled)
    return found


def _names_globs_match(glob: str) -> list[str]:
    """Names a command glob matches: its wildcards filled in short and long, and in upper case."""
    short = re.sub(r"\[[^\]]*\]", "a", glob).replace("*", "").replace("?", "x")
    long = re.sub(r"\[[^\]]*\]", "a", glob).replace("*", "zq-").replace("?", "y")
    return [short, long, short.upper(), f"{short}.exe"]


def test_the_glob_screen_finds_every_clause_a_full_scan_finds(policy: Policy) -> None:
    """`commands_for` tries only the globs sharing a trigram with a name: on names each glob matches, a
    tenth of the names the policy lists, alias pairs and names that are not ASCII, it equals trying them
    all."""
    index = policy._compiled.index
    names: list[tuple[str, ...]] = [(n,) for n in sorted(index.by_name)[::10]]
    for _, pattern, _ in index.by_glob:
        glob = pattern.pattern
        source = next((k for k in index.by_glob if k[1] is pattern), None)
        assert source is not None
        head, tail, pieces = source[0]
        literal = "x".join(pieces) or glob
        names += [(n.lower(),) for n in _names_globs_match(literal)]
        names.append((f"{head}{tail}", "remove-item"))
    names += [("invoke-ınveigh",), ("téamviewer",), ("ab",), ("",), ("get-aduser", "gu")]
    hits = 0
    for group in names:
        got = index.commands_for(group)
        assert got == _every_glob(index, group), group
        hits += bool(got)
    assert hits > len(index.by_glob), "the names must reach the globs, or the comparison proves nothing"


@pytest.mark.parametrize(
    "needles",
    [
        ["ab", "abc", "abd", "b", "bc", "ca"],
        ["curl", "cu", "curlie", "wget", "wg", "w"],
        ["x.y", "x", "x.", "[", "[a"],
        ["net", "netsh", "netcat", "nc", "ncat", "n"],
    ],
)
def test_a_literal_screen_finds_exactly_the_texts_holding_a_needle(needles: list[str]) -> None:
    """Needles that extend another are dropped from the trie; the screen still finds what any needle finds."""
    screen = literal_screen(needles)
    assert screen is not None
    alphabet = sorted({c for n in needles for c in n} | {"z"})
    texts = [a + b + c for a in alphabet for b in alphabet for c in alphabet] + [*needles, ""]
    for text in texts:
        assert (screen.search(text) is not None) == any(n in text for n in needles), text


@pytest.mark.parametrize(
    "needles",
    [
        ["skip", "ki", "Is"],
        ["id_rsa", ".ssh/", "kube"],
        ["s", "k", "i"],
        ["aws/credentials", "SECRET", "token"],
    ],
)
def test_a_caseless_screen_finds_in_any_text_what_ignorecase_finds(needles: list[str]) -> None:
    """Text beyond ASCII is searched as its UTF-8 bytes: on texts of ASCII letters in both cases, the four
    characters IGNORECASE matches to ASCII letters (`ſ` is `s`, Kelvin's `K` is `k`, `İ` and `ı` are `i`),
    look-alikes it does not (`ß`, Greek and Cyrillic letters, an emoji, a combining dot, a lone surrogate),
    it finds exactly what the IGNORECASE search finds."""
    screen = CaselessScreen.of(needles)
    assert screen is not None
    odd = [
        "\u0130",
        "\u0131",
        "\u017f",
        "\u212a",
        "\u00df",
        "\u03c3",
        "\u0456",
        "\U0001f6a8",
        "\u0307",
        "\udcff",
    ]
    pieces = sorted({c for n in needles for c in n + n.upper()} | {"x", "/"}) + odd
    texts = ["".join(t) for t in itertools.product(pieces, repeat=2)]
    texts += [
        a + n.translate(str.maketrans("sSkKiI", "\u017f\u017f\u212a\u212a\u0131\u0130"))
        for n in needles
        for a in odd
    ]
    found = 0
    for text in texts:
        text += "\u00e9"  # (never ASCII, so the byte search is what is tested)
        expected = screen.folding.search(text) is not None
        assert (screen.search(text) is not None) == expected, text
        assert screen.found(text, None) == expected, text
        found += expected
    assert found > len(needles), "the texts must reach the needles, or the comparison proves nothing"


def _filled(glob: str, filler: str) -> str:
    """A word `glob` matches, its `*` each filled with `filler`."""
    return re.sub(r"\[[^\]]*\]", "a", glob).replace("*", filler).replace("?", "x")


def test_long_words_screened_one_by_one_leave_every_clause_verdict_as_it_was(
    policy: Policy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clause's screen is searched in each long word before its glob regex reads the word (when the words
    together hold a literal): for every `args_any`/`operands_any` glob of the policy, a long word it matches,
    beside and after a long word it does not, gets the verdict reading every word gave."""
    from glmagent.guard import _rules

    cases: list[tuple[_rules.CompiledCommand, list[Arg], str]] = []
    for rule in policy.rules:
        for clause in rule.when:
            globs = [*getattr(clause, "args_any", ()), *getattr(clause, "operands_any", ())]
            if not globs or not hasattr(clause, "args_any"):
                continue
            compiled = _rules.CompiledCommand.build(rule, clause)  # type: ignore[arg-type]
            dialect = sorted(compiled.shells)[0]
            for glob in globs:
                hit = _lit(_filled(glob, "q" * 300))
                miss = _lit("--color" + "=autr" * 100)
                for argv in ([_lit("tool"), hit], [_lit("tool"), miss, hit], [_lit("tool"), hit, miss]):
                    cases.append((compiled, argv, dialect))
    assert len(cases) > 300

    def verdicts() -> list[tuple[int, str]]:
        return [c.check(CommandView(("tool",), argv, d)) for c, argv, d in cases]  # type: ignore[arg-type]

    screened = verdicts()
    monkeypatch.setattr(_rules, "_SCREENED_WORD", 10**9)  # every word read by the regex
    assert screened == verdicts()
    assert sum(state > 0 for state, _ in screened) > len(cases) // 3, "the words must reach the clauses"


def _pieces_reference(screen: object, texts: str) -> bool:
    """The handed screen's file-suffix test as a loop over the pieces between separators."""
    for piece in re.split(r"[\n,;=:\"' ]", texts):
        dot = piece.rfind(".")
        if dot >= 0 and piece[dot + 1 :].lower() in screen.extensions:  # type: ignore[attr-defined]
            return True
        if ".so." in piece:
            return True
    return False


def test_the_file_suffix_search_finds_every_piece_the_loop_over_pieces_finds(policy: Policy) -> None:
    """One regex search stands for a loop over every piece of every word: on words built from extensions,
    near misses, separators, dots and case changes, it finds at least what the loop finds, and (the
    folding of `re.IGNORECASE` aside, which only adds) nothing else."""
    import itertools

    screen = policy._compiled.handed_screen
    tokens = ["x", ".", "py", "PY", "pyw", "so", ".so.", "dll", "exe1", "appref-ms", "-", "/"]
    tokens += ["c", "Cc", "vb", "vbe"]  # extensions that extend another
    separators = ["", ",", "=", ":", "\n", "'", " "]
    found = 0
    for a, sep, b, c in itertools.product(tokens, separators, tokens, tokens):
        text = f"{a}{sep}{b}.{c}" if sep else f"{a}{b}.{c}"
        if " " in text or "\t" in text:
            continue  # the screen answers True for these before it looks at suffixes
        expected = _pieces_reference(screen, text)
        got = screen.file_suffix.search(text) is not None if "." in text else False
        assert got == expected, text
        # ASCII text is searched lower-cased without IGNORECASE: the same answer, for both lists
        assert screen._names_file(text, code=True) == got, text
        assert screen._names_file(text, code=False) == (screen.anywhere_suffix.search(text) is not None), text
        found += expected
    assert found > 1000
    assert screen.file_suffix.search("tool " + "a=" * 50_000 + "/tmp/x.so") is not None
    assert screen.file_suffix.search("tool " + "a=" * 50_000 + "/tmp/x.txt") is None
    for text in [
        "x.SO.1",
        "x.so.1",
        "x.\u017fo",
        "x.P\u0130F",
        "a.e\u212aE",
        "x.py\u00e9",
        "\u00e9.PY",
        "x.EXE",
    ]:
        for code, pattern in ((True, screen.file_suffix), (False, screen.anywhere_suffix)):
            assert screen._names_file(text, code) == (pattern.search(text) is not None), (text, code)


@pytest.mark.parametrize(
    "words", ["tests/test_x.py", "./src/app.py\n-q", "-x\nsrc/main.rs", "lib/libfoo.so.1", "x.py"]
)
def test_a_source_by_a_plain_relative_path_is_passed_over_while_the_line_stays_put(
    policy: Policy, words: str
) -> None:
    # Judged only by where it lies, and it lies in the project: no need to call `_handed_code` for it.
    screen = policy._compiled.handed_screen
    assert screen.search(words)  # after a `cd` it may lie anywhere
    assert not screen.search(words, moved=False)


@pytest.mark.parametrize(
    "words",
    [
        "../other/x.py",
        "/tmp/x.py",
        "~/x.py",
        "--rcfile=x.py",
        "C:x.py",
        "src\\x.py",
        "a.py,/tmp/b.py",
        "setup.inf",  # a code host's file acts wherever it is
        "tools/x.exe",  # so does a Windows program handed to a launcher
        "tests/x.py\n--\n/bin/sh",
        "@../args.rsp",  # a response file read from outside
    ],
)
def test_other_code_words_still_reach_the_handed_code_checks(policy: Policy, words: str) -> None:
    assert policy._compiled.handed_screen.search(words, moved=False)


@pytest.mark.parametrize(
    ("command", "allowed"),
    [
        ("pytest -q tests/test_x.py", True),
        ("python scripts/gen.py", True),
        ("cd src && python ../../x.py", False),  # the relative path leaves the project after the cd
        ("cd src && pytest ../../x.py", False),
        ("python ../x.py", False),
        ("pytest /tmp/x.py", False),
    ],
)
def test_where_a_handed_source_lies_still_decides(policy: Policy, command: str, allowed: bool) -> None:
    assert policy.check(command, "posix").allowed is allowed
