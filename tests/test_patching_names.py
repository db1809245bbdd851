"""An edit that leaves a Python file using a name it no longer defines is refused before the write.

Seen in the live bench's audit logs: the 1.5B model replaced `text = value.strip()` (port_int) and
`current = start` (dates_inclusive) while later lines still read those names. Written, every test failed
with a NameError and the model never recovered. Refused, it is told which name and where.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from conftest import plan, run_scripted

from glmagent.errors import PatchRejected
from glmagent.patching import apply_edits, apply_patch

PORT = b'''def parse_port(value):
    """A TCP port from user input such as " 8080 "."""
    text = value.strip()
    if not text.isdigit():
        raise ValueError(f"not a port: {value!r}")
    return int(text)
'''
DAYS = b"""from datetime import date, timedelta


def date_range(start: date, end: date) -> list[date]:
    days = []
    current = start
    while current < end:
        days.append(current)
        current += timedelta(days=1)
    return days
"""


def _refused(path: str, content: bytes, edits: list[tuple[list[str], list[str]]]) -> PatchRejected:
    with pytest.raises(PatchRejected) as refused:
        apply_edits(path, content, edits)
    return refused.value


def test_replacing_the_line_that_assigns_a_name_still_read_below_is_refused() -> None:
    refused = _refused(
        "netconf.py",
        PORT,
        [(["    text = value.strip()"], ["    if isinstance(value, str): value = value.strip()"])],
    )

    assert refused.reason == "undefined_name"
    assert "`text`" in str(refused) and "line 4" in str(refused)
    assert "4 >     if not text.isdigit():" in str(refused)  # the result around the first use


def test_a_renamed_call_without_its_import_is_told_to_bring_the_import_along() -> None:
    source = b"from shop.pricing import calc_total\n\n\ndef checkout(cart):\n    return calc_total(cart)\n"

    refused = _refused(
        "shop/checkout.py", source, [(["    return calc_total(cart)"], ["    return order_total(cart)"])]
    )

    assert refused.reason == "undefined_name" and "`order_total`" in str(refused)
    assert "needs its import added or changed in the same apply_diff" in str(refused)
    renamed = [
        (["from shop.pricing import calc_total"], ["from shop.pricing import order_total"]),
        (["    return calc_total(cart)"], ["    return order_total(cart)"]),
    ]
    assert apply_edits("shop/checkout.py", source, renamed).content is not None


def test_a_name_read_then_assigned_in_the_loop_counts_as_undefined_once_its_start_is_gone() -> None:
    refused = _refused(
        "calendar_utils.py", DAYS, [(["    days = []", "    current = start"], ["    days = []"])]
    )

    assert refused.reason == "undefined_name" and "`current`" in str(refused)


def test_a_name_used_before_its_local_assignment_is_refused() -> None:
    source = b"COUNT = 0\n\n\ndef bump():\n    global COUNT\n    COUNT += 1\n    return COUNT\n"

    refused = _refused("counter.py", source, [(["    global COUNT"], ["    pass"])])

    assert refused.reason == "undefined_name" and "`COUNT`" in str(refused)


@pytest.mark.parametrize(
    "edits",
    [
        # the assignment kept, the use changed
        [(["    text = value.strip()"], ["    text = str(value).strip()"])],
        # a rename carried through every use in one change
        [
            (
                ["    text = value.strip()", "    if not text.isdigit():"],
                ["    t = value.strip()", "    if not t.isdigit():"],
            ),
            (["    return int(text)"], ["    return int(t)"]),
        ],
        # a new name brought in with its import
        [
            (["def parse_port(value):"], ["import math", "", "", "def parse_port(value):"]),
            (["    return int(text)"], ["    return math.floor(int(text))"]),
        ],
    ],
    ids=["kept", "renamed together", "imported together"],
)
def test_edits_that_keep_every_name_defined_apply(edits: list) -> None:
    assert apply_edits("netconf.py", PORT, edits).content is not None


def test_only_names_the_edit_leaves_undefined_count() -> None:
    # `helper` was undefined before (defined at run time, say): using it again is the file's business.
    source = b"def f(x):\n    return helper(x)\n"

    result = apply_edits("m.py", source, [(["    return helper(x)"], ["    return helper(x) + helper(1)"])])

    assert result.content == b"def f(x):\n    return helper(x) + helper(1)\n"


def test_a_star_import_leaves_names_to_the_module() -> None:
    source = b"from os.path import *\n\n\ndef f(p):\n    return exists(p)\n"

    result = apply_edits("m.py", source, [(["    return exists(p)"], ["    return isfile(p)"])])

    assert result.content is not None and b"isfile" in result.content


@pytest.mark.parametrize(
    ("path", "original"),
    [("new.py", None), ("notes.txt", b"x\n"), ("broken.py", b"def f(:\n    pass\n")],
    ids=["new file", "not Python", "did not parse before"],
)
def test_files_that_are_not_judged(path: str, original: bytes | None) -> None:
    search = [] if original is None else [original.decode().splitlines()[0]]
    result = apply_edits(path, original, [(search, ["y = undefined_thing"])])

    assert result.content is not None and b"undefined_thing" in result.content


def test_diff_text_is_judged_the_same_and_told_in_its_own_terms() -> None:
    diff = "@@ -3 +3 @@\n-    text = value.strip()\n+    value = value.strip()\n"

    with pytest.raises(PatchRejected) as refused:
        apply_patch("netconf.py", PORT, diff)

    assert refused.value.reason == "undefined_name" and "Send the diff again" in str(refused.value)


@pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")
def test_in_the_loop_the_file_is_untouched_and_the_refusal_reaches_the_next_prompt(tmp_path: Path) -> None:
    (tmp_path / "netconf.py").write_bytes(PORT)
    code = "from netconf import parse_port; assert parse_port(8080) == 8080"
    broken = {"search": ["    text = value.strip()"], "replace": ["    value = str(value).strip()"]}
    fixed = {"search": ["    text = value.strip()"], "replace": ["    text = str(value).strip()"]}
    replies = [
        plan({"tool": "apply_diff", "path": "netconf.py", "edits": [broken]}),
        plan({"tool": "apply_diff", "path": "netconf.py", "edits": [fixed]}),
    ]

    result, planner, records = run_scripted(
        tmp_path,
        replies,
        test_command=f"{shlex.quote(sys.executable)} -c {shlex.quote(code)}",
        description="accept an int port",
    )

    assert result.success and result.iterations == 2
    second = "\n".join(m.content for m in planner.requests[1] if m.role == "user")
    assert "netconf.py would use `text` without defining it" in second
    assert "Send the edit again" in second
    first = next(r for r in records if r["event"] == "action")
    assert first["status"] == "failed" and first["details"]["reason"] == "undefined_name"


def test_a_file_that_did_not_parse_before_is_left_to_the_edit() -> None:
    # Fixing a syntax error may leave a name the broken file used undefined all along: not the edit's doing.
    source = b"def f(x):\n    return helper(x\n"

    result = apply_edits("m.py", source, [(["    return helper(x"], ["    return helper(x)"])])

    assert result.content == b"def f(x):\n    return helper(x)\n"


def test_a_very_long_file_is_left_to_the_edit() -> None:
    source = PORT + b"\n" + b"PAD = 0\n" * 10_001

    result = apply_edits(
        "netconf.py", source, [(["    text = value.strip()"], ["    value = value.strip()"])]
    )

    assert result.content is not None and b"    value = value.strip()\n" in result.content
