"""Bytes on disk to text: BOM, encoding and line endings detected, the bytes' sha256 kept."""

from __future__ import annotations

import codecs
import hashlib
import stat
from pathlib import Path

from ..errors import InputError, NotRulesError
from ..model import DecodedText

# A file larger than this is refused before it is read: the biggest real edition is 1.7 MB
# (UTF-16), and reading, parsing and indexing a file needs several times its size in memory.
MAX_BYTES = 50 * 1024 * 1024

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le-bom"),
    (codecs.BOM_UTF16_BE, "utf-16-be-bom"),
)


def _looks_binary(data: bytes) -> bool:
    sample = data[:8192]
    if b"\x00" in sample:
        return True
    controls = sum(1 for b in sample if b < 9 or 13 < b < 32)
    return controls > len(sample) * 0.05


def decode_bytes(data: bytes, where: str) -> DecodedText:
    """Decode ``data`` (read from ``where``, used in messages) or raise InputError."""
    text, encoding = decode_text(data, where)
    return DecodedText(
        text=text,
        encoding=encoding,
        newline=describe_newlines(text),
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
    )


def decode_text(data: bytes, where: str) -> tuple[str, str]:
    """(text, encoding name) of ``data``, or InputError: the decoding alone, which the page
    reader (sources/markup.py) shares."""
    if not data.strip():
        raise NotRulesError(f"{where}: the file is empty; give a file that holds rules text.")
    text: str | None = None
    encoding = ""
    for bom, name in _BOMS:
        if data.startswith(bom):
            codec = {
                "utf-8-sig": "utf-8-sig",
                "utf-16-le-bom": "utf-16",
                "utf-16-be-bom": "utf-16",
            }[name]
            try:
                text = data.decode(codec)
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"{where}: starts with a {name} byte-order mark but is not valid {codec} "
                    f"(byte {exc.start}); re-save it as UTF-8."
                ) from None
            encoding = name
            break
    if text is None:
        if _looks_binary(data):
            raise InputError(
                f"{where}: a binary file of no kind mtgrules reads; give the rules as text, "
                "PDF, DOCX, Word .doc, RTF or a web or wiki page."
            )
        try:
            text = data.decode("utf-8")
            encoding = "ascii" if data.isascii() else "utf-8"
        except UnicodeDecodeError:
            # Wizards published several editions in Windows-1252 (smart quotes 0x92-0x94).
            try:
                text = data.decode("cp1252")
                encoding = "cp1252"
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"{where}: cannot be decoded as UTF-8, UTF-16 or Windows-1252 "
                    f"(byte 0x{data[exc.start]:02x} at offset {exc.start}); re-save it as UTF-8."
                ) from None
    if not text.strip():
        raise NotRulesError(
            f"{where}: the file holds only whitespace; give a file with rules text."
        )
    return text, encoding


def describe_newlines(text: str) -> str:
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = {name: n for name, n in (("CRLF", crlf), ("CR", cr), ("LF", lf)) if n}
    if not kinds:
        return "none"
    if len(kinds) == 1:
        return next(iter(kinds))
    return "mixed " + ",".join(f"{k}={v}" for k, v in kinds.items())


def _too_big(where: str, size: int) -> InputError:
    return InputError(
        f"{where}: {size / 1e6:.0f} MB is over the {MAX_BYTES // 2**20} MiB limit for one "
        "source file; split it into editions."
    )


def read_bytes(path: Path) -> bytes:
    """The bytes of the file at ``path``, bounded: refused from its size before it is read."""
    where = str(path)
    try:
        st = path.stat()
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError
        # A device, FIFO or /proc file has no honest size and may never end.
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"{where}: not a regular file; give a file of rules text.")
        size = st.st_size
        if size > MAX_BYTES:
            raise _too_big(where, size)
        with path.open("rb") as fh:
            # Bounded even if the file grows while it is read.
            data = fh.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise _too_big(where, len(data))
    except FileNotFoundError:
        raise InputError(f"{where}: no such file.") from None
    except IsADirectoryError:
        raise InputError(f"{where}: is a folder, not a file.") from None
    except PermissionError:
        raise InputError(f"{where}: permission denied; check the file's permissions.") from None
    except OSError as exc:
        raise InputError(f"{where}: cannot be read ({exc.strerror}).") from None
    return data


def read_source(path: Path) -> DecodedText:
    """The file at ``path``, read (bounded) once and turned into plain rules text, whatever its
    format (detected from the content: sources/formats.py)."""
    return decode_any(read_bytes(path), str(path))


def decode_any(data: bytes, where: str, *, sha256: str | None = None) -> DecodedText:
    """``data`` in any supported format (text, PDF, DOCX, .doc, RTF, HTML, Markdown, wiki) as
    a DecodedText whose text is what the parser reads. InputError on bad input."""
    from .formats import TEXT, extract_bytes  # formats imports this module

    extracted = extract_bytes(data, where)
    if extracted.format == TEXT:
        # The decoded file, untouched: plain text parses exactly as it always did.
        newline = describe_newlines(extracted.text)
    else:
        newline = describe_newlines(extracted.source) if extracted.source else "none"
    return DecodedText(
        text=extracted.text,
        encoding=extracted.encoding[:32],
        newline=newline,
        sha256=sha256 or hashlib.sha256(data).hexdigest(),
        size=len(data),
        format=extracted.format,
        source_lines=extracted.source_lines,
        notes=list(extracted.notes),
    )
