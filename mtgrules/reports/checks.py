"""QA checks on aligned clauses, with severities, in the manner of Xbench and Okapi CheckMate.

Each check compares what can be compared without understanding the language: symbols,
numbers and rule references must survive translation; scraping damage, English left
untranslated, readers' notes and outdated source wordings are flagged for a human.
Errors are things a translator must fix; warnings need a look.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rapidfuzz import fuzz

from ..sources.damage import find_damage
from ..text.fold import fold
from ..text.labels import RULE_REF, SECTION_REF_PATTERN
from ..text.language import is_chinese, same_language, writing_of

ERROR = "error"
WARNING = "warning"

# Mana and loyalty symbols: {X}, {2/W}, [-X], [+1]. NFKC first, so the Chinese page's
# full-width ｛Ｘ｝ counts as {X}.
_SYMBOL = re.compile(r"\{[^{}\s]{1,6}\}|\[[+\-][^\[\]\s]{1,3}\]")
# A free number: not inside a symbol ({2/W}), a word (W2) or a decimal (1.5). Han characters
# may touch it ("视为0"), and a sentence's full stop may follow it ("is 0.").
_NUMBER = re.compile(r"(?<![A-Za-z0-9{\[/+\-])(?<!\d\.)\d+(?![A-Za-z0-9}\]/])(?!\.\d)")
# The English words a translation may write as a digit: "fifteen cards" -> "15枚",
# "the second time" -> "2回目", "a creature" -> "クリーチャー1体" (Japanese counts with a
# digit where English has an article), "doubling" -> "2倍にする", "reduced to nothing" -> "0".
_EN_NUMBER_WORDS: dict[str, frozenset[str]] = {
    str(n): frozenset(words.split())
    for n, words in enumerate(
        [
            "zero",
            "one single first once",
            "two second twice",
            "three third thrice",
            "four fourth",
            "five fifth",
            "six sixth",
            "seven seventh",
            "eight eighth",
            "nine ninth",
            "ten tenth",
            "eleven eleventh",
            "twelve twelfth",
            "thirteen thirteenth",
            "fourteen fourteenth",
            "fifteen fifteenth",
            "sixteen sixteenth",
            "seventeen seventeenth",
            "eighteen eighteenth",
            "nineteen nineteenth",
            "twenty twentieth",
        ]
    )
}
_EN_NUMBER_WORDS.update(
    {
        str(n): frozenset({w})
        for n, w in (
            (30, "thirty"),
            (40, "forty"),
            (50, "fifty"),
            (60, "sixty"),  # 100.2a: "at least sixty cards"
            (70, "seventy"),
            (80, "eighty"),
            (90, "ninety"),
            (100, "hundred"),
        )
    }
)
# Words that imply a number without naming it: a translation that counts with a digit
# writes it ("Every permanent has a controller" -> "コントローラーが1人存在する", "reduced to
# nothing" -> "0으로 줄고"). Only these explain a digit, and say nothing.
_EN_IMPLIED = {
    "0": frozenset("no none nothing nonzero".split()),
    # "the same object" is "1つのオブジェクト" (702.2f and each "Multiple instances of ... on
    # the same object are redundant" in ja-2026-01-16).
    "1": frozenset("a an each another same single".split()),
    "2": frozenset("both pair".split()),
}
# Multiplying verbs in any form: double, doubled, doubling, triples...
_EN_MULTIPLIERS = (("doubl", "2"), ("tripl", "3"), ("quadrupl", "4"))
# "more than two players" is "3人以上" (three or more) in Japanese, Korean and Chinese, and
# "greater than 0" is "1点以上"; "fewer than three" is "2以下".
_COMPARISONS = (
    (re.compile(r"\b(?:more|greater) than (\w+)", re.I), 1),
    (re.compile(r"\b(?:fewer|less) than (\w+)", re.I), -1),
)
# Chinese translations may write small numbers as numerals: 零 for 0 is the common case.
_HAN_DIGITS = dict(zip("零一二三四五六七八九十", [str(i) for i in range(11)], strict=True))
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
# A letter of any alphabet but the Latin one (Latin-1, Latin Extended A/B and Additional).
_NON_LATIN_LETTER = re.compile(r"[^\W\d_a-zA-Z\u00aa\u00b5\u00ba\u00c0-\u024f\u1e00-\u1eff]")
# Words a translator or reader uses to mark a note that is not part of the rule: the Korean
# "번역자 주-" (kormtgcr, "(번역자 주-대표적으로 카른으로 54장을 추방하고 …)" in 719.3) and the
# Japanese "訳注：" (mtgwiki) among them.
_MARKER_WORDS = (
    r"\b(?:N\.? ?d\.? ?T\.?|note du traducteur|nota del traductor|N\. del T\.|"
    r"translator'?s note|editor'?s note)\b|译注|譯註|譯按|译按|编者注|編者註|〔注|【注|"
    r"번역자\s?주|역자\s?주|역주(?=[\s:：-])|訳注|訳者注"
)
_COMMENTARY_MARKERS = re.compile(_MARKER_WORDS, re.I)
# Such a note in brackets: what the rule says is the text around it, so the note's numbers
# and references are the translator's, not numbers the rule added.
_BRACKETED_NOTE = re.compile(rf"[(（][^()（）]*?(?:{_MARKER_WORDS})[^()（）]*[)）]", re.I)
# Frequent English words that are not also French or Spanish words.
_ENGLISH_MARKERS = {
    "the",
    "of",
    "and",
    "that",
    "with",
    "its",
    "has",
    "is",
    "an",
    "if",
    "it",
    "this",
    "in",
    "any",
    "spell",
    "ability",
    "player",
    "cost",
    "value",
    "stack",
    "mana",
    "which",
    "they",
}


@dataclass
class Finding:
    """One QA finding: a check's error or warning on a clause of ``edition``, reported under a rule
    (``key``), with the clause's own label."""

    edition: int
    key: str | None
    severity: str
    check: str
    message: str
    label: str | None = None

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _nfkc(text: str) -> str:
    if text.isascii():
        return text  # NFKC leaves ASCII as it is
    return unicodedata.normalize("NFKC", text).replace("−", "-")


# Each section reference (SECTION_REF) holds a lone digit 1-9: a text without one holds
# none, and is spared that pattern's scan (the dearest step of the checks: 5,300 texts of
# an update).
_LONE_DIGIT = re.compile(r"(?<![0-9])[1-9](?![0-9])")
SECTION_REF = re.compile(SECTION_REF_PATTERN)
_DIGIT = re.compile(r"\d")


def symbols(text: str) -> Counter[str]:
    return _symbols(_nfkc(text))


def _symbols(nf: str) -> Counter[str]:
    return Counter(_SYMBOL.findall(nf))


def numbers(text: str) -> set[str]:
    """Free numbers ("0", "2"), not rule references and not digits inside symbols."""
    return _numbers(_nfkc(text))


def _numbers(nf: str) -> set[str]:
    if not _DIGIT.search(nf):
        return set()  # every pattern below needs a digit
    plain = RULE_REF.sub(" ", _SYMBOL.sub(" ", nf))
    if _LONE_DIGIT.search(plain):
        plain = SECTION_REF.sub(" ", plain)
    return set(_NUMBER.findall(plain))


def _value_of(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    return next((int(n) for n, ws in _EN_NUMBER_WORDS.items() if word.lower() in ws), None)


def _spelled_in(source: str) -> set[str]:
    """The numbers an English text gives in words, as digits: what a translation may write
    as a digit without adding a number ("fifteen" 15, "a" 1, "doubling" 2)."""
    words = {w.lower() for w in _WORD.findall(source)}
    out = {n for n, ws in _EN_NUMBER_WORDS.items() if words & ws}
    out |= {n for stem, n in _EN_MULTIPLIERS for w in words if w.startswith(stem)}
    return out


def _implied_in(source: str) -> set[str]:
    words = {w.lower() for w in _WORD.findall(source)}
    return {n for n, ws in _EN_IMPLIED.items() if words & ws}


def _compared(source: str) -> dict[str, str]:
    """Each number an English comparison names, and the one "N or more" / "N or fewer"
    says instead: "more than two" {"2": "3"}, "greater than 0" {"0": "1"}."""
    out: dict[str, str] = {}
    for pattern, step in _COMPARISONS:
        for m in pattern.finditer(source):
            value = _value_of(m[1])
            if value is not None and value + step >= 0:
                out[str(value)] = str(value + step)
    return out


def rule_refs(text: str, own_label: str | None = None) -> set[str]:
    return _rule_refs(_nfkc(text), own_label)


def _rule_refs(nf: str, own_label: str | None) -> set[str]:
    refs = set(RULE_REF.findall(nf))
    refs.discard(own_label or "")
    return refs


# Where the damage is, to quote it: the common shapes of a dropped symbol. Detection itself
# is sources.damage.find_damage, the same test ingest flags clauses with.
_LOST_AT = re.compile(
    r"\ban (?:or|in)\b|\bany in its\b|\bof is\b|\bun (?:ou|dans)\b|\btout dans\b|"
    r"\bde est\b|\bun (?:o|en)\b|\bincluant ,|\w [.,](?! \.)",
    re.I,
)


def _lost_snippet(text: str) -> str | None:
    if "lost-symbol" not in find_damage(text):
        return None
    m = _LOST_AT.search(text)
    if not m:
        return text[:40]
    # A few words either side, cut at spaces so that the quote reads.
    start = text.rfind(" ", 0, max(0, m.start() - 12)) + 1
    end = text.find(" ", min(len(text), m.end() + 6))
    return text[start : end if end != -1 else len(text)].strip()


def _fmt(items: Sequence[str] | Counter[str]) -> str:
    if isinstance(items, Counter):
        items = sorted(items.elements())
    return ", ".join(sorted(items)) or "none"


def check_clause(text: str, flags: Sequence[str], kind: str) -> list[tuple[str, str, str]]:
    """Checks needing only the clause itself: scraping damage and commentary."""
    out: list[tuple[str, str, str]] = []
    if "lost-symbol" in flags or (kind == "rule" and _lost_snippet(text)):
        snippet = _lost_snippet(text) or text[:40]
        out.append(
            (
                ERROR,
                "lost-text",
                f'text lost in scraping near "{snippet}": a symbol such as {{X}} was dropped '
                "with the page's images; take this clause from an official edition",
            )
        )
    if kind == "commentary":
        out.append(
            (
                WARNING,
                "commentary",
                f'a reader\'s note sits among the rule text ("{text[:40]}"); it is not part of '
                "the rules: keep it out of translations and translation memories",
            )
        )
    elif _COMMENTARY_MARKERS.search(text):
        out.append(
            (
                WARNING,
                "commentary",
                "the rule text holds a translator's or editor's note; move the note out of the rule",
            )
        )
    return out


def check_pair(
    source: str,
    target: str,
    *,
    source_lang: str,
    target_lang: str,
    source_label: str | None = None,
    target_label: str | None = None,
    target_flags: Sequence[str] = (),
) -> list[tuple[str, str, str]]:
    """Checks on a source clause (usually English) and the clause aligned with it.

    Clauses damaged in scraping skip the symbol count: their symbols are already reported
    as lost text, once, rather than as a second error for the same cause.
    """
    out: list[tuple[str, str, str]] = []
    target = _BRACKETED_NOTE.sub(" ", target)
    damaged = "lost-symbol" in target_flags or _lost_snippet(target) is not None
    # Each text normalised once for the three counts below.
    src_nf, tgt_nf = _nfkc(source), _nfkc(target)
    src_syms, tgt_syms = _symbols(src_nf), _symbols(tgt_nf)
    if src_syms != tgt_syms and not damaged:
        # A symbol missing or added is an error; the same symbols a different number of
        # times is often the translator's grammar ("the value of {X}" -> "其值"): a warning.
        severity = ERROR if set(src_syms) != set(tgt_syms) else WARNING
        out.append(
            (
                severity,
                "symbols",
                f"symbols differ: source has {_fmt(src_syms)}, this text has {_fmt(tgt_syms)}",
            )
        )
    src_nums, tgt_nums = _numbers(src_nf), _numbers(tgt_nf)
    if is_chinese(target_lang):
        # A number the Chinese spells as a numeral (零) is carried over.
        tgt_nums |= {d for ch, d in _HAN_DIGITS.items() if ch in target and d in src_nums}
    implied = _implied_in(source) if src_nums != tgt_nums else set()
    if src_nums != tgt_nums and (src_nums - tgt_nums or not tgt_nums - src_nums <= implied):
        # "two" in the source and "2" in the translation is the same number, written the
        # way each language's style guide wants: worth a look, not an error.
        compared = _compared(source)
        named = _spelled_in(source) | set(compared.values())
        added = tgt_nums - src_nums - named - implied
        lost = {n for n in src_nums - tgt_nums if compared.get(n) not in tgt_nums}
        out.append(
            (
                WARNING if not added and not lost else ERROR,
                "numbers",
                f"numbers differ: source has {_fmt(src_nums)}, this text has {_fmt(tgt_nums)}",
            )
        )
    src_refs = _rule_refs(src_nf, source_label)
    tgt_refs = _rule_refs(tgt_nf, target_label)
    if src_refs != tgt_refs:
        out.append(
            (
                ERROR,
                "rule-references",
                f"rule references differ: source cites {_fmt(src_refs)}, "
                f"this text cites {_fmt(tgt_refs)}",
            )
        )
    if not same_language(target_lang, source_lang) and _untranslated(target, target_lang):
        out.append(
            (
                ERROR,
                "untranslated",
                f"this {target_lang} text is still English; translate it from the source clause",
            )
        )
    return out


def _untranslated(target: str, target_lang: str) -> bool:
    if writing_of(target_lang) != "latin":
        # A Chinese, Japanese, Korean or Russian clause with no letter of another alphabet
        # than the Latin one was left in English. Counting English words would not do: the
        # Japanese quotes the English wording of a term beside its own
        # ("「望む数／any number」を選ばせる"), and its words are not cut at spaces.
        return len(target) > 20 and not _NON_LATIN_LETTER.search(target)
    words = [w.lower() for w in _WORD.findall(target)]
    if len(words) < 4:
        return False
    english = sum(1 for w in words if w in _ENGLISH_MARKERS)
    return english / len(words) > 0.12


# --- which English wording does a translation follow? ---


def _stem(word: str) -> str:
    return fold(word)[:8]


def _cognate(a: str, b: str) -> bool:
    """'inmediatamente' ~ 'immediately', 'alternatif' ~ 'alternative'."""
    return len(a) >= 5 and len(b) >= 5 and fuzz.ratio(_stem(a), _stem(b)) >= 75


def _evidence_counts(text: str) -> Counter[str]:
    """Symbols and long words of a text: what survives translation between these languages."""
    nf = _nfkc(text)
    c: Counter[str] = Counter(_SYMBOL.findall(nf))
    c.update(w.lower() for w in _WORD.findall(_SYMBOL.sub(" ", nf)) if len(w) >= 5)
    return c


def follows_wording(
    translation: str, versions: Sequence[str], *, latin: bool = True, damaged: bool = False
) -> int | None:
    """Index of the English version the translation follows, or None when unsure.

    Only the words and symbols that differ between versions are counted: for each, how many
    times the translation carries it (a symbol, or a cognate), against how many times each
    version does. The version off by the fewest counts wins, if it wins clearly.
    """
    if len(versions) < 2:
        return None
    counts = [_evidence_counts(v) for v in versions]
    keys = set().union(*counts)
    varying = [k for k in keys if len({c[k] for c in counts}) > 1]
    if not varying:
        return None
    t = _evidence_counts(translation)
    t_words = [w for w in t.elements() if not w.startswith(("{", "["))]
    have: dict[str, int] = {}
    for k in varying:
        if k.startswith(("{", "[")):
            # Symbols must be carried over, so their absence counts too, unless scraping
            # dropped them: then absence says nothing about the wording followed.
            if not damaged:
                have[k] = t[k]
        elif latin:
            n = sum(1 for w in t_words if _cognate(w, k))
            # A missing cognate proves nothing (the translator may use another word);
            # a present one does.
            if n:
                have[k] = n
    if not have:
        return None
    costs = [sum(abs(have[k] - c[k]) for k in have) for c in counts]
    best = min(costs)
    # Several versions may fit equally (the difference that tells them apart was not
    # translated with a cognate): the newest of them is the kindest answer.
    return max(i for i, cost in enumerate(costs) if cost == best)
