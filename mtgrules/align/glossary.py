"""Glossary entries matched by their term, not by their position.

Each language sorts its glossary alphabetically in its own way, and each edition adds and
drops terms, so a sequence aligner that pairs entries in order goes wrong exactly where the
orders differ. Entries are matched as a set instead:

- two editions of one language: the same term (folded: case, quotes, dashes and spaces do
  not matter), then, for the entries left over, a definition that is nearly the same (a
  renamed term);
- a translation and an English edition: the pairs a whole-edition alignment already found,
  then, for the leftovers, the evidence a translated entry keeps: the termbase's forms of its
  term, term pairs learned from other editions of the language, the rule references it
  cites, and its numbers and symbols.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from ..sources.clauses import SEE_ALSO
from ..store.queries import ClauseView
from ..termbase import find_terms
from ..text.labels import RULE_REF
from .sequence import longest_increasing
from .terms import pair_by_kept_terms, term_key

__all__ = ["GlossaryMatch", "match_same_language", "match_translation", "term_key"]

# A renamed entry (same language) keeps nearly its whole definition.
RENAMED_DEFINITION = 85  # rapidfuzz ratio, 0-100
# A translated entry must agree on enough evidence to be paired outside the alignment.
TRANSLATED_MIN_SCORE = 0.5
_SYMBOL = re.compile(r"\{[^}\s]{1,6}\}|[+-]\d+/[+-]\d+")


@dataclass
class GlossaryMatch:
    """Two glossary entries matched as the same entry (the English one first, for a translation),
    with the score and evidence of the match."""

    a: ClauseView
    b: ClauseView
    score: float
    evidence: list[dict] = field(default_factory=list)


def match_same_language(a: Sequence[ClauseView], b: Sequence[ClauseView]) -> list[GlossaryMatch]:
    """Entries of two editions of one language: same term first, then renamed terms whose
    definitions are nearly identical. Each entry is used once."""
    by_term: dict[str, list[ClauseView]] = {}
    for entry in b:
        by_term.setdefault(term_key(entry.term), []).append(entry)
    out: list[GlossaryMatch] = []
    used: set[int] = set()
    left_a: list[ClauseView] = []
    for entry in a:
        same = [e for e in by_term.get(term_key(entry.term), []) if e.id not in used]
        if same:
            used.add(same[0].id)
            score = fuzz.ratio(entry.norm, same[0].norm) / 100
            out.append(GlossaryMatch(entry, same[0], score, [{"feature": "term", "value": 1.0}]))
        else:
            left_a.append(entry)
    left_b = [e for e in b if e.id not in used]
    for entry, other, ratio in _best_pairs(
        left_a, left_b, lambda x, y: fuzz.ratio(x.norm, y.norm), RENAMED_DEFINITION
    ):
        out.append(
            GlossaryMatch(
                entry,
                other,
                ratio / 100,
                [
                    {"feature": "renamed", "value": other.term},
                    {"feature": "text", "value": ratio / 100},
                ],
            )
        )
    return out


def _refs(entry: ClauseView) -> set[str]:
    return set(RULE_REF.findall(entry.norm))


def _symbols(entry: ClauseView) -> set[str]:
    return set(_SYMBOL.findall(entry.norm))


def translated_score(
    english: ClauseView,
    translated: ClauseView,
    language: str,
    known_terms: dict[str, set[str]],
) -> tuple[float, list[dict]]:
    """How sure it is that ``translated`` (an entry in ``language``) is the English entry:
    its term by the termbase or a learned pair, the rules both cite, their symbols."""
    evidence: list[dict] = []
    score = 0.0
    english_term = term_key(english.term)
    if english_term in known_terms.get(term_key(translated.term), set()):
        score += 0.6
        evidence.append({"feature": "learned-term", "value": translated.term})
    concepts_en = set(find_terms(english.term or "", "en"))
    concepts_tr = set(find_terms(translated.term or "", language))
    if concepts_en and concepts_en == concepts_tr:
        score += 0.4
        evidence.append({"feature": "termbase", "value": sorted(concepts_en)})
    refs_en, refs_tr = _refs(english), _refs(translated)
    if refs_en or refs_tr:
        overlap = len(refs_en & refs_tr) / len(refs_en | refs_tr)
        score += 0.5 * overlap
        evidence.append({"feature": "references", "value": round(overlap, 3)})
    sym_en, sym_tr = _symbols(english), _symbols(translated)
    if sym_en and sym_en == sym_tr:
        score += 0.1
        evidence.append({"feature": "symbols", "value": sorted(sym_en)})
    return min(score, 1.0), evidence


def match_translation(
    english: Sequence[ClauseView],
    translated: Sequence[ClauseView],
    language: str,
    aligned: Iterable[tuple[ClauseView, ClauseView, float]],
    known_terms: dict[str, set[str]] | None = None,
) -> list[GlossaryMatch]:
    """Entries of an English edition and a translation: the pairs the alignment found
    (``aligned``, English first), then the leftovers by term, references and symbols, then
    the leftovers that sit alone between the same two matched entries ("See Typecycling."
    beside 参见类别循环。: no evidence but its place)."""
    known = known_terms or {}
    out: list[GlossaryMatch] = []
    used_en: set[int] = set()
    used_tr: set[int] = set()

    def take(en: ClauseView, tr: ClauseView, score: float, evidence: list[dict]) -> None:
        used_en.add(en.id)
        used_tr.add(tr.id)
        out.append(GlossaryMatch(en, tr, score, evidence))

    # The English term a translated heading keeps ("相棒（あいぼう）／Companion"): the entry of
    # that term, first (an alignment by position goes wrong where the two orders differ).
    for en, tr, kept in pair_by_kept_terms(english, translated):
        take(en, tr, 0.95, [{"feature": "kept-term", "value": kept}])
    for en, tr, score in aligned:
        if en.id not in used_en and tr.id not in used_tr:
            take(en, tr, score, [{"feature": "alignment", "value": round(score, 3)}])
    # Cross-references ("See Typecycling.") agree when their targets are a matched pair.
    partner = {m.b.id: m.a for m in out}
    en_by_term = {term_key(e.term): e for e in english}
    tr_by_term = {term_key(t.term): t for t in translated}

    def refers_alike(en: ClauseView, tr: ClauseView) -> bool:
        en_target = en_by_term.get(term_key(_see(en.norm)))
        tr_target = tr_by_term.get(term_key(_see(tr.norm)))
        return bool(en_target and tr_target and partner.get(tr_target.id) is en_target)

    scored: dict[tuple[int, int], list[dict]] = {}

    def score_of(en: ClauseView, tr: ClauseView) -> float:
        value, evidence = translated_score(en, tr, language, known)
        if refers_alike(en, tr):
            value = min(1.0, value + 0.3)
            evidence.append({"feature": "see-also", "value": _see(en.norm)})
        scored[(en.id, tr.id)] = evidence
        return value

    left_en = [e for e in english if e.id not in used_en]
    left_tr = [t for t in translated if t.id not in used_tr]
    for en, tr, value in _best_pairs(left_en, left_tr, score_of, TRANSLATED_MIN_SCORE):
        take(en, tr, value, scored[(en.id, tr.id)])
    # Gaps between matched entries, in the order both glossaries list them: where a gap
    # holds as many entries on each side, they are the same entries in the same order.
    for gap_en, gap_tr in _gaps(english, translated, out):
        if len(gap_en) == len(gap_tr):
            for en, tr in zip(gap_en, gap_tr, strict=True):
                take(
                    en, tr, 0.5, [{"feature": "position", "value": "alone between matched entries"}]
                )
    return out


def _see(text: str) -> str:
    """The entry a cross-reference entry points to ("See Typecycling." -> "Typecycling")."""
    m = SEE_ALSO.match(text.strip())
    return m.group(1).strip() if m else ""


def _gaps(
    english: Sequence[ClauseView], translated: Sequence[ClauseView], matched: list[GlossaryMatch]
) -> list[tuple[list[ClauseView], list[ClauseView]]]:
    """The unmatched entries between consecutive matched pairs that keep both orders."""
    pos_en = {e.id: k for k, e in enumerate(english)}
    pos_tr = {t.id: k for k, t in enumerate(translated)}
    pairs = sorted(
        (pos_en[m.a.id], pos_tr[m.b.id]) for m in matched if m.a.id in pos_en and m.b.id in pos_tr
    )
    anchors = longest_increasing(pairs)
    used_en = {pos_en[m.a.id] for m in matched if m.a.id in pos_en}
    used_tr = {pos_tr[m.b.id] for m in matched if m.b.id in pos_tr}
    out = []
    bounds = [(-1, -1), *anchors, (len(english), len(translated))]
    for (a0, b0), (a1, b1) in zip(bounds, bounds[1:], strict=False):
        gap_en = [english[k] for k in range(a0 + 1, a1) if k not in used_en]
        gap_tr = [translated[k] for k in range(b0 + 1, b1) if k not in used_tr]
        if gap_en and gap_tr:
            out.append((gap_en, gap_tr))
    return out


def _best_pairs(left, right, scorer, threshold):
    """Greedy one-to-one pairing, best score first, down to ``threshold``."""
    if not left or not right:
        return []
    candidates = []
    for i, x in enumerate(left):
        for j, y in enumerate(right):
            value = scorer(x, y)
            if value >= threshold:
                candidates.append((value, i, j))
    candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
    taken_l: set[int] = set()
    taken_r: set[int] = set()
    out = []
    for value, i, j in candidates:
        if i in taken_l or j in taken_r:
            continue
        taken_l.add(i)
        taken_r.add(j)
        out.append((left[i], right[j], value))
    return out
