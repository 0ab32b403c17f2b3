"""Labels the aligner inferred, given to the clauses that have none.

A scraped page may write its subrules without labels (the Spanish page of 107.3); the
alignment stored at ingest pairs each paragraph with a labelled English clause and keeps
that clause's label on the link (Link.inferred_label). Readers show it marked as inferred:
``107.3a*`` in text, ``label_inferred: true`` in JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from .links import inferred_labels

if TYPE_CHECKING:  # show and search read through store/sql.py, without SQLAlchemy
    from ..store.queries import RuleShown


class Labelled(Protocol):
    label: str | None
    label_inferred: bool
    kind: str


def fill_inferred_labels(
    session: Any,
    clauses: Iterable[Labelled],
    id_of: Callable[[Any], int] = lambda c: c.id,
) -> None:
    """Give each unlabelled rule clause the label the aligner inferred for it, marked as
    inferred; clauses with a label of their own, or with no stored link, stay as they are.
    ``id_of``: the clause id of an item (a search hit keeps it as ``clause_id``)."""
    unlabelled = [c for c in clauses if c.label is None and c.kind == "rule"]
    if not unlabelled:
        return
    found = inferred_labels(session, [id_of(c) for c in unlabelled])
    for c in unlabelled:
        label = found.get(id_of(c))
        if label:
            c.label = label
            c.label_inferred = True


def show_rule_with_inferred_labels(
    db: Any,
    rule: str,
    *,
    language: str | None = None,
    edition: str | None = None,
    as_of: int | None = None,
) -> RuleShown:
    """A rule with its subrules in every edition that has it (store.queries.show_rule), each
    unlabelled subrule carrying the label the aligner inferred for it (107.3a*)."""
    from ..store.queries import show_rule

    shown = show_rule(db, rule, language=language, edition=edition, as_of=as_of)
    fill_inferred_labels(db, [c for e in shown.editions for c in e.clauses])
    return shown
