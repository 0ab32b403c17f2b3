"""`mtgrules cite`: the rule numbers other texts cite, checked against an edition.

The grammar on small real forms; then real text: the CR's own "See rule ..." references
through two renumberings (checked against `diff`, which reads the same stored links through
another path), the Chinese translations' stale references that the QA checks find, and
small files written in each form (Rust, Python, TypeScript, Markdown, French, Chinese) whose
expected statuses were checked by hand against the store (the reasons are in the tables).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mtgrules.cite.citations import find_citations
from mtgrules.cite.fix import _with_endings
from mtgrules.reports.diff import edition_diff
from mtgrules.sources.decode import decode_text
from mtgrules.store import open_store, session_scope
from mtgrules.text.labels import nearest_labels, split_labelled_line

from .conftest import (
    EXTRA,
    ROOT,
    SHARED,
    copy_store,
    drop_store,
    run_cli,
)

FIXTURES = ROOT / "tests" / "fixtures" / "cite"
ANDROID_2026_02_27 = Path("/work/shared/translations/en-2026-02-27.android.txt")

# --- what counts as a citation ------------------------------------------------------------

# (text, the labels it cites in order)
GRAMMAR: list[tuple[str, list[str]]] = [
    ("CR 702.19b", ["702.19b"]),
    ("CR702.19b", ["702.19b"]),
    ("see rule 702.19b.", ["702.19b"]),
    ("Rule 702.19B", ["702.19b"]),
    ("rules 702.19b and 702.19c", ["702.19b", "702.19c"]),
    ("see rules 509.1a, 509.1b, and 509.1c", ["509.1a", "509.1b", "509.1c"]),
    ("rule 702.19b or rule 702.19c", ["702.19b", "702.19c"]),
    ("702.19b-d", ["702.19b", "702.19c", "702.19d"]),
    ("x 702.19b–702.19d y", ["702.19b", "702.19c", "702.19d"]),
    ("see rules 603.7d–f.", ["603.7d", "603.7e", "603.7f"]),
    ("see rules 119.7–8)", ["119.7", "119.8"]),
    ("rules 601-603", ["601", "602", "603"]),
    ("§702.19b", ["702.19b"]),
    ("§§ 702.19b", ["702.19b"]),
    ("Trample (702.19b) in the rules", ["702.19b"]),
    ("Deathtouch (702.2) is in the\ncomprehensive rules", ["702.2"]),
    ("(CR 702.19b)", ["702.19b"]),
    ("per the Comprehensive Rules 702.19b", ["702.19b"]),
    ("rule 702", ["702"]),
    ("see section 6, “Spells, Abilities, and Effects”", ["6"]),
    ("la règle 702.19b", ["702.19b"]),
    ("la regla 702.19b y 702.19c", ["702.19b", "702.19c"]),
    ("a regra 702.19b", ["702.19b"]),
    ("Regel 702.19b und 702.19c", ["702.19b", "702.19c"]),
    ("la regola 702.19b", ["702.19b"]),
    ("См. правило 702.19b", ["702.19b"]),
    ("参见规则702.19b。", ["702.19b"]),
    ("規則702.19b", ["702.19b"]),
    ("ルール702.19bを参照", ["702.19b"]),
    ("규칙 702.19b", ["702.19b"]),
    ("规则702.19b与规则702.19c", ["702.19b", "702.19c"]),
    ("rule **702.19b**", ["702.19b"]),
    ('rule <a href="#r">702.19b</a>', ["702.19b"]),
    ("[rule 702.19c](https://example.org/#R70219c)", ["702.19c"]),
    ("rule&nbsp;702.19b", ["702.19b"]),
    ("    // 702.19b The controller", ["702.19b"]),
    ("Transform: see 701.28a. Convert is 701.50a.", ["701.28a"]),  # "is 701.50a" says less
    ("voir 702.19b et 702.19c", ["702.19b", "702.19c"]),
    ("Siehe 702.19b", ["702.19b"]),
    ("oversee 702.19b", []),
    (
        "See rules 702.109, “Dash,” 702.152, “Blitz,” and 702.185, “Warp.”",
        ["702.109", "702.152", "702.185"],
    ),
    ("See rules 701.42, “Meld,” and 729, “Merging with Permanents.”", ["701.42", "729"]),
    ("See rule 104, “Winning and Losing,” rule 806.8 (for", ["104", "806.8"]),
    # Never a citation: versions, prices, dates, percentages, counts, floats, headings.
    ("version 1.2.3 costs $702.19 on 2023.11.17", []),
    ("rules v2.0", []),
    ("CR 100.1.2", []),
    ("rule 100%", []),
    ("rules 2009", []),
    ("(702.19 USD) in the rules", []),
    ("float x = 100.5f; // rules", []),
    ("v702.19b-c", []),
    ("rules 702.19 and 100 other rules", ["702.19"]),
    ("rule 7", []),
    ("103. The Magic Golden Rules\n104. Numbers and Symbols", []),
    ("rule 100.000", []),
]


@pytest.mark.parametrize(("text", "labels"), GRAMMAR, ids=[g[0][:40] for g in GRAMMAR])
def test_what_counts_as_a_citation(text: str, labels: list[str]) -> None:
    assert [f.label for f in find_citations(text)] == labels


# (text, label, what is written there, its range, the quotation beside it: kind and text)
DETAILS = [
    ("rules 702.19b-d", "702.19d", "d", "702.19b-d", None),
    ("rules 702.19b-d", "702.19c", None, "702.19b-d", None),
    ("see rules 119.7–8", "119.8", "8", "119.7–8", None),
    ("see rule 611, “Continuous Effects”", "611", "611", None, ("title", "Continuous Effects")),
    ('see rule 611, "Continuous Effects"', "611", "611", None, ("title", "Continuous Effects")),
    ("参见规则606，“忠诚异能”。", "606", "606", None, ("title", "忠诚异能")),
    (
        "// CR 702.19b: The controller of an attacking creature with trample\n"
        "// first assigns damage to the creature(s) blocking it.\nfn x() {}",
        "702.19b",
        "702.19b",
        None,
        (
            "text",
            "The controller of an attacking creature with trample first assigns damage "
            "to the creature(s) blocking it.",
        ),
    ),
    ("/// CR 310.8b: battles\n/// Version 1.2.3", "310.8b", "310.8b", None, ("text", "battles")),
    (
        "“The controller of an attacking creature with trample first assigns damage” (CR 702.19b)",
        "702.19b",
        "702.19b",
        None,
        ("quoted", "The controller of an attacking creature with trample first assigns damage"),
    ),
    (
        "La règle 702.19b dit : « Le contrôleur d’une créature attaquante »",
        "702.19b",
        "702.19b",
        None,
        ("quoted", "Le contrôleur d’une créature attaquante"),
    ),
    # A quotation in a text is not a comment's rule text: "See rule 613.1. The text..."
    ("see rule 613.1. The text after it", "613.1", "613.1", None, None),
    # A term before a parenthesis that points to its rule is no quotation of it: the
    # Japanese translation's lists of subtypes (ja-2026-01-16 205.3g, 205.3h) and its terms
    # (701.32's 「計略を実行中にする」). The same with full-width parentheses, and in English.
    (
        "アーティファクト・タイプには、「アトラクション／Attraction」(rule 717 参照)「血／Blood」",
        "717",
        "717",
        None,
        None,
    ),
    ("「クラス／Class」(rule 716 参照)「呪い／Curse」", "716", "716", None, None),
    ("「装備品／Equipment」（rule 301.5 参照）「食物／Food」", "301.5", "301.5", None, None),
    ("この行動を「計略を実行中にする」(rule 701.32 参照)と言う。", "701.32", "701.32", None, None),
    ("The artifact types are “Attraction” (see rule 717), Blood", "717", "717", None, None),
    # A quotation before a parenthesis that attributes it, half- or full-width.
    (
        "「如果一個咒語或起動式異能的費用中有X」（規則107.3a）",
        "107.3a",
        "107.3a",
        None,
        ("quoted", "如果一個咒語或起動式異能的費用中有X"),
    ),
    (
        "「如果一個咒語或起動式異能的費用中有X」\u3000(規則107.3a)",
        "107.3a",
        "107.3a",
        None,
        ("quoted", "如果一個咒語或起動式異能的費用中有X"),
    ),
]


@pytest.mark.parametrize(("text", "label", "written", "range_text", "quote"), DETAILS)
def test_where_a_citation_is_and_what_is_beside_it(text, label, written, range_text, quote):
    found = {f.label: f for f in find_citations(text)}[label]
    assert (found.written, found.range_text) == (written, range_text)
    assert (found.quote and (found.quote.kind, found.quote.text)) == quote
    if written:
        assert text[found.start : found.end] == written


def test_lines_keep_their_own_endings_for_the_diff() -> None:
    assert _with_endings("a\nb\nc", ["\r\n", "\r"]) == ["a\r\n", "b\r", "c"]
    assert _with_endings("a\nb\n", None) == ["a\n", "b\n"]


# --- helpers --------------------------------------------------------------------------------


def run_cli_bytes(*args: str, db, cwd=None) -> subprocess.CompletedProcess:
    """run_cli, with the output as bytes (a diff keeps its CRLF line endings)."""
    env = {**os.environ, "MTGRULES_DB": str(db), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mtgrules.cli", *args], capture_output=True, env=env, cwd=cwd
    )


def cite_json(db, *args: str) -> tuple[int, dict]:
    result = run_cli("cite", *args, "--json", db=db)
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, json.loads(result.stdout)


def renumbering_by_diff(db, chain: list[str]):
    """label -> the labels it has at the end of ``chain`` (an empty set: removed), composed
    from `diff` of each step: the stored links, read through the diff report."""
    engine = open_store(str(db))
    steps = []
    with session_scope(engine, write=False) as s:
        for a, b in zip(chain, chain[1:], strict=False):
            report = edition_diff(s, a, b)
            moved: dict[str, set[str]] = {}
            for m in report.renumbered:
                moved.setdefault(m["from"], set()).add(m["to"])
            steps.append((moved, set(report.removed)))
    engine.dispose()

    def follow(label: str) -> set[str]:
        labels = {label}
        for moved, removed in steps:
            nxt: set[str] = set()
            for lab in labels:
                if lab in moved:
                    nxt |= moved[lab]
                elif lab not in removed:
                    nxt.add(lab)
            labels = nxt
        return labels

    return follow


_SEE = re.compile(r"[Ss]ee (?:also )?rules? ")
_SEE_LABEL = re.compile(
    r"(\d{3}(?:\.\d+[a-z]?)?)(?:[–-][a-z0-9]+)?(?:, “[^”]*”)?(,? (?:and|or) |, )?"
)


def see_rule_labels(path: Path) -> list[tuple[int, int, str]]:
    """(line, column, label) of every label after "See rule(s)" in a rules file: a finder of
    its own, simpler than cite's, for the two to be compared."""
    text, _ = decode_text(path.read_bytes(), str(path))
    out = []
    for i, line in enumerate(re.split(r"\r\n|\r|\n", text.lstrip("\ufeff")), 1):
        for m in _SEE.finditer(line):
            pos = m.end()
            while (k := _SEE_LABEL.match(line, pos)) is not None:
                out.append((i, k.start(1) + 1, k.group(1)))
                if not k.group(2):
                    break
                pos = k.end()
    return out


def check_see_rules(db, path: Path, chain: list[str]) -> list[tuple[dict, set[str]]]:
    """Every See-rule label of ``path`` checked against the end of ``chain``; returns the
    citations whose status is not what the stored renumbering says, with what it says."""
    _code, doc = cite_json(db, str(path), "--written-for", chain[0], "--against", chain[-1])
    by_place = {(c["line"], c["column"], c["cited"]): c for c in doc["citations"]}
    follow = renumbering_by_diff(db, chain)
    wanted = see_rule_labels(path)
    assert len(wanted) > 600
    odd = []
    for line, column, label in wanted:
        c = by_place.get((line, column, label))
        assert c is not None, (line, column, label)
        expect = follow(label)
        agrees = (
            (c["status"] == "current" and label in expect)
            or (c["status"] == "renumbered" and c["now"] in expect and label not in expect)
            or (c["status"] == "removed" and not expect)
        )
        if not agrees:
            odd.append((c, expect))
    return odd


# --- the CR's own cross-references -----------------------------------------------------------


def test_see_rules_of_2009_05_01_come_out_as_the_stored_renumbering_of_july_2009(corpus_db):
    odd = check_see_rules(
        corpus_db, EXTRA / "cr-en-2009-05-01.txt", ["en-2009-05-01", "en-2009-07-11"]
    )
    assert odd == []


@pytest.fixture(scope="module")
def store_with_2026_02_27(_corpus_template, tmp_path_factory) -> Iterator[str]:
    """The corpus store with the English of 2026-02-27 ingested (and aligned with 2026-01-16)."""
    if not ANDROID_2026_02_27.exists():
        pytest.skip("needs /work/shared/translations/en-2026-02-27.android.txt")
    db = str(copy_store(_corpus_template, tmp_path_factory.mktemp("cite-2026-02")))
    result = run_cli("ingest", str(ANDROID_2026_02_27), db=db)
    assert result.returncode == 0, result.stderr
    yield db
    drop_store(db)


def test_see_rules_of_2025_11_14_come_out_as_the_stored_renumberings_to_2026_02_27(
    store_with_2026_02_27,
):
    """Two steps (2026-01-16, then 2026-02-27). Three See-rule references of the 2025 text
    differ from what the links say, each a real error of the official text, checked by hand:
    607.2m's "See rule 614.12b" is the anchor-word rule, which 2025-11-14 moved to 614.12c
    (a new 614.12b was inserted; the words around the citation are 614.12c's); "See rule
    702.62, “Endure.”" names Endure, which is 701.63 (702.62 is Suspend); "see rule 110.10"
    for predefined tokens is in no edition (111.10 is)."""
    odd = check_see_rules(
        store_with_2026_02_27,
        EXTRA / "cr-en-2025-11-14.txt",
        ["en-2025-11-14", "en-2026-01-16", "en-2026-02-27"],
    )
    found = {(c["cited"], c["status"]) for c, _expect in odd}
    assert found == {
        ("614.12b", "renumbered"),
        ("702.62", "quote-mismatch"),
        ("110.10", "never-existed"),
    }
    by = {c["cited"]: c for c, _expect in odd}
    assert by["614.12b"]["now"] == "614.12c" and "context" in by["614.12b"]["evidence"]
    assert by["702.62"]["evidence"]["quote_holder"]["label"] == "701.63"
    assert "111.10" in by["110.10"]["evidence"]["nearest"]


def test_a_quotation_the_rule_no_longer_says_is_noted(store_with_2026_02_27, tmp_path) -> None:
    """2026-02-27 took "A ninjutsu ability may be activated only while a creature on the
    battlefield is unblocked" out of 702.49c (`mtgrules diff en-2026-01-16 en-2026-02-27`
    shows it; checked by hand in both files). An article of January 2026 that quotes it is
    still right about the number, and the number is still current; the note says the rule
    was reworded since, with its text now."""
    article = tmp_path / "ninjutsu.md"
    article.write_text(
        'Per CR 702.49c, "A ninjutsu ability may be activated only while a creature on the '
        'battlefield is unblocked."\nTrample is rule 702.19b.\n',
        "utf-8",
    )
    args = ["cite", str(article), "--written-for", "en-2026-01-16"]
    result = run_cli(*args, "--json", db=store_with_2026_02_27)
    assert result.returncode == 0, result.stderr
    by = {c["cited"]: c for c in json.loads(result.stdout)["citations"]}
    assert by["702.49c"]["status"] == "current"
    assert by["702.49c"]["evidence"]["quote"] == {
        "text": "A ninjutsu ability may be activated only while a creature on the battlefield "
        "is unblocked.",
        "kind": "quoted",
        "matches": True,
        "in_target": False,
    }
    assert by["702.49c"]["evidence"]["now_text"].startswith(
        "The creature put onto the battlefield with the ninjutsu ability enters attacking"
    )
    assert "in_target" not in json.dumps(by["702.19b"]["evidence"])
    text = run_cli(*args, db=store_with_2026_02_27)
    assert text.returncode == 0
    assert (
        f"{article}:1:8: 702.49c current (read in en-2026-01-16), note: its rule was reworded"
        in (text.stdout)
    )
    # Written for 2026-02-27 itself, the quotation is simply not the rule's words.
    same = run_cli(
        "cite", str(article), "--written-for", "en-2026-02-27", "--json", db=store_with_2026_02_27
    )
    assert "in_target" not in same.stdout


def test_checked_against_an_older_edition_a_text_that_fits_it_is_read_as_its(
    store_with_2026_02_27, tmp_path
) -> None:
    """2026-02-27 inserted a new 506.3d (old 506.3d-f moved one down, as `mtgrules diff
    en-2026-01-16 en-2026-02-27` shows). "See rule 506.3d" fits 2012 to 2026-02-27 as well;
    checked against 2026-01-16, it is read as 2026-01-16's 506.3d (the target among the
    editions that fit), so it is current; read as 2026-02-27's, the rule is not in 2026-01-16
    yet. The --written-for date form names the edition in force then."""
    text = tmp_path / "blockers.md"
    text.write_text("See rule 506.3d and rule 702.19b.\n", "utf-8")
    inferred = run_cli(
        "cite", str(text), "--against", "en-2026-01-16", "--json", db=store_with_2026_02_27
    )
    assert inferred.returncode == 0, inferred.stdout
    doc = json.loads(inferred.stdout)
    assert doc["written_for"]["edition"]["slug"] == "en-2026-01-16"
    assert doc["written_for"]["reason"].endswith("the target among them")
    assert [c["status"] for c in doc["citations"]] == ["current", "current"]
    newer = run_cli(
        "cite",
        str(text),
        "--against",
        "en-2026-01-16",
        "--written-for",
        "2026-03-01",
        "--json",
        db=store_with_2026_02_27,
    )
    assert newer.returncode == 1
    doc = json.loads(newer.stdout)
    assert doc["written_for"]["edition"]["slug"] == "en-2026-02-27"
    assert doc["written_for"]["reason"] == "--written-for 2026-03-01, the edition in force then"
    by = {c["cited"]: c for c in doc["citations"]}
    assert by["506.3d"]["status"] == "removed" and by["702.19b"]["status"] == "current"
    assert by["506.3d"]["evidence"]["last_edition"] == "en-2026-02-27"


# --- the Chinese translations' stale references ----------------------------------------------

# (translation, its file, the English of its date, {cited: its number now}) -- each one a
# rule reference the QA checks flag ("source cites X, this text cites Y"), checked by hand:
# 508.5 is 2016's number of today's 508.8 (no attackers: skip the blockers and damage
# steps); 704.5x is 2019's 704.6f (planechase); 701.27 "转化" (Transform) is 701.28 in 2022;
# 719 is 2020's 722 (restarting the game); 725 "..." is 726 in 2023.
CHINESE = [
    (
        "zh-Hans-2022-06-10",
        "cr-zh-2022-06-10.txt",
        "en-2022-06-10",
        {"508.5": "508.8", "704.5x": "704.6f", "701.27": "701.28", "719": "722"},
    ),
    (
        "zh-Hans-2023-11-17",
        "cr-zh-2023-11-17.txt",
        "en-2023-11-17",
        {"508.5": "508.8", "725": "726"},
    ),
]


def qa_rule_references(db, translation: str, english: str) -> dict[str, tuple[set, set]]:
    """label -> (what the source cites, what the translation cites) for each clause the QA
    rule-reference check flags."""
    result = run_cli(
        "drift", "--edition", translation, "--reference", english, "--format", "json", db=db
    )
    assert result.returncode == 0, result.stderr
    out = {}
    for f in json.loads(result.stdout)["checks"]:
        if f["check"] != "rule-references":
            continue
        m = re.match(
            r"rule references differ: source cites (.*), this text cites (.*)$", f["message"]
        )
        assert m, f["message"]
        parse = lambda s: set() if s == "none" else set(s.split(", "))  # noqa: E731
        out[f["label"]] = (parse(m[1]), parse(m[2]))
    return out


@pytest.mark.parametrize(
    ("translation", "file", "english", "stale"), CHINESE, ids=[c[0] for c in CHINESE]
)
def test_the_chinese_stale_references_the_qa_checks_find(
    corpus_db, translation, file, english, stale
):
    path = EXTRA / file
    _code, doc = cite_json(corpus_db, str(path), "--against", english)
    assert doc["written_for"]["edition"]["slug"] == english  # inferred
    qa = qa_rule_references(corpus_db, translation, english)
    lines = re.split(r"\r\n|\r|\n", path.read_text(encoding="utf-8-sig"))
    found = {}
    for c in doc["citations"]:
        if c["status"] == "current":
            continue
        held = c["evidence"].get("quote_holder") or {}
        now = c["now"] if c["status"] == "renumbered" else held.get("now")
        clause = split_labelled_line(lines[c["line"] - 1])
        if clause and clause[0] in qa and c["cited"] in qa[clause[0]][1] - qa[clause[0]][0]:
            # The QA check flags this clause for this number: cite's new number is the one
            # the English of the same date cites.
            assert now in qa[clause[0]][0], (c, qa[clause[0]])
            found[c["cited"]] = now
    assert found == stale


def test_a_translation_is_read_in_its_own_language(corpus_db):
    """Quotations in Chinese are compared with the Chinese editions: 701.28's title in
    2026 is 转换 (Convert); 转化 (Transform) is 701.27."""
    _code, doc = cite_json(corpus_db, str(FIXTURES / "article.zh.txt"))
    by = {c["cited"]: c for c in doc["citations"]}
    assert by["702.19b"]["status"] == "current"
    assert by["701.28"]["status"] == "quote-mismatch"
    assert by["701.28"]["evidence"]["quote_holder"] == {
        "label": "701.27",
        "edition": "zh-Hans-2026-01-16",
        "now": "701.27",
        "score": 100.0,
    }


# --- small files in each form ----------------------------------------------------------------

# (file, line, cited, status, now) of every citation, against the newest English of the
# corpus (en-2026-01-16). Checked by hand against `mtgrules show` and `mtgrules diff
# en-2025-11-14 en-2026-01-16`: in 2026 "Friends forever" (702.124k) is gone and 702.124m,
# n, p moved up to k, m, n; 508.8 was 508.5 until 2016; 702.17 is Reach and Deathtouch is
# 702.2; 502.9 was trample until the 2009 renumbering made it 702.19.
SMALL_FILES = {
    "partner.rs": [
        (4, "702.124m", "renumbered", "702.124k"),
        (9, "702.124n", "renumbered", "702.124m"),
        (14, "702.124p", "renumbered", "702.124n"),
        (17, "702.124k", "removed", None),
        (20, "702.19b", "current", "702.19b"),
        (20, "702.19c", "current", "702.19c"),
    ],
    "combat.py": [
        (1, "510", "current", "510"),
        (8, "510.1c", "current", "510.1c"),
        (8, "510.1d", "current", "510.1d"),
        (14, "508.5", "renumbered", "508.8"),
        (18, "702.9b", "current", "702.9b"),
        (21, "702.17", "quote-mismatch", "702.17"),
    ],
    "casting.ts": [
        *[(2, f"601.2{x}", "current", f"601.2{x}") for x in "abcdefgh"],
        (3, "605.1a", "current", "605.1a"),
        (3, "605.1b", "current", "605.1b"),
        (9, "702.19b", "current", "702.19b"),
        (12, "702.999", "never-existed", None),
    ],
    "article.md": [
        (3, "702.19b", "current", "702.19b"),
        (4, "702.2", "current", "702.2"),
        (7, "702.19b", "current", "702.19b"),
        (9, "702.19c", "current", "702.19c"),
        (10, "502.9", "renumbered", "702.19"),
    ],
    "article.fr.txt": [
        (3, "702.19b", "current", "702.19b"),
        (3, "702.19c", "current", "702.19c"),
        (3, "702.19d", "current", "702.19d"),
        (3, "702.2", "current", "702.2"),
    ],
    "article.zh.txt": [
        (3, "702.19b", "current", "702.19b"),
        (3, "701.28", "quote-mismatch", "701.28"),
    ],
}


@pytest.fixture(scope="module")
def small_files(corpus_db) -> dict[str, dict]:
    _code, doc = cite_json(corpus_db, str(FIXTURES))
    return doc


@pytest.mark.parametrize("name", sorted(SMALL_FILES))
def test_small_files_in_each_form(small_files, name: str) -> None:
    got = [
        (c["line"], c["cited"], c["status"], c["now"])
        for c in small_files["citations"]
        if Path(c["path"]).name == name
    ]
    assert got == SMALL_FILES[name]


def test_the_edition_a_text_was_written_for_is_inferred_and_said(corpus_db) -> None:
    # 702.124p exists only in 2025-11-14: the Rust file was written for it.
    _code, doc = cite_json(corpus_db, str(FIXTURES / "partner.rs"))
    w = doc["written_for"]
    assert w["edition"]["slug"] == "en-2025-11-14" and w["inferred"] is True
    assert w["candidates"][0] == {"edition": "en-2025-11-14", "exist": 6, "fit": 0}
    assert "en-2025-11-14" in w["reason"]
    _code, given = cite_json(corpus_db, str(FIXTURES / "partner.rs"), "--written-for", "2026-01-20")
    assert given["written_for"]["edition"]["slug"] == "en-2026-01-16"
    assert given["written_for"]["inferred"] is False
    # Read as written for 2026, the same numbers exist; 702.124p, which 2026 lacks, is read
    # in the last edition before it that has it. And the quotation beside 702.124m, "Choose a
    # Background", is 2026's 702.124k: in 2026's numbering that number is wrong.
    by = {c["cited"]: c for c in given["citations"]}
    statuses = {c["cited"]: (c["status"], c["now"]) for c in given["citations"]}
    assert statuses["702.124m"] == ("quote-mismatch", "702.124m")
    assert by["702.124m"]["evidence"]["quote_holder"]["label"] == "702.124k"
    assert statuses["702.124k"] == ("current", "702.124k")
    assert statuses["702.124p"] == ("renumbered", "702.124n")


def test_evidence_names_the_texts_and_editions(small_files) -> None:
    by = {(Path(c["path"]).name, c["cited"]): c for c in small_files["citations"]}
    renumbered = by[("partner.rs", "702.124m")]["evidence"]
    assert renumbered["read_in"] == "en-2025-11-14"
    assert renumbered["text"].startswith('"Choose a Background" means')
    assert renumbered["now_text"] == renumbered["text"]
    removed = by[("partner.rs", "702.124k")]["evidence"]
    assert removed["last_edition"] == "en-2025-11-14" and removed["gone_in"] == "en-2026-01-16"
    assert removed["text"].startswith('"Friends forever" means')
    assert "another rule" in removed["note"]
    mismatch = by[("combat.py", "702.17")]["evidence"]
    assert mismatch["quote"] == {"text": "Deathtouch", "kind": "title", "matches": False}
    assert mismatch["quote_holder"]["label"] == "702.2"
    french = by[("article.fr.txt", "702.19b")]["evidence"]
    assert "matches" not in french["quote"] and "no dated edition in fr" in french["note"]
    never = by[("casting.ts", "702.999")]["evidence"]
    assert never["nearest"] and all(n.startswith(("702", "703")) for n in never["nearest"])


# --- the command ------------------------------------------------------------------------------


def test_exit_codes_and_the_text_report(corpus_db) -> None:
    clean = run_cli("cite", str(FIXTURES / "article.fr.txt"), db=corpus_db)
    assert clean.returncode == 0, clean.stderr
    assert "4 citations in 1 file checked against en-2026-01-16" in clean.stdout
    stale = run_cli("cite", str(FIXTURES / "partner.rs"), db=corpus_db)
    assert stale.returncode == 1
    assert (
        f"{FIXTURES / 'partner.rs'}:4:8: 702.124m renumbered: now 702.124k (read in en-2025-11-14)"
        in stale.stdout
    )
    assert "702.124k removed: last in en-2025-11-14, gone in en-2026-01-16" in stale.stdout
    # Moved with the same words (checked by hand in both editions): the text shown once.
    assert '702.124m then, 702.124k now (the same words): "Choose a Background" means' in (
        stale.stdout
    )


def test_fix_prints_a_diff_that_git_apply_accepts(corpus_db, tmp_path) -> None:
    work = tmp_path / "src"
    work.mkdir()
    (work / "partner.rs").write_bytes(
        (FIXTURES / "partner.rs").read_bytes().replace(b"\n", b"\r\n")
    )
    # Bytes, not text: the diff keeps the file's CRLF line endings.
    result = run_cli_bytes("cite", "src", "--fix", db=corpus_db, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    diff = result.stdout
    assert diff.startswith(b"--- a/src/partner.rs\n+++ b/src/partner.rs\n")
    text = diff.decode()
    assert "-/// CR 702.124m:" in text and "+/// CR 702.124k:" in text
    assert "+// See rule 702.124n:" in text and "+/// CR 702.124m — Doctor" in text
    assert b"The diff replaces 3 numbers." in result.stderr
    # Never edited in place; the diff applies to the CRLF file as it is.
    assert b"702.124m" in (work / "partner.rs").read_bytes()
    (tmp_path / "fix.patch").write_bytes(diff)
    applied = subprocess.run(
        ["patch", "-p1", "-i", "fix.patch"], cwd=tmp_path, capture_output=True, text=True
    )
    assert applied.returncode == 0, applied.stdout + applied.stderr
    fixed = (work / "partner.rs").read_bytes()
    assert b'/// CR 702.124k: "Choose a Background"' in fixed
    assert fixed.count(b"\r\n") == fixed.count(b"\n")
    # Fixed, the file is written for 2026: nothing renumbered is left.
    again = run_cli(
        "cite", str(work / "partner.rs"), "--written-for", "en-2026-01-16", db=corpus_db
    )
    assert "renumbered" not in again.stdout


def test_a_range_keeps_its_short_form_when_fixed(corpus_db, tmp_path) -> None:
    # 702.124m-n of 2025 is 702.124k-m in 2026.
    (tmp_path / "range.md").write_text("Partner variants: rules 702.124m-n and 702.124p.\n")
    result = run_cli(
        "cite", "range.md", "--fix", "--written-for", "en-2025-11-14", db=corpus_db, cwd=tmp_path
    )
    assert "+Partner variants: rules 702.124k-m and 702.124n.\n" in result.stdout


def test_binary_files_are_skipped_and_unreadable_paths_get_one_line(corpus_db, tmp_path) -> None:
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    (tmp_path / "blob.bin").write_bytes(bytes(range(256)) * 16)
    (tmp_path / "notes.txt").write_text("See rule 702.19b.\n")
    locked = tmp_path / "locked.txt"
    locked.write_text("rule 702.19b\n")
    locked.chmod(0)
    try:
        result = run_cli("cite", str(tmp_path), db=corpus_db)
    finally:
        locked.chmod(0o644)
    lines = result.stderr.splitlines()
    assert (
        f"mtgrules: note: {tmp_path / 'image.png'}: a binary file (a PNG image); skipped." in lines
    )
    assert f"mtgrules: note: {tmp_path / 'blob.bin'}: a binary file; skipped." in lines
    import os

    if os.geteuid() != 0:  # root reads anything
        assert f"mtgrules: error: {locked}: permission denied; skipped." in lines
        assert result.returncode == 2  # a path could not be read
    else:
        assert result.returncode == 0
    assert "Traceback" not in result.stderr
    assert "1 file" in result.stdout or "2 files" in result.stdout


# A path named on the command line that cannot be read: (case, how to make it, the error
# after "PATH: "). One line on stderr naming it and what to do, exit code 2, whatever else
# is named beside it; met inside a folder, the same binary file is a note (above).
NAMED_UNREADABLE = [
    ("missing", lambda p: None, "no such file or folder; check the path"),
    ("empty folder", lambda p: p.mkdir(), "a folder with no file; name the files or folders"),
    (
        "folder of binaries",
        lambda p: (p.mkdir(), (p / "x.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(256))),
        "a folder with no file cite can read (1 skipped); name the files or folders",
    ),
    (
        "file named as a folder",
        lambda p: p.with_name("file.txt").write_text("rule 702.19b\n"),
        "not a folder (a file named with a trailing /); check the path",
    ),
    (
        # NUL bytes in the middle of text, as in a file cut from a binary.
        "binary bytes",
        lambda p: p.write_bytes(b"See rule 702.19b.\x00\x01\x02\x03" * 64),
        "a binary file; cite reads text, PDF, DOCX, .doc and RTF files: convert it",
    ),
    (
        "bytes no encoding fits",
        lambda p: p.write_bytes(b"\xff\xfe\x00\xd8 rule 702.19b"),
        "starts with a utf-16-le-bom byte-order mark but is not valid utf-16 (byte 2); "
        "cite reads text",
    ),
]


@pytest.mark.parametrize(
    ("case", "make", "error"), NAMED_UNREADABLE, ids=[c[0] for c in NAMED_UNREADABLE]
)
@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["text", "json"])
def test_a_named_path_that_cannot_be_read_is_an_error(
    corpus_db, tmp_path, case, make, error, mode
) -> None:
    path = tmp_path / "named"
    make(path)
    name = str(tmp_path / "file.txt") + "/" if case == "file named as a folder" else str(path)
    result = run_cli("cite", name, *mode, db=corpus_db)
    assert result.returncode == 2, (result.stdout, result.stderr)
    # One error line (a binary file inside a named folder keeps its note above it).
    errors = [line for line in result.stderr.splitlines() if "error" in line]
    assert len(errors) == 1, result.stderr
    assert errors[0].startswith(f"mtgrules: error: {name}: {error}"), result.stderr


def test_a_named_special_file_is_refused_before_any_work(corpus_db) -> None:
    result = run_cli("cite", os.devnull, str(FIXTURES / "article.md"), db=corpus_db)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        f"mtgrules: error: {os.devnull}: not a regular file; cite reads text, PDF, DOCX, .doc "
        "and RTF files: convert it, or leave it out\n"
    )


def test_pdf_and_docx_go_through_the_intake(corpus_db, tmp_path) -> None:
    from docx import Document

    doc = Document()
    doc.add_paragraph("Trample")
    doc.add_paragraph("See rule 702.124p for partner abilities named by name, and CR 702.19b.")
    doc.save(tmp_path / "article.docx")
    code, out = cite_json(
        corpus_db, str(tmp_path / "article.docx"), "--written-for", "en-2025-11-14"
    )
    assert [(c["line"], c["cited"], c["status"], c["now"]) for c in out["citations"]] == [
        (2, "702.124p", "renumbered", "702.124n"),
        (2, "702.19b", "current", "702.19b"),
    ]
    fix = run_cli(
        "cite",
        str(tmp_path / "article.docx"),
        "--fix",
        "--written-for",
        "en-2025-11-14",
        db=corpus_db,
    )
    assert fix.stdout == "" and "cannot be patched" in fix.stderr


def test_bad_arguments(corpus_db) -> None:
    for args, message in [
        (("--against", "zh-Hans-2022-06-10"), "must be an official English edition"),
        (("--written-for", "1999-01-01"), "no English edition in the store is dated on or before"),
        (("--against", "en-1999"), "no edition 'en-1999'"),
        (("--json", "--fix"), "--fix prints a diff"),
    ]:
        result = run_cli("cite", str(FIXTURES / "article.md"), *args, db=corpus_db)
        assert result.returncode == 2 or result.returncode == 3, result.stderr
        assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_standard_input(corpus_db) -> None:
    result = run_cli("cite", "-", "--json", db=corpus_db, input="// CR 702.124p\n")
    doc = json.loads(result.stdout)
    assert [(c["path"], c["cited"]) for c in doc["citations"]] == [("-", "702.124p")]


# The peak of the command itself: VmHWM belongs to the process's own memory since exec
# (ru_maxrss would include the pytest process it was forked from).
_PEAK = (
    "import re, sys\n"
    "from mtgrules.cli import cli\n"
    "try:\n"
    "    cli.main(sys.argv[1:], prog_name='mtgrules')\n"
    "except SystemExit as exc:\n"
    "    code = exc.code\n"
    "hwm = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1)\n"
    "print(hwm, code, file=sys.stderr)\n"
)


def _peak_kb(db, folder: Path) -> tuple[int, int]:
    env = {**os.environ, "MTGRULES_DB": str(db)}
    result = subprocess.run(
        [sys.executable, "-c", _PEAK, "cite", str(folder), "--json"],
        capture_output=True,
        text=True,
        env=env,
    )
    peak, code = result.stderr.split()[-2:]
    assert int(code) == 1, result.stderr[-500:]
    summary = json.loads(result.stdout)["summary"]
    return int(peak), summary["citations"]


@pytest.mark.slow
def test_a_folder_of_50000_files_in_bounded_memory(corpus_db, tmp_path) -> None:
    """Memory grows with the largest file and the distinct numbers cited, not with the
    number of files: 50,000 files take no more than 5,000 (plus a few MB for the list of
    one folder's names)."""

    def tree(root: Path, n: int) -> Path:
        for i in range(n):
            sub = root / f"pkg{i // 1000:03}"
            sub.mkdir(parents=True, exist_ok=True)
            label = ["702.19b", "702.124p", "601.2f", "508.5"][i % 4]
            (sub / f"m{i:05}.py").write_text(f"# CR {label}: see the rules\nx = {i}\n")
        return root

    small_kb, small_n = _peak_kb(corpus_db, tree(tmp_path / "small", 5_000))
    large_kb, large_n = _peak_kb(corpus_db, tree(tmp_path / "large", 50_000))
    assert (small_n, large_n) == (5_000, 50_000)
    print(f"peak: {small_kb} KB for 5,000 files, {large_kb} KB for 50,000")
    assert large_kb - small_kb < 10_000, (small_kb, large_kb)


# --- each file its own edition ------------------------------------------------------------------

SEEDS_SHARED = Path("/work/shared/seeds")

# (file, a line of it as it is in /work/shared/seeds, the edition it is read as written for,
# its citations' statuses). Checked together in one run: 601 "Casting Spells" is today's
# numbering (2009-07-11 on); 409 "Playing Spells and Activated Abilities" and 410 "Handling
# Triggered Abilities" are the numbering before July 2009 (`mtgrules show 409 --all`). Read
# as one text, the run took 2009-05-01 for all, and today's 601 became a quote-mismatch
# ("Limited Range of Influence Option" was 2009's 601).
EACH_FILE = [
    (
        "002_459ebb4253cf071c.txt",
        "the controller of that spell or ability chooses and announces the value of X as "
        "part of casting the spell or activating the ability. (See rule 601, “Casting "
        "Spells.”) While a spell is on the stack, any X in its mana cost equals the "
        "announced value.\n",
        "en-2026-01-16",
        ["current"],
    ),
    (
        "003_d4b01747a11831e4.txt",
        'If a cost has an "{X}" in it, the value of X must be announced as part of playing '
        'the spell or ability. (See rule 409, "Playing Spells and Activated Abilities.")\n'
        "In triggered abilities, X is defined when the ability resolves. It may be defined "
        "by the text of the ability, by a keyword ability of the card, or by the trigger "
        'event. See rule 410, "Handling Triggered Abilities."\n',
        "en-2009-05-01",
        ["removed", "renumbered"],
    ),
]


@pytest.fixture(scope="module")
def each_file_run(corpus_db, tmp_path_factory) -> tuple[dict, str]:
    folder = tmp_path_factory.mktemp("each-file")
    for name, text, _edition, _statuses in EACH_FILE:
        if (SEEDS_SHARED / name).exists():
            assert text.splitlines()[0][-40:] in (SEEDS_SHARED / name).read_text("utf-8")
        (folder / name).write_text(text, "utf-8")
    paths = [str(folder / name) for name, *_rest in EACH_FILE]
    _code, doc = cite_json(corpus_db, *paths)
    text = run_cli("cite", *paths, db=corpus_db)
    return doc, text.stdout


@pytest.mark.parametrize(("name", "text", "edition", "statuses"), EACH_FILE)
def test_each_file_is_read_as_written_for_its_own_edition(
    each_file_run, name: str, text: str, edition: str, statuses: list[str]
) -> None:
    doc, report = each_file_run
    got = [c for c in doc["citations"] if Path(c["path"]).name == name]
    assert [c["status"] for c in got] == statuses
    assert {c["written_for"] for c in got} == {edition}
    (entry,) = [f for f in doc["files"] if Path(f["path"]).name == name]
    assert entry["written_for"]["edition"]["slug"] == edition
    assert entry["written_for"]["inferred"] is True
    assert entry["citations"] == len(statuses)
    if set(statuses) != {"current"}:  # the file's section in the text report says it
        assert re.search(rf"{re.escape(name)}: written for {edition} \(inferred: ", report)


def test_the_runs_written_for_says_each_files_edition(each_file_run) -> None:
    doc, report = each_file_run
    reason = doc["written_for"]["reason"]
    assert "each file's own" in reason
    assert "en-2026-01-16 for 1 file" in reason and "en-2009-05-01 for 1 file" in reason
    assert "3 current" not in report and "1 current, 1 renumbered, 1 removed." in report


JA_2026_01_16 = SHARED / "translations" / "ja-2026-01-16.mtgwiki-lines.txt"


@pytest.fixture(scope="module")
def store_with_japanese(_corpus_template, tmp_path_factory) -> Iterator[str]:
    """The corpus store with the Japanese of 2026-01-16 ingested: its quotations in kana are
    then checked against it."""
    if not JA_2026_01_16.exists():
        pytest.skip("needs /work/shared/translations/ja-2026-01-16.mtgwiki-lines.txt")
    db = str(copy_store(_corpus_template, tmp_path_factory.mktemp("cite-ja")))
    result = run_cli("ingest", str(JA_2026_01_16), db=db)
    assert result.returncode == 0, result.stderr
    yield db
    drop_store(db)


# (a line of ja-2026-01-16 as it is in the file, the citations' statuses). 205.3g lists the
# artifact types, each in 「」 with its English name, some with the rule that explains it:
# 「アトラクション／Attraction」 was checked as a quotation of 717 ("Attraction Cards") and
# found in 205.3g itself: a false quote-mismatch.
JAPANESE_LINES = [
    ("205.3g アーティファクトにはそれ専用のサブタイプ群が存在する。", ["current"] * 4),
    ("205.3h エンチャントにはそれ専用のサブタイプ群が存在する。", ["current"] * 4),
    ("801.12. 「ワールド・ルール」(rule 704.5k 参照)", ["current"]),
]


@pytest.mark.parametrize(("head", "statuses"), JAPANESE_LINES, ids=["205.3g", "205.3h", "801.12"])
def test_japanese_terms_before_a_reference_are_no_quotations(
    store_with_japanese, tmp_path, head: str, statuses: list[str]
) -> None:
    line = next(
        line for line in JA_2026_01_16.read_text("utf-8").splitlines() if line.startswith(head)
    )
    (tmp_path / "ja.txt").write_text(line + "\n", "utf-8")
    _code, doc = cite_json(store_with_japanese, str(tmp_path / "ja.txt"))
    assert [c["status"] for c in doc["citations"]] == statuses, doc["citations"]


# --- a number that never existed, named by every command alike ----------------------------------

# (a clause number no edition has, the nearest numbers of its shape, from the corpus: 905.4a
# is the last lettered subrule before 999.9z; 107.17a and 108.2a stand either side of
# 107.99z). `trace` said "rule 999.9" (the clause's rule), with that number's nearest.
NEVER_EXISTED = [
    ("999.9z", "the nearest rule is 905.4a: mtgrules show 905.4a"),
    ("107.99z", "the nearest rules are 107.17a and 108.2a: mtgrules show 107.17a"),
]


@pytest.mark.parametrize("command", ["show", "trace"])
@pytest.mark.parametrize(("label", "nearest"), NEVER_EXISTED, ids=[n[0] for n in NEVER_EXISTED])
def test_a_clause_that_never_existed_is_named_whole_with_the_same_nearest(
    corpus_db, command: str, label: str, nearest: str
) -> None:
    result = run_cli(command, label, db=corpus_db)
    assert result.returncode == 3, result.stderr
    assert result.stderr == (
        f"mtgrules: error: rule {label} has never existed in any edition in the store; {nearest}\n"
    )


@pytest.mark.parametrize(("label", "nearest"), NEVER_EXISTED, ids=[n[0] for n in NEVER_EXISTED])
def test_cite_names_the_same_nearest_as_show(corpus_db, tmp_path, label: str, nearest: str):
    """cite had a nearest of its own: 905.6 for 999.9z where show and trace said 905.4a.
    Today's edition holds the same neighbours as the whole store for these numbers."""
    (tmp_path / "notes.txt").write_text(f"As rule {label} says, ...\n", "utf-8")
    _code, doc = cite_json(corpus_db, str(tmp_path / "notes.txt"))
    (citation,) = doc["citations"]
    named = nearest.split(" is ")[-1].split(" are ")[-1].split(":")[0]
    assert citation["evidence"]["nearest"][:2] == named.replace(" and ", ", ").split(", ")


@pytest.mark.parametrize(
    ("label", "labels", "nearest"),
    [
        # neighbours of the same shape first, then one typo away
        ("720.19b", ["702.19b", "720.3d", "721.2a", "720.3"], ["720.3d", "721.2a", "702.19b"]),
        ("999.9z", ["905.4a", "905.6", "107.3"], ["905.4a"]),
        ("110.10", ["110.4", "111.1", "111.10", "110.4b"], ["110.4", "111.1", "111.10"]),
        ("800", ["1", "8", "9"], ["9"]),  # a section: sections only
        ("107.3a", [], []),
    ],
)
def test_nearest_labels(label, labels, nearest):
    assert nearest_labels(label, labels, 3) == nearest
