"""Which edition a text was written for, from its citations.

The edition in which the text's citations best exist and fit: the most cited numbers exist
in it, and among the editions where as many exist, the most quotations beside them are its
words (a title, "rule 418, “Continuous Effects”", is 2008's numbering; a sentence quoted
from 2019 has 2019's wording). Among editions still equal, the target when it is one of
them (a text checked against 2025-11-14 that fits 2023 to 2026 as well is read as
2025-11-14's: nothing in it says otherwise), else the newest: the text has been kept up to
it, as far as anything in it can tell.

Each file is its own text: a run over several files guesses one edition per file (a folder
may hold notes written in 2008 beside an article of 2026), and ``Guesser`` keeps what the
guesses share (which quotation fits which edition) so that many files cost little more
than one.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..record import OPTIONAL, Record
from ..store.queries import EditionInfo
from .citations import Quote
from .editions import EnglishLine
from .quotes import checkable, matches, quote_language

# Quotations kept from the first pass to weigh editions (the first ones met: bounded memory).
QUOTE_SAMPLE = 400


@dataclass
class Candidate(Record):
    """One of the editions a text fits best: how many of its citations are to numbers the edition
    has, and how many quotations beside them are its words."""

    edition: str
    exist: int  # citations whose number the edition has
    fit: int  # quotations that are its words


@dataclass
class WrittenFor(Record):
    """The edition a text was written for: given (--written-for) or inferred from its citations,
    why, and, when the editions were ranked, the ones that fit best."""

    edition: EditionInfo
    inferred: bool
    reason: str
    candidates: list[Candidate] | None = field(default=None, metadata=OPTIONAL)

    def as_json(self) -> dict[str, Any]:
        out = super().as_json()
        out["edition"] = self.edition.header_json()
        return out


@dataclass
class Evidence:
    """What the first pass keeps of a text's citations to infer its edition."""

    counts: Counter[str] = field(default_factory=Counter)
    quotes: list[tuple[str, Quote]] = field(default_factory=list)

    def add(self, label: str, quote: Quote | None) -> None:
        self.counts[label] += 1
        if (
            quote is not None
            and len(self.quotes) < QUOTE_SAMPLE
            and quote_language(quote) == "latin"
            and checkable(quote)
        ):
            self.quotes.append((label, quote))


def infer_written_for(
    line: EnglishLine, evidence: Evidence, target: EditionInfo | None = None
) -> WrittenFor:
    return Guesser(line, target).guess(evidence)


# Guesses kept for files whose citations are the same (source files citing one rule each).
_GUESSES_KEPT = 4096


class Guesser:
    """The edition each text was written for, from its own citations (see the module's
    docstring); what the guesses of many texts share is kept."""

    def __init__(self, line: EnglishLine, target: EditionInfo | None = None):
        self.line = line
        self.target = target
        self._fits: dict[tuple[int, str, str, str], bool] = {}
        self._guesses: dict[tuple, WrittenFor] = {}

    def guess(self, evidence: Evidence) -> WrittenFor:
        key = (
            tuple(sorted(evidence.counts.items())),
            tuple((label, q.kind, q.text) for label, q in evidence.quotes),
        )
        known = self._guesses.get(key)
        if known is None:
            if len(self._guesses) >= _GUESSES_KEPT:
                self._guesses.clear()
            known = self._guesses[key] = self._guess(evidence)
        return known

    def _fits_edition(self, edition: EditionInfo, label: str, quote: Quote) -> bool:
        key = (edition.id, label, quote.kind, quote.text)
        if key not in self._fits:
            texts = [t.text for t in self.line.rule_texts(edition, label)]
            self._fits[key] = matches(quote, texts)
        return self._fits[key]

    def _guess(self, evidence: Evidence) -> WrittenFor:
        line, target = self.line, self.target
        counts = evidence.counts
        total = sum(counts.values())
        if not total:
            return WrittenFor(line.newest, True, "no citations to tell from: the newest edition")
        line.learn(counts)
        exist: Counter[int] = Counter()
        for label, n in counts.items():
            for edition in line.holders(label):
                exist[edition.id] += n
        best = max(exist.values(), default=0)
        if best == 0:
            return WrittenFor(
                line.newest,
                True,
                "none of the numbers cited is in any edition of the store: the newest edition",
            )
        tied = [e for e in line.editions if exist[e.id] == best]
        fit: Counter[int] = Counter()
        if len(tied) > 1 and evidence.quotes:
            # The editions already read first: the line keeps a few whole editions, and
            # reading the others last leaves most of them read for the next file.
            for e in sorted(tied, key=lambda e: not line.is_read(e)):
                fit[e.id] = sum(
                    1 for label, quote in evidence.quotes if self._fits_edition(e, label, quote)
                )
        target_id = target.id if target is not None else None
        order = sorted(
            line.editions,
            key=lambda e: (exist[e.id], fit[e.id], e.id == target_id, e.date or "", e.id),
            reverse=True,
        )
        chosen = order[0]
        parts = [f"{best:,} of {total:,} citations are to numbers {chosen.slug} has"]
        if fit[chosen.id]:
            parts.append(
                f"{fit[chosen.id]} of {len(evidence.quotes)} quotations beside them are its words"
            )
        equal = [e for e in tied if fit[e.id] == fit[chosen.id]]
        if len(equal) > 1:
            which = "the newest of them" if chosen.id == equal[-1].id else "the target among them"
            parts.append(
                f"{len(equal)} editions fit as well ({equal[0].slug} to {equal[-1].slug}): {which}"
            )
        else:
            runner = next((e for e in order[1:]), None)
            if runner is not None:
                parts.append(f"next best: {runner.slug} with {exist[runner.id]:,}")
        candidates = [Candidate(e.slug, exist[e.id], fit[e.id]) for e in order[:3]]
        return WrittenFor(chosen, True, "; ".join(parts), candidates)
