"""Step 2 of intake: which container a file's bytes are, read from the content (magic bytes,
then what a zip holds), never from the file name: users rename files, and a ``.txt`` saved
from a browser may well be HTML.

Containers: ``pdf``, ``docx``, legacy Word ``doc``, ``rtf`` (their text is taken out by step
3, ``extract.py``), or ``text``: anything else, decoded by step 4 (``decode.py``) and read
for markup by step 5 (``segment.py``). Files people pick up by mistake (images, archives,
spreadsheets, a store) are refused here with a line saying what they are.
"""

from __future__ import annotations

import zipfile
import zlib
from io import BytesIO

from ..errors import InputError, NotRulesError
from .formats import DOC, DOCX, PDF, RTF, TEXT
from .zipped import check_zip_sizes

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
_IMAGE_HINT = "rules in an image need OCR first; give the text, a PDF with a text layer or a DOCX"
_ARCHIVE_HINT = "unpack it and give the rules files inside"


def detect_container(data: bytes, where: str) -> str:
    """The container of ``data``: pdf, docx, doc, rtf, or text (an empty file too: decoding
    says it is empty). NotRulesError for files that hold no rules text (images, archives...),
    InputError for a damaged or unsupported container."""
    head = data[:1024]
    # The PDF header may follow some junk (the spec allows it in the first 1024 bytes).
    if b"%PDF-" in head:
        return PDF
    if data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06"):
        return _sniff_zip(data, where)
    if data.startswith(_OLE2):
        return _sniff_ole2(data, where)
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
    return TEXT


# Streams that name what else an OLE2 file may be (their names in its directory).
_OLE2_KINDS = (
    ("Workbook", "an Excel workbook"),
    ("Book", "an Excel workbook"),
    ("PowerPoint Document", "a PowerPoint presentation"),
)


def _sniff_ole2(data: bytes, where: str) -> str:
    """A Word 97-2003 file, or a clear line on what else this OLE2 file is: cut short (its
    header points past its end: a truncated download or copy), or an Excel or PowerPoint
    file (the name of its main stream), or another OLE2 file."""
    end = ole2_required_size(data)
    if end is not None and len(data) < end:
        raise InputError(
            f"{where}: an old Microsoft Office file (such as a Word .doc) cut short: its header "
            f"points to byte {end:,} but the file has {len(data):,}; copy or download it again."
        )
    if _WORD_STREAM in data:
        return DOC
    for stream, what in _OLE2_KINDS:
        if stream.encode("utf-16-le") + b"\x00\x00" in data:
            raise NotRulesError(
                f"{where}: this is {what} (an old Microsoft Office file), not a Word document; "
                "give the rules as text, PDF, DOCX or Word .doc."
            )
    raise NotRulesError(
        f"{where}: an old Microsoft Office (OLE2) file with no Word document in it; give the "
        "rules as text, PDF, DOCX or Word .doc."
    )


def ole2_required_size(data: bytes) -> int | None:
    """The size an OLE2 file must at least have, from its header (the compound file format,
    MS-CFB): the end of its directory's first sector and of each of its first FAT sectors.
    None when the header itself is unreadable (shorter than its 512 bytes, or a sector size
    that is neither 512 nor 4096)."""
    import struct

    if len(data) < 512:
        return 512
    shift = struct.unpack_from("<H", data, 0x1E)[0]
    if shift not in (9, 12):
        return None
    sector = 1 << shift
    fat_count = min(struct.unpack_from("<I", data, 0x2C)[0], 109)
    directory = struct.unpack_from("<I", data, 0x30)[0]
    fats = struct.unpack_from(f"<{fat_count}I", data, 0x4C) if fat_count else ()
    # Sector numbers past 0xFFFFFFFA are markers (free, end of chain...), not places.
    places = [n for n in (directory, *fats) if n < 0xFFFFFFFA]
    return (max(places) + 2) * sector if places else None


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
