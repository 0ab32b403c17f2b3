"""Typed results that know their JSON form: the base of every report and search result.

A result is a dataclass; ``as_json()`` gives the dict that ``--json`` prints and that the
schemas in ``mtgrules/schemas/`` describe. A field's JSON key is its name unless its
metadata says otherwise (``key("from")`` for a field that cannot be called ``from``), and a
field marked ``optional`` is left out of the JSON while it is None (the key is absent, not
null, as the schemas say).
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any


def key(name: str, *, optional: bool = False) -> dict[str, Any]:
    """Field metadata: the JSON key ``name`` for this field."""
    return {"json": name, "optional": optional}


OPTIONAL: dict[str, Any] = {"optional": True}
# A field for Python users only (an object the JSON already gives in another form).
INTERNAL: dict[str, Any] = {"internal": True}


_PLAIN = frozenset({str, int, float, bool})


def to_json(value: Any) -> Any:
    """Records, lists and dicts of them, as plain JSON values."""
    if value is None or type(value) in _PLAIN:
        return value  # most values of a report (asking a str for as_json costs more)
    if hasattr(value, "header_json"):  # an edition inside a result: its header only
        return value.header_json()
    if hasattr(value, "as_json"):  # a Record, or another result type with its own form
        return value.as_json()
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


class Record:
    """Mixin for dataclasses: ``as_json()`` from the fields and their metadata."""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, json_key, optional in _json_fields(type(self)):
            value = getattr(self, name)
            if value is None and optional:
                continue
            out[json_key] = to_json(value)
        return out


@cache
def _json_fields(cls: type) -> tuple[tuple[str, str, bool], ...]:
    """(field name, JSON key, optional) of a record class, read from its metadata once: an
    update report turns some 5,000 records into JSON."""
    return tuple(
        (f.name, f.metadata.get("json", f.name), bool(f.metadata.get("optional")))
        for f in dataclasses.fields(cls)
        if not f.metadata.get("internal")
    )
