"""What the aligner knows about a clause, and how much two clauses look like the same rule.

Each feature is cheap and language-aware:
- symbols and numbers ({X}, [-X], 0, 601) and rule references (107.3i) survive translation;
- termbase concepts (spell / sort / hechizo / 咒语) survive translation;
- cognates (rapidfuzz over words) link French or Spanish words to English ones;
- Chinese is compared in Simplified script, whatever script it was written in;
- length is a weak prior (Gale-Church), weaker still for Chinese whose length ratio varies.

Same-language pairs (English editions, or two Chinese scripts) compare the texts directly.
Every score comes with the evidence behind it, so a user can see why two clauses were paired.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process

from ..termbase import find_terms
from ..text.fold import HAN, fold
from ..text.labels import RULE_REF
from ..text.language import base_language, is_traditional_tag, same_language, script_of

# Mana and loyalty symbols, and bare numbers that are not rule references.
_SYMBOL = re.compile(r"\{[^}\s]{1,6}\}|\[[-+−]?[0-9XYZ]{1,3}\]")
_NUMBER = re.compile(r"(?<![\w.{\[-])(\d{1,2})(?![\w}\]]|\.\d)")
# Words too common in the rules to say anything about which clause is which.
_COMMON = {
    "that",
    "this",
    "with",
    "from",
    "have",
    "their",
    "which",
    "other",
    "dans",
    "pour",
    "avec",
    "cette",
    "para",
    "como",
    "este",
    "esta",
}


# A translation pair with little to compare is pulled toward this score (see similarity).
UNINFORMED = 0.3
SHRINK = 1.5


class Features:
    """Computed lazily: an English-to-English alignment needs only the folded text, so the
    termbase and symbol scans run only for translations."""

    __slots__ = ("text", "language", "fold", "length", "wide", "_cache", "_parts")

    def __init__(self, text: str, language: str, parts: list[Features] | None = None):
        self.text = text
        self.language = language
        self._cache: dict[str, object] = {}
        self._parts = parts
        if parts:
            # Joined clauses (1-2, 2-1 steps): reuse the parts' folding, the hot path of the DP.
            sep = "" if parts[0].script == "zh" else " "
            self.wide = sep.join(p.wide for p in parts)
            self.fold = sep.join(p.fold for p in parts)
            self.length = sum(p.length for p in parts)
            return
        # NFKC folds full-width ｛Ｘ｝ (the Traditional-Chinese page) to {X}.
        self.wide = unicodedata.normalize("NFKC", text)
        if script_of(language) == "zh":
            self.fold = (
                _to_simplified(self.wide) if is_traditional_tag(language) else self.wide
            )
            length = len(HAN.findall(self.fold)) or len(self.fold)
        else:
            self.fold = fold(self.wide)
            length = len(self.fold)
        self.length = max(length, 1)

    @property
    def script(self) -> str:
        return script_of(self.language)

    def _sum(self, name: str):
        assert self._parts is not None
        return sum((getattr(p, name) for p in self._parts), Counter())

    @property
    def refs(self) -> Counter[str]:
        if "refs" not in self._cache:
            self._cache["refs"] = (
                self._sum("refs") if self._parts else Counter(RULE_REF.findall(self.wide))
            )
        return self._cache["refs"]  # type: ignore[return-value]

    @property
    def symbols(self) -> Counter[str]:
        if "symbols" not in self._cache:
            if self._parts:
                value = self._sum("symbols")
            else:
                stripped = RULE_REF.sub(" ", self.wide)
                value = Counter(x.replace("−", "-") for x in _SYMBOL.findall(stripped))
                value.update("#" + n for n in _NUMBER.findall(_SYMBOL.sub(" ", stripped)))
            self._cache["symbols"] = value
        return self._cache["symbols"]  # type: ignore[return-value]

    @property
    def terms(self) -> Counter[str]:
        if "terms" not in self._cache:
            self._cache["terms"] = (
                self._sum("terms") if self._parts else find_terms(self.wide, self.language)
            )
        return self._cache["terms"]  # type: ignore[return-value]

    @property
    def words(self) -> frozenset[str]:
        if "words" not in self._cache:
            if self._parts:
                value = frozenset().union(*(p.words for p in self._parts))
            elif self.script == "zh":
                value = frozenset()
            else:
                value = frozenset(
                    w
                    for w in tokenize(self.fold, self.language)
                    if len(w) >= 4 and w not in _COMMON
                )
            self._cache["words"] = value
        return self._cache["words"]  # type: ignore[return-value]


@lru_cache(maxsize=8)
def _tokenizer(language: str):
    """spaCy's rule-based tokenizer for the language (a blank pipeline: nothing downloaded).
    It knows each language's elisions and clitics: "d'activation" -> "d'", "activation"."""
    import spacy

    try:
        return spacy.blank(base_language(language)).tokenizer
    except (ImportError, KeyError, ValueError):
        return spacy.blank("xx").tokenizer


def tokenize(text: str, language: str) -> list[str]:
    return [t.text for t in _tokenizer(language)(text) if t.is_alpha]


def _to_simplified(text: str) -> str:
    from ..text.chinese import to_simplified

    return to_simplified(text)


def featurize(text: str, language: str) -> Features:
    return Features(text, language)


def join_features(parts: list[Features]) -> Features:
    """The features of two clauses read as one (for 1-2 and 2-1 steps)."""
    if len(parts) == 1:
        return parts[0]
    sep = "" if parts[0].script == "zh" else " "
    return Features(sep.join(p.text for p in parts), parts[0].language, parts=list(parts))


def contains(x: str, y: str) -> bool:
    """Whether the shorter text visibly sits inside the longer one (a clause that grew a
    sentence). Cheap on purpose: partial_ratio is slow and runs only when this holds."""
    short_text, long_text = (x, y) if len(x) <= len(y) else (y, x)
    return len(short_text) >= 0.25 * len(long_text) and (
        short_text[:24] in long_text or short_text[-24:] in long_text
    )


def dice(a: Counter[str], b: Counter[str]) -> float | None:
    total = sum(a.values()) + sum(b.values())
    if total == 0:
        return None
    return 2 * sum((a & b).values()) / total


def cognate_overlap(a: frozenset[str], b: frozenset[str]) -> float | None:
    """Share of words on each side with a look-alike on the other (valeur/value, objet/object)."""
    if not a or not b:
        return None
    bl, al = list(b), list(a)

    def share(src: frozenset[str], other: list[str]) -> float:
        hits = 0
        for w in src:
            if process.extractOne(w, other, scorer=fuzz.ratio, score_cutoff=74) is not None:
                hits += 1
        return hits / len(src)

    return (share(a, bl) + share(b, al)) / 2


@dataclass
class Context:
    """What the caller knows about the pair of sequences being aligned."""

    # Expected length(b) / length(a), estimated from the two sequences themselves.
    length_ratio: float = 1.0


def similarity(
    a: Features, b: Features, ctx: Context | None = None, *, ratio: float | None = None
) -> tuple[float, list[dict]]:
    """A score in [0, 1] that ``a`` and ``b`` state the same rule, with its evidence.
    ``ratio``: the plain text ratio when the caller already has it (a vectorised pass)."""
    ctx = ctx or Context()
    # Two Chinese scripts compare as text too: both are folded to Simplified.
    same_script_text = same_language(a.language, b.language)
    if same_script_text:
        if ratio is None:
            ratio = fuzz.ratio(a.fold, b.fold) / 100
        evidence: list[dict] = [{"feature": "text", "value": round(ratio, 3)}]
        if ratio < 0.8 and contains(a.fold, b.fold):
            # One text grew a sentence (2016's 107.3h gained the "gains an ability" rule):
            # the shorter text read inside the longer one still says it is the same rule.
            partial = 0.8 * fuzz.partial_ratio(a.fold, b.fold) / 100
            if partial > ratio:
                ratio = partial
                evidence.append({"feature": "contained", "value": round(partial, 3)})
        if ratio >= 0.5 and (a.symbols or b.symbols):
            d = dice(a.symbols, b.symbols)
            evidence.append({"feature": "symbols", "value": round(d or 0.0, 3)})
        if a.language != b.language:
            evidence.append({"feature": "script", "value": f"{a.language}->{b.language}"})
        return ratio, evidence

    parts: list[tuple[str, float, float]] = []  # (feature, value, weight)
    sym = dice(a.symbols + a.refs, b.symbols + b.refs)
    if sym is not None:
        parts.append(("symbols", sym, 2.0))
    terms = dice(a.terms, b.terms)
    if terms is not None:
        parts.append(("terms", terms, 3.0))
    if a.script == "latin" and b.script == "latin":
        cog = cognate_overlap(a.words, b.words)
        if cog is not None:
            parts.append(("cognates", cog, 2.0))
    expected = a.length * ctx.length_ratio
    length = math.exp(-abs(math.log(b.length / expected)) * 1.5)
    weak = 0.3 if "zh" in (a.script, b.script) else 1.0
    parts.append(("length", length, weak))
    total_w = sum(w for _, _, w in parts)
    score = sum(v * w for _, v, w in parts) / total_w
    # How much there was to compare: one shared term in two short clauses is a weak sign
    # however perfect its dice. Few items pull the score toward an uninformed 0.3.
    latin = a.script == b.script == "latin"  # words count only where cognates were compared
    support = min(
        sum((a.symbols + a.refs).values()) + sum(a.terms.values()) + (len(a.words) if latin else 0),
        sum((b.symbols + b.refs).values()) + sum(b.terms.values()) + (len(b.words) if latin else 0),
    )
    score = (score * support + UNINFORMED * SHRINK) / (support + SHRINK)
    evidence = [{"feature": f, "value": round(v, 3), "weight": w} for f, v, w in parts]
    evidence.append({"feature": "support", "value": support})
    if a.refs and b.refs and a.refs == b.refs:
        evidence.append({"feature": "rule-refs", "value": sorted(a.refs)})
    return score, evidence
