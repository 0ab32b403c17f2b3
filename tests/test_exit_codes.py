"""Whatever a user does, an error is one line and exit code 2, 3 or 4 (an mtgrules.errors
exception from the Python API); exit code 70 ("internal error") is for real bugs only.

The cases issue 17 found, each on real files, then fuzz tests (hypothesis): the API's
public functions with arguments of the right types and hostile values, and the CLI with
byte mutations of a real file of each format. The default run is short; the `slow` copies
run many more examples (.ci/run's slow step).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mtgrules.api as mr
from mtgrules.errors import MtgRulesError, NotFoundError
from mtgrules.sources.pipeline import parse_document, prepare

from .conftest import (
    EXTRA,
    ON_PG,
    SEEDS,
    SHARED,
    copy_store,
    pg_create_database,
    pg_drop_database,
    run_cli,
)
from .conftest import table_counts as counts_of

FAST = settings(
    max_examples=int(os.environ.get("MTGRULES_HYPOTHESIS_EXAMPLES", "20")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    database=None,
)
# The slow profile, per function or format: each example of a real PDF or a whole-corpus
# drift takes a second or more, so fewer than the 300 of the cheap hostile-input properties.
HEAVY_EXAMPLES = int(os.environ.get("MTGRULES_FUZZ_HEAVY", "60"))
HEAVY = settings(FAST, max_examples=HEAVY_EXAMPLES)


def one_line(text: str) -> str:
    line = text.strip()
    assert line and "\n" not in line, text
    assert "internal error" not in line and "Traceback" not in line, line
    return line


# --- the crashes issue 17 found ------------------------------------------------------------


def _official_excerpt() -> str:
    """The first rules of the real 2026-01-16 English text, as a small official edition."""
    text = (EXTRA / "cr-en-2026-01-16.txt").read_text(encoding="utf-8-sig")
    start = text.index("100.1. ")
    return (
        "Magic: The Gathering Comprehensive Rules\n\n"
        "These rules are effective as of January 16, 2026.\n\n" + text[start : start + 3000] + "\n"
    )


# One file that holds the same edition three times: a small official edition, and the
# French forum post (which quotes the French and English rules) pasted three times.
THRICE = [
    ("a small official edition", _official_excerpt),
    ("a forum post", lambda: (SEEDS / "000_0b7a9445b617ebdb.txt").read_text(encoding="utf-8")),
]


@pytest.mark.parametrize("what, text", THRICE, ids=[t[0] for t in THRICE])
def test_one_file_holding_an_edition_three_times_stores_it_once(
    store_copy, tmp_path: Path, what: str, text
) -> None:
    path = tmp_path / "thrice.txt"
    path.write_text("\n\n".join([text()] * 3), encoding="utf-8")
    proc = run_cli("--db", str(store_copy), "ingest", "--json", str(path))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    (outcome,) = report["files"]
    assert "3 times; it is stored once" in outcome["note"]
    again = run_cli("--db", str(store_copy), "ingest", str(path))
    assert again.returncode == 0 and "Nothing changed" in again.stdout


@pytest.mark.sqlite_only  # file names: the same on any backend, one run is enough
def test_a_file_name_that_is_not_utf8_is_ingested_with_the_rest_of_its_folder(
    store_copy, tmp_path: Path
) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    odd = os.fsdecode(b"r\xe8gles.txt")  # Latin-1 "règles.txt": not valid UTF-8
    (folder / odd).write_text(_official_excerpt(), encoding="utf-8")
    shutil.copy(SEEDS / "001_6b17ef9efd2fae21.txt", folder / "page.txt")
    proc = run_cli("--db", str(store_copy), "ingest", "--json", str(folder))
    assert proc.returncode == 0, proc.stderr
    files = {Path(f["path"]).name: f for f in json.loads(proc.stdout)["files"]}
    assert set(files) == {"r\\xe8gles.txt", "page.txt"}, files
    assert files["r\\xe8gles.txt"]["editions"] == 1
    listed = run_cli("--db", str(store_copy), "editions", "--json")
    sources = [s for e in json.loads(listed.stdout) for s in e["sources"]]
    assert "r\\xe8gles.txt" in sources


# Edition ids and revisions a user may type: past 2^63, Unicode digits, negative.
BAD_IDS = [
    (["diff", "1", "9223372036854775808"], 3, "no edition '9223372036854775808'"),
    (["diff", "1", "99999999999999999999999"], 3, "no edition"),
    (["diff", "1", "²"], 3, "no edition '²'"),
    (["diff", "--", "1", "-1"], 3, "no edition '-1'"),
    (["show", "107.3", "--edition", "9223372036854775808"], 3, "no edition"),
    (["editions", "--as-of", "9223372036854775808"], 3, "no revision"),
    (["drift", "107.3", "--as-of", "-9223372036854775809"], 3, "no revision"),
    (["search", "stack", "--as-of", "18446744073709551616"], 3, "no revision"),
]


@pytest.mark.parametrize("args, code, message", BAD_IDS, ids=[" ".join(a) for a, _, _ in BAD_IDS])
def test_ids_past_what_the_database_holds_are_not_found(corpus_db, args, code, message):
    before = counts_of(corpus_db)
    proc = run_cli("--db", str(corpus_db), *args)
    assert proc.returncode == code, proc.stderr
    assert message in one_line(proc.stderr)
    assert counts_of(corpus_db) == before


# Requests that name one thing twice where two are needed: before, each was accepted
# (align --editions X X reported every clause matching itself; --store would have kept it).
SAME_TWICE = [
    (["align", "--editions", "en-2026-01-16", "en-2026-01-16"], "names one edition twice"),
    (["align", "--editions", "zh-Hans-2026-01-16", "zh-Hans-2026-01-16", "--store"], "twice"),
    (["export", "tmx", "--source-lang", "en", "--target-lang", "en"], "are one language"),
    (["export", "tmx", "--source-lang", "zh", "--target-lang", "zh-Hans"], "one language"),
]


@pytest.mark.parametrize("args, message", SAME_TWICE, ids=[" ".join(a) for a, _ in SAME_TWICE])
def test_one_thing_named_twice_is_a_usage_error(corpus_db, tmp_path, args, message):
    before = counts_of(corpus_db)
    proc = run_cli("--db", str(corpus_db), *args, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert message in one_line(proc.stderr)
    assert counts_of(corpus_db) == before
    assert list(tmp_path.iterdir()) == []  # no TMX written


# --- the API: every public function, hostile values of the right types --------------------


def _open_copy(template, folder: Path) -> tuple[mr.Store, str]:
    db = str(copy_store(template, folder))
    return mr.open_store(db), db


@pytest.fixture(scope="module")
def small_store(tmp_path_factory) -> Iterator[mr.Store]:
    """The seeds and a small official English edition (the first rules of 2026-01-16): every
    method has real editions to work on, and each call takes milliseconds."""
    folder = tmp_path_factory.mktemp("api-fuzz-small")
    db = pg_create_database() if ON_PG else str(folder / "store.sqlite")
    (folder / "cr-en-2026-01-16-excerpt.txt").write_text(_official_excerpt(), encoding="utf-8")
    store = mr.open_store(db)
    store.ingest(SEEDS, folder / "cr-en-2026-01-16-excerpt.txt")
    yield store
    store.close()
    if ON_PG:
        pg_drop_database(db)


@pytest.fixture(scope="module")
def corpus_store(_corpus_template, tmp_path_factory) -> Iterator[mr.Store]:
    """A private copy of the whole corpus store (the aligning methods write to it)."""
    store, db = _open_copy(_corpus_template, tmp_path_factory.mktemp("api-fuzz"))
    yield store
    store.close()
    if ON_PG:
        pg_drop_database(db)


HUGE = [2**63, 2**63 - 1, -(2**63) - 1, 2**64, 10**30]


def mostly(valid: list, hostile: list, anything: st.SearchStrategy) -> st.SearchStrategy:
    """Real values half the time, so that a call gets past its first argument to the next
    one; typed but hostile values and anything at all the rest."""
    return st.one_of(
        st.sampled_from(valid), st.sampled_from(valid), st.sampled_from(hostile), anything
    )


names = mostly(
    # The corpus's editions, and the small store's (seeds named by their files).
    ["en-2026-01-16", "en-2009-07-11", "zh-Hans-2022-06-10", "fr-forum-fr-107.3", "19", "1"]
    + ["es-001_6b17ef9efd2fae21", "fr-000_0b7a9445b617ebdb", "en-2006-10-01-glossary", "3"],
    [str(n) for n in HUGE]
    + ["0", "-1", "²", "١٢", "", " ", "%", "en", "2026-01-16", "cr-en-2026-01-16.txt"],
    st.text(max_size=30),
)
rules = mostly(
    ["107.3", "107.3g", "100.1a", "702.19", "107"],
    ["9999.9z", "1", "", ".", "١٠٧.٣", "107.3." + "a" * 40, "9" * 30 + ".1"],
    st.from_regex(r"[0-9٠-٩０-９]{1,25}\.[0-9]{0,25}[a-zé]?\.?", fullmatch=True)
    | st.text(max_size=30),
)
languages = st.none() | mostly(
    ["en", "fr", "zh-Hans"], ["zh", "xx", "", "EN", "es-419", "x" * 40], st.text(max_size=12)
)
revisions = st.none() | st.none() | st.sampled_from([0, 1, -1, *HUGE]) | st.integers()
kinds = st.none() | mostly(["rules", "glossary", "commentary"], ["", "RULES"], st.text(max_size=10))
limits = mostly([1, 20], [0, -1, 501, *HUGE], st.integers())
queries = mostly(
    ["stack", "coût de mana", "107.3g", "502.9f"],
    ["*", '"', "OR", "NEAR(", "\x00", "a" * 5000, "%_", "\\"],
    st.text(max_size=40),
)

# Each public method of Store, with a strategy for its arguments.
CALLS = {
    "editions": (st.tuples(), st.fixed_dictionaries({"as_of": revisions})),
    "edition": (st.tuples(names), st.fixed_dictionaries({"as_of": revisions})),
    "history": (st.tuples(), st.just({})),
    "show": (
        st.tuples(rules),
        st.fixed_dictionaries(
            {"language": languages, "edition": st.none() | names, "as_of": revisions}
        ),
    ),
    "clauses": (st.tuples(names), st.fixed_dictionaries({"as_of": revisions})),
    "align_rule": (st.tuples(rules), st.fixed_dictionaries({"as_of": revisions})),
    "align_editions": (st.tuples(names, names), st.fixed_dictionaries({"as_of": revisions})),
    "date": (st.tuples(names), st.fixed_dictionaries({"as_of": revisions})),
    "drift": (
        st.tuples(st.none() | rules),
        st.fixed_dictionaries(
            {
                "edition": st.none() | names,
                "reference": st.none() | names,
                "language": languages,
                "as_of": revisions,
            }
        ),
    ),
    "update": (
        st.tuples(names),
        st.fixed_dictionaries(
            {"to": st.none() | names, "source": st.none() | names, "as_of": revisions}
        ),
    ),
    "diff": (
        st.tuples(names, names),
        st.fixed_dictionaries({"rule": st.none() | rules, "as_of": revisions}),
    ),
    "trace": (st.tuples(rules), st.fixed_dictionaries({"as_of": revisions})),
    "search": (
        st.tuples(queries),
        st.fixed_dictionaries(
            {
                "language": languages,
                "edition": st.none() | names,
                "kind": kinds,
                "limit": limits,
                "as_of": revisions,
            }
        ),
    ),
}


def check_api_call(store: mr.Store, name: str, args: tuple, kwargs: dict) -> None:
    try:
        result = getattr(store, name)(*args, **kwargs)
    except MtgRulesError as exc:
        one_line(str(exc))
        assert exc.exit_code in (2, 3, 4), (name, args, kwargs, exc)
        return
    # A result renders as the JSON its command prints.
    for item in result if isinstance(result, list) else [result]:
        if hasattr(item, "as_json"):
            json.dumps(item.as_json(), default=str)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_api_functions_raise_only_mtgrules_errors(small_store, name: str) -> None:
    args, kwargs = CALLS[name]

    @FAST
    @given(args=args, kwargs=kwargs)
    def run(args, kwargs) -> None:
        check_api_call(small_store, name, args, kwargs)

    run()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CALLS))
def test_api_functions_raise_only_mtgrules_errors_heavy(corpus_store, name: str) -> None:
    args, kwargs = CALLS[name]
    # Dating a whole edition against every English one takes about ten seconds.
    examples = HEAVY_EXAMPLES // 6 if name == "date" else HEAVY_EXAMPLES

    @settings(HEAVY, max_examples=max(3, examples))
    @given(args=args, kwargs=kwargs)
    def run(args, kwargs) -> None:
        check_api_call(corpus_store, name, args, kwargs)

    run()


def test_api_ids_past_2_63_are_not_found(small_store) -> None:
    """OverflowError from the driver before, and ValueError for digits that int() refuses."""
    for a, b in (("1", "9223372036854775808"), ("9223372036854775808", "1"), ("1", "²")):
        with pytest.raises(NotFoundError):
            small_store.diff(a, b)
    with pytest.raises(NotFoundError):
        small_store.editions(as_of=2**64)


@pytest.mark.sqlite_only
def test_api_open_store_on_a_damaged_file_is_a_store_error(_corpus_template, tmp_path):
    """The store was fine when opened, and is damaged later: reads raise StoreError, not
    SQLAlchemy's DatabaseError."""
    path = tmp_path / "store.sqlite"
    shutil.copy(_corpus_template, path)
    store = mr.open_store(path)
    assert store.editions()
    store.close()
    conn = sqlite3.connect(path)
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'edition'").fetchone()[0]
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * page : root * page] = b"\xa5" * page  # the edition table's root page
    path.write_bytes(bytes(data))
    store = mr.open_store(path)
    with pytest.raises(mr.StoreError, match="malformed"):
        store.editions()
    store.close()


# --- byte mutations of a real file of each format ------------------------------------------

ARCHIVE = Path(os.environ.get("MTGRULES_ARCHIVE", SHARED / "cr-archive"))


def _markup(name: str) -> Callable[[], bytes]:
    def make() -> bytes:
        from . import test_formats

        return getattr(test_formats, name)().encode("utf-8")

    return make


def _file(path: Path) -> Callable[[], bytes]:
    def read() -> bytes:
        if not path.is_file():
            pytest.skip(f"{path} is not on this machine (MTGRULES_ARCHIVE)")
        return path.read_bytes()

    return read


# (format, the real bytes). The markup pages are real rule lines (107.3 of the corpus) in
# each markup, as tests/test_formats.py builds them.
FORMAT_FILES = [
    ("text", _file(SEEDS / "001_6b17ef9efd2fae21.txt")),
    ("text-bilingual", _file(SEEDS / "002_459ebb4253cf071c.txt")),
    ("pdf", _file(ARCHIVE / "pdf" / "2009-10-01.pdf")),
    ("docx", _file(ARCHIVE / "docx" / "2014-09-26.docx")),
    ("doc", _file(ARCHIVE / "doc" / "2009-07-11.doc")),
    ("rtf", _file(ARCHIVE / "rtf" / "2006-10-01.rtf")),
    ("html", _markup("_html")),
    ("markdown", _markup("_markdown")),
    ("dokuwiki", _markup("_dokuwiki")),
    ("mediawiki", _markup("_mediawiki")),
]
_BYTES: dict[str, bytes] = {}


@st.composite
def mutation(draw, size: int) -> tuple:
    """One damage: bytes overwritten, cut at a point, bytes inserted, a span deleted or
    repeated eight times. Positions are uniform over the file (hypothesis itself would
    favour its first bytes), drawn from a seeded Random that hypothesis reproduces."""
    how = draw(st.sampled_from(["flip", "cut", "insert", "delete", "repeat"]))
    rnd = draw(st.randoms(use_true_random=False))
    at = rnd.randrange(max(1, size))
    junk = rnd.randbytes(rnd.randint(1, 64))
    span = rnd.randint(1, 4096)
    return how, at, junk, span


def mutate(data: bytes, change: tuple) -> bytes:
    how, at, junk, span = change
    if how == "flip":
        return data[:at] + junk + data[at + len(junk) :]
    if how == "cut":
        return data[:at]
    if how == "insert":
        return data[:at] + junk + data[at:]
    if how == "delete":
        return data[:at] + data[at + span :]
    return data[:at] + data[at : at + span] * 8 + data[at + span :]


def check_parse(fmt: str, data: bytes, tmp: Path) -> None:
    """What ingest does before writing anything: decode, then parse. It gives editions or
    one mtgrules error line (a damaged PDF, a zip that is not a DOCX...)."""
    path = tmp / f"damaged-{fmt}"
    try:
        parse_document(path, prepare(data, str(path)))
    except MtgRulesError as exc:
        one_line(str(exc))
        assert exc.exit_code == 2, exc


def _format_test(examples: int, check: Callable):
    @pytest.mark.parametrize("fmt, real", FORMAT_FILES, ids=[f for f, _ in FORMAT_FILES])
    def test(fmt: str, real, tmp_path_factory) -> None:
        data = _BYTES.setdefault(fmt, real())
        tmp = tmp_path_factory.mktemp(f"mutated-{fmt}")

        @settings(FAST, max_examples=examples)
        @given(change=mutation(len(data)))
        def run(change) -> None:
            check(fmt, mutate(data, change), tmp)

        run()

    return test


# A few per format by default (a real PDF parses in about a second); many in the slow run.
test_damaged_real_files_parse_or_fail_cleanly = _format_test(
    int(os.environ.get("MTGRULES_FORMAT_FUZZ_EXAMPLES", "4")), check_parse
)
test_damaged_real_files_parse_or_fail_cleanly_heavy = pytest.mark.slow(
    _format_test(HEAVY_EXAMPLES, check_parse)
)


@pytest.fixture(scope="module")
def ingest_store(tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("fuzz-ingest")
    db = pg_create_database() if ON_PG else str(folder / "store.sqlite")
    store = mr.open_store(db)
    store.ingest(SEEDS)
    store.close()
    yield db
    if ON_PG:
        pg_drop_database(db)


@pytest.mark.slow
@pytest.mark.parametrize("fmt, real", FORMAT_FILES, ids=[f for f, _ in FORMAT_FILES])
def test_ingesting_damaged_real_files_exits_0_or_2(fmt: str, real, ingest_store, tmp_path):
    """The whole command, as a user runs it: exit 0, or one line and exit 2 with the store
    unchanged; never 70."""
    data = _BYTES.setdefault(fmt, real())

    @settings(FAST, max_examples=max(5, HEAVY_EXAMPLES // 4))
    @given(change=mutation(len(data)))
    def run(change) -> None:
        path = tmp_path / f"damaged-{fmt}"  # one name: each success is a new version of it
        path.write_bytes(mutate(data, change))
        before = counts_of(ingest_store)
        proc = run_cli("--db", ingest_store, "ingest", str(path), timeout=600)
        assert proc.returncode in (0, 2), proc.stderr
        if proc.returncode:
            one_line(proc.stderr)
            assert counts_of(ingest_store) == before

    run()
