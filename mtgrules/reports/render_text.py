"""Terminal rendering of the reports: tables fitted to the width, word diffs marked.

Every renderer takes the report's JSON form, its strings already made visible by the
terminal sanitiser (render_report does it), and the width to lay out in (cli.py passes
render.output_width(): the terminal's, $COLUMNS, else 80).

Word diffs: in colour on a terminal (red removed, green added; cli.py passes use_colour():
a tty and no NO_COLOR). Otherwise the changes read as ⟦-removed-⟧⟦+added+⟧: brackets that
occur in no edition of the rules (tests/test_terminal.py checks every edition of the corpus
and of the archive), unlike git's [-…-]{+…+}, which collide with loyalty costs such as [-X].
"""

from __future__ import annotations

from typing import Any

from ..align.renumbering import summary_lines
from ..render import bold, dim, table, wrap
from ..text.width import wrap_lines
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
from .worddiff import condensed, units

_RED, _GREEN, _RESET = "\x1b[31m", "\x1b[32m", "\x1b[0m"
# The markers of a word diff without colour. Each pair is two characters that occur in no
# edition of the Comprehensive Rules (see the module docstring).
DELETED = ("⟦-", "-⟧")
INSERTED = ("⟦+", "+⟧")
WIDTH = 80


def marked(ops: list[dict[str, str]], colour: bool) -> str:
    """A word diff as one string: old and new words marked in place."""
    out = []
    for op in ops:
        if op["op"] == "equal":
            out.append(op["a"])
            continue
        if op["a"]:
            out.append(f"{_RED}{op['a']}{_RESET}" if colour else DELETED[0] + op["a"] + DELETED[1])
        if op["b"]:
            out.append(
                f"{_GREEN}{op['b']}{_RESET}" if colour else INSERTED[0] + op["b"] + INSERTED[1]
            )
    return "".join(out)


def diff_legend(colour: bool) -> str:
    if colour:
        return f"Word changes: {_RED}removed{_RESET} {_GREEN}added{_RESET}."
    return f"Word changes: {DELETED[0]}removed{DELETED[1]} {INSERTED[0]}added{INSERTED[1]}."


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


def _notes(report: dict[str, Any], width: int) -> list[str]:
    if not report.get("notes"):
        return []
    return [
        "",
        *(line for n in report["notes"] for line in wrap_lines(f"Note: {n}", width, "", "  ")),
    ]


def _list(head: str, items: list[str], width: int, indent: str = "  ") -> list[str]:
    """A long list as a wrapped paragraph: "head: a, b, c" over as many lines as needed."""
    return wrap_lines(head + ", ".join(items), width, indent, indent + "  ")


def render_rule_drift(report: dict[str, Any], colour: bool = False, width: int = WIDTH) -> str:
    rule, ref = report["rule"], str(report["reference"])
    eds = _editions(report)
    rows = report["rows"]
    out = [
        bold(f"Coverage of rule {rule} against {_slug(eds[ref])} (reference)", colour),
        *(
            dim(line, colour)
            for line in wrap_lines(
                "One row per edition, one column per clause of the reference. "
                "· same label, a letter = that edition's label for the clause, - missing, "
                "* label inferred by the aligner (the source has none).",
                width,
            )
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
    # One space between columns: a column per clause, of one or two characters each.
    out.append(table(headers, body, width, optional=("lang",), gap=1))

    for _eid, e, lacks, moved, texts in edition_gaps(report, eds, ref):
        out.append("")
        out.append(bold(f"{_slug(e)} [{e['language']}]", colour))
        if lacks:
            out += _list(f"lacks {len(lacks)}: ", lacks, width)
            if e["language"] != "en":
                # What the translator has to translate: the reference wording.
                for key in lacks:
                    out.append(f"    {key}")
                    out.append(wrap(texts.get(key) or "", "      ", width))
        if moved:
            out += _list(
                "renumbered: ",
                [
                    f"its {shown_label(m['from'])} is {shown_label(m['to'])}"
                    + ("*" if m.get("inferred") else "")
                    for m in moved
                ],
                width,
            )
    extra = report.get("extra_rows") or []
    if extra:
        # Clauses some editions have and the reference does not (newer ones, against an old
        # reference; or text a translation added).
        out += ["", bold(f"Not in {_slug(eds[ref])} ({len(extra)})", colour)]
        for r in extra:
            holders = [_slug(eds[k]) for k, v in r["cells"].items() if v is not None and k in eds]
            n = len(holders)
            out += wrap_lines(
                f"{r['key'] or 'an unnumbered clause'}: in {n} edition{'' if n == 1 else 's'} "
                f"({', '.join(holders[:4])}{', ...' if n > 4 else ''})",
                width,
                "  ",
                "    ",
            )
    out += _checks_block(report["checks"], eds, colour, width)
    s = report["summary"]
    out.append("")
    out += wrap_lines(
        f"{s['editions_lacking']} edition(s) lack {s['clauses_missing']} clauses in all; "
        f"{s['renumbered']} renumbered; checks: {s['errors']} errors, {s['warnings']} warnings.",
        width,
    )
    out += _notes(report, width)
    return "\n".join(out)


def _checks_block(
    checks: list[dict[str, Any]], eds: dict[str, dict[str, Any]], colour: bool, width: int
) -> list[str]:
    if not checks:
        return []
    rows = []
    for c in checks:
        e = eds.get(str(c["edition"]))
        rows.append(
            [
                _slug(e) if e else c["edition"],
                c.get("label") or c.get("key") or clause_name(None, c.get("kind")),
                c["severity"],
                c["check"],
                c["message"],
            ]
        )
    return [
        "",
        bold("Checks", colour),
        table(["edition", "clause", "severity", "check", "message"], rows, width),
    ]


def _item_name(m: dict[str, Any]) -> str:
    return clause_name(m.get("label"), m.get("kind"), term=m.get("term"), parent=m.get("parent"))


def render_edition_drift(report: dict[str, Any], colour: bool = False, width: int = WIDTH) -> str:
    e, ref = report["edition"], report["reference"]
    s = report["summary"]
    out = [
        bold(f"{e['slug']} against {ref['slug']}", colour),
        *wrap_lines(
            f"{s['matched']} clauses paired, {s['missing']} missing, {s['added']} added, "
            f"{s['renumbered']} renumbered; checks: {s['errors']} errors, "
            f"{s['warnings']} warnings.",
            width,
        ),
    ]
    if report["missing"]:
        out += ["", bold(f"Missing from {e['slug']} ({len(report['missing'])})", colour)]
        for m in report["missing"]:
            out.append(f"  {_item_name(m)}")
            out.append(wrap(m["text"], "      ", width))
    if report["added"]:
        out += ["", bold(f"Only in {e['slug']} ({len(report['added'])})", colour)]
        for m in report["added"]:
            out.append(f"  {_item_name(m)}")
            out.append(wrap(m["text"], "      ", width))
    if report["renumbered"]:
        out += ["", bold(f"Renumbered ({len(report['renumbered'])})", colour)]
        out += _list(
            "",
            [
                f"its {shown_label(r['from'])} is {shown_label(r['to'])}"
                for r in report["renumbered"]
            ],
            width,
        )
    defects = defect_lines(report.get("defects"))
    if defects:
        out += ["", bold(f"Defects of {e['slug']} ({len(defects)})", colour)]
        out += _list("", defects, width)
    eds = {str(e["id"]): e}
    out += _checks_block(report["checks"], eds, colour, width)
    out += _notes(report, width)
    return "\n".join(out)


def render_update(report: dict[str, Any], colour: bool = False, width: int = WIDTH) -> str:
    t, n, src, s = report["edition"], report["reference"], report["source"], report["summary"]
    out = [
        bold(f"Bringing {t['slug']} up to {n['slug']}", colour),
        *wrap_lines(f"Made from {src['slug']} ({src['how']}: {src['why'].rstrip('.')}).", width),
        *(
            wrap_lines(
                f"It covers {report['scope']['covers']}: brought up to date on that part of "
                f"{n['slug']}.",
                width,
            )
            if report.get("scope") and not report["scope"]["whole"]
            else []
        ),
        *(
            ["The glossary is not translated (the translation says it is left out)."]
            if report.get("glossary_omitted")
            else []
        ),
        *wrap_lines(
            f"{s['unchanged']} unchanged, {s['changed']} changed, {s['new']} new, "
            f"{s['renumbered']} renumbered, {s['removed']} removed; "
            f"checks: {s['errors']} errors, {s['warnings']} warnings.",
            width,
        ),
        *(
            wrapped
            for line in summary_lines(report["renumbering"])[:1]
            for wrapped in wrap_lines(
                f"{line} in the English since {src['slug']} (as diff prints it; the "
                f"{s['renumbered']} that kept their wording are listed as renumbered, the "
                "others as changed).",
                width,
            )
        ),
    ]
    if s.get("direct"):
        out += wrap_lines(
            f"{s['direct']} clauses of the translation have no partner in {src['slug']}: "
            f"matched with {n['slug']} directly (lower confidence, marked ~).",
            width,
        )
    sections = update_sections(report)
    name = update_item_name
    new = sections["new"]
    if new:
        out += ["", bold(f"New: translate these ({len(new)})", colour)]
        for i in new:
            gap = "  [the translation lacked it already]" if i.get("gap") else ""
            out.append(f"  {name(i)}{gap}")
            out.append(wrap(i["english"] or "", "      ", width))
    changed_items = sections["changed"]
    if changed_items:
        out += [
            "",
            bold(f"Changed in the English since {src['slug']} ({len(changed_items)})", colour),
            diff_legend(colour),
        ]
        for i in changed_items:
            moved = (
                f" (was {i['from_label']})"
                if i["from_label"] and i["from_label"] != i["label"]
                else ""
            )
            mark = " ~" if i["confidence"] == "direct" else ""
            gist = f": {i['gist']}" if i.get("gist") else ""
            out += wrap_lines(f"{name(i)}{moved}{mark}{gist}", width, "  ", "    ")
            if i.get("english_diff"):
                out.append(wrap(marked(condensed(i["english_diff"]), colour), "      ", width))
            now = i["translation"] or "(the translation has no text for it)"
            out.append(wrap("now: " + now, "      ", width))
    renumbered = sections["renumbered"]
    if renumbered:
        out += ["", bold(f"Renumbered ({len(renumbered)})", colour)]
        out += _list("", [f"{update_from_name(i)} -> {name(i)}" for i in renumbered], width)
    if report["removed"]:
        out += ["", bold(f"Removed from the English: delete ({len(report['removed'])})", colour)]
        for i in report["removed"]:
            out.append(f"  {name(i)}")
            out.append(wrap(i["translation"] or i["english"] or "", "      ", width))
    d = report["defects"]
    if d["mislabels"] or d["gaps"] or d["untranslated"] or d.get("duplicate_labels"):
        out += ["", bold("The translation's own defects", colour)]
        for m in d["mislabels"]:
            out += wrap_lines(
                f"mislabel: its {m['label']} is {m['expected']} in {src['slug']}", width, "  "
            )
        for lab in d.get("duplicate_labels") or []:
            out.append(f"  duplicate label: {lab}")
        for g in d["gaps"]:
            gap = clause_name(
                g.get("label"), "glossary" if g.get("term") else "rule", term=g.get("term")
            )
            out.append(f"  gap: it lacks {gap}")
        if d["untranslated"]:
            out += _list("still in English: ", d["untranslated"], width)
    out += _checks_block(report["checks"], {str(t["id"]): t}, colour, width)
    return "\n".join(out)


def render_diff(report: dict[str, Any], colour: bool = False, width: int = WIDTH) -> str:
    a, b, s = report["a"], report["b"], report["summary"]
    scope = f" (rule {report['rule']})" if report.get("rule") else ""
    out = [
        bold(f"{a['slug']} -> {b['slug']}{scope}", colour),
        *wrap_lines(
            f"{s['changed']} reworded, {s['renumbered']} renumbered, {s['added']} added, "
            f"{s['removed']} removed, {s.get('notation', 0)} in notation only, "
            f"{s['unchanged']} unchanged.",
            width,
        ),
    ]
    numbering = summary_lines(report["renumbering"])
    if numbering:
        out += ["", numbering[0], *(f"  {line}" for line in numbering[1:])]
    if report["changes"]:
        out.append(diff_legend(colour))
    marks = {"changed": "~", "renumbered": ">", "added": "+", "removed": "-"}
    notation = [c for c in report["changes"] if c["kind"] == "notation"]
    for c in report["changes"]:
        if c["kind"] == "notation" and len(notation) > NOTATION_SHOWN:
            continue
        mark = marks.get(c["kind"], "=")
        old, new = change_sides(c)
        if c["kind"] == "renumbered":
            head = f"{old} -> {new}  renumbered"
            if c.get("wording_changed"):
                head += " and reworded"
        else:
            label = old if c["kind"] == "removed" else new
            head = f"{label}  {'reworded' if c['kind'] == 'changed' else c['kind']}"
            origin = came_from(c, a["slug"])
            if origin:
                head += f", {origin}"
        out.append("")
        out += [bold(line, colour) for line in wrap_lines(f"{mark} {head}", width, "", "    ")]
        if c.get("words") is not None and (c.get("wording_changed") or c["kind"] == "notation"):
            asked = report.get("rule") in (old, new)  # `diff --rule 205.3m`: all of it
            words = c["words"] if asked else _in_view(c["words"])
            out.append(wrap(marked(words, colour), "    ", width))
        elif c["kind"] == "added":
            out.append(wrap(c["b_text"] or "", "    ", width))
        elif c["kind"] == "removed":
            out.append(wrap(c["a_text"] or "", "    ", width))
    if len(notation) > NOTATION_SHOWN:
        out += ["", bold(f"= notation only ({len(notation)}; --format json has each):", colour)]
        out.append(wrap(", ".join(notation_labels(notation)), "    ", width))
    if not report["changes"]:
        out.append("\nNo differences.")
    return "\n".join(out)


# A reworded clause longer than this many words is shown around its changes only: the lists
# of subtypes (205.3m, the creature types: 347 words in 2026-01-16; 205.3i, 205.3j). A rule
# of ordinary length is shown whole, as a historian reads it (99% of the rules of 2026-01-16
# have at most 140 words; 508.4 has 98). --format json always has every word.
LONG_CLAUSE_WORDS = 150


def _in_view(ops: list[dict[str, str]]) -> list[dict[str, str]]:
    words = sum(len(units(op["a"].strip())) for op in ops)
    return condensed(ops, context=10, head=12) if words > LONG_CLAUSE_WORDS else ops


# A diff between two printings lists hundreds of clauses whose only change is "'" for "’":
# past this many, they are named in one paragraph instead of shown word by word.
NOTATION_SHOWN = 10


def notation_labels(changes: list[dict[str, Any]]) -> list[str]:
    return [change_sides(c)[1] for c in changes]


def render_trace(report: dict[str, Any], colour: bool = False, width: int = WIDTH) -> str:
    out = [bold(f"Trace of {report['clause']} (today {report['key']})", colour), ""]
    out.append(bold("English, official editions", colour))
    if any(span.get("words") for span in report["english"]) or any(
        u.get("words") for u in report["copies"]
    ):
        out.append(diff_legend(colour))
    for span in report["english"]:
        when = span_when(span)
        ended = span["event"] in ENDED
        label = "" if ended else f"{span['label'] or '(unnumbered)'}  "
        # A merged ancestry ("glossary: Mana Symbol + glossary: X") runs past the width.
        out += wrap_lines(f"{when}  {label}{span_event(span)}", width, "  ", "    ")
        if not span["text"]:
            continue
        if span.get("words"):
            out.append(wrap(marked(span["words"], colour), "      ", width))
        else:
            out.append(wrap(span["text"], "      ", width))
    if report["copies"]:
        out += ["", bold("English copies (scraped pages)", colour)]
        for u in report["copies"]:
            c = u["closest"]
            near = f"closest to {c['from']}..{c['to']} ({u['similarity']:.0%})" if c else ""
            out += wrap_lines(
                f"{u['edition']['slug']}  {u['label'] or '(unnumbered)'}  {near}".rstrip(),
                width,
                "  ",
                "    ",
            )
            if u.get("words"):
                out.append(wrap(marked(u["words"], colour), "      ", width))
    if report["translations"]:
        out += ["", bold("Translations", colour)]
        for t in report["translations"]:
            e = t["edition"]
            label = (t["label"] or "(unnumbered)") + (
                "*" if t["label"] and t["label_inferred"] else ""
            )
            extra = f"  {t['event']}" if t.get("event") else ""
            out += wrap_lines(
                f"{e['slug']}  [{t['language']}]  {label}{extra}", width, "  ", "    "
            )
            out.append(wrap(t["text"] or "", "      ", width))
    return "\n".join(out)
