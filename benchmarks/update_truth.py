"""The truth for the translator's update report, built from the corpus files alone.

Usage: python benchmarks/update_truth.py [--check]
  writes tests/gold/update/<T>__<N>.json for each pair in PAIRS (--check: compare, write nothing)

Independent of the program under test on purpose: it reads the raw files with its own small
reader (below) and never imports mtgrules (not the parser, not the aligner). Every decision is
a plain rule on the text, written down in tests/gold/update/README.md:

- English S -> N, rules only (kind "rule": a labelled rule or subrule with its wrapped
  paragraphs; examples are left out), one to one. Similarity = difflib ratio over words:
    1. a diff of the two lists of rule texts (difflib, as `diff` does): runs of identical
       rules in order are the same clauses;
    2. inside each gap between two such runs, the closest pairs down to SAME_PLACE (0.60);
    3. anywhere in the file, moved rules: closest pairs down to MOVED (0.80); ties (to 2
       decimals) go to the same label, then to the nearer place in the file;
    4. same label, ratio >= SAME_LABEL (0.50), or the shorter text (8+ words) >= CONTAIN
       (80%) inside the other (a rule extended with new sentences);
    5. what is left: an N rule whose closest leftover S rule has ratio >= GREY (0.40) or is
       contained as in 4 is "uncertain" (left out of every score), else "new". Leftover S
       rules are "removed" (or "uncertain" the same way).
  status of each N rule: unchanged | changed (same label, text differs) | renumbered (S label
  differs; text may differ too) | new | uncertain.
- The translation T (same date as S): a diff of the label sequences of S and T; an S label
  replaced one for one is a mislabel (T has the clause under another label), an S label with
  nothing in its place is a gap, missing from T against N if its clause is still in N.
  Glossary entries are compared by the rule references they cite (the Chinese terms are
  Chinese only); an entry that moves is not a gap.
- Glossary: terms folded (case, quotes, whitespace); new = terms of N not in S.
- Cross-check with what the Chinese editions really did: the same matching between zh-S and
  the newest Chinese edition; agreements and every disagreement go in the golden file.
- Hand-corrections, if ever needed, only through tests/gold/update/corrections.json.
"""

from __future__ import annotations

import difflib
import json
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus" / "corpus-extra"
GOLD = ROOT / "tests" / "gold" / "update"


def _shared() -> Path:
    """The machine's shared data: ../shared beside the checkout (or beside a parent of it)."""
    for base in ROOT.parents:
        if (base / "shared" / "translations").is_dir():
            return base / "shared"
    return ROOT.parent / "shared"


SHARED = _shared()
ARCHIVE = SHARED / "cr-archive" / "txt"  # the 110 English editions, named by publication date
TRANSLATIONS = SHARED / "translations"  # Korean, Japanese, newer Chinese and English files

MOVED = 0.80  # near-identical text under another label: a renumbering
SAME_PLACE = 0.60  # between the same two identical runs, reworded: a change in place
SAME_LABEL = 0.50  # same label, reworded: a change in place
GREY = 0.40  # a leftover with a partner this close is neither clearly new nor clearly kept
CONTAIN = 0.80  # ... nor is one whose shorter text is this much inside the other's
CONTAIN_MIN = 8  # words; a keyword's title ("Banding") is inside too many rules to count

TARGET = "en-2026-01-16"
# The newest Chinese edition, used only to cross-check the "new" rules of the English truth.
ZH_TARGET = "zh-Hans-2026-01-16"
# (translation T, its own English S, target English N, the translation to cross-check the
# English truth with, or None). The first three are the bundled corpus's; the others need
# ../shared (the Korean, Japanese and newer files, and the archive for the English of 2018).
PAIRS = [
    ("zh-Hans-2022-06-10", "en-2022-06-10", TARGET, ZH_TARGET),
    ("zh-Hans-2023-11-17", "en-2023-11-17", TARGET, ZH_TARGET),
    ("zh-Hans-2025-11-14", "en-2025-11-14", TARGET, ZH_TARGET),
    ("ko-2016-09-30", "en-2016-09-30", TARGET, None),
    ("ko-2018-08-10", "en-2018-08-10", TARGET, None),
    ("ko-2019-10-04", "en-2019-10-04", TARGET, None),
    ("ko-2020-09-25", "en-2020-09-25", TARGET, None),
    ("ja-2026-01-16", "en-2026-01-16", TARGET, None),
    ("ja-2026-01-16", "en-2026-01-16", "en-2026-02-27", None),
    # Newer than every English the corpus and the archive hold: its true English is the
    # 2026-02-27 file of ../shared/translations; the report, without it, is brought to
    # en-2026-01-16 (benchmarks/eval_update.py, the store "without its English").
    ("zh-Hans-2026-02-27", "en-2026-02-27", TARGET, None),
]


def file_of(edition: str) -> Path:
    """The raw file of an edition: the corpus's, else ../shared/translations', else (English)
    the archive file whose text is effective on that date."""
    lang, _, rest = edition.partition("-")
    date = rest.split("-", 1)[1] if lang == "zh" else rest
    corpus = CORPUS / f"cr-{lang}-{date}.txt"
    if corpus.exists():
        return corpus
    found = sorted(TRANSLATIONS.glob(f"{edition}.*.txt"))
    if found:
        return found[0]
    if lang == "en" and date in archive_dates():
        return archive_dates()[date]
    raise SystemExit(f"update_truth: no file for {edition} (corpus, {TRANSLATIONS}, {ARCHIVE})")


_EFFECTIVE = re.compile(r"(?:effective|current) as of\s+([A-Za-z]+)\s+(\d{1,2}),\s*(\d{4})", re.I)
_MONTHS = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
]  # fmt: skip
_DATES: dict[str, Path] = {}


def archive_dates() -> dict[str, Path]:
    """Effective date -> archive file, read from each file's first lines ("These rules are
    effective as of July 30, 2024"; 2024-08-02.txt is that edition), else its name's date."""
    if not _DATES and ARCHIVE.is_dir():
        for path in sorted(ARCHIVE.glob("*.txt")):
            head = "\n".join(decode(path.read_bytes()).splitlines()[:40])
            m = _EFFECTIVE.search(head)
            if m and m[1].lower() in _MONTHS:
                date = f"{m[3]}-{_MONTHS.index(m[1].lower()) + 1:02d}-{int(m[2]):02d}"
            else:
                date = path.stem
            _DATES.setdefault(date, path)
    return _DATES


# --- a small reader of the official layout ---------------------------------------------------

# "107.3a Text", "100.1. Text", "901.4.All ..." (en-2023-11-17 glues text after the dot), and
# Chinese glued straight to the label ("100.6b牌手"). Never a digit after the label: "100. 1".
RULE_LINE = re.compile(
    r"^([0-9]{3}\.[0-9]{1,4}[a-z]?)(?:\.(?=[^0-9])|(?=\s)|(?=[^\x00-\x7f]))\s*(.+)$"
)
SECTION = re.compile(r"^[0-9]{1,3}\.\s+\S")
EXAMPLE = re.compile(r"^(?:Examples?\s*:|例如\s*[：:]|例\s*[：:])")
# A label alone on its line, its text on the next (the Japanese file's "500.10a").
LONE_LABEL = re.compile(r"^([0-9]{3}\.[0-9]{1,4}[a-z]?)\.?$")
GLOSSARY = {"glossary", "词汇表", "용어사전", "用語集"}
CREDITS = {"credits", "版权信息", "クレジット"}
# A Japanese glossary heading: "相棒（あいぼう）／Companion".
JA_HEADING = re.compile(r"／[^／。]*[A-Za-z][^。]*$")
# The glossary left out of a translation, said where it would be (Korean: "<생략>").
OMITTED = {"<생략>", "(생략)", "<省略>", "(省略)", "<omitted>", "(omitted)"}
# zh-Hans-2022-06-10 ends its glossary with the translators' list of provisional names.
APPENDIX = {"暂译名称列表"}
# A glossary definition line ends a sentence; a term line does not ("Affinity", "Banding, ...").
ENDS_SENTENCE = re.compile(r"[.。”\"’)）:：!?]$")
QUOTES = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u00a0": " ",
        "\u3000": " ",
    }
)


def fold(text: str) -> str:
    """NFC, ASCII quotes and dashes, single spaces."""
    return " ".join(unicodedata.normalize("NFC", text).translate(QUOTES).split())


def fold_term(term: str) -> str:
    return fold(term).casefold().rstrip(".").strip()


@dataclass
class Rule:
    label: str
    text: str
    line: int


@dataclass
class Entry:
    term: str
    text: str
    line: int


@dataclass
class Edition:
    name: str
    path: Path
    rules: list[Rule] = field(default_factory=list)
    glossary: list[Entry] = field(default_factory=list)
    glossary_omitted: bool = False


def decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp949")  # the Korean file of 2016
        if sum("\uac00" <= ch <= "\ud7a3" for ch in text) > len(text) // 10:
            return text
    except UnicodeDecodeError:
        pass
    return data.decode("cp1252")


def read_edition(name: str) -> Edition:
    path = file_of(name)
    raw = decode(path.read_bytes()).splitlines()
    lines = [ln.strip() for ln in raw]
    # The Japanese glossary: no blank lines; each definition indented (U+3000) under its term.
    indented = {n for n, ln in enumerate(raw) if ln[:1] in ("\u3000", " ") and ln.strip()}
    ed = Edition(name, path)
    first = next(i for i, s in enumerate(lines) if RULE_LINE.match(s))
    # The table of contents also says "Glossary" and "Credits": look only after the first rule.
    gloss = next(i for i in range(first, len(lines)) if lines[i].lower() in GLOSSARY)
    credits = max(
        (i for i in range(gloss, len(lines)) if lines[i].lower() in CREDITS), default=len(lines)
    )
    credits = next((i for i in range(gloss, credits) if lines[i] in APPENDIX), credits)
    after = next((s for s in lines[gloss + 1 : credits] if s), "")
    if after in OMITTED:
        ed.glossary_omitted = True
        credits = gloss + 1  # what follows is the publisher's notice, not entries
    current: Rule | None = None
    lone: tuple[str, int] | None = None
    for n in range(first, gloss):
        s = lines[n]
        if not s:
            continue
        if lone is not None:
            s = f"{lone[0]} {s}"
        # (Not a reference wrapped onto its own line: "See rule" / "404.4" in 2003.)
        if (m := LONE_LABEL.match(s)) and not re.search(r"\brules?$", lines[n - 1]):
            lone = (m[1], n)
            continue
        if m := RULE_LINE.match(s):
            current = Rule(m[1], m[2], (lone[1] if lone else n) + 1)
            ed.rules.append(current)
            lone = None
        elif SECTION.match(s):
            current = None
        elif EXAMPLE.match(s):
            pass  # examples are not rules; a paragraph after one still belongs to the rule
        elif current is not None:
            current.text += "\n" + s
    for r in ed.rules:
        r.text = fold(r.text)
    block: list[tuple[int, str]] = []
    for n in range(gloss + 1, credits + 1):
        s = lines[n] if n < credits else ""
        if s:
            block.append((n, s))
            continue
        # One entry per block, except where a blank line is missing between two entries
        # (en-2022-06-10: "Adventurer Card" runs straight into "Affinity"): a line that does
        # not end a sentence, with a definition after it, starts the next entry.
        start = 0
        by_indent = sum(1 for n, _ in block if n in indented) * 3 > len(block)
        for k in range(1, len(block)):
            if by_indent:
                # A heading: not indented, its English term after "／", no sentence
                # ("1. ..." and "(廃語)..." paragraphs of a definition are not indented).
                line = block[k][1]
                heading = bool(JA_HEADING.search(line)) and not line.endswith("。")
                starts = block[k][0] not in indented and heading and k > start
            else:
                starts = not ENDS_SENTENCE.search(block[k][1]) and k + 1 < len(block)
                starts = starts and k > start + 1
            if starts:
                ed.glossary.append(_entry(block[start:k]))
                start = k
        if block:
            ed.glossary.append(_entry(block[start:]))
        block = []
    return ed


def _entry(lines: list[tuple[int, str]]) -> Entry:
    (n, term), rest = lines[0], lines[1:]
    return Entry(fold(term), fold(" ".join(t for _, t in rest)), n + 1)


# --- matching S -> N ---------------------------------------------------------------------------


def words(text: str) -> list[str]:
    # Chinese has no spaces: compare it character by character.
    if any("\u4e00" <= ch <= "\u9fff" for ch in text):
        return [ch for ch in text if not ch.isspace()]
    return text.split()


def ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, words(a), words(b), autojunk=False).ratio()


def contained(a: str, b: str) -> bool:
    """The shorter text (of CONTAIN_MIN words or more) is nearly all inside the longer one:
    a rule extended with new sentences ("As a Saga enters..." -> "As a Saga without the read
    ahead ability enters ... As a Saga with the read ahead ability ...")."""
    wa, wb = words(a), words(b)
    if min(len(wa), len(wb)) < CONTAIN_MIN:
        return False
    sm = difflib.SequenceMatcher(None, wa, wb, autojunk=False)
    same = sum(blk.size for blk in sm.get_matching_blocks())
    return same >= CONTAIN * min(len(wa), len(wb))


@dataclass
class Match:
    pairs: dict[int, tuple[int, float, str]]  # N index -> (S index, ratio, how)
    uncertain_n: dict[int, tuple[int, float]]  # N index -> (closest S index, ratio)
    uncertain_s: dict[int, tuple[int, float]]  # S index -> (closest N index, ratio)


def _greedy(
    s_rules: list[Rule],
    n_rules: list[Rule],
    s_idx: list[int],
    n_idx: list[int],
    threshold: float,
    how: str,
    pairs: dict[int, tuple[int, float, str]],
    used_s: set[int],
) -> None:
    """Pair the closest texts first, down to ``threshold``. Ties (to 2 decimals: "Third, the
    active player gets priority." is as close to "Second, ..." as "Fourth, ..." is) go to the
    same label, then to the nearer place in the file."""
    ns, nn = len(s_rules), len(n_rules)
    scored: list[tuple[float, int, int]] = []
    for j in n_idx:
        if j in pairs:
            continue
        wn = words(n_rules[j].text)
        for i in s_idx:
            if i in used_s:
                continue
            sm = difflib.SequenceMatcher(None, words(s_rules[i].text), wn, autojunk=False)
            if sm.real_quick_ratio() < threshold or sm.quick_ratio() < threshold:
                continue
            r = sm.ratio()
            if r >= threshold:
                scored.append((r, i, j))
    scored.sort(
        key=lambda t: (
            -round(t[0], 2),
            s_rules[t[1]].label != n_rules[t[2]].label,
            abs(t[1] / ns - t[2] / nn),
            t[2],
        )
    )
    for r, i, j in scored:
        if i in used_s or j in pairs:
            continue
        pairs[j] = (i, r, "identical" if r == 1.0 else how)
        used_s.add(i)


def match_rules(s_rules: list[Rule], n_rules: list[Rule]) -> Match:
    """Match the rules of S and N, one to one, as a diff tool would, then look for moves."""
    pairs: dict[int, tuple[int, float, str]] = {}
    used_s: set[int] = set()
    # 1. A diff of the two lists of rule texts: runs of identical rules in the same order.
    sm = difflib.SequenceMatcher(
        None, [r.text for r in s_rules], [r.text for r in n_rules], autojunk=False
    )
    gaps: list[tuple[int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                pairs[j1 + k] = (i1 + k, 1.0, "identical")
                used_s.add(i1 + k)
        elif tag == "replace":
            gaps.append((i1, i2, j1, j2))
    # 2. Inside each gap between two identical runs: the same place, so a reworded rule.
    for i1, i2, j1, j2 in gaps:
        _greedy(
            s_rules,
            n_rules,
            list(range(i1, i2)),
            list(range(j1, j2)),
            SAME_PLACE,
            "same-place",
            pairs,
            used_s,
        )
    # 3. Anywhere in the file: a moved rule, identical or near-identical.
    free_s = [i for i in range(len(s_rules)) if i not in used_s]
    free_n = [j for j in range(len(n_rules)) if j not in pairs]
    _greedy(s_rules, n_rules, free_s, free_n, MOVED, "moved", pairs, used_s)
    # 4. Same label, reworded or extended.
    s_by_label: dict[str, list[int]] = {}
    for i in free_s:
        s_by_label.setdefault(s_rules[i].label, []).append(i)
    for j in free_n:
        if j in pairs:
            continue
        for i in s_by_label.get(n_rules[j].label, []):
            if i in used_s:
                continue
            rr = ratio(s_rules[i].text, n_rules[j].text)
            if rr >= SAME_LABEL or contained(s_rules[i].text, n_rules[j].text):
                pairs[j] = (i, rr, "same-label")
                used_s.add(i)
                break
    # 5. Leftovers that still have a close partner (ratio >= GREY, or one inside the other):
    # uncertain, neither clearly new nor clearly the same clause.
    unc_n: dict[int, tuple[int, float]] = {}
    unc_s: dict[int, tuple[int, float]] = {}
    left_s = [i for i in free_s if i not in used_s]
    for j in free_n:
        if j in pairs:
            continue
        wn = words(n_rules[j].text)
        for i in left_s:
            ws = words(s_rules[i].text)
            sm = difflib.SequenceMatcher(None, ws, wn, autojunk=False)
            # quick_ratio() bounds both figures from above: skip the hopeless pairs cheaply.
            common = sm.quick_ratio() * (len(ws) + len(wn)) / 2
            if common < GREY * (len(ws) + len(wn)) / 2 and (
                min(len(ws), len(wn)) < CONTAIN_MIN or common < CONTAIN * min(len(ws), len(wn))
            ):
                continue
            r = sm.ratio()
            if r < GREY and not contained(s_rules[i].text, n_rules[j].text):
                continue
            if j not in unc_n or r > unc_n[j][1]:
                unc_n[j] = (i, r)
            if i not in unc_s or r > unc_s[i][1]:
                unc_s[i] = (j, r)
    return Match(pairs, unc_n, unc_s)


# --- the truth for one pair --------------------------------------------------------------------


def english_truth(s: Edition, n: Edition) -> dict:
    """Status of every rule of N against S, removed rules of S, and the glossary terms."""
    m = match_rules(s.rules, n.rules)
    clauses = []
    for j, r in enumerate(n.rules):
        item: dict = {"label": r.label}
        if j in m.pairs:
            i, rr, how = m.pairs[j]
            old = s.rules[i]
            if old.label != r.label:
                status = "renumbered"
            elif old.text == r.text:
                status = "unchanged"
            else:
                status = "changed"
            item.update(
                status=status,
                from_label=old.label,
                ratio=round(rr, 3),
                how=how,
                text_changed=old.text != r.text,
            )
        elif j in m.uncertain_n:
            i, rr = m.uncertain_n[j]
            item.update(status="uncertain", closest=s.rules[i].label, ratio=round(rr, 3))
        else:
            item["status"] = "new"
        clauses.append(item)
    matched_s = {i for i, _, _ in m.pairs.values()}
    removed = [
        r.label for i, r in enumerate(s.rules) if i not in matched_s and i not in m.uncertain_s
    ]
    uncertain_source = [
        {
            "label": r.label,
            "closest": n.rules[m.uncertain_s[i][0]].label,
            "ratio": round(m.uncertain_s[i][1], 3),
        }
        for i, r in enumerate(s.rules)
        if i in m.uncertain_s
    ]
    return {
        "clauses": clauses,
        "removed": removed,
        "uncertain_source": uncertain_source,
        "glossary": glossary_truth(s, n),
    }


def glossary_truth(s: Edition, n: Edition) -> dict:
    s_terms = {fold_term(e.term): e for e in s.glossary}
    n_terms = {fold_term(e.term): e for e in n.glossary}
    return {
        "source_entries": len(s.glossary),
        "target_entries": len(n.glossary),
        "new": [e.term for k, e in n_terms.items() if k not in s_terms],
        "removed": [e.term for k, e in s_terms.items() if k not in n_terms],
        "changed": [
            e.term for k, e in n_terms.items() if k in s_terms and s_terms[k].text != e.text
        ],
    }


REF = re.compile(r"(?<![0-9.])([0-9]{3}(?:\.[0-9]{1,4}[a-z]?)?)(?![0-9])")


def translation_truth(t: Edition, s: Edition) -> dict:
    """What the translation T lacks, adds or mislabels against its own English S.

    Rules: a diff of the two label sequences (the community files keep the English order).
    A one-for-one replacement is a mislabel (T has the clause under another label); an S label
    with nothing in its place is a gap. Glossary: the Chinese terms are Chinese only, so
    entries are compared by the rule references they cite, in order; an entry that disappears
    here and reappears elsewhere with the same references is a move, not a gap."""
    out: dict = {
        "gaps": [],
        "mislabels": [],
        "extra": [],
        "glossary_gaps": [],
        "glossary_extra": [],
    }
    sl, tl = [r.label for r in s.rules], [r.label for r in t.rules]
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, sl, tl, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        k = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        for d in range(k):
            out["mislabels"].append(
                {"s_label": sl[i1 + d], "t_label": tl[j1 + d], "t_line": t.rules[j1 + d].line}
            )
        out["gaps"] += sl[i1 + k : i2]
        out["extra"] += [{"t_label": tl[j], "t_line": t.rules[j].line} for j in range(j1 + k, j2)]
    # A translation whose headings keep the English term ("相棒（あいぼう）／Companion") is
    # compared by that term; any other by the references its entries cite.
    kept = [english_term(e.term) for e in t.glossary]
    if t.glossary and sum(1 for k in kept if k) >= 0.8 * len(t.glossary):
        mine = {k for k in kept if k}
        theirs = {head_term(e.term) for e in s.glossary}
        gaps = [e for e in s.glossary if head_term(e.term) not in mine]
        extra = [(e, k) for e, k in zip(t.glossary, kept, strict=True) if k not in theirs]

        # A heading whose English term is misspelt ("Staion Cards", "Venture into Dungeon")
        # or cut short ("Nonmodal") is that entry: a leftover pair of terms at least 85% alike,
        # or one the start of the other (8 letters or more), closest first.
        def alike(a: str, b: str) -> float:
            if min(len(a), len(b)) >= 8 and (a.startswith(b) or b.startswith(a)):
                return 1.0
            return difflib.SequenceMatcher(None, a, b).ratio()

        close = sorted(
            (
                (alike(head_term(g.term), k or ""), i, j)
                for i, g in enumerate(gaps)
                for j, (_, k) in enumerate(extra)
            ),
            reverse=True,
        )
        used_g: set[int] = set()
        used_e: set[int] = set()
        for r, i, j in close:
            if r >= 0.85 and i not in used_g and j not in used_e:
                used_g.add(i)
                used_e.add(j)
        out["glossary_gaps"] = [g.term for i, g in enumerate(gaps) if i not in used_g]
        out["glossary_extra"] = [
            {"t_term": e.term, "t_line": e.line}
            for j, (e, _) in enumerate(extra)
            if j not in used_e
        ]
        return out
    sg = [tuple(REF.findall(e.text)) for e in s.glossary]
    tg = [tuple(REF.findall(e.text)) for e in t.glossary]
    dels: list[int] = []
    ins: list[int] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, sg, tg, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        k = min(i2 - i1, j2 - j1) if tag == "replace" else 0  # same place, references differ
        dels += range(i1 + k, i2)
        ins += range(j1 + k, j2)
    for i in dels:
        j = next((j for j in ins if tg[j] == sg[i]), None)
        if j is None:
            out["glossary_gaps"].append(s.glossary[i].term)
        else:
            ins.remove(j)
    out["glossary_extra"] = [
        {"t_term": t.glossary[j].term, "t_line": t.glossary[j].line} for j in ins
    ]
    return out


def english_term(term: str) -> str | None:
    """The English term a translated glossary heading keeps after a slash ("相棒（あいぼう）／
    Companion" -> "companion"), folded as the English terms are; None when it keeps none."""
    tail = re.split(r"／", term, maxsplit=1)
    if len(tail) < 2 or not re.search(r"[A-Za-z]", tail[1]):
        return None
    return head_term(tail[1])


def head_term(term: str) -> str:
    """A glossary term's first form, folded: "Banding, \"Bands with Other\"" -> "banding",
    "You/Your" and "You, Your" -> "you", "Interrupt (Obsolete)" -> "interrupt" (translated
    headings keep the English term's first form, without the English glossary's "(Obsolete)")."""
    # "Counter(v)", "Commander(2)": the Japanese headings tell homonyms apart in brackets.
    folded = re.sub(r"\((?:obsolete|[a-z0-9]{1,2})\)", "", fold_term(term))
    first = re.split(r"[,/、]", folded, maxsplit=1)[0]
    # Spelling aside: "The City's Blessing", "Turn-Based Action(s)", "Venture into [Quality]".
    key = re.sub(r"^the ", "", first.strip(" \"'[]").strip())
    key = re.sub(r"[^0-9a-z]+", "", key)
    return key[:-1] if key.endswith("s") else key


def apply_corrections(truth: dict, pair: str) -> list[dict]:
    """Hand-corrections, listed in tests/gold/update/corrections.json (none hidden here)."""
    path = GOLD / "corrections.json"
    fixes = (
        [c for c in json.loads(path.read_text("utf-8")) if c["pair"] in (pair, "*")]
        if path.exists()
        else []
    )
    by_label = {c["label"]: c for c in truth["clauses"]}
    for c in fixes:
        item = by_label[c["label"]]
        item.clear()
        item.update(label=c["label"], **c["set"], corrected=c["why"])
    return fixes


def pair_truth(t_name: str, s_name: str, n: Edition, zn: Edition | None) -> dict:
    s, t = read_edition(s_name), read_edition(t_name)
    pair = f"{t_name}__{n.name}"
    eng = english_truth(s, n)
    fixes = apply_corrections(eng, pair)
    clauses = eng["clauses"]
    tr = translation_truth(t, s)
    mislabelled = {m["s_label"]: m["t_label"] for m in tr["mislabels"]}
    new = [c["label"] for c in clauses if c["status"] == "new"]
    gap_set = set(tr["gaps"])
    # A gap of T is missing against N when its clause is still in N (under whatever label).
    gaps_in_n = [c["label"] for c in clauses if c.get("from_label") in gap_set]
    renumbered = [
        {
            "from": c["from_label"],
            "to": c["label"],
            "t_label": mislabelled.get(c["from_label"], c["from_label"]),
            "ratio": c["ratio"],
            "text_changed": c["text_changed"],
        }
        for c in clauses
        if c["status"] == "renumbered" and c["from_label"] not in gap_set
    ]
    gl = eng["glossary"]
    n_terms = {fold_term(e.term) for e in n.glossary}
    # An omitted glossary (Korean: "<생략>") is one fact, not an entry missing per term.
    gloss_gaps_in_n = (
        [] if t.glossary_omitted else [g for g in tr["glossary_gaps"] if fold_term(g) in n_terms]
    )
    if t.glossary_omitted:
        tr["glossary_gaps"] = []  # the report says the glossary is not translated, once
    # What T must add to its glossary: N's new entries and its own gaps; none when omitted
    # (the English's new entries stay in "new", the truth of the English control).
    gloss_missing = [] if t.glossary_omitted else gl["new"] + gloss_gaps_in_n

    counts = {
        k: sum(1 for c in clauses if c["status"] == k)
        for k in ("unchanged", "changed", "renumbered", "new", "uncertain")
    }
    counts.update(
        removed=len(eng["removed"]),
        missing_rules=len(new) + len(gaps_in_n),
        glossary_missing=len(gloss_missing),
    )
    return {
        "about": "Truth for the update report of translation T (made from English S) brought "
        "up to English N; built from the corpus files only, see README.md beside this file.",
        "regenerate": "python benchmarks/update_truth.py",
        "translation": t_name,
        "source": s_name,
        "target": n.name,
        "files": {
            e.name: {"path": _shown(e.path), "sha256": sha256(e.path)}
            for e in (t, s, n, zn)
            if e is not None
        },
        "thresholds": {
            "similarity": "difflib.SequenceMatcher(autojunk=False).ratio() over words "
            "(characters for Chinese) of the normalised rule text",
            "same_place": SAME_PLACE,
            "moved": MOVED,
            "same_label": SAME_LABEL,
            "grey": GREY,
            "contain": CONTAIN,
            "contain_min_words": CONTAIN_MIN,
        },
        "counts": counts,
        "corrections": [{"label": c["label"], "why": c["why"]} for c in fixes],
        "missing_rules": new + gaps_in_n,
        "new_rules": new,
        "renumbered": renumbered,
        "changed": [
            {"label": c["label"], "from_label": c["from_label"], "ratio": c["ratio"]}
            for c in clauses
            if c.get("text_changed")
        ],
        "removed": eng["removed"],
        "uncertain": [
            {"label": c["label"], "closest": c["closest"], "ratio": c["ratio"]}
            for c in clauses
            if c["status"] == "uncertain"
        ],
        "uncertain_source": eng["uncertain_source"],
        "glossary": {**gl, "missing": gloss_missing},
        "translation_defects": tr,
        **({"glossary_omitted": True} if t.glossary_omitted else {}),
        **({"cross_check_zh": cross_check(t_name, zn, clauses, new)} if zn is not None else {}),
        "clauses": [
            [c["label"], c["status"], c.get("from_label") or c.get("closest"), c.get("ratio")]
            for c in clauses
        ],
    }


def cross_check(t_name: str, zn: Edition, clauses: list[dict], new: list[str]) -> dict:
    """The same matching on the translation's own texts: T against its newer edition zn."""
    zh = english_truth(read_edition(t_name), zn)
    zh_by = {c["label"]: c for c in zh["clauses"]}
    en_by = {c["label"]: c for c in clauses}
    zh_new = {c["label"] for c in zh["clauses"] if c["status"] == "new"}
    zh_ren = {(c["from_label"], c["label"]) for c in zh["clauses"] if c["status"] == "renumbered"}
    en_ren = {(c["from_label"], c["label"]) for c in clauses if c["status"] == "renumbered"}

    def brief(c: dict) -> str:
        other = c.get("from_label") or c.get("closest")
        return f"{c['label']}: {c['status']}" + (f" ({other}, {c['ratio']})" if other else "")

    return {
        "compared": f"{t_name} -> {zn.name}, same matching on the Chinese text",
        "new_both": len(set(new) & zh_new),
        "new_en_only": [brief(zh_by[x]) for x in new if x not in zh_new],
        "new_zh_only": [brief(en_by[x]) for x in sorted(zh_new - set(new))],
        "renumbered_both": len(en_ren & zh_ren),
        "renumbered_en_only": sorted(f"{a} -> {b}" for a, b in en_ren - zh_ren),
        "renumbered_zh_only": sorted(f"{a} -> {b}" for a, b in zh_ren - en_ren),
    }


def sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def dump(truth: dict) -> str:
    """JSON with one list item per line: easy to read by hand and to diff."""
    parts = []
    for k, v in truth.items():
        if isinstance(v, list) and v:
            body = ",\n".join("  " + json.dumps(x, ensure_ascii=False) for x in v)
            parts.append(f"{json.dumps(k)}: [\n{body}\n]")
        elif isinstance(v, dict) and any(isinstance(x, list) and x for x in v.values()):
            inner = ",\n".join(
                f"  {json.dumps(kk)}: {json.dumps(vv, ensure_ascii=False)}" for kk, vv in v.items()
            )
            parts.append(f"{json.dumps(k)}: {{\n{inner}\n}}")
        else:
            parts.append(f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _shown(path: Path) -> str:
    """A file's path as the golden files name it: inside the checkout, or ../shared/..."""
    if path.is_relative_to(ROOT):
        return str(path.relative_to(ROOT))
    return "../shared/" + str(path.relative_to(SHARED))


def gold_path(t_name: str, n_name: str = TARGET) -> Path:
    return GOLD / f"{t_name}__{n_name}.json"


def main() -> int:
    check = "--check" in sys.argv
    stale = 0
    for t_name, s_name, n_name, zn_name in PAIRS:
        try:
            n, zn = read_edition(n_name), read_edition(zn_name) if zn_name else None
            text = dump(pair_truth(t_name, s_name, n, zn))
        except SystemExit as missing:
            print(f"skipped {t_name} -> {n_name}: {missing}")
            continue
        path = gold_path(t_name, n_name)
        truth = json.loads(text)
        print(f"{path.relative_to(ROOT)}: {truth['counts']}")
        if check:
            if not path.exists() or path.read_text("utf-8") != text:
                print("  differs from what the corpus gives now; rerun without --check")
                stale += 1
        else:
            GOLD.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
