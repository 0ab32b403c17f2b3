"""The update job for a CAT tool: XLIFF 1.2 (OmegaT, memoQ, Trados) plus a TMX memory.

One <trans-unit> per clause to work on, from the update report:
- a new clause: its English as <source>, an empty <target state="new">;
- a changed clause: the new English as <source>, the current translation as <target
  state="needs-review-translation">, and the English word change in a <note>.
Rule labels, the editions and their dates go in as context (resname, <context-group>), so a
translator sees which rule a segment is. The clauses that need no work (unchanged and
renumbered) go out as a TMX translation memory beside the XLIFF, ready to pre-fill.
"""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from typing import Any

from .. import __version__
from ..text.xmlchars import XmlCleaner, code_point, forbidden_in_xml
from .tmx import TmxSide, TmxUnit, write_tmx
from .update import UpdateItem, UpdateReport
from .worddiff import condensed, summarize

XLIFF_NS = "urn:oasis:names:tc:xliff:document:1.2"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
# The statuses that make a translation unit, and the XLIFF state of its target.
STATES = {"new": "new", "changed": "needs-review-translation"}


def _q(tag: str) -> str:
    return f"{{{XLIFF_NS}}}{tag}"


def _name(item: UpdateItem) -> str:
    if item.kind == "glossary":
        return f"glossary: {item.term}"
    return item.label or f"{item.kind} of {item.parent}"


def _diff_note(item: UpdateItem, source_slug: str) -> str:
    if not item.english_diff:
        return item.gist or ""
    marked = "".join(
        op["a"]
        if op["op"] == "equal"
        else (f"[-{op['a']}-]" if op["a"] else "") + (f"{{+{op['b']}+}}" if op["b"] else "")
        for op in condensed(item.english_diff)
    )
    return f"English changed since {source_slug}: {summarize(item.english_diff)}\n{marked}"


def write_xliff(report: UpdateReport, cleaner: XmlCleaner | None = None) -> str:
    """The XLIFF 1.2 document of the work an update report asks for: well-formed XML 1.0
    whatever the texts hold (characters XML forbids become U+FFFD, counted in ``cleaner``,
    and a unit whose text lost some says which in a note)."""
    clean = cleaner if cleaner is not None else XmlCleaner()
    c = clean.clean
    ET.register_namespace("", XLIFF_NS)
    t, n, s = report.edition, report.reference, report.source.edition
    root = ET.Element(_q("xliff"), {"version": "1.2"})
    file = ET.SubElement(
        root,
        _q("file"),
        {
            "original": c(n.source),
            "source-language": "en",
            "target-language": c(t.language),
            "datatype": "plaintext",
            "tool-id": "mtgrules",
            "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "product-name": "Magic: The Gathering Comprehensive Rules",
            "product-version": c(n.date or n.slug),
        },
    )
    header = ET.SubElement(file, _q("header"))
    ET.SubElement(
        header,
        _q("tool"),
        {"tool-id": "mtgrules", "tool-name": "mtgrules", "tool-version": __version__},
    )
    note = ET.SubElement(header, _q("note"))
    counts = report.counts()
    note.text = c(
        f"Bring {t.slug} (made from {s.slug}, {report.source.how}) up to {n.slug}: "
        f"{counts['new']} new clauses to translate, {counts['changed']} to review. "
        f"{counts['removed']} removed and {counts['renumbered']} renumbered clauses are "
        "listed in the update report (mtgrules update)."
    )
    body = ET.SubElement(file, _q("body"))
    seen: dict[str, int] = {}
    for item in report.clauses:
        state = STATES.get(item.status)
        if state is None:
            continue
        name = _name(item)
        seen[name] = seen.get(name, 0) + 1
        # ids must be unique in a file; examples share their rule's name.
        unit_id = name if seen[name] == 1 else f"{name} ({seen[name]})"
        unit = ET.SubElement(
            body,
            _q("trans-unit"),
            {"id": c(unit_id), "resname": c(name), XML_SPACE: "preserve"},
        )
        source = ET.SubElement(unit, _q("source"), {XML_LANG: "en"})
        source.text = c(item.english)
        target = ET.SubElement(unit, _q("target"), {XML_LANG: c(t.language), "state": state})
        translation = item.translation if item.status == "changed" else ""
        target.text = c(translation)
        if item.status == "changed":
            diff_note = ET.SubElement(unit, _q("note"), {"from": "mtgrules", "priority": "1"})
            diff_note.text = c(_diff_note(item, s.slug))
        for side, text in (("English", item.english), ("translation", translation)):
            if bad := forbidden_in_xml(text or ""):
                lost = ET.SubElement(unit, _q("note"), {"from": "mtgrules"})
                lost.text = (
                    f"The {side} held characters that XML 1.0 forbids "
                    f"({', '.join(code_point(ch) for ch in bad)}): each is U+FFFD here."
                )
        if item.gap:
            gap_note = ET.SubElement(unit, _q("note"), {"from": "mtgrules"})
            gap_note.text = c(f"The translation lacked this clause already ({s.slug} had it).")
        if item.confidence == "direct":
            direct = ET.SubElement(unit, _q("note"), {"from": "mtgrules"})
            direct.text = c(
                f"Matched with {n.slug} directly ({s.slug} has no partner): check the pairing."
            )
        group = ET.SubElement(unit, _q("context-group"), {"name": "rule", "purpose": "location"})
        for context_type, value in (
            ("x-rule-label", item.label),
            ("x-previous-label", item.from_label if item.from_label != item.label else None),
            ("x-glossary-term", item.term),
            ("x-parent-rule", item.parent if not item.label else None),
            ("x-english-edition", f"{n.slug} ({n.date})" if n.date else n.slug),
            ("x-source-english-edition", f"{s.slug} ({s.date})" if s.date else s.slug),
            ("x-translation-edition", t.slug),
        ):
            if value:
                context = ET.SubElement(group, _q("context"), {"context-type": context_type})
                context.text = c(value)
    ET.indent(root, "  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def unchanged_memory(report: UpdateReport, cleaner: XmlCleaner | None = None) -> tuple[str, int]:
    """The pairs that need no work (unchanged and renumbered), as TMX; and their number."""
    t, n = report.edition, report.reference
    units = [
        TmxUnit(
            key=_name(item),
            source=TmxSide("en", item.english, item.label, n.slug, n.date, n.source),
            target=TmxSide(
                t.language,
                item.translation or "",
                item.translation_label or item.from_label,
                t.slug,
                t.date,
                t.source,
            ),
        )
        for item in report.clauses
        if item.status in ("unchanged", "renumbered") and item.translation
    ]
    return write_tmx(units, "en", cleaner), len(units)


def job_summary(report: UpdateReport) -> dict[str, Any]:
    counts = report.counts()
    return {"units": counts["new"] + counts["changed"], **counts}
