"""Lemmas of folded words, and the words a language commonly uses, per language, from spaCy's
lookup tables (spacy-lookups-data).

Used at ingest only (the search index stores each text's lemmas beside its words, and a
table of the forms it holds; store/search_index.py): a search never imports spaCy, it reads
the stored forms. spaCy's own English lemmatizer needs a part-of-speech tagger, which means
model weights; the lookup tables need nothing but the package, for every language that has
one (en, fr, es, de, it, pt, ru, nl, ...). Chinese, Japanese and Korean have no lemmas:
Chinese is indexed one character per word (text/fold.py), and a Korean word's particles are
found by prefix.

The tables are keyed by written forms ("coûts" -> "coût"); the index holds folded words
("couts"), so each table is folded: a form and its lemma both folded. Folding a table costs
0.15-1.1 s of CPU (English, French, Spanish: 1.15 s of a 5.7 s corpus ingest), so the folded
table is kept in the user's cache folder, keyed by the table file and by the code that
folds it; reading it back costs a fifth of that. A cache that cannot be read or written is
only a slower ingest, never an error.
"""

from __future__ import annotations

import marshal
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from .fold import fold, is_han
from .language import base_language

# Languages whose lemmas come from one table (Italian and Polish split theirs by part of
# speech; the noun and verb tables cover what a rules text needs).
_TABLES = {
    "it": ("lemma_lookup",),
    "pl": ("lemma_lookup_noun", "lemma_lookup_verb", "lemma_lookup_adj"),
}


@lru_cache(maxsize=32)
def lemma_table(language: str) -> dict[str, str]:
    """Folded form -> folded lemma for a language tag ('fr', 'pt-BR', 'zh-Hans'); empty when
    spaCy ships no table for it (or spacy-lookups-data is missing)."""
    lang = base_language(language)
    if lang in ("zh", "ja", "ko"):
        return {}
    files = _lookup_files(lang)
    if not files:
        return {}
    names = [name for name in _TABLES.get(lang, ("lemma_lookup",)) if name in files]
    cache = _cache_file(lang, [files[name] for name in names])
    cached = _read_cached(cache)
    if cached is not None:
        return cached
    out = _folded_tables(files, names)
    _write_cached(cache, lang, out)
    return out


def _folded_tables(files: dict[str, Any], names: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in names:
        try:
            table = _load_table(files[name])
        except (ValueError, OSError, ImportError):
            continue
        for form, lemma in table.items():
            if isinstance(lemma, list):  # French: several lemmas; the first is the usual one
                lemma = lemma[0] if lemma else form
            if not isinstance(form, str) or not isinstance(lemma, str):
                continue
            key, value = fold(form), fold(lemma)
            # English's table gives an ordinal its number (first -> 1, second -> 2): not a
            # form of the same word for a reader of the rules, and it made "1" find First
            # Strike and "second main phase" every text with a 2.
            if value.isdigit() and not key.isdigit():
                continue
            if key and value and key != value and " " not in value:
                out.setdefault(key, value)
    return out


# The folded tables' folder: $MTGRULES_CACHE, else the user's cache folder; "off" keeps none.
CACHE_VARIABLE = "MTGRULES_CACHE"
# Copies of one language's table kept (each install or version of the code writes its own).
KEPT_COPIES = 4
# What a folded table is made by: changing any of these makes the kept copies stale.
_FOLDING_CODE = ("lemmas.py", "fold.py", "chinese.py")


def cache_folder() -> Path | None:
    given = os.environ.get(CACHE_VARIABLE, "").strip()
    if given.lower() == "off":
        return None
    if given:
        return Path(given)
    if sys.platform.startswith("linux"):  # platformdirs' rule, without importing it
        base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
        return Path(base) / "mtgrules"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("mtgrules", appauthor=False))


def _cache_file(lang: str, tables: list[Any], what: str = "lemmas") -> Path | None:
    """Where the folded table of ``lang`` is kept: named by a digest of the table files read
    (path, size, modification time), of the code that folds them and of the Python version
    (marshal's format)."""
    folder = cache_folder()
    if folder is None:
        return None
    # Here, not at the top: a search imports this module for its word lists (guessed_bases,
    # common_words), and hashlib and tempfile cost it 7 ms of start-up.
    import hashlib

    h = hashlib.sha256(f"{lang}\x1f{sys.version_info[:2]}".encode())
    try:
        for table in tables:
            path = Path(table)
            if not path.exists():
                path = path.with_suffix(path.suffix + ".gz")
            st = path.stat()
            h.update(f"\x1f{path}\x1f{st.st_size}\x1f{st.st_mtime_ns}".encode())
        here = Path(__file__).parent
        for name in _FOLDING_CODE:
            h.update((here / name).read_bytes())
    except OSError:
        return None
    return folder / f"{what}-{lang}-{h.hexdigest()[:20]}.marshal"


def _read_cached(path: Path | None, kind: type = dict) -> Any:
    if path is None:
        return None
    try:
        got = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return got if isinstance(got, kind) else None


def _write_cached(path: Path | None, lang: str, table: Any, what: str = "lemmas") -> None:
    """Written whole under a temporary name, then renamed: a process reading it at the same
    time finds the old file or the new one, never half of one. Of the copies of the same
    language's table (other versions of the tables or of the code), the KEPT_COPIES newest
    stay: two installs used in turn on one machine keep theirs, and older ones go."""
    if path is None:
        return
    try:
        import tempfile  # see _cache_file

        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(marshal.dumps(table))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        others = [p for p in path.parent.glob(f"{what}-{lang}-*.marshal") if p != path]
        others.sort(key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in others[KEPT_COPIES - 1 :]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def _lookup_files(lang: str) -> dict[str, Any]:
    """Table name -> file of spacy-lookups-data for a language: the entry points that spaCy's
    registry.lookups reads, read directly, since importing spaCy for its registry costs
    0.5 s of CPU (1 s on a loaded machine) in every ingest of a translation."""
    from importlib.metadata import entry_points

    for point in entry_points(group="spacy_lookups"):
        if point.name == lang:
            try:
                files = point.load()
            except Exception:  # a broken install still indexes words
                return {}
            return files if isinstance(files, dict) else {}
    return {}


def _load_table(path: Any) -> Any:
    """A table's JSON, as spacy.util.load_language_data reads it: the file, else its .gz."""
    import srsly  # spaCy's own JSON reader, a dependency of spaCy

    path = Path(path)
    if path.exists():
        return srsly.read_json(path)
    gz = path.with_suffix(path.suffix + ".gz")
    if gz.exists():
        return srsly.read_gzip_json(gz)
    raise ValueError(f"{path}: no such lookup table")


def has_lemmas(language: str) -> bool:
    return bool(lemma_table(language))


def lemmatize(
    words: list[str], language: str, known: set[str] | frozenset = frozenset()
) -> list[str]:
    """The lemma of each folded word (itself when it has none). A word the table lacks that
    ends in -s becomes the lemma of its singular when the singular is a word of the same
    texts (``known``): "mulligans" -> "mulligan", which spaCy's English table does not
    list, while "rules" is found in the table itself."""
    table = lemma_table(language)
    if not table:
        return list(words)
    out = []
    for w in words:
        lemma = table.get(w)
        if lemma is None and not is_han(w):
            if len(w) > 3 and w.endswith("s") and w[:-1] in known:
                lemma = table.get(w[:-1], w[:-1])
        out.append(lemma or w)
    return out


def guessed_bases(word: str, language: str) -> list[str]:
    """The words a folded ``word`` that no table lists may be an inflection of, most likely
    first, by the language's regular endings: English "scrying" -> scry, "surveilling" ->
    surveil, "amassed" -> amass. The game's own verbs (scry, surveil, amass, connive) are in
    no dictionary, so spaCy's tables lack their forms; a caller keeps only the bases its
    texts hold. Other languages: none yet (their tables list the verbs' forms)."""
    if base_language(language) != "en" or len(word) < 5 or not word.isalpha():
        return []
    out: list[str] = []
    for ending in ("ing", "ed"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = word[: -len(ending)]
            if stem.endswith("i") and ending == "ed":
                out.append(stem[:-1] + "y")  # scried -> scry
            out.append(stem)  # amassed -> amass, scrying -> scry
            out.append(stem + "e")  # connived -> connive, exploring -> explore
            if len(stem) >= 4 and stem[-1] == stem[-2]:
                out.append(stem[:-1])  # surveilling -> surveil, planned -> plan
    if word.endswith("ies") and len(word) >= 6:
        out.append(word[:-3] + "y")  # scries -> scry
    if word.endswith("es") and len(word) >= 5:
        out.append(word[:-2])  # amasses -> amass
    return [b for b in dict.fromkeys(out) if b != word]


def forms_of(lemmas: set[str], language: str) -> dict[str, str]:
    """Every folded form the table gives for these lemmas (form -> lemma): the forms a query
    may use that the texts never print ("sacrificing" where the rules say "sacrificed")."""
    table = lemma_table(language)
    return {form: lemma for form, lemma in table.items() if lemma in lemmas}


# A word whose log probability in spaCy's lexeme table (word frequencies of a large general
# corpus) is above this is one the language commonly uses. Measured on the English table:
# the words players type that the rules never print score -13.7 to -8 (rewind -13.6, pump
# -11.1, dying -10.3, disagree -9.5), their typos -15 and below or not at all (sheild -15.2,
# sacrafice -16.2, comander -18.1, trmaple absent); 40,022 English words pass.
COMMON_LOG_PROB = -14.5


@lru_cache(maxsize=16)
def common_words(language: str) -> frozenset[str]:
    """The folded words ``language`` commonly uses (COMMON_LOG_PROB), from spaCy's lexeme
    probability table; empty when spaCy ships none for it (English, Spanish, German and
    Greek have one; French does not). Kept folded in the cache folder as the lemma tables
    are: the table itself holds a million words and takes 1.5 s to read."""
    lang = base_language(language)
    files = _lookup_files(lang) if lang not in ("zh", "ja", "ko") else {}
    if "lexeme_prob" not in files:
        return frozenset()
    cache = _cache_file(lang, [files["lexeme_prob"]], "common")
    cached = _read_cached(cache, frozenset)
    if cached is not None:
        return cached
    try:
        table = _load_table(files["lexeme_prob"])
    except (ValueError, OSError, ImportError):
        return frozenset()
    out = frozenset(
        fold(word)
        for word, prob in table.items()
        if isinstance(word, str) and isinstance(prob, int | float) and prob > COMMON_LOG_PROB
    )
    _write_cached(cache, lang, out, "common")
    return out
