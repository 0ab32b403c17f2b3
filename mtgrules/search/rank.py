"""The order of hits, as a reference librarian would give them.

Every candidate text is placed by these criteria, each only breaking the ties of the ones
before it:

1. the query's language first (--lang, else the language its spelling or the termbase
   shows: maná is Spanish, coût French, 堆疊 Chinese; else English, the rules' own language);
2. the glossary entry that is exactly the term ("Stack" for stack, "Poison Counter" for
   poison counters), then the rules that entry points to ("See rule 405"), then the rest;
3. texts holding every searched word before those holding only some (the fallback, for
   questions: "how many cards in a starting hand");
4. the words as one phrase ("mana cost") before the words scattered;
5. the query's own script (a query in Traditional characters reads Traditional first);
6. how much of the query a partial match holds, each word weighted by its rarity;
7. the rules' own text before a page author's notes (commentary on a scraped page);
8. the longest run of the query's words the text repeats word for word ("a player has 0"
   in "if a player has 0 or less life"), counted in searched words;
9. how many neighbouring query words stand close together in the text;
10. whether the text's translation holds the query's translation (a concordance: "stack"
   beside a French clause saying "pile");
11. bm25 (the database's relevance: frequent in the text, rare in the index, short text).

``score`` folds this order into one number (larger is better) so that a list sorted by score
is the list in rank order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .query import Term

# How close two neighbouring query words must stand (in words) to count as together.
NEAR_WINDOW = 3


@dataclass
class Features:
    preferred: bool  # in the query's language
    tier: int  # 0 exact glossary term, 1 a rule it points to, 2 the rest
    coverage: float  # rarity-weighted share of the query's terms the text holds
    phrase: bool  # the query's words as one phrase
    near: float  # share of neighbouring term pairs standing together
    concordance: bool  # its translation holds the query's translation
    bm25: float  # within its query expression
    script: bool = True  # in the query's script (only Chinese has two)
    run: float = 1.0  # longest run of query words repeated, as a share of the searched ones
    official: bool = True  # the rules' text (not a scraped page author's commentary)
    current: bool = True  # in the newest edition of its language (today's wording)
    sub: bool = False  # a defining rule's subrule: after the rules the entry names

    @property
    def full(self) -> bool:
        return self.coverage >= 0.999

    def key(self) -> tuple:
        """Sort key, smallest first."""
        return (
            not self.preferred,
            not self.current,
            self.tier,
            self.sub,
            not self.full,
            not self.phrase,
            not self.script,
            -round(self.coverage, 1),
            not self.official,
            -round(self.run, 1),
            -round(self.near, 1),
            not self.concordance,
            -self.bm25,
        )

    def relevance(self) -> float:
        """How well the text answers, 0-1, for a reader: the share of the query it holds
        (rarity-weighted), as a phrase or close together, a little for bm25; the term's
        own entry and the rules it points to answer fully."""
        if self.tier == 0:
            return 1.0
        saturated = self.bm25 / (1.0 + self.bm25)
        value = (
            0.55 * self.coverage
            + 0.2 * (1.0 if self.phrase else self.near)
            + 0.15 * self.run
            + 0.1 * saturated
        )
        if self.tier == 1:
            value = max(value, 0.9)
        if not self.current:
            value *= 0.8
        return round(min(max(value, 0.0), 1.0), 3)

    def score(self) -> float:
        """The key as one number, larger is better: each criterion outweighs all those after
        it (bm25 is squeezed into [0, 1) and the fractions into 11 steps)."""
        s = float(self.preferred)
        s = s * 2 + float(self.current)
        s = s * 3 + (2 - self.tier)
        s = s * 2 + float(not self.sub)
        s = s * 2 + float(self.full)
        s = s * 2 + float(self.phrase)
        s = s * 2 + float(self.script)
        s = s * 11 + round(self.coverage * 10)
        s = s * 2 + float(self.official)
        for fraction in (self.run, self.near):
            s = s * 11 + round(fraction * 10)
        s = s * 2 + float(self.concordance)
        return round(s + self.bm25 / (1.0 + self.bm25), 4)


def _matches(alt: str, token: str) -> bool:
    return token.startswith(alt) if len(alt) >= 3 else token == alt


def term_in(term: Term, tokens: list[str], joined: str, lemmas: list[str] | None = None) -> bool:
    """Whether a text (its index tokens, and those tokens joined without spaces for Han
    runs; its lemmas, one per token) holds ``term``: a word as a prefix of a token (as the
    index matches it), a short word exactly, a Han run as consecutive characters, or one of
    the term's lemmas as a lemma of the text."""
    for alt in term.alts:
        if term.han:
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
    if term.han:
        for alt in term.alts:
            n, first = len(alt), alt[0]
            out += [
                i for i, t in enumerate(tokens) if t == first and "".join(tokens[i : i + n]) == alt
            ]
        return sorted(set(out))
    prefixes = tuple(a for a in term.alts if len(a) >= 3)
    exact = {a for a in term.alts if len(a) < 3}
    wanted = set(term.lemmas) if lemmas else set()
    # str.startswith with a tuple: one C call per token, whatever the alternatives.
    return [
        i
        for i, t in enumerate(tokens)
        if t in exact
        or (prefixes and t.startswith(prefixes))
        or (wanted and i < len(lemmas) and lemmas[i] in wanted)
    ]


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


def nearness(terms: list[Term], tokens: list[str], lemmas: list[str] | None = None) -> float:
    """The share of neighbouring query terms found within NEAR_WINDOW words of each other,
    in either order (1.0 for a one-term query that is present)."""
    if len(terms) < 2:
        return 1.0 if terms and positions(terms[0], tokens, lemmas) else 0.0
    found = [positions(t, tokens, lemmas) for t in terms]
    pairs = 0
    for a, b in zip(found, found[1:], strict=False):
        if a and b and any(abs(i - j) <= NEAR_WINDOW for i in a for j in b):
            pairs += 1
    return pairs / (len(terms) - 1)


def rarity(df: int, total: int) -> float:
    """A term's weight for partial matches: rarer terms say more (idf, at least a little)."""
    return max(math.log((total + 1) / (df + 0.5)), 0.1)


def longest_run(query: list[str], searched: set[str], tokens: list[str]) -> int:
    """The most searched words in one run of the query's tokens that the text repeats in
    order and unbroken (stop words count for the run, not in its length)."""
    exact = set(query)
    prefixes = tuple(q for q in query if len(q) >= 4)
    best = 0
    runs: dict[int, int] = {}  # query position -> searched words in the run ending there
    for t in tokens:
        if t not in exact and not (prefixes and t.startswith(prefixes)):
            runs = {}  # most tokens: not a query word, every run breaks here
            continue
        nxt: dict[int, int] = {}
        for i, q in enumerate(query):
            if t == q or (len(q) >= 4 and t.startswith(q)):
                nxt[i] = runs.get(i - 1, 0) + (q in searched)
                if nxt[i] > best:
                    best = nxt[i]
        runs = nxt
    return best
