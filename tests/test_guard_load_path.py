"""The machinery that keeps a cached policy cheap to load: shapes and records instead of pydantic models and
dataclasses, regular expressions compiled on first use, and a screen that spares most glob regexes.

Start-up itself is measured by bench/startup_bench.py; these tests hold the behaviour the speed rests on.
"""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from glmagent.errors import PolicyError
from glmagent.guard import Decision, Policy, Rule
from glmagent.guard._cache import _PolicyUnpickler
from glmagent.guard._lazy import LazyPattern, lazy_re
from glmagent.guard._models import CommandClause, EngineClause
from glmagent.guard._rules import _may_match, glob_literals, glob_regex
from glmagent.guard._shape import many, record

RULE = """
version = 1
[[rule]]
id = "custom.deploy"
category = "destructive"
description = "is a deploy"
justification = "Deploys are for people to run, not agents."
match = ["deploy now"]
{extra}
[[rule.when]]
on = "command"
commands = ["deploy"]
{clause}
"""


def load(tmp_path: Path, text: str) -> Policy:
    path = tmp_path / "extra.toml"
    path.write_text(text, encoding="utf-8")
    return Policy.load([path], use_cache=False)


# -- shapes: what a policy file holds --
def test_a_shape_takes_keywords_fills_fresh_defaults_and_stays_frozen() -> None:
    one = CommandClause(on="command", commands=["rm"])
    two = CommandClause(on="command", commands=["rm"])
    assert one == two and one.flags_any == [] and one.flags_any is not two.flags_any
    assert one.shells == ["posix", "powershell", "cmd"]
    with pytest.raises(AttributeError, match="frozen"):
        one.commands = ["x"]  # type: ignore[misc]
    with pytest.raises(TypeError, match="no field 'bogus'"):
        CommandClause(on="command", commands=["rm"], bogus=1)
    with pytest.raises(TypeError, match="needs the field 'commands'"):
        CommandClause(on="command")


def test_a_shape_checks_itself_on_construction_and_on_replace() -> None:
    with pytest.raises(ValueError, match="must look like -x or --long"):
        CommandClause(on="command", commands=["find"], flags_any=["-delete"])
    clause = CommandClause(on="command", commands=["rm"], flags_any=["-r"])
    with pytest.raises(ValueError, match="must look like"):
        clause.replace(flags_any=["-rf-"])
    # `-?` as a glob spares a clause for any one-letter switch (`contig -s C:\$Mft`), not only for help
    for glob in ("-?", "/?"):
        with pytest.raises(ValueError, match=r"matches any one-letter switch"):
            CommandClause(on="command", commands=["contig"], args_none=[glob])
    CommandClause(on="command", commands=["contig"], args_none=["-[?]", "/[?]", "-r?*"])
    rule = Rule(
        id="a.b", category="destructive", description="is x", justification="because of it",
        when=[EngineClause(on="engine", event="fork-bomb")], match=["x"],
    )  # fmt: skip
    assert rule.shells == ["posix", "powershell"], "completed from its clauses, as validation did"


def test_a_rule_dumps_to_the_json_it_was_read_from(tmp_path: Path) -> None:
    policy = load(
        tmp_path, RULE.format(extra="", clause='flags_any = ["--now"]').replace("deploy now", "deploy --now")
    )
    rule = next(r for r in policy.rules if r.id == "custom.deploy")
    dumped = rule.model_dump(mode="json")
    assert dumped["when"][0]["commands"] == ["deploy"] and dumped["when"][0]["flags_any"] == ["--now"]
    assert dumped["shells"] == ["posix", "powershell"] and list(dumped)[:3] == [
        "id",
        "category",
        "description",
    ]


@pytest.mark.parametrize(
    ("extra", "clause", "message"),
    [
        ("", "bogus = 1", r"rule\.0\.when\.0\.command\.bogus: Extra inputs are not permitted"),
        ('shells = "posix"', "", r"rule\.0\.shells: Input should be a valid list"),
        ("", 'flags_any = ["-delete"]', r"rule\.0\.when\.0\.command: Value error, flag '-delete' must look"),
        (
            "",
            "fed_by = [{ commands = [] }]",
            r"when\.0\.command\.fed_by\.0\.commands: List should have at least 1",
        ),
    ],
)
def test_a_bad_policy_file_is_reported_where_it_is_wrong(
    tmp_path: Path, extra: str, clause: str, message: str
) -> None:
    with pytest.raises(PolicyError, match=message):
        load(tmp_path, RULE.format(extra=extra, clause=clause))


def test_a_clause_of_no_known_kind_is_named(tmp_path: Path) -> None:
    text = RULE.format(extra="", clause="").replace('on = "command"', 'on = "nothing"')
    with pytest.raises(PolicyError, match=r"rule\.0\.when\.0: Input tag 'nothing' found using 'on'"):
        load(tmp_path, text)


def test_a_rule_id_keeps_its_pattern(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match=r"rule\.0\.id: String should match pattern"):
        load(tmp_path, RULE.format(extra="", clause="").replace("custom.deploy", "Custom.Deploy"))


def test_decisions_are_records_with_the_json_shape_of_before() -> None:
    decision = Policy.default().check("rm -rf build", "posix")
    assert list(decision.model_dump()) == [
        "allowed", "command", "backend", "rule_id", "category", "justification", "reason", "argv",
        "parse_status",
    ]  # fmt: skip
    assert Decision(**decision.model_dump()) == decision
    with pytest.raises(AttributeError):
        decision.reason = "x"  # type: ignore[misc]


# -- records: the engine's own slotted objects --
@record(frozen=True)
class _Point:
    x: int
    y: int = 0
    tags: list[str] = many()


@record()
class _Box:
    items: list[int] = many()
    label: str = ""


def test_records_take_positions_or_keywords_and_fresh_defaults() -> None:
    assert _Point(1) == _Point(x=1, y=0) and _Point(1).tags is not _Point(1).tags
    assert repr(_Point(1, 2)) == "_Point(x=1, y=2, tags=[])"
    with pytest.raises(TypeError):
        _Point(1, x=2)
    with pytest.raises(TypeError, match="needs the field 'x'"):
        _Point()
    box = _Box()
    box.items.append(1)
    box.label = "changed"
    assert box == _Box([1], "changed") and not hasattr(box, "__dict__")


def test_frozen_records_hash_and_survive_pickling_mutable_ones_too() -> None:
    point = _Point(1, 2, ["a"])
    with pytest.raises(AttributeError, match="frozen"):
        point.x = 3  # type: ignore[misc]
    assert hash(_Point(1, 2, ())) == hash(_Point(1, 2, ()))  # type: ignore[arg-type]
    assert pickle.loads(pickle.dumps(point)) == point
    assert pickle.loads(pickle.dumps(_Box([1, 2], "b"))) == _Box([1, 2], "b")


# -- regular expressions on first use --
def test_a_lazy_pattern_compiles_on_first_use_and_stays_lazy_when_pickled_again() -> None:
    pattern = lazy_re(r"ab+c", re.IGNORECASE)
    assert "search" not in dir(type(pattern)) or not _compiled(pattern)
    again = pickle.loads(pickle.dumps(pattern))
    assert isinstance(again, LazyPattern) and not _compiled(again)
    assert pattern.search("xABBC") is not None and _compiled(pattern)
    assert _PolicyUnpickler.__module__ and pickle.loads(pickle.dumps(pattern)).fullmatch("abc")


def _compiled(pattern: object) -> bool:
    try:
        object.__getattribute__(pattern, "search")
    except AttributeError:
        return False
    return True


def test_a_loaded_policy_pickles_and_loads_again_through_the_restricted_unpickler() -> None:
    import io

    policy = Policy.load()
    body = pickle.dumps(policy._parts(), protocol=pickle.HIGHEST_PROTOCOL)
    compiled, rules, _ = _PolicyUnpickler(io.BytesIO(body)).load()
    assert [r.id for r in rules] == [r.id for r in policy.rules]
    assert compiled.check("rm -rf ~", "posix").rule_id == "destructive.recursive-delete"


# -- the glob screen: most names never compile a clause's glob --
@pytest.mark.parametrize(
    ("glob", "literals"),
    [
        ("mkfs.*", ("mkfs.", "", ("mkfs.",))),
        ("invoke-*hunter", ("invoke-", "hunter", ("invoke-", "hunter"))),
        ("*-ad*user", ("", "user", ("-ad", "user"))),
        ("a[bc]d*", ("a", "", ("a", "d"))),  # a set is one character, whatever its members
        ("[!g]*-nfs*", ("", "", ("-nfs",))),
        ("[]]x", ("", "x", ("x",))),  # `]` first in a set is a member
        ("a[b*", ("", "", ())),  # an unclosed `[` is itself: no literal is kept
        ("ſh*", ("", "", ())),
    ],
)
def test_glob_literals(glob: str, literals: tuple[str, str, tuple[str, ...]]) -> None:
    assert glob_literals(glob) == literals


_GLOB_PIECES = st.sampled_from(
    ["*", "?", "a", "b", "-", ".", "ab", "s", "k", "[ab]", "[!a]", "[]a]", "[", "]", "!"]
)
_NAME_CHARS = st.sampled_from(
    ["a", "b", "-", ".", "s", "k", "[", "]", "!", "A", "ſ", "K", "\u212a", "é", "\x00"]
)


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(_GLOB_PIECES, min_size=1, max_size=6), st.lists(_NAME_CHARS, max_size=8))
def test_the_screen_only_rules_out_names_the_glob_cannot_match(pieces: list[str], chars: list[str]) -> None:
    glob, name = "".join(pieces), "".join(chars)
    if glob_regex([glob]).match(name) is not None:
        assert _may_match(glob_literals(glob), name), (glob, name)
