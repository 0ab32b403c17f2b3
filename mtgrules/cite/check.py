"""The status of one citation against the target edition.

A citation means the rule its number had in the edition the text was written for (W). That
rule is followed, through the stored links between consecutive English editions, to the
target edition (T):

- **current**: it is still there under the same number;
- **renumbered**: it is there under another number (310.8b -> 310.9b), both texts shown;
- **removed**: the links lose it on the way; the last edition that had it is named (and,
  if T has a rule of that number, that it is another rule);
- **never-existed**: no edition of the store has that number; the nearest numbers are given;
- **quote-mismatch**: a quotation beside the citation is not the cited rule's words; the
  rule that holds them is named when one does.

A number W lacks is read in the last edition before W that has it (a text written for W
may keep a number from before W), else in the first one after.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..store.queries import EditionInfo
from ..text.identify import script_of_text
from ..text.labels import label_sort_key, nearest_labels, parent_of
from ..text.language import base_language
from .citations import Found, Quote
from .context import Weights, around, fit, paragraph, tokens, without_references
from .editions import EnglishLine
from .quotes import (
    ClauseIndex,
    checkable,
    holder,
    is_paragraph_of,
    latin_language,
    matches,
    quote_language,
)

CURRENT = "current"
RENUMBERED = "renumbered"
REMOVED = "removed"
NEVER_EXISTED = "never-existed"
QUOTE_MISMATCH = "quote-mismatch"
STATUSES = (CURRENT, RENUMBERED, REMOVED, NEVER_EXISTED, QUOTE_MISMATCH)

# When the words around a citation fit another rule the number had before: at least this
# many content tokens around it, a fit of at least MIN_FIT, and FIT_RATIO times (plus
# FIT_MARGIN) the fit of the rule it has in W.
MIN_CONTEXT = 6
MIN_FIT = 0.3
FIT_RATIO = 3.0
FIT_MARGIN = 0.15

# The script a translation is written in, for comparing quotations in that script.
_SCRIPTS = {"zh": "han", "ja": "kana", "ko": "hangul", "ru": "cyrillic", "uk": "cyrillic"}


def script_of_language(tag: str) -> str:
    return _SCRIPTS.get(tag.split("-")[0].lower(), "latin")


@dataclass
class Verdict:
    """The status of one citation in the target edition (one of STATUSES), the number its rule has
    there now (None when it has none), and the evidence."""

    status: str
    now: str | None
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Reading:
    """What a number means and became: the edition it is read in, and where it went."""

    verdict: Verdict
    read_in: EditionInfo | None
    now: tuple[str, ...] = ()


class Checker:
    def __init__(self, line: EnglishLine, target: EditionInfo, written_for: EditionInfo):
        self.line = line
        self.target = target
        self.written_for = written_for
        self._readings: dict[str, _Reading] = {}
        self._quotes: dict[tuple[str, str, str], Verdict] = {}
        self._alts: dict[str, list[_Reading]] = {}
        self._lineage: dict[tuple[str, int, str], frozenset[str]] = {}
        self._weight: dict[str, Weights | None] = {}
        self._indexes: dict[int, ClauseIndex] = {}

    def check(self, found: Found, text: str | None = None) -> Verdict:
        """The status of one citation; ``text`` (the text it was found in) lets the words
        around it tell a stale number that still exists (see context.py)."""
        reading = self._readings.get(found.label)
        if reading is None:
            reading = self._readings[found.label] = self._read(found.label)
        quote = found.quote
        if quote is not None and reading.read_in is not None and checkable(quote):
            key = (found.label, quote.kind, quote.text)
            if key not in self._quotes:
                self._quotes[key] = self._check_quote(found.label, quote, reading)
            return self._quotes[key]
        # The words around a list or a range speak of all its rules at once: only a number
        # cited alone is read against them.
        if text is not None and reading.read_in is not None and found.members == 1:
            other = self._by_context(found, text, reading)
            if other is not None:
                return other
        return reading.verdict

    # --- the words around it -----------------------------------------------------------------

    def _alternatives(self, label: str, reading: _Reading) -> list[_Reading]:
        """The other rules the number was, in the editions up to W, whose fate in T differs
        from the default reading's: one reading per distinct wording, its latest edition."""
        if label in self._alts:
            return self._alts[label]
        line = self.line
        w = line.index(self.written_for)
        latest: dict[str, EditionInfo] = {}
        for e in line.holders(label):
            if line.index(e) > w or (reading.read_in and e.id == reading.read_in.id):
                continue
            own = line.own_text(e, label)
            if own is not None:
                latest[own] = e
        default_text = line.own_text(reading.read_in, label) if reading.read_in else None
        out = []
        seen_fates = {reading.now}
        for own, e in latest.items():
            if own == default_text:
                continue
            alt = self._reading_in(label, e)
            # Only a rule that moved to another number: one the links lose on the way may
            # just have been reworded past recognition (2009's heading 104 "Winning and
            # Losing" is 2012's "Ending the Game"), and is no evidence of a stale number.
            if not alt.now or label in alt.now or alt.now in seen_fates:
                continue
            seen_fates.add(alt.now)
            out.append(alt)
        self._alts[label] = out
        return out

    def _by_context(self, found: Found, text: str, reading: _Reading) -> Verdict | None:
        alts = self._alternatives(found.label, reading)
        if not alts:
            return None
        words = around(text, found.citation_start, found.citation_end, least=MIN_CONTEXT)
        script = script_of_text(words) or "latin"
        context = tokens(words)
        if len(context) < MIN_CONTEXT:
            return None
        weight = self._weights(script)
        if weight is None:
            return None
        base = fit(context, self._lineage_tokens(found.label, reading, script), weight)
        best, best_fit = None, 0.0
        for alt in alts:
            f = fit(context, self._lineage_tokens(found.label, alt, script), weight)
            if f > best_fit:
                best, best_fit = alt, f
        if best is None or best_fit < MIN_FIT or best_fit < FIT_RATIO * base + FIT_MARGIN:
            return None
        if self._is_own_text(paragraph(text, found), found.label, best, script):
            # The words around it are that rule's own: the citation stands in the text of
            # the rule the number once was (2025's 107.3j, which was 107.3i in 2018, says
            # "This is an exception to rule 107.3i"). A rule does not cite itself.
            return None
        assert best.read_in is not None and reading.read_in is not None
        v = best.verdict
        evidence = dict(v.evidence)
        evidence["text"] = self.line.own_text(best.read_in, found.label)
        evidence["context"] = {
            "fit": round(best_fit, 3),
            "fit_as_written_for": round(base, 3),
        }
        evidence["note"] = (
            f"the words around it are about the rule {found.label} was in "
            f"{best.read_in.slug}, not about {reading.read_in.slug}'s {found.label}"
        )
        return Verdict(v.status, v.now, evidence)

    def _is_own_text(self, words: str, label: str, reading: _Reading, script: str) -> bool:
        """Is this paragraph, nearly verbatim, the reading's rule (then or now)? Quoting some
        of the rule's words is not enough: 2022's Chinese 506.1 repeats 508.8's condition
        and cites it under its 2016 number."""
        texts = self._lineage_texts(label, reading, script)
        if reading.now and script == "latin":
            for lab in reading.now:
                texts = texts + [t.text for t in self.line.rule_texts(self.target, lab)]
        return is_paragraph_of(words, texts)

    def _lineage_texts(self, label: str, reading: _Reading, script: str) -> list[str]:
        assert reading.read_in is not None
        line = self.line
        texts: list[str] = []
        if script == "latin":
            texts = [t.text for t in line.rule_texts(reading.read_in, label)]
        else:
            pairs = self._quote_editions(script)
            if pairs:
                # The translation nearest in date to the reading's edition.
                when = _days(reading.read_in.date)
                translation, english = min(
                    pairs, key=lambda p: (abs(_days(p[1].date) - when), p[1].date)
                )
                for lab in line.follow(reading.read_in, label, english).labels:
                    texts += [t.text for t in line.rule_texts(translation, lab)]
        return texts

    def _lineage_tokens(self, label: str, reading: _Reading, script: str) -> frozenset[str]:
        assert reading.read_in is not None
        key = (label, reading.read_in.id, script)
        if key in self._lineage:
            return self._lineage[key]
        texts = self._lineage_texts(label, reading, script)
        out = (
            frozenset().union(*(tokens(without_references(t)) for t in texts))
            if texts
            else frozenset()
        )
        self._lineage[key] = out
        return out

    def _weights(self, script: str) -> Weights | None:
        if script not in self._weight:
            if script == "latin":
                edition = self.target
            else:
                pairs = self._quote_editions(script)
                edition = pairs[0][0] if pairs else None
            self._weight[script] = (
                Weights(t for _l, t in self.line.clauses(edition)) if edition else None
            )
        return self._weight[script]

    # --- the number ------------------------------------------------------------------------

    def meaning(self, label: str) -> EditionInfo | None:
        """The edition a cited number is read in (see the module's docstring)."""
        holders = self.line.holders(label)
        if not holders:
            return None
        w = self.line.index(self.written_for)
        if any(h.id == self.written_for.id for h in holders):
            return self.written_for
        before = [h for h in holders if self.line.index(h) < w]
        return before[-1] if before else holders[0]

    def _read(self, label: str) -> _Reading:
        return self._reading_in(label, self.meaning(label))

    def _never(self, label: str, note: str) -> _Reading:
        nearby = nearest(label, self.line.labels_of(self.target))
        return _Reading(Verdict(NEVER_EXISTED, None, {"nearest": nearby, "note": note}), None)

    def _reading_in(self, label: str, read_in: EditionInfo | None) -> _Reading:
        """What the number means read in ``read_in``, and what became of that rule in T."""
        line, target = self.line, self.target
        if read_in is None:
            return self._never(
                label,
                f"no edition in the store has a rule {label} "
                f"({line.editions[0].slug} to {line.newest.slug})",
            )
        evidence: dict[str, Any] = {"read_in": read_in.slug}
        w, r, t = (line.index(e) for e in (self.written_for, read_in, target))
        if r > w and t < r:
            # A number first used after the edition the text was written for, checked
            # against an edition before that: nothing says which rule it was meant to be.
            return self._never(
                label,
                f"no rule {label} in {self.written_for.slug} or before it; first in {read_in.slug}",
            )
        if read_in.id != self.written_for.id:
            where = (
                "the last edition before it"
                if read_in.date <= (self.written_for.date or "")  # type: ignore[operator]
                else "the first edition after it"
            )
            evidence["note"] = (
                f"{self.written_for.slug} has no {label}; read in {where} that has it"
            )
        followed = line.follow(read_in, label, target)
        if followed.missing_step is not None:
            a, b = followed.missing_step
            evidence["note"] = (
                f"no stored alignment between {a.slug} and {b.slug}, so renumberings were not "
                "followed; ingest again (mtgrules ingest PATH) to store it"
            )
            exists = line.has(target, label)
            return _Reading(
                Verdict(CURRENT if exists else REMOVED, label if exists else None, evidence),
                read_in,
                (label,) if exists else (),
            )
        if not followed.labels:
            evidence["text"] = line.own_text(read_in, label)
            evidence["last_edition"] = followed.last.slug
            if followed.gone_in is not None:
                evidence["gone_in"] = followed.gone_in.slug
            if line.index(read_in) > line.index(target):
                evidence["note"] = f"not yet in the rules in {target.slug}: first in {read_in.slug}"
            elif line.has(target, label):
                evidence["now_text"] = line.own_text(target, label)
                evidence["note"] = (
                    f"{target.slug} has a rule {label}, but it is another rule: the one "
                    f"cited was last in {followed.last.slug}"
                )
            return _Reading(Verdict(REMOVED, None, evidence), read_in)
        if label in followed.labels:
            return _Reading(Verdict(CURRENT, label, evidence), read_in, followed.labels)
        now = sorted(followed.labels, key=label_sort_key)
        evidence["text"] = line.own_text(read_in, label)
        evidence["now_text"] = line.own_text(target, now[0])
        if len(now) > 1:
            evidence["now_all"] = now
        return _Reading(Verdict(RENUMBERED, now[0], evidence), read_in, tuple(now))

    # --- a quotation beside it ---------------------------------------------------------------

    def _check_quote(self, label: str, quote: Quote, reading: _Reading) -> Verdict:
        base = reading.verdict
        read_in = reading.read_in
        assert read_in is not None
        script = quote_language(quote)
        shown = {"text": quote.text, "kind": quote.kind}
        if script != "latin" and not self._quote_editions(script):
            return self._not_checked(base, shown, script)
        texts = self._texts_of(label, read_in, reading.now, script, own=quote.kind == "title")
        if quote.kind == "title":
            # A subrule cited with the title of its rule or section: "rule 409.1, “Playing
            # Spells and Activated Abilities”" (409's title) names the right place.
            for up in _ancestors(label):
                texts += [self.line.own_text(read_in, up) or ""]
        if matches(quote, texts):
            evidence = {**base.evidence, "quote": {**shown, "matches": True}}
            if self._reworded_since(label, quote, reading):
                evidence["quote"]["in_target"] = False
                evidence.setdefault("now_text", self.line.own_text(self.target, reading.now[0]))
            return Verdict(base.status, base.now, evidence)
        # Not the rule's words in English (or in a translation): is it another language?
        # Asked only now, since telling a sentence that is not plainly English loads a model.
        language = latin_language(quote) if script == "latin" else None
        if language is not None and not self._in_language(language):
            return self._not_checked(base, shown, language)
        found = self._holder(quote, read_in, script, language)
        if quote.kind == "text" and found is None:
            return base  # a note after the number, not the rule's words
        if quote.kind == "title" and found is None:
            # A title that is no rule's heading describes the rule in the citing text's own
            # words (the CR's "See rule 609.7, “Sources of Damage.”"): no wrong number shows.
            note = "the title beside it is no rule's title"
            return Verdict(
                base.status,
                base.now,
                {**base.evidence, "quote": {**shown, "matches": False}, "note": note},
            )
        evidence = {**base.evidence, "quote": {**shown, "matches": False}}
        evidence.setdefault("text", self.line.own_text(read_in, label))
        if found is not None:
            evidence["quote_holder"] = found
        status = QUOTE_MISMATCH if base.status in (CURRENT, RENUMBERED) else base.status
        return Verdict(status, base.now, evidence)

    def _reworded_since(self, label: str, quote: Quote, reading: _Reading) -> bool:
        """The quotation is the English rule's words where the number was read, and no
        longer in its text in T: the rule was reworded since (2026-02-27 took "A ninjutsu
        ability may be activated only while..." out of 702.49c). A title, or words of a
        translation, are not asked about."""
        read_in = reading.read_in
        if quote.kind == "title" or read_in is None or read_in.id == self.target.id:
            return False
        if not reading.now:
            return False
        then = [t.text for t in self.line.rule_texts(read_in, label)]
        if not matches(quote, then):
            return False
        now = [t.text for lab in reading.now for t in self.line.rule_texts(self.target, lab)]
        return not matches(quote, now)

    def _not_checked(self, base: Verdict, shown: dict[str, Any], what: str) -> Verdict:
        note = (
            f"the quotation was not checked: the store has no dated edition in {what} to "
            "compare it with"
        )
        return Verdict(base.status, base.now, {**base.evidence, "quote": shown, "note": note})

    def _in_language(self, language: str) -> list[tuple[EditionInfo, EditionInfo]]:
        return [
            p for p in self._quote_editions("latin") if base_language(p[0].language) == language
        ]

    def _quote_editions(self, script: str) -> list[tuple[EditionInfo, EditionInfo]]:
        """(translation, the English of its date) for the translations in ``script``."""
        by_date = {e.date: e for e in self.line.editions}
        out = []
        for t in reversed(self.line.translations):
            if script_of_language(t.language) == script and t.date in by_date:
                out.append((t, by_date[t.date]))
        return out

    def _texts_of(
        self,
        label: str,
        read_in: EditionInfo,
        now: tuple[str, ...],
        script: str,
        *,
        own: bool = False,
    ) -> list[str]:
        """The texts a quotation beside the citation may be taken from: the rule (with its
        subrules; ``own``: its own clause only, for a title) where the number is read and
        in T, and in the translations of the quotation's script."""
        line = self.line

        def of(edition: EditionInfo, lab: str) -> list[str]:
            return [t.text for t in line.rule_texts(edition, lab) if not own or t.label == lab]

        texts = of(read_in, label)
        for lab in now:
            texts += of(self.target, lab)
        # The translations in the quotation's script (for Latin script, a quotation may be
        # French or Spanish as well as English).
        for translation, english in self._quote_editions(script):
            for lab in line.follow(read_in, label, english).labels:
                texts += of(translation, lab)
        return texts

    def _holder(
        self, quote: Quote, read_in: EditionInfo, script: str, language: str | None = None
    ) -> dict[str, Any] | None:
        line = self.line
        searched: list[tuple[EditionInfo, EditionInfo]] = []
        if language is not None:
            searched = self._in_language(language)
        elif script == "latin":
            searched = [(read_in, read_in)]
            if self.target.id != read_in.id:
                searched.append((self.target, self.target))
            searched += self._quote_editions("latin")
        else:
            # The translation of the reading's date first: its numbers are the reading's.
            when = _days(read_in.date)
            searched = sorted(
                self._quote_editions(script), key=lambda p: abs(_days(p[1].date) - when)
            )
        for edition, english in searched:
            if edition.id not in self._indexes:
                self._indexes[edition.id] = ClauseIndex(line.clauses(edition))
            got = holder(quote, self._indexes[edition.id])
            if got is None:
                continue
            label, score = got
            followed = line.follow(english, label, self.target)
            now = sorted(followed.labels, key=label_sort_key)
            return {
                "label": label,
                "edition": edition.slug,
                "now": now[0] if now else None,
                "score": round(score, 1),
            }
        return None


def _ancestors(label: str) -> list[str]:
    """'702.19b' -> ['702.19', '702']; '702.19' -> ['702']."""
    out = []
    while True:
        up = parent_of(label)
        if up is None:
            return out
        out.append(up)
        label = up


def _days(date: str | None) -> int:
    if not date:
        return 0
    y, m, d = (int(x) for x in date.split("-"))
    return y * 372 + m * 31 + d


def nearest(label: str, labels: list[str], n: int = 4) -> list[str]:
    """Existing numbers nearest a number no edition has (text/labels.nearest_labels: the
    same choice as show's and trace's)."""
    return nearest_labels(label, labels, n)
