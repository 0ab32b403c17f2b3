"""Imports go only downward: each layer of mtgrules imports only the layers below it.

Every import counts, the lazy ones inside functions too: a lazy import is still a
dependency. Within one package (align importing align) anything goes.
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
    "progress": 0,
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
    "remove": 6,
    "site": 7,
    "api": 8,
    "cli": 9,
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
