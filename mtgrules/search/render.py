"""Search results for a terminal: ranked hits, matching words highlighted, aligned clauses
indented beneath each hit. No click here (only cli.py imports it)."""

from __future__ import annotations

from ..render import bold, dim, wrap
from ..text.fold import fold_words
from ..text.language import same_tag
from ..text.terminal import visible
from ..text.width import wrap_lines
from .highlight import highlight_spans
from .results import Hit, SearchResult

# Placeholders that survive textwrap (one column each) and become colour codes afterwards.
_ON, _OFF = "\x01", "\x02"
_HIGHLIGHT = "\x1b[1;33m"  # bold yellow
_RESET = "\x1b[0m"


def _mark(text: str, words: list[str], colour: bool) -> str:
    if not colour:
        return text
    out, last = [], 0
    for start, end in highlight_spans(text, words):
        out += [text[last:start], _ON, text[start:end], _OFF]
        last = end
    out.append(text[last:])
    return "".join(out)


WIDTH = 80


def _wrap(text: str, indent: str, width: int) -> str:
    """Wrapped by display columns (render.wrap: CJK breaks between characters, kinsoku);
    the highlight placeholders take no column until painted."""
    return (
        wrap(text.replace(_ON, "\x1b[1m").replace(_OFF, "\x1b[0m"), indent, width)
        .replace("\x1b[1m", _ON)
        .replace("\x1b[0m", _OFF)
    )


def _paint(text: str) -> str:
    return text.replace(_ON, _HIGHLIGHT).replace(_OFF, _RESET)


def _where(label: str | None, kind: str, term: str | None, inferred: bool = False) -> str:
    if kind == "glossary":
        return f"glossary: {term}" if term else "glossary"
    if label:
        label += "*" if inferred else ""  # inferred by the aligner: the page prints none
        return label if kind in ("rule", "heading") else f"{label} ({kind})"
    return f"({kind})"


def _also(hit: Hit) -> str:
    """ "also in 17 editions, 2009-07-11 to 2025-11-14; 3 wordings; was 702.18, 702.17", and
    "same text as 806.2b" where the edition prints it under other numbers too."""
    same = ["same text as " + ", ".join(hit.same_text)] if hit.same_text else []
    if hit.also_in == 0:
        return "  (" + same[0] + ")" if same else ""
    also = f"also in {hit.also_in} edition{'s' if hit.also_in > 1 else ''}"
    if hit.first_date and hit.last_date and hit.first_date != hit.last_date:
        also += f", {hit.first_date} to {hit.last_date}"
    parts = [also, *same]
    if hit.versions > 1:
        parts.append(f"{hit.versions} wordings")
    # A number the hit's edition still prints the text under is no former number.
    older = [lab for lab in hit.labels if lab != hit.label and lab not in hit.same_text]
    if older:
        parts.append("was " + ", ".join(older))
    return "  (" + "; ".join(parts) + ")"


def relevance_bar(relevance: float, cells: int = 5) -> str:
    """ "■■■■□ 82%": how well a hit answers, for a reader (the raw score is only an order)."""
    full = round(max(0.0, min(relevance, 1.0)) * cells)
    return "■" * full + "□" * (cells - full) + f" {round(relevance * 100)}%"


def _hit_block(n: int, hit: Hit, result: SearchResult, colour: bool, width: int) -> list[str]:
    fuzzy = "  [fuzzy]" if hit.fuzzy else ""
    partial = "  [some words]" if hit.partial else ""
    where = _where(hit.label, hit.kind, hit.term, hit.label_inferred)
    head = visible(f"{n}. {where}  {hit.edition}  [{hit.language}]")
    gone = f"  [obsolete: last in {hit.last_date or hit.edition}]" if hit.obsolete else ""
    first = bold(head, colour) + dim(
        visible(f"  {relevance_bar(hit.relevance)}{_also(hit)}"), colour
    )
    lines = wrap_lines(first + gone + fuzzy + partial, width, "", "     ")
    lines.append(_paint(_wrap(_mark(visible(hit.text), hit.words, colour), "     ", width)))
    for a in hit.aligned:
        # Only highlighted in colour: folding a Chinese form loads OpenCC's tables.
        words = [
            w
            for lang, forms in (result.translations.items() if colour else ())
            if same_tag(lang, a.language)
            for f in forms
            for w in fold_words(f)
        ]
        tag = f"{a.language} {_where(a.label, a.kind, a.term, a.label_inferred)}  {a.edition}"
        # Wrapped too: a Japanese entry's heading (二段攻撃（にだんこうげき）／Double Strike)
        # overran 80 columns.
        lines += [
            dim(line, colour)
            for line in wrap_lines(visible(f"{tag}  (by {a.via})"), width, "     ")
        ]
        lines.append(_paint(_wrap(_mark(visible(a.text), words, colour), "       ", width)))
    return lines


def render_search(
    result: SearchResult, colour: bool = False, width: int = WIDTH, *, hint: str | None = None
) -> str:
    """The hits for a terminal, laid out in ``width`` columns; every text from the store
    or the query is sanitised (text/terminal.py) before the highlight colour is added.
    ``hint``: what to say when a rule number finds nothing (store.queries.rule_not_found:
    whether the number ever existed, the nearest ones that did)."""
    out: list[str] = []
    if result.translations:
        forms = " · ".join(f"{lang} {' / '.join(fs)}" for lang, fs in result.translations.items())
        out.append(dim(wrap(visible(f"termbase: {forms}"), "", width), colour))
    if result.searched_as:
        forms = " · ".join(f"{lang} {' / '.join(fs)}" for lang, fs in result.searched_as.items())
        out.append(wrap(visible(f"Searched as the termbase's {forms}, not as typed"), "", width))
    if result.read_as:
        names = ", ".join(f"{w} → {' / '.join(fs)}" for w, fs in result.read_as.items())
        out.append(wrap(visible(f"Read as the translation's words: {names}"), "", width))
    if result.fuzzy_words:
        fixes = ", ".join(f"{w} → {' / '.join(alts)}" for w, alts in result.fuzzy_words.items())
        out.append(
            wrap(visible(f"No exact match for every word; fuzzy hits use: {fixes}"), "", width)
        )
    if not result.hits and result.mode == "rule":
        message = hint or (
            f"No edition (of those searched) has rule {result.words[0]}; try: mtgrules search WORDS"
        )
        out.append(wrap(visible(message[:1].upper() + message[1:]), "", width))
        return "\n".join(out)
    if not result.hits:
        out.append(
            wrap(
                visible(
                    f"Nothing matches '{result.query}'. Try fewer words, another language, "
                    "or drop --lang/--edition/--kind."
                ),
                "",
                width,
            )
        )
        return "\n".join(out)
    for n, hit in enumerate(result.hits, 1):
        out += _hit_block(n, hit, result, colour, width)
        out.append("")
    return "\n".join(out).rstrip()
