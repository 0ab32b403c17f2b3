"""py3langid's model kept decompressed in the user's cache folder (text/identify.py): the
model read from the copy is the model read from py3langid's file, a damaged copy only costs
the file again (and is made anew), and MTGRULES_CACHE=off keeps nothing."""

from __future__ import annotations

import pytest
from py3langid.langid import MODEL_FILE, LanguageIdentifier

from mtgrules.text import identify, lemmas

from .conftest import CORPUS

# Lines of the bundled corpus in the languages a scraped page is told apart by (the French
# forum post, the Spanish page, the bilingual English/Traditional Chinese page), and one rule
# of today's English.
SAMPLES = [
    ("seeds/000_0b7a9445b617ebdb.txt", 12),
    ("seeds/001_6b17ef9efd2fae21.txt", 12),
    ("seeds/002_459ebb4253cf071c.txt", 12),
    ("corpus-extra/cr-en-2026-01-16.txt", 400),
]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(lemmas.CACHE_VARIABLE, str(folder))
    return folder


def _texts() -> list[str]:
    out = []
    for name, lines in SAMPLES:
        text = (CORPUS / name).read_text(encoding="utf-8-sig")
        out += [ln.strip() for ln in text.splitlines()[:lines] if len(ln.split()) >= 3]
    return out


def test_the_kept_model_ranks_every_language_as_the_model_file(cache):
    from_file = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    made = identify._cached_model(LanguageIdentifier, MODEL_FILE)  # decompressed now
    (kept,) = cache.glob("langid-*.npz")
    again = identify._cached_model(LanguageIdentifier, MODEL_FILE)  # read back
    assert list(cache.glob("langid-*.npz")) == [kept]
    texts = _texts()
    assert len(texts) > 100
    for text in texts:
        expected = from_file.rank(text)
        assert made.rank(text) == expected, text
        assert again.rank(text) == expected, text


@pytest.mark.parametrize("damage", [b"", b"PK\x03\x04garbage"])
def test_a_damaged_copy_is_read_from_the_model_file_and_made_again(cache, damage):
    assert identify._cached_model(LanguageIdentifier, MODEL_FILE) is not None
    (kept,) = cache.glob("langid-*.npz")
    kept.write_bytes(damage)
    assert identify._cached_model(LanguageIdentifier, MODEL_FILE) is None  # the caller's turn
    assert not kept.exists()
    assert identify._cached_model(LanguageIdentifier, MODEL_FILE) is not None
    assert kept.stat().st_size > 10_000_000


def test_no_cache_folder_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(lemmas.CACHE_VARIABLE, "off")
    monkeypatch.chdir(tmp_path)
    assert identify._cached_model(LanguageIdentifier, MODEL_FILE) is None
    likely, _full = identify._identifier.__wrapped__()
    assert list(tmp_path.iterdir()) == []
    assert likely.classify("The player who controls the creature draws a card.")[0] == "en"
