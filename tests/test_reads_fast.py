"""drift, trace and diff on a current SQLite store read through the standard library's sqlite3
(store/sql.py: no SQLAlchemy import, most of their start-up) and answer byte for byte what
they answer on the usual SQLAlchemy session; when the store lacks what they read (an
alignment to compute in memory) they leave the fast path and answer the same again.

Each row is one command on the real corpus store, run twice in new processes: on the
store's file (the fast path) and on a URL with options for the same file (the usual
session). The rules: 107.3 (the X rule, glossary ancestors, every translation), 702.19 (a
number reused: Banding in 2009, Trample today), 202.3d, 510.1c (310.2c until 2009),
701.42 in Chinese (zh-Hans-2022-06-10 numbers it 701.37), and whole editions.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from .conftest import ON_PG, cli_importing, usual_session_url

pytestmark = pytest.mark.skipif(ON_PG, reason="the fast path reads SQLite files")


def _drift_rows(out: dict) -> bool:
    return bool(out["rows"]) and len(out["editions"]) > 3


def _trace_spans(out: dict) -> bool:
    return len(out["english"]) > 1 and bool(out["translations"])


# (arguments, what the JSON answer must hold: a check that the two paths agree on
# something, not on an empty answer)
ROWS = [
    (("drift", "107.3"), _drift_rows),
    (("trace", "107.3"), _trace_spans),
    (("trace", "107.3g"), _trace_spans),
    (("drift", "702.19"), _drift_rows),
    (("trace", "702.19"), lambda out: len(out["english"]) > 1),
    (("drift", "202.3d"), _drift_rows),
    (("trace", "202.3d"), _trace_spans),
    (("drift", "510.1c"), lambda out: any(r["cells"] for r in out["rows"])),
    (("trace", "510.1c"), lambda out: any(s["label"] == "310.2c" for s in out["english"])),
    (
        ("drift", "701.42", "--lang", "zh-Hans"),
        lambda out: any(r["from"] == "701.37" for r in out["renumbered"]),
    ),
    (("drift", "107.3", "--reference", "en-2009-07-11"), _drift_rows),
    (("drift", "--edition", "en-2025-11-14"), lambda out: out["summary"]["added"] > 0),
    (("drift", "--edition", "zh-Hans-2022-06-10"), lambda out: out["summary"]["matched"] > 3000),
    # diff reads the one map of a pair (composition.edition_map): stored steps composed, one
    # step as stored, the other way round, and the steps' lineage (came_from).
    (
        ("diff", "en-2009-07-11", "en-2026-01-16", "--rule", "107.3"),
        lambda out: out["summary"]["renumbered"] > 0,
    ),
    (
        ("diff", "en-2009-05-01", "en-2026-01-16", "--rule", "107.3"),
        lambda out: any(c.get("came_from") for c in out["changes"]),
    ),
    (("diff", "en-2025-11-14", "en-2026-01-16"), lambda out: out["summary"]["changed"] > 0),
    (("diff", "en-2026-01-16", "en-2025-11-14"), lambda out: out["summary"]["changed"] > 0),
]


@pytest.mark.parametrize("fmt", ["json", "text"])
@pytest.mark.parametrize(("args", "holds"), ROWS, ids=[" ".join(a) for a, _ in ROWS])
def test_a_read_on_the_fast_path_answers_as_on_the_usual_session(corpus_db, args, holds, fmt):
    fast, imported, _ = cli_importing(corpus_db, *args, "--format", fmt)
    assert not imported
    usual, imported, _ = cli_importing(usual_session_url(corpus_db), *args, "--format", fmt)
    assert imported
    assert fast == usual
    if fmt == "json":
        assert holds(json.loads(fast))


def _without(store, sql: str) -> None:
    db = sqlite3.connect(store)
    with db:
        db.execute(sql)
    db.close()


# What a store may lack, and whether drift and trace then still read it without SQLAlchemy:
# the steps' stored lineage (the ancestors are then searched in memory, from the stored
# steps: a read like any other), or every stored alignment (the aligner runs: the usual
# session, as update does).
LACKS = [
    (
        "the steps' lineage",
        "DELETE FROM link WHERE alignment_id IN (SELECT id FROM alignment WHERE kind = 'lineage')",
        False,
    ),
    ("every alignment", "DELETE FROM link", True),
]


# (a read, the part of its JSON answer that must not be empty)
READS = [
    (("drift", "107.3"), "rows"),
    (("trace", "107.3"), "english"),
    (("diff", "en-2009-05-01", "en-2026-01-16", "--rule", "107.3"), "changes"),
]


@pytest.mark.parametrize(("what", "sql", "declined"), LACKS, ids=[w for w, _, _ in LACKS])
@pytest.mark.parametrize(("args", "answer"), READS, ids=[" ".join(a) for a, _ in READS])
def test_a_store_lacking_what_a_read_follows_answers_as_the_usual_session(
    store_copy, what, sql, declined, args, answer
):
    _without(store_copy, sql)
    fast, imported, _ = cli_importing(store_copy, *args, "--format", "json")
    assert imported == declined
    usual, _, _ = cli_importing(usual_session_url(store_copy), *args, "--format", "json")
    assert fast == usual
    assert json.loads(fast)[answer]
