"""The hand-written search relevance set (tests/search_relevance.toml): it parses, it is big
enough in every language, and every answer it expects exists in the corpus. The figures
themselves (MRR@10, top 3) are benchmarks/eval_search.py's job, not a test's.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import text

from mtgrules.errors import InputError
from mtgrules.search.evaluate import (
    LANGUAGES,
    Answer,
    RelevanceQuery,
    first_relevant,
    load_relevance_set,
)
from mtgrules.store import open_store, session_scope
from mtgrules.store.queries import list_editions
from mtgrules.text.fold import fold

RELEVANCE_SET = Path(__file__).resolve().parent / "search_relevance.toml"
# Queries kept out of tuning (scored once, at the end): checked for integrity like the rest.
HELD_OUT_SET = Path(__file__).resolve().parent / "search_relevance_heldout.toml"
UNSEEN_SETS = [
    HELD_OUT_SET,
    Path(__file__).resolve().parent / "search_relevance_unseen.toml",
    Path(__file__).resolve().parent / "search_relevance_final.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout3.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout4.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout5.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout6.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout7.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout8.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout9.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout10.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout11.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout12.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout13.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout14.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout15.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout16.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout17.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout18.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout19.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout20.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout21.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout22.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout23.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout24.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout25.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout26.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout27.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout28.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout29.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout30.toml",
    Path(__file__).resolve().parent / "search_relevance_holdout31.toml",
]
MIN_QUERIES = 40
MIN_PER_LANGUAGE = 6

# (answer, clause as (kind, label, term, language, edition date), counts?, why)
MATCHES = [
    (Answer(term="Stack"), ("glossary", None, "Stack", "en", "2026-01-16"), True, "the term"),
    (Answer(term="stack"), ("glossary", None, "STACK", "en", None), True, "case folds"),
    (Answer(term="堆叠"), ("glossary", None, "堆疊", "zh-Hant", None), True, "script folds"),
    (Answer(term="Stack"), ("rule", "405", None, "en", "2026-01-16"), False, "not a rule"),
    (Answer(term="Commander"), ("glossary", None, "Commander Tax", "en", None), False, "whole"),
    (Answer(label="405"), ("heading", "405", None, "en", "2026-01-16"), True, "a heading"),
    (Answer(label="405"), ("rule", "405", None, "en", "2006-10-01"), False, "pre-2009 number"),
    (Answer(label="405"), ("rule", "405.1", None, "en", "2026-01-16"), False, "exact label"),
    (Answer(label="107.3a"), ("rule", "107.3a*", None, "es", None), True, "inferred label"),
    (Answer(label="107.3f"), ("rule", "107.3f", None, "fr", None), True, "undated page"),
    (
        Answer(label="702.19", since="2013-06-01"),
        ("rule", "702.19", None, "en", "2012-07-01"),
        False,
        "before its window (it was vigilance)",
    ),
    (
        Answer(label="702.18", since="2011-06-01", until="2013-06-01"),
        ("rule", "702.18", None, "en", "2013-05-01"),
        True,
        "inside its window",
    ),
    (
        Answer(label="702.18", since="2011-06-01", until="2013-06-01"),
        ("rule", "702.18", None, "en", "2013-06-01"),
        False,
        "until is exclusive",
    ),
    (Answer(label="405", lang="zh"), ("rule", "405", None, "zh-Hans", None), True, "zh = both"),
    (Answer(label="405", lang="fr"), ("rule", "405", None, "en", None), False, "pinned to fr"),
    (
        Answer(label="107.3h", lang="zh-Hant"),
        ("rule", "107.3h", None, "zh-Hans", "2026-01-16"),
        False,
        "pinned to one script",
    ),
]

# (TOML text, what the error must mention)
BAD_SETS = [
    ('[[query]]\nq = "x"\nlang = "en"\nwhy = "w"\nanswers = []', "at least one answer"),
    ('[[query]]\nq = "x"\nlang = "de"\nwhy = "w"\nanswers = [{term = "X"}]', "'lang'"),
    ('[[query]]\nq = "x"\nlang = "en"\nanswers = [{term = "X"}]', "'why'"),
    ('[[query]]\nq = "x"\nlang = "en"\nwhy = "w"\nanswers = [{}]', "exactly one"),
    (
        '[[query]]\nq = "x"\nlang = "en"\nwhy = "w"\nanswers = [{label = "405", term = "X"}]',
        "exactly one",
    ),
    ('[[query]]\nq = "x"\nlang = "en"\nwhy = "w"\nanswers = [{label = "rule 405"}]', "405"),
    (
        '[[query]]\nq = "x"\nlang = "en"\nwhy = "w"\nanswers = [{label = "405", from = "2019"}]',
        "date",
    ),
    (
        '[[query]]\nq = "x"\nlang = "en"\nwhy = "w"\n'
        'answers = [{label = "405", from = "2019-07-01", until = "2010-07-01"}]',
        "not after",
    ),
    (
        '[[query]]\nq = "x"\nlang = "en"\nwhy = "w"\nanswers = [{term = "X", from = "2019-07-01"}]',
        "glossary terms",
    ),
    ('[[query]]\nq = "x"\nlang = "en"\nwhy = "w"\nanswer = [{term = "X"}]', "unknown keys"),
    ('[[query]]\nq = "x"\nlang = "en"\nwhy = "w"\nanswers = [{term = "X"}, {term = "X"}]', "twice"),
    (
        '[[query]]\nq = "x"\nlang = "en"\nwhy = "w"\nanswers = [{label = "405", lang = "xx"}]',
        "lang",
    ),
    ("[[query]\n", "not valid TOML"),
    ('title = "set"', "only [[query]]"),
]


def _query(*answers: Answer) -> RelevanceQuery:
    return RelevanceQuery(1, "q", "en", "why", tuple(answers))


# --- the file ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def relevance_set() -> list[RelevanceQuery]:
    return load_relevance_set(RELEVANCE_SET)


def test_the_set_is_big_enough_in_every_language(relevance_set):
    per_language = Counter(q.lang for q in relevance_set)
    assert len(relevance_set) >= MIN_QUERIES
    # The languages of the bundled corpus (Japanese and Korean have a set of their own).
    languages = [lang for lang in LANGUAGES if lang not in ("ja", "ko")]
    thin = {lang: per_language[lang] for lang in languages if per_language[lang] < MIN_PER_LANGUAGE}
    assert not thin, f"fewer than {MIN_PER_LANGUAGE} queries in {thin}"


def test_every_query_is_distinct(relevance_set):
    keys = Counter((q.q, q.filter) for q in relevance_set)
    assert [k for k, n in keys.items() if n > 1] == []


@pytest.mark.parametrize("source, message", BAD_SETS)
def test_a_malformed_set_is_refused_with_the_reason(tmp_path, source, message):
    path = tmp_path / "set.toml"
    path.write_text(source, encoding="utf-8")
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("(", r"\(")):
        load_relevance_set(path)


@pytest.mark.parametrize("answer, clause, expected, why", MATCHES)
def test_what_an_answer_matches(answer, clause, expected, why):
    assert answer.matches(*clause) is expected, why


def test_the_rank_is_that_of_the_first_relevant_hit():
    class Hit:
        def __init__(self, kind, label, term, language="en", edition_id=1):
            self.kind, self.label, self.term = kind, label, term
            self.language, self.edition_id = language, edition_id

    hits = [Hit("rule", "107.3c", None), Hit("rule", "405", None), Hit("glossary", None, "Stack")]
    dates = {1: "2026-01-16"}
    query = _query(Answer(term="Stack"), Answer(label="405"))
    assert first_relevant(query, hits, dates) == 2  # any listed answer, not only the first
    assert first_relevant(query, hits, dates, k=1) is None
    assert first_relevant(_query(Answer(label="999")), hits, dates) is None


# --- against the corpus --------------------------------------------------------------------


def missing_answers(session, queries: list[RelevanceQuery]) -> list[str]:
    """Answers that no clause of the store can satisfy: a rule number absent from every
    edition of its language within its dates, a glossary term no glossary entry has.

    This proves that each answer exists, not that it means what its query needs: that was
    read by hand, edition by edition, when the dates were set (702.19 exists in 2009 too,
    as another keyword; hence trample's window from 2013)."""
    infos = {e.id: e for e in list_editions(session)}
    rules: dict[str, list[tuple[str, str | None]]] = {}  # label -> [(language, date)]
    # Subrules a page prints without numbers (the Spanish page): (language, parent).
    unnumbered: set[tuple[str, str]] = set()
    terms: dict[str, set[str]] = {}  # folded term -> languages
    rows = session.execute(
        text(
            "SELECT edition_id, kind, label, parent, term FROM clause "
            "WHERE kind IN ('rule', 'heading', 'glossary')"
        )
    )
    for eid, kind, label, parent, term in rows:
        info = infos.get(eid)
        if info is None:
            continue
        if kind == "glossary" and term:
            terms.setdefault(fold(term), set()).add(info.language)
        elif label:
            rules.setdefault(label, []).append((info.language, info.date))
        elif kind == "rule" and parent:
            unnumbered.add((info.language, parent))
    problems = []
    for q in queries:
        for a in q.answers:
            where = f"query {q.number} ({q.q!r}): {a.describe()}"
            if a.term is not None:
                langs = terms.get(fold(a.term), set())
                if not any(a.lang is None or _in(lang, a.lang) for lang in langs):
                    problems.append(f"{where}: no glossary entry has this term")
                continue
            found = rules.get(a.label or "", [])
            if any(a.matches("rule", a.label, None, lang, day) for lang, day in found):
                continue
            # A page that prints no subrule numbers: the rule must exist elsewhere, and the
            # page must hold unnumbered subrules of its parent (the aligner numbers them).
            parent = (a.label or "").rstrip("abcdefghijklmnopqrstuvwxyz")
            if a.lang and found and any(_in(lang, a.lang) for lang, p in unnumbered if p == parent):
                continue
            problems.append(f"{where}: no such rule in the corpus within these dates")
    return problems


def _in(language: str, wanted: str) -> bool:
    return language == wanted or language.startswith(wanted + "-")


def test_every_expected_answer_exists_in_the_corpus(corpus_db, relevance_set):
    engine = open_store(str(corpus_db))
    try:
        with session_scope(engine, write=False) as s:
            problems = missing_answers(s, relevance_set)
            for path in UNSEEN_SETS:
                problems += missing_answers(s, load_relevance_set(path))
    finally:
        engine.dispose()
    assert problems == []


@pytest.mark.parametrize("path", UNSEEN_SETS, ids=lambda p: p.stem)
def test_each_held_out_set_is_apart_from_the_tuning_set(relevance_set, path):
    """Held-out queries appear only there: a query tuned on says nothing about unseen ones."""
    held_out = load_relevance_set(path)
    assert len(held_out) >= 10
    tuned = {(fold(q.q), q.filter) for q in relevance_set}
    assert [q.q for q in held_out if (fold(q.q), q.filter) in tuned] == []


POOLED = sorted((Path(__file__).resolve().parent / "search_pooled").glob("*.json"))


@pytest.mark.parametrize("path", POOLED, ids=lambda p: p.stem)
def test_pooled_judgments_are_complete_and_of_their_set(path):
    """benchmarks/pool_search.py's judgments: every item judged, each about a query of the
    held-out set it is named after, and each judged text named by its clause."""
    items = json.loads(path.read_text(encoding="utf-8"))
    queries = {
        (q.number, q.q)
        for q in load_relevance_set(path.parent.parent / f"search_relevance_{path.stem}.toml")
    }
    assert items
    for item in items:
        number, kind, label, term, _edition = item["hit"]
        assert item["verdict"] in ("yes", "partial", "no"), item["id"]
        assert item["role"] in ("pool", "control"), item["id"]
        assert (number, item["query"]) in queries, item["id"]
        assert label if kind != "glossary" else term, item["id"]


# Answers that must be reported: each one is wrong in a different way.
WRONG_ANSWERS = [
    (Answer(label="999.9z"), "no such rule"),
    (Answer(label="405", lang="fr"), "no such rule"),  # the French text is 107.3 only
    (Answer(label="107.3p", lang="fr"), "no such rule"),  # the forum quotes 107.3a-h
    (Answer(label="107.3p", until="2022-01-01"), "no such rule"),  # first in 2022-06-10
    (Answer(label="731.4", since="2009-07-11", until="2012-01-01"), "no such rule"),
    (Answer(term="Flibbertigibbet"), "no glossary entry"),
    (Answer(term="Stack", lang="fr"), "no glossary entry"),
    (Answer(term="Commander Tax (Obsolete)"), "no glossary entry"),
]


def test_the_corpus_check_reports_wrong_answers(corpus_db):
    queries = [
        RelevanceQuery(i, f"q{i}", "en", "why", (answer,))
        for i, (answer, _m) in enumerate(WRONG_ANSWERS, 1)
    ]
    engine = open_store(str(corpus_db))
    try:
        with session_scope(engine, write=False) as s:
            problems = missing_answers(s, queries)
    finally:
        engine.dispose()
    assert len(problems) == len(WRONG_ANSWERS), "\n".join(problems)
    for problem, (_answer, message) in zip(problems, WRONG_ANSWERS, strict=True):
        assert message in problem
