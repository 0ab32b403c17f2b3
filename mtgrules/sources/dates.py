"""Effective dates written in the text of an edition."""

from __future__ import annotations

import datetime as dt
import re

_MONTHS = {
    m: i
    for i, m in enumerate(
        (
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ),
        start=1,
    )
}
_EN = re.compile(r"(?:current|effective) as of\s+([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})", re.I)
_ZH = re.compile(r"此规则于\s*(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日\s*起生效")
_FR = re.compile(
    r"(?:en vigueur|applicables?) (?:au|à partir du|le)\s+(\d{1,2})(?:er)?\s+(\w+)\s+(\d{4})", re.I
)
_FR_MONTHS = dict(
    zip(
        (
            "janvier",
            "février",
            "mars",
            "avril",
            "mai",
            "juin",
            "juillet",
            "août",
            "septembre",
            "octobre",
            "novembre",
            "décembre",
        ),
        range(1, 13),
        strict=True,
    )
)


def find_effective_date(text: str) -> dt.date | None:
    """The first in-text date of the form the editions print, or None."""
    candidates: list[tuple[int, dt.date]] = []
    for m in _EN.finditer(text):
        month = _MONTHS.get(m[1].lower())
        if month:
            candidates.append((m.start(), _safe_date(int(m[3]), month, int(m[2]))))
    for m in _ZH.finditer(text):
        candidates.append((m.start(), _safe_date(int(m[1]), int(m[2]), int(m[3]))))
    for m in _FR.finditer(text):
        month = _FR_MONTHS.get(m[2].lower())
        if month:
            candidates.append((m.start(), _safe_date(int(m[3]), month, int(m[1]))))
    found = [(pos, d) for pos, d in candidates if d is not None]
    return min(found)[1] if found else None


def _safe_date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None
