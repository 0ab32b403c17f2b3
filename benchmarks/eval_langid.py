"""Language identification: py3langid, lingua and pycld2, per clause, beside mtgrules' own
function-word detector (text/language.py) as the baseline.

Run: .venv/bin/python benchmarks/eval_langid.py        (pip install py3langid
     lingua-language-detector pycld2 first: only the chosen one is a dependency)

Test material, and where each label comes from:
- en, zh-Hans: every rule clause of the bundled 2026-01-16 English and community Chinese
  editions (corpus/corpus-extra), labelled by the file they come from.
- fr, es, zh-Hant, en: the seed pages, labelled by hand line by line (the line ranges below:
  seed 000 is a French forum post that quotes the French, then the English rules; seed 001
  is a Spanish page; seed 002 interleaves English rules with their Traditional Chinese
  translation and the author's Traditional Chinese notes).
- de, it, pt, ru, ja, ko: no real rules text in these languages is available offline, so
  these are short rules-like sentences written for this benchmark by its author (not taken
  from any package's test data); they are few and only show that a detector can tell
  these languages at all.
"""

from __future__ import annotations

import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mtgrules.sources.pipeline import parse_document  # noqa: E402
from mtgrules.text.chinese import is_traditional  # noqa: E402
from mtgrules.text.detect import detect_language  # noqa: E402
from mtgrules.text.identify import identify_language  # noqa: E402
from mtgrules.text.labels import split_labelled_line  # noqa: E402

SEEDS = ROOT / "corpus" / "seeds"
EXTRA = ROOT / "corpus" / "corpus-extra"

# Non-blank line numbers (1-based) of each seed page and their language, read by eye.
SEED_LABELS = {
    "000_0b7a9445b617ebdb.txt": [(range(1, 18), "fr"), (range(18, 27), "en")],
    "001_6b17ef9efd2fae21.txt": [(range(1, 18), "es")],
    # English rules on lines 1 3 5 8 10 12 15 18 20; Chinese (rules and notes) in between.
    "002_459ebb4253cf071c.txt": [
        ((1, 3, 5, 8, 10, 12, 15, 18, 20), "en"),
        (range(1, 22), "zh-Hant"),
    ],
}

# Written for this benchmark (see the module docstring): rules-like sentences.
WRITTEN = {
    "de": [
        "Wenn ein Spieler eine Karte zieht, nimmt er die oberste Karte seiner Bibliothek.",
        "Eine Kreatur mit Flugfähigkeit kann nur von Kreaturen mit Flugfähigkeit oder Reichweite geblockt werden.",
        "Der aktive Spieler erhält zu Beginn jedes Schrittes die Priorität.",
        "Jeder Spieler beginnt das Spiel mit zwanzig Lebenspunkten.",
        "Ein Zauberspruch wird auf den Stapel gelegt, wenn er gewirkt wird.",
        "Wenn ein bleibendes Objekt getappt ist, kann es nicht erneut getappt werden.",
    ],
    "it": [
        "Quando un giocatore pesca una carta, prende la prima carta del suo grimorio.",
        "Una creatura con volare può essere bloccata solo da creature con volare o raggiungere.",
        "Il giocatore attivo riceve la priorità all'inizio di ogni sottofase.",
        "Ogni giocatore inizia la partita con venti punti vita.",
        "Una magia viene messa in pila quando viene lanciata.",
        "Se un permanente è tappato, non può essere tappato di nuovo.",
    ],
    "pt": [
        "Quando um jogador compra um card, ele pega o card do topo do seu grimório.",
        "Uma criatura com voar só pode ser bloqueada por criaturas com voar ou alcance.",
        "O jogador ativo recebe prioridade no início de cada etapa.",
        "Cada jogador começa a partida com vinte pontos de vida.",
        "Uma mágica é colocada na pilha quando é conjurada.",
        "Se uma permanente está virada, ela não pode ser virada novamente.",
    ],
    "ru": [
        "Когда игрок берёт карту, он берёт верхнюю карту своей библиотеки.",
        "Существо с полётом может быть заблокировано только существами с полётом или захватом.",
        "Активный игрок получает приоритет в начале каждого шага.",
        "Каждый игрок начинает партию с двадцатью очками жизни.",
        "Заклинание кладётся в стек, когда его разыгрывают.",
        "Если перманент повёрнут, его нельзя повернуть ещё раз.",
    ],
    "ja": [
        "プレイヤーがカードを引くとき、そのプレイヤーは自分のライブラリーの一番上のカードを手札に加える。",
        "飛行を持つクリーチャーは、飛行か到達を持つクリーチャーによってのみブロックされる。",
        "アクティブ・プレイヤーは各ステップの開始時に優先権を得る。",
        "各プレイヤーは二十点のライフでゲームを開始する。",
        "呪文は唱えられたときにスタックに置かれる。",
        "タップ状態のパーマネントは、再びタップすることができない。",
    ],
    "ko": [
        "플레이어가 카드를 뽑을 때, 그 플레이어는 자신의 서고 맨 위 카드를 가져온다.",
        "비행을 가진 생물은 비행이나 도달을 가진 생물로만 방어될 수 있다.",
        "활성 플레이어는 각 단 시작 시 우선권을 받는다.",
        "각 플레이어는 20점의 생명점으로 게임을 시작한다.",
        "주문은 발동될 때 스택에 놓인다.",
        "탭된 지속물은 다시 탭될 수 없다.",
    ],
}


def samples() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for name, lang in (("cr-en-2026-01-16.txt", "en"), ("cr-zh-2026-01-16.txt", "zh-Hans")):
        path = EXTRA / name
        doc = parse_document(path, path.read_bytes())
        out += [(lang, c.raw) for e in doc.editions for c in e.clauses if c.kind == "rule"]
    for name, ranges in SEED_LABELS.items():
        raw = (SEEDS / name).read_text(encoding="utf-8")
        lines = [ln.strip() for ln in raw.splitlines() if ln.strip()]
        for n, text in enumerate(lines, start=1):
            for rng, lang in ranges:
                if n in rng:
                    labelled = split_labelled_line(text)
                    out.append((lang, labelled[1] if labelled else text))
                    break
    out += [(lang, s) for lang, sentences in WRITTEN.items() for s in sentences]
    return out


def _zh(text: str) -> str:
    return "zh-Hant" if is_traditional(text) else "zh-Hans"


# Languages a user is likely to bring: the official translations of the rules and the
# languages most often confused with them. Detectors restricted to these are measured too.
LIKELY = "en fr es de it pt ru ja ko zh nl pl cs uk tr sv da nb fi hu ro el".split()


def detectors():
    import py3langid
    import pycld2
    from lingua import IsoCode639_1, LanguageDetectorBuilder
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    lingua_all = LanguageDetectorBuilder.from_all_languages().build()
    lingua_some = LanguageDetectorBuilder.from_iso_codes_639_1(
        *[getattr(IsoCode639_1, c.upper()) for c in LIKELY]
    ).build()
    restricted = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    restricted.set_languages([c if c != "nb" else "no" for c in LIKELY])

    def p3r(text: str) -> str | None:
        lang = restricted.classify(text)[0]
        return _zh(text) if lang == "zh" else lang

    def lingua_r(text: str) -> str | None:
        lang = lingua_some.detect_language_of(text)
        if lang is None:
            return None
        code = lang.iso_code_639_1.name.lower()
        return _zh(text) if code == "zh" else code

    def p3(text: str) -> str | None:
        lang = py3langid.classify(text)[0]
        return _zh(text) if lang == "zh" else lang

    def lingua(text: str) -> str | None:
        lang = lingua_all.detect_language_of(text)
        if lang is None:
            return None
        code = lang.iso_code_639_1.name.lower()
        return _zh(text) if code == "zh" else code

    def cld2(text: str) -> str | None:
        try:
            reliable, _, details = pycld2.detect(text)
        except pycld2.error:
            return None
        code = details[0][1]
        if code == "un":
            return None
        return _zh(text) if code.startswith("zh") else code

    return {
        "baseline detect_language": detect_language,
        "py3langid": p3,
        "lingua (all languages)": lingua,
        "pycld2": cld2,
        "py3langid (likely languages)": p3r,
        "lingua (likely languages)": lingua_r,
        "mtgrules identify_language (py3langid + scripts)": identify_language,
    }


def main() -> None:
    data = samples()
    per_lang = Counter(lang for lang, _ in data)
    long_enough = [len(text.split()) >= 3 or len(text) >= 12 for _, text in data]
    print(f"{len(data)} clauses: " + ", ".join(f"{k} {v}" for k, v in sorted(per_lang.items())))
    print(f"{sum(long_enough)} of them have 3 words (or 12 characters of CJK) or more")
    for name, fn in detectors().items():
        t0 = time.perf_counter()
        fn(data[0][1])  # the first call loads the model
        load = time.perf_counter() - t0
        right: dict[str, int] = defaultdict(int)
        wrong: Counter[tuple[str, str | None]] = Counter()
        unsure = right_long = wrong_long = 0
        t0 = time.perf_counter()
        for (lang, text), long in zip(data, long_enough, strict=True):
            got = fn(text)
            if got == lang:
                right[lang] += 1
                right_long += long
            elif got is None:
                unsure += 1
            else:
                wrong[(lang, got)] += 1
                wrong_long += long
        elapsed = time.perf_counter() - t0
        total = sum(right.values())
        print(
            f"\n{name}: {total}/{len(data)} = {100 * total / len(data):.1f}% right, "
            f"{unsure} unsure (None), {sum(wrong.values())} wrong; "
            f"3+ words: {100 * right_long / sum(long_enough):.2f}% right, {wrong_long} wrong; "
            f"{1e3 * elapsed / len(data):.2f} ms/clause, first call {load:.1f} s"
        )
        print("  " + "  ".join(f"{lang} {right[lang]}/{n}" for lang, n in sorted(per_lang.items())))
        if wrong:
            print("  most common errors:", wrong.most_common(6))


if __name__ == "__main__":
    main()
