"""HTML pieces every page shares: escaping, the page frame, word diffs, rule references.

Every piece of text from the store goes through ``esc`` (or ``linked``, which escapes too):
rule text is data, never markup, whatever it holds ("<script>" in a rule stays text).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from typing import Any

from ..text.labels import RULE_REF

# The site's pages live at its root (index, search) or one folder down (editions/, rules/);
# every link is relative, so the site works from file:// and from any folder of a host.
ASSETS = "assets"

# A bare section number ("rule 702") is a reference only after a word that says so; "100"
# alone may be a number of cards.
_SECTION_CUE = re.compile(r"(?:\brules?|\bsections?|règles?|reglas?|规则|規則)\s*$", re.I)

Resolve = Callable[[str], str | None]  # a rule label -> its page's href, or None


def esc(text: Any) -> str:
    return html.escape("" if text is None else str(text), quote=True)


def attrs(**values: Any) -> str:
    """HTML attributes, escaped; None leaves one out; class_ is class."""
    parts = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        name = name.rstrip("_").replace("_", "-")
        parts.append(name if value is True else f'{name}="{esc(value)}"')
    return (" " + " ".join(parts)) if parts else ""


def linked(text: str | None, resolve: Resolve | None, section: Resolve | None = None) -> str:
    """``text`` escaped, with each rule reference it makes ("see rule 601.2", "702.19c",
    "规则107.3") turned into a link to that rule's history where ``resolve`` knows it."""
    if not text:
        return ""
    if resolve is None:
        return esc(text)
    out: list[str] = []
    pos = 0
    for m in RULE_REF.finditer(text):
        label = m.group(1)
        if "." in label:
            href = resolve(label)
        elif section is not None and _SECTION_CUE.search(text[max(0, m.start() - 12) : m.start()]):
            href = section(label)
        else:
            href = None
        if href is None:
            continue
        out.append(esc(text[pos : m.start()]))
        out.append(f'<a class="ref" href="{esc(href)}">{esc(label)}</a>')
        pos = m.end()
    out.append(esc(text[pos:]))
    return "".join(out)


class Linker:
    """Rule text of one edition as HTML, its references linked in that edition's numbering."""

    def __init__(self, rule: Resolve | None = None, section: Resolve | None = None):
        self.rule = rule
        self.section = section

    def __call__(self, text: str | None) -> str:
        return linked(text, self.rule, self.section)


PLAIN = Linker()


def diff_html(ops: Iterable[dict[str, str]], old: Linker = PLAIN, new: Linker = PLAIN) -> str:
    """A word diff as <del>/<ins>. They are struck through and underlined as well as
    coloured, and announced by a hidden word for screen readers: colour is never the only
    signal. References in removed words link in the old numbering, the rest in the new."""
    parts = []
    for op in ops:
        kind, a, b = op["op"], op["a"], op["b"]
        if kind == "equal":
            parts.append(new(b))
            continue
        if a:
            parts.append(f'<del><span class="vh">removed: </span>{old(a)}</del>')
        if b:
            parts.append(f'<ins><span class="vh">added: </span>{new(b)}</ins>')
    return "".join(parts)


def rel(depth: int, path: str) -> str:
    """``path`` (from the site's root) as seen from a page ``depth`` folders down."""
    return "../" * depth + path


def page(
    title: str,
    body: str,
    *,
    depth: int,
    here: str | None = None,
    scripts: Iterable[str] = (),
    lang: str = "en",
) -> str:
    """A whole page: the shared head and navigation around ``body`` (HTML already)."""
    nav = []
    for path, label in (
        ("index.html", "Editions"),
        ("rules/index.html", "Rules"),
        ("search.html", "Search"),
    ):
        current = ' aria-current="page"' if here == path else ""
        nav.append(f'<li><a href="{rel(depth, path)}"{current}>{label}</a></li>')
    script_tags = "".join(f'<script src="{esc(rel(depth, s))}"></script>' for s in scripts)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{esc(lang)}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="mtgrules site">\n'
        f"<title>{esc(title)} · MTG Comprehensive Rules history</title>\n"
        f'<link rel="stylesheet" href="{rel(depth, ASSETS + "/site.css")}">\n'
        "</head>\n<body>\n"
        '<a class="skip" href="#main">Skip to the content</a>\n'
        '<header class="site"><p class="brand">MTG Comprehensive Rules history</p>'
        f'<nav aria-label="Site"><ul>{"".join(nav)}</ul></nav></header>\n'
        f'<main id="main">\n{body}\n</main>\n'
        '<footer class="site"><p>Written by <code>mtgrules site</code> from the rules store. '
        "Magic: The Gathering is a trademark of Wizards of the Coast; the rules text is "
        "theirs, the history is read from their published editions.</p></footer>\n"
        f"{script_tags}"
        "</body>\n</html>\n"
    )


def table(
    headers: list[str],
    rows: Iterable[list[str]],
    *,
    caption: str | None = None,
    class_: str | None = None,
    row_header: bool = True,
) -> str:
    """A table with header cells for its columns (and, with ``row_header``, for the first
    cell of each row). Cells are HTML already."""
    head = "".join(f'<th scope="col">{h}</th>' for h in headers)
    body = []
    for row in rows:
        cells = []
        for k, cell in enumerate(row):
            if k == 0 and row_header:
                cells.append(f'<th scope="row">{cell}</th>')
            else:
                cells.append(f"<td>{cell}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    cap = f"<caption>{caption}</caption>" if caption else ""
    return (
        f"<table{attrs(class_=class_)}>{cap}<thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def number(n: int) -> str:
    return f"{n:,}"
