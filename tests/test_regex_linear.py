"""No regular expression of intake or of the text layer takes more than linear time, on any
input: every compiled pattern in mtgrules/sources/ and mtgrules/text/ runs over hostile
strings built from its own literals (an opener whose closer never comes, repeated; one
opener and a long run; long runs of spaces, letters, digits), at 4 KB and 16 KB. A linear
scan takes about four times as long on the larger one; one that rescans the rest of the
line from every opener takes sixteen times as long (and minutes at 1 MB).

Times are compared with generous margins (best of three, ratio under 10, and anything under
50 ms passes), so that a loaded machine cannot fail a linear pattern while a quadratic one
still fails by far. A pattern that is linear only through the function that uses it (a
search bounded by the last closer) is timed through that function. The markup readers as a whole are measured in benchmarks/bench_markup.py.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import re._parser as sre_parse  # the standard library's own regex parser
import time

import pytest

import mtgrules.sources
import mtgrules.text
from mtgrules.align.glossary import _see
from mtgrules.sources.clauses import see_also

SMALL, LARGE = 4 * 1024, 16 * 1024
FLOOR_SECONDS = 0.05
MAX_RATIO = 10.0


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    found = []
    for package in (mtgrules.sources, mtgrules.text):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for name, value in vars(module).items():
                if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                    found.append((f"{info.name}.{name}", value))
    return sorted(found, key=lambda p: p[0])


def _literals(tree, out: list[str]) -> None:
    """The literal strings of a parsed pattern ("<!--", "**", "此规则于"), as openers."""
    run: list[str] = []

    def flush() -> None:
        if run:
            out.append("".join(run))
            run.clear()

    for op, arg in tree:
        kind = str(op)
        if kind == "LITERAL":
            run.append(chr(arg))
            continue
        flush()
        if kind == "SUBPATTERN":
            _literals(arg[-1], out)
        elif kind in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            _literals(arg[2], out)
        elif kind == "BRANCH":
            for branch in arg[1]:
                _literals(branch, out)
        elif kind in ("ASSERT", "ASSERT_NOT"):
            _literals(arg[1], out)
        elif kind == "ATOMIC_GROUP":
            _literals(arg, out)
    flush()


def hostile_texts(pattern: re.Pattern[str], size: int) -> dict[str, str]:
    literals: list[str] = []
    _literals(sre_parse.parse(pattern.pattern, pattern.flags), literals)
    units = {"spaces": " ", "ideographic spaces": "\u3000", "letters": "a", "digits": "1"}
    texts = {f"run of {k}": v * size + "x" for k, v in units.items()}
    texts["dots"] = ". " * (size // 2)
    for lit in dict.fromkeys(x for x in literals if x.strip()):
        reps = max(1, size // (len(lit) + 2))
        texts[f"{lit!r} + 'a ' repeated"] = (lit + "a ") * reps
        texts[f"{lit!r} repeated"] = lit * max(1, size // len(lit))
        texts[f"{lit!r} then letters"] = lit + "a" * size
        texts[f"{lit!r} then spaces"] = lit + " " * size + "x"
    return texts


# Patterns whose users bound the search (see each function's docstring): timed through them.
GUARDED = {
    "clauses.SEE_ALSO": lambda text: (see_also(text), _see(text)),
}


def _best_time(name: str, pattern: re.Pattern[str], text: str, repeat: int = 3) -> float:
    run = GUARDED.get(name) or (lambda t: [None for _m in pattern.finditer(t)])
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        run(text)
        best = min(best, time.perf_counter() - t0)
    return best


PATTERNS = _patterns()


def test_the_patterns_are_found() -> None:
    names = {n for n, _ in PATTERNS}
    assert {"markup._MD_BOLD", "markup._DOKU_FORMAT", "rtf._UNICODE", "notation._EM_DASH"} <= names
    assert len(PATTERNS) > 60


@pytest.mark.parametrize("name, pattern", PATTERNS, ids=[n for n, _ in PATTERNS])
def test_every_pattern_is_linear_on_hostile_input(name: str, pattern: re.Pattern[str]) -> None:
    slow = []
    for case, small in hostile_texts(pattern, SMALL).items():
        large = hostile_texts(pattern, LARGE)[case]
        t_small = _best_time(name, pattern, small)
        if t_small * (LARGE / SMALL) ** 2 < FLOOR_SECONDS:
            continue  # even a quadratic pattern would stay under the floor here
        t_large = _best_time(name, pattern, large, repeat=1)
        if t_large > MAX_RATIO * t_small:
            t_large = min(t_large, _best_time(name, pattern, large, repeat=2))
        if t_large > FLOOR_SECONDS and t_large > MAX_RATIO * max(t_small, 1e-4):
            slow.append(f"{case}: {t_small * 1000:.1f} ms -> {t_large * 1000:.1f} ms")
    assert not slow, f"{name} ({pattern.pattern!r}) is not linear: {slow}"
