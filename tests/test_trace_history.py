"""Traces reach the oldest edition that holds the clause or its glossary ancestor (issue 18), on
real editions of the English archive packed inside mtgrules (the old numbering of 2003-2008,
the July 2009 renumbering, today's rules).

Read in the files (grep -n on each):
- the glossary entry "X" is in every edition since 2003-03-15. Its sentence "Many cards use the
  letter X as a placeholder for a number that needs to be determined." entered it in
  2008-07-15 (2008-05-01 opens the entry with "If a spell or activated ability has a cost
  with an "{X}" in it"), and became 107.3 in 2009-07-11;
- 104.3c of 2004-02-01 ("The symbols {oX}, {oY}, and {oZ} represent unspecified amounts of
  mana") is today's 107.3a's first sentence's ancestor, as the glossary's "If a cost has an
  "X" in it, the value of X must be announced" is its second's;
- "If a card in any other zone has {X} in its mana cost, the amount is treated as 0" (today's
  107.3g) is in the entry X of 2004-02-01, not of 2003-03-15.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mtgrules.archive import read_files

from .conftest import ON_PG, StoreRef, pg_create_database, pg_drop_database, run_cli

EDITIONS = ["2003-03-15", "2004-02-01", "2008-05-01", "2008-07-15", "2009-07-11", "2026-01-16"]


@pytest.fixture(scope="module")
def archive_db(tmp_path_factory) -> Iterator[StoreRef]:
    folder = tmp_path_factory.mktemp("archive")
    for name, data in read_files([f"{d}.txt" for d in EDITIONS]).items():
        (folder / name).write_bytes(data)
    db: StoreRef = pg_create_database() if ON_PG else folder / "s.sqlite"
    proc = run_cli("ingest", str(folder), db=db)
    assert proc.returncode == 0, proc.stderr
    yield db
    if ON_PG:
        pg_drop_database(str(db))


@pytest.fixture(scope="module")
def traces(archive_db) -> dict[str, dict]:
    """The traces of the clauses below, in one process (each aligns rule 107.3 in memory)."""
    from mtgrules.reports.trace import trace_clause
    from mtgrules.store import open_store, session_scope

    engine = open_store(str(archive_db))
    with session_scope(engine, write=False) as s:
        out = {c: trace_clause(s, c).as_json() for c in ("107.3", "107.3a", "107.3g")}
    engine.dispose()
    return out


# (clause, the date a span of its trace starts, that span's label, its event)
REACHES = [
    ("107.3", "2003-03-15", "glossary: X", "in the glossary entry"),
    ("107.3", "2008-07-15", "glossary: X", "added to the glossary entry"),
    ("107.3", "2009-07-11", "107.3", "became a numbered rule"),
    ("107.3a", "2004-02-01", "104.3c", "appeared"),
    ("107.3g", "2003-03-15", "glossary: X", "in the glossary entry"),
    ("107.3g", "2004-02-01", "glossary: X", "added to the glossary entry"),
]


@pytest.mark.parametrize(("clause", "date", "label", "event"), REACHES)
def test_the_trace_reaches_the_old_glossary(traces, clause, date, label, event) -> None:
    spans = [(s["from"], s["label"], s["event"]) for s in traces[clause]["english"]]
    assert (date, label, event) in spans, spans


def test_the_entry_before_the_sentence_spans_its_editions(traces) -> None:
    entry = traces["107.3"]["english"][0]
    assert entry["editions"] == ["en-2003-03-15", "en-2004-02-01", "en-2008-05-01"]
    assert entry["text"] == ""  # the entry did not hold these words yet


def test_the_text_says_which_entry_the_sentence_left(archive_db) -> None:
    proc = run_cli("trace", "107.3", db=archive_db)  # the command a user runs, on the text
    assert proc.returncode == 0, proc.stderr
    assert "2009-07-11  left the glossary (was glossary: X)" in proc.stdout
    assert "(unnumbered)" not in proc.stdout


def test_a_store_aligned_by_another_version_says_so_until_an_ingest(store_copy) -> None:
    """Alignments signed by another aligner are stale (align/signature.py): a read aligns
    the rule in memory, within it, so 702.19 (Trample since 2014) loses 702.18 and 702.17,
    its numbers before; it says so on stderr, and `mtgrules ingest` redoes them."""
    from sqlalchemy import text

    from mtgrules.store import open_store, session_scope

    engine = open_store(str(store_copy))
    with session_scope(engine) as s:
        s.execute(text("UPDATE alignment SET signature = 'mtgrules-align/0.9;code=older'"))
    engine.dispose()
    stale = run_cli("trace", "702.19", db=store_copy)
    assert stale.returncode == 0, stale.stderr
    assert "made by another version of mtgrules" in stale.stderr
    assert "mtgrules ingest" in stale.stderr and len(stale.stderr.splitlines()) == 1
    assert run_cli("ingest", db=store_copy).returncode == 0
    redone = run_cli("trace", "702.19", db=store_copy)
    assert redone.returncode == 0 and redone.stderr == ""
    assert "702.17  renumbered" in redone.stdout and "702.18  renumbered" in redone.stdout
