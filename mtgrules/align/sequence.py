"""Aligning two sequences of clauses: anchors, a monotonic backbone, DP in the gaps.

Used for whole editions (thousands of clauses) and for one rule across two editions or
languages (a dozen). The steps, cheapest first:

1. anchors: clauses with identical normalized text, and clauses with the same label whose
   content confirms it (a label alone never pairs two clauses);
2. the longest chain of anchors in the same order on both sides is the backbone; anchors off
   it are clauses that moved;
3. each gap between backbone anchors is aligned by dynamic programming (1-1, 1-0, 0-1, 1-2,
   2-1); large gaps are first cut by confident fuzzy anchors so the DP stays small;
4. what is still unpaired on both sides is matched across the whole sequence, best first,
   when the texts clearly agree (renumbered or moved clauses).
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process

from ..text.labels import parent_of
from ..text.language import same_language
from .dp import Step, align_monotonic
from .features import (
    Context,
    Features,
    contains,
    join_features,
    similarity,
    similarity_value,
)

# Same-language cells whose plain ratio is below this cannot pair (the bar is 0.6, a shared
# label adds 0.1), so the DP skips their full scoring, unless one text sits inside the other.
PRUNE_BELOW = 0.5

# rapidfuzz's threads for one matrix of ratios (process.cdist's ``workers``): every core
# (-1) for a process that aligns alone, as a read that aligns in memory does; one in a
# worker process of an ingest's pool (align/workers.py calls matrix_threads(1)), whose
# sibling processes already keep the other cores busy. There the threads only contended with
# them: on four corpus pairs (the 2009 renumbering among them), 2.37 s of CPU with one
# against 2.72 s with every core, for 2.37 s of wall time against 2.24 s in one process; the
# corpus ingest's alignments, three runs each alternating on 2 cores, 6.04-6.24 s against
# 6.55-6.88 s (bench_ingest.py).
_matrix_threads = -1


def matrix_threads(n: int) -> None:
    """Compute each matrix of ratios on ``n`` threads (-1: one per core)."""
    global _matrix_threads
    _matrix_threads = n


# A split or merge is tried only if one of its parts already reads somewhat like the other
# side: half of a clause scores at most 0.67 against the whole, and a real part of a split
# scores above 0.5 (measured on the 2009 renumbering: same pairs, half the time).
PRUNE_JOINED_BELOW = 0.5


@dataclass
class Item:
    """One clause (or glossary sentence) as the aligner sees it."""

    label: str | None
    kind: str
    features: Features
    key: object = None  # the caller's handle (a ClauseView, a sentence...)


@dataclass
class Settings:
    """The thresholds of one alignment: the cost of leaving a clause unpaired, and the scores at
    which a shared label, a near-exact anchor or a move pairs two clauses, within one language and
    across two."""

    # Cost of leaving a clause unpaired: two clauses pair when their score beats 1 - 2*skip.
    # Unrelated English rules still score 0.4-0.5 on character similarity, so the same
    # language needs a higher bar than a translation scored on symbols, terms and cognates.
    skip_same: float = 0.2
    skip_cross: float = 0.35
    # A shared label pairs two clauses only if their content scores at least this much.
    label_confirm_same: float = 0.5
    label_confirm_cross: float = 0.3
    # A translated clause under the same label whose content scores this much is anchored
    # without comparing its neighbours (a near-exact anchor).
    near_cross: float = 0.7
    # The two sequences number their clauses alike (an official translation and the English
    # of its date, a bilingual page): two clauses under different labels are then the same
    # rule only on strong content (the bar of a far move, move_cross_far). Without this, a
    # gap between anchors paired its clauses by position on uninformed scores (0.3-0.4 for
    # short headings), and a store showed zh 727 "Restarting the Game" beside en 724
    # "Ending Turns and Phases". `mtgrules align --check` flags such links.
    labels_agree: bool = False
    relabel_cross: float = 0.7
    relabel_same: float = 0.8
    label_bonus: float = 0.1
    # The least content score at which a shared label may pair two leftover translations.
    label_floor: float = 0.15
    move_support: int = 6
    move_cross_far: float = 0.7
    move_same: float = 0.6
    move_cross: float = 0.55
    max_gap_cells: int = 1600


def _same_text_language(a: Sequence[Item], b: Sequence[Item]) -> bool:
    if not a or not b:
        return False
    return same_language(a[0].features.language, b[0].features.language)


def longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest chain of (i, j) with i and j both increasing (pairs sorted by i)."""
    tails: list[int] = []
    tails_idx: list[int] = []
    prev = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        pos = bisect.bisect_left(tails, j)
        if pos == len(tails):
            tails.append(j)
            tails_idx.append(k)
        else:
            tails[pos] = j
            tails_idx[pos] = k
        prev[k] = tails_idx[pos - 1] if pos > 0 else -1
    out = []
    k = tails_idx[-1] if tails_idx else -1
    while k >= 0:
        out.append(pairs[k])
        k = prev[k]
    return out[::-1]


class SequenceAligner:
    def __init__(self, a: Sequence[Item], b: Sequence[Item], settings: Settings | None = None):
        self.a = list(a)
        self.b = list(b)
        self.settings = settings or Settings()
        self.same_language = _same_text_language(self.a, self.b)
        la = sum(x.features.length for x in self.a) or 1
        lb = sum(x.features.length for x in self.b) or 1
        self.ctx = Context(length_ratio=lb / la)
        self._cache: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[float, list[dict]]] = {}
        # Two clauses read as one (split and merge steps), built once per pair of neighbours:
        # their features are cached inside, and each is scored against several others.
        self._joined_a: dict[tuple[int, ...], Features] = {}
        self._joined_b: dict[tuple[int, ...], Features] = {}
        self._values: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
        # Anchors that are a split or a merge (a clause whose text holds the whole text of
        # several on the other side), by their first pair: (its a items, its b items).
        self._parts: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}

    @staticmethod
    def _joined(
        items: list[Item], cache: dict[tuple[int, ...], Features], ks: tuple[int, ...]
    ) -> Features:
        if len(ks) == 1:
            return items[ks[0]].features
        f = cache.get(ks)
        if f is None:
            f = cache[ks] = join_features([items[k].features for k in ks])
        return f

    # --- scoring -------------------------------------------------------------------------
    def score(
        self, ia: tuple[int, ...], ib: tuple[int, ...], ratio: float | None = None
    ) -> tuple[float, list[dict]]:
        key = (ia, ib)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        fa = self._joined(self.a, self._joined_a, ia)
        fb = self._joined(self.b, self._joined_b, ib)
        value, evidence = similarity(fa, fb, self.ctx, ratio=ratio)
        if len(ia) == 1 and len(ib) == 1:
            value, evidence = self._label_evidence(self.a[ia[0]], self.b[ib[0]], value, evidence)
        if self.a[ia[0]].kind != self.b[ib[0]].kind:
            value *= 0.8
            evidence = [*evidence, {"feature": "kind", "value": "differs"}]
        out = (max(0.0, min(1.0, value)), evidence)
        self._cache[key] = out
        return out

    def value(self, ia: tuple[int, ...], ib: tuple[int, ...]) -> float:
        """score(ia, ib)[0] without its evidence: the same number (the same arithmetic, the
        label bonus and the kind penalty included) for comparisons that only rank."""
        key = (ia, ib)
        hit = self._cache.get(key)
        if hit is not None:
            return hit[0]
        got = self._values.get(key)
        if got is not None:
            return got
        fa = self._joined(self.a, self._joined_a, ia)
        fb = self._joined(self.b, self._joined_b, ib)
        value = similarity_value(fa, fb, self.ctx)
        x, y = self.a[ia[0]], self.b[ib[0]]
        if (
            len(ia) == 1
            and len(ib) == 1
            and x.label is not None
            and x.label == y.label
            and not self._labels_unreliable()
        ):
            confirm = (
                self.settings.label_confirm_same
                if self.same_language
                else self.settings.label_confirm_cross
            )
            if value >= confirm:
                value += self.settings.label_bonus
        elif (
            len(ia) == 1
            and len(ib) == 1
            and x.label is not None
            and y.label is not None
            and self._relabel_refused(value)
        ):
            value = 0.0
        if x.kind != y.kind:
            value *= 0.8
        value = max(0.0, min(1.0, value))
        self._values[key] = value
        return value

    def _label_evidence(
        self, x: Item, y: Item, value: float, evidence: list[dict]
    ) -> tuple[float, list[dict]]:
        if x.label is None or y.label is None:
            return value, evidence
        if x.label == y.label:
            if self._labels_unreliable():
                return value, [*evidence, {"feature": "label", "value": "same-other-numbering"}]
            confirm = (
                self.settings.label_confirm_same
                if self.same_language
                else self.settings.label_confirm_cross
            )
            # The label counts only once the content agrees: a swapped or dropped clause in a
            # translation keeps its label but not its content.
            if value >= confirm:
                # The bonus steers the DP; the score reported is the content's ("content").
                return value + self.settings.label_bonus, [
                    *evidence,
                    {"feature": "label", "value": "same", "label": x.label, "content": value},
                ]
            return value, [*evidence, {"feature": "label", "value": "same-unconfirmed"}]
        if self._relabel_refused(value):
            return 0.0, [
                *evidence,
                {"feature": "label", "value": "differs", "numbering": "shared", "content": value},
            ]
        return value, [*evidence, {"feature": "label", "value": "differs"}]

    def _labels_unreliable(self) -> bool:
        """A translation aligned with an English edition of another date (no English of its
        own date in the store, or a report's fallback): rules were inserted in between, so
        one label names different rules on the two sides (2023's 723 is "Restarting the
        Game", 2026's is "Ending Turns and Phases"), and translated content scores too
        weakly to catch it. Labels are no evidence there; English editions of different
        dates still use them, checked against their (reliable) text similarity."""
        return not self.same_language and not self.settings.labels_agree

    def _relabel_refused(self, value: float) -> bool:
        """Two clauses under different labels, in sequences numbered alike, with content too
        weak to say the translation renumbered one of them."""
        if not self.settings.labels_agree:
            return False
        bar = self.settings.relabel_same if self.same_language else self.settings.relabel_cross
        return value < bar

    # --- steps ---------------------------------------------------------------------------
    def anchors(self) -> list[tuple[int, int, float, list[dict]]]:
        found: list[tuple[int, int, float, list[dict]]] = []
        used_a: set[int] = set()
        used_b: set[int] = set()
        if self.same_language:
            # Identical texts first (most of two consecutive editions), in order where a text
            # repeats; then texts identical but for their rule references, once on each side.
            by_text: dict[str, list[int]] = {}
            for j, y in enumerate(self.b):
                by_text.setdefault(y.features.fold, []).append(j)
            for i, x in enumerate(self.a):
                js = by_text.get(x.features.fold)
                if js:
                    j = js.pop(0)
                    found.append((i, j, 1.0, [{"feature": "text", "value": 1.0, "exact": True}]))
                    used_a.add(i)
                    used_b.add(j)
            for i, j, value, evidence in self._identical(used_a, used_b):
                found.append((i, j, value, evidence))
                used_a.add(i)
                used_b.add(j)
            for ia, ib, value, evidence in self._contained(used_a, used_b):
                found.append((ia[0], ib[0], value, evidence))
                if len(ia) > 1 or len(ib) > 1:
                    self._parts[(ia[0], ib[0])] = (ia, ib)
                used_a.update(ia)
                used_b.update(ib)
            found += self._within_parents(found, used_a, used_b)
        confirm = (
            self.settings.label_confirm_same
            if self.same_language
            else self.settings.label_confirm_cross
        )
        # Across editions of one language the neighbours cost a plain ratio each: always
        # checked there, since a label shifted by an insertion may still read alike.
        near = None if self.same_language else self.settings.near_cross
        if self._labels_unreliable():
            # A shared label says nothing here (no bonus either): only content that agrees as
            # well as a near-exact anchor's does anchors.
            confirm = self.settings.near_cross - self.settings.label_bonus
        by_label: dict[tuple[str, str], int] = {}
        for j, y in enumerate(self.b):
            if y.label is not None and j not in used_b:
                by_label.setdefault((y.kind, y.label), j)
        for i, x in enumerate(self.a):
            if x.label is None or i in used_a:
                continue
            j = by_label.get((x.kind, x.label))
            if j is None or j in used_b:
                continue
            value, evidence = self.score((i,), (j,))
            # A shared label is an anchor only when the content confirms it and no neighbour
            # fits better: across editions, labels shift when a clause is inserted. A
            # translation whose content agrees this well is taken as it is (near-exact): its
            # neighbours' scores would cost a dozen comparisons per clause and not change it.
            if value >= confirm + self.settings.label_bonus and (
                near is not None
                and value >= near + self.settings.label_bonus
                or self._locally_best(i, j, value)
            ):
                found.append((i, j, value, evidence))
                used_a.add(i)
                used_b.add(j)
        found.sort()
        return found

    def _identical(
        self, used_a: set[int], used_b: set[int]
    ) -> list[tuple[int, int, float, list[dict]]]:
        """Clauses not yet paired whose text (rule references aside, features.identity_of)
        occurs exactly once among them on each side: the same clause, whatever its label
        and neighbours. The renumbering of July 2009 rewrote every reference ("rule 309"
        became "rule 509"), so the "b" subrules of Reach, Shadow and Horsemanship read alike
        only once their references are set aside; by position they went to their
        neighbours."""

        def unique(items: list[Item], used: set[int]) -> dict[tuple[str, str], int]:
            seen: dict[tuple[str, str], int] = {}
            for k, x in enumerate(items):
                if k in used:
                    continue
                key = (x.kind, x.features.identity)
                if key[1]:
                    seen[key] = -1 if key in seen else k
            return seen

        once_a, once_b = unique(self.a, used_a), unique(self.b, used_b)
        out = []
        for key, i in once_a.items():
            j = once_b.get(key, -1)
            if i < 0 or j < 0:
                continue
            x, y = self.a[i].features, self.b[j].features
            if x.fold == y.fold:
                out.append((i, j, 1.0, [{"feature": "text", "value": 1.0, "exact": True}]))
                continue
            value, evidence = similarity(x, y, self.ctx)
            evidence = [*evidence, {"feature": "identical", "value": "rule references aside"}]
            out.append((i, j, value, evidence))
        return out

    def _contained(
        self, used_a: set[int], used_b: set[int]
    ) -> list[tuple[tuple[int, ...], tuple[int, ...], float, list[dict]]]:
        """Clauses whose whole text (rule references aside) sits inside exactly one clause of
        the other side not yet paired, and nowhere else: the parts of a split or a merge. In July 2009,
        505.6 became 708.6a-c, each the text of one of its sentences; 606.7a's first three
        sentences became 806.7a. The part that opens the longer clause is its continuation
        (505.6 is renumbered 708.6a); the others were split from it (or merged into it)."""
        out = []
        for flip in (False, True):
            whole, parts = (self.b, self.a) if flip else (self.a, self.b)
            used_whole, used_parts = (used_b, used_a) if flip else (used_a, used_b)
            free = {
                k: (parts[k].kind, parts[k].features.identity)
                for k in range(len(parts))
                if k not in used_parts
            }
            if not free:
                continue
            found = _contained_in(
                {
                    k: (whole[k].kind, whole[k].features.identity)
                    for k in range(len(whole))
                    if k not in used_whole
                },
                free,
            )
            # A whole with a nearly unchanged text on the other side is that text's: 102.3d
            # of May 2009 ("...loses the game the next time a player would receive
            # priority") is July's 104.3d, not 704.5c, which repeats only its opening.
            wholes = sorted(found)
            others = sorted(free)
            kept = {wholes[r] for r in range(len(wholes))} - {
                wholes[r]
                for _, r, _c in ratios_at_least(
                    [whole[w].features.fold for w in wholes],
                    [parts[k].features.fold for k in others],
                    NEARLY_UNCHANGED,
                )
            }
            for w, ps in found.items():
                if w not in kept:
                    continue
                ia, ib = (tuple(ps), (w,)) if flip else ((w,), tuple(ps))
                fa = self._joined(self.a, self._joined_a, ia)
                fb = self._joined(self.b, self._joined_b, ib)
                value, evidence = similarity(fa, fb, self.ctx)
                evidence = [
                    *evidence,
                    {"feature": "identical-part", "value": "rule references aside"},
                ]
                out.append((ia, ib, value, evidence))
                used_a.update(ia)
                used_b.update(ib)
        return out

    def _within_parents(
        self, anchors: list[tuple[int, int, float, list[dict]]], used_a: set[int], used_b: set[int]
    ) -> list[tuple[int, int, float, list[dict]]]:
        """The subrules of two paired rules (and the rules of two paired sections) are
        aligned among themselves first: siblings that read nearly alike go to the sibling
        of their own parent's partner. In 2018, "Restarting the Game" (717) became 718 and
        "Subgames" (718) became 719; their x.3 rules differ by three words, and by label
        and text alone 718.3 stayed 718.3 (the other one's). Parents pair by the anchors
        made so far (identical texts), and the pairs found here pair their own subrules in
        turn, a generation at a time. A pair is kept only if neither clause reads clearly
        better with a clause outside the two parents (2016's 711.5 is 2015's 701.25a, word
        for word, moved out of Transform): the parents decide between siblings, they do not
        hold back a rule that moved elsewhere. What the parents leave goes on to the rest
        of the aligner."""
        # Parents under one label need nothing of this: their children keep their labels, and
        # a shared label that the content confirms already anchors them (see anchors()).
        frontier = sorted(
            (
                (i, j)
                for i, j, _, _ in anchors
                if self.a[i].label and self.b[j].label and self.a[i].label != self.b[j].label
            ),
            key=lambda ij: len(self.a[ij[0]].label or ""),  # sections, then rules
        )
        if not frontier:
            return []
        children_a = _descendants(self.a)
        children_b = _descendants(self.b)
        pool_a = [k for k in range(len(self.a)) if k not in used_a]
        pool_b = [k for k in range(len(self.b)) if k not in used_b]
        out: list[tuple[int, int, float, list[dict]]] = []
        while frontier:
            proposed: list[tuple[int, int, float, list[dict]]] = []
            for i, j in frontier:
                ga = [k for k in children_a.get(self.a[i].label or "", ()) if k not in used_a]
                gb = [k for k in children_b.get(self.b[j].label or "", ()) if k not in used_b]
                if not ga or not gb:
                    continue
                for step in self._align_gap(ga, gb):
                    if step.a and step.b:
                        x, y = step.a[0], step.b[0]
                        proposed.append((x, y, _content(step.score, step.evidence), step.evidence))
                        if len(step.a) > 1 or len(step.b) > 1:  # a split or a merge
                            self._parts[(x, y)] = (step.a, step.b)
                        used_a.update(step.a)
                        used_b.update(step.b)
            frontier = []
            refused = self._better_elsewhere(proposed, pool_a, pool_b)
            for x, y, value, evidence in proposed:
                if (x, y) in refused:
                    ia, ib = self._parts.pop((x, y), ((x,), (y,)))
                    used_a.difference_update(ia)
                    used_b.difference_update(ib)
                    continue
                out.append((x, y, value, [*evidence, {"feature": "parents", "value": "paired"}]))
                if self.a[x].label != self.b[y].label:
                    frontier.append((x, y))
        return out

    def _better_elsewhere(
        self,
        proposed: list[tuple[int, int, float, list[dict]]],
        pool_a: list[int],
        pool_b: list[int],
    ) -> set[tuple[int, int]]:
        """The proposed pairs (x, y, content score) of which x or y has, among the clauses
        of ``pool_a``/``pool_b`` other than its partner, one whose plain text ratio beats the
        pair's content by ELSEWHERE_BETTER_BY, and which reads with nothing on x's (or y's)
        side better than with it.

        That last condition: a clause elsewhere that has a closer reading of its own is that
        one's, and says nothing about where x went. In 2025, Transform 701.28d became 701.27d
        and Convert 701.50d became 701.28d; each old d rule also reads 0.888 with 712.10, a
        rule on transforming or converting into an instant face, which is 2023's 712.10
        (0.933) reworded. Refused for 712.10's sake, 701.28d went to the Convert rule under
        its own label."""
        # Pairs grouped by the ratio that would beat them (most are nearly identical texts,
        # which nothing can beat): each group is one pass with its own cutoff.
        groups: dict[int, list[tuple[int, int, float]]] = {}
        for x, y, value, _ in proposed:
            bar = max(ELSEWHERE_FROM, value + ELSEWHERE_BETTER_BY)
            if bar <= 1.0:
                groups.setdefault(int(bar * 20), []).append((x, y, value))
        refused: set[tuple[int, int]] = set()
        for step, group in groups.items():
            for side, pool, other in ((0, pool_b, self.b), (1, pool_a, self.a)):
                mine, mine_pool = (self.a, pool_a) if side == 0 else (self.b, pool_b)
                rivals: list[tuple[float, int, int]] = []
                for ratio, r, c in ratios_at_least(
                    [mine[g[side]].features.fold for g in group],
                    [other[k].features.fold for k in pool],
                    step * 5,
                ):
                    x, y, value = group[r]
                    if pool[c] != (y if side == 0 else x) and ratio >= value + ELSEWHERE_BETTER_BY:
                        rivals.append((ratio, r, pool[c]))
                closer = self._closer_readings(rivals, group, side, mine, mine_pool, other)
                for _ratio, r, k in rivals:
                    if (r, k) not in closer:
                        x, y, _ = group[r]
                        refused.add((x, y))
        return refused

    @staticmethod
    def _closer_readings(
        rivals: list[tuple[float, int, int]],
        group: list[tuple[int, int, float]],
        side: int,
        mine: list[Item],
        mine_pool: list[int],
        other: list[Item],
    ) -> set[tuple[int, int]]:
        """Of ``rivals`` ((ratio, row of ``group``, clause k of ``other``): k reads that well
        with the row's clause on ``side``), those whose k reads better still with another
        clause of ``mine_pool``."""
        if not rivals:
            return set()
        ks = sorted({k for _, _, k in rivals})
        lowest = min(ratio for ratio, _, _ in rivals)
        best: dict[int, list[tuple[float, int]]] = {}
        for ratio, r, c in ratios_at_least(
            [other[k].features.fold for k in ks],
            [mine[m].features.fold for m in mine_pool],
            lowest * 100,
        ):
            best.setdefault(ks[r], []).append((ratio, mine_pool[c]))
        out = set()
        for ratio, r, k in rivals:
            own = group[r][side]
            if any(v > ratio and m != own for v, m in best.get(k, ())):
                out.add((r, k))
        return out

    def _locally_best(self, i: int, j: int, value: float) -> bool:
        # Two places either way catch a label shifted by one or two insertions. Where both
        # sides number alike nothing shifts: only the next clause could be the swapped or
        # merged one, and a translation's ten comparisons per anchor become six.
        reach = 1 if self.settings.labels_agree else 2
        for dj in range(-reach, reach + 1):
            if dj and 0 <= j + dj < len(self.b) and self.value((i,), (j + dj,)) > value:
                return False
        for di in range(-reach, reach + 1):
            if di and 0 <= i + di < len(self.a) and self.value((i + di,), (j,)) > value:
                return False
        if value < (0.9 if self.same_language else 0.7):
            # A clause that reads better joined with its neighbour is half of a merge or a
            # split (a translation that put two rules in one paragraph): leave it to the DP.
            joins = [((i,), (j - 1, j)), ((i,), (j, j + 1)), ((i - 1, i), (j,)), ((i, i + 1), (j,))]
            for ia, ib in joins:
                if min(ia + ib) < 0 or max(ia) >= len(self.a) or max(ib) >= len(self.b):
                    continue
                if self.value(ia, ib) > value:
                    return False
        return True

    def run(self) -> list[Step]:
        anchors = self.anchors()
        backbone = longest_increasing([(i, j) for i, j, _, _ in anchors])
        on_backbone = set(backbone)
        steps: list[Step] = []
        used_a = {i for i, _, _, _ in anchors}
        used_b = {j for _, j, _, _ in anchors}
        for i, j, v, e in anchors:
            ia, ib = self._parts.get((i, j), ((i,), (j,)))
            used_a.update(ia)
            used_b.update(ib)
            steps.append(Step(ia, ib, v, e, crossing=(i, j) not in on_backbone))
        bounds = [(-1, -1), *backbone, (len(self.a), len(self.b))]
        for (i0, j0), (i1, j1) in zip(bounds, bounds[1:], strict=False):
            ga = [i for i in range(i0 + 1, i1) if i not in used_a]
            gb = [j for j in range(j0 + 1, j1) if j not in used_b]
            steps.extend(self._align_gap(ga, gb))
        steps = self._pair_moved(steps)
        for step in steps:
            content = next((e["content"] for e in step.evidence if "content" in e), None)
            if content is not None:
                step.score = min(1.0, content)
        return order_steps(steps)

    def _align_gap(self, ga: list[int], gb: list[int]) -> list[Step]:
        if not ga and not gb:
            return []
        if not ga:
            return [Step((), (j,), 0.0) for j in gb]
        if not gb:
            return [Step((i,), (), 0.0) for i in ga]
        if len(ga) * len(gb) > self.settings.max_gap_cells:
            cut = self._fuzzy_anchors(ga, gb)
            if cut:
                out: list[Step] = []
                prev_i, prev_j = -1, -1
                for i, j, v, e in [*cut, (10**9, 10**9, 0.0, [])]:
                    sub_a = [x for x in ga if prev_i < x < i]
                    sub_b = [y for y in gb if prev_j < y < j]
                    out.extend(self._align_gap(sub_a, sub_b))
                    if i < 10**9:
                        out.append(Step((i,), (j,), v, e))
                    prev_i, prev_j = i, j
                return out
            if len(ga) * len(gb) > self.settings.max_gap_cells * 16:
                # Nothing to hold on to: leave the gap to the global moved-clause pass.
                return [Step((i,), (), 0.0) for i in ga] + [Step((), (j,), 0.0) for j in gb]

        quick: list[list[float]] | None = None
        if self.same_language and len(ga) * len(gb) > 16:
            # One vectorised pass of plain ratios: most cells of a gap are clearly unrelated,
            # and only cells that could pair (or join into a split/merge) get the full score.
            fold_a = [self.a[i].features.fold for i in ga]
            fold_b = [self.b[j].features.fold for j in gb]
            # As Python floats (the same values): the DP reads each cell several times, and
            # indexing a numpy array costs more than the comparison that follows.
            quick = process.cdist(
                fold_a, fold_b, scorer=fuzz.ratio, workers=_matrix_threads
            ).tolist()

        def local(ia: tuple[int, ...], ib: tuple[int, ...]) -> tuple[float, list[dict]]:
            if quick is not None:
                if len(ia) == len(ib) == 1:  # most cells: the same test, without the loops
                    x, y = ia[0], ib[0]
                    best = quick[x][y] / 100
                    if best < PRUNE_BELOW and not contains(fold_a[x], fold_b[y]):
                        return best, [{"feature": "text", "value": round(best, 3)}]
                    return self.score((ga[x],), (gb[y],), ratio=best)
                best = max(quick[x][y] for x in ia for y in ib) / 100
                if best < PRUNE_JOINED_BELOW and not any(
                    contains(fold_a[x], fold_b[y]) for x in ia for y in ib
                ):
                    return best, [{"feature": "text", "value": round(best, 3)}]
            return self.score(tuple(ga[k] for k in ia), tuple(gb[k] for k in ib))

        settings = self.settings
        move = settings.move_same if self.same_language else settings.move_cross
        skip = settings.skip_same if self.same_language else settings.skip_cross
        raw = align_monotonic(len(ga), len(gb), local, skip=skip, move_threshold=move)
        return [
            Step(
                tuple(ga[k] for k in s.a),
                tuple(gb[k] for k in s.b),
                s.score,
                s.evidence,
                crossing=s.crossing,
            )
            for s in raw
        ]

    def _fuzzy_anchors(self, ga: list[int], gb: list[int]) -> list[tuple[int, int, float, list]]:
        """Confident, mutually-best pairs inside a large gap, in order."""
        if not self.same_language:
            return self._mark_anchors(ga, gb)
        ta = [self.a[i].features.fold for i in ga]
        tb = [self.b[j].features.fold for j in gb]
        # Each row's and each column's best (the first on a tie), from the ratios >= 80 only.
        best_b: dict[int, tuple[float, int]] = {}
        best_a: dict[int, tuple[float, int]] = {}
        for value, r, c in ratios_at_least(ta, tb, 80):
            if r not in best_b or value > best_b[r][0]:
                best_b[r] = (value, c)
            if c not in best_a or value > best_a[c][0]:
                best_a[c] = (value, r)
        pairs = []
        for r in sorted(best_b):
            value, c = best_b[r]
            if value >= 0.85 and best_a[c][1] == r:
                pairs.append((ga[r], gb[c]))
        chain = longest_increasing(pairs)
        out = []
        for i, j in chain:
            v, e = self.score((i,), (j,))
            out.append((i, j, v, e))
        return out

    def _mark_anchors(self, ga: list[int], gb: list[int]) -> list[tuple[int, int, float, list]]:
        """Translations: inside a large gap (a glossary has no labels to anchor on), clauses
        whose symbols and rule references, which translators copy verbatim ("See rule
        701.33" / "参见规则701.33"), are the same and found once on each side, in order and
        confirmed by their score. Without them such a gap was left to the moved-clause pass,
        which scores every clause against sixty others."""

        def index(items: Sequence[Item], ks: list[int]) -> dict[tuple, list[int]]:
            out: dict[tuple, list[int]] = {}
            for k in ks:
                marks = items[k].features.marks
                if marks:
                    out.setdefault((items[k].kind, *sorted(marks.items())), []).append(k)
            return out

        by_a, by_b = index(self.a, ga), index(self.b, gb)
        pairs = sorted(
            (ia[0], by_b[key][0])
            for key, ia in by_a.items()
            if len(ia) == 1 and len(by_b.get(key, ())) == 1
        )
        confirm = self.settings.label_confirm_cross + self.settings.label_bonus
        out = []
        for i, j in longest_increasing(pairs):
            v, e = self.score((i,), (j,))
            if v >= confirm:
                out.append((i, j, v, [*e, {"feature": "anchor", "value": "marks"}]))
        return out

    def _pair_moved(self, steps: list[Step]) -> list[Step]:
        lone_a = [s.a[0] for s in steps if s.a and not s.b]
        lone_b = [s.b[0] for s in steps if s.b and not s.a]
        if not lone_a or not lone_b:
            return steps
        threshold = self.settings.move_same if self.same_language else self.settings.move_cross
        cands: list[tuple[float, int, int]] = []
        known: dict[tuple[int, int], float] = {}
        if self.same_language:
            ta = [self.a[i].features.fold for i in lone_a]
            tb = [self.b[j].features.fold for j in lone_b]
            # A plain ratio well below the bar cannot make it with a label bonus either.
            for value, r, c in ratios_at_least(ta, tb, threshold * 100 - 8):
                cands.append((value, lone_a[r], lone_b[c]))
            known = {(i, j): v for v, i, j in cands}
        else:
            # Scoring a translation pair costs far more than a string ratio: look for moved
            # clauses near where they were (in the order of the leftovers) or under their label.
            window = 30
            b_by_label: dict[str, list[int]] = {}
            for j in lone_b:
                if self.b[j].label:
                    b_by_label.setdefault(self.b[j].label, []).append(j)
            for r, i in enumerate(lone_a):
                near = lone_b[max(0, r - window) : r + window + 1]
                same = b_by_label.get(self.a[i].label or "", [])
                for j in dict.fromkeys([*near, *same]):
                    cands.append((self.score((i,), (j,))[0], i, j))
        cands.sort(key=lambda c: -c[0])
        used_a: set[int] = set()
        used_b: set[int] = set()
        if self.same_language:
            steps, joined = self._join_leftovers(steps, lone_a, cands)
            used_a |= joined
        moved: list[Step] = []
        for _, i, j in cands:
            if i in used_a or j in used_b:
                continue
            value, evidence = self.score((i,), (j,), ratio=known.get((i, j)))
            if value < threshold:
                continue
            if not self.same_language and self.a[i].label != self.b[j].label:
                # A translated clause found far from its place and under another label needs
                # more than a couple of shared terms to be believed.
                support = next((e["value"] for e in evidence if e["feature"] == "support"), 0)
                if support < self.settings.move_support or value < self.settings.move_cross_far:
                    continue
            used_a.add(i)
            used_b.add(j)
            moved.append(Step((i,), (j,), value, evidence, crossing=True))
        kept = [
            s
            for s in steps
            if not (
                (s.a and not s.b and s.a[0] in used_a) or (s.b and not s.a and s.b[0] in used_b)
            )
        ]
        return self._pair_same_label(kept + moved)

    def _join_leftovers(
        self,
        steps: list[Step],
        lone_a: list[int],
        cands: list[tuple[float, int, int]],
    ) -> tuple[list[Step], set[int]]:
        """A leftover clause of A that reads clearly better with a clause of B already paired
        one to one than with any leftover, and whose text joined with that pair's reads it
        better still, is a part of a merge far from its place, not a move: in 2023,
        2022-11-18's 712.15 (naming a face of a double-faced card) and 713.12 (naming a meld
        card) became one rule, 712.19. The DP pairs only neighbours as a merge; left over,
        713.12 was taken for the new 701.19j (search outside the game), which it resembles
        less (0.65 against 0.73). Returns the steps with those pairs joined, and the
        leftovers they took (their lone steps are dropped with the moved ones').

        Only merges: a split found so (a clause of B reading better with a paired clause of
        A) would also take a sentence the clause gained on the way for a part of it, and a
        map composed through it pairs an edition's clause with text written after it (2016's
        107.3h gained "If an object gains an ability..." and 2018 split it off as 107.3i;
        2009's 107.3g would have been split into today's 107.3i and 107.3j)."""
        best_move: dict[int, float] = {}
        for value, i, _j in cands:
            best_move.setdefault(i, value)
        partner = {s.b[0]: k for k, s in enumerate(steps) if len(s.a) == 1 and len(s.b) == 1}
        out = list(steps)
        taken: set[int] = set()
        if not lone_a or not partner:
            return out, taken
        ys = sorted(partner)
        best: dict[int, tuple[float, int]] = {}
        for ratio, r, c in ratios_at_least(
            [self.a[i].features.fold for i in lone_a],
            [self.b[y].features.fold for y in ys],
            self.settings.move_same * 100,
        ):
            i = lone_a[r]
            if ratio >= best_move.get(i, 0.0) + ELSEWHERE_BETTER_BY and (
                i not in best or ratio > best[i][0]
            ):
                best[i] = (ratio, ys[c])
        joined_steps: set[int] = set()  # a step joins one clause at most
        for i, (_, y) in sorted(best.items(), key=lambda kv: -kv[1][0]):
            k = partner[y]
            if k in joined_steps:
                continue
            step = out[k]
            single = _content(*self.score(step.a, step.b))
            ia = tuple(sorted((step.a[0], i)))
            value, evidence = self.score(ia, step.b)
            if value < single + ELSEWHERE_BETTER_BY:
                continue
            joined_steps.add(k)
            taken.add(i)
            out[k] = Step(
                ia,
                step.b,
                value,
                [*evidence, {"feature": "joined", "value": "far apart"}],
                crossing=step.crossing,
            )
        return out, taken

    def _pair_same_label(self, steps: list[Step]) -> list[Step]:
        """Translations only: two clauses left over with the same label and the same kind,
        whose content does not disagree, are the same clause whose wording gave the scorer
        little to hold on to (a short heading: "101 The Magic Golden Rules" / "101 万智牌的
        最高原则"). Across editions labels shift, so this never runs for one language, nor
        for a translation read against an English edition numbered otherwise."""
        if self.same_language or self._labels_unreliable():
            return steps
        lone_b = {
            (self.b[s.b[0]].kind, self.b[s.b[0]].label): s
            for s in steps
            if s.b and not s.a and self.b[s.b[0]].label
        }
        out, used = [], set()
        for s in steps:
            if s.a and not s.b and self.a[s.a[0]].label:
                other = lone_b.get((self.a[s.a[0]].kind, self.a[s.a[0]].label))
                if other is not None and id(other) not in used:
                    value, evidence = self.score(s.a, other.b)
                    if value >= self.settings.label_floor:
                        used.add(id(other))
                        out.append(
                            Step(s.a, other.b, value, [*evidence, {"feature": "label-only"}])
                        )
                        continue
            out.append(s)
        return [s for s in out if id(s) not in used]


# A part must say this much (identity tokens) to be taken for a part of another clause:
# "Reach is a static ability." sits inside many keyword rules.
PART_TOKENS_AT_LEAST = 8
# ...unless it has a text this alike (rapidfuzz ratio) on the other side: its continuation.
NEARLY_UNCHANGED = 92
_NGRAM = 4


# A pair found among the children of two paired parents gives way when one of its clauses
# reads better than this (rapidfuzz ratio / 100) with a clause elsewhere; a better reading
# below ELSEWHERE_FROM is no sign of a move.
ELSEWHERE_BETTER_BY = 0.05
ELSEWHERE_FROM = 0.7


def _content(score: float, evidence: list[dict]) -> float:
    """A step's score without the label bonus (the content score the evidence keeps)."""
    return next((e["content"] for e in evidence if "content" in e), score)


def _descendants(items: Sequence[Item]) -> dict[str, list[int]]:
    """Label -> the indexes of every labelled clause under it, in order: section 203 holds
    203.1, 203.1a, 203.2...; rule 203.1 holds 203.1a... (a whole subtree, so that a rule
    split into itself and a new subrule, 203.1 -> 202.1 + 202.1a in 2009, can be seen)."""
    out: dict[str, list[int]] = {}
    for k, x in enumerate(items):
        if x.label:
            for parent in _ancestors(x.label):
                out.setdefault(parent, []).append(k)
    return out


@lru_cache(maxsize=65536)
def _ancestors(label: str) -> tuple[str, ...]:
    """'107.3a' -> ('107.3', '107'): asked for every clause of every edition aligned, and
    editions share their labels."""
    out = []
    parent = parent_of(label)
    while parent:
        out.append(parent)
        parent = parent_of(parent)
    return tuple(out)


def _contained_in(
    wholes: dict[int, tuple[str, str]], parts: dict[int, tuple[str, str]]
) -> dict[int, list[int]]:
    """Which ``parts`` ((kind, identity key) by index) sit, as a whole run of tokens, inside
    exactly one of ``wholes`` of their kind (longer than they are) and are not repeated among
    the parts: whole -> its parts, in the order they sit in it. Only a whole that opens with
    one of its parts is given: a sentence from the middle of a long clause that became a
    rule of its own says nothing about where the rest went. So the wholes are found by
    their opening words first (one dictionary lookup per part), and only the few found are
    searched for the other parts."""
    repeats = Counter(parts.values())
    wanted = {
        k: (kind, key)
        for k, (kind, key) in parts.items()
        if key.count(" ") + 1 >= PART_TOKENS_AT_LEAST and repeats[(kind, key)] == 1
    }
    if not wanted or not wholes:
        return {}

    def opening(kind: str, key: str) -> tuple[str, ...]:
        return (kind, *key.split(" ", _NGRAM)[:_NGRAM])

    by_opening: dict[tuple[str, ...], list[int]] = {}
    for w, (kind, key) in wholes.items():
        by_opening.setdefault(opening(kind, key), []).append(w)
    opened = {
        w
        for kind, key in wanted.values()
        for w in by_opening.get(opening(kind, key), ())
        if len(wholes[w][1]) > len(key) and wholes[w][1].startswith(key + " ")
    }
    if not opened:
        return {}
    # Where each candidate part sits: it must sit in one whole only (all wholes count).
    everything = "\n".join(f" {key} " for _kind, key in wholes.values())
    found: dict[int, list[tuple[int, int]]] = {}
    for w in opened:
        kind_w, key_w = wholes[w]
        padded_w = f" {key_w} "
        for k, (kind, key) in wanted.items():
            if kind != kind_w or len(key) >= len(key_w):
                continue
            at = padded_w.find(f" {key} ")
            if at < 0:
                continue
            first = everything.find(f" {key} ")
            if everything.find(f" {key} ", first + 1) >= 0:
                continue  # sits in two wholes (or twice in one): no part of either
            found.setdefault(w, []).append((at, k))
    return {w: [k for _, k in sorted(ps)] for w, ps in found.items() if min(ps)[0] == 0}


def ratios_at_least(ta: list[str], tb: list[str], cutoff: float) -> list[tuple[float, int, int]]:
    """Every (ratio / 100, row, column) with fuzz.ratio(ta[row], tb[column]) >= cutoff, in row
    then column order: what one cdist of ta x tb would give, without comparing texts whose
    lengths alone rule it out. The ratio is at most 2 * min / (x + y) for lengths x and y,
    so a text is compared only with those whose length is within a factor of it; on the 2009
    renumbering's 678 x 1,005 leftovers that skips 38% of the pairs, the longest ones."""
    if not ta or not tb:
        return []
    lowest = cutoff / 100
    # min/max below k puts the ratio below the cutoff; a hair lower for float safety.
    k = lowest / (2 - lowest) * 0.999 if lowest > 0 else 0.0
    order_b = sorted(range(len(tb)), key=lambda c: len(tb[c]))
    lens_b = [len(tb[c]) for c in order_b]
    order_a = sorted(range(len(ta)), key=lambda r: len(ta[r]))
    found: list[tuple[float, int, int]] = []
    i = 0
    while i < len(order_a):
        shortest = len(ta[order_a[i]])
        j = i + 1
        # Rows of similar length share one matrix (a factor of 1.5 keeps the column range
        # narrow and the number of matrices small).
        while j < len(order_a) and len(ta[order_a[j]]) <= max(shortest, 1) * 1.5:
            j += 1
        rows = order_a[i:j]
        longest = len(ta[rows[-1]])
        c0 = bisect.bisect_left(lens_b, shortest * k)
        c1 = len(lens_b) if k == 0 else bisect.bisect_right(lens_b, longest / k)
        cols = order_b[c0:c1]
        if cols:
            matrix = process.cdist(
                [ta[r] for r in rows],
                [tb[c] for c in cols],
                scorer=fuzz.ratio,
                workers=_matrix_threads,
                score_cutoff=cutoff,
            )
            xs, ys = (matrix > 0).nonzero()
            found.extend(
                (float(matrix[x, y]) / 100, rows[x], cols[y])
                for x, y in zip(xs.tolist(), ys.tolist(), strict=True)
            )
        i = j
    found.sort(key=lambda t: (t[1], t[2]))
    return found


def order_steps(steps: list[Step]) -> list[Step]:
    """Side a's order; an inserted item goes just after the a-item paired before it on b."""
    b_to_a: dict[int, int] = {}
    for s in steps:
        if s.a and s.b:
            for j in s.b:
                b_to_a[j] = max(s.a)
    seen = sorted(b_to_a)
    # best[k]: the largest a-item paired with any of seen[:k] (a running maximum, so each
    # inserted item finds its place in log time, not by rescanning everything before it).
    best = [-1]
    for j in seen:
        best.append(max(best[-1], b_to_a[j]))

    def pos(s: Step) -> tuple[float, int, int]:
        if s.a:
            return (s.a[0], 0, s.b[0] if s.b else -1)
        prior = best[bisect.bisect_left(seen, s.b[0])]
        return (prior + 0.5, 1, s.b[0])

    return sorted(steps, key=pos)


def align_items(
    a: Sequence[Item], b: Sequence[Item], settings: Settings | None = None
) -> list[Step]:
    return SequenceAligner(a, b, settings).run()
