"""The English Comprehensive Rules 2003-2026, shipped inside the package.

A translation is read against the English it was made from (align/reference.py), and a
translator rarely has that English at hand: the store may hold only today's. So the whole
English history travels with mtgrules, the 110 plain-text editions of 2003-2026 as the
publisher put them on its rules page (archived by xremming/rulesraker, snapshot 2026-02-05):

- ``data/cr-archive.tar.xz``: one solid xz tar of the files, raw bytes, never edited
  (74 MB of text in 0.7 MB: consecutive editions share nearly all their lines);
- ``data/cr-archive.tsv``: its manifest, one row per file: sha256, size, the effective date
  the text prints (as mtgrules reads it), name; and the sha256 of the tar stream itself.

Both are made by ``scripts/pack_archive.py`` from a folder of the files, reproducibly (sorted
members, fixed mtime, owner and mode: the same files give the same tar, byte for byte), and
checked by tests/test_archive.py. Reading a file checks its sha256 against the manifest.

The repository keeps the files only in this packed form; their home is the public archive
(and, on the maintainers' machine, ../shared/cr-archive/txt, which the script reads).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import lzma
import tarfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .errors import StoreError
from .shipped import DATA

PACKED = "cr-archive.tar.xz"
MANIFEST = "cr-archive.tsv"
# Every member of the tar carries these, so that the same files give the same bytes: the
# snapshot date of the archive, root, read-only for all.
MEMBER_MTIME = int(dt.datetime(2026, 2, 5, tzinfo=dt.UTC).timestamp())
MEMBER_MODE = 0o444
XZ_PRESET = 9 | lzma.PRESET_EXTREME  # xz -9e
ORIGIN = (
    "official English full text, from the English archive packed inside mtgrules "
    "(xremming/rulesraker archive/, snapshot 2026-02-05)"
)


@dataclass(frozen=True)
class ArchiveFile:
    """One file of the packed archive, as its manifest describes it."""

    name: str  # "2024-08-02.txt": the publication date, which the text may not print
    sha256: str
    size: int
    effective: dt.date | None  # the date the text prints ("effective as of July 30, 2024")

    @property
    def document_name(self) -> str:
        """The name its document gets in the store ("cr-archive/2024-08-02.txt")."""
        return f"cr-archive/{self.name}"

    @property
    def path(self) -> Path:
        """Where it is read from, for messages and the store: inside the packed file."""
        return packed_path() / self.name


def data_folder() -> Path:
    return DATA


def packed_path() -> Path:
    return data_folder() / PACKED


@dataclass(frozen=True)
class Manifest:
    """The packed archive's manifest (cr-archive.tsv): its files and the tar stream's sha256."""

    files: tuple[ArchiveFile, ...]
    tar_sha256: str

    def by_name(self) -> dict[str, ArchiveFile]:
        return {f.name: f for f in self.files}

    def by_sha256(self) -> dict[str, ArchiveFile]:
        return {f.sha256: f for f in self.files}

    def effective_on(self, date: dt.date | str) -> list[ArchiveFile]:
        """The files whose text is effective on ``date`` (usually one)."""
        day = dt.date.fromisoformat(date) if isinstance(date, str) else date
        return [f for f in self.files if f.effective == day]


def parse_manifest(text: str) -> Manifest:
    files: list[ArchiveFile] = []
    tar_sha256 = ""
    header_seen = False
    for line in text.splitlines():
        if line.startswith("# tar-sha256:"):
            tar_sha256 = line.split(":", 1)[1].strip()
            continue
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if not header_seen:
            header_seen = cells == ["sha256", "bytes", "effective", "name"]
            if not header_seen:
                raise StoreError(f"{MANIFEST}: unexpected header {cells}; reinstall mtgrules.")
            continue
        sha256, size, effective, name = cells
        files.append(
            ArchiveFile(
                name, sha256, int(size), dt.date.fromisoformat(effective) if effective else None
            )
        )
    return Manifest(tuple(files), tar_sha256)


def format_manifest(manifest: Manifest, comment: Iterable[str] = ()) -> str:
    lines = [f"# {c}" if c else "#" for c in comment]
    lines.append(f"# tar-sha256: {manifest.tar_sha256}")
    lines.append("sha256\tbytes\teffective\tname")
    for f in manifest.files:
        lines.append(
            f"{f.sha256}\t{f.size}\t{f.effective.isoformat() if f.effective else ''}\t{f.name}"
        )
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=1)
def manifest() -> Manifest:
    try:
        text = (data_folder() / MANIFEST).read_text(encoding="utf-8")
    except OSError as exc:
        raise StoreError(
            f"the packed English archive's manifest is missing ({exc.strerror}); reinstall mtgrules"
        ) from None
    return parse_manifest(text)


def pack_tar(files: Mapping[str, bytes]) -> bytes:
    """The tar stream of ``files`` (name -> bytes), the same bytes for the same files:
    members sorted by name, each with the fixed mtime, owner and mode above, no user or group
    names, the POSIX ustar format (no PAX headers that could carry a build's own time)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name in sorted(files):
            data = files[name]
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = MEMBER_MTIME
            info.mode = MEMBER_MODE
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def compress(tar_bytes: bytes) -> bytes:
    """xz -9e, one solid stream (the whole tar), CRC64 as xz writes by default."""
    return lzma.compress(tar_bytes, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=XZ_PRESET)


def read_packed(path: Path | None = None) -> bytes:
    """The tar stream inside the packed file."""
    path = path or packed_path()
    try:
        return lzma.decompress(path.read_bytes())
    except OSError as exc:
        raise StoreError(
            f"the packed English archive cannot be read ({exc.strerror or exc}); reinstall mtgrules"
        ) from None
    except lzma.LZMAError as exc:
        raise StoreError(
            f"the packed English archive is damaged ({exc}); reinstall mtgrules"
        ) from None


def members(tar_bytes: bytes) -> Iterator[tuple[str, memoryview]]:
    """(name, bytes) of each regular file of a ustar stream, without copying: the headers are
    read in place (pack_tar writes nothing else: no PAX or GNU long-name records)."""
    view = memoryview(tar_bytes)
    at = 0
    while at + BLOCK <= len(tar_bytes):
        header = tar_bytes[at : at + BLOCK]
        if header == ZERO_BLOCK:
            return
        info = tarfile.TarInfo.frombuf(header, "utf-8", "surrogateescape")
        start = at + BLOCK
        if info.isfile():
            yield info.name, view[start : start + info.size]
        at = start + -(-info.size // BLOCK) * BLOCK


BLOCK = tarfile.BLOCKSIZE
ZERO_BLOCK = bytes(BLOCK)


def read_files(names: Iterable[str] | None = None) -> dict[str, bytes]:
    """The raw bytes of the named files (all of them by default), each checked against the
    manifest's sha256. The archive is one solid stream: reading any file decompresses it all
    (0.3 s), so ask for every file needed at once."""
    wanted = manifest().by_name()
    if names is not None:
        names = set(names)
        unknown = names - set(wanted)
        if unknown:
            raise StoreError(f"no file {sorted(unknown)[0]} in the packed English archive")
        wanted = {n: f for n, f in wanted.items() if n in names}
    out: dict[str, bytes] = {}
    try:
        found = list(members(read_packed()))
    except tarfile.TarError as exc:
        raise StoreError(
            f"the packed English archive is damaged ({exc}); reinstall mtgrules"
        ) from None
    for name, view in found:
        entry = wanted.get(name)
        if entry is None:
            continue
        data = bytes(view)
        if hashlib.sha256(data).hexdigest() != entry.sha256:
            raise StoreError(
                f"{name} in the packed English archive does not match its manifest; "
                "reinstall mtgrules"
            )
        out[name] = data
    missing = set(wanted) - set(out)
    if missing:
        raise StoreError(
            f"{sorted(missing)[0]} is in the manifest but not in the packed English archive; "
            "reinstall mtgrules"
        )
    return out
