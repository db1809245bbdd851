"""Input that crashes a grammar's C code never reaches it: the policy checks what the model wrote, so a model
(or a fuzzer) must not be able to kill the agent with a segmentation fault.

The bash grammar's scanner asks C's `isdigit()` about the character after `{`, `{1` or `{1..2`; given a code
point beyond a byte (U+101D84) it reads far past its table and, depending on the process's memory layout,
crashes about one run in two. Each check runs in its own process, several at once, so the layouts differ."""

from __future__ import annotations

import subprocess
import sys

import pytest

from glmagent.guard import Policy
from glmagent.guard._parse_posix import grammar_safe

_SWEEP = r"""
from glmagent.guard import Policy
policy = Policy.default()
for cp in range(0x100, 0x110000, 0x800):
    if 0xD800 <= cp < 0xE000:
        continue
    for shape in ("echo {%s}", "echo {1..%s}", "echo {12%s", "touch a{%s,b}"):
        policy.check(shape % chr(cp), "posix")
print("survived")
"""


def test_characters_after_a_brace_never_crash_the_process() -> None:
    runs = [
        subprocess.Popen([sys.executable, "-c", _SWEEP], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(8)
    ]
    results = [(run.wait(timeout=120), run.stdout.read(), run.stderr.read()) for run in runs]  # type: ignore[union-attr]
    crashed = [code for code, _, _ in results if code != 0]
    assert not crashed, f"{len(crashed)} of 8 processes died (exit {crashed}): {results[0][2][-500:]!r}"
    assert all(out.strip() == b"survived" for _, out, _ in results)


@pytest.mark.parametrize(
    ("command", "allowed"),
    [
        ("echo {\U00101d84}", True),
        ("echo {1..\U00101d84}", True),
        ("rm -rf {\U00101d84,/}", False),
        ("rm -rf {\U00101d84,~}", False),
        ("echo {\u3000} && curl http://x.invalid", False),
    ],
)
def test_the_words_judged_are_the_ones_written(command: str, allowed: bool) -> None:
    decision = Policy.default().check(command, "posix")
    assert decision.allowed is allowed, decision


def test_only_the_characters_the_scanner_would_misread_are_replaced_and_offsets_are_kept() -> None:
    for source in ("echo {\U00101d84}", "echo {12\u3000x", "echo {1..\u00e9}", "a{\u00e9,b}"):
        raw = source.encode()
        safe = grammar_safe(raw)
        assert len(safe) == len(raw) and safe.isascii(), safe
    untouched = ("echo \u00e9{", "echo {1.\u00e9}", "echo \U00101d84", "plain ascii {1..3}")
    for source in untouched:
        assert grammar_safe(source.encode()) == source.encode()
