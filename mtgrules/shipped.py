"""The data files shipped inside the package (mtgrules/data/): the termbase, the players'
words, the archive. One home for where they are.

Read from the package's own folder rather than through importlib.resources: the wheel
installs mtgrules as plain files, and importlib.resources imports tempfile, shutil and
random (~4 ms), which `search` would pay at start-up for two small TSV files.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def shipped_path(name: str) -> Path:
    """The path of a shipped data file, ``name`` relative to mtgrules/data/."""
    return DATA / name


def shipped_bytes(name: str) -> bytes:
    return shipped_path(name).read_bytes()
