"""The characters XML 1.0 forbids, replaced so that every XML file we write is well-formed.

XML 1.0 (section 2.2, production [2] Char) allows only tab, newline, carriage return,
U+0020-U+D7FF, U+E000-U+FFFD and U+10000-U+10FFFF, even escaped as character references.
A rule text may hold others: C0 controls from a damaged file, U+FFFE/U+FFFF from a wrong
byte order, a lone surrogate. ElementTree writes them as they are, and every XML parser
(xmllint: "PCDATA invalid Char value 1") then refuses the whole file, so a translator's
CAT tool would reject the job. Each one is replaced by U+FFFD, the mark of a character
that could not be kept, and counted so that the writer can say so.
"""

from __future__ import annotations

import re
from collections import Counter

REPLACEMENT = "\ufffd"

_FORBIDDEN = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def forbidden_in_xml(text: str) -> list[str]:
    """The characters of ``text`` that XML 1.0 forbids, in order."""
    return _FORBIDDEN.findall(text)


def code_point(ch: str) -> str:
    return f"U+{ord(ch):04X}"


class XmlCleaner:
    """Replaces forbidden characters in the texts of one XML document and remembers which
    (``replaced``: a count per character), for the document's notes and the user's."""

    def __init__(self) -> None:
        self.replaced: Counter[str] = Counter()

    def clean(self, text: str | None) -> str | None:
        if text is None:
            return None
        bad = _FORBIDDEN.findall(text)
        if not bad:
            return text
        self.replaced.update(bad)
        return _FORBIDDEN.sub(REPLACEMENT, text)

    @property
    def total(self) -> int:
        return sum(self.replaced.values())

    def summary(self) -> str:
        """'3 characters that XML 1.0 forbids (U+0001 x2, U+FFFF) were replaced by U+FFFD',
        or '' when there were none."""
        if not self.replaced:
            return ""
        shown = ", ".join(
            code_point(ch) + (f" x{n}" if n > 1 else "") for ch, n in sorted(self.replaced.items())
        )
        n = self.total
        return (
            f"{n} character{'s' if n != 1 else ''} that XML 1.0 forbids ({shown}) "
            f"{'were' if n != 1 else 'was'} replaced by U+FFFD"
        )
