"""Cheap tests that rule a word out before an expensive expression runs must never change its answer.

A variable named for another machine (`$TARGET_IP`, `${DB_HOST}`) is found by one expression that tries its
alternatives at every `$`; a word holding none of the pieces such names are made of skips it. Here the
shortcut and the expression alone agree on every word built from those pieces and on every word of the
policy samples that holds a `$`.

A long variable name is screened for the literal parts every match of a name pattern holds (a secret's name
pattern tries its alternatives at every boundary of the name); the screen must let every name through that
a pattern matches, here long names built from secret parts and from the samples' variable names. And what
only a path's last names decide (a program folder, a file's extension, leading `./` steps) is read from
there, with the answers a search of the whole path gives.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from glmagent.guard import Policy
from glmagent.guard._locators import _MACHINE_VARIABLE, _may_name_machine_variable
from glmagent.guard._screens import LONG_NAME, may_fullmatch

SAMPLES = Path(__file__).resolve().parent.parent / "bench" / "policy_samples"

PIECES = [
    "HOST", "HOSTNAME", "DC", "KDC", "IP", "IPS", "IPV4", "IPV6", "IPADDR", "FQDN", "URL", "URLS", "URI",
    "ENDPOINT", "SERVER", "SERVERS", "RHOST", "LHOST", "ATTACKER", "VICTIM", "DOMAINCONTROLLER", "DOMAIN",
    "CONTROLLER", "API", "DB", "TARGET", "REMOTE", "MASTER", "PROXY", "KUBE", "K8S", "ADDR", "ADDRESS",
    "PORT", "NAME", "1", "BUILD", "OUTPUT", "CURL", "SHIP", "LOG", "X",
]  # fmt: skip


def _agree(word: str) -> None:
    assert _may_name_machine_variable(word) == (_MACHINE_VARIABLE.search(word) is not None), word


def test_names_built_from_the_pieces() -> None:
    count = 0
    for first, second in itertools.product(PIECES, repeat=2):
        for joiner in ("_", ""):
            name = first + joiner + second
            for spelled in (name, name.lower(), name.title()):
                for word in (f"${spelled}", f"${{{spelled}}}", f"$env:{spelled}", f"http://${spelled}/x"):
                    _agree(word)
                    _agree(f"--url={word}:8080")
                    count += 2
    assert count > 40_000


def test_words_of_the_samples() -> None:
    words = set()
    for path in sorted(SAMPLES.glob("*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            command = line.split("\t", 4)[-1]
            words.update(w for w in re.split(r"\s+", command) if "$" in w)
    assert len(words) > 1000
    for word in words:
        _agree(word)


def test_letters_beyond_ascii_take_the_expression() -> None:
    # IGNORECASE reads `ı` as `i` and Kelvin's `K` as `k`: such words are never ruled out by the pieces
    for word in ("$\u0131p", "$TARGET_\u0131P", "$\u212aDC_HOST", "$x_ho\u017ft"):
        _agree(word)


SECRET_PARTS = [
    "API_KEY", "ApiKey", "Token", "_TOKEN", "Password", "passwd", "Secret", "AWS_", "Credential",
    "KUBERNETES_SERVICE_HOST", "APPDATA", "HISTFILE", "PSDefaultParameterValues", "Auth", "PAT",
]  # fmt: skip


def _name_patterns() -> list[tuple[str, re.Pattern[str]]]:
    index = Policy.default()._compiled.index
    found = [(dialect, pattern) for dialect, entries in index.variables.items() for _, pattern, _ in entries]
    assert {d for d, _ in found} >= {"posix", "powershell"}
    return found


def _long_names(patterns: list[tuple[str, re.Pattern[str]]]) -> set[str]:
    """Secret parts, and the samples' variable names some pattern matches (a hundred, evenly spread),
    padded to long names."""
    padding = ("aA" * (LONG_NAME // 2), "x" * LONG_NAME, "a_" * (LONG_NAME // 2), "\u0131" * LONG_NAME)
    names = set()
    for part in SECRET_PARTS:
        for pad in padding:
            for name in (pad + part, part + pad, pad + "_" + part + "_" + pad, pad + part.lower()):
                names.update((name, "env:" + name, "ENV:" + name.upper()))
    found = set()
    for path in sorted(SAMPLES.glob("*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            found.update(m[1] for m in re.finditer(r"\$(?:\{|env:)?(\w+)", line.split("\t", 4)[-1]))
    matched = sorted(p for p in found if any(pattern.fullmatch(p) for _, pattern in patterns))
    assert len(matched) > 100
    for part in matched[:: len(matched) // 100]:
        names.update((padding[0] + part, padding[2] + part.lower(), "env:" + padding[1] + part))
    return names


def test_long_names_a_pattern_matches_pass_its_screen() -> None:
    patterns = _name_patterns()
    matched = 0
    for name in _long_names(patterns):
        assert len(name) >= LONG_NAME
        for dialect, pattern in patterns:
            if pattern.fullmatch(name):
                matched += 1
                assert may_fullmatch(pattern, name), (dialect, pattern.pattern[:40], name[-40:])
    assert matched > 500


@pytest.mark.parametrize(
    ("command", "shell", "allowed"),
    [
        ("echo $env:" + "aA" * 300 + "_TOKEN", "powershell", False),
        ("echo $env:" + "aA" * 300, "powershell", True),
        ("echo ${" + "aA" * 300 + "ApiKey}", "posix", False),
        ("echo $" + "aA" * 300, "posix", True),
    ],
)
def test_long_variable_names_are_still_judged(command: str, shell: str, allowed: bool) -> None:
    assert Policy.default().check(command, shell).allowed is allowed  # type: ignore[arg-type]


PATH_PARTS = [
    "",
    "a",
    ".",
    "..",
    "bin",
    "sbin",
    "System32",
    "x.exe",
    "x.js",
    "x.d.ts",
    ".js",
    "m.js.map",
    "dist",
]
SEPARATORS = ["/", "\\", "", "//", "./"]


def _paths() -> list[str]:
    return [
        a + s1 + b + s2 + c
        for a, b, c in itertools.product(PATH_PARTS, repeat=3)
        for s1, s2 in itertools.product(SEPARATORS, repeat=2)
    ]


def test_reading_a_path_from_its_last_names_agrees_with_reading_all_of_it() -> None:
    """A long path's folders are not searched one by one any more: the answers stay those of a search of
    the whole path."""
    from glmagent.guard._handed import _BIN_PROGRAM, in_program_folder
    from glmagent.guard._project import _FILE_NAMED, names_a_file
    from glmagent.guard._words import path_key

    whole_file_named = re.compile(rf"(?:\A|[/\\])(?:{_FILE_NAMED.pattern})\Z", re.IGNORECASE)
    paths = _paths()
    assert len(paths) > 50_000
    for path in paths:
        assert in_program_folder(path) == (_BIN_PROGRAM.search(path) is not None), path
        assert names_a_file(path) == (whole_file_named.search(path) is not None), path
        key = path.replace("\\", "/")
        while key.startswith("./"):
            key = key[2:]
        assert path_key(path) == key.lower(), path


CUT_NEEDLES = ["abcdefghij", "xy", "q/r", "id_rsa"]


def _halves(needles: list[str]) -> list[str]:
    return [n[:k] for n in needles for k in range(1, len(n))] + [
        n[k:] for n in needles for k in range(1, len(n))
    ]


@pytest.mark.parametrize("own", [False, True], ids=["argument rules", "needles of known length"])
def test_clean_texts_answer_as_a_full_search_does(own: bool) -> None:
    """`CleanTexts` searches only what no remembered text covers (a text within one, the seam of a text
    built on one, the part of a text before its first needle); its answers must be a full search's. The
    texts are cut next to needles and glued from pieces of needles, so seams and cuts fall where they
    matter, also for the longest needle."""
    import random

    from glmagent.guard._screens import CaselessScreen, CleanTexts

    if own:
        screen = CaselessScreen.of(CUT_NEEDLES)
        halves = _halves(CUT_NEEDLES)
    else:
        screen = Policy.default()._compiled.argument_rules["posix"][1]
        halves = [
            "ss",
            "h/",
            ".ss",
            "id_",
            "rsa",
            ".a",
            "ws/",
            "/proc/1/",
            "envi",
            "ron",
            "wal",
            "let",
            ".en",
            "v",
        ]
    assert screen is not None
    filler = ["a", "b/", "./", "is", "-", "\n", "Wallet.h", "\u0131", "x" * 40]
    rng = random.Random(20261206)
    checked = 0
    for _ in range(300):
        clean = CleanTexts(screen)
        base = "".join(rng.choice(filler) for _ in range(rng.randrange(600, 2400)))
        if rng.random() < 0.7:
            base += "".join(rng.choice(halves) for _ in range(3)) + "".join(
                rng.choice(filler) for _ in range(50)
            )
        texts = [base]
        for _ in range(12):
            text = rng.choice(texts)
            first = screen.search(text)
            near = first.start() if first is not None and text.isascii() else rng.randrange(len(text) + 1)
            cut = min(len(text), max(0, near + rng.randrange(-4, 12)))
            glue = "".join(rng.choice(halves + filler) for _ in range(rng.randrange(1, 4)))
            text = (text[cut:], text[:cut], glue + text, text + glue)[rng.randrange(4)]
            texts.append(text)
        for text in texts:
            assert clean.finds(text) == (screen.search(text) is not None), text[-60:]
            checked += 1
    assert checked > 3_000


def test_clean_texts_find_a_needle_across_every_seam_and_cut() -> None:
    """A needle split at each of its characters between a clean text and what is added before or after it,
    and a needle right after the clean stretch a text was found to have, is found."""
    from glmagent.guard._screens import CaselessScreen, CleanTexts

    screen = CaselessScreen.of(CUT_NEEDLES)
    assert screen is not None
    stretch = "a./" * 2_000
    for needle in CUT_NEEDLES:
        for k in range(1, len(needle)):
            clean = CleanTexts(screen)
            assert not clean.finds(needle[k:] + stretch)
            assert clean.finds(needle[:k] + needle[k:] + stretch), (needle, k)
            clean = CleanTexts(screen)
            assert not clean.finds(stretch + needle[:k])
            assert clean.finds(stretch + needle[:k] + needle[k:]), (needle, k)
        clean = CleanTexts(screen)
        text = stretch + needle + stretch
        assert clean.finds(text)
        for end in range(len(stretch), len(stretch) + len(needle) + 1):
            assert clean.finds(text[:end]) == (end == len(stretch) + len(needle)), (needle, end)


def test_connection_keys_ruled_out_by_their_stems_agree_with_the_expression() -> None:
    """A text without `server`, `source`, `host` or `addr` skips the case-blind search for a keyword
    connection string's host; every text built from the keys' pieces gets the expression's answer."""
    from glmagent.guard._locators import _CONNECTION_SCREEN, _may_hold_connection

    parts = [
        "Server",
        "SOURCE",
        "host",
        "HostAddr",
        "addr",
        "Address",
        "data ",
        "=",
        " ",
        "x",
        ";",
        "serve",
        "ost",
    ]
    texts = ["".join(p) for p in itertools.product(parts, repeat=3)] + ["\u017ferver=db", "HOST\u0131=x"]
    for text in texts:
        assert _may_hold_connection(text) == (_CONNECTION_SCREEN.search(text) is not None), text
