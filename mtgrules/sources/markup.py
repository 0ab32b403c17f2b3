"""Web and wiki pages: HTML, Markdown, DokuWiki and MediaWiki source, to plain lines (the
markup half of step 5, ``segment.py``).

The parser must see what a reader sees: a clause's label at the start of its own line
("107.3a If a spell..."), not behind a bookmark (``<BOOKMARK:cr107-3a>107.3a``) or inside
emphasis (``**107.3a**``); text without tags, entities, link syntax or line-break markers.

Lines stay lines. A wiki or Markdown page gives one parse line per source line (a line-break
marker, ``\\\\`` or ``<br>``, splits it), so an interleaved bilingual page (an English line,
then its Chinese line) stays interleaved and the scraped-page parser splits it into two
editions. An HTML page gives one line per block element (``<p>``, ``<li>``, ``<h2>``, ``<br>``...).
Each parse line remembers the source line it came from (``Extracted.source_lines``), and the
page itself is kept verbatim (``Extracted.source``): see formats.py for how raw text is kept.

Detection reads the markup, never the file name: a page is HTML when it says so
(``<!DOCTYPE html>``, ``<html>``) or is mostly tags; wiki when it has wiki headings, links or
DokuWiki's bookmarks and line breaks; Markdown when it has Markdown headings, emphasis or
links. Anything else is plain text, read exactly as before.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from html.parser import HTMLParser

from .formats import DOKUWIKI, HTML, MARKDOWN, MEDIAWIKI, TEXT

# --- detection ---------------------------------------------------------------------------

_SNIFF_CHARS = 64_000  # markup shows on every line of a page's source, so early
_MARKUP_CHARS = re.compile(r"<|\[\[|\]\(|==|\*\*|#|''|\{[{|]|\\\\|%%|//|~~|__")
_HTML_START = re.compile(
    r"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html[\s>]|head[\s>])", re.I | re.S
)
_HTML_TAG = re.compile(
    r"</?(?:p|div|br|span|a|li|ul|ol|h[1-6]|table|tr|td|th|em|strong|b|i|body|head|section|"
    r"article|blockquote|pre|dl|dt|dd|sup|sub|hr|img|font|center|nav|header|footer|main)\b[^<>]*>",
    re.I,
)
_WIKI_HEADING = re.compile(r"^\s*(={2,6})[^=].*?\1\s*$")
_WIKI_LINK = re.compile(r"\[\[[^\[\]\n]+\]\]")
_DOKU_BOOKMARK = re.compile(r"<BOOKMARK:[^>]*>", re.I)
_DOKU_BREAK = re.compile(r"\\\\(?=\s|$)")
_DOKU_ONLY = re.compile(r"(?<![:/])//[^/\s][^/]*?//|%%.+?%%|~~[A-Z]+~~")
_MW_ONLY = re.compile(r"'''|''[^'\s]|\{\{[^{}]+\}\}|^\{\||^\|-|^\|\}|__(?:NO)?TOC__|<ref[\s>]")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")
_MD_STRONG = re.compile(r"\*\*\S(?:[^*]*?\S)?\*\*")
_MD_LINK = re.compile(r"!?\[[^\]\n]+\]\([^)\s]+(?:\s+\"[^\"]*\")?\)|markdown=[\"']1[\"']")


def sniff_markup(text: str) -> str:
    """html, markdown, dokuwiki, mediawiki or text, from the markup in the first lines."""
    sample = text[:_SNIFF_CHARS]
    if _HTML_START.match(sample[:4096]):
        return HTML
    score: Counter[str] = Counter()
    # Every signal below needs one of these characters; only the lines that have one are
    # looked at, so that sniffing stays cheap beside parsing (110 editions in one ingest).
    sample = sample.replace("\r\n", "\n").replace("\r", "\n")
    line_end = -1
    for hit in _MARKUP_CHARS.finditer(sample):
        if hit.start() < line_end:
            continue
        line_end = sample.find("\n", hit.end())
        if line_end < 0:
            line_end = len(sample)
        s = sample[sample.rfind("\n", 0, hit.start()) + 1 : line_end].strip()
        if not s:
            continue
        if _DOKU_BOOKMARK.search(s) or _DOKU_BREAK.search(s) or _DOKU_ONLY.search(s):
            score[DOKUWIKI] += 1
        if _MW_ONLY.search(s):
            score[MEDIAWIKI] += 1
        if _WIKI_HEADING.match(s) or _WIKI_LINK.search(s):
            score["wiki"] += 1
        if _MD_HEADING.match(s) or _MD_LINK.search(s):
            score[MARKDOWN] += 1
        if _MD_STRONG.search(s):
            score["strong"] += 1  # Markdown's and DokuWiki's bold alike
        if _HTML_TAG.search(s):
            score[HTML] += 1
    # Two signals at least: one stray "**" or "[[" in a plain text file is no markup.
    if score["wiki"] + score[DOKUWIKI] + score[MEDIAWIKI] >= 2 and (
        score[DOKUWIKI] or score[MEDIAWIKI] or score["wiki"] >= 2
    ):
        if score[DOKUWIKI] > score[MEDIAWIKI] or (
            score[DOKUWIKI] == score[MEDIAWIKI] and score["strong"]
        ):
            return DOKUWIKI
        return MEDIAWIKI
    if score[MARKDOWN] + score["strong"] >= 2:
        return MARKDOWN
    if score[HTML] >= 3:
        return HTML
    return TEXT


# --- shared line cleaning ----------------------------------------------------------------

_ANY_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9:_-]*(?:\s[^<>]*)?/?>")
_BR = re.compile(r"<br\s*/?>", re.I)
_COMMENT = re.compile(r"<!--.*?-->")
_SPACES = re.compile(r"[ \t]{2,}")


def _finish(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _strip_tags(text: str) -> str:
    return _ANY_TAG.sub("", _COMMENT.sub("", text))


# --- Markdown ----------------------------------------------------------------------------

_MD_ATX = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$")
_MD_SETEXT = re.compile(r"^\s{0,3}(?:=+|-+)\s*$")
_MD_RULE = re.compile(r"^\s{0,3}([-*_])(?:\s*\1){2,}\s*$")
_MD_QUOTE = re.compile(r"^\s{0,3}(?:>\s?)+")
_MD_BULLET = re.compile(r"^\s*[-*+]\s+")
_MD_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_MD_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_MD_INLINE_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_MD_REF_LINK = re.compile(r"\[([^\]]+)\]\[([^\]]*)\]")
_MD_LINK_DEF = re.compile(r"^\s{0,3}\[([^\]]+)\]:\s+\S+")
_MD_LINK_DEFS = re.compile(_MD_LINK_DEF.pattern, re.M)
_MD_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]+)>")
_MD_CODE = re.compile(r"`+([^`]+)`+")
_MD_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_MD_EM_STAR = re.compile(r"(?<![*\w])\*(?=\S)([^*]+?)(?<=\S)\*(?![*\w])")
_MD_EM_UNDER = re.compile(r"(?<![_\w])_(?=\S)([^_]+?)(?<=\S)_(?![_\w])")
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")
_MD_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


def _markdown_lines(source: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    # "[text][ref]" is a link only where the page defines "[ref]: url"; the rules write
    # "[-X]", "[P/T]" and "{Level N1-N2} [Abilities] [P/T]" in brackets of their own.
    defined = {m[1].strip().casefold() for m in _MD_LINK_DEFS.finditer(source)}
    in_fence = False
    for n, line in enumerate(source.splitlines(), start=1):
        if _MD_FENCE.match(line):
            in_fence = not in_fence
            out.append((n, ""))
            continue
        if in_fence:
            out.append((n, line.rstrip()))
            continue
        if _MD_RULE.match(line) or _MD_SETEXT.match(line) or _MD_TABLE_RULE.match(line):
            out.append((n, ""))
            continue
        if _MD_LINK_DEF.match(line):
            out.append((n, ""))
            continue
        pieces = _BR.split(line)
        if len(pieces) > 1 and not pieces[-1].strip():
            pieces.pop()
        for piece in pieces:
            out.append((n, _markdown_inline(piece, defined)))
    return out


def _markdown_inline(line: str, defined: set[str] | frozenset[str] = frozenset()) -> str:
    m = _MD_ATX.match(line)
    text = m[1] if m else line
    text = _MD_QUOTE.sub("", text)
    text = _MD_BULLET.sub("", text)
    if text.lstrip().startswith("|"):
        text = " ".join(cell.strip() for cell in text.strip().strip("|").split("|"))
    text = _MD_AUTOLINK.sub(r"\1", text)
    text = _strip_tags(text)
    text = _MD_IMAGE.sub(r"\1", text)
    text = _MD_INLINE_LINK.sub(r"\1", text)
    text = _MD_REF_LINK.sub(
        lambda m: m[1] if (m[2] or m[1]).strip().casefold() in defined else m[0], text
    )
    text = _MD_CODE.sub(r"\1", text)
    # Escaped characters are set aside first so that "\*" never closes an emphasis.
    escaped: list[str] = []

    def hold(m: re.Match[str]) -> str:
        escaped.append(m[1])
        return f"\x00{len(escaped) - 1}\x00"

    text = _MD_ESCAPE.sub(hold, text)
    for _ in range(2):  # ***both*** is bold around italic
        text = _MD_BOLD.sub(r"\2", text)
        text = _MD_EM_STAR.sub(r"\1", text)
        text = _MD_EM_UNDER.sub(r"\1", text)
    text = re.sub(r"\x00(\d+)\x00", lambda m: escaped[int(m[1])], text)
    return _finish(html.unescape(text))


# --- wiki (DokuWiki and MediaWiki) -------------------------------------------------------

_WIKI_HEADING_TEXT = re.compile(r"^\s*(={1,6})\s*(.*?)\s*\1\s*$")
_WIKI_LINK_PARTS = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")
_MW_EXTERNAL = re.compile(r"\[(?:https?|ftp)://[^\s\]]+(?:\s+([^\]]*))?\]")
_MW_TEMPLATE = re.compile(r"\{\{[^{}]*\}\}")
_MW_REF = re.compile(r"<ref[^>/]*/>|<ref[^>]*>.*?</ref>", re.I)
_MW_QUOTES = re.compile(r"'{2,5}")
_MW_LIST = re.compile(r"^[*#:;]+\s*")
_MW_MAGIC = re.compile(r"__[A-Z]+__")
_DOKU_MEDIA = re.compile(r"\{\{[^{}|]*(?:\|([^{}]*))?\}\}")
_DOKU_FOOTNOTE = re.compile(r"\(\(.*?\)\)")
_DOKU_NOWIKI = re.compile(r"%%(.*?)%%")
_DOKU_FORMAT = re.compile(r"(\*\*|(?<![:/])//|__|'')(?=\S)(.+?)(?<=\S)\1")
_DOKU_LIST = re.compile(r"^\s{2,}[*-]\s*")
_DOKU_MACRO = re.compile(r"~~[A-Z]+~~")
_MEDIA_PREFIX = re.compile(r"^(?:file|image|media|category|datei|bild|fichier|archivo):", re.I)


def _link_text(m: re.Match[str]) -> str:
    target, label = m[1].strip(), m[2]
    if label is not None:
        return label.strip()
    if _MEDIA_PREFIX.match(target):
        return ""
    # [[cr:6#cr601]] shows the page or section name, not the namespace path.
    return re.split(r"[:#]", target)[-1] or target


def _wiki_lines(source: str, dialect: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for n, line in enumerate(source.splitlines(), start=1):
        s = line.strip()
        if dialect == MEDIAWIKI and s.startswith(("{|", "|}", "|-", "|+")):
            out.append((n, ""))
            continue
        pieces = _BR.split(line)
        if dialect == DOKUWIKI:
            pieces = [p for piece in pieces for p in _DOKU_BREAK.split(piece)]
        if len(pieces) > 1 and not pieces[-1].strip():
            pieces.pop()  # "text\\" at the end of a line: the line ends there anyway
        for piece in pieces:
            out.append((n, _wiki_inline(piece, dialect)))
    return out


def _wiki_inline(line: str, dialect: str) -> str:
    m = _WIKI_HEADING_TEXT.match(line)
    text = m[2] if m else line
    if dialect == MEDIAWIKI:
        text = _MW_LIST.sub("", text.lstrip())
        if text.startswith(("|", "!")):
            text = " ".join(c.strip() for c in re.split(r"\|\||!!", text.lstrip("|!")))
        text = _MW_REF.sub("", text)
        text = _MW_TEMPLATE.sub("", text)
        text = _MW_MAGIC.sub("", text)
        text = _WIKI_LINK_PARTS.sub(_link_text, text)
        text = _MW_EXTERNAL.sub(lambda m: m[1] or "", text)
        text = re.sub(r"<nowiki>(.*?)</nowiki>", r"\1", text, flags=re.I)
        text = _MW_QUOTES.sub("", text)
        text = _strip_tags(text)
        return _finish(html.unescape(text))
    # DokuWiki: text inside %%...%% is literal; everything else is markup to remove.
    literal: list[str] = []

    def hold(m: re.Match[str]) -> str:
        literal.append(m[1])
        return f"\x00{len(literal) - 1}\x00"

    text = _DOKU_NOWIKI.sub(hold, text)
    text = _DOKU_LIST.sub("", text)
    if text.lstrip().startswith(("|", "^")):
        text = " ".join(c.strip() for c in re.split(r"[|^]", text.strip()) if c.strip())
    text = _DOKU_FOOTNOTE.sub("", text)
    text = _DOKU_MEDIA.sub(lambda m: m[1] or "", text)
    text = _DOKU_MACRO.sub("", text)
    text = _WIKI_LINK_PARTS.sub(_link_text, text)
    text = _strip_tags(text)  # <BOOKMARK:...>, <del>, <sup>, plugin tags
    for _ in range(2):
        text = _DOKU_FORMAT.sub(r"\2", text)
    text = re.sub(r"\x00(\d+)\x00", lambda m: literal[int(m[1])], text)
    return _finish(text)


# --- HTML --------------------------------------------------------------------------------

_BLOCK_TAGS = {
    "address", "article", "aside", "blockquote", "body", "caption", "dd", "details", "div",
    "dl", "dt", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section", "summary",
    "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "ul",
}  # fmt: skip
_HIDDEN_TAGS = {"script", "style", "noscript", "template", "head", "svg", "math"}


class _HTMLLines(HTMLParser):
    """Text of an HTML page, one line per block, each with the source line it started on."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[int, str]] = []
        self._parts: list[str] = []
        self._start = 0
        self._has_text = False
        self._hidden = 0
        self._pre = 0

    def _flush(self) -> None:
        text = "".join(self._parts)
        self._parts = []
        self._has_text = False
        if self._pre:
            for k, piece in enumerate(text.split("\n")):
                self.lines.append((self._start + k, piece.rstrip()))
        elif text.strip():
            self.lines.append((self._start, _finish(" ".join(text.split()))))

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _HIDDEN_TAGS:
            self._hidden += 1
        elif tag == "br" or tag in _BLOCK_TAGS:
            self._flush()
            if tag == "pre":
                self._pre += 1

    def handle_startendtag(self, tag: str, attrs) -> None:
        if tag == "br" or tag in _BLOCK_TAGS:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN_TAGS:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BLOCK_TAGS:
            self._flush()
            if tag == "pre":
                self._pre = max(0, self._pre - 1)

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        if not self._has_text and data.strip():
            # The block's line is where its first visible character is.
            lead = data[: len(data) - len(data.lstrip())]
            self._start = self.getpos()[0] + lead.count("\n")
            self._has_text = True
        self._parts.append(data)

    def close(self) -> None:
        super().close()
        self._flush()


def _html_lines(source: str) -> list[tuple[int, str]]:
    parser = _HTMLLines()
    parser.feed(source)
    parser.close()
    return parser.lines


# --- entry point -------------------------------------------------------------------------


def markup_lines(source: str, dialect: str) -> list[tuple[int, str]]:
    """(line of ``source``, markup-free text) for each parse line of a page in ``dialect``
    (html, markdown, dokuwiki or mediawiki, as sniff_markup names it)."""
    if dialect == HTML:
        return _html_lines(source)
    if dialect == MARKDOWN:
        return _markdown_lines(source)
    return _wiki_lines(source, dialect)
