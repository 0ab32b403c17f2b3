"""The multilingual termbase: game terms as data (mtgrules/data/termbase.tsv), found in text.

One row per concept, one column per language, several forms split by "|". Matching is
longest-form-first so that "mana cost" is not also counted as "mana" and "cost", and 牌手
(player) is not also 牌 (card).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..text.normalize import fold_for_search

LANGUAGES = ("en", "fr", "es", "zh-Hans", "zh-Hant")


@dataclass(frozen=True)
class Termbase:
    # language -> list of (form, concept), longest form first
    forms: dict[str, list[tuple[str, str]]]

    def concepts(self) -> set[str]:
        return {c for pairs in self.forms.values() for _, c in pairs}


def _column(language: str) -> str:
    if language.startswith("zh"):
        return "zh-Hant" if language.lower().endswith("hant") else "zh-Hans"
    return language.split("-")[0].lower()


def parse_termbase(text: str) -> Termbase:
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    header = lines[0].split("\t")
    forms: dict[str, list[tuple[str, str]]] = {lang: [] for lang in header[1:]}
    for line in lines[1:]:
        cells = line.split("\t")
        concept = cells[0].strip()
        for lang, cell in zip(header[1:], cells[1:], strict=False):
            for form in cell.split("|"):
                form = form.strip()
                if form:
                    key = form if lang.startswith("zh") else fold_for_search(form)
                    forms[lang].append((key, concept))
    for lang in forms:
        forms[lang].sort(key=lambda p: -len(p[0]))
    return Termbase(forms)


@lru_cache(maxsize=1)
def load_termbase() -> Termbase:
    text = resources.files("mtgrules").joinpath("data/termbase.tsv").read_text(encoding="utf-8")
    return parse_termbase(text)


@lru_cache(maxsize=16)
def _pattern(language: str) -> re.Pattern[str] | None:
    pairs = load_termbase().forms.get(_column(language), [])
    if not pairs:
        return None
    alternatives = "|".join(re.escape(f) for f, _ in pairs)
    if language.startswith("zh"):
        return re.compile(f"(?:{alternatives})")
    # Latin scripts: whole words only; the alternation is longest-first, so regex takes
    # the longest form at each position.
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")


@lru_cache(maxsize=16)
def _lookup(language: str) -> dict[str, str]:
    return dict(reversed(load_termbase().forms.get(_column(language), [])))


def find_terms(text: str, language: str) -> Counter[str]:
    """Concepts of the termbase found in ``text`` (a multiset: counts matter)."""
    pattern = _pattern(language)
    if pattern is None:
        return Counter()
    target = text if language.startswith("zh") else fold_for_search(text)
    lookup = _lookup(language)
    return Counter(lookup[m.group(0)] for m in pattern.finditer(target) if m.group(0) in lookup)
