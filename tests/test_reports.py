"""Drift, diff, trace and TMX export on the real bundled corpus.

The facts asserted here were checked by reading the texts: today's 107.3 (2026-01-16) has
a-n and p (no l, no o); the French forum post, the Chinese page and both scraped English
copies stop at 107.3h, the 2009-2014 layout, so they lack 107.3e, h, j, k, m and n and their
107.3h (the Y clause) is today's 107.3p; the Spanish page follows today's English.
"""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mtgrules.ingest import ingest_paths
from mtgrules.store import open_store, session_scope
from mtgrules.store.queries import list_editions

from .conftest import CORPUS, run_cli

NEW_IN_TODAY = ["107.3e", "107.3h", "107.3j", "107.3k", "107.3m", "107.3n"]

# (edition slug, the clauses of today's 107.3 it lacks)
LACKS = [
    ("fr-forum-fr-107.3", NEW_IN_TODAY),
    ("zh-Hant-page-en-zh-107.3", NEW_IN_TODAY),
    ("en-forum-fr-107.3", NEW_IN_TODAY),
    ("en-page-en-zh-107.3", NEW_IN_TODAY),
    ("es-page-es-107.3", []),
    ("zh-Hans-2026-01-16", []),
    ("en-2009-07-11", NEW_IN_TODAY),
    ("en-2020-09-25", ["107.3n"]),
]

# (edition slug, its label, today's label): renumberings the report must name
RENUMBERED = [
    ("fr-forum-fr-107.3", "107.3h", "107.3p"),
    ("fr-forum-fr-107.3", "107.3g", "107.3i"),
    ("zh-Hant-page-en-zh-107.3", "107.3h", "107.3p"),
    ("en-2009-07-11", "107.3e", "107.3f"),
    ("en-2019-10-04", "107.3m", "107.3p"),
]

# (edition slug, clause key, check, severity): what the QA checks must find
CHECKS = [
    ("fr-forum-fr-107.3", "107.3a", "lost-text", "error"),
    ("en-forum-fr-107.3", "107.3c", "lost-text", "error"),
    ("zh-Hant-page-en-zh-107.3", "107.3b", "commentary", "warning"),
    ("fr-forum-fr-107.3", "107.3a", "older-wording", "warning"),
]


@pytest.fixture(scope="module")
def slugs(corpus_db: Path) -> dict[str, int]:
    engine = open_store(str(corpus_db))
    with session_scope(engine) as s:
        out = {e.slug: e.id for e in list_editions(s)}
    engine.dispose()
    return out


@pytest.fixture(scope="module")
def rule_reports(corpus_db: Path) -> dict[str, dict]:
    """drift 107.3, trace 107.3g and a drift against 2009, run once for the module."""
    out = {}
    for name, args in (
        ("drift", ["drift", "107.3"]),
        ("trace", ["trace", "107.3g"]),
        ("drift_2009", ["drift", "107.3", "--reference", "en-2009-07-11", "--lang", "es"]),
    ):
        result = run_cli(*args, "--format", "json", db=corpus_db)
        assert result.returncode == 0, result.stderr
        out[name] = json.loads(result.stdout)
    return out


@pytest.fixture(scope="module")
def drift_107_3(rule_reports: dict[str, dict]) -> dict:
    return rule_reports["drift"]


def test_drift_json_has_the_documented_keys(drift_107_3: dict, slugs: dict[str, int]) -> None:
    d = drift_107_3
    assert {"rule", "reference", "editions", "rows", "missing", "renumbered", "checks"} <= d.keys()
    assert d["rule"] == "107.3"
    assert d["reference"] == slugs["en-2026-01-16"]
    for e in d["editions"]:
        assert {"id", "language", "kind", "date", "source"} <= e.keys()
    keys = [r["key"] for r in d["rows"]]
    assert keys == ["107.3", *(f"107.3{c}" for c in "abcdefghijkmnp")]
    for r in d["rows"]:
        assert {"key", "text", "cells"} <= r.keys()
        assert set(r["cells"]) == {str(e["id"]) for e in d["editions"]}
    for c in d["checks"]:
        assert {"edition", "key", "severity", "check", "message"} <= c.keys()
        assert c["severity"] in ("error", "warning")
    # every language is a column
    assert {e["language"] for e in d["editions"]} >= {"en", "fr", "es", "zh-Hans", "zh-Hant"}


@pytest.mark.parametrize(("slug", "lacks"), LACKS)
def test_drift_names_what_each_edition_lacks(
    drift_107_3: dict, slugs: dict[str, int], slug: str, lacks: list[str]
) -> None:
    assert drift_107_3["missing"][str(slugs[slug])] == lacks


@pytest.mark.parametrize(("slug", "old", "new"), RENUMBERED)
def test_drift_names_renumberings(
    drift_107_3: dict, slugs: dict[str, int], slug: str, old: str, new: str
) -> None:
    items = [(r["edition"], r["from"], r["to"]) for r in drift_107_3["renumbered"]]
    assert (slugs[slug], old, new) in items


@pytest.mark.parametrize(("slug", "key", "check", "severity"), CHECKS)
def test_drift_checks(
    drift_107_3: dict, slugs: dict[str, int], slug: str, key: str, check: str, severity: str
) -> None:
    found = {(c["edition"], c["key"], c["check"], c["severity"]) for c in drift_107_3["checks"]}
    assert (slugs[slug], key, check, severity) in found


def test_spanish_has_no_symbol_or_number_errors(drift_107_3: dict, slugs: dict[str, int]) -> None:
    es = slugs["es-page-es-107.3"]
    assert [
        c for c in drift_107_3["checks"] if c["edition"] == es and c["severity"] == "error"
    ] == []


def test_drift_against_an_older_reference(rule_reports: dict[str, dict], slugs) -> None:
    d = rule_reports["drift_2009"]
    assert d["reference"] == slugs["en-2009-07-11"]
    assert [r["key"] for r in d["rows"]] == ["107.3", *(f"107.3{c}" for c in "abcdefgh")]
    es = str(slugs["es-page-es-107.3"])
    assert d["missing"][es] == []
    # what the Spanish has beyond the 2009 English: the clauses added since
    assert [r["key"] for r in d["extra_rows"]] == NEW_IN_TODAY
    # the Spanish follows today's English, so a 2009 reference raises no symbol error
    assert [c for c in d["checks"] if c["severity"] == "error"] == []


def test_drift_text_shows_the_matrix_and_the_text_to_translate(corpus_db: Path) -> None:
    result = run_cli("drift", "107.3", "--lang", "fr", db=corpus_db)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "fr-forum-fr-107.3" in out and "lacks 6: 107.3e, 107.3h, 107.3j" in out
    # the reference wording a translator must translate for 107.3n
    assert "If a delayed triggered ability created by a resolving spell" in out
    assert "its 107.3h is 107.3p" in out
    assert "\x1b[" not in out  # no colour when not a tty


def test_drift_exit_code(corpus_db: Path) -> None:
    assert run_cli("drift", "107.3", "--lang", "fr", "--exit-code", db=corpus_db).returncode == 1
    same = run_cli(
        "drift", "107.3", "--lang", "zh-Hans", "--reference", "en-2026-01-16", db=corpus_db
    )
    assert same.returncode == 0


def test_whole_edition_drift_chinese_2022(corpus_db: Path, slugs: dict[str, int]) -> None:
    result = run_cli("drift", "--edition", "zh-Hans-2022-06-10", "--format", "json", db=corpus_db)
    assert result.returncode == 0, result.stderr
    d = json.loads(result.stdout)
    assert d["reference"]["id"] == slugs["en-2022-06-10"]  # the English of its date
    assert d["edition"]["id"] == slugs["zh-Hans-2022-06-10"]
    assert {"missing", "added", "renumbered", "checks", "summary"} <= d.keys()
    # same rules, translated: almost every clause is paired and few are missing
    assert d["summary"]["matched"] > 3500
    assert len(d["missing_rules"]) < 20


@pytest.mark.parametrize(
    ("a", "b", "rule", "expect"),
    [
        (
            "en-2009-07-11",
            "en-2026-01-16",
            "107.3",
            "⟦-as he or she pays-⟧⟦+immediately before they pay+⟧",
        ),
        ("en-2009-07-11", "en-2026-01-16", "107.3", "{X}⟦+, [-X],+⟧ or⟦- an-⟧ X"),
        ("en-2009-07-11", "en-2026-01-16", "107.3", "107.3h -> 107.3p  renumbered"),
        ("en-2009-07-11", "en-2026-01-16", "107.3", "+ 107.3n  added"),
    ],
)
def test_diff_text(corpus_db: Path, a: str, b: str, rule: str, expect: str) -> None:
    result = run_cli("diff", a, b, "--rule", rule, db=corpus_db)
    assert result.returncode == 0, result.stderr
    # the terminal output is wrapped: compare with whitespace collapsed
    assert " ".join(expect.split()) in " ".join(result.stdout.split())


def test_diff_json_moves_are_not_delete_plus_insert(corpus_db: Path) -> None:
    result = run_cli(
        "diff",
        "en-2009-07-11",
        "en-2026-01-16",
        "--rule",
        "107.3",
        "--format",
        "json",
        "--exit-code",
        db=corpus_db,
    )
    assert result.returncode == 1  # differences found
    d = json.loads(result.stdout)
    assert {"from": "107.3h", "to": "107.3p"} in d["renumbered"]
    assert d["renumbering"]["renumbered"] == d["summary"]["renumbered"] == len(d["renumbered"])
    assert d["added"] == NEW_IN_TODAY
    assert d["removed"] == []
    reworded = {c["to"]: c["gist"] for c in d["changes"] if c.get("wording_changed")}
    assert reworded["107.3d"] == '"as he or she pays" -> "immediately before they pay"'


def test_diff_of_identical_rule_exits_0(corpus_db: Path) -> None:
    result = run_cli(
        "diff", "en-2025-11-14", "en-2026-01-16", "--rule", "107.3", "--exit-code", db=corpus_db
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No differences." in result.stdout


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["diff", "en-2009-07-11", "zh-Hans-2022-06-10"], 2, "one language"),
        (["diff", "en-1999-01-01", "en-2026-01-16"], 3, "no edition"),
        (["drift"], 2, "give a rule"),
        (["drift", "banana"], 2, "not a rule label"),
        (["trace", "107.3z"], 3, "no clause 107.3z"),
        (["export", "tmx", "--target-lang", "de"], 3, "no de edition"),
        # The option names of an earlier mtgrules (--source is an edition in update).
        (["export", "tmx", "--source", "en", "--target", "fr"], 2, "--source-lang"),
    ],
)
def test_errors_say_what_to_do(corpus_db: Path, args: list[str], code: int, message: str) -> None:
    result = run_cli(*args, db=corpus_db)
    assert result.returncode == code, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


def test_trace_107_3g(rule_reports: dict[str, dict]) -> None:
    d = rule_reports["trace"]
    line = [(s["from"], s["label"], s["event"]) for s in d["english"] if s["track"] == "rule"]
    # 107.3f from the 2009 renumbering, 107.3g from 2020 on
    assert ("2009-07-11", "107.3f") in [(f, lab) for f, lab, _ in line]
    assert ("2020-09-25", "107.3g", "renumbered") in line
    # before it had a number, the rule was a glossary sentence (2006)
    glossary = [s for s in d["english"] if s["track"] == "glossary"]
    assert glossary and glossary[0]["from"].startswith("2006")
    assert "treated as 0" in glossary[0]["text"]
    langs = {t["language"] for t in d["translations"]}
    assert {"fr", "es", "zh-Hans", "zh-Hant"} <= langs
    es = next(t for t in d["translations"] if t["language"] == "es")
    assert es["label"] == "107.3g" and es["label_inferred"]


@pytest.fixture(scope="module")
def reports(corpus_db: Path) -> dict[str, dict]:
    """One report of each kind, computed in-process once (the CLI runs are slower)."""
    from mtgrules.reports.diff import edition_diff
    from mtgrules.reports.drift import edition_drift, rule_drift
    from mtgrules.reports.trace import trace_clause

    engine = open_store(str(corpus_db))
    with session_scope(engine) as s:
        out = {
            "rule_drift": rule_drift(s, "107.3"),
            "edition_drift": edition_drift(s, "fr-forum-fr-107.3"),
            "trace": trace_clause(s, "107.3p"),
            "diff": edition_diff(s, "en-2019-10-04", "en-2020-09-25", rule="107.3"),
        }
    engine.dispose()
    return out


@pytest.mark.parametrize("fmt", ["text", "md", "html", "json"])
@pytest.mark.parametrize("kind", ["rule_drift", "edition_drift", "trace", "diff"])
def test_every_format_renders(reports: dict[str, dict], kind: str, fmt: str) -> None:
    from mtgrules.reports import render_report

    out = render_report(kind, reports[kind], fmt)
    assert out.strip()
    if fmt == "json":
        assert json.loads(out) == json.loads(json.dumps(reports[kind].as_json()))
    if fmt == "html":
        assert out.startswith("<!DOCTYPE html>") and "<script" not in out
        assert "http://" not in out and "https://" not in out  # nothing to fetch


@pytest.mark.parametrize(
    ("args", "expect"),
    [
        (["drift", "107.3", "--format", "md"], "| `107.3p` |"),
        (["trace", "107.3p", "--format", "html"], "<!DOCTYPE html>"),
        (
            ["diff", "en-2019-10-04", "en-2020-09-25", "--rule", "107.3"],
            "107.3m -> 107.3n  renumbered",
        ),
    ],
)
def test_cli_formats(corpus_db: Path, args: list[str], expect: str) -> None:
    result = run_cli(*args, db=corpus_db)
    assert result.returncode == 0, result.stderr
    assert expect in result.stdout


def test_export_tmx_french(tmp_path: Path) -> None:
    # A store of its own, with only the seeds and today's English: the pairs come from the
    # forum page's own English, whatever else the store holds.
    corpus_db = tmp_path / "s.sqlite"
    _ingest(_small_corpus(tmp_path, ["cr-en-2026-01-16.txt"]), corpus_db)
    out = tmp_path / "fr.tmx"
    result = run_cli(
        "export",
        "tmx",
        "--source-lang",
        "en",
        "--target-lang",
        "fr",
        "--rule",
        "107.3",
        "-o",
        str(out),
        db=corpus_db,
    )
    assert result.returncode == 0, result.stderr
    root = ET.parse(out).getroot()
    assert root.get("version") == "1.4"
    tus = root.findall("body/tu")
    rules = [tu.find("prop[@type='x-rule']").text for tu in tus]
    # the French has 9 clauses of 107.3, each paired with the forum's own English
    assert len(tus) == 9 and "107.3p" in rules
    lang = "{http://www.w3.org/XML/1998/namespace}lang"
    y = tus[rules.index("107.3p")]
    fr = [t for t in y.findall("tuv") if t.get(lang) == "fr"][0]
    assert fr.find("prop[@type='x-rule-label']").text == "107.3h"
    assert fr.find("seg").text.startswith("Certains objets utilisent la lettre Y")


def test_export_tmx_chinese_carries_edition_dates(corpus_db: Path) -> None:
    result = run_cli("export", "tmx", "--target-lang", "zh-Hans", "--rule", "107.3", db=corpus_db)
    assert result.returncode == 0, result.stderr
    root = ET.fromstring(result.stdout.encode("utf-8"))
    dates = {p.text for p in root.iter("prop") if p.get("type") == "x-edition-date"}
    assert {"2022-06-10", "2026-01-16"} <= dates


def test_rule_alignment_survives_an_edition_diff(tmp_path: Path) -> None:
    # Regression: align_editions' stored links once replaced those align_rule stored, and
    # the next drift read a broken chain (duplicate groups, the French 107.3h keyed 107.3m).
    db = tmp_path / "s.sqlite"
    editions = ["cr-en-2019-10-04.txt", "cr-en-2020-09-25.txt", "cr-en-2026-01-16.txt"]
    _ingest(_small_corpus(tmp_path, editions), db)
    before = run_cli("drift", "107.3", "--format", "json", db=db)
    run_cli("diff", "en-2019-10-04", "en-2020-09-25", "--rule", "107.3", db=db)
    after = run_cli("drift", "107.3", "--format", "json", db=db)
    assert json.loads(after.stdout)["missing"] == json.loads(before.stdout)["missing"]


# --- proofs that the reports come from the content ---


def _small_corpus(tmp_path: Path, extra: list[str]) -> Path:
    """The seeds and a few full editions, copied; the bundled corpus is never touched."""
    dst = tmp_path / "corpus"
    shutil.copytree(CORPUS / "seeds", dst / "seeds")
    (dst / "corpus-extra").mkdir()
    for name in extra:
        shutil.copy(CORPUS / "corpus-extra" / name, dst / "corpus-extra" / name)
    shutil.copy(CORPUS / "manifest.toml", dst / "manifest.toml")
    return dst


def _ingest(folder: Path, db: Path) -> None:
    engine = open_store(str(db))
    with session_scope(engine) as s:
        ingest_paths(s, [folder])
    engine.dispose()


def test_removing_a_french_clause_makes_drift_report_it(tmp_path: Path) -> None:
    corpus = _small_corpus(tmp_path, ["cr-en-2026-01-16.txt"])
    seed = corpus / "seeds" / "000_0b7a9445b617ebdb.txt"
    raw = seed.read_bytes()
    lines = raw.split(b"\n")
    kept = [ln for ln in lines if not ln.startswith(b"107.3c Si un sort")]
    assert len(kept) == len(lines) - 1
    seed.write_bytes(b"\n".join(kept))
    db = tmp_path / "s.sqlite"
    _ingest(corpus, db)
    result = run_cli("drift", "107.3", "--format", "json", db=db)
    assert result.returncode == 0, result.stderr
    d = json.loads(result.stdout)
    fr = next(e["id"] for e in d["editions"] if e["language"] == "fr")
    en_forum = next(
        e["id"] for e in d["editions"] if e["source"] == "forum-fr-107.3" and e["language"] == "en"
    )
    assert d["missing"][str(fr)] == ["107.3c", *NEW_IN_TODAY]
    assert d["missing"][str(en_forum)] == NEW_IN_TODAY  # its English still has 107.3c


def test_rewording_an_english_clause_makes_diff_show_it(tmp_path: Path) -> None:
    corpus = _small_corpus(tmp_path, ["cr-en-2025-11-14.txt", "cr-en-2026-01-16.txt"])
    path = corpus / "corpus-extra" / "cr-en-2026-01-16.txt"
    raw = path.read_bytes()
    old = b"107.3i Normally, all instances of X"
    assert raw.count(old) == 1
    path.write_bytes(raw.replace(old, b"107.3i Usually, all instances of X"))
    db = tmp_path / "s.sqlite"
    _ingest(corpus, db)
    result = run_cli(
        "diff",
        "en-2025-11-14",
        "en-2026-01-16",
        "--rule",
        "107.3",
        "--format",
        "json",
        "--exit-code",
        db=db,
    )
    assert result.returncode == 1, result.stderr
    d = json.loads(result.stdout)
    assert [(c["kind"], c["to"], c["gist"]) for c in d["changes"]] == [
        ("changed", "107.3i", '"Normally" -> "Usually"')
    ]


@pytest.mark.parametrize(("no_color", "coloured"), [(False, True), (True, False)])
def test_colour_only_on_a_tty_without_no_color(
    corpus_db: Path, no_color: bool, coloured: bool
) -> None:
    import os
    import pty
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["MTGRULES_DB"] = str(corpus_db)
    if no_color:
        env["NO_COLOR"] = "1"
    leader, follower = pty.openpty()
    proc = subprocess.run(
        [sys.executable, "-m", "mtgrules.cli", "drift", "107.3", "--lang", "fr"],
        stdout=follower,
        stderr=subprocess.PIPE,
        env=env,
        timeout=300,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    assert proc.returncode == 0, proc.stderr
    assert (b"\x1b[" in b"".join(chunks)) == coloured


# A number is reused: in cr-en-2009-07-11.txt 702.17 is Trample and 702.19 Banding (702.22
# today); in cr-en-2012-07-01.txt 702.18 is Trample and 702.19 Vigilance (702.20 today);
# since cr-en-2014-09-25.txt Trample is 702.19. `drift 702.19` is about today's Trample.
# Before the 2009 renumbering it was "502.9. Trample" (cr-en-2006-02-01.txt,
# cr-en-2006-10-01.txt, cr-en-2008-05-01.txt, cr-en-2009-05-01.txt): those editions are
# columns of its drift too (its whole lineage, as trace shows it), with their own label.
# (edition, that edition's label for today's 702.19)
TRAMPLE = [
    ("en-2006-02-01", "502.9"),
    ("en-2008-05-01", "502.9"),
    ("en-2009-05-01", "502.9"),
    ("en-2009-07-11", "702.17"),
    ("en-2012-07-01", "702.18"),
    ("en-2014-09-25", None),
]


@pytest.fixture(scope="module")
def drift_702_19(corpus_db: Path) -> dict:
    result = run_cli("drift", "702.19", "--format", "json", db=corpus_db)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_drift_of_a_reused_number_is_today_s_rule(drift_702_19: dict) -> None:
    keys = [r["key"] for r in drift_702_19["rows"]]
    assert keys[0] == "702.19" and all(k == "702.19" or k[:-1] == "702.19" for k in keys), keys


@pytest.mark.parametrize(("slug", "label"), TRAMPLE)
def test_drift_names_trample_s_older_numbers(
    drift_702_19: dict, slugs: dict[str, int], slug: str, label: str | None
) -> None:
    assert drift_702_19["rows"][0]["cells"][str(slugs[slug])] == (label or "702.19")
