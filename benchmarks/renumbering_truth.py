"""A renumbering truth built from the raw rules files alone, independently of the aligner.

A *move* is a rule whose text, nearly unchanged, sits under another label in the next
edition: its best match there (rapidfuzz ratio >= 92 over the texts with rule references
set aside, since a renumbering rewrites every reference) is under another label, and that
match is clear of the runner-up on both sides (the next best candidate at least CLEAR points
lower, and the match is each text's best). Nothing of mtgrules is used: the files are
decoded and split into labelled lines here, so the truth cannot inherit a parser's or an
aligner's mistakes.

Also here: the identical-text rule's own check, as independent of the aligner. Two clauses
whose text (normalised, rule references aside) occurs exactly once on each side must be
paired.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from rapidfuzz import fuzz, process

NEAR = 92  # rapidfuzz ratio: the text is nearly unchanged
CLEAR = 3  # points the best match must lead the runner-up by

# A labelled line of the official text files: "107.3a Text", "107.3. Text", "502.70. Reach".
_LINE = re.compile(r"^(\d{3}\.\d{1,4}[a-z]?)\.?\s+(\S.*)$")
_REF = re.compile(r"(?<![0-9.])[0-9]{3}(?:\.[0-9]{1,4}[a-z]?)?(?![0-9])")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_WORDS = re.compile(r"[+\-]?[0-9x]+(?:/[+\-]?[0-9x]+)+|\{[^}\s]*\}|#|[^\W_]+")


def decode(data: bytes) -> str:
    """The text of an official file: UTF-16 or UTF-8 by BOM, else UTF-8, else Windows-1252."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252")


def labelled_lines(path: Path) -> dict[str, str]:
    """Label -> text of every labelled line (the first, when a label repeats), from the
    first rule on: the contents list before it has no subrule labels, only sections."""
    out: dict[str, str] = {}
    for line in decode(path.read_bytes()).splitlines():
        m = _LINE.match(line.strip())
        if m and m[1] not in out:
            out[m[1]] = m[2]
    return out


def comparable(text: str) -> str:
    """What the ratio compares: NFKC, lower case, straight quotes, references as '#'."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES).lower()
    return " ".join(_REF.sub("#", text).split())


def identity(text: str) -> str:
    """The identical-text key: words, numbers and symbols only, references as '#'."""
    text = unicodedata.normalize("NFKC", text).lower()
    return " ".join(_WORDS.findall(_REF.sub(" # ", text)))


def _best_two(query: str, labels: list[str], texts: list[str]) -> list[tuple[float, str]]:
    found = process.extract(query, texts, scorer=fuzz.ratio, limit=2, score_cutoff=NEAR - CLEAR)
    return [(score, labels[k]) for _, score, k in found]


def moves(a: dict[str, str], b: dict[str, str]) -> dict[str, str]:
    """Label in ``a`` -> label in ``b`` of every rule whose nearly unchanged text moved.

    A rule whose text is the same under the same label is not searched (most of an edition
    step); only one whose own label lost it or changed it is compared with every rule of the
    other edition."""
    ca = {k: comparable(v) for k, v in a.items()}
    cb = {k: comparable(v) for k, v in b.items()}
    la, ta = list(ca), list(ca.values())
    lb, tb = list(cb), list(cb.values())
    out: dict[str, str] = {}
    for label, text in ca.items():
        if cb.get(label) == text:
            continue
        best = _best_two(text, lb, tb)
        if not best or best[0][0] < NEAR or best[0][1] == label:
            continue
        if len(best) > 1 and best[1][0] > best[0][0] - CLEAR:
            continue
        target = best[0][1]
        back = _best_two(cb[target], la, ta)
        if back[0][1] != label or (len(back) > 1 and back[1][0] > back[0][0] - CLEAR):
            continue
        out[label] = target
    return out


def unique_identities(texts: list[tuple[int, str, str]]) -> dict[tuple[str, str], int]:
    """(kind, identity key) -> clause id, for the keys one clause alone has."""
    seen: dict[tuple[str, str], int] = {}
    for cid, kind, text in texts:
        key = (kind, identity(text))
        if key[1]:
            seen[key] = -1 if key in seen else cid
    return {k: v for k, v in seen.items() if v >= 0}
