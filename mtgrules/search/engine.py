"""`mtgrules search`: ranked full-text hits in every language, each with its aligned clauses.

The steps, one module each: the query checked and cut into terms (query.py); candidate texts
matched by the database (backend.py) - all the terms, the terms as one phrase, for a
question each term left out in turn, and, when those are few, any of the terms; the
glossary entry that is exactly the term and the rules defining it; mistyped words corrected
(fuzzy.py); the candidates weighed (BM25 with proximity) and put in the librarian's order
(rank.py); one hit per clause lineage (hits.py); the clauses in other languages attached
(crosslang.py).

Takes a SQLAlchemy Session or a LiteSession (store/sql.py): the CLI searches without
importing SQLAlchemy.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..errors import QueryError
from ..store.queries import EditionInfo, filter_editions, list_editions
from ..store.search_index import term_key
from ..termbase import Termbase, load_termbase
from ..text.detect import spelled_languages
from ..text.fold import fold, fold_words, is_charwise, is_han, is_hangul
from ..text.fold import pattern as fold_pattern
from ..text.labels import closing_reference, match_rule_query, parent_of, rule_of, rules_in_query
from ..text.language import (
    SOURCE_LANGUAGE,
    base_language,
    language_order,
    same_language,
    same_tag,
)
from .backend import (
    Group,
    average_lengths,
    bilingual_names,
    clause_editions,
    clause_kinds,
    clause_labels,
    clauses_in_editions,
    clauses_labelled,
    clauses_under,
    clauses_within,
    document_count,
    feature_titles,
    glossary_groups,
    glossary_term_keys,
    group_lemmas,
    group_rows,
    groups_by_clause,
    han_terms,
    katakana_terms,
    lineage_heads,
    load_clauses,
    load_members,
    load_texts,
    per_index,
    ranked_groups,
    rule_groups,
    sample_clauses,
    symbol_entries,
    total_documents,
    word_rows,
)
from .crosslang import RENUMBERING, attach_aligned, concordant_groups
from .fuzzy import MIN_FUZZY_LENGTH, american_spellings, corrections, katakana_correction
from .hits import Ranked, attach_labels, lineages, make_hits, newest_member
from .inflection import compound_terms, derived_nouns, ie_verb_bases, inflected_terms
from .query import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    QUESTION_WORDS,
    STOP_WORDS,
    Expr,
    ParsedQuery,
    Term,
    asks,
    asks_permission,
    check_query,
    han_pieces,
    han_subject,
    han_words,
    index_tokens,
    japanese_compared,
    kinds_of,
    korean_compared,
    korean_stem,
    only_asks_or_cites,
    parse_query,
    stem,
)
from .rank import (
    ASIDE_ENTRY,
    BANDS,
    COVERAGE_POWER,
    OFF_SUBJECT,
    PERMISSION,
    PERMISSION_SAID,
    SUBJECT,
    Features,
    bigrams,
    has_phrase,
    idf,
    nearness,
    pairs,
    positions,
    term_in,
    weigh,
)
from .results import Hit, SearchResult
from .thesaurus import shipped_thesaurus

if TYPE_CHECKING:
    from .loanword import LoanwordTable

# Distinct texts fetched per expression: each lineage may need several (one per wording),
# and a page is 20 lineages by default.
CANDIDATES = 100
# Fewer full matches than this many hits and the partial matches (any of the words) join.
FEW = 3
# Texts per lineage reckoned with when deciding whether the full matches fill a page.
WORDINGS = 3
# The candidates whose words are examined (phrase, nearness) per expression, best first.
EXAMINED = 60
# The subrules of a defining rule that stand beside it (405.1-405.3 under 405 Stack).
FIRST = 3
# Queries of up to this many searched words want texts holding them all first (rank.py).
WHOLE_TERMS = 2
# Queries of this many searched words or fewer are also searched with each word left out in
# turn (a question's answer may lack one of its words: 514.2 says "permanents" where the
# question said "creatures"); longer ones with any of their words.
LEAVE_ONE_OUT = 5
# A lemma this long that begins the typed word stands for it as a prefix (attacking: attack).
PREFIX_LEMMA = 4
# A rule that an entry answering the whole question points to stands with the defining rules
# only when it holds this share of the question itself (idf-weighted). The entry "Lose the
# Game" holds every word of "what happens if a player would both win and lose the game
# simultaneously" and points to 809.5, 903.10, 810.8 and 104, which hold 0.11-0.48 of it:
# promoted, they stood before 104.3f, which says the question word for word. Measured on the
# 480 queries of the older sets (every rank, main's code beside this): 4 rose (final 0.834 ->
# 0.847: "playing a land is a special action" 2 -> 1), none fell; 0.5 gave 2, 0.7 and any
# bar above it the same 4.
POINTED_COVERAGE = 0.7


@dataclass
class _Plan:
    """What one search is allowed to see and what it prefers."""

    db: Any
    kinds: tuple[str, ...] | None
    allowed: set[int]  # edition ids searched
    languages: list[str] | None  # edition languages searched when --lang narrows them
    preferred: list[str]  # the query's languages (tags), ranked first
    preferred_tags: list[str]  # the store's edition languages that are those
    by_id: dict[int, EditionInfo]
    limit: int
    restricted: bool = False  # only some editions (--edition, --as-of): filter texts early
    # The rules of the features the query names whole (806 for "free for all"): a text
    # printed under several numbers is shown under theirs (hits.make_hits).
    named_rules: set[str] = field(default_factory=set)


@dataclass
class _Candidate:
    """A text's group on its way to the ranking, with how it joined (tier, defining subrule, entry named by the query)."""

    group: Group
    tier: int = 2
    sub: bool = False  # joined as a defining rule's first subrule
    order: int = 0  # a first subrule's place among them (document order)
    contained: bool = False  # the entry of a term the query holds, or a rule it points to
    loose: bool = False  # an exact entry named by a lemma or singular only, beside one as typed
    via: frozenset = frozenset()  # those entries (language, term key) that point to this rule


def search(
    session: Any,
    query: str,
    *,
    language: str | None = None,
    edition: str | None = None,
    kind: str | None = None,
    limit: int = DEFAULT_LIMIT,
    as_of: int | None = None,
    aligned: bool = True,
) -> SearchResult:
    """Search the clauses of the editions alive at ``as_of`` (None: now)."""
    query = check_query(query)
    kinds = kinds_of(kind)
    if not 1 <= limit <= MAX_LIMIT:
        raise QueryError(f"--limit must be between 1 and {MAX_LIMIT}, not {limit}.")
    alive = list_editions(session, as_of)
    editions = filter_editions(alive, language=language, edition=edition)
    by_id = {e.id: e for e in alive}

    rule = match_rule_query(query)
    if rule:
        cited_in = _citing_languages(load_termbase(session), fold_words(query))
        return _rule_search(session, query, rule, editions, kinds, by_id, limit, cited_in)
    # A rule number inside a question ("what does rule 100.6 say"): that rule; beside other
    # words ("702.19b trample", "does 509.1a let a tapped creature block"), that rule first,
    # then what the other words find. Several ("difference between 702.19b and 702.19c"):
    # today's text of each, in the order typed.
    cited = rules_in_query(query)
    if cited is not None:
        labels, rest = cited
        termbase = load_termbase(session)
        beside = fold_words(rest)
        cited_in = _citing_languages(termbase, beside)
        content = [
            w for w in beside if not only_asks_or_cites(w) and not _rule_languages(termbase, w)
        ]
        # The words beside the number, searched without the word "rule" in any language
        # (Regel, 규칙: as words they find the glossary's "Tournament Rules").
        rest = " ".join(w for w in rest.split() if not _rule_languages(termbase, w))
        numbered = [
            _rule_search(session, query, lab, editions, kinds, by_id, limit, cited_in)
            for lab in labels[:limit]
        ]
        if len(labels) == 1 and not content:
            return numbered[0]
        first = [h for n in numbered for h in n.hits[:1] if not h.obsolete]
        shown = {h.clause_id for h in first}
        if not content:
            return replace(numbered[0], words=labels, hits=first[:limit])
        found = search(
            session,
            rest,
            language=language,
            edition=edition,
            kind=kind,
            limit=limit,
            as_of=as_of,
            aligned=aligned,
        )
        hits = first + [h for h in found.hits if h.clause_id not in shown][: limit - len(first)]
        return replace(found, query=query, hits=hits[:limit])

    parsed = parse_query(_with_symbol_terms(session, query, alive))
    typed = query
    # A term typed as one word or as two ("doublestrike", "life link"): searched as the
    # rules write it ("double strike", "lifelink"), and the reader told.
    joined, compounds = _compound_fixes(session, fold_words(query))
    if compounds:
        typed = " ".join(joined)
        parsed = parse_query(_with_symbol_terms(session, typed, alive))
    # A mistyped word of a player's phrase ("at instnat speed"): the phrase is searched in
    # the rules' words, as if typed right ("could cast an instant"), and the reader told.
    phrase_fixes = _phrase_fixes(session, parsed)
    if phrase_fixes:
        parsed = parse_query(
            " ".join(phrase_fixes[w][0] if w in phrase_fixes else w for w in fold_words(typed))
        )
    # An English name in a Japanese or Korean question ("LTB誘発って", "hexproofって何"):
    # searched as the translation's word for it, and the reader told.
    named, read_as = _english_names(session, typed)
    if read_as:
        typed = named
        parsed = parse_query(_with_symbol_terms(session, typed, alive))
    phrase_fixes = {**compounds, **phrase_fixes}
    termbase = load_termbase(session)
    term_languages, translations = _translations(termbase, query)
    opposites = [_OPPOSITE + w for w in parsed.words if w.endswith(_PARTICIPLE)]
    vocab = word_rows(
        session,
        [*parsed.words, *parsed.tokens, *(a for t in parsed.terms for a in t.alts), *opposites],
    )
    vocab += _guessed_rows(session, parsed.tokens, vocab)
    vocab += _slipped_rows(session, vocab)
    preferred = _preferred(query, language, term_languages, vocab)
    if not language and (
        _japanese_forms(query, preferred) or _japanese_entry(session, parsed, preferred)
    ):
        preferred = ["ja"]
    parsed = _with_lemmas(parsed, vocab, preferred)
    if any(same_language(p, SOURCE_LANGUAGE) for p in preferred):
        parsed = _with_opposites(parsed, {w for w, _lang, _lemma, docs in vocab if docs > 0})
        parsed = _with_derived(session, parsed)
    plan = _Plan(
        session,
        kinds,
        {e.id for e in editions},
        sorted({e.language for e in editions}) if (language or edition) else None,
        preferred,
        sorted({e.language for e in alive if any(same_language(e.language, p) for p in preferred)}),
        by_id,
        limit,
        restricted=bool(edition) or as_of is not None,
    )
    dfs: dict[Term, int] = {}
    terms, fuzzy_words = _resolve_terms(session, parsed, dfs, preferred, termbase)
    ranked = _rank(
        plan,
        parsed,
        terms,
        fixes=fuzzy_words,
        translations=translations,
        term_languages=term_languages,
        termbase=termbase,
        aligned=aligned,
        dfs=dfs,
    )
    if phrase_fixes:
        # Ranked as typed right, shown as found by a correction, as the others are.
        fuzzy_words = {**phrase_fixes, **fuzzy_words}
        for r in ranked:
            r.fuzzy = True
    highlight = sorted({w for t in terms for w in t.alts})
    searched_as: dict[str, list[str]] = {}
    instead: tuple[str, list[str]] | None = None  # (language, the termbase's forms in it)
    # Asked for a language the query's term is not in ("stack" --lang fr) and it finds next
    # to nothing there as typed: search that language's form of the term instead ("pile").
    # As typed first, because "pile" --lang en means English piles of cards.
    if (
        language
        and len(ranked) < min(FEW, limit)
        and term_languages
        and not any(same_tag(language, q) for q in term_languages)
    ):
        forms = [f for lang, fs in translations.items() if same_tag(lang, language) for f in fs]
        instead = (language, forms)
    # The termbase knows the query as a term of a language the store has no text in
    # ("スタック" with no Japanese translation ingested, or 墓地, which Chinese texts hold only
    # inside card names): its form in a language the store has is searched instead, English
    # first, and the reader told.
    # So too when the whole query is a term of only such languages ("campo di battaglia"
    # with no Italian text: not the Spanish texts that hold "campo").
    elif (
        not language
        and translations
        and (
            not ranked
            or not any(same_language(e.language, p) for e in editions for p in preferred)
            or (
                term_languages
                and not any(same_language(e.language, t) for e in editions for t in term_languages)
            )
        )
    ):
        held = {e.language for e in editions}
        order = sorted(translations, key=lambda lang: (not same_tag(lang, SOURCE_LANGUAGE), lang))
        target = next((lang for lang in order if any(same_tag(lang, h) for h in held)), None)
        if target is not None:
            instead = (target, translations[target])
            if term_languages and not any(
                same_language(h, t) for h in held for t in term_languages
            ):
                preferred = term_languages  # what the query is written in, as the reader sees
    # A sentence of a language the store has no text in ("Karte auf den Friedhof legen"):
    # the game terms it holds, searched as the English the store has ("card graveyard").
    # Only when the words as typed found nothing, or only by correcting them, or when a word
    # of it is in no text of the store: "was ist Zauberspruch" found English texts by "was"
    # alone (the 2006 glossary's Creature Type first), its German term in none.
    if (
        instead is None
        and not language
        and (not ranked or fuzzy_words or _holds_unstored_word(parsed, vocab))
    ):
        other = _terms_in_other_language(
            termbase,
            fold_words(query),
            {e.language for e in editions},
            {w for w, _lang, _lemma, docs in vocab if docs > 0},
            found_nothing=not ranked,
        )
        if other is not None:
            written_in, target, forms = other
            instead = (target, forms)
            preferred = [written_in]
    found = _rank_forms(plan, instead[1], instead[0], termbase, dfs) if instead else None
    if found is not None:
        ranked, highlight = found
        searched_as = {instead[0]: instead[1]}
        fuzzy_words = {}

    def load(batch: list[Ranked]) -> None:
        """Members (in the editions searched) and the newest clause of these candidates."""
        load_members(session, [r.group for r in batch], plan.allowed)
        newest = {
            r.group.id: newest_member(r.group.members, by_id) for r in batch if r.group.members
        }
        _living_member(session, batch, newest, current_heads)
        rows = load_clauses(session, [cid for _e, cid in newest.values()])
        for r in batch:
            if r.group.id in newest:
                r.clause = rows[newest[r.group.id][1]]
        attach_labels(session, [r for r in batch if r.group.id in newest])
        found = lineage_heads(session, [r.clause.id for r in batch if r.group.id in newest])
        for r in batch:
            if r.group.id in newest:
                r.head = found.get(r.clause.id)

    today = newest_editions(plan)

    def current_heads(heads: set[int]) -> set[int]:
        return {h for h, e in clause_editions(session, heads).items() if e in today}

    # The pointed rules' pass looks a little past a short page, so that its first hits are
    # those of a longer one (--limit 3 opens as --limit 20 does).
    page = lineages(ranked, max(limit, POINTED_WITHIN), load, current_heads)
    hits = make_hits(
        session,
        _rules_before_subrules(page),
        by_id,
        highlight,
        plan.allowed,
        today,
        plan.named_rules,
    )
    hits = _pointed_rules_first(hits)[:limit]
    if aligned:
        attach_aligned(session, hits, alive, termbase)
    return SearchResult(
        query,
        "text",
        parsed.words,
        hits,
        fuzzy_words,
        translations,
        list(preferred),
        searched_as,
        read_as,
    )


def _living_member(
    session: Any,
    batch: list[Ranked],
    newest: dict[int, tuple[int, int]],
    current_heads: Callable[[set[int]], set[int]],
) -> None:
    """Where the newest edition holding a text prints it under several numbers, the clause
    shown is one whose lineage goes on today, when one does: 2009-2015 printed "Second, the
    active player gets priority. Players may cast spells and activate abilities." as 503.2,
    511.2 and 513.2; the first two became today's 507.2 and 509.2, 513.2 ended in 2015. By
    clause id alone the hit was 513.2 of 2015, obsolete, first for that sentence."""
    twins = {
        r.group.id: [c for e, c in r.group.members if e == newest[r.group.id][0]]
        for r in batch
        if r.group.id in newest
    }
    several = [c for clauses in twins.values() if len(clauses) > 1 for c in clauses]
    if not several:
        return
    heads = lineage_heads(session, several)
    living = current_heads(set(heads.values()))
    for gid, clauses in twins.items():
        alive = [c for c in clauses if heads.get(c) in living]
        if len(clauses) > 1 and alive and newest[gid][1] not in alive:
            newest[gid] = (newest[gid][0], max(alive))


def _holds_unstored_word(parsed: ParsedQuery, vocab: list[tuple[str, str, str, int]]) -> bool:
    """Whether a word of the query that says something is in no text of the store."""
    stored = {w for w, _lang, _lemma, docs in vocab if docs > 0}
    return any(w not in stored for w in parsed.words if w not in STOP_WORDS and not asks(w))


# The longest game term _terms_in_other_language looks up, in words ("effet de remplacement").
TERM_WORDS = 4


def _terms_in_other_language(
    termbase: Termbase,
    words: list[str],
    held: set[str],
    stored: set[str] = frozenset(),
    *,
    found_nothing: bool = False,
) -> tuple[str, str, list[str]] | None:
    """(the query's language, English, [its forms of the game terms the query holds, in one
    phrase]) when the query's words (folded) hold more of the termbase's terms in a language
    the store has no text in than in any language it has (Friedhof and Karte, German, where
    no English term is typed); None otherwise, or when the store has no English. Terms are
    looked up as runs of the query's words, the longest first (a dictionary lookup each:
    no pattern is compiled). A word in no text of the store (not in ``stored``) that the
    termbase lists in no form may be an inflected form of one: "mit Spielsteinen" holds
    Spielstein (inflection.inflected_terms), a compound of them ("Kreaturenkarte":
    creature card, inflection.compound_terms), or one with a Korean particle (토큰이).

    ``found_nothing``: the query as typed found no text. Then the terms of a language the
    store holds count as foreign too, English aside: "qué pasa con las fichas" in a store
    whose Spanish is one page on rule 107.3 is searched as the English token."""
    if not any(same_language(h, SOURCE_LANGUAGE) for h in held):
        return None
    found: dict[str, list[str]] = {}
    i = 0
    while i < len(words):
        for n in range(min(TERM_WORDS, len(words) - i), 0, -1):
            matches = sorted(termbase.lookup(" ".join(words[i : i + n])))
            if not matches and n == 1 and words[i] not in stored:
                # A Korean word carries its particle: 토큰이, 전장을.
                stemmed = korean_stem(words[i])
                matches = (
                    sorted(inflected_terms(termbase, words[i]))
                    or compound_terms(termbase, words[i])
                    or (sorted(termbase.lookup(stemmed)) if stemmed != words[i] else [])
                )
            if matches:
                for concept, lang in matches:
                    found.setdefault(lang, []).append(concept)
                i += n
                break
        else:
            i += 1
    is_held = {
        lang: any(same_tag(lang, h) for h in held)
        and (not found_nothing or same_language(lang, SOURCE_LANGUAGE))
        for lang in found
    }
    mine = max((len(c) for lang, c in found.items() if is_held[lang]), default=0)
    other = max(((len(c), lang) for lang, c in found.items() if not is_held[lang]), default=None)
    if other is None or other[0] <= mine:
        return None
    english = [termbase.forms(concept, SOURCE_LANGUAGE) for concept in found[other[1]]]
    phrase = " ".join(dict.fromkeys(forms[0] for forms in english if forms))
    return (other[1], SOURCE_LANGUAGE, [phrase]) if phrase else None


def _rank_forms(
    plan: _Plan, forms: list[str], language: str, termbase: Termbase, dfs: dict[Term, int]
) -> tuple[list[Ranked], list[str]] | None:
    """The candidates of the termbase's ``forms`` of the query's term in ``language``, ranked
    as that language's query, and the words to highlight (None: no form has a word to
    search). Several one-word forms: any of them; else the first form, all its words."""
    form_words = [fw for fw in (fold_words(f) for f in forms) if fw]
    if not form_words:
        return None
    single = [fw[0] for fw in form_words if len(fw) == 1]
    if len(single) > 1:
        terms = [Term(tuple(single))]
        text = forms[[len(fw) == 1 for fw in form_words].index(True)]
    else:
        terms = [Term((w,)) for w in form_words[0]]
        text = forms[0]
    alt = ParsedQuery(text, form_words[0], terms, index_tokens(text))
    plan.preferred = [language]
    ranked = _rank(
        plan,
        alt,
        terms,
        fixes={},
        translations={},
        term_languages=[],
        termbase=termbase,
        aligned=False,
        dfs=dfs,
    )
    return ranked, sorted({w for fw in form_words for w in fw})


# A symbol as cards print it: {T}, {Q}, {E}, {S}, {W/U}, {2}, {TK}.
_SYMBOL = re.compile(r"\{[A-Za-z0-9/]{1,6}\}")


# A run of Latin words in a query (a name, an abbreviation: "LTB", "first strike").
_LATIN_RUN = re.compile(r"[A-Za-z](?:[A-Za-z' -]*[A-Za-z])?")


# A run of katakana: a Japanese player's loanword may be one (ディスカード).
_KATAKANA_RUN = re.compile(r"[ァ-ヺー]{3,}")


def _english_names(session: Any, query: str) -> tuple[str, dict[str, list[str]]]:
    """A Japanese or Korean query with each English name in it replaced by the translation's
    word for it, where its glossary or titles print that name (backend.bilingual_names:
    "hexproof" is 呪禁 beside Japanese, 방호 beside Korean), a player's abbreviation read
    as its words first (LTB: leaves the battlefield, 戦場を離れる); in Japanese, a loanword
    in katakana that the translation does not print, too (ディスカード: 捨てる; loanword.py);
    and what was replaced. The query as it is when it holds no kana or Hangul, or no such
    name."""
    words = fold_words(query)
    script = "ja" if _holds_kana(query) else "ko" if any(is_hangul(w) for w in words) else None
    loanwords = script == "ja" and _KATAKANA_RUN.search(query) is not None
    if script is None or not (_LATIN_RUN.search(query) or loanwords):
        return query, {}
    table = per_index(
        session,
        "english_names:" + script,
        lambda db: {term_key(english): native for english, native in bilingual_names(db)[script]},
    )
    names: dict[str, list[str]] = {}

    def native(run: str) -> str | None:
        for form in (run, " ".join(parse_query(run).words)):
            found = table.get(term_key(form))
            if found:
                names[run] = [found]
                return found
        return None

    def replace(m: re.Match[str]) -> str:
        run = m.group(0)
        whole = native(run)
        if whole is not None:
            return whole
        return " ".join(native(w) or w for w in run.split(" "))

    named = _LATIN_RUN.sub(replace, query)
    if loanwords:
        named = _KATAKANA_RUN.sub(lambda m: _katakana_loanword(session, m.group(0), names), named)
    return (named, names) if names else (query, {})


def _katakana_loanword(session: Any, run: str, names: dict[str, list[str]]) -> str:
    """A katakana run read as the Japanese translation's word for the English name it
    sounds like (ディスカード: 捨てる), noted in ``names``; the run itself when a text
    prints it as a word (not only inside a longer one: フラッシュ of フラッシュバック), when it
    is the translation's katakana spelled otherwise (クリーンアップ: fuzzy.katakana_correction),
    or when it sounds like no name."""
    if _prints_word(session, run):  # first: the common case, and the cheapest to tell
        return run
    if katakana_correction(run, katakana_terms(session)) is not None:
        return run
    from .loanword import loanword_forms  # only for a katakana run no text prints

    for form in loanword_forms(run, _loanwords(session, load_termbase(session), "ja")):
        terms = parse_query(form).terms
        if form != run and terms and all(document_count(session, Expr((t,))) > 0 for t in terms):
            names[run] = [form]
            return form
    return run


def _with_symbol_terms(session: Any, query: str, alive: list[EditionInfo]) -> str:
    """The query with each symbol it holds replaced by the glossary term for it ("{T}" ->
    "Tap Symbol", "what does {W/U} mean" -> "what does Hybrid Mana Symbols mean"): today's
    entry whose text names the symbol soonest. As words a symbol says nothing ("{T}" is
    "t", the index's form of every "isn't" and "doesn't"). A symbol without an entry stays."""
    symbols = {m.group(0).upper() for m in _SYMBOL.finditer(query)}
    if not symbols:
        return query
    today = newest_editions_of(alive)
    terms = {}
    for symbol in symbols:
        entries = symbol_entries(session, symbol, today)
        if entries:
            terms[symbol] = min(entries, key=lambda e: (e[1].index(symbol), len(e[0])))[0]
    return _SYMBOL.sub(lambda m: terms.get(m.group(0).upper(), m.group(0)), query)


# A rule comes before its own subrules on the page when it answers about as well: its weight
# at most this many bands (of BANDS) below theirs.
FAMILY_BANDS = 2


def _rules_before_subrules(page: list[list[Ranked]]) -> list[list[Ranked]]:
    """A rule read before its subrules, as the rules are: when a rule and some of its own
    subrules all hold the query alike (the same tier, every word, as a phrase or not) and
    the rule weighs nearly as much, it moves up to just before the first of them (107.3
    "valor de X" before 107.3m and 107.3c, which all say it)."""
    out = list(page)

    def alike(a: Features, b: Features) -> bool:
        return (a.preferred, a.current, a.tier, a.full, a.phrase, a.official) == (
            b.preferred,
            b.current,
            b.tier,
            b.full,
            b.phrase,
            b.official,
        )

    for i in range(len(out)):
        rule = out[i][0]
        if rule.group.kind not in ("rule", "heading") or not rule.label:
            continue
        first = next(
            (
                j
                for j in range(i)
                if out[j][0].label
                and out[j][0].group.language == rule.group.language
                and parent_of(out[j][0].label) == rule.label
                and alike(out[j][0].features, rule.features)
                and rule.features.band >= out[j][0].features.band - FAMILY_BANDS
            ),
            None,
        )
        if first is not None:
            out.insert(first, out.pop(i))
    return out


# How far down the page a rule pointed to may stand to move up (_pointed_rules_first).
POINTED_WITHIN = 20


def _pointed_rules_first(hits: list[Hit]) -> list[Hit]:
    """A rule that ends by only pointing to another ("... These actions happen immediately.
    See rule 800.4a.") gives its place, score and relevance to that rule when the rule is
    among the hits too: the rules say themselves where the matter is set out in full
    (405.6h, on a player leaving a multiplayer game, points to 800.4a, which says what
    becomes of each object). Within the first POINTED_WITHIN hits, today's rules, one
    language; each pointer gives way once."""
    out = list(hits)
    i = 0
    while i < min(len(out), POINTED_WITHIN):
        pointer = out[i]
        i += 1
        if pointer.kind != "rule" or pointer.obsolete:
            continue
        target = closing_reference(pointer.text)
        j = next(
            (
                j
                for j in range(i, min(len(out), POINTED_WITHIN))
                if (out[j].kind, out[j].label, out[j].language)
                == ("rule", target, pointer.language)
                and not out[j].obsolete
            ),
            None,
        )
        if target is not None and j is not None:
            pointed = out.pop(j)
            pointed.score = max(pointed.score, pointer.score)
            pointed.relevance = max(pointed.relevance, pointer.relevance)
            out.insert(i - 1, pointed)
            i += 1  # past the pointer, now one place down: it gives way once
    return out


def _translations(termbase: Termbase, query: str) -> tuple[list[str], dict[str, list[str]]]:
    """The languages the termbase says the query is a term of, and its forms in the others."""
    matches = termbase.lookup(query)
    languages = sorted({lang for _c, lang in matches})
    out: dict[str, list[str]] = {}
    for concept, _lang in sorted(matches):
        for lang, form in termbase.concepts.get(concept, []):
            if not any(same_tag(lang, q) for q in languages):
                out.setdefault(lang, [])
                if form not in out[lang]:
                    out[lang].append(form)
    return languages, out


def _preferred(
    query: str,
    language: str | None,
    term_languages: list[str],
    vocab: list[tuple[str, str, str, int]],
) -> list[str]:
    """The query's languages: --lang; else what its spelling shows (maná, coût, 堆疊); else
    what the store's own words show (a word that only the French texts hold is French:
    "valeur de X"); else what the termbase says it is a term of (pile: French); else
    English."""
    if language:
        return [language]
    spelled = spelled_languages(query)
    # Kanji alone looks Chinese, but Japanese writes its terms in kanji too: one the
    # termbase knows as Japanese and not as Chinese (墓地, where Chinese says 坟墓场) is
    # Japanese.
    if (
        spelled
        and all(same_language(s, "zh") for s in spelled)
        and any(same_language(t, "ja") for t in term_languages)
        and not any(same_language(t, "zh") for t in term_languages)
    ):
        return ["ja"]
    return spelled or vocabulary_language(vocab) or term_languages or ["en"]


# How many of the texts holding a katakana run are read to find it as a word of its own.
WORD_SAMPLE = 50


def _prints_word(session: Any, run: str) -> bool:
    """Whether a text prints a katakana run as a word, not only inside a longer katakana
    word (the index holds kana one by one, so フラッシュ matches フラッシュバック): read in
    the best WORD_SAMPLE texts that hold it."""
    groups = ranked_groups(session, Expr((Term((run,)),)), limit=WORD_SAMPLE)
    if not groups:
        return False
    samples = sample_clauses(session, [g.id for g in groups])
    alone = re.compile(rf"(?<![ァ-ヺー]){re.escape(run)}(?![ァ-ヺー])")
    return any(
        alone.search(f"{row.term or ''} {row.norm}")
        for row in load_texts(session, samples.values()).values()
    )


def _japanese_forms(query: str, preferred: list[str]) -> bool:
    """Whether a query read as Chinese (kanji alone) writes a character as only Japanese
    does: 撃, 戦, 対, 発 and 変 are the Japanese forms of characters Chinese writes 擊/击,
    戰/战, 對/对, 發/发, 變/变 ("攻撃 制限 強制": Japanese). OpenCC's Japanese table (jp2t)
    gives such a character another Traditional form, whose Simplified form differs from it
    too, while Chinese's own table leaves it as it is; 国 and 学, which Japanese and
    Simplified Chinese write alike, are neither's alone."""
    if not preferred or not all(same_language(p, "zh") for p in preferred):
        return False
    from ..text.chinese import to_simplified  # only for a query of kanji alone

    for ch in {ch for ch in query if is_han(ch)}:  # one at a time: a table may map phrases
        traditional = _japanese_table().convert(ch)
        # A variant jp2t prefers (研: 硏) has no Simplified form of its own. Nor is it a
        # Traditional Chinese character (為, which Japanese writes alike and jp2t makes
        # 爲): Chinese's own table makes that Simplified.
        simplified = to_simplified(traditional)
        if traditional != simplified != ch and to_simplified(ch) == ch:
            return True
    return False


@functools.cache
def _japanese_table() -> Any:
    """OpenCC's table of Japanese forms to Traditional ones (loaded on first use). Here
    rather than beside the Chinese tables of text/chinese.py: only search reads it, and a
    change to text/ would change the aligner's signature (align/signature.py), making every
    store realign."""
    import opencc

    return opencc.OpenCC("jp2t")


def _japanese_entry(session: Any, parsed: ParsedQuery, preferred: list[str]) -> bool:
    """Whether a query read as Chinese (kanji alone) is exactly a term of the store's
    Japanese glossary and of no Chinese one: 諜報 is the entry 諜報（ちょうほう）／Surveil,
    and Chinese writes surveil 刺探 (谍报 only in a card's name). As _preferred says of the
    termbase's 墓地, for the terms the termbase lacks. 警戒, an entry of both, stays Chinese;
    探査, an entry of both once folded, is Japanese as typed: 査 is the Japanese form of the
    character Chinese writes 查 (Chinese 探查), and only the Japanese entry spells it so."""
    if not preferred or not all(same_language(p, "zh") for p in preferred):
        return False
    if not all(is_han(w) for w in parsed.words):
        return False
    groups = glossary_groups(session, _glossary_keys(parsed, {}), None)
    japanese = [g.term or "" for g in groups if same_language(g.language, "ja")]
    chinese = [g.term or "" for g in groups if same_language(g.language, "zh")]
    if not japanese or not chinese:
        return bool(japanese)
    typed = "".join(ch for ch in parsed.text if is_han(ch))
    return any(typed in t for t in japanese) and not any(typed in t for t in chinese)


def vocabulary_language(vocab: list[tuple[str, str, str, int]]) -> list[str]:
    """The one language whose texts alone hold some of the query's words, when no other
    language's texts alone hold any ("valeur": French only; "de" and "X": everywhere); else
    the one language whose texts hold every word of the query that the store holds at all
    ("x hors de la pile": "hors" nowhere, "pile" in English and French, "de" in French and
    Spanish: French alone holds x, de, la and pile)."""
    where: dict[str, set[str]] = {}
    for word, lang, _lemma, docs in vocab:
        if docs > 0:
            where.setdefault(word, set()).add(base_language(lang))
    owned: dict[str, int] = {}
    for langs in where.values():
        if len(langs) == 1:
            (only,) = langs
            owned[only] = owned.get(only, 0) + 1
    if not owned and len(where) > 1:
        every = set.intersection(*where.values())
        owned = dict.fromkeys(every, 1) if len(every) == 1 else {}
    if len(owned) != 1:
        return []
    (lang,) = owned
    tags = sorted({t for _w, t, _l, d in vocab if d > 0 and base_language(t) == lang})
    return tags[:1] if len(tags) == 1 else [lang]


def _guessed_rows(
    db: Any, tokens: list[str], vocab: list[tuple[str, str, str, int]]
) -> list[tuple[str, str, str, int]]:
    """Vocabulary rows for the query's words that neither the texts nor the lemma tables
    know, from their regular endings (text/lemmas.guessed_bases): "scrying" is a form of
    the texts' "scry", "surveilling" of "surveil". Such a row holds no text itself (0)."""
    held = {w for w, _lang, _lemma, _docs in vocab}
    unknown = [w for w in dict.fromkeys(tokens) if w not in held]
    if not unknown:
        return []
    from ..text.lemmas import guessed_bases  # only for a word the store lacks

    guesses = {w: guessed_bases(w, SOURCE_LANGUAGE) + ie_verb_bases(w) for w in unknown}
    guesses = {w: bases for w, bases in guesses.items() if bases}
    if not guesses:
        return []
    return _first_held_bases(db, guesses)


def _first_held_bases(db: Any, guesses: dict[str, list[str]]) -> list[tuple[str, str, str, int]]:
    """For each word, the vocabulary rows of the first of its guessed bases (most likely
    first) that the English texts hold, as the word's own: (word, language, the base's
    lemma, 0: the word itself holds no text)."""
    rows: dict[str, list[tuple[str, str]]] = {}
    for base, lang, lemma, docs in word_rows(db, [b for bs in guesses.values() for b in bs]):
        if docs > 0 and same_language(lang, SOURCE_LANGUAGE):
            rows.setdefault(base, []).append((lang, lemma))
    out = []
    for word, bases in guesses.items():
        found = next((b for b in bases if b in rows), None)
        if found is not None:
            out += [(word, lang, lemma, 0) for lang, lemma in rows[found]]
    return out


def _slipped_rows(
    db: Any, vocab: list[tuple[str, str, str, int]]
) -> list[tuple[str, str, str, int]]:
    """Vocabulary rows for English words whose table lemma the texts never print, from
    their regular endings (text/lemmas.guessed_bases) where one is a word the texts hold:
    spaCy's table gives "putting" as putt (the golf stroke), so a question saying "putting a
    land onto the battlefield" found none of the rules that say put (305.4). The texts
    index the same slip (putting: putt), so the table's lemma is kept beside it."""
    slipped = {
        w: lemma
        for w, lang, lemma, _docs in vocab
        if lemma != w and same_language(lang, SOURCE_LANGUAGE)
    }
    if not slipped:
        return []
    printed = {
        w
        for w, lang, _lemma, docs in word_rows(db, list(set(slipped.values())))
        if docs > 0 and same_language(lang, SOURCE_LANGUAGE)
    }
    slipped = {w: lm for w, lm in slipped.items() if lm not in printed}
    if not slipped:
        return []
    from ..text.lemmas import guessed_bases  # only for a lemma the texts never print

    guesses = {
        w: [b for b in guessed_bases(w, SOURCE_LANGUAGE) if b != lm] for w, lm in slipped.items()
    }
    return _first_held_bases(db, guesses)


def _with_lemmas(
    parsed: ParsedQuery, vocab: list[tuple[str, str, str, int]], preferred: list[str]
) -> ParsedQuery:
    """The query's terms and phrase with their lemmas, read from the store's vocabulary in
    the query's language (any language holding the word when that one does not)."""
    by_word: dict[str, dict[str, str]] = {}
    for word, lang, lemma, _docs in vocab:
        by_word.setdefault(word, {})[lang] = lemma

    def lemmas_of(word: str) -> list[str]:
        langs = by_word.get(word, {})
        mine = [lm for lang, lm in langs.items() if any(same_language(lang, p) for p in preferred)]
        return sorted(set(mine or langs.values()))

    terms = []
    for t in parsed.terms:
        if t.charwise:
            terms.append(t)
            continue
        found = {lm for a in t.alts for lm in lemmas_of(a)}
        # The typed form too: "creatures" is stemmed to "creature" for the prefix match.
        found |= {lm for w in parsed.words if stem(w) in t.alts for lm in lemmas_of(w)}
        # An inflected word is matched from its lemma on, as the lemma typed would be:
        # "attacking" finds the attackers of 508.1 as "attack" does.
        alts = tuple(
            dict.fromkeys(
                next(
                    (lm for lm in sorted(found) if len(lm) >= PREFIX_LEMMA and a.startswith(lm)),
                    a,
                )
                for a in t.alts
            )
        )
        terms.append(Term(alts, tuple(sorted(found))))
    lemmas = [(lemmas_of(tok) or [tok])[0] for tok in parsed.tokens]
    return ParsedQuery(parsed.text, parsed.words, terms, parsed.tokens, lemmas)


# The English participles whose opposite a rule states its condition with: "The chosen
# creatures must be untapped" answers "can a tapped creature block".
_OPPOSITE = "un"
_PARTICIPLE = "ed"


def _with_opposites(parsed: ParsedQuery, held: set[str]) -> ParsedQuery:
    """An English participle of the query (tapped, blocked, attached) also finds its un-
    form (untapped, unblocked, unattached) where the texts hold one: the rules say what may
    be done under the opposite condition ("must be untapped", "an unblocked creature"),
    players ask about theirs ("can a tapped creature block?"). Only the word itself, not its
    lemma: "untap" would bring in every text about the untap step."""
    typed = [w for w in parsed.words if w.endswith(_PARTICIPLE) and _OPPOSITE + w in held]
    if not typed:
        return parsed
    terms = []
    for t in parsed.terms:
        extra = [
            _OPPOSITE + w for w in typed if not t.charwise and (w in t.alts or stem(w) in t.alts)
        ]
        terms.append(Term(tuple(dict.fromkeys((*t.alts, *extra))), t.lemmas) if extra else t)
    return ParsedQuery(parsed.text, parsed.words, terms, parsed.tokens, parsed.lemmas)


def _with_derived(db: Any, parsed: ParsedQuery) -> ParsedQuery:
    """An English verb of the query also finds the noun made from it, where the texts hold
    that noun (inflection.derived_nouns): players ask "where does an instant go after it
    resolves", the rule says "as the final part of an instant or sorcery spell's
    resolution" (608.2n)."""
    wanted = {
        t: [f for lm in (t.lemmas or t.alts[:1]) for f in derived_nouns(lm)]
        for t in parsed.terms
        if not t.charwise
    }
    if not any(wanted.values()):
        return parsed
    held = {
        w
        for w, lang, _lemma, docs in word_rows(db, [f for fs in wanted.values() for f in fs])
        if docs > 0 and same_language(lang, SOURCE_LANGUAGE)
    }
    terms = []
    for t in parsed.terms:
        extra = next((f for f in wanted.get(t, ()) if f in held), None)
        terms.append(Term((*t.alts, extra), t.lemmas) if extra and extra not in t.alts else t)
    return ParsedQuery(parsed.text, parsed.words, terms, parsed.tokens, parsed.lemmas)


def _df(db: Any, term: Term, cache: dict[Term, int]) -> int:
    """How many distinct texts hold ``term`` (once per search)."""
    if term not in cache:
        cache[term] = document_count(db, Expr((term,)))
    return cache[term]


def _resolve_terms(
    db: Any, parsed: ParsedQuery, dfs: dict[Term, int], languages: list[str], termbase: Termbase
) -> tuple[list[Term], dict[str, list[str]]]:
    """The terms to search: a Chinese run that matches nothing whole becomes the store's
    words it holds (query.han_words: 衍生物的拥有者是谁: 衍生物, 拥有者); a word the index does not hold becomes
    its nearest indexed words (fuzzy.py), unless it is a word of the query's ``languages``
    that the rules never use."""
    terms: list[Term] = []
    unmatched: list[str] = []
    kana_fixes: dict[str, list[str]] = {}

    def add(alternatives: Sequence[tuple[str, ...]]) -> None:
        for alts in alternatives:
            if Term(alts) not in terms:
                terms.append(Term(alts))

    for t in parsed.terms:
        # Chinese players' words (thesaurus.py, rows marked zh), read in a Han run only.
        chinese = shipped_thesaurus().with_wide.chinese if is_han(t.alts[0]) else {}
        if t.charwise and not is_han(t.alts[0]) and _df(db, t, dfs) == 0:
            word = t.alts[0]
            # A katakana word spelled otherwise by the translation: its glossary word
            # (クリーンアップ -> クリンナップ), not its longest beginning (クリー, of クリーチャー).
            fix = katakana_correction(word, katakana_terms(db))
            if fix is not None and _df(db, Term((fix,)), dfs) > 0:
                kana_fixes[word] = [fix]
                terms.append(Term((fix,)))
                continue
            # A Korean player's English loanword (데스터치): the translation's word for
            # that name (치명타), not the longest beginning of the loanword (데스). A
            # Japanese one is read as the translation's word before parsing (_english_names);
            # one the store has no Japanese word for (a Japanese text without its glossary)
            # is searched as its English name, never as a Korean word that sounds alike
            # (シャッフル: shuffle, not 섞기).
            from .loanword import loanword_forms  # only for a kana or Hangul word unheld

            language = "ko" if is_hangul(word) else "en"
            forms = [
                f
                for f in loanword_forms(word, _loanwords(db, termbase, language))
                if _df(db, Term((f,)), dfs) > 0
            ]
            if forms:
                kana_fixes[word] = forms
                add([tuple(forms)])
                continue
            # A kana or Hangul word the index does not hold: its longest beginning that it
            # does (a Korean verb's stem before an ending not cut: 받나요 -> 받; a katakana
            # word spelled shorter in the rules).
            for n in range(len(word) - 1, 0, -1):
                if _df(db, Term((word[:n],)), dfs) > 0:
                    terms.append(Term((word[:n],)))
                    break
            else:
                # None (a store without Japanese or Korean, a one-character word): searched
                # as typed, it finds nothing, and says so.
                terms.append(t)
        elif t.alts[0] in chinese:  # typed alone (拦): the rules' words for it (阻挡)
            add(chinese[t.alts[0]])
        elif t.charwise and len(t.alts[0]) >= 3 and _df(db, t, dfs) == 0:
            unmatched.append(t.alts[0])
            # A Chinese player's word in the run is cut as a word of its own, and searched
            # as the rules' words.
            words = han_words(
                t.alts[0],
                han_terms(db) | chinese.keys(),
                lambda piece, chinese=chinese: piece in chinese or _df(db, Term((piece,)), dfs) > 0,
            )
            for p in words:
                add(chinese.get(p, ((p,),)))
        else:
            terms.append(t)
    if not terms:  # only asking words: search their pieces rather than nothing
        terms = [Term((p,)) for run in unmatched for p in dict.fromkeys(han_pieces(run))]
    unknown = [t.alts[0] for t in terms if not t.charwise and document_count(db, Expr((t,))) == 0]
    if not unknown:
        return terms, kana_fixes
    # A British spelling ("defence", "armour") is a word of the language, which the typo
    # check below would keep as typed: searched as the rules' American spelling instead.
    spelt: dict[str, list[str]] = {}
    for w in unknown:
        for v in american_spellings(w):
            if document_count(db, Expr((Term((v,)),))) > 0:
                spelt[w] = [v]
                break
    if spelt:
        terms = [Term(tuple(spelt[t.alts[0]])) if t.alts[0] in spelt else t for t in terms]
        unknown = [w for w in unknown if w not in spelt]
        if not unknown:
            return terms, {**kana_fixes, **spelt}
    from ..text.lemmas import common_words  # only for a word the store lacks

    # A word of the language that the rules never print is no typo ("pump", "rewind",
    # "dying"): replaced by its nearest indexed word, it searched for another ("jump",
    # "rebind", "doing") and marked every hit fuzzy. It stays as typed, as a word without
    # a near neighbour does: the partial matches answer without it.
    common = {w for lang in languages for w in unknown if w in common_words(lang)}
    fixes = corrections(db, [w for w in unknown if w not in common])
    if fixes:
        terms = [Term(tuple(fixes[t.alts[0]])) if t.alts[0] in fixes else t for t in terms]
    return terms, {**kana_fixes, **spelt, **fixes}


def _loanwords(db: Any, termbase: Termbase, language: str) -> LoanwordTable:
    """The Korean or Japanese (``language``) words English loanwords are searched as
    (loanword.py): from the titles and glossary headings the store's texts of that language
    print in both languages, and the termbase's column for it; for "en", those English
    names themselves."""

    from .loanword import loanword_table

    def build(db: Any) -> LoanwordTable:
        if language == "en":  # the English names themselves, of every source below
            named = bilingual_names(db)
            pairs = [(e, e) for lang in named for e, _native in named[lang]]
            pairs += [
                (f, f) for forms in termbase.concepts.values() for lang, f in forms if lang == "en"
            ]
            return loanword_table(pairs)
        pairs = list(bilingual_names(db)[language])
        for forms in termbase.concepts.values():
            native = [f for lang, f in forms if lang == language and not f.isascii()]
            pairs += [(f, n) for lang, f in forms if lang == "en" for n in native]
        return loanword_table(pairs)

    return per_index(db, f"loanwords-{language}", build)


def _phrase_fixes(db: Any, parsed: ParsedQuery) -> dict[str, list[str]]:
    """The typed words the index does not hold whose nearest indexed word (fuzzy.py) makes
    a player's phrase with the words around it (thesaurus.py): "instnat" in "equip at
    instnat speed" is "instant", and "instant speed" the phrase. Other mistyped words are
    left to _resolve_terms, which searches each as its nearest words."""
    thesaurus = shipped_thesaurus()
    typed = fold_words(parsed.text)
    phrased = thesaurus.phrase_words
    unknown = [
        w
        for w in dict.fromkeys(typed)
        # Only what fuzzy.corrections would correct, asked of the index one by one.
        if w not in phrased
        and w not in STOP_WORDS
        and len(w) >= MIN_FUZZY_LENGTH
        and w.isalpha()
        and not is_charwise(w)
        and document_count(db, Expr((Term((stem(w),)),))) == 0
    ]
    if not unknown:
        return {}
    from ..text.lemmas import common_words  # only for a word the store lacks

    # An English word the rules never print is no typo (_resolve_terms); the phrases are
    # English.
    unknown = [w for w in unknown if w not in common_words(SOURCE_LANGUAGE)]
    fixes = {w: near for w, near in corrections(db, unknown).items() if near[0] in phrased}
    covered = {
        i
        for start, end in thesaurus.spans([fixes[w][0] if w in fixes else w for w in typed])
        for i in range(start, end)
    }
    return {w: fixes[w][:1] for i, w in enumerate(typed) if w in fixes and i in covered}


# A word split in two, or two words joined, only where each part is this long: shorter
# ones would join "a" and "t", or cut "deathtouch" into "death" and "to..."
COMPOUND_PART = 3


def _compound_fixes(db: Any, words: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """A game term typed as one word that the rules write as two ("doublestrike",
    "splitsecond": the halves must stand in a row somewhere in the texts), or as two words
    that the rules write as one ("life link", "death touch": the joined word is in the
    texts, the two words in a row nowhere). Returns the words to search and {what was
    typed: [what is searched]}; the words unchanged and {} when there is nothing to do."""
    latin = [w.isascii() and w.isalpha() for w in words]
    pairs = [
        (i, words[i] + words[i + 1])
        for i in range(len(words) - 1)
        if latin[i]
        and latin[i + 1]
        and min(len(words[i]), len(words[i + 1])) >= COMPOUND_PART
        and words[i] not in STOP_WORDS
        and words[i + 1] not in STOP_WORDS
    ]
    long_words = [
        w for w, ok in zip(words, latin, strict=True) if ok and len(w) >= 2 * COMPOUND_PART + 1
    ]
    if not pairs and not long_words:
        return words, {}
    halves = [
        part
        for w in long_words
        for i in range(COMPOUND_PART, len(w) - COMPOUND_PART + 1)
        for part in (w[:i], w[i:])
    ]
    rows = word_rows(db, [*words, *(j for _i, j in pairs), *halves])
    held = {w for w, _lang, _lemma, docs in rows if docs > 0}

    def in_a_row(first: str, second: str) -> int:
        phrase = Expr((), op="phrase", tokens=(first, second))
        return document_count(db, phrase)

    out: list[str] = []
    fixes: dict[str, list[str]] = {}
    joins = {i: j for i, j in pairs if j in held and not in_a_row(words[i], words[i + 1])}
    i = 0
    while i < len(words):
        w = words[i]
        if i in joins:
            fixes[f"{w} {words[i + 1]}"] = [joins[i]]
            out.append(joins[i])
            i += 2
            continue
        if w in long_words and w not in held:
            splits = [
                (in_a_row(w[:k], w[k:]), w[:k], w[k:])
                for k in range(COMPOUND_PART, len(w) - COMPOUND_PART + 1)
                if w[:k] in held and w[k:] in held
            ]
            best = max(splits, default=(0, "", ""))
            if best[0] > 0:
                fixes[w] = [f"{best[1]} {best[2]}"]
                out += [best[1], best[2]]
                i += 1
                continue
        out.append(w)
        i += 1
    return (out, fixes) if fixes else (words, {})


def _compared_terms(terms: list[Term], pieces: list[str]) -> list[set[int]]:
    """The terms (their indices) of each compared piece: a Hangul term within the piece's
    words (격발 능력: 격발, 능력); none unless every piece has some."""
    out = [
        {i for i, t in enumerate(terms) if t.charwise and t.alts[0] in piece.replace(" ", "")}
        for piece in pieces
    ]
    return out if out and all(out) else []


def _glossary_keys(
    parsed: ParsedQuery, fixes: dict[str, list[str]], *, as_typed: bool = False
) -> list[str]:
    """The exact glossary terms the query may name: as typed, with plurals made singular
    ("poison counters" -> Poison Counter), a mistyped word replaced by its correction.
    ``as_typed``: only the forms the query's words make without a singular or a lemma."""
    words = _fixed(parsed, fixes)
    # Without the articles and question words around it: "the stack" is the entry Stack,
    # "what is a permanent" Permanent, "how does mulligan work" Mulligan.
    core = _said(words)
    # As typed too: a player's words searched as the rules' words (thesaurus.py) may be a
    # glossary term of their own ("in play" is searched as on the battlefield, and is the
    # entry In Play (Obsolete)).
    typed = fold_words(parsed.text)
    forms = {tuple(words), tuple(core), tuple(typed), tuple(_said(typed))}
    # A Chinese player's word names the entry of the rules' word (拦: 阻挡, Block).
    if any(is_han(w) for w in core):
        chinese = shipped_thesaurus().with_wide.chinese
        if any(w in chinese for w in core):
            # Each term's first alternative: 装备 (武具|装备) names 武具.
            forms.add(tuple(alts[0] for w in core for alts in chinese.get(w, ((w,),))))
    # A keyword with its parameter is the keyword: "scry 2", "ward 3", "protection from
    # red", "hexproof from black" (the rules write Scry N, Protection from [quality]).
    bare = _without_parameter(core)
    if bare:
        forms.add(tuple(bare))
    # A term in the possessive ("ring-bearer's", "the monarch's") is the term: the folding
    # cut its apostrophe off, leaving an "s".
    if len(core) > 1 and core[-1] == "s":
        forms.add(tuple(core[:-1]))
    # A zone or keyword named with its kind: "command zone" is the entry Command, "exile
    # zone" Exile, "flanking keyword" Flanking (the glossary names them bare).
    if len(core) > 1 and core[-1] in _KIND_WORDS:
        forms.add(tuple(core[:-1]))
    # Two terms compared are both asked about: "difference between exile and graveyard",
    # "hexproof vs shroud", "flash or flashback".
    if len(core) > 2 and any(w in COMPARING for w in words):
        pieces = _pieces(core)
        # A noun the compared terms share may be said once, after the last: "first vs
        # double strike" compares First Strike, "triggered vs activated abilities"
        # Triggered Ability.
        tails = {tuple(p[1:]) for p in pieces if len(p) > 1}
        for piece in pieces:
            forms.add(tuple(piece))
            if len(piece) == 1:
                forms.update((*piece, *tail) for tail in tails)
    # A Chinese question of one term ("横置是什么意思") asks for its entry, as "what does
    # tapping mean" does.
    subject = han_subject(core[0]) if len(core) == 1 and is_han(core[0]) else ""
    if subject:
        forms.add((subject,))
    # A Japanese comparison ("オーナーとコントローラーの違いは") asks about both terms too.
    forms.update(tuple(fold_words(p)) for p in japanese_compared(parsed.text))
    if as_typed:
        return sorted({term_key(" ".join(ws)) for ws in forms if ws})
    variants = _singular_variants(forms)
    # By lemmas too: "sacrificed" is the entry Sacrifice, "layers" the entry Layer.
    if parsed.lemmas and len(parsed.lemmas) == len(parsed.tokens) and not fixes:
        variants.add(" ".join(parsed.lemmas))
        variants.add(" ".join([*parsed.tokens[:-1], parsed.lemmas[-1]]))
        # The term a question asks about, by its lemmas ("what does tapping mean": Tap).
        lemma_of = dict(zip(parsed.tokens, parsed.lemmas, strict=True))
        if core != words and all(w in lemma_of for w in core):
            variants.add(" ".join(lemma_of[w] for w in core))
        # An entry in the third person ("Dies") is named by the other forms of its verb:
        # "dying", "died".
        if len(core) == 1 and lemma_of.get(core[0], core[0]) != core[0]:
            variants.add(lemma_of[core[0]] + "s")
        # A verb asked about with its object: "what does tapping a card mean" asks about
        # Tap, "casting a card and playing it" about Cast and Play.
        for ws in list(forms):
            verb = ws[0] if len(ws) == 1 else _object_dropped(list(ws))
            if verb in lemma_of:
                variants.add(lemma_of[verb])
    # A noun made of a verb names the verb's entry: "regeneration" is the entry Regenerate,
    # "activation" Activate (the glossary's verbs; a form that is no entry finds nothing).
    for ws in forms:
        if len(ws) == 1 and len(ws[0]) > 7 and ws[0].endswith("ation"):
            stem = ws[0][:-5]
            variants.update({stem + "ate", stem + "e", stem})
    return sorted({term_key(v) for v in variants if v})


# What follows a verb a player asks about: its object, no part of the term.
_VERB_OBJECTS = frozenset({"card", "cards", "spell", "spells", "it", "them"})


def _object_dropped(words: list[str]) -> str | None:
    """The verb in -ing before the object of "tapping a card", "the casting a card" (the
    articles between them dropped); None unless the words end with such a verb and object."""
    if len(words) < 2 or words[-1] not in _VERB_OBJECTS:
        return None
    rest = words[:-1]
    while len(rest) > 1 and rest[-1] in STOP_WORDS:
        rest.pop()
    # Only the verb says something: "after casting a spell" is about a time, not a term (the
    # "s" of a folded "what's" says nothing either).
    if any(w not in STOP_WORDS and w != "s" and not asks(w) for w in rest[:-1]):
        return None
    return rest[-1] if rest[-1].endswith("ing") else None


def _elided_keys(db: Any, parsed: ParsedQuery, fixes: dict[str, list[str]]) -> list[str]:
    """Compared words whose shared noun goes unsaid: "static vs triggered" compares Static
    Ability and Triggered Ability, "prevention vs replacement" Prevention Effect and
    Replacement Effect. The glossary's terms of two words opening with each word, whose
    second word is the same for every one of them."""
    words = _fixed(parsed, fixes)
    if not any(w in COMPARING for w in words):
        return []
    pieces = _pieces(_said(words))
    if len(pieces) < 2 or any(len(p) != 1 for p in pieces):
        return []
    pairs = [k.split() for k in glossary_term_keys(db) if k.count(" ") == 1]
    shared: set[str] | None = None
    for (word,) in pieces:
        found = {second for first, second in pairs if first == word}
        shared = found if shared is None else shared & found
    return sorted(f"{word} {second}" for (word,) in pieces for second in shared or ())


def _object_keys(parsed: ParsedQuery, fixes: dict[str, list[str]]) -> list[str]:
    """The glossary term before a last word naming the kind of object ("kindred cards" ->
    Kindred), with its singulars: asked for a query that names no entry whole."""
    core = _said(_fixed(parsed, fixes))
    if len(core) < 2 or core[-1] not in _OBJECT_WORDS:
        return []
    return sorted({term_key(v) for v in _singular_variants({tuple(core[:-1])}) if v})


def _fixed(parsed: ParsedQuery, fixes: dict[str, list[str]]) -> list[str]:
    """The query's words, a mistyped one replaced by its correction."""
    return [fixes[w][0] if w in fixes else w for w in parsed.words]


def _singular_variants(forms: set[tuple[str, ...]]) -> set[str]:
    """Each form as typed, with every word singular, and with its last word singular."""
    variants: set[str] = set()
    for ws in forms:
        singular = [_singular(w) for w in ws]
        variants |= {" ".join(ws), " ".join(singular), " ".join([*ws[:-1], singular[-1]])}
        # An English plural in -ies (abilities, bodies): _singular drops its -s only, as
        # French and Spanish want (parties, series), so the -y form is added for the last.
        if ws and len(ws[-1]) > 4 and ws[-1].endswith("ies"):
            variants.add(" ".join([*ws[:-1], ws[-1][:-3] + "y"]))
    return variants


# What a player adds after a card type's or a kind of card's name: "kindred cards" is the
# entry Kindred, "dungeon cards" Dungeon, "saga cards" Saga. Read only where the whole is no
# entry, as Permanent Card, Split Cards, Prototype Card and Permanent Spell are.
_OBJECT_WORDS = frozenset({"card", "cards", "spell", "spells"})
# What a player adds after a zone's or a keyword's name (no glossary term ends with them
# but Public Zone and Hidden Zone, whose first word is no entry of its own).
_KIND_WORDS = frozenset({"zone", "keyword", "mechanic"})
# Words that compare two terms, and the words that join the two.
COMPARING = frozenset(
    "difference differences between versus vs compare compared comparison".split()
)
_JOINING = frozenset("and or vs versus".split())
# What follows a keyword as its parameter: a number, a letter standing for one, a cost.
_PARAMETER = re.compile(r"^(?:\d+|[xyzn]|[wubrgc]+)$")


# What "from" names after protection or hexproof: colors, card types, everything (rule
# 702.16a: "Protection from [quality]"; usually a color). Not zones: "cast from exile" is
# about casting from exile, not the entry Cast.
_QUALITIES = frozenset(
    "white blue black red green colorless multicolored monocolored colors color all everything "
    "artifact artifacts creature creatures enchantment enchantments instant instants sorcery "
    "sorceries planeswalker planeswalkers land lands player players".split()
)


# What closes or opens the term a question asks about ("what does tapping mean", "what does
# it mean to exile"; Japanese "注釈文の意味", Korean "정적 능력의 뜻": the meaning or
# definition of): searched, as a keyword's rule says what it "means", but no part of the
# term. Only at either end: 정의 (definition) inside "특징 정의 능력" (characteristic-
# defining ability) belongs to the term.
# Folded as queries are (定義 is 定义).
_MEANING = frozenset(fold(w) for w in ("mean", "means", "意味", "定義", "뜻", "의미", "정의"))


def _said(words: list[str]) -> list[str]:
    """The words between the first and the last that say something (neither a stop word
    nor a word that only asks, nor a question's closing "mean")."""
    said = [i for i, w in enumerate(words) if w not in STOP_WORDS and not asks(w)]
    if len(said) > 1 and words[said[-1]] in _MEANING:
        said.pop()
    elif len(said) > 1 and words[said[0]] in _MEANING:  # "what does it mean to exile"
        said.pop(0)
    return words[said[0] : said[-1] + 1] if said else words


def _without_parameter(words: list[str]) -> list[str]:
    """A keyword without the parameter that follows it ("scry 2" -> scry, "ward 1 u" ->
    ward, "protection from red" -> protection, "hexproof from black" -> hexproof); empty
    if it has none. "from" takes one or two words of quality after one word of keyword, so
    that "damage from a source" and "cast from exile" stay themselves."""
    if len(words) in (3, 4) and words[1] == "from" and all(w in _QUALITIES for w in words[2:]):
        return words[:1]
    end = len(words)
    while end > 1 and _PARAMETER.match(words[end - 1]):
        end -= 1
    if end == len(words) or not any(w.isdigit() or w in "xn" for w in words[end:]):
        return []
    return words[:end]


def _pieces(words: list[str]) -> list[list[str]]:
    """The terms a comparison joins ("between exile and graveyard" -> exile, graveyard)."""
    pieces: list[list[str]] = [[]]
    for w in words:
        if w in _JOINING:
            pieces.append([])
        elif w not in COMPARING:
            pieces[-1].append(w)
    return [_said(p) for p in pieces if _said(p)] if len(pieces) > 1 else []


def _contained_keys(parsed: ParsedQuery) -> list[str]:
    """Glossary terms of two words or more that a longer query holds, as it typed them or
    by their lemmas ("poison counters" in a question about losing)."""
    out: set[str] = set()
    forms = [parsed.tokens, fold_words(parsed.text)]  # as searched and as typed (above)
    if parsed.lemmas and parsed.lemmas != parsed.tokens:
        forms.append(parsed.lemmas)
    for words in forms:
        n = len(words)
        for size in range(2, min(n, 5)):
            for i in range(n - size + 1):
                piece = words[i : i + size]
                # A term may open or end with a stop word (In Response To, Counts As), not
                # be only stop words.
                if all(w in STOP_WORDS for w in piece):
                    continue
                out.add(term_key(" ".join(piece)))
                out.add(term_key(" ".join([*piece[:-1], _singular(piece[-1])])))
    return sorted(k for k in out if k)


def _singular(word: str) -> str:
    """English, French and Spanish plurals by their last letter (counters, coûts, costes);
    Chinese has none."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


# How far into a rule a term with its number may stand and still be what the rule is about
# ("Within layer 7, apply ...": 613.4).
NAMED_WITHIN = 2
# A rule of a feature the query names (810.4 for "starting life in Two-Headed Giant")
# weighs the idf of the feature's name this many times, as if it said it once.
INHERITED = 1.0
# A title's last word that ends this many feature titles of an edition or more is the kind
# of feature ("Variant" ends 6 of 2026's, "Option" 5, "Cards" 14), not its name.
GENERIC_TITLE_WORD = 3
# A section of the general rules is named by a title of this many words or more ("draw
# step": 504 Draw Step). A one-word title (120 Damage, 106 Mana, 115 Targets) is a word most
# questions say in passing. Over the 1,392 queries of the sets without Japanese or Korean
# (eval_search.py per set): MRR@10 0.7801 without, 0.7803 from one word (5 up, 9 down),
# 0.7809 from two (2 up, none down); the 401 Japanese and Korean queries 0.7187, 0.7190 and
# 0.7187 (a title in Han, kana or Hangul is one run: one word). Had the section's rules
# joined as a named feature's do (read as defining the query's term when they hold it all),
# 0.7783 and 0.7806.
SECTION_TITLE_WORDS = 2
# How far on (positions in an edition) a named feature's rules are read: 903 Commander,
# among the longest, holds about 100 clauses with its examples.
WITHIN = 400


def _rank(
    plan: _Plan,
    parsed: ParsedQuery,
    terms: list[Term],
    *,
    fixes: dict[str, list[str]],
    translations: dict[str, list[str]],
    term_languages: list[str],
    termbase: Termbase,
    aligned: bool,
    dfs: dict[Term, int],
) -> list[Ranked]:
    """The candidate texts of a query, in the librarian's order (rank.py): fetched for all
    the terms, the phrase and (when those are few) any term, plus the exact glossary entry,
    the rules it points to and the texts a translation vouches for; each weighed on one of
    its clauses (they all hold the same text)."""
    db = plan.db
    fuzzy = bool(fixes)
    pool: dict[int, _Candidate] = {}
    order: dict[str, list[int]] = {}  # per expression, its candidates best first
    # A long page needs more texts than the default fetch (several per lineage).
    fetched = max(CANDIDATES, plan.limit * 5)
    examined_n = max(EXAMINED, plan.limit * WORDINGS)

    def gather(
        expr: Expr, name: str, share: float = 1.0, weights: list[float] | None = None
    ) -> list[int]:
        """Fetch the best texts for ``expr``; the first few of each scope (``share`` of the
        usual number) are looked at closely. Returns them, best first. ``weights``: each
        term's idf, for the database to weigh them by (backend.ranked_groups)."""
        got: list[int] = []
        limit = max(int(fetched * share), FEW)
        groups = ranked_groups(
            db, expr, languages=plan.languages, kinds=plan.kinds, limit=limit, weights=weights
        )
        more = [groups]
        crowded = len(groups) >= limit and not all(
            g.language in plan.preferred_tags for g in groups
        )
        if plan.languages is None and plan.preferred_tags and crowded:
            # Other languages filled the fetch: the query's language gets its own, so that
            # its texts (ranked first) are not left out.
            more.append(
                ranked_groups(
                    db,
                    expr,
                    languages=plan.preferred_tags,
                    kinds=plan.kinds,
                    limit=limit,
                    weights=weights,
                )
            )
        for found in more:
            for n, g in enumerate(found):
                pool.setdefault(g.id, _Candidate(g))
                if n < examined_n * share and g.id not in got:
                    got.append(g.id)
        order[name] = got
        return got

    all_of = Expr(tuple(terms), "and")
    gather(all_of, "and")
    # A Korean comparison ("마법진이랑 장비 차이가 뭐예요") has no glossary entry to open with:
    # each term is searched alone too, and a text is weighed on the term it holds best
    # (covering, below), so that the rules saying what each is (303.4 "마법진은...", 301.5
    # "장비는...") are not outweighed by those that merely name both.
    compared = _compared_terms(terms, korean_compared(parsed.text))
    for i, piece in enumerate(compared):
        gather(Expr(tuple(terms[j] for j in sorted(piece)), "and"), f"compared-{i}", 0.5)
    phrase = parsed.phrase if not fuzzy else None
    if phrase is not None:
        gather(phrase, "phrase")
    # The exact glossary entry and the rules it points to (those even when only rules are
    # asked for: the entry is not shown then, but still says where the term is defined).
    exact = [
        g
        for g in glossary_groups(
            db, _glossary_keys(parsed, fixes) + _elided_keys(db, parsed, fixes), None
        )
        if plan.languages is None or g.language in plan.languages
    ]
    if not exact:
        exact = [
            g
            for g in glossary_groups(db, _object_keys(parsed, fixes), None)
            if plan.languages is None or g.language in plan.languages
        ]
    # A glossary term the query holds among other words ("how many *poison counters* to
    # lose"): its entry and the rules it points to join the candidates.
    exact_ids = {g.id for g in exact}
    within = [
        g
        for g in glossary_groups(db, _contained_keys(parsed), None)
        if g.id not in exact_ids and (plan.languages is None or g.language in plan.languages)
    ]
    shown = not plan.kinds or "glossary" in plan.kinds
    # An entry named by the query's words as they are comes before one named only by their
    # lemma or singular: "phasing" is Phasing, then Phase (whose lemma it shares).
    as_typed = (
        {g.id for g in glossary_groups(db, _glossary_keys(parsed, fixes, as_typed=True), None)}
        if len(exact) > 1
        else set()
    )
    for g in exact:
        if shown:
            c = pool.setdefault(g.id, _Candidate(g))
            c.tier = 0
            c.loose = bool(as_typed) and g.id not in as_typed
    # A question's contained term is one of its subjects, not the question: its entry and
    # the rules it points to stand with the defining rules only when they hold all the
    # question's words (704.5c for "how many poison counters to lose"); else they are
    # weighed like the rest ("what happens to a token when it leaves the battlefield" is
    # 111.8, not 603.6c on leaves-the-battlefield triggers, which says nothing of tokens).
    for g in within:
        if shown:
            pool.setdefault(g.id, _Candidate(g)).contained = True
    examined = {gid for ids in order.values() for gid in ids}
    examined |= {gid for gid, c in pool.items() if c.tier < 2}
    examined |= {g.id for g in within if shown}
    if plan.restricted:
        # Only some editions searched (--edition, --as-of): texts outside them go now, so
        # that the fallback below knows how many full matches are really left.
        load_members(db, [pool[g].group for g in examined], plan.allowed)
        examined = {g for g in examined if pool[g].group.members}
    # The partial matches. A longer query (a question) may be answered by a text lacking
    # one of its words: each word is left out in turn, so that a text holding the others
    # is found however many texts hold them all. Past LEAVE_ONE_OUT words, or with fewer
    # full matches than a few per hit asked for (each lineage may take several texts, its
    # wordings through the editions), any of the words.
    found = {g for g in order["and"] if g in examined}
    total = max(total_documents(db), 1)
    idfs = [idf(_df(db, t, dfs), total) for t in terms]
    if WHOLE_TERMS < len(terms) <= LEAVE_ONE_OUT:
        for i in range(len(terms)):
            rest = Expr(tuple(t for j, t in enumerate(terms) if j != i), "and")
            # Half as many each: together they are most of a question's candidates.
            got = gather(rest, f"and-{i}", 0.5)
            examined |= set(got)
            found |= set(got)
    if len(terms) > 1 and (
        len(terms) > LEAVE_ONE_OUT or len(found) < max(plan.limit * WORDINGS, FEW)
    ):
        # Any of the words: the rare ones weigh more (bm25 does so on SQLite by itself).
        examined |= set(gather(Expr(tuple(terms), "or"), "or", weights=idfs))
    _add_defining_rules(plan, pool, examined, exact)
    _add_defining_rules(plan, pool, examined, within, tier=2)
    # A feature the query names among other words ("*ninjutsu* timing, can I ninja after
    # blockers are declared"): its rule and first subrules join, as a contained glossary
    # term's do; a question's many words may fetch only rules that share the rest.
    named_features = (
        _named_features(plan, terms, fold_words(parsed.text))
        if len(terms) > 1
        else _Named({}, set())
    )
    plan.named_rules = {label for _edition, label in named_features.whole}
    if named_features.whole:
        heads = clauses_labelled(db, sorted(named_features.whole))
        _add_named_rules(plan, pool, examined, heads)
        # A question's other words may be in any rule of the feature, which is about it
        # without repeating its name (810.4 "Each team has a shared life total" is
        # Two-Headed Giant's): those rules join too, weigh the title's words as held
        # (INHERITED), and one holding the rest of the question so stands with the
        # defining rules, after the head and first subrules. A query of a word or two
        # ("phased out") wants the feature defined: the head and first subrules only.
        if len(terms) > WHOLE_TERMS:
            within = clauses_within(db, heads, WITHIN)
            _add_named_rules(plan, pool, examined, within, first=0, order=FIRST)
    if named_features.sections and len(terms) > WHOLE_TERMS:
        # A question naming a section of the general rules ("in my draw step": 504) may be
        # answered by any of its rules, which need not repeat the title (504.1 "First, the
        # active player draws a card"): they join, and weigh the title's words as held.
        heads = clauses_labelled(db, sorted(named_features.sections))
        within = clauses_within(db, heads, WITHIN)
        _add_named_rules(plan, pool, examined, within, first=0, defining=False)
    concordant = (
        concordant_groups(db, translations, term_languages, plan.by_id, plan.kinds, termbase)
        if aligned and translations
        else set()
    )
    # Texts a translation vouches for join even when bm25 ranked them low.
    joining = [g for g in concordant if g not in examined]
    if joining:
        examined |= {
            pool.setdefault(g.id, _Candidate(g)).group.id
            for g in group_rows(db, joining)
            if (plan.languages is None or g.language in plan.languages)
            and (not plan.kinds or g.kind in plan.kinds)
        }
    live = [pool[g] for g in examined]
    if not live:
        return []
    # Every clause of a group holds the same text: one of them is enough to weigh it. Which
    # clause is shown (the newest) is settled for the few that make the page (hits.py).
    samples = sample_clauses(db, [c.group.id for c in live])
    clauses = load_texts(db, samples.values())
    live = [c for c in live if c.group.id in samples]
    lemma_rows = group_lemmas(db, [c.group.id for c in live])
    # A section head or keyword rule whose title is the query's words ("stack": 405 Stack;
    # "declaring attackers": 508 Declare Attackers Step) is where the query is defined.
    titles = _naming_titles(parsed, terms, live, samples, clauses, lemma_rows)
    if titles:
        for c in titles:
            c.tier = min(c.tier, 1)
        load_members(db, [c.group for c in titles], plan.allowed)
        # The title's subrules in its newest edition (older ones are older wordings of the
        # same lineages), under that edition's own number for it: one text may carry several
        # over the years (2006's 203 "Mana Cost and Color" is 202 today; 203 is Illustration).
        wanted = []
        for c in titles:
            if c.group.members:
                eid, cid = newest_member(c.group.members, plan.by_id)
                if c.group.labels.get(cid):
                    wanted.append((eid, c.group.labels[cid]))
        more = clauses_labelled(db, wanted)
        before = set(examined)
        if more:
            _add_as_defining(plan, pool, examined, more)
        fresh = [pool[g] for g in examined - before]
        if fresh:
            more_samples = sample_clauses(db, [c.group.id for c in fresh])
            samples.update(more_samples)
            clauses.update(load_texts(db, more_samples.values()))
            lemma_rows.update(group_lemmas(db, list(more_samples)))
            live += [c for c in fresh if c.group.id in more_samples]
    qlemmas = parsed.lemmas or [stem(t) for t in parsed.tokens]
    kana_pairs = _char_pairs(parsed.tokens) if _holds_kana(parsed.text) else frozenset()
    today = newest_editions(plan)
    # Each text's clause in today's editions, where it has one: those texts are today's.
    in_today = clauses_in_editions(db, [c.group.id for c in live], today)
    current = set(in_today)
    script = _script(plan)
    # A query of one or two words wants them all; a longer one, the text it mostly names.
    whole = len(terms) <= WHOLE_TERMS
    texts = []
    for c in live:
        row = clauses[samples[c.group.id]]
        tokens = index_tokens(" ".join(p for p in (row.term, row.norm) if p))
        lemmas = lemma_rows.get(c.group.id) or []
        if len(lemmas) != len(tokens):
            lemmas = tokens
        texts.append((c, row, tokens, lemmas))

    # Each typed word's idf, for the bigrams (0: a stop or question word, or Chinese, whose
    # characters are its terms' own phrases).
    def word_weight(word: str, lemma: str) -> float:
        for t, w in zip(terms, idfs, strict=True):
            if not t.charwise and (stem(word) in t.alts or word in t.alts or lemma in t.lemmas):
                return w
        return 0.0

    qweights = [word_weight(w, lm) for w, lm in zip(parsed.tokens, qlemmas, strict=False)] + [
        0.0
    ] * max(len(parsed.tokens) - len(qlemmas), 0)
    # BM25's length normalisation against the texts of the same language (Chinese counts
    # characters, English words).
    lengths: dict[str, list[int]] = {}
    for c, _row, tokens, _lemmas in texts:
        lengths.setdefault(c.group.language, []).append(len(tokens))
    # The index's own average where its sample holds the language (a query's candidates
    # are longer than most texts), else the candidates' (a page of a few rules).
    average = {
        lang: typical.get(lang) or sum(ns) / len(ns)
        for lang, ns in lengths.items()
        for typical in [average_lengths(db)]
    }
    out = []
    multiword = len(parsed.tokens) > 1 and any(qweights)

    def covering(tokens: list[str], lemmas: list[str]) -> tuple[list[list[int]], float]:
        """Where each term stands in a text, and the idf-weighted share of them it holds
        (in a comparison, of the compared term it holds best: the others' places dropped)."""
        found = [positions(t, tokens, lemmas) for t in terms]
        if compared:

            def share(piece: set[int]) -> float:
                return sum(idfs[i] for i in piece if found[i]) / (
                    sum(idfs[i] for i in piece) or 1.0
                )

            best = max(compared, key=share)
            return [f if i in best else [] for i, f in enumerate(found)], share(best)
        held = sum(w for w, f in zip(idfs, found, strict=True) if f)
        return found, held / (sum(idfs) or 1.0)

    # Once per text: the three readings below ask for it each.
    cover = {c.group.id: covering(tokens, lemmas) for c, _row, tokens, lemmas in texts}

    # A contained term's entry that holds the whole question answers it ("Mana Ability ...
    # doesn't use the stack"): the rules it points to that hold most of the question
    # (POINTED_COVERAGE) stand with the defining rules.
    answering = {
        (c.group.language, term_key(row.term or ""))
        for c, row, *_text in texts
        if c.contained and c.group.kind == "glossary" and cover[c.group.id][1] >= 0.999
    }
    # An older wording whose lineage goes on in today's edition is shown as today's rule
    # (hits.py). When today's texts hardly say what the query says (an old name:
    # "converted mana cost" is "mana value" since 2021), such a wording ranks as today's
    # text (202.3); otherwise it stays behind them ("stack": 608.3e's older wording said
    # it, today's does not). Of the same kind only: a 2009 glossary entry the aligner
    # followed into rule 113.3b is still shown as that entry.
    literal = set(current)
    older = {c.group.id: c.group for c, *_r in texts if c.group.id not in current}
    saying = sum(
        1 for c, *_text in texts if c.group.id in current and cover[c.group.id][1] >= 0.999
    )
    if older and saying < FEW:
        heads = lineage_heads(db, [samples[g] for g in older])
        living = {h: k for h, (e, k) in clause_kinds(db, set(heads.values())).items() if e in today}
        current |= {
            g for g, group in older.items() if living.get(heads.get(samples[g], -1)) == group.kind
        }
    rarest = max(range(len(terms)), key=lambda i: idfs[i]) if terms else None
    permission = asks_permission(parsed.words)
    # A term with its number ("layer 7", "layer 4") is the term's entry, then the rule that
    # opens with the two together ("Layer 7: Power- and/or toughness-changing effects are
    # applied", 613.1g) before the term's defining rules: the reader asked for that one.
    # Only at the opening: cloak's 701.58a gives a card "ward {2}" in passing, and "ward 2"
    # is still Ward.
    numbered = bool(_without_parameter(_said(parsed.words)))
    subjects = _subjects(
        plan,
        terms,
        [c for c, *_r in texts if c.group.id in current],
        samples,
        {gid: [bool(f) for f in found] for gid, (found, _cov) in cover.items()},
        named_features.whole,
        fold_words(parsed.text),
        in_today,
    )
    aside = subjects.aside | subjects.astray
    total_idf = sum(idfs) or 1.0
    # By label: a text is weighed on one of its clauses, perhaps in an older edition.
    naming_by_label = {label: names for (_e, label), names in named_features.whole.items()}
    naming_sections = {label: names for (_e, label), names in named_features.sections.items()}
    for c, row, tokens, lemmas in texts:
        lang = c.group.language
        found, coverage = cover[c.group.id]
        # A rule of a feature the query names holds the feature's name by where it stands.
        naming = naming_by_label.get(
            subjects.of.get(c.group.id, (0, ""))[1], set()
        ) | naming_sections.get(subjects.section_of.get(c.group.id, (0, ""))[1], set())
        inherited = INHERITED * sum(idfs[i] for i in naming if not found[i])
        coverage = min(coverage + inherited / total_idf, 1.0)
        held = [bool(f) for f in found]
        in_phrase = (
            has_phrase(parsed.tokens, tokens) or has_phrase(qlemmas, lemmas, exact=True)
            if len(parsed.tokens) > 1
            else all(held)
        )
        term_tokens = len(index_tokens(row.term)) if row.term else 0
        # A first subrule of a defining rule that says nothing of the query (104.1 under
        # 104 "Ending the Game", for conceding) is not where the term is defined.
        tier = 2 if c.sub and c.tier == 1 and not any(held) else c.tier
        named = (
            numbered
            and c.group.kind == "rule"
            and c.group.id in literal
            and has_phrase(parsed.tokens, tokens[: len(parsed.tokens) + NAMED_WITHIN], exact=True)
        )
        if named:
            tier = 1
        if (
            c.contained
            and tier == 2
            and (coverage >= 0.999 or (c.via & answering and coverage >= POINTED_COVERAGE))
        ):
            tier = 1
        features = Features(
            preferred=any(same_language(c.group.language, p) for p in plan.preferred),
            tier=tier,
            loose=c.loose,
            coverage=coverage,
            # A rule about a feature the query does not name holds its phrase in passing:
            # 728.3 on subgames says "when state-based actions are checked", 704.3 is
            # when they are (eval_search.py, all sets: 0.7505 -> 0.7508, one query 4 -> 2).
            phrase=in_phrase and c.group.id not in aside,
            near=nearness(terms, found) if len(terms) > 1 else float(all(held)),
            concordance=c.group.id in concordant,
            weight=(OFF_SUBJECT if c.group.id in aside else 1.0)
            * (
                weigh(terms, found, idfs, len(tokens), average[lang], term_tokens)
                + inherited
                + (
                    max(
                        bigrams(parsed.tokens, qweights, pairs(tokens), len(tokens), average[lang]),
                        bigrams(qlemmas, qweights, pairs(lemmas), len(tokens), average[lang]),
                    )
                    if multiword
                    else 0.0
                )
            ),
            script=script is None
            or not same_language(c.group.language, script)
            or c.group.language == script,
            official=c.group.kind not in ("commentary", "example"),
            current=c.group.id in current,
            literal=c.group.id in literal,
            sub=c.sub and tier == 1 and not named,
            order=c.order if c.sub and tier == 1 and not named else 0,
            whole=whole,
        )
        # A rule that opens with the question's rarest word is about it ("A token that's in a
        # zone other than the battlefield ceases to exist": 111.7 for a question on tokens).
        if c.group.kind == "rule" and not whole and rarest is not None:
            opening = next((i for i, t in enumerate(tokens[:4]) if t not in STOP_WORDS), None)
            if opening is not None and opening in found[rarest]:
                features.weight *= SUBJECT
        if not whole:
            # A question goes to the text its words mostly name (criterion 4): a short text
            # repeating two of its words (730.1 on day and night) weighs less than one
            # holding them all (730.2a for "day becomes night if no spells were cast").
            features.weight *= coverage**COVERAGE_POWER
        if c.group.kind == "glossary" and not whole and tier == 2:
            features.weight *= ASIDE_ENTRY
            # An entry defining a feature the question does not name ("Exert ... stops a
            # permanent from untapping during the next untap step" for a question on the
            # untap step) is about that feature, as its rules are (_subjects).
            if term_key(row.term or "") in named_features.unnamed:
                features.weight *= OFF_SUBJECT
        if permission and c.group.kind == "rule" and not PERMISSION_SAID.isdisjoint(tokens):
            features.weight *= PERMISSION
        if kana_pairs:
            # A Japanese question's kana say what its kanji and katakana terms do not (の,
            # された, 起こったことにならない): the share of its two-character runs the text
            # holds, kana and all, weighs as the phrase a Latin question's bigrams make.
            held_pairs = kana_pairs & _char_pairs(tokens)
            features.weight *= 1.0 + KANA_PAIRS * len(held_pairs) / len(kana_pairs)
        out.append(Ranked(c.group, features, row, tokens, fuzzy))
    best = max((r.features.weight for r in out), default=0.0)
    for r in out:
        r.features.band = round(BANDS * r.features.weight / best) if best > 0 else BANDS
    out.sort(key=lambda r: (r.features.key(), r.group.id))
    return out


# The parts of the rules about one feature of the game each, by the section (or keyword)
# that names it: the keyword actions and abilities (701.N, 702.N: each titled by its
# keyword), the sections of chapter 7 from 705 on (705 "Flipping a Coin" ... 731 "Taking
# Shortcuts"; 700 General and 703-704, the turn- and state-based actions, are the game's
# general mechanics), and chapters 8 and 9, the multiplayer options and casual variants
# (800 and 900 "General": the chapter's own title names them). Numbering since July 2009.
KEYWORD_SECTIONS = ("701", "702")
# The keyword actions (701.8 Destroy, 701.6 Counter, 701.5 Cast) are verbs the whole of
# the rules use: a question saying "destroyed" or "countered" is not about 701.8 or 701.6.
ACTION_SECTION = "701."
FEATURE_SECTIONS = "705"
VARIANT_CHAPTERS = ("8", "9")


# How much a text holding all of a Japanese question's two-character runs weighs more (its
# kana included): KANA_PAIRS times its weight. On the 231 Japanese and Korean queries of the
# relevance sets (eval_search.py): 0 -> 0.7216, 1 -> 0.7323, 2 -> 0.7401, 3 -> 0.7411,
# 4 -> 0.7427, 8 -> 0.7423.
KANA_PAIRS = 4.0


def _holds_kana(text: str) -> bool:
    return fold_pattern("KANA").search(text) is not None


def _char_pairs(tokens: Sequence[str]) -> frozenset[str]:
    """The two-character runs of consecutive one-character index tokens (kana and Han: the
    index holds each alone)."""
    return frozenset(
        a + b
        for a, b in zip(tokens, tokens[1:], strict=False)
        if len(a) == 1 and len(b) == 1 and is_charwise(a + b)
    )


def _general_section(label: str) -> bool:
    """Is this a rule of a section of the general rules (1xx-6xx: 504.1 of 504 Draw Step),
    numbered as since July 2009?"""
    section, dot, _rest = label.partition(".")
    return (
        bool(dot)
        and len(section) == 3
        and section.isdigit()
        and "1" <= section[0] <= "6"
        and not section.endswith("00")  # 500 General: its chapter's introduction
    )


def _subject_label(label: str) -> str | None:
    """The label of the heading or keyword rule naming what a rule is about, when it is
    about one feature (above): 702.91a -> 702.91 (Battle Cry), 723.1f -> 723 (Ending Turns
    and Phases), 805.4b -> 805 (Shared Team Turns Option), 800.4a -> 8 (Multiplayer Rules);
    None for the general rules (104.3a, 704.5j)."""
    section = label.partition(".")[0]
    if len(section) != 3 or not section.isdigit():
        return None
    if section in KEYWORD_SECTIONS:
        keyword = rule_of(label)
        return keyword if keyword != label else None
    if section[0] == "7":
        return section if section >= FEATURE_SECTIONS else None
    if section[0] in VARIANT_CHAPTERS:
        return section[0] if section.endswith("00") else section
    return None


@dataclass
class _Subjects:
    """What the candidates (today's rules) are about, against what the query names."""

    # About a feature of the game (_subject_label) whose title none of the query's terms is in.
    aside: set[int]
    # About none of the features the query names whole, and holding none of those names
    # ("can you equip at instant speed": 304.5 on "any time they could cast an instant" says
    # nothing of equip, whose title 702.6 the query names).
    astray: set[int]
    # What each of today's rules is about (_subject_label), with today's edition.
    of: dict[int, tuple[int, str]]
    # The section of the general rules (1xx-6xx) each of today's rules is in, with today's
    # edition: 504 (Draw Step) for 504.1.
    section_of: dict[int, tuple[int, str]] = field(default_factory=dict)


def _subjects(
    plan: _Plan,
    terms: list[Term],
    live: list[_Candidate],
    samples: dict[int, int],
    held: dict[int, list[bool]],
    naming: dict[tuple[int, str], set[int]],
    typed: Sequence[str],
    in_today: dict[int, int],
) -> _Subjects:
    """The candidates off the query's subject. Those ``aside`` weigh OFF_SUBJECT of their
    weight: a librarian answers "can tapped creatures attack" with the rules of attacking,
    not with a keyword's rule that mentions tapped attackers (702.154a Enlist), and "what
    happens when everyone passes priority" with 117.4, not with 731 Taking Shortcuts. And
    when the query names features whole (``naming``: _named_features), it asks about them:
    the rules about another feature, or about none, that do not name one either are
    ``astray`` and weigh OFF_SUBJECT too. ``live``: today's texts, and older wordings of
    today's rules (``held``: per candidate, which terms it holds), each read as the rule
    it is today (``in_today``: a text's clause in today's editions, where it has one); one
    the stored alignments do not follow to today is never ``aside``, its number being
    perhaps from before 2009."""
    wanted = {
        c.group.id: samples[c.group.id]
        for c in live
        if c.group.kind in ("rule", "heading") and c.group.id in samples
    }
    # Read in today's edition: the sample may be the 2006 wording of a text unchanged
    # since (606.4a then, 810.4 now), numbered before the renumbering; an older wording,
    # as the rule it became today (its lineage's head).
    today = {g: in_today[g] for g in wanted if g in in_today}
    older = [wanted[g] for g in wanted if g not in today]
    heads = lineage_heads(plan.db, older) if older else {}
    today.update((g, heads[wanted[g]]) for g in wanted if g not in today and wanted[g] in heads)
    wanted.update(today)
    if not wanted or not terms:
        return _Subjects(set(), set(), {})
    labels = clause_labels(plan.db, wanted.values())
    subjects: dict[int, tuple[int, str]] = {}
    sections: dict[int, tuple[int, str]] = {}
    for gid, cid in wanted.items():
        eid, label = labels.get(cid, (0, None))
        info = plan.by_id.get(eid)
        if not label or not info or (info.date and info.date < RENUMBERING):
            continue
        subject = _subject_label(label)
        if subject:
            subjects[gid] = (eid, subject)
        elif _general_section(label):
            sections[gid] = (eid, label.partition(".")[0])
    astray = {
        gid
        for gid in wanted
        if naming
        and subjects.get(gid) not in naming
        and not any(all(held[gid][i] for i in names) for names in naming.values())
    }
    if not subjects:
        return _Subjects(set(), astray, subjects, sections)
    titles = [
        (t, index_tokens(t.norm)) for t in clauses_labelled(plan.db, sorted(set(subjects.values())))
    ]
    # A title names what the query says by its words or their lemmas ("phased": Phasing).
    wanted_lemmas = {lm for term in terms for lm in term.lemmas}
    title_lemmas = {
        word: lemma
        for word, _lang, lemma, _docs in word_rows(plan.db, [w for _t, ws in titles for w in ws])
        if lemma in wanted_lemmas
    }
    named: dict[tuple[int, str], bool] = {}
    for t, tokens in titles:
        joined = "".join(tokens)
        lemmas = {title_lemmas[w] for w in tokens if w in title_lemmas}
        named[(t.edition_id, t.label)] = any(
            term_in(term, tokens, joined)
            or any(lm in tokens or (lm in lemmas and _inflected(term, typed)) for lm in term.lemmas)
            for term in terms
        )
    aside = {gid for gid, key in subjects.items() if gid in today and not named.get(key, True)}
    return _Subjects(aside, astray - aside, subjects, sections)


@dataclass
class _Named:
    """The features of the game a query names, and those it does not."""

    # Named whole (every word of the title): each with the terms naming it.
    whole: dict[tuple[int, str], set[int]]
    # The titles none of the query's terms is in (term_key): "Exert" for "untapping
    # permanents in the untap step".
    unnamed: set[str]
    # The sections of the general rules named whole ("draw step": 504), as ``whole``.
    sections: dict[tuple[int, str], set[int]] = field(default_factory=dict)


def _named_features(plan: _Plan, terms: list[Term], typed: list[str]) -> _Named:
    """The features of the game (_subject_label: 702.6 Equip, 730 Day and Night, 903
    Commander) that the query names whole, every word of the title in today's edition of
    its language, each with the terms naming it. Only by words the reader typed (``typed``,
    folded): "at instant speed" is searched as "could cast an instant", and names 701.5
    Cast without meaning it. A keyword action (701) is never named whole, its verb being
    everywhere in the rules, but is among the features the query may not name. The
    sections of the general rules named whole by a title of SECTION_TITLE_WORDS or more
    ("draw step": 504 Draw Step) are kept apart (``sections``): they are where a question
    stands, not a feature its other rules would be off."""
    typed_terms = {i for i, term in enumerate(terms) if any(term_in(term, [w], w) for w in typed)}
    # The terms each typed word gave: "headed" names "Two-Headed" though its term is "head".
    as_typed = {w: {i for i in typed_terms if term_in(terms[i], [w], w)} for w in typed}
    today = sorted(e for e in newest_editions(plan) if _in_preferred(plan, e))
    named = _Named({}, set())
    languages = {e: plan.by_id[e].language for e in today}
    for t in _feature_titles(plan.db, today, languages):
        if not t.general and not any(term_in(term, t.tokens, t.joined) for term in terms):
            named.unnamed.add(t.key)
        if t.label.startswith(ACTION_SECTION):
            continue
        for words in t.names:
            # Word for word, not as a prefix: "after" does not name 702.127 Aftermath.
            by_word = [
                {i for i in typed_terms if _names(terms[i], w, t.lemmas.get(w, w), typed)}
                | as_typed.get(w, set())
                for w in words
            ]
            if t.general and len(words) < SECTION_TITLE_WORDS:
                continue
            if all(by_word):
                found = named.sections if t.general else named.whole
                found[(t.edition_id, t.label)] = set().union(*by_word)
                break
    return named


@dataclass(frozen=True)
class _Title:
    """A feature's title in an edition, cut as the index cuts it."""

    edition_id: int
    label: str
    tokens: list[str]
    joined: str  # the tokens without spaces, for Han runs (rank.term_in)
    # Its words without stop words, per script: a translation may print the English name
    # beside its own ("装備／Equip"), and either names the feature. A Han, kana or Hangul run
    # is one word (the index keeps one character per token).
    names: list[list[str]]
    key: str  # search_index.term_key of the title
    # Its words' lemmas, where they differ ("phasing": phase), for a query saying "phased".
    lemmas: dict[str, str]
    # A section of the general rules (504 Draw Step), not a feature.
    general: bool = False


def _feature_titles(db: Any, editions: list[int], languages: dict[int, str]) -> list[_Title]:
    """The titles of the features of the game in these editions (``languages``: each
    one's), and of the sections of the general rules (504 Draw Step: ``general``), kept per
    index: read and cut once, not for every question (4-5 ms a search)."""

    def feature(label: str) -> bool:
        return _subject_label(label + ("a" if "." in label else ".1")) == label

    def build(db: Any) -> list[_Title]:
        rows = [
            (t, index_tokens(t.norm))
            for t in feature_titles(db, editions)
            # A chapter's introduction (500 Turn Structure) is neither.
            if t.label and (feature(t.label) or _general_section(t.label + ".1"))
        ]
        # The lemmas the index gave the titles' words, in each title's language.
        lemma_of = {
            (word, lang): lemma
            for word, lang, lemma, _docs in word_rows(db, [w for _t, ws in rows for w in ws])
            if lemma and lemma != word
        }
        out = []
        for t, tokens in rows:
            lang = languages[t.edition_id]
            lemmas = {w: lemma_of[(w, lang)] for w in tokens if (w, lang) in lemma_of}
            out.append(
                _Title(
                    t.edition_id,
                    t.label,
                    tokens,
                    "".join(tokens),
                    _names_of(tokens),
                    term_key(t.norm),
                    lemmas,
                    general=not feature(t.label),
                )
            )
        # A last word many titles of an edition end with says what kind of feature it is,
        # not which ("Two-Headed Giant Variant", "Shared Team Turns Option", "Saga Cards"):
        # a reader names the feature without it. Not a section's: "Step" ends ten of them, but
        # "draw" alone does not name 504 Draw Step.
        kinds = Counter(
            (t.edition_id, names[-1]) for t in out for names in t.names if not t.general
        )
        for t in out:
            if t.general:
                continue
            for names in t.names:
                if len(names) > 1 and kinds[(t.edition_id, names[-1])] >= GENERIC_TITLE_WORD:
                    del names[-1]
        return out

    return per_index(db, "feature_titles:" + ",".join(map(str, editions)), build)


def _names_of(tokens: list[str]) -> list[list[str]]:
    """A title's words per script (_Title.names): its character runs, its other words."""
    runs: list[str] = []
    words: list[str] = []
    previous = False
    for token in tokens:
        charwise = is_charwise(token)
        if charwise and previous:
            runs[-1] += token
        elif charwise:
            runs.append(token)
        elif token not in STOP_WORDS:
            words.append(token)
        previous = charwise
    return [names for names in (runs, words) if names]


def _names(term: Term, word: str, lemma: str, typed: Sequence[str]) -> bool:
    """Is this title word (``lemma``: its lemma) the term itself (a character run: within
    the term's)? ``typed``: the query's words, folded."""
    if term.charwise:
        return any(word in alt for alt in term.alts)
    return (
        word in term.alts
        or word in term.lemmas
        or stem(word) in term.alts
        or (lemma != word and lemma in term.lemmas and _inflected(term, typed))
    )


def _inflected(term: Term, typed: Sequence[str]) -> bool:
    """Was the term typed inflected ("phased", lemma phase)? Only then does it name a title
    by a lemma they share: "beginning phase" is no question on Phasing."""
    return any(w not in term.lemmas and term_in(term, [w], w) for w in typed if term.lemmas)


def _in_preferred(plan: _Plan, edition: int) -> bool:
    info = plan.by_id.get(edition)
    return info is not None and any(same_language(info.language, p) for p in plan.preferred)


def newest_editions(plan: _Plan) -> set[int]:
    """The editions whose texts are today's, among those searched (newest_editions_of)."""
    return newest_editions_of([plan.by_id[eid] for eid in plan.allowed])


def newest_editions_of(editions: list[EditionInfo]) -> set[int]:
    """The editions whose texts are today's: per language, the newest dated edition of each
    kind (rules, glossary; a glossary no older than those rules); a language with no dated edition (a scraped page) has only its
    undated ones. A text elsewhere is an older wording."""
    best: dict[tuple[str, str], tuple[str, int]] = {}
    undated: dict[str, list[int]] = {}
    for e in editions:
        eid = e.id
        if e.date:
            key = (e.language, e.kind)
            if key not in best or (e.date, eid) > best[key]:
                best[key] = (e.date, eid)
        else:
            undated.setdefault(e.language, []).append(eid)
    dated = {lang for lang, _k in best}
    # A glossary printed on its own is today's only when no rules edition of its language
    # is newer: those carry their own glossary (the 2006 glossary page is not today's beside
    # the 2026 rules).
    out = {
        eid
        for (lang, kind), (date, eid) in best.items()
        if kind == "rules" or date >= best.get((lang, "rules"), ("", 0))[0]
    }
    for lang, ids in undated.items():
        if lang not in dated:
            out |= set(ids)
    return out


def _naming_titles(
    parsed: ParsedQuery,
    terms: list[Term],
    live: list[_Candidate],
    samples: dict[int, int],
    clauses: dict[int, Any],
    lemma_rows: dict[int, list[str]],
) -> list[_Candidate]:
    """Headings and keyword rules (a title only: "702.19 Trample") whose words, by lemma,
    are the query's searched words, give or take one ("Step", "The")."""
    if terms and all(t.charwise for t in terms):
        key = _charwise_title(" ".join(t.alts[0] for t in terms))
        if len(key) < 2:
            return []
        # A title is short: the query's words, a kind word and the English name beside
        # them (トランプル／Trample) at most; longer texts are not folded to be compared.
        longest = 4 * len(key) + 16
        return [
            c
            for c in live
            if c.group.kind in ("heading", "rule")
            and c.group.language is not None
            and len(norm := clauses[samples[c.group.id]].norm) <= longest
            and _charwise_title(norm) == key
        ]
    wanted: list[set[str]] = [{*t.alts, *t.lemmas} for t in terms if not t.charwise]
    if not wanted or len(wanted) != len(terms) or len(wanted) > 4:
        return []
    out = []
    for c in live:
        if c.group.kind not in ("heading", "rule") or c.group.language is None:
            continue
        row = clauses[samples[c.group.id]]
        tokens = index_tokens(row.norm)
        if not tokens or len(tokens) > len(wanted) + 2:
            continue
        lemmas = lemma_rows.get(c.group.id) or tokens
        if len(lemmas) != len(tokens):
            lemmas = tokens
        words = [
            (t, lm)
            for t, lm in zip(tokens, lemmas, strict=True)
            if t not in STOP_WORDS and t not in QUESTION_WORDS
        ]
        covered = all(any(t in w or lm in w for t, lm in words) for w in wanted)
        extra = sum(1 for t, lm in words if not any(t in w or lm in w for w in wanted))
        if covered and extra <= 1 and (extra == 0 or len(wanted) > 1):
            out.append(c)
    return out


# The kind words a translation's title adds to a term, or a player's query to a title
# (folded): 서사시 카드 and 英雄譚・カード are Saga Cards; 커맨드 구역 and 統率領域 are the
# command zone, whose section both translations title 커맨드 and 統率, as English's is 408
# Command.
_CHARWISE_KIND_WORDS = ("카드", "구역", "カード", "领域")


def _charwise_title(text: str) -> str:
    """A title in Hangul, kana or Han as _naming_titles compares it: folded, without spaces,
    the English after a slash (702.19 トランプル／Trample, 돌진 Trample) or a kind word."""
    head = re.split("[／/]", text, maxsplit=1)[0]
    key = "".join(w for w in term_key(head).split() if not w.isascii())
    for kind in _CHARWISE_KIND_WORDS:
        if key.endswith(kind) and len(key) > len(kind):
            return key[: -len(kind)]
    return key


def _script(plan: _Plan) -> str | None:
    """The script a Chinese query is written in (zh-Hans or zh-Hant), when its spelling
    says so: that script's texts come before the other's."""
    if len(plan.preferred) == 1 and plan.preferred[0] in ("zh-Hans", "zh-Hant"):
        if plan.languages is None:
            return plan.preferred[0]
    return None


def _add_defining_rules(
    plan: _Plan,
    pool: dict[int, _Candidate],
    examined: set[int],
    exact: list[Group],
    tier: int = 1,
) -> None:
    """The rules an exact glossary entry points to ("See rule 405"), read in the newest
    edition holding the entry, join as the second tier (``tier`` 2: only join)."""
    db = plan.db
    load_members(db, exact, plan.allowed)
    entries = [_Candidate(g) for g in exact if g.members]
    if not entries:
        return
    # One entry per term and language: its newest wording (the 2006 glossary's "See rule
    # 217.6" is the old numbering, shown under its own entry, not a definition today).
    newest: dict[tuple[str, str], tuple[int, int]] = {}
    for c in entries:
        eid, cid = newest_member(c.group.members, plan.by_id)
        key = (c.group.language, term_key(c.group.term or ""))
        if key not in newest or (plan.by_id[eid].date or "", eid) > (
            plan.by_id[newest[key][0]].date or "",
            newest[key][0],
        ):
            newest[key] = (eid, cid)
    rows = load_clauses(db, [cid for _e, cid in newest.values()])
    wanted: list[tuple[int, str]] = []
    pointing: dict[tuple[int, str], set[tuple[str, str]]] = {}
    for key, (eid, cid) in newest.items():
        for ref in _refs(rows[cid].refs):
            if (eid, ref) not in wanted:
                wanted.append((eid, ref))
            pointing.setdefault((eid, ref), set()).add(key)
    clauses = clauses_labelled(db, wanted)
    if not clauses:
        return
    if tier == 1:
        _add_as_defining(plan, pool, examined, clauses)
        return
    # Only joining: which entries point to each rule is kept, for the ranking to raise the
    # rules of an entry that turns out to answer the whole question.
    languages = {e.id: e.language for e in plan.by_id.values()}
    by_clause = groups_by_clause(db, clauses, languages)
    for r in clauses:
        g = by_clause.get(r.id)
        if g is not None and (not plan.kinds or g.kind in plan.kinds):
            c = pool.setdefault(g.id, _Candidate(g))
            c.contained = True
            c.via = c.via | pointing.get((r.edition_id, r.label), set())
            examined.add(c.group.id)


def _add_as_defining(
    plan: _Plan, pool: dict[int, _Candidate], examined: set[int], clauses: list[Any]
) -> None:
    """These rules define the query's term: they and their first subrules (a section head
    says only its title: 405 "Stack"; 405.1 and 405.2 say what the stack is) join the
    second tier."""
    db = plan.db
    subrules = clauses_under(db, clauses, FIRST)
    languages = {e.id: e.language for e in plan.by_id.values()}
    by_clause = groups_by_clause(db, clauses + subrules, languages)
    named = {by_clause[c.id].id for c in clauses if c.id in by_clause}
    # Each first subrule's place under its rule (405.1, 405.2, 405.3), read in that order.
    place: dict[int, int] = {}
    seen: dict[tuple[int, str], int] = {}
    for r in subrules:
        n = seen[(r.edition_id, r.parent)] = seen.get((r.edition_id, r.parent), -1) + 1
        if r.id in by_clause:
            place.setdefault(by_clause[r.id].id, n)
    found = list({g.id: g for g in by_clause.values()}.values())
    new = [g for g in found if g.id not in pool or pool[g.id].tier == 2]
    for g in new:
        if g.id not in named:
            c = pool.setdefault(g.id, _Candidate(g))
            c.sub, c.order = True, place.get(g.id, FIRST)
    for g in new:
        c = pool.setdefault(g.id, _Candidate(g))
        c.tier = min(c.tier, 1)
        c.group = pool[g.id].group
    if plan.kinds:
        new = [g for g in new if g.kind in plan.kinds]
    examined |= {g.id for g in new}


def _add_named_rules(
    plan: _Plan,
    pool: dict[int, _Candidate],
    examined: set[int],
    clauses: list[Any],
    first: int = FIRST,
    order: int | None = None,
    defining: bool = True,
) -> None:
    """These rules, and their ``first`` subrules, join the candidates (only join: weighed
    as the texts of a term the question holds). With an ``order``, those new to the
    candidates read as subrules at that place (rank.Features.order). Not ``defining``
    (a section's rules): weighed on their words alone, as any text the query's words found,
    never read as defining the query's term."""
    db = plan.db
    rows = clauses + (clauses_under(db, clauses, first) if first else [])
    languages = {e.id: e.language for e in plan.by_id.values()}
    for g in groups_by_clause(db, rows, languages).values():
        if not plan.kinds or g.kind in plan.kinds:
            c = pool.get(g.id)
            if c is None:
                c = pool[g.id] = _Candidate(g)
                if order is not None:
                    c.sub, c.order = True, order
            c.contained = c.contained or defining
            examined.add(g.id)


def _refs(value: Any) -> list[str]:
    from ..store.sql import json_list

    return [str(r) for r in json_list(value)]


# The termbase's concept for the word "rule": its forms in a query holding a rule number cite
# that rule ("Regel 702.19b", "규칙 702.19b", "правило 107.3"), in the reader's language.
RULE_CONCEPT = "rule"


def _rule_languages(termbase: Termbase, word: str) -> list[str]:
    """The languages in which ``word`` is the word "rule" (none: another word)."""
    return [lang for concept, lang in sorted(termbase.lookup(word)) if concept == RULE_CONCEPT]


def _citing_languages(termbase: Termbase, words: Sequence[str]) -> list[str]:
    """The languages of the words for "rule" a citation is typed with: a German reader's
    "Regel 702.19b" is answered in German first, where the store has it."""
    return [lang for w in words for lang in _rule_languages(termbase, w)]


def _rule_search(
    session: Any,
    query: str,
    label: str,
    editions: list[EditionInfo],
    kinds: tuple[str, ...] | None,
    by_id: dict[int, EditionInfo],
    limit: int,
    first: Sequence[str] = (),
) -> SearchResult:
    """A rule number: that clause in every edition, identical texts grouped, by language
    (``first``, the languages of the citation's words, before the others), newest first
    within a language."""
    found = rule_groups(session, label, [e.id for e in editions], kinds)
    inferred = _inferred_groups(session, label, editions, kinds)
    found += inferred
    inferred_ids = {ids[0] for _lang, ids, _eds in inferred}
    # One hit per lineage (the stored alignments): the wordings a rule had under this
    # number are one hit, shown in the newest (702.19b's "his or her" is today's "their").
    newest = {
        ids[0]: newest_member(list(zip(eds, ids, strict=True)), by_id) for _l, ids, eds in found
    }
    heads = lineage_heads(session, [cid for _e, cid in newest.values()])
    merged: dict[tuple[str, int], list[tuple[str, list[int], list[int]]]] = {}
    for g in found:
        head = heads.get(newest[g[1][0]][1])
        merged.setdefault((g[0], head) if head else (g[0], -g[1][0]), []).append(g)
    # Today's text of the rule in every language first, then its older wordings, then what
    # the number meant before the 2009 renumbering (another rule): each by language,
    # newest first.
    today = newest_editions_of(editions)

    def place(lin: list[tuple[str, list[int], list[int]]]) -> int:
        eds = {e for g in lin for e in g[2]}
        if eds & today:
            return 0
        return 1 if any(not by_id[e].date or by_id[e].date >= RENUMBERING for e in eds) else 2

    def newest_date(lin: list[tuple[str, list[int], list[int]]]) -> str:
        return max(by_id[e].date or "" for g in lin for e in g[2])

    lineages_found = list(merged.values())
    for lin in lineages_found:
        lin.sort(key=lambda g: max(by_id[e].date or "" for e in g[2]), reverse=True)
    lineages_found.sort(key=newest_date, reverse=True)
    lineages_found.sort(
        key=lambda lin: (
            not any(same_tag(lin[0][0], lang) for lang in first),
            language_order(lin[0][0]),
        )
    )  # stable
    lineages_found.sort(key=place)
    shown = lineages_found[:limit]
    rows = load_clauses(session, [newest[g[1][0]][1] for lin in shown for g in lin])
    out: list[list[Ranked]] = []
    for n, lin in enumerate(shown):
        out.append([])
        for lang, ids, eds in lin:
            cid = newest[ids[0]][1]
            row = rows[cid]
            group = Group(cid, 0.0, lang, row.kind, row.term, list(zip(eds, ids, strict=True)))
            # Already in order: the score only has to fall with the rank.
            features = Features(True, 2, 1.0, True, 1.0, False, float(limit - n))
            if cid in inferred_ids:  # the aligner's label for a clause that prints none
                r = Ranked(group, features, row, [], False, label, True)
            else:
                r = Ranked(group, features, row, [], False, row.label, bool(row.label_inferred))
            r.head = heads.get(cid)
            out[-1].append(r)
    # A wording that today's rules hold under another number is shown as today's rule, with
    # the number asked for among the ones it had (107.3g of 2015 is 107.3h today); one with
    # no descendant today is marked obsolete.
    hits = make_hits(
        session, out, by_id, [], {e.id for e in editions}, newest_editions_of(editions)
    )
    return SearchResult(query, "rule", [label], hits)


def _inferred_groups(
    db: Any, label: str, editions: list[EditionInfo], kinds: tuple[str, ...] | None
) -> list[tuple[str, list[int], list[int]]]:
    """Unlabelled clauses the aligner labelled ``label`` at ingest (the Spanish page's
    subrules), as rule_groups gives its groups: (language, clause ids, edition ids)."""
    if kinds and "rule" not in kinds:
        return []
    from ..align.links import clauses_inferred_as

    ids = clauses_inferred_as(db, label)
    if not ids:
        return []
    wanted = {e.id: e for e in editions}
    rows = load_clauses(db, ids)
    return [
        (wanted[c.edition_id].language, [c.id], [c.edition_id])
        for c in rows.values()
        if c.edition_id in wanted and c.kind == "rule"
    ]
