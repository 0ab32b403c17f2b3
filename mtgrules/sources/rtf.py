"""Step 3 of intake (extract) for Rich Text Format, through striprtf, decoded with the
file's own code page.

RTF is 7-bit text: characters beyond ASCII are written as ``\\uN`` (Unicode) or ``\\'hh`` (a
byte in the document's code page). The code page is named in the header: ``\\ansicpgN``
(1252 Windows Western, 10000 Mac Roman...) or, in older files, ``\\mac``, ``\\pc`` and ``\\pca``.
striprtf knows the Windows code pages but turns ``\\ansicpg10000`` (the 2006 and 2012 editions,
written on a Mac) into UTF-8, and decodes a font marked ``\\fcharset0`` as Windows-1252 even in
a Mac file. So the code page is read here, and striprtf is handed text in which only the
fonts that name a real script of their own (Cyrillic, Greek, CJK...) keep their charset.
"""

from __future__ import annotations

import codecs
import re

from ..errors import InputError
from .formats import RTF, Extracted, check_text_size

_ANSICPG = re.compile(rb"\\ansicpg(\d{1,5})")
_CHARSET_WORD = re.compile(r"\\ansicpg\d{1,5} ?")
# \fcharset0 (ANSI), 1 (default), 77 (Mac) and the non-standard 256 mean "the document's code
# page"; they are rewritten to a number striprtf does not know, so it falls back to ours.
_GENERIC_CHARSET = re.compile(r"\\fcharset(?:0|1|256)(?![0-9])")
# striprtf rewrites HYPERLINK fields as "text(url)", which no other format of the same
# edition has; the field's instruction is hidden text, so the keyword can go.
_HYPERLINK = re.compile(r"HYPERLINK(\s)")
_CODE_PAGES = {
    "10000": "mac_roman",
    "10001": "shift_jis",
    "10003": "euc_kr",
    "10004": "mac_arabic",
    "10006": "mac_greek",
    "10007": "mac_cyrillic",
    "10008": "gb2312",
    "10029": "mac_latin2",
    "10079": "mac_iceland",
    "10081": "mac_turkish",
    "65001": "utf-8",
}


def rtf_code_page(data: bytes) -> str:
    """The Python codec for the ``\\'hh`` bytes of an RTF file, from its header."""
    head = data[:4096]
    m = _ANSICPG.search(head)
    if m is not None:
        number = m[1].decode()
        name = _CODE_PAGES.get(number, f"cp{number}")
        try:
            return codecs.lookup(name).name
        except LookupError:
            pass
    if re.search(rb"\\mac(?![a-z])", head):
        return "mac_roman"
    if re.search(rb"\\pca(?![a-z])", head):
        return "cp850"
    if re.search(rb"\\pc(?![a-z])", head):
        return "cp437"
    return "cp1252"


# "\\\\" is a literal backslash: matched first, so that "\\\\bin5" or "\\\\u12" (a backslash
# followed by text) is never read as a control word. Each alternative is a fixed token: the
# scan is linear.
_BINARY = re.compile(r"\\\\|\\bin(\d{1,20}) ?")
_UNICODE = re.compile(r"\\\\|\\u(-?\d+)")
# \uN is a signed 16-bit number (Word writes U+8220 as \u8220 and U+E000 as \u-8192); some
# writers use 0-65535. Anything else is damage.
_U_RANGE = range(-32768, 65536)


def skip_binary(source: str) -> tuple[str, list[str]]:
    """The RTF source without the data of its ``\\binN`` control words.

    ``\\binN`` is followed by N bytes of raw binary (a picture, an embedded object), which
    may hold any byte, braces and backslashes included: it must be skipped by its count,
    never tokenised, or its bytes come out as text (striprtf skips it only inside
    ``\\pict``). A count that runs past the end of the file means a truncated file: what
    is left is dropped, and the note says so."""
    if "\\bin" not in source:
        return source, []
    kept: list[str] = []
    copied = scan = 0  # copied up to ``copied``; searching from ``scan``
    blocks = skipped = 0
    truncated = False
    while (m := _BINARY.search(source, scan)) is not None:
        if m[1] is None:  # a literal backslash
            scan = m.end()
            continue
        kept.append(source[copied : m.start()])
        size = int(m[1])
        end = m.end() + size
        blocks += 1
        if end > len(source):
            truncated = True
            skipped += len(source) - m.end()
            copied = scan = len(source)
            break
        skipped += size
        copied = scan = end
    kept.append(source[copied:])
    notes = [
        f"{blocks} binary data block{'s' if blocks != 1 else ''} (\\bin, {skipped} bytes) skipped"
    ]
    if truncated:
        notes.append("the file ends inside binary data: it may be truncated")
    return "".join(kept), notes


def _bound_unicode(m: re.Match[str]) -> str:
    # Length first: int() of a thousand digits is slow, and refused past 4,300.
    if m[1] is None or (len(m[1]) <= 6 and int(m[1]) in _U_RANGE):
        return m[0]
    return "\\u65533"  # U+FFFD: flagged as damage (replacement-char) by the parser


def join_surrogates(text: str) -> str:
    """Word writes a character beyond U+FFFF (an emoji) as two \\uN, a UTF-16 surrogate
    pair in signed 16-bit (\\u-10179?\\u-8704? is U+1F600); striprtf gives the two halves.
    A pair becomes its character, a lone half U+FFFD."""
    if not any("\ud800" <= ch <= "\udfff" for ch in text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def extract_rtf(data: bytes, where: str) -> Extracted:
    from striprtf.striprtf import rtf_to_text

    encoding = rtf_code_page(data)
    # RTF bytes are ASCII by the spec; latin-1 maps any stray 8-bit byte one to one (so a
    # \binN count of bytes is a count of characters).
    source, notes = skip_binary(data.decode("latin-1"))
    source = _UNICODE.sub(_bound_unicode, source)
    source = _CHARSET_WORD.sub("", source, count=1)
    source = _GENERIC_CHARSET.sub(r"\\fcharset9999", source)
    source = _HYPERLINK.sub(r"HYPERLINK_\1", source)
    try:
        text = rtf_to_text(source, encoding=encoding, errors="replace")
    except (ValueError, LookupError, IndexError) as exc:
        raise InputError(
            f"{where}: a damaged RTF file ({exc}); open it in a word processor and save it again."
        ) from None
    text = join_surrogates(text)
    check_text_size(len(text), where)
    if not text.strip():
        raise InputError(f"{where}: the RTF file holds no text.")
    return Extracted(format=RTF, text=text, encoding=encoding, notes=notes)
