"""Imports go only downward: each layer of mtgrules imports only the layers below it.

Every import counts, the lazy ones inside functions too: a lazy import is still a
dependency. Within a package, the aligner (align/) has a layer table of its own; see
ALIGN_LAYERS.
"""

from __future__ import annotations

import ast
import graphlib
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
    "archive": 3,
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


# The aligner's own layers, lowest first: each of its modules imports only modules of a
# lower rank (of align/; the other packages go by LAYERS). The gaps leave room for new
# modules in each layer.
ALIGN_LAYERS: dict[str, int] = {
    # data types: the results of the aligner
    "model": 0,
    # scoring: what two clauses have in common, and whether labels count
    "features": 10,
    "numbering": 10,
    # the sequence DP: monotonic steps, then anchors, backbone, gaps and moves
    "dp": 20,
    "sequence": 21,
    # pairings: whole editions, glossaries, the judging of older text, then what builds on them
    "edition": 30,
    "glossary": 30,
    "lineage": 30,
    "ancestry": 31,
    "rule": 31,
    "dating": 32,
    # storage: stored links (links.py is the plain-SQL read side search uses), alignments
    # read back or computed (storage.py), labels inferred from them
    "links": 40,
    "storage": 41,
    "inferred": 42,
    # planning and the commands' entry points
    "reference": 50,
    "check": 50,
    "evaluate": 50,
    "learning": 50,
    "plan": 51,
    "report": 52,
    "__init__": 60,
}


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


def _align_module(name: str) -> str | None:
    """'mtgrules.align.edition' (or a name inside it) -> 'edition'; the package -> '__init__'."""
    parts = name.split(".")
    if parts[:2] != ["mtgrules", "align"]:
        return None
    if len(parts) == 2:
        return "__init__"
    return parts[2] if (ALIGN / f"{parts[2]}.py").exists() else "__init__"


def align_graph(root: Path = ALIGN) -> dict[str, set[str]]:
    """Module -> the modules of align/ it imports (lazy imports included)."""
    out: dict[str, set[str]] = {}
    for path in sorted(root.glob("*.py")):
        me = path.stem
        deps = {_align_module(t) for _, t in _imports(path, root.parents[1])}
        out[me] = {d for d in deps if d and d != me}
    return out


def test_every_align_module_has_a_rank() -> None:
    unknown = set(align_graph()) - set(ALIGN_LAYERS)
    assert not unknown, f"give these modules a rank in ALIGN_LAYERS: {sorted(unknown)}"


@pytest.mark.parametrize("module", sorted(align_graph()))
def test_align_imports_go_downward(module: str) -> None:
    graph = align_graph()
    rank = ALIGN_LAYERS[module]
    upward = sorted(d for d in graph[module] if ALIGN_LAYERS.get(d, 99) >= rank)
    assert not upward, f"align/{module}.py imports its own layer or above: {upward}"


def test_align_has_no_import_cycle() -> None:
    # A topological order exists exactly when no module reaches back to itself.
    graph = align_graph()
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
