"""TMX 1.4 export of aligned clause pairs, for translators' CAT tools (Trados, OmegaT, memoQ).

Each translation unit is one aligned pair. Rule labels, edition names and edition dates go
into <prop type="x-..."> elements, the TMX 1.4 way to carry metadata a tool may filter on.
"""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .. import __version__
from ..text.xmlchars import XmlCleaner, code_point, forbidden_in_xml

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


@dataclass
class TmxSide:
    """One side of a translation unit: a clause's text in one language, with its label and the
    edition and source document it comes from."""

    language: str
    text: str
    label: str | None
    edition: str  # slug, e.g. en-2026-01-16
    date: str | None
    source: str
    label_inferred: bool = False  # the label is the aligner's: the source has none


@dataclass
class TmxUnit:
    """One translation unit: an aligned pair of clauses, source and target, under the clause's label
    today, with the alignment's score."""

    key: str  # the clause's label today
    source: TmxSide
    target: TmxSide
    score: float | None = None


def _prop(parent: ET.Element, name: str, value: str | None, clean: XmlCleaner) -> None:
    if value:
        p = ET.SubElement(parent, "prop", {"type": f"x-{name}"})
        p.text = clean.clean(value)


def _tuv(tu: ET.Element, side: TmxSide, clean: XmlCleaner) -> None:
    tuv = ET.SubElement(tu, "tuv", {XML_LANG: clean.clean(side.language) or ""})
    # In TMX 1.4 a <tuv>'s <prop>s come before its <seg>.
    _prop(tuv, "rule-label", side.label, clean)
    if side.label and side.label_inferred:
        # The label beside it stays clean for tools that filter on it; this says whose it is.
        _prop(tuv, "rule-label-inferred", "true", clean)
    _prop(tuv, "edition", side.edition, clean)
    _prop(tuv, "edition-date", side.date, clean)
    _prop(tuv, "source-document", side.source, clean)
    bad = forbidden_in_xml(side.text)
    if bad:
        # The segment differs from the stored text: say where and what it lost.
        _prop(tuv, "replaced-characters", " ".join(code_point(c) for c in bad), clean)
    seg = ET.SubElement(tuv, "seg")
    seg.text = clean.clean(side.text)


def write_tmx(units: Iterable[TmxUnit], srclang: str, cleaner: XmlCleaner | None = None) -> str:
    """The TMX document as a string (UTF-8 declared), well-formed XML 1.0 whatever the
    texts hold: characters XML forbids become U+FFFD, counted in ``cleaner``, and each
    segment that lost some says which in a ``x-replaced-characters`` prop."""
    clean = cleaner if cleaner is not None else XmlCleaner()
    root = ET.Element("tmx", {"version": "1.4"})
    ET.SubElement(
        root,
        "header",
        {
            "creationtool": "mtgrules",
            "creationtoolversion": __version__,
            "segtype": "paragraph",  # one clause, which may hold several sentences
            "o-tmf": "mtgrules",
            "adminlang": "en",
            "srclang": clean.clean(srclang) or "",
            "datatype": "plaintext",
            "creationdate": dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ"),
        },
    )
    body = ET.SubElement(root, "body")
    for i, unit in enumerate(units, 1):
        tu = ET.SubElement(body, "tu", {"tuid": f"{i}"})
        _prop(tu, "rule", unit.key, clean)
        if unit.score is not None:
            _prop(tu, "alignment-score", f"{unit.score:.3f}", clean)
        _tuv(tu, unit.source, clean)
        _tuv(tu, unit.target, clean)
    ET.indent(root, "  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def tmx_units(
    session: Any, source: str, target: str, *, rule: str | None = None, as_of: int | None = None
) -> tuple[list[TmxUnit], dict[str, Any]]:
    """Aligned (source, target) clause pairs for every target-language edition.

    Each target edition is paired with the source-language edition it follows (its own page's
    English, else the English of its date, else the newest). Commentary and page noise are
    left out: a translation memory must hold rule text only.
    """
    from ..errors import NotFoundError, QueryError
    from ..store.queries import list_editions
    from ..text.labels import rule_scope
    from ..text.language import matches_language, same_tag
    from .common import followed_english, newest_english

    if same_tag(source, target):
        # A translation memory pairs two languages; en with en would pair each English
        # edition with another one (or with itself).
        raise QueryError(
            f"--source-lang {source} and --target-lang {target} are one language; give the "
            f"translation's language as --target-lang, e.g. mtgrules export tmx --target-lang fr"
        )
    infos = list_editions(session, as_of)
    targets = [e for e in infos if matches_language(e.language, target) and e.kind == "rules"]
    if not targets:
        raise NotFoundError(
            f"no {target} edition in the store; languages present: "
            + ", ".join(sorted({e.language for e in infos}))
        )
    sources_pool = [e for e in infos if matches_language(e.language, source)]
    if not sources_pool:
        raise NotFoundError(f"no {source} edition in the store; see: mtgrules editions")
    fallback = (
        newest_english(sources_pool)
        if source == "en"
        else max(sources_pool, key=lambda e: e.date or "")
    )
    units: list[TmxUnit] = []
    used: list[dict[str, Any]] = []
    ra = None
    if rule:
        from ..align import align_rule

        # One alignment of the rule serves every edition pair.
        ra = align_rule(session, rule, as_of=as_of)
    for tgt in targets:
        src = followed_english(tgt, sources_pool, fallback) if source == "en" else fallback
        if src is None:
            continue
        pairs = _pairs(session, src, tgt, ra)
        n = 0
        for key, a_label, a_text, (b_label, b_inferred), b_text, score in pairs:
            if rule and not (rule_scope(a_label, None, rule) or rule_scope(key, None, rule)):
                continue
            units.append(
                TmxUnit(
                    key=key or a_label or "",
                    source=TmxSide(src.language, a_text, a_label, src.slug, src.date, src.source),
                    target=TmxSide(
                        tgt.language, b_text, b_label, tgt.slug, tgt.date, tgt.source, b_inferred
                    ),
                    score=score,
                )
            )
            n += 1
        used.append({"source": src.header_json(), "target": tgt.header_json(), "units": n})
    return units, {"pairs": used, "units": len(units)}


Label = tuple[str | None, bool]  # (label, inferred by the aligner)


def _pairs(
    session: Any, src: Any, tgt: Any, ra: Any
) -> list[tuple[str | None, str | None, str, Label, str, float | None]]:
    """(key, source label, source text, (target label, inferred), target text, score) for one
    edition pair: from the rule's alignment when there is one, else from the two whole
    editions (an unlabelled target clause takes the label inferred for it)."""
    out: list[tuple[str | None, str | None, str, Label, str, float | None]] = []
    if ra is not None:
        for g in ra.groups:
            a = [m for m in g.members if m.edition == src.id and m.kind == "rule"]
            b = [m for m in g.members if m.edition == tgt.id and m.kind == "rule"]
            if a and b:
                score = min(m.score for m in b)
                out.append(
                    (
                        g.key,
                        a[0].label,
                        " ".join(m.text for m in a),
                        (b[0].label, bool(b[0].label and b[0].label_inferred)),
                        " ".join(m.text for m in b),
                        score,
                    )
                )
        return out
    from ..align import align_editions

    ea = align_editions(session, src.id, tgt.id)
    for p in ea.pairs:
        if p.a is None or p.b is None or p.a.kind != "rule" or p.b.kind != "rule":
            continue
        inferred = next(
            (e["value"] for e in p.evidence if e.get("feature") == "inferred-label"), None
        )
        if p.b.label:
            b_label: Label = (p.b.label, p.b.label_inferred)
        else:
            b_label = (inferred, inferred is not None)
        out.append((p.a.label, p.a.label, p.a.norm, b_label, p.b.norm, p.score))
    return out
