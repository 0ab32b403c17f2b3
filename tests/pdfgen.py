"""Write small PDFs for the format tests with pypdfium2: text typeset the way a word processor
would (lines filled to a measured width, hanging indents, space between paragraphs, running
headers, footers and page numbers), and image-only pages as a scanner makes them.

The text put in is real rules text taken from the corpus; the tests check that extraction gives
it back. Nothing here knows how the extractor works.
"""

from __future__ import annotations

import ctypes
import io
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as raw

PAGE_W, PAGE_H = 612.0, 792.0


def _wide(text: str):
    data = (text + "\0").encode("utf-16-le")
    return ctypes.cast(ctypes.create_string_buffer(data, len(data)), ctypes.POINTER(raw.FPDF_WCHAR))


@dataclass
class Layout:
    font: bytes = b"Helvetica"
    size: float = 10.0
    pitch: float = 12.0  # baseline to baseline inside a paragraph
    paragraph_gap: float = 8.0  # extra space before a paragraph
    left: float = 72.0
    hang: float = 14.0  # continuation lines sit this much right of a paragraph's first line
    right: float = 540.0
    top: float = 730.0
    bottom: float = 60.0
    header: str | None = None  # e.g. "Magic: The Gathering Comprehensive Rules"
    footer: str | None = None  # "{page}" is replaced by the page number


class _Writer:
    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.pdf = pdfium.PdfDocument.new()
        self.page = None
        self.page_no = 0
        self.y = 0.0

    def _text_obj(self, text: str):
        obj = raw.FPDFPageObj_NewTextObj(self.pdf.raw, self.layout.font, self.layout.size)
        raw.FPDFText_SetText(obj, _wide(text))
        return obj

    def width(self, text: str) -> float:
        obj = self._text_obj(text)
        left, bottom, right, top = (ctypes.c_float() for _ in range(4))
        raw.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
        raw.FPDFPageObj_Destroy(obj)
        return right.value - left.value

    def _put(self, text: str, x: float, y: float) -> None:
        obj = self._text_obj(text)
        raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, x, y)
        raw.FPDFPage_InsertObject(self.page.raw, obj)

    def _finish_page(self) -> None:
        if self.page is not None:
            raw.FPDFPage_GenerateContent(self.page.raw)

    def new_page(self) -> None:
        self._finish_page()
        self.page = self.pdf.new_page(PAGE_W, PAGE_H)
        self.page_no += 1
        self.y = self.layout.top
        if self.layout.header:
            self._put(self.layout.header, self.layout.left, PAGE_H - 40)
        if self.layout.footer:
            self._put(self.layout.footer.format(page=self.page_no), PAGE_W / 2 - 20, 30)

    def paragraph(self, text: str, indent: float = 0.0) -> None:
        lay = self.layout
        if self.page is None or self.y < lay.bottom:
            self.new_page()
        elif self.y < lay.top:
            self.y -= lay.paragraph_gap
        x_first = lay.left + indent
        lines: list[tuple[float, str]] = []
        line, x = "", x_first
        for word in text.split(" "):
            candidate = f"{line} {word}" if line else word
            # Forty characters of 10 pt Helvetica never fill a line: measure only longer ones.
            if line and len(candidate) > 40 and x + self.width(candidate) > lay.right:
                lines.append((x, line))
                line, x = word, x_first + lay.hang
            else:
                line = candidate
        lines.append((x, line))
        for x, piece in lines:
            if self.y < lay.bottom:
                self.new_page()  # the paragraph runs on over the page break
            self._put(piece, x, self.y)
            self.y -= lay.pitch

    def save(self) -> bytes:
        self._finish_page()
        buf = io.BytesIO()
        self.pdf.save(buf)
        return buf.getvalue()


def typeset(paragraphs: list[str], layout: Layout | None = None, indents=None) -> bytes:
    """A PDF of ``paragraphs``; ``indents(text)`` gives each paragraph's first-line indent."""
    writer = _Writer(layout or Layout())
    for text in paragraphs:
        writer.paragraph(text, indents(text) if indents else 0.0)
    return writer.save()


def scanned(pdf_bytes: bytes, pages: int = 2) -> bytes:
    """Render pages of a PDF to pictures and put only the pictures in a new PDF: a scan."""
    source = pdfium.PdfDocument(pdf_bytes)
    out = pdfium.PdfDocument.new()
    for index in range(min(pages, len(source))):
        bitmap = source[index].render(scale=1)
        page = out.new_page(PAGE_W, PAGE_H)
        image = pdfium.PdfImage.new(out)
        image.set_bitmap(bitmap)
        image.set_matrix(pdfium.PdfMatrix().scale(PAGE_W, PAGE_H))
        page.insert_obj(image)
        page.gen_content()
    buf = io.BytesIO()
    out.save(buf)
    return buf.getvalue()


def repeated(pdf_bytes: bytes, pages: int) -> bytes:
    """A PDF of ``pages`` pages made by repeating the pages of ``pdf_bytes`` in turn."""
    source = pdfium.PdfDocument(pdf_bytes)
    out = pdfium.PdfDocument.new()
    order = [i % len(source) for i in range(pages)]
    out.import_pages(source, order)
    buf = io.BytesIO()
    out.save(buf)
    return buf.getvalue()
