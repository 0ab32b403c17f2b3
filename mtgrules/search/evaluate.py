"""Search relevance: the hand-written query set (tests/search_relevance.toml) and its scores.

An answer names a clause without naming an edition: a rule number (valid over a window of
dates, since rules move between editions) or a glossary term, optionally in one language.
A hit is relevant if it matches any answer of its query; a query's reciprocal rank is 1/rank
of its first relevant hit within the cut-off (0 if none), and MRR is their mean.

Read by benchmarks/eval_search.py (the figures) and tests/test_search_relevance.py (the set's
integrity against the corpus); nothing here runs a search.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Protocol

from ..errors import InputError
from ..text.fold import fold

LANGUAGES = ("en", "fr", "es", "zh-Hans", "zh-Hant", "ja", "ko")
# Answer languages may also say "zh": either Chinese script.
ANSWER_LANGUAGES = (*LANGUAGES, "zh")
# Labels name modern rules unless an answer says otherwise: before the July 2009
# renumbering every number meant something else.
DEFAULT_FROM = "2009-07-11"
_LABEL = re.compile(r"^[0-9]{3}(?:\.[0-9]{1,4}[a-z]?)?$")
_QUERY_KEYS = {"q", "lang", "filter", "why", "answers"}
_ANSWER_KEYS = {"label", "term", "lang", "from", "until"}


@dataclass(frozen=True)
class Answer:
    """One acceptable answer of a relevance query: a rule number or a glossary term, with its language and dates."""

    label: str | None = None
    term: str | None = None
    lang: str | None = None
    since: str = DEFAULT_FROM  # "from" in the file (a keyword in Python)
    until: str | None = None

    def describe(self) -> str:
        what = f"rule {self.label}" if self.label else f"glossary '{self.term}'"
        where = f" [{self.lang}]" if self.lang else ""
        if self.label and (self.since != DEFAULT_FROM or self.until):
            where += f" ({self.since}..{self.until or ''})"
        return what + where

    def matches(
        self, kind: str, label: str | None, term: str | None, language: str, day: str | None
    ) -> bool:
        """Whether a clause (its kind, label, term, language and edition date) is this answer."""
        if self.lang and not _in_language(language, self.lang):
            return False
        if self.term is not None:
            return kind == "glossary" and term is not None and fold(term) == fold(self.term)
        if label is None or label.rstrip("*") != self.label:
            return False  # an inferred label may be printed as 107.3a*
        if day is None:
            return True  # undated scraped pages carry the numbers they print
        return self.since <= day and (self.until is None or day < self.until)


@dataclass(frozen=True)
class RelevanceQuery:
    """One query of a relevance set, with its answers in order of preference."""

    number: int  # 1-based position in the file: how the table names a query
    q: str
    lang: str
    why: str
    answers: tuple[Answer, ...]
    filter: str | None = None  # the --lang the user gave


class HitLike(Protocol):
    kind: str
    label: str | None
    term: str | None
    language: str
    edition_id: int


def _in_language(language: str, wanted: str) -> bool:
    return language == wanted or language.startswith(wanted + "-")


# --- the file --------------------------------------------------------------------------------


def load_relevance_set(path: Path) -> list[RelevanceQuery]:
    """Parse and check the relevance file; any mistake is an InputError naming the query."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the relevance set {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path} is not valid TOML ({exc}); fix the line it names.") from None
    extra = set(data) - {"query"}
    if extra or not isinstance(data.get("query"), list):
        raise InputError(f"{path}: expected only [[query]] tables, found {sorted(extra)}.")
    return [_query(i, raw, path) for i, raw in enumerate(data["query"], 1)]


def _query(number: int, raw: Any, path: Path) -> RelevanceQuery:
    where = f"{path}: query {number}"
    if not isinstance(raw, dict):
        raise InputError(f"{where} is not a table.")
    where += f" ({raw.get('q')!r})"
    unknown = set(raw) - _QUERY_KEYS
    if unknown:
        raise InputError(f"{where}: unknown keys {sorted(unknown)}; use {sorted(_QUERY_KEYS)}.")
    q, lang, why = raw.get("q"), raw.get("lang"), raw.get("why")
    if not isinstance(q, str) or not q.strip():
        raise InputError(f"{where}: 'q' must be the query text.")
    if lang not in LANGUAGES:
        raise InputError(f"{where}: 'lang' must be one of {', '.join(LANGUAGES)}.")
    if not isinstance(why, str) or not why.strip():
        raise InputError(f"{where}: say 'why' these answers, in a line.")
    filt = raw.get("filter")
    if filt is not None and filt not in LANGUAGES:
        raise InputError(f"{where}: 'filter' must be one of {', '.join(LANGUAGES)}.")
    answers = raw.get("answers")
    if not isinstance(answers, list) or not answers:
        raise InputError(f"{where}: give at least one answer.")
    parsed = tuple(_answer(a, where) for a in answers)
    if len(set(parsed)) != len(parsed):
        raise InputError(f"{where}: an answer is listed twice.")
    return RelevanceQuery(number, q, lang, why.strip(), parsed, filt)


def _answer(raw: Any, where: str) -> Answer:
    if not isinstance(raw, dict):
        raise InputError(f'{where}: each answer is an inline table such as {{ label = "405" }}.')
    unknown = set(raw) - _ANSWER_KEYS
    if unknown:
        raise InputError(f"{where}: unknown answer keys {sorted(unknown)}.")
    label, term, lang = raw.get("label"), raw.get("term"), raw.get("lang")
    if (label is None) == (term is None):
        raise InputError(f"{where}: each answer has exactly one of 'label' or 'term'.")
    if label is not None and (not isinstance(label, str) or not _LABEL.match(label)):
        raise InputError(f"{where}: {label!r} is not a rule number such as 405 or 107.3a.")
    if term is not None and (not isinstance(term, str) or not term.strip()):
        raise InputError(f"{where}: an empty glossary term.")
    if lang is not None and lang not in ANSWER_LANGUAGES:
        raise InputError(f"{where}: answer 'lang' must be one of {', '.join(ANSWER_LANGUAGES)}.")
    since, until = raw.get("from"), raw.get("until")
    if term is not None and (since is not None or until is not None):
        raise InputError(f"{where}: 'from'/'until' apply to rule numbers, not glossary terms.")
    for name, value in (("from", since), ("until", until)):
        if value is not None and not _iso(value):
            raise InputError(f"{where}: '{name}' must be a date such as 2019-07-01 (a string).")
    since = since or DEFAULT_FROM
    if until is not None and until <= since:
        raise InputError(f"{where}: 'until' {until} is not after 'from' {since}.")
    return Answer(label, term, lang, since, until)


def _iso(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        return date.fromisoformat(value).isoformat() == value
    except ValueError:
        return False


# --- scoring ---------------------------------------------------------------------------------


def relevant(query: RelevanceQuery, hit: HitLike, dates: dict[int, str | None]) -> bool:
    day = dates.get(hit.edition_id)
    return any(a.matches(hit.kind, hit.label, hit.term, hit.language, day) for a in query.answers)


def first_relevant(
    query: RelevanceQuery, hits: Sequence[HitLike], dates: dict[int, str | None], k: int = 10
) -> int | None:
    """1-based rank of the first relevant hit among the first ``k``, or None."""
    for rank, hit in enumerate(hits[:k], 1):
        if relevant(query, hit, dates):
            return rank
    return None


@dataclass
class Figures:
    """Running totals of a relevance run (MRR@10, top-1, top-3) over some queries."""

    queries: int = 0
    reciprocal: float = 0.0
    top1: int = 0
    top3: int = 0
    preferred: int = 0  # the top hit is the first listed (preferred) answer
    ranks: list[int | None] = field(default_factory=list)

    def add(self, rank: int | None, preferred_first: bool) -> None:
        self.queries += 1
        self.ranks.append(rank)
        if rank is not None:
            self.reciprocal += 1.0 / rank
            self.top1 += rank == 1
            self.top3 += rank <= 3
        self.preferred += preferred_first

    @property
    def mrr(self) -> float:
        return self.reciprocal / self.queries if self.queries else 0.0

    def as_json(self) -> dict[str, Any]:
        n = self.queries or 1
        return {
            "queries": self.queries,
            "mrr_at_10": round(self.mrr, 4),
            "top1": round(self.top1 / n, 4),
            "top3": round(self.top3 / n, 4),
            "preferred_first": round(self.preferred / n, 4),
            "unanswered": sum(r is None for r in self.ranks),
        }


def preferred_first(
    query: RelevanceQuery, hits: Sequence[HitLike], dates: dict[int, str | None]
) -> bool:
    """Whether the top hit is the first answer listed (the librarian's first choice)."""
    if not hits:
        return False
    h = hits[0]
    return query.answers[0].matches(h.kind, h.label, h.term, h.language, dates.get(h.edition_id))


def summarize(
    results: Iterable[tuple[RelevanceQuery, int | None, bool]],
) -> tuple[Figures, dict[str, Figures]]:
    """Overall and per-query-language figures from (query, rank, preferred-first) triples."""
    overall = Figures()
    by_lang: dict[str, Figures] = {lang: Figures() for lang in LANGUAGES}
    for query, rank, pref in results:
        overall.add(rank, pref)
        by_lang[query.lang].add(rank, pref)
    return overall, {k: v for k, v in by_lang.items() if v.queries}
