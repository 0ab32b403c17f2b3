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


def extract_rtf(data: bytes, where: str) -> Extracted:
    from striprtf.striprtf import rtf_to_text

    encoding = rtf_code_page(data)
    # RTF bytes are ASCII by the spec; latin-1 maps any stray 8-bit byte one to one.
    source = data.decode("latin-1")
    source = _CHARSET_WORD.sub("", source, count=1)
    source = _GENERIC_CHARSET.sub(r"\\fcharset9999", source)
    source = _HYPERLINK.sub(r"HYPERLINK_\1", source)
    try:
        text = rtf_to_text(source, encoding=encoding, errors="replace")
    except (ValueError, LookupError, IndexError) as exc:
        raise InputError(
            f"{where}: a damaged RTF file ({exc}); open it in a word processor and save it again."
        ) from None
    check_text_size(len(text), where)
    if not text.strip():
        raise InputError(f"{where}: the RTF file holds no text.")
    return Extracted(format=RTF, text=text, encoding=encoding)
