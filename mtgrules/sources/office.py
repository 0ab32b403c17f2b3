"""Step 3 of intake (extract) for Word: DOCX (its main part, through lxml) and legacy Word 97-2003 .doc
(Debian's antiword).

DOCX: the package relationships name the main document part, which alone is unpacked and
parsed (lxml); paragraphs are read straight from its XML in document order, tables and
text boxes included; headers, footers and footnotes live in other parts and are left out,
as a reader of the rules would skip them. A DOCX is a zip: before anything is unpacked, the
sizes written in the zip's central directory are checked, so a small file that would expand
to gigabytes (a zip bomb) is refused without expanding it; and since a directory may lie,
the parts are unpacked by a reader that counts what it inflates and stops at the limits
(zipped.py). python-docx, used before, unpacked every part of the package (images too)
with no such count.

Legacy .doc: antiword turns the binary Word format into text (one paragraph a line with
``-w 0``; UTF-8 with ``-m UTF-8.txt``). It is a separate program; where it is missing the
message says how to install it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

from ..errors import InputError
from .formats import DOC, DOCX, Extracted, check_text_size
from .zipped import check_zip_sizes, unpack_members

ANTIWORD_TIMEOUT = 60  # seconds; antiword reads the 2009 edition in under 0.1 s

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_P = _W + "p"
# Runs' text and the characters Word stores as elements.
_CHARS = {_W + "tab": "\t", _W + "br": "\n", _W + "cr": "\n", _W + "noBreakHyphen": "-"}
# Subtrees whose text is not part of the paragraph: a nested paragraph (a text box, read as
# its own paragraph), the fallback copy of a drawing, deleted or moved-away tracked changes.
_SKIP = {_P, _MC_FALLBACK, _W + "del", _W + "moveFrom", _W + "instrText", _W + "delText"}


def extract_docx(data: bytes, where: str) -> Extracted:
    check_zip_sizes(data, where)
    root = _main_document(data, where)
    body = root.find(_W + "body")
    if body is None:
        raise InputError(f"{where}: the Word document has no body; save it again from Word.")
    paragraphs: list[str] = []
    size = 0
    for p in body.iter(_P):
        if any(a.tag == _MC_FALLBACK for a in p.iterancestors()):
            continue  # the same text box as the mc:Choice above it
        parts: list[str] = []
        _collect(p, parts)
        text = "".join(parts)
        size += len(text) + 1
        check_text_size(size, where)
        paragraphs.append(text)
    if not any(t.strip() for t in paragraphs):
        raise InputError(f"{where}: the Word document holds no text.")
    return Extracted(format=DOCX, text="\n".join(paragraphs) + "\n", encoding="docx (utf-8 xml)")


# The package relationship that names the main part (ECMA-376 part 2), transitional and
# strict: ".../relationships/officeDocument".
_OFFICE_DOCUMENT = "/officeDocument"
_RELS = "_rels/.rels"


def _main_document(data: bytes, where: str):
    """The main part's XML (word/document.xml in a DOCX; the same WordprocessingML in a
    macro-enabled document or a template), found through the package relationships and
    unpacked alone, by the counting reader (zipped.unpack_members)."""
    from urllib.parse import unquote

    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    try:
        rels = unpack_members(data, where, lambda name: name == _RELS).get(_RELS)
        if rels is None:
            raise InputError(
                f"{where}: a damaged Word document (no package relationships, {_RELS}); "
                "save it again as DOCX."
            )
        targets = [
            r.get("Target", "")
            for r in etree.fromstring(rels, parser)
            if str(r.get("Type", "")).endswith(_OFFICE_DOCUMENT)
            and r.get("TargetMode") != "External"
        ]
        if not targets:
            raise InputError(
                f"{where}: a damaged Word document (its {_RELS} names no main document part); "
                "save it again as DOCX."
            )
        name = unquote(targets[0]).lstrip("/")
        blob = unpack_members(data, where, lambda member: member == name).get(name)
        if blob is None:
            raise InputError(
                f"{where}: a damaged Word document (its main document part {name} is "
                "missing); save it again as DOCX."
            )
        element = etree.fromstring(blob, parser)
    except etree.XMLSyntaxError as exc:
        detail = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        raise InputError(
            f"{where}: a damaged Word document ({detail}); open it in Word or LibreOffice and "
            "save it again."
        ) from None
    if element.tag != _W + "document":
        raise InputError(f"{where}: the zip's main part is not a Word document body.")
    return element


def _collect(el, parts: list[str]) -> None:
    for child in el:
        tag = child.tag
        if tag == _W + "t":
            parts.append(child.text or "")
        elif tag in _CHARS:
            if tag == _W + "br" and child.get(_W + "type") in ("page", "column"):
                continue  # a page break is layout, not a line of text
            parts.append(_CHARS[tag])
        elif tag in _SKIP or not isinstance(tag, str):
            continue  # comments and processing instructions have a non-string tag
        else:
            _collect(child, parts)


def antiword_path() -> str | None:
    return shutil.which("antiword")


def extract_doc(data: bytes, where: str) -> Extracted:
    exe = antiword_path()
    if exe is None:
        raise InputError(
            f"{where}: a legacy Word .doc file needs antiword, which is not installed; install "
            "it (Debian/Ubuntu: apt-get install antiword) or save the file as DOCX or PDF."
        )
    # antiword reads a named file, not standard input.
    with tempfile.NamedTemporaryFile(suffix=".doc") as tmp:
        tmp.write(data)
        tmp.flush()
        env = {**os.environ, "LC_ALL": "C.UTF-8"}
        try:
            done = subprocess.run(
                [exe, "-w", "0", "-m", "UTF-8.txt", tmp.name],
                capture_output=True,
                timeout=ANTIWORD_TIMEOUT,
                env=env,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise InputError(
                f"{where}: antiword did not finish in {ANTIWORD_TIMEOUT} s; save the file as "
                "DOCX or PDF and give that."
            ) from None
        except OSError as exc:
            raise InputError(f"{where}: antiword could not be run ({exc.strerror}).") from None
    if done.returncode != 0 or not done.stdout.strip():
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        reason = why[-1].replace(tmp.name, "the file") if why else "no text came out"
        raise InputError(
            f"{where}: antiword cannot read this Word file ({reason}); open it in Word or "
            "LibreOffice and save it as DOCX or PDF."
        )
    text = done.stdout.decode("utf-8", "replace")
    check_text_size(len(text), where)
    return Extracted(format=DOC, text=text, encoding="doc (antiword utf-8)")
