"""`mtgrules remove EDITION...`: a way out of a mistake, as a new revision that the store's
history keeps (on a private copy of the real corpus store, through the real command)."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import EXTRA, run_cli, table_counts


def _slugs(db: Path, *extra: str) -> list[str]:
    result = run_cli("editions", "--json", *extra, db=db)
    assert result.returncode == 0, result.stderr
    return [e["slug"] for e in json.loads(result.stdout)]


def test_removed_editions_are_gone_now_and_kept_in_the_history(store_copy: Path) -> None:
    before = _slugs(store_copy)
    result = run_cli("remove", "en-2013-05-01", "es-page-es-107.3", "--json", db=store_copy)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [e["slug"] for e in report["removed"]] == ["en-2013-05-01", "es-page-es-107.3"]
    revision = report["revision_id"]
    # Gone from every reader now...
    now = _slugs(store_copy)
    assert set(before) - set(now) == {"en-2013-05-01", "es-page-es-107.3"}
    shown = json.loads(run_cli("show", "107.3", "--all", "--json", db=store_copy).stdout)
    assert {"en-2013-05-01", "es-page-es-107.3"}.isdisjoint(e["slug"] for e in shown["editions"])
    hits = json.loads(run_cli("search", "marcador de posición", "--json", db=store_copy).stdout)
    assert all(h["edition"] != "es-page-es-107.3" for h in hits["hits"])
    gone = run_cli("search", "marcador", "--lang", "es", db=store_copy)
    assert gone.returncode == 3 and "no es edition" in gone.stderr
    # ...and read as they were with --as-of the revision before.
    assert _slugs(store_copy, "--as-of", str(revision - 1)) == before
    old = run_cli(
        "show", "107.3", "--edition", "en-2013-05-01", "--as-of", str(revision - 1), db=store_copy
    )
    assert old.returncode == 0 and "Many objects use the letter X" in old.stdout
    history = json.loads(run_cli("history", "--json", db=store_copy).stdout)
    assert history[-1]["id"] == revision
    assert history[-1]["summary"]["removed"] == ["en-2013-05-01", "es-page-es-107.3"]
    table = run_cli("history", db=store_copy, env={"COLUMNS": "120"}).stdout
    assert "en-2013-05-01, es-page-es-107.3" in table
    # Its neighbours were aligned with each other in the same transaction: diff reads it.
    assert "en-2012-07-01 en-2014-09-25" in report["alignments"]["aligned"]
    diff = run_cli("diff", "en-2012-07-01", "en-2014-09-25", "--rule", "107.3", db=store_copy)
    assert diff.returncode == 0, diff.stderr


def test_an_unknown_edition_changes_nothing(store_copy: Path) -> None:
    before = table_counts(store_copy)
    result = run_cli("remove", "en-2026-01-16", "en-1999-01-01", db=store_copy)
    assert result.returncode == 3
    assert result.stderr.count("\n") == 1 and "en-1999-01-01" in result.stderr
    assert table_counts(store_copy) == before  # en-2026-01-16 was not removed either
    assert run_cli("remove", db=store_copy).returncode == 2  # nothing named: usage error


def test_a_removed_file_given_again_comes_back(store_copy: Path) -> None:
    """Before, the file's bytes were still known: "Nothing changed: every file is already in
    the store", and no command could bring the edition back."""
    path = EXTRA / "cr-en-2013-05-01.txt"
    removed = run_cli("remove", "en-2013-05-01", "--json", db=store_copy)
    assert removed.returncode == 0, removed.stderr
    revision = json.loads(removed.stdout)["revision_id"]
    result = run_cli("ingest", "--json", str(path), db=store_copy)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    (outcome,) = report["files"]
    assert (outcome["status"], outcome["editions"]) == ("added", 1)
    assert f"taken out in revision {revision}" in outcome["note"]
    assert "en-2013-05-01" in _slugs(store_copy)
    shown = run_cli("show", "107.3", "--edition", "en-2013-05-01", db=store_copy)
    assert shown.returncode == 0 and "Many objects use the letter X" in shown.stdout
    # Its neighbours are aligned with it again, and the removal stays in the history.
    assert "en-2012-07-01 en-2013-05-01" in {
        f"{p['a']} {p['b']}" for p in report["alignments"]["aligned"]
    }
    assert _slugs(store_copy, "--as-of", str(revision)).count("en-2013-05-01") == 0
    again = run_cli("ingest", "--json", str(path), db=store_copy)
    assert json.loads(again.stdout)["files"][0]["status"] == "unchanged"


def test_a_file_back_to_its_earlier_bytes_keeps_one_link(new_store, tmp_path: Path) -> None:
    """A file that held another file's edition, then other text, then its first bytes again:
    its document comes back with the link it already had. Before, the link was written a
    second time and the ingest died on a UNIQUE constraint (found by the hostile heavy
    profile in CI)."""
    first = (EXTRA / "cr-en-2012-07-01.txt").read_bytes()
    original, copy = tmp_path / "a.txt", tmp_path / "b.txt"
    original.write_bytes(first)
    results = []
    # b.txt: other bytes of the same edition (a second source of it), then another
    # edition's text, then its first bytes again.
    for data, paths in (
        (first + b"\n", [original, copy]),
        ((EXTRA / "cr-en-2008-05-01.txt").read_bytes(), [copy]),
        (first + b"\n", [copy]),
    ):
        copy.write_bytes(data)
        results.append(run_cli("ingest", "--json", *map(str, paths), db=new_store))
    assert [r.returncode for r in results] == [0, 0, 0], [r.stderr for r in results]
    back = json.loads(results[-1].stdout)["files"][0]
    assert back["status"] == "new-version" and "back in the store" in back["note"]
    assert "holds edition" not in back["note"]
    assert _slugs(new_store) == ["en-2012-07-01"]
