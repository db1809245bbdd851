"""Every sample corpus case through apply_patch: byte-exact results, deletions, and refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from glmagent.errors import PatchRejected
from glmagent.patching import apply_patch

CORPUS = Path(__file__).parent / "corpus" / "diffs"
CASES = sorted(p for p in CORPUS.iterdir() if p.is_dir())


def _read(folder: Path, name: str) -> bytes | None:
    file = folder / name
    return file.read_bytes() if file.exists() else None


def test_the_sample_corpus_is_present() -> None:
    assert len(CASES) >= 18


@pytest.mark.parametrize("folder", CASES, ids=[p.name for p in CASES])
def test_corpus_case(folder: Path) -> None:
    before = _read(folder, "before")
    after = _read(folder, "after")
    path = (folder / "path.txt").read_text(encoding="utf-8").strip()
    diff = (folder / "patch.diff").read_bytes().decode("utf-8")
    meta = (folder / "meta.txt").read_text(encoding="utf-8").strip()

    if (folder / "expect_deleted").exists():
        result = apply_patch(path, before, diff)
        assert result.action == "delete", meta
        assert result.content is None
        return
    if after is None:
        with pytest.raises(PatchRejected) as rejected:
            apply_patch(path, before, diff)
        assert rejected.value.reason, meta
        assert str(rejected.value), meta
        return
    result = apply_patch(path, before, diff)
    assert result.content == after, meta
    assert result.action == ("create" if before is None else "modify")
