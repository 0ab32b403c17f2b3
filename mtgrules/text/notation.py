"""Notations that changed while the wording did not. The raw text always keeps what was printed.

- ``fold_old_mana``: the 2003-2004 editions wrote mana and tap symbols as ``{oW}``, ``{o1}``,
  ``{oT}`` (the "o" told the typesetting font to draw a symbol); later editions write ``{W}``,
  ``{1}``, ``{T}``. Same symbols, so ``normalize_text`` folds the old form.
- ``fold_ascii_typography``: the plain-text editions of 2006-2012 spell out in ASCII what the
  PDF, Word and RTF files of the same date print as typography: ``--`` or ``-`` for an em dash,
  ``(TM)``/``(R)`` for the trademark signs, ``<url>`` for a link. It is *not* part of
  ``normalize_text`` (a decision for whoever matches editions across formats); the format
  tests use it to compare a PDF with the .txt of its date, and say so.
- ``lost_characters``: a plain-text file saved through a code page that lacked a character
  writes "?" in its place. The archive's 2008-05-01.txt reads "cards?even" and "aren?t" where
  the other copy of that date reads "cards--even" and "aren't" (921 such "?"), 2009-05-01.txt
  69 times. That is damage to the file, not a change of the rules.
"""

from __future__ import annotations

import re

# {oW} {oU} {oB} {oR} {oG} {oX} {oY} {oZ} {oT} {o0}..{o20}: "o" then one symbol's code. Two
# to four characters keep "{of}" in a sentence (none in the rules, but cheap to respect)
# from being read as a symbol: only a capital letter or a number follows the "o".
_OLD_MANA = re.compile(r"\{o([A-Z]|[0-9]{1,2}|[A-Z]/[A-Z0-9])\}")


def fold_old_mana(text: str) -> str:
    """``{oX}`` -> ``{X}``: the 2003-2004 symbol notation, written as every later edition does."""
    if "{o" not in text:  # the common case costs one substring search
        return text
    return _OLD_MANA.sub(r"{\1}", text)


# An em dash, "--", or a hyphen with a space before it and a space or closing mark after
# it (the 2006 text file's "Artifact - Equipment" and "Choose one -"). A match starts only
# where a run of spaces starts ((?<!\s)): from inside the run it would scan the rest of it
# again, quadratic on a long one.
_EM_DASH = re.compile(r"(?<!\s)\s*(?:--|\u2014)\s*|(?<!\s)\s+-(?:\s+|(?=[\"'\u201d\u2019.,;)]))")
_TRADEMARK = re.compile(r"_?\((?:tm|TM)\)|(?<=[a-z])_?TM\b|\u2122")
_REGISTERED = re.compile(r"\((?:r|R)\)|\u00ae")
_COPYRIGHT = re.compile(r"\((?:c|C)\)|\u00a9")
_ANGLED_URL = re.compile(r"<((?:https?://|www\.)[^<>\s]+)>")


def fold_ascii_typography(text: str) -> str:
    """Fold the ASCII spellings of plain-text editions and their typographic forms together.

    An em dash, ``--`` or a spaced hyphen becomes "-" with no spaces (for one em dash the
    2006 text file writes "cards-even" and "Artifact - Equipment", the 2009-2012 ones
    "cards -- even", the RTF "cards\u2014even"); the trademark, registered and
    copyright signs and their ``(TM)``, ``(R)``, ``(C)`` spellings become the signs, and a link
    in angle brackets loses its brackets. Apply it to the raw text, before ``normalize_text``
    (which folds the em dash into a hyphen that could no longer be told from "turn-based")."""
    # Each pattern only where a character it needs is there (most texts have no "<", "--",
    # "TM" or "(c)"): diff compares 25,000 pairs of printings on a site build.
    if "<" in text:
        text = _ANGLED_URL.sub(r"\1", text)
    if "-" in text or "\u2014" in text:
        text = _EM_DASH.sub("-", text)
    if "TM" in text or "tm)" in text or "\u2122" in text:
        text = _TRADEMARK.sub("\u2122", text)
    if "(" in text or "\u00ae" in text or "\u00a9" in text:
        text = _REGISTERED.sub("\u00ae", text)
        text = _COPYRIGHT.sub("\u00a9", text)
    return text


# What a code page loses and writes "?" (or U+FFFD) for: typography outside ASCII. After the
# quotes and dashes are folded (normalize_text) they read as ASCII ' " -, so those count too;
# a "?" where the other copy has a full stop or a letter is a real difference.
_LOST_MARKS = "?\ufffd"


def _typographic(ch: str) -> bool:
    # Both copies may have lost a sign, not always the same one: "??" against '"?'.
    return (
        ch in "'\"-"
        or ch in _LOST_MARKS
        or (not ch.isascii() and not ch.isalnum() and not ch.isspace())
    )


def _skip_spaces(text: str, k: int) -> int:
    while k < len(text) and text[k].isspace():
        k += 1
    return k


def _next_char(text: str, k: int) -> str:
    k = _skip_spaces(text, k)
    return text[k] if k < len(text) else ""


def lost_characters(a: str, b: str) -> bool:
    """Do ``a`` and ``b`` differ, and only where one of them has "?" (or U+FFFD) for a quote,
    a dash or another typographic sign (up to three) of the other? Compare folded texts
    (fold_notation), so that the em dash of one copy and the "--" of another are one sign
    already. One pass over both texts: a mismatch must be a lost mark on one side facing
    typography on the other, with the spaces around them free."""
    if a == b or not any(m in a or m in b for m in _LOST_MARKS):
        return False
    i = j = 0
    lost_seen = False
    while i < len(a) or j < len(b):
        if i < len(a) and j < len(b) and a[i] == b[j]:
            i, j = i + 1, j + 1
            continue
        i, j = _skip_spaces(a, i), _skip_spaces(b, j)
        if (i, j) == (len(a), len(b)) or (i < len(a) and j < len(b) and a[i] == b[j]):
            continue  # a space more or less beside a lost sign ("Artifact ? Equipment")
        lost_seen = True
        for lost, other, k, m in ((a, b, i, j), (b, a, j, i)):
            if k < len(lost) and lost[k] in _LOST_MARKS:
                run = k
                while k < len(lost) and lost[k] in _LOST_MARKS:
                    k += 1
                # Each lost mark stood for one to three signs ("(R)" is one, folded): the
                # fewest after which both texts go on alike ('turn?-trig', 'turn"-trig').
                marks, top = k - run, m
                while top < len(other) and top - m < 3 * marks and _typographic(other[top]):
                    top += 1
                if top - m < marks:
                    return False
                after = _next_char(lost, k)
                end = next(
                    (e for e in range(m + marks, top + 1) if _next_char(other, e) == after), top
                )
                i, j = (k, end) if lost is a else (end, k)
                break
        else:
            return False
    return lost_seen
