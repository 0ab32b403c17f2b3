"""Imports go only downward: each layer of mtgrules imports only the layers below it.

Every import counts, the lazy ones inside functions too: a lazy import is still a
dependency. Between packages, LAYERS gives the order. Inside ``sources/`` (intake, a
pipeline: read -> detect -> extract -> decode -> segment -> parse), SOURCES_STEPS gives
each module its rank, and a module imports only modules of a strictly lower rank, which
leaves no room for a circle; the packages in NO_CYCLES are also searched for circles
directly.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mtgrules"

# Lowest first. A module may import modules of a lower rank, and its own package.
LAYERS: dict[str, int] = {
    "": 0,  # the package itself: __version__
    "errors": 0,
    "record": 0,
    "schemas": 1,
    "text": 1,
    "model": 2,
    "render": 2,
    "sources": 3,
    "store": 3,
    "ingest": 4,
    "termbase": 4,
    "align": 5,
    "search": 6,
    "reports": 6,
    "site": 7,
    "api": 8,
    "cli": 9,
}


# Intake's modules, in the order data flows through them. A step imports only the
# vocabulary and the steps or helpers ranked below it, never a later step.
SOURCES_STEPS: dict[str, int] = {
    "__init__": 0,
    # the words every step shares, and helpers that import no other module of sources
    "formats": 0,  # format names, size limits, Extracted
    "zipped": 0,  # zip sizes checked before unpacking (detect and the DOCX extractor)
    "damage": 0,  # scraping damage flags (parse)
    "dates": 0,  # dates written in the text (parse)
    "read": 1,  # 1. read: bytes, bounded
    "detect": 2,  # 2. detect: which container (magic bytes)
    "pdf": 3,  # 3. extract: one module per container...
    "office": 3,
    "rtf": 3,
    "extract": 4,  # ...and the step that picks one
    "decode": 5,  # 4. decode: text files' bytes to characters
    "markup": 6,  # 5. segment: markup dialects...
    "segment": 7,  # ...and the step: parse lines mapped to the page
    "clauses": 8,  # 6. parse: pieces every layout shares...
    "official": 9,  # ...the layouts...
    "scraped": 9,
    "parse": 10,  # ...and the step: editions, languages, "is this the rules?"
    "pipeline": 11,  # runs the six steps in order; the only module that sees them all
}
# Packages whose modules must not import each other in a circle (checked on the graph).
NO_CYCLES = ("sources",)


def _layer_of(module: str) -> str:
    """'mtgrules.store.models' -> 'store'; 'mtgrules' and 'mtgrules.__version__' -> ''."""
    parts = module.split(".")
    return "" if len(parts) < 2 or parts[1].startswith("__") else parts[1]


def _module_of(path: Path, root: Path) -> list[str]:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imports(path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every mtgrules import in a file under ``root``."""
    here = _module_of(path, root)
    package = here if path.name == "__init__.py" else here[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
                names = [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            else:
                names = [node.module or ""]
            out += [(node.lineno, n) for n in names if n.startswith("mtgrules")]
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("mtgrules")]
    return out


def upward_imports(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    mine = _layer_of(".".join(_module_of(path, root)))
    rank = LAYERS[mine]
    return [
        f"line {line}: {target}"
        for line, target in _imports(path, root)
        if (other := _layer_of(target)) != mine and other and LAYERS.get(other, 99) >= rank
    ]


MODULES = sorted(PACKAGE.rglob("*.py"))
SOURCES = sorted((PACKAGE / "sources").glob("*.py"))


def _resolve(target: str, known: set[str]) -> str | None:
    """The module an import names: 'mtgrules.sources.formats.TEXT' -> 'mtgrules.sources.formats'."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


def _graph(paths: list[Path], root: Path) -> dict[str, set[str]]:
    """Module -> the modules among ``paths`` it imports (lazily or not)."""
    names = {".".join(_module_of(p, root)): p for p in paths}
    return {
        name: {
            m
            for _, target in _imports(path, root)
            if (m := _resolve(target, set(names))) is not None and m != name
        }
        for name, path in names.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports in ``graph`` (as a path that returns to its start), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def sideways_in_sources(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    """The imports of a sources module that do not go to a lower step."""
    here = _module_of(path, root)
    mine = SOURCES_STEPS[here[-1] if here[-1] != "sources" else "__init__"]
    out = []
    for line, target in _imports(path, root):
        parts = target.split(".")
        if len(parts) < 3 or parts[1] != "sources":
            continue
        other = SOURCES_STEPS.get(parts[2], 99)
        if other >= mine:
            out.append(f"line {line}: {target} (rank {other}, not below {mine})")
    return out


def test_every_module_has_a_layer() -> None:
    layers = {_layer_of(".".join(_module_of(p, PACKAGE.parent))) for p in MODULES}
    unknown = layers - set(LAYERS)
    assert not unknown, f"give these modules a layer in tests/test_layers.py: {sorted(unknown)}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_go_downward(path: Path) -> None:
    upward = upward_imports(path)
    assert not upward, f"{path.relative_to(PACKAGE)} imports sideways or upward: {upward}"


@pytest.mark.parametrize(
    ("where", "source"),
    [
        ("store/fake.py", "from ..search.engine import search\n"),
        ("store/fake.py", "def f():\n    from mtgrules.align import storage\n"),
        ("text/fake.py", "from .. import termbase\n"),
        ("align/fake.py", "from ..reports import drift\n"),
    ],
)
def test_the_checker_finds_an_upward_import(tmp_path: Path, where: str, source: str) -> None:
    fake = tmp_path / "mtgrules" / where
    fake.parent.mkdir(parents=True)
    fake.write_text(source, encoding="utf-8")
    assert upward_imports(fake, tmp_path)


def test_every_sources_module_has_a_step() -> None:
    names = {p.stem for p in SOURCES}
    assert names <= set(SOURCES_STEPS), (
        f"give these modules a rank in SOURCES_STEPS: {sorted(names - set(SOURCES_STEPS))}"
    )
    assert set(SOURCES_STEPS) <= names, f"no such module: {sorted(set(SOURCES_STEPS) - names)}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_intake_steps_import_only_earlier_ranks(path: Path) -> None:
    wrong = sideways_in_sources(path)
    assert not wrong, f"sources/{path.name} imports a step at or above its own: {wrong}"


@pytest.mark.parametrize("package", NO_CYCLES)
def test_no_circle_of_imports_inside_the_package(package: str) -> None:
    paths = sorted((PACKAGE / package).rglob("*.py"))
    assert len(paths) > 3
    assert find_cycle(_graph(paths, PACKAGE.parent)) is None


def test_the_cycle_finder_finds_a_circle(tmp_path: Path) -> None:
    pkg = tmp_path / "mtgrules" / "sources"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "decode.py").write_text("def f():\n    from .detect import x\n", encoding="utf-8")
    (pkg / "detect.py").write_text("from .segment import y\n", encoding="utf-8")
    (pkg / "segment.py").write_text("from mtgrules.sources.decode import f\n", encoding="utf-8")
    cycle = find_cycle(_graph(sorted(pkg.glob("*.py")), tmp_path))
    assert cycle is not None and cycle[0] == cycle[-1] and len(cycle) == 4
    # the same files checked by rank: decode (5) reaching detect (2) is fine, detect (2)
    # reaching segment (7) is not
    assert not sideways_in_sources(pkg / "decode.py", tmp_path)
    assert sideways_in_sources(pkg / "detect.py", tmp_path)
    assert sideways_in_sources(pkg / "segment.py", tmp_path) == []
