"""The output folder of a site: refused when it is someone else's, written only where a page
changed, and described by a manifest of content hashes.

The manifest (MANIFEST, at the folder's root) names the generator and the sha256 of every
file the site wrote. A rebuild compares each new page with it and rewrites only the pages
whose bytes differ (or that were deleted by hand); files of an older build that the new one
no longer has are removed, and nothing else in the folder is ever touched.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..errors import InputError

MANIFEST = "mtgrules-site.json"
GENERATOR = "mtgrules site"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class WriteCounts:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    bytes_written: int = 0


class SiteFolder:
    """Where the pages go. ``open`` checks the folder; ``put`` writes a page if it changed;
    ``close`` removes the previous build's leftovers and writes the manifest."""

    def __init__(self, root: Path, previous: dict[str, str]):
        self.root = root
        self.previous = previous
        self.files: dict[str, str] = {}
        self.counts = WriteCounts()

    @classmethod
    def open(cls, root: Path, *, force: bool = False) -> SiteFolder:
        if root.exists() and not root.is_dir():
            raise InputError(f"{root} is a file, not a folder; give a folder for the site: -o DIR")
        previous: dict[str, str] = {}
        if root.is_dir():
            manifest = root / MANIFEST
            if manifest.is_file():
                previous = _read_manifest(manifest, force)
            elif any(root.iterdir()) and not force:
                raise InputError(
                    f"{root} exists and is not a site made by mtgrules (no {MANIFEST}); "
                    "choose an empty or new folder, or add --force to write into it anyway"
                )
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(
                f"cannot create {root}: {exc.strerror}; choose another folder with -o"
            ) from exc
        return cls(root, previous)

    def put(self, path: str, data: str | bytes) -> bool:
        """Write one file (a path relative to the site's root, with /) unless the same bytes
        are already there; True when it was written."""
        raw = data.encode("utf-8") if isinstance(data, str) else data
        rel = PurePosixPath(path)
        if rel.is_absolute() or ".." in rel.parts:
            raise ValueError(f"page path outside the site: {path}")
        h = digest(raw)
        self.files[path] = h
        target = self.root.joinpath(*rel.parts)
        if self.previous.get(path) == h and target.is_file():
            self.counts.unchanged += 1
            return False
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            # Written aside, then renamed: a reader (or an interrupted build) never sees half
            # a page.
            tmp = target.with_name(target.name + ".tmp")
            tmp.write_bytes(raw)
            os.replace(tmp, target)
        except OSError as exc:
            raise InputError(
                f"cannot write {target}: {exc.strerror}; choose another folder with -o"
            ) from exc
        self.counts.written.append(path)
        self.counts.bytes_written += len(raw)
        return True

    def close(self, meta: dict[str, object]) -> WriteCounts:
        for path in sorted(set(self.previous) - set(self.files)):
            target = self.root.joinpath(*PurePosixPath(path).parts)
            if target.is_file():
                target.unlink()
                self.counts.removed.append(path)
        manifest = {"generator": GENERATOR, **meta, "files": dict(sorted(self.files.items()))}
        text = json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"
        tmp = self.root / (MANIFEST + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, self.root / MANIFEST)
        return self.counts


def _read_manifest(path: Path, force: bool) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("generator") != GENERATOR or not isinstance(data.get("files"), dict):
            raise ValueError("not an mtgrules manifest")
        files = {str(k): str(v) for k, v in data["files"].items()}
    except (OSError, ValueError) as exc:
        if force:
            return {}
        raise InputError(
            f"{path} is not a manifest written by mtgrules ({exc}); remove it, or add --force"
        ) from exc
    # Only plain relative paths inside the folder: a doctored manifest must not make the
    # clean-up step delete files elsewhere.
    return {
        k: v
        for k, v in files.items()
        if not PurePosixPath(k).is_absolute() and ".." not in PurePosixPath(k).parts
    }
