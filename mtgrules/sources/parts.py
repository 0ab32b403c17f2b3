"""The parts of a rules text and the words that name them, in every language the rules are
published in (step 6, parse).

A full edition has front matter, a table of contents, the rules, a glossary and credits;
each language names those headings in its own words, and a translation may leave a part
out ("용어사전" followed by "<생략>": the glossary is omitted). A new language is a few more
words here (and its date grammar in dates.py).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Heading words, compared with spaces, case and a final ":" or "." ignored ("Table of
# Contents", "용어 사전" and "용어사전" alike).
CONTENTS_WORDS = (
    "contents", "table of contents",  # en
    "table des matières", "sommaire",  # fr
    "índice", "indice", "contenido", "contenidos",  # es, it, pt
    "inhalt", "inhaltsverzeichnis",  # de
    "sommario",  # it
    "sumário", "sumario",  # pt
    "содержание", "оглавление",  # ru
    "目次", "もくじ",  # ja
    "목차", "차례",  # ko
    "目录", "目錄",  # zh
)  # fmt: skip
GLOSSARY_WORDS = (
    "glossary",
    "glossaire",
    "glosario",
    "glossar",
    "glossario",
    "glossário",
    "глоссарий", "словарь терминов",
    "用語集",
    "용어사전", "용어집",
    "词汇表", "詞彙表", "术语表", "術語表",
)  # fmt: skip
CREDITS_WORDS = (
    "credits",
    "crédits",
    "créditos", "creditos",
    "mitwirkende", "impressum",
    "crediti", "riconoscimenti",
    "авторы", "создатели", "титры",
    "クレジット",
    "크레딧", "만든 사람들", "제작진",
    "版权信息", "致谢", "制作人员", "製作人員", "版權資訊",
)  # fmt: skip

# What a translation writes where it leaves a part out: "<생략>", "（省略）", "[omitted]".
OMITTED = re.compile(
    r"^[\s<(\[（【〈《「]*(?:생략|省略|略|omitted|omis|omise|omitido|omitida|omesso|"
    r"ausgelassen|entfällt|опущено|пропущено|不翻译|不翻譯|未翻译|未翻譯)[\s>)\]）】〉》」.。]*$",
    re.I,
)


_SPACES = re.compile(r"\s+")


# Asked of every short line of every edition (is_glossary...), and those lines repeat.
@lru_cache(maxsize=65536)
def heading_key(text: str) -> str:
    """``text`` as heading words are compared: NFKC, case folded, no spaces, no final
    punctuation."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _SPACES.sub("", folded).rstrip(":：.。")


_CONTENTS = {heading_key(w) for w in CONTENTS_WORDS}
_GLOSSARY = {heading_key(w) for w in GLOSSARY_WORDS}
_CREDITS = {heading_key(w) for w in CREDITS_WORDS}


def _is(keys: set[str], text: str) -> bool:
    return len(text) <= 40 and heading_key(text) in keys


def is_contents(text: str) -> bool:
    return _is(_CONTENTS, text)


def is_glossary(text: str) -> bool:
    return _is(_GLOSSARY, text)


def is_credits(text: str) -> bool:
    return _is(_CREDITS, text)


def is_omitted(text: str) -> bool:
    """Is ``text`` a translator's note that a part is left out ("<생략>", "(omitted)")?"""
    return len(text) <= 20 and OMITTED.match(text) is not None
