"""Suspicious stored links: `mtgrules align --check`.

Two editions of the same date (an official translation and its English), or two editions of
the same document (a bilingual page), number their clauses alike: a link between clauses
with different labels there is a claim that the translation renumbered a clause. The aligner
makes that claim only on strong content (a far move across languages needs a score of 0.7,
Settings.move_cross_far). A stored link that makes it on weak content is suspicious:

    flagged: labels differ, same date or same document, content score < WEAK_BELOW

The evidence printed with each: both clauses (edition, label, text), the link's kind and
score, and the rival: the clause of the other edition that carries this clause's label,
with the score it gets against this clause (a rival that fits better is the likely right
pair). Links of both kinds are checked: whole editions (stored at ingest) and rules (stored
by align/drift/trace).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from ..record import Record
from ..store.queries import EditionInfo, list_editions
from ..text.language import same_language
from .features import Context, featurize, similarity
from .storage import RelabelledLink, links_touching, relabelled_links

# The content score below which a link between clauses of different labels, in editions that
# share a date or a document, is flagged. 0.7 is the aligner's own bar for pairing a
# translated clause under another label (Settings.move_cross_far); on the bundled corpus,
# correctly paired translations under one label score 0.3-0.5 in 19% of cases, so a lower
# bar would say nothing about labels. Same-language pairs (two scripts of Chinese) compare
# the texts themselves and must agree more.
WEAK_BELOW = 0.7
WEAK_BELOW_SAME_LANGUAGE = 0.8


@dataclass
class Side(Record):
    """One end of a suspicious link: its edition (slug), and its clause's label, kind and text."""

    edition: str
    label: str | None
    kind: str
    text: str


@dataclass
class Suspicious(Record):
    """A stored link between differently labelled clauses of two editions that share a date or a
    document, made on weak content (below WEAK_BELOW), with its evidence and rivals."""

    link: int
    alignment: int
    alignment_kind: str  # editions | rule
    rule: str | None
    link_kind: str
    why: str  # same-date | same-document
    score: float
    a: Side
    b: Side
    # The clause of b's edition carrying a's label (its score against a, and the score of any
    # other stored link between them), and the other way round: a rival that fits better, or
    # that another alignment already pairs with it, is the likely right pair.
    rivals: list[dict[str, Any]]

    def line(self) -> str:
        def short(text: str) -> str:
            text = " ".join(text.split())
            return text if len(text) <= 40 else text[:39] + "…"

        head = (
            f"{self.a.edition} {self.a.label} ↔ {self.b.edition} {self.b.label}: "
            f"score {self.score:.2f} ({self.link_kind}, {self.alignment_kind}"
            + (f" {self.rule}" if self.rule else "")
            + f", {self.why}); "
            f"“{short(self.a.text)}” / “{short(self.b.text)}”"
        )
        for r in self.rivals:
            head += (
                f"; {r['edition']} {r['label']} “{short(r['text'])}” scores {r['score']:.2f}"
                f" with {r['against']}"
                + (f" and is linked to it (score {r['linked']:.2f})" if r["linked"] else "")
            )
        return head


@dataclass
class LinkCheck(Record):
    """Every suspicious stored link, and what was checked."""

    checked: int  # links between differently labelled clauses of same-date/same-document pairs
    threshold: float
    suspicious: list[Suspicious]

    @property
    def found(self) -> bool:
        return bool(self.suspicious)


def _pair_reason(x: EditionInfo, y: EditionInfo) -> str | None:
    if x.id == y.id:
        return None
    if x.date is not None and x.date == y.date:
        return "same-date"
    if set(x.sources) & set(y.sources):
        return "same-document"
    return None


def _rival(
    session: Session, link: RelabelledLink, mine: str, infos: dict[int, EditionInfo]
) -> dict[str, Any] | None:
    """The clause of the other edition that carries this side's label, scored against it."""
    from sqlalchemy import select

    from ..store.models import Clause

    if mine == "a":
        cid, label, text, lang = link.a_clause, link.a_label, link.a_text, link.a_language
        other_ed = link.b_edition
    else:
        cid, label, text, lang = link.b_clause, link.b_label, link.b_text, link.b_language
        other_ed = link.a_edition
    row = session.execute(
        select(Clause.id, Clause.label, Clause.norm, Clause.kind)
        .where(Clause.edition_id == other_ed, Clause.label == label)
        .order_by(Clause.position)
    ).first()
    if row is None:
        return None
    other_lang = infos[other_ed].language
    value, _ = similarity(featurize(text, lang), featurize(row.norm, other_lang), Context())
    # Another stored link between the two (the ingest's alignment of the pair, say) is the
    # strongest evidence there is: the clause is already paired with its own label's clause.
    linked = [
        round(score, 3) for end, other, score in links_touching(session, [cid]) if other == row.id
    ]
    return {
        "edition": infos[other_ed].slug,
        "label": row.label,
        "text": row.norm,
        "score": round(value, 3),
        "linked": max(linked) if linked else None,
        "against": f"{infos[link.a_edition if mine == 'a' else link.b_edition].slug} {label}",
    }


def check_links(session: Session) -> LinkCheck:
    """Flag stored links between differently labelled clauses of two editions that share a
    date or a document, when their content agrees weakly (see WEAK_BELOW)."""
    infos = {e.id: e for e in list_editions(session)}
    pairs = {}
    for a in infos.values():
        for b in infos.values():
            why = _pair_reason(a, b)
            if why:
                pairs[(a.id, b.id)] = why
    rows = relabelled_links(session, list(pairs))
    found: list[Suspicious] = []
    for ln in rows:
        same = same_language(ln.a_language, ln.b_language)
        bar = WEAK_BELOW_SAME_LANGUAGE if same else WEAK_BELOW
        if ln.score >= bar:
            continue
        rivals = [
            r for r in (_rival(session, ln, "a", infos), _rival(session, ln, "b", infos)) if r
        ]
        found.append(
            Suspicious(
                link=ln.link_id,
                alignment=ln.alignment_id,
                alignment_kind=ln.alignment_kind,
                rule=ln.rule,
                link_kind=ln.link_kind,
                why=pairs[(ln.a_edition, ln.b_edition)],
                score=round(ln.score, 3),
                a=Side(infos[ln.a_edition].slug, ln.a_label, ln.a_kind, ln.a_text),
                b=Side(infos[ln.b_edition].slug, ln.b_label, ln.b_kind, ln.b_text),
                rivals=rivals,
            )
        )
    return LinkCheck(checked=len(rows), threshold=WEAK_BELOW, suspicious=found)


def render_check(result: LinkCheck) -> str:
    lines = [s.line() for s in result.suspicious]
    lines.append(
        f"{len(result.suspicious)} suspicious of {result.checked} stored links between "
        "differently labelled clauses of editions that share a date or a document "
        f"(flagged below a content score of {WEAK_BELOW}, {WEAK_BELOW_SAME_LANGUAGE} within "
        "one language)."
    )
    return "\n".join(lines)
