"""Reports read from alignments: coverage drift, edition diffs, clause traces, QA checks, TMX.

Core functions here return plain dicts with the JSON keys documented in issue 4; the
renderers (render_text, render_md, render_html) and tmx turn them into pages. No click here.
"""

from __future__ import annotations

from typing import Any

FORMATS = ("text", "json", "md", "html")


def render_report(kind: str, report: dict[str, Any], fmt: str, colour: bool = False) -> str:
    """Render a report dict: kind is rule_drift, edition_drift, diff or trace."""
    if fmt == "json":
        from ..render import to_json

        return to_json(report)
    if fmt == "md":
        from . import render_md as mod
    elif fmt == "html":
        from . import render_html as mod
    else:
        from . import render_text as mod

        return getattr(mod, f"render_{kind}")(report, colour)
    return getattr(mod, f"render_{kind}")(report)
