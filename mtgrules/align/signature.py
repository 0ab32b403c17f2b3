"""Who made a stored alignment: the aligner's version, a digest of its code, its settings.

Links stored under another signature are stale. Apart from storage.py (which writes and
reads the aligner's rows) so that a reader checking a stored alignment (stored.py) need not
import the storage layer's SQLAlchemy models.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources

from .sequence import Settings

ALIGNER_VERSION = "3.1"


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """The aligner's own source, the text ground floor it folds and labels with, and the
    termbase: any change makes stored links stale, without anyone having to remember to bump
    a version number."""
    h = hashlib.sha256()
    for package_name in ("mtgrules.align", "mtgrules.text"):
        package = resources.files(package_name)
        for name in sorted(p.name for p in package.iterdir() if p.name.endswith(".py")):
            h.update(package.joinpath(name).read_bytes())
    for name in ("termbase.py", "data/termbase.tsv"):
        h.update(resources.files("mtgrules").joinpath(name).read_bytes())
    return h.hexdigest()[:16]


def signature(settings: Settings | None = None) -> str:
    """Who made a stored alignment: links made under another signature are stale."""
    s = settings or Settings()
    knobs = (
        f"{s.skip_same}/{s.skip_cross}/{s.label_confirm_same}/{s.label_confirm_cross}/"
        f"{s.move_same}/{s.move_cross}"
    )
    return f"mtgrules-align/{ALIGNER_VERSION};code={_code_digest()};{knobs}"
