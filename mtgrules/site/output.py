"""The output folder of a site: refused when it is someone else's, written only where a page
changed, never through a symlink, and described by a manifest of content hashes.

The manifest (MANIFEST, at the folder's root) names the generator and the sha256 of every
file the site wrote. A rebuild compares each new page with it and rewrites only the pages
whose bytes differ (or that were deleted by hand); files of an older build that the new one
no longer has are removed, and nothing else in the folder is ever touched.

A build marks itself unfinished before it writes anything: the manifest is rewritten with
``"state": "building"`` (keeping the previous build's files, so that their clean-up is not
forgotten). Only the last step, once every page is in place and the leftovers are gone,
writes ``"state": "complete"``. A build killed at any moment therefore leaves a folder that
says it is unfinished, which the next build accepts as its own and finishes: it compares
each page with the bytes on disk (the hashes of an interrupted build cannot be trusted).

A site folder may come from someone else, with symlinks planted in it (``rules`` -> ``~``).
The build never writes, reads as its own or deletes through a symlink inside the folder: a
symlink where a page or a folder of the site goes is removed (the link, not its target) and
replaced by the real page or folder. Temporary files are created exclusively (O_EXCL), so a
planted ``index.html.tmp`` link is never followed either.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..errors import InputError

MANIFEST = "mtgrules-site.json"
GENERATOR = "mtgrules site"
BUILDING, COMPLETE = "building", "complete"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class WriteCounts:
    """What a build did to the folder: the pages written (and their bytes), those unchanged, the
    previous build's files removed, and whether it finished an interrupted build."""

    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    bytes_written: int = 0
    resumed: bool = False


@dataclass
class Previous:
    """What the folder's manifest says of the last build."""

    files: dict[str, str]
    state: str  # complete | building
    meta: dict[str, object]


class SiteFolder:
    """Where the pages go. ``open`` checks the folder and marks the build unfinished;
    ``put`` writes a page if it changed; ``close`` removes the previous build's leftovers
    and writes the manifest of a complete build."""

    def __init__(self, root: Path, previous: Previous):
        self.root = root
        self.previous = previous
        self.files: dict[str, str] = {}
        self.counts = WriteCounts(resumed=previous.state == BUILDING)

    @classmethod
    def inspect(cls, root: Path, *, force: bool = False) -> Previous:
        """What the folder holds, without changing it: the previous build, or InputError
        when the folder is not a site's (unless ``force``)."""
        if root.exists() and not root.is_dir():
            raise InputError(f"{root} is a file, not a folder; give a folder for the site: -o DIR")
        if root.is_dir():
            manifest = root / MANIFEST
            if _is_link(manifest):
                if not force:
                    raise InputError(
                        f"{manifest} is a symbolic link, not a manifest written by mtgrules; "
                        "remove it, or add --force"
                    )
            elif manifest.is_file():
                return _read_manifest(manifest, force)
            elif any(root.iterdir()) and not force:
                raise InputError(
                    f"{root} exists and is not a site made by mtgrules (no {MANIFEST}); "
                    "choose an empty or new folder, or add --force to write into it anyway"
                )
        return Previous({}, COMPLETE, {})

    @classmethod
    def open(cls, root: Path, *, force: bool = False) -> SiteFolder:
        previous = cls.inspect(root, force=force)
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(
                f"cannot create {root}: {exc.strerror}; choose another folder with -o"
            ) from exc
        folder = cls(root, previous)
        # Unfinished from here on, until close(): a killed build is resumed, not refused.
        folder._write_manifest(BUILDING, previous.files, previous.meta)
        return folder

    def unchanged_on_disk(self) -> bool:
        """True when the previous build was complete and every file it wrote is still in
        place as a regular file (not deleted by hand, not replaced by a link)."""
        if self.previous.state != COMPLETE or not self.previous.files:
            return False
        return all(self._regular(path) for path in self.previous.files)

    def _regular(self, path: str) -> bool:
        target = self._target(path, create=False)
        if target is None:
            return False
        try:
            return stat.S_ISREG(os.lstat(target).st_mode)
        except OSError:
            return False

    def _target(self, path: str, *, create: bool) -> Path | None:
        """The real path of a site file, every folder on the way a real folder inside the
        site (a symlink there is replaced by a folder when ``create``; else None)."""
        rel = PurePosixPath(path)
        if rel.is_absolute() or ".." in rel.parts or not rel.parts:
            raise ValueError(f"page path outside the site: {path}")
        here = self.root
        for part in rel.parts[:-1]:
            here = here / part
            if _is_link(here):
                if not create:
                    return None
                here.unlink()  # the link itself, never what it points to
            elif here.exists() and not here.is_dir():
                if not create:
                    return None
                raise InputError(
                    f"{here} is a file where the site needs a folder; move it away, or "
                    "choose another folder with -o"
                )
            if create and not here.exists():
                here.mkdir()
        return here / rel.parts[-1]

    def put(self, path: str, data: str | bytes) -> bool:
        """Write one file (a path relative to the site's root, with /) unless the same bytes
        are already there; True when it was written."""
        raw = data.encode("utf-8") if isinstance(data, str) else data
        h = digest(raw)
        self.files[path] = h
        if self._same(path, h):
            self.counts.unchanged += 1
            return False
        try:
            target = self._target(path, create=True)
            assert target is not None
            _write_aside(target, raw)
        except OSError as exc:
            raise InputError(
                f"cannot write {self.root / path}: {exc.strerror}; choose another folder with -o"
            ) from exc
        self.counts.written.append(path)
        self.counts.bytes_written += len(raw)
        return True

    def _same(self, path: str, h: str) -> bool:
        if not self._regular(path):
            return False
        if self.previous.state == COMPLETE:
            return self.previous.files.get(path) == h
        # An interrupted build: the manifest's hashes are those of the build before it,
        # and the page on disk may already be the new one.
        target = self._target(path, create=False)
        assert target is not None
        try:
            return digest(target.read_bytes()) == h
        except OSError:
            return False

    def close(self, meta: dict[str, object]) -> WriteCounts:
        for path in sorted(set(self.previous.files) - set(self.files)):
            target = self._target(path, create=False)
            if target is not None and (target.is_symlink() or target.is_file()):
                target.unlink()
                self.counts.removed.append(path)
        self._write_manifest(COMPLETE, self.files, meta)
        return self.counts

    def _write_manifest(self, state: str, files: dict[str, str], meta: dict[str, object]) -> None:
        manifest = {
            "generator": GENERATOR,
            "state": state,
            **{k: v for k, v in meta.items() if k not in ("generator", "state", "files")},
            "files": dict(sorted(files.items())),
        }
        text = json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"
        target = self.root / MANIFEST
        try:
            _write_aside(target, text.encode("utf-8"))
        except OSError as exc:
            raise InputError(
                f"cannot write {target}: {exc.strerror}; choose another folder with -o"
            ) from exc


def _is_link(path: Path) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def _write_aside(target: Path, raw: bytes) -> None:
    """Write ``raw`` to a new temporary file beside ``target`` (created exclusively, so no
    planted link is followed), then rename it into place: a reader, or an interrupted
    build, never sees half a page, and a symlink at ``target`` is replaced, not followed."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _read_manifest(path: Path, force: bool) -> Previous:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("generator") != GENERATOR or not isinstance(data.get("files"), dict):
            raise ValueError("not an mtgrules manifest")
        files = {str(k): str(v) for k, v in data["files"].items()}
    except (OSError, ValueError) as exc:
        if force:
            return Previous({}, COMPLETE, {})
        raise InputError(
            f"{path} is not a manifest written by mtgrules ({exc}); remove it, or add --force"
        ) from exc
    # Only plain relative paths inside the folder: a doctored manifest must not make the
    # clean-up step delete files elsewhere.
    files = {
        k: v
        for k, v in files.items()
        if k and not PurePosixPath(k).is_absolute() and ".." not in PurePosixPath(k).parts
    }
    # A manifest of an older mtgrules has no state: its build was complete.
    state = BUILDING if data.get("state") == BUILDING else COMPLETE
    meta = {k: v for k, v in data.items() if k not in ("generator", "state", "files")}
    return Previous(files, state, meta)
