"""Place one hunk in the file, or explain precisely why it cannot be placed.

Order of attempts: every tier strictly (first tier with any match wins; more than one match there is
ambiguous unless exactly one starts at the header's line); then a single skipped line inside the outer
context (only if that is unique); then, for a hunk whose changed lines form one block with removed lines,
that block alone when its removed lines occur at exactly one place (the unchanged lines around it, which
only locate the change, are then ignored and named in a note); then diagnosis: placeholder context, already
applied, or stale.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher, get_close_matches

from glmagent.patching._indent import IDENTITY, IndentMap, derive_indent_map, leading_ws
from glmagent.patching._match import KEY, PUNCT_CHARS, TIERS, LineIndex, Tier, keyed, normalise_punct
from glmagent.patching._parse import Hunk
from glmagent.patching._placeholder import placeholder_strength

_MAX_LISTED = 5
_QUOTE_WIDTH = 120
_COMMON = 50  # a line occurring more often than this says nothing about where a hunk belongs
_MAX_REGION = 40  # lines of the closest region quoted in a stale-context message
_CLOSE_SEARCH_LINES = 5_000  # files up to this size are searched for the line a mistyped one meant


class HunkFailure(Exception):
    """A hunk that cannot be placed: `reason` is a PatchRejected code, the message says what to do."""

    def __init__(
        self, reason: str, message: str, suggestion: str = "", near: tuple[int, int] | None = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.suggestion = suggestion
        """A diff the model can send instead (see `Locator._intended`), or ""."""
        self.near = near
        """The file lines [start, end) (0-based) the hunk's lines most resemble, when known."""


@dataclass(slots=True)
class Placement:
    """Where a hunk goes: file lines [start, end) are replaced according to `plan`.

    `plan` items: ("keep", file line), ("del", file line) or ("add", text to insert).
    """

    hunk: Hunk
    start: int
    end: int
    tier: Tier
    plan: list[tuple[str, int | str]]
    notes: list[str] = field(default_factory=list)

    def signature(self) -> tuple[int, int, tuple[tuple[str, int | str], ...]]:
        """Identity of the edit, used to drop duplicate hunks."""
        return self.start, self.end, tuple(self.plan)


def quote(line: str) -> str:
    """A line for a message, shortened if very long."""
    if len(line) > _QUOTE_WIDTH:
        line = line[: _QUOTE_WIDTH - 3] + "..."
    return repr(line)


def numbered(lines: list[str], start: int, end: int, mark: set[int] | None = None) -> str:
    """File lines [start, end) as '  NN| text' rows (1-based numbers), for messages."""
    end = min(end, len(lines))
    width = len(str(max(end, 1)))
    rows = []
    for i in range(max(0, start), end):
        flag = ">" if mark and i in mark else " "
        text = lines[i] if len(lines[i]) <= 200 else lines[i][:197] + "..."
        rows.append(f"  {flag}{i + 1:>{width}}| {text}")
    return "\n".join(rows)


_SIMILAR_CHANGE = 0.6
"""How alike (difflib ratio) a swapped hunk's SEARCH lines and the file's lines must be to read as a change
of those lines rather than an addition next to them."""


def _join_lines(numbers: list[int]) -> str:
    shown = [str(n + 1) for n in numbers[:_MAX_LISTED]]
    more = len(numbers) - len(shown)
    text = ", ".join(shown[:-1]) + (" and " if len(shown) > 1 else "") + shown[-1]
    return text + (f" (and {more} more)" if more > 0 else "")


class Locator:
    """Places hunks in one file; shares the line index (and its caches) across hunks."""

    def __init__(self, lines: list[str], hunks: list[Hunk], tiers: tuple[Tier, ...] = TIERS) -> None:
        self.lines = lines
        self.index = LineIndex(lines)
        self.hunks = hunks
        self.tiers = tiers
        self._prefetched: set[Tier] = set()

    def _ready(self, tier: Tier) -> None:
        """On first use of a tier, index every line of every hunk under it in one pass."""
        if tier in self._prefetched:
            return
        self._prefetched.add(tier)
        wanted = {KEY[tier](t) for h in self.hunks for t in h.texts}
        self.index.prefetch(tier, wanted)

    def _find(self, lines: Sequence[str | None], tier: Tier) -> list[int]:
        self._ready(tier)
        return self.index.find(lines, tier)

    # -- placing ---------------------------------------------------------------------------------------

    def place(self, hunk: Hunk) -> Placement:
        """Place `hunk` or raise HunkFailure."""
        old = hunk.old_lines
        if not any(line.strip() for line in old):
            raise HunkFailure(
                "ambiguous",
                f"{hunk.label()}: all of its unchanged/removed lines are blank, which does not identify a "
                "place in the file. Include a few non-blank unchanged lines around the change as context.",
            )
        total = len(self.lines)
        for tier in self.tiers:
            starts = self._find(keyed(tier, old), tier)
            if hunk.old_no_eol:
                # The marker says the hunk's last old line is the file's last line.
                starts = [s for s in starts if s + len(old) == total]
            if starts:
                return self._choose(hunk, tier, starts)
        # Before any tolerance: a present new side means the edit was made, not that lines went missing.
        applied = self._already_applied(hunk)
        if applied is not None:
            raise applied
        relaxed = self._place_with_skipped_line(hunk) or self._place_by_changed_block(hunk)
        if relaxed is not None:
            return relaxed
        raise self._diagnose(hunk)

    def _choose(self, hunk: Hunk, tier: Tier, starts: list[int]) -> Placement:
        notes: list[str] = []
        if len(starts) > 1:
            hinted = [s for s in starts if hunk.old_start is not None and s + 1 == hunk.old_start]
            # A line number is trusted only to pick between places that a substantial hunk matches: with a
            # line or two of "}" as context, an off-by-a-few number would land on another brace.
            if len(hinted) != 1 or not _substantial(hunk.old_lines):
                raise self._ambiguous(hunk, tier, starts)
            notes.append(
                f"its lines occur at {len(starts)} places (lines {_join_lines(starts)}); used the one at "
                f"the header's line {hunk.old_start}"
            )
            starts = hinted
        placement = self._build(hunk, starts[0], None, tier, notes)
        self._check_not_reapplied(hunk, placement)
        return placement

    def _ambiguous(self, hunk: Hunk, tier: Tier, starts: list[int]) -> HunkFailure:
        how = "exactly" if tier == "exact" else f"when compared ignoring {_TIER_WORDS[tier]}"
        shown = []
        for s in starts[:_MAX_LISTED]:
            shown.append(f"at line {s + 1}:\n" + numbered(self.lines, s - 3, s + 1, {s}))
        hint = ""
        if hunk.old_start and not _substantial(hunk.old_lines):
            hint = " Its unchanged/removed lines are too few to trust the header's line number."
        elif hunk.old_start:
            hint = f" The header's line {hunk.old_start} is not where any of them starts."
        return HunkFailure(
            "ambiguous",
            f"{hunk.label()} matches {len(starts)} places in the file ({how}), starting at lines "
            f"{_join_lines(starts)}; it is not clear which one to change.{hint}\n"
            + "\n".join(shown)
            + "\nAdd unchanged context lines that differ between these places (for example the enclosing "
            "function's signature) so the hunk matches exactly one place, and put that place's line number "
            "in the @@ header.",
        )

    def _build(self, hunk: Hunk, start: int, gap: int | None, tier: Tier, notes: list[str]) -> Placement:
        """Turn a match into a plan; context always comes from the file, added lines are re-indented."""
        old = hunk.old_lines
        positions: list[int] = []
        pos = start
        for j in range(len(old)):
            if j == gap:
                pos += 1
            positions.append(pos)
            pos += 1
        end = pos
        pairs = [(old[j], self.lines[positions[j]]) for j in range(len(old))]
        mapping = IDENTITY
        if tier in ("indent", "quotes"):
            derived = derive_indent_map(pairs)
            if derived is None:
                raise self._inconsistent_indent(hunk, start, pairs)
            if derived.add == " " or derived.remove == " ":
                raise self._one_space_shift(hunk, start, derived)
            mapping = derived
            if not mapping.identity:
                notes.append(mapping.describe())
        translate = _punct_translation(pairs) if tier in ("unicode", "indent", "quotes") else {}
        if tier == "quotes":
            notes.append(
                "its unchanged/removed lines matched the file only with ' and \" taken as the same quote; "
                "the file's own lines were kept and the added lines are as written"
            )
        if translate:
            shown = ", ".join(f"{c!r}->{t!r}" for c, t in sorted(translate.items()))
            notes.append(f"the diff's typographic characters were normalised in added lines ({shown})")
        table = str.maketrans(translate)
        plan: list[tuple[str, int | str]] = []
        j = 0
        for kind, text in zip(hunk.kinds, hunk.texts, strict=True):
            if kind == "+":
                plan.append(("add", self._map_added(hunk, text.translate(table), mapping)))
                continue
            if j == gap:
                plan.append(("keep", positions[j] - 1))
            plan.append(("del" if kind == "-" else "keep", positions[j]))
            j += 1
        if hunk.new_no_eol and not hunk.old_no_eol and end != len(self.lines):
            raise HunkFailure(
                "stale_context",
                f"{hunk.label()} says its last added line ends the file ('\\ No newline at end of file'), "
                f"but it matched at lines {start + 1}-{end} of {len(self.lines)}. Re-read the end of the "
                "file.",
            )
        if not hunk.changes:
            notes.append("changes nothing (context only)")
        return Placement(hunk, start, end, tier, plan, notes)

    @staticmethod
    def _map_added(hunk: Hunk, text: str, mapping: IndentMap) -> str:
        mapped = mapping.apply(text)
        if mapped is None:
            raise HunkFailure(
                "inconsistent_indent",
                f"{hunk.label()}: the file is indented differently from the diff ({mapping.describe()}), "
                f"and the added line {quote(text)} is too shallow to be mapped the same way. Re-read the "
                "file and copy its indentation exactly.",
            )
        return mapped

    @staticmethod
    def _one_space_shift(hunk: Hunk, start: int, mapping: IndentMap) -> HunkFailure:
        # Nobody indents by one space: this is a diff whose unchanged lines lost (or doubled) their leading
        # ' ' prefix, and shifting the added lines by a space would then break them.
        return HunkFailure(
            "inconsistent_indent",
            f"{hunk.label()} matches near line {start + 1} only if its lines are shifted by one space "
            f"({mapping.describe()}). That usually means the unchanged lines lost (or gained) their ' ' "
            "prefix: each unchanged line must be a space followed by the file's line exactly, indentation "
            "included.",
        )

    def _inconsistent_indent(self, hunk: Hunk, start: int, pairs: list[tuple[str, str]]) -> HunkFailure:
        examples = []
        for d, f in pairs:
            if d.strip() and leading_ws(d) != leading_ws(f):
                examples.append(f"    diff {quote(d)}\n    file {quote(f)}")
            if len(examples) == 3:
                break
        return HunkFailure(
            "inconsistent_indent",
            f"{hunk.label()} only matches lines {start + 1}-{start + len(pairs)} when indentation is "
            "ignored, and its lines are not shifted consistently (no single indentation change maps the "
            "diff onto the file), so where added lines belong is unclear:\n"
            + "\n".join(examples)
            + "\nRe-read the file and copy each line's indentation exactly.",
        )

    def _check_not_reapplied(self, hunk: Hunk, placement: Placement) -> None:
        """Refuse a hunk whose change is evidently in the file already, though its old lines matched.

        Two cases: pure additions at one edge of the context that already follow it; and a header that
        points exactly at the hunk's new side while the old side matched elsewhere (a re-sent diff whose
        old lines also occur in another place, e.g. a twin function).
        """
        tier = placement.tier
        old = keyed(tier, hunk.old_lines)
        new = keyed(tier, hunk.new_lines)
        # Only meaningful additions count as evidence: a blank line or a brace may well be wanted twice.
        if not hunk.changes or not any(
            _informative(t) for k, t in zip(hunk.kinds, hunk.texts, strict=True) if k == "+"
        ):
            return
        keys = self.index.keys(tier)
        start, end = placement.start, placement.end
        for hint in {hunk.old_start, hunk.new_start} - {None, 0, start + 1}:
            assert hint is not None
            if keys[hint - 1 : hint - 1 + len(new)] == new:
                raise HunkFailure(
                    "already_applied",
                    f"{hunk.label()} looks already applied: the lines it would produce are already at line "
                    f"{hint}, where its header points:\n"
                    + numbered(self.lines, hint - 1, hint - 1 + len(new))
                    + f"\nIts old lines also occur at line {start + 1}, but that is another place. "
                    "Re-read the file before editing it again; if that other place should change too, send "
                    "a hunk with context that identifies it.",
                )
        if len(new) <= len(old):
            return
        after = keys[start : start + len(new)] == new
        before = end - len(new) >= 0 and keys[end - len(new) : end] == new
        if after or before:
            where = start if after else end - len(new)
            raise HunkFailure(
                "already_applied",
                f"{hunk.label()} looks already applied: the lines it adds are already in the file next to "
                f"its context (lines {where + 1}-{where + len(new)}):\n"
                + numbered(self.lines, where, where + len(new))
                + "\nRe-read the file before editing it again. If you really want these lines a second time, "
                "include the unchanged lines that follow the insertion point as context.",
            )

    # -- one skipped context line ----------------------------------------------------------------------

    def _gaps(self, hunk: Hunk) -> list[int]:
        """Old-side gap positions g ("the file has one extra line before old line g") that are safe.

        Only inside the leading or trailing context, or between that context and a removed line: never next
        to an added line, where it would be unknowable whether additions go before or after the extra line.
        """
        kinds = hunk.kinds
        changed = [k for k, kind in enumerate(kinds) if kind in "+-"]
        if not changed:
            return []
        first, last = changed[0], changed[-1]
        lead = first  # context lines before the first change
        old_count = sum(1 for kind in kinds if kind != "+")
        trail = len(kinds) - 1 - last
        gaps = set(range(1, lead))
        if lead and kinds[first] == "-":
            gaps.add(lead)
        tail = old_count - trail  # old index of the first trailing context line
        gaps.update(range(tail + 1, old_count))
        if trail and kinds[last] == "-" and tail > 0:
            gaps.add(tail)
        return sorted(g for g in gaps if 0 < g < old_count)

    def _place_with_skipped_line(self, hunk: Hunk) -> Placement | None:
        old = hunk.old_lines
        if sum(1 for line in old if line.strip()) < 2:
            return None
        allowed = set(self._gaps(hunk))
        if not allowed:
            return None
        for tier in self.tiers:
            keys = keyed(tier, old)
            # Every gap position is searched, not only the safe ones: a match at an unsafe one is another
            # reading of the same diff, which makes the safe reading ambiguous too.
            found: list[tuple[int, int]] = []
            for g in range(1, len(old)):
                pattern: list[str | None] = [*keys[:g], None, *keys[g:]]
                for s in self._find(pattern, tier):
                    if not hunk.old_no_eol or s + len(old) + 1 == len(self.lines):
                        found.append((s, g))
            if not found:
                continue
            readings: dict[tuple[int, int, tuple[tuple[str, int | str], ...]], Placement] = {}
            unsafe = [(s, g) for s, g in found if g not in allowed]
            if not unsafe:
                for s, g in found:
                    skipped = s + g
                    notes = [
                        f"skipped context line {skipped + 1} ({quote(self.lines[skipped])}), which the diff "
                        "left out; it is kept"
                    ]
                    placement = self._build(hunk, s, g, tier, notes)
                    readings.setdefault(_outcome(placement, self.lines), placement)
            if unsafe or len(readings) > 1:
                starts = sorted({s for s, _ in found})
                raise HunkFailure(
                    "ambiguous",
                    f"{hunk.label()} does not match the file as written. Allowing for one file line missing "
                    f"from its context, it could be read {len(found)} ways (starting at "
                    f"line{'s' if len(starts) > 1 else ''} {_join_lines(starts)}), which change the file "
                    "differently. Re-read the file and copy the unchanged lines exactly, without gaps.",
                )
            return next(iter(readings.values()))
        return None

    # -- context that does not match: the changed block alone -----------------------------------------

    def _place_by_changed_block(self, hunk: Hunk) -> Placement | None:
        """Place a hunk by its changed lines when its unchanged ones match nowhere.

        Small models often get the context wrong (lines out of order, a line kept both as context and as
        removed, text copied from a traceback) while their removed lines are the file's. When the changes
        form one block (no unchanged line between them) whose removed lines include a line that says
        something and occur at exactly one place in the file, the block is placed there and the unchanged
        lines are ignored: what is removed and what replaces it are exactly what the diff says. Anything
        less certain (several places, a block split by context, only blank or brace lines) is refused as
        before.
        """
        kinds = hunk.kinds
        changed = [k for k, kind in enumerate(kinds) if kind in "+-"]
        if not changed or "-" not in kinds:
            return None
        first, last = changed[0], changed[-1]
        if any(kind not in "+-" for kind in kinds[first : last + 1]):
            return None
        block = replace(
            hunk,
            kinds=kinds[first : last + 1],
            texts=hunk.texts[first : last + 1],
            old_no_eol=hunk.old_no_eol and last == len(kinds) - 1,
            new_no_eol=hunk.new_no_eol and last == len(kinds) - 1,
        )
        removed = block.old_lines
        if not any(map(_informative, removed)):
            return None
        for tier in self.tiers:
            starts = self._find(keyed(tier, removed), tier)
            if block.old_no_eol:
                starts = [s for s in starts if s + len(removed) == len(self.lines)]
            if not starts:
                continue
            if len(starts) > 1:
                return None
            ignored = [t for k, t in zip(kinds, hunk.texts, strict=True) if k not in "+-" and t.strip()]
            shown = ", ".join(quote(t) for t in ignored[:8]) + (" ..." if len(ignored) > 8 else "")
            note = (
                f"its unchanged lines ({shown}) do not match the file and were ignored; its removed lines "
                f"occur only at line {starts[0] + 1}, where the change was made"
            )
            placement = self._build(block, starts[0], None, tier, [note] if ignored else [])
            self._check_not_reapplied(block, placement)
            return placement
        return None

    # -- diagnosis -------------------------------------------------------------------------------------

    def _already_applied(self, hunk: Hunk) -> HunkFailure | None:
        """The hunk's old side is nowhere, but its new side is: the change was made already."""
        new = hunk.new_lines
        added = [t for k, t in zip(hunk.kinds, hunk.texts, strict=True) if k == "+"]
        evidence = any(map(_informative, added)) or (
            not added and sum(1 for line in new if line.strip()) >= 2
        )
        if not (hunk.changes and evidence):
            return None
        for tier in self.tiers:
            starts = self._find(keyed(tier, new), tier)
            if starts:
                s = starts[0]
                what, body = self._intended(hunk, s) if len(starts) == 1 else ("", "")
                return HunkFailure(
                    "already_applied",
                    f"{hunk.label()} looks already applied: its removed/context lines are not in the file, "
                    f"but its resulting lines are (at line{'s' if len(starts) > 1 else ''} "
                    f"{_join_lines(starts)}):\n"
                    + numbered(self.lines, s, s + len(new))
                    + "\nRe-read the file before editing it again; send only changes that are still "
                    "needed. If you have not made this change yet, the two halves are swapped: the lines "
                    "to find (SEARCH, or ' '/'-' lines) must be the file's lines as they are now, and the "
                    "replacement (REPLACE, or '+' lines) those lines as they must read after the change, "
                    "new lines included." + (f" {what}, send exactly this:\n{body}" if body else ""),
                    body,
                )
        return None

    def _intended(self, hunk: Hunk, start: int) -> tuple[str, str]:
        """The diff a swapped hunk most likely meant, written out for the model to send (never applied here).

        Small models put the code they want under SEARCH and the file's line it belongs next to under
        REPLACE. When the hunk has no unchanged lines and its new side is found once, at `start`: lines
        much like the file's are a change of those lines; other lines (a guard clause, a branch) are an
        addition before them. Indented like the file's lines. (What it does, the diff); ("", "") when the
        hunk is not of that shape."""
        if " " in hunk.kinds or "b" in hunk.kinds:
            return "", ""
        wanted = hunk.old_lines  # no unchanged lines: exactly its SEARCH part
        written = hunk.new_lines
        if not written or not any(map(_informative, wanted)):
            return "", ""
        found = self.lines[start : start + len(written)]
        indent = derive_indent_map(list(zip(written, found, strict=True)))
        if indent is not None:  # the same re-indenting an applied hunk's added lines get
            wanted = [indent.apply(t) or t for t in wanted]
        similar = SequenceMatcher(
            None, "\n".join(t.strip() for t in wanted), "\n".join(t.strip() for t in found)
        ).ratio()
        where = f"line {start + 1}" if len(found) == 1 else f"lines {start + 1}-{start + len(found)}"
        if similar >= _SIMILAR_CHANGE:
            what, after = f"To change {where} into your SEARCH lines", wanted
        else:
            what, after = f"To add your SEARCH lines before {where}", wanted + found
        if hunk.header.strip() == "SEARCH/REPLACE":
            body = "\n".join(["<<<<<<< SEARCH", *found, "=======", *after, ">>>>>>> REPLACE"])
        else:
            body = "\n".join(["@@", *("-" + t for t in found), *("+" + t for t in after)])
        return what, body

    def _diagnose(self, hunk: Hunk) -> HunkFailure:
        self._ready("indent")
        for text in hunk.old_lines:
            if placeholder_strength(text) and not self.index.positions("indent", KEY["indent"](text)):
                return HunkFailure(
                    "placeholder",
                    f"{hunk.label()} contains {quote(text)}, which stands for elided code and is not a line "
                    "of the file. A diff must quote the file's real lines: use separate, smaller hunks "
                    "around each change instead of eliding what lies between them.",
                )
        return self._stale(hunk)

    def _stale(self, hunk: Hunk) -> HunkFailure:
        old = hunk.old_lines
        self._ready("indent")
        loose = keyed("indent", old)
        absent = [
            text
            for text, key in zip(old, loose, strict=True)
            if key and not self.index.positions("indent", key)
        ]
        gapped = None if absent else self._in_order_with_gaps(loose)
        if gapped is None:
            parts = [
                f"{hunk.label()} does not match the file: its unchanged/removed lines are not there in that "
                "order (the diff was made against other content, or some lines were invented or mistyped)."
            ]
        else:
            at, missing = gapped
            parts = [
                f"{hunk.label()} does not match the file: its unchanged/removed lines are each in the file "
                f"(lines {_join_lines(at)}), but not one after another, and the lines to find (SEARCH, or "
                "' '/'-' lines) must be consecutive lines of the file, none left out between them (here "
                f"line{'s' if len(missing) > 1 else ''} {_join_lines(missing)}). Copy every line from "
                f"{at[0] + 1} to {at[-1] + 1}, or only the line(s) where the change goes."
            ]
        if absent:
            listed = "\n".join(self._absent_line(t) for t in absent[:8])
            more = f"\n    ... and {len(absent) - 8} more" if len(absent) > 8 else ""
            parts.append(f"These lines of the hunk are not in the file at all:\n{listed}{more}")
        if hunk.old_lines == hunk.new_lines:
            # Small models often put the lines they want in both halves, as if the edit were made.
            parts.append(
                "Besides, what it puts in is exactly what it takes out, so even where it matched it would "
                "change nothing: the lines to find (SEARCH, or ' '/'-' lines) must be the file's lines as "
                "they are now, and only the replacement (REPLACE, or '+' lines) holds the new code."
            )
        near = self._closest(hunk, loose)
        if near is not None:
            lo = max(0, near[0] - 2)
            hi = min(len(self.lines), near[1] + 2, lo + _MAX_REGION)
            parts.append(
                f"The closest region of the file is lines {lo + 1}-{hi}:\n" + numbered(self.lines, lo, hi)
            )
        elif not self.lines:
            parts.append("The file is empty.")
        parts.append(
            "Re-read the file and resend the diff with its unchanged and removed lines copied exactly from "
            "it."
        )
        return HunkFailure("stale_context", "\n".join(parts), near=near)

    def _in_order_with_gaps(self, loose: list[str]) -> tuple[list[int], list[int]] | None:
        """Where the hunk's non-blank lines occur in order in the file with other lines between them (the
        0-based positions, and the 0-based lines skipped), or None when they do not (or without gaps).
        Small models list the lines of a pattern (every `if` of a chain) as if they were a block."""
        keys = self.index.keys("indent")
        wanted = [key for key in loose if key]
        if len(wanted) < 2:
            return None
        at: list[int] = []
        for key in wanted:
            start = at[-1] + 1 if at else 0
            found = next((i for i in range(start, len(keys)) if keys[i] == key), None)
            if found is None:
                return None
            at.append(found)
        taken = set(at)
        missing = [i for i in range(at[0], at[-1] + 1) if i not in taken and keys[i]]
        return (at, missing) if missing else None

    def _absent_line(self, text: str) -> str:
        """`text` (a hunk line found nowhere in the file) and, when one is close, the file line it was
        probably meant to be, so the model sees the difference (a missing '.', another name)."""
        line = f"    {quote(text)}"
        if len(self.lines) > _CLOSE_SEARCH_LINES or not text.strip():
            return line
        keys = self.index.keys("indent")
        close = get_close_matches(text.strip(), [k.strip() for k in keys], n=1, cutoff=0.75)
        if not close:
            return line
        where = next(i for i, k in enumerate(keys) if k.strip() == close[0])
        return f"{line}\n      the file has, at line {where + 1}: {quote(self.lines[where])}"

    def _closest(self, hunk: Hunk, loose: list[str]) -> tuple[int, int] | None:
        """The file window [start, end) most like the hunk's old side: vote by shared lines, then rank by
        similarity."""
        votes: Counter[int] = Counter()
        for j, key in enumerate(loose):
            if not key:
                continue
            found = self.index.positions("indent", key)
            if len(found) > _COMMON:
                continue
            for p in found:
                votes[p - j] += 1
        if not votes:
            return None
        size = len(loose)
        keys = self.index.keys("indent")
        hint = (hunk.old_start or 0) - 1

        def score(start: int) -> tuple[float, int]:
            window = keys[max(0, start) : max(0, start) + size]
            ratio = SequenceMatcher(None, loose, window, autojunk=False).ratio()
            return ratio, -abs(start - hint)

        best = max((s for s, _ in votes.most_common(10)), key=score)
        return max(0, best), min(len(self.lines), best + size)


def _outcome(p: Placement, lines: list[str]) -> tuple[int, int, tuple[tuple[str, int | str], ...]]:
    """What a placement does, by text: two readings that produce the same lines are the same edit."""
    texts = tuple((op, lines[v] if isinstance(v, int) else v) for op, v in p.plan)
    return p.start, p.end, texts


def _informative(line: str) -> bool:
    """Whether a line says something on its own (not blank, not just punctuation like "}")."""
    return any(c.isalnum() for c in line)


def _substantial(old: list[str]) -> bool:
    """Whether a hunk's old side is specific enough for its header line number to pick among matches."""
    return sum(1 for line in old if line.strip()) >= 2 and any(map(_informative, old))


_TIER_WORDS: dict[Tier, str] = {
    "exact": "nothing",
    "trailing_ws": "trailing whitespace",
    "unicode": "trailing whitespace and typographic punctuation",
    "indent": "indentation, trailing whitespace and typographic punctuation",
    "quotes": "quote style, indentation, trailing whitespace and typographic punctuation",
}


def _punct_translation(pairs: list[tuple[str, str]]) -> dict[str, str]:
    """Typographic characters the diff used where the file has ASCII, to undo them in added lines too.

    A character also found verbatim in the matched file lines is the file's own and is left alone.
    """
    wrong: set[str] = set()
    genuine: set[str] = set()
    for d, f in pairs:
        for c in set(d) & PUNCT_CHARS:
            (genuine if c in f else wrong).add(c)
    return {c: normalise_punct(c) for c in wrong - genuine}
