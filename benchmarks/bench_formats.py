"""Extraction time of every PDF, DOCX, RTF and .doc edition in the cr-archive, beside a
baseline run in the same process: reading the .txt of the same date and splitting its lines.
Also the parse of each against the .txt: rule count, same labels, % identical text.

Run: .venv/bin/python benchmarks/bench_formats.py [ARCHIVE]   (default ../shared/cr-archive)

"lib s" is the library alone (PDFium's page text, python-docx's paragraph list), to show
what the layout work adds. "identical" is Clause.norm; "folded" also folds the ASCII typography of the 2006-2012 text
files ("--" for an em dash, "(TM)"), see mtgrules/text/notation.py.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from mtgrules.sources.decode import decode_text
from mtgrules.sources.parse import parse_text
from mtgrules.sources.pipeline import extract_text, parse_document
from mtgrules.text.normalize import normalize_text
from mtgrules.text.notation import fold_ascii_typography

ROOT = Path(__file__).resolve().parents[1]
REPEAT = 3  # best of three, for both the extraction and the baseline


def best(fn) -> tuple[float, object]:
    times, result = [], None
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def bare_library(path: Path, data: bytes) -> float | None:
    """The library alone, no layout work: PDFium's page text, python-docx's paragraphs."""
    if path.suffix == ".pdf":
        import pypdfium2 as pdfium

        def run():
            pdf = pdfium.PdfDocument(data)
            return [pdf[i].get_textpage().get_text_bounded() for i in range(len(pdf))]
    elif path.suffix == ".docx":
        import io

        import docx

        def run():
            return [p.text for p in docx.Document(io.BytesIO(data)).paragraphs]
    else:
        return None
    return best(run)[0]


def rules(editions) -> list:
    return [c for e in editions for c in e.clauses if c.kind == "rule"]


def folded(raw: str) -> str:
    return normalize_text(fold_ascii_typography(raw))


def main() -> None:
    archive = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "cr-archive"
    files = sorted(p for d in ("pdf", "docx", "rtf", "doc") for p in (archive / d).glob("*.*"))
    if not files:
        sys.exit(f"no PDF, DOCX, RTF or DOC files under {archive}")
    print(
        f"{'file':<18} {'extract s':>9} {'txt s':>7} {'ratio':>6} {'lib s':>6}  "
        f"{'rules':>11} {'labels':>6} {'identical':>9} {'folded':>7}"
    )
    total_x = total_b = 0.0
    for path in files:
        data = path.read_bytes()
        txt = archive / "txt" / f"{path.stem}.txt"
        txt_bytes = txt.read_bytes()
        x_s, extracted = best(lambda data=data, path=path: extract_text(data, str(path)))
        # Baseline: what plain text costs before parsing, the same date's .txt decoded and split.
        b_s, _ = best(lambda b=txt_bytes, t=txt: decode_text(b, str(t))[0].splitlines())
        lib_s = bare_library(path, data)
        total_x += x_s
        total_b += b_s
        ref = rules(parse_document(txt, txt_bytes).editions)
        got = rules(parse_text(extracted.text, str(path)))
        same_labels = [c.label for c in ref] == [c.label for c in got]
        pairs = list(zip(ref, got, strict=False))
        identical = sum(a.norm == b.norm for a, b in pairs) / len(ref)
        fold = sum(folded(a.raw) == folded(b.raw) for a, b in pairs) / len(ref)
        print(
            f"{path.name:<18} {x_s:>9.3f} {b_s:>7.3f} {x_s / b_s:>5.0f}x "
            f"{'' if lib_s is None else f'{lib_s:.3f}':>6}  "
            f"{len(got):>5}/{len(ref):<5} {'same' if same_labels else 'DIFF':>6} "
            f"{100 * identical:>8.2f}% {100 * fold:>6.2f}%"
        )
    print(
        f"{'all':<18} {total_x:>9.3f} {total_b:>7.3f} {total_x / total_b:>5.0f}x  "
        f"(best of {REPEAT}; baseline: decode + splitlines of the .txt of the same date)"
    )


if __name__ == "__main__":
    main()
