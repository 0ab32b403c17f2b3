"""The order of hits, as a reference librarian would give them.

Every candidate text is placed by these criteria, each only breaking the ties of the ones
before it:

1. the query's language first (--lang, else the language its spelling, the store's own words
   or the termbase show: maná is Spanish, coût French, 堆疊 Chinese; else English);
2. today's wording before older ones (the newest edition of its language holds it, or an
   older wording of a rule that goes on today, when today's texts hardly say what the query
   says: an old name);
3. the glossary entry that is exactly the term (as typed before one its lemma names:
   Phasing, then Phase, for phasing; today's own entry before an older entry that became
   another: Converted Mana Cost (Obsolete), then Mana Value) ("Stack" for stack, "Poison
   Counter" for poison counters), then the rules that define it: the rules that entry points to ("See
   rule 405") and the section head or keyword rule whose title is the query, then their
   first subrules; then the rest;
4. for a query of one or two words, texts holding all of them before those holding only
   some ("mana cost": never a text about mana alone before one about mana costs); a longer
   query, a question, goes to the text its words mostly name, even without every word
   (its weight, criterion 8, is scaled by the square root of its coverage: COVERAGE_POWER);
5. the words as one phrase ("mana cost") before the words scattered (a rule about a feature
   the query does not name, engine._off_subject, holds a phrase only in passing);
6. the query's own script (a query in Traditional characters reads Traditional first);
7. the rules' own text before an example under a rule or a page author's notes;
8. the text's weight (below), in steps of a twentieth of the best one: within a step,
9. whether the text's translation holds the query's translation (a concordance: "stack"
   beside a French clause saying "pile");
10. then the weight itself.

The weight is Okapi BM25 computed here over the candidate texts, with the index's document
frequencies: each query term adds its idf, saturated by how often the text holds it (a word
repeated ten times is not ten times the answer) and normalised by the text's length against
the texts of its language (a short rule that is about the word outranks a long one that
mentions it). A term counts where the index would match it (a prefix: "creature" in
"creatures") or by its lemma ("sacrificed" in "sacrifice"); in a glossary entry's term it
counts TERM_FIELD times (BM25F: the entry is about that word). Proximity is added as BM25TP
does (Rasolofo and Savoy, 2003): each pair of query terms standing within PROXIMITY_WINDOW
words of each other adds the smaller of their idfs, saturated over the pair's occurrences
and weighted by 1/distance². So "if a planeswalker has loyalty 0" answers "what happens
when a planeswalker has no loyalty" before long rules that use both words far apart, and a
rule holding the rare words of a question close together outranks one holding all its
words scattered (benchmarks/eval_search.py measures the order against FTS5's own bm25).

``score`` folds this order into one number (larger is better) so that a list sorted by score
is the list in rank order.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .query import Term

# Okapi BM25's usual constants (Robertson et al.; the defaults of Lucene and FTS5 alike).
K1 = 1.2
B = 0.75
# A query word in a glossary entry's term counts as this many in its body (BM25F field weight).
TERM_FIELD = 3.0
# How close two query terms must stand (in words, or characters in Chinese) to count as near.
PROXIMITY_WINDOW = 5
# A bigram of the query's words found in the text weighs this share of its searched word.
# Half: at 1.0 a question's filler pairs ("can I", "of my") outweighed its rarer words
# (MRR@10 over the 496 queries of the older sets 0.739 at 1.0, 0.745 at 0.5, 0.738 at 0.25,
# 0.727 without bigrams: eval_search.py per set).
BIGRAM = 0.5
# A rule about one feature of the game (a keyword, a kind of card, a variant) that the query
# does not name weighs this share of its weight (engine._subjects); so does a rule about
# another feature, or none, that does not name the feature a question names (304.5 on
# instant timing for "can you equip at instant speed"). For the second, over the 834
# queries of the sets without Japanese or Korean (eval_search.py): MRR@10 0.7689 without,
# 0.7723 at 0.35 and 0.5, 0.7717 at 0.7.
OFF_SUBJECT = 0.5
# A longer query's weight is scaled by its coverage (the idf-weighted share of its terms the
# text holds) to this power. Over the 697 queries of the sets without Japanese or Korean
# (eval_search.py): MRR@10 0.7523 at 0 (unscaled), 0.7556 at 0.25, 0.7587 at 0.4, 0.7598 at
# 0.5, 0.7542 at 0.75, 0.7543 at 1, 0.7512 at 1.5.
COVERAGE_POWER = 0.5
# A rule whose opening word is the question's rarest word (its subject) weighs this much more.
SUBJECT = 1.2
# A question whether something may be done ("can a tapped creature block?",
# query.asks_permission) is answered by a rule that allows, forbids or requires ("The chosen
# creatures must be untapped"): such a rule weighs this much more. Over the 1,392 queries of
# the sets without Japanese or Korean (eval_search.py per set, ASIDE_ENTRY 0.5): MRR@10
# 0.7848 at 1.15, 0.7856 at 1.3, but at 1.3 a keyword's rule saying "can't" (702.154a
# Enlist) is among the first three for "can tapped creatures attack", which the question
# does not name (tests/test_search_ranking.py, OFF_SUBJECT): kept at 1.15.
PERMISSION = 1.15
PERMISSION_SAID = frozenset({"can", "cannot", "may", "must", "only"})
# In a question, a glossary entry found by its words that is neither the question's term nor
# one it names in full weighs this share: the question asks about a situation, which the
# rules describe, and such an entry defines another word that merely shares some of the
# question's ("Fateseal" for counting the cards in an opponent's library). Measured over the
# older sets' 496 queries: 0.739 at 1.0, 0.748 at 0.7, 0.746 at 0.5; measured again over the
# 1,392 queries of the sets without Japanese or Korean (2026-12-07): 0.7815 at 0.85, 0.7826
# at 0.7, 0.7848 at 0.5, 0.7844 at 0.45, 0.7841 at 0.35 (the 401 Japanese and Korean
# queries 0.7212 at 0.7, 0.7202 at 0.5). The other weights, each moved both ways on the same
# queries, were best where they are, or within 0.0003 (K1, B, TERM_FIELD, PROXIMITY_WINDOW,
# BIGRAM, OFF_SUBJECT, COVERAGE_POWER, SUBJECT).
ASIDE_ENTRY = 0.5
# The weight's steps (criterion 8): within a twentieth of each other, two texts weigh alike
# enough for a concordance to decide.
BANDS = 20


@dataclass
class Features:
    """What the ranking reads of one candidate text: its criteria, compared in order (module docstring)."""

    preferred: bool  # in the query's language
    tier: int  # 0 exact glossary term, 1 a rule defining it, 2 the rest
    coverage: float  # idf-weighted share of the query's terms the text holds
    phrase: bool  # the query's words as one phrase
    near: float  # share of neighbouring query terms standing together
    concordance: bool  # its translation holds the query's translation
    weight: float  # BM25 with proximity (module docstring)
    script: bool = True  # in the query's script (only Chinese has two)
    official: bool = True  # the rules' text (not an example, nor a page author's notes)
    current: bool = True  # in the newest edition of its language (today's wording)
    sub: bool = False  # a defining rule's subrule: after the rules the entry names
    order: int = 0  # such a subrule's place among them: read in document order
    whole: bool = True  # a short query: every word before some (criterion 4)
    literal: bool = True  # today's edition holds this very text (not an older wording)
    band: int = BANDS  # the weight in steps of the best candidate's (criterion 7)
    loose: bool = False  # an exact entry by lemma or singular only, beside one as typed

    @property
    def full(self) -> bool:
        return self.coverage >= 0.999

    def key(self) -> tuple:
        """Sort key, smallest first."""
        return (
            not self.preferred,
            not self.current,
            self.tier,
            self.tier == 0 and self.loose,
            self.tier == 0 and not self.literal,
            self.sub,
            self.order,
            self.whole and not self.full,
            not self.phrase,
            not self.script,
            not self.official,
            -self.band,
            not self.concordance,
            -self.weight,
        )

    def relevance(self) -> float:
        """How well the text answers, 0-1, for a reader: the share of the query it holds
        (idf-weighted), as a phrase or close together, and its weight against the best
        text's; the term's own entry and the rules defining it answer fully."""
        if self.tier == 0:
            return 1.0
        value = (
            0.6 * self.coverage
            + 0.25 * (1.0 if self.phrase else self.near)
            + 0.15 * self.band / BANDS
        )
        if self.tier == 1:
            value = max(value, 0.9)
        if not self.current:
            value *= 0.8
        return round(min(max(value, 0.0), 1.0), 3)

    def score(self) -> float:
        """The key as one number, larger is better: each criterion outweighs all those after
        it (the weight is squeezed into [0, 1))."""
        s = float(self.preferred)
        s = s * 2 + float(self.current)
        s = s * 3 + (2 - self.tier)
        s = s * 2 + float(not (self.tier == 0 and self.loose))
        s = s * 2 + float(not (self.tier == 0 and not self.literal))
        s = s * 2 + float(not self.sub)
        s = s * 4 + (3 - max(min(self.order, 3), 0))
        s = s * 2 + float(not (self.whole and not self.full))
        s = s * 2 + float(self.phrase)
        s = s * 2 + float(self.script)
        s = s * 2 + float(self.official)
        s = s * (BANDS + 1) + max(min(self.band, BANDS), 0)
        s = s * 2 + float(self.concordance)
        weight = max(self.weight, 0.0)
        return round(s + weight / (1.0 + weight), 4)


def idf(df: int, total: int) -> float:
    """BM25's inverse document frequency, kept positive for words in most texts."""
    return math.log(1.0 + (total - df + 0.5) / (df + 0.5))


def term_in(term: Term, tokens: list[str], joined: str, lemmas: list[str] | None = None) -> bool:
    """Whether a text (its index tokens, and those tokens joined without spaces for Han
    runs; its lemmas, one per token) holds ``term``: a word as a prefix of a token (as the
    index matches it), a short word exactly, a Han run as consecutive characters, or one of
    the term's lemmas as a lemma of the text."""
    for alt in term.alts:
        if term.charwise:
            if alt in joined:
                return True
        elif len(alt) >= 3:
            if any(t.startswith(alt) for t in tokens):
                return True
        elif alt in tokens:
            return True
    if term.lemmas and lemmas:
        wanted = set(term.lemmas)
        return any(lm in wanted for lm in lemmas)
    return False


def positions(term: Term, tokens: list[str], lemmas: list[str] | None = None) -> list[int]:
    """Where ``term`` starts among ``tokens`` (or, by a lemma, among ``lemmas``)."""
    out: list[int] = []
    if term.charwise:
        for alt in term.alts:
            n, first = len(alt), alt[0]
            out += [
                i for i, t in enumerate(tokens) if t == first and "".join(tokens[i : i + n]) == alt
            ]
        return sorted(set(out))
    prefixes = tuple(a for a in term.alts if len(a) >= 3)
    exact = {a for a in term.alts if len(a) < 3}
    # The lemmas are looked for in the text's own ("sacrifice" for sacrificed, "leave" for
    # left, which no prefix finds); in a text with none (its tokens stand in), only those
    # the prefixes do not already find.
    if lemmas is None or not term.lemmas:
        wanted: set[str] = set()
    elif lemmas is tokens:
        wanted = {lm for lm in term.lemmas if not (prefixes and lm.startswith(prefixes))}
    else:
        wanted = set(term.lemmas)
    # str.startswith with a tuple: one C call per token, whatever the alternatives.
    found = [i for i, t in enumerate(tokens) if t.startswith(prefixes)] if prefixes else []
    if exact:
        found += [i for i, t in enumerate(tokens) if t in exact]
    if wanted:
        found += [i for i, lm in enumerate(lemmas) if lm in wanted]
    return sorted(set(found)) if exact or wanted else found


def span(term: Term) -> int:
    """How many tokens ``term`` covers where it stands (a Han run: one per character)."""
    return len(term.alts[0]) if term.charwise else 1


def has_phrase(phrase: list[str], tokens: list[str], exact: bool = False) -> bool:
    """The query's tokens in a row (the last may be a prefix: "poison counter" in
    "poison counters"; ``exact``: not even that, for lemmas)."""
    n = len(phrase)
    if n == 0 or n > len(tokens):
        return False
    for i in range(len(tokens) - n + 1):
        if tokens[i : i + n - 1] == phrase[:-1]:
            last = tokens[i + n - 1]
            if last == phrase[-1] or (not exact and last.startswith(phrase[-1])):
                return True
    return False


def _gap(a: int, span_a: int, b: int, span_b: int) -> int:
    """Words between the ends of two occurrences, plus one (1: side by side; 0: overlapping)."""
    if a <= b:
        return max(b - (a + span_a) + 1, 0)
    return max(a - (b + span_b) + 1, 0)


def nearness(terms: list[Term], found: Sequence[Sequence[int]]) -> float:
    """The share of neighbouring query terms (in the query's order) found within
    PROXIMITY_WINDOW words of each other, in either order (1.0 for one term that is present).
    ``found``: each term's positions in the text."""
    if len(terms) < 2:
        return 1.0 if terms and found[0] else 0.0
    pairs = 0
    for i in range(len(terms) - 1):
        a, b = found[i], found[i + 1]
        sa, sb = span(terms[i]), span(terms[i + 1])
        if a and b and any(0 < _gap(x, sa, y, sb) <= PROXIMITY_WINDOW for x in a for y in b):
            pairs += 1
    return pairs / (len(terms) - 1)


def weigh(
    terms: list[Term],
    found: Sequence[Sequence[int]],
    idfs: Sequence[float],
    length: int,
    average: float,
    term_tokens: int = 0,
) -> float:
    """A text's BM25 weight with proximity (module docstring): ``found`` holds each term's
    positions in the text's tokens, of which the first ``term_tokens`` are a glossary
    entry's term; ``length`` the text's tokens; ``average`` the average length of the texts
    of its language."""
    norm = K1 * (1.0 - B + B * length / max(average, 1.0))
    total = 0.0
    for pos, w in zip(found, idfs, strict=True):
        if pos:
            tf = sum(TERM_FIELD if i < term_tokens else 1.0 for i in pos)
            total += w * tf * (K1 + 1.0) / (tf + norm)
    for i in range(len(terms)):
        if not found[i]:
            continue
        for j in range(i + 1, len(terms)):
            if not found[j]:
                continue
            si, sj = span(terms[i]), span(terms[j])
            tpi = 0.0
            for x in found[i]:
                for y in found[j]:
                    d = _gap(x, si, y, sj)
                    if 0 < d <= PROXIMITY_WINDOW:
                        tpi += 1.0 / (d * d)
            if tpi:
                total += min(idfs[i], idfs[j]) * tpi * (K1 + 1.0) / (tpi + K1)
    return total


def pairs(words: Sequence[str]) -> Counter[tuple[str, str]]:
    """A text's consecutive words, counted (for bigrams)."""
    return Counter(zip(words, words[1:], strict=False))


def bigrams(
    query: Sequence[str],
    weights: Sequence[float],
    found: Counter[tuple[str, str]],
    length: int,
    average: float,
) -> float:
    """The query's consecutive words found side by side and in order in the text, as the
    sequential dependence model counts them (Metzler and Croft, 2005), stop and question
    words included: "a player has 0" in "if a player has 0 or less life". Each bigram holding
    a searched word (``weights``: each query word's idf, 0 for the unsearched) adds that
    idf, saturated by how often the text repeats the bigram, as a term does. ``found``: the
    text's pairs of words (the same forms as the query's: index tokens, or lemmas)."""
    if len(query) < 2 or not any(weights):
        return 0.0
    norm = K1 * (1.0 - B + B * length / max(average, 1.0))
    total = 0.0
    seen: set[tuple[str, str]] = set()
    for i in range(len(query) - 1):
        pair = (query[i], query[i + 1])
        w = max(weights[i], weights[i + 1])
        if not w or pair in seen:
            continue
        seen.add(pair)
        tf = found.get(pair, 0)
        if tf:
            total += BIGRAM * w * tf * (K1 + 1.0) / (tf + norm)
    return total
