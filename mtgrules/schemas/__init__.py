"""The JSON Schemas (draft 2020-12) of every JSON output of the `mtgrules` command.

One file per output, ``<name>.schema.json`` beside this module; docs/json-schemas.md says
which command prints which. They ship in the wheel and are read with importlib.resources,
so loading one needs nothing but the standard library (validating needs jsonschema, a
test-only dependency).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from ..errors import NotFoundError

SUFFIX = ".schema.json"


def schema_names() -> list[str]:
    """The names of the shipped schemas (ingest, drift-rule, ...), sorted."""
    return sorted(
        entry.name.removesuffix(SUFFIX)
        for entry in resources.files(__package__).iterdir()
        if entry.name.endswith(SUFFIX)
    )


def load_schema(name: str) -> dict[str, Any]:
    """The schema called ``name`` (as listed by schema_names), as a dict."""
    entry = resources.files(__package__).joinpath(name + SUFFIX)
    if "/" in name or "\\" in name or not entry.is_file():
        raise NotFoundError(
            f"no JSON schema named '{name}'; the schemas are: {', '.join(schema_names())}"
        )
    return json.loads(entry.read_text(encoding="utf-8"))
