"""The renumbering of one pair of editions, read off their alignment: which clauses carry
another number, and a summary by section of what moved where (502.x -> 702.x in July 2009).

The one map every reader prints (diff, update, drift, align --editions, trace and the site
all count with ``is_renumbered``), so that one pair of editions reads the same everywhere.
A clause is renumbered when it and its partner both carry a label and the labels differ:
a split counts each of its parts (505.6 became 708.6a, b and c: three clauses under new
numbers), a merge each clause merged. A clause with no label of its own (an example, a
glossary entry, a scraped page's unlabelled paragraph) is never renumbered.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..record import Record, key
from ..text.labels import label_sort_key


def is_renumbered(a: Any, b: Any) -> bool:
    """Do two paired clauses carry different numbers (both having one)?"""
    return bool(a is not None and b is not None and a.label and b.label and a.label != b.label)


def section_of(label: str) -> str:
    """The section a label belongs to: '702.15b' -> '702'; '702' stays."""
    return label.split(".", 1)[0]


@dataclass
class SectionMove(Record):
    """The clauses of one section renumbered into one section (the same one, when rules
    were inserted before them): how many, and the first and last of them."""

    from_section: str = field(metadata=key("from"))
    to_section: str = field(metadata=key("to"))
    clauses: int
    first: list[str]  # [from label, to label] of the first clause, in the older order
    last: list[str]

    def line(self) -> str:
        return _section_line(self.as_json())


@dataclass
class Renumbering(Record):
    """What a pair of editions renumbered: the count and the summary by section."""

    renumbered: int
    sections: list[SectionMove]

    def headline(self) -> str:
        return _headline(self.renumbered)

    def lines(self, limit: int | None = None) -> list[str]:
        return summary_lines(self.as_json(), limit)


# The sections of a renumbering a summary names (the rest are counted).
SECTIONS_SHOWN = 12


def _headline(count: int) -> str:
    return f"Renumbering: {count:,} {'clause' if count == 1 else 'clauses'} renumbered"


def _section_line(sec: dict[str, Any]) -> str:
    span = f"{sec['first'][0]} -> {sec['first'][1]}"
    if sec["clauses"] > 1:
        span += f" ... {sec['last'][0]} -> {sec['last'][1]}"
    return f"{sec['from']}.x -> {sec['to']}.x: {sec['clauses']:,} ({span})"


def summary_lines(numbering: dict[str, Any], limit: int | None = SECTIONS_SHOWN) -> list[str]:
    """A Renumbering as a historian reads it (from its JSON form, which every renderer has):
    "Renumbering: 1,156 clauses renumbered", then what moved where, largest first. Nothing
    when nothing was renumbered."""
    if not numbering["renumbered"]:
        return []
    sections = numbering["sections"]
    shown = sections if limit is None else sections[:limit]
    out = [_headline(numbering["renumbered"]), *(_section_line(s) for s in shown)]
    rest = sections[len(shown) :]
    if rest:
        count = sum(s["clauses"] for s in rest)
        out.append(f"and {count:,} more in {len(rest)} other pairs of sections")
    return out


def renumbering(moves: Iterable[tuple[str, str]]) -> Renumbering:
    """The Renumbering of (from label, to label) pairs, each a renumbered clause."""
    ordered = sorted(set(moves), key=lambda m: (label_sort_key(m[0]), label_sort_key(m[1])))
    groups: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for m in ordered:
        groups.setdefault((section_of(m[0]), section_of(m[1])), []).append(m)
    sections = [
        SectionMove(fa, fb, len(ms), list(ms[0]), list(ms[-1])) for (fa, fb), ms in groups.items()
    ]
    # The largest moves first (the renumbering of 2009 is its 502 -> 702 and 212 -> 3xx).
    sections.sort(key=lambda s: (-s.clauses, label_sort_key(s.from_section)))
    return Renumbering(len(ordered), sections)


def pairs_renumbering(pairs: Iterable[Any]) -> Renumbering:
    """The Renumbering of an edition alignment's pairs (anything with clause views .a, .b)."""
    return renumbering((p.a.label, p.b.label) for p in pairs if is_renumbered(p.a, p.b))
