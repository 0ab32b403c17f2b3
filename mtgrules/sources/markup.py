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

from .formats import DOKUWIKI, HTML, MARKDOWN, MEDIAWIKI, TEXT

# --- detection ---------------------------------------------------------------------------

_SNIFF_CHARS = 64_000  # markup shows on every line of a page's source, so early
_MARKUP_CHARS = re.compile(r"<|\[\[|\]\(|==|\*\*|#|''|\{[{|]|\\\\|%%|//|~~|__")
_HTML_OPEN = re.compile(r"<(?:!doctype\s+html|html[\s>]|head[\s>])", re.I)
_HTML_TAG = re.compile(
    r"</?(?:p|div|br|span|a|li|ul|ol|h[1-6]|table|tr|td|th|em|strong|b|i|body|head|section|"
    r"article|blockquote|pre|dl|dt|dd|sup|sub|hr|img|font|center|nav|header|footer|main)\b[^<>]*>",
    re.I,
)
_WIKI_LINK = re.compile(r"\[\[[^\[\]\n]+\]\]")
_DOKU_BOOKMARK = re.compile(r"<BOOKMARK:[^<>]*>", re.I)
_DOKU_BREAK = re.compile(r"\\\\(?=\s|$)")
_DOKU_ONLY = re.compile(r"(?<![:/])//[^/\s][^/]*?//|%%.+?%%|~~[A-Z]+~~")
_MW_ONLY = re.compile(r"'''|''[^'\s]|\{\{[^{}]+\}\}|^\{\||^\|-|^\|\}|__(?:NO)?TOC__|<ref[\s>]")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")
_MD_STRONG = re.compile(r"\*\*\S(?:[^*]*?\S)?\*\*")
_MD_LINK = re.compile(r"!?\[[^\[\]\n]+\]\([^()\s]+(?:\s+\"[^\"()]*\")?\)|markdown=[\"']1[\"']")


def sniff_markup(text: str) -> str:
    """html, markdown, dokuwiki, mediawiki or text, from the markup in the first lines."""
    sample = text[:_SNIFF_CHARS]
    if _starts_as_html(sample[:4096]):
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
        if _wiki_heading(s, least=2, text_after=True) is not None or _WIKI_LINK.search(s):
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


def _starts_as_html(sample: str) -> bool:
    """A page that begins (after spaces and comments) with a doctype, <html> or <head>."""
    pos, end = 0, len(sample)
    while True:
        while pos < end and sample[pos].isspace():
            pos += 1
        if not sample.startswith("<!--", pos):
            return _HTML_OPEN.match(sample, pos) is not None
        close = sample.find("-->", pos + 4)
        if close < 0:
            return False
        pos = close + 3


def _wiki_heading(line: str, least: int, text_after: bool = False) -> str | None:
    """The text of a wiki heading ("== Numbers and Symbols ==": ``least`` to six equals
    signs on each side, the same number), or None. Plain string work: the regular
    expression it replaces, ``^\\s*(={1,6})\\s*(.*?)\\s*\\1\\s*$``, took quadratic time on a
    long run of spaces. ``text_after``: the opening run must be followed by text (no
    "=====" rule lines)."""
    s = line.strip()
    lead = len(s) - len(s.lstrip("="))
    if text_after:
        # The whole opening run is the level: "=== a ==" is no level-2 heading.
        if least <= lead <= 6 and len(s) >= 2 * lead + 1 and s.endswith("=" * lead):
            return s[lead:-lead].strip()
        return None
    for level in range(min(lead, 6), least - 1, -1):
        if len(s) >= 2 * level and s.endswith("=" * level):
            return s[level : len(s) - level].strip()
    return None


def strip_spans(text: str, opener: re.Pattern[str], closer: re.Pattern[str], keep: bool) -> str:
    """``text`` with every span from an ``opener`` match to the next ``closer`` match removed
    (``keep``: only the delimiters removed, the inside kept). Linear: once no closer
    follows an opener, no later opener can have one either, so the scan stops; a lazy
    regular expression (``<!--.*?-->``) instead rescans the rest of the line from every
    unclosed opener."""
    out: list[str] = []
    pos = 0
    while (start := opener.search(text, pos)) is not None:
        end = closer.search(text, start.end())
        if end is None:
            break
        out.append(text[pos : start.start()])
        if keep:
            out.append(text[start.end() : end.start()])
        pos = end.end()
    if not out:
        return text
    out.append(text[pos:])
    return "".join(out)


def _restore(text: str, held: list[str]) -> str:
    """Put back what ``hold`` set aside as "\\x00N\\x00" (a page's own NUL bytes stay)."""

    def back(m: re.Match[str]) -> str:
        n = int(m[1])
        return held[n] if n < len(held) else m[0]

    return _HELD.sub(back, text) if held else text


_HELD = re.compile(r"\x00(\d{1,9})\x00")

# --- shared line cleaning ----------------------------------------------------------------

_ANY_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9:_-]*(?:\s[^<>]*)?/?>")
_BR = re.compile(r"<br\s*/?>", re.I)
_COMMENT_OPEN = re.compile(r"<!--")
_COMMENT_CLOSE = re.compile(r"-->")
_SPACES = re.compile(r"[ \t]{2,}")


def _finish(text: str) -> str:
    if "  " in text or "\t" in text:
        text = _SPACES.sub(" ", text)
    return text.strip()


def _strip_tags(text: str) -> str:
    if "<" not in text:
        return text
    return _ANY_TAG.sub("", strip_spans(text, _COMMENT_OPEN, _COMMENT_CLOSE, keep=False))


# --- Markdown ----------------------------------------------------------------------------

_MD_ATX = re.compile(r"^\s{0,3}#{1,6}\s++")
_MD_SETEXT = re.compile(r"^\s{0,3}(?:=++|-++)\s*+$")
_MD_RULE = re.compile(r"^\s{0,3}([-*_])(?:\s*\1){2,}\s*$")
_MD_QUOTE = re.compile(r"^\s{0,3}(?:>\s?)+")
_MD_BULLET = re.compile(r"^\s*[-*+]\s+")
_MD_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
# Brackets and parentheses never nest inside these: each attempt stops at the next one, so
# "[a [a [a" or "[a](b [a](b" cost one pass, not one pass per bracket.
_MD_IMAGE = re.compile(r"!\[([^\[\]]*)\]\([^()]*\)")
_MD_INLINE_LINK = re.compile(r"\[([^\[\]]+)\]\([^()]*\)")
_MD_REF_LINK = re.compile(r"\[([^\[\]]+)\]\[([^\[\]]*)\]")
_MD_LINK_DEF = re.compile(r"^\s{0,3}\[([^\[\]\n]+)\]:\s+\S+")
_MD_LINK_DEFS = re.compile(_MD_LINK_DEF.pattern, re.M)
_MD_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]+)>")
# From the start of a run of backticks only, taken whole: "````..." costs one pass.
_MD_CODE = re.compile(r"(?<!`)`++([^`]+)`+")
# Emphasis never runs across its own delimiter: "**a **a **a" (no closer) costs one pass.
_MD_BOLD = re.compile(
    r"\*\*(?=\S)((?:[^*]|\*(?!\*))+?)(?<=\S)\*\*|__(?=\S)((?:[^_]|_(?!_))+?)(?<=\S)__"
)
_MD_EM_STAR = re.compile(r"(?<![*\w])\*(?=\S)([^*]+?)(?<=\S)\*(?![*\w])")
_MD_EM_UNDER = re.compile(r"(?<![_\w])_(?=\S)([^_]+?)(?<=\S)_(?![_\w])")
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")
# Possessive: a run of spaces is taken whole (giving some back could never help the next
# part match), so a long run costs one pass.
_MD_TABLE_RULE = re.compile(r"^\s*+\|?\s*+:?-{3,}+:?\s*+(?:\|\s*+:?-{3,}+:?\s*+)*+\|?\s*+$")


def _markdown_lines(source: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    # "[text][ref]" is a link only where the page defines "[ref]: url"; the rules write
    # "[-X]", "[P/T]" and "{Level N1-N2} [Abilities] [P/T]" in brackets of their own.
    defined = {m[1].strip().casefold() for m in _MD_LINK_DEFS.finditer(source)}
    in_fence = False
    for n, line in enumerate(source.splitlines(), start=1):
        # Each pattern is tried only where its first character is: a page of many short
        # lines must not pay a dozen regular expressions per line.
        first = line.lstrip()[:1]
        if first in ("`", "~") and _MD_FENCE.match(line):
            in_fence = not in_fence
            out.append((n, ""))
            continue
        if in_fence:
            out.append((n, line.rstrip()))
            continue
        if first in ("-", "*", "_", "=", "|", ":") and (
            _MD_RULE.match(line) or _MD_SETEXT.match(line) or _MD_TABLE_RULE.match(line)
        ):
            out.append((n, ""))
            continue
        if first == "[" and _MD_LINK_DEF.match(line):
            out.append((n, ""))
            continue
        pieces = _BR.split(line) if "<" in line else [line]
        if len(pieces) > 1 and not pieces[-1].strip():
            pieces.pop()
        for piece in pieces:
            out.append((n, _markdown_inline(piece, defined)))
    return out


def _markdown_inline(line: str, defined: set[str] | frozenset[str] = frozenset()) -> str:
    m = _MD_ATX.match(line) if "#" in line else None
    text = _atx_text(line[m.end() :]) if m else line
    head = text.lstrip()[:1]
    if head == ">":
        text = _MD_QUOTE.sub("", text)
        head = text.lstrip()[:1]
    if head in ("-", "*", "+"):
        text = _MD_BULLET.sub("", text)
    if text.lstrip().startswith("|"):
        text = " ".join(cell.strip() for cell in text.strip().strip("|").split("|"))
    if "<" in text:
        text = _MD_AUTOLINK.sub(_first_group, text)
        text = _strip_tags(text)
    if "[" in text:
        text = _MD_IMAGE.sub(_first_group, text)
        text = _MD_INLINE_LINK.sub(_first_group, text)
        text = _MD_REF_LINK.sub(
            lambda m: m[1] if (m[2] or m[1]).strip().casefold() in defined else m[0], text
        )
    if "`" in text:
        text = _MD_CODE.sub(_first_group, text)
    # Escaped characters are set aside first so that "\*" never closes an emphasis.
    escaped: list[str] = []

    def hold(m: re.Match[str]) -> str:
        escaped.append(m[1])
        return f"\x00{len(escaped) - 1}\x00"

    if "\\" in text:
        text = _MD_ESCAPE.sub(hold, text)
    if "*" in text or "_" in text:
        for _ in range(2):  # ***both*** is bold around italic
            text = _MD_BOLD.sub(lambda m: m[1] if m[1] is not None else m[2], text)
            text = _MD_EM_STAR.sub(_first_group, text)
            text = _MD_EM_UNDER.sub(_first_group, text)
    text = _restore(text, escaped)
    return _finish(html.unescape(text) if "&" in text else text)


def _first_group(m: re.Match[str]) -> str:
    # A function, not the template r"\1": re compiles a template on every call.
    return m[1]


def _atx_text(rest: str) -> str:
    """An ATX heading's text: "Title ##" without its closing hashes ("C#" keeps its own)."""
    text = rest.rstrip()
    core = text.rstrip("#")
    if core != text and core and core[-1].isspace():
        text = core
    return text.rstrip()


# --- wiki (DokuWiki and MediaWiki) -------------------------------------------------------

_WIKI_LINK_PARTS = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")
_MW_EXTERNAL = re.compile(r"\[(?:https?|ftp)://[^\s\[\]]+(?:\s+([^\[\]]*))?\]")
_MW_TEMPLATE = re.compile(r"\{\{[^{}]*\}\}")
_MW_REF_EMPTY = re.compile(r"<ref[^<>/]*/>", re.I)
_MW_REF_OPEN = re.compile(r"<ref[^<>]*>", re.I)
_MW_REF_CLOSE = re.compile(r"</ref>", re.I)
_MW_NOWIKI_OPEN = re.compile(r"<nowiki>", re.I)
_MW_NOWIKI_CLOSE = re.compile(r"</nowiki>", re.I)
_MW_QUOTES = re.compile(r"'{2,5}")
_MW_LIST = re.compile(r"^[*#:;]+\s*")
_MW_MAGIC = re.compile(r"__[A-Z]+__")
_DOKU_MEDIA = re.compile(r"\{\{[^{}|]*(?:\|([^{}]*))?\}\}")
_DOKU_FOOTNOTE_OPEN = re.compile(r"\(\(")
_DOKU_FOOTNOTE_CLOSE = re.compile(r"\)\)")
_DOKU_NOWIKI = re.compile(r"%%(.*?)%%")
# Bold, italic (not the // of a URL), underline, monospace; none runs across its own
# delimiter, so that "//a //a //a" (no closer) costs one pass.
_DOKU_FORMAT = re.compile(
    r"\*\*(?=\S)((?:[^*]|\*(?!\*))+?)(?<=\S)\*\*"
    r"|(?<![:/])//(?=\S)((?:[^/]|/(?!/))+?)(?<=\S)//"
    r"|__(?=\S)((?:[^_]|_(?!_))+?)(?<=\S)__"
    r"|''(?=\S)((?:[^']|'(?!'))+?)(?<=\S)''"
)
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
        pieces = _BR.split(line) if "<" in line else [line]
        if dialect == DOKUWIKI and "\\\\" in line:
            pieces = [p for piece in pieces for p in _DOKU_BREAK.split(piece)]
        if len(pieces) > 1 and not pieces[-1].strip():
            pieces.pop()  # "text\\" at the end of a line: the line ends there anyway
        for piece in pieces:
            out.append((n, _wiki_inline(piece, dialect)))
    return out


def _wiki_inline(line: str, dialect: str) -> str:
    # As for Markdown, each pattern runs only where its first character is.
    heading = _wiki_heading(line, least=1) if "=" in line else None
    text = heading if heading is not None else line
    if dialect == MEDIAWIKI:
        text = text.lstrip()
        if text[:1] in ("*", "#", ":", ";"):
            text = _MW_LIST.sub("", text)
        if text.startswith(("|", "!")):
            text = " ".join(c.strip() for c in re.split(r"\|\||!!", text.lstrip("|!")))
        if "<" in text:
            text = _MW_REF_EMPTY.sub("", text)
            text = strip_spans(text, _MW_REF_OPEN, _MW_REF_CLOSE, keep=False)
        if "{{" in text:
            text = _MW_TEMPLATE.sub("", text)
        if "__" in text:
            text = _MW_MAGIC.sub("", text)
        if "[" in text:
            text = _WIKI_LINK_PARTS.sub(_link_text, text)
            text = _MW_EXTERNAL.sub(lambda m: m[1] or "", text)
        if "<" in text:
            text = strip_spans(text, _MW_NOWIKI_OPEN, _MW_NOWIKI_CLOSE, keep=True)
        if "''" in text:
            text = _MW_QUOTES.sub("", text)
        text = _strip_tags(text)
        return _finish(html.unescape(text) if "&" in text else text)
    # DokuWiki: text inside %%...%% is literal; everything else is markup to remove.
    literal: list[str] = []

    def hold(m: re.Match[str]) -> str:
        literal.append(m[1])
        return f"\x00{len(literal) - 1}\x00"

    if "%%" in text:
        text = _DOKU_NOWIKI.sub(hold, text)
    if text[:2].isspace():
        text = _DOKU_LIST.sub("", text)
    if text.lstrip().startswith(("|", "^")):
        text = " ".join(c.strip() for c in re.split(r"[|^]", text.strip()) if c.strip())
    if "((" in text:
        text = strip_spans(text, _DOKU_FOOTNOTE_OPEN, _DOKU_FOOTNOTE_CLOSE, keep=False)
    if "{{" in text:
        text = _DOKU_MEDIA.sub(lambda m: m[1] or "", text)
    if "~~" in text:
        text = _DOKU_MACRO.sub("", text)
    if "[[" in text:
        text = _WIKI_LINK_PARTS.sub(_link_text, text)
    text = _strip_tags(text)  # <BOOKMARK:...>, <del>, <sup>, plugin tags
    if "**" in text or "//" in text or "__" in text or "''" in text:
        for _ in range(2):
            text = _DOKU_FORMAT.sub(_some_group, text)
    return _finish(_restore(text, literal))


def _some_group(m: re.Match[str]) -> str:
    return next(g for g in m.groups() if g is not None)


# --- HTML --------------------------------------------------------------------------------

_BLOCK_TAGS = {
    "address", "article", "aside", "blockquote", "body", "caption", "dd", "details", "div",
    "dl", "dt", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section", "summary",
    "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "ul",
}  # fmt: skip
_HIDDEN_TAGS = {"script", "style", "noscript", "template", "head", "svg", "math"}


# libxml2 keeps an element's line in 16 bits: past line 65535 it says 65535.
_LIBXML2_LAST_LINE = 65535


class _HTMLLines:
    """Text of an HTML page, one line per block, each with the source line it started on.

    The page is parsed by libxml2's HTML parser (lxml), which is linear on any input: the
    standard library's html.parser rescans the rest of the page at every unterminated
    tag, and took 81 s on 120 KB of ``<a b='`` (benchmarks/bench_markup.py). Lines: each
    element knows the line its start tag ends on; text between elements adds its own
    newlines."""

    def __init__(self) -> None:
        self.lines: list[tuple[int, str]] = []
        self._parts: list[str] = []
        self._line = 1  # the source line the walk has reached
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

    def at(self, line: int | None) -> bool:
        """Move to the line libxml2 gives, when it can tell (True)."""
        if line is not None and 0 < line < _LIBXML2_LAST_LINE:
            self._line = line
            return True
        return False

    def start(self, tag: str) -> None:
        if tag in _HIDDEN_TAGS:
            self._hidden += 1
        elif tag == "br" or tag in _BLOCK_TAGS:
            self._flush()
            if tag == "pre":
                self._pre += 1

    def end(self, tag: str) -> None:
        if tag in _HIDDEN_TAGS:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BLOCK_TAGS:
            self._flush()
            if tag == "pre":
                self._pre = max(0, self._pre - 1)

    def data(self, data: str | None, *, visible: bool = True) -> None:
        if not data:
            return
        if visible and not self._hidden:
            if not self._has_text and data.strip():
                # The block's line is where its first visible character is.
                lead = data[: len(data) - len(data.lstrip())]
                self._start = self._line + lead.count("\n")
                self._has_text = True
            self._parts.append(data)
        self._line += data.count("\n")

    def close(self) -> None:
        self._flush()


def _html_lines(source: str) -> list[tuple[int, str]]:
    from lxml import etree

    # Bytes in, UTF-8 declared: the page was decoded already (its <meta charset> read by
    # decode.py), so the parser must not decode it again. Comments are kept only so that
    # their newlines count.
    parser = etree.HTMLParser(
        encoding="utf-8", remove_comments=False, remove_pis=False, no_network=True
    )
    out = _HTMLLines()
    try:
        root = etree.fromstring(source.encode("utf-8", "surrogatepass"), parser)
    except etree.ParserError:  # nothing but comments or whitespace
        root = None
    if root is None:
        return []
    for event, el in etree.iterwalk(root, events=("start", "end", "comment", "pi")):
        tag = el.tag.lower() if isinstance(el.tag, str) else None
        if event == "start":
            out.at(el.sourceline)
            if tag is not None:
                out.start(tag)
                out.data(el.text)
            continue
        if event == "end" and tag is not None:
            out.end(tag)
        elif not out.at(el.sourceline):
            # A comment or processing instruction is never shown. libxml2 gives the line it
            # ends on; past its last line number, its own newlines are counted instead.
            out.data(el.text, visible=False)
        out.data(el.tail)
    out.close()
    return out.lines


# --- entry point -------------------------------------------------------------------------


def markup_lines(source: str, dialect: str) -> list[tuple[int, str]]:
    """(line of ``source``, markup-free text) for each parse line of a page in ``dialect``
    (html, markdown, dokuwiki or mediawiki, as sniff_markup names it)."""
    if dialect == HTML:
        return _html_lines(source)
    if dialect == MARKDOWN:
        return _markdown_lines(source)
    return _wiki_lines(source, dialect)
