"""The sentence split of glossary paragraphs (align/lineage.py) against spaCy's rule-based
sentencizer, on every glossary paragraph of the stores given (the bundled corpus, the
archive): how many paragraphs both split the same way, and the time each takes (spaCy's
import and pipeline included, as a read that needed it paid them).

Run: .venv/bin/python benchmarks/eval_sentences.py [--db STORE ...]
(default: a temporary store of the bundled corpus; add --db of an archive store made with
`mtgrules --db /tmp/a.sqlite ingest --archive` for the archive's 110 editions)

The split read before: spaCy's sentencizer, each of its sentences cut again where a full
stop, a question mark or a closing bracket or quote is followed by a capital (``_BREAK``:
spaCy keeps "the value of X. All Xs" together, reading "X." as an abbreviation).
"""

from __future__ import annotations

import argparse
import re
import time

from corpus_store import corpus_store

from mtgrules.align.lineage import split_sentences
from mtgrules.store import open_store, session_scope
from mtgrules.store.sql import fetch

# The split before this change, kept here as the baseline (lineage.py reads no spaCy).
_BREAK = re.compile(r"(?<=[.!?)\"])\s+(?=[A-Z(])")


def spacy_split(nlp, text: str) -> tuple[str, ...]:
    out = []
    for sent in nlp(text).sents:
        out.extend(p.strip() for p in _BREAK.split(sent.text) if p.strip())
    return tuple(out)


def mended(split: tuple[str, ...]) -> tuple[str, ...]:
    """spaCy's split with its one kind of mistake on this text undone: an opening quote or
    bracket of the next sentence left at the end of the sentence before it (a sentence
    ending '. "', or a sentence of its own, '(')."""
    out: list[str] = []
    carry = ""
    for piece in split:
        piece = carry + piece
        carry = ""
        if piece in ('"', "("):
            carry = piece
            continue
        opening = _DETACHED.search(piece)
        if opening:
            carry = opening.group(1)
            piece = piece[: opening.start(1)].rstrip()
        out.append(piece)
    if carry:
        out.append(carry)
    return tuple(out)


_DETACHED = re.compile(r"[.!?][\"\u201d)]*\s+([\"(])$")


def paragraphs(engine) -> list[str]:
    with session_scope(engine, write=False) as s:
        rows = fetch(s, "SELECT DISTINCT norm FROM clause WHERE kind = 'glossary'", plain=True)
    return [r[0] for r in rows if r[0]]


def evaluate(name: str, texts: list[str]) -> None:
    t0 = time.process_time()
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    theirs = [spacy_split(nlp, t) for t in texts]
    t_spacy = time.process_time() - t0
    t0 = time.process_time()
    ours = [split_sentences(t) for t in texts]
    t_ours = time.process_time() - t0
    same = sum(a == b for a, b in zip(theirs, ours, strict=True))
    same_mended = sum(mended(a) == b for a, b in zip(theirs, ours, strict=True))
    n_sent = sum(len(a) for a in theirs)
    print(
        f"{name}: {len(texts)} distinct glossary paragraphs ({n_sent} sentences by spaCy): "
        f"{same}/{len(texts)} split alike ({100 * same / max(1, len(texts)):.2f}%); "
        f"CPU spaCy (import + pipeline) {t_spacy:.3f} s, regex {t_ours:.4f} s "
        f"({t_spacy / max(t_ours, 1e-6):.0f}x)\n"
        f"  once spaCy's detached opening quotes and brackets are put back on the sentence "
        f"they open: {same_mended}/{len(texts)} alike ({100 * same_mended / max(1, len(texts)):.2f}%)"
    )
    shown = 0
    for text, a, b in zip(texts, theirs, ours, strict=True):
        if mended(a) != b and shown < 8:
            shown += 1
            print(f"  differs: {text[:160]!r}\n    spaCy: {a}\n    regex: {b}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", action="append", default=[], help="an ingested store")
    args = parser.parse_args()
    if not args.db:
        with corpus_store() as engine:
            evaluate("bundled corpus", paragraphs(engine))
        return
    for db in args.db:
        engine = open_store(db)
        try:
            evaluate(db, paragraphs(engine))
        finally:
            engine.dispose()


if __name__ == "__main__":
    main()
