"""Ancestors of a rule in editions written before it existed under its number.

Before July 2009 the X rule was 104.3c, and the glossary entry "X" held several rules in one
paragraph. Each rule clause of an older edition, and each sentence of its glossary entries,
is scored against the clauses of the rule in the oldest edition that has it, by weighted
word overlap (rare words and symbols count most; the IDF comes from that edition). A unit is
linked only when its best match among *all* rule clauses of that edition lies inside the
rule: a sentence about first strike that shares "multiple instances" with 107.3g goes to
702.7d instead, and is left out.
"""

from __future__ import annotations

import itertools
import math
import operator
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from ..store.queries import edition_clauses, list_editions
from ..text.fold import fold
from ..text.labels import rule_of
from ..text.language import is_english
from .model import Linked, Member

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

# Text is folded to lower case first; "[x]" (a placeholder in a template) is not "x".
_TOKEN = re.compile(r"\{[^}]+\}|\[[-+]?[0-9xyz]+\]|[a-z]{3,}|\b[xyz0-9]\b")
_STOP = {
    "the",
    "some",
    "and",
    "that",
    "this",
    "its",
    "for",
    "with",
    "any",
    "are",
    "has",
    "have",
    "been",
    "from",
    "into",
    "than",
    "then",
    "such",
    "was",
    "were",
    "not",
    "can",
    "may",
    "would",
}
MIN_SCORE = 0.25
# ...and share at least this many distinct words with the clause it links to: one rare
# word in common ("given") is chance, not lineage.
MIN_SHARED = 3
# "See X." says nothing by itself: a unit needs a few distinct words to be linked.
MIN_TOKENS = 3
# A glossary entry is read sentence by sentence only if, as a whole, it is about the rule:
# "Counters may also be given to players." is not a sentence of an entry about X.
WHOLE_ENTRY = 0.15
# A unit may link into the rule when its match there is nearly as good as its best match in
# the whole edition: 104.3c ("The symbol {X} represents...") fits 107.3a and 107.4b about
# equally, and it is the ancestor of both.
NEAR_BEST = 0.9


def _stem(word: str) -> str:
    # Crude English stemming is enough here: "choose/chooses", "abilities/ability".
    for suffix in ("ing", "ies", "ed", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


@lru_cache(maxsize=65536)
def _tokens(text: str) -> dict[str, int]:
    return dict(_count_tokens(text))


def tokens(text: str) -> dict[str, int]:
    """Token -> count. Shared by every caller of the same text (read it, never change it):
    a step's ancestry reads the tokens of two whole editions, and copies of them were a
    third of its time."""
    return _tokens(text)


# A word as a token ("" for a stop word): the rules use a few thousand distinct words, and
# stemming each of their 260,000 occurrences in a corpus ingest's lineage was a fifth of it.
_AS_TOKEN: dict[str, str] = {}


def _count_tokens(text: str) -> Counter[str]:
    out: Counter[str] = Counter()
    known = _AS_TOKEN
    for t in _TOKEN.findall(fold(text)):
        got = known.get(t)
        if got is None:
            got = known[t] = "" if t in _STOP else (_stem(t) if t.isalpha() else t)
        if got:
            out[got] += 1
    return out


# Sentences end at a full stop, question or exclamation mark (with any closing quote or
# bracket after it) followed by a space: the rules text has no abbreviations with a stop
# inside a sentence ("e.g." and "i.e." are not used; "X." ends a sentence: "the value of X.
# All Xs..."); an ellipsis (". . . .") is not a sentence end. Measured against spaCy's
# rule-based sentencizer, which this replaced so that no read loads spaCy:
# benchmarks/eval_sentences.py.
_END = re.compile(r"(?<=[.!?])([\"\u201d\u2019)\]]*)\s+(?!\.)")


def split_sentences(text: str) -> tuple[str, ...]:
    """A glossary paragraph's sentences, in order, stripped."""
    out = []
    start = 0
    for m in _END.finditer(text):
        piece = text[start : m.start() + len(m.group(1))].strip()
        if piece:
            out.append(piece)
        start = m.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return tuple(out)


@lru_cache(maxsize=4096)
def _sentences(text: str) -> tuple[str, ...]:
    return split_sentences(text)


def sentences(text: str) -> list[str]:
    return list(_sentences(text))


# Every token the lineage has met, numbered once per process: an edition's token counts are
# then two arrays (numbers, counts), made once per distinct text (older editions repeat each
# other's wording) and concatenated per edition.
_TOKEN_IDS: dict[str, int] = {}
_TOKEN_NAMES: list[str] = []


@lru_cache(maxsize=65536)
def _token_arrays(text: str):
    import numpy as np

    d = tokens(text)
    ids = _TOKEN_IDS
    for t in d:
        if t not in ids:
            ids[t] = len(_TOKEN_NAMES)
            _TOKEN_NAMES.append(t)
    return (
        np.fromiter((ids[t] for t in d), dtype=np.int64, count=len(d)),
        np.fromiter(d.values(), dtype=np.float64, count=len(d)),
    )


class WeightedOverlap:
    """Cosine of IDF-weighted token counts, IDF taken from one edition's rule clauses.

    Built with numpy from each text's token arrays: a whole-archive ingest builds one per
    edition step (110 of them, 2,000-5,000 clauses each), and building the vectors and
    postings dict by dict was a sixth of it. The figures are the same to the last bit: each
    weight is ``count * idf / norm`` in float64 as before, the IDF and the norms are summed
    in Python, in the same order (numpy's sums are pairwise, not left to right). A clause's
    vector (``vectors[k]``, a dict) is made when it is first asked for."""

    def __init__(self, texts: Sequence[str]):
        import numpy as np

        self.np = np
        n = len(texts)
        arrays = [_token_arrays(t) for t in texts]
        lengths = [len(a[0]) for a in arrays]
        tok = np.concatenate([a[0] for a in arrays]) if n else np.zeros(0, np.int64)
        counts = np.concatenate([a[1] for a in arrays]) if n else np.zeros(0)
        self._starts = [0, *itertools.accumulate(lengths)]
        self._tok = tok
        df = np.bincount(tok, minlength=len(_TOKEN_NAMES))
        present = np.flatnonzero(df).tolist()
        nn = n or 1
        idf = np.zeros(len(df))
        self.idf: dict[str, float] = {}
        for i, c in zip(present, df[present].tolist(), strict=True):
            idf[i] = self.idf[_TOKEN_NAMES[i]] = math.log((nn + 1) / (c + 0.5))
        self.default_idf = math.log(nn + 1)
        raw = counts * idf[tok]
        squares = (raw * raw).tolist()
        starts = self._starts
        norms = [math.sqrt(sum(squares[starts[k] : starts[k + 1]])) or 1.0 for k in range(n)]
        doc = np.repeat(np.arange(n, dtype=np.int64), lengths)
        self._weights = raw / np.array(norms)[doc] if n else raw
        # token -> (clauses that have it, its weight in each), clauses in order.
        order = np.argsort(tok, kind="stable")
        self._post_doc = doc[order]
        self._post_weight = self._weights[order]
        self._bounds = np.concatenate(([0], np.cumsum(df)))
        self.vectors = _Vectors(self._starts, tok, self._weights)

    def posting(self, t: str):
        """(clause indexes, weights) of token ``t`` in this edition, None if none has it."""
        i = _TOKEN_IDS.get(t)
        if i is None or i + 1 >= len(self._bounds):
            return None
        a, b = int(self._bounds[i]), int(self._bounds[i + 1])
        if a == b:
            return None
        return self._post_doc[a:b], self._post_weight[a:b]

    def weigh(self, d: Mapping[str, int]) -> dict[str, float]:
        idf, default = self.idf, self.default_idf
        v = {t: c * idf.get(t, default) for t, c in d.items()}
        x = list(v.values())
        norm = math.sqrt(sum(map(operator.mul, x, x))) or 1.0  # the same sum, term by term
        return {t: w / norm for t, w in v.items()}

    def score(self, v: dict[str, float], k: int) -> float:
        doc = self.vectors[k]
        return sum(x * doc.get(t, 0.0) for t, x in v.items())


class _Vectors:
    """WeightedOverlap.vectors: clause k's weights by token, made on first use. It holds the
    arrays, not the model: no reference cycle to wait for the collector (ingest pauses it)."""

    def __init__(self, starts: list[int], tok, weights):
        self.starts, self.tok, self.weights = starts, tok, weights
        self.made: dict[int, dict[str, float]] = {}

    def __len__(self) -> int:
        return len(self.starts) - 1

    def __getitem__(self, k: int) -> dict[str, float]:
        got = self.made.get(k)
        if got is None:
            a, b = self.starts[k], self.starts[k + 1]
            names = [_TOKEN_NAMES[i] for i in self.tok[a:b].tolist()]
            got = self.made[k] = dict(zip(names, self.weights[a:b].tolist(), strict=True))
        return got


def place_among(
    model: WeightedOverlap,
    v: dict[str, float],
    counts: Counter[str],
    text: str,
    base: list,
    candidates: list[int],
) -> tuple[int, float] | None:
    """Which of ``candidates`` (indexes of ``base``, the subrules of one rule) a unit of old
    text states, and how well. Subrules share most of their words ("the value of X is
    defined" / "isn't defined"): the wording read in place decides among them. None when the
    unit shares too few words with it to be its ancestor."""
    value, k = max(
        (0.5 * model.score(v, r) + 0.5 * fuzz.partial_ratio(text, base[r].norm) / 100, r)
        for r in candidates
    )
    if len(counts.keys() & tokens(base[k].norm).keys()) < MIN_SHARED:
        return None
    return k, value


class Postings:
    """The best clause of a whole edition for a unit, with numpy: one vector operation per
    token of the unit (a unit's common words have postings in a third of the edition;
    adding them up one by one in Python was most of a site build)."""

    def __init__(self, model: WeightedOverlap):
        self.np = model.np
        self.size = len(model.vectors)
        self.model = model

    def best(self, v: dict[str, float]) -> tuple[int, float]:
        acc = self.np.zeros(self.size)
        for t, x in v.items():
            p = self.model.posting(t)
            if p is not None:
                acc[p[0]] += x * p[1]  # a clause appears once per token: no repeated index
        k = int(acc.argmax())
        return k, float(acc[k])


Verdict = tuple[int, float, str | None]  # (index in base, score, best label in the edition)


class Judge:
    """Is a unit of older text (a rule, a sentence of a glossary entry) the ancestor of one
    of the ``targets`` (indexes of ``base``, the rule clauses of one edition), and of which?

    The one verdict shared by lineage (one rule against every older edition) and ancestry
    (every clause new in an edition against the edition before it). A unit is an ancestor
    when it has a few distinct words, its best target scores at least MIN_SCORE and nearly as
    well as its best clause in the whole edition (NEAR_BEST), and it shares MIN_SHARED words
    with the subrule it is placed on among the subrules of that target's rule (place_among).
    Each distinct text is judged once: older editions repeat each other's wording."""

    def __init__(self, model: WeightedOverlap, base: list, targets: list[int]):
        self.model = model
        self.base = base
        self.whole = Postings(model)
        # The targets' weights by token: a unit is scored against all of them in one pass
        # over its own tokens (2009-07-11 has 400 new clauses; most units share a few words),
        # one vector operation per token (numpy, as Postings).
        import numpy as np

        self.np = np
        lists: dict[str, tuple[list[int], list[float]]] = {}
        for k in sorted(targets):
            for t, w in model.vectors[k].items():
                got = lists.get(t)
                if got is None:
                    got = lists[t] = ([], [])
                got[0].append(k)
                got[1].append(w)
        self.postings = {
            t: (np.array(ks, dtype=np.int64), np.array(ws)) for t, (ks, ws) in lists.items()
        }
        self.size = len(base)
        self.by_rule: dict[str, list[int]] = {}
        for k in targets:
            self.by_rule.setdefault(rule_of(base[k].label or ""), []).append(k)
        self._verdicts: dict[str, Verdict | None] = {}
        self._about: dict[str, bool] = {}

    def nearest(self, v: dict[str, float]) -> tuple[float, int]:
        """The best target for a weighted unit: (score, index), (0.0, -1) when none shares
        a token with it."""
        acc = None
        for t, x in v.items():
            p = self.postings.get(t)
            if p is not None:
                if acc is None:
                    acc = self.np.zeros(self.size)
                acc[p[0]] += x * p[1]  # a target appears once per token: no repeated index
        if acc is None:
            return 0.0, -1
        k = int(acc.argmax())
        return float(acc[k]), k

    def about(self, entry: str) -> bool:
        """Is a glossary entry, as a whole, about one of the targets? Only such entries are
        split into sentences ("Counters may also be given to players." is not about X)."""
        got = self._about.get(entry)
        if got is None:
            got = self._about[entry] = (
                self.nearest(self.model.weigh(tokens(entry)))[0] >= WHOLE_ENTRY
            )
        return got

    def __call__(self, text: str) -> Verdict | None:
        if text in self._verdicts:
            return self._verdicts[text]
        self._verdicts[text] = None
        counts = tokens(text)
        if len(counts) < MIN_TOKENS:
            return None
        v = self.model.weigh(counts)
        # Cheap test against the targets first; most units stop here.
        near_value, nearest = self.nearest(v)
        if near_value < MIN_SCORE:
            return None
        best, best_value = self.whole.best(v)
        if near_value < NEAR_BEST * best_value:
            return None
        group = self.by_rule[rule_of(self.base[nearest].label or "")]
        placed = place_among(self.model, v, counts, text, self.base, group)
        if placed is None:
            return None
        k, value = placed
        self._verdicts[text] = (k, value, self.base[best].label)
        return self._verdicts[text]


def link_ancestors(
    session: Session,
    rule,
    editions,
    official_en,
    links,
    as_of,
    known: set | None = None,
    continued: set[int] | None = None,
) -> list:
    """Members (and links) for the rule's ancestors in editions older than the rule.
    ``known``: units (nodes) already in the rule's alignment, through stored links (the
    renumbered 502.70b of 2009-05-01 for 702.15b): neither they nor the sentences of a
    known glossary entry are judged again. ``continued``: clauses (ids) whose line has an
    older member already, through stored links."""
    known = known or set()
    continued = continued or set()
    if not official_en:
        return []
    oldest = official_en[0]
    oldest_date = oldest.info.date or ""
    have_rule = {e.info.id for e in editions}
    older = [
        e
        for e in list_editions(session, as_of)
        if is_english(e.language) and e.date and e.date < oldest_date and e.id not in have_rule
    ]
    if not older:
        return []
    base = [c for c in edition_clauses(session, oldest.info.id) if c.kind == "rule" and c.label]
    model = WeightedOverlap([c.norm for c in base])
    # A clause whose line goes on back in time through stored links (502.70b of 2009-05-01
    # before 702.15b) has its past: only the clauses new in that edition look for ancestors.
    in_rule = {
        k
        for k, c in enumerate(base)
        if any(c.id == r.id for r in oldest.clauses) and c.id not in continued
    }
    if not in_rule:
        return []
    extra: list = []
    judge = Judge(model, base, sorted(in_rule))
    for info in older:
        for c in edition_clauses(session, info.id):
            if (info.id, c.id, None) in known:
                continue
            if c.kind == "rule":
                units = [(None, c.norm)]
            elif c.kind == "glossary" and judge.about(c.norm):
                units = list(enumerate(sentences(c.norm)))
            else:
                continue
            for sentence, text in units:
                verdict = judge(text)
                if verdict is None:
                    continue
                k, value, best_label = verdict
                target = base[k]
                node = (info.id, c.id, sentence)
                evidence = [
                    {"feature": "via", "value": "lineage", "edition": oldest.info.id},
                    {"feature": "weighted-overlap", "value": round(value, 3)},
                    {"feature": "best-in-edition", "value": best_label},
                ]
                if sentence is not None:
                    evidence.append({"feature": "sentence", "value": sentence, "text": text})
                links[node] = Linked((oldest.info.id, target.id, None), value, evidence)
                extra.append(
                    (
                        node,
                        Member(
                            edition=info.id,
                            clause_id=c.id,
                            label=c.label,
                            label_inferred=False,
                            kind=c.kind,
                            text=text,
                            score=value,
                            evidence=evidence,
                            sentence=sentence,
                            term=c.term,
                            linked_to=target.id,
                        ),
                    )
                )
    return extra
