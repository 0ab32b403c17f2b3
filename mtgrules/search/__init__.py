"""Search the rules across languages (issue 5).

``index_edition`` is called by ingest; ``search`` answers the ``mtgrules search`` command.
This module stays light to import: ingest imports it on every run.
"""

from __future__ import annotations

from .index import include_object, index_edition, is_search_object, rebuild_index

__all__ = ["include_object", "index_edition", "is_search_object", "rebuild_index", "search"]


def search(*args, **kwargs):
    """See :func:`mtgrules.search.engine.search` (imported lazily: rapidfuzz, termbase)."""
    from .engine import search as _search

    return _search(*args, **kwargs)
