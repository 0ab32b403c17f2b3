"""Intake, start to end: read -> detect -> extract -> decode -> segment -> parse.

Each step lives in its own module and knows nothing of the steps after it; only this
module sees them all, and runs them in order (see formats.py for what each step does):

    bytes = read.read_bytes(path)
    container = detect.detect_container(bytes)        pdf, docx, doc, rtf | text
    pdf, docx, doc, rtf: extract.extract(bytes)       their own text, paragraphs a line
    text:                decode.decode_text(bytes)     characters
                         segment.segment(text)        markup read, lines mapped to the page
    parse.parse_document(lines)                       editions and clauses
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..model import DecodedText, ParsedDocument
from .decode import decode_text, describe_newlines
from .detect import detect_container
from .extract import extract
from .formats import TEXT, Extracted
from .markup import sniff_markup
from .parse import check_rules_like
from .parse import parse_document as parse_decoded
from .read import read_bytes
from .segment import segment


def extract_text(data: bytes, where: str) -> Extracted:
    """The rules text in a file's bytes, whatever its format: steps 2 to 5. InputError (or
    its NotRulesError) on bad input."""
    container = detect_container(data, where)
    if container == TEXT:
        text, encoding = decode_text(data, where)
        return segment(text, encoding, where)
    extracted = extract(data, container, where)
    check_rules_like(extracted.text, extracted.format, where)
    return extracted


def prepare(data: bytes, where: str, *, sha256: str | None = None) -> DecodedText:
    """A file's bytes as the parser reads them (steps 2 to 5), with what the store records of
    the file: its format, encoding, line endings, size and the sha256 of its bytes."""
    extracted = extract_text(data, where)
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


def detect_format(data: bytes, where: str = "input") -> str:
    """The format name of ``data``: pdf, docx, doc, rtf, html, markdown, dokuwiki, mediawiki or
    text, without extracting a container's text. InputError for files that hold no rules
    text (images, archives...)."""
    container = detect_container(data, where)
    if container != TEXT:
        return container
    return sniff_markup(decode_text(data, where)[0])


def read_source(path: Path) -> DecodedText:
    """The file at ``path``, read (bounded) once and prepared for the parser."""
    return prepare(read_bytes(path), str(path))


def parse_document(
    path: Path,
    source: DecodedText | bytes,
    *,
    name: str | None = None,
    origin: str | None = None,
    language: str | None = None,
) -> ParsedDocument:
    """The editions in a source file, all six steps: given prepared (as ingest does, one read
    per file) or as the bytes read from ``path``, in any supported format."""
    decoded = source if isinstance(source, DecodedText) else prepare(source, str(path))
    return parse_decoded(path, decoded, name=name, origin=origin, language=language)
