"""mtgrules from Python: open a store, get editions, alignments, drift, diffs, traces and
search results as objects (for notebooks and scripts).

    >>> import mtgrules.api as mr
    >>> store = mr.open_store("rules.sqlite")      # or None: $MTGRULES_DB / the default
    >>> store.ensure_corpus()                      # the bundled corpus, if the store is empty
    >>> [e.slug for e in store.editions()][:2]
    >>> store.trace("107.3g").events
    >>> store.diff("en-2019-10-04", "en-2020-09-25", rule="107.3").changes
    >>> store.search("stack").hits[0].text

Every method runs in its own transaction and returns the same typed result the command line
renders (each has ``as_json()``, the form ``--json`` prints). Errors are ``MtgRulesError``
subclasses (mtgrules.errors) with a message that says what to do next.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from .errors import MtgRulesError, NotFoundError, QueryError, StoreError

__all__ = [
    "MtgRulesError",
    "NotFoundError",
    "QueryError",
    "Store",
    "StoreError",
    "open_store",
]

T = TypeVar("T")


class Store:
    """A mtgrules store (SQLite file or PostgreSQL database), migrated to the current schema."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def __repr__(self) -> str:
        return f"<mtgrules Store {self.engine.url.render_as_string(hide_password=True)}>"

    def _read(self, work: Callable[[Session], T]) -> T:
        from .store import session_scope

        with session_scope(self.engine, write=False) as session:
            return work(session)

    def _write(self, work: Callable[[Session], T]) -> T:
        from .store import session_scope

        with session_scope(self.engine) as session:
            return work(session)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the store ---------------------------------------------------------------------

    def ingest(self, *paths: str | Path, archive: bool = False):
        """Ingest files or folders (none: the bundled corpus), with the alignments the new
        editions need, in one transaction; returns an IngestReport. ``archive``: the 110
        English editions packed inside mtgrules too (with no paths: those alone)."""
        from .align.plan import ingest_and_align
        from .ingest import BUNDLED_CORPUS

        targets = [Path(p) for p in paths] or ([] if archive else [BUNDLED_CORPUS])
        return self._write(lambda s: ingest_and_align(s, targets, whole_archive=archive))

    def ensure_corpus(self):
        """Ingest the bundled corpus if the store holds no edition yet; the IngestReport or
        None when there was nothing to do."""
        from .store.queries import store_is_empty

        if self._read(store_is_empty):
            return self.ingest()
        return None

    def editions(self, *, as_of: int | None = None):
        """Every edition (EditionInfo: id, slug, language, kind, date, sources...)."""
        from .store.queries import list_editions

        return self._read(lambda s: list_editions(s, as_of))

    def edition(self, name: str, *, as_of: int | None = None):
        """One edition by id, slug (en-2026-01-16), source file name or date."""
        from .store.queries import find_edition, list_editions

        return self._read(lambda s: find_edition(list_editions(s, as_of), name))

    def history(self):
        """The store's revisions (RevisionInfo), oldest first."""
        from .store.queries import list_revisions

        return self._read(list_revisions)

    def show(
        self,
        rule: str,
        *,
        language: str | None = None,
        edition: str | None = None,
        as_of: int | None = None,
    ):
        """A rule with its subrules in every edition that has it (RuleShown); a subrule
        without a label of its own carries the one the aligner inferred (label_inferred)."""
        from .align.inferred import show_rule_with_inferred_labels
        from .text.labels import parse_rule_label

        label = parse_rule_label(rule)
        return self._read(
            lambda s: show_rule_with_inferred_labels(
                s, label, language=language, edition=edition, as_of=as_of
            )
        )

    def clauses(self, edition: str, *, as_of: int | None = None):
        """Every clause of one edition, in order (ClauseView)."""
        from .store.queries import edition_clauses, find_edition, list_editions

        def work(s: Session):
            return edition_clauses(s, find_edition(list_editions(s, as_of), edition).id)

        return self._read(work)

    def cite(self, *paths: str | Path, against: str | None = None, written_for: str | None = None):
        """The rule numbers that files or folders cite ("CR 702.19b", "see rule 601.2f"),
        each checked against ``against`` (default: the newest English): a CiteReport with
        the edition they were written for (``written_for``, else inferred), every citation
        with its status (current, renumbered, removed, never-existed, quote-mismatch), the
        paths skipped and a summary."""
        from .cite.run import cite_paths

        return self._read(
            lambda s: cite_paths(
                s, [str(p) for p in paths], against=against, written_for=written_for
            )
        )

    def fetch(self, url: str | None = None, *, check: bool = False, site: str | Path | None = None):
        """The new edition the publisher's rules page links (``url``: another page), downloaded
        and ingested: a FetchReport (what was fetched, what changed, which translations lag).
        ``check``: only whether a new edition is out (status "new-edition"), writing nothing."""
        from .fetch.run import DEFAULT_URL, check_for_new_edition, fetch_rules

        page = url or DEFAULT_URL
        if check:
            return self._read(lambda s: check_for_new_edition(s, url=page))
        return self._write(
            lambda s: fetch_rules(s, url=page, site=Path(site) if site is not None else None)
        )

    # --- alignment (read back when stored, else computed; written only with store) -----

    def align_rule(self, rule: str, *, as_of: int | None = None, store: bool = False):
        """One rule across every edition and language, in groups (RuleAlignment); ``store``
        keeps the links in the store."""
        from .align import align_rule
        from .text.labels import parse_rule_label

        label = parse_rule_label(rule)
        run = self._write if store else self._read
        return run(lambda s: align_rule(s, label, as_of=as_of, store=store))

    def align_editions(self, a: str, b: str, *, as_of: int | None = None, store: bool = False):
        """Every clause of edition ``a`` paired with edition ``b`` (EditionAlignment);
        ``store`` keeps it in the store."""
        from .align import align_editions
        from .store.queries import find_edition, list_editions

        def work(s: Session):
            infos = list_editions(s, as_of)
            return align_editions(
                s, find_edition(infos, a).id, find_edition(infos, b).id, store=store
            )

        return (self._write if store else self._read)(work)

    def date(self, edition: str, *, as_of: int | None = None):
        """Which official English editions an edition follows (Dating)."""
        from .align.reference import date_edition
        from .store.queries import find_edition, list_editions

        def work(s: Session):
            return date_edition(s, find_edition(list_editions(s, as_of), edition).id, as_of=as_of)

        return self._read(work)

    # --- reports -------------------------------------------------------------------------

    def drift(
        self,
        rule: str | None = None,
        *,
        edition: str | None = None,
        reference: str | None = None,
        language: str | None = None,
        as_of: int | None = None,
    ):
        """Coverage of a rule in every edition (RuleDrift), or of a whole edition against
        its reference (EditionDrift, with ``edition=``)."""
        if (rule is None) == (edition is None):
            raise QueryError("give a rule (drift('107.3')) or a whole edition (drift(edition=E))")
        if rule is not None:
            from .reports.drift import rule_drift
            from .text.labels import parse_rule_label

            label = parse_rule_label(rule)
            return self._read(
                lambda s: rule_drift(s, label, reference=reference, language=language, as_of=as_of)
            )
        from .reports.drift import edition_drift

        assert edition is not None
        return self._read(lambda s: edition_drift(s, edition, reference=reference, as_of=as_of))

    def update(
        self,
        translation: str,
        *,
        to: str | None = None,
        source: str | None = None,
        as_of: int | None = None,
    ):
        """What a translation must change to follow English ``to`` (UpdateReport)."""
        from .reports.update import update_report

        return self._read(
            lambda s: update_report(s, translation, to=to, source=source, as_of=as_of)
        )

    def diff(self, a: str, b: str, *, rule: str | None = None, as_of: int | None = None):
        """Word-level differences from edition ``a`` to ``b`` of one language (DiffReport)."""
        from .reports.diff import edition_diff
        from .text.labels import parse_rule_label

        label = parse_rule_label(rule) if rule else None
        return self._read(lambda s: edition_diff(s, a, b, rule=label, as_of=as_of))

    def trace(self, clause: str, *, as_of: int | None = None):
        """One clause through time and languages (Trace)."""
        from .reports.trace import trace_clause
        from .text.labels import parse_rule_label

        label = parse_rule_label(clause)
        return self._read(lambda s: trace_clause(s, label, as_of=as_of))

    # --- search --------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        language: str | None = None,
        edition: str | None = None,
        kind: str | None = None,
        limit: int = 20,
        as_of: int | None = None,
    ):
        """Ranked hits in every language, each with its aligned clauses (SearchResult)."""
        from .search import search

        return self._read(
            lambda s: search(
                s, query, language=language, edition=edition, kind=kind, limit=limit, as_of=as_of
            )
        )


def open_store(db: str | Path | None = None) -> Store:
    """Open (and, on first use, create) a store: a SQLite path, a SQLAlchemy URL such as
    postgresql://host/db, or None for $MTGRULES_DB / the default file."""
    from .store import open_store as _open

    return Store(_open(str(db) if db is not None else None))
