"""Text to editions: picks the layout family and names the edition's language."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from ..model import DecodedText, ParsedDocument, ParsedEdition
from ..text.detect import detect_language
from ..text.labels import split_labelled_line
from .decode import decode_bytes
from .official import looks_official, parse_official
from .scraped import parse_scraped


def parse_text(text: str, where: str) -> list[ParsedEdition]:
    lines = text.splitlines()  # not re.M: bare-CR files would read as one line
    if looks_official(lines):
        sample = " ".join(
            rest
            for ln in lines[:3000]
            if (lab := split_labelled_line(ln.strip()))
            for rest in [lab[1]]
        )[:20000]
        language = detect_language(sample) or "en"
        editions = [parse_official(lines, language)]
    else:
        editions = parse_scraped(lines)
    editions = [e for e in editions if e.rule_count or any(c.kind == "glossary" for c in e.clauses)]
    if not editions:
        raise InputError(
            f"{where}: no recognisable rules (no labelled rule such as '107.3a', no glossary "
            "entry, no 'Rule 107.3' heading); is this a Comprehensive Rules text?"
        )
    return editions


def parse_document(
    path: Path,
    source: DecodedText | bytes,
    *,
    name: str | None = None,
    origin: str | None = None,
) -> ParsedDocument:
    """The editions in a source file, given decoded (decode.read_source, as ingest does: one
    decode per file) or as the bytes read from ``path``."""
    decoded = source if isinstance(source, DecodedText) else decode_bytes(source, str(path))
    editions = parse_text(decoded.text, str(path))
    return ParsedDocument(
        path=str(path), name=name or path.name, decoded=decoded, editions=editions, origin=origin
    )
