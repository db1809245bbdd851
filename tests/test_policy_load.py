"""The load cache: a compiled policy is reused only for the same policy files and the same glmagent build;
an edited file or another version proves the examples again; a damaged or planted cache file is ignored."""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import re
import sys
from pathlib import Path

import pytest

from glmagent.cli import main
from glmagent.errors import PolicyError
from glmagent.guard import Policy, _cache
from glmagent.guard._cache import LazyPattern
from glmagent.guard._lazy import compile_once

pytestmark = pytest.mark.own_policy_cache  # each test starts with an empty cache of its own

RULE = """
[[rule]]
id = "custom.db-migrate"
category = "destructive"
description = "changes the shared database's schema"
justification = "Schema changes need a human: write the migration (`alembic revision`) and say how to run it."
match = ["alembic upgrade head"]
not_match = ["alembic history"]
when = [{ on = "command", commands = ["alembic"], subcommands = ["upgrade"] }]
"""


@pytest.fixture
def proofs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the times examples are proven: one entry per `self_check`, the number of files of the policy
    proven (1: the built-in file alone, which a load beside other files may prove first)."""
    counted: list[int] = []
    original = Policy.self_check

    def counting(self: Policy) -> None:
        counted.append(len(self.sources))
        original(self)

    monkeypatch.setattr(Policy, "self_check", counting)
    return counted


@pytest.fixture
def unproven(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the times examples would be proven, without proving them: for tests of when the cache is used,
    where proving the whole default policy again (most of a cold load) shows nothing new. That a load proves
    the examples, and fails on a broken one, is `test_an_edited_policy_file_is_proven_again`."""
    counted: list[int] = []
    monkeypatch.setattr(Policy, "self_check", lambda self: counted.append(1))
    return counted


@pytest.fixture
def fresh_fingerprint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_cache, "_fingerprint", None)


def only_entry() -> Path:
    entries = _cache.entries()
    assert len(entries) == 1, entries
    return entries[0]


def test_the_second_load_comes_from_the_cache_and_decides_the_same(proofs: list[int]) -> None:
    cold = Policy.load()
    warm = Policy.load()
    assert (cold.from_cache, warm.from_cache) == (False, True)
    assert proofs == [1]  # proven once, when the entry was made
    assert [r.id for r in warm.rules] == [r.id for r in cold.rules]
    for command, shell in [
        ("rm -rf ~", "posix"),
        ("ls -la", "posix"),
        ("cat ~/.ssh/id_rsa", "posix"),
        ("python -c 'import os; os.system(\"curl x\")'", "posix"),
        ("Remove-Item -Recurse C:\\src", "powershell"),
        ("[Net.WebClient]::new().DownloadString('http://x')", "powershell"),
    ]:
        assert warm.check(command, shell) == cold.check(command, shell), command  # type: ignore[arg-type]


def test_the_cache_lives_in_the_users_state_folder() -> None:
    Policy.load()
    folder = Path(os.environ["GLMAGENT_STATE_DIR"]) / "policy-cache"
    assert _cache.cache_dir() == folder
    assert only_entry().parent == folder


def test_an_edited_policy_file_is_proven_again(tmp_path: Path, proofs: list[int]) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text(RULE, encoding="utf-8")
    assert not Policy.load([mine]).from_cache
    assert Policy.load([mine]).from_cache
    mine.write_text(RULE.replace('"alembic history"', '"alembic init migrations"'), encoding="utf-8")
    edited = Policy.load([mine])
    assert not edited.from_cache and [n for n in proofs if n > 1] == [2, 2]
    # an edit that breaks an example fails the load, however warm the cache was
    mine.write_text(RULE.replace('"alembic history"', '"alembic upgrade +1"'), encoding="utf-8")
    with pytest.raises(PolicyError, match=r"custom\.db-migrate matches"):
        Policy.load([mine])


def test_the_same_file_as_the_users_or_the_projects_is_two_entries(
    tmp_path: Path, unproven: list[int]
) -> None:
    allow = tmp_path / "allow.toml"
    allow.write_text('[policy]\nmode = "allowlist"\n', encoding="utf-8")
    Policy.load([allow])
    project = Policy.load(project_files=[allow])
    assert not project.from_cache
    assert "project's allowlist" in project.check("ls", "posix").reason


def test_another_glmagent_version_proves_the_examples_again(
    monkeypatch: pytest.MonkeyPatch, unproven: list[int], fresh_fingerprint: None
) -> None:
    Policy.load()
    assert Policy.load().from_cache
    monkeypatch.setattr("glmagent.__version__", "999.0.0")
    monkeypatch.setattr(_cache, "_fingerprint", None)
    assert not Policy.load().from_cache
    assert unproven == [1, 1]


def test_edited_policy_code_proves_the_examples_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fresh_fingerprint: None, unproven: list[int]
) -> None:
    Policy.load()
    fake = tmp_path / "guard"
    fake.mkdir()
    for source in Path(_cache.__file__).parent.glob("*.py"):
        (fake / source.name).write_bytes(source.read_bytes())
    (tmp_path / "secrets.py").write_bytes((Path(_cache.__file__).parent.parent / "secrets.py").read_bytes())
    monkeypatch.setattr(_cache, "_PACKAGE", fake)
    assert Policy.load().from_cache  # the same sources: the same key
    (fake / "_rules.py").write_text("# edited\n" + (fake / "_rules.py").read_text(encoding="utf-8"))
    monkeypatch.setattr(_cache, "_fingerprint", None)
    assert not Policy.load().from_cache


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "flipped":
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "garbage":
        path.write_bytes(os.urandom(4096))
    elif how == "other-key":
        header, _, rest = data.partition(b"\n")
        _key, _, rest = rest.partition(b"\n")
        path.write_bytes(header + b"\n" + b"0" * 64 + b"\n" + rest)
    else:
        raise AssertionError(how)


@pytest.mark.parametrize("how", ["truncated", "flipped", "empty", "garbage", "other-key"])
def test_a_damaged_cache_file_is_ignored_and_replaced(how: str, unproven: list[int]) -> None:
    Policy.load()
    entry = only_entry()
    _damage(entry, how)
    policy = Policy.load()
    assert not policy.from_cache and unproven == [1, 1]
    assert policy.check("rm -rf ~", "posix").rule_id == "destructive.recursive-delete"
    assert Policy.load().from_cache  # rewritten whole


def _planted(entry: Path, payload: object) -> None:
    """Replace the entry's body with `payload` pickled, under a header whose digest matches."""
    header, key, _ = entry.read_bytes().split(b"\n", 2)
    body = pickle.dumps(payload)
    entry.write_bytes(header + b"\n" + key + b"\n" + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)


class _RunsCode:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, (f"touch {self.marker}",)


@pytest.mark.skipif(sys.platform == "win32", reason="uses touch")
def test_a_planted_pickle_cannot_run_code(tmp_path: Path, unproven: list[int]) -> None:
    Policy.load()
    marker = tmp_path / "ran"
    _planted(only_entry(), _RunsCode(marker))
    policy = Policy.load()
    assert not marker.exists()
    assert not policy.from_cache
    assert policy.check("rm -rf ~", "posix").rule_id == "destructive.recursive-delete"


def test_a_planted_policy_of_the_wrong_shape_is_ignored(unproven: list[int]) -> None:
    Policy.load()
    _planted(only_entry(), ("not", "a", "policy"))
    assert not Policy.load().from_cache


def test_a_cache_folder_that_cannot_be_written_costs_only_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, unproven: list[int]
) -> None:
    blocked = tmp_path / "state"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    monkeypatch.setenv("GLMAGENT_STATE_DIR", str(blocked))
    assert not Policy.load().from_cache
    assert not Policy.load().from_cache
    assert Policy.load().check("ls", "posix").allowed


def test_the_cache_can_be_switched_off(monkeypatch: pytest.MonkeyPatch, unproven: list[int]) -> None:
    monkeypatch.setenv("GLMAGENT_POLICY_CACHE", "0")
    Policy.load()
    assert not Policy.load().from_cache
    assert unproven == [1, 1] and _cache.entries() == []


def test_policy_cache_command_shows_and_clears(
    capsys: pytest.CaptureFixture[str], unproven: list[int]
) -> None:
    Policy.load()
    assert main(["policy", "cache"]) == 0
    out = capsys.readouterr().out
    assert str(_cache.cache_dir()) in out and "1 entry" in out
    assert main(["policy", "cache", "--clear"]) == 0
    assert "removed 1 cached policy" in capsys.readouterr().out
    assert _cache.entries() == []
    assert not Policy.load().from_cache


def test_old_entries_are_pruned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Pruning is what is tested: a smaller limit and no proof of the examples keep the loads few and cheap.
    monkeypatch.setattr(_cache, "_KEEP", 2)
    monkeypatch.setattr(Policy, "self_check", lambda self: None)
    for n in range(_cache._KEEP + 3):
        mine = tmp_path / f"p{n}.toml"
        mine.write_text(RULE.replace("db-migrate", f"db-migrate-{n}"), encoding="utf-8")
        Policy.load([mine])
    assert len(_cache.entries()) == _cache._KEEP


def test_lazy_patterns_behave_like_compiled_ones() -> None:
    compiled = re.compile(r"(?P<word>[a-z]+)-(\d+)", re.IGNORECASE)
    pattern = _cache._PolicyUnpickler(io.BytesIO(pickle.dumps(compiled))).load()
    assert isinstance(pattern, LazyPattern)
    assert pattern.pattern == compiled.pattern and pattern.flags == compiled.flags
    assert pattern.match("Abc-12").group("word") == "Abc"
    assert pattern.search("x abc-3").span() == (2, 7)
    assert pattern.groupindex == compiled.groupindex
    assert pattern.fullmatch("abc-") is None
    assert pickle.loads(pickle.dumps(pattern)).pattern == compiled.pattern


@pytest.mark.parametrize("planted", [os.system, Path, pickle.loads, _cache.load, Policy.__init__])
def test_the_unpickler_resolves_nothing_but_policy_classes(planted: object) -> None:
    with pytest.raises(pickle.UnpicklingError, match="is not a policy class"):
        _cache._PolicyUnpickler(io.BytesIO(pickle.dumps(planted))).load()


def test_a_compiled_form_that_cannot_be_stored_only_costs_time(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> bytes:
        raise pickle.PicklingError("a lambda in the tables")

    monkeypatch.setattr(pickle, "dumps", refuse)
    policy = Policy.load()
    assert not policy.from_cache and _cache.entries() == []
    assert policy.check("rm -rf ~", "posix").rule_id == "destructive.recursive-delete"


def test_building_the_policy_again_in_one_process_compiles_almost_no_expression_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A program embedding glmagent loads a policy per project; re's own cache (512) is smaller than a policy.
    from re import _compiler  # type: ignore[attr-defined]

    compiled: list[str] = []
    real = _compiler.compile
    monkeypatch.setattr(_compiler, "compile", lambda p, flags=0: compiled.append(str(p)) or real(p, flags))
    compile_once.cache_clear()  # as in a new process
    Policy.load(use_cache=False)
    first = len(compiled)
    compiled.clear()
    again = Policy.load(use_cache=False)
    # what is left: the few module-level one-off expressions that `re`'s own cache let go meanwhile
    assert first > 500 and len(compiled) < 20, (first, compiled)
    assert not again.check("cat ~/.ssh/id_rsa", "posix").allowed and again.check("ls -la", "posix").allowed


# -- a user's or a project's file: the built-in rules are proven once, with the built-in file alone --

#: Rules of every clause kind a file may add, on programs, files and words the built-in rules name too:
#: (name, category, match, not_match, clause).
_ADDED_RULES = [
    ("git-stash", "destructive", ["git stash", "sudo git stash"], ["git status"],
     '{ on = "command", commands = ["git"], subcommands = ["stash"] }'),
    ("append-log", "destructive", ["echo x >> app.log"], ["echo x"],
     '{ on = "redirect", operators = [">>"] }'),
    ("pager", "unverifiable", ["echo $PAGER"], ["git log"], '{ on = "variable", names = ["PAGER"] }'),
    ("python-exit", "destructive", ["python -c 'import sys; sys.exit(1)'"], ["python -c 'print(1)'"],
     "{ on = \"payload\", languages = [\"python\"], patterns = ['\\bsys\\.exit\\b'] }"),
    ("lockfile", "destructive", ["rm poetry.lock"], ["rm notes.txt"],
     '{ on = "path", paths = ["poetry.lock"] }'),
    ("dev-shm", "destructive", ["ls /dev/shm/x"], ["ls /dev/null"],
     '{ on = "argument", globs = ["/dev/shm/*"] }'),
    ("any-url", "network", ["python tools/fetch.py https://example.com/data.json"],
     ["python tools/fetch.py data.json"], '{ on = "locator", kinds = ["url"] }'),
]  # fmt: skip
BESIDE_THE_BUILTIN = "".join(
    f'[[rule]]\nid = "custom.{name}"\ncategory = "{category}"\ndescription = "added by a user"\n'
    f'justification = "A user\'s own rule."\nmatch = {json.dumps(match)}\n'
    f"not_match = {json.dumps(not_match)}\nwhen = [{clause}]\n\n"
    for name, category, match, not_match, clause in _ADDED_RULES
)


def test_what_built_in_rules_find_in_their_examples_is_the_same_beside_added_ones(tmp_path: Path) -> None:
    # The ground `_proven_builtin_ids` stands on: proving the whole policy, built-in rules included, still
    # passes when a file adds rules of every kind on the programs and words the built-in rules name.
    added = tmp_path / "added.toml"
    added.write_text(BESIDE_THE_BUILTIN, encoding="utf-8")
    policy = Policy.load([added], use_cache=False)
    assert policy._proven_elsewhere  # the load itself left the built-in rules out ...
    policy._proven_elsewhere = frozenset()
    policy.self_check()  # ... and proving them too finds every built-in example as the built-in file alone


def test_a_users_file_proves_only_its_own_rules_once_the_built_in_policy_is_proven(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Policy.load()
    proven: list[str] = []
    original = Policy._finding_ids

    def counting(self: Policy, command: str, shell: str) -> set[str]:
        proven.append(command)
        return original(self, command, shell)  # type: ignore[arg-type]

    monkeypatch.setattr(Policy, "_finding_ids", counting)
    mine = tmp_path / "mine.toml"
    mine.write_text(RULE, encoding="utf-8")
    Policy.load([mine])
    assert sorted(proven) == ["alembic history", "alembic upgrade head"]
    # a built-in file other than the one proven proves everything
    assert Policy._proven_builtin_ids(b"version = 1\n", True) == frozenset()
