"""Imports go only downward: each layer of mtgrules imports only the layers below it.

Every import counts, the lazy ones inside functions too: a lazy import is still a
dependency. Between packages, LAYERS gives the order. Inside a package, the packages of
INNER_LAYERS have a table of their own (ALIGN_LAYERS for the aligner, SOURCES_STEPS for
intake, a pipeline: read -> detect -> extract -> decode -> segment -> parse): a module
imports only modules of a strictly lower rank, and a topological sort proves there is no
circle.
"""

from __future__ import annotations

import ast
import functools
import graphlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mtgrules"

# Lowest first. A module may import modules of a lower rank, and its own package.
LAYERS: dict[str, int] = {
    "": 0,  # the package itself: __version__
    "errors": 0,
    "record": 0,
    "progress": 0,
    "shipped": 0,  # where the data files shipped in mtgrules/data/ are
    "pool": 0,  # the worker processes an ingest shares out its parsing and aligning to
    "schemas": 1,
    "text": 1,
    "output": 1,
    "model": 2,
    "render": 2,
    "sources": 3,
    "archive": 3,
    "store": 3,
    "ingest": 4,
    "termbase": 4,
    "align": 5,
    "search": 6,
    "reports": 6,
    "remove": 6,
    "cite": 6,
    "site": 7,
    "fetch": 8,
    "api": 9,
    "cli": 10,
}


# The aligner's own layers, lowest first: each of its modules imports only modules of a
# lower rank (of align/; the other packages go by LAYERS). The gaps leave room for new
# modules in each layer.
ALIGN_LAYERS: dict[str, int] = {
    # data types: the renumbering map (labels only), then the results of the aligner
    "renumbering": 0,
    "model": 1,
    # scoring: what two clauses have in common, and whether labels count
    "features": 10,
    "numbering": 10,
    "scope": 10,
    "terms": 10,
    # the sequence DP: monotonic steps, then anchors, backbone, gaps and moves
    "dp": 20,
    "sequence": 21,
    # who made a stored alignment (the aligner's version, code digest and settings)
    "signature": 22,
    # pairings: whole editions, glossaries, the judging of older text, then what builds on them
    "edition": 30,
    "glossary": 30,
    "lineage": 30,
    "ancestry": 31,
    "rule": 31,
    # whole-edition pairs computed in worker processes (steps of edition.py and their
    # ancestry, no store)
    "workers": 32,
    "english": 31,
    "dating": 32,
    "choice": 33,
    # storage: stored links (links.py is the plain-SQL read side search uses; stored.py that
    # of whole editions, which update reads), alignments read back or computed (storage.py),
    # labels inferred from them
    "links": 40,
    "stored": 40,
    # the one map of a pair of editions, read through the stored steps (on stored.py)
    "composition": 41,
    "storage": 42,
    "inferred": 43,
    # planning and the commands' entry points
    "reference": 50,
    "check": 50,
    "evaluate": 50,
    "learning": 50,
    "plan": 51,
    "report": 52,
    "__init__": 60,
}


# Intake's modules, in the order data flows through them. A step imports only the
# vocabulary and the steps or helpers ranked below it, never a later step.
SOURCES_STEPS: dict[str, int] = {
    # the words every step shares, and helpers that import no other module of sources
    "formats": 0,  # format names, size limits, Extracted
    "zipped": 0,  # zip sizes checked before unpacking (detect and the DOCX extractor)
    "damage": 0,  # scraping damage flags (parse)
    "dates": 0,  # dates written in the text (parse)
    "read": 10,  # 1. read: bytes, bounded
    "detect": 20,  # 2. detect: which container (magic bytes)
    "pdf": 30,  # 3. extract: one module per container...
    "office": 30,
    "rtf": 30,
    "extract": 31,  # ...and the step that picks one
    "decode": 40,  # 4. decode: text files' bytes to characters
    "markup": 50,  # 5. segment: markup dialects...
    "segment": 51,  # ...and the step: parse lines mapped to the page
    "clauses": 60,  # 6. parse: pieces every layout shares...
    "parts": 60,  # ...the words naming a text's parts in every language...
    "official": 61,  # ...the layouts...
    "scraped": 61,
    "parse": 62,  # ...and the step: editions, languages, "is this the rules?"
    "pipeline": 70,  # runs the six steps in order; the only module that sees them all
    "__init__": 80,
}
# Packages with a layer table of their own.
INNER_LAYERS: dict[str, dict[str, int]] = {"align": ALIGN_LAYERS, "sources": SOURCES_STEPS}


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


ALIGN = PACKAGE / "align"


def _inner_module(name: str, folder: Path) -> str | None:
    """'mtgrules.align.edition' (or a name inside it) -> 'edition' for folder align/; the
    package itself -> '__init__'; a module of another package -> None."""
    parts = name.split(".")
    if parts[:2] != ["mtgrules", folder.name]:
        return None
    if len(parts) == 2:
        return "__init__"
    return parts[2] if (folder / f"{parts[2]}.py").exists() else "__init__"


@functools.cache  # parsed once per package, not once per parametrized test
def package_graph(folder: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (lazy imports included)."""
    out: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        me = path.stem
        deps = {_inner_module(t, folder) for _, t in _imports(path, folder.parents[1])}
        out[me] = {d for d in deps if d and d != me}
    return out


def align_graph(root: Path = ALIGN) -> dict[str, set[str]]:
    return package_graph(root)


INNER_MODULES = [
    (package, module)
    for package in sorted(INNER_LAYERS)
    for module in sorted(package_graph(PACKAGE / package))
]


@pytest.mark.parametrize("package", sorted(INNER_LAYERS))
def test_every_module_has_a_rank_in_its_package(package: str) -> None:
    modules = set(package_graph(PACKAGE / package))
    table = INNER_LAYERS[package]
    assert modules - set(table) == set(), f"give these modules a rank in {package}'s table"
    assert set(table) - modules == set(), f"{package}'s table names modules that do not exist"


@pytest.mark.parametrize(("package", "module"), INNER_MODULES, ids="/".join)
def test_imports_inside_a_package_go_downward(package: str, module: str) -> None:
    graph, table = package_graph(PACKAGE / package), INNER_LAYERS[package]
    rank = table[module]
    upward = sorted(d for d in graph[module] if table.get(d, 99) >= rank)
    assert not upward, f"{package}/{module}.py imports its own layer or above: {upward}"


@pytest.mark.parametrize("package", sorted(INNER_LAYERS))
def test_no_import_cycle_inside_the_package(package: str) -> None:
    # A topological order exists exactly when no module reaches back to itself.
    graph = package_graph(PACKAGE / package)
    order = list(graphlib.TopologicalSorter(graph).static_order())
    assert sorted(order) == sorted(graph)


def test_the_checker_finds_a_cycle_inside_align(tmp_path: Path) -> None:
    fake = tmp_path / "mtgrules" / "align"
    fake.mkdir(parents=True)
    (fake / "edition.py").write_text("from .storage import save\n", encoding="utf-8")
    (fake / "storage.py").write_text("def f():\n    from .edition import x\n", encoding="utf-8")
    graph = align_graph(fake)
    assert graph == {"edition": {"storage"}, "storage": {"edition"}}
    with pytest.raises(graphlib.CycleError):
        list(graphlib.TopologicalSorter(graph).static_order())


def test_the_checker_finds_a_circle_of_steps_inside_sources(tmp_path: Path) -> None:
    # decode (step 4) reaching back to detect is allowed; detect reaching forward to
    # segment is not, and closes a circle through segment's import of decode.
    fake = tmp_path / "mtgrules" / "sources"
    fake.mkdir(parents=True)
    (fake / "decode.py").write_text("def f():\n    from .detect import x\n", encoding="utf-8")
    (fake / "detect.py").write_text("from .segment import y\n", encoding="utf-8")
    (fake / "segment.py").write_text("from mtgrules.sources.decode import f\n", encoding="utf-8")
    graph = package_graph(fake)
    assert graph == {"decode": {"detect"}, "detect": {"segment"}, "segment": {"decode"}}
    upward = {m for m, deps in graph.items() for d in deps if SOURCES_STEPS[d] >= SOURCES_STEPS[m]}
    assert upward == {"detect"}
    with pytest.raises(graphlib.CycleError):
        list(graphlib.TopologicalSorter(graph).static_order())
