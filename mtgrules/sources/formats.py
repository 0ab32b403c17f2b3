"""Which kind of file a user brought, and its rules text as plain lines for the parser.

The format is read from the content (magic bytes, then markup), never from the file name:
users rename files, and a ``.txt`` saved from a browser may well be HTML.

Families and their modules:

- ``pdf``: the text layer, through pypdfium2 (``pdf.py``);
- ``docx`` and legacy Word ``doc`` (antiword), in ``office.py``;
- ``rtf`` through striprtf, with the file's code page (``rtf.py``);
- ``html``, ``markdown``, ``dokuwiki``, ``mediawiki`` and plain ``text`` (``markup.py``).

Every family yields the same thing: an :class:`Extracted`, whose ``text`` is what
``segment.parse_text`` reads, one paragraph a line.

How the raw text is kept (the store keeps every clause's raw text verbatim):

- plain text: the decoded file is the parse text, unchanged; nothing else is needed.
- PDF, DOCX, DOC, RTF: the file holds no text lines to keep; the extracted paragraph *is* the
  clause's raw text (a PDF's wrapped lines joined, its page headers removed), and the file
  itself stays identified by its bytes' sha256 as today.
- markup: the parser reads the markup-free lines, so that labels, text and language are seen
  as a reader sees them. ``Extracted.source`` keeps the decoded page verbatim and
  ``Extracted.source_lines[i]`` gives, for parse line ``i + 1`` (a ``Clause.line``), the line of
  the page it came from; ``Extracted.raw_line(n)`` returns that original line, markup and
  all. Ingest can then store the markup-free text as the clause's raw text (what diff and
  align compare) and point back to, or keep beside it, the original line.
"""

from __future__ import annotations

import stat
import zipfile
import zlib
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

from ..errors import InputError, NotRulesError
from .decode import MAX_BYTES

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

# Extracted text is capped like a source file: a small PDF or DOCX may expand to far more text
# than its size (compressed streams), and parsing needs several times the text in memory.
MAX_TEXT_CHARS = MAX_BYTES

_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# The name of the stream every Word 97-2003 file has, as it sits in the OLE2 directory.
_WORD_STREAM = "WordDocument".encode("utf-16-le")

# Files people pick up by mistake. Each gets a line saying what it is and what to give instead.
_NOT_RULES = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"BM", None),  # BMP: checked below, two bytes are too weak alone
    (b"\x1f\x8b", "a gzip archive"),
    (b"BZh", "a bzip2 archive"),
    (b"\xfd7zXZ\x00", "an xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"SQLite format 3\x00", "an SQLite database (a store?)"),
    (b"\x7fELF", "a program (ELF executable)"),
)
# A rules DOCX unpacks to about 5 MB (2026-01-16: 5.1 MB from 0.7 MB, 7:1). These limits are
# far above any real document and far below what would hurt the machine.
MAX_UNPACKED = 256 * 2**20
MAX_MEMBERS = 10_000
MAX_RATIO = 200  # unpacked size / packed size of one member, checked for members over 1 MiB
_RATIO_FLOOR = 2**20

_IMAGE_HINT = "rules in an image need OCR first; give the text, a PDF with a text layer or a DOCX"
_ARCHIVE_HINT = "unpack it and give the rules files inside"


@dataclass
class Extracted:
    """Plain rules text taken out of a file, ready for ``segment.parse_text``."""

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


def check_text_size(length: int, where: str) -> None:
    if length > MAX_TEXT_CHARS:
        raise InputError(
            f"{where}: its text runs past {MAX_TEXT_CHARS // 2**20} Mi characters, far more than "
            "any edition of the rules; split it into editions."
        )


def sniff_binary(data: bytes, where: str) -> str | None:
    """The binary format of ``data`` (pdf, docx, doc, rtf), None for text, or InputError."""
    head = data[:1024]
    # The PDF header may follow some junk (the spec allows it in the first 1024 bytes).
    if b"%PDF-" in head:
        return PDF
    if data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06"):
        return _sniff_zip(data, where)
    if data.startswith(_OLE2):
        if _WORD_STREAM in data:
            return DOC
        raise NotRulesError(
            f"{where}: an OLE2 (old Microsoft Office) file with no Word document in it, such as "
            "an Excel or PowerPoint file; give the rules as text, PDF, DOCX or Word .doc."
        )
    stripped = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped[:5] == b"{\\rtf":
        return RTF
    for magic, what in _NOT_RULES:
        if data.startswith(magic):
            if what is None:  # "BM" and a plausible header size: a bitmap image
                if len(data) > 26 and int.from_bytes(data[2:6], "little") == len(data):
                    what = "a BMP image"
                else:
                    continue
            hint = (
                _IMAGE_HINT
                if "image" in what
                else (_ARCHIVE_HINT if "archive" in what else "give a file of rules text")
            )
            raise NotRulesError(f"{where}: this is {what}, not rules text; {hint}.")
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        raise NotRulesError(f"{where}: this is a WebP image, not rules text; {_IMAGE_HINT}.")
    return None


def check_zip_sizes(data: bytes, where: str) -> None:
    """Refuse a zip whose central directory promises too much, before unpacking anything.

    Python's zipfile never returns more bytes for a member than the directory says (it stops
    and reports a CRC error), so these sizes really bound what reading can produce."""
    try:
        with zipfile.ZipFile(BytesIO(data)) as zf:
            infos = zf.infolist()
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        NotImplementedError,  # "zip file version 18.5": a damaged header
        OSError,
        EOFError,
        ValueError,
    ) as exc:
        raise InputError(f"{where}: a damaged Word document ({exc}); save it again.") from None
    if len(infos) > MAX_MEMBERS:
        raise InputError(
            f"{where}: the zip holds {len(infos):,} files; a Word document holds a few dozen. "
            "Refused without unpacking it."
        )
    total = sum(i.file_size for i in infos)
    if total > MAX_UNPACKED:
        raise InputError(
            f"{where}: its zip directory says it unpacks to {total / 1e6:,.0f} MB from "
            f"{len(data) / 1e6:,.1f} MB (a zip bomb?); a Word document of the rules unpacks to "
            "a few MB. Refused without unpacking it."
        )
    for info in infos:
        if info.file_size > _RATIO_FLOOR and info.file_size > MAX_RATIO * max(
            info.compress_size, 1
        ):
            raise InputError(
                f"{where}: {info.filename} would unpack {info.file_size / max(info.compress_size, 1):,.0f} "
                f"times larger ({info.file_size / 1e6:,.0f} MB; a zip bomb?); real documents "
                "compress about 10 to 1. Refused without unpacking it."
            )


def _sniff_zip(data: bytes, where: str) -> str:
    check_zip_sizes(data, where)  # before even the small [Content_Types].xml is unpacked
    try:
        with zipfile.ZipFile(BytesIO(data)) as zf:
            names = set(zf.namelist())
            content_types = (
                zf.read("[Content_Types].xml")
                if "[Content_Types].xml" in names
                and zf.getinfo("[Content_Types].xml").file_size < 1_000_000
                else b""
            )
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        zlib.error,
        OSError,
        EOFError,
        ValueError,
    ) as exc:
        raise InputError(
            f"{where}: a damaged zip file (a DOCX is a zip): {exc}; save the document again."
        ) from None
    except NotImplementedError:
        raise InputError(
            f"{where}: a zip file compressed with a method Python cannot read; save it again as DOCX."
        ) from None
    if (
        "word/document.xml" in names
        or b"wordprocessingml.document.main" in content_types
        or (b"wordprocessingml.template.main" in content_types)
    ):
        return DOCX
    if "content.xml" in names and "mimetype" in names:
        raise InputError(
            f"{where}: an OpenDocument file (LibreOffice); save it as DOCX or PDF and try again."
        )
    if b"spreadsheetml" in content_types or b"presentationml" in content_types:
        raise NotRulesError(
            f"{where}: an Excel or PowerPoint file, not a Word document; give the rules as text, "
            "PDF, DOCX or Word .doc."
        )
    raise NotRulesError(f"{where}: a zip archive that is not a Word document; {_ARCHIVE_HINT}.")


def detect_format(data: bytes, where: str = "input") -> str:
    """The format name of ``data``: pdf, docx, doc, rtf, html, markdown, dokuwiki, mediawiki or
    text. Raises InputError for files that hold no rules text (images, archives...)."""
    kind = sniff_binary(data, where)
    if kind is not None:
        return kind
    from .markup import decode_page, sniff_markup

    return sniff_markup(decode_page(data, where)[0])


# A long document with hardly any rule labels is something else (a novel, a manual, a
# report); the parser would otherwise read its short lines as a glossary. A rules edition
# has about 3,000 labelled rules in 9,000 paragraphs; a glossary alone has about 1,500
# paragraphs, so only documents longer than that are checked.
LONG_DOCUMENT = 3000
MIN_LABELS = 20


def check_rules_like(extracted: Extracted, where: str) -> None:
    """Refuse a long document in which almost no paragraph starts with a rule label."""
    from ..text.labels import split_labelled_line

    paragraphs = [ln.strip() for ln in extracted.text.splitlines() if ln.strip()]
    if len(paragraphs) < LONG_DOCUMENT:
        return
    labelled = sum(1 for p in paragraphs if split_labelled_line(p))
    if labelled < MIN_LABELS:
        raise NotRulesError(
            f"{where}: {len(paragraphs):,} paragraphs of {extracted.format.upper()} text with "
            f"{labelled} numbered rules (such as '107.3a') among them; this is not the "
            "Comprehensive Rules. Give the rules, or a glossary on its own."
        )


def extract_bytes(data: bytes, where: str) -> Extracted:
    """Turn a file's bytes into plain rules text, whatever its format. InputError on bad input."""
    if not data.strip():
        raise NotRulesError(f"{where}: the file is empty; give a file that holds rules text.")
    kind = sniff_binary(data, where)
    if kind is None:
        from .markup import extract_page

        return extract_page(data, where)
    if kind == PDF:
        from .pdf import extract_pdf as extract
    elif kind == DOCX:
        from .office import extract_docx as extract
    elif kind == DOC:
        from .office import extract_doc as extract
    else:
        from .rtf import extract_rtf as extract
    extracted = extract(data, where)
    check_rules_like(extracted, where)
    return extracted


def _read_bounded(path: Path) -> bytes:
    # The same refusals as decode.read_source, which also decodes and so refuses binary files.
    where = str(path)
    try:
        st = path.stat()
        if stat.S_ISDIR(st.st_mode):
            raise InputError(f"{where}: is a folder, not a file.")
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"{where}: not a regular file; give a file of rules text.")
        with path.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{where}: no such file.") from None
    except PermissionError:
        raise InputError(f"{where}: permission denied; check the file's permissions.") from None
    except OSError as exc:
        raise InputError(f"{where}: cannot be read ({exc.strerror}).") from None
    if len(data) > MAX_BYTES:
        raise InputError(
            f"{where}: over the {MAX_BYTES // 2**20} MiB limit for one source file; "
            "split it into editions."
        )
    return data


def read_any(path: Path) -> tuple[str, str]:
    """(plain rules text, format name) of the file at ``path``: the hook ingest can call.

    The text goes to ``segment.parse_text``; for markup, call ``extract_bytes`` instead to keep
    the line mapping back to the page."""
    extracted = extract_bytes(_read_bounded(Path(path)), str(path))
    return extracted.text, extracted.format
