"""Text-file encodings: mtgrules' fixed list of candidates (sources/decode.py) beside
charset-normalizer, a well-kept detector, on real rules text in every encoding it is found in.

Run: .venv/bin/python benchmarks/eval_encodings.py [--seed N]

Material (the real files, transcoded here, never edited):
- Korean: ko-2016-09-30 (CP949 as published) and ko-2020-09-25 (UTF-8, re-encoded to CP949);
- Japanese: ja-2026-01-16 in Shift_JIS (cp932) and EUC-JP;
- Chinese: zh-Hans-2026-02-27 in GB18030; the Traditional Chinese lines of the bilingual seed
  page (seed 002) in Big5 (cp950);
- Western: the French and Spanish seed pages, and the English editions of the archive that
  were published in Windows-1252 (as published) or are re-encoded to it.
Each text is tried whole, and as excerpts of whole lines of about 80, 300, 2,000 and 20,000
characters taken at random places. A detection is right when the decoded text is exactly
the text that was encoded.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shared_data import SHARED  # noqa: E402

from mtgrules.errors import InputError  # noqa: E402
from mtgrules.sources.decode import decode_text  # noqa: E402

T = SHARED / "translations"
ARCHIVE = SHARED / "cr-archive" / "txt"
SEEDS = ROOT / "corpus" / "seeds"
SIZES = (80, 300, 2000, 20000)
TRIALS = 20  # excerpts per size


def _materials() -> list[tuple[str, str, str]]:
    """(name, text, encoding to test it in)."""
    ko2016 = (T / "ko-2016-09-30.kormtgcr.txt").read_bytes().decode("cp949")
    ko2020 = (T / "ko-2020-09-25.kormtgcr.txt").read_text("utf-8-sig")
    ja = (T / "ja-2026-01-16.mtgwiki-lines.txt").read_text("utf-8")
    zh = (T / "zh-Hans-2026-02-27.helium.txt").read_text("utf-8")
    bilingual = (SEEDS / "002_459ebb4253cf071c.txt").read_text("utf-8")
    fr = (SEEDS / "000_0b7a9445b617ebdb.txt").read_text("utf-8")
    es = (SEEDS / "001_6b17ef9efd2fae21.txt").read_text("utf-8")
    out = [
        ("ko-2016 cp949", ko2016, "cp949"),
        ("ko-2020 cp949", ko2020, "cp949"),
        ("ja cp932", ja, "cp932"),
        ("ja euc_jp", ja, "euc_jp"),
        ("zh-Hans gb18030", zh, "gb18030"),
        ("zh-Hant page cp950", bilingual, "cp950"),
        ("fr page cp1252", fr, "cp1252"),
        ("es page cp1252", es, "cp1252"),
    ]
    for path in sorted(ARCHIVE.glob("*.txt")):
        data = path.read_bytes()
        if data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
            continue  # a byte-order mark says what it is
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            out.append((f"en {path.stem} cp1252 as published", data.decode("cp1252"), "cp1252"))
    en = (ROOT / "corpus" / "corpus-extra" / "cr-en-2026-01-16.txt").read_text("utf-8-sig")
    out.append(("en-2026-01-16 cp1252", en, "cp1252"))
    return out


def _excerpts(text: str, rng: random.Random) -> list[tuple[str, str]]:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    out = [("whole", text)]
    for size in SIZES:
        for _ in range(TRIALS):
            start = rng.randrange(len(lines))
            taken: list[str] = []
            n = 0
            for ln in lines[start:] + lines[:start]:
                taken.append(ln)
                n += len(ln)
                if n >= size:
                    break
            out.append((str(size), "\n".join(taken)))
    return out


def _encode(text: str, encoding: str) -> bytes:
    # A few characters have no form in a legacy encoding (a Korean text's "ㆍ"): replaced,
    # as a user's editor would on saving.
    return text.encode(encoding, "replace")


def _ours(data: bytes) -> str | None:
    try:
        return decode_text(data, "sample")[0]
    except InputError:
        return None


def _theirs(data: bytes) -> str | None:
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    return str(best) if best is not None else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = []
    for name, text, encoding in _materials():
        for size, excerpt in _excerpts(text, rng):
            data = _encode(excerpt, encoding)
            if data.isascii():
                continue  # nothing to tell
            cases.append((name, size, data, data.decode(encoding)))
    print(f"{len(cases)} samples; right = decoded text equals the text encoded")
    for label, detect in (("mtgrules fixed list", _ours), ("charset-normalizer", _theirs)):
        wrong: Counter[tuple[str, str]] = Counter()
        t0 = time.perf_counter()
        for name, size, data, expected in cases:
            if detect(data) != expected:
                wrong[(name.split(" ")[0] if name.startswith("en ") else name, size)] += 1
        elapsed = time.perf_counter() - t0
        right = len(cases) - sum(wrong.values())
        print(
            f"{label:22s} {right}/{len(cases)} right ({right / len(cases):.1%}), "
            f"{elapsed:.2f} s ({elapsed / len(cases) * 1000:.1f} ms a sample)"
        )
        for (name, size), n in sorted(wrong.items()):
            print(f"    wrong: {name} [{size}] x{n}")


if __name__ == "__main__":
    main()
