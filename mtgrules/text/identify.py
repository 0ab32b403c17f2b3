"""Which language a text is in, for any language a user brings: a BCP 47 tag or None.

Measured on the corpus clauses (benchmarks/eval_langid.py): py3langid, restricted to the
languages users are likely to bring, is right on 97% of all rule clauses and on nearly all
clauses of three words or more, at 0.15 ms a clause, from a 4.5 MB package that needs 90 MB
of memory. lingua was a little more accurate (98%) but needs 560 MB of memory and 5 s to load
even restricted to the same languages (1.2 GB for all), and its wheel is 96 MB; pycld2 gave
no answer for 8% of the Chinese clauses.

Scripts decide before statistics, because they are certain: kana means Japanese, Hangul
Korean, Han characters alone Chinese, and the Chinese script (zh-Hans or zh-Hant) is
decided as the existing detector does (text/chinese.py, OpenCC). Everything else goes to
py3langid. None means "not sure": too few words to tell, or a low probability, or a
language outside the likely set (the unrestricted model names it: Esperanto rules, which the
restricted model reads as Spanish at p > 0.9, or Indonesian, Latin, Tagalog); the caller
should then ask for --lang. That check changed nothing on the 6,328 clauses of
benchmarks/eval_langid.py (6,052 right, 276 None, 0 wrong before and after) and costs
0.02 ms a clause.
"""

from __future__ import annotations

import copy
import hashlib
import re
import shutil
from functools import lru_cache
from pathlib import Path

from .chinese import is_traditional
from .fold import HAN_CLASS

# The official translations of the rules and the languages most often mistaken for them.
# A text in another language gets a low probability among these, and so None.
LIKELY_LANGUAGES = "en fr es de it pt ru ja ko zh nl pl cs uk tr sv da no fi hu ro el".split()
MIN_WORDS = 3  # "Attach", "Card Types": a heading or keyword says nothing about its language
MIN_PROBABILITY = 0.9
OTHER_PROBABILITY = 0.5
_WORD = re.compile(r"[^\W\d_]+")
# Tags py3langid uses that BCP 47 spells otherwise.
_TAGS = {"no": "nb"}


_LETTER = re.compile(r"[^\W\d_]")
_HAN = re.compile(f"[{HAN_CLASS}]")
_KANA = re.compile("[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9d]")
_HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")


def _script_counts(text: str) -> tuple[int, int, int, int]:
    """(letters, Han, kana, Hangul) among the first 20,000 characters."""
    # Regex counts run in C: a Python loop over the characters cost 17 ms an edition.
    sample = text[:20000]
    return (
        len(_LETTER.findall(sample)),
        len(_HAN.findall(sample)),
        len(_KANA.findall(sample)),
        len(_HANGUL.findall(sample)),
    )


@lru_cache(maxsize=1)
def _identifier():
    # Loaded on first use (0.9 s, 90 MB): most commands never identify a language.
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    full = _cached_model(LanguageIdentifier, MODEL_FILE)
    if full is None:
        full = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    # A shallow copy shares the model; set_languages gives the copy its own smaller tables.
    likely = copy.copy(full)
    likely.set_languages(list(LIKELY_LANGUAGES))
    return likely, full


def _cached_model(identifier_class, model_file: str):
    """The model as py3langid's from_model_file makes it, from its decompressed copy in the
    user's cache folder (text/lemmas.cache_folder; made on first use): decompressing the
    4.5 MB .xz to its 68 MB took 0.5 of the 0.64 s of CPU an ingest of a scraped page paid
    for the model (every corpus ingest). None when there is no cache folder, or the copy
    cannot be made or read: the caller loads the model file itself."""
    try:
        import lzma
        import os
        import tempfile

        import numpy as np
        from py3langid.langid import MODEL_DIR
        from py3langid.modelio import _to_array

        from .lemmas import cache_folder

        folder = cache_folder()
        if folder is None:
            return None
        source = MODEL_DIR / model_file
        st = source.stat()
        # Named by the model file read (path, size, modification time): a new py3langid
        # makes a new copy, and the old one goes.
        key = f"{source}\x1f{st.st_size}\x1f{st.st_mtime_ns}"
        path = folder / f"langid-{hashlib.sha256(key.encode()).hexdigest()[:20]}.npz"
        if not path.exists():
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=path.name, suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as out, lzma.open(source) as src:
                    shutil.copyfileobj(src, out, length=1 << 20)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            for old in folder.glob("langid-*.npz"):
                if old != path:
                    old.unlink(missing_ok=True)
        try:
            # As py3langid's modelio.load_model and LanguageIdentifier.from_model_file read it.
            with np.load(path, allow_pickle=False) as data:
                ptc, pc, classes = data["ptc"], data["pc"], data["classes"].tolist()
                nextmove, row = _to_array(data["nextmove"]), _to_array(data["nextmove_row"])
                output = data["out_feat"].tolist()
        except Exception:
            path.unlink(missing_ok=True)  # a damaged copy: made again next time
            raise
        return identifier_class(
            np.asarray(ptc), np.asarray(pc), classes, nextmove, output, norm_probs=True, tk_row=row
        )
    except Exception:  # an unreadable copy, a full disk, another py3langid: the model file
        return None


# Mana and tap symbols ({W/U/P}, {T}) and loyalty costs ([-X]) are written in Latin capitals
# in every language: a Chinese rule listing the hybrid symbols has more of those letters than
# Han characters. They say nothing of the language, so they are left out.
_SYMBOLS = re.compile(r"\{[^{}\s]{1,8}\}|\[[+\-\u2212]?[^\[\]\s]{1,3}\]")


def _plainly_english(words: list[str]) -> bool:
    """A long text whose every fourth word or so is an English function word, and next to
    none a French or Spanish one: English without loading the model (0.3-0.9 s a process,
    paid by every ingest of an English file). Measured on 20,000-character samples: the
    English editions 0.28-0.31 of their words, French, Spanish, German, Dutch and Italian
    rules text 0.03 at most; the bilingual French forum post (0.15 English, 0.23 French)
    goes to the model."""
    if len(words) < 200:
        return False
    from .detect import FUNCTION_WORDS

    folded = [w.casefold() for w in words]
    share = {
        lang: sum(w in vocab for w in folded) / len(folded)
        for lang, vocab in FUNCTION_WORDS.items()
    }
    return share["en"] >= 0.2 and all(v < 0.02 for lang, v in share.items() if lang != "en")


def identify_language(text: str) -> str | None:
    """BCP 47 tag of ``text`` (en, fr, es, de, it, pt, ru, ja, ko, zh-Hans, zh-Hant, ...), or
    None when there is too little text or the evidence is weak."""
    if "{" in text or "[" in text:
        text = _SYMBOLS.sub(" ", text)
    letters, han, kana, hangul = _script_counts(text)
    if letters == 0:
        return None
    # Japanese mixes Han with kana; a few kana among Chinese would be quoted Japanese.
    if kana >= max(2, 0.05 * letters):
        return "ja"
    if hangul > 0.3 * letters:
        return "ko"
    if han > 0.3 * letters:
        return "zh-Hant" if is_traditional(text) else "zh-Hans"
    words = _WORD.findall(text[:20000])
    if len(words) < MIN_WORDS:
        return None
    if _plainly_english(words):
        return "en"
    likely, full = _identifier()
    sample = text[:20000]
    lang, probability = likely.classify(sample)
    if probability < MIN_PROBABILITY:
        return None
    # Among the likely languages alone, a language outside them still wins one of them with
    # a high probability (Esperanto rules read as Spanish at 0.99). Over all 97 languages of
    # the model it wins itself: then the text is in a language we were not asked about, and
    # the caller should ask rather than guess.
    other, other_probability = full.classify(sample)
    if other not in LIKELY_LANGUAGES and other_probability >= OTHER_PROBABILITY:
        return None
    if lang == "zh":  # Chinese in another script (rare): trust the script decision above
        return None
    return _TAGS.get(lang, lang)


# Writing systems by code point range, for telling the two halves of a bilingual page apart
# (an English line and its Korean, Russian or Chinese translation) without statistics.
_SCRIPT_RANGES = (
    (0x0370, 0x03FF, "greek"),
    (0x0400, 0x052F, "cyrillic"),
    (0x0590, 0x05FF, "hebrew"),
    (0x0600, 0x06FF, "arabic"),
    (0x0900, 0x097F, "devanagari"),
    (0x0E00, 0x0E7F, "thai"),
    (0x1100, 0x11FF, "hangul"),
    (0x3040, 0x30FF, "kana"),
    (0x3130, 0x318F, "hangul"),
    (0x31F0, 0x31FF, "kana"),
    (0xAC00, 0xD7A3, "hangul"),
    (0xFF66, 0xFF9D, "kana"),
)


def script_of_text(text: str) -> str | None:
    """The writing system most of the letters of ``text`` are in: latin, han, kana (Japanese,
    which mixes kana with Han), hangul, cyrillic, greek...; None for a text with no letters."""
    counts: dict[str, int] = {}
    if "{" in text or "[" in text:
        text = _SYMBOLS.sub(" ", text)
    for ch in text[:2000]:
        if not ch.isalpha():
            continue
        o = ord(ch)
        script = "latin"
        if _HAN.match(ch):  # the one Han range (text/fold.py)
            script = "han"
        elif o >= 0x0370 and not 0x1E00 <= o <= 0x1EFF:  # Latin Extended Additional (Vietnamese)
            script = "other"
            for lo, hi, name in _SCRIPT_RANGES:
                if lo <= o <= hi:
                    script = name
                    break
        counts[script] = counts.get(script, 0) + 1
    if not counts:
        return None
    if counts.get("kana", 0) >= 2:  # Japanese: kana among Han
        return "kana"
    return max(counts, key=lambda k: counts[k])
