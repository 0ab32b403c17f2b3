"""Where the machine's shared data is (cr-archive/, translations/): $MTGRULES_SHARED, else
../shared beside the checkout or beside one of its parents (a worktree sits a level deeper)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _shared() -> Path:
    for base in ROOT.parents:
        if (base / "shared" / "translations").is_dir():
            return base / "shared"
    return ROOT.parent / "shared"


SHARED = Path(os.environ.get("MTGRULES_SHARED") or _shared())
TRANSLATIONS = SHARED / "translations"
