"""Hostile input: whatever the bytes, ingest succeeds or fails cleanly, leaving the store as
it was; the CLI answers any query string cleanly; HTML escapes rule text; size is bounded.

Property tests run a modest number of examples by default (MTGRULES_HYPOTHESIS_EXAMPLES, 20);
the `slow` copies of each run many more (.ci/run's slow step).
"""

from __future__ import annotations

import codecs
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, inspect, text

from mtgrules.cli import cli
from mtgrules.errors import InputError, MtgRulesError
from mtgrules.ingest import edition_content_hash, ingest_paths
from mtgrules.sources.formats import MAX_BYTES
from mtgrules.sources.pipeline import parse_document
from mtgrules.store import open_store, session_scope

from .conftest import CORPUS, EXTRA, ON_PG, SEEDS, pg_create_database, pg_drop_database

FAST = settings(
    max_examples=int(os.environ.get("MTGRULES_HYPOTHESIS_EXAMPLES", "20")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)
HEAVY = settings(FAST, max_examples=int(os.environ.get("MTGRULES_HYPOTHESIS_HEAVY", "300")))

# Exit codes a user may see from a clean error (errors.py); 70 is an internal error.
CLEAN_EXITS = {0, 1, 2, 3, 4}


# --- one store for the whole module, with the seeds in it ----------------------------------


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Iterator[tuple[Engine, str, Path]]:
    """(engine, db, folder for generated inputs)."""
    folder = tmp_path_factory.mktemp("hostile")
    db = pg_create_database() if ON_PG else str(folder / "store.sqlite")
    engine = open_store(db)
    with session_scope(engine) as s:
        ingest_paths(s, [SEEDS])
    yield engine, db, folder
    engine.dispose()
    if ON_PG:
        pg_drop_database(db)


def counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        names = inspect(conn).get_table_names()
        return {n: conn.execute(text(f'select count(*) from "{n}"')).scalar_one() for n in names}


def ingest_outcome(engine: Engine, path: Path) -> str:
    """Ingest one file: 'ok' or 'error' (a clean MtgRulesError, the store unchanged).
    Anything else, a traceback or a half-written store, fails the test."""
    before = counts(engine)
    try:
        with session_scope(engine) as s:
            ingest_paths(s, [path])
    except MtgRulesError as exc:
        assert str(exc).strip() and "\n" not in str(exc).strip(), "one line per error"
        assert counts(engine) == before
        return "error"
    return "ok"


def check_bytes(store: tuple[Engine, str, Path], data: bytes) -> None:
    engine, _db, folder = store
    path = folder / "hostile.txt"  # one name: each success is a new version of it
    path.write_bytes(data)
    ingest_outcome(engine, path)


def fast_and_heavy(strategy: st.SearchStrategy, check: Callable) -> tuple[Callable, Callable]:
    """The same property as a quick default test and a long `slow` one."""

    @FAST
    @given(value=strategy)
    def fast(store, value) -> None:
        check(store, value)

    @pytest.mark.slow
    @HEAVY
    @given(value=strategy)
    def heavy(store, value) -> None:
        check(store, value)

    return fast, heavy


# --- strategies ----------------------------------------------------------------------------

NEWLINES = ["\n", "\r\n", "\r"]

random_bytes = st.binary(max_size=4096)
# Text that is mostly printable but reaches every plane, controls and odd categories included.
random_unicode = st.text(max_size=2000).map(lambda t: t.encode("utf-8"))


@st.composite
def absurd_label(draw) -> str:
    digits = st.sampled_from(["0123456789", "٠١٢٣٤٥٦٧٨٩", "０１２３４５６７８９", "0"])
    alphabet = draw(digits)
    major = draw(st.text(alphabet=alphabet, min_size=1, max_size=40))
    minor = draw(st.text(alphabet=alphabet, min_size=0, max_size=40))
    letter = draw(st.sampled_from(["", "a", "z", "l", "o", "é", "Z", "ab"]))
    dot = draw(st.sampled_from(["", ".", "..", ". "]))
    return f"{major}.{minor}{letter}{dot}"


@st.composite
def rule_like_document(draw) -> bytes:
    lines = ["Magic: The Gathering Comprehensive Rules", ""]
    fixed = ["999999999999.99999999z. absurd", "100.1. Real rule.", "1. Game Concepts"]
    for _ in range(draw(st.integers(1, 30))):
        kind = draw(st.integers(0, 3))
        if kind == 0:
            lines.append(draw(st.sampled_from(fixed)))
        elif kind == 1:
            lines.append(f"{draw(absurd_label())} {draw(st.text(max_size=80))}")
        elif kind == 2:
            lines.append(f"{draw(absurd_label())}{draw(st.text(max_size=40))}")
        else:
            lines.append(draw(st.text(max_size=120)))
    return draw(st.sampled_from(NEWLINES)).join(lines).encode("utf-8", "surrogatepass")


@st.composite
def long_lines(draw) -> bytes:
    length = draw(st.integers(10_000, 1_500_000))
    unit = draw(st.sampled_from(["a", "規", "x ", "100.1a ", "1", "<&>", "\t", "é"]))
    body = unit * (length // len(unit))
    prefix = draw(st.sampled_from(["100.1. ", "", "Glossary\n\nX\n", "107.3 "]))
    tail = draw(st.sampled_from(["", "\n100.2. short rule\n", "\r"]))
    return (prefix + body + tail).encode("utf-8")


_CORPUS_FILES = sorted(p for p in CORPUS.rglob("*.txt"))


def _decoded_lines(path: Path) -> list[str]:
    from mtgrules.sources.pipeline import read_source

    return read_source(path).text.splitlines()


_LINES_CACHE: dict[Path, list[str]] = {}


@st.composite
def corpus_excerpt(draw) -> str:
    path = draw(st.sampled_from(_CORPUS_FILES))
    lines = _LINES_CACHE.setdefault(path, _decoded_lines(path))
    start = draw(st.integers(0, max(0, len(lines) - 1)))
    size = draw(st.integers(1, 300))
    return "\n".join(lines[start : start + size])


ENCODINGS: dict[str, Callable[[str], bytes]] = {
    "utf-8": lambda t: t.encode("utf-8"),
    "utf-8-sig": lambda t: codecs.BOM_UTF8 + t.encode("utf-8"),
    "utf-16-le": lambda t: codecs.BOM_UTF16_LE + t.encode("utf-16-le"),
    "utf-16-be": lambda t: codecs.BOM_UTF16_BE + t.encode("utf-16-be"),
    "cp1252": lambda t: t.encode("cp1252"),
}


def _outcome_of_parse(path: Path, data: bytes) -> tuple:
    try:
        doc = parse_document(path, data)
    except InputError:
        return ("error",)
    return ("ok", tuple(edition_content_hash(e) for e in doc.editions))


def check_excerpt(store: tuple[Engine, str, Path], excerpt: str) -> None:
    """Every encoding and line ending of the same text parses to the same editions (or fails
    the same way), and ingests cleanly."""
    engine, _db, folder = store
    outcomes = {}
    for enc, encode in ENCODINGS.items():
        for nl in NEWLINES:
            try:
                data = encode(excerpt.replace("\n", nl))
            except UnicodeEncodeError:
                continue  # Chinese has no Windows-1252 form
            path = folder / f"excerpt.{enc}.{len(nl)}{nl == chr(13)}.txt"
            path.write_bytes(data)
            outcomes[(enc, nl)] = _outcome_of_parse(path, data)
            if enc == "utf-16-be" and nl == "\r":
                ingest_outcome(engine, path)
    assert len(set(outcomes.values())) == 1, outcomes


test_random_bytes, test_random_bytes_heavy = fast_and_heavy(random_bytes, check_bytes)
test_random_unicode, test_random_unicode_heavy = fast_and_heavy(random_unicode, check_bytes)
test_rule_like_lines, test_rule_like_lines_heavy = fast_and_heavy(rule_like_document(), check_bytes)
test_long_lines, test_long_lines_heavy = fast_and_heavy(long_lines(), check_bytes)
test_excerpts_every_encoding, test_excerpts_every_encoding_heavy = fast_and_heavy(
    corpus_excerpt(), check_excerpt
)


# --- queries: any string gets a clean answer ------------------------------------------------

query_strings = st.one_of(
    st.text(max_size=60),
    absurd_label(),
    st.sampled_from(["", " ", "107.3", "'", '"', "%", "_", "\\", "*", "OR 1=1", "--", "\x00"]),
)


def check_query(store: tuple[Engine, str, Path], query: str) -> None:
    _engine, db, _folder = store
    if "\x00" in query:
        query = query.replace("\x00", "")  # an argv string cannot hold NUL
    runner = CliRunner()
    for args in (["show", query], ["search", query], ["search", "--json", "--", query]):
        result = runner.invoke(cli, ["--db", db, *args], catch_exceptions=True)
        assert result.exit_code in CLEAN_EXITS, (args, result.output, result.exception)
        exc = result.exception
        assert exc is None or isinstance(exc, SystemExit), (args, exc)


test_queries, test_queries_heavy = fast_and_heavy(query_strings, check_query)


# --- HTML escapes what the rules say ------------------------------------------------------


def test_html_reports_escape_rule_text(new_store, tmp_path: Path) -> None:
    evil = '<script>alert("x")</script> & <img src=x onerror=alert(1)>'
    path = tmp_path / "evil.txt"
    # The second rule is real English rules text: a text whose language cannot be told is
    # refused ("give it with --lang") rather than tagged English.
    plain = "These Magic rules apply to any Magic game with two or more players."
    path.write_text(f"Comprehensive Rules\n\n100.1. {evil}\n\n100.2. {plain}\n", "utf-8")
    engine = open_store(str(new_store))
    assert ingest_outcome(engine, path) == "ok"
    engine.dispose()
    runner = CliRunner()
    rendered = 0
    for args in (["trace", "100.1"], ["drift", "100.1", "--reference", "en-evil"]):
        result = runner.invoke(cli, ["--db", str(new_store), *args, "--format", "html"])
        assert result.exit_code in CLEAN_EXITS, result.output
        if result.exit_code != 0:
            continue  # nothing rendered, nothing to escape
        rendered += 1
        assert "<script>alert" not in result.output
        assert "<img src=x" not in result.output
        if args[0] == "trace":  # trace shows the clause text itself, escaped
            assert "&lt;script&gt;" in result.output
    assert rendered >= 1


# --- size limits ---------------------------------------------------------------------------


# Runs mtgrules as its only child, so RUSAGE_CHILDREN is that one process's peak RSS.
_MEASURE = """
import resource, subprocess, sys
limit = int(sys.argv[1])
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
proc = subprocess.run([sys.executable, "-m", "mtgrules.cli", *sys.argv[2:]], preexec_fn=cap)
sys.stderr.flush()
print("MAXRSS_KIB=%d" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(proc.returncode)
"""


def _run_limited(args: list[str], db: str, limit_bytes: int = 1 << 30):
    """Run mtgrules with its address space capped (a runaway read fails fast instead of
    eating the machine); returns (completed process, the process's peak RSS in MiB)."""
    proc = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(limit_bytes), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "MTGRULES_DB": db, "NO_COLOR": "1"},
        timeout=600,
    )
    out, _, rss = proc.stdout.rpartition("MAXRSS_KIB=")
    proc.stdout = out
    return proc, int(rss) / 1024


def test_100_mb_file_is_refused_clearly_with_little_memory(store, tmp_path: Path) -> None:
    engine, db, _folder = store
    big = tmp_path / "huge.txt"
    with big.open("wb") as f:  # sparse: 100 MB on paper, nothing on disk
        f.truncate(100 * 1000 * 1000)
    assert big.stat().st_size > MAX_BYTES
    before = counts(engine)
    proc, peak_mib = _run_limited(["ingest", str(big)], db)
    assert proc.returncode == 2, proc.stderr
    line = proc.stderr.strip()
    assert "\n" not in line and "100 MB" in line and "50 MiB limit" in line
    assert counts(engine) == before
    print(f"\n100 MB sparse file refused: {line!r}, peak RSS {peak_mib:.0f} MiB")
    # Refused from its size alone: the process never holds the file in memory.
    assert peak_mib < 400, peak_mib


def test_100_mb_of_real_text_is_refused(store, tmp_path: Path) -> None:
    """Not sparse: real rules text repeated to 100 MB, refused the same way."""
    engine, db, _folder = store
    chunk = (EXTRA / "cr-en-2026-01-16.txt").read_bytes()
    big = tmp_path / "huge-real.txt"
    with big.open("wb") as f:
        while f.tell() < 100 * 1000 * 1000:
            f.write(chunk)
    proc, _peak = _run_limited(["ingest", str(big)], db)
    assert proc.returncode == 2 and "limit" in proc.stderr, proc.stderr
    big.unlink()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_endless_device_is_refused(store) -> None:
    """A character device reports size 0 but never ends: it must not be read to the end."""
    _engine, db, _folder = store
    proc, _peak = _run_limited(["ingest", "/dev/zero"], db, limit_bytes=1 << 30)
    assert proc.returncode in {2, 4}, proc.stderr
    assert "internal error" not in proc.stderr


@pytest.mark.slow
def test_file_just_under_the_limit_ingests_within_1_gb(new_store, tmp_path: Path) -> None:
    """The biggest file the limit lets through: real text, renumbered so that every copy is
    new rules, just under MAX_BYTES. It must ingest with the process under 1 GB."""
    base = (EXTRA / "cr-en-2026-01-16.txt").read_text(encoding="utf-8-sig")
    rng = random.Random(6)
    parts, size = [], 0
    while size < MAX_BYTES - len(base.encode()) - 1024:
        # Each copy differs a little so no clause is a duplicate of another.
        part = base.replace("100.1. ", f"100.1. (copy {rng.random():.6f}) ", 1)
        parts.append(part)
        size += len(part.encode())
    big = tmp_path / "just-under.txt"
    big.write_text("".join(parts), encoding="utf-8")
    assert big.stat().st_size <= MAX_BYTES
    t0 = time.monotonic()
    proc, peak_mib = _run_limited(
        ["ingest", "--json", str(big)], str(new_store), limit_bytes=1 << 30
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["clauses_added"] > 10_000
    print(
        f"\n{big.stat().st_size / 1e6:.0f} MB ingested in {time.monotonic() - t0:.0f} s: "
        f"{report['editions_added']} editions, {report['clauses_added']} clauses, "
        f"peak RSS {peak_mib:.0f} MiB"
    )
    assert peak_mib < 1024


def _tiny_rules(count: int) -> bytes:
    rng = random.Random(3)
    words = "the player mana creature spell ability target card battlefield library".split()
    lines = ["Magic: The Gathering Comprehensive Rules", ""]
    for n in range(count):
        lines.append(f"{100 + n // 1000}.{n % 1000 + 1}. {' '.join(rng.choices(words, k=4))}")
    return "\n".join(lines).encode()


@pytest.mark.slow
def test_many_tiny_rules_parse_in_linear_time(tmp_path: Path) -> None:
    """Four times the one-line rules must take about four times as long, not sixteen: a
    hostile file of tiny rules must not turn a 3 MB ingest into minutes (80,000 one-line
    rules parse in 51 s today, against 10 s for the whole 73,000-clause corpus)."""
    timings = []
    for count in (20_000, 80_000):
        data = _tiny_rules(count)
        t0 = time.perf_counter()
        doc = parse_document(tmp_path / "tiny.txt", data)
        timings.append(time.perf_counter() - t0)
        assert sum(len(e.clauses) for e in doc.editions) >= count
    ratio = timings[1] / timings[0]
    print(f"\n20,000 tiny rules: {timings[0]:.1f} s; 80,000: {timings[1]:.1f} s (x{ratio:.1f})")
    assert ratio < 8, timings
