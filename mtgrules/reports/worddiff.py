"""Word-level difference of two texts, as a list of operations a renderer can highlight."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

# difflib's own algorithm compiled (Cython, by rapidfuzz's author): the same opcodes and
# ratios as difflib.SequenceMatcher (checked on 6,337 token pairs of the corpus: every
# reworded clause of consecutive English editions, and Chinese pairs), 9.5x faster (0.27 s
# against 2.56 s); the 555 word diffs of an update took a sixth of its time.
from cydifflib import SequenceMatcher

from ..text.fold import HAN_CLASS

# Rule references (so "107.3h" -> "107.3i" reads whole), words, single symbols such as {X}
# or [-X], single CJK characters (Chinese has no spaces, so a character is the smallest unit
# a reader can see change), and the spaces between them.
_TOKEN = re.compile(
    rf"\d{{3}}\.\d+[a-z]?|\{{[^{{}}\s]{{1,6}}\}}|\[[+\-−]?[^\[\]\s]{{1,3}}\]|[{HAN_CLASS}]|[^\W_{HAN_CLASS}]+(?:['’][^\W_]+)*|\s+|.",
    re.UNICODE,
)


def tokenize(text: str) -> list[str]:
    return _TOKEN.findall(text)


def word_diff(a: str, b: str) -> list[dict[str, str]]:
    """Operations turning ``a`` into ``b``: {"op": "equal"|"delete"|"insert"|"replace", "a", "b"}.

    Concatenating every "a" gives ``a`` back and every "b" gives ``b``, so a renderer never
    loses text. Whitespace-only edits around a change are folded into the change, which keeps
    "he or she" -> "they" one replacement rather than three.
    """
    return [{"op": op, "a": x, "b": y} for op, x, y in _word_ops(a, b)]


# The same two wordings are compared again and again: a changelog compares each reworded
# clause once, and the history of that clause (trace) compares the same two texts again.
@lru_cache(maxsize=16384)
def _word_ops(a: str, b: str) -> tuple[tuple[str, str, str], ...]:
    ta, tb = tokenize(a), tokenize(b)
    ops: list[dict[str, str]] = []
    for tag, i1, i2, j1, j2 in _opcodes(ta, tb):
        sa, sb = "".join(ta[i1:i2]), "".join(tb[j1:j2])
        if tag == "equal" and ops and ops[-1]["op"] != "equal" and not sa.strip():
            # a lone space between two edits joins them
            ops[-1]["a"] += sa
            ops[-1]["b"] += sb
            continue
        if ops and ops[-1]["op"] != "equal" and tag != "equal":
            prev = ops[-1]
            prev["a"] += sa
            prev["b"] += sb
            prev["op"] = "replace" if prev["a"] and prev["b"] else prev["op"]
            continue
        ops.append({"op": tag, "a": sa, "b": sb})
    # Re-label merged runs: an edit with text on both sides is a replacement.
    for op in ops:
        if op["op"] != "equal":
            op["op"] = "replace" if op["a"] and op["b"] else ("delete" if op["a"] else "insert")
    return tuple((op["op"], op["a"], op["b"]) for op in ops)


def _opcodes(ta: list[str], tb: list[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib's opcodes from ``ta`` to ``tb``, with the tokens both share at the start and
    at the end set aside first: a rule reworded in one place is two long equal runs around
    a short edit, and difflib's longest-match search over the whole of both texts is what
    makes a site build slow (9,908 word diffs of the corpus: 3.7 s, 1.2 s trimmed; 92% of
    them come out identical, the others place a space on the other side of the edit)."""
    n = min(len(ta), len(tb))
    head = 0
    while head < n and ta[head] == tb[head]:
        head += 1
    tail = 0
    while tail < n - head and ta[-1 - tail] == tb[-1 - tail]:
        tail += 1
    ea, eb = len(ta) - tail, len(tb) - tail
    out: list[tuple[str, int, int, int, int]] = []
    if head:
        out.append(("equal", 0, head, 0, head))
    # autojunk off: long rules repeat "the" and "X" often; junk heuristics would hide edits.
    middle = SequenceMatcher(None, ta[head:ea], tb[head:eb], autojunk=False)
    for tag, i1, i2, j1, j2 in middle.get_opcodes():
        op = (tag, i1 + head, i2 + head, j1 + head, j2 + head)
        if tag == "equal" and out and out[-1][0] == "equal":
            out[-1] = ("equal", out[-1][1], op[2], out[-1][3], op[4])
        else:
            out.append(op)
    if tail:
        if out and out[-1][0] == "equal":
            out[-1] = ("equal", out[-1][1], len(ta), out[-1][3], len(tb))
        else:
            out.append(("equal", ea, len(ta), eb, len(tb)))
    return out


# Where a reader's "word" ends, for cutting an unchanged stretch: after a space, or after a
# CJK list mark. Chinese and Japanese write no spaces, and their long lists (205.3m's
# creature types: 参谋、乙太种、外星人、…) are items between enumeration commas.
_UNIT_END = re.compile(r"(?<=[\s、，；：・])")


def units(text: str) -> list[str]:
    """``text`` cut into reading units, each ending in its separator: "".join gives it back."""
    return [u for u in _UNIT_END.split(text) if u]


def condensed(ops: list[dict[str, str]], context: int = 8, head: int = 0) -> list[dict[str, str]]:
    """The same operations with long unchanged stretches cut to ``context`` words on each
    side of a change ("…" marks the cut): a one-word edit in the 300-word creature-type list
    reads as that edit, not as the list. ``head`` words of the clause's opening are kept as
    well, so that the reader sees which list it is. A "word" is a reading unit (see units):
    a list item in Chinese or Japanese."""
    if not changed(ops):
        return ops
    out: list[dict[str, str]] = []
    for k, op in enumerate(ops):
        if op["op"] != "equal":
            out.append(op)
            continue
        pieces = units(op["a"])
        # The space that follows a change is its own unit; it does not count as a word.
        lead = 1 if k > 0 and pieces and not pieces[0].strip() else 0
        after_change, before_change = k > 0, k < len(ops) - 1
        if len(pieces) - lead <= context * (after_change + before_change):
            out.append(op)
            continue
        kept = ""
        if after_change:
            kept = "".join(pieces[: lead + context])
        elif head and len(pieces) > head + context:
            kept = "".join(pieces[:head])
        text = kept + "…"
        if before_change:
            tail = pieces[-context:]
            gap = pieces[-context - 1]  # the unit just before the kept tail
            text += (" " if gap[-1].isspace() else "") + "".join(tail)
        out.append({"op": "equal", "a": text, "b": text})
    return out


def changed(ops: list[dict[str, str]]) -> bool:
    return any(op["op"] != "equal" for op in ops)


def summarize(ops: list[dict[str, str]], limit: int = 3) -> str:
    """A one-line gist: '"he or she" -> "they"; +"immediately before"'."""
    parts = []
    for op in ops:
        a, b = op["a"].strip(), op["b"].strip()
        if op["op"] == "replace":
            parts.append(f'"{a}" -> "{b}"')
        elif op["op"] == "delete":
            parts.append(f'-"{a}"')
        elif op["op"] == "insert":
            parts.append(f'+"{b}"')
    more = f" (+{len(parts) - limit} more)" if len(parts) > limit else ""
    return "; ".join(parts[:limit]) + more


def similarity(a: str, b: str) -> float:
    """Share of tokens kept, 0..1, on the same tokens the diff uses."""
    ta, tb = tokenize(a), tokenize(b)
    if not ta and not tb:
        return 1.0
    return SequenceMatcher(None, ta, tb, autojunk=False).ratio()


def as_json_ops(ops: list[dict[str, str]]) -> list[dict[str, Any]]:
    return [dict(op) for op in ops]
