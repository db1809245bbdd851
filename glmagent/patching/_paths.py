"""Does a diff header name the file the caller targets?

Models write `a/`/`b/` prefixes, labels ("(original)"), timestamps, basenames or absolute paths. A header
agrees with `path` when, after stripping those, one is a whole-component suffix of the other.
"""

from __future__ import annotations

# Side labels put in front of paths: git's a/ b/ (and its mnemonic i/ w/ c/ o/), and the old/new
# directory names of `diff -ru old new` style output.
_SIDE_PREFIXES = ("a/", "b/", "i/", "w/", "c/", "o/", "old/", "new/", "orig/", "original/", "modified/")
# Backup names of `diff -u x.py.orig x.py` style output.
_BACKUP_SUFFIXES = (".orig", ".old", ".bak", ".new", ".original", ".modified", "~")


def _normalise(name: str) -> str:
    name = name.strip().replace("\\", "/")
    while name.startswith("./"):
        name = name[2:]
    while "//" in name:
        name = name.replace("//", "/")
    return name.rstrip("/")


def _spellings(raw: str) -> list[str]:
    """Candidate paths a raw header name may stand for, most literal first."""
    text = raw.split("\t", 1)[0].strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    tokens = text.split(" ")
    # Drop trailing tokens one by one: "inventory.py (original)", "x.py 2024-01-01 10:00:00 +0000".
    bases = [" ".join(tokens[:k]) for k in range(len(tokens), 0, -1)]
    out: list[str] = []
    for base in bases:
        name = _normalise(base)
        if not name:
            continue
        for unlabelled in (name, *(name[len(p) :] for p in _SIDE_PREFIXES if name.startswith(p))):
            if not unlabelled:
                continue
            out.append(unlabelled)
            out.extend(
                unlabelled[: -len(x)] for x in _BACKUP_SUFFIXES if unlabelled.endswith(x) and unlabelled != x
            )
    return out


def _suffix_agrees(a: str, b: str) -> bool:
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def header_agrees(raw: str, path: str) -> bool:
    """Whether a raw header name (as written after '--- ', '+++ ', 'diff --git') denotes `path`."""
    target = _normalise(path)
    return any(_suffix_agrees(name, target) for name in _spellings(raw))


def display_name(raw: str) -> str:
    """A header name for messages: without tab-separated timestamps."""
    return raw.split("\t", 1)[0].strip()
