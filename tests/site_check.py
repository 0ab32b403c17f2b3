"""Checks over a built site, shared by the site tests: every page parses, every internal link
resolves (to a file, and to an element id when it names one)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

import html5lib
from lxml import html as lxml_html


def pages(root: Path) -> list[Path]:
    return sorted(root.rglob("*.html"))


def parse_errors(page: Path) -> list[str]:
    """html5lib's parse errors for one page (an empty list: it is well-formed HTML)."""
    parser = html5lib.HTMLParser(strict=False)
    parser.parse(page.read_bytes())
    return [f"{pos}: {code} {args}" for pos, code, args in parser.errors]


def _ids(page: Path, cache: dict[Path, set[str]]) -> set[str]:
    if page not in cache:
        doc = lxml_html.fromstring(page.read_bytes())
        cache[page] = {el.get("id") for el in doc.iter() if el.get("id")}
    return cache[page]


def broken_links(root: Path) -> list[str]:
    """Every href/src of every page that points inside the site and misses: a file that is
    not there, or an anchor that no element of the target has. Links leaving the site
    (http:, mailto:) are reported too: the site must fetch nothing."""
    broken: list[str] = []
    ids: dict[Path, set[str]] = {}
    for page in pages(root):
        doc = lxml_html.fromstring(page.read_bytes())
        for el in doc.iter():
            for attr in ("href", "src"):
                value = el.get(attr)
                if value is None:
                    continue
                parts = urlsplit(value)
                where = f"{page.relative_to(root)}: {attr}={value!r}"
                if parts.scheme or parts.netloc:
                    broken.append(f"{where} leaves the site")
                    continue
                target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
                if root.resolve() not in target.parents and target != root.resolve():
                    broken.append(f"{where} points outside the site")
                    continue
                if not target.is_file():
                    broken.append(f"{where}: no such file")
                    continue
                if parts.fragment and target.suffix == ".html":
                    if unquote(parts.fragment) not in _ids(target, ids):
                        broken.append(f"{where}: no element with that id")
    return broken
