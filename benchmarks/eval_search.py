"""Search relevance: MRR@10 and the share of queries answered in the top 3, per language.

Usage: .venv/bin/python benchmarks/eval_search.py [--db PATH] [--json] [--set PATH]
Without --db (or $MTGRULES_DB), the whole bundled corpus is ingested into a temporary store
first (not part of the figures). The queries and their answers are the hand-written set in
tests/search_relevance.toml (see its header); every query goes through the library call
``mtgrules.search.search(session, query, language=<its --lang, if any>, limit=10)``.

Beside each figure, two baselines run in the same process on the same store:
- grep -i, folded (case, accents, Chinese script) so that it is not beaten on spelling alone.
  It looks for the whole query as one string in "label term text" of every clause, newest
  edition first and in document order, identical texts once per language;
- a plain SQLite FTS5 index (unicode61, remove_diacritics 2, Han characters one per word as
  the engine's own index) over the newest edition of each language, every query word
  required, ordered by FTS5's bm25: what a developer gets from SQLite alone.

Also per run: "stale@3", the queries whose top 3 hold a hit shown from an older edition
while its lineage is in today's edition (0 is the target), and "rules@3", for English
queries with a rule among their answers, the share answered in the top 3 once glossary
hits are ignored (target 0.9). Targets (issue 20): MRR@10 >= 0.95, top-1 >= 90%.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from corpus_store import corpus_store
from sqlalchemy import text
from sqlalchemy.orm import Session

from mtgrules.errors import MtgRulesError
from mtgrules.search import search
from mtgrules.search.evaluate import (
    Figures,
    RelevanceQuery,
    first_relevant,
    load_relevance_set,
    preferred_first,
    relevant,
    summarize,
)
from mtgrules.store import session_scope
from mtgrules.store.queries import EditionInfo, filter_editions, list_editions
from mtgrules.text.fold import fold

RELEVANCE_SET = Path(__file__).resolve().parents[1] / "tests" / "search_relevance.toml"
K = 10
TARGET_MRR = 0.95


@dataclass
class Row:
    """One query's outcome: what the engine and the baseline ranked."""

    query: RelevanceQuery
    rank: int | None
    baseline_rank: int | None
    preferred: bool
    top: list[dict]
    error: str | None = None
    ms: float = 0.0
    bm25_rank: int | None = None
    stale: bool = False  # an older edition's text in the top 3 where today's lineage exists
    rules_rank: int | None = None  # first relevant rule once glossary hits are dropped


@dataclass
class GrepHit:
    kind: str
    label: str | None
    term: str | None
    language: str
    edition_id: int


class GrepBaseline:
    """grep -ri over the store's clauses, folded; the floor a user would compare against."""

    def __init__(self, session: Session, editions: list[EditionInfo]):
        newest_first = sorted(editions, key=lambda e: (e.date or "", e.id), reverse=True)
        order = {e.id: i for i, e in enumerate(newest_first)}
        lang = {e.id: e.language for e in editions}
        rows = session.execute(
            text("SELECT edition_id, position, kind, label, term, raw FROM clause")
        ).all()
        rows = sorted(
            (r for r in rows if r.edition_id in order),
            key=lambda r: (order[r.edition_id], r.position),
        )
        self.clauses: list[tuple[str, GrepHit]] = []
        seen: set[tuple[str, str, str | None, str]] = set()
        for r in rows:
            line = fold(" ".join(p for p in (r.label, r.term, r.raw) if p))
            key = (lang[r.edition_id], r.kind, r.term, fold(r.raw))
            if key in seen:
                continue  # the engine shows the same text once per language too
            seen.add(key)
            self.clauses.append(
                (line, GrepHit(r.kind, r.label, r.term, lang[r.edition_id], r.edition_id))
            )

    def search(self, query: str, editions: set[int], limit: int) -> list[GrepHit]:
        needle = fold(query.strip())
        hits = []
        for line, hit in self.clauses:
            if hit.edition_id in editions and needle in line:
                hits.append(hit)
                if len(hits) == limit:
                    break
        return hits


class Bm25Baseline:
    """A plain FTS5 table over the newest edition of each language, ranked by bm25."""

    def __init__(self, session: Session, editions: list[EditionInfo]):
        import sqlite3

        from mtgrules.text.fold import index_form

        newest: dict[str, EditionInfo] = {}
        for e in editions:
            key = e.language
            if e.kind != "rules":
                continue
            if key not in newest or (e.date or "", e.id) > (newest[key].date or "", newest[key].id):
                newest[key] = e
        self.db = sqlite3.connect(":memory:")
        self.db.execute(
            "CREATE VIRTUAL TABLE t USING fts5(term, body, eid UNINDEXED, kind UNINDEXED, "
            "label UNINDEXED, lang UNINDEXED, tokenize='unicode61 remove_diacritics 2')"
        )
        ids = {e.id: e.language for e in newest.values()}
        rows = session.execute(
            text(
                "SELECT edition_id, kind, label, term, raw FROM clause WHERE kind IN "
                "('rule', 'heading', 'example', 'glossary', 'commentary')"
            )
        ).all()
        self.db.executemany(
            "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)",
            [
                (
                    index_form(r.term or ""),
                    index_form(r.raw),
                    r.edition_id,
                    r.kind,
                    r.label,
                    ids[r.edition_id],
                )
                for r in rows
                if r.edition_id in ids
            ],
        )

    def search(self, query: str, languages: list[str] | None, limit: int) -> list[GrepHit]:
        from mtgrules.text.fold import index_words

        words = index_words(query)
        if not words:
            return []
        match = " AND ".join('"' + w + '"' for w in words)
        out = []
        for term, eid, kind, label, lang in self.db.execute(
            "SELECT term, eid, kind, label, lang FROM t WHERE t MATCH ? ORDER BY bm25(t)",
            (match,),
        ):
            if languages is None or lang in languages:
                out.append(GrepHit(kind, label, term or None, lang, eid))
                if len(out) == limit:
                    break
        return out


def _describe(hit, dates: dict[int, str | None], query: RelevanceQuery, slug: str) -> dict:
    return {
        "language": hit.language,
        "kind": hit.kind,
        "label": hit.label,
        "parent": getattr(hit, "parent", None),
        "term": hit.term,
        "edition": slug,
        "relevant": relevant(query, hit, dates),
        # A page printing no subrule numbers has its hits labelled by the aligner: the
        # clause itself says which text it was (pool_search.py shows it to the judge).
        "clause_id": getattr(hit, "clause_id", None),
    }


def _short(h: dict) -> str:
    return ("~" if h.get("stale") else "") + _name(h)


def _name(h: dict) -> str:
    if h["kind"] == "glossary":
        name = "g:" + (h["term"] or "?")[:18]
    elif h["label"]:
        name = h["label"]
    else:  # unlabelled: a Spanish subrule (no inferred label yet), commentary, example...
        name = f"?{h['kind'][:3]}<{h['parent']}" if h["parent"] else f"?{h['kind'][:3]}"
    return ("*" if h["relevant"] else " ") + f"{h['language']} {name}"


def evaluate(session: Session, queries: list[RelevanceQuery]) -> list[Row]:
    infos = list_editions(session)
    dates = {e.id: e.date for e in infos}
    slugs = {e.id: e.slug for e in infos}
    grep = GrepBaseline(session, infos)
    bm25 = Bm25Baseline(session, infos)
    # Terms of the bm25 baseline's hits are folded: compare them folded.
    rows = []
    for query in queries:
        allowed = {e.id for e in filter_editions(infos, language=query.filter)}
        base = grep.search(query.q, allowed, K)
        base_rank = first_relevant(query, base, dates, K)
        langs = sorted({e.language for e in infos if e.id in allowed}) if query.filter else None
        bm25_rank = first_relevant(query, bm25.search(query.q, langs, K), dates, K)
        t0 = time.perf_counter()
        try:
            hits = search(session, query.q, language=query.filter, limit=K).hits
            error = None
        except MtgRulesError as exc:  # a query the engine refuses is an unanswered query
            hits, error = [], str(exc)
        ms = (time.perf_counter() - t0) * 1000
        newest = _newest_by_language(infos)
        old = [
            h.edition_id != newest.get(h.language)
            and not getattr(h, "obsolete", False)
            and dates.get(h.edition_id) is not None
            for h in hits
        ]
        stale = any(old[:3])
        rules_rank = None
        if query.lang == "en" and any(a.label for a in query.answers):
            rules_only = [h for h in hits if h.kind != "glossary"]
            rules_rank = first_relevant(query, rules_only, dates, K) or 0
        rows.append(
            Row(
                query,
                first_relevant(query, hits, dates, K),
                base_rank,
                preferred_first(query, hits, dates),
                [
                    {**_describe(h, dates, query, slugs.get(h.edition_id, "?")), "stale": o}
                    for h, o in zip(hits[:K], old, strict=False)
                ],
                error,
                ms,
                bm25_rank,
                stale,
                rules_rank,
            )
        )
    return rows


def _newest_by_language(infos: list[EditionInfo]) -> dict[str, int]:
    out: dict[str, EditionInfo] = {}
    for e in infos:
        if e.date and (
            e.language not in out or (e.date, e.id) > (out[e.language].date, out[e.language].id)
        ):
            out[e.language] = e
    return {lang: e.id for lang, e in out.items()}


def _figures(rows: list[Row], baseline: bool | str) -> tuple[Figures, dict[str, Figures]]:
    def rank(r: Row) -> int | None:
        if baseline == "bm25":
            return r.bm25_rank
        return r.baseline_rank if baseline else r.rank

    return summarize((r.query, rank(r), False if baseline else r.preferred) for r in rows)


def _extra(rows: list[Row]) -> dict:
    ruled = [r for r in rows if r.rules_rank is not None]
    return {
        "stale_top3": sum(r.stale for r in rows),
        "rules_top3_en": round(sum(0 < r.rules_rank <= 3 for r in ruled) / len(ruled), 4)
        if ruled
        else None,
        "rules_queries_en": len(ruled),
    }


def _pad(s: str, width: int) -> str:
    """Cut or pad to a terminal width: Chinese characters take two columns."""
    out, used = "", 0
    for ch in s:
        w = 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        if used + w > width:
            break
        out, used = out + ch, used + w
    return out + " " * (width - used)


def print_text(rows: list[Row], set_path: Path) -> None:
    overall, by_lang = _figures(rows, False)
    b_overall, b_by_lang = _figures(rows, True)
    m_overall, m_by_lang = _figures(rows, "bm25")
    print(f"search relevance: {len(rows)} queries from {set_path.name}, first {K} hits each")
    print(
        f"{'':8} {'queries':>7} {'MRR@10':>7} {'top1':>6} {'top3':>6} {'pref@1':>7}"
        f" | {'bm25 MRR':>8} {'top1':>5} | {'grep MRR':>8} {'top3':>5} | ratio MRR vs bm25"
    )
    for name, fig, base, bm in [
        *((lang, fig, b_by_lang[lang], m_by_lang[lang]) for lang, fig in by_lang.items()),
        ("overall", overall, b_overall, m_overall),
    ]:
        f, b, m = fig.as_json(), base.as_json(), bm.as_json()
        ratio = f"{f['mrr_at_10'] / m['mrr_at_10']:.2f}x" if m["mrr_at_10"] else "n/a"
        print(
            f"{name:8} {f['queries']:>7} {f['mrr_at_10']:>7.3f} {f['top1']:>6.0%} "
            f"{f['top3']:>6.0%} {f['preferred_first']:>7.0%} | {m['mrr_at_10']:>8.3f} "
            f"{m['top1']:>5.0%} | {b['mrr_at_10']:>8.3f} {b['top3']:>5.0%} | {ratio}"
        )
    extra = _extra(rows)
    print(
        f"target MRR@10 >= {TARGET_MRR}: {'met' if overall.mrr >= TARGET_MRR else 'not met'}; "
        f"top-1 >= 90%: {'met' if overall.top1 >= 0.9 * overall.queries else 'not met'}; "
        f"stale@3: {extra['stale_top3']} queries (target 0); English rules@3 with glossary "
        f"hits ignored: {extra['rules_top3_en']} over {extra['rules_queries_en']} queries "
        f"(target 0.9); median search time {statistics.median(r.ms for r in rows):.0f} ms"
    )
    print()
    print(
        "rank = first relevant hit (- = none in the first 10); * = relevant hit; "
        "S = stale (an older edition's text in the top 3)"
    )
    print(f"{'#':>3} {'lang':7} {'rank':>4} {'bm25':>4} {'grep':>4}  {'query':34} top 3 hits")
    for r in rows:
        q = r.query.q + (f" [--lang {r.query.filter}]" if r.query.filter else "")
        top = " | ".join(_short(h) for h in r.top[:3]) or (
            f"(error: {r.error})" if r.error else "(no hits)"
        )
        print(
            f"{r.query.number:>3} {r.query.lang:7} {r.rank or '-':>4} {r.bm25_rank or '-':>4}"
            f" {r.baseline_rank or '-':>4}{'S' if r.stale else ' '}"
            f" {_pad(q, 34)} {top}"
        )
    misses = [r for r in rows if r.rank is None or r.rank > 3]
    if misses:
        print()
        print(f"not answered in the top 3 ({len(misses)}): the first expected answer")
        for r in misses:
            print(f"{r.query.number:>3} {_pad(r.query.q, 40)} -> {r.query.answers[0].describe()}")


def as_json(rows: list[Row], set_path: Path) -> dict:
    overall, by_lang = _figures(rows, False)
    b_overall, b_by_lang = _figures(rows, True)
    m_overall, m_by_lang = _figures(rows, "bm25")
    return {
        "set": str(set_path),
        "k": K,
        "target_mrr_at_10": TARGET_MRR,
        "overall": overall.as_json(),
        **_extra(rows),
        "by_language": {k: v.as_json() for k, v in by_lang.items()},
        "bm25_baseline": {
            "name": "FTS5 bm25 over the newest edition of each language, all words",
            "overall": m_overall.as_json(),
            "by_language": {k: v.as_json() for k, v in m_by_lang.items()},
        },
        "baseline": {
            "name": "grep -i, folded, newest edition first",
            "overall": b_overall.as_json(),
            "by_language": {k: v.as_json() for k, v in b_by_lang.items()},
        },
        "queries": [
            {
                "number": r.query.number,
                "q": r.query.q,
                "lang": r.query.lang,
                "filter": r.query.filter,
                "rank": r.rank,
                "baseline_rank": r.baseline_rank,
                "preferred_first": r.preferred,
                "expected": [a.describe() for a in r.query.answers],
                "top": r.top,
                "error": r.error,
                "rules_rank": r.rules_rank,
                "stale": r.stale,
                "ms": round(r.ms, 2),
            }
            for r in rows
        ],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", help="store to search (default: a temporary store of the corpus)")
    ap.add_argument("--set", type=Path, default=RELEVANCE_SET, help="relevance file (TOML)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = ap.parse_args(argv)
    try:
        queries = load_relevance_set(args.set)
        # The setup line goes to stderr so that --json output stays parseable.
        with contextlib.redirect_stdout(sys.stderr), corpus_store(args.db) as engine:
            with session_scope(engine, write=False) as s:
                rows = evaluate(s, queries)
    except MtgRulesError as exc:
        print(f"eval_search: error: {exc}", file=sys.stderr)
        return exc.exit_code
    if args.json:
        json.dump(as_json(rows, args.set), sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        print_text(rows, args.set)
    return 0


if __name__ == "__main__":
    sys.exit(main())
