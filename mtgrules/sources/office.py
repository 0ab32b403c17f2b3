"""Step 3 of intake (extract) for Word: DOCX (python-docx) and legacy Word 97-2003 .doc
(Debian's antiword).

DOCX: python-docx opens the package and finds the main document part; paragraphs are read
straight from its XML (0.25 s for the 2026 edition, 3,114 rules as in the .txt, where
python-docx's own paragraph objects take 1.1 s) in document order,
tables and text boxes included; headers, footers and footnotes live in other parts and are
left out, as a reader of the rules would skip them. A DOCX is a zip: before anything is
unpacked, the sizes written in the zip's central directory are checked, so a small file
that would expand to gigabytes (a zip bomb) is refused without expanding it.

Legacy .doc: antiword turns the binary Word format into text (one paragraph a line with
``-w 0``; UTF-8 with ``-m UTF-8.txt``). It is a separate program; where it is missing the
message says how to install it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from io import BytesIO

from ..errors import InputError
from .formats import DOC, DOCX, Extracted, check_text_size
from .zipped import check_zip_sizes

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


def _main_document(data: bytes, where: str):
    from docx.opc.package import OpcPackage  # heavy: lxml and python-docx's part classes

    try:
        package = OpcPackage.open(BytesIO(data))
        part = package.main_document_part
        element = getattr(part, "element", None)
        if element is None:
            # A macro-enabled document or a template: python-docx does not model it, but
            # its main part is the same WordprocessingML.
            from docx.oxml.parser import parse_xml

            element = parse_xml(part.blob)
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure of a damaged package is bad input
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
