"""Bytes on disk to text: BOM, encoding and line endings detected, the bytes' sha256 kept."""

from __future__ import annotations

import codecs
import hashlib
import stat
from pathlib import Path

from ..errors import InputError
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
    if not data.strip():
        raise InputError(f"{where}: the file is empty; give a file that holds rules text.")
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
            raise InputError(f"{where}: this is a binary file, not text; give a .txt rules file.")
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
        raise InputError(f"{where}: the file holds only whitespace; give a file with rules text.")
    return DecodedText(
        text=text,
        encoding=encoding,
        newline=describe_newlines(text),
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
    )


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


def read_source(path: Path) -> DecodedText:
    """The file at ``path``, read (bounded) and decoded once."""
    where = str(path)
    try:
        st = path.stat()
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError
        # A device, FIFO or /proc file has no honest size and may never end.
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"{where}: not a regular file; give a .txt file of rules text.")
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
    return decode_bytes(data, where)
