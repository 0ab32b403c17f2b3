"""Results come from content: drop, swap or re-encode a translation and the aligner follows.

Each test writes a modified copy of the French/English forum seed to tmp_path, ingests only
that copy into a fresh store, and aligns rule 107.3 (French -> the English of the same post).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mtgrules.align import align_rule
from mtgrules.ingest import ingest_paths
from mtgrules.store import open_store, session_scope

from .conftest import SEEDS

FORUM = SEEDS / "000_0b7a9445b617ebdb.txt"


def _lines() -> list[str]:
    return FORUM.read_text(encoding="utf-8").split("\n")


def _french_line(lines: list[str], label: str) -> int:
    # The French block comes first in the post; its subrule lines start with the label.
    return next(k for k, ln in enumerate(lines) if ln.startswith(label + " "))


def _groups_of(path: Path, db: Path) -> dict[str, dict[str, str]]:
    """{French text prefix: group key} and {English text prefix: group key}."""
    engine = open_store(str(db))
    with session_scope(engine) as s:
        ingest_paths(s, [path])
    with session_scope(engine) as s:
        result = align_rule(s, "107.3")
        langs = {e.id: e.language for e in result.editions}
        out: dict[str, dict[str, str]] = {"fr": {}, "en": {}}
        for g in result.groups:
            for m in g.members:
                if m.kind == "rule":
                    out[langs[m.edition]][m.text[:45]] = g.key
    engine.dispose()
    return out


def _key(groups: dict[str, str], start: str) -> str | None:
    hits = [k for text, k in groups.items() if text.startswith(start)]
    assert len(hits) == 1, (start, groups)
    return hits[0]


def _write(tmp_path: Path, lines: list[str], encoding: str = "utf-8") -> Path:
    path = tmp_path / "forum-copy.txt"
    path.write_bytes("\n".join(lines).encode(encoding))
    return path


def test_unchanged_copy_pairs_every_french_clause(tmp_path):
    groups = _groups_of(_write(tmp_path, _lines()), tmp_path / "s.sqlite")
    assert _key(groups["fr"], "Toutes les occurrences de X sur") == "107.3g"
    assert _key(groups["fr"], "Certains objets utilisent la le") == "107.3h"
    assert len(set(groups["fr"].values())) == 9


def test_dropped_clause_leaves_english_clause_alone(tmp_path):
    lines = _lines()
    del lines[_french_line(lines, "107.3e")]
    groups = _groups_of(_write(tmp_path, lines), tmp_path / "s.sqlite")
    assert "107.3e" not in groups["fr"].values()  # nothing French joins the English 107.3e
    assert _key(groups["fr"], "Si une carte dans n'importe que") == "107.3f"


def test_swapped_clauses_are_paired_by_content_not_label(tmp_path):
    lines = _lines()
    f, g = _french_line(lines, "107.3f"), _french_line(lines, "107.3g")
    # keep the labels in place, swap the texts: a translation that put two rules out of order
    text_f, text_g = lines[f].split(" ", 1)[1], lines[g].split(" ", 1)[1]
    lines[f] = "107.3f " + text_g
    lines[g] = "107.3g " + text_f
    groups = _groups_of(_write(tmp_path, lines), tmp_path / "s.sqlite")
    assert _key(groups["fr"], "Toutes les occurrences de X sur") == "107.3g"
    assert _key(groups["fr"], "Si une carte dans n'importe que") == "107.3f"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig"])
def test_reencoded_file_aligns_the_same(tmp_path, encoding):
    plain = _groups_of(_write(tmp_path, _lines()), tmp_path / "a.sqlite")
    other_dir = tmp_path / "other"
    other_dir.mkdir()
    again = _groups_of(_write(other_dir, _lines(), encoding), tmp_path / "b.sqlite")
    assert again == plain


def test_merged_clauses_are_reported_as_a_merge(tmp_path):
    lines = _lines()
    g, h = _french_line(lines, "107.3g"), _french_line(lines, "107.3h")
    lines[g] = lines[g] + " " + lines[h].split(" ", 1)[1]  # one paragraph holds two rules
    del lines[h]
    db = tmp_path / "s.sqlite"
    _write(tmp_path, lines)
    engine = open_store(str(db))
    with session_scope(engine) as s:
        ingest_paths(s, [tmp_path / "forum-copy.txt"])
    with session_scope(engine) as s:
        result = align_rule(s, "107.3")
        langs = {e.id: e.language for e in result.editions}
        (merged,) = [
            m
            for grp in result.groups
            for m in grp.members
            if langs[m.edition] == "fr" and m.text.startswith("Toutes les occurrences")
        ]
    engine.dispose()
    assert {"feature": "shape", "value": "1-2"} in merged.evidence
