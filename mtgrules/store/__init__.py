"""The versioned store: open it (migrating on first use) and read or write it through sessions."""

from __future__ import annotations

from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from ..errors import StoreError
from .migrate import upgrade
from .session import make_engine, resolve_url, session_scope

__all__ = ["open_store", "session_scope"]


def open_store(db: str | None = None) -> Engine:
    """The engine for --db / $MTGRULES_DB / the default file, with the schema at head."""
    url = resolve_url(db)
    engine = make_engine(url)
    try:
        upgrade(engine)
    except OperationalError as exc:
        raise StoreError(f"cannot open the store at {url}: {exc.orig}") from None
    return engine
