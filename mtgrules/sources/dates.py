"""Dates an edition prints about itself: when its rules take effect, and, in a translation,
when it was translated.

One grammar per language, written from how each edition words its date line:

    en  These rules are effective as of January 16, 2026.
    fr  Ces règles sont en vigueur à compter du 16 janvier 2026.
    es  Estas reglas entran en vigor el 16 de enero de 2026.
    de  Diese Regeln gelten ab dem 16. Januar 2026.
    it  Queste regole sono in vigore dal 16 gennaio 2026.
    pt  Estas regras entram em vigor em 16 de janeiro de 2026.
    ru  Эти правила вступают в силу 16 января 2026 г.
    ja  このルールは2026年1月16日から有効です。
    ko  이 규칙은 2021년 11월 19일부터 시행됩니다.
    zh  此规则于2026年4月17日起生效。 / 此規則於2026年4月17日起生效。

A line is a *date line* when it holds a language's phrase for "takes effect" (or "was
translated") near a date; a date line whose date cannot be read (a misspelt month, the 31st
of April) is reported, never guessed: the edition stays undated. Digits may be full-width
(２０２６年), as CJK text often writes them. A new language is one more row of GRAMMARS.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass

# Longer than any real date line ("Estas reglas entran en vigor el 16 de enero de 2026."
# is 52 characters): a rules paragraph that happens to mention a date is not one.
MAX_DATE_LINE = 160


def _months(*names: str) -> dict[str, int]:
    """Month names, January first; a name may list its forms ("mai|may")."""
    out: dict[str, int] = {}
    for number, forms in enumerate(names, start=1):
        for form in forms.split("|"):
            out[form] = number
    return out


_MONTHS: dict[str, dict[str, int]] = {
    "en": _months(
        "january|jan", "february|feb", "march|mar", "april|apr", "may", "june|jun",
        "july|jul", "august|aug", "september|sept|sep", "october|oct", "november|nov",
        "december|dec",
    ),
    "fr": _months(
        "janvier", "février|fevrier", "mars", "avril", "mai", "juin", "juillet",
        "août|aout", "septembre", "octobre", "novembre", "décembre|decembre",
    ),
    "es": _months(
        "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
        "septiembre|setiembre", "octubre", "noviembre", "diciembre",
    ),
    "de": _months(
        "januar|jänner", "februar|feber", "märz|maerz", "april", "mai", "juni", "juli",
        "august", "september", "oktober", "november", "dezember",
    ),
    "it": _months(
        "gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
        "settembre", "ottobre", "novembre", "dicembre",
    ),
    "pt": _months(
        "janeiro", "fevereiro", "março|marco", "abril", "maio", "junho", "julho", "agosto",
        "setembro", "outubro", "novembro", "dezembro",
    ),
    # Russian dates put the month in the genitive ("16 января"); the nominative is accepted too.
    "ru": _months(
        "января|январь", "февраля|февраль", "марта|март", "апреля|апрель", "мая|май",
        "июня|июнь", "июля|июль", "августа|август", "сентября|сентябрь",
        "октября|октябрь", "ноября|ноябрь", "декабря|декабрь",
    ),
}  # fmt: skip

_W = r"[^\W\d_]+"  # a month name: letters of any script
_ISO = r"(?P<iso>\d{4}-\d{1,2}-\d{1,2})"
_CJK_DATE = r"(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*日"
_KO_DATE = r"(?P<y>\d{4})\s*년\s*(?P<m>\d{1,2})\s*월\s*(?P<d>\d{1,2})\s*일"


@dataclass(frozen=True)
class Grammar:
    """How one language words its date lines. ``effective`` and ``translated`` match a whole
    date line's phrase; their groups ``y``, ``m``/``month``, ``d`` (or ``iso``) hold the date.
    ``phrase`` alone (no date needed) says a line means to give the effective date."""

    language: str
    phrase: re.Pattern[str]
    effective: re.Pattern[str]
    translated: re.Pattern[str] | None = None


def _grammar(language: str, phrase: str, effective: str, translated: str | None = None) -> Grammar:
    flags = re.I
    return Grammar(
        language,
        re.compile(phrase, flags),
        re.compile(effective, flags),
        re.compile(translated, flags) if translated else None,
    )


GRAMMARS: tuple[Grammar, ...] = (
    _grammar(
        "en",
        r"\b(?:effective|current) (?:as of|from|on)\b",
        rf"\b(?:effective|current) (?:as of|from|on)\s+(?:(?P<month>{_W})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})|{_ISO})",
        rf"\btranslated\b[^.\n]{{0,40}}?\b(?:on|as of|in)?\s*(?:(?P<month>{_W})\.?\s+(?P<d>\d{{1,2}}),?\s+(?P<y>\d{{4}})|{_ISO})",
    ),
    _grammar(
        "fr",
        r"\ben vigueur\b|\bapplicables?\s+(?:à partir|à compter|au|dès)\b",
        rf"(?:en vigueur|applicables?)\s+(?:à compter du|à partir du|dès le|depuis le|au|le|du)\s+(?:(?P<d>\d{{1,2}})(?:er)?\s+(?P<month>{_W})\s+(?P<y>\d{{4}})|{_ISO})",
        rf"\btradui(?:t|te|ts|tes)\b[^\n]{{0,40}}?(?:le|du|au)\s+(?:(?P<d>\d{{1,2}})(?:er)?\s+(?P<month>{_W})\s+(?P<y>\d{{4}})|{_ISO})",
    ),
    _grammar(
        "es",
        r"\ben vigor\b|\bvigentes?\b",
        rf"(?:en vigor|vigentes?)\s+(?:a partir del|desde el|el|del)\s+(?:(?P<d>\d{{1,2}})\s+de\s+(?P<month>{_W})\s+(?:de|del)\s+(?P<y>\d{{4}})|{_ISO})",
        rf"\btraducid[oa]s?\b[^\n]{{0,40}}?(?:el|del)\s+(?:(?P<d>\d{{1,2}})\s+de\s+(?P<month>{_W})\s+(?:de|del)\s+(?P<y>\d{{4}})|{_ISO})",
    ),
    _grammar(
        "de",
        r"\b(?:gelten|gültig|in kraft)\b",
        rf"(?:gelten|gültig|in kraft)\s+(?:ab|seit|am|vom)\s+(?:dem\s+)?(?:(?P<d>\d{{1,2}})\.\s*(?P<month>{_W})\s+(?P<y>\d{{4}})|{_ISO})"
        rf"|\b(?:treten|tritt)\s+(?:am|ab)\s+(?:dem\s+)?(?:(?P<d2>\d{{1,2}})\.\s*(?P<month2>{_W})\s+(?P<y2>\d{{4}}))\s+in\s+kraft",
        rf"\bübersetzt\b[^\n]{{0,40}}?(?:am|im)\s+(?:(?P<d>\d{{1,2}})\.\s*(?P<month>{_W})\s+(?P<y>\d{{4}})|{_ISO})",
    ),
    _grammar(
        "it",
        r"\bin vigore\b|\bvalide\s+(?:dal|a partire)\b|\beffettive\b",
        rf"(?:in vigore|valide|effettive)\s+(?:a partire dal|a decorrere dal|dal|dall'|al)\s*(?:(?P<d>\d{{1,2}})(?:°|º)?\s+(?P<month>{_W})\s+(?P<y>\d{{4}})|{_ISO})",
        rf"\btradott[oaie]\b[^\n]{{0,40}}?(?:il|in data|al)\s+(?:(?P<d>\d{{1,2}})\s+(?P<month>{_W})\s+(?P<y>\d{{4}})|{_ISO})",
    ),
    _grammar(
        "pt",
        r"\bem vigor\b|\bvigentes?\b|\bválidas?\s+a partir\b",
        rf"(?:em vigor|vigentes?|válidas?)\s+(?:a partir de|a partir do dia|desde|em|no dia)\s+(?:(?P<d>\d{{1,2}})(?:º)?\s+de\s+(?P<month>{_W})\s+de\s+(?P<y>\d{{4}})|{_ISO})",
        rf"\btraduzid[oa]s?\b[^\n]{{0,40}}?(?:em|no dia)\s+(?:(?P<d>\d{{1,2}})\s+de\s+(?P<month>{_W})\s+de\s+(?P<y>\d{{4}})|{_ISO})",
    ),
    _grammar(
        "ru",
        r"\bвступают в силу\b|\bвступили в силу\b|\bдействуют\b|\bдействительны\b",
        rf"(?:вступают в силу|вступили в силу|действуют|действительны)\s+(?:с\s+)?(?:(?P<d>\d{{1,2}})\s+(?P<month>{_W})\s+(?P<y>\d{{4}})|{_ISO})",
        rf"\bпереведен[ыао]?\b[^\n]{{0,40}}?(?:(?P<d>\d{{1,2}})\s+(?P<month>{_W})\s+(?P<y>\d{{4}})|{_ISO})",
    ),
    # Japanese: "このルールは2026年1月16日から有効です", "2026年1月16日より施行"; the
    # Japanese pages name their version by the date of the rules: "（和訳 20260116.0 版）".
    _grammar(
        "ja",
        r"(?:から|より)\s*(?:有効|施行|適用)|和訳\s*\d{8}",
        rf"{_CJK_DATE}\s*(?:から|より)\s*(?:有効|施行|適用)"
        r"|和訳\s*(?P<y2>\d{4})(?P<m2>\d{2})(?P<d2>\d{2})(?:\.\d+)?\s*版",
        rf"(?:{_ISO}|{_CJK_DATE})\s*に\s*翻訳",
    ),
    # Korean: "이 규칙은 2021년 11월 19일부터 시행됩니다".
    _grammar(
        "ko",
        r"(?:부터|자로)\s*(?:시행|적용|유효|효력)",
        rf"{_KO_DATE}\s*(?:부터|자로)\s*(?:시행|적용|유효|효력)",
        rf"(?:{_ISO}|{_KO_DATE})\s*(?:에\s*)?번역",
    ),
    # Chinese, both scripts: "此规则于2026年4月17日起生效", "本規則自2026年4月17日起生效".
    _grammar(
        "zh",
        r"起\s*(?:生效|施行|实施|實施)",
        rf"(?:于|於|自|从|從)\s*{_CJK_DATE}\s*起\s*(?:生效|施行|实施|實施)",
        rf"(?:{_ISO}|{_CJK_DATE})\s*(?:翻译|翻譯)",
    ),
)


@dataclass(frozen=True)
class DateLine:
    """A line that gives a date: ``kind`` "effective" or "translated"; ``date`` None when the
    line means to give one but it cannot be read."""

    kind: str
    date: dt.date | None
    text: str


def _fold(text: str) -> str:
    # Full-width digits and spaces (２０２６年１月) as ASCII; only those characters change.
    if text.isascii():
        return text
    return "".join(
        unicodedata.normalize("NFKC", ch) if ch.isdigit() or ch == "\u3000" else ch for ch in text
    )


def _date_of(m: re.Match[str], language: str) -> dt.date | None:
    groups = {k: v for k, v in m.groupdict().items() if v is not None}
    for key in ("d", "m", "month", "y"):  # a second wording's groups: d2, m2, month2, y2
        if key not in groups and key + "2" in groups:
            groups[key] = groups[key + "2"]
    if "iso" in groups:
        y, mo, d = (int(p) for p in groups["iso"].split("-"))
        return _safe_date(y, mo, d)
    if "month" in groups:
        month = _MONTHS.get(language, {}).get(groups["month"].casefold().rstrip("."))
        if month is None:
            return None
    elif "m" in groups:
        month = int(groups["m"])
    else:
        return None
    return _safe_date(int(groups["y"]), month, int(groups["d"]))


def read_date_line(line: str) -> DateLine | None:
    """What date ``line`` gives, if it is a date line; None for any other line."""
    text = line.strip()
    if not text or len(text) > MAX_DATE_LINE or not any(ch.isdigit() for ch in text):
        return None
    folded = _fold(text)
    for grammar in GRAMMARS:
        if grammar.translated is not None and (m := grammar.translated.search(folded)):
            return DateLine("translated", _date_of(m, grammar.language), text)
        if (m := grammar.effective.search(folded)) is not None:
            return DateLine("effective", _date_of(m, grammar.language), text)
        if grammar.phrase.search(folded) and re.search(r"\d{4}", folded):
            # It says when the rules take effect, but not in a form the grammar reads.
            return DateLine("effective", None, text)
    return None


@dataclass
class EditionDates:
    """The dates an edition prints: when it takes effect, when it was translated, and a date
    line that could not be read (then the edition stays undated)."""

    effective: dt.date | None = None
    translated: dt.date | None = None
    unreadable: str | None = None


def find_dates(front: list[str], end: list[str]) -> EditionDates:
    """The dates in an edition's front matter (its lines before the rules) and end matter
    (after them). The front matter's effective date comes first: the official files print it
    under the title; a file that prints it last (the Japanese translation) is read from its
    end."""
    out = EditionDates()
    for lines in (front, list(reversed(end))):
        for line in lines:
            found = read_date_line(line)
            if found is None:
                continue
            if found.kind == "translated":
                out.translated = out.translated or found.date
            elif found.date is None:
                out.unreadable = out.unreadable or found.text
            elif out.effective is None:
                out.effective = found.date
    if out.effective is not None:
        out.unreadable = None
    return out


def find_effective_date(text: str) -> dt.date | None:
    """The first effective date any line of ``text`` gives, or None."""
    for line in text.splitlines():
        found = read_date_line(line)
        if found is not None and found.kind == "effective" and found.date is not None:
            return found.date
    return None


def _safe_date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None
