"""The English archive packed inside mtgrules (mtgrules/archive.py, scripts/pack_archive.py).

The checks of the packed file against its manifest always run; the rebuild from the archive's
folder runs where that folder is (../shared/cr-archive/txt, or $MTGRULES_ARCHIVE/txt).
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from mtgrules import archive
from mtgrules.errors import StoreError
from mtgrules.ingest import date_from_name
from mtgrules.schemas import load_schema
from mtgrules.sources.pipeline import parse_document, prepare

from .conftest import EXTRA, ROOT, run_cli

SCRIPT = ROOT / "scripts" / "pack_archive.py"


def _script():
    spec = importlib.util.spec_from_file_location("pack_archive", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


ARCHIVE_TXT = _script().default_folder()
needs_archive = pytest.mark.skipif(
    not ARCHIVE_TXT.is_dir(), reason=f"no archive folder at {ARCHIVE_TXT}"
)


def _members() -> list[tuple[tarfile.TarInfo, bytes]]:
    out = []
    with tarfile.open(fileobj=io.BytesIO(archive.read_packed()), mode="r:") as tar:
        for m in tar:
            fh = tar.extractfile(m)
            out.append((m, fh.read() if fh else b""))
    return out


def test_the_packed_file_holds_exactly_its_manifest() -> None:
    manifest = archive.manifest()
    members = _members()
    assert len(manifest.files) == 110
    assert [m.name for m, _ in members] == [f.name for f in manifest.files]
    assert [m.name for m, _ in members] == sorted(m.name for m, _ in members)
    assert (manifest.files[0].name, manifest.files[-1].name) == ("2003-03-15.txt", "2026-01-16.txt")
    for (member, data), entry in zip(members, manifest.files, strict=True):
        assert hashlib.sha256(data).hexdigest() == entry.sha256, member.name
        assert len(data) == member.size == entry.size, member.name
    # The tar stream itself is the one the manifest names (sorted, fixed attributes: below).
    assert hashlib.sha256(archive.read_packed()).hexdigest() == manifest.tar_sha256
    # 74 MB of text in well under a megabyte.
    assert sum(f.size for f in manifest.files) > 70_000_000
    assert archive.packed_path().stat().st_size < 1_000_000


def test_every_member_carries_the_fixed_attributes() -> None:
    for member, _ in _members():
        assert member.isfile()
        assert (member.mtime, member.mode, member.uid, member.gid) == (
            archive.MEMBER_MTIME,
            archive.MEMBER_MODE,
            0,
            0,
        )
        assert (member.uname, member.gname) == ("", "")


def test_pack_tar_is_the_same_bytes_for_the_same_files() -> None:
    files = {"b.txt": b"second", "a.txt": b"first\r\n"}
    one, two = archive.pack_tar(files), archive.pack_tar(dict(reversed(list(files.items()))))
    assert one == two
    with tarfile.open(fileobj=io.BytesIO(one)) as tar:
        assert tar.getnames() == ["a.txt", "b.txt"]


def test_the_manifest_dates_are_what_ingest_reads() -> None:
    """Each file's effective date in the manifest is the date ingest gives its edition
    (2024-08-02.txt is effective 2024-07-30; 2006-06-01.txt is the text of June 2004)."""
    data = archive.read_files()
    got = {}
    for entry in archive.manifest().files:
        path = Path(entry.name)
        doc = parse_document(path, prepare(data[entry.name], entry.name))
        date_from_name(doc, path)
        got[entry.name] = {e.date for e in doc.editions}
    want = {f.name: {f.effective} for f in archive.manifest().files}
    assert got == want
    by_name = archive.manifest().by_name()
    assert str(by_name["2024-08-02.txt"].effective) == "2024-07-30"
    assert str(by_name["2006-06-01.txt"].effective) == "2004-06-01"
    assert [f.name for f in archive.manifest().effective_on("2021-02-15")] == ["2021-02-24.txt"]


@needs_archive
def test_rebuilt_from_the_archive_folder_it_is_the_same_tar() -> None:
    files = {p.name: p.read_bytes() for p in sorted(ARCHIVE_TXT.glob("*.txt"))}
    assert archive.pack_tar(files) == archive.read_packed()
    r = subprocess.run(
        [sys.executable, str(SCRIPT), "--check", "--from", str(ARCHIVE_TXT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "packed tar identical" in r.stdout


@needs_archive
def test_check_finds_a_folder_that_differs(tmp_path: Path) -> None:
    for p in sorted(ARCHIVE_TXT.glob("*.txt"))[1:]:  # one file short
        shutil.copy(p, tmp_path / p.name)
    r = subprocess.run(
        [sys.executable, str(SCRIPT), "--check", "--from", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 1 and "DIFFERENT" in r.stdout


@pytest.mark.slow
def test_the_xz_bytes_are_reproducible_with_this_liblzma() -> None:
    """xz -9e over the same tar gives the packed file's bytes (20 s of compression)."""
    assert archive.compress(archive.read_packed()) == archive.packed_path().read_bytes()


@pytest.mark.parametrize(
    "damage",
    ["manifest-sha256", "truncated-xz"],
)
def test_a_damaged_archive_is_refused(tmp_path: Path, monkeypatch, damage: str) -> None:
    folder = archive.data_folder()
    shutil.copy(folder / archive.PACKED, tmp_path / archive.PACKED)
    manifest = (folder / archive.MANIFEST).read_text(encoding="utf-8")
    if damage == "manifest-sha256":
        first = archive.manifest().files[0].sha256
        manifest = manifest.replace(first, "0" * 64)
    else:
        data = (tmp_path / archive.PACKED).read_bytes()
        (tmp_path / archive.PACKED).write_bytes(data[: len(data) // 2])
    (tmp_path / archive.MANIFEST).write_text(manifest, encoding="utf-8")
    monkeypatch.setattr(archive, "data_folder", lambda: tmp_path)
    archive.manifest.cache_clear()
    try:
        with pytest.raises(StoreError, match="reinstall mtgrules"):
            archive.read_files(["2003-03-15.txt"])
    finally:
        archive.manifest.cache_clear()


def test_a_translation_gets_its_english_from_the_archive(empty_db) -> None:
    """A store with the Chinese of 2023-11-17 and no English: ingest takes en-2023-11-17
    from the packed archive, in the same revision, says so, and aligns the two."""
    r = run_cli("ingest", "--json", str(EXTRA / "cr-zh-2023-11-17.txt"), db=empty_db)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    Draft202012Validator(
        load_schema("ingest"), format_checker=Draft202012Validator.FORMAT_CHECKER
    ).validate(out)
    assert out["from_archive"] == [
        {"file": "2023-11-17.txt", "date": "2023-11-17", "for": ["zh-Hans-2023-11-17"]}
    ]
    taken = [
        f for f in out["files"] if f["path"].endswith("2023-11-17.txt") and "cr-zh" not in f["path"]
    ]
    assert len(taken) == 1 and "packed English archive" in taken[0]["note"]
    assert taken[0]["sha256"] == archive.manifest().by_name()["2023-11-17.txt"].sha256
    assert out["revision"] == 1 and out["editions_added"] == 2
    assert [(p["a"], p["b"], p["why"]) for p in out["alignments"]["aligned"]] == [
        ("en-2023-11-17", "zh-Hans-2023-11-17", "same-date")
    ]
    history = json.loads(run_cli("history", "--json", db=empty_db).stdout)
    assert len(history) == 1 and len(history[0]["files"]) == 2
    # Ingested again: nothing new, nothing taken.
    again = json.loads(
        run_cli("ingest", "--json", str(EXTRA / "cr-zh-2023-11-17.txt"), db=empty_db).stdout
    )
    assert again["revision"] is None and "from_archive" not in again
    editions = json.loads(run_cli("editions", "--json", db=empty_db).stdout)
    assert sorted(e["slug"] for e in editions) == ["en-2023-11-17", "zh-Hans-2023-11-17"]
    assert (
        next(e for e in editions if e["language"] == "en")["source"] == "cr-archive/2023-11-17.txt"
    )


@pytest.mark.slow
def test_ingest_archive_gives_the_whole_history(empty_db) -> None:
    r = run_cli("ingest", "--archive", "--json", db=empty_db, timeout=900)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["editions_added"] == 110 and len(out["files"]) == 110
    assert len(out["alignments"]["aligned"]) == 109  # each edition with the one before it
    editions = json.loads(run_cli("editions", "--json", db=empty_db).stdout)
    dates = [e["date"] for e in editions]
    assert dates == sorted(str(f.effective) for f in archive.manifest().files)
    again = json.loads(run_cli("ingest", "--archive", "--json", db=empty_db).stdout)
    assert again["revision"] is None and again["alignments"]["aligned"] == []
