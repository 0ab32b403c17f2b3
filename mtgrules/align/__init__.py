"""The aligner: which clause of one edition is the same rule as which clause of another.

Public API (other modules build on these names):
    align_rule(session, rule, *, as_of=None) -> RuleAlignment
    align_editions(session, a, b) -> EditionAlignment
"""

from .edition import align_editions
from .model import EditionAlignment, Group, Member, Pair, RuleAlignment
from .rule import align_rule

__all__ = [
    "EditionAlignment",
    "Group",
    "Member",
    "Pair",
    "RuleAlignment",
    "align_editions",
    "align_rule",
]
