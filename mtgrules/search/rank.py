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

    @property
    def full(self) -> bool:
        return self.coverage >= 0.999

    def key(self) -> tuple:
        """Sort key, smallest first."""
        return (
            not self.preferred,
            self.tier,
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

    def score(self) -> float:
        """The key as one number, larger is better: each criterion outweighs all those after
        it (bm25 is squeezed into [0, 1) and the fractions into 11 steps)."""
        s = float(self.preferred)
        s = s * 3 + (2 - self.tier)
        s = s * 2 + float(self.full)
        s = s * 2 + float(self.phrase)
        s = s * 2 + float(self.script)
        s = s * 11 + round(self.coverage * 10)
        s = s * 2 + float(self.official)
        for fraction in (self.run, self.near):
            s = s * 11 + round(fraction * 10)
        s = s * 2 + float(self.concordance)
        return round(s + self.bm25 / (1.0 + self.bm25), 4)


def term_in(term: Term, tokens: list[str], joined: str) -> bool:
    """Whether a text (its index tokens, and those tokens joined without spaces for Han
    runs) holds ``term``: a word as a prefix of a token (as the index matches it), a
    short word exactly, a Han run as consecutive characters."""
    for alt in term.alts:
        if term.han:
            if alt in joined:
                return True
        elif len(alt) >= 3:
            if any(t.startswith(alt) for t in tokens):
                return True
        elif alt in tokens:
            return True
    return False


def positions(term: Term, tokens: list[str]) -> list[int]:
    """Where ``term`` starts among ``tokens``."""
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
    # str.startswith with a tuple: one C call per token, whatever the alternatives.
    return [i for i, t in enumerate(tokens) if t in exact or (prefixes and t.startswith(prefixes))]


def has_phrase(phrase: list[str], tokens: list[str]) -> bool:
    """The query's tokens in a row (the last may be a prefix: "poison counter" in
    "poison counters")."""
    n = len(phrase)
    if n == 0 or n > len(tokens):
        return False
    for i in range(len(tokens) - n + 1):
        if tokens[i : i + n - 1] == phrase[:-1] and tokens[i + n - 1].startswith(phrase[-1]):
            return True
    return False


def nearness(terms: list[Term], tokens: list[str]) -> float:
    """The share of neighbouring query terms found within NEAR_WINDOW words of each other,
    in either order (1.0 for a one-term query that is present)."""
    if len(terms) < 2:
        return 1.0 if terms and positions(terms[0], tokens) else 0.0
    found = [positions(t, tokens) for t in terms]
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
