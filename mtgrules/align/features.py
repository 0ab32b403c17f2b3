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

from ..termbase import find_terms, shipped_termbase
from ..text.fold import HAN, fold
from ..text.labels import RULE_REF
from ..text.language import (
    base_language,
    is_traditional_tag,
    same_language,
    script_of,
    writing_of,
)

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


# Words in Latin letters, and those a translation writes in English without keeping any
# English (the Japanese "rule 702.139" says "rule" beside every reference).
_LATIN_WORD = re.compile(r"[a-z][a-z'’]{2,}")
_NOT_KEPT = frozenset({"rule", "rules", "see", "example", "examples"})
# At most this many kept words count as support: a clause is not surer for a long list.
KEPT_SUPPORT = 4


# What is left of a text for telling whether two clauses are the same text: its words, numbers
# and symbols, in order. Punctuation goes (a plain-text edition's "?" for a dash or a quote,
# "--" for an em dash, "(TM)" for the sign), but not the signs of numbers (+1/+1 is not
# -1/-1); the rule references go too, which a renumbering rewrites in every rule that cites
# one ("rule 309" in May 2009, "rule 509" in July): each is kept as "#", the shape of the
# sentence.
_IDENTITY_TOKEN = re.compile(
    r"[+\-]?[0-9x]+(?:/[+\-]?[0-9x]+)+|[+\-][0-9x]+\b|\{[^}\s]*\}|#|[^\W_]+"
)


# The ASCII spellings of the trademark signs (text/notation.py folds them to the signs, which
# are punctuation here): the only part of that folding the tokens below do not already drop.
_SIGN_SPELLING = re.compile(r"\((?:tm|r|c)\)")


@lru_cache(maxsize=65536)
def identity_of(folded: str) -> str:
    """The identity key of a folded text: equal for two clauses that say the same words,
    rule references aside (see sequence.SequenceAligner.anchors)."""
    if "(" in folded:
        folded = _SIGN_SPELLING.sub(" ", folded)
    text = RULE_REF.sub(" # ", folded.replace("\u2212", "-"))
    return " ".join(_IDENTITY_TOKEN.findall(text))


# A translation pair with little to compare is pulled toward this score (see similarity).
UNINFORMED = 0.3
SHRINK = 1.5


class Features:
    """Computed lazily: an English-to-English alignment needs only the folded text, so the
    termbase and symbol scans run only for translations."""

    __slots__ = (
        "text", "language", "script", "writing", "fold", "length", "wide", "_cache", "_parts",
    )  # fmt: skip

    def __init__(self, text: str, language: str, parts: list[Features] | None = None):
        self.text = text
        self.language = language
        # Asked for by every score: computed once here, not per comparison.
        self.script = _script(language)
        self.writing = _writing(language)
        self._cache: dict[object, object] = {}  # by name; _translation_score's by Features
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
        if self.script == "zh":
            self.fold = _to_simplified(self.wide) if _traditional(language) else self.wide
            length = len(HAN.findall(self.fold)) or len(self.fold)
        else:
            self.fold = fold(self.wide)
            length = len(self.fold)
        self.length = max(length, 1)

    def _sum(self, name: str):
        assert self._parts is not None
        out: Counter[str] = Counter()
        for part in self._parts:
            out.update(getattr(part, name))  # counts are positive: the same as adding them
        return out

    @property
    def identity(self) -> str:
        """The text's identity key (identity_of): the same for the same words."""
        got = self._cache.get("identity")
        if got is None:
            got = self._cache["identity"] = identity_of(self.fold)
        return got  # type: ignore[return-value]

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

    @property
    def marks(self) -> Counter[str]:
        """Symbols and rule references together: what survives translation verbatim."""
        got = self._cache.get("marks")
        if got is None:
            got = self._cache["marks"] = Counter(self.symbols)
            got.update(self.refs)
        return got  # type: ignore[return-value]

    def total(self, name: str) -> int:
        """How many marks or terms (counted with repeats): dice's denominator, kept."""
        key = "#" + name
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = sum(getattr(self, name).values())
        return got  # type: ignore[return-value]

    @property
    def latin(self) -> frozenset[str]:
        """The words in Latin letters (three or more): in a text of another alphabet, the
        English it keeps (a keyword heading "701.22. Fateseal", a card name, "숨겨진 구역
        (hidden zone)", "警戒／Vigilance"); in an English text, its words to look them up."""
        if "latin" not in self._cache:
            if self._parts:
                value = frozenset().union(*(p.latin for p in self._parts))
            else:
                # (Chinese is not folded to lower case: its fold is the Simplified text.)
                latin = _LATIN_WORD.findall(self.fold.lower())
                value = frozenset(w for w in latin if w not in _NOT_KEPT)
            self._cache["latin"] = value
        return self._cache["latin"]  # type: ignore[return-value]

    def support(self, latin: bool) -> int:
        """How many items there are to compare (marks, terms, and words where cognates are)."""
        key = "support-latin" if latin else "support"
        if key not in self._cache:
            n = self.total("marks") + (self.total("terms") if has_termbase(self.language) else 0)
            self._cache[key] = n + (len(self.words) if latin else 0)
        return self._cache[key]  # type: ignore[return-value]


# Words for cognates, split the way spaCy's rule-based tokenizer splits them (which this
# replaced): punctuation stripped from both ends, "n't" and "'s" cut off English words, French
# elisions ("d'", "lorsqu'") dropped, hyphens, dashes and slashes between letters split,
# URLs and anything not purely alphabetic left out. On the 10,324 distinct English, French
# and Spanish texts of the bundled corpus the words of four letters or more (the only ones
# used) are the same for all but 28 English ones (brand names beside a trademark sign,
# URLs), and the aligner no longer pays spaCy's 2.8 s import at its first translation.
_EDGE = "\"'“”‘’«»()[]{}<>.,:;!?…*"
_EN_SUFFIX = re.compile(r"(?:['’](?:s|ll|re|ve|d|m)|n['’]t)$")
_ELISION = re.compile(r"^[^\W\d_]+['’](?=[^\W\d_])")
_INFIX = re.compile(r"(?<=[^\W\d_])(?:-+|/)(?=[^\W\d_])")
_URL = re.compile(r"://|www\.|\.(?:com|asp|html?)\b|[=?&]")


def tokenize(text: str, language: str) -> list[str]:
    english = base_language(language) == "en"
    if english:
        text = text.replace("cannot", "can not")
    out = []
    for chunk in text.split():
        if _URL.search(chunk):
            continue
        chunk = chunk.strip(_EDGE)
        chunk = _EN_SUFFIX.sub("", chunk).strip(_EDGE) if english else _ELISION.sub("", chunk)
        out.extend(part for part in _INFIX.split(chunk) if part.isalpha())
    return out


@lru_cache(maxsize=64)
def has_termbase(language: str) -> bool:
    return shipped_termbase().column(language) is not None


# Every clause of an edition asks the same of its language tag: answered once per tag (a
# tenth of a whole-edition alignment went into parsing the tag again for each clause).
@lru_cache(maxsize=64)
def _script(language: str) -> str:
    return script_of(language)


@lru_cache(maxsize=64)
def _writing(language: str) -> str:
    return writing_of(language)


@lru_cache(maxsize=64)
def _traditional(language: str) -> bool:
    return is_traditional_tag(language)


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


def dice(a: Counter[str], b: Counter[str], total: int | None = None) -> float | None:
    """Dice coefficient of two multisets; ``total``: their sizes added, when known."""
    if total is None:
        total = sum(a.values()) + sum(b.values())
    if total == 0:
        return None
    # The multiset intersection without building a Counter (the DP's innermost loop).
    small, big = (a, b) if len(a) <= len(b) else (b, a)
    shared = 0
    for k, v in small.items():
        w = big.get(k)
        if w:
            shared += v if v < w else w
    return 2 * shared / total


def cognate_overlap(a: frozenset[str], b: frozenset[str]) -> float | None:
    """Share of words on each side with a look-alike on the other (valeur/value, objet/object):
    a word has one when any word of the other side is at least 74% alike."""
    if not a or not b:
        return None
    al, bl = list(a), list(b)
    # One matrix of ratios (cut at 74) answers both directions: a row with any hit is a word
    # of ``a`` with a look-alike in ``b``, a column likewise. One C call instead of a search
    # per word, the same answer.
    alike = process.cdist(al, bl, scorer=fuzz.ratio, score_cutoff=74, workers=1) > 0
    return float((alike.any(axis=1).sum() / len(al) + alike.any(axis=0).sum() / len(bl)) / 2)


@dataclass
class Context:
    """What the caller knows about the pair of sequences being aligned."""

    # Expected length(b) / length(a), estimated from the two sequences themselves.
    length_ratio: float = 1.0


def _text_score(a: Features, b: Features, ratio: float | None) -> tuple[float, float | None]:
    """Same language: the plain ratio, and the contained score when it is higher."""
    if ratio is None:
        ratio = fuzz.ratio(a.fold, b.fold) / 100
    if ratio < 0.8 and contains(a.fold, b.fold):
        # One text grew a sentence (2016's 107.3h gained the "gains an ability" rule): the
        # shorter text read inside the longer one still says it is the same rule. Only a
        # partial match above ratio / 0.8 can change the score: rapidfuzz stops early below
        # that cutoff (0 then), which is most of its cost on long clauses.
        cutoff = min(100.0, max(ratio, CONTAINED_USEFUL_FROM) / 0.8 * 100)
        partial = 0.8 * _partial_ratio(a.fold, b.fold, cutoff) / 100
        if partial > ratio:
            return ratio, partial
    return ratio, None


# The lowest same-language score any decision of the aligner uses: a shared label counts from
# 0.5 (Settings.label_confirm_same); a pair, a split or a move needs 0.6 or more. A contained
# score below it changes nothing, so partial_ratio is asked only for one above it (its cutoff
# lets rapidfuzz give up early: a third of an ingest's alignment time went into it).
CONTAINED_USEFUL_FROM = 0.5

# Beyond this length the best window is looked for only where contains() found the shorter
# text's first or last words: partial_ratio over every window of a 2,000-character glossary
# entry (the creature types of 2006-2008) took 0.1-0.2 s a call, most of an alignment's time.
PARTIAL_WINDOWS_UP_TO = 1000


@lru_cache(maxsize=4096)
def _partial_ratio(x: str, y: str, cutoff: float) -> float:
    # Cached: a pair of texts is asked again by a later phase of the same alignment (the
    # anchors, then a gap), 10% of the corpus's 5,551 calls (1.9 s of CPU in all).
    short_text, long_text = (x, y) if len(x) <= len(y) else (y, x)
    n = len(short_text)
    if n <= PARTIAL_WINDOWS_UP_TO:
        return fuzz.partial_ratio(x, y, score_cutoff=cutoff)
    starts = set()
    if (k := long_text.find(short_text[:24])) >= 0:
        starts.add(k)
    if (k := long_text.find(short_text[-24:])) >= 0:
        starts.add(max(0, k + 24 - n))
    return max(
        (fuzz.ratio(short_text, long_text[k : k + n], score_cutoff=cutoff) for k in starts),
        default=0.0,
    )


def _translation_score(
    a: Features, b: Features, ctx: Context
) -> tuple[float, list[tuple[str, float, float]], int]:
    """Across languages: (score, its parts as (feature, value, weight), support)."""
    # All but the length part depend on the two texts alone, which the editions of a plan
    # pair again and again (zh-Hans 2025 and 2026 with their English: 39,000 of the
    # corpus's 62,000 translation scores repeat a pair of texts): kept on ``a``, by ``b``
    # (the features of one text are shared across a plan's pairs, edition.ClauseCache).
    # Two clauses read as one (a split or a merge) live only as long as their aligner: not
    # kept, so that no shared clause holds them.
    joined = a._parts is not None or b._parts is not None
    known = None if joined else a._cache.get(b)
    if known is None:
        known = _text_parts(a, b)
        if not joined:
            a._cache[b] = known
    text_parts, support = known
    expected = a.length * ctx.length_ratio
    length = math.exp(-abs(math.log(b.length / expected)) * 1.5)
    weak = 0.3 if "zh" in (a.script, b.script) else 1.0
    parts = [*text_parts, ("length", length, weak)]
    total_w = sum(w for _, _, w in parts)
    score = sum(v * w for _, v, w in parts) / total_w
    # How much there was to compare: one shared term in two short clauses is a weak sign
    # however perfect its dice. Few items pull the score toward an uninformed 0.3.
    score = (score * support + UNINFORMED * SHRINK) / (support + SHRINK)
    return score, parts, support


def _text_parts(a: Features, b: Features) -> tuple[list[tuple[str, float, float]], int]:
    """The parts of _translation_score that the texts decide, and its support."""
    parts: list[tuple[str, float, float]] = []  # (feature, value, weight)
    sym = dice(a.marks, b.marks, a.total("marks") + b.total("marks"))
    if sym is not None:
        parts.append(("symbols", sym, 2.0))
    # Game terms where the termbase knows both languages: a language without its column
    # (Polish, Ukrainian...) finds none, and an English clause full of them would look unlike
    # its translation for a reason that says nothing.
    if has_termbase(a.language) and has_termbase(b.language):
        terms = dice(a.terms, b.terms, a.total("terms") + b.total("terms"))
        if terms is not None:
            parts.append(("terms", terms, 3.0))
    # Words count only where cognates were compared: between two languages of the Latin
    # alphabet (Korean or Russian words never look like English ones; counting them would
    # pull every such pair toward "different").
    latin = a.writing == b.writing == "latin"
    if latin:
        cog = cognate_overlap(a.words, b.words)
        if cog is not None:
            parts.append(("cognates", cog, 2.0))
    # English kept in a translation of another alphabet (keyword headings, card names, the
    # English in brackets): found among the English clause's words, or not.
    kept_support = 0
    if a.writing != b.writing and "latin" in (a.writing, b.writing):
        english, other = (a, b) if a.writing == "latin" else (b, a)
        kept = other.latin
        if kept:
            found = sum(1 for w in kept if w in english.latin)
            parts.append(("kept-english", found / len(kept), 2.0))
            kept_support = min(len(kept), KEPT_SUPPORT)
    return parts, min(a.support(latin), b.support(latin)) + kept_support


def similarity_value(
    a: Features, b: Features, ctx: Context | None = None, *, ratio: float | None = None
) -> float:
    """similarity()'s score alone: for comparisons whose evidence nobody reads (is a
    neighbour a better fit?), at a fraction of the cost."""
    if same_language(a.language, b.language):
        plain, partial = _text_score(a, b, ratio)
        return plain if partial is None else partial
    return _translation_score(a, b, ctx or Context())[0]


def similarity(
    a: Features, b: Features, ctx: Context | None = None, *, ratio: float | None = None
) -> tuple[float, list[dict]]:
    """A score in [0, 1] that ``a`` and ``b`` state the same rule, with its evidence.
    ``ratio``: the plain text ratio when the caller already has it (a vectorised pass)."""
    ctx = ctx or Context()
    # Two Chinese scripts compare as text too: both are folded to Simplified.
    if same_language(a.language, b.language):
        ratio, partial = _text_score(a, b, ratio)
        evidence: list[dict] = [{"feature": "text", "value": round(ratio, 3)}]
        if partial is not None:
            ratio = partial
            evidence.append({"feature": "contained", "value": round(partial, 3)})
        if ratio >= 0.5 and (a.symbols or b.symbols):
            d = dice(a.symbols, b.symbols)
            evidence.append({"feature": "symbols", "value": round(d or 0.0, 3)})
        if a.language != b.language:
            evidence.append({"feature": "script", "value": f"{a.language}->{b.language}"})
        return ratio, evidence

    score, parts, support = _translation_score(a, b, ctx)
    evidence = [{"feature": f, "value": round(v, 3), "weight": w} for f, v, w in parts]
    evidence.append({"feature": "support", "value": support})
    if a.refs and b.refs and a.refs == b.refs:
        evidence.append({"feature": "rule-refs", "value": sorted(a.refs)})
    return score, evidence
