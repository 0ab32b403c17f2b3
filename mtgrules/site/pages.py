"""The site's pages, each a function of the data the build gathered (SiteData) -> HTML.

Pages never align anything: changelogs are DiffReports, rule histories are Traces, coverage
comes from EditionDrift, all read from the store's alignments by build.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..reports.diff import Change, DiffReport
from ..reports.trace import ENDED, Span, Trace, Translation
from ..store.queries import ClauseView, EditionInfo
from ..text.labels import label_sort_key
from .charts import CoverageBar, GrowthPoint, coverage_chart, growth_chart
from .history import History, Placement, Plan
from .html import PLAIN, Linker, Resolve, diff_html, esc, number, page, rel, table

SEARCH_DATA = "assets/search-data.js"
SEARCH_SCRIPT = "assets/search.js"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass
class Coverage:
    """A translation against the English it follows, read off their alignment."""

    reference: EditionInfo
    covered: int  # English rules and subrules it has a clause for
    total: int
    scope: set[str] | None  # the rules a page quoting a few rules is measured on
    missing: list[ClauseView]  # English rules it has no clause for
    renumbered: list[tuple[str, str]]  # (its number, the English number)

    @property
    def share(self) -> float:
        return self.covered / self.total if self.total else 0.0

    def detail(self) -> str:
        if not self.scope:
            return self.reference.slug
        rules = ", ".join(sorted(self.scope))
        return f"{self.reference.slug}, rule{'s' if len(self.scope) > 1 else ''} {rules} only"


@dataclass
class SiteData:
    """Everything the pages show, gathered once by the build."""

    infos: list[EditionInfo]
    plan: Plan
    history: History
    glossary: dict[int, int]  # edition id -> glossary entries
    changelogs: dict[int, DiffReport] = field(default_factory=dict)  # against the previous
    coverage: dict[int, Coverage] = field(default_factory=dict)  # translations only
    # The same translations against the newest English (today's rules).
    coverage_newest: dict[int, Coverage] = field(default_factory=dict)
    contents: dict[int, list[ClauseView]] = field(default_factory=dict)  # shown in full
    references: dict[int, EditionInfo] = field(default_factory=dict)  # the English it follows
    files: dict[int, str] = field(default_factory=dict)  # edition id -> page path
    by_slug: dict[str, EditionInfo] = field(default_factory=dict)
    _linkers: dict[tuple[int, int], Linker] = field(default_factory=dict)

    def __post_init__(self) -> None:
        taken: set[str] = set()
        for e in self.infos:
            self.by_slug[e.slug] = e
            # Slugs come from file names: keep what is safe in a URL and a file name.
            name = _UNSAFE.sub("_", e.slug).strip("._") or f"edition-{e.id}"
            if name.lower() in taken:
                name = f"{name}-{e.id}"
            taken.add(name.lower())
            self.files[e.id] = f"editions/{name}.html"

    # --- addresses ------------------------------------------------------------------------

    def edition_href(self, info: EditionInfo, depth: int) -> str:
        return rel(depth, self.files[info.id])

    def rule_href(self, placement: Placement, depth: int) -> str:
        return rel(depth, f"rules/{placement.page}.html") + "#" + placement.anchor

    def resolver(self, edition: int, depth: int) -> Resolve:
        find = self.history.resolver(edition)

        def resolve(label: str) -> str | None:
            placed = find(label)
            return self.rule_href(placed, depth) if placed else None

        return resolve

    def section_resolver(self, edition: int, depth: int) -> Resolve:
        """A section number ("rule 702") links to the rules list when the section had the
        same title in ``edition`` as today (before 2009 section 702 was something else)."""
        newest = self.plan.newest
        today = self.history.headings.get(newest.id, {}) if newest else {}
        ref = self.references.get(edition)
        then = self.history.headings.get(ref.id if ref else edition, {})

        def section(label: str) -> str | None:
            if label in today and then.get(label) == today[label]:
                return rel(depth, "rules/index.html") + "#s" + label
            return None

        return section

    def linker(self, edition: int | None, depth: int) -> Linker:
        """Text of ``edition`` as HTML with its rule references linked (memoized: a page
        asks for the same edition's linker for every row)."""
        if edition is None:
            return PLAIN
        key = (edition, depth)
        if key not in self._linkers:
            self._linkers[key] = Linker(
                self.resolver(edition, depth), self.section_resolver(edition, depth)
            )
        return self._linkers[key]

    def edition_link(self, info: EditionInfo | None, depth: int, text: str | None = None) -> str:
        if info is None:
            return ""
        return f'<a href="{esc(self.edition_href(info, depth))}">{esc(text or info.slug)}</a>'


_NAMES = {
    "en": "English",
    "fr": "French",
    "es": "Spanish",
    "de": "German",
    "it": "Italian",
    "pt": "Portuguese",
    "ru": "Russian",
    "ja": "Japanese",
    "ko": "Korean",
    "zh-Hans": "Chinese (Simplified)",
    "zh-Hant": "Chinese (Traditional)",
}


def _lang(info: EditionInfo) -> str:
    return _NAMES.get(info.language, info.language or "?")


def _what(info: EditionInfo) -> str:
    if info.kind == "glossary":
        return "glossary"
    return "rules" if info.date else "page"


# --- the index ------------------------------------------------------------------------------


def index_page(data: SiteData) -> str:
    official = data.plan.lines.get("en", [])
    languages = sorted({e.language for e in data.infos})
    body = ["<h1>The Magic: The Gathering Comprehensive Rules through time</h1>"]
    if official:
        newest = official[-1]
        body.append(
            f"<p>{number(len(data.infos))} editions in {len(languages)} languages "
            f"({esc(', '.join(languages))}), from {esc(official[0].date)} to "
            f"{esc(newest.date)}. Every edition has a page with what changed since the one "
            f"before it; every rule of today's rules has a page with its history. "
            f"Newest English edition: {data.edition_link(newest, 0)}.</p>"
        )
    else:
        body.append(f"<p>{number(len(data.infos))} editions; no dated English edition.</p>")
    points = [GrowthPoint(e.date or "", e.rules, data.glossary.get(e.id, 0)) for e in official]
    if points:
        body.append("<h2>How the rules grew</h2>")
        body.append(growth_chart(points))
    bars = []
    for e in _index_order(data):
        own = data.coverage.get(e.id)
        if own is None:
            continue
        now = data.coverage_newest.get(e.id, own)
        bars.append(
            CoverageBar(
                e.slug,
                now.detail(),
                now.covered,
                now.total,
                own_detail=own.detail(),
                own_covered=own.covered,
                own_total=own.total,
            )
        )
    if bars:
        newest = data.plan.newest
        against = f" ({esc(newest.slug)})" if newest else ""
        body.append(f"<h2>How much of today's English{against} each translation covers</h2>")
        body.append(coverage_chart(bars))
    body.append('<h2 id="editions">Every edition</h2>')
    rows = []
    for e in _index_order(data):
        log = data.changelogs.get(e.id)
        if log is not None:
            s = log.summary
            changes = (
                f"{number(s['added'])} new, {number(s['changed'])} changed, "
                f"{number(s['removed'])} removed, {number(s['renumbered'])} renumbered"
            )
        elif e.id in data.coverage:
            cov = data.coverage[e.id]
            now = data.coverage_newest.get(e.id, cov)
            changes = f"covers {now.share * 100:.1f}% of {esc(now.detail())}"
            if now is not cov:
                changes += f" ({cov.share * 100:.1f}% of its own English, {esc(cov.detail())})"
        elif e.id in data.references:
            changes = f"an English copy, compared with {esc(data.references[e.id].slug)}"
        else:
            changes = "first of its language" if e.date else ""
        rows.append(
            [
                data.edition_link(e, 0),
                esc(e.date or "undated"),
                esc(_lang(e)) + f' <span class="tag">{esc(e.language)}</span>',
                esc(_what(e)),
                number(e.rules),
                number(data.glossary.get(e.id, 0)),
                changes,
            ]
        )
    body.append(
        table(
            ["Edition", "Date", "Language", "Kind", "Rules", "Glossary entries", "Changes"],
            rows,
            caption="Editions in the store, English first, oldest first; rules counts "
            "numbered rules and subrules",
            class_="editions",
        )
    )
    return page("Editions", "\n".join(body), depth=0, here="index.html")


def _index_order(data: SiteData) -> list[EditionInfo]:
    def key(e: EditionInfo) -> tuple:
        return (e.language != "en", e.language, e.date is None, e.date or "", e.slug)

    return sorted(data.infos, key=key)


# --- one edition ----------------------------------------------------------------------------


def edition_page(data: SiteData, info: EditionInfo) -> str:
    depth = 1
    prev, nxt = data.plan.previous.get(info.id), data.plan.next.get(info.id)
    title = f"{info.slug}"
    body = [f"<h1>{esc(_lang(info))} {esc(_what(info))}: {esc(info.date or info.slug)}</h1>"]
    body.append(_edition_nav(data, info, prev, nxt, depth))
    facts = [
        f"<li>Edition <code>{esc(info.slug)}</code>, {esc(_lang(info))} "
        f'(<span lang="en">{esc(info.language)}</span>), {esc(info.kind)}</li>',
        f"<li>{number(info.rules)} rules and subrules, {number(data.glossary.get(info.id, 0))} "
        f"glossary entries, {number(info.clauses)} clauses in all</li>",
        f"<li>Source: {esc(', '.join(info.sources))}</li>",
    ]
    ref = data.references.get(info.id)
    if ref is not None:
        facts.append(f"<li>Compared with the English edition {data.edition_link(ref, depth)}</li>")
    body.append(f'<ul class="facts">{"".join(facts)}</ul>')
    log = data.changelogs.get(info.id)
    if log is not None:
        body.append(_changelog(data, log, depth))
    elif info.date and info.kind == "rules":
        body.append(
            f"<p>The first {esc(_lang(info))} edition in the store: there is no earlier one to "
            "compare it with.</p>"
        )
    coverage = data.coverage.get(info.id)
    if coverage is not None:
        now = data.coverage_newest.get(info.id)
        if now is not None and now is not coverage:
            body.append(_newest_section(data, info, now, depth))
        body.append(_coverage_section(data, coverage, depth))
    clauses = data.contents.get(info.id)
    if clauses is not None:
        body.append(_contents(data, info, clauses, depth))
    return page(title, "\n".join(body), depth=depth, lang="en")


def _edition_nav(
    data: SiteData, info: EditionInfo, prev: EditionInfo | None, nxt: EditionInfo | None, depth: int
) -> str:
    items = []
    items.append(
        f'<li class="prev">Previous edition: {data.edition_link(prev, depth, prev.date or prev.slug)}</li>'
        if prev
        else '<li class="prev">No earlier edition of this language</li>'
    )
    items.append(
        f'<li class="next">Next edition: {data.edition_link(nxt, depth, nxt.date or nxt.slug)}</li>'
        if nxt
        else '<li class="next">No later edition of this language</li>'
    )
    items.append(f'<li><a href="{rel(depth, "index.html")}#editions">All editions</a></li>')
    return f'<nav class="pager" aria-label="Editions"><ul>{"".join(items)}</ul></nav>'


def _change_label(
    data: SiteData, c: Change, label: str | None, edition: EditionInfo, depth: int
) -> str:
    """A clause's label (or glossary term), linked to its history when it has one."""
    text = (
        label
        or (f"glossary: {c.term}" if c.term else None)
        or (f"under {c.parent}" if c.parent else c.clause_kind or "?")
    )
    if label:
        rule = data.linker(edition.id, depth).rule
        href = rule(label) if rule else None
        if href:
            return f'<a href="{esc(href)}">{esc(text)}</a>'
    return esc(text)


def _changelog(data: SiteData, log: DiffReport, depth: int) -> str:
    a, b = log.a, log.b
    old = data.linker(a.id, depth)
    new = data.linker(b.id, depth)
    sections = {"added": [], "changed": [], "notation": [], "removed": [], "renumbered": []}
    for c in log.changes:
        sections[c.kind].append(c)
    s = log.summary
    out = [f"<h2>Changes since {data.edition_link(a, depth)}</h2>"]
    parts = [
        ("new", "added", "new clauses"),
        ("changed", "changed", "changed clauses"),
        ("removed", "removed", "removed clauses"),
        ("renumbered", "renumbered", "renumbered clauses"),
    ]
    out.append(
        '<ul class="summary">'
        + "".join(
            f'<li><a href="#{anchor}">{number(s[key])} {words}</a></li>'
            for anchor, key, words in parts
        )
        + f"<li>{number(s['unchanged'])} clauses unchanged</li></ul>"
    )
    moved_rules = sum(1 for c in sections["renumbered"] if c.clause_kind == "rule")
    removed_rules = sum(1 for c in sections["removed"] if c.clause_kind == "rule")
    if moved_rules >= 100 and moved_rules > 2 * removed_rules:
        out.append(
            f'<p class="note"><strong>A renumbering.</strong> {number(moved_rules)} rules '
            f"kept their text (or most of it) under a new number; they are listed under "
            f"“Renumbered”, each with its old and its new number, not as removed and new "
            f"rules.</p>"
        )
    # New, changed, notation only, removed: a table each, listing the clauses.
    out += _change_table(
        "new", f"New clauses ({number(s['added'])})", sections["added"],
        ["Clause", "Kind", "Text"],
        lambda c: [_change_label(data, c, c.to_label, b, depth), esc(c.clause_kind), new(c.b_text)],
    )  # fmt: skip
    out += _change_table(
        "changed", f"Changed clauses ({number(s['changed'])})", sections["changed"],
        ["Clause", "Kind", "What changed"],
        lambda c: [
            _change_label(data, c, c.to_label, b, depth),
            esc(c.clause_kind),
            diff_html(c.words or [], old, new),
        ],
        legend=True,
    )  # fmt: skip
    if sections["notation"]:  # {oW} -> {W}, "--" -> an em dash: the wording is the same
        out += _change_table(
            "notation", f"Notation only ({number(len(sections['notation']))})",
            sections["notation"], ["Clause", "Kind", "Printed text"],
            lambda c: [
                _change_label(data, c, c.to_label, b, depth),
                esc(c.clause_kind),
                diff_html(c.words or [], old, new),
            ],
            note="The same wording printed in another notation (the 2003-2004 mana symbols "
            "{oW}, or ASCII typography such as -- for a dash).",
        )  # fmt: skip
    out += _change_table(
        "removed", f"Removed clauses ({number(s['removed'])})", sections["removed"],
        ["Clause", "Kind", "Text it had"],
        lambda c: [_change_label(data, c, c.from_label, a, depth), esc(c.clause_kind), old(c.a_text)],
    )  # fmt: skip
    # Renumbered
    out.append(f'<h3 id="renumbered">{esc(log.renumbering.headline())}</h3>')
    if log.renumbering.sections:
        out.append(
            "<ul>"
            + "".join(f"<li>{esc(m.line())}</li>" for m in log.renumbering.sections)
            + "</ul>"
        )
    if sections["renumbered"]:
        rows = []
        for c in sections["renumbered"]:
            wording = (
                diff_html(c.words or [], old, new)
                if c.wording_changed
                else f'<span class="same">same wording:</span> {new(c.b_text)}'
            )
            rows.append(
                [
                    esc(c.from_label or "(no number)"),
                    _change_label(data, c, c.to_label, b, depth),
                    esc(c.clause_kind),
                    wording,
                ]
            )
        if any(c.wording_changed for c in sections["renumbered"]):
            out.append(_legend())
        out.append(table(["Old number", "New number", "Kind", "Wording"], rows, class_="changes"))
    else:
        out.append("<p>No clause.</p>")
    return "\n".join(out)


def _change_table(
    anchor: str,
    title: str,
    changes: list[Any],
    headers: list[str],
    row: Callable[[Any], list[str]],
    *,
    legend: bool = False,
    note: str | None = None,
) -> list[str]:
    """One section of a changelog: its heading, then a table of its clauses (or "No clause.")."""
    out = [f'<h3 id="{anchor}">{esc(title)}</h3>']
    if note:
        out.append(f"<p>{esc(note)}</p>")
    if not changes:
        return [*out, "<p>No clause.</p>"]
    if legend:
        out.append(_legend())
    return [*out, table(headers, [row(c) for c in changes], class_="changes")]


def _legend() -> str:
    return (
        '<p class="legend">In the wording, <del>removed words</del> are struck through and '
        "<ins>added words</ins> are underlined.</p>"
    )


def _newest_section(data: SiteData, info: EditionInfo, cov: Coverage, depth: int) -> str:
    """The translation against today's English: what a translator brings it up to."""
    return (
        f"<h2>Against today's English: {data.edition_link(cov.reference, depth)}</h2>"
        f"<p>It has a clause for {number(cov.covered)} of the {number(cov.total)} rules and "
        f"subrules of {esc(cov.detail())} ({cov.share * 100:.1f}%), followed from its own "
        "English to today's as <code>mtgrules update</code> follows it; the "
        f"{number(len(cov.missing))} others are the rules update calls new (new since its "
        "English, or left out; section headings, examples and glossary entries are not "
        "counted here). The work to bring it up to date, clause by clause: "
        f"<code>mtgrules update {esc(info.slug)}</code>.</p>"
    )


def _coverage_section(data: SiteData, cov: Coverage, depth: int) -> str:
    ref = cov.reference
    link = data.linker(ref.id, depth)
    out = [f"<h2>Against its English: {data.edition_link(ref, depth)}</h2>"]
    out.append(
        f"<p>It has a clause for {number(cov.covered)} of the {number(cov.total)} rules and "
        f"subrules of {esc(cov.detail())} ({cov.share * 100:.1f}%); "
        f"{number(len(cov.renumbered))} of its clauses carry another number than their "
        "English.</p>"
    )
    if cov.missing:
        rows = [[link(c.label), link(c.norm)] for c in cov.missing]
        out.append(f'<h3 id="lacks">English rules it lacks ({number(len(cov.missing))})</h3>')
        out.append(table(["English rule", "English text"], rows, class_="changes"))
    if cov.renumbered:
        rows = [[esc(mine), link(theirs)] for mine, theirs in cov.renumbered]
        out.append(f'<h3 id="numbers">Numbered differently ({number(len(cov.renumbered))})</h3>')
        out.append(table(["Its number", "English number"], rows, class_="changes"))
    return "\n".join(out)


def _contents(data: SiteData, info: EditionInfo, clauses: list[ClauseView], depth: int) -> str:
    link = data.linker(info.id, depth)
    history = data.history
    rows = []
    for c in clauses:
        inferred = history.inferred.get(c.id) if c.label is None else None
        label = c.label or inferred
        if label:
            cell = _label_html(label, c.label_inferred or inferred is not None)
        else:
            cell = esc(f"glossary: {c.term}" if c.term else "")
        # Each clause links to the history of the rule it states, when that is known.
        placed = history.placement(history.partner.get(c.id, c.id))
        if placed is not None and c.kind in ("rule", "glossary"):
            cell = f'<a href="{esc(data.rule_href(placed, depth))}">{cell or "history"}</a>'
        rows.append([cell, esc(c.kind), f'<span lang="{esc(info.language)}">{link(c.text)}</span>'])
    return f"<h2>Its text ({number(len(clauses))} clauses)</h2>" + table(
        ["Clause", "Kind", "Text"], rows, class_="changes"
    )


# --- one rule -------------------------------------------------------------------------------


def rule_page(
    data: SiteData,
    rule: str,
    traces: list[tuple[int, Trace]],
    placements: dict[int, Placement],
    prev_rule: str | None,
    next_rule: str | None,
) -> str:
    depth = 1
    newest = data.plan.newest
    assert newest is not None
    today = data.linker(newest.id, depth)
    heading = data.history.headings.get(newest.id, {}).get(rule.split(".")[0], "")
    current = [(g, t) for g, t in traces if placements[g].current]
    gone = [(g, t) for g, t in traces if not placements[g].current]
    own = next((t for g, t in current if t.key == rule), None)
    body = [f"<h1>Rule {esc(rule)}</h1>"]
    body.append(
        f'<p class="lede">Section <a href="{rel(depth, "rules/index.html")}#s{esc(rule.split(".")[0])}">'
        f"{esc(rule.split('.')[0])}. {esc(heading)}</a>"
        + (f" · today: {today(_today_text(own))}" if own else "")
        + "</p>"
    )
    items = []
    items.append(
        f'<li class="prev">Previous rule: <a href="{esc(prev_rule)}.html">{esc(prev_rule)}</a></li>'
        if prev_rule
        else '<li class="prev">First rule</li>'
    )
    items.append(
        f'<li class="next">Next rule: <a href="{esc(next_rule)}.html">{esc(next_rule)}</a></li>'
        if next_rule
        else '<li class="next">Last rule</li>'
    )
    # No "newest edition" link here: a rule page changes only when its rule's history does,
    # so that a rebuild after a new edition rewrites only the rules it touched.
    items.append(f'<li><a href="index.html#s{esc(rule.split(".")[0])}">All rules</a></li>')
    body.append(f'<nav class="pager" aria-label="Rules"><ul>{"".join(items)}</ul></nav>')
    # Contents
    toc = [f'<li><a href="#{esc(placements[g].anchor)}">{esc(t.key)}</a></li>' for g, t in current]
    toc += [
        f'<li><a href="#{esc(placements[g].anchor)}">{esc(t.key)} (no longer in the rules)</a></li>'
        for g, t in gone
    ]
    body.append(
        f'<nav aria-label="Clauses of {esc(rule)}"><ul class="toc">{"".join(toc)}</ul></nav>'
    )
    side = _side_by_side(data, rule, current, placements, depth)
    if side:
        body.append(side)
    body.append('<h2 id="history">History of each clause</h2>')
    body.append(_legend())
    for g, t in current:
        body.append(_clause_section(data, t, placements[g], depth))
    if gone:
        body.append('<h2 id="gone">Subrules no longer in the rules</h2>')
        for g, t in gone:
            body.append(_clause_section(data, t, placements[g], depth))
    return page(f"Rule {rule}", "\n".join(body), depth=depth)


def _today_text(t: Trace) -> str:
    rule_spans = [s for s in t.english if s.track == "rule" and s.text]
    return rule_spans[-1].text if rule_spans else ""


def _translation_columns(traces: list[tuple[int, Trace]]) -> list[tuple[str, EditionInfo]]:
    """One column per translation line: a dated language's newest edition that has the
    rule, and each undated page."""
    newest: dict[str, EditionInfo] = {}
    for _, t in traces:
        for tr in t.translations:
            e = tr.edition
            key = e.language if e.date else e.slug
            if key not in newest or (e.date or "") > (newest[key].date or ""):
                newest[key] = e
    return sorted(newest.items(), key=lambda kv: (kv[1].date is None, kv[1].language, kv[0]))


def _label_html(label: str | None, inferred: bool) -> str:
    if not label:
        return '<span class="none">no number</span>'
    if inferred:
        return (
            f'{esc(label)}<abbr class="inferred" title="number inferred by the aligner: the '
            'page gives none">*</abbr><span class="vh"> (inferred)</span>'
        )
    return esc(label)


def _side_by_side(
    data: SiteData,
    rule: str,
    current: list[tuple[int, Trace]],
    placements: dict[int, Placement],
    depth: int,
) -> str:
    columns = _translation_columns(current)
    if not columns:
        return ""
    newest = data.plan.newest
    assert newest is not None
    today = data.linker(newest.id, depth)
    headers = [f"{esc(_lang(e))}<br><small>{esc(e.date or e.slug)}</small>" for _, e in columns]
    rows = []
    for g, t in current:
        cells = [f'<a href="#{esc(placements[g].anchor)}">{esc(t.key)}</a> {today(_today_text(t))}']
        by_edition = {tr.edition.id: tr for tr in t.translations}
        for _, e in columns:
            tr = by_edition.get(e.id)
            if tr is None:
                cells.append('<span class="none">not in this edition</span>')
                continue
            cells.append(
                f'<span class="label">{_label_html(tr.label, tr.label_inferred)}</span> '
                f'<span lang="{esc(e.language)}">'
                f"{data.linker(e.id, depth)(tr.text)}</span>"
            )
        rows.append(cells)
    return (
        '<h2 id="translations">Translations side by side</h2>'
        '<p class="legend">An asterisk (*) marks a number the aligner inferred: the page '
        "gives the paragraph no number of its own.</p>"
        + table(
            ["Today's English", *headers],
            rows,
            caption=f"Rule {esc(rule)} in English and in every translation that has it",
            class_="side",
            row_header=False,
        )
    )


def _span_dates(data: SiteData, span: Span, depth: int) -> tuple[str, str]:
    newest = data.plan.newest
    first = data.by_slug.get(span.editions[0]) if span.editions else None
    start = data.edition_link(first, depth, span.from_date) if first else esc(span.from_date)
    ongoing = newest is not None and span.to_date == newest.date and bool(span.text)
    if span.event in ENDED:
        end = ""
    elif ongoing:
        end = "today"
    else:
        last = data.by_slug.get(span.editions[-1]) if span.editions else None
        end = data.edition_link(last, depth, span.to_date) if last else esc(span.to_date)
    return start, end


def _clause_section(data: SiteData, t: Trace, placement: Placement, depth: int) -> str:
    out = [f'<section id="{esc(placement.anchor)}" class="clause">']
    title = t.key if placement.current else f"{t.key} (no longer in the rules)"
    out.append(f"<h3>{esc(title)}</h3>")
    rows = []
    for span in t.english:
        start, end = _span_dates(data, span, depth)
        edition = data.by_slug.get(span.editions[0]) if span.editions else None
        old_ed = data.by_slug.get(_previous_slug(data, span)) if span.words else None
        new = data.linker(edition.id if edition else None, depth)
        old = data.linker(old_ed.id, depth) if old_ed else new
        if span.words:
            wording = diff_html(span.words, old, new)
        elif span.text:
            wording = new(span.text)
        else:
            wording = ""
        label = esc(span.label or "")
        if span.track == "glossary" and span.label:
            label = f'<span class="gloss">{esc(span.label)}</span>'
        event = esc(span.event or "")
        if span.previous_label and span.previous_label != span.label:
            event += f" <small>(was {esc(span.previous_label)})</small>"
        rows.append([start, end, label, event, wording])
    if rows:
        out.append(
            table(
                ["From", "Until", "Number", "What happened", "Wording"],
                rows,
                caption=f"{esc(t.key)} in the official English editions, oldest first "
                "(glossary rows: the sentences of the old glossary it came from)",
                class_="timeline",
            )
        )
    if t.copies:
        rows = []
        for c in t.copies:
            closest = (
                f"{esc(c.closest.from_date)} to {esc(c.closest.to_date)} ({c.similarity * 100:.0f}% alike)"
                if c.closest
                else ""
            )
            rows.append(
                [
                    data.edition_link(c.edition, depth),
                    esc(c.label or ""),
                    closest,
                    diff_html(c.words) if c.words else esc(c.text),
                ]
            )
        out.append(
            table(
                ["English copy", "Number", "Closest official wording", "Its text"],
                rows,
                caption="Unofficial English copies (scraped pages), against the closest "
                "official wording",
                class_="timeline",
            )
        )
    if t.translations:
        out.append(_translations_table(data, t.translations, depth))
    out.append("</section>")
    return "\n".join(out)


def _previous_slug(data: SiteData, span: Span) -> str:
    """The edition just before a span began (the one its word diff compares with)."""
    first = data.by_slug.get(span.editions[0]) if span.editions else None
    if first is None:
        return ""
    prev = data.plan.previous.get(first.id)
    return prev.slug if prev else ""


def _translations_table(data: SiteData, items: list[Translation], depth: int) -> str:
    rows = []
    for tr in items:
        follows = data.by_slug.get(tr.follows or "")
        rows.append(
            [
                data.edition_link(tr.edition, depth),
                _label_html(tr.label, tr.label_inferred),
                f'<span lang="{esc(tr.language)}">'
                f"{data.linker(tr.edition.id, depth)(tr.text)}</span>",
                data.edition_link(follows, depth) if follows else "",
                esc(tr.event or ""),
            ]
        )
    return table(
        ["Translation", "Number", "Text", "Translated from", "Since the one before"],
        rows,
        caption="Every translation of this clause (* marks an inferred number)",
        class_="timeline",
    )


# --- the rules list and search ----------------------------------------------------------------


def rules_index_page(data: SiteData, pages: list[str], summaries: dict[str, str]) -> str:
    depth = 1
    newest = data.plan.newest
    headings = data.history.headings.get(newest.id, {}) if newest else {}
    by_section: dict[str, list[str]] = {}
    for rule in pages:
        by_section.setdefault(rule.split(".")[0], []).append(rule)
    body = ["<h1>Every rule of today's rules</h1>"]
    if newest is not None:
        body.append(
            f"<p>{number(len(pages))} rules of {data.edition_link(newest, depth)}, each with "
            "its subrules, its history back to the oldest edition and its translations.</p>"
        )
    parts = sorted(
        set(by_section) | {h for h in headings if len(h) == 1},
        key=lambda s: label_sort_key(s) if len(s) == 3 else (int(s) * 100 - 1,),
    )
    for part in parts:
        title = headings.get(part, "")
        if len(part) == 1:
            body.append(f'<h2 id="s{esc(part)}">{esc(part)}. {esc(title)}</h2>')
            continue
        body.append(f'<h3 id="s{esc(part)}">{esc(part)}. {esc(title)}</h3>')
        items = [
            f'<li><a href="{esc(rule)}.html">{esc(rule)}</a> {esc(summaries.get(rule, ""))}</li>'
            for rule in by_section.get(part, [])
        ]
        if items:
            body.append(f'<ul class="rules">{"".join(items)}</ul>')
    return page("Rules", "\n".join(body), depth=depth, here="rules/index.html")


def search_page() -> str:
    body = """<h1>Search the rules</h1>
<form id="search" role="search" action="#" onsubmit="return false">
<label for="q">Words, or a rule number: today's, or an old one such as 502.9f (trample before 2009)</label>
<input id="q" name="q" type="search" autocomplete="off" spellcheck="false">
</form>
<p id="status" role="status" aria-live="polite"></p>
<ol id="results" class="results"></ol>
<noscript><p>The search needs JavaScript. Every other page works without it: browse
<a href="rules/index.html">the list of rules</a> or <a href="index.html#editions">the
editions</a>.</p></noscript>"""
    return page("Search", body, depth=0, here="search.html", scripts=(SEARCH_DATA, SEARCH_SCRIPT))


def search_data(entries: list[dict[str, Any]]) -> str:
    """The client-side index: one entry per clause of today's rules, as a script (a page
    opened from file:// may not fetch a JSON file, but it may load a script)."""
    text = json.dumps(entries, ensure_ascii=False, separators=(",", ":"))
    # Inside a script, "</" could end it; JSON may write "<\\/" instead.
    return "window.MTGRULES_SEARCH=" + text.replace("</", "<\\/") + ";\n"
