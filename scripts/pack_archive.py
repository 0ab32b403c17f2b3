"""Pack the English archive that ships inside mtgrules (mtgrules/archive.py says why).

Usage:
  python scripts/pack_archive.py [--from DIR]          write mtgrules/data/cr-archive.tar.xz
                                                        and its manifest cr-archive.tsv
  python scripts/pack_archive.py [--from DIR] --check  rebuild the tar from DIR and compare it
                                                        with the packed one (writes nothing)

DIR is the archive's folder of plain-text editions (default: $MTGRULES_ARCHIVE/txt, else
shared/cr-archive/txt beside the checkout or a parent of it): every *.txt file in it, raw bytes. The tar is
reproducible (mtgrules.archive.pack_tar: sorted members, fixed mtime, owner and mode, ustar),
so --check compares the rebuilt tar stream with the packed one byte for byte; the xz step
(xz -9e through Python's liblzma) is deterministic for one liblzma version, and --check
does not depend on it. The manifest's effective dates are what mtgrules' parser reads in
each file (the text's "effective as of" line, else the file name's date).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

from mtgrules import archive
from mtgrules.sources.pipeline import parse_document, prepare

ROOT = Path(__file__).resolve().parents[1]


def default_folder() -> Path:
    """$MTGRULES_ARCHIVE/txt, else the first shared/cr-archive/txt beside the checkout or one of
    its parents (a worktree may sit a level deeper than the checkout)."""
    if os.environ.get("MTGRULES_ARCHIVE"):
        return Path(os.environ["MTGRULES_ARCHIVE"]) / "txt"
    for base in ROOT.parents:
        if (base / "shared" / "cr-archive" / "txt").is_dir():
            return base / "shared" / "cr-archive" / "txt"
    return ROOT.parent / "shared" / "cr-archive" / "txt"


COMMENT = (
    "The English Comprehensive Rules 2003-2026 packed in cr-archive.tar.xz: the plain-text",
    "editions of github.com/xremming/rulesraker, folder archive/, snapshot 2026-02-05",
    "(commit 273588d93485dc3b4c63a2de9dc9b440117aad35), raw bytes.",
    "Made by scripts/pack_archive.py; checked by tests/test_archive.py. Do not edit by hand.",
    "effective: the date the text prints, as mtgrules reads it (else its file name's).",
)


def read_folder(folder: Path) -> dict[str, bytes]:
    files = {p.name: p.read_bytes() for p in sorted(folder.glob("*.txt")) if p.is_file()}
    if not files:
        sys.exit(f"pack_archive: no .txt files in {folder}")
    return files


def effective_date(name: str, data: bytes):
    """The edition's date as ingest gives it (mtgrules.ingest.date_from_name included)."""
    from mtgrules.ingest import date_from_name

    path = Path(name)
    doc = parse_document(path, prepare(data, name))
    date_from_name(doc, path)
    dates = {e.date for e in doc.editions if e.language == "en" and e.date}
    if len(dates) != 1:
        sys.exit(f"pack_archive: {name}: expected one dated English edition, found {dates}")
    return dates.pop()


def build_manifest(files: dict[str, bytes], tar_bytes: bytes) -> archive.Manifest:
    entries = tuple(
        archive.ArchiveFile(
            name, hashlib.sha256(data).hexdigest(), len(data), effective_date(name, data)
        )
        for name, data in sorted(files.items())
    )
    return archive.Manifest(entries, hashlib.sha256(tar_bytes).hexdigest())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from", dest="folder", type=Path, default=None)
    ap.add_argument("--check", action="store_true", help="compare, write nothing")
    args = ap.parse_args()
    args.folder = args.folder or default_folder()
    files = read_folder(args.folder)
    tar_bytes = archive.pack_tar(files)
    if args.check:
        packed = archive.read_packed()
        same = packed == tar_bytes
        listed = archive.manifest()
        print(
            f"{len(files)} files in {args.folder}; tar {len(tar_bytes)} bytes, "
            f"sha256 {hashlib.sha256(tar_bytes).hexdigest()[:16]}; packed tar "
            f"{'identical' if same else 'DIFFERENT'}; manifest tar-sha256 "
            f"{'agrees' if listed.tar_sha256 == hashlib.sha256(tar_bytes).hexdigest() else 'DIFFERS'}"
        )
        sys.exit(0 if same else 1)
    t0 = time.perf_counter()
    xz = archive.compress(tar_bytes)
    seconds = time.perf_counter() - t0
    manifest = build_manifest(files, tar_bytes)
    out = archive.data_folder()
    (out / archive.PACKED).write_bytes(xz)
    (out / archive.MANIFEST).write_text(
        archive.format_manifest(manifest, COMMENT), encoding="utf-8"
    )
    total = sum(len(d) for d in files.values())
    print(
        f"{len(files)} files, {total / 1e6:.1f} MB -> {out / archive.PACKED}: "
        f"{len(xz) / 1e6:.2f} MB (xz -9e in {seconds:.0f} s); manifest {out / archive.MANIFEST}"
    )


if __name__ == "__main__":
    main()
