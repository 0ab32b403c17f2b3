"""A reworded list of hundreds of words reads as its change, a rule of ordinary length reads
whole (`diff` in text; --format json keeps every word).

Between en-2025-11-14 and en-2026-01-16 of the bundled corpus (read in both files):
205.3m, the creature types (345 words), gained "Sorcerer"; 207.2c, the ability words (117
words), gained "vivid"; 601.2a (102 words) gained a sentence at its end. In the community
Chinese of the same two dates, 205.3m gained 术士[Sorcerer] between 索泰利 and 后裔: a list
with no spaces, whose items end in 、.
"""

from __future__ import annotations

import pytest

from .conftest import run_cli

EN = ("en-2025-11-14", "en-2026-01-16")
ZH = ("zh-Hans-2025-11-14", "zh-Hans-2026-01-16")

# (editions, --rule, words the clause's text block must show, words it must not, lines at most)
ROWS = [
    # The list: its opening, the change, and "…" where the unchanged types are left out.
    (
        EN,
        "205.3",
        ["Creatures and kindreds share their lists of subtypes", "⟦+Sorcerer, +⟧", "…"],
        ["Advisor", "Zubera"],
        6,
    ),
    # Asked for by its own number, the list is shown whole.
    (EN, "205.3m", ["Advisor", "⟦+Sorcerer, +⟧", "Zubera"], ["…"], 40),
    # Rules of ordinary length are shown whole.
    (
        EN,
        "207.2",
        ["An ability word appears in italics", "⟦+vivid, +⟧", "will of the council"],
        ["…"],
        20,
    ),
    (
        EN,
        "601.2",
        ["601.2a", "Any one-shot effects", "To propose the casting of a spell"],
        ["…"],
        40,
    ),
    # Chinese: the items between 、 are the words, so the list is cut around its change too.
    (
        ZH,
        "205.3",
        ["生物和亲缘共享其副类别列表", "索泰利、⟦+术士[Sorcerer]、+⟧后裔", "…"],
        ["无面鬼"],
        7,
    ),
    (ZH, "205.3m", ["参谋", "⟦+术士[Sorcerer]、+⟧", "无面鬼"], ["…"], 60),
]


@pytest.mark.parametrize(("editions", "rule", "shown", "hidden", "most_lines"), ROWS)
def test_a_long_list_is_shown_around_its_change(
    corpus_db, editions, rule, shown, hidden, most_lines
):
    result = run_cli(
        "diff",
        *editions,
        "--rule",
        rule,
        db=corpus_db,
        env={"COLUMNS": "80"},
    )
    assert result.returncode == 0, result.stderr
    body = result.stdout.split("\n~ ", 1)[1]  # the one reworded clause, from its head line
    # A wrapped line goes on after an indent: a space in English, nothing in Chinese.
    joined = body.replace("\n    ", " " if editions == EN else "")
    for words in shown:
        assert words in joined
    for words in hidden:
        assert words not in body
    assert len(body.splitlines()) <= most_lines
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
