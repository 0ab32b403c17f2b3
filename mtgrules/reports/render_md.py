"""Markdown versions of the reports, for issues, wikis and pull requests.

Rule text is escaped for Markdown tables (pipes, newlines) and for inline HTML (< and &),
since most Markdown viewers pass raw HTML through.
"""

from __future__ import annotations

from typing import Any

from .common import (
    came_from,
    change_sides,
    clause_name,
    defect_lines,
    edition_gaps,
    shown_label,
    update_from_name,
    update_item_name,
    update_sections,
)
from .trace import ENDED, span_event, span_when
from .worddiff import condensed


def md(text: Any) -> str:
    s = "" if text is None else str(text)
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # Characters Markdown would read as formatting inside rule text.
    for ch in ("\\", "|", "*", "_", "`", "[", "]"):
        s = s.replace(ch, "\\" + ch)
    return s.replace("\n", " ")


def marked(ops: list[dict[str, str]]) -> str:
    """Word diff in Markdown: ~~removed~~ **added**."""
    out = []
    for op in ops:
        if op["op"] == "equal":
            out.append(md(op["a"]))
            continue
        if op["a"].strip():
            out.append(f"~~{md(op['a'].strip())}~~ ")
        if op["b"].strip():
            out.append(f"**{md(op['b'].strip())}** ")
    return "".join(out).strip()


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def _checks(checks: list[dict[str, Any]], names: dict[str, str]) -> list[str]:
    if not checks:
        return []
    rows = [
        [
            md(names.get(str(c["edition"]), c["edition"])),
            md(c.get("label") or c.get("key")),
            c["severity"],
            c["check"],
            md(c["message"]),
        ]
        for c in checks
    ]
    return [
        "",
        "## Checks",
        "",
        _table(["edition", "clause", "severity", "check", "message"], rows),
    ]


def render_rule_drift(report: dict[str, Any]) -> str:
    ref = str(report["reference"])
    eds = {str(e["id"]): e for e in report["editions"]}
    names = {k: e.get("slug") or k for k, e in eds.items()}
    headers = ["clause", *(md(names[k]) for k in eds)]
    rows = []
    for r in report["rows"]:
        cells = []
        for k in eds:
            v = r["cells"].get(k)
            star = "\\*" if k in (r.get("inferred") or ()) else ""  # inferred by the aligner
            if v is None:
                cells.append("**missing**")
            elif v != r["key"] and k != ref:
                cells.append(f"_{md(v)}_{star}")
            else:
                cells.append(md(v) + star)
        rows.append([f"`{r['key']}`", *cells])
    s = report["summary"]
    out = [
        f"# Coverage of rule {report['rule']}",
        "",
        f"Reference: **{md(names[ref])}**. Cells: the clause's label in each edition "
        "(_italic_: renumbered), or **missing**.",
        "",
        _table(headers, rows),
        "",
        "## What each edition lacks",
    ]
    for k, e, lacks, moved, texts in edition_gaps(report, eds, ref):
        out += ["", f"### {md(names[k])} ({e['language']})", ""]
        for key in lacks:
            out.append(f"- `{key}`: {md(texts.get(key))}")
        if moved:
            out.append(
                "- renumbered: "
                + ", ".join(
                    f"its `{shown_label(m['from'])}` is `{shown_label(m['to'])}`" for m in moved
                )
            )
    extra = report.get("extra_rows") or []
    if extra:
        out += ["", f"## Not in {md(names[ref])}", ""]
        for r in extra:
            holders = [md(names[k]) for k, v in r["cells"].items() if v is not None and k in names]
            out.append(f"- `{r['key']}` ({', '.join(holders)}): {md(r['text'])}")
    out += _checks(report["checks"], names)
    out += [
        "",
        f"{s['editions_lacking']} edition(s) lack {s['clauses_missing']} clauses; "
        f"{s['renumbered']} renumberings; checks: {s['errors']} errors, {s['warnings']} warnings.",
    ]
    return "\n".join(out) + "\n"


def render_edition_drift(report: dict[str, Any]) -> str:
    e, ref, s = report["edition"], report["reference"], report["summary"]
    out = [
        f"# {md(e['slug'])} against {md(ref['slug'])}",
        "",
        f"{s['matched']} clauses paired, {s['missing']} missing, {s['added']} added, "
        f"{s['renumbered']} renumbered; checks: {s['errors']} errors, {s['warnings']} warnings.",
    ]
    for title, items in (("Missing", report["missing"]), ("Only in this edition", report["added"])):
        out += ["", f"## {title} ({len(items)})", ""]
        out += [
            f"- `{md(clause_name(m.get('label'), m.get('kind'), term=m.get('term'), parent=m.get('parent')))}`: {md(m['text'])}"
            for m in items
        ]
    if report["renumbered"]:
        out += ["", "## Renumbered", ""]
        out += [
            f"- its `{shown_label(r['from'])}` is `{shown_label(r['to'])}`"
            for r in report["renumbered"]
        ]
    defects = defect_lines(report.get("defects"))
    if defects:
        out += ["", f"## Defects of {md(e['slug'])} ({len(defects)})", ""]
        out += [f"- {md(line)}" for line in defects]
    out += _checks(report["checks"], {str(e["id"]): e["slug"]})
    return "\n".join(out) + "\n"


def render_update(report: dict[str, Any]) -> str:
    t, n, src, s = report["edition"], report["reference"], report["source"], report["summary"]
    sections = update_sections(report)
    out = [
        f"# Bringing {md(t['slug'])} up to {md(n['slug'])}",
        "",
        f"Made from **{md(src['slug'])}** ({src['how']}): {md(src['why'])}",
        "",
        *(
            ["The glossary is not translated (the translation says it is left out).", ""]
            if report.get("glossary_omitted")
            else []
        ),
        _table(
            ["unchanged", "changed", "new", "renumbered", "removed", "errors", "warnings"],
            [
                [
                    s["unchanged"],
                    s["changed"],
                    s["new"],
                    s["renumbered"],
                    s["removed"],
                    s["errors"],
                    s["warnings"],
                ]
            ],
        ),
    ]
    from ..align.renumbering import summary_lines

    for line in summary_lines(report["renumbering"])[:1]:
        out += [
            "",
            f"{md(line)} in the English since {md(src['slug'])} (the {s['renumbered']} that "
            "kept their wording are listed as renumbered, the others as changed).",
        ]
    if s.get("direct"):
        out += [
            "",
            f"{s['direct']} clauses of the translation have no partner in {md(src['slug'])}; "
            f"they were matched with {md(n['slug'])} directly (lower confidence, marked ≈).",
        ]
    if sections["new"]:
        out += ["", f"## New: translate ({len(sections['new'])})", ""]
        for i in sections["new"]:
            gap = " *(the translation lacked it already)*" if i.get("gap") else ""
            out.append(f"- `{md(update_item_name(i))}`{gap}: {md(i['english'])}")
    if sections["changed"]:
        out += ["", f"## Changed in the English: review ({len(sections['changed'])})", ""]
        out.append(
            _table(
                ["clause", "English change", "current translation"],
                [
                    [
                        f"`{md(update_item_name(i))}`"
                        + (
                            f" (was `{i['from_label']}`)"
                            if i["from_label"] and i["from_label"] != i["label"]
                            else ""
                        )
                        + (" ≈" if i["confidence"] == "direct" else ""),
                        marked(condensed(i["english_diff"]))
                        if i.get("english_diff")
                        else md(i.get("gist")),
                        md(i["translation"]),
                    ]
                    for i in sections["changed"]
                ],
            )
        )
    if sections["renumbered"]:
        out += ["", f"## Renumbered ({len(sections['renumbered'])})", ""]
        out.append(
            ", ".join(
                f"`{md(update_from_name(i))}` → `{md(update_item_name(i))}`"
                for i in sections["renumbered"]
            )
        )
    if sections["removed"]:
        out += ["", f"## Removed from the English: delete ({len(sections['removed'])})", ""]
        out += [
            f"- `{md(update_item_name(i))}`: {md(i['translation'] or i['english'])}"
            for i in sections["removed"]
        ]
    d = report["defects"]
    if d["mislabels"] or d["gaps"] or d["untranslated"] or d["duplicate_labels"]:
        out += ["", "## The translation's own defects", ""]
        out += [
            f"- mislabel: its `{m['label']}` is `{m['expected']}` in {md(src['slug'])}"
            for m in d["mislabels"]
        ]
        out += [f"- duplicate label: `{lab}`" for lab in d["duplicate_labels"]]
        out += [
            f"- gap: it lacks `{md(clause_name(g.get('label'), 'glossary' if g.get('term') else 'rule', term=g.get('term')))}`"
            for g in d["gaps"]
        ]
        if d["untranslated"]:
            out.append("- still in English: " + ", ".join(f"`{lab}`" for lab in d["untranslated"]))
    out += _checks(report["checks"], {str(t["id"]): t["slug"]})
    return "\n".join(out) + "\n"


def render_diff(report: dict[str, Any]) -> str:
    a, b, s = report["a"], report["b"], report["summary"]
    scope = f" (rule {report['rule']})" if report.get("rule") else ""
    out = [
        f"# {md(a['slug'])} → {md(b['slug'])}{scope}",
        "",
        f"{s['changed']} reworded, {s['renumbered']} renumbered, {s['added']} added, "
        f"{s['removed']} removed, {s.get('notation', 0)} in notation only, "
        f"{s['unchanged']} unchanged.",
        "",
    ]
    from ..align.renumbering import summary_lines
    from .render_text import NOTATION_SHOWN, notation_labels

    numbering = summary_lines(report["renumbering"])
    if numbering:
        out += [f"**{numbering[0]}**", ""]
        out += [f"- {md(line)}" for line in numbering[1:]] + [""]

    notation = [c for c in report["changes"] if c["kind"] == "notation"]
    for c in report["changes"]:
        if c["kind"] == "notation" and len(notation) > NOTATION_SHOWN:
            continue
        old, new = change_sides(c)
        if c["kind"] == "renumbered":
            head = f"`{md(old)}` → `{md(new)}` renumbered"
        else:
            name = old if c["kind"] == "removed" else new
            head = f"`{md(name)}` {'reworded' if c['kind'] == 'changed' else c['kind']}"
            origin = came_from(c, a["slug"])
            if origin:
                head += f", {md(origin)}"
        if c.get("wording_changed") or c["kind"] == "notation":
            out.append(f"- {head}: {marked(c['words'])}")
        elif c["kind"] == "added":
            out.append(f"- {head}: **{md(c['b_text'])}**")
        elif c["kind"] == "removed":
            out.append(f"- {head}: ~~{md(c['a_text'])}~~")
        else:
            out.append(f"- {head}")
    if len(notation) > NOTATION_SHOWN:
        out += ["", f"Notation only ({len(notation)}): " + ", ".join(notation_labels(notation))]
    return "\n".join(out) + "\n"


def render_trace(report: dict[str, Any]) -> str:
    out = [f"# Trace of {report['clause']} (today {report['key']})", "", "## English", ""]
    rows = []
    for span in report["english"]:
        when = span_when(span, " – ")
        text = marked(span["words"]) if span.get("words") else md(span["text"])
        label = "" if span["event"] in ENDED else f"`{span['label'] or '(unnumbered)'}`"
        rows.append([when, label, span_event(span), text])
    out.append(_table(["editions", "label", "event", "text"], rows))
    if report["copies"]:
        out += ["", "## Undated English copies", ""]
        for u in report["copies"]:
            c = u["closest"]
            near = (
                f"closest to {c['from']} – {c['to']} ({u['similarity']:.0%})"
                if c
                else "close to no official edition"
            )
            out.append(f"- {md(u['edition']['slug'])} `{u['label'] or '(unnumbered)'}`: {near}")
    if report["translations"]:
        out += ["", "## Translations", ""]
        rows = [
            [
                md(t["edition"]["slug"]),
                t["language"],
                f"`{t['label'] or '(unnumbered)'}`"
                + ("\\*" if t["label"] and t["label_inferred"] else ""),
                md(t["text"]),
            ]
            for t in report["translations"]
        ]
        out.append(_table(["edition", "language", "label", "text"], rows))
    return "\n".join(out) + "\n"
