"""Markup reading stays linear on hostile pages: seconds per MB of adversarial input, for
each markup dialect and each pattern that once made a regular expression or html.parser
quadratic, at 64 KB, 256 KB and 1 MB, beside a baseline run in the same process (a real
page of the same size: rule 107.3 of the corpus in that markup, repeated).

Run: .venv/bin/python benchmarks/bench_markup.py [MAX_KB]   (default 1024)

Each figure is the best of two runs of the step that reads markup (sources/markup.py:
markup_lines for the dialect, after sniff_markup on the same text), in s/MB; "x base" is
that figure over the baseline's. Linear means the s/MB column stays flat as the size
grows; the bar (issue 17) is at most 2 s per MB.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mtgrules.sources.markup import markup_lines, sniff_markup  # noqa: E402
from tests.test_formats import _dokuwiki, _html, _markdown, _mediawiki  # noqa: E402

PAGES = {"markdown": _markdown, "dokuwiki": _dokuwiki, "mediawiki": _mediawiki, "html": _html}

# The units issue 17 reported, and those a reading of every pattern in markup.py found:
# an opener whose closer never comes, repeated (on one line, which no line split saves).
UNITS = {
    "markdown": [
        "**a ",
        "__a ",
        "*a ",
        "[a ",
        "[a](b ",
        "![a](",
        "`a ",
        "<!--",
        "# a  ",
        "a" + " " * 7,
    ],
    "dokuwiki": ["//a ", "**a ", "((a ", "%%a ", "[[a ", "{{a ", "<!--", "== a  ", "''a "],
    "mediawiki": ["<ref>", "<nowiki>", "[http://a ", "{{a ", "[[a ", "<!--", "''a ", "== a  "],
    "html": ["<a b='", '<a b="', "<!--", "</a", "<![CDATA[", "<?", "<!a", "<a ", "&#", "&a"],
}
SIZES_KB = [64, 256, 1024]
MULTILINE = {"# a  ", "== a  "}  # heading patterns: one per line, or the line is no heading


def timed(text: str, dialect: str) -> float:
    best = float("inf")
    for _ in range(2):
        t0 = time.perf_counter()
        sniff_markup(text)
        markup_lines(text, dialect)
        best = min(best, time.perf_counter() - t0)
    return best


def sized(unit: str, kb: int, newline: bool = False) -> str:
    piece = unit + ("\n" if newline else "")
    return piece * (kb * 1024 // len(piece.encode("utf-8")) + 1)


def main() -> None:
    max_kb = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    sizes = [kb for kb in SIZES_KB if kb <= max_kb]
    worst = 0.0
    header = f"{'dialect':10} {'unit':14}" + "".join(f"{kb:>7} KB s/MB" for kb in sizes)
    print(header + "   x base (largest)", flush=True)
    for dialect, units in UNITS.items():
        page = PAGES[dialect]()
        base = {kb: timed(sized(page, kb), dialect) / (kb / 1024) for kb in sizes}
        row = "".join(f"{base[kb]:>15.3f}" for kb in sizes)
        print(f"{dialect:10} {'(real page)':14}{row}", flush=True)
        for unit in units:
            per_mb = {
                kb: timed(sized(unit, kb, unit in MULTILINE), dialect) / (kb / 1024) for kb in sizes
            }
            worst = max(worst, max(per_mb.values()))
            row = "".join(f"{per_mb[kb]:>15.3f}" for kb in sizes)
            ratio = per_mb[sizes[-1]] / base[sizes[-1]]
            print(f"{'':10} {unit!r:14}{row}   x{ratio:.1f}", flush=True)
    print(f"\nworst: {worst:.3f} s per MB (bar: 2 s per MB)")


if __name__ == "__main__":
    main()
