"""Monotonic alignment of two sequences by dynamic programming (Gale-Church style).

Steps are 1-1, 1-0 (deleted), 0-1 (inserted), 1-2 (split) and 2-1 (merge). The cost of a
1-1 step is 1 - score; a skipped item costs ``skip``, so two items are paired only when their
score beats 1 - 2*skip. A split or merge costs like a 1-1 step plus a skipped item plus a
small extra, so it wins only when the joined text reads clearly better than the single one.

After the monotonic pass, items left unpaired on both sides may still be the same clause
written in another place (a translation that swapped two clauses): those are paired across
the order ("crossing") when their score is high enough. Nothing here knows about rules or labels; the caller
passes a scoring function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

Score = tuple[float, list[dict]]
Scorer = Callable[[tuple[int, ...], tuple[int, ...]], Score]


@dataclass
class Step:
    """One step of an alignment: items of ``a`` paired with items of ``b`` (by index; an empty side
    is an item deleted or inserted), with the score and evidence of the pairing."""

    a: tuple[int, ...]
    b: tuple[int, ...]
    score: float
    evidence: list[dict] = field(default_factory=list)
    crossing: bool = False  # paired outside the monotonic order

    @property
    def shape(self) -> str:
        return f"{len(self.a)}-{len(self.b)}"


def align_monotonic(
    n: int,
    m: int,
    score: Scorer,
    *,
    skip: float = 0.35,
    merge_penalty: float = 0.1,
    allow_merge: bool = True,
    move_threshold: float = 0.55,
) -> list[Step]:
    """Best monotonic alignment of a[0:n] with b[0:m], then crossing pairs for leftovers."""
    inf = float("inf")
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    back: list[list[tuple[int, int, Score | None] | None]] = [
        [None] * (m + 1) for _ in range(n + 1)
    ]
    cost[0][0] = 0.0
    cache: dict[tuple[tuple[int, ...], tuple[int, ...]], Score] = {}

    def sc(ia: tuple[int, ...], ib: tuple[int, ...]) -> Score:
        key = (ia, ib)
        if key not in cache:
            cache[key] = score(ia, ib)
        return cache[key]

    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i][j]
            if here == inf:
                continue
            moves: list[tuple[int, int, float, Score | None]] = []
            if i < n and j < m:
                s = sc((i,), (j,))
                moves.append((1, 1, 1 - s[0], s))
            if i < n:
                moves.append((1, 0, skip, None))
            if j < m:
                moves.append((0, 1, skip, None))
            if allow_merge and i < n and j + 1 < m:
                s = sc((i,), (j, j + 1))
                moves.append((1, 2, 1 - s[0] + merge_penalty + skip, s))
            if allow_merge and i + 1 < n and j < m:
                s = sc((i, i + 1), (j,))
                moves.append((2, 1, 1 - s[0] + merge_penalty + skip, s))
            for di, dj, c, s in moves:
                total = here + c
                if total < cost[i + di][j + dj] - 1e-12:
                    cost[i + di][j + dj] = total
                    back[i + di][j + dj] = (di, dj, s)
    steps: list[Step] = []
    i, j = n, m
    while i > 0 or j > 0:
        entry = back[i][j]
        assert entry is not None
        di, dj, s = entry
        ia = tuple(range(i - di, i))
        ib = tuple(range(j - dj, j))
        steps.append(Step(ia, ib, s[0] if s else 0.0, s[1] if s else []))
        i, j = i - di, j - dj
    steps.reverse()
    return pair_leftovers(steps, score, move_threshold)


def pair_leftovers(steps: list[Step], score: Scorer, threshold: float) -> list[Step]:
    """Pair unmatched items across the monotonic order when they clearly match (best first)."""
    lone_a = [s.a[0] for s in steps if s.a and not s.b]
    lone_b = [s.b[0] for s in steps if s.b and not s.a]
    if not lone_a or not lone_b:
        return steps
    candidates = []
    for i in lone_a:
        for j in lone_b:
            s = score((i,), (j,))
            if s[0] >= threshold:
                candidates.append((s[0], i, j, s[1]))
    candidates.sort(key=lambda c: -c[0])
    used_a: set[int] = set()
    used_b: set[int] = set()
    moved: list[Step] = []
    for value, i, j, evidence in candidates:
        if i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        moved.append(Step((i,), (j,), value, evidence, crossing=True))
    if not moved:
        return steps
    kept = [
        s
        for s in steps
        if not ((s.a and not s.b and s.a[0] in used_a) or (s.b and not s.a and s.b[0] in used_b))
    ]
    # Keep the list in the order of side a, so readers see each moved pair where a had it.
    out = kept + moved
    out.sort(key=lambda s: (s.a[0] if s.a else _b_anchor(s, kept), 0 if s.a else 1))
    return out


def _b_anchor(step: Step, steps: list[Step]) -> float:
    """Where an inserted item sits in a's order: just after the a-item paired before it."""
    j = step.b[0]
    best = -0.5
    for s in steps:
        if s.a and s.b and max(s.b) < j:
            best = max(best, max(s.a) + 0.5)
    return best
