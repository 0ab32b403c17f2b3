"""One self-contained HTML page per report: no script, no network, every rule text escaped.

Rule text comes from scraped web pages and must never become markup: everything from the
store goes through ``esc``. The page also carries a Content-Security-Policy that forbids
scripts and remote loads, so an escaping slip still could not run code or phone home.
"""

from __future__ import annotations

import html
from typing import Any

from .. import __version__
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
from .trace import span_event, span_when
from .worddiff import condensed

_CSS = """
:root { --ins: #c8f7c5; --del: #ffd0d0; --miss: #ffe9a8; --moved: #dbe8ff; --ink: #1d1d1f; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC",
       sans-serif; color: var(--ink); margin: 1.5rem auto; max-width: 1400px; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; } h2 { margin-top: 2rem; font-size: 1.2rem; }
.meta, .legend { color: #555; font-size: .9rem; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #ccc; padding: .25rem .45rem; vertical-align: top; text-align: left; }
th { background: #f3f3f3; }
.matrix-wrap { overflow-x: auto; }
table.matrix td, table.matrix th { font-size: .75rem; white-space: nowrap; text-align: center;
                                   padding: .15rem .3rem; }
table.matrix th.ed { writing-mode: vertical-rl; transform: rotate(180deg); }
table.matrix th.key { text-align: left; }
td.same { background: #f6fff6; } td.missing { background: var(--miss); font-weight: 600; }
td.moved { background: var(--moved); font-weight: 600; } td.ref { background: #eee; }
table.sbs { width: 100%; table-layout: fixed; } table.sbs td { width: 50%; }
ins { background: var(--ins); text-decoration: none; }
del { background: var(--del); text-decoration: line-through; }
.sev-error { color: #a00; font-weight: 600; } .sev-warning { color: #8a5a00; }
.label { font-family: ui-monospace, monospace; white-space: nowrap; }
.text { white-space: pre-wrap; }
details { margin: .4rem 0; } summary { cursor: pointer; font-weight: 600; }
"""


def esc(value: Any) -> str:
    """Escape anything for HTML text and attributes (quotes too)."""
    return html.escape("" if value is None else str(value), quote=True)


def page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{_CSS}</style></head><body>\n"
        f"<h1>{esc(title)}</h1>\n"
        f'<p class="meta">mtgrules {esc(__version__)}: no script, works offline.</p>\n'
        f"{body}\n</body></html>\n"
    )


def diff_sides(ops: list[dict[str, str]]) -> tuple[str, str]:
    """The old and new texts, each with its own changes marked (<del> left, <ins> right)."""
    left, right = [], []
    for op in ops:
        if op["op"] == "equal":
            left.append(esc(op["a"]))
            right.append(esc(op["b"]))
            continue
        if op["a"]:
            left.append(f"<del>{esc(op['a'])}</del>")
        if op["b"]:
            right.append(f"<ins>{esc(op['b'])}</ins>")
    return "".join(left), "".join(right)


def inline_diff(ops: list[dict[str, str]]) -> str:
    out = []
    for op in ops:
        if op["op"] == "equal":
            out.append(esc(op["a"]))
            continue
        if op["a"]:
            out.append(f"<del>{esc(op['a'])}</del>")
        if op["b"]:
            out.append(f"<ins>{esc(op['b'])}</ins>")
    return "".join(out)


def _checks_table(checks: list[dict[str, Any]], names: dict[str, str]) -> str:
    if not checks:
        return "<p>No check found anything.</p>"
    rows = "".join(
        f"<tr><td>{esc(names.get(str(c['edition']), c['edition']))}</td>"
        f'<td class="label">{esc(c.get("label") or c.get("key"))}</td>'
        f'<td class="sev-{esc(c["severity"])}">{esc(c["severity"])}</td>'
        f"<td>{esc(c['check'])}</td><td>{esc(c['message'])}</td></tr>"
        for c in checks
    )
    return (
        '<table id="checks-table"><thead><tr><th>edition</th><th>clause</th><th>severity</th>'
        f"<th>check</th><th>message</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def render_rule_drift(report: dict[str, Any]) -> str:
    from .worddiff import word_diff

    rule, ref = report["rule"], str(report["reference"])
    eds = {str(e["id"]): e for e in report["editions"]}
    names = {k: e.get("slug") or k for k, e in eds.items()}
    head = "".join(
        f'<th class="ed" title="{esc(e.get("source"))}">{esc(names[k])}</th>'
        for k, e in eds.items()
    )
    body_rows = []
    for r in report["rows"]:
        cells = []
        for k in eds:
            v = r["cells"].get(k)
            star = (
                '<span title="label inferred by the aligner">*</span>'
                if k in (r.get("inferred") or ())
                else ""
            )
            if k == ref:
                cells.append(f'<td class="ref">{esc(v)}</td>')
            elif v is None:
                cells.append('<td class="missing" title="missing">missing</td>')
            elif v == r["key"]:
                cells.append(f'<td class="same">{esc(v)}{star}</td>')
            else:
                cells.append(f'<td class="moved" title="renumbered">{esc(v)}{star}</td>')
        body_rows.append(f'<tr><th class="key label">{esc(r["key"])}</th>{"".join(cells)}</tr>')
    s = report["summary"]
    parts = [
        f'<p class="legend">Reference: <b>{esc(names[ref])}</b>. One row per clause of the '
        "reference, one column per edition; a cell shows the clause's label in that edition "
        "(blue: renumbered), or <b>missing</b> (yellow).</p>",
        f"<p>{esc(s['editions_lacking'])} edition(s) lack {esc(s['clauses_missing'])} clauses; "
        f"{esc(s['renumbered'])} renumberings; checks: {esc(s['errors'])} errors, "
        f"{esc(s['warnings'])} warnings.</p>",
        '<h2>Coverage matrix</h2><div class="matrix-wrap"><table class="matrix" id="matrix">'
        f'<thead><tr><th class="key">clause</th>{head}</tr></thead>'
        f"<tbody>{''.join(body_rows)}</tbody></table></div>",
        "<h2>What each edition lacks</h2>",
    ]
    for k, e, lacks, moved, texts in edition_gaps(report, eds, ref):
        items = "".join(
            f'<li><span class="label">{esc(key)}</span>: <span class="text">'
            f"{esc(texts.get(key))}</span></li>"
            for key in lacks
        )
        moves = ", ".join(
            f'its <span class="label">{esc(m["from"])}</span> is '
            f'<span class="label">{esc(m["to"])}</span>'
            for m in moved
        )
        parts.append(
            f'<details class="lacks" data-edition="{esc(k)}"><summary>{esc(names[k])} '
            f"({esc(e['language'])}): lacks {len(lacks)}</summary>"
            + (f"<ul>{items}</ul>" if items else "")
            + (f"<p>Renumbered: {moves}</p>" if moves else "")
            + "</details>"
        )
    extra = report.get("extra_rows") or []
    if extra:
        items = "".join(
            f'<li><span class="label">{esc(r["key"])}</span> (in '
            + esc(
                ", ".join(names[k] for k, v in r["cells"].items() if v is not None and k in names)
            )
            + f'): <span class="text">{esc(r["text"])}</span></li>'
            for r in extra
        )
        parts.append(f"<h2>Not in {esc(names[ref])}</h2><ul>{items}</ul>")
    parts.append("<h2>Checks</h2>" + _checks_table(report["checks"], names))
    # Side by side: the reference and each edition's own text, changes marked when both
    # are English (a word diff across languages would mark everything).
    parts.append("<h2>Side by side</h2>")
    ref_lang = eds[ref]["language"]
    for k, e in eds.items():
        if k == ref:
            continue
        rows = []
        for r in report["rows"]:
            own = r.get("texts", {}).get(k)
            ref_text = r["text"]
            if own is None:
                left, right = esc(ref_text), '<i class="missing">missing</i>'
            elif e["language"] == ref_lang:
                # The edition is the "before", the reference the "after": what the
                # reference added is <ins>, what the edition says that it dropped is <del>.
                right, left = diff_sides(word_diff(own, ref_text))
            else:
                left, right = esc(ref_text), esc(own)
            label = r["cells"].get(k) or ""
            rows.append(
                f'<tr><td><span class="label">{esc(r["key"])}</span> <span class="text">{left}'
                f'</span></td><td><span class="label">{esc(label)}</span> '
                f'<span class="text">{right}</span></td></tr>'
            )
        parts.append(
            f'<details class="sbs" data-edition="{esc(k)}"'
            + (" open" if e["language"] != ref_lang else "")
            + f"><summary>{esc(names[ref])} | {esc(names[k])}</summary>"
            f'<table class="sbs"><thead><tr><th>{esc(names[ref])}</th><th>{esc(names[k])}</th>'
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table></details>"
        )
    return page(f"Coverage of rule {rule}", "\n".join(parts))


def render_edition_drift(report: dict[str, Any]) -> str:
    e, ref, s = report["edition"], report["reference"], report["summary"]
    names = {str(e["id"]): e["slug"]}

    def clause_list(items: list[dict[str, Any]]) -> str:
        return (
            "<ul>"
            + "".join(
                f'<li><span class="label">{esc(clause_name(m.get("label"), m.get("kind"), term=m.get("term"), parent=m.get("parent")))}'
                f'</span>: <span class="text">{esc(m["text"])}</span></li>'
                for m in items
            )
            + "</ul>"
        )

    parts = [
        f"<p>{esc(s['matched'])} clauses paired, {esc(s['missing'])} missing, "
        f"{esc(s['added'])} added, {esc(s['renumbered'])} renumbered; checks: "
        f"{esc(s['errors'])} errors, {esc(s['warnings'])} warnings.</p>",
        f"<h2>Missing from {esc(e['slug'])}</h2>" + clause_list(report["missing"]),
        f"<h2>Only in {esc(e['slug'])}</h2>" + clause_list(report["added"]),
        "<h2>Renumbered</h2><p>"
        + ", ".join(
            f"its {esc(shown_label(r['from']))} is {esc(shown_label(r['to']))}"
            for r in report["renumbered"]
        )
        + "</p>",
        "<h2>Checks</h2>" + _checks_table(report["checks"], names),
    ]
    defects = defect_lines(report.get("defects"))
    if defects:
        parts.insert(
            3,
            f"<h2>Defects of {esc(e['slug'])}</h2><ul>"
            + "".join(f"<li>{esc(line)}</li>" for line in defects)
            + "</ul>",
        )
    return page(f"{e['slug']} against {ref['slug']}", "\n".join(parts))


def render_update(report: dict[str, Any]) -> str:
    t, n, src, s = report["edition"], report["reference"], report["source"], report["summary"]
    sections = update_sections(report)
    lang = esc(t["language"])

    def name(i: dict[str, Any]) -> str:
        label = esc(update_item_name(i))
        if i.get("from_label") and i["from_label"] != i.get("label"):
            label += f" (was {esc(i['from_label'])})"
        if i.get("confidence") == "direct":
            label += ' <span title="matched with the new English directly: check it">≈</span>'
        return f'<span class="label">{label}</span>'

    counts = "".join(
        f"<td>{esc(s[k])}</td>" for k in ("unchanged", "changed", "new", "renumbered", "removed")
    )
    links = " · ".join(
        f'<a href="#{key}">{esc(title)} ({len(sections[key])})</a>'
        for key, title in (
            ("new", "new"),
            ("changed", "changed"),
            ("renumbered", "renumbered"),
            ("removed", "removed"),
        )
    )
    parts = [
        f'<nav aria-label="sections">{links} · <a href="#defects">defects</a></nav>',
        f"<p>Made from <strong>{esc(src['slug'])}</strong> ({esc(src['how'])}): "
        f"{esc(src['why'])}</p>",
        *(
            ["<p>The glossary is not translated (the translation says it is left out).</p>"]
            if report.get("glossary_omitted")
            else []
        ),
        '<table id="counts"><thead><tr><th>unchanged</th><th>changed</th><th>new</th>'
        f"<th>renumbered</th><th>removed</th></tr></thead><tbody><tr>{counts}</tr></tbody></table>",
        f"<p>Checks: {esc(s['errors'])} errors, {esc(s['warnings'])} warnings.</p>",
    ]
    from ..align.renumbering import summary_lines

    for line in summary_lines(report["renumbering"])[:1]:
        parts.append(
            f'<p id="renumbering">{esc(line)} in the English since {esc(src["slug"])} (the '
            f"{esc(s['renumbered'])} that kept their wording are listed as renumbered, the "
            "others as changed).</p>"
        )
    if s.get("direct"):
        parts.append(
            f"<p>{esc(s['direct'])} clauses of the translation have no partner in "
            f"{esc(src['slug'])}: matched with {esc(n['slug'])} directly, marked ≈ (lower "
            "confidence: check them).</p>"
        )
    rows = "".join(
        f"<tr><td>{name(i)}{' <em>(already missing)</em>' if i.get('gap') else ''}</td>"
        f'<td class="text">{esc(i["english"])}</td></tr>'
        for i in sections["new"]
    )
    parts.append(
        f'<h2 id="new">New: translate ({len(sections["new"])})</h2>'
        '<table class="sbs"><thead><tr><th style="width:12em">clause</th><th>English</th></tr>'
        f"</thead><tbody>{rows}</tbody></table>"
    )
    rows = "".join(
        f"<tr><td>{name(i)}</td>"
        f'<td class="text">{inline_diff(condensed(i["english_diff"])) if i.get("english_diff") else esc(i.get("gist"))}'
        f"<details><summary>whole English</summary>{esc(i['english'])}</details></td>"
        f'<td class="text" lang="{lang}">{esc(i["translation"])}</td></tr>'
        for i in sections["changed"]
    )
    parts.append(
        f'<h2 id="changed">Changed in the English: review ({len(sections["changed"])})</h2>'
        '<table class="sbs"><thead><tr><th style="width:12em">clause</th>'
        f"<th>English change since {esc(src['slug'])}</th><th>current translation</th></tr>"
        f"</thead><tbody>{rows}</tbody></table>"
    )
    rows = "".join(
        f'<tr><td class="label">{esc(update_from_name(i))}</td><td class="label">{esc(update_item_name(i))}</td></tr>'
        for i in sections["renumbered"]
    )
    parts.append(
        f'<h2 id="renumbered">Renumbered ({len(sections["renumbered"])})</h2>'
        f"<table><thead><tr><th>old label</th><th>new label</th></tr></thead><tbody>{rows}</tbody></table>"
    )
    rows = "".join(
        f"<tr><td>{name(i)}</td>"
        f'<td class="text" lang="{lang}">{esc(i["translation"] or "")}</td>'
        f'<td class="text">{esc(i["english"])}</td></tr>'
        for i in sections["removed"]
    )
    parts.append(
        f'<h2 id="removed">Removed from the English: delete ({len(sections["removed"])})</h2>'
        '<table class="sbs"><thead><tr><th style="width:12em">clause</th><th>translation</th>'
        f"<th>English it translated</th></tr></thead><tbody>{rows}</tbody></table>"
    )
    d = report["defects"]
    items = [
        f'<li>mislabel: its <span class="label">{esc(m["label"])}</span> is '
        f'<span class="label">{esc(m["expected"])}</span> in {esc(src["slug"])}</li>'
        for m in d["mislabels"]
    ]
    items += [
        f'<li>duplicate label: <span class="label">{esc(lab)}</span></li>'
        for lab in d["duplicate_labels"]
    ]
    items += [
        f'<li>gap: it lacks <span class="label">{esc(clause_name(g.get("label"), "glossary" if g.get("term") else "rule", term=g.get("term")))}</span></li>'
        for g in d["gaps"]
    ]
    if d["untranslated"]:
        items.append("<li>still in English: " + esc(", ".join(d["untranslated"])) + "</li>")
    parts.append(
        '<h2 id="defects">The translation\'s own defects</h2>'
        + (f"<ul>{''.join(items)}</ul>" if items else "<p>Nothing found.</p>")
    )
    parts.append("<h2>Checks</h2>" + _checks_table(report["checks"], {str(t["id"]): t["slug"]}))
    return page(f"Bringing {t['slug']} up to {n['slug']}", "\n".join(parts))


def render_diff(report: dict[str, Any]) -> str:
    a, b, s = report["a"], report["b"], report["summary"]
    from ..align.renumbering import summary_lines
    from .render_text import NOTATION_SHOWN, notation_labels

    rows = []
    notation = [c for c in report["changes"] if c["kind"] == "notation"]
    for c in report["changes"]:
        if c["kind"] == "notation" and len(notation) > NOTATION_SHOWN:
            continue
        if c.get("words") is not None:
            left, right = diff_sides(c["words"])
        elif c["kind"] == "added":
            left, right = esc(came_from(c, a["slug"]) or ""), f"<ins>{esc(c['b_text'])}</ins>"
        else:
            left, right = f"<del>{esc(c['a_text'])}</del>", ""
        old, new = change_sides(c)
        shown = {"changed": "reworded"}.get(c["kind"], c["kind"])
        rows.append(
            f'<tr class="change {esc(c["kind"])}"><td class="label">{esc(shown)}</td>'
            f'<td><span class="label">{esc(old if c["kind"] != "added" else "")}</span> <span class="text">{left}</span></td>'
            f'<td><span class="label">{esc(new if c["kind"] != "removed" else "")}</span> <span class="text">{right}</span></td></tr>'
        )
    scope = f", rule {report['rule']}" if report.get("rule") else ""
    body = (
        f"<p>{esc(s['changed'])} reworded, {esc(s['renumbered'])} renumbered, "
        f"{esc(s['added'])} added, "
        f"{esc(s['removed'])} removed, {esc(s.get('notation', 0))} in notation only, "
        f"{esc(s['unchanged'])} unchanged.</p>"
        + _renumbering_html(summary_lines(report["renumbering"]))
        + '<table class="sbs" id="diff"><thead><tr><th style="width:7em">change</th>'
        f"<th>{esc(a['slug'])}</th><th>{esc(b['slug'])}</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    if len(notation) > NOTATION_SHOWN:
        body += (
            f"<p>Notation only ({len(notation)}): {esc(', '.join(notation_labels(notation)))}</p>"
        )
    return page(f"{a['slug']} → {b['slug']}{scope}", body)


def _renumbering_html(lines: list[str]) -> str:
    if not lines:
        return ""
    items = "".join(f"<li>{esc(line)}</li>" for line in lines[1:])
    return f'<p id="renumbering"><strong>{esc(lines[0])}</strong></p><ul>{items}</ul>'


def render_trace(report: dict[str, Any]) -> str:
    rows = []
    for span in report["english"]:
        when = span_when(span, " – ")
        text = inline_diff(span["words"]) if span.get("words") else esc(span["text"])
        rows.append(
            f'<tr><td>{esc(when)}</td><td class="label">{esc(span["label"])}</td>'
            f'<td>{esc(span_event(span))}</td><td class="text">{text}</td></tr>'
        )
    parts = [
        "<h2>English, official editions</h2>"
        '<table id="timeline"><thead><tr><th>editions</th><th>label</th><th>event</th>'
        f"<th>text (changes against the previous wording)</th></tr></thead><tbody>{''.join(rows)}"
        "</tbody></table>"
    ]
    if report["copies"]:
        items = "".join(
            f'<tr><td>{esc(u["edition"]["slug"])}</td><td class="label">{esc(u["label"])}</td>'
            f"<td>{esc((u['closest'] or {}).get('from'))} – {esc((u['closest'] or {}).get('to'))}"
            f" ({esc(round(u['similarity'] * 100))}%)</td>"
            f'<td class="text">{inline_diff(u["words"]) if u.get("words") else esc(u["text"])}'
            "</td></tr>"
            for u in report["copies"]
        )
        parts.append(
            "<h2>English copies (scraped pages)</h2><table><thead><tr><th>copy</th><th>label</th>"
            f"<th>closest official wording</th><th>text</th></tr></thead><tbody>{items}</tbody></table>"
        )
    if report["translations"]:
        items = "".join(
            f"<tr><td>{esc(t['edition']['slug'])}</td><td>{esc(t['language'])}</td>"
            f'<td class="label">{esc(t["label"])}{"*" if t["label_inferred"] else ""}</td>'
            f'<td class="text" lang="{esc(t["language"])}">{esc(t["text"])}</td></tr>'
            for t in report["translations"]
        )
        parts.append(
            "<h2>Translations</h2><table><thead><tr><th>edition</th><th>language</th>"
            f"<th>label</th><th>text</th></tr></thead><tbody>{items}</tbody></table>"
        )
    return page(f"Trace of {report['clause']}", "\n".join(parts))
