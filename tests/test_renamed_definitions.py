"""A function renamed by content sent whole is a rename, not a definition dropped; and the files that still
use the old name are named in the edit's result.

Found in the live bench (rename_price, rename_total): asked to rename a helper, the 1.5B model sent the
file, or the function alone, under the new name; every such edit was refused as "no longer defines
fmt_price", so a rename could never be made by sending content.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from glmagent.contract import Action
from glmagent.errors import PatchRejected
from glmagent.guard import Policy
from glmagent.patching import apply_edits
from glmagent.tools.executor import ToolExecutor
from glmagent.tools.shell import PosixShell
from glmagent.workspace import Workspace

FORMAT = (
    b"def fmt_price(cents):\n"
    b'    """A price in cents as text."""\n'
    b'    return f"{cents // 100}.{cents % 100:02d} EUR"\n'
)
PRICING = (
    b"def calc_total(items):\n"
    b'    """Total price of (price, quantity) pairs, rounded to cents."""\n'
    b"    return round(sum(price * quantity for price, quantity in items), 2)\n"
    b"\n\n"
    b"def discounted(total, percent):\n"
    b"    return round(total * (100 - percent) / 100, 2)\n"
)


def send(path: str, original: bytes, content: str) -> bytes:
    """The file after `content` is sent as its whole new text, as the tool does."""
    result = apply_edits(path, original, [([], content.removesuffix("\n").split("\n"))], content=True)
    assert result.content is not None
    return result.content


def refused(path: str, original: bytes, content: str) -> PatchRejected:
    with pytest.raises(PatchRejected) as caught:
        send(path, original, content)
    return caught.value


def test_a_file_sent_whole_with_its_function_renamed_is_that_rename() -> None:
    renamed = FORMAT.decode().replace("fmt_price", "format_price")

    result = apply_edits("store/format.py", FORMAT, [([], renamed.rstrip("\n").split("\n"))], content=True)

    assert result.content == renamed.encode()
    assert "fmt_price renamed to format_price" in result.summary()


def test_the_function_sent_alone_under_a_new_name_replaces_the_one_it_renames() -> None:
    # the docstring left out and ' for ": still the same function, and discounted is kept
    sent = (
        "def order_total(items):\n    return round(sum(price * quantity for price, quantity in items), 2)\n"
    )

    after = send("shop/pricing.py", PRICING, sent)

    assert after.startswith(sent.encode())
    assert b"def discounted(total, percent):" in after and b"calc_total" not in after


def test_a_renamed_class_keeps_its_methods() -> None:
    original = (
        b"class Cart:\n    def total(self):\n        return sum(self.items)\n\n"
        b"    def size(self):\n        return 1\n"
    )
    sent = original.decode().replace("class Cart:", "class Basket:")

    assert send("shop/cart.py", original, sent) == sent.encode()


@pytest.mark.parametrize(
    ("original", "sent"),
    [
        # a wrapper calling the old name: a new function beside it, not a rename
        (PRICING, "def order_total(items):\n    return calc_total(items)\n"),
        # another body under a new name: the old function replaced, not renamed
        (FORMAT, 'def format_price(cents):\n    """Text."""\n    return str(cents)\n'),
        # two functions with the same body: which one was renamed is unknown
        (
            b"def a(x):\n    return x + 1\n\n\ndef b(x):\n    return x + 1\n\n\nVALUE = 3\n",
            "def c(x):\n    return x + 1\n",
        ),
        # a one-line function has no body to recognise it by
        (b"def fmt(x): return str(x)\n\n\ndef other(y):\n    return y\n", "def show(x): return str(x)\n"),
    ],
    ids=["wrapper", "other body", "two candidates", "one-line def"],
)
def test_content_that_is_not_clearly_a_rename_is_still_refused(original: bytes, sent: str) -> None:
    assert refused("mod.py", original, sent).reason == "new_file_exists"


def test_a_whole_file_that_renames_one_function_and_drops_another_is_refused() -> None:
    sent = (
        "def order_total(items):\n    return round(sum(price * quantity for price, quantity in items), 2)\n"
    )
    two = PRICING + b"\n\ndef tax(total):\n    return total * 0.2\n"

    # order_total renames calc_total; discounted and tax are kept by the merge of a function sent alone
    assert b"def tax(total):" in send("shop/pricing.py", two, sent)
    # sent as the whole file (imports and all), leaving out discounted: refused
    whole = "import math\n\n\n" + sent
    with_import = b"import math\n\n\n" + PRICING
    assert "no longer defines discounted" in str(refused("shop/pricing.py", with_import, whole))


# -- the files that still use a dropped name ------------------------------------------------------------

pytestmark_posix = pytest.mark.skipif(sys.platform == "win32", reason="uses the POSIX backend")


@pytest.fixture
def store(tmp_path: Path) -> Path:
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "__init__.py").write_text("")
    (tmp_path / "store" / "format.py").write_bytes(FORMAT)
    (tmp_path / "store" / "receipt.py").write_text(
        "from store.format import fmt_price\n\n\n"
        "def receipt_line(name, cents):\n"
        '    return f"{name}: {fmt_price(cents)}"\n'
    )
    (tmp_path / "store" / "report.py").write_text(
        "import store.format as fm\n\n\ndef total(cents):\n    return fm.fmt_price(cents)\n"
    )
    # the same word, not the module's function: a local name of its own
    (tmp_path / "store" / "other.py").write_text("def show(fmt_price):\n    return fmt_price\n")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


def executor(root: Path) -> ToolExecutor:
    return ToolExecutor(Workspace(root), PosixShell(), Policy.default(), command_timeout=20)


@pytestmark_posix
def test_an_edit_that_renames_a_function_names_the_files_still_using_the_old_name(store: Path) -> None:
    renamed = FORMAT.decode().replace("fmt_price", "format_price")

    observation = executor(store).execute(
        Action.model_validate({"tool": "apply_diff", "path": "store/format.py", "content": renamed})
    )

    assert observation.status == "ok"
    assert observation.details["dropped_names"] == ["fmt_price"]
    assert observation.details["still_used_in"] == {"store/receipt.py": [1, 5], "store/report.py": [5]}
    assert "store/format.py no longer defines fmt_price" in observation.output
    assert "store/receipt.py (lines 1, 5); store/report.py (line 5)" in observation.output
    assert "other.py" not in observation.output


@pytestmark_posix
def test_an_edit_that_keeps_every_name_or_drops_an_unused_one_adds_no_note(store: Path) -> None:
    (store / "store" / "extra.py").write_text("def helper():\n    return 1\n\n\ndef kept():\n    return 2\n")
    run = executor(store).execute

    changed = run(
        Action.model_validate(
            {
                "tool": "apply_diff",
                "path": "store/format.py",
                "content": FORMAT.decode().replace("EUR", "USD"),
            }
        )
    )
    dropped = run(
        Action.model_validate(
            {"tool": "apply_diff", "path": "store/extra.py", "content": "def kept():\n    return 2\n"}
        )
    )

    assert changed.status == "ok" and "dropped_names" not in changed.details
    assert "still_used_in" not in dropped.details and "no longer defines" not in dropped.output
