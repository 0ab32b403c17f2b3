"""A search query, checked and cut into folded words, then written for each database.

User text never reaches MATCH / to_tsquery raw: it is cut into folded words (letters and
digits only) and each word is quoted, so ``AND``, ``OR``, ``:`` or braces are just text. The
operators a user could believe work (``"``, ``*``, ``^``, ``NEAR(``) get a QueryError instead.
"""

from __future__ import annotations

import re

from ..errors import QueryError
from ..text.fold import fold_words, is_han

# --kind: what a reader calls rules also covers section headings and the examples under rules.
KIND_GROUPS: dict[str, tuple[str, ...]] = {
    "rules": ("rule", "heading", "example"),
    "glossary": ("glossary",),
    "commentary": ("commentary",),
}
DEFAULT_LIMIT = 20
MAX_LIMIT = 500
# Long enough to paste a rule's sentence; a 10 kB paste is a mistake, not a query.
MAX_QUERY_CHARS = 500
MAX_QUERY_WORDS = 32
# Words in nearly every clause. Dropped from a query that has other words: they rank
# nothing, and "the"* alone matches 38,000 clauses (bm25 over all of them is the slow part).
STOP_WORDS = frozenset(
    "a an and are as at be by for from in is it its of on or that the this to with "
    "au aux ce de des du en et il la le les un une que qui "
    "al con del el las lo los para por se su y".split()
)
# Full-text operators a user may type thinking they work; they would be searched as plain
# words (every word is quoted), which is not what was meant: say so instead.
_FTS_SYNTAX = re.compile(r"[*^]|\bNEAR\s*\(", re.I)


def check_query(query: str) -> str:
    if not isinstance(query, str) or not query.strip():
        raise QueryError(
            "the search query is empty; give words (stack, coût, 堆叠) or a rule number (107.3g)."
        )
    if len(query) > MAX_QUERY_CHARS:
        raise QueryError(
            f"the search query is {len(query)} characters long; keep it under "
            f"{MAX_QUERY_CHARS} (a few words or a rule number such as 107.3g)."
        )
    if _FTS_SYNTAX.search(query) or query.count('"') % 2:
        raise QueryError(
            "search takes plain words or a rule number, not full-text syntax "
            '(" * ^ NEAR( ...); e.g.: mtgrules search combat damage'
        )
    return query.strip()


def kinds_of(kind: str | None) -> tuple[str, ...] | None:
    if kind is None:
        return None
    if kind not in KIND_GROUPS:
        raise QueryError(f"unknown kind '{kind}'; use one of: {', '.join(KIND_GROUPS)}.")
    return KIND_GROUPS[kind]


def query_words_checked(query: str) -> list[str]:
    words = fold_words(query)
    if not words:
        raise QueryError(
            f"'{query[:40]}' has no letters or digits to search for; give words "
            "(stack, coût, 堆叠) or a rule number (107.3g)."
        )
    if len(words) > MAX_QUERY_WORDS:
        raise QueryError(
            f"the search query has {len(words)} words; give at most {MAX_QUERY_WORDS}."
        )
    return words


def fts_match(groups: list[list[str]]) -> str:
    """An FTS5 MATCH expression: AND of groups, OR inside a group, every word quoted.

    The words come from fold_words (letters and digits only), so no quote can appear inside;
    a Han run becomes a phrase of single characters, the way the index stores it."""

    def term(word: str) -> str:
        if is_han(word):
            return '"' + " ".join(word) + '"'
        # Prefix match for real words (stack -> stacks); short ones exact, or "a" matches all.
        return f'"{word}"*' if len(word) >= 3 else f'"{word}"'

    parts = []
    for group in groups:
        alts = [term(w) for w in group]
        parts.append(alts[0] if len(alts) == 1 else "(" + " OR ".join(alts) + ")")
    return " AND ".join(parts)


def pg_tsquery(groups: list[list[str]]) -> str:
    """The same query for PostgreSQL's to_tsquery('simple', ...)."""

    def term(word: str) -> str:
        if is_han(word):
            return "(" + " <-> ".join(f"'{ch}'" for ch in word) + ")"
        return f"'{word}':*" if len(word) >= 3 else f"'{word}'"

    return " & ".join("(" + " | ".join(term(w) for w in group) + ")" for group in groups)

