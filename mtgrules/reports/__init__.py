"""Reports read from alignments: coverage drift, edition diffs, clause traces, QA checks, TMX.

Core functions return typed results (dataclasses with ``as_json()``; the JSON they print is
described by the schemas in ``mtgrules/schemas/``). The renderers (render_text, render_md,
render_html) work from that JSON form, the same contract other tools read. No click here.
"""

from __future__ import annotations

from typing import Any

from ..record import Record


def render_report(
    kind: str,
    report: Record | dict[str, Any],
    fmt: str,
    colour: bool = False,
    width: int = 80,
) -> str:
    """Render a report: kind is rule_drift, edition_drift, update, diff or trace; fmt is
    text, json, md or html. Text is laid out in ``width`` columns, its strings made
    visible by the terminal sanitiser (text/terminal.py) before any colour is added."""
    data = report.as_json() if isinstance(report, Record) else report
    if fmt == "json":
        from ..render import to_json

        return to_json(data)
    if fmt == "md":
        from . import render_md as mod
    elif fmt == "html":
        from . import render_html as mod
    else:
        from ..text.terminal import visible_tree
        from . import render_text as mod

        return getattr(mod, f"render_{kind}")(visible_tree(data), colour, width)
    return getattr(mod, f"render_{kind}")(data)
