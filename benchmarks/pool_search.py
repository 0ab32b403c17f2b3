"""Pooled relevance judgments: how much of search's miss is an answer key that lacks a right
answer, and how much a wrong hit.

An answer key written before the tool ran lists the clauses its author thought of; a search
may put first another clause that answers just as well (119.1a and 103.4a both say a
Two-Headed Giant team starts at 30 life; the key of "how much life does a team start with in
two-headed giant" lists 810.4). As TREC does, the texts a run put in its top 3 that the key
does not list are judged afterwards, blind: each query with the text alone, shuffled among
texts the key does list (controls, to see that the judge agrees with the keys), without
saying which is which nor where the run ranked it.

  python benchmarks/eval_search.py --db STORE --set SET --json > run.json
  python benchmarks/pool_search.py pool run.json POOL.json      # the items to judge
  (a judge fills each item's "verdict": "yes", "partial" or "no", and "why")
  python benchmarks/pool_search.py score run.json POOL.json     # MRR@10 on the key, then
                                                                # with the texts judged yes

The judge's brief (helper sessions that never ran the tool nor read its code, the key or the
run; the rules text at hand for context): would a judge asked this query accept this text as
an answer? "yes": it states the answer by itself, even if another rule would too; "partial":
on the query's exact subject, not the answer alone; "no": it shares words or a neighbouring
topic. Only "yes" counts as an answer; "partial" (on the subject, not the answer by itself: a
section heading, the general rule above the one that says it) does not. The figure on the
key alone stays the one the targets are read against (eval_search.py); this one says how far
below it the key's gaps put a run. Judgments: tests/search_pooled/.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from corpus_store import corpus_store
from sqlalchemy import text

from mtgrules.store import session_scope
from mtgrules.store.queries import list_editions

POOL_DEPTH = 3  # the run's texts judged: its top 3, as the targets read top-3
CONTROLS = 2  # key answers per query shuffled in, from the run's top 10
K = 10
SEED = 7


def _key(query: dict, hit: dict) -> list:
    return [query["number"], hit["kind"], hit["label"], hit["term"], hit["edition"]]


def _text(s, editions: dict[str, int], hit: dict) -> str:
    """What the judge reads: the clause as the edition prints it, with its number or term.
    By the clause's id where the run gives it: a page printing no subrule numbers (the
    Spanish 107.3) holds no clause under the label the aligner gave its hit."""
    if hit.get("clause_id") is not None:
        row = s.execute(
            text("SELECT raw FROM clause WHERE id = :id"), {"id": hit["clause_id"]}
        ).first()
    else:
        where = "term = :term" if hit["kind"] == "glossary" else "label = :label"
        row = s.execute(
            text(f"SELECT raw FROM clause WHERE edition_id = :e AND kind = :k AND {where}"),
            {
                "e": editions[hit["edition"]],
                "k": hit["kind"],
                "term": hit["term"],
                "label": hit["label"],
            },
        ).first()
    name = (
        f"glossary entry {hit['term']}"
        if hit["kind"] == "glossary"
        else f"{hit['kind']} {hit['label']}"
    )
    return f"[{name}] {row[0] if row else '?'}"


def pool(run: dict, db: str | None) -> list[dict]:
    """The items to judge: for each query not answered first, its top texts outside the key
    and a few of its key answers, shuffled (seeded: the same run gives the same pool)."""
    items: list[dict] = []
    with corpus_store(db) as engine, session_scope(engine, write=False) as s:
        editions = {e.slug: e.id for e in list_editions(s, None)}
        for q in run["queries"]:
            if q["rank"] == 1:
                continue
            judged = [(h, "pool") for h in q["top"][:POOL_DEPTH] if not h["relevant"]]
            judged += [
                (h, "control") for h in [h for h in q["top"][:K] if h["relevant"]][:CONTROLS]
            ]
            for hit, role in judged:
                items.append(
                    {
                        "query": q["q"],
                        "lang": q["lang"],
                        "text": _text(s, editions, hit),
                        "hit": _key(q, hit),
                        "role": role,
                        "verdict": None,
                        "why": None,
                    }
                )
    random.Random(SEED).shuffle(items)
    for n, item in enumerate(items, 1):
        item["id"] = f"{n:03d}"
    return items


def score(run: dict, items: list[dict]) -> dict:
    """MRR@10 and top-1 on the key, and with the pooled texts judged "yes" counted too."""
    unjudged = [i["id"] for i in items if i.get("verdict") not in ("yes", "partial", "no")]
    if unjudged:
        raise SystemExit(
            f"pool_search: {len(unjudged)} items have no verdict (first: {unjudged[0]})"
        )
    yes = {tuple(i["hit"]) for i in items if i["role"] == "pool" and i["verdict"] == "yes"}
    moved = []
    mrr_key = mrr_pooled = top1_key = top1_pooled = 0.0
    for q in run["queries"]:
        rank = q["rank"] if q["rank"] and q["rank"] <= K else None
        pooled = next(
            (n for n, h in enumerate(q["top"][:K], 1) if h["relevant"] or tuple(_key(q, h)) in yes),
            None,
        )
        mrr_key += 1 / rank if rank else 0.0
        mrr_pooled += 1 / pooled if pooled else 0.0
        top1_key += rank == 1
        top1_pooled += pooled == 1
        if pooled != rank:
            moved.append({"q": q["q"], "key": rank, "pooled": pooled})
    n = len(run["queries"]) or 1
    return {
        "queries": len(run["queries"]),
        "controls": dict(Counter(i["verdict"] for i in items if i["role"] == "control")),
        "pooled": dict(Counter(i["verdict"] for i in items if i["role"] == "pool")),
        "mrr_at_10_key": round(mrr_key / n, 4),
        "mrr_at_10_pooled": round(mrr_pooled / n, 4),
        "top1_key": round(top1_key / n, 4),
        "top1_pooled": round(top1_pooled / n, 4),
        "moved": moved,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("step", choices=["pool", "score"])
    ap.add_argument("run", type=Path, help="eval_search.py --json output")
    ap.add_argument("judgments", type=Path, help="the pool file (written by pool, read by score)")
    ap.add_argument("--db", help="the store the run searched (pool only; default: the corpus)")
    args = ap.parse_args(argv)
    run = json.loads(args.run.read_text(encoding="utf-8"))
    if args.step == "pool":
        items = pool(run, args.db)
        args.judgments.write_text(json.dumps(items, ensure_ascii=False, indent=1) + "\n", "utf-8")
        print(f"{len(items)} items to judge ({sum(i['role'] == 'pool' for i in items)} pooled)")
        return 0
    result = score(run, json.loads(args.judgments.read_text(encoding="utf-8")))
    for m in result["moved"]:
        print(f"  {m['q'][:70]}: {m['key']} -> {m['pooled']}")
    print(
        f"{result['queries']} queries; judge on the key's own answers {result['controls']}, "
        f"on the run's other top-{POOL_DEPTH} texts {result['pooled']}"
    )
    print(
        f"MRR@10 on the key {result['mrr_at_10_key']:.3f}, with the texts judged yes "
        f"{result['mrr_at_10_pooled']:.3f}; top-1 {result['top1_key']:.0%} -> {result['top1_pooled']:.0%}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
