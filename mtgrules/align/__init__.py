"""The aligner: which clause of one edition is the same rule as which clause of another.

Public API (other modules build on these names):
    align_rule(session, rule, *, as_of=None) -> RuleAlignment
    align_editions(session, a, b) -> EditionAlignment

Loaded on first use (PEP 562): search reads stored links through ``align.links`` and must not
pay for importing the aligner itself (store/sql.py says why start-up matters).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import EditionAlignment, Group, Member, Pair, RuleAlignment
    from .storage import align_editions, align_rule

_HOME = {
    "align_editions": ".storage",
    "align_rule": ".storage",
    "EditionAlignment": ".model",
    "Group": ".model",
    "Member": ".model",
    "Pair": ".model",
    "RuleAlignment": ".model",
}

__all__ = [
    "EditionAlignment",
    "Group",
    "Member",
    "Pair",
    "RuleAlignment",
    "align_editions",
    "align_rule",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home, __name__), name)
    globals()[name] = value
    return value
