"""Plain-text rendering for the terminal: width, tables, wrapping, rule listings. No click.

Text is measured in display columns (text/width.py: a CJK character takes two) and fitted
to the output's width: the terminal's, or $COLUMNS, else 80 (a pipe, a file).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

from .text.terminal import visible, visible_tree
from .text.width import columns, pad, wrap_lines
from .text.width import wrap as wrap_text

# Narrower than this, a table or a paragraph cannot be laid out sensibly: a terminal of 20
# columns gets text laid out for 40, which it wraps itself.
MIN_WIDTH = 40
PIPE_WIDTH = 80

__all__ = [
    "bold",
    "char_columns",
    "columns",
    "dim",
    "fit",
    "output_width",
    "render_show",
    "table",
    "to_json",
    "use_colour",
    "visible",
    "visible_tree",
    "wrap",
]


def use_colour(stream=None) -> bool:
    """Colour on a terminal, unless NO_COLOR is set (https://no-color.org: any value)."""
    stream = stream or sys.stdout
    return stream.isatty() and "NO_COLOR" not in os.environ


def output_width(stream=None) -> int:
    """Columns to lay text out in: $COLUMNS when set, else the terminal's, else 80."""
    stream = stream or sys.stdout
    env = os.environ.get("COLUMNS", "").strip()
    if env.isdigit() and int(env) > 0:
        return max(int(env), MIN_WIDTH)
    try:
        if stream.isatty():
            # os rather than shutil.get_terminal_size ($COLUMNS is read above): shutil
            # imports bz2 and lzma, a cost every command would pay at start-up.
            return max(os.get_terminal_size(stream.fileno()).columns or PIPE_WIDTH, MIN_WIDTH)
    except (AttributeError, ValueError, OSError):
        pass
    return PIPE_WIDTH


def to_json(data: Any) -> str:
    import json  # here: text output, most commands' output, does not need it

    return json.dumps(data, ensure_ascii=False, indent=2, default=str)


def char_columns(ch: str) -> int:
    """Terminal columns a character takes: two for East Asian wide and full-width ones."""
    return columns(ch)


def wrap(text: str, indent: str, width: int = PIPE_WIDTH) -> str:
    """Each line of ``text`` filled to ``width`` columns, every line starting with
    ``indent`` (an empty paragraph keeps its indent-only line)."""
    return wrap_text(text, width, indent)


def fit(text: str, width: int) -> str:
    """Text laid out by a renderer that knows no width, fitted to ``width``: each line wider
    than that wrapped, its continuation indented two columns past the line's own indent."""
    out = []
    for line in text.split("\n"):
        if columns(line) <= width:
            out.append(line)
            continue
        body = line.lstrip(" ")
        indent = " " * (len(line) - len(body))
        out += wrap_lines(body, width, indent, indent + "  ")
    return "\n".join(out)


def table(
    headers: Sequence[str],
    rows: Sequence[Sequence[Any]],
    width: int | None = None,
    *,
    optional: Sequence[str] = (),
    gap: int = 2,
) -> str:
    """Rows under headers, columns aligned by display width, fitted to ``width`` (None:
    any width). Too wide, the table first drops the ``optional`` columns (whose content
    the others repeat), then wraps its widest columns inside their cells, and as a last
    resort prints each row as "header: value" lines. ``gap``: spaces between columns."""
    headers = list(headers)
    cells = [["-" if v is None else str(v) for v in row] for row in rows]
    natural = [max([columns(h)] + [columns(r[i]) for r in cells]) for i, h in enumerate(headers)]
    if width is not None and _total(natural, gap) > width:
        keep = [i for i, h in enumerate(headers) if h not in optional]
        if len(keep) < len(headers):
            headers = [headers[i] for i in keep]
            cells = [[r[i] for i in keep] for r in cells]
            natural = [natural[i] for i in keep]
    widths = natural
    if width is not None and _total(natural, gap) > width:
        widths = _fit(headers, natural, width, gap)
        if widths is None:
            return _stacked(headers, cells, width)

    def line(values: Sequence[str]) -> list[str]:
        parts = [
            wrap_lines(v, w) if columns(v) > w else [v] for v, w in zip(values, widths, strict=True)
        ]
        height = max(len(p) for p in parts)
        return [
            (" " * gap)
            .join(pad(p[k] if k < len(p) else "", w) for p, w in zip(parts, widths, strict=True))
            .rstrip()
            for k in range(height)
        ]

    out = line(headers) + [(" " * gap).join("-" * w for w in widths)]
    for r in cells:
        out += line(r)
    return "\n".join(out)


def _total(widths: Sequence[int], gap: int = 2) -> int:
    return sum(widths) + gap * (len(widths) - 1)


def _fit(headers: Sequence[str], natural: list[int], width: int, gap: int) -> list[int] | None:
    """Column widths that fit: the widest columns capped at one width (as many columns
    as the cap allows keep their own), none narrower than its header or 8 columns."""
    floor = [min(n, max(columns(h), 8)) for h, n in zip(headers, natural, strict=True)]
    if _total(floor, gap) > width:
        return None
    lo, hi = 1, max(natural)
    while lo < hi:  # the largest cap that fits
        cap = (lo + hi + 1) // 2
        capped = [max(f, min(n, cap)) for f, n in zip(floor, natural, strict=True)]
        if _total(capped, gap) <= width:
            lo = cap
        else:
            hi = cap - 1
    return [max(f, min(n, lo)) for f, n in zip(floor, natural, strict=True)]


def _stacked(headers: Sequence[str], cells: list[list[str]], width: int) -> str:
    """Each row as its own block of "header: value" lines."""
    name = max(columns(h) for h in headers) + 2
    out: list[str] = []
    for r in cells:
        for h, v in zip(headers, r, strict=True):
            first = pad(h + ":", name)
            out += wrap_lines(v, width, first, " " * name)
        out.append("")
    return "\n".join(out).rstrip()


def bold(text: str, colour: bool) -> str:
    return f"\x1b[1m{text}\x1b[0m" if colour else text


def dim(text: str, colour: bool) -> str:
    return f"\x1b[2m{text}\x1b[0m" if colour else text


def current_editions(editions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Today's rules among the editions of a rule: the newest English edition of the rules
    and, for every other language, its newest edition (its undated pages when it has no
    dated one). The others are the rule's history."""

    def newest(group: list[dict[str, Any]]) -> list[dict[str, Any]]:
        dated = [e for e in group if e["date"]]
        if dated:
            return [max(dated, key=lambda e: (e["date"], e["id"]))]
        return group

    by_language: dict[str, list[dict[str, Any]]] = {}
    for e in editions:
        if e["kind"] == "glossary":
            continue
        by_language.setdefault(e["language"], []).append(e)
    english = [e for e in by_language.pop("en", []) if e["date"]]
    chosen = newest(english) if english else []
    for language in sorted(by_language):
        chosen += newest(by_language[language])
    return chosen


def render_show(
    result: dict[str, Any],
    colour: bool = False,
    width: int = PIPE_WIDTH,
    *,
    everything: bool = False,
) -> str:
    """A rule in today's English and its translations first; with ``everything`` the older
    editions after them, newest first, else a line counting them."""
    result = visible_tree(result)
    editions = result["editions"]
    first = current_editions(editions) if not everything else []
    if not first and not everything:
        first = editions[-1:]  # only older editions have the rule: the newest of them
    shown_ids = {e["id"] for e in first}
    older = [e for e in editions if e["id"] not in shown_ids]
    older.sort(key=lambda e: (e["date"] or "", e["id"]), reverse=True)
    out: list[str] = []
    for ed in first + (older if everything else []):
        out += _shown_edition(ed, colour, width)
    if older and not everything:
        dates = sorted(e["date"] for e in older if e["date"])
        span = f" ({dates[0]} to {dates[-1]})" if len(dates) > 1 else ""
        n = len(older)
        more = (
            f"{n} older edition{'s' if n > 1 else ''}{span} also {'have' if n > 1 else 'has'} "
            f"rule {result['rule']}; to see {'them' if n > 1 else 'it'}:"
        )
        out += [dim(line, colour) for line in wrap_lines(more, width)]
        out.append(f"  mtgrules show {result['rule']} --all")  # one line: it is copied whole
    return "\n".join(out).rstrip()


def _shown_edition(ed: dict[str, Any], colour: bool, width: int) -> list[str]:
    date = ed["date"] or "no date"
    out = [bold(f"{ed['slug']}  [{ed['language']}, {ed['kind']}, {date}]", colour)]
    if ed["source"] != ed["slug"]:
        out += wrap_lines(f"from {ed['source']}", width, "  ")
    for c in ed["clauses"]:
        label = c["label"] or ("(unnumbered)" if c["kind"] == "rule" else "")
        if c["label"] and c["label_inferred"]:
            label += "*"
        tag = "" if c["kind"] == "rule" else f"({c['kind']}) "
        if c["kind"] == "glossary":
            tag = f"(glossary: {c['term']}) " if c.get("term") else "(glossary) "
        flags = f"  [{', '.join(c['flags'])}]" if c["flags"] else ""
        body = wrap(tag + c["text"], "    ", width)
        if label or flags:
            out.append(f"  {label}{dim(flags, colour)}")
        out.append(dim(body, colour) if c["kind"] in ("commentary", "noise") else body)
    out.append("")
    return out
