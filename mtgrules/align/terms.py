"""Glossary terms across languages and scripts: the folded key of a term, the forms an
English term is known by, and the English a translated heading keeps.

A translated glossary is sorted in its own language's order, so its entries are paired by
term, never by place: by the English term many translations keep beside their own (the
Japanese "相棒（あいぼう）／Companion", the Korean keyword left in English), else by the evidence
align/glossary.py weighs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..store.queries import ClauseView
from ..text.fold import fold
from ..text.labels import RULE_REF
from ..text.normalize import normalize_text

_SPACES = re.compile(r"[\s_\-\u2010-\u2015]+")


def term_key(term: str | None) -> str:
    """A glossary term folded for matching: 'Activated Ability' = 'activated ability',
    curly and straight quotes alike, dashes and runs of spaces alike."""
    return _SPACES.sub(" ", fold(normalize_text(term or ""))).strip(" .")


# The English a translated heading keeps: after a slash ("相棒（あいぼう）／Companion"), or in
# brackets ("숨겨진 구역(hidden zone)"); letters of the Latin alphabet, with what joins words.
_KEPT = re.compile(r"[A-Za-z][A-Za-z0-9'’\-\s,/\[\]!.]*")
_SLASH = re.compile(r"[／/]")
# What tells homonyms apart in a translated heading ("Counter(v)", "Commander(2)"), and the
# English glossary's own mark of an old term.
_TAG = re.compile(r"\((?:obsolete|[a-z0-9]{1,2})\)", re.I)


def kept_english(term: str | None) -> str | None:
    """The English term a translated glossary heading keeps, or None: what follows its
    slash when it has one ("アクティブ・チーム（あくてぃぶちーむ）／Active Team" -> "Active
    Team"), else a term written in Latin letters alone ("Fateseal")."""
    if not term:
        return None
    parts = _SLASH.split(term, maxsplit=1)
    tail = parts[1] if len(parts) == 2 else term
    found = _KEPT.findall(tail)
    if not found:
        return None
    kept = max(found, key=len).strip(" ,/.")
    if len(parts) < 2 and len(kept) < len(term.strip()) * 0.9:
        return None  # a translated term with some Latin inside it, not a kept English one
    return kept or None


def term_forms(term: str | None) -> set[str]:
    """The forms an English term is known by: the whole term folded, and its first form
    ("Banding, \"Bands with Other\"" -> "banding"; "You, Your" and "You/Your" -> "you";
    "Interrupt (Obsolete)" -> "interrupt"), singular as well ("Turn-Based Actions")."""
    key = term_key(_TAG.sub("", term or ""))
    forms = {term_key(term), key}
    first = re.split(r"[,/]", key, maxsplit=1)[0].strip(" \"'[]")
    first = re.sub(r"^the ", "", first)
    forms.add(first)
    if first.endswith("s") and len(first) > 3:
        forms.add(first[:-1])
    return {f for f in forms if f}


def pair_by_kept_terms(
    english: Sequence[ClauseView], translated: Sequence[ClauseView]
) -> list[tuple[ClauseView, ClauseView, str]]:
    """(English entry, translated entry, the English term kept) for every translated entry
    whose heading keeps an English term of ``english``: the entry of exactly that term first,
    else of one of its forms; of homonyms ("Counter" the verb and the noun), the one citing
    more of the same rules. Each entry is used once."""
    by_form: dict[str, list[ClauseView]] = {}
    for en in english:
        for form in term_forms(en.term):
            by_form.setdefault(form, []).append(en)
    used: set[int] = set()
    out = []
    for tr in translated:
        kept = kept_english(tr.term)
        if not kept:
            continue
        exact = [en for en in by_form.get(term_key(kept), []) if en.id not in used]
        near = {
            en.id: en for f in term_forms(kept) for en in by_form.get(f, []) if en.id not in used
        }
        pool = exact or list(near.values())
        if len(pool) > 1:
            cited = set(RULE_REF.findall(tr.norm))
            pool.sort(key=lambda en: -len(set(RULE_REF.findall(en.norm)) & cited))
        if pool:
            used.add(pool[0].id)
            out.append((pool[0], tr, kept))
    return out
