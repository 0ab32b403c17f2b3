"""Pieces every layout of the rules shares (step 6, parse): "Example:" lines, glossary
entries and the references they make ("See rule 107.3", "See Attach")."""

from __future__ import annotations

import re

from ..model import Clause
from ..text.labels import RULE_REF
from .damage import find_damage

EXAMPLE = re.compile(r"^(?:Examples?|Exemples?|Ejemplos?)\s*:|^(?:例如|例)\s*[：:]")
SEE_ALSO = re.compile(r"(?:See(?: also)?|参见|另参见|Voir|Véase)\s*(?:rule\s*)?([^.。]+)[.。]")


def glossary_entry(term: str, body: str, line: int) -> Clause:
    see = [m.strip() for m in SEE_ALSO.findall(body)]
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
