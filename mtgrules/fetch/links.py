"""The Comprehensive Rules documents a rules page links.

The publisher's page (https://magic.wizards.com/en/rules) links the current rules as TXT,
PDF and DOCX files named by their date ("MagicCompRules 20260227.txt" on
media.wizards.com), beside the Basic Rules, the Magic Tournament Rules and other documents.
Pages change their layout; what stays is that a rules link's address or text, or the heading
it stands under, names the Comprehensive Rules, and that it ends in .txt, .pdf or .docx. A
mirror or a test server that links files that way works the same.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import quote, unquote, urljoin, urlsplit, urlunsplit

from ..sources.dates import find_effective_date

FORMATS = ("txt", "pdf", "docx")  # in the order they are taken: TXT is the reference text
_NAMES = re.compile(r"comp(?:rehensive)?[\s_+\-.]*rules|magiccomprules|\bcr\b", re.I)
# Other documents a rules page links, which are not the Comprehensive Rules.
_OTHERS = re.compile(
    r"basic|tournament|\bmtr\b|infraction|\bipg\b|judg|floor|banned|restricted|"
    r"quick[\s_-]*start|play[\s_-]*guide",
    re.I,
)
_DATE = re.compile(r"(20[0-9]{2})[\s_\-.]?([01][0-9])[\s_\-.]?([0-3][0-9])")
_CONTEXT = 300  # characters of text before a link that say what it is


@dataclass(frozen=True)
class RulesLink:
    """A link to a Comprehensive Rules document (TXT, PDF or DOCX), found on a rules page or given
    as the address itself."""

    url: str  # absolute, its path percent-encoded
    format: str  # txt, pdf or docx
    date: str | None  # from its file name (or the text before it): YYYY-MM-DD
    text: str  # what the link says

    @property
    def name(self) -> str:
        """Its file name ("MagicCompRules 20260227.txt")."""
        return unquote(urlsplit(self.url).path.rsplit("/", 1)[-1]) or self.url


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str, str]] = []  # href, link text, text before it
        self._text: list[str] = []  # recent text, for the context of the next link
        self._heading = ""
        self._in_heading = False
        self._href: str | None = None
        self._link_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self._href, self._link_text = href.strip(), []
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._in_heading, self._heading = True, ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            before = "".join(self._text)[-_CONTEXT:]
            text = " ".join("".join(self._link_text).split())
            self.found.append((self._href, text, f"{self._heading} {before}"))
            self._href = None
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._in_heading = False

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._link_text.append(data)
        if self._in_heading:
            self._heading += data
        self._text.append(data)
        if len(self._text) > 64:
            self._text = ["".join(self._text)[-_CONTEXT:]]


def _absolute(href: str, base: str) -> str:
    """An absolute URL with its path percent-encoded: the publisher writes its file names
    with a space ("MagicCompRules 20260227.txt")."""
    url = urljoin(base, href)
    parts = urlsplit(url)
    path = quote(unquote(parts.path), safe="/%:@!$&'()*+,;=-._~")
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def _format(url: str) -> str | None:
    path = unquote(urlsplit(url).path).lower()
    for fmt in FORMATS:
        if path.endswith("." + fmt):
            return fmt
    return None


def _date(name: str, context: str) -> str | None:
    m = _DATE.search(name)
    if m:
        try:
            return dt.date(int(m[1]), int(m[2]), int(m[3])).isoformat()
        except ValueError:
            pass
    found = find_effective_date(context)
    return found.isoformat() if found else None


def rules_links(html: str, base: str) -> list[RulesLink]:
    """Every link of the page to a Comprehensive Rules document (TXT, PDF or DOCX)."""
    parser = _Links()
    parser.feed(html)
    parser.close()
    out: list[RulesLink] = []
    seen: set[str] = set()
    for href, text, context in parser.found:
        if href.startswith(("mailto:", "javascript:", "#")):
            continue
        try:
            url = _absolute(href, base)
        except ValueError:  # an address that cannot be read ("http://[::1/..."): no link
            continue
        fmt = _format(url)
        if fmt is None or url in seen:
            continue
        name = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
        # What the link itself says counts first: a file named for the rules is one even on
        # a page that also names the tournament rules nearby.
        own = f"{name} {text}"
        if _NAMES.search(own):
            if _OTHERS.search(own) and not _NAMES.search(name):
                continue
        elif not (_NAMES.search(context[-120:]) and not _OTHERS.search(own)):
            continue
        seen.add(url)
        out.append(RulesLink(url, fmt, _date(name, f"{text} {context}"), text))
    return out


def file_link(url: str) -> RulesLink | None:
    """The address itself as a rules document, when it names one (a .txt, .pdf or .docx):
    `fetch --url` given the file rather than the page that links it."""
    fmt = _format(url)
    if fmt is None:
        return None
    url = _absolute(url, url)
    name = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
    return RulesLink(url, fmt, _date(name, ""), name)


def choose(links: list[RulesLink]) -> list[RulesLink]:
    """The documents to fetch: the newest edition the page links (by the date in the file
    names), its TXT first, then its PDF and DOCX (other sources of the same edition)."""
    if not links:
        return []
    dated = [link for link in links if link.date]
    newest = max((link.date for link in dated), default=None)
    chosen = [link for link in links if link.date == newest] if newest else links
    by_format: dict[str, RulesLink] = {}
    for link in chosen:
        by_format.setdefault(link.format, link)
    return [by_format[f] for f in FORMATS if f in by_format]
