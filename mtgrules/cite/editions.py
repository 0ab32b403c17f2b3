"""The editions a citation is read against: the official English line, oldest first, with
the labels and texts of the rules cited, and the way from one edition to another.

Everything is read lazily and kept: a run over 50,000 files cites a few thousand distinct
numbers, whose presence in every edition takes one query per batch of new numbers.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import NotFoundError, QueryError
from ..store.queries import EditionInfo, find_edition, list_editions
from ..store.sql import fetch, in_list
from ..text.labels import label_sort_key
from .renumbering import MissingStep, step_renumbering

_CHUNK = 500
# Editions whose clauses are kept in memory at once (about 1 MB each).
_EDITIONS_KEPT = 12


def is_official_english(info: EditionInfo) -> bool:
    return info.language == "en" and info.kind == "rules" and info.date is not None


@dataclass
class Follow:
    """Where a rule went from one edition to another."""

    labels: tuple[str, ...]  # its labels in the edition followed to (empty: it is gone)
    last: EditionInfo  # the last edition of the way that still had it
    gone_in: EditionInfo | None = None  # the first edition without it
    missing_step: tuple[EditionInfo, EditionInfo] | None = None  # no stored links there


@dataclass
class RuleText:
    """One clause of a rule in an English edition (the rule itself, a subrule, an example, a
    heading): its label, kind and normalized text."""

    label: str
    kind: str
    text: str


@dataclass
class EnglishLine:
    """The official English editions of a store, by date, and what is known of the cited
    rules in them."""

    db: Any
    editions: list[EditionInfo]
    translations: list[EditionInfo]
    all_editions: list[EditionInfo]
    # label -> {edition id: its own text there}, for the English editions
    _present: dict[str, dict[int, str]] = field(default_factory=dict)
    _editions_read: OrderedDict[int, dict[str, list[RuleText]]] = field(default_factory=OrderedDict)
    _index: dict[int, int] = field(default_factory=dict)
    _steps: dict[tuple[int, int], dict[str, tuple[str, ...]]] = field(default_factory=dict)
    _clauses: dict[int, list[tuple[str, str]]] = field(default_factory=dict)

    @classmethod
    def read(cls, db: Any) -> EnglishLine:
        infos = list_editions(db)
        english = [e for e in infos if is_official_english(e)]
        english.sort(key=lambda e: (e.date or "", e.id))
        if not english:
            raise NotFoundError(
                "the store holds no official English edition to check citations against; "
                "run: mtgrules ingest (the bundled corpus) or mtgrules ingest PATH"
            )
        translations = [e for e in infos if e.kind == "rules" and e.date and e.language != "en"]
        return cls(db, english, translations, infos)

    # --- finding editions ------------------------------------------------------------------

    @property
    def newest(self) -> EditionInfo:
        return self.editions[-1]

    def index(self, edition: EditionInfo) -> int:
        """Its place in the line, oldest first."""
        if not self._index:
            self._index.update((e.id, i) for i, e in enumerate(self.editions))
        return self._index[edition.id]

    def find(self, key: str, *, what: str) -> EditionInfo:
        """An official English edition by name, id or date (a date names the edition in force
        on that day: the newest one dated on or before it)."""
        key = key.strip()
        if _is_date(key):
            before = [e for e in self.editions if (e.date or "") <= key]
            if not before:
                raise NotFoundError(
                    f"no English edition in the store is dated on or before {key} (the oldest "
                    f"is {self.editions[0].slug}); give a later date or an edition name"
                )
            return before[-1]
        info = find_edition(self.all_editions, key)
        if not is_official_english(info):
            same = [e for e in self.editions if e.date and e.date == info.date]
            hint = f"; the English of its date is {same[0].slug}" if same else ""
            raise QueryError(
                f"{what} must be an official English edition, and {info.slug} is not{hint}. "
                "A translation numbers its rules as the English of its date."
            )
        return info

    # --- which editions have a label -------------------------------------------------------

    def learn(self, labels: Iterable[str]) -> None:
        """Read which English editions have each of these labels, with its text in each (for
        the labels not known yet): one indexed query per batch of labels."""
        new = sorted({lab for lab in labels if lab not in self._present})
        if not new:
            return
        ids = in_list([e.id for e in self.editions])
        found: dict[str, dict[int, str]] = {lab: {} for lab in new}
        texts: dict[str, str] = {}  # one string per distinct text: most repeat across editions
        for i in range(0, len(new), _CHUNK):
            chunk = new[i : i + _CHUNK]
            params = {f"l{k}": lab for k, lab in enumerate(chunk)}
            marks = ", ".join(f":l{k}" for k in range(len(chunk)))
            for label, edition_id, norm in fetch(
                self.db,
                f"SELECT label, edition_id, norm FROM clause WHERE label IN ({marks}) "
                f"AND edition_id IN ({ids}) ORDER BY position",
                params,
                plain=True,
            ):
                found[label].setdefault(edition_id, texts.setdefault(norm, norm))
        self._present.update(found)

    def has(self, edition: EditionInfo, label: str) -> bool:
        self.learn([label])
        return edition.id in self._present[label]

    def holders(self, label: str) -> list[EditionInfo]:
        """The English editions that have ``label``, oldest first."""
        self.learn([label])
        ids = self._present[label]
        return [e for e in self.editions if e.id in ids]

    def labels_of(self, edition: EditionInfo) -> list[str]:
        """Every label of an edition, in the rules' order."""
        return sorted(self._rows(edition), key=label_sort_key)

    # --- the texts of rules ----------------------------------------------------------------

    def _rows(self, edition: EditionInfo) -> dict[str, list[RuleText]]:
        """label -> the clauses of that rule in the edition (itself first, then its subrules
        and examples), from one read of the whole edition, kept for the few editions last
        used."""
        rows = self._editions_read.get(edition.id)
        if rows is not None:
            self._editions_read.move_to_end(edition.id)
            return rows
        rows = {}
        texts: dict[str, str] = {}
        for label, parent, kind, norm in fetch(
            self.db,
            "SELECT label, parent, kind, norm FROM clause WHERE edition_id = :e "
            "AND kind IN ('rule', 'example', 'heading') ORDER BY position",
            {"e": edition.id},
            plain=True,
        ):
            norm = texts.setdefault(norm, norm)
            if label:
                rows.setdefault(label, []).insert(0, RuleText(label, kind, norm))
            if parent and parent != label:
                rows.setdefault(parent, []).append(RuleText(label or parent, kind, norm))
        for lab, clauses in rows.items():
            # Its own clause first (inserted at 0 above; a label printed twice keeps both).
            clauses.sort(key=lambda t: t.label != lab)
        self._editions_read[edition.id] = rows
        if len(self._editions_read) > _EDITIONS_KEPT:
            self._editions_read.popitem(last=False)
        return rows

    def is_read(self, edition: EditionInfo) -> bool:
        """Are the edition's rules in memory (``rule_texts`` costs no query)?"""
        return edition.id in self._editions_read

    def rule_texts(self, edition: EditionInfo, label: str) -> list[RuleText]:
        """The clauses of a rule in an edition: itself first, then its subrules and examples
        (a section: its heading and the rules under it)."""
        return self._rows(edition).get(label, [])

    def preload(self, edition: EditionInfo, labels: Iterable[str]) -> None:
        """Kept for callers that know which rules they will read (one read per edition)."""
        self._rows(edition)

    def own_text(self, edition: EditionInfo, label: str) -> str | None:
        if is_official_english(edition):
            self.learn([label])
            return self._present[label].get(edition.id)
        for t in self.rule_texts(edition, label):
            if t.label == label:
                return t.text
        return None

    def clauses(self, edition: EditionInfo) -> list[tuple[str, str]]:
        """(label, text) of every labelled clause of an edition (any language), to find which
        rule holds a quotation."""
        if edition.id not in self._clauses:
            rows = self._rows(edition)
            self._clauses[edition.id] = [
                (lab, t.text) for lab, ts in rows.items() for t in ts if t.label == lab
            ]
        return self._clauses[edition.id]

    # --- following a rule from edition to edition ------------------------------------------

    def step(self, a: EditionInfo, b: EditionInfo) -> dict[str, tuple[str, ...]]:
        key = (a.id, b.id)
        if key not in self._steps:
            self._steps[key] = step_renumbering(self.db, a.id, b.id)
        return self._steps[key]

    def follow(self, start: EditionInfo, label: str, to: EditionInfo) -> Follow:
        """Follow the rule ``label`` of edition ``start`` step by step to edition ``to``
        (forward or back in time), through the stored links between consecutive editions."""
        i, j = self.index(start), self.index(to)
        labels: tuple[str, ...] = (label,)
        last = start
        if i == j:
            return Follow(labels, last)
        direction = 1 if j > i else -1
        for k in range(i, j, direction):
            a, b = self.editions[k], self.editions[k + direction]
            try:
                step = self.step(a, b)
            except MissingStep:
                return Follow((), last, None, (a, b))
            nxt: list[str] = []
            for lab in labels:
                for partner in step.get(lab, ()):
                    if partner not in nxt:
                        nxt.append(partner)
            if not nxt:
                return Follow((), last, b)
            labels, last = tuple(nxt), b
        return Follow(labels, last)


def _is_date(key: str) -> bool:
    import re

    return bool(re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", key))
