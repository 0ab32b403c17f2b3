"""What reaches a terminal: the sanitiser, display widths, wrapping (CJK and kinsoku),
the word-diff markers, and no "None" in any text, Markdown or HTML output.

Golden files (tests/golden/terminal/*.txt) are the real output at COLUMNS=80 and 120 of a
few commands on the bundled corpus, each read by hand (widths, CJK breaks, no line that
starts with closing punctuation). Regenerate them after a deliberate change with

    MTGRULES_GOLDEN=write python -m pytest tests/test_terminal.py -k golden

and read the diff (git diff tests/golden) before committing it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from wcwidth import wcswidth

from mtgrules.reports.render_text import DELETED, INSERTED, marked
from mtgrules.sources.decode import decode_text
from mtgrules.text.terminal import UNSAFE, visible
from mtgrules.text.width import NO_LINE_START, columns, truncate, wrap

from .conftest import CORPUS, SHARED, StoreRef, copy_store, drop_store, run_cli

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "terminal"


# --- the sanitiser -------------------------------------------------------------------------

INJECTIONS = [
    ("OSC 0 (window title)", "\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),
    ("OSC 52 (clipboard write)", "\x1b]52;c;cm0gLXJmIH4=\x1b\\", "\\x1b]52;c;cm0gLXJmIH4=\\x1b\\"),
    ("CSI (clear screen)", "\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),
    ("CSI (hidden text)", "\x1b[8m", "\\x1b[8m"),
    ("C1 CSI", "\x9b31m", "\\x9b31m"),
    ("bidi override", "\u202e3.701\u202c", "\\u202e3.701\\u202c"),
    ("bidi isolate", "\u2067x\u2069", "\\u2067x\\u2069"),
    ("backspace and bell", "\x08\x07", "\\x08\\x07"),
    ("DEL", "\x7f", "\\x7f"),
]


@pytest.mark.parametrize(("what", "raw", "shown"), INJECTIONS, ids=[i[0] for i in INJECTIONS])
def test_the_sanitiser_shows_controls_as_escapes(what: str, raw: str, shown: str) -> None:
    rule = "107.3a If a spell or activated ability has a mana cost with an {X} in it"
    out = visible(rule + raw + " and more.")
    assert out == rule + shown + " and more."
    assert not UNSAFE.search(out)


@pytest.mark.parametrize(
    "text",
    ["如果一张法术力费用中带有{X}的牌", "Coût de mana : {X}", "\tTab\nnew line", "‘’ “” — …"],
)
def test_the_sanitiser_leaves_real_rules_text_alone(text: str) -> None:
    assert visible(text) == text


@pytest.fixture(scope="module")
def hostile_store(tmp_path_factory, _corpus_template) -> Iterator[StoreRef]:
    """The corpus store plus one scraped page of real 2026 text of rule 107.3 with escape
    sequences and a bidi override injected, under a file name holding a bidi override."""
    db = copy_store(_corpus_template, tmp_path_factory.mktemp("hostile"))
    shown = run_cli("show", "107.3", "--edition", "en-2026-01-16", "--json", db=db)
    clauses = json.loads(shown.stdout)["editions"][0]["clauses"]
    lines = []
    for k, c in enumerate(clauses[:6]):
        raw = INJECTIONS[k % len(INJECTIONS)][1]
        lines.append(f"{c['label']} {c['text'][:60]}{raw}{c['text'][60:]}")
    folder = tmp_path_factory.mktemp("hostile-page")
    page = folder / "page\u202eevil.txt"
    page.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    ingested = run_cli("ingest", str(page), db=db)
    assert ingested.returncode == 0, ingested.stderr
    assert not UNSAFE.search(ingested.stdout + ingested.stderr)
    yield db
    drop_store(db)


@pytest.mark.parametrize(
    "args",
    [
        ["show", "107.3", "--all"],
        ["search", "placeholder"],
        ["editions"],
        ["trace", "107.3a"],
        ["drift", "107.3"],
        ["show", "107.3\x1b]0;pwned\x07"],  # an error message quoting the argument
        ["diff", "en-2026-01-16", "page\u202eevi"],  # "did you mean" an edition's name
    ],
    ids=["show", "search", "editions", "trace", "drift", "error", "did-you-mean"],
)
def test_no_control_reaches_the_terminal(hostile_store: Path, args: list[str]) -> None:
    result = run_cli(*args, db=hostile_store, env={"COLUMNS": "100"})
    out = result.stdout + result.stderr
    assert not UNSAFE.search(out), [m.group() for m in UNSAFE.finditer(out)][:5]
    if args[0] in ("show", "editions") and result.returncode == 0:
        assert "page\\u202eevil" in out  # the edition's name, its override shown
    if result.returncode != 0:
        assert "\\x1b]0;pwned" in out or "\\u202e" in out
    if args[0] == "show" and result.returncode == 0:
        assert "\\x1b]0;pwned\\x07" in out and "\\x1b]52;c;" in out


def test_diff_shows_injected_sequences_visibly(hostile_store: Path) -> None:
    editions = json.loads(run_cli("editions", "--json", db=hostile_store).stdout)
    page = next(e["slug"] for e in editions if "evil" in e["slug"])
    result = run_cli("diff", "en-page-en-zh-107.3", page, db=hostile_store)
    out = result.stdout + result.stderr
    assert not UNSAFE.search(out)
    if result.returncode == 0:
        assert "\\x1b" in out or "\\u202e" in out


def test_json_keeps_the_text_as_it_is(hostile_store: Path) -> None:
    """JSON escapes controls itself (\\u001b); the reader gets the real characters back."""
    result = run_cli("show", "107.3", "--json", db=hostile_store)
    assert result.returncode == 0
    assert "\x1b" not in result.stdout and "\\u001b]0;pwned" in result.stdout
    texts = [c["text"] for e in json.loads(result.stdout)["editions"] for c in e["clauses"]]
    assert any("\x1b]0;pwned\x07" in t for t in texts)


# --- display width and wrapping ------------------------------------------------------------

ZH = (
    "如果一张法术力费用中带有{X}的牌在堆叠以外的任何区域，即使X的值在其叙述中被定义，"
    "其{X}的值将被视同0。如果某咒语或异能的费用中有{X}，「X」的值由操控者决定。"
)


@pytest.mark.parametrize("width", [20, 21, 33, 40, 80])
def test_cjk_wraps_by_columns_at_characters_with_kinsoku(width: int) -> None:
    lines = wrap(ZH, width, "  ").split("\n")
    assert all(columns(line) <= width for line in lines)
    # Filled: every line but the last is within two columns (one wide character, or a
    # character held back by kinsoku) of the width.
    assert all(columns(line) >= width - 3 for line in lines[:-1])
    assert not any(line.strip()[0] in NO_LINE_START for line in lines)
    assert not any(line.rstrip()[-1] in "「（《" for line in lines)
    assert "".join(line.strip() for line in lines) == ZH


def test_width_counts_columns_not_characters() -> None:
    assert columns("规则") == 4 and len("规则") == 2
    assert columns("e\u0301") == 1  # a combining accent takes no column
    assert columns("\x1b[31mred\x1b[0m") == 3  # colour codes take none
    assert columns(truncate("如果一张法术力费用", 9)) <= 9


def test_a_word_wider_than_the_line_is_cut_after_a_hyphen() -> None:
    assert wrap("zh-Hant-page-en-zh-107.3", 12).split("\n") == ["zh-Hant-", "page-en-zh-", "107.3"]


# --- the word-diff markers ------------------------------------------------------------------


def _editions_text() -> list[tuple[str, str]]:
    files = sorted(p for p in CORPUS.rglob("*.txt"))
    files += sorted((SHARED / "cr-archive" / "txt").glob("*.txt"))
    return [(f.name, decode_text(f.read_bytes(), str(f))[0]) for f in files]


@pytest.mark.skipif(
    not (SHARED / "cr-archive" / "txt").is_dir(),
    reason=f"no archive at {SHARED / 'cr-archive' / 'txt'} (the shared data beside the checkout)",
)
def test_diff_markers_occur_in_no_edition() -> None:
    """The markers a word diff uses without colour occur in no edition of the corpus nor
    of the 2003-2026 archive, while git's [-…-] does (the loyalty cost [-X])."""
    texts = _editions_text()
    assert len(texts) >= 20 + 110
    markers = [*DELETED, *INSERTED]
    for name, text in texts:
        for m in markers:
            assert m not in text, f"{m} occurs in {name}"
    assert any("[-X]" in text for _, text in texts)  # why git's markers would not do


def test_marked_diff_reads_without_colour() -> None:
    ops = [
        {"op": "equal", "a": "with an {X}", "b": "with an {X}"},
        {"op": "insert", "a": "", "b": ", [-X],"},
        {"op": "equal", "a": " or X", "b": " or X"},
    ]
    assert marked(ops, colour=False) == "with an {X}⟦+, [-X],+⟧ or X"
    assert marked(ops, colour=True) == "with an {X}\x1b[32m, [-X],\x1b[0m or X"


# --- no None in any output ------------------------------------------------------------------

# "None" the word appears in the rules themselves ("None of those abilities will trigger"):
# a rendered null is "None" not followed by "of".
NONE = re.compile(r"\bNone\b(?!\s+of\b)|\bnull\b|\(glossary of |\bof None\b")

COMMANDS = [
    ["show", "107.3"],
    ["show", "107.3", "--all"],
    ["search", "stack"],
    ["search", "費用"],
    ["editions"],
    ["history"],
    ["trace", "107.3g"],
    ["align", "107.3"],
    ["align", "--date", "es-page-es-107.3"],
    ["align", "--check"],
    ["drift", "107.3"],
    ["drift", "--edition", "zh-Hans-2022-06-10", "--reference", "en-2026-01-16"],
    ["update", "zh-Hans-2022-06-10", "--to", "en-2026-01-16"],
    ["diff", "en-2009-05-01", "en-2009-07-11"],
    ["diff", "en-2018-10-05", "en-2019-10-04", "--rule", "107.3"],
]
FORMATTED = {"trace", "drift", "update", "diff"}


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[:2]) for a in COMMANDS])
def test_no_none_in_any_output(corpus_db: Path, args: list[str]) -> None:
    formats = ["text", "md", "html"] if args[0] in FORMATTED else [None]
    for fmt in formats:
        extra = ["--format", fmt] if fmt else []
        result = run_cli(*args, *extra, db=corpus_db, env={"COLUMNS": "80"})
        assert result.returncode in (0, 1), result.stderr
        found = NONE.findall(result.stdout + result.stderr)
        assert not found, f"{args} {fmt}: {found[:5]}"


def test_no_none_on_the_site(corpus_site) -> None:
    _, folder = corpus_site
    for page in folder.rglob("*.html"):
        found = NONE.findall(page.read_text(encoding="utf-8"))
        assert not found, f"{page.relative_to(folder)}: {found[:5]}"


# --- widths of real output, and the golden files --------------------------------------------

WIDE = [
    ["show", "107.3"],
    ["editions"],
    ["update", "zh-Hans-2022-06-10", "--to", "en-2026-01-16"],
    ["drift", "--edition", "zh-Hans-2022-06-10", "--reference", "en-2026-01-16"],
    ["drift", "107.3"],
    ["diff", "en-2009-05-01", "en-2009-07-11"],
    ["search", "堆疊"],
    # 107.3a's ancestry merges two glossary entries: an 87-column span line before it wrapped.
    ["trace", "107.3a"],
]


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("args", WIDE, ids=[" ".join(a[:2]) for a in WIDE])
def test_every_line_fits_the_width(corpus_db: Path, args: list[str], width: int) -> None:
    result = run_cli(*args, db=corpus_db, env={"COLUMNS": str(width)})
    assert result.returncode in (0, 1), result.stderr
    lines = result.stdout.split("\n")
    too_wide = [line for line in lines if wcswidth(line) > width]
    assert not too_wide, too_wide[:3]
    cjk = [line for line in lines if wcswidth(line) > len(line)]
    for line in cjk:
        assert line.strip()[0] not in NO_LINE_START, line


def test_the_width_is_80_when_piped(corpus_db: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    result = run_cli("show", "107.3", db=corpus_db, env={**env, "COLUMNS": ""})
    widths = [wcswidth(line) for line in result.stdout.split("\n")]
    assert max(widths) <= 80 and max(widths) >= 75


GOLDEN_RUNS = {
    "show-107.3g": ["show", "107.3g"],
    "search-cost-zh": ["search", "费用", "--limit", "3"],
    "drift-107.3-zh": ["drift", "107.3", "--lang", "zh"],
    "diff-2019-2020-107.3": ["diff", "en-2019-10-04", "en-2020-09-25", "--rule", "107.3"],
    "editions": ["editions"],
}


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("name", sorted(GOLDEN_RUNS))
def test_golden(corpus_db: Path, name: str, width: int) -> None:
    result = run_cli(*GOLDEN_RUNS[name], db=corpus_db, env={"COLUMNS": str(width)})
    assert result.returncode == 0, result.stderr
    path = GOLDEN / f"{name}-{width}.txt"
    if os.environ.get("MTGRULES_GOLDEN") == "write":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(result.stdout, encoding="utf-8")
    assert result.stdout == path.read_text(encoding="utf-8")
