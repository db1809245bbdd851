"""Cheap tests that rule a word out before an expensive expression runs must never change its answer.

A variable named for another machine (`$TARGET_IP`, `${DB_HOST}`) is found by one expression that tries its
alternatives at every `$`; a word holding none of the pieces such names are made of skips it. Here the
shortcut and the expression alone agree on every word built from those pieces and on every word of the
policy samples that holds a `$`.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from glmagent.guard._locators import _MACHINE_VARIABLE, _may_name_machine_variable

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
