"""Step 4 of intake: a text file's bytes to characters, and how its lines end.

The encoding is read from the bytes: a byte-order mark first, then the charset a web page
declares (``<meta charset>``, an XML prolog), then a fixed list of candidates tried in turn.
Binary containers (PDF, Word, RTF) never come here: their extractors decode their own text.
"""

from __future__ import annotations

import codecs
import re

from ..errors import InputError, NotRulesError

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le-bom"),
    (codecs.BOM_UTF16_BE, "utf-16-be-bom"),
)
_BOM_CODECS = {"utf-8-sig": "utf-8-sig", "utf-16-le-bom": "utf-16", "utf-16-be-bom": "utf-16"}

_DECLARED = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_\-:.]+)|<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_\-.]+)""",
    re.I,
)
# Declared encodings a browser would not decode the page with: the WHATWG "replacement"
# (iso-2022-kr, hz-gb-2312: decoding them has been used to smuggle markup), UTF-16 named in
# an ASCII-compatible page (browsers read that as UTF-8), and x-user-defined.
_NOT_DECLARABLE = {"replacement", "utf-16be", "utf-16le", "x-user-defined"}


def declared_codec(label: str) -> str | None:
    """The Python codec for a charset a page declares, as a browser reads the label
    (the WHATWG Encoding Standard, through webencodings: "latin1" and "us-ascii" are
    Windows-1252, "x-sjis" Shift_JIS...), or None for a label no browser decodes with:
    an unknown name, or a Python codec that is no web encoding at all (utf-7,
    unicode_escape, punycode, rot13, base64: some raise, some give lone surrogates,
    some turn "\\u0041" into "A")."""
    import webencodings

    encoding = webencodings.lookup(label)
    if encoding is None or encoding.name in _NOT_DECLARABLE:
        return None
    return encoding.codec_info.name


def _looks_binary(data: bytes) -> bool:
    sample = data[:8192]
    if b"\x00" in sample:
        return True
    controls = sum(1 for b in sample if b < 9 or 13 < b < 32)
    return controls > len(sample) * 0.05


def decode_text(data: bytes, where: str) -> tuple[str, str]:
    """(text, encoding name) of a text file's bytes, or InputError. A charset the page
    declares is honoured, so a GBK, Shift_JIS or EUC-KR page reads right; otherwise the
    bytes decide."""
    m = _DECLARED.search(data[:4096])
    if m is not None and not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        codec = declared_codec((m[1] or m[2]).decode("ascii"))
        if codec is not None and codec != "utf-8":
            try:
                return data.decode(codec), codec
            except UnicodeDecodeError:
                pass  # a wrong declaration: fall back to what the bytes say
        # An unknown or non-text codec (utf-7, unicode_escape): the bytes decide, as below.
    return _decode_undeclared(data, where)


def _decode_undeclared(data: bytes, where: str) -> tuple[str, str]:
    if not data.strip():
        raise NotRulesError(f"{where}: the file is empty; give a file that holds rules text.")
    text: str | None = None
    encoding = ""
    for bom, name in _BOMS:
        if data.startswith(bom):
            codec = _BOM_CODECS[name]
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
