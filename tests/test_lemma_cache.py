"""The folded lemma tables kept in the user's cache folder (text/lemmas.py): a kept table is
the table folding gives, a damaged or unwritable cache only costs the folding again, and
MTGRULES_CACHE=off keeps nothing."""

from __future__ import annotations

import pytest

from mtgrules.text import lemmas

fresh = lemmas.lemma_table.__wrapped__  # past the per-process lru_cache


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(lemmas.CACHE_VARIABLE, str(folder))
    return folder


def _files(folder, lang):
    return sorted(folder.glob(f"lemmas-{lang}-*.marshal"))


@pytest.mark.parametrize(
    ("lang", "form", "lemma"),
    [
        ("fr", "couts", "cout"),  # coûts -> coût, both folded
        ("es", "criaturas", "criatura"),
        ("en", "creatures", "creature"),
    ],
)
def test_a_kept_table_is_the_folded_table(cache, monkeypatch, lang, form, lemma):
    built = fresh(lang)
    assert built[form] == lemma
    (kept,) = _files(cache, lang)
    # Read back, without folding anything: the same entries in the same order.
    monkeypatch.setattr(lemmas, "_folded_tables", _must_not_fold)
    again = fresh(lang)
    assert list(again.items()) == list(built.items())
    assert _files(cache, lang) == [kept]


def _must_not_fold(*args):
    raise AssertionError("the kept table should have been read")


@pytest.mark.parametrize("damage", [b"", b"\x00garbage", b"\xe9"])
def test_a_damaged_cache_file_is_folded_again(cache, damage):
    built = fresh("en")
    (kept,) = _files(cache, "en")
    kept.write_bytes(damage)
    assert fresh("en") == built
    assert kept.read_bytes() != damage  # written anew


def test_a_stale_copy_is_replaced(cache):
    cache.mkdir()
    stale = cache / "lemmas-en-00000000000000000000.marshal"
    stale.write_bytes(b"old")
    fresh("en")
    assert not stale.exists()
    assert len(_files(cache, "en")) == 1


def test_an_unwritable_cache_only_costs_the_folding(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(lemmas.CACHE_VARIABLE, str(blocker / "cache"))
    assert fresh("en")["creatures"] == "creature"


def test_off_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(lemmas.CACHE_VARIABLE, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert fresh("en")["creatures"] == "creature"
    assert not list(tmp_path.rglob("*.marshal"))


def test_languages_without_lemmas_keep_nothing(cache):
    assert fresh("zh-Hans") == {}
    assert fresh("ko") == {}
    assert not cache.exists()


# --- the singular of a word in -s, looked up among the store's words (search_index) -------


@pytest.mark.parametrize(
    ("text", "lemmas", "why"),
    [
        # spaCy's English table has no "mulligans"; the store holds "mulligan" (103.5).
        ("players take mulligans", "player take mulligan", "a singular the store holds"),
        ("zorblaxes", "zorblaxes", "a singular nobody wrote stays as it is"),
        ("layers", "layer", "a plural the table knows"),
    ],
)
def test_a_plural_finds_a_singular_stored_by_an_earlier_ingest(corpus_session, text, lemmas, why):
    from mtgrules.store.search_index import _lemmas_of

    assert _lemmas_of(corpus_session.connection(), [("en", None, text)]) == [lemmas], why
