"""Where the clauses new in an edition came from, one edition step at a time.

The whole-edition aligner pairs clause with clause. A clause new in edition B (no partner in
the edition A before it) may still have come from A: from a rule the aligner left unpaired
(an old number that was split or rewritten), or from a sentence of a glossary entry (before
July 2009 the entry "X" held the rule that became 107.3f). lineage.py answers this for one
rule against every older edition; this module answers it for a whole pair of consecutive
editions at once, with lineage's verdict (lineage.Judge), so that the history of every rule
costs one pass per edition step instead of one pass per rule.

Older wordings of a glossary sentence are found as lineage.py finds them: the sentences of
the entry's earlier versions (its chain of edition alignments) are judged against the same
new clauses. A copy of a glossary entry (a scraped page) takes the sentence closest to the
official one (``closest_sentence``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from ..store.queries import ClauseView
from .lineage import MIN_SHARED, Judge, Verdict, WeightedOverlap, sentences, tokens

# An older wording of a glossary sentence is the sentence of the older entry most like it,
# when at least this alike (character similarity, rapidfuzz's ratio / 100).
SAME_SENTENCE = 0.6


@dataclass
class Ancestor:
    """A unit of the older edition (a rule, or one sentence of a glossary entry) that a clause
    new in the newer edition came from."""

    edition: int
    clause_id: int
    kind: str  # rule | glossary
    label: str | None
    term: str | None
    sentence: int | None
    text: str
    target: int  # the clause id in the newer edition
    score: float
    evidence: list[dict] = field(default_factory=list)


def step_ancestors(
    older_edition: int,
    older: list[ClauseView],
    newer_edition: int,
    newer: list[ClauseView],
    new_ids: set[int],
    free_ids: set[int],
    earlier: Callable[[int], list[Version]] | None = None,
) -> list[Ancestor]:
    """Ancestors in ``older`` of the clauses ``new_ids`` of ``newer`` (those the edition
    alignment left without a partner). Candidate units: the older rules in ``free_ids``
    (left without a partner too) and every sentence of an older glossary entry about one of
    the new clauses. Each unit goes to at most one new clause.

    ``earlier(clause id)`` gives the earlier versions of a glossary entry of ``older`` (its
    chain of edition alignments): when an entry holds an ancestor, the sentences of its
    earlier versions are judged too, against the same new clauses, as lineage.py judges
    the glossary of every older edition."""
    step = _Step.of(newer_edition, newer, new_ids)
    if step is None:
        return []
    return step.resolve(step.ancestors(older_edition, older, free_ids), earlier)


@dataclass
class PartialAncestry:
    """A step's ancestors found without the earlier versions of its glossary entries (what
    a worker process can find: the chains run through every older step, which the ingesting
    process holds). ``found`` lists them in order, with, after the ancestors of each glossary
    entry that holds one, the entry's clause id: there the ancestors from its earlier
    versions go (finish_ancestry). ``verdicts`` and ``about``: what the judge said of the
    texts it read, so that the ingesting process judges only texts it did not."""

    found: list[Ancestor | int]
    verdicts: dict[str, Verdict | None]
    about: dict[str, bool]


class _Step:
    """One edition step's judging context: the newer edition's rules (``base``), the new
    ones among them (the targets) and the judge over them, made when first asked for."""

    def __init__(self, newer_edition: int, base: list[ClauseView], targets: list[ClauseView]):
        self.newer_edition = newer_edition
        self.base = base
        self.targets = targets
        self._judge: Judge | None = None
        # Answers given before the judge was made (by a worker process's judge).
        self._verdicts: dict[str, Verdict | None] = {}
        self._about: dict[str, bool] = {}
        # The glossary entries that hold an ancestor, in order (ancestors()).
        self.held: list[ClauseView] = []

    @classmethod
    def of(cls, newer_edition: int, newer: list[ClauseView], new_ids: set[int]) -> _Step | None:
        targets = [c for c in newer if c.id in new_ids and c.kind == "rule" and c.label]
        if not targets:
            return None
        base = [c for c in newer if c.kind == "rule" and c.label]
        return cls(newer_edition, base, targets)

    @property
    def judge(self) -> Judge:
        if self._judge is None:
            model = WeightedOverlap([c.norm for c in self.base])
            position = {c.id: k for k, c in enumerate(self.base)}
            self._judge = Judge(model, self.base, [position[c.id] for c in self.targets])
        return self._judge

    def verdict(self, text: str) -> Verdict | None:
        if text in self._verdicts:
            return self._verdicts[text]
        return self.judge(text)

    def about(self, entry: str) -> bool:
        got = self._about.get(entry)
        return self.judge.about(entry) if got is None else got

    def take(self, version: Version, sentence: int | None, text: str, out: list) -> bool:
        verdict = self.verdict(text)
        if verdict is None:
            return False
        k, value, best_label = verdict
        evidence: list[dict] = [
            {"feature": "via", "value": "lineage", "edition": self.newer_edition},
            {"feature": "weighted-overlap", "value": round(value, 3)},
            {"feature": "best-in-edition", "value": best_label},
        ]
        if sentence is not None:
            evidence.append({"feature": "sentence", "value": sentence, "text": text})
        out.append(
            Ancestor(
                version.edition,
                version.clause_id,
                version.kind,
                version.label,
                version.term,
                sentence,
                text,
                self.base[k].id,
                value,
                evidence,
            )
        )
        return True

    def ancestors(
        self, older_edition: int, older: list[ClauseView], free_ids: set[int]
    ) -> list[Ancestor | int]:
        """The ancestors among ``older``'s free rules and glossary sentences, with, after
        the ancestors of each glossary entry that holds one, its clause id (resolve)."""
        target_tokens = [set(tokens(c.norm)) for c in self.targets]
        vocab: set[str] = set().union(*target_tokens)

        def may_share(text: str) -> bool:
            # A set test before any weighting: most units share nothing with the new clauses.
            keys = tokens(text).keys() & vocab
            return len(keys) >= MIN_SHARED and any(
                len(keys & t) >= MIN_SHARED for t in target_tokens
            )

        rules = [c for c in older if c.kind == "rule" and c.id in free_ids and may_share(c.norm)]
        entries = [c for c in older if c.kind == "glossary" and may_share(c.norm)]
        out: list[Ancestor | int] = []
        if not rules and not entries:
            return out
        for c in rules:
            self.take(
                Version(older_edition, c.id, c.kind, c.label, c.term, c.norm), None, c.norm, out
            )
        for c in entries:
            if not self.about(c.norm):
                continue
            found = False
            version = Version(older_edition, c.id, c.kind, c.label, c.term, c.norm)
            for i, text in enumerate(sentences(c.norm)):
                found = self.take(version, i, text, out) or found
            if found:
                out.append(c.id)
                self.held.append(c)
        return out

    def resolve(
        self, found: list[Ancestor | int], earlier: Callable[[int], list[Version]] | None
    ) -> list[Ancestor]:
        """``found`` with each entry's clause id replaced by the ancestors among the
        sentences of its earlier versions (none without ``earlier``)."""
        out: list[Ancestor] = []
        for x in found:
            if not isinstance(x, int):
                out.append(x)
                continue
            if earlier is None:
                continue
            for old in earlier(x):
                if self.about(old.text):
                    for i, text in enumerate(sentences(old.text)):
                        self.take(old, i, text, out)
        return out

    def partial(
        self, found: list[Ancestor | int], history: Mapping[str, Iterable[str]]
    ) -> PartialAncestry:
        """``found`` with the judge's answers on every wording ``history`` knows of the
        glossary entries that hold an ancestor (their earlier versions are among them,
        unless an entry changed its term), and on those wordings' sentences."""
        wanted: dict[str, None] = {}
        for c in self.held:
            wanted[c.norm] = None
            for word in term_words(c.term):
                wanted.update(dict.fromkeys(history.get(word, ())))
        about: dict[str, bool] = {}
        verdicts: dict[str, Verdict | None] = {}
        for text in wanted:
            about[text] = self.about(text)
            if about[text]:
                for sentence in sentences(text):
                    verdicts[sentence] = self.verdict(sentence)
        return PartialAncestry(found, verdicts, about)


def _units(
    pairs: list,
) -> tuple[dict[int, ClauseView], dict[int, ClauseView], set[int], set[int]]:
    """A step's older and newer clauses, those new in the newer edition and those left free
    in the older, from its pairs."""
    older: dict[int, ClauseView] = {}
    newer: dict[int, ClauseView] = {}
    new_ids: set[int] = set()
    free_ids: set[int] = set()
    for p in pairs:
        if p.a is not None:
            older[p.a.id] = p.a
        if p.b is not None:
            newer[p.b.id] = p.b
        if p.a is None and p.b is not None and p.b.kind == "rule":
            new_ids.add(p.b.id)
        elif p.b is None and p.a is not None and p.a.kind == "rule":
            free_ids.add(p.a.id)
    return older, newer, new_ids, free_ids


@dataclass(slots=True)
class Version:
    """A clause as the ancestry reads it: an older edition's rule or glossary entry."""

    edition: int
    clause_id: int
    kind: str
    label: str | None
    term: str | None
    text: str


def closest_sentence(text: str, entry: str) -> tuple[int, str, float] | None:
    """The sentence of glossary entry ``entry`` that is an older (or the same) wording of
    ``text``: (index, sentence, similarity 0..1), or None when none is alike enough."""
    best: tuple[int, str, float] | None = None
    for i, sent in enumerate(sentences(entry)):
        sim = fuzz.ratio(text, sent) / 100
        if sim >= SAME_SENTENCE and (best is None or sim > best[2]):
            best = (i, sent, sim)
    return best


def step_ancestry(
    older_edition: int,
    newer_edition: int,
    pairs: list,
    earlier: Callable[[int], list[Version]] | None = None,
) -> list[Ancestor]:
    """The ancestors of the clauses one edition step leaves new, read off the step's pairs
    (EditionAlignment.pairs: a rule of the newer edition with no partner is new, a rule of
    the older one with no partner is free to be an ancestor). The one computation behind
    the stored lineage of every step (plan.py stores it, storage.step_lineage reads it)."""
    older, newer, new_ids, free_ids = _units(pairs)
    if not new_ids:
        return []
    return step_ancestors(
        older_edition,
        list(older.values()),
        newer_edition,
        list(newer.values()),
        new_ids,
        free_ids,
        earlier,
    )


_TERM_WORD = re.compile(r"[a-z0-9]+")


def term_words(term: str | None) -> list[str]:
    """The words of a glossary term that its earlier versions are looked up by (history,
    partial_ancestry): an entry renamed keeps one of them, mostly ("Face-Down" was "Face
    Down", "Cleanup" became "Cleanup Step"). Short words ("of", "the") would find most
    entries: only those of four letters or more, unless the term has none ("X", "Pay")."""
    words = _TERM_WORD.findall(term.casefold()) if term else []
    return [w for w in words if len(w) >= 4] or words


def partial_ancestry(
    older_edition: int, newer_edition: int, pairs: list, history: Mapping[str, Iterable[str]]
) -> PartialAncestry:
    """step_ancestry without the earlier versions of glossary entries (a worker process's
    part): finish_ancestry, given the same pairs and the chains, completes it. ``history``:
    a word of a glossary term (term_words) -> the wordings of the entries so named in the
    editions read so far, judged here for each entry that holds an ancestor, so that
    finishing seldom needs a judge of its own."""
    older, newer, new_ids, free_ids = _units(pairs)
    step = _Step.of(newer_edition, list(newer.values()), new_ids) if new_ids else None
    if step is None:
        return PartialAncestry([], {}, {})
    found = step.ancestors(older_edition, list(older.values()), free_ids)
    return step.partial(found, history)


def finish_ancestry(
    part: PartialAncestry,
    newer_edition: int,
    pairs: list,
    earlier: Callable[[int], list[Version]] | None,
) -> list[Ancestor]:
    """step_ancestry's result from a worker's PartialAncestry: the ancestors from the
    earlier versions of its glossary entries added where they belong. The judge is made
    here only for a text the worker's judge did not read (an entry's older wording); the
    verdicts are the same either way (a function of the text and the newer edition)."""
    if not any(isinstance(x, int) for x in part.found):
        return [x for x in part.found if not isinstance(x, int)]
    _older, newer, new_ids, _free = _units(pairs)
    step = _Step.of(newer_edition, list(newer.values()), new_ids)
    assert step is not None  # the worker found ancestors, so there are targets
    step._verdicts, step._about = part.verdicts, part.about
    return step.resolve(part.found, earlier)


class GlossaryChains:
    """Each glossary entry's earlier versions along the edition steps (the entries of the
    edition before that it was paired with, more than one when entries were merged), for
    step_ancestors' ``earlier``. ``versions_of(ids)``: the clauses as Versions, asked for a
    whole generation of older entries at once (one query, not one per entry)."""

    def __init__(self, versions_of: Callable[[list[int]], dict[int, Version]]):
        self.pred: dict[int, list[int]] = {}
        self.versions_of = versions_of
        self._known: dict[int, Version] = {}

    def add(self, older_id: int, newer_id: int) -> None:
        self.pred.setdefault(newer_id, []).append(older_id)

    def __call__(self, clause_id: int) -> list[Version]:
        """The earlier versions of a glossary entry, newest first."""
        order: list[int] = []
        seen = {clause_id}
        frontier = [clause_id]
        while frontier:
            older = []
            for cur in frontier:
                for prev in self.pred.get(cur, ()):
                    if prev not in seen:
                        seen.add(prev)
                        older.append(prev)
                        order.append(prev)
            frontier = older
        missing = [i for i in order if i not in self._known]
        if missing:
            self._known.update(self.versions_of(missing))
        return [self._known[i] for i in order]
