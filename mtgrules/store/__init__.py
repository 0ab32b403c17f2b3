"""The versioned store: open it (migrating on first use) and read or write it through sessions.

Light to import: SQLAlchemy loads when a store is opened this way, not before (the reading
commands may go through store/sql.py instead, see there why).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from sqlalchemy import Engine

    from .session import session_scope

__all__ = ["open_store", "session_scope"]


def open_store(
    db: str | None = None, on_upgrade: Callable[[str, str], None] | None = None
) -> Engine:
    """The engine for --db / $MTGRULES_DB / the default file, with the schema at head
    (``on_upgrade(old, new)`` hears of a migration of an existing store before it runs)."""
    from sqlalchemy.exc import OperationalError

    from ..errors import StoreError
    from .migrate import upgrade
    from .session import make_engine, resolve_url

    url = resolve_url(db)
    engine = make_engine(url)
    try:
        upgrade(engine, on_upgrade=on_upgrade)
    except OperationalError as exc:
        raise StoreError(f"cannot open the store at {url}: {exc.orig}") from None
    return engine


def __getattr__(name: str) -> Any:
    if name == "session_scope":
        from .session import session_scope

        return session_scope
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
