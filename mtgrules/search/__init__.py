"""Search the rules across languages: ``search(session, query, ...)`` -> SearchResult.

This package stays light to import: the engine (rapidfuzz, the termbase) loads on first use.
"""

from __future__ import annotations

__all__ = ["search"]


def search(*args, **kwargs):
    """See :func:`mtgrules.search.engine.search`."""
    from .engine import search as _search

    return _search(*args, **kwargs)
