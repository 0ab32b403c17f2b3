"""The alignments a store keeps for its readers, made at ingest.

Every reading command needs two kinds of link, and finds them stored:
- each translation with its English source edition: the English of the same document (a
  bilingual page) or of the same date (an official translation), as reports/drift and
  export follow them (reference.followed_english); else the official English edition it
  matches best (dating.py, as ``align --date`` answers; the newest on a tie);
- each official English edition with the one before it, by date.

The plan is worked out from the editions alive now and compared with what is stored: a pair
already stored by the current aligner is kept, a missing or stale one is aligned, and a pair
the plan made earlier but no longer wants (an edition was inserted between two dates) is
removed. So a re-ingest of unchanged files aligns nothing, and one new edition aligns only
its own pairs and the pair its arrival broke.

It runs inside the ingest's transaction (ingest_and_align): a revision and its alignments
are committed together or not at all, so a killed ingest leaves the store as it was, never
editions without their links, and the next ingest simply does the whole revision again.
An ingest that changes no file still completes what is missing or stale (a store made
before alignments were kept, or by an older aligner).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ..errors import NotFoundError
from ..ingest import IngestReport, Source, archive_sources, ingest_paths
from ..record import Record
from ..store.queries import EditionInfo, list_editions
from ..store.search_index import refresh_lineages
from ..text.language import is_english
from .edition import ClauseCache, compute_edition_alignment
from .model import EditionAlignment
from .reference import (
    find_source,
    followed_english,
    is_official_english,
    missing_same_date_english,
)
from .storage import (
    StoredAlignment,
    delete_alignments,
    edition_alignment_rows,
    save_edition_alignment,
)

INGEST = "ingest"  # stats["by"] of the alignments the plan owns
# Why a pair is planned (stats["why"]).
PREVIOUS = "previous-edition"
SAME_DOCUMENT = "same-document"
SAME_DATE = "same-date"
BEST_FIT = "best-fit"


@dataclass
class Planned:
    """One pair of editions the store should hold aligned: ``a`` the English (source or
    older edition), ``b`` the translation or the newer English edition."""

    a: EditionInfo
    b: EditionInfo
    why: str
    # For a best fit: the English editions it was chosen among (a new one means choose again).
    candidates: list[int] = field(default_factory=list)
    # Already computed while choosing the best fit (a whole translation), to store as is.
    result: EditionAlignment | None = None

    @property
    def key(self) -> tuple[int, int]:
        return (self.a.id, self.b.id)

    def origin(self) -> dict[str, Any]:
        out: dict[str, Any] = {"by": INGEST, "why": self.why}
        if self.why == BEST_FIT:
            out["candidates"] = self.candidates
        return out


@dataclass
class AlignedPair(Record):
    a: str  # edition slugs
    b: str
    why: str
    links: int
    inferred_labels: int
    seconds: float


@dataclass
class AlignmentUpdate(Record):
    """What an ingest did to the stored alignments."""

    planned: int  # pairs the store should hold
    kept: int  # already stored by the current aligner
    aligned: list[AlignedPair]  # computed now
    removed: int  # stored by an earlier plan, no longer wanted
    seconds: float


def _translations(infos: list[EditionInfo]) -> list[EditionInfo]:
    return [e for e in infos if not is_english(e.language)]


def _previous_pairs(infos: list[EditionInfo]) -> list[Planned]:
    official = sorted((e for e in infos if is_official_english(e)), key=lambda e: (e.date, e.id))
    return [Planned(old, new, PREVIOUS) for old, new in zip(official, official[1:], strict=False)]


def _kept_best_fit(
    t: EditionInfo, official_ids: list[int], by_id: dict[int, EditionInfo], stored: list
) -> Planned | None:
    """The best fit chosen by an earlier plan, while the English editions it was chosen among
    are still exactly the store's."""
    for row in reversed(stored):
        if (
            row.b == t.id
            and row.origin == INGEST
            and row.stats.get("why") == BEST_FIT
            and row.current
            and row.stats.get("candidates") == official_ids
            and row.a in by_id
        ):
            return Planned(by_id[row.a], t, BEST_FIT, official_ids)
    return None


def plan_alignments(
    session: Session,
    infos: list[EditionInfo] | None = None,
    stored: list[StoredAlignment] | None = None,
    cache: ClauseCache | None = None,
) -> list[Planned]:
    """Every pair of editions the store should hold aligned, English chain first (oldest to
    newest), then each translation with its English source."""
    infos = infos if infos is not None else list_editions(session)
    stored = stored if stored is not None else edition_alignment_rows(session)
    cache = cache or ClauseCache()
    by_id = {e.id: e for e in infos}
    official = sorted((e for e in infos if is_official_english(e)), key=lambda e: (e.date, e.id))
    official_ids = [e.id for e in official]
    plan = _previous_pairs(infos)
    for t in _translations(infos):
        source = followed_english(t, infos, None)
        if source is not None:
            why = SAME_DOCUMENT if set(source.sources) & set(t.sources) else SAME_DATE
            plan.append(Planned(source, t, why))
            continue
        kept = _kept_best_fit(t, official_ids, by_id, stored)
        if kept is not None:
            plan.append(kept)
            continue
        # The same choice the update report makes (reference.find_source): a whole
        # translation by the rule labels it keeps, a page of a few rules by its text.
        try:
            choice = find_source(session, t, infos)
        except NotFoundError:
            continue  # no English edition fits it: nothing to align it with
        plan.append(Planned(choice.edition, t, BEST_FIT, official_ids))
    return plan


def update_alignments(
    session: Session, *, on_pair: Callable[[Planned, int, int], None] | None = None
) -> AlignmentUpdate:
    """Bring the stored alignments in line with the plan: align what is missing or stale,
    remove what an earlier plan made and no longer wants. Runs in the caller's transaction."""
    t0 = time.perf_counter()
    infos = list_editions(session)
    stored = edition_alignment_rows(session)
    cache = ClauseCache()
    plan = plan_alignments(session, infos, stored, cache)
    current = {(r.a, r.b) for r in stored if r.current}
    todo = [p for p in plan if p.key not in current]
    aligned: list[AlignedPair] = []
    for n, planned in enumerate(todo, start=1):
        if on_pair:
            on_pair(planned, n, len(todo))
        t1 = time.perf_counter()
        result = planned.result or compute_edition_alignment(
            session, planned.a, planned.b, cache=cache
        )
        save_edition_alignment(session, result, origin=planned.origin())
        inferred = sum(
            1 for p in result.pairs if any(e.get("feature") == "inferred-label" for e in p.evidence)
        )
        aligned.append(
            AlignedPair(
                planned.a.slug,
                planned.b.slug,
                planned.why,
                len(result.pairs),
                inferred,
                round(time.perf_counter() - t1, 3),
            )
        )
    wanted = {p.key for p in plan}
    alive = {e.id for e in infos}
    # Only the plan's own rows between editions alive now: what a user aligned by hand stays,
    # and so do links of superseded editions, which --as-of still reads.
    stale = [
        r.id
        for r in stored
        if r.origin == INGEST
        and r.a in alive
        and r.b in alive
        # not wanted any more, or outdated beside a current one (made by hand) of the pair
        and ((r.a, r.b) not in wanted or (not r.current and (r.a, r.b) in current))
    ]
    delete_alignments(session, stale)
    return AlignmentUpdate(
        planned=len(plan),
        kept=len(plan) - len(todo),
        aligned=aligned,
        removed=len(stale),
        seconds=round(time.perf_counter() - t0, 3),
    )


def ingest_and_align(
    session: Session,
    paths: Iterable[Path],
    *,
    on_file: Callable[[Path, int, int], None] | None = None,
    on_pair: Callable[[Planned, int, int], None] | None = None,
    language: str | None = None,
    whole_archive: bool = False,
    sources: Iterable[Source] = (),
) -> IngestReport:
    """Ingest, then store the alignments the new editions need, in the same transaction.
    ``language``: a user's --lang, as ingest_paths takes it. ``whole_archive``: the packed
    English archive's 110 editions too (``mtgrules ingest --archive``). ``sources``: files
    given as bytes (what `mtgrules fetch` downloaded), ingested after ``paths``.

    A translation whose English the store lacks gets it from the packed archive in the same
    revision (report.from_archive says which and why)."""
    from .. import archive

    with paused_gc():
        extra = archive_sources(archive.manifest().files) if whole_archive else []
        extra += list(sources)
        report = ingest_paths(session, list(paths), on_file=on_file, language=language, extra=extra)
        _take_english_from_archive(session, report, on_file)
        report.alignments = update_alignments(session, on_pair=on_pair)
        # Search's lineages follow the links just stored (store/search_index.py).
        refresh_lineages(session.connection())
    return report


def _take_english_from_archive(
    session: Session, report: IngestReport, on_file: Callable[[Path, int, int], None] | None
) -> None:
    """Ingest, into the revision just written, the files of the packed English archive that
    the store's translations were made from and the store lacks."""
    from .. import archive

    manifest = archive.manifest()
    needed: dict[str, tuple[archive.ArchiveFile, list[EditionInfo]]] = {}
    for date, translations in missing_same_date_english(list_editions(session)).items():
        for f in manifest.effective_on(date)[:1]:
            needed[f.name] = (f, translations)
    if not needed:
        return
    files = [f for f, _ in needed.values()]
    more = ingest_paths(
        session, [], on_file=on_file, extra=archive_sources(files), revision_id=report.revision_id
    )
    for outcome in more.files:
        f, translations = needed[Path(outcome.path).name]
        names = ", ".join(t.slug for t in translations)
        outcome.note = (
            f"taken from the packed English archive: the English of {f.effective}, "
            f"which {names} {'was' if len(translations) == 1 else 'were'} made from"
        )
        report.from_archive.append(
            {
                "file": f.name,
                "date": f.effective.isoformat() if f.effective else None,
                "for": [t.slug for t in translations],
            }
        )
    report.merge(more)


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection while a batch builds hundreds of thousands of small
    objects that all stay alive until it ends (clauses, features, links): each full
    collection would walk all of them again, a quarter of the corpus ingest's time
    (measured: 11.1 s -> 8.3 s CPU). Reference counting still frees everything acyclic."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
