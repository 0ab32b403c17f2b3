"""Where each labelled clause of one English edition went in the next: the stored links.

Ingest stores, with every official English edition, its alignment with the edition before
it (align/plan.py). `cite` follows a cited number through those steps, one after the other,
from the edition a text was written for to the edition it is checked against. This module is
the one place that reads a step: ``step_renumbering``. The history work on the aligner makes
these links exact and single; when it offers its own reader of a step, this function is the
one to point at it.

Plain SQL through store/sql.py: `cite` is a reader and opens a SQLite store without
SQLAlchemy, as `show` and `search` do.
"""

from __future__ import annotations

from typing import Any

from ..store.sql import fetch


class MissingStep(Exception):
    """No stored alignment between two consecutive English editions."""


def step_renumbering(db: Any, a: int, b: int) -> dict[str, tuple[str, ...]]:
    """For each labelled clause of edition ``a``: the labels of its partners in edition ``b``
    (two for a rule split in two, none for a rule removed). Read from the newest stored
    whole-edition alignment of the pair, in either direction; MissingStep when there is none."""
    rows = fetch(
        db,
        "SELECT id, edition_a FROM alignment WHERE kind = 'editions' AND "
        "((edition_a = :a AND edition_b = :b) OR (edition_a = :b AND edition_b = :a)) "
        "ORDER BY id DESC LIMIT 1",
        {"a": a, "b": b},
        plain=True,
    )
    if not rows:
        raise MissingStep(a, b)
    alignment_id, first = rows[0]
    # The alignment may run from b to a: then its targets are a's clauses.
    mine, other = (
        ("source_clause_id", "target_clause_id")
        if first == a
        else ("target_clause_id", "source_clause_id")
    )
    out: dict[str, list[str]] = {}
    for label, partner in fetch(
        db,
        f"SELECT ca.label, cb.label FROM link l JOIN clause ca ON ca.id = l.{mine} "
        f"LEFT JOIN clause cb ON cb.id = l.{other} "
        "WHERE l.alignment_id = :id AND ca.label IS NOT NULL",
        {"id": alignment_id},
        plain=True,
    ):
        partners = out.setdefault(label, [])
        if partner and partner not in partners:
            partners.append(partner)
    return {label: tuple(p) for label, p in out.items()}
