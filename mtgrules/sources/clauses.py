"""Pieces every layout of the rules shares (step 6, parse): "Example:" lines, glossary
entries and the references they make ("See rule 107.3", "See Attach")."""

from __future__ import annotations

import re

from ..model import Clause
from ..text.labels import RULE_REF
from .damage import find_damage

EXAMPLE = re.compile(r"^(?:Examples?|Exemples?|Ejemplos?)\s*:|^(?:例如|例)\s*[：:]")
# Possessive spaces: giving some back to the target could never end it at a full stop.
SEE_ALSO = re.compile(r"(?:See(?: also)?|参见|另参见|Voir|Véase)\s*+(?:rule\s*+)?([^.。]+)[.。]")


def see_also(body: str) -> list[str]:
    """The targets of the body's "See ..." references. Searched only up to its last full
    stop: a target runs to the next one, so past the last one no search can end, and
    every "See" there would rescan the rest of the text (quadratic on a hostile page)."""
    end = max(body.rfind("."), body.rfind("。"))
    if end < 0:
        return []
    return [m.strip() for m in SEE_ALSO.findall(body, 0, end + 1)]


def glossary_entry(term: str, body: str, line: int) -> Clause:
    see = see_also(body)
    refs = sorted(set(RULE_REF.findall(body)))
    refs += [f"see:{s}" for s in see if not RULE_REF.fullmatch(s.split(",")[0].strip())]
    return Clause(
        "glossary",
        body,
        term=term.rstrip(".").strip(),
        refs=refs,
        flags=find_damage(body),
        line=line,
    )
