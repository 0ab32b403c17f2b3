"""The words every step of intake shares: format names, size limits, and the text a step
hands on. It imports no other module of ``sources``: every step stands on it.

Intake is a pipeline (``pipeline.py`` runs it), one module per step, each importing only
the steps and helpers below it:

1. ``read``: the file's bytes, bounded (``read.py``);
2. ``detect``: which container the bytes are, from their magic bytes (``detect.py``):
   PDF, DOCX, Word .doc, RTF, or text; files that hold no rules are refused here;
3. ``extract``: a container's text (``extract.py``, with ``pdf.py``, ``office.py`` and
   ``rtf.py``); each carries its own character encoding (a PDF's text layer, Word's XML,
   RTF's code page);
4. ``decode``: a text file's bytes to characters (``decode.py``): byte-order mark, a
   page's declared charset, then a fixed list of candidate encodings;
5. ``segment``: decoded text to the lines the parser reads (``segment.py``): the markup
   of a web or wiki page is read (``markup.py``) and each line remembers the line of the
   page it came from; plain text is its own lines;
6. ``parse``: lines to editions and clauses (``parse.py``, with the layouts in
   ``official.py`` and ``scraped.py``, and ``clauses.py``, ``dates.py``, ``damage.py``).

How the raw text is kept (the store keeps every clause's raw text verbatim):

- plain text: the decoded file is the parse text, unchanged; nothing else is needed.
- PDF, DOCX, DOC, RTF: the file holds no text lines to keep; the extracted paragraph *is* the
  clause's raw text (a PDF's wrapped lines joined, its page headers removed), and the file
  itself stays identified by its bytes' sha256.
- markup: the parser reads the markup-free lines, so that labels, text and language are seen
  as a reader sees them. ``Extracted.source`` keeps the decoded page verbatim and
  ``Extracted.source_lines[i]`` gives, for parse line ``i + 1`` (a ``Clause.line``), the line of
  the page it came from; ``Extracted.raw_line(n)`` returns that original line, markup and
  all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InputError

TEXT = "text"
PDF = "pdf"
DOCX = "docx"
DOC = "doc"
RTF = "rtf"
HTML = "html"
MARKDOWN = "markdown"
DOKUWIKI = "dokuwiki"
MEDIAWIKI = "mediawiki"
MARKUP_FORMATS = (HTML, MARKDOWN, DOKUWIKI, MEDIAWIKI)
# Containers whose text an extractor takes out (step 3); every other file is text (step 4).
CONTAINERS = (PDF, DOCX, DOC, RTF)

# A file larger than this is refused before it is read: the biggest real edition is 1.7 MB
# (UTF-16), and reading, parsing and indexing a file needs several times its size in memory.
MAX_BYTES = 50 * 1024 * 1024
# Extracted text is capped like a source file: a small PDF or DOCX may expand to far more text
# than its size (compressed streams), and parsing needs several times the text in memory.
MAX_TEXT_CHARS = MAX_BYTES


def check_text_size(length: int, where: str) -> None:
    if length > MAX_TEXT_CHARS:
        raise InputError(
            f"{where}: its text runs past {MAX_TEXT_CHARS // 2**20} Mi characters, far more than "
            "any edition of the rules; split it into editions."
        )


@dataclass
class Extracted:
    """Plain rules text taken out of a file, one paragraph a line, ready for the parser."""

    format: str
    text: str
    # How the bytes became text: "utf-8", "cp1252", "mac_roman" (RTF), "pdf text layer"...
    encoding: str
    # Markup only: the decoded page verbatim, and for each parse line (index 0 = line 1) the
    # 1-based line of ``source`` it came from. None where parse lines are the source lines.
    source: str | None = None
    source_lines: list[int] | None = None
    # What extraction did that a user may want to know ("4 repeated page headers removed").
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return self.text.splitlines()

    def source_line(self, line: int) -> int:
        """The source line that parse line ``line`` (1-based, as in ``Clause.line``) came from."""
        if self.source_lines is None:
            return line
        return self.source_lines[line - 1]

    def raw_line(self, line: int) -> str:
        """The original line (markup and all) behind parse line ``line`` (1-based)."""
        if self.source is None:
            return self.lines()[line - 1]
        return self.source.splitlines()[self.source_line(line) - 1]
