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


def test_the_newest_copies_stay_and_older_ones_go(cache):
    """Other installs (another version of the code) keep their copies, up to KEPT_COPIES of
    one language, the newest; a session using one never deletes another's in turn."""
    import os

    cache.mkdir()
    others = []
    for n in range(lemmas.KEPT_COPIES + 1):
        other = cache / f"lemmas-en-{n:020d}.marshal"
        other.write_bytes(b"another install's")
        os.utime(other, ns=(10**18 + n, 10**18 + n))  # the higher n, the newer
        others.append(other)
    fresh("en")
    kept = lemmas.KEPT_COPIES - 1  # beside this install's own
    assert [o.exists() for o in others] == [False] * (len(others) - kept) + [True] * kept
    assert len(_files(cache, "en")) == lemmas.KEPT_COPIES


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

    _words, found = _lemmas_of(corpus_session.connection(), [("en", None, text)])
    assert found == [lemmas], why


# (language, word, commonly used?, why): text/lemmas.common_words, which search asks before
# it corrects a word the rules never print (search/engine.py).
COMMON = [
    ("en", "pump", True, "players' word, not in the rules (log prob -11.1)"),
    ("en", "rewind", True, "-13.6: still above the bar"),
    ("en", "trmaple", False, "a typo the table lacks"),
    ("en", "sacrafice", False, "a typo the table holds, rarely (-16.2)"),
    ("es", "criatura", True, "Spanish has a table"),
    ("fr", "creature", False, "French has none: nothing is common"),
    ("zh-Hans", "生物", False, "nor Chinese"),
]


@pytest.mark.parametrize(("lang", "word", "common", "why"), COMMON)
def test_common_words_are_read_back_from_the_cache(cache, monkeypatch, lang, word, common, why):
    built = lemmas.common_words.__wrapped__(lang)
    assert (word in built) is common, why
    if not built:
        assert not list(cache.glob("common-*.marshal"))
        return
    # Read back without the table: the same set.
    monkeypatch.setattr(lemmas, "_load_table", _must_not_fold)
    assert lemmas.common_words.__wrapped__(lang) == built
