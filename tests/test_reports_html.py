"""The HTML report as a reader sees it: loaded in headless Chromium, with no network.

Run with: pytest -m browser tests/test_reports_html.py (Debian's chromium package).
The screenshots are decoded here (a few lines of PNG) to check that the coloured cells and
highlighted words are really painted, not only present in the markup.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from mtgrules.reports import render_html

from .conftest import run_cli

pytestmark = pytest.mark.browser

# Colours from render_html's stylesheet: missing cell, inserted words, deleted words.
MISSING_RGB = (0xFF, 0xE9, 0xA8)
INS_RGB = (0xC8, 0xF7, 0xC5)
DEL_RGB = (0xFF, 0xD0, 0xD0)


def _chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        if os.environ.get("MTGRULES_BROWSER_REQUIRED"):
            pytest.fail("chromium is not installed: apt-get install -y chromium")
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    return exe


def _run_chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "chromium-profile"
    profile.mkdir(exist_ok=True)
    cmd = [
        _chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True)


def dump_dom(tmp_path: Path, page: Path) -> str:
    return _run_chromium(tmp_path, "--dump-dom", page.as_uri()).stdout


def screenshot(tmp_path: Path, page: Path, name: str, size: str = "1400,1000") -> Path:
    out = tmp_path / name
    _run_chromium(tmp_path, f"--screenshot={out}", f"--window-size={size}", page.as_uri())
    assert out.exists() and out.stat().st_size > 1000
    return out


def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of RGB(A) bytes of an 8-bit, non-interlaced PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        rows.append(bytes(line) if bpp == 3 else bytes(v for j, v in enumerate(line) if j % 4 != 3))
        prev = line
    return width, height, rows


def count_colour(path: Path, rgb: tuple[int, int, int]) -> int:
    _, _, rows = png_pixels(path)
    needle = bytes(rgb)
    total = 0
    for row in rows:
        for x in range(0, len(row), 3):
            if row[x : x + 3] == needle:
                total += 1
    return total


def test_drift_page_shows_the_matrix_and_highlighted_changes(corpus_db, tmp_path: Path) -> None:
    page = tmp_path / "drift.html"
    result = run_cli("drift", "107.3", "--format", "html", "-o", str(page), db=corpus_db)
    assert result.returncode == 0, result.stderr
    dom = dump_dom(tmp_path, page)
    assert 'id="matrix"' in dom
    assert dom.count('class="key label"') == 15  # one row per clause of today's 107.3
    assert 'class="missing"' in dom and "fr-forum-fr-107.3" in dom
    assert "<ins>" in dom  # English editions beside the reference, word changes marked
    shot = screenshot(tmp_path, page, "drift.png")
    # The yellow "missing" cells of the matrix are painted in the first screen.
    assert count_colour(shot, MISSING_RGB) > 2000


def test_diff_page_highlights_word_changes(corpus_db, tmp_path: Path) -> None:
    page = tmp_path / "diff.html"
    result = run_cli(
        "diff",
        "en-2009-07-11",
        "en-2026-01-16",
        "--rule",
        "107.3",
        "--format",
        "html",
        "-o",
        str(page),
        db=corpus_db,
    )
    assert result.returncode == 0, result.stderr
    dom = dump_dom(tmp_path, page)
    assert "<del>as he or she pays</del>" in dom
    assert "<ins>immediately before they pay</ins>" in dom
    shot = screenshot(tmp_path, page, "diff.png")
    assert count_colour(shot, INS_RGB) > 300 and count_colour(shot, DEL_RGB) > 300


def test_rule_text_with_markup_stays_text(tmp_path: Path) -> None:
    hostile = '<script>document.title="pwned"</script><img src=x onerror="document.title=1">'
    report = {
        "rule": "107.3",
        "reference": 1,
        "editions": [
            {
                "id": 1,
                "slug": "en-a",
                "language": "en",
                "kind": "rules",
                "date": "2026-01-16",
                "source": "a",
            },
            {
                "id": 2,
                "slug": "fr-b",
                "language": "fr",
                "kind": "rules",
                "date": None,
                "source": "b",
            },
        ],
        "rows": [
            {
                "key": "107.3a",
                "text": hostile,
                "cells": {"1": "107.3a", "2": None},
                "texts": {"1": hostile},
            }
        ],
        "extra_rows": [],
        "missing": {"2": ["107.3a"]},
        "renumbered": [],
        "checks": [],
        "summary": {
            "editions_lacking": 1,
            "clauses_missing": 1,
            "renumbered": 0,
            "errors": 0,
            "warnings": 0,
        },
    }
    page = tmp_path / "hostile.html"
    page.write_text(render_html.render_rule_drift(report), encoding="utf-8")
    dom = dump_dom(tmp_path, page)
    assert "pwned" not in dom.split("</title>")[0]  # the script never ran
    assert "<script" not in dom and "<img" not in dom
    assert "&lt;script&gt;document.title" in dom  # the reader sees the text itself
