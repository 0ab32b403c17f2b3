"""Step 3 of intake: a container's text, one paragraph a line.

One extractor per container, each in its own module and imported on first use (they load
native libraries): the text layer of a PDF (``pdf.py``), Word DOCX and legacy .doc
(``office.py``), RTF with its code page (``rtf.py``). A new container slots in here and in
``detect.py``, which recognises it.
"""

from __future__ import annotations

from collections.abc import Callable

from .formats import DOC, DOCX, PDF, RTF, Extracted


def _extractor(container: str) -> Callable[[bytes, str], Extracted]:
    if container == PDF:
        from .pdf import extract_pdf

        return extract_pdf
    if container == DOCX:
        from .office import extract_docx

        return extract_docx
    if container == DOC:
        from .office import extract_doc

        return extract_doc
    if container == RTF:
        from .rtf import extract_rtf

        return extract_rtf
    raise ValueError(f"no extractor for {container!r}: text is decoded, not extracted")


def extract(data: bytes, container: str, where: str) -> Extracted:
    """The text of a PDF, DOCX, .doc or RTF file (``container`` as detect.py names it);
    InputError on a damaged or unreadable one."""
    return _extractor(container)(data, where)
