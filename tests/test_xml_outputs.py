"""TMX and XLIFF are well-formed XML 1.0 whatever the rules hold: the characters XML forbids
(C0 controls, U+FFFE, U+FFFF, lone surrogates) become U+FFFD, each segment or unit that lost
some says which, and the command says so on stderr. Checked with a real XML parser (lxml's
libxml2, the parser behind xmllint), which refuses such characters outright.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from mtgrules.reports.tmx import TmxSide, TmxUnit, write_tmx
from mtgrules.text.xmlchars import XmlCleaner, forbidden_in_xml

from .conftest import EXTRA, run_cli

TMX_PROPS = "{*}prop"

# (character, forbidden by XML 1.0?) -- section 2.2, production [2] Char.
CHARACTERS = [
    ("\x00", True),
    ("\x01", True),
    ("\x08", True),
    ("\x0b", True),
    ("\x0c", True),
    ("\x1f", True),
    ("\ud800", True),  # a lone surrogate
    ("\ufffe", True),
    ("\uffff", True),
    ("\t", False),
    ("\n", False),
    ("\x7f", False),  # DEL and the C1 controls are allowed in XML 1.0
    ("\x85", False),
    ("\ufffd", False),
    ("\U0001f600", False),
]


@pytest.mark.parametrize(
    "ch, forbidden", CHARACTERS, ids=[f"U+{ord(c):04X}" for c, _ in CHARACTERS]
)
def test_each_character_is_kept_or_replaced_as_xml_1_0_says(ch: str, forbidden: bool) -> None:
    text = f"107.3a If a cost has {ch}X in it"
    assert bool(forbidden_in_xml(text)) == forbidden
    cleaner = XmlCleaner()
    unit = TmxUnit(
        "107.3a",
        TmxSide("en", text, "107.3a", "en-x", "2026-01-16", "x.txt"),
        TmxSide("fr", "Si un coût", "107.3a", "fr-x", None, "y.txt"),
    )
    doc = write_tmx([unit], "en", cleaner)
    root = etree.fromstring(doc.encode("utf-8"))  # raises on any forbidden character
    seg = root.find(".//tuv/seg")
    assert seg is not None
    if forbidden:
        assert seg.text == text.replace(ch, "\ufffd")
        props = {p.get("type"): p.text for p in root.iter("prop")}
        assert props["x-replaced-characters"] == f"U+{ord(ch):04X}"
        assert cleaner.total == 1
    else:
        # libxml2 normalises nothing in a segment's text but line ends (none here).
        assert seg.text == text
        assert cleaner.total == 0


def _hostile_translation(folder: Path) -> Path:
    """The real Chinese 2022-06-10 translation with a C0 control in rule 100.1 and the two
    noncharacters in 107.3a: a new version of that edition."""
    text = (EXTRA / "cr-zh-2022-06-10.txt").read_text(encoding="utf-8-sig")
    assert text.count("100.1. 这些万智牌") == 1 and text.count("107.3a 如果一个咒语") == 1
    text = text.replace("100.1. 这些万智牌", "100.1. 这些\x01万智牌")
    text = text.replace("107.3a 如果一个咒语", "107.3a 如果\ufffe一个\uffff咒语")
    path = folder / "cr-zh-2022-06-10.txt"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def hostile_store(store_copy, tmp_path: Path):
    proc = run_cli("--db", str(store_copy), "ingest", str(_hostile_translation(tmp_path)))
    assert proc.returncode == 0, proc.stderr
    return store_copy


def test_xliff_job_and_memory_are_well_formed_with_control_characters(
    hostile_store, tmp_path: Path
) -> None:
    job = tmp_path / "job.xlf"
    proc = run_cli(
        "--db", str(hostile_store), "export", "xliff", "zh-Hans-2022-06-10", "-o", str(job)
    )
    assert proc.returncode == 0, proc.stderr
    assert "3 characters that XML 1.0 forbids (U+0001, U+FFFE, U+FFFF)" in proc.stderr
    xliff = etree.parse(str(job))  # strict: raises on a forbidden character
    memory = etree.parse(str(job.with_suffix(".tmx")))
    texts = [el.text or "" for doc in (xliff, memory) for el in doc.iter()]
    assert not any(forbidden_in_xml(t) for t in texts)
    # Where each replaced character was, the document says so.
    notes = [n.text for n in xliff.iter("{*}note") if "XML 1.0 forbids" in (n.text or "")]
    props = [p.text for p in memory.iter("prop") if p.get("type") == "x-replaced-characters"]
    found = " ".join(notes + props)
    for code in ("U+0001", "U+FFFE", "U+FFFF"):
        assert code in found, found
    segs = [el.text for doc in (xliff, memory) for el in doc.iter() if el.text]
    assert any("这些\ufffd万智牌" in s for s in segs)
    assert any("如果\ufffd一个\ufffd咒语" in s for s in segs)


def test_tmx_export_is_well_formed_with_control_characters(hostile_store, tmp_path: Path):
    out = tmp_path / "zh.tmx"
    proc = run_cli(
        "--db",
        str(hostile_store),
        "export",
        "tmx",
        "--target-lang",
        "zh-Hans",
        "--rule",
        "107.3",
        "-o",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    assert "U+FFFE, U+FFFF" in proc.stderr
    root = etree.parse(str(out)).getroot()
    replaced = [
        tuv
        for tuv in root.iter("tuv")
        if any(p.get("type") == "x-replaced-characters" for p in tuv.iter("prop"))
    ]
    assert replaced, "the 107.3a segment says which characters it lost"
    for tuv in replaced:
        prop = next(p for p in tuv.iter("prop") if p.get("type") == "x-replaced-characters")
        assert prop.text == "U+FFFE U+FFFF"
        assert "如果\ufffd一个\ufffd咒语" in tuv.find("seg").text
