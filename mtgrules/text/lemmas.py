"""Lemmas of folded words, per language, from spaCy's lookup tables (spacy-lookups-data).

Used at ingest only (the search index stores each text's lemmas beside its words, and a
table of the forms it holds; store/search_index.py): a search never imports spaCy, it reads
the stored forms. spaCy's own English lemmatizer needs a part-of-speech tagger, which means
model weights; the lookup tables need nothing but the package, for every language that has
one (en, fr, es, de, it, pt, ru, nl, ...). Chinese, Japanese and Korean have no lemmas:
Chinese is indexed one character per word (text/fold.py), and a Korean word's particles are
found by prefix.

The tables are keyed by written forms ("coûts" -> "coût"); the index holds folded words
("couts"), so each table is folded once per process: a form and its lemma both folded.
"""

from __future__ import annotations

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
    out: dict[str, str] = {}
    for name in _TABLES.get(lang, ("lemma_lookup",)):
        if name not in files:
            continue
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
            if key and value and key != value and " " not in value:
                out.setdefault(key, value)
    return out


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


def forms_of(lemmas: set[str], language: str) -> dict[str, str]:
    """Every folded form the table gives for these lemmas (form -> lemma): the forms a query
    may use that the texts never print ("sacrificing" where the rules say "sacrificed")."""
    table = lemma_table(language)
    return {form: lemma for form, lemma in table.items() if lemma in lemmas}
