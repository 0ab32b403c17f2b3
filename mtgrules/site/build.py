"""`mtgrules site -o DIR`: a static website of the rules' history, written from the store.

The build reads each alignment it needs once (align_editions reads it back when the store
holds it, and computes and stores it otherwise), turns it into a changelog (DiffReport) and
into the history of every rule (History -> Trace), then writes the pages. Pages whose bytes
did not change are not rewritten (output.SiteFolder).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import __version__
from ..errors import NotFoundError
from ..progress import SILENT, Progress
from ..record import Record
from ..store.sql import fetch

if TYPE_CHECKING:
    from ..align import EditionAlignment
from ..store.models import Clause
from ..store.queries import (
    ClauseView,
    EditionInfo,
    edition_clauses,
    glossary_terms,
    list_editions,
    reading_editions,
)
from ..text.labels import rule_of
from ..text.language import is_english
from .history import History, Placement, Plan, plan_editions
from .output import SiteFolder
from .pages import (
    SEARCH_DATA,
    SEARCH_SCRIPT,
    Coverage,
    SiteData,
    edition_page,
    index_page,
    rule_page,
    rules_index_page,
    search_data,
    search_page,
)

# A translation with fewer than a fifth of its English's clauses is a page quoting a few
# rules (as align.edition.fragment_scope decides): its coverage counts those rules only.
FRAGMENT_SHARE = 5
# Editions with no earlier edition to compare with show their text instead of a changelog.
_SHOWN_KINDS = ("rule", "example", "glossary", "heading", "commentary")


@dataclass
class SiteReport(Record):
    """What a build wrote, and where its time went."""

    output: str
    editions: int
    rule_pages: int
    files: int
    written: list[str]
    unchanged: int
    removed: list[str]
    bytes_written: int
    alignments: int
    lineage_links: int
    seconds: dict[str, float] = field(default_factory=dict)
    # True when the store and mtgrules were as at the last complete build into the folder:
    # nothing was computed, nothing written. resumed: the folder held an unfinished build.
    up_to_date: bool = False
    resumed: bool = False


def site_fingerprint(session: Session) -> str:
    """What a site is made of, in one hash: every alive edition (id, content), every stored
    alignment (id, signature: the aligner's version), the newest revision, and the code of
    mtgrules itself (its modules and the site's static files). Equal fingerprints build
    equal sites, so a rebuild with an equal one has nothing to do."""
    h = hashlib.sha256()
    for row in fetch(
        session,
        "SELECT id, content_hash, superseded_in FROM edition ORDER BY id",
        plain=True,
    ):
        h.update(repr(tuple(row)).encode())
    for row in fetch(session, "SELECT id, signature FROM alignment ORDER BY id", plain=True):
        h.update(repr(tuple(row)).encode())
    for row in fetch(session, "SELECT max(id) FROM revision", plain=True):
        h.update(repr(tuple(row)).encode())
    h.update(_code_fingerprint().encode())
    return h.hexdigest()


_CODE: list[str] = []


def _code_fingerprint() -> str:
    """sha256 of mtgrules' own source and the site's static files (a new mtgrules, or an
    edited checkout, may render other pages from the same store)."""
    if not _CODE:
        package = Path(__file__).resolve().parents[1]
        h = hashlib.sha256(__version__.encode())
        for path in sorted(package.rglob("*")):
            if path.suffix in (".py", ".css", ".js") and path.is_file():
                h.update(str(path.relative_to(package)).encode())
                h.update(path.read_bytes())
        _CODE.append(h.hexdigest())
    return _CODE[0]


def stored_sources(session: Session, infos: list) -> dict[int, int]:
    """Translation -> the English edition it was made from, as chosen at ingest and stored
    (reference.find_source): the site reads the pair the ingest aligned."""
    from ..align.reference import find_source
    from ..errors import MtgRulesError

    out = {}
    for e in infos:
        if not is_english(e.language):
            try:
                out[e.id] = find_source(session, e, infos).edition.id
            except MtgRulesError:
                continue  # no English fits it: the site shows it on its own
    return out


def glossary_counts(session: Session) -> dict[int, int]:
    rows = session.execute(
        select(Clause.edition_id, func.count())
        .where(Clause.kind == "glossary")
        .group_by(Clause.edition_id)
    )
    return {eid: n for eid, n in rows}


def build_site(
    session: Session,
    output: Path,
    *,
    force: bool = False,
    progress: Progress = SILENT,
) -> SiteReport:
    """Write the site of every edition in the store to ``output``. A rebuild of a folder
    whose last complete build had the same fingerprint (site_fingerprint) and whose files
    are all in place does nothing; an unfinished build in the folder is finished."""
    from ..align.plan import paused_gc

    # No cyclic collection while the build holds its hundreds of thousands of objects:
    # measured on the corpus, collections took 3.3 of the 11.2 s of a build's CPU time.
    # Each edition is read from the store once while it is still in use: the steps of a
    # line read each edition as the newer side of one step and the older of the next, and
    # the translations read their English (of the corpus's 28 editions, 68 reads were 38).
    with paused_gc(), reading_editions(keep=_EDITIONS_KEPT):
        return _build(session, output, force=force, progress=progress)


# Editions kept read during a build: an edition's clauses are a few MB, the archive's 110 of
# them several hundred.
_EDITIONS_KEPT = 8


def _build(
    session: Session,
    output: Path,
    *,
    force: bool = False,
    progress: Progress = SILENT,
) -> SiteReport:
    from ..align import align_editions
    from ..align.storage import lineage_rows, step_lineage
    from ..reports.diff import alignment_diff

    start = time.perf_counter()
    clock = time.perf_counter()
    seconds: dict[str, float] = {}

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        seconds[name] = round(seconds.get(name, 0.0) + now - clock, 3)
        clock = now

    infos = list_editions(session)
    if not infos:
        raise NotFoundError(
            "the store holds no editions, so there is no site to build; ingest some first: "
            "mtgrules ingest [PATH] (no PATH: the bundled corpus)"
        )
    fingerprint = site_fingerprint(session)
    previous = SiteFolder.inspect(output, force=force)
    if previous.meta.get("fingerprint") == fingerprint:
        current = SiteFolder(output, previous)
        if current.unchanged_on_disk():
            lap("read")
            seconds["total"] = round(time.perf_counter() - start, 3)
            return SiteReport(
                output=str(output),
                editions=len(infos),
                rule_pages=int(str(previous.meta.get("rule_pages", 0))),
                files=len(previous.files),
                written=[],
                unchanged=len(previous.files),
                removed=[],
                bytes_written=0,
                alignments=0,
                lineage_links=0,
                seconds=seconds,
                up_to_date=True,
            )
    folder = SiteFolder.open(output, force=force)
    plan = plan_editions(infos, stored_sources(session, infos))
    official = [e.id for e in plan.lines.get("en", [])]
    history = History(infos, plan, glossary_terms(session, official))
    data = SiteData(infos, plan, history, glossary_counts(session))
    lap("read")

    # Changelogs, and the English line of every rule: one alignment per step, oldest first.
    steps = sorted(
        plan.steps, key=lambda ab: (ab[0].language != "en", ab[0].language, ab[0].date or "")
    )
    alignments = 0
    lineage = lineage_rows(session, {e.id: e for e in infos})
    # Each English step as "clause of a -> its clause in b", to follow a translation's
    # English to the newest English (coverage against today's rules).
    forward: dict[int, dict[int, int]] = {}
    newest_rules: list[ClauseView] = []
    copy_of: dict[int, EditionInfo] = {}  # English copy -> the official edition it follows
    progress.stage("comparing consecutive editions", len(steps) + len(plan.references))
    for a, b in steps:
        ea = align_editions(session, a.id, b.id)
        alignments += 1
        lap("align")
        data.changelogs[b.id] = alignment_diff(ea)
        _keep_contents(data, ea)
        if a.language == "en":
            history.add_step(ea)
            lap("history")
            history.add_ancestors(step_lineage(session, ea, lineage, history.earlier))
            lap("lineage")
            forward[a.id] = {
                p.a.id: p.b.id for p in ea.pairs if p.a is not None and p.b is not None
            }
            if plan.newest is not None and b.id == plan.newest.id:
                newest_rules = [p.b for p in ea.pairs if p.b is not None and p.b.kind == "rule"]
        lap("history")
        progress.advance(item=b.slug)
    # An official English edition alone in its line (the store's only one) is in no step:
    # its clauses are taken as they are, before the translations that follow it are read.
    for e in plan.lines.get("en", []):
        if e.id not in plan.previous and e.id not in plan.next:
            clauses = edition_clauses(session, e.id)
            history.add_alone(e.id, clauses)
            data.contents.setdefault(e.id, [c for c in clauses if c.kind in _SHOWN_KINDS])
            if plan.newest is not None and e.id == plan.newest.id:
                newest_rules = [c for c in clauses if c.kind == "rule"]
            lap("history")
    # Copies and translations beside the English they follow.
    for ref, e in plan.references:
        ea = align_editions(session, ref.id, e.id)
        alignments += 1
        lap("align")
        history.add_reference(ea, copy=is_english(e.language))
        if is_english(e.language):
            # An English copy (a bilingual page's English): its clauses as the official
            # edition's, for the translations that follow the copy.
            forward[e.id] = {
                p.b.id: p.a.id for p in ea.pairs if p.a is not None and p.b is not None
            }
            copy_of[e.id] = ref
        data.references[e.id] = ref
        if not is_english(e.language):
            data.coverage[e.id] = _coverage(ea)
            if plan.newest is not None:
                data.coverage_newest[e.id] = _coverage_of_newest(
                    session, ea, data.coverage[e.id], plan, forward, copy_of, newest_rules
                )
        _keep_contents(data, ea)
        lap("history")
        progress.advance(item=e.slug)
    for e in infos:
        if e.id not in data.changelogs and e.id not in data.contents:
            data.contents[e.id] = [
                c for c in edition_clauses(session, e.id) if c.kind in _SHOWN_KINDS
            ]
    history.finish()
    lap("history")
    pages = history.rule_pages()
    progress.stage("writing the pages", len(pages) + len(infos))

    # Rule pages, a page at a time (the members of every group are never all in memory).
    page_groups = history.page_groups()
    entries: list[dict] = []
    summaries: dict[str, str] = {}
    for k, rule in enumerate(pages):
        groups = page_groups.get(rule, [])
        traces = history.traces(groups)
        placements: dict[int, Placement] = {}
        for g, _ in traces:
            placed = history.placement_of_group(g)
            assert placed is not None
            placements[g] = placed
        lap("history")
        html = rule_page(
            data,
            rule,
            traces,
            placements,
            pages[k - 1] if k > 0 else None,
            pages[k + 1] if k + 1 < len(pages) else None,
        )
        lap("render")
        folder.put(f"rules/{rule}.html", html)
        lap("write")
        progress.advance(item=f"rules/{rule}.html")
        for g, t in traces:
            if not placements[g].current:
                continue
            today = next((s.text for s in reversed(t.english) if s.track == "rule" and s.text), "")
            if t.key == rule:
                summaries[rule] = _clip(today, 90)
            old = sorted(
                {s.label for s in t.english if s.track == "rule" and s.label and s.label != t.key}
            )
            entries.append(
                {
                    "l": t.key,
                    "p": f"rules/{rule}.html#{placements[g].anchor}",
                    "t": _clip(today, 200),
                    **({"o": " ".join(old)} if old else {}),
                }
            )
    for e in infos:
        html = edition_page(data, e)
        lap("render")
        folder.put(data.files[e.id], html)
        lap("write")
        progress.advance(item=data.files[e.id])
    folder.put("index.html", index_page(data))
    folder.put("rules/index.html", rules_index_page(data, pages, summaries))
    folder.put("search.html", search_page())
    folder.put(SEARCH_DATA, search_data(entries))
    static = resources.files("mtgrules.site").joinpath("static")
    folder.put("assets/site.css", static.joinpath("site.css").read_bytes())
    folder.put(SEARCH_SCRIPT, static.joinpath("search.js").read_bytes())
    newest = plan.newest
    counts = folder.close(
        {
            "version": __version__,
            "editions": len(infos),
            "newest": newest.slug if newest else None,
            "rule_pages": len(pages),
            # Of the store as the pages show it: the alignments this build stored included.
            "fingerprint": site_fingerprint(session),
        }
    )
    lap("render")
    seconds["total"] = round(sum(seconds.values()), 3)
    return SiteReport(
        output=str(output),
        editions=len(infos),
        rule_pages=len(pages),
        files=len(folder.files),
        written=counts.written,
        unchanged=counts.unchanged,
        removed=counts.removed,
        bytes_written=counts.bytes_written,
        alignments=alignments,
        lineage_links=history.lineage_links,
        seconds=seconds,
        resumed=counts.resumed,
    )


def _keep_contents(data: SiteData, ea: EditionAlignment) -> None:
    """The text of an edition with no earlier one to compare with, taken from an alignment
    it is part of (every clause but noise is in its pairs) rather than read again."""
    for info, side in ((ea.a, "a"), (ea.b, "b")):
        if data.plan.previous.get(info.id) is None and info.id not in data.contents:
            clauses = {
                c.id: c
                for p in ea.pairs
                if (c := getattr(p, side)) is not None and c.kind in _SHOWN_KINDS
            }
            data.contents[info.id] = sorted(clauses.values(), key=lambda c: c.position)


def _page_scope(ea: EditionAlignment) -> set[str]:
    """The rules a page quoting a few rules (ea.b) has clauses of."""
    return {
        rule_of(p.b.label or p.b.parent or "")
        for p in ea.pairs
        if p.b is not None and (p.b.label or p.b.parent)
    } - {""}


def _coverage_of_newest(
    session: Session,
    ea: EditionAlignment,
    own: Coverage,
    plan: Plan,
    forward: dict[int, dict[int, int]],
    copy_of: dict[int, EditionInfo],
    newest_rules: list[ClauseView],
) -> Coverage:
    """How much of the newest English a translation has: the English clauses it has a
    clause for (own), followed to the newest English through the alignment `mtgrules
    update` reads for the same pair (align_editions: the pair the ingest stored, else the
    stored steps composed), so that the rules the site says it lacks are update's (and
    drift's) new rules; every rule of the newest English that none of them became is one it
    lacks (new since its English, or dropped by the translation). A translation that follows
    an English copy (the English of its bilingual page) goes through the official edition of
    that copy."""
    newest = plan.newest
    assert newest is not None
    if own.reference.id == newest.id:
        return own
    has = {p.a.id for p in ea.pairs if p.a is not None and p.b is not None}
    here = own.reference
    if here.id in copy_of:  # a copy: through the official edition it follows
        step = forward[here.id]
        has = {step[i] for i in has if i in step}
        here = copy_of[here.id]
    if here.id != newest.id:
        if here.id not in plan.next and here.id not in plan.previous:
            has = set()  # not on the official English line: nothing to follow
        else:
            from ..align import align_editions

            to_newest = align_editions(session, here.id, newest.id)
            has = {
                p.b.id
                for p in to_newest.pairs
                if p.a is not None and p.b is not None and p.a.id in has
            }
    rules = newest_rules
    scope = own.scope
    own_clauses = sum(1 for p in ea.pairs if p.b is not None)
    if scope is None and own_clauses * FRAGMENT_SHARE <= len(rules):
        scope = _page_scope(ea)  # a page (beside an English copy) quoting a few rules
    if scope is not None:
        rules = [c for c in rules if rule_of(c.label or "") in scope]
    return Coverage(
        reference=newest,
        covered=sum(1 for c in rules if c.id in has),
        total=len(rules),
        scope=scope,
        missing=[c for c in rules if c.id not in has],
        renumbered=[],
    )


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _coverage(ea: EditionAlignment) -> Coverage:
    """How much of its English (ea.a) a translation (ea.b) has, read off their alignment:
    the English rules it has a clause for, those it lacks, those it numbers otherwise. A
    page quoting a few rules is measured on those rules only."""
    ref = ea.a
    own = sum(1 for p in ea.pairs if p.b is not None)
    english = {p.a.id: p.a for p in ea.pairs if p.a is not None and p.a.kind == "rule"}
    scope: set[str] | None = None
    if own * FRAGMENT_SHARE <= len(english):
        scope = _page_scope(ea)
        english = {k: c for k, c in english.items() if rule_of(c.label or "") in scope}
    has = {p.a.id for p in ea.pairs if p.a is not None and p.b is not None}
    renumbered = [
        (p.b.label, p.a.label)
        for p in ea.pairs
        if p.a is not None
        and p.b is not None
        and p.a.kind == "rule"
        and p.a.label
        and p.b.label
        and p.a.label != p.b.label
    ]
    return Coverage(
        reference=ref,
        covered=sum(1 for k in english if k in has),
        total=len(english),
        scope=scope,
        missing=[c for k, c in english.items() if k not in has],
        renumbered=renumbered,
    )
