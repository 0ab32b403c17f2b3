"""Notations that changed while the wording did not. The raw text always keeps what was printed.

- ``fold_old_mana``: the 2003-2004 editions wrote mana and tap symbols as ``{oW}``, ``{o1}``,
  ``{oT}`` (the "o" told the typesetting font to draw a symbol); later editions write ``{W}``,
  ``{1}``, ``{T}``. Same symbols, so ``normalize_text`` folds the old form.
- ``fold_ascii_typography``: the plain-text editions of 2006-2012 spell out in ASCII what the
  PDF, Word and RTF files of the same date print as typography: ``--`` or ``-`` for an em dash,
  ``(TM)``/``(R)`` for the trademark signs, ``<url>`` for a link. It is *not* part of
  ``normalize_text`` (a decision for whoever matches editions across formats); the format
  tests use it to compare a PDF with the .txt of its date, and say so.
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
    text = _ANGLED_URL.sub(r"\1", text)
    text = _EM_DASH.sub("-", text)
    text = _TRADEMARK.sub("\u2122", text)
    text = _REGISTERED.sub("\u00ae", text)
    return _COPYRIGHT.sub("\u00a9", text)


# What a plain-text file writes for a character its code page could not hold: "?" (the
# 2008-05-01 and 2009-05-01 .txt files: "cards?even", "can?t", "DCI?" for "DCI(R)") or, once
# decoded, U+FFFD ("El-Hajj\ufffdj" in a 2006 .txt). Around a lost spaced dash the spaces
# stay ("Artifact ? Equipment"), where the dash folds to "-" with none.
_LOST = "?\ufffd"


def _typographic(ch: str) -> bool:
    # Folded text (normalize_text, fold_ascii_typography): dashes are "-", quotes are ' and ";
    # any other character a code page can lose is outside ASCII (the signs, letters like "â").
    return ch in "-'\"" or not ch.isascii()


def _lost_dash(text: str, i: int) -> bool:
    # " ? " where the other text has the dash that fold_ascii_typography wrote as "-".
    return text[i] == " " and text[i + 1 : i + 2] in ("?", "\ufffd") and text[i + 2 : i + 3] == " "


def same_but_lost_characters(a: str, b: str) -> bool:
    """Are two folded texts (``normalize.fold_notation``) the same but for characters that one
    of them lost, a "?" or U+FFFD standing where the other has a dash, a quote, a sign or a
    letter outside ASCII? That is damage in the file that lost them (typography lost in a
    conversion to ASCII), not a change of wording: the 2008-05-01 .txt of the archive against
    another copy of that date differs in 1,173 clauses, every one so. One character stands
    for one ("?" for a word is a change), and " ? " for a spaced dash, which folds to "-"."""
    if a == b:
        return True
    if not any(ch in a or ch in b for ch in _LOST):
        return False
    i = j = 0
    while i < len(a) and j < len(b):
        x, y = a[i], b[j]
        if x == y or (x in _LOST and _typographic(y)) or (y in _LOST and _typographic(x)):
            i, j = i + 1, j + 1
        elif y == "-" and _lost_dash(a, i):
            i, j = i + 3, j + 1
        elif x == "-" and _lost_dash(b, j):
            i, j = i + 1, j + 3
        else:
            return False
    return i == len(a) and j == len(b)
