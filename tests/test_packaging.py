"""The wheel ships what an installed mtgrules needs: every package, the migrations, the corpus.

The real proof is .ci/run, which builds the wheel, installs it in a fresh virtualenv outside
the checkout and runs the main job from it; these checks catch a forgotten package early.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]


def test_every_python_package_is_listed() -> None:
    listed = set(_config()["packages"])
    on_disk = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "mtgrules").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert on_disk - listed == set(), "add these packages to pyproject.toml [tool.setuptools]"


def test_migrations_and_corpus_are_packages_of_mtgrules() -> None:
    config = _config()
    assert config["package-dir"] == {
        "mtgrules.migrations": "migrations",
        "mtgrules.corpus": "corpus",
    }
    migrations = resources.files("mtgrules.migrations")
    assert migrations.joinpath("env.py").is_file()
    versions = sorted(
        p.name for p in migrations.joinpath("versions").iterdir() if p.name[0].isdigit()
    )
    assert versions[0].startswith("0001") and len(versions) >= 4
    corpus = resources.files("mtgrules.corpus")
    assert corpus.joinpath("manifest.toml").is_file()
    assert (
        len([p for p in corpus.joinpath("corpus-extra").iterdir() if p.name.endswith(".txt")]) == 23
    )
    assert len([p for p in corpus.joinpath("seeds").iterdir() if p.name.endswith(".txt")]) == 4


def test_package_data_patterns_cover_the_data_files() -> None:
    data = _config()["package-data"]
    assert "*.tsv" in data["mtgrules.data"]
    assert "corpus-extra/*" in data["mtgrules.corpus"] and "*.txt" in data["mtgrules.corpus.seeds"]
    assert "script.py.mako" in data["mtgrules.migrations"]
