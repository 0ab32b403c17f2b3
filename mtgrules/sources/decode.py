"""Step 4 of intake: a text file's bytes to characters, and how its lines end.

The encoding is read from the bytes: a byte-order mark first, then the charset a web page
declares (``<meta charset>``, an XML prolog), then UTF-8, then a fixed list of the legacy
encodings rules files are saved in (CANDIDATES), then Windows-1252. Binary containers (PDF,
Word, RTF) never come here: their extractors decode their own text.

Several legacy encodings decode the same bytes without error (EUC-KR, EUC-JP and GB2312 share
their byte ranges), so each candidate that decodes is asked how much its text looks like
text of its language: the share of its non-ASCII characters that are the common characters
of that language's script, as the encoding's own standard ranks them (the 2,350 Hangul
syllables of KS X 1001, kana and the JIS level-1 kanji, GB2312's level-1 hanzi, Big5's
common characters). Bytes read in the wrong encoding give rare characters, symbols and
mixed scripts. Measured in benchmarks/eval_encodings.py against charset-normalizer.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from functools import lru_cache

from ..errors import InputError, NotRulesError

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le-bom"),
    (codecs.BOM_UTF16_BE, "utf-16-be-bom"),
)
_BOM_CODECS = {"utf-8-sig": "utf-8-sig", "utf-16-le-bom": "utf-16", "utf-16-be-bom": "utf-16"}

_DECLARED = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_\-:.]+)|<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_\-.]+)""",
    re.I,
)
# Declared encodings a browser would not decode the page with: the WHATWG "replacement"
# (iso-2022-kr, hz-gb-2312: decoding them has been used to smuggle markup), UTF-16 named in
# an ASCII-compatible page (browsers read that as UTF-8), and x-user-defined.
_NOT_DECLARABLE = {"replacement", "utf-16be", "utf-16le", "x-user-defined"}


def declared_codec(label: str) -> str | None:
    """The Python codec for a charset a page declares, as a browser reads the label
    (the WHATWG Encoding Standard, through webencodings: "latin1" and "us-ascii" are
    Windows-1252, "x-sjis" Shift_JIS...), or None for a label no browser decodes with:
    an unknown name, or a Python codec that is no web encoding at all (utf-7,
    unicode_escape, punycode, rot13, base64: some raise, some give lone surrogates,
    some turn "\\u0041" into "A")."""
    import webencodings

    encoding = webencodings.lookup(label)
    if encoding is None or encoding.name in _NOT_DECLARABLE:
        return None
    return encoding.codec_info.name


def _looks_binary(data: bytes) -> bool:
    sample = data[:8192]
    if b"\x00" in sample:
        return True
    controls = sum(1 for b in sample if b < 9 or 13 < b < 32)
    return controls > len(sample) * 0.05


def decode_text(data: bytes, where: str) -> tuple[str, str]:
    """(text, encoding name) of a text file's bytes, or InputError. A charset the page
    declares is honoured, so a GBK, Shift_JIS or EUC-KR page reads right; otherwise the
    bytes decide."""
    m = _DECLARED.search(data[:4096])
    if m is not None and not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        codec = declared_codec((m[1] or m[2]).decode("ascii"))
        if codec is not None and codec != "utf-8":
            try:
                return data.decode(codec), codec
            except UnicodeDecodeError:
                pass  # a wrong declaration: fall back to what the bytes say
        # An unknown or non-text codec (utf-7, unicode_escape): the bytes decide, as below.
    return _decode_undeclared(data, where)


def _decode_undeclared(data: bytes, where: str) -> tuple[str, str]:
    if not data.strip():
        raise NotRulesError(f"{where}: the file is empty; give a file that holds rules text.")
    text: str | None = None
    encoding = ""
    for bom, name in _BOMS:
        if data.startswith(bom):
            codec = _BOM_CODECS[name]
            try:
                text = data.decode(codec)
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"{where}: starts with a {name} byte-order mark but is not valid {codec} "
                    f"(byte {exc.start}); re-save it as UTF-8."
                ) from None
            encoding = name
            break
    if text is None:
        if _looks_binary(data):
            raise InputError(
                f"{where}: a binary file of no kind mtgrules reads; give the rules as text, "
                "PDF, DOCX, Word .doc, RTF or a web or wiki page."
            )
        try:
            text = data.decode("utf-8")
            encoding = "ascii" if data.isascii() else "utf-8"
        except UnicodeDecodeError as exc:
            text, encoding = _decode_legacy(data, where, exc)
    if not text.strip():
        raise NotRulesError(
            f"{where}: the file holds only whitespace; give a file with rules text."
        )
    return text, encoding


@dataclass(frozen=True)
class Candidate:
    """A legacy encoding a file may be saved in, and the language whose script its text must then
    look like."""

    codec: str  # the Python codec, also the name the store records
    language: str  # whose script its text must look like


# The legacy encodings rules files are found in, most specific first (a tie goes to the
# earlier one). Each is the Windows superset of the standard: UHC of EUC-KR, cp932 of
# Shift_JIS, GB18030 of GBK and GB2312, cp950 of Big5.
CANDIDATES = (
    Candidate("cp949", "ko"),
    Candidate("cp932", "ja"),
    Candidate("euc_jp", "ja"),
    Candidate("gb18030", "zh-Hans"),
    Candidate("cp950", "zh-Hant"),
)
# Wizards published several English editions in Windows-1252 (smart quotes 0x92-0x94): the
# last resort, when no candidate reads as its language.
FALLBACK = "cp1252"
# Enough characters to tell: the score of a whole file and of its first 20,000 non-ASCII
# characters agree on every file of the archive and translations.
SAMPLE_CHARS = 20_000
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_HANGUL, _KANA, _HAN = (0xAC00, 0xD7A3), (0x3041, 0x30FF), (0x4E00, 0x9FFF)


def _two_byte(ch: str, codec: str) -> int | None:
    """The code of ``ch`` in a double-byte ``codec`` (0xB0A1...), or None."""
    try:
        raw = ch.encode(codec)
    except UnicodeEncodeError:
        return None
    return int.from_bytes(raw, "big") if len(raw) == 2 else None


def _cjk_punctuation(o: int) -> bool:
    # CJK symbols and punctuation, full-width forms, and the quotes, dots and marks every
    # CJK encoding carries.
    return (
        0x3000 <= o <= 0x303F
        or 0xFF01 <= o <= 0xFF5E
        or o in (0x2018, 0x2019, 0x201C, 0x201D, 0x2025, 0x2026, 0x2015, 0x203B, 0x2192)
    )


@lru_cache(maxsize=65536)
def _kind(ch: str, language: str) -> str:
    """ "script" (a common character of the language's own script), "han" (a common Han
    character in a Japanese text), "punct", or "rare"."""
    o = ord(ch)
    if _cjk_punctuation(o):
        return "punct"
    if language == "ko":
        if _HANGUL[0] <= o <= _HANGUL[1]:
            return "script" if _two_byte(ch, "euc_kr") is not None else "rare"
        return "rare"
    if language == "ja":
        if _KANA[0] <= o <= _KANA[1]:
            return "script"
        code = _two_byte(ch, "euc_jp") if _HAN[0] <= o <= _HAN[1] else None
        return "han" if code is not None and 0xB0A1 <= code <= 0xCFFE else "rare"
    if not _HAN[0] <= o <= _HAN[1]:
        return "rare"
    if language == "zh-Hans":
        code = _two_byte(ch, "gb2312")
        return "script" if code is not None and 0xB0A1 <= code <= 0xD7FE else "rare"
    code = _two_byte(ch, "big5")
    return "script" if code is not None and 0xA440 <= code <= 0xC67E else "rare"


def plausibility(text: str, language: str) -> float:
    """How much ``text`` looks like text in ``language``'s script (0 to 1), judged by its
    non-ASCII characters."""
    counts = {"script": 0, "han": 0, "punct": 0, "rare": 0}
    seen = 0
    for m in _NON_ASCII.finditer(text):
        run = m.group()
        before, after = text[m.start() - 1 : m.start()], text[m.end() : m.end() + 1]
        if len(run) == 1 and (
            (before.isascii() and before.isalpha()) or (after.isascii() and after.isalpha())
        ):
            # One character glued to a Latin word ("Dand\u30cf n"): a stray byte of a Western
            # text, which a double-byte codec swallowed with the letter after it.
            counts["rare"] += 1
        else:
            for ch in run:
                counts[_kind(ch, language)] += 1
        seen += len(run)
        if seen >= SAMPLE_CHARS:
            break
    if not seen:
        return 0.0
    own = counts["script"]
    # Japanese writes kana in every sentence: kanji alone is no Japanese. The other scripts
    # must make most of the text.
    if own < (0.1 if language == "ja" else 0.5) * seen:
        return 0.0
    return (own + counts["han"] + counts["punct"]) / seen


def _decode_legacy(data: bytes, where: str, utf8_error: UnicodeDecodeError) -> tuple[str, str]:
    best: tuple[float, str, str] | None = None
    for candidate in CANDIDATES:
        try:
            text = data.decode(candidate.codec)
        except UnicodeDecodeError:
            continue
        score = plausibility(text, candidate.language)
        if score > 0 and (best is None or score > best[0]):
            best = (score, text, candidate.codec)
    if best is not None:
        return best[1], best[2]
    try:
        return data.decode(FALLBACK), FALLBACK
    except UnicodeDecodeError:
        pass
    at = utf8_error.start
    raise InputError(
        f"{where}: cannot be decoded as UTF-8, UTF-16, Korean (CP949), Japanese (Shift_JIS, "
        f"EUC-JP), Chinese (GB18030, Big5) or Windows-1252 (byte 0x{data[at]:02x} at offset "
        f"{at}); re-save it as UTF-8."
    )


def describe_newlines(text: str) -> str:
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = {name: n for name, n in (("CRLF", crlf), ("CR", cr), ("LF", lf)) if n}
    if not kinds:
        return "none"
    if len(kinds) == 1:
        return next(iter(kinds))
    return "mixed " + ",".join(f"{k}={v}" for k, v in kinds.items())
