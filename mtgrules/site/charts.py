"""The index's two charts, as inline SVG written by hand.

Why by hand, measured on the growth chart of the 110-edition archive (benchmarks in the
commit that added this module): this module writes it in under 1 ms, 29 KB (a tooltip on
each of the 220 marks included), with no dependency. matplotlib writes the same chart in
0.4 s after 2.8 s of import, 42 KB (text as <text>) to 53 KB (text as paths, unreadable to a
screen reader), and brings 124 MB of packages (matplotlib, numpy, pillow, fonttools,
kiwisolver). pygal is small (1.3 MB) but writes 77 KB and links its tooltips script from
kozea.github.io, which a self-contained site may not fetch. Two simple charts need text a
screen reader can read, marks and dashes besides colour, and the page's own styles: that is
a few dozen lines.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from .html import esc, number


@dataclass
class GrowthPoint:
    """One official English edition on the growth chart: its date, and its number of rules and of
    glossary entries."""

    date: str  # ISO date of the edition
    rules: int
    glossary: int


@dataclass
class CoverageBar:
    """One translation: its coverage of today's English (the bar), and of the English it
    was made from (the second figure, when that is another edition)."""

    label: str  # the translation edition
    detail: str  # what it was compared with, in words
    covered: int
    total: int
    own_detail: str | None = None  # its own English
    own_covered: int = 0
    own_total: int = 0

    @property
    def own_share(self) -> float:
        return self.own_covered / self.own_total if self.own_total else 0.0

    @property
    def second(self) -> str:
        """The coverage of its own English, when that is another edition than the bar's."""
        if self.own_detail is None or self.own_detail == self.detail:
            return ""
        return f"{self.own_share * 100:.1f}% of its own English"

    @property
    def share(self) -> float:
        return self.covered / self.total if self.total else 0.0


def _nice_axis(value: int, most: int = 8) -> tuple[int, int]:
    """A round step and upper bound for an axis of at most ``most`` steps:
    3,114 -> (500, 3,500); 725 -> (100, 800)."""
    value = max(value, 1)
    magnitude = 1
    while True:
        for m in (1, 2, 2.5, 5):
            step = int(m * magnitude)
            if step and -(-value // step) <= most:
                return step, -(-value // step) * step
        magnitude *= 10


def _ordinal(date: str) -> int:
    return dt.date.fromisoformat(date).toordinal()


def growth_chart(points: list[GrowthPoint], *, chart_id: str = "growth") -> str:
    """Rules (solid line, round markers) and glossary entries (dashed line, square markers)
    per edition over time."""
    if not points:
        return ""
    width, height = 760, 320
    left, right, top, bottom = 64, 175, 20, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    x0, x1 = _ordinal(points[0].date), _ordinal(points[-1].date)
    span = max(x1 - x0, 1)
    y_step, y_max = _nice_axis(max(max(p.rules, p.glossary) for p in points))

    def x(date: str) -> float:
        return left + (_ordinal(date) - x0) / span * plot_w

    def y(value: int) -> float:
        return top + plot_h - value / y_max * plot_h

    parts: list[str] = []
    # Horizontal grid and the value axis.
    for value in range(0, y_max + 1, y_step):
        yy = y(value)
        parts.append(
            f'<line class="grid" x1="{left}" y1="{yy:.1f}" x2="{left + plot_w}" y2="{yy:.1f}"/>'
            f'<text class="tick" x="{left - 8}" y="{yy + 4:.1f}" text-anchor="end">'
            f"{number(value)}</text>"
        )
    # Years along the time axis: every year when there are few, else every other one.
    first_year = int(points[0].date[:4])
    last_year = int(points[-1].date[:4])
    every = 1 if last_year - first_year <= 8 else 2 if last_year - first_year <= 16 else 3
    for year in range(first_year, last_year + 1):
        if (year - first_year) % every:
            continue
        date = f"{year}-01-01"
        if not (points[0].date <= date <= points[-1].date) and year != first_year:
            continue
        xx = x(max(date, points[0].date))
        parts.append(
            f'<line class="axis" x1="{xx:.1f}" y1="{top + plot_h}" x2="{xx:.1f}" '
            f'y2="{top + plot_h + 5}"/>'
            f'<text class="tick" x="{xx:.1f}" y="{top + plot_h + 20}" text-anchor="middle">'
            f"{year}</text>"
        )
    parts.append(
        f'<line class="axis" x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" '
        f'y2="{top + plot_h}"/>'
    )
    for name, attr, css in (("rules", "rules", "s-rules"), ("glossary", "glossary", "s-gloss")):
        coords = [(x(p.date), y(getattr(p, attr))) for p in points]
        path = " ".join(
            f"{'M' if k == 0 else 'L'}{cx:.1f},{cy:.1f}" for k, (cx, cy) in enumerate(coords)
        )
        parts.append(f'<path class="line {css}" d="{path}"/>')
        for (cx, cy), p in zip(coords, points, strict=True):
            tip = f"{p.date}: {number(getattr(p, attr))} {name}"
            if css == "s-rules":
                parts.append(
                    f'<circle class="mark {css}" cx="{cx:.1f}" cy="{cy:.1f}" r="3">'
                    f"<title>{esc(tip)}</title></circle>"
                )
            else:
                parts.append(
                    f'<rect class="mark {css}" x="{cx - 3:.1f}" y="{cy - 3:.1f}" width="6" '
                    f'height="6"><title>{esc(tip)}</title></rect>'
                )
        # Each line is named at its end, so the legend is not needed to tell them apart.
        last_x, last_y = coords[-1]
        label = f"{number(getattr(points[-1], attr))} {'rules' if css == 's-rules' else 'glossary entries'}"
        parts.append(
            f'<text class="end-label {css}" x="{last_x + 8:.1f}" y="{last_y + 4:.1f}">'
            f"{esc(label)}</text>"
        )
    first, last = points[0], points[-1]
    summary = (
        f"From {first.date} to {last.date} ({len(points)} editions) the rules grew from "
        f"{number(first.rules)} to {number(last.rules)} numbered rules and subrules, and the "
        f"glossary from {number(first.glossary)} to {number(last.glossary)} entries."
    )
    return (
        f'<figure class="chart"><svg xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="0 0 {width} {height}" aria-labelledby="{chart_id}-title {chart_id}-desc">'
        f'<title id="{chart_id}-title">Rules and glossary entries per English edition</title>'
        f'<desc id="{chart_id}-desc">{esc(summary)}</desc>'
        f"{''.join(parts)}</svg>"
        f'<figcaption><span class="key"><svg width="34" height="12" aria-hidden="true">'
        f'<line class="line s-rules" x1="1" y1="6" x2="33" y2="6"/>'
        f'<circle class="mark s-rules" cx="17" cy="6" r="3"/></svg> rules and subrules '
        f'(solid line, round marks)</span> <span class="key"><svg width="34" height="12" '
        f'aria-hidden="true"><line class="line s-gloss" x1="1" y1="6" x2="33" y2="6"/>'
        f'<rect class="mark s-gloss" x="14" y="3" width="6" height="6"/></svg> glossary '
        f"entries (dashed line, square marks)</span>. {esc(summary)}</figcaption></figure>"
    )


def coverage_chart(bars: list[CoverageBar], *, chart_id: str = "coverage") -> str:
    """One bar per translation: the share of its English's rules it has, the figure written
    beside each bar."""
    if not bars:
        return ""
    label_w, bar_w, value_w, row_h, top = 330, 300, 380, 30, 24
    width = label_w + bar_w + value_w
    height = top + row_h * len(bars) + 10
    parts = []
    for k in (0, 25, 50, 75, 100):
        xx = label_w + bar_w * k / 100
        parts.append(
            f'<line class="grid" x1="{xx:.1f}" y1="{top - 4}" x2="{xx:.1f}" y2="{height - 10}"/>'
            f'<text class="tick" x="{xx:.1f}" y="{top - 8}" text-anchor="middle">{k}%</text>'
        )
    for i, bar in enumerate(bars):
        yy = top + i * row_h
        w = bar_w * bar.share
        value = f"{bar.share * 100:.1f}% ({number(bar.covered)} of {number(bar.total)})"
        if bar.second:
            value += f"; {bar.second}"
        parts.append(
            f'<text class="bar-label" x="{label_w - 8}" y="{yy + 19}" text-anchor="end">'
            f"{esc(bar.label)}</text>"
            f'<rect class="bar" x="{label_w}" y="{yy + 5}" width="{w:.1f}" height="20">'
            f"<title>{esc(bar.label)}: {esc(value)} {esc(bar.detail)}</title></rect>"
            f'<text class="bar-value" x="{label_w + w + 6:.1f}" y="{yy + 19}">{esc(value)}</text>'
        )
    summary = "; ".join(
        f"{b.label}: {b.share * 100:.1f}% of {b.detail}"
        + (f" ({b.own_share * 100:.1f}% of its own English, {b.own_detail})" if b.second else "")
        for b in bars
    )
    return (
        f'<figure class="chart"><svg xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="0 0 {width} {height}" aria-labelledby="{chart_id}-title {chart_id}-desc">'
        f'<title id="{chart_id}-title">Coverage of each translation against today\'s English</title>'
        f'<desc id="{chart_id}-desc">{esc(summary)}</desc>{"".join(parts)}</svg>'
        "<figcaption>Share of the rules and subrules of today's English that each "
        "translation has a clause for (aligned by content, not by number, and followed from "
        "the English it was made from to today's as mtgrules update follows it); after it, the "
        "share of the English it was made from. A page that quotes one rule is measured "
        "against that rule only.</figcaption></figure>"
    )
