"""Migrations: the models and the migrations agree, and an old store upgrades with its data.

tests/fixtures/store-0001.db is a store made by the first migration (0001) alone, holding
two revisions of real seed files; tests/fixtures/make_store_0001.py rebuilds it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, MetaData, create_engine, insert, select, text

from mtgrules.store import open_store, session_scope
from mtgrules.store.migrate import current_revision, head_revision, schema_differences, upgrade
from mtgrules.store.session import make_engine, resolve_url

from .conftest import ON_PG, SEEDS, StoreRef, run_cli

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "store-0001.db"
TABLES_0001 = ["revision", "document", "edition", "clause", "edition_source"]


def _snapshot(engine: Engine, columns: dict[str, list[str]]) -> dict[str, list[tuple]]:
    """The rows of the 0001 tables, only the columns 0001 had, in a comparable form."""
    meta = MetaData()
    meta.reflect(engine, only=list(columns))
    out: dict[str, list[tuple]] = {}
    with engine.connect() as conn:
        for name, cols in columns.items():
            table = meta.tables[name]
            key = [table.c[c] for c in table.primary_key.columns.keys()]
            rows = conn.execute(select(*(table.c[c] for c in cols)).order_by(*key)).all()
            out[name] = [tuple(_plain(v) for v in row) for row in rows]
    return out


def _plain(value: Any) -> Any:
    # JSON comes back parsed on one backend and as text on another; dates as objects or text.
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return json.loads(value)
        except ValueError:
            return value
    if hasattr(value, "isoformat"):
        return value.isoformat()[:19].replace("T", " ")
    if isinstance(value, str) and len(value) >= 19 and value[4] == "-" and value[10] in " T":
        return value[:19].replace("T", " ")
    return value


def _fixture_engine() -> Engine:
    # Read-only and without mtgrules' pragmas: switching it to WAL would change the file.
    return create_engine(f"sqlite:///file:{FIXTURE}?mode=ro&uri=true")


def _fixture_columns() -> dict[str, list[str]]:
    old = _fixture_engine()
    meta = MetaData()
    meta.reflect(old)
    old.dispose()
    return {t: [c.name for c in meta.tables[t].columns] for t in TABLES_0001}


def _load_fixture_into(db: StoreRef, tmp_path: Path) -> Engine:
    """The store under test at schema 0001 with the fixture's rows, not yet upgraded."""
    if not ON_PG:
        path = tmp_path / "old.sqlite"
        shutil.copy(FIXTURE, path)
        return make_engine(resolve_url(str(path)))
    # PostgreSQL: build 0001 there with Alembic, then copy the fixture's rows over.
    engine = make_engine(resolve_url(str(db)))
    upgrade(engine, "0001")
    src = _fixture_engine()
    src_meta, dst_meta = MetaData(), MetaData()
    src_meta.reflect(src)
    dst_meta.reflect(engine)
    with src.connect() as s, engine.begin() as d:
        for name in TABLES_0001:
            rows = [dict(r) for r in s.execute(select(src_meta.tables[name])).mappings()]
            if rows:
                d.execute(insert(dst_meta.tables[name]), rows)
            if "id" in dst_meta.tables[name].c:
                # Rows came with their ids: move the sequence past them.
                d.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                        f"(SELECT coalesce(max(id), 0) + 1 FROM {name}), false)"
                    )
                )
    src.dispose()
    return engine


def test_models_and_migrations_agree(new_store: StoreRef) -> None:
    """What `alembic check` does: autogenerate finds nothing to add, drop or alter."""
    engine = open_store(str(new_store))
    try:
        assert current_revision(engine) == head_revision(engine)
        assert schema_differences(engine) == []
    finally:
        engine.dispose()


def test_fixture_is_at_the_first_migration() -> None:
    assert FIXTURE.exists(), f"{FIXTURE} is missing: run tests/fixtures/make_store_0001.py"
    engine = _fixture_engine()
    try:
        assert current_revision(engine) == "0001"
        with engine.connect() as conn:
            assert conn.execute(text("select count(*) from revision")).scalar_one() == 2
            assert conn.execute(text("select count(*) from clause")).scalar_one() > 50
    finally:
        engine.dispose()


def test_store_from_first_migration_upgrades_with_data_intact(
    new_store: StoreRef, tmp_path: Path
) -> None:
    columns = _fixture_columns()
    engine = _load_fixture_into(new_store, tmp_path)
    before = _snapshot(engine, columns)
    assert current_revision(engine) == "0001"
    db = str(engine.url.render_as_string(hide_password=False))
    engine.dispose()

    # Opening the store is what upgrades it, as for a user after installing a new version.
    engine = open_store(db)
    try:
        assert current_revision(engine) == head_revision(engine)
        assert _snapshot(engine, columns) == before
        assert schema_differences(engine) == []
    finally:
        engine.dispose()

    # The upgraded store keeps working: its old rules read back, a new ingest adds a
    # revision on top of the two old ones.
    shown = run_cli("show", "107.3", "--json", db=db)
    assert shown.returncode == 0, shown.stderr
    assert "107.3" in shown.stdout
    assert run_cli("ingest", str(SEEDS / "001_6b17ef9efd2fae21.txt"), db=db).returncode == 0
    history = json.loads(run_cli("history", "--json", db=db).stdout)
    assert sorted(r["id"] for r in history) == [1, 2, 3]
    engine = open_store(db)
    with session_scope(engine, write=False) as s:
        assert s.execute(text("select count(*) from revision")).scalar_one() == 3
    engine.dispose()


@pytest.mark.sqlite_only
def test_the_first_command_after_an_upgrade_says_it_migrates_once(
    new_store: StoreRef, tmp_path: Path
) -> None:
    """A migration can rebuild the search index for seconds: the command says so on stderr
    (stdout stays the report's), and the next command, at head, says nothing."""
    engine = _load_fixture_into(new_store, tmp_path)
    db = str(engine.url.render_as_string(hide_password=False))
    engine.dispose()
    first = run_cli("show", "107.3", "--json", db=db)
    assert first.returncode == 0, first.stderr
    assert "Upgrading the store's schema from 0001 to" in first.stderr
    json.loads(first.stdout)  # the report itself is untouched by the note
    again = run_cli("show", "107.3", "--json", db=db)
    assert again.returncode == 0 and "Upgrading" not in again.stderr


def test_fixture_file_is_untouched_by_the_tests() -> None:
    # The upgrade test works on a copy; the committed fixture stays at 0001, in rollback-journal
    # mode (header bytes 18-19 are 1; WAL would make them 2), with no -wal file beside it.
    header = FIXTURE.read_bytes()[:20]
    assert (header[18], header[19]) == (1, 1)
    assert not FIXTURE.with_name(FIXTURE.name + "-wal").exists()
    engine = _fixture_engine()
    try:
        assert current_revision(engine) == "0001"
    finally:
        engine.dispose()


def test_schema_head_constant_is_alembics_head(new_store: StoreRef) -> None:
    """Opening a store compares its version with SCHEMA_HEAD without importing Alembic; a new
    migration must move the constant too."""
    from mtgrules.store.migrate import SCHEMA_HEAD

    engine = make_engine(resolve_url(str(new_store)))
    try:
        assert head_revision(engine) == SCHEMA_HEAD
    finally:
        engine.dispose()


# Signatures as the aligner wrote them before 0004: the kind (and rule) only inside them.
OLD_SIGNATURES = [
    (
        "mtgrules-align/3.1;editions;code=0123456789abcdef;0.35/0.3/0.9/0.6/0.6/0.55",
        "editions",
        None,
    ),
    (
        "mtgrules-align/3.1;rule=107.3;code=0123456789abcdef;0.35/0.3/0.9/0.6/0.6/0.55",
        "rule",
        "107.3",
    ),
    (
        "mtgrules-align/3.1;rule=702.19b;code=0123456789abcdef;0.35/0.3/0.9/0.6/0.6/0.55",
        "rule",
        "702.19b",
    ),
]


def test_store_at_0003_with_alignments_upgrades_to_kind_columns(new_store: StoreRef) -> None:
    """0004 turns the kind hidden in each alignment's signature into columns, keeping every
    alignment and link."""
    from alembic import command

    from mtgrules.ingest import ingest_paths
    from mtgrules.store.migrate import _foreign_keys_off, alembic_config

    # Today's ingest writes today's schema: the store is filled at head, then taken back to
    # 0003 (the migrations' own downgrades), as a store of that time would be.
    engine = make_engine(resolve_url(str(new_store)))
    upgrade(engine, "head")
    with session_scope(engine) as s:
        ingest_paths(s, [SEEDS / "000_0b7a9445b617ebdb.txt"])
    cfg = alembic_config(engine)
    with engine.connect() as conn, _foreign_keys_off(conn), conn.begin():
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003")
    with engine.begin() as conn:
        clause_ids = [r[0] for r in conn.execute(text("select id from clause order by id limit 4"))]
        edition = conn.execute(text("select min(id) from edition")).scalar_one()
        for i, (sig, _kind, _rule) in enumerate(OLD_SIGNATURES):
            conn.execute(
                text(
                    "insert into alignment (id, edition_a, edition_b, signature, created_at, stats)"
                    " values (:id, :e, :e, :sig, CURRENT_TIMESTAMP, :stats)"
                ),
                {"id": i + 1, "e": edition, "sig": sig, "stats": json.dumps({"links": 1})},
            )
            conn.execute(
                text(
                    "insert into link (alignment_id, kind, source_clause_id, target_clause_id,"
                    " score, evidence) values (:a, 'match', :s, :t, 0.9, '[]')"
                ),
                {"a": i + 1, "s": clause_ids[i], "t": clause_ids[i + 1]},
            )
    assert current_revision(engine) == "0003"
    db = engine.url.render_as_string(hide_password=False)
    engine.dispose()

    engine = open_store(db)
    try:
        assert current_revision(engine) == head_revision(engine)
        assert schema_differences(engine) == []
        with engine.connect() as conn:
            rows = conn.execute(
                text("select signature, kind, rule from alignment order by id")
            ).all()
            links = conn.execute(text("select count(*) from link")).scalar_one()
    finally:
        engine.dispose()
    assert [tuple(r) for r in rows] == OLD_SIGNATURES
    assert links == len(OLD_SIGNATURES)


def _index_columns(conn, table: str) -> list[str]:
    if conn.dialect.name == "postgresql":
        rows = conn.execute(
            text(
                "SELECT column_name FROM information_schema.columns WHERE table_name = :t "
                "ORDER BY ordinal_position"
            ),
            {"t": table},
        )
        return [r[0] for r in rows]
    return [r[1] for r in conn.execute(text(f"PRAGMA table_info({table})"))]


def _tables(conn) -> set[str]:
    if conn.dialect.name == "postgresql":
        rows = conn.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))
    else:
        rows = conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'table'"))
    return {r[0] for r in rows}


def _hits(engine: Engine, query: str) -> list[tuple]:
    from mtgrules.search import search

    with session_scope(engine, write=False) as s:
        return [(h.language, h.kind, h.label, h.term) for h in search(s, query).hits]


def test_0006_downgrades_to_the_0005_index_and_upgrades_back(new_store: StoreRef) -> None:
    """0006's downgrade leaves the index as 0005 made it (no lemma column, no word or
    lineage table, every text still found by its words), and upgrading again gives the same
    search as before."""
    from alembic import command

    from mtgrules.align.plan import ingest_and_align
    from mtgrules.store.migrate import alembic_config

    engine = open_store(str(new_store))
    with session_scope(engine) as s:
        ingest_and_align(s, sorted(SEEDS.glob("*.txt")))
    before = {q: _hits(engine, q) for q in ("mana cost", "valeur de X", "107.3a")}
    assert all(before.values())
    with engine.connect() as conn:
        groups = conn.execute(text("SELECT id, key, term_key FROM search_group ORDER BY id")).all()
        if not ON_PG:
            # What 0005's queries ask: a word in the body or the term, by prefix.
            found = {
                r[0]
                for r in conn.execute(
                    text("SELECT rowid FROM search_text WHERE search_text MATCH :q"),
                    {"q": '{body term} : "cost"*'},
                )
            }
    cfg = alembic_config(engine)
    with engine.connect() as conn, conn.begin():
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0005")
    assert current_revision(engine) == "0005"
    with engine.connect() as conn:
        tables = _tables(conn)
        assert "search_word" not in tables and "search_lineage" not in tables
        assert _index_columns(conn, "search_group") == [
            "id",
            "key",
            "language",
            "kind",
            "term",
            "term_key",
        ]
        assert (
            conn.execute(text("SELECT id, key, term_key FROM search_group ORDER BY id")).all()
            == groups
        )
        if not ON_PG:
            assert _index_columns(conn, "search_text") == ["body", "term"]
            again = {
                r[0]
                for r in conn.execute(
                    text("SELECT rowid FROM search_text WHERE search_text MATCH :q"),
                    {"q": '"cost"*'},
                )
            }
            assert again == found and found
    engine.dispose()

    engine = open_store(str(new_store))  # opening upgrades to head again
    try:
        assert current_revision(engine) == head_revision(engine)
        assert {q: _hits(engine, q) for q in before} == before
    finally:
        engine.dispose()


def _index_names(conn) -> set[str]:
    if conn.dialect.name == "postgresql":
        rows = conn.execute(text("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"))
    else:
        rows = conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'index'"))
    return {r[0] for r in rows}


def test_0010_adds_the_read_indexes_and_downgrades_to_0009s(new_store: StoreRef) -> None:
    """0010 indexes the links that carry an inferred label and the lineages by head and
    edition; its downgrade gives back the index of lineages by head alone (0006's)."""
    from alembic import command

    from mtgrules.store.migrate import alembic_config

    engine = open_store(str(new_store))
    try:
        with engine.connect() as conn:
            names = _index_names(conn)
        assert {"search_link_inferred", "ix_search_lineage_head_edition"} <= names
        assert "ix_search_lineage_head" not in names
        cfg = alembic_config(engine)
        with engine.connect() as conn, conn.begin():
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0009")
        with engine.connect() as conn:
            names = _index_names(conn)
        assert "search_link_inferred" not in names
        assert "ix_search_lineage_head_edition" not in names
        assert "ix_search_lineage_head" in names
    finally:
        engine.dispose()
