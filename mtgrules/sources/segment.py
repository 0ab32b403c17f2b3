"""Step 5 of intake: decoded text to the lines the parser reads, one paragraph a line.

A web or wiki page is read for its markup (``markup.py``: which dialect, then its lines
without tags, entities or link syntax); each parse line remembers the line of the page it
came from, and the page itself is kept verbatim. Plain text is its own lines, untouched.
A new markup dialect slots in here, through ``markup.py``.
"""

from __future__ import annotations

from ..errors import NotRulesError
from .formats import TEXT, Extracted, check_text_size
from .markup import markup_lines, sniff_markup


def segment(text: str, encoding: str, where: str) -> Extracted:
    """The parse lines of a decoded text file (plain text, HTML, Markdown or wiki source)."""
    if not text.strip():
        raise NotRulesError(
            f"{where}: the file holds only whitespace; give a file with rules text."
        )
    dialect = sniff_markup(text)
    if dialect == TEXT:
        return Extracted(format=TEXT, text=text, encoding=encoding)
    pairs = markup_lines(text, dialect)
    out = "\n".join(t for _, t in pairs) + "\n"
    check_text_size(len(out), where)
    return Extracted(
        format=dialect,
        text=out,
        encoding=encoding,
        source=text,
        source_lines=[n for n, _ in pairs],
    )
