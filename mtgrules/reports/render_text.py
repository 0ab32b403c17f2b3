"""Terminal rendering of the reports: tables, word diffs marked like `git diff --word-diff`.

Colour only when asked (the CLI passes use_colour(): a tty and no NO_COLOR). Without colour,
changes read as [-removed-]{+added+}, which survives copy-paste and grep.
"""

from __future__ import annotations

from typing import Any

from ..render import bold, dim, table, wrap
from .common import edition_gaps, update_item_name, update_sections
from .worddiff import condensed

_RED, _GREEN, _RESET = "\x1b[31m", "\x1b[32m", "\x1b[0m"


def marked(ops: list[dict[str, str]], colour: bool) -> str:
    """A word diff as one string: old and new words marked in place."""
    out = []
    for op in ops:
        if op["op"] == "equal":
            out.append(op["a"])
            continue
        if op["a"]:
            out.append(f"{_RED}{op['a']}{_RESET}" if colour else f"[-{op['a']}-]")
        if op["b"]:
            out.append(f"{_GREEN}{op['b']}{_RESET}" if colour else f"{{+{op['b']}+}}")
    return "".join(out)


def _short(label: str | None, rule: str) -> str:
    """'107.3p' in rule 107.3 -> 'p'; other labels stay whole."""
    if label is None:
        return "-"
    if label.startswith("glossary"):
        return "gl"
    if label.startswith(rule) and len(label) > len(rule):
        return label[len(rule) :]
    return label


def _editions(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {str(e["id"]): e for e in report["editions"]}


def _slug(e: dict[str, Any]) -> str:
    return e.get("slug") or str(e["id"])


def _notes(report: dict[str, Any]) -> list[str]:
    return ["", *(f"Note: {n}" for n in report["notes"])] if report.get("notes") else []


def render_rule_drift(report: dict[str, Any], colour: bool = False) -> str:
    rule, ref = report["rule"], str(report["reference"])
    eds = _editions(report)
    rows = report["rows"]
    out = [
        bold(f"Coverage of rule {rule} against {_slug(eds[ref])} (reference)", colour),
        dim(
            "One row per edition, one column per clause of the reference. "
            "· same label, a letter = that edition's label for the clause, - missing, "
            "* label inferred by the aligner (the source has none).",
            colour,
        ),
        "",
    ]
    # Rows are editions here (the JSON has one row per clause): 28 editions do not fit
    # a terminal's width as columns, 15 clauses do.
    headers = ["edition", "lang", *(_short(r["key"], rule) or "·" for r in rows), "lacks"]
    headers[2] = rule if rows and rows[0]["key"] == rule else headers[2]
    body = []
    for eid, e in eds.items():
        cells = []
        for r in rows:
            v = r["cells"].get(eid)
            star = "*" if eid in (r.get("inferred") or ()) else ""
            if v is None:
                cells.append("-")
            elif v == r["key"]:
                cells.append("·" + star)
            else:
                cells.append(_short(v, rule) + star)
        lacks = "ref" if eid == ref else len(report["missing"].get(eid, []))
        body.append([_slug(e), e["language"], *cells, lacks])
    out.append(table(headers, body))

    for _eid, e, lacks, moved, texts in edition_gaps(report, eds, ref):
        out.append("")
        out.append(bold(f"{_slug(e)} [{e['language']}]", colour))
        if lacks:
            out.append(f"  lacks {len(lacks)}: {', '.join(lacks)}")
            if e["language"] != "en":
                # What the translator has to translate: the reference wording.
                for key in lacks:
                    out.append(f"    {key}")
                    out.append(wrap(texts.get(key, ""), "      "))
        if moved:
            out.append(
                "  renumbered: "
                + ", ".join(
                    f"its {m['from']} is {m['to']}" + ("*" if m.get("inferred") else "")
                    for m in moved
                )
            )
    extra = report.get("extra_rows") or []
    if extra:
        # Clauses some editions have and the reference does not (newer ones, against an old
        # reference; or text a translation added).
        out += ["", bold(f"Not in {_slug(eds[ref])} ({len(extra)})", colour)]
        for r in extra:
            holders = [_slug(eds[k]) for k, v in r["cells"].items() if v is not None and k in eds]
            out.append(
                f"  {r['key'] or '?'}: in {len(holders)} edition{'' if len(holders) == 1 else 's'} ({', '.join(holders[:4])}"
                + (", ..." if len(holders) > 4 else "")
                + ")"
            )
    out += _checks_block(report["checks"], eds, colour)
    s = report["summary"]
    out.append("")
    out.append(
        f"{s['editions_lacking']} edition(s) lack {s['clauses_missing']} clauses in all; "
        f"{s['renumbered']} renumberings; checks: {s['errors']} errors, {s['warnings']} warnings."
    )
    out += _notes(report)
    return "\n".join(out)


def _checks_block(
    checks: list[dict[str, Any]], eds: dict[str, dict[str, Any]], colour: bool
) -> list[str]:
    if not checks:
        return []
    rows = []
    for c in checks:
        e = eds.get(str(c["edition"]))
        rows.append(
            [
                _slug(e) if e else c["edition"],
                c.get("label") or c.get("key") or "",
                c["severity"],
                c["check"],
                c["message"],
            ]
        )
    return [
        "",
        bold("Checks", colour),
        table(["edition", "clause", "severity", "check", "message"], rows),
    ]


def render_edition_drift(report: dict[str, Any], colour: bool = False) -> str:
    e, ref = report["edition"], report["reference"]
    s = report["summary"]
    out = [
        bold(f"{e['slug']} against {ref['slug']}", colour),
        f"{s['matched']} clauses paired, {s['missing']} missing, {s['added']} added, "
        f"{s['renumbered']} renumbered; checks: {s['errors']} errors, {s['warnings']} warnings.",
    ]
    if report["missing"]:
        out += ["", bold(f"Missing from {e['slug']} ({len(report['missing'])})", colour)]
        for m in report["missing"]:
            out.append(f"  {m['label'] or '(' + m['kind'] + ' of ' + str(m['parent']) + ')'}")
            out.append(wrap(m["text"], "      "))
    if report["added"]:
        out += ["", bold(f"Only in {e['slug']} ({len(report['added'])})", colour)]
        for m in report["added"]:
            out.append(f"  {m['label'] or '(' + m['kind'] + ' of ' + str(m['parent']) + ')'}")
            out.append(wrap(m["text"], "      "))
    if report["renumbered"]:
        out += ["", bold("Renumbered", colour)]
        out.append("  " + ", ".join(f"its {r['from']} is {r['to']}" for r in report["renumbered"]))
    eds = {str(e["id"]): e}
    out += _checks_block(report["checks"], eds, colour)
    out += _notes(report)
    return "\n".join(out)


def render_update(report: dict[str, Any], colour: bool = False) -> str:
    t, n, src, s = report["edition"], report["reference"], report["source"], report["summary"]
    out = [
        bold(f"Bringing {t['slug']} up to {n['slug']}", colour),
        f"Made from {src['slug']} ({src['how']}: {src['why'].rstrip('.')}).",
        *(
            [
                f"It covers {report['scope']['covers']}: brought up to date on that part of {n['slug']}."
            ]
            if report.get("scope") and not report["scope"]["whole"]
            else []
        ),
        f"{s['unchanged']} unchanged, {s['changed']} changed, {s['new']} new, "
        f"{s['renumbered']} renumbered, {s['removed']} removed; "
        f"checks: {s['errors']} errors, {s['warnings']} warnings.",
    ]
    if s.get("direct"):
        out.append(
            f"{s['direct']} clauses of the translation have no partner in {src['slug']}: matched "
            f"with {n['slug']} directly (lower confidence, marked ~)."
        )
    sections = update_sections(report)
    name = update_item_name
    new = sections["new"]
    if new:
        out += ["", bold(f"New: translate these ({len(new)})", colour)]
        for i in new:
            gap = "  [the translation lacked it already]" if i.get("gap") else ""
            out.append(f"  {name(i)}{gap}")
            out.append(wrap(i["english"], "      "))
    changed_items = sections["changed"]
    if changed_items:
        out += [
            "",
            bold(f"Changed in the English since {src['slug']} ({len(changed_items)})", colour),
        ]
        for i in changed_items:
            moved = (
                f" (was {i['from_label']})"
                if i["from_label"] and i["from_label"] != i["label"]
                else ""
            )
            mark = " ~" if i["confidence"] == "direct" else ""
            out.append(f"  {name(i)}{moved}{mark}: {i.get('gist') or ''}")
            if i.get("english_diff"):
                out.append(wrap(marked(condensed(i["english_diff"]), colour), "      "))
            out.append(wrap("now: " + (i["translation"] or ""), "      "))
    renumbered = sections["renumbered"]
    if renumbered:
        out += ["", bold(f"Renumbered ({len(renumbered)})", colour)]
        out.append(wrap(", ".join(f"{i['from_label']} -> {i['label']}" for i in renumbered), "  "))
    if report["removed"]:
        out += ["", bold(f"Removed from the English: delete ({len(report['removed'])})", colour)]
        for i in report["removed"]:
            out.append(f"  {name(i)}")
            out.append(wrap(i["translation"] or i["english"], "      "))
    d = report["defects"]
    if d["mislabels"] or d["gaps"] or d["untranslated"]:
        out += ["", bold("The translation's own defects", colour)]
        for m in d["mislabels"]:
            out.append(f"  mislabel: its {m['label']} is {m['expected']} in {src['slug']}")
        for g in d["gaps"]:
            out.append(f"  gap: it lacks {g['label'] or 'glossary: ' + str(g['term'])}")
        if d["untranslated"]:
            out.append("  still in English: " + ", ".join(d["untranslated"]))
    out += _checks_block(report["checks"], {str(t["id"]): t}, colour)
    return "\n".join(out)


def render_diff(report: dict[str, Any], colour: bool = False) -> str:
    a, b, s = report["a"], report["b"], report["summary"]
    scope = f" (rule {report['rule']})" if report.get("rule") else ""
    out = [
        bold(f"{a['slug']} -> {b['slug']}{scope}", colour),
        f"{s['changed']} reworded, {s['moved']} moved, {s['added']} added, "
        f"{s['removed']} removed, {s.get('notation', 0)} in notation only, "
        f"{s['unchanged']} unchanged.",
    ]
    marks = {"changed": "~", "moved": ">", "added": "+", "removed": "-"}
    notation = [c for c in report["changes"] if c["kind"] == "notation"]
    for c in report["changes"]:
        if c["kind"] == "notation" and len(notation) > NOTATION_SHOWN:
            continue
        mark = marks.get(c["kind"], "=")
        if c["kind"] == "moved":
            head = f"{c['from']} -> {c['to']}  moved"
            if c.get("wording_changed"):
                head += " and reworded"
        else:
            label = c["to"] or c["from"] or f"({c['clause_kind']} of {c['parent']})"
            head = f"{label}  {'reworded' if c['kind'] == 'changed' else c['kind']}"
        out.append("")
        out.append(bold(f"{mark} {head}", colour))
        if c.get("words") is not None and (c.get("wording_changed") or c["kind"] == "notation"):
            out.append(wrap(marked(c["words"], colour), "    "))
        elif c["kind"] == "added":
            out.append(wrap(c["b_text"], "    "))
        elif c["kind"] == "removed":
            out.append(wrap(c["a_text"], "    "))
    if len(notation) > NOTATION_SHOWN:
        out += ["", bold(f"= notation only ({len(notation)}; --format json has each):", colour)]
        out.append(wrap(", ".join(notation_labels(notation)), "    "))
    if not report["changes"]:
        out.append("\nNo differences.")
    return "\n".join(out)


# A diff between two printings lists hundreds of clauses whose only change is "'" for "’":
# past this many, they are named in one paragraph instead of shown word by word.
NOTATION_SHOWN = 10


def notation_labels(changes: list[dict[str, Any]]) -> list[str]:
    return [c["to"] or c["from"] or f"({c['clause_kind']})" for c in changes]


def render_trace(report: dict[str, Any], colour: bool = False) -> str:
    out = [bold(f"Trace of {report['clause']} (today {report['key']})", colour), ""]
    out.append(bold("English, official editions", colour))
    for span in report["english"]:
        when = span["from"] if span["from"] == span["to"] else f"{span['from']}..{span['to']}"
        out.append(f"  {when}  {span['label'] or '-'}  {span['event']}")
        if not span["text"]:
            continue
        if span.get("words"):
            out.append(wrap(marked(span["words"], colour), "      "))
        else:
            out.append(wrap(span["text"], "      "))
    if report["copies"]:
        out += ["", bold("English copies (scraped pages)", colour)]
        for u in report["copies"]:
            c = u["closest"]
            near = f"closest to {c['from']}..{c['to']} ({u['similarity']:.0%})" if c else ""
            out.append(f"  {u['edition']['slug']}  {u['label'] or '-'}  {near}")
            if u.get("words"):
                out.append(wrap(marked(u["words"], colour), "      "))
    if report["translations"]:
        out += ["", bold("Translations", colour)]
        for t in report["translations"]:
            e = t["edition"]
            label = (t["label"] or "-") + ("*" if t["label_inferred"] else "")
            extra = f"  {t['event']}" if t.get("event") else ""
            out.append(f"  {e['slug']}  [{t['language']}]  {label}{extra}")
            out.append(wrap(t["text"], "      "))
    return "\n".join(out)
