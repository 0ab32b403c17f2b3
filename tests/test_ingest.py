"""Ingest into a real SQLite store: revisions, identity by content, atomicity, bad input."""

from __future__ import annotations

import codecs
import shutil
from pathlib import Path

import pytest
from sqlalchemy import func, select

from mtgrules.errors import InputError
from mtgrules.ingest import ingest_paths
from mtgrules.store import open_store, session_scope
from mtgrules.store.models import Clause, Edition
from mtgrules.store.queries import list_editions, show_rule

from .conftest import EXTRA, SEEDS, run_cli, table_counts

SEED_FR = SEEDS / "000_0b7a9445b617ebdb.txt"
SEED_ES = SEEDS / "001_6b17ef9efd2fae21.txt"


def ingest(db: Path, *paths: Path):
    engine = open_store(str(db))
    try:
        with session_scope(engine) as s:
            return ingest_paths(s, list(paths))
    finally:
        engine.dispose()


def test_whole_corpus_editions(corpus_db: Path):
    engine = open_store(str(corpus_db))
    with session_scope(engine) as s:
        infos = list_editions(s)
        assert s.scalar(select(func.count()).select_from(Clause)) > 50_000
    engine.dispose()
    by_lang: dict[str, int] = {}
    for e in infos:
        by_lang[e.language] = by_lang.get(e.language, 0) + 1
    # 19 English files hold 18 editions (the two 2023-11-17 files are one), plus the
    # forum's English, the bilingual page's English and the 2006 glossary page.
    assert by_lang == {"en": 21, "zh-Hans": 4, "fr": 1, "es": 1, "zh-Hant": 1}
    resave = next(e for e in infos if e.date == "2023-11-17" and e.language == "en")
    assert sorted(resave.sources) == ["cr-en-2023-11-17", "cr-en-2023-11-17.zh-repo-resave"]


def test_reingest_adds_nothing(store_copy: Path):
    before = table_counts(store_copy)
    report = ingest(store_copy, SEEDS, EXTRA)
    assert report.revision_id is None
    assert all(f.status == "unchanged" for f in report.files)
    assert table_counts(store_copy) == before


def test_same_edition_in_other_bytes_is_recognised(tmp_path: Path):
    # The 2006-10-01 file re-encoded as UTF-16 with CRLF: other bytes, same edition.
    src = EXTRA / "cr-en-2006-10-01.txt"
    text = src.read_bytes().decode("utf-8")
    other = tmp_path / "copy-utf16.txt"
    other.write_bytes(codecs.BOM_UTF16_LE + text.replace("\n", "\r\n").encode("utf-16-le"))
    db = tmp_path / "s.sqlite"
    ingest(db, src)
    report = ingest(db, other)
    assert [f.status for f in report.files] == ["same-edition"]
    assert report.editions_added == 0
    assert table_counts(db)["edition"] == 1


def test_changed_document_makes_a_new_version_and_the_old_stays_readable(tmp_path: Path):
    folder = tmp_path / "pages"
    folder.mkdir()
    page = folder / "es.txt"
    shutil.copy(SEED_ES, page)
    db = tmp_path / "s.sqlite"
    first = ingest(db, folder)
    text = page.read_text(encoding="utf-8")
    page.write_text(
        text.replace("Algunos objetos usan la letra Y", "Ciertos objetos usan la letra Y"),
        encoding="utf-8",
    )
    second = ingest(db, folder)
    assert [f.status for f in second.files] == ["new-version"]
    engine = open_store(str(db))
    with session_scope(engine) as s:
        now = show_rule(s, "107.3").editions
        then = show_rule(s, "107.3", as_of=first.revision_id).editions
        assert len(now) == len(then) == 1
        assert now[0].clauses[-1].text.startswith("Ciertos objetos")
        assert then[0].clauses[-1].text.startswith("Algunos objetos")
        assert s.scalar(select(func.count()).select_from(Edition)) == 2
    engine.dispose()


def test_a_failed_ingest_leaves_the_store_unchanged(tmp_path: Path):
    db = tmp_path / "s.sqlite"
    ingest(db, SEED_FR)
    before = table_counts(db)
    folder = tmp_path / "mixed"
    folder.mkdir()
    shutil.copy(SEED_ES, folder / "a-good.txt")
    (folder / "b-bad.txt").write_bytes(b"\x00\x01\x02binary\xff" * 100)
    with pytest.raises(InputError, match="b-bad.txt"):
        ingest(db, folder)
    assert table_counts(db) == before


def test_failure_while_writing_rolls_back(tmp_path: Path, monkeypatch):
    """A crash half-way through the write (after some rows went in) keeps nothing."""
    db = tmp_path / "s.sqlite"
    ingest(db, SEED_FR)
    before = table_counts(db)
    import mtgrules.ingest as ingest_module

    calls = {"n": 0}
    real = ingest_module._write_document

    def failing(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError("disk full")
        return real(*args, **kwargs)

    monkeypatch.setattr(ingest_module, "_write_document", failing)
    with pytest.raises(OSError):
        ingest(db, SEED_ES, EXTRA / "cr-en-2006-02-01.txt")
    assert calls["n"] == 2
    assert table_counts(db) == before


def _make_bad_inputs(tmp: Path) -> dict[str, tuple[Path, str]]:
    (tmp / "empty-folder").mkdir()
    (tmp / "only-md").mkdir()
    (tmp / "only-md" / "notes.md").write_text("# notes\n")
    (tmp / "empty.txt").write_bytes(b"")
    (tmp / "blank.txt").write_text("  \n\n \n")
    (tmp / "binary.txt").write_bytes(bytes(range(256)) * 50)
    (tmp / "undecodable.txt").write_bytes(b"Rule 107.3 \x81\x8d\x8f\x90\x9d text")
    (tmp / "prose.txt").write_text(
        "Dear diary, today I played a game of cards with friends.\n" * 20
    )
    (tmp / "bad-bom.txt").write_bytes(codecs.BOM_UTF8 + b"107.3a If \xff\xfe broken")
    return {
        "missing path": (tmp / "nope.txt", "no such file"),
        "folder with no text files": (tmp / "empty-folder", "no rules files"),
        "folder with other files only": (tmp / "only-md", "no rules files"),
        "empty file": (tmp / "empty.txt", "empty"),
        "whitespace file": (tmp / "blank.txt", "empty"),
        "binary file": (tmp / "binary.txt", "binary"),
        "undecodable file": (tmp / "undecodable.txt", "cannot be decoded"),
        "no recognisable rules": (tmp / "prose.txt", "no recognisable rules"),
        "broken UTF-8 after a BOM": (tmp / "bad-bom.txt", "not valid"),
    }


BAD_INPUT_CASES = [
    "missing path",
    "folder with no text files",
    "folder with other files only",
    "empty file",
    "whitespace file",
    "binary file",
    "undecodable file",
    "no recognisable rules",
    "broken UTF-8 after a BOM",
]


@pytest.mark.parametrize("case", BAD_INPUT_CASES)
def test_bad_input_gets_one_clear_line_and_leaves_the_store_unchanged(tmp_path: Path, case: str):
    db = tmp_path / "s.sqlite"
    ingest(db, SEED_FR)
    before = table_counts(db)
    path, message = _make_bad_inputs(tmp_path)[case]
    result = run_cli("ingest", str(path), db=db)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0] and path.name in lines[0]
    assert "Traceback" not in result.stderr
    assert table_counts(db) == before
